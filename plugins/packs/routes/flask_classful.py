"""Flask-Classful's view classes as route facts of one Python file, read with `ast` (never
imported), and the rules the library makes of them once linked.

Flask-Classful (read in 0.14.2 and 0.16.0) routes a `FlaskView` subclass when
`View.register(app_or_blueprint, route_base=None, route_prefix=None, trailing_slash=None,
method_dashified=None, base_class=None, ...)` runs: every public function the class holds,
its own or its bases' (`inspect.getmembers(cls, isfunction)`: the nearest definition of each
name along the MRO, so a name a subclass binds to anything but a function is none), is one
route or more on the app or blueprint, but for names starting with `_`, `before_` or
`after_`, those of `excluded_methods` and those `FlaskView` (or `base_class`) itself has:

- decorated `@route(rule, **options)` (several allowed): `<route_prefix>/<route_base>/<rule>`,
  its `methods=` (Flask's GET when none);
- named as one of `special_methods` (`index`, `get`, `post`, `put`, `patch`, `delete`):
  `<route_prefix>/<route_base>/` then one `<arg>` per parameter without a default (`self`,
  `base_args` and the route base's own variables aside; `<int:arg>` from an `int`, `str`,
  `float` or `UUID` annotation), with its methods;
- any other: `<route_prefix>/<route_base>/<name>/` then its `<arg>`s, with `@method(...)`'s
  methods, else `default_methods` (GET); `_` written `-` with `method_dashified`.

`route_base` is `register`'s when it gives a truthy one, else the class attribute, else the
class's name without a `View` suffix, a `-` before its capitals; a trailing slash is added to
the last two kinds, or dropped from them with `trailing_slash = False`; runs of `/` are one.
The facts are linked by `linker._class_views`, which follows the classes across files; the
library's names are its record (`frameworks.FLASK_CLASSFUL`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ..pymodules import attribute_path
from .frameworks import FLASK_CLASSFUL as LIBRARY
from .model import NO_AUTH, Auth, Condition, Expr, Opaque

COMPUTED = Opaque()  # a setting written in a way not read as a literal


@dataclass(frozen=True, slots=True)
class Table:
    """A literal `special_methods = {"get": ["GET"], ...}`: each name with its methods."""

    entries: tuple[tuple[str, tuple[str, ...]], ...]


# a class attribute or a `register` keyword, as written: a string the linker evaluates
# (`route_base`), a bool, a list of names, the special methods' table, None for `None`;
# `COMPUTED` when written otherwise
Value = Expr | bool | tuple[str, ...] | Table | None
Read = Callable[[ast.expr], Expr | None]

_TEXTS = frozenset({"route_base", "route_prefix"})
_FLAGS = frozenset({"trailing_slash", "method_dashified", "inspect_args"})
_NAMES = frozenset({"excluded_methods", "default_methods", "base_args"})
_SPECIAL = "special_methods"
_SETTINGS = _TEXTS | _FLAGS | _NAMES | {_SPECIAL}
# decorators whose value is no function: the name then holds no route (`getmembers` skips it)
_NOT_FUNCTIONS = frozenset({"classmethod", "property", "cached_property", "setter", "getter",
                            "deleter"})  # fmt: skip
# bases that bring no method (`class Mixin(object)`, `abc.ABC`, `typing.Generic[T]`)
METHODLESS = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol"})


@dataclass(frozen=True, slots=True)
class ViewRule:
    """`@route(rule, methods=[...])` on a method: `callee` the decorator as written (the
    linker checks it is the library's), `rule` as written (None: computed), `methods` the
    methods (empty: Flask's GET; None: computed)."""

    callee: Expr
    rule: Expr | None
    methods: tuple[str, ...] | None
    line: int


@dataclass(frozen=True, slots=True)
class ViewMethod:
    """A public function a class body binds: its positional parameters as `getfullargspec`
    lists them, how many of the last have a default, each one's converter (from its
    annotation; "" none), its `@route` rules and `@method` marks ((decorator, method or None
    when computed)), whether it is a staticmethod, and what its decorators put before it."""

    name: str
    line: int  # its first decorator's line, else its `def`'s
    params: tuple[str, ...] = ()
    defaults: int = 0
    converters: tuple[str, ...] = ()
    rules: tuple[ViewRule, ...] = ()
    marks: tuple[tuple[Expr, str | None], ...] = ()
    static: bool = False
    auth: Auth = NO_AUTH


@dataclass(frozen=True, slots=True)
class RegisterOverride:
    """A class's own `register` classmethod: whether it hands its app on to the library's
    (`super().register(app, *args, **kwargs)`, more keywords allowed: `keywords`), the one
    shape read; anything else is not followed (a finding where a view is registered)."""

    line: int
    passes_on: bool
    keywords: tuple[tuple[str, Value], ...] = ()


@dataclass(frozen=True, slots=True)
class ViewClass:
    """What one class statement says to Flask-Classful: its name, its public functions, the
    public names it binds to anything else (each hides a base's function of that name: no
    route), the settings it assigns ((name, value, line)), its `decorators` (None: not
    assigned here) and its own `register`."""

    name: str
    line: int
    members: tuple[ViewMethod, ...]
    hidden: tuple[str, ...] = ()
    settings: tuple[tuple[str, Value, int], ...] = ()
    decorators: Auth | None = None
    register: RegisterOverride | None = None


@dataclass(frozen=True, slots=True)
class ViewRegister:
    """`View.register(target, **options)` as a statement: the class as written, the app or
    blueprint (None: none given), the options read ((name, value)), what of the call is not
    read ("" nothing: a spread, `methods=`), its line and the `if` it is written under."""

    view: Expr
    target: Expr | None
    options: tuple[tuple[str, Value], ...]
    unread: str
    line: int
    only_if: Condition | None = None


def _flag(node: ast.expr) -> Value:
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)):
        return node.value
    return COMPUTED


def _names(node: ast.expr) -> tuple[str, ...] | Opaque | None:
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return COMPUTED
    names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if len(names) != len(node.elts) or not all(isinstance(n, str) for n in names):
        return COMPUTED
    return tuple(str(n) for n in names)


def _special(node: ast.expr) -> Value:
    if not isinstance(node, ast.Dict):
        return COMPUTED
    table: list[tuple[str, tuple[str, ...]]] = []
    for key, value in zip(node.keys, node.values, strict=True):
        methods = _names(value) if key is not None else COMPUTED
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return COMPUTED
        if not isinstance(methods, tuple):
            return COMPUTED
        table.append((key.value, methods))
    return Table(tuple(table))


def setting(name: str, node: ast.expr, text: Read) -> Value:
    """A setting as written: `route_base` and `route_prefix` as the reader reads a string
    (`text`: a constant of another module, an f-string), the flags, lists and table only as
    literals."""
    if name in _TEXTS:
        if type(node) is ast.Constant and node.value is None:
            return None
        return text(node) or COMPUTED
    if name in _FLAGS:
        return _flag(node)
    if name in _NAMES:
        return _names(node)
    return _special(node)


def _last(node: ast.expr) -> str:
    return (attribute_path(node) or "").rpartition(".")[2]


def _converter(annotation: ast.expr | None, deferred: bool) -> str:
    """The converter a parameter's type hint gives (`type_hints`): only a type object, which a
    module deferring its annotations (`from __future__ import annotations`) never holds."""
    if annotation is None or deferred:
        return ""
    return LIBRARY.converters.get(_last(annotation), "")


def _decorated(
    decorator: ast.expr, read: Read, text: Read
) -> ViewRule | tuple[Expr, str | None] | None:
    """A `@route(...)` rule or a `@method(...)` mark, by the callee's last name (the linker
    checks it is the library's); None for any other decorator."""
    if not isinstance(decorator, ast.Call) or not isinstance(
        decorator.func, ast.Name | ast.Attribute
    ):
        return None
    name = _last(decorator.func)
    callee = read(decorator.func)
    if callee is None or name not in (LIBRARY.route, LIBRARY.method):
        return None
    first = decorator.args[0] if decorator.args else None
    if name == LIBRARY.method:
        method = first.value if type(first) is ast.Constant and type(first.value) is str else None
        return callee, method.upper() if method is not None else None
    rule_node = first if first is not None else _keyword(decorator, "rule")
    rule = text(rule_node) if rule_node is not None else None
    given = _keyword(decorator, "methods")
    methods: tuple[str, ...] | None = ()
    if given is not None:
        listed = _names(given)
        methods = tuple(m.upper() for m in listed) if isinstance(listed, tuple) else None
    return ViewRule(callee, rule, methods, decorator.lineno)


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _method(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
    name: str,
    read: Read,
    text: Read,
    auth: Auth,
    deferred: bool,
) -> ViewMethod:
    decorators = node.decorator_list if not isinstance(node, ast.Lambda) else []
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    rules: list[ViewRule] = []
    marks: list[tuple[Expr, str | None]] = []
    for decorator in decorators:
        found = _decorated(decorator, read, text)
        if isinstance(found, ViewRule):
            rules.append(found)
        elif found is not None:
            marks.append(found)
    return ViewMethod(
        name,
        min((d.lineno for d in decorators), default=node.lineno),
        params=tuple(a.arg for a in positional),
        defaults=len(arguments.defaults),
        converters=tuple(_converter(a.annotation, deferred) for a in positional),
        rules=tuple(rules),
        marks=tuple(reversed(marks)),  # applied bottom up: the list is in that order
        static=any(_last(d) == "staticmethod" for d in decorators),
        auth=auth,
    )


def _skipped(name: str) -> bool:
    return name.startswith(LIBRARY.skipped)


def view_class(
    node: ast.ClassDef,
    read: Read,
    text: Read,
    guard: Read,
    auth_of: Callable[[ast.FunctionDef | ast.AsyncFunctionDef], Auth],
    deferred: bool,
) -> ViewClass:
    """The class statement as Flask-Classful reads the class: `read` reads a decorator's
    callee, `text` a string, `guard` one of `decorators`; `auth_of` what a method's decorators
    put before it; `deferred` whether the module defers its annotations."""
    members: dict[str, ViewMethod | None] = {}  # None: bound to what is no function
    functions: dict[str, ViewMethod] = {}  # every function the body defines, `_`-led ones too
    settings: list[tuple[str, Value, int]] = []
    decorators: Auth | None = None
    override: RegisterOverride | None = None
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if stmt.name == LIBRARY.register:
                override = _override(stmt, text)
            elif any(_last(d) in _NOT_FUNCTIONS for d in stmt.decorator_list):
                members[stmt.name] = None
            else:
                own = _method(stmt, stmt.name, read, text, auth_of(stmt), deferred)
                members[stmt.name] = functions[stmt.name] = own
            continue
        if isinstance(stmt, ast.ClassDef):
            members[stmt.name] = None
            continue
        target, value = _assigned(stmt)
        if target is None or value is None:
            continue
        if target in _SETTINGS:
            settings.append((target, setting(target, value, text), stmt.lineno))
        elif target == "decorators":
            listed = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
            decorators = Auth(tuple(guard(e) or COMPUTED for e in listed))
        elif type(value) is ast.Name and value.id in functions:  # `alias = index`: a function
            # whose `@route` rules are kept under its own name, which the alias is not
            members[target] = replace(functions[value.id], name=target, line=stmt.lineno, rules=())
        elif isinstance(value, ast.Lambda):
            members[target] = _method(value, target, read, text, NO_AUTH, deferred)
        else:
            members[target] = None
    public = {n: m for n, m in members.items() if not _skipped(n)}
    routed = tuple(m for m in public.values() if m is not None)
    hidden = tuple(n for n, m in public.items() if m is None)
    return ViewClass(node.name, node.lineno, routed, hidden, tuple(settings), decorators,
                     override)  # fmt: skip


def _assigned(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
    if isinstance(stmt, ast.AnnAssign):
        target = stmt.target
    if not isinstance(target, ast.Name):
        return None, None
    return target.id, stmt.value  # type: ignore[attr-defined]  # an `Assign` or an `AnnAssign`


def _override(stmt: ast.FunctionDef | ast.AsyncFunctionDef, text: Read) -> RegisterOverride:
    """A class's own `register(cls, app, *args, **kwargs)`: read only where it hands `app`
    on to the library's, `super().register(app, *args, **kwargs)` (keywords of its own
    allowed), once."""
    arguments = stmt.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    passing: list[ast.Call] = [
        call
        for call in ast.walk(stmt)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == LIBRARY.register
        and isinstance(call.func.value, ast.Call)
        and _last(call.func.value.func) == "super"
    ]
    if len(positional) < 2 or len(passing) != 1:
        return RegisterOverride(stmt.lineno, False)
    call = passing[0]
    vararg = arguments.vararg.arg if arguments.vararg else None
    kwarg = arguments.kwarg.arg if arguments.kwarg else None
    first, *rest = call.args or [ast.Constant(None)]
    if not (isinstance(first, ast.Name) and first.id == positional[1]):
        return RegisterOverride(stmt.lineno, False)
    if any(not (isinstance(a, ast.Starred) and _is_name(a.value, vararg)) for a in rest):
        return RegisterOverride(stmt.lineno, False)
    keywords: list[tuple[str, Value]] = []
    for keyword in call.keywords:
        if keyword.arg is None and _is_name(keyword.value, kwarg):
            continue
        if keyword.arg not in LIBRARY.options or keyword.arg == "base_class":
            return RegisterOverride(stmt.lineno, False)
        keywords.append((keyword.arg, setting(keyword.arg, keyword.value, text)))
    return RegisterOverride(stmt.lineno, True, tuple(keywords))


def _is_name(node: ast.expr, name: str | None) -> bool:
    return name is not None and type(node) is ast.Name and node.id == name


# `register`'s parameters after the app, in order: those of `options` read when passed by position
_POSITIONAL = ("route_base", "subdomain", "route_prefix", "trailing_slash", "method_dashified",
               "base_class")  # fmt: skip


def register_call(call: ast.Call, read: Read, owner: Read, text: Read) -> ViewRegister | None:
    """`View.register(app, **options)`: None when the callee is no dotted name's `register`
    or no app is passed (a call of another library's `register`, `atexit.register(f)`, is
    told apart by the linker, which finds no view class)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name | ast.Attribute)):
        return None
    view = read(func.value)
    first = call.args[0] if call.args else None
    target = first if not isinstance(first, ast.Starred | None) else _keyword(call, "app")
    if func.attr != LIBRARY.register or view is None or target is None:
        return None
    unread = ""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        unread = "its options are spread from a value (`*args`, `**options`) not read"
    given = [(k.arg, k.value) for k in call.keywords if k.arg is not None]
    given += [(name, node) for name, node in zip(_POSITIONAL, call.args[1:], strict=False)]
    options: list[tuple[str, Value]] = []
    for name, node in given:
        if name == "methods":
            unread = "`methods=` is given to it, which the library passes to every route"
        elif name == "base_class":
            none = isinstance(node, ast.Constant) and node.value is None
            options.append((name, None if none else read(node) or COMPUTED))
        elif name in LIBRARY.options:
            options.append((name, setting(name, node, text)))
    return ViewRegister(view, owner(target), tuple(options), unread, call.lineno)


# -- the library's rules, once the linker knows the settings ------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """What `register` reads from the class (and its own keywords) when it builds rules."""

    route_base: str | None  # None: the class's name
    route_prefix: str | None
    trailing_slash: bool = True
    method_dashified: bool = False
    inspect_args: bool = True
    excluded: frozenset[str] = frozenset()
    default_methods: tuple[str, ...] = LIBRARY.default_methods
    base_args: tuple[str, ...] = ()
    special: Mapping[str, tuple[str, ...]] | None = None  # None: the library's


_VARIABLE = re.compile(r"<(?:[a-zA-Z_][a-zA-Z0-9_]*(?:\([^)]*\))?:)?([a-zA-Z_][a-zA-Z0-9_]*)>")
_FIRST_CAP = re.compile(r"(.)([A-Z][a-z]+)")
_ALL_CAP = re.compile(r"([a-z0-9])([A-Z])")
_SLASHES = re.compile(r"(/)\1+")


def variables(rule: str) -> tuple[str, ...]:
    """The names of a Werkzeug rule's variables (`<int:id>`: `id`)."""
    return tuple(_VARIABLE.findall(rule))


def _dashed(name: str) -> str:
    """`_dashify_uppercase`: `HostsAPI` -> `hosts-api`."""
    return _ALL_CAP.sub(r"\1-\2", _FIRST_CAP.sub(r"\1-\2", name)).lower()


def route_base(settings: Settings, class_name: str) -> tuple[str, tuple[str, ...]]:
    """`get_route_base`: the base (no `/` around it) and its own variables, which no method's
    parameter repeats (`base_args`)."""
    if settings.route_base is None:
        stem = class_name[:-4] if class_name.endswith("View") else class_name
        return _dashed(stem).strip("/"), ()
    base = settings.route_base if settings.route_base.startswith("/") else f"/{settings.route_base}"
    return base.strip("/"), variables(base)


def build_rule(prefix: str | None, base: str, rule: str, args: Sequence[str] = ()) -> str:
    """`build_rule`: the prefix, the base, the rule and a method's `<arg>`s joined by `/`,
    each run of `/` one."""
    parts = [p for p in (prefix, base) if p]
    if rule:
        parts.append(rule)
    return _SLASHES.sub(r"\1", "/" + "/".join([*parts, *args]))


def arguments(method: ViewMethod, ignored: frozenset[str]) -> list[str]:
    """A method's `<arg>`s: each positional parameter without a default, but `ignored`."""
    required = len(method.params) - method.defaults
    return [
        f"<{method.converters[n]}:{p}>" if method.converters[n] else f"<{p}>"
        for n, p in enumerate(method.params)
        if p not in ignored and n < required
    ]


def named_rule(
    method: ViewMethod, settings: Settings, base: str, ignored: frozenset[str], special: bool
) -> str:
    """The rule of a method routed by its name: a special method's at the base, any other's
    under its name (dashed with `method_dashified`), a trailing slash as `trailing_slash` says."""
    args = arguments(method, ignored) if settings.inspect_args else []
    if special:
        rule = build_rule(settings.route_prefix, base, "/", args)
        if not settings.trailing_slash and rule != "/":
            return rule.rstrip("/")
        return rule if rule.endswith("/") else f"{rule}/"
    name = method.name.replace("_", "-") if settings.method_dashified else method.name
    part = f"/{name}/" if settings.trailing_slash else f"/{name}"
    rule = build_rule(settings.route_prefix, base, part, args)
    return rule if not settings.trailing_slash or rule.endswith("/") else f"{rule}/"


K = TypeVar("K", bound=Hashable)


def linearized(head: K, bases: Callable[[K], Sequence[K]], limit: int) -> list[K] | None:
    """Python's C3 method resolution order of `head` (`bases` gives each class's bases in
    order); None where there is none (Python refuses such a class) or past `limit` classes."""
    orders: dict[K, list[K]] = {}

    def order(key: K, depth: int) -> list[K] | None:
        known = orders.get(key)
        if known is not None:
            return known
        if depth > limit or len(orders) > limit:
            return None
        parents = list(bases(key))
        lists = [order(p, depth + 1) for p in parents]
        if any(found is None for found in lists):
            return None
        merged = _merged([list(found) for found in lists if found is not None] + [parents])
        if merged is None:
            return None
        orders[key] = [key, *merged]
        return orders[key]

    return order(head, 0)


def _merged(sequences: list[list[K]]) -> list[K] | None:
    out: list[K] = []
    sequences = [s for s in sequences if s]
    while sequences:
        for sequence in sequences:
            candidate = sequence[0]
            if not any(candidate in s[1:] for s in sequences):
                break
        else:
            return None
        out.append(candidate)
        sequences = [s[1:] if s[0] == candidate else s for s in sequences]
        sequences = [s for s in sequences if s]
    return out
