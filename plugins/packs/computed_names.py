"""A computed `__tablename__`, evaluated from source for one class name, never run.

Real code names tables with a `@declared_attr` (or a class-body expression) that turns the class
name into the table name: `cls.__name__.lower()`, a snake_case conversion by `re.sub` or by a
loop, a plural suffix, a helper function of the same or another scanned module. This module is
a tiny interpreter for exactly that: strings, ints, bools, lists and tuples; str methods that
only compute (`lower`, `replace`, `join`, …); `re.sub`/`split`/`findall` (and a module-level
`re.compile`) with literal patterns that cannot backtrack without bound; comprehensions, `if`,
`for`, assignments, f-strings and calls to visible helpers; `cls.<attr>` as the concrete class's
MRO binds it, and its classmethods and staticmethods called through `cls` (two flavours of one
schema: `cls.prefix("torrents")` reading `cls.__flavor__`). Anything else — another library, a
plain method, `cls.__module__`, a `while` — stops the evaluation with `NotEvaluated` saying
what was not known, which the pack reports as a `COMPUTED_TABLENAME` finding.

Every step is counted and every string and list capped, so no input can make the pack spin.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .bounded_values import MAX_LENGTH, binop, format_text
from .bounded_values import NotEvaluated as NotEvaluated

MAX_STEPS = 20_000
MAX_CALL_DEPTH = 8
MAX_PATTERN = 200
# A quantified group — `(a+)+`, `(?:x|y)*` — is what makes a regex backtrack without bound;
# class names are short, so any pattern without one runs in bounded time.
_QUANTIFIED_GROUP = re.compile(r"\)[*+?{]")

STR_METHODS = frozenset(
    {
        "lower", "upper", "casefold", "capitalize", "title", "swapcase", "strip", "lstrip",
        "rstrip", "replace", "split", "rsplit", "join", "startswith", "endswith",
        "removeprefix", "removesuffix", "isupper", "islower", "isdigit", "isalpha", "isalnum",
        "istitle", "find", "count", "format",
    }
)  # fmt: skip
HELPER_NAME = re.compile(
    r"(?i)snake|case|table|plural|underscore|camel|name|settings|config|prefix"
)
"""A module-level function is kept as a possible table-name helper when its name says so (or
its module computes a `__tablename__`), or a settings factory (`get_settings()`, `get_config()`,
an `lru_cache`d one); a call to any other is reported, never guessed. The pre-filter follows
a helper's imports by the same rule (`prefilter.needed`), also for a module constant named so
(`settings = Settings()`, `TABLE_PREFIX = ...`)."""
REGEX_FUNCTIONS = frozenset({"sub", "split", "findall", "compile"})
HAS_INHERITED_TABLE = frozenset(
    {
        "sqlalchemy.orm.has_inherited_table",
        "sqlalchemy.ext.declarative.has_inherited_table",
        "sqlalchemy.ext.declarative.api.has_inherited_table",
    }
)


@dataclass(frozen=True)
class Computation:
    """What computes a table name: a function of `cls` (a `declared_attr`, a lambda) or a plain
    class-body expression. `line` is where it is written."""

    line: int
    params: tuple[str, ...]  # () for a class-body expression
    body: tuple[ast.stmt, ...]  # a lambda or an expression becomes one `return`

    @property
    def text(self) -> str:
        """Short source of what computes the name, for a finding's detail."""
        if len(self.body) == 1 and isinstance(self.body[0], ast.Return) and self.body[0].value:
            return f"`{_short(ast.unparse(self.body[0].value))}`"
        return "a function body"


def from_function(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Computation:
    return Computation(func.lineno, tuple(a.arg for a in func.args.args), tuple(func.body))


def from_expression(value: ast.expr) -> Computation:
    if isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Lambda):
        lam = value.args[0]  # `declared_attr(lambda cls: ...)`
        return Computation(
            value.lineno,
            tuple(a.arg for a in lam.args.args),
            (ast.Return(lam.body, lineno=lam.lineno, col_offset=0),),
        )
    return Computation(value.lineno, (), (ast.Return(value, lineno=value.lineno, col_offset=0),))


@dataclass(frozen=True)
class ClassDefaults:
    """A class whose instance a computation may read (a settings object): its class attributes
    (its own first, then its ancestors'), and whether pydantic's `BaseSettings` is above it —
    then each value is a default the environment may override (`env_prefix` + the name)."""

    name: str
    defaults: Mapping[str, ast.expr]
    settings: bool = False
    env_prefix: str = ""


@dataclass(frozen=True)
class Scope:
    """What a computation may see from its module: literal constants and `re.compile`s
    (`constants`), its imports (to know `re`), and helper functions (`function`, which also
    follows imports into other scanned modules)."""

    constants: Mapping[str, ast.expr]
    imports: Mapping[str, str]
    function: Callable[[str], tuple[Computation, Scope] | None]
    # an imported constant (`from .names import CAMEL = re.compile(...)`): its value and the
    # scope of the module that assigns it
    constant: Callable[[str], tuple[ast.expr, Scope] | None] = lambda name: None
    # a class of the repository by the name the module uses (`Settings`, `config.Settings`)
    klass: Callable[[str], tuple[ClassDefaults, Scope] | None] = lambda name: None
    # a scanned module by its dotted name (`importlib.import_module("pkg.conf")`)
    module: Callable[[str], Scope | None] = lambda name: None
    # a plain method of the instance a computation is run on (`self.__coerce(v)` in a
    # configuration manager's `init_app`), by its name as written in the class
    method: Callable[[str], Computation | None] = lambda name: None


@dataclass(frozen=True)
class ClassFunction:
    """A function of a class body, which `cls.<name>` reads: a `classmethod` (called with the
    class first), a `staticmethod`, or anything else (a plain method, a property, a
    `declared_attr`) that a computation reading it is not evaluated with."""

    name: str
    kind: str  # "classmethod", "staticmethod", or "" for anything else
    computation: Computation
    defaults: tuple[ast.expr, ...] = ()  # of the last parameters, evaluated where written


def class_function(func: ast.FunctionDef | ast.AsyncFunctionDef) -> ClassFunction:
    """What `cls.<func.name>` is: its decorator, when it is only `@classmethod`/`@staticmethod`
    on a plain `def` whose parameters a call here can fill (positional or by keyword, with
    defaults; no `*args`, `**kwargs` or keyword-only ones)."""
    kinds = [d.id for d in func.decorator_list if isinstance(d, ast.Name)]
    spec = func.args
    plain = isinstance(func, ast.FunctionDef) and not (
        spec.vararg or spec.kwarg or spec.kwonlyargs or spec.posonlyargs
    )
    kind = kinds[0] if len(func.decorator_list) == 1 and len(kinds) == 1 and plain else ""
    return ClassFunction(
        func.name,
        kind if kind in ("classmethod", "staticmethod") else "",
        from_function(func),
        tuple(spec.defaults),
    )


Attributes = Callable[[str], "tuple[ast.expr | ClassFunction, Scope] | None"]
"""A class's attribute by name (its own, else its ancestors', in method resolution order): the
value, or the function of the class body, and its module's scope."""


@dataclass(frozen=True)
class Evaluated:
    """A computed name and the configuration defaults it was read with (`os.environ.X`, a
    `BaseSettings` field's default): the deployment may set another value."""

    name: str | None
    assumed: tuple[str, ...] = ()


def evaluate(
    computation: Computation, class_name: str, scope: Scope, *, inherited_table: bool = False
) -> str | None:
    """The table name the computation gives for `class_name` (None: it returns None).

    `inherited_table` is what SQLAlchemy's `has_inherited_table(cls)` answers for the class (a
    mapped class above it), so the documented recipe for single-table subclasses evaluates."""
    return evaluate_marked(computation, class_name, scope, inherited_table=inherited_table).name


def evaluate_marked(
    computation: Computation,
    class_name: str,
    scope: Scope,
    *,
    inherited_table: bool = False,
    attributes: Attributes | None = None,
) -> Evaluated:
    """`evaluate`, with the configuration defaults the name was read with; `attributes`: the
    class's own attributes (`cls.short_name`) a computation may read."""
    run = _Run(scope)
    args = [_Class(class_name, inherited_table, attributes)] if computation.params else []
    value = _guarded(lambda: run.call(computation, args, scope, 0))
    if value is not None and not isinstance(value, str):
        raise NotEvaluated(f"it returns a {type(value).__name__}, not a str")
    return Evaluated(value, tuple(dict.fromkeys(run.assumed)))


def run_hook(
    hook: Computation,
    class_name: str,
    tablename: str | None,
    scope: Scope,
    *,
    maps_in_super: bool,
    mapping: str = "__init_subclass__",
    attributes: Attributes | None = None,
) -> Evaluated:
    """The `__tablename__` a class has once a base's `__init_subclass__(cls)` ran for it:
    `tablename` is what `cls.__tablename__` reads before (None: no class defines one). With
    `maps_in_super` (SQLAlchemy 2's `DeclarativeBase` maps the class in its own
    `__init_subclass__`), what the class holds when the hook calls `super().__init_subclass__()`
    is what gets mapped; a legacy declarative base maps it afterwards, in its metaclass."""
    run = _Run(scope)
    cls = _Class(class_name, False, attributes)
    cls.tablename = tablename if tablename is not None else _UNSET
    cls.mapping = mapping
    # a metaclass's `__init__(cls, name, bases, namespace)`: the namespace is not read here
    args: list[Any] = [cls, class_name, (), _Opaque("the class namespace")][: len(hook.params)]
    _guarded(lambda: run.call(hook, args, scope, 0))
    value = cls.mapped if maps_in_super and cls.mapped is not _NOT_MAPPED else cls.tablename
    if value is _UNSET or value is None:
        return Evaluated(None, tuple(dict.fromkeys(run.assumed)))
    if not isinstance(value, str):
        raise NotEvaluated(f"it assigns a {type(value).__name__}, not a str")
    return Evaluated(value, tuple(dict.fromkeys(run.assumed)))


def evaluate_on_instance(value: ast.expr, own: str, scope: Scope) -> tuple[Any, tuple[str, ...]]:
    """What `value`, written in a method whose first parameter is `own`, computes with every
    environment variable unset: `own.m(...)` runs the class's plain method `m` (its first
    parameter the same instance); any other attribute of the instance is not known. The value
    (a str, an int, a bool, None) and the configuration defaults it was read with."""
    run = _Run(scope)
    computation = from_expression(value)
    env = {own: _Own()}

    def returned() -> Any:
        try:
            run.block(computation.body, dict(env), scope, 0)
        except _Return as done:
            return done.value
        return None

    got = _guarded(returned)
    if not (got is None or isinstance(got, str | int | bool)):
        raise NotEvaluated(f"it gives a {type(got).__name__}")
    return got, tuple(dict.fromkeys(run.assumed))


def _guarded(step: Callable[[], Any]) -> Any:
    try:
        return step()
    except NotEvaluated:
        raise
    except _Raised as raised:
        raise NotEvaluated(f"raises {raised.kind}") from raised
    except (RecursionError, TypeError, ValueError, LookupError, AttributeError) as exc:
        # A shape the checks above did not foresee (a constant defined by itself, ...): the
        # link runs over every file at once, so it must turn into a finding, never escape.
        raise NotEvaluated(f"evaluation stopped: {type(exc).__name__}") from exc


# a format spec of fill, align, width and a string or integer type: bounded output
_PLAIN_SPEC = re.compile(r"(?:[^{}]?[<>^=])?[+\- ]?0?(?:[1-9][0-9]?)?[sdxXob]?")
_UNSET: Any = object()  # `cls.__tablename__` that no class defines
_NOT_MAPPED: Any = object()  # `super().__init_subclass__()` not called (yet)
TABLENAME = "__tablename__"


class _Class:
    """The `cls` argument: its name, whether a mapped class is above it, and (in a base's
    `__init_subclass__`) its `__tablename__` as the hook reads and assigns it."""

    def __init__(
        self, name: str, inherited_table: bool, attributes: Attributes | None = None
    ) -> None:
        self.name = name
        self.inherited_table = inherited_table
        self.attributes = attributes
        self.tablename: Any = _UNSET
        self.mapped: Any = _NOT_MAPPED  # `__tablename__` when the hook called its super's
        self.mapping = "__init_subclass__"  # the method whose `super()` call maps the class

    def read(self) -> Any:
        if self.tablename is _UNSET:
            raise NotEvaluated("reads `cls.__tablename__`, which no class above defines")
        return self.tablename


@dataclass(frozen=True)
class _Opaque:
    """A value the interpreter holds but never reads (a metaclass's namespace argument)."""

    what: str


@dataclass(frozen=True)
class _Instance:
    """An instance of a repository class (`Settings()`): its attributes are class defaults."""

    defaults: ClassDefaults
    scope: Scope


@dataclass(frozen=True)
class _ClassValue:
    defaults: ClassDefaults
    scope: Scope


@dataclass(frozen=True)
class _Bound:
    """`cls.<classmethod>` or `cls.<staticmethod>`: what a call of it runs, and for whom."""

    function: ClassFunction
    scope: Scope
    cls: _Class


@dataclass(frozen=True)
class _Pattern:
    pattern: str


@dataclass(frozen=True)
class _Builtin:
    name: str  # "re.sub", "str", "len", "enumerate", "list", "reversed"


@dataclass(frozen=True)
class _Method:
    owner: Any
    name: str


@dataclass(frozen=True)
class _Own:
    """The instance a computation runs on (`self`): its plain methods are the scope's."""


@dataclass(frozen=True)
class _OwnMethod:
    computation: Computation
    owner: _Own


@dataclass(frozen=True)
class _Helper:
    computation: Computation
    scope: Scope
    name: str


@dataclass(frozen=True)
class _ModuleValue:
    """A scanned module `importlib.import_module` gave."""

    scope: Scope
    name: str


class _Raised(Exception):
    """An exception the evaluated code raises (an import of a module the repository does not
    hold): a `try` may catch it."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


_CATCHES = {  # an exception -> the handler names that catch it
    "ModuleNotFoundError": {"ModuleNotFoundError", "ImportError", "Exception", "BaseException"},
}


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


_BUILTINS = frozenset(
    {
        "str",
        "len",
        "enumerate",
        "list",
        "reversed",
        "tuple",
        "getattr",
        "hasattr",
        "setattr",
        "super",
        "isinstance",
        "int",
        "bool",
    }
)
_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "list": list, "tuple": tuple}
_ENVIRON = {
    "os": "os",
    "os.environ": "os.environ",
    "os.getenv": "os.getenv",
    "importlib": "importlib",
    "importlib.import_module": "importlib.import_module",
}


class _Run:
    def __init__(self, scope: Scope) -> None:
        self.steps = 0
        self.root = scope
        self.assumed: list[str] = []  # configuration defaults read (`Evaluated.assumed`)
        self.memo: dict[tuple[int, Any, tuple[Any, ...]], tuple[Computation, Any]] = {}

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise NotEvaluated(f"more than {MAX_STEPS} steps")

    def call(self, computation: Computation, args: list[Any], scope: Scope, depth: int) -> Any:
        if depth > MAX_CALL_DEPTH:
            raise NotEvaluated("calls nest too deep")
        if len(args) > len(computation.params):
            raise NotEvaluated("a helper is called with more arguments than it takes")
        if len(args) < len(computation.params) and computation.params:
            raise NotEvaluated("a helper is called with fewer arguments than it takes")
        env: dict[str, Any] = dict(zip(computation.params, args, strict=True))
        try:
            self.block(computation.body, env, scope, depth)
        except _Return as done:
            return done.value
        return None

    def block(
        self, body: Iterable[ast.stmt], env: dict[str, Any], scope: Scope, depth: int
    ) -> None:
        for stmt in body:
            self.tick()
            self.statement(stmt, env, scope, depth)

    def statement(self, stmt: ast.stmt, env: dict[str, Any], scope: Scope, depth: int) -> None:
        if isinstance(stmt, ast.Return):
            value = None if stmt.value is None else self.expr(stmt.value, env, scope, depth)
            raise _Return(value)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            self.assign(stmt.targets[0], self.expr(stmt.value, env, scope, depth), env)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.assign(stmt.target, self.expr(stmt.value, env, scope, depth), env)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            current = self.name(stmt.target.id, env, scope, depth)
            value = self.expr(stmt.value, env, scope, depth)
            env[stmt.target.id] = binop(stmt.op, current, value)
        elif isinstance(stmt, ast.If):
            branch = stmt.body if self.truth(stmt.test, env, scope, depth) else stmt.orelse
            self.block(branch, env, scope, depth)
        elif isinstance(stmt, ast.For) and not stmt.orelse:
            for item in self.iterate(self.expr(stmt.iter, env, scope, depth)):
                self.assign(stmt.target, item, env)
                self.block(stmt.body, env, scope, depth)
        elif isinstance(stmt, ast.Try) and not stmt.finalbody:
            self.attempt(stmt, env, scope, depth)
        elif isinstance(stmt, ast.Expr):
            if not (isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
                self.expr(stmt.value, env, scope, depth)  # a docstring is skipped
        elif not isinstance(stmt, ast.Pass):
            raise NotEvaluated(f"`{type(stmt).__name__.lower()}` statement at line {stmt.lineno}")

    def attempt(self, stmt: ast.Try, env: dict[str, Any], scope: Scope, depth: int) -> None:
        """`try: ... except ImportError: ...`: the handler that catches what the body raised
        (an import of a module the repository does not hold), else the `else` branch."""
        try:
            self.block(stmt.body, env, scope, depth)
        except _Raised as raised:
            for handler in stmt.handlers:
                caught = handler.type
                names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught else []
                written = {
                    n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "") for n in names
                }
                if caught is None or written & _CATCHES.get(raised.kind, {raised.kind}):
                    if handler.name:
                        env[handler.name] = None
                    self.block(handler.body, env, scope, depth)
                    return
            raise
        self.block(stmt.orelse, env, scope, depth)

    def import_module(self, name: Any, scope: Scope) -> _ModuleValue:
        """`importlib.import_module("x")`: a scanned module, or a `ModuleNotFoundError` the
        code may catch (a module the repository does not hold is taken as not installed)."""
        if not isinstance(name, str):
            raise NotEvaluated("`import_module` of a computed name")
        found = scope.module(name)
        if found is None:
            self.assumed.append(f"{name} not installed")
            raise _Raised("ModuleNotFoundError")
        return _ModuleValue(found, name)

    def assign(self, target: ast.expr, value: Any, env: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif (
            isinstance(target, ast.Attribute)
            and target.attr == TABLENAME
            and isinstance(target.value, ast.Name)
            and isinstance(env.get(target.value.id), _Class)
        ):
            env[target.value.id].tablename = value  # `cls.__tablename__ = ...` in a hook
        elif isinstance(target, ast.Tuple | ast.List) and all(
            isinstance(t, ast.Name) for t in target.elts
        ):
            items = self.iterate(value)
            if len(items) != len(target.elts):
                raise NotEvaluated("an unpacking of the wrong length")
            for name, item in zip(target.elts, items, strict=True):
                assert isinstance(name, ast.Name)
                env[name.id] = item
        else:
            raise NotEvaluated(f"assigns to `{_short(ast.unparse(target))}`")

    def iterate(self, value: Any) -> list[Any]:
        if isinstance(value, str | list | tuple):
            return list(value)
        raise NotEvaluated(f"iterates over a {type(value).__name__}")

    def truth(self, test: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> bool:
        value = self.expr(test, env, scope, depth)
        if not isinstance(value, str | int | bool | list | tuple) and value is not None:
            raise NotEvaluated(f"tests `{_short(ast.unparse(test))}`")
        return bool(value)

    def name(self, name: str, env: Mapping[str, Any], scope: Scope, depth: int = 0) -> Any:
        if name in env:
            return env[name]
        if depth > MAX_CALL_DEPTH:
            raise NotEvaluated("names nest too deep")
        if name in scope.constants:
            return self.expr(scope.constants[name], {}, scope, depth + 1)
        target = scope.imports.get(name, "")
        if target and (imported := scope.constant(name)) is not None:
            return self.expr(imported[0], {}, imported[1], depth + 1)
        if target == "re" or (target.startswith("re.") and target[3:] in REGEX_FUNCTIONS):
            return _Builtin(target)
        if target in _ENVIRON:
            return _Builtin(_ENVIRON[target])
        if (found := scope.klass(name)) is not None:
            return _ClassValue(*found)
        if target in HAS_INHERITED_TABLE:
            return _Builtin("has_inherited_table")
        if name in _BUILTINS and name not in scope.imports:
            return _Builtin(name)
        helper = scope.function(name)
        if helper is not None:
            return _Helper(helper[0], helper[1], name)
        raise NotEvaluated(f"`{name}` is not visible" if not target else f"uses `{target}`")

    def expr(self, node: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        self.tick()
        value = self._expr(node, env, scope, depth)
        if isinstance(value, str | list | tuple) and len(value) > MAX_LENGTH:
            raise NotEvaluated(f"a value longer than {MAX_LENGTH}")
        return value

    def _expr(self, node: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str | int | bool) or node.value is None:
                return node.value
            raise NotEvaluated(f"a {type(node.value).__name__} constant")
        if isinstance(node, ast.Name):
            return self.name(node.id, env, scope, depth)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, env, scope, depth)
        if isinstance(node, ast.JoinedStr):
            return "".join(self.formatted(part, env, scope, depth) for part in node.values)
        if isinstance(node, ast.BinOp):
            left = self.expr(node.left, env, scope, depth)
            return binop(node.op, left, self.expr(node.right, env, scope, depth))
        if isinstance(node, ast.BoolOp):
            result: Any = None
            for operand in node.values:
                result = self.expr(operand, env, scope, depth)
                if bool(result) == isinstance(node.op, ast.Or):
                    return result
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.truth(node.operand, env, scope, depth)
        if isinstance(node, ast.Compare):
            return self.compare(node, env, scope, depth)
        if isinstance(node, ast.IfExp):
            branch = node.body if self.truth(node.test, env, scope, depth) else node.orelse
            return self.expr(branch, env, scope, depth)
        if isinstance(node, ast.List | ast.Tuple):
            items = [self.expr(e, env, scope, depth) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return self.comprehension(node, env, scope, depth)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, env, scope, depth)
        if isinstance(node, ast.Call):
            return self.call_expr(node, env, scope, depth)
        raise NotEvaluated(f"`{_short(ast.unparse(node))}`")

    def attribute(self, node: ast.Attribute, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        if isinstance(node.value, ast.Name) and node.value.id not in env:
            # `config.Settings`, `os.environ`: a dotted name the module may import as a whole
            dotted_name = f"{node.value.id}.{node.attr}"
            target = scope.imports.get(node.value.id, "")
            if target in ("os", "importlib") and dotted_name in _ENVIRON:
                return _Builtin(dotted_name)
            if target and (found := scope.klass(dotted_name)) is not None:
                return _ClassValue(*found)
        owner = self.expr(node.value, env, scope, depth)
        if isinstance(owner, _Class):
            if node.attr in ("__name__", "__qualname__"):
                return owner.name
            if node.attr == TABLENAME:
                return owner.read()
            value = owner.attributes(node.attr) if owner.attributes is not None else None
            if value is None or depth > MAX_CALL_DEPTH:
                raise NotEvaluated(f"reads `cls.{node.attr}`")
            member, where = value
            if isinstance(member, ClassFunction):
                if not member.kind:
                    raise NotEvaluated(
                        f"reads `cls.{node.attr}`, not a classmethod or staticmethod run here"
                    )
                return _Bound(member, where, owner)
            return self.expr(member, {}, where, depth + 1)  # a class attribute's value
        if isinstance(owner, _Instance):
            return self.setting(owner, node.attr, depth)
        if isinstance(owner, _Own) and (method := scope.method(node.attr)) is not None:
            return _OwnMethod(method, owner)
        if isinstance(owner, _ModuleValue):
            return self.name(node.attr, {}, owner.scope, depth)
        if (
            isinstance(owner, _Builtin)
            and owner.name == "importlib"
            and node.attr == "import_module"
        ):
            return _Builtin("importlib.import_module")
        if isinstance(owner, _Builtin) and owner.name in ("os", "os.environ"):
            name = f"{owner.name}.{node.attr}"
            if name in ("os.environ", "os.getenv", "os.environ.get"):
                return _Builtin(name)
        if (
            isinstance(owner, _Builtin)
            and owner.name == "super()"
            and node.attr in ("__init_subclass__", "__init__")
        ):
            return _Builtin(f"super().{node.attr}")
        if isinstance(owner, str) and node.attr in STR_METHODS:
            return _Method(owner, node.attr)
        if isinstance(owner, list) and node.attr == "append":
            return _Method(owner, "append")
        if isinstance(owner, _Pattern) and node.attr in ("sub", "split", "findall"):
            return _Method(owner, node.attr)
        if isinstance(owner, _Builtin) and owner.name == "re" and node.attr in REGEX_FUNCTIONS:
            return _Builtin(f"re.{node.attr}")
        raise NotEvaluated(f"`{_short(ast.unparse(node))}`")

    def setting(self, owner: _Instance, attribute: str, depth: int) -> Any:
        """A settings object's attribute: its class default (pydantic's `Field(default)` too),
        marked as assumed where `BaseSettings` lets the environment override it."""
        value = owner.defaults.defaults.get(attribute)
        if value is None:
            raise NotEvaluated(f"`{owner.defaults.name}.{attribute}` has no default")
        if isinstance(value, ast.Call) and last_callee(value) == "Field":
            default = value.args[0] if value.args else None
            default = next((k.value for k in value.keywords if k.arg == "default"), default)
            if default is None:
                raise NotEvaluated(f"`{owner.defaults.name}.{attribute}` has no default")
            value = default
        result = self.expr(value, {}, owner.scope, depth + 1)
        if owner.defaults.settings:
            variable = (owner.defaults.env_prefix + attribute).upper()
            self.assumed.append(f"{owner.defaults.name}.{attribute} (env {variable})")
        return result

    def environ(self, args: list[Any], keywords: dict[str, Any]) -> Any:
        """`os.environ.get("X", "d")`, `os.getenv("X")`: the variable is taken as unset, its
        default (None without one) marked as assumed."""
        if keywords or not 1 <= len(args) <= 2 or not isinstance(args[0], str):
            raise NotEvaluated("`os.environ.get` of a computed variable")
        self.assumed.append(f"os.environ.{args[0]}")
        return args[1] if len(args) == 2 else None

    def formatted(self, part: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> str:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            return part.value
        if isinstance(part, ast.FormattedValue):
            spec = part.format_spec  # a JoinedStr: `:s` is one constant
            parts = spec.values if isinstance(spec, ast.JoinedStr) else []
            if spec is not None and not (len(parts) == 1 and isinstance(parts[0], ast.Constant)):
                raise NotEvaluated("an f-string with a computed format")
            text = str(parts[0].value) if parts else ""  # type: ignore[attr-defined]
            value = self.expr(part.value, env, scope, depth)
            if (
                isinstance(value, str | int)
                and part.conversion in (-1, ord("s"))
                and _PLAIN_SPEC.fullmatch(text)  # `{name:s}`, `{n:03d}`, `{x:>8}`
            ):
                return format(value, text)
        raise NotEvaluated("an f-string with a format")

    def compare(self, node: ast.Compare, env: dict[str, Any], scope: Scope, depth: int) -> bool:
        left = self.expr(node.left, env, scope, depth)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.expr(right_node, env, scope, depth)
            if isinstance(right, _Builtin) and right.name == "os.environ" and isinstance(left, str):
                if type(op) not in (ast.In, ast.NotIn):
                    raise NotEvaluated(f"compares `{_short(ast.unparse(node))}`")
                self.assumed.append(f"os.environ.{left}")  # taken as unset
                ok = type(op) is ast.NotIn
                if not ok:
                    return False
                left = right
                continue
            if not all(
                isinstance(v, str | int | list | tuple)
                or (v is None and type(op) in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot))
                for v in (left, right)
            ):
                raise NotEvaluated(f"compares `{_short(ast.unparse(node))}`")
            try:
                ok = _COMPARE[type(op)](left, right)
            except (KeyError, TypeError) as exc:
                raise NotEvaluated(f"compares `{_short(ast.unparse(node))}`") from exc
            if not ok:
                return False
            left = right
        return True

    def comprehension(
        self, node: ast.ListComp | ast.GeneratorExp, env: dict[str, Any], scope: Scope, depth: int
    ) -> list[Any]:
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise NotEvaluated("a comprehension of more than one `for`")
        gen = node.generators[0]
        inner = dict(env)
        out: list[Any] = []
        for item in self.iterate(self.expr(gen.iter, env, scope, depth)):
            self.assign(gen.target, item, inner)
            if all(self.truth(test, inner, scope, depth) for test in gen.ifs):
                out.append(self.expr(node.elt, inner, scope, depth))
        return out

    def subscript(self, node: ast.Subscript, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        owner = self.expr(node.value, env, scope, depth)
        if isinstance(owner, _Builtin) and owner.name == "os.environ":
            raise NotEvaluated(f"reads `{_short(ast.unparse(node))}`, which has no default")
        if not isinstance(owner, str | list | tuple):
            raise NotEvaluated(f"indexes a {type(owner).__name__}")
        index = node.slice
        try:
            if isinstance(index, ast.Slice):
                if index.step is not None:
                    raise NotEvaluated("a slice with a step")
                lower = self.expr(index.lower, env, scope, depth) if index.lower else None
                upper = self.expr(index.upper, env, scope, depth) if index.upper else None
                if not all(v is None or type(v) is int for v in (lower, upper)):
                    raise NotEvaluated("a slice by a non-int")
                return owner[lower:upper]
            position = self.expr(index, env, scope, depth)
            if type(position) is not int:
                raise NotEvaluated("an index by a non-int")
            return owner[position]
        except IndexError as exc:
            raise NotEvaluated("an index out of range") from exc

    def call_expr(self, node: ast.Call, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        func = self.expr(node.func, env, scope, depth)
        if isinstance(func, _Builtin) and func.name.startswith("super()."):
            return self.super_call(func.name, [], {}, env)  # its arguments go to the library
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise NotEvaluated("a call with *args")
        args = [self.expr(a, env, scope, depth) for a in node.args]
        keywords = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise NotEvaluated("a call with **kwargs")
            keywords[kw.arg] = self.expr(kw.value, env, scope, depth)
        if isinstance(func, _Helper):
            if keywords:
                raise NotEvaluated(f"`{func.name}` called with keywords")
            return self.call(func.computation, args, func.scope, depth + 1)
        if isinstance(func, _Bound):
            return self.class_call(func, args, keywords, depth)
        if isinstance(func, _OwnMethod):
            if keywords:
                raise NotEvaluated("a method called with keywords")
            return self.call(func.computation, [func.owner, *args], scope, depth + 1)
        if isinstance(func, _Method):
            return self.method(func, args, keywords)
        if isinstance(func, _ClassValue):
            if args or any(not k.startswith("_") for k in keywords):
                raise NotEvaluated(f"`{func.defaults.name}(...)` with arguments")
            return _Instance(func.defaults, func.scope)  # `_env_file=` and such: config only
        if isinstance(func, _Builtin) and func.name in ("os.environ.get", "os.getenv"):
            return self.environ(args, keywords)
        if isinstance(func, _Builtin) and func.name == "importlib.import_module":
            if keywords or len(args) != 1:
                raise NotEvaluated("`import_module` with a package")
            return self.import_module(args[0], scope)
        if (
            isinstance(func, _Builtin)
            and func.name == "getattr"
            and args
            and isinstance(args[0], _ModuleValue)
        ):
            if keywords or len(args) != 2 or not isinstance(args[1], str):
                raise NotEvaluated("`getattr` of a module with a default")
            return self.name(args[1], {}, args[0].scope, depth)
        if isinstance(func, _Builtin) and func.name.startswith("super"):
            return self.super_call(func.name, args, keywords, env)
        if isinstance(func, _Builtin) and func.name in ("getattr", "hasattr", "setattr"):
            return self.attr_call(func.name, args, keywords)
        if isinstance(func, _Builtin):
            return self.builtin(func.name, args, keywords)
        raise NotEvaluated(f"calls `{_short(ast.unparse(node.func))}`")

    def class_call(
        self, bound: _Bound, args: list[Any], keywords: dict[str, Any], depth: int
    ) -> Any:
        """`cls.prefix("torrents")`: the classmethod run with the class first (a staticmethod
        without it), in its class's module. A call with the same immutable arguments gives
        the same name again: its result is kept for the rest of the run, unless the function
        may change the class (assigns an attribute, calls `setattr`)."""
        function = bound.function
        computation = function.computation
        given = [bound.cls, *args] if function.kind == "classmethod" else list(args)
        values = (*args, *keywords.values())
        immutable = all(isinstance(a, str | int | bool | tuple) or a is None for a in values)
        held = bound.cls.tablename  # a hook may assign it between two calls
        state = held if isinstance(held, str) or held is None else id(held)
        key = (id(computation), state, (*args, *sorted(keywords.items())))
        if immutable and key in self.memo:
            return self.memo[key][1]
        params = computation.params
        if len(given) > len(params) or set(keywords) - set(params[len(given) :]):
            raise NotEvaluated(f"`cls.{function.name}` called with arguments it does not take")
        first_default = len(params) - len(function.defaults)
        for index in range(len(given), len(params)):
            if params[index] in keywords:
                given.append(keywords[params[index]])
            elif index >= first_default:
                default = function.defaults[index - first_default]
                given.append(self.expr(default, {}, bound.scope, depth + 1))
            else:
                raise NotEvaluated(f"`cls.{function.name}` called without `{params[index]}`")
        result = self.call(computation, given, bound.scope, depth + 1)
        if immutable and _pure(computation) and not isinstance(result, list):
            self.memo[key] = (computation, result)  # the computation held: its id stays its own
        return result

    def super_call(
        self, name: str, args: list[Any], keywords: dict[str, Any], env: dict[str, Any]
    ) -> Any:
        """`super().__init_subclass__(**kw)` in a hook: SQLAlchemy 2 maps the class there."""
        if name == "super":
            if args:
                raise NotEvaluated("`super(...)` with arguments")
            return _Builtin("super()")
        cls = next((v for v in env.values() if isinstance(v, _Class)), None)
        if cls is None:
            raise NotEvaluated("`super().__init_subclass__()` outside a hook")
        if cls.mapped is _NOT_MAPPED and name == f"super().{cls.mapping}":
            cls.mapped = cls.tablename
        return None

    def attr_call(self, name: str, args: list[Any], keywords: dict[str, Any]) -> Any:
        """`getattr(cls, "__tablename__", None)`, `hasattr(...)`, `setattr(...)` on `cls`."""
        if keywords or len(args) < 2 or not isinstance(args[0], _Class) or args[1] != TABLENAME:
            raise NotEvaluated(f"`{name}` of other than `cls.__tablename__`")
        cls: _Class = args[0]
        if name == "hasattr" and len(args) == 2:
            return cls.tablename is not _UNSET
        if name == "getattr" and len(args) in (2, 3):
            return cls.read() if len(args) == 2 or cls.tablename is not _UNSET else args[2]
        if name == "setattr" and len(args) == 3:
            cls.tablename = args[2]
            return None
        raise NotEvaluated(f"`{name}` with these arguments")

    def method(self, method: _Method, args: list[Any], keywords: dict[str, Any]) -> Any:
        owner = method.owner
        if isinstance(owner, list):
            if len(args) != 1 or keywords:
                raise NotEvaluated("`append` with other than one argument")
            if len(owner) >= MAX_LENGTH:
                raise NotEvaluated(f"a list longer than {MAX_LENGTH}")
            owner.append(args[0])
            return None
        if isinstance(owner, _Pattern):
            return self.regex(method.name, owner.pattern, args, keywords)
        if method.name == "format":
            return format_text(owner, args, keywords)
        is_join = method.name == "join" and len(args) == 1 and not keywords
        if not is_join and (keywords or not all(isinstance(a, str | int) for a in args)):
            raise NotEvaluated(f"`str.{method.name}` with these arguments")
        if method.name == "join":
            parts = self.iterate(args[0]) if len(args) == 1 else None
            if parts is None or not all(isinstance(p, str) for p in parts):
                raise NotEvaluated("`str.join` of other than strings")
            args = [parts]
        try:
            return getattr(owner, method.name)(*args)
        except (TypeError, ValueError) as exc:
            raise NotEvaluated(f"`str.{method.name}` fails here") from exc

    def builtin(self, name: str, args: list[Any], keywords: dict[str, Any]) -> Any:
        if name.startswith("re."):
            if name == "re.compile":
                if keywords or len(args) != 1 or not isinstance(args[0], str):
                    raise NotEvaluated("`re.compile` with flags or a non-literal pattern")
                return _Pattern(_safe_pattern(args[0]))
            if not args or not isinstance(args[0], str | _Pattern):
                raise NotEvaluated(f"`{name}` without a pattern")
            pattern = args[0].pattern if isinstance(args[0], _Pattern) else args[0]
            return self.regex(name[3:], pattern, args[1:], keywords)
        if name == "isinstance" and len(args) == 2 and not keywords:
            return self.isinstance(args[0], args[1])
        if keywords or len(args) != 1:
            raise NotEvaluated(f"`{name}` with these arguments")
        (value,) = args
        if name == "has_inherited_table" and isinstance(value, _Class):
            return value.inherited_table
        if name == "str" and isinstance(value, str | int):
            return str(value)
        if name == "len" and isinstance(value, str | list | tuple):
            return len(value)
        if name in ("list", "tuple", "reversed", "enumerate"):
            items = self.iterate(value)
            if name == "enumerate":
                return [(i, item) for i, item in enumerate(items)]
            return items[::-1] if name == "reversed" else items
        raise NotEvaluated(f"`{name}` of a {type(value).__name__}")

    def isinstance(self, value: Any, kinds: Any) -> bool:
        """`isinstance(v, str)`, `isinstance(v, (str, int))` of a value this run holds."""
        names = kinds if isinstance(kinds, tuple) else (kinds,)
        if not all(isinstance(k, _Builtin) and k.name in _TYPES for k in names):
            raise NotEvaluated("`isinstance` of a class not known here")
        if not (value is None or isinstance(value, str | int | bool | list | tuple)):
            raise NotEvaluated("`isinstance` of a value not known here")
        return any(isinstance(value, _TYPES[k.name]) for k in names)

    def regex(self, name: str, pattern: str, args: list[Any], keywords: dict[str, Any]) -> Any:
        if keywords:
            raise NotEvaluated(f"`re.{name}` with keywords")
        pattern = _safe_pattern(pattern)
        try:
            compiled = re.compile(pattern)
            if name == "sub" and len(args) == 2 and all(isinstance(a, str) for a in args):
                if len(args[1]) > MAX_LENGTH:
                    raise NotEvaluated("a string too long for a regex")
                return compiled.sub(args[0], args[1])
            if name in ("split", "findall") and len(args) == 1 and isinstance(args[0], str):
                result = getattr(compiled, name)(args[0])
                if not all(isinstance(r, str) for r in result):
                    raise NotEvaluated(f"`re.{name}` with groups")
                return result
        except re.error as exc:
            raise NotEvaluated(f"a pattern that does not compile: {pattern!r}") from exc
        raise NotEvaluated(f"`re.{name}` with these arguments")


def _pure(computation: Computation) -> bool:
    """Whether running the function can change nothing but its own names (no attribute or
    item assigned, no `setattr`, no `append`, no `super()`): then a call's result may be kept."""
    for stmt in computation.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Attribute | ast.Subscript) and not isinstance(
                node.ctx, ast.Load
            ):
                return False
            if isinstance(node, ast.Name) and node.id in ("setattr", "super"):
                return False
            if isinstance(node, ast.Attribute) and node.attr == "append":
                return False
    return True


def _safe_pattern(pattern: str) -> str:
    if len(pattern) > MAX_PATTERN or _QUANTIFIED_GROUP.search(pattern):
        raise NotEvaluated(f"a regex that may backtrack without bound: {_short(pattern)!r}")
    return pattern


_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is None and b is None,
    ast.IsNot: lambda a, b: not (a is None and b is None),
}


def last_callee(call: ast.Call) -> str:
    func = call.func
    return (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else ""
    )


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
