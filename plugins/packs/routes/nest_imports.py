"""The NestJS modules one file imports only under a condition (read per file; `nest_link`
decides them under the configuration's defaults).

Nest serves a controller only when the module declaring it is in the application's module
graph, and an application may leave a module out by its configuration:
`ConditionalModule.registerWhen(M, (env) => ...)` (`@nestjs/config`; a variable's NAME as the
condition too), a list spread in only when a test holds (`...(cfg.x ? [M] : [])`), or a list
returned by a function of the file after an early `if (!cfg.x) return []`. This reads every
`imports:` list of the file (a `@Module`'s, a `DynamicModule`'s, a `Module({...})` call's: any
object field so named), following spreads of the file's lists, ternaries and the file's own
functions, and records each module named there with the conditions that guard it.

A module is only "imported under a condition" by this file when EVERY read of its name in the
file (outside `import` statements and types) is such a guarded entry: any other read (an
unguarded entry, a list the reader cannot follow, a `push`) is recorded as a use with no
condition, so the link never drops a module the file may import in another way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import js_nodes
from .model import Condition, ImportRef, Lit, Opaque

if TYPE_CHECKING:
    import tree_sitter

    from .js_facts import _Reader

    _Node = tree_sitter.Node

# (module class name, the condition guarding this use or None for an unguarded one, line, the
# `@Module` class whose `imports` name it, "" for any other list or read)
Use = tuple[str, Condition | None, int, str]
Guard = tuple[Condition, int]  # a condition a use is written under, with its line

_CONFIG = "@nestjs/config"
_COMMON = "@nestjs/common"
_MAX_DEPTH = 16
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_NOT_READS = frozenset({"import_statement", "import_clause", "type_annotation", "type_query"})


def read(reader: _Reader, root: _Node) -> tuple[Use, ...]:
    """The uses of module names in the file's `imports:` lists that are guarded or made by a
    `@Module` class, with an unowned, unguarded use for each such name the file also reads
    elsewhere; () when there are none."""
    found: dict[tuple[int, str], Use] = {}  # by the name's start byte and owner
    for value, owner in _imports_fields(reader, root):
        _list(reader, root, value, (), owner, found, 0)
    kept = {name for name, condition, _, owner in found.values() if condition or owner}
    if not kept:
        return ()
    uses = [use for use in found.values() if use[0] in kept and (use[1] or use[3])]
    counted = {start for (start, _), use in found.items() if use[1] or use[3]}
    reads = _reads(reader, root, kept)
    for name in sorted(kept):
        loose = [start for start in reads.get(name, ()) if start not in counted]
        if loose:
            line = next((u[2] for (at, _), u in found.items() if at == loose[0]), 1)
            uses.append((name, None, line, ""))
    return tuple(uses)


def _owners(reader: _Reader, root: _Node) -> dict[int, str]:
    """The `@Module(...)` decorators of the file's top-level classes (by start byte), each
    with its class's name."""
    owners: dict[int, str] = {}
    for statement in root.named_children:
        cls = statement
        if statement.type == "export_statement":
            cls = statement.child_by_field_id(reader.fields.declaration) or statement
        if cls.type not in {"class_declaration", "abstract_class_declaration"}:
            continue
        name = reader._text(cls.child_by_field_id(reader.fields.name))
        for node in (*statement.named_children, *cls.named_children):
            call = (
                node.named_children[0] if node.type == "decorator" and node.named_children else None
            )
            callee = call.child_by_field_id(reader.fields.function) if call is not None else None
            if callee is not None and reader._text(callee) == "Module":
                owners[node.start_byte] = name
    return owners


def _imports_fields(reader: _Reader, root: _Node) -> list[tuple[_Node, str]]:
    """The value of every `imports: ...` field of an object written in the file, with the
    `@Module` class whose decorator holds it ("" for none)."""
    owners = _owners(reader, root)
    values: list[tuple[_Node, str]] = []
    stack = [(root, "")]
    while stack:
        node, owner = stack.pop()
        owner = owners.get(node.start_byte, owner) if node.type == "decorator" else owner
        if node.type == "pair":
            key = node.child_by_field_id(reader.fields.key)
            value = node.child_by_field_id(reader.fields.value)
            if key is not None and value is not None and reader._text(key) == "imports":
                values.append((value, owner))
        elif node.type == "shorthand_property_identifier" and reader._text(node) == "imports":
            values.append((node, owner))  # `{ imports }`: the file's list of that name
        stack.extend((child, owner) for child in node.named_children)
    return values


def _list(
    reader: _Reader,
    root: _Node,
    node: _Node | None,
    guards: tuple[Guard, ...],
    owner: str,
    found: dict[tuple[int, str], Use],
    depth: int,
) -> None:
    """The entries of a module list written as `node` under `guards`: an array, a list of the
    file by name, a ternary choosing lists, a call of a function of the file returning one."""
    node = js_nodes.unwrap(node)
    if node is None or depth > _MAX_DEPTH:
        return
    if node.type == "array":
        for item in node.named_children:
            _entry(reader, root, item, guards, owner, found, depth)
    elif node.type in {"identifier", "shorthand_property_identifier"}:
        listed = reader.arrays.get(reader._text(node))
        if listed is not None:
            _list(reader, root, listed, guards, owner, found, depth + 1)
    elif node.type == "ternary_expression":
        for branch, test in _branches(reader, node):
            _list(reader, root, branch, (*guards, test), owner, found, depth + 1)
    elif node.type == "call_expression":
        function = _function(reader, root, node)
        if function is not None:
            _returned(reader, root, function, guards, owner, found, depth + 1)


def _entry(
    reader: _Reader,
    root: _Node,
    item: _Node,
    guards: tuple[Guard, ...],
    owner: str,
    found: dict[tuple[int, str], Use],
    depth: int,
) -> None:
    """One entry of a module list: a spread list, a module class, `M.forRoot(...)`, a
    ternary between modules, `ConditionalModule.registerWhen(M, condition)`."""
    if item.type == "spread_element":
        inner = item.named_children[0] if item.named_children else None
        _list(reader, root, inner, guards, owner, found, depth + 1)
        return
    item = js_nodes.unwrap(item) or item
    if item.type == "identifier":
        line = guards[-1][1] if guards else js_nodes.line_of(item)  # the nearest condition's
        found[(item.start_byte, owner)] = (reader._text(item), _joined(guards), line, owner)
    elif item.type == "ternary_expression":
        for branch, test in _branches(reader, item):
            if branch is not None:
                _entry(reader, root, branch, (*guards, test), owner, found, depth + 1)
    elif item.type == "call_expression":
        when = _registered_when(reader, item)
        if when is not None:
            module, condition = when
            guard = (condition, js_nodes.line_of(item))
            _entry(reader, root, module, (*guards, guard), owner, found, depth + 1)
            return
        callee = js_nodes.unwrap(item.child_by_field_id(reader.fields.function))
        referred = _forward_ref(reader, item, callee)
        if referred is not None:  # `forwardRef(() => M)`: M
            _entry(reader, root, referred, guards, owner, found, depth + 1)
            return
        holder = callee.child_by_field_id(reader.fields.object) if callee is not None else None
        if callee is not None and callee.type == "member_expression" and holder is not None:
            _entry(reader, root, holder, guards, owner, found, depth + 1)  # `M.forRoot(...)`


def _forward_ref(reader: _Reader, call: _Node, callee: _Node | None) -> _Node | None:
    """The module `forwardRef(() => M)` (`@nestjs/common`) refers to; None for another call."""
    bound = reader.bindings.get(reader._text(callee)) if callee is not None else None
    if not (
        isinstance(bound, ImportRef) and bound.module == _COMMON and bound.attr == "forwardRef"
    ):
        return None
    args = reader._arguments(call)
    arrow = js_nodes.unwrap(args[0]) if args else None
    if arrow is None or arrow.type != "arrow_function":
        return None
    body = arrow.child_by_field_id(reader.fields.body)
    return body if body is not None and body.type != "statement_block" else None


def _branches(reader: _Reader, node: _Node) -> list[tuple[_Node | None, Guard]]:
    """A ternary's two branches, each with the test that chooses it."""
    test = js_nodes.unwrap(node.child_by_field_id(reader.fields.condition))
    if test is None:
        return []
    line = js_nodes.line_of(test)
    return [
        (node.child_by_field_id(reader.fields.consequence), (_test(reader, test, False), line)),
        (node.child_by_field_id(reader.fields.alternative), (_test(reader, test, True), line)),
    ]


def _test(reader: _Reader, test: _Node, negate: bool) -> Condition:
    """An `if` or ternary test as the pack reads route tests (`js_facts._Reader._test`); one
    it cannot read stays in, unknown, so the link says it cannot decide it."""
    read = reader._test(test, negate)
    text = reader._text(test)
    text = f"!({text})" if negate else text
    return Condition(Opaque(), None, negate, text) if read is None else _texted(read, text)


def _texted(condition: Condition, text: str) -> Condition:
    return Condition(
        condition.test,
        condition.equals,
        condition.negate,
        text,
        condition.in_else,
        condition.op,
        condition.parts,
    )


def _joined(guards: tuple[Guard, ...]) -> Condition | None:
    """The guards of one use as one condition (all must hold); None: unguarded."""
    if len(guards) <= 1:
        return guards[0][0] if guards else None
    text = " && ".join(f"({g.text})" for g, _ in guards)
    return Condition(Opaque(), None, False, text, op="&&", parts=tuple(g for g, _ in guards))


def _function(reader: _Reader, root: _Node, call: _Node) -> _Node | None:
    """The top-level function of the file a call names (`getOptionalImports()`): a function
    declaration or a `const` bound to an arrow or function expression."""
    callee = js_nodes.unwrap(call.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "identifier":
        return None
    name = reader._text(callee)
    for statement in root.named_children:
        if statement.type == "export_statement":
            statement = statement.child_by_field_id(reader.fields.declaration) or statement
        if statement.type == "function_declaration":
            if reader._text(statement.child_by_field_id(reader.fields.name)) == name:
                return statement
        elif statement.type in {"lexical_declaration", "variable_declaration"}:
            for declarator in statement.named_children:
                value = js_nodes.unwrap(declarator.child_by_field_id(reader.fields.value))
                own = reader._text(declarator.child_by_field_id(reader.fields.name))
                if own == name and value is not None and value.type in _FUNCTIONS:
                    return value
    return None


def _returned(
    reader: _Reader,
    root: _Node,
    function: _Node,
    guards: tuple[Guard, ...],
    owner: str,
    found: dict[tuple[int, str], Use],
    depth: int,
) -> None:
    """The lists a function returns, each under the tests that lead to its `return`: the
    `if`s around it and each earlier `if` whose body returns (`if (!on) return [];`)."""
    body = function.child_by_field_id(reader.fields.body)
    if body is None:
        return
    if body.type != "statement_block":  # `() => cfg.x ? [M] : []`
        _list(reader, root, body, guards, owner, found, depth)
        return
    _block(reader, root, body.named_children, guards, owner, found, depth)


def _block(
    reader: _Reader,
    root: _Node,
    statements: list[_Node],
    guards: tuple[Guard, ...],
    owner: str,
    found: dict[tuple[int, str], Use],
    depth: int,
) -> None:
    if depth > _MAX_DEPTH:
        return
    for statement in statements:
        if statement.type == "return_statement":
            value = statement.named_children[0] if statement.named_children else None
            _list(reader, root, value, guards, owner, found, depth + 1)
            return
        if statement.type != "if_statement":
            continue
        test = js_nodes.unwrap(statement.child_by_field_id(reader.fields.condition))
        if test is None:
            return
        line = js_nodes.line_of(statement)
        yes, no = (_test(reader, test, False), line), (_test(reader, test, True), line)
        body = _statements(statement.child_by_field_id(reader.fields.consequence))
        other = statement.child_by_field_id(reader.fields.alternative)
        _block(reader, root, body, (*guards, yes), owner, found, depth + 1)
        if other is not None:
            _block(reader, root, _statements(other), (*guards, no), owner, found, depth + 1)
        if _returns(body) and other is None:
            guards = (*guards, no)  # the rest runs only where the test fails


def _statements(node: _Node | None) -> list[_Node]:
    """A branch's statements: a block's, an `else`'s, or the one statement written bare."""
    if node is None:
        return []
    if node.type == "else_clause":
        return _statements(node.named_children[0] if node.named_children else None)
    if node.type == "statement_block":
        return [c for c in node.named_children if c.type != "comment"]
    return [node]


def _returns(statements: list[_Node]) -> bool:
    """Whether a branch always leaves the function (it ends in `return` or `throw`)."""
    return bool(statements) and statements[-1].type in {"return_statement", "throw_statement"}


def _registered_when(reader: _Reader, call: _Node) -> tuple[_Node, Condition] | None:
    """`ConditionalModule.registerWhen(M, condition)` of `@nestjs/config`: M and the test
    Nest runs on `process.env` (a variable's name: registered unless it is `'false'`)."""
    callee = js_nodes.unwrap(call.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "member_expression":
        return None
    holder = callee.child_by_field_id(reader.fields.object)
    method = reader._text(callee.child_by_field_id(reader.fields.property))
    bound = reader.bindings.get(reader._text(holder)) if holder is not None else None
    if method != "registerWhen" or not (isinstance(bound, ImportRef) and bound.module == _CONFIG):
        return None
    args = reader._arguments(call)
    if not args:
        return None
    written = " ".join(reader._text(call).split())
    if len(written) > 120:
        written = f"{reader._text(callee)}({reader._text(args[0])}, …)"
    if len(args) < 2:
        return args[0], Condition(Opaque(), None, False, written)
    given = js_nodes.unwrap(args[1]) or args[1]
    name = reader._string(given) if given.type in {"string", "template_string"} else None
    if name is not None:  # Nest: `env[key]?.toLowerCase() !== 'false'`
        return args[0], Condition(js_nodes.env_read(name), Lit("false"), True, written)
    return args[0], _texted(_predicate(reader, given) or _unknown(), written)


def _unknown() -> Condition:
    return Condition(Opaque(), None, False, "")


def _predicate(reader: _Reader, node: _Node) -> Condition | None:
    """The test a `(env) => ...` predicate makes of `process.env` (its parameter); None when
    it is no such function."""
    if node.type not in _FUNCTIONS:
        return None
    param = _parameter(reader, node)
    body = node.child_by_field_id(reader.fields.body)
    if body is not None and body.type == "statement_block":
        statements = _statements(body)
        only = statements[0] if len(statements) == 1 else None
        body = only.named_children[0] if only is not None and only.named_children else None
        if only is None or only.type != "return_statement":
            return None
    if param is None or body is None:
        return None
    return _env_test(reader, body, param, False)


def _parameter(reader: _Reader, function: _Node) -> str | None:
    """The name of a function's first parameter (`env`, `(env: Env)`)."""
    single = function.child_by_field_id(reader.fields.parameter)
    if single is not None:
        return reader._text(single)
    params = function.child_by_field_id(reader.fields.parameters)
    first = params.named_children[0] if params is not None and params.named_children else None
    if first is None:
        return None
    pattern = first.child_by_field_id(reader.fields.pattern) or first
    return reader._text(pattern) if pattern.type == "identifier" else None


def _env_test(reader: _Reader, node: _Node, param: str, negate: bool) -> Condition | None:
    """A predicate's test of `param` (`process.env`): `env.X`, `!`, `Boolean(...)`, `===`/
    `!==` a string, `&&`/`||`, and an optional chain off `env.X` (`env.X?.split(',')
    ?.includes('a')`: undefined, so false, when X is unset; not known otherwise)."""
    node = js_nodes.unwrap(node) or node
    if node.type == "unary_expression":
        operand = node.child_by_field_id(reader.fields.argument)
        operator = reader._text(node.child_by_field_id(reader.fields.operator))
        return (
            _env_test(reader, operand, param, not negate) if operator == "!" and operand else None
        )
    if node.type == "call_expression" and _is_boolean(reader, node):
        args = reader._arguments(node)
        return _env_test(reader, args[0], param, negate) if len(args) == 1 else None
    if node.type == "binary_expression":
        return _env_binary(reader, node, param, negate)
    variable = _env_name(reader, node, param)
    if variable is not None:
        return Condition(js_nodes.env_read(variable), None, negate, "")
    root = _chain_root(reader, node, param)
    if root is None:
        return None
    holds = Condition(js_nodes.env_read(root), None, False, "")
    return Condition(Opaque(), None, negate, "", op="&&", parts=(holds, _unknown()))


def _env_binary(reader: _Reader, node: _Node, param: str, negate: bool) -> Condition | None:
    operator = reader._text(node.child_by_field_id(reader.fields.operator))
    left = node.child_by_field_id(reader.fields.left)
    right = node.child_by_field_id(reader.fields.right)
    if left is None or right is None:
        return None
    if operator in {"&&", "||"}:
        parts = tuple(_env_test(reader, side, param, False) or _unknown() for side in (left, right))
        return Condition(Opaque(), None, negate, "", op=operator, parts=parts)
    if operator not in {"===", "==", "!==", "!="}:
        return None
    if left.type == "string":
        left, right = right, left
    literal = reader._string(right) if right.type == "string" else None
    variable = _env_name(reader, left, param)
    if literal is None or variable is None:
        return None
    return Condition(
        js_nodes.env_read(variable), Lit(literal), negate != operator.startswith("!"), ""
    )


def _is_boolean(reader: _Reader, call: _Node) -> bool:
    callee = call.child_by_field_id(reader.fields.function)
    return callee is not None and reader._text(callee) == "Boolean"


def _env_name(reader: _Reader, node: _Node | None, param: str) -> str | None:
    """The variable `env.X` (`env['X']`) reads, `env` being the predicate's parameter."""
    node = js_nodes.unwrap(node)
    if node is None or node.type not in {"member_expression", "subscript_expression"}:
        return None
    holder = node.child_by_field_id(reader.fields.object)
    if holder is None or holder.type != "identifier" or reader._text(holder) != param:
        return None
    if node.type == "member_expression":
        return reader._text(node.child_by_field_id(reader.fields.property)) or None
    return reader._string(node.child_by_field_id(reader.fields.index))


def _chain_root(reader: _Reader, node: _Node, param: str) -> str | None:
    """The variable an optional chain starts from (`env.X?.…`): the chain gives undefined
    where it is unset; None when `node` is no chain off `env.X` with `?.` right after it."""
    current: _Node | None = node
    while current is not None and current.type in {"call_expression", "member_expression",
                                                   "subscript_expression"}:  # fmt: skip
        variable = _env_name(reader, current, param)
        if variable is not None:
            after = reader.source[current.end_byte : current.end_byte + 2]
            return variable if after == b"?." and current is not node else None
        field = (
            reader.fields.function if current.type == "call_expression" else reader.fields.object
        )
        current = js_nodes.unwrap(current.child_by_field_id(field))
    return None


def _reads(reader: _Reader, root: _Node, names: set[str]) -> dict[str, list[int]]:
    """Where the file reads each of `names` as a value (identifiers outside `import`
    statements, types and `exports:` lists, which Nest takes only from what the module
    imports), by start byte."""
    found: dict[str, list[int]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in _NOT_READS or _exports(reader, node):
            continue
        if node.type in {"identifier", "shorthand_property_identifier"}:
            text = reader._text(node)
            if text in names:
                found.setdefault(text, []).append(node.start_byte)
        stack.extend(node.named_children)
    return found


def _exports(reader: _Reader, node: _Node) -> bool:
    """An `exports: [...]` field: a module re-exports only modules it imports."""
    if node.type != "pair":
        return False
    return reader._text(node.child_by_field_id(reader.fields.key)) == "exports"
