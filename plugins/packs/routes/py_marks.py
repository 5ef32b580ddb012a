"""Routes a project MARKS with a decorator of its own and REGISTERS LATER by collecting the marks.

A decorator factory of the project (`def route(*args, **kwargs)` returning `def wrap(fn)`) only
stores a record on the function (`fn._routing_data = [...]`, `setattr`, an appended list) or in
a module-level registry; a base class of the project (a subclass of the framework's `Blueprint`
or `APIRouter`) collects the marks when an instance is made or registered: `for name in
dir(self): fn = getattr(self, name); for rd in getattr(fn, "_routing_data", []):
self.route(*rd.args, **rd.kwargs)(fn)`. This module reads the three parts where they are
written (`MarkFactory`, `Collector`, `Mark`), without running anything; the linker
(`linker._marked_routes`) joins them on each instance of a router class: each mark of each
method the collector sees is a route with the path and methods the decorator's call gives,
placed at the decorated method. What cannot be read is said (`Collector.reason`), so the linker
names it at each marked method, never silence."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from .model import Auth, Expr

_Def = ast.FunctionDef | ast.AsyncFunctionDef
Read = Callable[[ast.expr], Expr | None]
# a part of a record: () the whole record, ("args",) a field, (0,) an element, ("rule",) a key
Part = tuple[str | int, ...]

# the framework's registration methods a collector may call on its instance, each with the
# keyword that names the path and the method it serves when none is given (None: `methods=`)
REGISTRATIONS: dict[str, tuple[str, str | None]] = {
    "route": ("rule", None),  # Flask: `self.route(rule, **options)(fn)`
    "add_url_rule": ("rule", None),  # Flask
    "api_route": ("path", None),  # FastAPI
    "add_api_route": ("path", None),  # FastAPI
    **{verb: ("path", verb.upper()) for verb in ("get", "post", "put", "patch", "delete")},
    "head": ("path", "HEAD"),
    "options": ("path", "OPTIONS"),
}
_REGISTRY = "registry:"  # the key of marks kept in a module-level registry (`ROUTES`)
_STAR = "*"  # a factory's `*args`, as a record's source
_KWSTAR = "**"  # its `**kwargs`
_SELVES = frozenset({"self", "cls"})


@dataclass(frozen=True, slots=True)
class MarkFactory:
    """`def route(*args, **kwargs): def wrap(fn): <store a record>; return fn; return wrap`:
    the key its records are kept under (an attribute of the function, or `registry:NAME`),
    its parameters, and what each part of the record is taken from (a parameter's name,
    `*`/`**` its spreads; None where the record is not read). `appends`: stacked marks
    all count (a list); else the last applied (the outermost decorator) wins."""

    name: str
    key: str
    params: tuple[str, ...]
    star: str | None
    kwstar: str | None
    record: tuple[tuple[Part, str], ...] | None
    appends: bool
    line: int


@dataclass(frozen=True, slots=True)
class RecordArg:
    """An argument of a collector's registration call taken from the record: `rd.rule`,
    `rd[0]` (`spread` False) or `*rd.args`, `**rd.kwargs` (`spread` True)."""

    part: Part
    spread: bool = False


@dataclass(frozen=True, slots=True)
class Collector:
    """A loop of a class's method over the instance's or class's members that registers what
    their marks (`key`) record: `method` the registration (`route`, `add_url_rule`, …), its
    arguments as `RecordArg`s, written values (`Expr`) or None (the handler, `fn`); keywords
    likewise, `None` naming a `**` spread. `own_only`: the class's own `__dict__`, not what it
    inherits. `starts`: the member names it keeps (`name.startswith(p)`, `negated` for `not`).
    `reason`: why it is not read ("" when it is)."""

    key: str
    line: int
    lines: tuple[int, ...]  # where its registration call is written (not a route of its own)
    method: str = ""
    args: tuple[RecordArg | Expr | None, ...] = ()
    keywords: tuple[tuple[str | None, RecordArg | Expr | None], ...] = ()
    own_only: bool = False
    starts: tuple[str, bool] | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Mark:
    """`@route("/x", methods=["GET"])` on the method `method`: the decorator's callee and what
    its call passes (`args` None: a spread not read), at the decorator's line; `auth` what the
    method's other decorators put before it."""

    method: str
    factory: Expr
    args: tuple[Expr | None, ...] | None
    keywords: tuple[tuple[str, Expr | None], ...]
    line: int
    auth: Auth


# -- the decorator factories -------------------------------------------------------------------


def mark_factories(tree: ast.Module) -> tuple[MarkFactory, ...]:
    """The module-level functions of `tree` that are decorator factories storing a record."""
    shapes = _record_shapes(tree)
    registries = _module_names(tree)
    found = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            factory = _factory(stmt, shapes, registries)
            if factory is not None:
                found.append(factory)
    return tuple(found)


def _factory(
    outer: ast.FunctionDef, shapes: dict[str, tuple[str, ...]], registries: frozenset[str]
) -> MarkFactory | None:
    """`outer` when it returns a nested def that stores a record on its one parameter (or in
    a module-level registry) and returns that parameter: the function is kept as it was."""
    inner = next((s for s in outer.body if isinstance(s, ast.FunctionDef)), None)
    if inner is None or not any(
        isinstance(s, ast.Return) and isinstance(s.value, ast.Name) and s.value.id == inner.name
        for s in outer.body
    ):
        return None
    arguments = [*inner.args.posonlyargs, *inner.args.args]
    if len(arguments) != 1:
        return None
    fn = arguments[0].arg
    stored = _stored(inner, fn, registries)
    if stored is None:
        return None
    key, record, appends = stored
    args = outer.args
    return MarkFactory(
        outer.name,
        key,
        tuple(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]),
        args.vararg.arg if args.vararg else None,
        args.kwarg.arg if args.kwarg else None,
        _record(record, outer, shapes),
        appends,
        outer.lineno,
    )


def _stored(
    inner: ast.FunctionDef, fn: str, registries: frozenset[str]
) -> tuple[str, ast.expr, bool] | None:
    """(key, the record, whether appended) of what `inner` stores: `X.append(R)` with `X` the
    function's attribute (`fn.k`, `getattr(fn, "k", [])`, a local bound to one) or a module
    registry (`REG`, `REG.setdefault(k, [])`, `REG[k]`); else `fn.k = R`, `setattr(fn, "k",
    R)`, `REG[k] = R` (R no list: one record)."""
    locals_: dict[str, str] = {}
    for node in ast.walk(inner):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            key = _holder(node.value, fn, registries, {})
            if isinstance(target, ast.Name) and key is not None:
                locals_[target.id] = key
    for node in ast.walk(inner):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and len(node.args) == 1
        ):
            key = _holder(node.func.value, fn, registries, locals_)
            if key is not None:
                return key, node.args[0], True
    for node in ast.walk(inner):
        assigned = _assigned(node, fn, registries)
        if assigned is not None and not _list_like(assigned[1], locals_):
            return assigned[0], assigned[1], False
    return None


def _holder(
    node: ast.expr, fn: str, registries: frozenset[str], locals_: dict[str, str]
) -> str | None:
    """The key of the store `node` is: an attribute of the function, or a module registry."""
    if isinstance(node, ast.Name):
        if node.id in locals_:
            return locals_[node.id]
        return _REGISTRY + node.id if node.id in registries else None
    if isinstance(node, ast.Attribute) and _is_name(node.value, fn):
        return node.attr
    if isinstance(node, ast.Call) and _callee(node) == "getattr" and len(node.args) >= 2:
        if _is_name(node.args[0], fn) and isinstance(name := _text(node.args[1]), str):
            return name
        return None
    if (  # `REG.setdefault(key, [])`
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"setdefault", "get"}
    ):
        return _holder(node.func.value, fn, registries, {})
    if isinstance(node, ast.Subscript):  # `REG[key]`
        return _holder(node.value, fn, registries, {})
    return None


def _assigned(node: ast.AST, fn: str, registries: frozenset[str]) -> tuple[str, ast.expr] | None:
    """`fn.k = R`, `setattr(fn, "k", R)` or `REG[k] = R`: (key, R)."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if isinstance(target, ast.Attribute) and _is_name(target.value, fn):
            return target.attr, node.value
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id in registries
        ):
            return _REGISTRY + target.value.id, node.value
    if isinstance(node, ast.Call) and _callee(node) == "setattr" and len(node.args) == 3:
        name = _text(node.args[1])
        if _is_name(node.args[0], fn) and name is not None:
            return name, node.args[2]
    return None


def _list_like(node: ast.expr, locals_: dict[str, str]) -> bool:
    """An assigned value that is the list the records are appended to, not a record."""
    if isinstance(node, ast.Name):
        return node.id in locals_
    return isinstance(node, ast.List) and not node.elts


def _record(
    node: ast.expr, factory: ast.FunctionDef, shapes: dict[str, tuple[str, ...]]
) -> tuple[tuple[Part, str], ...] | None:
    """What each part of the record `node` is taken from: the factory's parameters (by name;
    `*`, `**` its spreads), through a tuple, a dict of string keys, a `namedtuple` or a
    `NamedTuple`/dataclass of the module (positional and named fields), or the record itself
    a parameter. None: a part not read."""
    if isinstance(node, ast.List) and len(node.elts) == 1:  # `fn._routes = [Route(...)]`
        node = node.elts[0]
    source = _source(node, factory)
    if source is not None:
        return (((), source),)
    parts: list[tuple[Part, ast.expr]] = []
    if isinstance(node, ast.Tuple):
        parts = [((n,), e) for n, e in enumerate(node.elts)]
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            name = _text(key) if key is not None else None
            if name is None:
                return None
            parts.append(((name,), value))
    elif isinstance(node, ast.Call):
        fields = shapes.get(_callee(node) or "", ())
        for n, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                return None
            parts.append(((n,), arg))
            if n < len(fields):
                parts.append(((fields[n],), arg))
        for keyword in node.keywords:
            if keyword.arg is None:
                return None
            parts.append(((keyword.arg,), keyword.value))
            if keyword.arg in fields:
                parts.append(((fields.index(keyword.arg),), keyword.value))
    else:
        return None
    read = [(part, _source(value, factory)) for part, value in parts]
    return tuple((part, source) for part, source in read if source is not None)


def _source(node: ast.expr, factory: ast.FunctionDef) -> str | None:
    """The factory's parameter `node` names (`args`, `dict(kwargs)`, `list(args)`): its name,
    `*` or `**` for its spreads; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and _callee(node) in {"dict", "list", "tuple"}
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    if not isinstance(node, ast.Name):
        return None
    args = factory.args
    if args.vararg and node.id == args.vararg.arg:
        return _STAR
    if args.kwarg and node.id == args.kwarg.arg:
        return _KWSTAR
    named = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    return node.id if node.id in named else None


def _record_shapes(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The record classes of the module, each with its fields in order: `N = namedtuple("N",
    ["a", "b"])` (or `"a b"`), a `NamedTuple` or dataclass whose body annotates its fields."""
    shapes: dict[str, tuple[str, ...]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if (
                isinstance(target, ast.Name)
                and isinstance(value, ast.Call)
                and _callee(value) == "namedtuple"
                and len(value.args) == 2
            ):
                fields = _field_names(value.args[1])
                if fields is not None:
                    shapes[target.id] = fields
        elif isinstance(stmt, ast.ClassDef):
            annotated = tuple(
                s.target.id
                for s in stmt.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            )
            if annotated:
                shapes[stmt.name] = annotated
    return shapes


def _field_names(node: ast.expr) -> tuple[str, ...] | None:
    text = _text(node)
    if text is not None:
        return tuple(text.replace(",", " ").split())
    if isinstance(node, ast.List | ast.Tuple):
        names = tuple(_text(e) for e in node.elts)
        return None if None in names else names  # type: ignore[return-value]
    return None


def _module_names(tree: ast.Module) -> frozenset[str]:
    """The names the module binds at its top level (a registry is one of them)."""
    return frozenset(
        t.id
        for s in tree.body
        if isinstance(s, ast.Assign | ast.AnnAssign)
        for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
        if isinstance(t, ast.Name)
    )


# -- the marks on a class's methods ------------------------------------------------------------


def marks(node: ast.ClassDef, read: Read, auth_of: Callable[[_Def], Auth]) -> tuple[Mark, ...]:
    """Each decorator call of a plain name or a module's member (`@route(...)`,
    `@web.route(...)`) on the class's own methods: the linker keeps those of a factory of
    the project's that stores a record (`MarkFactory`)."""
    found: list[Mark] = []
    for stmt in node.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        auth = auth_of(stmt)
        for decorator in stmt.decorator_list:
            if not isinstance(decorator, ast.Call):
                continue
            callee = decorator.func
            if isinstance(callee, ast.Attribute) and _is_selfish(callee.value):
                continue
            factory = read(callee) if isinstance(callee, ast.Name | ast.Attribute) else None
            if factory is None:
                continue
            spread = any(isinstance(a, ast.Starred) for a in decorator.args) or any(
                k.arg is None for k in decorator.keywords
            )
            found.append(
                Mark(
                    stmt.name,
                    factory,
                    None if spread else tuple(read(a) for a in decorator.args),
                    tuple((k.arg, read(k.value)) for k in decorator.keywords if k.arg),
                    decorator.lineno,
                    auth,
                )
            )
    return tuple(found)


# -- the collectors ----------------------------------------------------------------------------


def collectors(node: ast.ClassDef, read: Read) -> tuple[Collector, ...]:
    """The loops of the class's methods over the members of the instance or of its class
    that read a mark (`getattr(fn, "k", ...)`, `fn.k`, a registry's `REG.get(fn)`)."""
    found: list[Collector] = []
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            for loop in ast.walk(stmt):
                if isinstance(loop, ast.For):
                    collector = _collector(loop, read)
                    if collector is not None:
                        found.append(collector)
    return tuple(found)


def _members(loop: ast.For) -> tuple[str | None, str | None, bool] | None:
    """(the name variable, the member variable, own class only) of a loop over members:
    `dir(self)`, `inspect.getmembers(self, ...)`, `vars(type(self)).items()`,
    `type(self).__dict__.items()`, `cls.__dict__.items()`; None for any other loop."""
    source, target = loop.iter, loop.target
    if (
        isinstance(source, ast.Call)
        and isinstance(source.func, ast.Attribute)
        and source.func.attr in {"items", "values", "keys"}
        and not source.args
    ):
        kind, owner = source.func.attr, source.func.value
        if not _class_dict(owner):
            return None
        if kind == "items":
            pair = _pair(target)
            return (*pair, True) if pair else None
        if not isinstance(target, ast.Name):
            return None
        return (None, target.id, True) if kind == "values" else (target.id, None, True)
    callee = _callee(source) if isinstance(source, ast.Call) else None
    first = source.args[0] if isinstance(source, ast.Call) and source.args else None
    if callee == "dir" and first is not None and _is_selfish(first):
        return (target.id, None, False) if isinstance(target, ast.Name) else None
    pair = _pair(target)
    if callee == "getmembers" and first is not None and _is_selfish(first) and pair:
        return (*pair, False)
    if _class_dict(source) and isinstance(target, ast.Name):
        return target.id, None, True
    return None


def _collector(loop: ast.For, read: Read) -> Collector | None:
    members = _members(loop)
    if members is None:
        return None
    name, member, own = members
    fns = {member} if member else set()
    for stmt in ast.walk(loop):  # `fn = getattr(self, name)`
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name) and _is_member(stmt.value, name, fns):
                fns.add(target.id)
    key, records = _mark_read(loop, fns)
    if key is None:
        return None
    calls = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and _registration(c)]
    lines = tuple(c.lineno for c in calls)
    if len(calls) != 1:
        reason = "it registers no framework route" if not calls else "it registers in two places"
        return Collector(key, loop.lineno, lines, reason=reason)
    call = _registration(calls[0])
    assert call is not None
    starts, reason = _filter(loop, name, fns, records)
    if reason:
        return Collector(key, loop.lineno, lines, reason=reason)
    args = tuple(_argument(a, records, fns, name, read) for a in call.args)
    keywords = tuple((k.arg, _argument(k.value, records, fns, name, read)) for k in call.keywords)
    if any(a is _UNREAD for a in args) or any(v is _UNREAD for _, v in keywords):
        return Collector(key, loop.lineno, lines,
                         reason="an argument of its registration is not read")  # fmt: skip
    return Collector(
        key,
        loop.lineno,
        lines,
        _registered_name(call),
        args,
        keywords,
        own,
        starts,
    )


_UNREAD = RecordArg(("?",))


def _mark_read(loop: ast.For, fns: set[str]) -> tuple[str | None, dict[str, Part]]:
    """The key the loop reads marks under and the names bound to a record or a part of one:
    `for rd in getattr(fn, "k", [])`, `for rule, opts in fn.k`, `rd = getattr(fn, "k", None)`,
    `for rd in REG.get(fn, [])`."""
    for node in ast.walk(loop):
        source: ast.expr | None = None
        target: ast.expr | None = None
        if isinstance(node, ast.For) and node is not loop:
            source, target = node.iter, node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            source, target = node.value, node.targets[0]
        if source is None or target is None:
            continue
        key = _reads_mark(source, fns)
        if key is None:
            continue
        if isinstance(target, ast.Name):
            return key, {target.id: ()}
        if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            return key, {e.id: (n,) for n, e in enumerate(target.elts) if isinstance(e, ast.Name)}
        return key, {}
    return None, {}


def _reads_mark(node: ast.expr, fns: set[str]) -> str | None:
    if (
        isinstance(node, ast.Call)
        and _callee(node) == "getattr"
        and len(node.args) >= 2
        and _uses(node.args[0], fns)
    ):
        return _text(node.args[1])
    if isinstance(node, ast.Attribute) and _uses(node.value, fns) and node.attr[:2] != "__":
        return node.attr  # `fn._routes` (`fn.__func__` is the member itself)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        holder = node.func.value
        if (
            node.func.attr == "get"
            and isinstance(holder, ast.Name | ast.Attribute)
            and node.args
            and _uses(node.args[0], fns)
        ):
            return _REGISTRY + (holder.id if isinstance(holder, ast.Name) else holder.attr)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name | ast.Attribute)
        and _uses(node.slice, fns)
    ):
        holder = node.value
        return _REGISTRY + (holder.id if isinstance(holder, ast.Name) else holder.attr)
    return None


def _uses(node: ast.expr, fns: set[str]) -> bool:
    """`fn`, `fn.__func__`, `fn.__name__`: the member (or its name)."""
    while isinstance(node, ast.Attribute) and node.attr.startswith("__"):
        node = node.value
    return isinstance(node, ast.Name) and node.id in fns


def _filter(
    loop: ast.For, name: str | None, fns: set[str], records: dict[str, Part]
) -> tuple[tuple[str, bool] | None, str]:
    """The `if` tests inside the loop: `name.startswith("p")` (or `not`) keeps those names;
    a test on the member, its mark or the record (`callable(fn)`, `rd is None`, `hasattr`)
    changes nothing that is registered; any other test is not read (its reason)."""
    starts: tuple[str, bool] | None = None
    known = {*fns, *records, *([name] if name else [])}
    for node in ast.walk(loop):
        if not isinstance(node, ast.If):
            continue
        test, negated = node.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, True
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Attribute)
            and test.func.attr == "startswith"
            and _is_name(test.func.value, name)
            and len(test.args) == 1
            and (prefix := _text(test.args[0])) is not None
        ):
            skips = _skips(node)
            starts = (prefix, negated != skips)
            continue
        if not {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} <= {
            *known,
            "callable",
            "hasattr",
            "getattr",
            "isinstance",
            "None",
        }:
            return None, "a test on the members is not read"
    return starts, ""


def _skips(node: ast.If) -> bool:
    """`if test: continue`: the test names what is left out."""
    return len(node.body) == 1 and isinstance(node.body[0], ast.Continue)


def _argument(
    node: ast.expr, records: dict[str, Part], fns: set[str], name: str | None, read: Read
) -> RecordArg | Expr | None:
    """A registration argument: a part of the record (`rd.rule`, `rd[0]`, `*rd.args`), the
    member itself (None: the handler), a written value, or `_UNREAD`."""
    spread = isinstance(node, ast.Starred)
    if isinstance(node, ast.Starred):
        node = node.value
    part = _part(node, records)
    if part is not None:
        return RecordArg(part, spread)
    if spread:
        return _UNREAD
    if _uses(node, fns) or _is_member(node, name, fns):
        return None
    value = read(node)
    return value if value is not None else _UNREAD


def _part(node: ast.expr, records: dict[str, Part]) -> Part | None:
    if isinstance(node, ast.Name):
        return records.get(node.id)
    if isinstance(node, ast.Attribute):
        head = _part(node.value, records)
        return None if head is None else (*head, node.attr)
    if isinstance(node, ast.Subscript):
        head = _part(node.value, records)
        index = node.slice
        if head is None or not isinstance(index, ast.Constant):
            return None
        if isinstance(index.value, int | str) and not isinstance(index.value, bool):
            return (*head, index.value)
    return None


def _registration(call: ast.Call) -> ast.Call | None:
    """`self.route(...)(fn)`, `self.add_url_rule(...)`, `super().add_api_route(...)`: the
    framework's registration call on the instance; None for any other call."""
    inner = call.func if isinstance(call.func, ast.Call) else call
    func = inner.func
    if not (isinstance(func, ast.Attribute) and func.attr in REGISTRATIONS):
        return None
    owner = func.value
    if _is_selfish(owner) or (isinstance(owner, ast.Call) and _callee(owner) == "super"):
        if func.attr in {"route", "api_route", *_VERBS} and inner is call:
            return None  # the decorator made but not applied: its outer call is the one
        return inner
    return None


_VERBS = frozenset(v for v, (_, m) in REGISTRATIONS.items() if m is not None)


def _registered_name(call: ast.Call) -> str:
    assert isinstance(call.func, ast.Attribute)
    return call.func.attr


def _is_member(node: ast.expr, name: str | None, fns: set[str]) -> bool:
    """`getattr(self, name)`: the member the loop is at."""
    return (
        isinstance(node, ast.Call)
        and _callee(node) == "getattr"
        and len(node.args) == 2
        and _is_selfish(node.args[0])
        and _is_name(node.args[1], name)
    )


def _class_dict(node: ast.expr) -> bool:
    """`vars(type(self))`, `type(self).__dict__`, `self.__class__.__dict__`, `cls.__dict__`,
    `vars(cls)`: the class's own members."""
    if isinstance(node, ast.Call) and _callee(node) == "vars" and len(node.args) == 1:
        return _is_selfish(node.args[0]) and not _is_name(node.args[0], "self")
    return isinstance(node, ast.Attribute) and node.attr == "__dict__" and _is_selfish(node.value)


def _is_selfish(node: ast.expr) -> bool:
    """`self`, `cls`, `type(self)`, `self.__class__`."""
    if isinstance(node, ast.Name):
        return node.id in _SELVES
    if isinstance(node, ast.Call) and _callee(node) == "type" and len(node.args) == 1:
        return _is_name(node.args[0], "self")
    return isinstance(node, ast.Attribute) and node.attr == "__class__" and _is_selfish(node.value)


def _pair(target: ast.expr) -> tuple[str, str] | None:
    if isinstance(target, ast.Tuple) and len(target.elts) == 2:
        first, second = target.elts
        if isinstance(first, ast.Name) and isinstance(second, ast.Name):
            return first.id, second.id
    return None


def _is_name(node: ast.expr, name: str | None) -> bool:
    return name is not None and isinstance(node, ast.Name) and node.id == name


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


# -- a mark registered: what the collector's call is given -------------------------------------


@dataclass(frozen=True, slots=True)
class Registration:
    """What the collector's registration call is given for one mark: the path, the `methods=`
    value (None: the framework's default) and the verb a verb method (`self.get`) serves."""

    path: Expr
    methods: Expr | None
    verb: str | None


_HANDLER = RecordArg(("handler",))


def registration(mark: Mark, factory: MarkFactory, collector: Collector) -> Registration | str:
    """The call `collector` makes for `mark`, its arguments bound through the record the
    factory stores (`RoutingData(args, kwargs)` then `self.route(*rd.args, **rd.kwargs)`), or
    why it cannot be told (a spread in the decorator, a part of the record not read)."""
    if mark.args is None or factory.record is None:
        return "the decorator's arguments or the record it stores are not read"
    bound = _bound(mark, factory)
    record = dict(factory.record)
    positional: list[Expr | RecordArg | None] = []
    named: dict[str, Expr | None] = {}
    for arg in collector.args:
        if not isinstance(arg, RecordArg):
            positional.append(_HANDLER if arg is None else arg)
            continue
        value = bound.get(record.get(arg.part, ""), _UNREAD)
        if value is _UNREAD:
            return f"the part `{_spelled(arg.part)}` of the record is not read"
        if arg.spread and isinstance(value, tuple):
            positional.extend(value)
        elif not arg.spread and not isinstance(value, tuple | dict):
            positional.append(value)  # type: ignore[arg-type]  # an Expr or None
        else:
            return f"the part `{_spelled(arg.part)}` of the record is not read"
    for name, arg in collector.keywords:
        if isinstance(arg, RecordArg):
            value = bound.get(record.get(arg.part, ""), _UNREAD)
            if name is None and isinstance(value, dict):
                named.update(value)
            elif name is not None and value is None:
                continue  # a parameter the decorator is not given: the framework's default
            elif name is not None and not isinstance(value, tuple | dict | RecordArg):
                named[name] = value  # type: ignore[assignment]  # an Expr
            else:
                return f"the part `{_spelled(arg.part)}` of the record is not read"
        elif name is not None and arg is not None:
            named[name] = arg
    key, verb = REGISTRATIONS[collector.method]
    path = named.get(key) if key in named else positional[0] if positional else None
    if path is None or isinstance(path, RecordArg):
        return "the path it registers is not read"
    return Registration(path, named.get("methods"), verb)


def _bound(mark: Mark, factory: MarkFactory) -> dict[str, object]:
    """The factory's parameters bound to what the decorator's call passes: by name, `*` the
    positional arguments left (a tuple), `**` the keywords left (a dict)."""
    assert mark.args is not None
    bound: dict[str, object] = dict.fromkeys(factory.params)  # not passed: not given on
    args = list(mark.args)
    for name in factory.params:
        if args:
            bound[name] = args.pop(0)
    bound[_STAR] = tuple(args)
    rest: dict[str, Expr | None] = {}
    for name, value in mark.keywords:
        if name in factory.params:
            bound[name] = value
        else:
            rest[name] = value
    bound[_KWSTAR] = rest
    return bound


def _spelled(part: Part) -> str:
    return "record" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in part)
