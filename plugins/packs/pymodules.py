"""Python modules as facts for the packs: names, imports, classes; and name resolution across files.

`module_facts(path, tree, describe)` reads one parsed module (never runs it): what each top-level
name is bound to (a class, a call such as `declarative_base()`, an import) and, for every
module-level class (also under `if`/`try`), and every class a function or method defines when
it runs (a factory's model), its bases, keywords and decorators as written plus whatever the
pack's `describe` hook learns from its body (names resolve from the module's scope). `Modules` then resolves a name as Python would see it from a module — through
assignments and imports, into the other scanned files — so a pack can follow inheritance across
modules without importing anything; a name bound by no statement is looked up in the module's
`from X import *` sources (their `__all__`, else their public names). Names that lead outside
the scanned files come back as
`External` with their dotted import path (`sqlalchemy.orm.DeclarativeBase`). A class base that
is a call's result (`db.Model`, `declarative_base()`, `build_base()`) gets the bases a pack's
`made` hook says the call makes (`packs/model_bases.py`), else an `External` named by the call.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

B = TypeVar("B")
T = TypeVar("T")
MAX_ANCESTORS = 64
"""Classes of the repository a class's ancestors list before the rest is a base out of sight
(`Modules.ancestors`): real hierarchies are a few dozen deep, a hostile one thousands."""

REPOSITORY_PACKAGES: ContextVar[Collection[str] | None] = ContextVar(
    "repository_packages", default=None
)
"""The folders that are packages (`packages_of` every file of the request's walk), set by the
scanner while it links (`packs.scan`): known even when the pre-filter parsed none of their
`__init__.py`. Unset (a link called on its own): the linked files say."""

Literal = str | int | float | bool | None


Written: TypeAlias = "str | CallBinding"
"""A keyword argument's value as written (`CallBinding.keywords`)."""


@dataclass(frozen=True)
class CallBinding:
    """`NAME = some.call(...)` at module level: the callee as written, dotted, and the class
    passed as `cls=` (`declarative_base(cls=CustomBase)`: the base then inherits from it)."""

    callee: str
    cls: str | None = None
    metaclass: str | None = None  # `declarative_base(metaclass=PrefixMeta)`, as written
    # every keyword argument as written: a dotted name or a literal's `repr` (`model_class=Base`,
    # `disable_autonaming=True`), a call as its own binding (`model_class=declarative_base(...)`),
    # "" for anything else; `**spread` as the keyword "**": what a pack's `made` hook reads
    keywords: tuple[tuple[str, Written], ...] = ()


@dataclass(frozen=True)
class AliasBinding:
    """`NAME = other.name` at module level."""

    target: str


@dataclass(frozen=True)
class ClassFacts(Generic[B]):
    name: str
    line: int
    bases: tuple[str, ...]  # dotted, as written; bases that are not plain names are left out
    keywords: tuple[tuple[str, Literal], ...]  # class keywords with literal values (table=True)
    decorators: tuple[str, ...]  # dotted callee of each decorator, as written
    body: B
    metaclass: str | None = None  # `class Base(metaclass=PrefixMeta)`, dotted as written
    decorated_at: tuple[int, ...] = ()  # the line of each of `decorators`
    called: tuple[CallBinding, ...] = ()  # the bases written as calls (`audited_base(...)`)

    def keyword(self, name: str) -> Literal:
        return dict(self.keywords).get(name)


@dataclass(frozen=True, eq=False)  # compared by identity: one per file version, kept in a memo
class ModuleFacts(Generic[B]):
    path: str
    module: str  # dotted module name derived from the path (`app/models/__init__.py` → app.models)
    imports: dict[str, str]  # local name → dotted target
    bindings: dict[str, CallBinding | AliasBinding]
    classes: tuple[ClassFacts[B], ...]  # the module-level classes, in source order
    class_map: dict[str, ClassFacts[B]]  # by name; the last definition wins, as at run time
    stars: tuple[str, ...] = ()  # modules imported with `from X import *`, absolute, in order
    exports: tuple[str, ...] | None = None  # a literal `__all__`: what `import *` takes from here
    from_imports: frozenset[str] = frozenset()  # local names bound by `from X import name`
    # a name a module-level `try:` imports and its `except ImportError:` binds otherwise: what
    # each branch binds it to, in the order Python tries them (`_guarded_imports`)
    fallbacks: tuple[tuple[str, tuple[Alternative, ...]], ...] = ()


Alternative = tuple[str, str]
"""One way a guarded name is bound: ("import", dotted import path) or ("alias", a dotted name
of the module)."""
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def attribute_path(node: ast.expr | None) -> str | None:
    """`a.b.c` for a Name/Attribute chain only (a call is no name), else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = attribute_path(node.value)
        return f"{head}.{node.attr}" if head is not None else None
    return None


def class_base(node: ast.expr) -> ast.expr:
    """The class a base written in a class statement names: a subscripted one (`Base[T]`,
    `mod.Base[T, U]`, DRF's and django-stubs-ext's generic views `ModelViewSet[Tag]`) is the
    class it subscripts, whose `__class_getitem__`/`__mro_entries__` Python puts in the MRO;
    `typing.Generic[T]` so reads as `typing.Generic`, a base that brings nothing. Every reader
    of a class's bases goes through this one place."""
    return node.value if isinstance(node, ast.Subscript) else node


def dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a Name/Attribute chain (a call's callee for a Call), else None."""
    if isinstance(node, ast.Call):
        return dotted(node.func)
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def last_name(name: str | None) -> str:
    return (name or "").rpartition(".")[2]


def literal(node: ast.expr | None) -> Literal:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return node.value
    return None


def keyword_literal(call: ast.Call, name: str) -> Literal:
    for kw in call.keywords:
        if kw.arg == name:
            return literal(kw.value)
    return None


def has_keyword(call: ast.Call, name: str) -> bool:
    return any(kw.arg == name for kw in call.keywords)


def module_name(path: str) -> str:
    """`app/models/__init__.py` → `app.models`: the module's name with the repository's root on
    `sys.path`."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def packages_of(paths: Iterable[str]) -> frozenset[str]:
    """The folders among `paths` that are packages and no `sys.path` root: those holding an
    `__init__.py`, but for the folder of a Django `manage.py`, which Python puts on `sys.path`
    when the script runs (`backend/manage.py` beside `backend/__init__.py`: `config.urls` is
    `backend/config/urls.py`). Computed from every file of the walk, so the answer is the same
    whichever files a pre-filter parsed."""
    inits: set[str] = set()
    scripts: set[str] = set()
    for path in paths:
        folder, _, name = path.rpartition("/")
        if name == "__init__.py":
            inits.add(folder)
        elif name == "manage.py":
            scripts.add(folder)
    return frozenset(inits - scripts)


class ModuleIndex(Generic[T]):
    """Which file an absolute import names, as the import system would pick it: the one
    resolver of module names for the Python packs and their pre-filter (`packs.prefilter`).

    The repository's root is on `sys.path`, so `app/models.py` is `app.models`. A folder that
    is not a package (no `__init__.py`) may be a `sys.path` root too — `src/` of a src layout,
    `backend/` holding the app, the folder of a script that is run — so `src/app/models.py` is
    also `app.models` (an exact name first, else the first file in path order). But a folder
    that is a package is no root: under Python 3's absolute imports a module inside a package
    never answers a top-level import, so `app/sqlalchemy.py` is `app.sqlalchemy` only, and
    `import sqlalchemy` there is the library's (`packages_of` leaves out the folder of a
    Django `manage.py`, which Python puts on `sys.path` when the script runs). Unless its
    program is run from it: `backend/` with an `__init__.py` and a `main.py` that imports
    `core.db.models` puts `backend/` on `sys.path` all the same. So a dotted name of two parts
    or more that no root answers is looked for below package folders too (`core.db.models` is
    `backend/core/db/models.py`); a one-part name never is, so a module named like a library
    still shadows nothing.

    Asked from an importer (`find(name, importer)`), a name several roots hold is the one under
    the root nearest the importer among those holding it (its program's folder is on its
    `sys.path`: `svc2/main.py` importing `app.api` means `svc2/app/api.py`, not `svc1/...`)."""

    def __init__(self, entries: Iterable[tuple[str, T]], packages: Collection[str]) -> None:
        self._by_name: dict[str, T] = {}
        # name -> (root folder, value) where several roots hold it, in the order above
        self._rooted: dict[str, list[tuple[str, T]]] = {}
        self._first_root: dict[str, str] = {}  # the root of `_by_name`'s module ("": exact)
        self._below_package: dict[str, T] = {}  # dotted names below a package run as a program
        listed = [(module_name(path), value) for path, value in entries]
        for name, value in listed:  # path order: the first of two same-named modules wins
            self._add(name, "", value)
        for name, value in listed:  # then below a root: an exact name beats a deeper tail
            parts = name.split(".")
            root = ""  # the folder holding parts[cut], built as the cut moves down
            for cut in range(1, len(parts)):
                root = f"{root}/{parts[cut - 1]}" if root else parts[0]
                if root not in packages:
                    self._add(".".join(parts[cut:]), root, value)
                elif cut < len(parts) - 1:
                    self._below_package.setdefault(".".join(parts[cut:]), value)

    def _add(self, name: str, root: str, value: T) -> None:
        if name not in self._by_name:
            self._by_name[name] = value
            self._first_root[name] = root
            return
        rooted = self._rooted.get(name)
        if rooted is None:
            rooted = self._rooted[name] = [(self._first_root[name], self._by_name[name])]
        if all(r != root for r, _ in rooted):
            rooted.append((root, value))

    def find(self, name: str, importer: str | None = None) -> T | None:
        """The module `name` names; from `importer` (a file's path), the one under the root
        nearest it when several roots hold one."""
        rooted = self._rooted.get(name) if importer is not None else None
        if not rooted:
            found = self._by_name.get(name)
            return found if found is not None else self._below_package.get(name)
        assert importer is not None
        best: tuple[int, T] | None = None
        for root, value in rooted:
            if (root == "" or importer.startswith(root + "/")) and (
                best is None or len(root) > best[0]
            ):
                best = (len(root), value)
        return best[1] if best is not None else self._by_name.get(name)

    def land_at(self, full: str) -> tuple[T, str] | None:
        """Where a dotted name imported absolutely lands: the longest proper dotted prefix that
        is a module, and the rest of the name inside it."""
        parts = full.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            found = self._by_name.get(".".join(parts[:cut]))
            if found is not None:
                return found, ".".join(parts[cut:])
        for cut in range(len(parts) - 1, 1, -1):  # two parts or more, below a package
            found = self._below_package.get(".".join(parts[:cut]))
            if found is not None:
                return found, ".".join(parts[cut:])
        return None


def module_facts(
    path: str,
    tree: ast.Module,
    describe: Callable[[ast.ClassDef], B],
    text: str | None = None,
) -> ModuleFacts[B]:
    """`text`, the module's source, when known: functions are looked into for the classes they
    define only when it spells `class` more often than the module-level classes do (most
    modules define none in a function, and their functions need not be walked)."""
    module = module_name(path)
    package = package_of(path)
    imports: dict[str, str] = {}
    bindings: dict[str, CallBinding | AliasBinding] = {}
    classes: list[ClassFacts[B]] = []
    stars: list[str] = []
    exports: tuple[str, ...] | None = None
    from_imports: set[str] = set()
    scopes: list[ast.stmt] = []  # functions and classes: a model may be defined in a factory
    for node in _top_level(tree.body):  # one pass: this runs for every file of the repository
        if isinstance(node, ast.ClassDef):
            classes.append(_class_facts(node, describe))
            scopes.append(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scopes.append(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    imports[alias.asname] = alias.name
                else:
                    head = alias.name.partition(".")[0]
                    imports[head] = head
        elif isinstance(node, ast.ImportFrom):
            source = absolute(node.module, node.level, package)
            for alias in node.names:
                if alias.name == "*":
                    if source:
                        stars.append(source)
                else:
                    imports[alias.asname or alias.name] = (
                        f"{source}.{alias.name}" if source else alias.name
                    )
                    from_imports.add(alias.asname or alias.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                exports = names_listed(node.value)
            binding = _binding(node.value)
            if binding is not None:
                bindings.update((t.id, binding) for t in targets if isinstance(t, ast.Name))
    class_map = {c.name: c for c in classes}  # module attributes: not the factories' classes
    fallbacks = _guarded_imports(tree.body, package) if text is None or "except" in text else ()
    if text is None or text.count("class") > len(classes):
        classes += (_class_facts(node, describe) for node in _defined_in_functions(scopes))
    return ModuleFacts(
        path,
        module,
        imports,
        bindings,
        tuple(classes),
        class_map,
        tuple(stars),
        exports,
        frozenset(from_imports),
        fallbacks,
    )


def _guarded_imports(
    body: Sequence[ast.stmt], package: str
) -> tuple[tuple[str, tuple[Alternative, ...]], ...]:
    """Names a module-level `try:` binds by import and an `except ImportError:` (or
    `ModuleNotFoundError`, `Exception`, a bare `except`) binds again: each with its ways, the
    `try` body's first, then each handler's (a `try` nested in a handler, its own order)."""
    found: dict[str, list[Alternative]] = {}
    for node in body:
        if isinstance(node, ast.Try) and all(_catches_import_error(h) for h in node.handlers):
            for name, ways in _branch_ways(node, package).items():
                if len(ways) > 1 and ways[0][0] == "import":
                    found.setdefault(name, []).extend(ways)
    return tuple((name, tuple(ways)) for name, ways in found.items())


def _branch_ways(node: ast.Try, package: str) -> dict[str, list[Alternative]]:
    ways: dict[str, list[Alternative]] = {}
    branches = [node.body, *(handler.body for handler in node.handlers)]
    for branch in branches:
        for statement in branch:
            if isinstance(statement, ast.Try):
                for name, inner in _branch_ways(statement, package).items():
                    ways.setdefault(name, []).extend(inner)
                continue
            for name, way in _statement_ways(statement, package):
                ways.setdefault(name, []).append(way)
    return ways


def _statement_ways(statement: ast.stmt, package: str) -> Iterator[tuple[str, Alternative]]:
    if isinstance(statement, ast.ImportFrom):
        source = absolute(statement.module, statement.level, package)
        for alias in statement.names:
            if alias.name != "*":
                target = f"{source}.{alias.name}" if source else alias.name
                yield alias.asname or alias.name, ("import", target)
    elif isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:
                yield alias.asname, ("import", alias.name)
    elif isinstance(statement, ast.Assign):
        aliased = dotted(statement.value) if not isinstance(statement.value, ast.Call) else None
        for name in statement.targets:
            if isinstance(name, ast.Name):  # a call's result: the module's binding of the name
                yield name.id, ("alias", aliased) if aliased is not None else ("bound", "")


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    if caught is None:
        return True
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(last_name(dotted(n)) in _IMPORT_ERRORS for n in names)


def _class_facts(node: ast.ClassDef, describe: Callable[[ast.ClassDef], B]) -> ClassFacts[B]:
    return ClassFacts(
        name=node.name,
        line=node.lineno,
        bases=tuple(b for b in (dotted(class_base(base)) for base in node.bases) if b),
        keywords=tuple((kw.arg, literal(kw.value)) for kw in node.keywords if kw.arg),
        decorators=tuple(d for d in (dotted(dec) for dec in node.decorator_list) if d),
        body=describe(node),
        metaclass=next((dotted(kw.value) for kw in node.keywords if kw.arg == "metaclass"), None),
        decorated_at=tuple(dec.lineno for dec in node.decorator_list if dotted(dec)),
        called=tuple(
            b for b in (binding_of(base) for base in node.bases if isinstance(base, ast.Call)) if b
        ),
    )


_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


def _defined_in_functions(scopes: Sequence[ast.stmt]) -> Iterator[ast.ClassDef]:
    """The classes a function or method defines when it runs (a factory's model: `def
    create_models(): class Note(db.Model): ...`), at any depth of functions, methods and
    blocks, in source order; a class's own nested classes (`class Meta`) are not among them.
    Statements only, never expressions: this runs for every file."""
    found: list[ast.ClassDef] = []
    stack: list[tuple[ast.stmt, bool]] = [(node, False) for node in reversed(scopes)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, ast.ClassDef) and in_function:
            found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            children, inside = node.body, True
        elif isinstance(node, ast.ClassDef):
            # its methods; a nested class there is an attribute of the class, not run
            children = [
                n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            inside = False
        elif in_function and isinstance(node, _BLOCKS):
            children = (
                [*node.body, *node.orelse]
                if not isinstance(node, ast.With | ast.AsyncWith)
                else node.body
            )
            if isinstance(node, ast.Try):
                children += [*(s for h in node.handlers for s in h.body), *node.finalbody]
            inside = True
        else:
            continue
        stack.extend((child, inside) for child in reversed(children))
    found.sort(key=lambda node: (node.lineno, node.col_offset))
    return iter(found)


def names_listed(value: ast.expr) -> tuple[str, ...] | None:
    """`__all__ = ["A", "B"]` (list or tuple of literals) as its names; None for anything else."""
    if not isinstance(value, ast.List | ast.Tuple):
        return None
    names = [literal(element) for element in value.elts]
    return (
        tuple(n for n in names if isinstance(n, str))
        if all(isinstance(n, str) for n in names)
        else None
    )


def _top_level(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, looking into `if`/`try` blocks (conditional definitions count)."""
    for node in body:
        if isinstance(node, ast.If | ast.Try):
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    yield from _top_level(handler.body)
        else:
            yield node


def _binding(value: ast.expr) -> CallBinding | AliasBinding | None:
    if isinstance(value, ast.Call):
        callee = call_callee(value)
        cls = next((dotted(kw.value) for kw in value.keywords if kw.arg == "cls"), None)
        meta = next((dotted(kw.value) for kw in value.keywords if kw.arg == "metaclass"), None)
        keywords = tuple((kw.arg or "**", _written(kw.value)) for kw in value.keywords)
        return CallBinding(callee, cls, meta, keywords) if callee else None
    target = dotted(value)
    return AliasBinding(target) if target else None


def binding_of(call: ast.Call) -> CallBinding | None:
    """A call as `NAME = call` would bind it (a factory's `return call`, say)."""
    found = _binding(call)
    return found if isinstance(found, CallBinding) else None


def call_callee(call: ast.Call) -> str | None:
    """A call's callee, dotted as written; a method of a call's result as `f().name`
    (`registry().generate_base()`: `registry().generate_base`), which `Modules.resolve` reads
    as the method `name` of what `f` names."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        inner = dotted(func.value.func)
        return f"{inner}().{func.attr}" if inner else None
    return dotted(func)


def _written(value: ast.expr) -> Written:
    """A keyword argument's value as a pack's hook reads it: a dotted name, a literal's `repr`
    (`True`, `'name'`), a call as its binding; "" for anything else."""
    if isinstance(value, ast.Call):
        return binding_of(value) or ""
    name = dotted(value)
    if name is not None:
        return name
    if isinstance(value, ast.Constant) and isinstance(value.value, str | int | float | bool):
        return repr(value.value)
    return ""


def package_of(path: str) -> str:
    """The package a module's relative imports start from: itself for an `__init__.py`, else
    the one holding it."""
    module = module_name(path)
    is_package = path.endswith("/__init__.py") or path == "__init__.py"
    return module if is_package else module.rpartition(".")[0]


def absolute(module: str | None, level: int, package: str) -> str:
    """The absolute name `from {'.' * level}{module} import …` names inside `package`."""
    if level == 0:
        return module or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    return ".".join([*base, *([module] if module else [])])


def star_brings(name: str, exports: Collection[str] | None) -> bool:
    """Whether `from m import *` may bring `name` from a module `m` whose literal `__all__` is
    `exports` (None: it has none): the names listed there, else every name not starting with
    `_` that `m` binds, itself or by its own star imports. The one rule of star imports for
    the Python packs (`Modules._resolve_star`, the routes linker's `_star_source`): the caller
    asks whether `m` binds the name."""
    if exports is not None:
        return name in exports
    return not name.startswith("_")


def _binds(module: ModuleFacts[B], name: str) -> bool:
    """Whether `from module import *` brings `name` bound by a statement of `module` itself."""
    if module.exports is not None:  # listed: bound there, or by a star import of its own
        return star_brings(name, module.exports)
    return _binds_itself(module, name)


def _binds_itself(module: ModuleFacts[B], name: str) -> bool:
    """Whether a statement of `module` binds `name` (a class, an assignment or an import): an
    attribute of the module, whatever `__all__` says."""
    return name in module.class_map or name in module.bindings or name in module.imports


@dataclass(frozen=True)
class ClassRef(Generic[B]):
    module: ModuleFacts[B]
    cls: ClassFacts[B]


@dataclass(frozen=True)
class CallRef(Generic[B]):
    """A name bound to a call's result; `attribute` is what was taken from it (`db` + `Model`)."""

    module: ModuleFacts[B]
    callee: str  # resolved to a dotted import path where the scanned files show one
    attribute: str = ""
    cls: str | None = None  # the call's `cls=` argument, a name inside `module`
    metaclass: str | None = None  # the call's `metaclass=` argument, a name inside `module`
    written: str = ""  # the callee as written in `module`
    keywords: tuple[tuple[str, Written], ...] = ()  # `CallBinding.keywords`

    def keyword(self, name: str) -> Written | None:
        """A keyword argument of the call as written (`CallBinding.keywords`); None if absent."""
        return dict(self.keywords).get(name)


@dataclass(frozen=True)
class External:
    """A name that leads outside the scanned files, as its dotted import path."""

    name: str


Symbol = ClassRef[B] | CallRef[B] | External
MadeHook = Callable[["Modules[B]", CallRef[B]], "list[ClassRef[B] | External] | None"]
"""A pack's reading of what a call makes (`Modules.made_bases`): the bases a class below it
inherits, or None for the default reading."""


class Modules(Generic[B]):
    """Every scanned module of a request, for resolving names across files.

    Lookups are indexed (every dotted suffix of every module name) and resolutions cached, so
    a link over thousands of files stays linear.
    """

    def __init__(
        self,
        modules: Sequence[ModuleFacts[B]],
        packages: Collection[str] | None = None,
        made: MadeHook[B] | None = None,
        known: Callable[[str], bool] | None = None,
    ) -> None:
        self.modules = modules
        self.made = made  # a pack's reading of what a call makes, before the default
        # the library names a pack has records of: a guarded import that names one resolves
        self.known = known or (lambda name: False)
        if packages is None:
            packages = REPOSITORY_PACKAGES.get()
            if packages is None:
                packages = packages_of(m.path for m in modules)
        self._index = ModuleIndex(((m.path, m) for m in modules), packages)
        self._resolved: dict[tuple[str, str], Symbol[B]] = {}
        self._resolving: list[tuple[str, str]] = []  # the names being resolved, outermost first
        self._cyclic: set[tuple[str, str]] = set()
        self._ancestors: dict[tuple[str, int], list[ClassRef[B] | External]] = {}

    def find_module(self, name: str) -> ModuleFacts[B] | None:
        """The scanned module `name` names, also where the repo holds it below a folder that may
        be a `sys.path` root (`src/app`; `ModuleIndex`)."""
        return self._index.find(name)

    def resolve(self, module: ModuleFacts[B], name: str, depth: int = 0) -> Symbol[B]:
        """What `name` (dotted) means inside `module`. A name on a cycle of aliases and imports
        (`from pkg import B as F; A = F` in `pkg/a.py`, `from pkg.a import A as B` in `pkg`),
        an ImportError to Python, is External under its own name: the same answer whichever
        name of the cycle is asked first, so neither the order of the questions nor the files
        a pre-filter left out change a document."""
        key = (module.path, name)
        if key in self._resolved:
            return self._resolved[key]
        if key in self._resolving:
            self._cyclic.update(self._resolving[self._resolving.index(key) :])
            return External(name)
        self._resolving.append(key)
        try:
            found = self._resolve(module, name, depth)
        finally:
            self._resolving.pop()
        self._resolved[key] = External(name) if key in self._cyclic else found
        return self._resolved[key]

    def _resolve(self, module: ModuleFacts[B], name: str, depth: int) -> Symbol[B]:
        if depth > 32:
            return External(name)
        head, _, rest = name.partition(".")
        if head in module.class_map and not rest:
            return ClassRef(module, module.class_map[head])
        if module.fallbacks and (ways := dict(module.fallbacks).get(head)) is not None:
            return self._guarded(module, head, ways, rest, depth)
        binding = module.bindings.get(head)
        if isinstance(binding, CallBinding):
            return self.call_ref(module, binding, rest, depth)
        if isinstance(binding, AliasBinding):
            return self.resolve(module, binding.target + ("." + rest if rest else ""), depth + 1)
        target = module.imports.get(head)
        if target is None:
            return self._resolve_star(module, head, rest, depth) if module.stars else External(name)
        suffix = "." + rest if rest else ""
        if head in module.from_imports:
            # `from pkg.models import db`: the package's own `db` (its `__init__` re-exports
            # one) before a submodule `pkg/models/db.py`, as `from ... import` looks
            source, _, attribute = target.rpartition(".")
            package = self.find_module(source) if source else None
            if package is not None and package is not module and _binds_itself(package, attribute):
                return self.resolve(package, attribute + suffix, depth + 1)
        return self._resolve_import(target + suffix, depth)

    def _guarded(
        self,
        module: ModuleFacts[B],
        head: str,
        ways: tuple[Alternative, ...],
        rest: str,
        depth: int,
    ) -> Symbol[B]:
        """A name bound in a `try:` and again in its `except ImportError:`, as the interpreter
        binds it: the first way whose import resolves — a module of the repository that binds
        it, or a library name the pack has a record of — else the first that does not lead
        into the repository's own packages and miss there (a library taken as installed),
        else the last way (the handler's, as a missing import leaves it)."""
        found: list[Symbol[B]] = []
        suffix = "." + rest if rest else ""
        for kind, target in ways:
            binding = module.bindings.get(head)
            if kind == "import":
                symbol: Symbol[B] = self._resolve_import(target + suffix, depth + 1)
            elif kind == "alias":
                symbol = self.resolve(module, target + suffix, depth + 1)
            elif isinstance(binding, CallBinding):
                symbol = self.call_ref(module, binding, rest, depth)
            else:
                symbol = External(head + suffix)
            if not isinstance(symbol, External) or self.known(symbol.name):
                return symbol
            found.append(symbol)
        for (kind, target), symbol in zip(ways, found, strict=True):
            head = target.partition(".")[0]
            if kind == "import" and self.find_module(head) is None:
                return symbol
        return found[-1]

    def call_ref(
        self, module: ModuleFacts[B], binding: CallBinding, attribute: str = "", depth: int = 0
    ) -> CallRef[B]:
        """The result of `binding`'s call made in `module` (`attribute` of it): its callee
        resolved to a dotted import path where it leads outside the scanned files."""
        made_by, _, method = binding.callee.partition("().")
        callee = self.resolve(module, made_by, depth + 1)
        if isinstance(callee, External):  # `registry().generate_base`: the library's
            name = f"{callee.name}().{method}" if method else callee.name
        else:
            name = binding.callee
        return CallRef(
            module,
            name,
            attribute,
            binding.cls,
            binding.metaclass,
            binding.callee,
            binding.keywords,
        )

    def _resolve_star(self, module: ModuleFacts[B], head: str, rest: str, depth: int) -> Symbol[B]:
        """A name no statement of `module` binds, looked up in its `from X import *` sources as
        Python would: the last star import that brings it wins. A scanned source brings its
        `__all__`, else every public name it binds or itself star-imports; when no scanned
        source has it and exactly one source lies outside the scanned files, the name is taken
        to come from there."""
        suffix = "." + rest if rest else ""
        outside: list[str] = []
        if not head.startswith("_"):
            for source in reversed(module.stars):
                found = self.find_module(source)
                if found is None:
                    outside.append(source)
                elif found is not module and _binds(found, head):
                    return self.resolve(found, head + suffix, depth + 1)
                elif found is not module and found.exports is None and found.stars:
                    deeper = self.resolve(found, head + suffix, depth + 1)
                    if not isinstance(deeper, External) or deeper.name != head + suffix:
                        return deeper
        if len(outside) == 1:
            return External(f"{outside[0]}.{head}{suffix}")
        return External(head + suffix)

    def _resolve_import(self, full: str, depth: int) -> Symbol[B]:
        parts = full.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            found = self.find_module(".".join(parts[:cut]))
            if found is not None:
                return self.resolve(found, ".".join(parts[cut:]), depth + 1)
        return External(full)

    def ancestors(self, ref: ClassRef[B]) -> list[ClassRef[B] | External]:
        """The class's bases, depth first, left to right, each once (an MRO good enough here)."""
        key = (ref.module.path, ref.cls.line)
        if key not in self._ancestors:
            self._ancestors[key] = list(self._walk_ancestors(ref))
        return self._ancestors[key]

    def _walk_ancestors(self, ref: ClassRef[B]) -> Iterator[ClassRef[B] | External]:
        """Past `MAX_ANCESTORS` classes of the repository the walk stops at an `External`
        saying so (a base out of sight: the packs' finding for one): every class of a chain
        3,000 deep listed its whole chain, 4.5 million steps, past `request_ms`."""
        seen: set[tuple[str, str]] = set()
        stack = self.bases(ref)[::-1]
        while stack:
            item = stack.pop()
            if isinstance(item, ClassRef):
                key = (item.module.path, item.cls.name)
                if key in seen or item.cls is ref.cls:
                    continue
                if len(seen) == MAX_ANCESTORS:
                    yield External(f"{item.cls.name} (over {MAX_ANCESTORS} classes up)")
                    return
                seen.add(key)
                stack.extend(self.bases(item)[::-1])
            yield item

    def bases(self, ref: ClassRef[B]) -> list[ClassRef[B] | External]:
        """The direct bases; a base made by a call is what `made_bases` says it is."""
        bases: list[ClassRef[B] | External] = []
        called = {call.callee: call for call in ref.cls.called}
        for base in ref.cls.bases:
            call = called.get(base)
            found = self.call_ref(ref.module, call) if call else self.resolve(ref.module, base)
            if isinstance(found, CallRef):
                bases += self.made_bases(found)
            else:
                bases.append(found)
        return bases

    def made_bases(self, made: CallRef[B]) -> list[ClassRef[B] | External]:
        """What a class below the result of a call (or an attribute of it) inherits from: the
        pack's `made` hook's answer where it has one (a model base the project builds);
        else an External named by the call (`declarative_base()`), followed by the class
        given to it as `cls=`, which the made base inherits from."""
        if self.made is not None:
            answer = self.made(self, made)
            if answer is not None:
                return answer
        bases: list[ClassRef[B] | External] = [
            External(f"{made.callee}()" + (f".{made.attribute}" if made.attribute else ""))
        ]
        made_from = self.resolve(made.module, made.cls) if made.cls and not made.attribute else None
        if isinstance(made_from, ClassRef):
            bases.append(made_from)
        return bases
