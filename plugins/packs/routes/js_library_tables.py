"""A library's adapter made and taken in one file (JavaScript): `const board = new
ExpressAdapter()` of a record's package (`library_tables.LibraryTable.made_by`), then
`board.getRouter()` (its `taken_by`), is a router of the record's framework made where it is
taken, serving the record's table (one `RouteDecl` naming the record, expanded by the linker
with the versions the repository declares). Mounted as any router is: `app.use('/queues',
board.getRouter())` under its mount path, `fastify.register(board.registerPlugin(), { prefix
})` under the register's prefix (`js_facts._register` mounts it on the register's child).

The options the record reads are read here, in the file that makes the adapter: the base a
value that mounts itself is served under (Koa's adapter: `registerPlugin({ mount })`, else
`board.setBasePath(...)`, else `/`), and the options of the call that configures the adapter
(`createBullBoard({ serverAdapter: board, options })`). What is not read there is computed
for the record (a finding where it matters, never a guess). An adapter made elsewhere and
reached through an import is the linker's (`Linker._library_values`): the same table, its
options out of sight."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import tree_sitter

from .frameworks import UNREAD_PACKAGES
from .library_tables import ADAPTERS, TAKEN_BY, LibraryTable
from .model import Expr, ImportRef, Lit, Opaque, RouteDecl, RouterDecl, RouterRef

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node
_TAKEN = re.compile(rb"\.\s*(?:" + b"|".join(re.escape(t.encode()) for t in TAKEN_BY) + rb")\s*\(")


def seeded(source: bytes) -> tuple[str, ...]:
    """The records' packages a file's text names (only such a file can make an adapter)."""
    return tuple(sorted({r.library for r in ADAPTERS.values() if r.library.encode() in source}))


def written_takes(source: bytes) -> int:
    """How many calls of a taking method (`.getRouter(`) the file's text holds."""
    return len(_TAKEN.findall(source))


def taken(reader: _Reader, node: _Node) -> RouterRef | None:
    """`board.getRouter()` (or `new ExpressAdapter().getRouter()`) of an adapter a record
    names: the router made here serving the record's table; None for any other call."""
    callee = _unwrap(node.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "member_expression":
        return None
    method = reader._text(callee.child_by_field_id(reader.fields.property))
    if method not in TAKEN_BY:
        return None
    receiver = _unwrap(callee.child_by_field_id(reader.fields.object))
    made = receiver
    if receiver is not None and receiver.type == "identifier":
        made = reader._declared(receiver)
    record = _adapter(reader, made) if made is not None else None
    if record is None or record.taken_by != method or receiver is None:
        return None
    site = f"{node.start_point[0] + 1}:{node.start_point[1]}:library"
    if site not in reader.routers:
        line = node.start_point[0] + 1
        prefix = _own_base(reader, record, node, receiver) if record.base == "own" else None
        reader.routers[site] = RouterDecl(site, record.framework, line, prefix=prefix)
        options = _options(reader, record, receiver)
        reader.routes.append(
            RouteDecl(RouterRef(site), Opaque(), None, line, methods_unknown=True,
                      generated_by=record.key, documented=options)
        )  # fmt: skip
        reader.library_takes[site] = record.library
    return RouterRef(site)


def registered_at(reader: _Reader, router: RouterRef, line: int) -> None:
    """A taken plugin registered by a call at `line` (`register(board.registerPlugin(), {
    prefix })`): its table listed at that call, as a plugin library's routes are."""
    reader.routes = [
        replace(r, line=line) if r.owner == router and r.generated_by else r for r in reader.routes
    ]


def _adapter(reader: _Reader, made: _Node) -> LibraryTable | None:
    """The record whose adapter class `made` (`new C(...)`) makes: `C` imported by name from
    its package, or a member of the package's default or namespace import."""
    if made.type != "new_expression":
        return None
    constructor = _unwrap(made.child_by_field_id(reader.fields.constructor))
    if constructor is None:
        return None
    if constructor.type == "identifier":
        bound = reader.bindings.get(reader._text(constructor))
        if isinstance(bound, ImportRef) and bound.attr is not None:
            return ADAPTERS.get((bound.module, bound.attr))
        return None
    if constructor.type == "member_expression":
        owner = _unwrap(constructor.child_by_field_id(reader.fields.object))
        module = reader._default_of(owner)
        name = reader._text(constructor.child_by_field_id(reader.fields.property))
        return ADAPTERS.get((module, name)) if module is not None else None
    return None


def _own_base(reader: _Reader, record: LibraryTable, node: _Node, receiver: _Node) -> Expr:
    """The path a value that mounts itself is served under: the taking call's `base_option`
    (`registerPlugin({ mount: '/ui' })`), else what every `base_setter` call on the adapter's
    name in the file gives (`board.setBasePath('/ui')`), else `/`; computed where the options
    are not an object literal, or the setters disagree or are not read."""
    args = reader._arguments(node)
    given = _unwrap(args[0]) if args else None
    if given is not None and given.type != "object":
        return Opaque()
    mount = reader._field(given, record.base_option) if given is not None else None
    if mount is not None:
        return reader._value(mount) or Opaque()
    if receiver.type != "identifier":
        return Lit("/")
    values = [
        reader._value(args[0]) if args else None
        for args in _calls_on(reader, reader._text(receiver), record.base_setter)
    ]
    if not values:
        return Lit("/")
    first = values[0]
    return first if first is not None and all(v == first for v in values) else Opaque()


def _options(
    reader: _Reader, record: LibraryTable, receiver: _Node
) -> tuple[tuple[str, Expr | bool], ...]:
    """The record's options as the call configuring the adapter gives them (`createBullBoard(
    { serverAdapter: board, options: { historyProvider } })`): a boolean literal as it is, a
    value given as `True` where the record only asks whether one is (its `needs`), absent
    where not given; each computed (`Opaque`) where no such call passing this adapter is
    read, or its options are not an object literal."""
    unknown = tuple((name, Opaque()) for name, _ in record.options)
    if not record.options or receiver.type != "identifier":
        return unknown
    name = reader._text(receiver)
    for args in _calls_of(reader, record.configured_by):
        given = _unwrap(args[0]) if args else None
        if given is None or given.type != "object":
            continue
        adapter = _unwrap(reader._field(given, record.adapter_key))
        if adapter is None or adapter.type != "identifier" or reader._text(adapter) != name:
            continue
        found: list[tuple[str, Expr | bool]] = []
        for option, dotted in record.options:
            value = _unwrap(reader._dotted(given, dotted.split(".")[:-1]))
            if value is not None and value.type != "object":
                found.append((option, Opaque()))  # the options computed: it may be there
                continue
            held = reader._field(value, dotted.rsplit(".", 1)[-1]) if value is not None else None
            if held is not None:
                bare = _unwrap(held) or held
                found.append((option, bare.type != "false" if bare.type in _BOOLEANS else True))
        return tuple(found)
    return unknown


_BOOLEANS = frozenset({"true", "false"})


def _calls_on(reader: _Reader, name: str, method: str) -> list[list[_Node]]:
    """The arguments of each call `name.method(...)` the file writes."""
    pattern = re.compile(
        rb"\b" + re.escape(name.encode()) + rb"\s*\.\s*" + method.encode() + rb"\s*\("
    )
    return _calls_matching(reader, pattern)


def _calls_of(reader: _Reader, function: str) -> list[list[_Node]]:
    """The arguments of each call of `function(...)` (a bare name) the file writes."""
    pattern = re.compile(rb"(?<![.\w$])" + re.escape(function.encode()) + rb"\s*\(")
    return _calls_matching(reader, pattern)


def _calls_matching(reader: _Reader, pattern: re.Pattern[bytes]) -> list[list[_Node]]:
    """The arguments of the calls whose callee `pattern` matches, up to its `(`."""
    root = reader._root
    found: list[list[_Node]] = []
    if root is None:
        return found
    for match in pattern.finditer(reader.source):
        node = root.descendant_for_byte_range(match.end() - 1, match.end())
        arguments = node.parent if node is not None else None
        call = arguments.parent if arguments is not None else None
        if arguments is not None and arguments.type == "arguments" and call is not None:
            found += [reader._arguments(call)] if call.type == "call_expression" else []
    return found


_TRANSPARENT = frozenset({
    "parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression",
    "await_expression",
})  # fmt: skip


def _unwrap(node: _Node | None) -> _Node | None:
    """`(x)`, `x as T`, `x!`, `await x`: `x`."""
    while node is not None and node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node


def still_unread(
    unread: tuple[tuple[str, int], ...], reader: _Reader
) -> tuple[tuple[str, int], ...]:
    """The file's uses of libraries the pack does not read (`frameworks.unread_uses`), but a
    record's package whose every taking call the file writes is read here (its routes are
    then listed, or a finding of the record says what is not): named once, where it is."""
    if not reader.library_takes or written_takes(reader.source) > len(reader.library_takes):
        return unread
    taken = set(reader.library_takes.values())
    return tuple(
        (name, line)
        for name, line in unread
        if not (seeds := UNREAD_PACKAGES.get(name)) or not seeds <= taken
    )
