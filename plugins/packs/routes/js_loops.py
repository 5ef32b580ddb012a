"""Loops over tables written in the file, unrolled for the JavaScript reader (`js_facts`).

Real code registers routes from tables: `for (const ctrl in CONFIG)`, `Object.entries(MAP)
.forEach(([path, h]) => …)`, `Object.keys(T).forEach(k => wire(router, PREFIX[k].base, …))`,
`for (const r of TABLE[area])`, nested, with locals in the loop body (`const full = PREFIX[k]
.base + r.path`). A call inside such loops is read once per iteration, each loop variable bound
to a literal: a key (`Lit`), an item or value node of the table, or a `[key, value]` pair; a
local of a loop body is bound to its initialiser (`Local`), read again in each iteration.

What is followed is what the file itself spells: object and array literals bound at the top
level (`objects`, `arrays`) or as locals of enclosing blocks, their spreads (`{...A, ...B}`,
`[...A, ...B]`) and member or subscript lookups into them (`T[k].field`). A loop over a table
the file does not spell (imported, computed) is not unrolled: its variables stay names the
linker cannot bind, so the call is a finding where it is written, never silence. The unrolling
is bounded per call (`MAX_ITERATIONS`) and per file (`FILE_BUDGET`): past either, the call is
read once, unbound, and reported the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from .model import CALL, Call, Expr, ImportRef, Listing, Lit, StarletteRoutes, Sym

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node

MAX_ITERATIONS = 1024  # iterations of the loops around one call, all levels together
FILE_BUDGET = 16384  # iterations unrolled in one file, every call together
_MAX_DEPTH = 12  # names followed to a table (`A` → `B[k]` → `C.x` …): a cycle ends here
_LOOPED = frozenset({"forEach", "map", "reduce"})  # `table.forEach(cb)`: once per item
_REDUCE = "reduce"  # `table.reduce((acc, item) => …, init)`: the item is the second parameter
_OBJECT_VIEWS = frozenset({"keys", "values", "entries"})  # `Object.keys(T)`…
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})
_FUNCTIONS = _FUNCTION_VALUES | {"function_declaration"}  # what `map` may be given by name
_TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression",
                          "non_null_expression"})  # fmt: skip
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_TABLES = frozenset({"object", "array"})
# What `resolve` gives as itself: literals whose value no loop variable changes (an inline
# table's items are read as written, outside the loop, as a top-level table's are)
_LITERALS = frozenset({"object", "array", "string", "number"})


@dataclass(frozen=True, slots=True)
class Pair:
    """One `[key, value]` of `Object.entries(T)`."""

    key: Lit
    value: _Node


@dataclass(frozen=True, slots=True)
class Local:
    """A local of a loop body (`const full = PREFIX[k].base + r.path`; `field` for one name of
    `const { base } = PREFIX[k]`, `"1"` for the second of `const [verb, path] = k.split(' ')`):
    its initialiser, read with the iteration's variables."""

    node: _Node
    field: str = ""


@dataclass(frozen=True, slots=True)
class Deferred:
    """A loop variable over the keys (or, `value`, the values) of an object the file does not
    spell but names (`source`: an import, a member of one): read as a `LoopKey`, which the
    linker unrolls once it knows the object."""

    source: Expr
    value: bool = False
    members: tuple[str, ...] = ()  # `{ path, method }` destructured from each item


@dataclass(frozen=True, slots=True, eq=False)
class Closure:
    """An item of a list an array method builds from one the file spells (`NAMES.map(n => ({
    path: '/' + n }))`): the callback's value `node`, read with its parameter bound to the
    source's item (`env`)."""

    node: _Node
    env: dict[str, Bind]


Bind = _Node | Lit | Pair | Local | Deferred | Closure
Env = dict[str, Bind]


def unwrap(node: _Node | None) -> _Node | None:
    while node is not None and node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node


def is_loop(reader: _Reader, scope: _Node) -> bool:
    """A `for...in`/`for...of` statement, or a callback run once per item (`T.forEach(cb)`)."""
    if scope.type == "for_in_statement":
        return True
    return scope.type in _FUNCTION_VALUES and _looped_call(reader, scope) is not None


def _looped_call(reader: _Reader, function: _Node) -> _Node | None:
    """`T` of `T.forEach(function)` (or `.map`), None when `function` is not such a callback."""
    found = callback_call(reader, function, _LOOPED)
    return found[1] if found is not None else None


def callback_call(
    reader: _Reader, function: _Node, methods: frozenset[str]
) -> tuple[_Node, _Node | None] | None:
    """The call `T.m(function)` (`m` one of `methods`) that `function` is the argument of, and
    its `T`; None when `function` is not such a callback."""
    args = function.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    callee = call.child_by_field_id(reader.fields.function) if call is not None else None
    if (
        call is None
        or callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.property)) not in methods
    ):
        return None
    return call, callee.child_by_field_id(reader.fields.object)


def loop_envs(reader: _Reader, node: _Node) -> list[Env] | None:
    """The loop variables (and loop-body locals) of each iteration of the table loops around
    `node`, outermost first so an inner loop may iterate what an outer one binds (`for (const k
    in T) T[k].forEach(r => …)`); None when no loop around it iterates a table the file spells,
    or when one of them cannot be bound item by item, or past the budget."""
    loops: list[_Node] = []
    blocks: list[tuple[int, _Node, _Node]] = []  # (loops inside it, block, statement in it)
    child, scope = node, node.parent
    while scope is not None:
        if is_loop(reader, scope):
            loops.append(scope)
        elif scope.type in {"statement_block", "program"}:
            blocks.append((len(loops), scope, child))
        child, scope = scope, scope.parent
    if not loops:
        return None
    envs: list[Env] = [{}]
    unrolled = deferred = False
    for level in range(len(loops), -1, -1):
        if level < len(loops):
            grown: list[Env] = []
            for env in envs:
                reader._env = env
                items, target = _items(reader, loops[level])
                if items is None or target is None:
                    later = None if deferred else _deferred(reader, loops[level])
                    # an imported table: its keys left to the linker (one such loop a call);
                    # anything else is not a table: its variables left bound to nothing
                    grown.append({**env, **later} if later else env)
                    unrolled = unrolled or bool(later)
                    continue
                unrolled = True
                reduced = (
                    _reduced(reader, loops[level])
                    if loops[level].type != "for_in_statement"
                    else None
                )
                for item in items:
                    bound = bind_item(reader, target, item)
                    if bound is None:
                        reader._env = {}
                        return None
                    if reduced is not None:  # the accumulator: the initial value throughout
                        bound = {**bound, reduced[0]: reduced[1]}
                    grown.append({**env, **bound})
                if len(grown) > MAX_ITERATIONS:
                    reader._env = {}
                    return None
            deferred = deferred or any(isinstance(v, Deferred) for e in grown for v in e.values())
            envs = grown
        locals_ = {
            name: value
            for depth, block, statement in blocks
            if depth == level
            for name, value in _locals(reader, block, statement, tables_only=level == len(loops))
        }
        if locals_:
            envs = [{**env, **locals_} for env in envs]
    reader._env = {}
    if not unrolled:
        return None
    reader.loop_budget -= len(envs)
    return envs if reader.loop_budget >= 0 else None


def _locals(
    reader: _Reader, block: _Node, statement: _Node, *, tables_only: bool
) -> list[tuple[str, Local]]:
    """The locals `block` declares before `statement` (the one the call is in): every one in a
    loop's body, only tables (object and array literals) in a block outside every loop. Each
    block's declarations are read once per file (`reader.block_locals`): a file of thousands
    of top-level loops looked through every statement before each loop's call (E_TIMEOUT)."""
    declared = reader.block_locals.get(block.id)
    if declared is None:
        declared = reader.block_locals[block.id] = _declared(reader, block)
    found: list[tuple[str, Local]] = []
    for start, name, value, table in declared:
        if start >= statement.start_byte:
            break
        if table or not tables_only:
            found.append((name, value))
    return found


def _declared(reader: _Reader, block: _Node) -> list[tuple[int, str, Local, bool]]:
    """Each local `block` declares: where its declaration starts, its name, its value, and
    whether it is a table (a destructured name is none)."""
    found: list[tuple[int, str, Local, bool]] = []
    for declaration in block.named_children:
        if declaration.type not in _DECLARATIONS:
            continue
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            target = declarator.child_by_field_id(reader.fields.name)
            value = unwrap(declarator.child_by_field_id(reader.fields.value))
            if target is None or value is None:
                continue
            start = declaration.start_byte
            if _pushed_to(reader, target, value):
                continue  # `const list = []` filled by `push`: no table as written (`js_pushed`)
            if target.type == "identifier":
                # a list mapped from one (`const mods = NAMES.map(n => require(n))`) is
                # iterated item by item as the literal it maps (`iterated`)
                table = value.type in _TABLES or _maps(reader, value)
                found.append((start, reader._text(target), Local(value), table))
            elif target.type == "object_pattern":
                for prop in target.named_children:
                    if prop.type == "shorthand_property_identifier_pattern":
                        name = reader._text(prop)
                        found.append((start, name, Local(value, name), False))
            elif target.type == "array_pattern":  # `const [method, path] = key.split(' ')`
                names = [c for c in target.named_children if c.type != "comment"]
                for index, element in enumerate(names):
                    if element.type == "identifier":
                        found.append(
                            (start, reader._text(element), Local(value, str(index)), False)
                        )
    return found


def _maps(reader: _Reader, value: _Node) -> bool:
    """Whether `value` is `SOURCE.map(callback)`."""
    if value.type != "call_expression":
        return False
    callee = value.child_by_field_id(reader.fields.function)
    return (
        callee is not None
        and callee.type == "member_expression"
        and reader._text(callee.child_by_field_id(reader.fields.property)) == "map"
    )


def _pushed_to(reader: _Reader, target: _Node, value: _Node) -> bool:
    """Whether `target = value` declares an empty list the file fills by `target.push(...)`."""
    return (
        value.type == "array"
        and not any(c.type != "comment" for c in value.named_children)
        and f"{reader._text(target)}.push(".encode() in reader.source
    )


def _items(reader: _Reader, scope: _Node) -> tuple[list[Bind] | None, _Node | None]:
    """What the loop `scope` iterates, item by item, and the pattern each item is bound to."""
    if scope.type == "for_in_statement":
        right = scope.child_by_field_id(reader.fields.right)
        left = scope.child_by_field_id(reader.fields.left)
        if any(c.type == "of" for c in scope.children):
            return iterated(reader, right), left
        table = resolve(reader, right)  # `for (const k in T)`: T's keys
        entries = object_entries(reader, table) if table is not None else None
        return ([Lit(key) for key in entries] if entries is not None else None), left
    source = _looped_call(reader, scope)
    return iterated(reader, source), item_parameter(reader, scope)


def item_parameter(reader: _Reader, function: _Node) -> _Node | None:
    """The parameter a callback run per item is given the item in: the first, the second
    for `reduce` (after the accumulator)."""
    return reader._parameter(function, 1 if _reduced(reader, function) is not None else 0)


def _reduced(reader: _Reader, function: _Node) -> tuple[str, _Node] | None:
    """(accumulator, initial value) of `table.reduce(function, init)`: a reduce whose
    callback registers on its accumulator and returns it (`(router, r) => router.get(r.path,
    h)`, Express's verbs returning the router) works on `init` at every item."""
    args = function.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    callee = call.child_by_field_id(reader.fields.function) if call is not None else None
    if (
        call is None
        or callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.property)) != _REDUCE
    ):
        return None
    given = reader._arguments(call)
    accumulator = reader._parameter(function, 0)
    if len(given) != 2 or accumulator is None or accumulator.type != "identifier":
        return None
    return reader._text(accumulator), given[1]


def _deferred(reader: _Reader, scope: _Node) -> Env | None:
    """The variables of a loop over the keys, values or entries of an object, or the items
    of a list, named but not spelled here (`for (const k in TABLE)`, `Object.entries(TABLE)
    .forEach(([k, v]) => …)`, `ROUTES.forEach(({ method, path }) => …)` with `TABLE`,
    `ROUTES` imported): each a `Deferred` of it; None for any other loop."""
    if scope.type == "for_in_statement":
        target = scope.child_by_field_id(reader.fields.left)
        source = unwrap(scope.child_by_field_id(reader.fields.right))
        if not any(c.type == "of" for c in scope.children):
            keyed = _named_object(reader, source)
            if keyed is None or target is None or target.type != "identifier":
                return None
            return {reader._text(target): Deferred(keyed)}
    else:
        target = item_parameter(reader, scope)
        source = unwrap(_looped_call(reader, scope))
        viewed = _local_init(reader, source)
        if viewed is not None and _object_view(reader, viewed):  # `const ks = Object.keys(T)`
            source = viewed
    if source is None or target is None:
        return None
    named: Expr | None = None
    if source.type == "call_expression" and isinstance(listing := reader._expr(source), Listing):
        named = listing  # `globSync('models/*.js').forEach(…)`: each file the linker lists
    if source.type != "call_expression" or named is not None:  # `for (const r of ROUTES)`
        named = named or _named_object(reader, source)
        if named is None:
            return None
        if target.type == "identifier":
            return {reader._text(target): Deferred(named, value=True)}
        if target.type != "object_pattern" or any(
            c.type != "shorthand_property_identifier_pattern" for c in target.named_children
        ):
            return None
        return {
            reader._text(c): Deferred(named, value=True, members=(reader._text(c),))
            for c in target.named_children
        }
    callee = source.child_by_field_id(reader.fields.function)
    args = reader._arguments(source)
    if (
        callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.object)) != "Object"
        or len(args) != 1
    ):
        return None
    view = reader._text(callee.child_by_field_id(reader.fields.property))
    named = _named_object(reader, args[0])
    if named is None or view not in _OBJECT_VIEWS:
        return None
    if target.type == "identifier" and view != "entries":
        return {reader._text(target): Deferred(named, value=view == "values")}
    names = [c for c in target.named_children if c.type != "comment"]
    if view != "entries" or target.type != "array_pattern" or not 1 <= len(names) <= 2:
        return None
    if any(n.type != "identifier" for n in names):
        return None
    return {reader._text(n): Deferred(named, value=i == 1) for i, n in enumerate(names)}


def _named_object(reader: _Reader, node: _Node | None) -> Expr | None:
    """What a loop's object is, when it is a name the linker may find an object at (an
    import, a member of one); None for anything else (a call, a local not followed)."""
    node = unwrap(node)
    if node is not None and node.type == "call_expression" and not _object_view(reader, node):
        made = reader._expr(node)  # `Object.entries(buildRoutes(deps))`: what the call returns
        return made if _project_call(made) else None
    if node is None or node.type not in {"identifier", "member_expression"}:
        return None
    named = reader._expr(node)
    if isinstance(named, ImportRef):
        return named
    if isinstance(named, Sym) and isinstance(reader.bindings.get(named.path[0]), ImportRef):
        return named
    if isinstance(named, Listing):  # `globSync(…)` as the loop's object
        return named
    if (
        isinstance(named, Sym)
        and len(named.path) == 1
        and _project_call(made := reader.bindings.get(named.path[0]))
    ):  # `const routes = buildRoutes()` at the top level: what the call returns
        return made
    if (
        isinstance(named, Sym)
        and len(named.path) == 1
        and (
            isinstance(reader.bindings.get(named.path[0]), Listing)
            or named.path[0] in reader.pushed  # a list filled by `push` (`js_pushed`)
        )
    ):  # `const models = globSync(…)` at the top level: read where it is bound
        return named
    if node.type == "identifier" and isinstance(
        reader.bindings.get(name := reader._text(node)), StarletteRoutes
    ):  # `const all = [...thingRoutes, ...otherRoutes]`: spreads of imported lists
        _note_pushes(reader, node, name)
        return Sym((name,))
    if node.type == "identifier":  # a list the enclosing function fills by `push`
        pushed = reader._pushed_local(node)
        return pushed if pushed is not None else _called_local(reader, node)
    return None


def _local_init(reader: _Reader, node: _Node | None) -> _Node | None:
    """The initializer of the local `node` names, declared once in the function around it
    (`const keys = Object.keys(routes)`); None for anything else."""
    if node is None or node.type != "identifier":
        return None
    body = reader._function_block(node) or reader._root  # a module's own too
    found = reader._declared_once(body, reader._text(node)) if body is not None else None
    if found is None or found.end_byte > node.start_byte:
        return None
    return unwrap(found.child_by_field_id(reader.fields.value))


def _object_view(reader: _Reader, node: _Node) -> bool:
    """Whether `node` is `Object.keys/values/entries(T)`."""
    callee = (
        node.child_by_field_id(reader.fields.function) if node.type == "call_expression" else None
    )
    return (
        callee is not None
        and callee.type == "member_expression"
        and reader._text(callee.child_by_field_id(reader.fields.object)) == "Object"
        and reader._text(callee.child_by_field_id(reader.fields.property)) in _OBJECT_VIEWS
    )


def _called_local(reader: _Reader, node: _Node) -> Expr | None:
    """What a call of a project function returns, as the local `node` names it (`const routes =
    getRoutes(deps)`): the `Call`, which the linker reads as the function's return value with
    the arguments bound; None for a local bound otherwise."""
    value = _local_init(reader, node)
    if value is None or value.type != "call_expression" or _object_view(reader, value):
        return None
    read = reader._expr(value)
    return read if _project_call(read) else None


def _project_call(read: Expr | None) -> bool:
    """Whether `read` is a call of a named function (`build(deps)`: a `Call`, or `build()`
    read as the name's call), which the linker reads as the function's return value."""
    if isinstance(read, Call):  # not `Object.keys(T)`, which `_deferred` reads as a view
        return isinstance(read.callee, ImportRef) or (
            isinstance(read.callee, Sym) and read.callee.path[0] != "Object"
        )
    return isinstance(read, Sym) and len(read.path) > 1 and read.path[-1] == CALL


def _note_pushes(reader: _Reader, node: _Node, name: str) -> None:
    """Each `name.push(...)` of the file (`reader.list_pushes`: the list's name, the line, the
    function that makes what is pushed), which a loop over the list unrolled from its
    initializer does not read: the linker says so at each push, never silence."""
    if any(n == name for n, _, _ in reader.list_pushes):
        return
    root = node
    while root.parent is not None:
        root = root.parent
    pattern = re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"\s*\.\s*push\s*\(")
    for match in pattern.finditer(reader.source):
        call = root.descendant_for_byte_range(match.start(), match.start() + 1)
        while call is not None and call.type != "call_expression":
            call = call.parent
        if call is None or call.start_byte != match.start():
            continue  # in a comment or a string
        reader.list_pushes.append((name, call.start_point.row + 1, _maker(reader, call)))


def _maker(reader: _Reader, push: _Node) -> str:
    """What makes the items of `list.push(...made)`: the callee of a call pushed or spread,
    or of the `const` a pushed name is declared from in a block around the push; else the
    arguments as written."""
    args = reader._arguments(push)
    first = unwrap(args[0]) if args else None
    if first is not None and first.type == "spread_element" and first.named_children:
        first = unwrap(first.named_children[0])
    scope = push.parent
    while first is not None and first.type == "identifier" and scope is not None:
        found = (
            reader._const_in(scope, reader._text(first), push)
            if scope.type == "statement_block"
            else None
        )
        if found is not None and not found[1]:
            first = unwrap(found[0].child_by_field_id(reader.fields.value))
            break
        scope = scope.parent
    if first is not None and first.type == "call_expression":
        return reader._text(first.child_by_field_id(reader.fields.function))
    return ", ".join(reader._text(a) for a in args)[:80]


def iterated(reader: _Reader, node: _Node | None) -> list[Bind] | None:
    """The items of an iterable the file spells: an array (spreads of arrays flattened), a
    `new Map([...])`/`new Set([...])`, or `Object.keys/values/entries(T)` of an object."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "identifier" and reader._text(node) not in reader._env:
        named = reader.arrays.get(reader._text(node))
        if named is not None and named.type == "call_expression":
            node = named  # `const table = NAMES.map(...)` at the top level
    elif node.type == "identifier":
        bound = reader._env[reader._text(node)]
        if isinstance(bound, Local) and not bound.field and _maps(reader, bound.node):
            node = bound.node  # the same, a local of a block around the loop
    if node.type == "call_expression":
        callee = node.child_by_field_id(reader.fields.function)
        args = reader._arguments(node)
        mapped = _mapped_items(reader, callee, args)
        if mapped is None:
            mapped = _gathered_items(reader, callee, args)
        if mapped is not None:
            return mapped
        if (
            callee is not None
            and callee.type == "member_expression"
            and reader._text(callee.child_by_field_id(reader.fields.object)) == "Object"
            and len(args) == 1
        ):
            view = reader._text(callee.child_by_field_id(reader.fields.property))
            table = resolve(reader, args[0]) if view in _OBJECT_VIEWS else None
            entries = object_entries(reader, table) if table is not None else None
            if entries is None:
                return None
            if view == "keys":
                return [Lit(key) for key in entries]
            if view == "values":
                return list(entries.values())
            return [Pair(Lit(key), value) for key, value in entries.items()]
        return None
    table = resolve(reader, node)
    items = array_items(reader, table) if table is not None else None
    return list(items) if items is not None else None


def _mapped_items(reader: _Reader, callee: _Node | None, args: list[_Node]) -> list[Bind] | None:
    """`SOURCE.map(item => value)` of a list the file spells: per item, the callback's value
    with its parameter bound (`Closure`); None for any other call or a callback not written
    there (no single returned value)."""
    if (
        callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.property)) != "map"
        or len(args) != 1
    ):
        return None
    function = unwrap(args[0])
    if function is not None and function.type == "identifier":  # `SOURCE.map(toRoute)`
        function = reader._named_function(function)
    if function is None or function.type not in _FUNCTIONS:
        return None
    value = returned(reader, function)
    target = reader._first_parameter(function)
    source = iterated(reader, callee.child_by_field_id(reader.fields.object))
    if value is None or target is None or source is None or len(source) > MAX_ITERATIONS:
        return None
    return _per_item(reader, target, source, [value])


def _per_item(
    reader: _Reader, target: _Node, source: list[Bind], added: list[_Node]
) -> list[Bind] | None:
    """Each of `added` read once per item of `source`, the item bound to `target`; None when an
    item cannot be bound or the reads pass `MAX_ITERATIONS`."""
    items: list[Bind] = []
    for item in source:
        bound = bind_item(reader, target, item)
        if bound is None:
            return None
        items += [Closure(node, {**reader._env, **bound}) for node in added]
        if len(items) > MAX_ITERATIONS:
            return None
    return items


def _gathered_items(reader: _Reader, callee: _Node | None, args: list[_Node]) -> list[Bind] | None:
    """`SOURCE.reduce((all, x) => all.concat(v), [])` (`v` a list: its items) or `(all, x) =>
    [...all, v, w]` of a list the file spells: per item, what it adds, read with the item
    bound (`Closure`); None for any other call."""
    if (
        callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.property)) != _REDUCE
        or len(args) != 2
    ):
        return None
    function, init = unwrap(args[0]), unwrap(args[1])
    if (
        function is None
        or function.type not in _FUNCTION_VALUES
        or init is None
        or init.type != "array"
        or init.named_children
    ):
        return None
    accumulator = reader._parameter(function, 0)
    target = reader._parameter(function, 1)
    given = returned(reader, function)
    if accumulator is None or target is None or given is None:
        return None
    name = reader._text(accumulator)
    added: list[_Node] | None = None
    if given.type == "call_expression":  # `all.concat(v)`
        function_ = unwrap(given.child_by_field_id(reader.fields.function))
        parts = reader._arguments(given)
        if (
            function_ is not None
            and function_.type == "member_expression"
            and reader._text(function_.child_by_field_id(reader.fields.object)) == name
            and reader._text(function_.child_by_field_id(reader.fields.property)) == "concat"
            and len(parts) == 1
        ):
            part = unwrap(parts[0])
            added = (
                [c for c in part.named_children if c.type != "comment"]
                if (part is not None and part.type == "array")
                else ([part] if part is not None else None)
            )
    elif given.type == "array":  # `[...all, v]`
        listed = [c for c in given.named_children if c.type != "comment"]
        if (
            listed
            and listed[0].type == "spread_element"
            and reader._text(listed[0]) == f"...{name}"
        ):
            added = listed[1:]
    source = iterated(reader, callee.child_by_field_id(reader.fields.object))
    if added is None or any(a.type == "spread_element" for a in added) or source is None:
        return None
    return _per_item(reader, target, source, added)


def returned(reader: _Reader, function: _Node) -> _Node | None:
    """What a callback returns: its expression body, or its body's one `return` value."""
    body = unwrap(function.child_by_field_id(reader.fields.body))
    if body is None or body.type != "statement_block":
        return body
    returns = [c for c in body.named_children if c.type == "return_statement"]
    if len(returns) != 1 or not returns[0].named_children:
        return None
    return unwrap(returns[0].named_children[0])


def bind_item(reader: _Reader, target: _Node, item: Bind) -> Env | None:
    """`r` → the item; `{ path, route }` → the item's fields of those names; `[url, file]` →
    the item's elements at those places (a Map's pairs, `Object.entries`' `[key, value]`)."""
    if target.type in {"lexical_declaration", "variable_declaration"}:  # `var k` in a for-in
        declarator = next((c for c in target.named_children), None)
        name = declarator.child_by_field_id(reader.fields.name) if declarator else None
        return bind_item(reader, name, item) if name is not None else None
    if target.type == "identifier":
        return {reader._text(target): item}
    if isinstance(item, Closure):  # `{ verb, url }` of a built item: each field, read likewise
        made = item.node if item.node.type == "object" else None
        fields = object_entries(reader, made) if made is not None else None
        if target.type != "object_pattern" or fields is None:
            return None
        picked: Env = {}
        for prop in (c for c in target.named_children if c.type != "comment"):
            key = reader._text(prop)
            if prop.type != "shorthand_property_identifier_pattern" or key not in fields:
                return None
            picked[key] = Closure(fields[key], item.env)
        return picked
    if isinstance(item, Lit | Local | Deferred):
        return None
    names = [c for c in target.named_children if c.type != "comment"]
    if target.type == "array_pattern":
        if any(n.type != "identifier" for n in names):
            return None
        if isinstance(item, Pair):
            values: list[Bind] = [item.key, item.value]
        else:
            array = resolve(reader, item, outside=True)
            listed = array_items(reader, array) if array is not None else None
            if listed is None or array is None or array.type != "array":
                return None
            values = list(listed)
        if len(values) < len(names):
            return None
        return {reader._text(n): v for n, v in zip(names, values, strict=False)}
    if target.type != "object_pattern" or isinstance(item, Pair):
        return None
    table = resolve(reader, item, outside=True)
    entries = object_entries(reader, table) if table is not None else None
    if entries is None:
        return None
    bound: Env = {}
    for prop in names:
        if prop.type != "shorthand_property_identifier_pattern":
            return None
        field = reader._text(prop)
        if field not in entries:
            return None
        bound[field] = entries[field]
    return bound


def object_entries(reader: _Reader, table: _Node, depth: int = 0) -> dict[str, _Node] | None:
    """An object literal's keys and value nodes in the order JavaScript gives them, spreads of
    objects the file spells merged in (a later key replaces an earlier one's value); None when a
    key is computed or a spread is not visible."""
    if table.type != "object" or depth > _MAX_DEPTH:
        return None
    entries: dict[str, _Node] = {}
    for prop in table.named_children:
        kind = prop.type
        if kind == "pair":
            key = prop.child_by_field_id(reader.fields.key)
            value = prop.child_by_field_id(reader.fields.value)
            name = _key_name(reader, key)
            if name is None or value is None:
                return None
            entries[name] = value
        elif kind == "shorthand_property_identifier":
            entries[reader._text(prop)] = prop
        elif kind == "method_definition":
            name = _key_name(reader, prop.child_by_field_id(reader.fields.name))
            if name is None:
                return None
            entries[name] = prop
        elif kind == "spread_element":
            inner = resolve(reader, prop.named_children[0] if prop.named_children else None,
                            outside=True, depth=depth + 1)  # fmt: skip
            spread = object_entries(reader, inner, depth + 1) if inner is not None else None
            if spread is None:
                return None
            entries.update(spread)
        elif kind != "comment":
            return None
    return entries


def array_items(reader: _Reader, table: _Node, depth: int = 0) -> list[_Node] | None:
    """An array literal's items (a `new Map/Set([...])`'s array), spreads of arrays the file
    spells flattened in; None for anything else."""
    table = reader._collection(table) or table
    if table.type != "array" or depth > _MAX_DEPTH:
        return None
    items: list[_Node] = []
    for item in table.named_children:
        if item.type == "comment":
            continue
        if item.type == "spread_element":
            inner = resolve(reader, item.named_children[0] if item.named_children else None,
                            outside=True, depth=depth + 1)  # fmt: skip
            spread = array_items(reader, inner, depth + 1) if inner is not None else None
            if spread is None:
                return None
            items += spread
        else:
            items.append(item)
    return items


def _key_name(reader: _Reader, key: _Node | None) -> str | None:
    if key is None:
        return None
    if key.type in {"property_identifier", "number", "private_property_identifier"}:
        return reader._text(key)
    if key.type == "string":
        return reader._string(key)
    return None  # `[computed]`


def key_of(reader: _Reader, index: _Node | None) -> str | None:
    """The key a subscript names, under the current iteration: `T['x']`, `T[0]`, `T[k]`."""
    index = unwrap(index)
    if index is None:
        return None
    if index.type == "number":
        return reader._text(index)
    value = reader._expr(index)
    return value.value if isinstance(value, Lit) else None


def resolve(
    reader: _Reader, node: _Node | None, *, outside: bool = False, depth: int = 0
) -> _Node | None:
    """The node `node` stands for, to be read outside the loop: a literal (a table: object,
    array, `new Map([...])`; a string, a number) or a value written in a table, following loop
    variables, loop-body locals, top-level tables and member or subscript lookups into them;
    None when the file does not spell it (a local's initialiser is read in the loop instead).
    `outside`: `node` is written in a table, where the loop's variables are not in scope."""
    if outside and reader._env:
        env, reader._env = reader._env, {}
        try:
            return resolve(reader, node, depth=depth)
        finally:
            reader._env = env
    node = unwrap(node)
    if node is None or depth > _MAX_DEPTH:
        return None
    kind = node.type
    if kind in {"identifier", "shorthand_property_identifier"}:
        name = reader._text(node)
        bound = reader._env.get(name)
        if bound is None:
            return reader.objects.get(name) or reader.arrays.get(name)
        if isinstance(bound, Local):
            value = resolve(reader, bound.node, depth=depth + 1)
            if value is None or not bound.field:
                return value
            return member_node(reader, value, bound.field, depth)
        if isinstance(bound, Lit | Pair | Deferred):
            return None
        if isinstance(bound, Closure):  # the value read where its parameter is bound
            env, reader._env = reader._env, bound.env
            try:
                found = resolve(reader, bound.node, depth=depth + 1)
            finally:
                reader._env = env
            return found if found is not None and found.type in {"string", "number"} else None
        return resolve(reader, bound, outside=True, depth=depth + 1) or bound
    if kind in {"member_expression", "subscript_expression"}:
        base = resolve(reader, node.child_by_field_id(reader.fields.object), depth=depth + 1)
        if base is None:
            return None
        if kind == "member_expression":
            key: str | None = reader._text(node.child_by_field_id(reader.fields.property))
        else:
            key = key_of(reader, node.child_by_field_id(reader.fields.index))
        return member_node(reader, base, key, depth) if key is not None else None
    if kind == "new_expression":
        return reader._collection(node)
    return node if kind in _LITERALS else None


def member_node(reader: _Reader, table: _Node, key: str | None, depth: int = 0) -> _Node | None:
    """`table[key]`, followed to the literal it is when the file spells one (else its node)."""
    value: _Node | None = None
    if table.type == "object":
        entries = object_entries(reader, table, depth + 1)
        value = entries.get(key) if entries is not None and key is not None else None
    elif key is not None and key.isdigit():
        items = array_items(reader, table, depth + 1)
        value = items[int(key)] if items is not None and int(key) < len(items) else None
    if value is None:
        return None
    return resolve(reader, value, outside=True, depth=depth + 1) or value
