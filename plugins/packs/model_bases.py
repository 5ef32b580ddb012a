"""Model bases the project builds: what a class below `db.Model` or `make_base()` inherits.

`pack-sqlalchemy` hands this to `pymodules.Modules` as its `made` hook: asked about a class
base that is the result of a call (or an attribute of one), it answers with the bases SQLAlchemy
and Flask-SQLAlchemy would give the class, read from source as their code builds them:

- Flask-SQLAlchemy's `db.Model`, `db` made by `SQLAlchemy(...)` or by a project subclass of it
  (flask_sqlalchemy/extension.py, `_make_declarative_base`; 2.x `make_declarative_base`), with
  `model_class=X` (the default: Flask-SQLAlchemy's own `Model`):
  - X a plain class: `declarative_base(cls=X, metaclass=DefaultMeta)` — X's columns,
    `__tablename__` and mixins are every model's, unnamed models named by Flask-SQLAlchemy's
    rule (`FLASK_MODEL` then X);
  - X already declarative (`isinstance(X, DeclarativeMeta)`: made by `declarative_base()`,
    `generate_base()`, `automap_base()`, `@as_declarative`, or a class below one): `db.Model`
    is X itself, and no model gets an implicit name;
  - X a class whose own base is a `DeclarativeBase`/`DeclarativeBaseNoMeta` (3.1): a new class
    of Flask-SQLAlchemy's mixins, X's bases and X's body: as a plain class;
  - `disable_autonaming=True` (3.1): no implicit names (`PLAIN_MODEL` instead).
  A project subclass of `SQLAlchemy` is read through: each `__init__` of its chain may pass
  `model_class` on to `super().__init__` (a keyword, its own parameter's default,
  `kwargs.setdefault("model_class", X)`, `kwargs["model_class"] = X`); the nearest
  `_make_declarative_base`/`make_declarative_base` override builds the base itself: a
  `declarative_base(cls=<its model parameter>, metaclass=M)` there names tables by
  Flask-SQLAlchemy's rule when M is below its `DefaultMeta`/`NameMetaMixin`, else not; a call
  of the `super()` method keeps the extension's own.
- A function of the repository returning a base (`Base = build_base()`): what its `return`
  gives — a call (`declarative_base(cls=Mixin, metadata=...)`, `registry().generate_base()`,
  `SQLAlchemy(...)`, another factory), a class the function defines, a module-level name —
  after the function's own assignments of the returned name.

Where the base still cannot be followed (an override that builds it some other way, a
`model_class` from outside the scanned files, a factory whose return is not one of those), the
answer is an `External` naming it, so each class below it is an `UNKNOWN_MODEL_BASE`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from .pymodules import (
    CallBinding,
    CallRef,
    ClassFacts,
    ClassRef,
    External,
    ModuleFacts,
    Modules,
    Symbol,
    Written,
    binding_of,
    dotted,
    last_name,
)

B = TypeVar("B")

FLASK_MODEL = External("flask_sqlalchemy.SQLAlchemy().Model")
"""Flask-SQLAlchemy's declarative base with its naming metaclass: implicit table names."""
PLAIN_MODEL = External("sqlalchemy.orm.declarative_base()")
"""A declarative base that names no table itself."""
BASE_FACTORIES = ("declarative_base()", "generate_base()", "automap_base()")
"""How an outside call that makes a `DeclarativeMeta` base ends (`sqlalchemy.orm.…`)."""
DECLARATIVE_ROOTS = frozenset({"DeclarativeBase", "DeclarativeBaseNoMeta"})
EXTENSION_METHODS = frozenset({"__init__", "make_declarative_base", "_make_declarative_base"})
"""The methods of a `SQLAlchemy` subclass that decide its `Model` (kept by the reader)."""
_NAMING_METAS = frozenset({"DefaultMeta", "NameMetaMixin", "_BoundDeclarativeMeta"})
"""Flask-SQLAlchemy's metaclasses that name tables (`_BoundDeclarativeMeta`: 2.0–2.1's)."""
_MODEL_CLASS = "model_class"
MAX_DEPTH = 16


def is_extension(name: str) -> bool:
    """Flask-SQLAlchemy's extension class, by its import path."""
    return name.partition(".")[0] == "flask_sqlalchemy" and last_name(name) == "SQLAlchemy"


@dataclass(frozen=True)
class Factory:
    """A module-level function of the repository as a base factory: what it returns (after
    its own assignments of a returned name) and the classes it defines, by name."""

    returns: ast.expr
    classes: tuple[tuple[str, int], ...] = ()  # (name, line) of each class it defines


def read_factory(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Factory | None:
    """A function whose last statement returns a call or a name, as a `Factory`."""
    if not func.body or not isinstance(func.body[-1], ast.Return):
        return None
    returned = func.body[-1].value
    classes = tuple((s.name, s.lineno) for s in func.body if isinstance(s, ast.ClassDef))
    if isinstance(returned, ast.Name) and all(name != returned.id for name, _ in classes):
        for stmt in reversed(func.body[:-1]):  # `made = declarative_base(...); return made`
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == returned.id
            ):
                returned = stmt.value
                break
    if isinstance(returned, ast.Call | ast.Name | ast.Attribute):
        return Factory(returned, classes)
    return None


@dataclass(frozen=True)
class _Naming:
    """What an extension's base-making method does: `known` (False: it builds the base in a
    way not read here), and whether unnamed models get a name."""

    known: bool
    names: bool = True
    model_class: str | None = None  # `cls=Model` written in the method: the model class used


class ModelBases(Generic[B]):
    """The `made` hook of `pymodules.Modules` for the ORM packs (see the module docstring).

    `methods(cls)`: a class's `EXTENSION_METHODS` as the reader kept them; `factories(module)`:
    the module's functions read as factories."""

    def __init__(
        self,
        methods: Callable[[ClassFacts[B]], Mapping[str, ast.FunctionDef]],
        factories: Callable[[ModuleFacts[B]], Mapping[str, Factory]],
    ) -> None:
        self.methods = methods
        self.factories = factories
        self._asking: set[tuple[str, str, str]] = set()  # a factory returning its own result

    def __call__(
        self, modules: Modules[B], made: CallRef[B]
    ) -> list[ClassRef[B] | External] | None:
        key = (made.module.path, made.written, made.attribute)
        if key in self._asking or len(self._asking) > MAX_DEPTH:
            return None
        self._asking.add(key)
        try:
            if made.attribute == "Model":
                chain = self.extension(modules, made)
                if chain is not None:
                    return self._model(modules, made, chain)
            return self._factory_result(modules, made)
        finally:
            self._asking.discard(key)

    def extension(self, modules: Modules[B], made: CallRef[B]) -> list[ClassRef[B]] | None:
        """Whether `made` is a call of Flask-SQLAlchemy's `SQLAlchemy` or of a project subclass
        of it: that subclass's chain of project classes, nearest first ([] for the library's
        own); None for anything else."""
        if not made.written:
            return [] if is_extension(made.callee) else None
        found = modules.resolve(made.module, made.written.partition("().")[0])
        if isinstance(found, External):
            return [] if is_extension(found.name) and "()." not in made.written else None
        if not isinstance(found, ClassRef):
            return None
        ancestors = modules.ancestors(found)
        if not any(isinstance(a, External) and is_extension(a.name) for a in ancestors):
            return None
        return [found, *(a for a in ancestors if isinstance(a, ClassRef))]

    def _model(
        self, modules: Modules[B], made: CallRef[B], chain: list[ClassRef[B]]
    ) -> list[ClassRef[B] | External]:
        """`db.Model`'s bases, `db` made by `made` (an extension whose project chain is
        `chain`)."""
        names = made.keyword("disable_autonaming") != "True"
        given = made.keyword(_MODEL_CLASS)
        if given is None and made.keyword("**") is not None:
            given = ""  # `SQLAlchemy(**options)`: may hold one, not read
        model_class = (made.module, given) if given is not None else None
        for cls in chain:  # each `__init__` hands its caller's model_class on, or its own
            init = self.methods(cls.cls).get("__init__")
            if init is not None:
                model_class = _passed_on(cls.module, init, model_class)
        for cls in chain:
            maker = self.methods(cls.cls)
            method = maker.get("_make_declarative_base") or maker.get("make_declarative_base")
            if method is not None:
                naming = self._naming(modules, cls.module, method)
                if not naming.known:  # (no `()`: the name is no `declarative_base()`'s)
                    return [External(f"{cls.cls.name}.{method.name}")]
                names = names and naming.names
                if naming.model_class is not None:
                    model_class = (cls.module, naming.model_class)
                break
        marker = FLASK_MODEL if names else PLAIN_MODEL
        if model_class is None:
            return [marker]
        module, written = model_class
        if not written:
            return [External(f"{made.written or made.callee}(model_class=?).Model")]
        if isinstance(written, CallBinding):  # `model_class=declarative_base(...)`
            found: Symbol[B] = modules.call_ref(module, written)
        else:
            found = modules.resolve(module, written)
        if isinstance(found, CallRef):
            return modules.made_bases(found)  # a base made already: `db.Model` is it
        if isinstance(found, ClassRef):
            return [found] if self.declarative(modules, found) else [marker, found]
        if found.name.partition(".")[0] == "flask_sqlalchemy":
            return [marker]  # its own `Model`
        return [External(found.name)]  # from outside: not known

    def declarative(self, modules: Modules[B], ref: ClassRef[B]) -> bool:
        """`isinstance(ref, DeclarativeMeta)`: decorated `@as_declarative`, or below a base
        made by `declarative_base()` or the like (a `DeclarativeBase` subclass is not)."""
        chain = [ref, *modules.ancestors(ref)]
        return any(
            (isinstance(c, External) and c.name.endswith(BASE_FACTORIES))
            or (
                isinstance(c, ClassRef)
                and any(last_name(d) == "as_declarative" for d in c.cls.decorators)
            )
            for c in chain
        )

    def _naming(
        self, modules: Modules[B], module: ModuleFacts[B], method: ast.FunctionDef
    ) -> _Naming:
        """What an overridden `_make_declarative_base(self, model_class, ...)` builds."""
        params = [a.arg for a in method.args.args]
        model = params[1] if len(params) > 1 else None
        for node in ast.walk(method):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in EXTENSION_METHODS
                and isinstance(func.value, ast.Call | ast.Name)
            ):
                return _Naming(True)  # the extension's own, through `super()`
            callee = dotted(func)
            found = modules.resolve(module, callee) if callee else None
            if not (
                isinstance(found, External)
                and found.name.partition(".")[0] in ("sqlalchemy", "flask_sqlalchemy")
                and last_name(found.name) == "declarative_base"
            ):
                continue
            cls = next((k.value for k in node.keywords if k.arg == "cls"), None)
            written = dotted(cls) if cls is not None else None
            if written is None:
                continue
            meta = next((k.value for k in node.keywords if k.arg == "metaclass"), None)
            meta_name = dotted(meta) if meta is not None else None
            if meta is not None and meta_name is None:
                return _Naming(False)  # a metaclass made by a call: not read here
            names = meta_name is not None and self._names(modules, module, meta_name)
            # `cls=<its model parameter>`: the caller's model class; another name: that one
            return _Naming(True, names, None if written == model else written)
        return _Naming(False)

    @staticmethod
    def _names(modules: Modules[B], module: ModuleFacts[B], meta: str) -> bool:
        """Whether a metaclass is (below) Flask-SQLAlchemy's naming one."""
        found = modules.resolve(module, meta)
        chain = [found, *modules.ancestors(found)] if isinstance(found, ClassRef) else [found]
        return any(
            isinstance(c, External)
            and c.name.partition(".")[0] == "flask_sqlalchemy"
            and last_name(c.name) in _NAMING_METAS
            for c in chain
        )

    def _factory_result(
        self, modules: Modules[B], made: CallRef[B]
    ) -> list[ClassRef[B] | External] | None:
        """A class base that is what a function of the repository returns (`made.attribute`
        of it, when asked): what that return is, or None when no such function is found."""
        found = self._find_factory(modules, made.module, made.written)
        if found is None:
            return None
        module, factory = found
        returned = factory.returns
        if isinstance(returned, ast.Call):
            binding = binding_of(returned)
            if binding is None:
                return None
            inner = modules.call_ref(module, binding, made.attribute)
            return modules.made_bases(inner)
        name = dotted(returned)
        if name is None:
            return None
        defined = dict(factory.classes)
        if name in defined:  # a class the function defines
            cls = next(
                (c for c in module.classes if c.name == name and c.line == defined[name]), None
            )
            if cls is None or made.attribute:
                return None
            return [ClassRef(module, cls)]
        target = modules.resolve(module, name + (f".{made.attribute}" if made.attribute else ""))
        if isinstance(target, CallRef):
            return modules.made_bases(target)
        return [target]

    def _find_factory(
        self, modules: Modules[B], module: ModuleFacts[B], written: str
    ) -> tuple[ModuleFacts[B], Factory] | None:
        """The function `written` names from `module` (its own, or imported, through
        re-exports), read as a factory."""
        if not written or "()." in written:
            return None
        for _ in range(MAX_DEPTH):
            head, _, rest = written.partition(".")
            if not rest and head in self.factories(module):
                return module, self.factories(module)[head]
            if head in module.class_map or head in module.bindings:
                return None
            target = module.imports.get(head)
            if target is None:
                return None
            full = f"{target}.{rest}" if rest else target
            source, _, written = full.rpartition(".")
            found = modules.find_module(source) if source else None
            if found is None:
                return None
            module = found
        return None


def _passed_on(
    module: ModuleFacts[B], init: ast.FunctionDef, given: tuple[ModuleFacts[B], Written] | None
) -> tuple[ModuleFacts[B], Written] | None:
    """The `model_class` an extension's `__init__` passes to `super().__init__`, given what
    its caller passed (`given`: where it is written, and the name)."""
    args = init.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    defaults = dict(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    defaults.update(
        (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    )
    kwargs = args.kwarg.arg if args.kwarg else None
    call = next(
        (
            n
            for n in ast.walk(init)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "__init__"
        ),
        None,
    )
    if call is None:
        return given
    for keyword in call.keywords:
        if keyword.arg == _MODEL_CLASS:
            value = keyword.value
            if isinstance(value, ast.Name) and value.id in {
                *positional,
                *(a.arg for a in args.kwonlyargs),
            }:
                if given is not None:
                    return given
                default = defaults.get(value.id)
                name = dotted(default) if default is not None else None
                return (module, name) if name else None
            name, caller_first = _followed(init, value, kwargs)
            if caller_first and given is not None:
                return given
            return (module, name) if name else given
    spread = any(
        k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs
        for k in call.keywords
    )
    if not spread:
        return None  # not passed on: the library's default
    top = {id(stmt) for stmt in init.body}
    top |= {id(stmt.value) for stmt in init.body if isinstance(stmt, ast.Expr)}
    for node in ast.walk(init):
        set_to, keeps = _sets_model_class(node, kwargs)
        keeps = keeps or id(node) not in top  # in a branch: the caller's may be kept
        if set_to is not None:
            name, caller_first = _followed(init, set_to, kwargs)
            if (keeps or caller_first) and given is not None:
                return given
            return (module, name) if name else given
    return given


def _followed(
    init: ast.FunctionDef, value: ast.expr, kwargs: str | None
) -> tuple[str | None, bool]:
    """The dotted name `value` gives a `model_class`, and whether a caller's keyword comes
    first: a local name of the method is followed through its assignments there
    (`base = kwargs.pop("model_class", None)`, `if base is None: base = ModelBase`: the
    caller's, else `ModelBase`); None where they disagree or are not names."""
    if not isinstance(value, ast.Name):
        return dotted(value), False
    assigned = [
        node.value
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == value.id
    ]
    if not assigned:
        return value.id, False  # a module-level name
    names: set[str] = set()
    caller_first = False
    for expr in assigned:
        if _takes_model_class(expr, kwargs):
            caller_first = True
            fallback = expr.args[1] if isinstance(expr, ast.Call) and len(expr.args) > 1 else None
            if fallback is not None and not (
                isinstance(fallback, ast.Constant) and fallback.value is None
            ):
                names.add(dotted(fallback) or "")
        else:
            names.add(dotted(expr) or "")
    name = next(iter(names)) if len(names) == 1 else None
    return name or None, caller_first


def _takes_model_class(expr: ast.expr, kwargs: str | None) -> bool:
    """`kwargs.pop("model_class", ...)` or `kwargs.get("model_class", ...)`."""
    return (
        kwargs is not None
        and isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("pop", "get")
        and isinstance(expr.func.value, ast.Name)
        and expr.func.value.id == kwargs
        and bool(expr.args)
        and isinstance(expr.args[0], ast.Constant)
        and expr.args[0].value == _MODEL_CLASS
    )


def _sets_model_class(node: ast.AST, kwargs: str | None) -> tuple[ast.expr | None, bool]:
    """`kwargs.setdefault("model_class", X)` (X, True: a caller's keyword wins),
    `kwargs["model_class"] = X` or `kwargs.update(model_class=X)` (X, False: X replaces a
    caller's, where the statement is not in a branch of the method)."""
    if kwargs is None:
        return None, False
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == kwargs
    ):
        if node.func.attr == "setdefault" and len(node.args) == 2:
            first = node.args[0]
            if isinstance(first, ast.Constant) and first.value == _MODEL_CLASS:
                return node.args[1], True
        if node.func.attr == "update":
            value = next((k.value for k in node.keywords if k.arg == _MODEL_CLASS), None)
            return value, False
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == kwargs
            and isinstance(target.slice, ast.Constant)
            and target.slice.value == _MODEL_CLASS
        ):
            return node.value, False
    return None, False
