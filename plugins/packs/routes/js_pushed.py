"""Lists a module fills by `push` (JavaScript), read as the items they end up holding.

Real code builds its route tables at load time instead of writing them: `const resources =
[]`, then `for (const file of globSync('models/*.js')) resources.push({ slug: ... })`, the
list exported and looped over by another module's routes (`resources.forEach(({ slug }) =>
router.get('/' + slug, h))`). The reader (`js_facts._declare`) asks `built` about each empty
array a block declares; when the block pushes to it, the list is what the pushes add, in
order (a list a function declares is read the same way where the function loops over it or
returns it: `local_list`): a push outside any loop adds its arguments (`Items`), a push in
one loop over a value the linker can list (a literal array, `Object.keys` of a literal, a
glob `Listing`, another list the scan shows) adds them once per item (`Mapped` "flatMap",
the item a `Param` of the loop's site), and the parts are joined (`Mapped` "join"). Each
pushed value is read here with the loop's variable and the loop body's `const` locals
followed (`const stem = basename(file).replace(/\\.js$/, '')`), a parameter of the function
around as what its callers pass, JavaScript's string methods kept as calls the linker
computes (`js_strings`).

A list pushed to in a way not read (a push under an `if`, in a nested loop or a callback
other than `forEach`, spread arguments, the list passed to a call, aliased, or changed by
another method) is `Opaque`: a loop over it leaves each route it registers a finding at the
route and the loop, never an empty list (which a loop would silently iterate zero times).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import tree_sitter

from . import js_loops, js_strings
from .model import Apply, Concat, Expr, Items, Lit, Mapped, Member, Namespace, Opaque, Param, Sym

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node

MAX_PUSHES = 32  # push calls read per list: past it, the list is not known
_MAX_DEPTH = 16  # locals followed from a pushed value (`a` → `b` → `c` …)
# a use of the list that reads it, never changes it
_READS = frozenset({"forEach", "map", "filter", "flatMap", "find", "findIndex", "some", "every",
                    "includes", "indexOf", "length", "slice", "concat", "join", "reduce",
                    "entries", "keys", "values", "at"})  # fmt: skip
_NAMES = frozenset({"identifier", "shorthand_property_identifier"})
_READ_PARENTS = frozenset({"spread_element", "export_specifier", "return_statement",
                           "pair", "array"})  # fmt: skip
_BLOCKS = frozenset({"statement_block", "expression_statement"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})
_FOR_EACH = frozenset({"forEach"})
_PATH_FUNCTIONS = frozenset({"basename", "extname", "dirname"})
_TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "non_null_expression"})


def built(reader: _Reader, declarator: _Node) -> Expr | None:
    """The list `const name = []` ends up holding where the block declaring it fills it by
    `name.push(...)`; `Opaque` where a push or another use is not read; None when nothing
    pushes to it (an empty list as written)."""
    target = declarator.child_by_field_id(reader.fields.name)
    value = _unwrap(declarator.child_by_field_id(reader.fields.value))
    if target is None or target.type != "identifier" or value is None or value.type != "array":
        return None
    if any(c.type != "comment" for c in value.named_children):
        return None
    name = reader._text(target)
    if f"{name}.push(".encode() not in reader.source:
        return None
    block = declarator.parent.parent if declarator.parent is not None else None
    if block is not None and block.type == "export_statement":
        block = block.parent
    if block is None or block.type not in {"program", "statement_block"}:
        return None
    parts = _pushes(reader, name, target, block)
    if parts is None:
        return Opaque()
    return Mapped(Items(tuple(parts)), "join") if parts else None


def pushed_into(reader: _Reader, name: _Node, imported: Expr) -> Expr | None:
    """An imported list the importing module fills by `push` at its top level
    (`const { apiConf } = require('./app'); extra.forEach(c => apiConf.push(c))`): the list
    as imported, then what the pushes add, in order; `Opaque` where a push or another use is
    not read; None when nothing pushes to it. A use passing it to a call after every push
    reads the list as filled (the calls that build routes from it)."""
    text = reader._text(name)
    if f"{text}.push(".encode() not in reader.source:
        return None
    block = name
    while block.parent is not None and block.type != "program":
        block = block.parent
    if block.type != "program":
        return None
    parts = _pushes(reader, text, name, block, passed_after=True)
    if parts is None:
        return Opaque()
    return Mapped(Items((imported, *parts)), "join") if parts else None


def _pushes(
    reader: _Reader, name: str, target: _Node, block: _Node, *, passed_after: bool = False
) -> list[Expr] | None:
    """What each push to `name` in `block` adds, in order; None where a push or another use
    is not read (with `passed_after`, an argument of a call after the last push is a read)."""
    parts: list[Expr] = []
    last_push = -1
    passed: list[int] = []
    spelled = re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"(?![\w$])")
    for match in spelled.finditer(reader.source, block.start_byte, block.end_byte):
        use = block.descendant_for_byte_range(match.start(), match.end())
        if use is None or use.type not in _NAMES or use == target:
            continue  # a string or comment spelling it
        push = _push(reader, use)
        if push is None:
            if passed_after and use.parent is not None and use.parent.type == "arguments":
                passed.append(use.start_byte)
            elif not _reads(reader, use):
                return None
            continue
        part = _part(reader, push, block)
        if part is None or len(parts) >= MAX_PUSHES:
            return None
        parts.append(part)
        last_push = push.start_byte
    if any(at < last_push for at in passed):
        return None  # passed to a call before a push: what the call does to it is not read
    return parts


def local_list(reader: _Reader, name: _Node) -> Expr | None:
    """What the list a function declares and fills by `push` holds, where `name` (a use of
    it in the same function: `return out`, `out.forEach(...)`) names one (`built`); None for
    any other name (a top-level list is the module's binding)."""
    if name.type != "identifier":
        return None
    text = reader._text(name)
    if f"{text}.push(".encode() not in reader.source:
        return None
    child, scope = name, name.parent
    while scope is not None and scope.type != "program":
        if scope.type == "statement_block":
            for statement in scope.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                if statement.type not in {"lexical_declaration", "variable_declaration"}:
                    continue
                for declarator in statement.named_children:
                    target = declarator.child_by_field_id(reader.fields.name)
                    if target is not None and reader._text(target) == text:
                        return built(reader, declarator)
        child, scope = scope, scope.parent
    return None


def _push(reader: _Reader, use: _Node) -> _Node | None:
    """The call `use.push(...)` as a statement (or an arrow function's body), else None."""
    member = use.parent
    if (
        member is None
        or member.type != "member_expression"
        or member.child_by_field_id(reader.fields.object) != use
        or reader._text(member.child_by_field_id(reader.fields.property)) != "push"
    ):
        return None
    call = member.parent
    if call is None or call.type != "call_expression":
        return None
    holder = call.parent
    if holder is not None and (
        holder.type == "expression_statement"
        or (
            holder.type == "arrow_function" and holder.child_by_field_id(reader.fields.body) == call
        )
    ):
        return call
    return None


def _reads(reader: _Reader, use: _Node) -> bool:
    """Whether `use` only reads the list: a method that changes nothing (`forEach`, `map`),
    the object of a `for...of`, exported or returned; never passed to a call or aliased."""
    if use.type == "shorthand_property_identifier":  # `module.exports = { list }`
        return True
    parent = use.parent
    if parent is None:
        return False
    if parent.type == "member_expression":
        grand = parent.parent
        if (
            grand is not None
            and grand.type == "assignment_expression"
            and grand.child_by_field_id(reader.fields.left) == parent
        ):
            return False  # `list.length = 0`
        return reader._text(parent.child_by_field_id(reader.fields.property)) in _READS
    if parent.type == "for_in_statement":
        return parent.child_by_field_id(reader.fields.right) == use
    if parent.type == "assignment_expression":  # `module.exports = list`
        return parent.child_by_field_id(reader.fields.right) == use
    return parent.type in _READ_PARENTS


class _Loop:
    """The loop a push is written in: its site (the `Param` it binds), what it iterates, its
    variables and its body (whose `const` locals a pushed value may use)."""

    def __init__(self, site: str, source: Expr, names: dict[str, Expr], body: _Node) -> None:
        self.site = site
        self.source = source
        self.names = names
        self.body = body


def _part(reader: _Reader, call: _Node, block: _Node) -> Expr | None:
    """What one push adds: its arguments once, or once per item of the one loop around it;
    None where that is not read (a condition, a nested loop or function, a spread)."""
    args = reader._arguments(call)
    if any(a.type == "spread_element" for a in args):
        return None
    loop: _Loop | None = None
    child, scope = call, call.parent
    while scope is not None and scope != block:
        if scope.type == "for_in_statement" and child == scope.child_by_field_id(
            reader.fields.body
        ):
            if loop is not None:
                return None
            loop = _for_of(reader, scope)
            if loop is None:
                return None
        elif scope.type == "arrow_function" or scope.type in _FUNCTION_VALUES:
            if loop is not None:
                return None
            loop = _for_each(reader, scope)
            scope = scope.parent.parent if scope.parent is not None else None  # the call
            if scope is None or loop is None:
                return None
        elif scope.type not in _BLOCKS:
            return None  # `if`, `try`, `switch`, a function declared in the block
        child, scope = scope, scope.parent
    if scope != block:
        return None
    if loop is None:
        return Items(tuple(_read(reader, a, None, call, 0) for a in args))
    values = Items(tuple(_read(reader, a, loop, call, 0) for a in args))
    return Mapped(loop.source, "flatMap", loop.site, values)


def _for_of(reader: _Reader, loop: _Node) -> _Loop | None:
    """`for (const x of SOURCE) {...}` (`x` a name or `{ a, b }`)."""
    if not any(c.type == "of" for c in loop.children):
        return None
    source = _source(reader, loop.child_by_field_id(reader.fields.right))
    target = loop.child_by_field_id(reader.fields.left)
    body = loop.child_by_field_id(reader.fields.body)
    if source is None or target is None or body is None:
        return None
    return _bound(reader, loop, source, target, body)


def _for_each(reader: _Reader, function: _Node) -> _Loop | None:
    """`SOURCE.forEach((x) => {...})`: the callback's first parameter, each item."""
    found = js_loops.callback_call(reader, function, _FOR_EACH)
    if found is None or found[0].parent is None or found[0].parent.type != "expression_statement":
        return None
    source = _source(reader, found[1])
    target = reader._first_parameter(function)
    body = function.child_by_field_id(reader.fields.body)
    if source is None or target is None or body is None:
        return None
    return _bound(reader, function, source, target, body)


def _bound(reader: _Reader, loop: _Node, source: Expr, target: _Node, body: _Node) -> _Loop | None:
    site = f"{loop.start_point.row + 1}:{loop.start_point.column}"
    if target.type == "identifier":
        name = reader._text(target)
        return _Loop(site, source, {name: Param(site, 0, name, Sym((name,)))}, body)
    if target.type != "object_pattern":
        return None
    item = Param(site, 0, "", Sym(("",)))
    names: dict[str, Expr] = {}
    for part in target.named_children:
        if part.type != "shorthand_property_identifier_pattern":
            return None
        names[reader._text(part)] = Member(item, (reader._text(part),))
    return _Loop(site, source, names, body)


def _source(reader: _Reader, node: _Node | None) -> Expr | None:
    """What a loop iterates, as a value the linker lists: a table the file spells (`[...]`,
    `Object.keys({...})`), else the name or call as read (a glob `Listing`, an import)."""
    node = _unwrap(node)
    if node is None:
        return None
    items = js_loops.iterated(reader, node)
    if items:  # an empty one may be a list filled at run time: read as a value instead
        read: list[Expr] = []
        for item in items:
            if isinstance(item, Lit):
                read.append(item)
            elif isinstance(item, _Node):
                read.append(reader._looped(item) or Opaque())
            else:
                return None
        return Items(tuple(read))
    if node.type == "array":
        return reader._list_value(node)
    return reader._value(node)


def _read(reader: _Reader, node: _Node | None, loop: _Loop | None, at: _Node, depth: int) -> Expr:
    """A pushed value: the loop's variables as the item, the loop body's `const` locals
    followed to their values, JavaScript's string methods and Node's `path` functions kept as
    calls (`Apply`); anything using the item in another way `Opaque`."""
    node = _unwrap(node)
    if node is None or depth > _MAX_DEPTH:
        return Opaque()
    kind = node.type
    if kind in _NAMES:
        name = reader._text(node)
        if loop is not None and name in loop.names:
            return loop.names[name]
        local = _local(reader, loop, name, at) if loop is not None else None
        if local is not None:
            return _read(reader, local, loop, at, depth + 1)
        if loop is not None and _declared_in(reader, loop.body, name):
            return Opaque()  # a `let` or a local declared after the push
        # a parameter of the function around (what its callers pass), else the module's name
        return reader._value(node) or Opaque()
    if kind == "number":
        text = reader._text(node)
        return Lit(text) if text.lstrip("-").isdigit() else Opaque()
    if kind == "template_string":
        parts: list[Expr] = []
        for part in node.named_children:
            if part.type == "string_fragment":
                parts.append(Lit(reader._text(part)))
            elif part.type == "template_substitution" and part.named_children:
                parts.append(_read(reader, part.named_children[0], loop, at, depth + 1))
            else:
                return reader._expr(node) or Opaque()
        return Concat(tuple(parts))
    if kind == "binary_expression" and reader._text(
        node.child_by_field_id(reader.fields.operator)
    ) in {"+"}:
        return Concat(
            tuple(
                _read(reader, node.child_by_field_id(f), loop, at, depth + 1)
                for f in (reader.fields.left, reader.fields.right)
            )
        )
    if kind == "unary_expression" and reader._text(node).startswith("-"):
        return Lit(reader._text(node)) if reader._text(node)[1:].isdigit() else Opaque()
    if kind == "object":
        return _object(reader, node, loop, at, depth)
    if kind == "array":
        children = [c for c in node.named_children if c.type != "comment"]
        if any(c.type == "spread_element" for c in children):
            return Opaque()
        return Items(tuple(_read(reader, c, loop, at, depth + 1) for c in children))
    if kind == "call_expression":
        return _call(reader, node, loop, at, depth)
    if kind == "subscript_expression":  # `file.split('/')[1]`
        split = _unwrap(node.child_by_field_id(reader.fields.object))
        index = _unwrap(node.child_by_field_id(reader.fields.index))
        called = _method_call(reader, split) if split is not None else None
        if called is not None and index is not None and index.type == "number":
            receiver, method, args = called
            if method == js_strings.SPLIT and len(args) == 1 and reader._text(index).isdigit():
                base = _read(reader, receiver, loop, at, depth + 1)
                sep = _read(reader, args[0], loop, at, depth + 1)
                return Apply(Member(base, (method, reader._text(index))), (sep,))
        return _other(reader, node, loop)
    if kind == "member_expression":
        base = _read(reader, node.child_by_field_id(reader.fields.object), loop, at, depth + 1)
        prop = reader._text(node.child_by_field_id(reader.fields.property))
        if isinstance(base, Param):
            return Member(base, (prop,))
        if isinstance(base, Member) and isinstance(base.base, Param):
            return Member(base.base, (*base.path, prop))
        return _other(reader, node, loop)
    return _other(reader, node, loop)


def _other(reader: _Reader, node: _Node, loop: _Loop | None) -> Expr:
    """A value read as the reader reads one, unless it uses the loop's item or locals."""
    if loop is not None and _mentions(reader, node, loop):
        return Opaque()
    return reader._expr(node) or Opaque()


def _object(reader: _Reader, node: _Node, loop: _Loop | None, at: _Node, depth: int) -> Expr:
    fields: list[tuple[str, Expr]] = []
    for prop in node.named_children:
        if prop.type == "shorthand_property_identifier":
            fields.append((reader._text(prop), _read(reader, prop, loop, at, depth + 1)))
        elif prop.type == "pair":
            key = prop.child_by_field_id(reader.fields.key)
            if key is None or key.type not in {"property_identifier", "string"}:
                return Opaque()
            name = reader._string(key) if key.type == "string" else reader._text(key)
            value = prop.child_by_field_id(reader.fields.value)
            if name:
                fields.append((name, _read(reader, value, loop, at, depth + 1)))
        elif prop.type != "comment":
            return Opaque()  # a spread or a method: fields not read here
    return Namespace(tuple(fields))


def _call(reader: _Reader, node: _Node, loop: _Loop | None, at: _Node, depth: int) -> Expr:
    """`s.trim()`, `s.replace(a, b)` (`js_strings`), `basename(f)`, `path.extname(f)`."""
    called = _method_call(reader, node)
    args = reader._arguments(node)
    if called is not None:
        receiver, method, _ = called
        if method in js_strings.METHODS and method != js_strings.SPLIT:
            base = _read(reader, receiver, loop, at, depth + 1)
            read = tuple(_read(reader, a, loop, at, depth + 1) for a in args)
            return Apply(Member(base, (method,)), read)
    callee = _unwrap(node.child_by_field_id(reader.fields.function))
    if callee is not None and reader._text(callee).rsplit(".", 1)[-1] in _PATH_FUNCTIONS:
        function = reader._expr(callee)
        if function is not None:  # the linker computes it where it is Node's `path`
            return Apply(function, tuple(_read(reader, a, loop, at, depth + 1) for a in args))
    return _other(reader, node, loop)


def _method_call(reader: _Reader, node: _Node) -> tuple[_Node, str, list[_Node]] | None:
    """(receiver, method, arguments) of `receiver.method(...)`, else None."""
    if node.type != "call_expression":
        return None
    callee = _unwrap(node.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "member_expression":
        return None
    receiver = callee.child_by_field_id(reader.fields.object)
    if receiver is None:
        return None
    method = reader._text(callee.child_by_field_id(reader.fields.property))
    return receiver, method, reader._arguments(node)


def _local(reader: _Reader, loop: _Loop, name: str, at: _Node) -> _Node | None:
    """The initialiser of `const name = ...` written in the loop body before `at`."""
    for declaration in loop.body.named_children:
        if declaration.start_byte >= at.start_byte:
            break
        if declaration.type != "lexical_declaration" or reader._text(declaration)[:6] != "const ":
            continue
        for declarator in declaration.named_children:
            target = declarator.child_by_field_id(reader.fields.name)
            if target is not None and target.type == "identifier" and reader._text(target) == name:
                return declarator.child_by_field_id(reader.fields.value)
    return None


def _declared_in(reader: _Reader, body: _Node, name: str) -> bool:
    """Whether the loop body declares or assigns `name` anywhere (a value not followed)."""
    text = reader.source[body.start_byte : body.end_byte]
    return re.search(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"\s*=[^=>]", text) is not None


def _mentions(reader: _Reader, node: _Node, loop: _Loop) -> bool:
    """Whether `node`'s text names one of the loop's variables or the body's locals."""
    text = reader._text(node)
    names = set(loop.names)
    body = reader.source[loop.body.start_byte : loop.body.end_byte].decode(errors="replace")
    names |= set(re.findall(r"(?:const|let|var)\s+([A-Za-z_$][\w$]*)", body))
    return any(re.search(rf"(?<![\w$.]){re.escape(n)}(?![\w$])", text) for n in names)


def _unwrap(node: _Node | None) -> _Node | None:
    while node is not None and node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node
