"""Where a JavaScript or TypeScript file loads environment files into `process.env`: dotenv's
`config()` (`require('dotenv').config({ path, override })`, `import { config } from 'dotenv'`,
a default or namespace import), `import 'dotenv/config'` / `require('dotenv/config')`, and
NestJS's `ConfigModule.forRoot({ envFilePath, ignoreEnvFile, expandVariables })` (from
`@nestjs/config`; `.env` when no path is given). Each is an `EnvLoad` the linker reads values
from (`envfiles.loaded_value`); `dotenv-expand` named in the file expands its loads' values."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import js_nodes
from .model import EnvLoad, ImportRef

if TYPE_CHECKING:
    from .js_facts import _Node, _Reader

_DOTENV = "dotenv"
_NEST_CONFIG = "@nestjs/config"
_PRELOAD = re.compile(rb"""['"]dotenv/config(?:\.js)?['"]""")
_CONFIG_CALL = re.compile(rb"\b(config|configDotenv|forRoot)\s*\(")
_PATH_JOINS = frozenset({"join", "resolve"})
_DIRNAMES = frozenset({"__dirname", "import.meta.dirname"})
_DEFAULT: tuple[tuple[str, str], ...] = (("", ".env"),)
_MAX_DEPTH = 8


def seeded(source: bytes) -> bool:
    """Whether the file may load an environment file (a cheap look at its bytes)."""
    return b"dotenv" in source or b"ConfigModule" in source


def read(reader: _Reader, root: _Node) -> list[EnvLoad]:
    """The loads the file writes, in source order."""

    expand = b"dotenv-expand" in reader.source
    found: list[tuple[int, EnvLoad]] = []
    for match in _PRELOAD.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(), match.end())
        if node is not None and node.type in {"string", "string_fragment"}:
            found.append((match.start(), EnvLoad(js_nodes.line_of(node), _DEFAULT, expand=expand)))
    for match in _CONFIG_CALL.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        call = node.parent if node is not None else None
        if call is not None and call.type == "member_expression":
            call = call.parent
        if node is None or call is None or call.type != "call_expression":
            continue
        callee = call.child_by_field_id(reader.fields.function)
        kind = _loader(reader, callee, reader._text(node))
        if kind is None:
            continue
        args = reader._arguments(call)
        options = js_nodes.unwrap(args[0]) if args else None
        load = (
            _nest(reader, call, options, expand)
            if kind == _NEST_CONFIG
            else _dotenv(reader, call, options, expand)
        )
        if load is not None:
            found.append((call.start_byte, load))
    return [load for _, load in sorted(found, key=lambda item: item[0])]


def _loader(reader: _Reader, callee: _Node | None, name: str) -> str | None:
    """`dotenv` for dotenv's `config`, `@nestjs/config` for `ConfigModule.forRoot`, else None."""
    if callee is None:
        return None
    if callee.type == "identifier":
        bound = reader.bindings.get(reader._text(callee))
        if isinstance(bound, ImportRef) and bound.module == _DOTENV and bound.attr == name:
            return _DOTENV
        return None
    if callee.type != "member_expression":
        return None
    owner = callee.child_by_field_id(reader.fields.object)
    if owner is None:
        return None
    if name == "forRoot":
        bound = reader.bindings.get(reader._text(owner))
        if isinstance(bound, ImportRef) and bound.module == _NEST_CONFIG:
            return _NEST_CONFIG if bound.attr == "ConfigModule" else None
        return None
    if reader._require(owner) == _DOTENV:  # `require('dotenv').config()`
        return _DOTENV
    bound = reader.bindings.get(reader._text(owner))
    if isinstance(bound, ImportRef) and bound.module == _DOTENV and bound.attr in {None, "default"}:
        return _DOTENV
    return None


def _dotenv(reader: _Reader, call: _Node, options: _Node | None, expand: bool) -> EnvLoad:
    """`config({ path, override })`: `path` a string or a list (dotenv 16.1: each read, the
    first value a variable is given kept unless `override`), `.env` when absent."""

    files = _DEFAULT
    imports: tuple[tuple[int, ImportRef], ...] = ()
    override = False
    if options is not None and options.type == "object":
        given = reader._field(options, "path")
        if given is not None:
            files, imports = _paths(reader, given)
        flag = js_nodes.unwrap(reader._field(options, "override"))
        override = flag is not None and flag.type == "true"
    elif options is not None:
        files = (("", ""),)  # options computed out of sight: any file
    return EnvLoad(js_nodes.line_of(call), files, override, expand, imports)


def _nest(reader: _Reader, call: _Node, options: _Node | None, expand: bool) -> EnvLoad | None:
    """`ConfigModule.forRoot({ envFilePath, ignoreEnvFile, expandVariables })`: NestJS reads
    each path in order, a variable keeping the first value a file gives it; none with
    `ignoreEnvFile: true`."""

    files = _DEFAULT
    imports: tuple[tuple[int, ImportRef], ...] = ()
    if options is not None and options.type == "object":
        ignored = js_nodes.unwrap(reader._field(options, "ignoreEnvFile"))
        if ignored is not None and ignored.type == "true":
            return None
        given = reader._field(options, "envFilePath")
        if given is not None:
            files, imports = _paths(reader, given)
        expanding = js_nodes.unwrap(reader._field(options, "expandVariables"))
        expand = expand or (expanding is not None and expanding.type in {"true", "object"})
    elif options is not None:
        files = (("", ""),)
    return EnvLoad(js_nodes.line_of(call), files, False, expand, imports)


def _paths(
    reader: _Reader, node: _Node
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[int, ImportRef], ...]]:
    """Each entry (`_path`), and the entries that are a name imported from another module
    (`envFilePath: [envFile]`), whose exported path the linker reads."""

    node = js_nodes.unwrap(node) or node
    items = (
        [c for c in node.named_children if c.type != "comment"] if node.type == "array" else [node]
    )
    imports: list[tuple[int, ImportRef]] = []
    for number, item in enumerate(items):
        item = js_nodes.unwrap(item) or item
        bound = reader.bindings.get(reader._text(item)) if item.type == "identifier" else None
        if isinstance(bound, ImportRef) and bound.attr not in {None, "default"}:
            imports.append((number, bound))
    return tuple(_path(reader, item) for item in items), tuple(imports)


def _path(reader: _Reader, node: _Node) -> tuple[str, str]:
    """(base, path) of one entry: base "file" for `path.join(__dirname, ...)`, "" for the
    working folder (a relative string, `process.cwd()`); a computed part is `*`."""

    unwrapped = js_nodes.unwrap(node) or node
    if unwrapped.type == "identifier" and reader._text(unwrapped) not in _DIRNAMES:
        found = _alternatives(reader, unwrapped, 0)  # a `const` of the file
        if found is not None and len(found) == 1:
            return found[0]
    base, parts = _pieces(reader, node, 0)
    if parts is None:
        return ("", "")
    text = "/".join(p for p in parts if p)
    return (base, text or ".env")


def _pieces(reader: _Reader, node: _Node, depth: int) -> tuple[str, list[str] | None]:

    node = js_nodes.unwrap(node) or node
    if depth > _MAX_DEPTH:
        return "", None
    if node.type == "string":
        return "", [reader._string(node) or ""]
    if node.type == "template_string":
        text = ""
        for part in node.named_children:
            if part.type == "string_fragment":
                text += reader._text(part)
            elif part.type == "template_substitution":
                text += "*"
        return "", [text]
    if (
        node.type == "binary_expression"
        and reader._text(node.child_by_field_id(reader.fields.operator)) == "+"
    ):
        left = node.child_by_field_id(reader.fields.left)
        right = node.child_by_field_id(reader.fields.right)
        if left is None or right is None:
            return "", None
        base, head = _pieces(reader, left, depth + 1)
        _, tail = _pieces(reader, right, depth + 1)
        if head is None or tail is None:
            return "", ["*"]
        return base, ["".join(head) + "".join(tail)]
    if node.type == "call_expression":
        callee = node.child_by_field_id(reader.fields.function)
        name = reader._text(callee).rpartition(".")[2]
        if reader._text(callee) == "process.cwd":
            return "", [""]
        if name in _PATH_JOINS:
            args = reader._arguments(node)
            base = ""
            parts: list[str] = []
            for number, arg in enumerate(args):
                if number == 0 and reader._text(arg) in _DIRNAMES:
                    base = "file"
                    continue
                _, pieces = _pieces(reader, arg, depth + 1)
                if pieces is None:
                    return "", ["*"]
                parts += pieces
            return base, parts
    if reader._text(node) in _DIRNAMES:
        return "file", [""]
    return "", ["*"]


# -- environment-file paths a module exports ---------------------------------------------------


def exports_paths(source: bytes) -> bool:
    """Whether the file may export an environment file's path (a cheap look at its bytes)."""
    return (b"__dirname" in source or b"process.cwd" in source) and b"export" in source


def exported_paths(reader: _Reader, root: _Node) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each exported name whose value is a path (`export const envFile = path.join(__dirname,
    '..', '.env')`, `export const { file } = locate()`, `exports.file = ...` as `tsc` compiles
    them), with the paths it may hold (`_alternatives`): what a loader importing it loads."""

    found: list[tuple[str, tuple[tuple[str, str], ...]]] = []

    def add(name: str, paths: list[tuple[str, str]] | None) -> None:
        if paths and all(path != "*" for _, path in paths):
            found.append((name, tuple(paths)))

    for statement in root.named_children:
        if statement.type == "export_statement":
            declaration = statement.child_by_field_id(reader.fields.declaration)
            if declaration is None or declaration.type not in _DECLARATIONS:
                continue
            for declarator in declaration.named_children:
                target = declarator.child_by_field_id(reader.fields.name)
                value = declarator.child_by_field_id(reader.fields.value)
                if target is None or value is None:
                    continue
                if target.type == "identifier":
                    add(reader._text(target), _alternatives(reader, value, 0))
                    continue
                for part in target.named_children if target.type == "object_pattern" else ():
                    if part.type == "shorthand_property_identifier_pattern":
                        taken, name = reader._text(part), reader._text(part)
                    elif part.type == "pair_pattern":
                        key = part.child_by_field_id(reader.fields.key)
                        bound = part.child_by_field_id(reader.fields.value)
                        if key is None or bound is None or bound.type != "identifier":
                            continue
                        taken, name = reader._text(key), reader._text(bound)
                    else:
                        continue
                    add(name, _member(reader, value, taken, {}, 0))
        elif statement.type == "expression_statement" and statement.named_children:
            expression = js_nodes.unwrap(statement.named_children[0])
            if expression is None:
                continue
            parts = (
                expression.named_children
                if expression.type == "sequence_expression"
                else [expression]
            )
            assigned: dict[str, _Node] = {}
            for part in parts:  # `exports.file = (_a = locate(), _a.file), exports.b = _a.b`
                if part.type != "assignment_expression":
                    continue
                left = part.child_by_field_id(reader.fields.left)
                right = part.child_by_field_id(reader.fields.right)
                if left is None or right is None:
                    continue
                held = _assignments(reader, right, assigned)
                text = reader._text(left)
                for head in ("exports.", "module.exports."):
                    if text.startswith(head) and "." not in text[len(head) :]:
                        add(text[len(head) :], _alternatives(reader, held, 0, assigned))
    return found


_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_EQUALS = frozenset({"===", "=="})
_DIFFERS = frozenset({"!==", "!="})


def _assignments(reader: _Reader, node: _Node, assigned: dict[str, _Node]) -> _Node:
    """`(_a = locate(), _a.file)`: the assignments of a sequence noted, its last value."""

    node = js_nodes.unwrap(node) or node
    while node.type == "sequence_expression" and node.named_children:
        for part in node.named_children[:-1]:
            part = js_nodes.unwrap(part) or part
            left = part.child_by_field_id(reader.fields.left)
            right = part.child_by_field_id(reader.fields.right)
            if part.type == "assignment_expression" and left is not None and right is not None:
                assigned[reader._text(left)] = right
        node = js_nodes.unwrap(node.named_children[-1]) or node.named_children[-1]
    return node


def _alternatives(
    reader: _Reader, node: _Node, depth: int, assigned: dict[str, _Node] | None = None
) -> list[tuple[str, str]] | None:
    """The paths a value may hold, as `EnvLoad` entries: a path expression (`_pieces`), a
    `const`/`var` of the enclosing blocks, a member of what a function of the file returns
    (`locate().file`), `test ? a : b` (the branch the configuration's defaults take where the
    test reads only `process.env` — an unset variable is undefined —, else both); None for
    anything else."""
    from .nest import _local_value

    assigned = assigned if assigned is not None else {}
    node = js_nodes.unwrap(node) or node
    if depth > _MAX_DEPTH:
        return None
    if node.type == "sequence_expression":
        return _alternatives(reader, _assignments(reader, node, assigned), depth + 1, assigned)
    if node.type == "ternary_expression":
        test = node.child_by_field_id(reader.fields.condition)
        then = node.child_by_field_id(reader.fields.consequence)
        other = node.child_by_field_id(reader.fields.alternative)
        if test is None or then is None or other is None:
            return None
        holds = _holds(reader, test, depth + 1)
        if holds is not None:
            return _alternatives(reader, then if holds else other, depth + 1, assigned)
        first = _alternatives(reader, then, depth + 1, assigned)
        second = _alternatives(reader, other, depth + 1, assigned)
        if first is None or second is None:
            return None
        return first + [p for p in second if p not in first]
    if node.type in {"identifier", "shorthand_property_identifier"}:
        if reader._text(node) in _DIRNAMES:
            return None
        value = _local_value(reader, node)
        return _alternatives(reader, value, depth + 1, assigned) if value is not None else None
    if node.type == "member_expression":
        owner = node.child_by_field_id(reader.fields.object)
        prop = node.child_by_field_id(reader.fields.property)
        if owner is None or prop is None:
            return None
        owner = js_nodes.unwrap(owner) or owner
        if owner.type == "identifier" and reader._text(owner) in assigned:
            owner = assigned[reader._text(owner)]
        return _member(reader, owner, reader._text(prop), assigned, depth + 1)
    if node.type == "call_expression" and _returned(reader, node) is not None:
        returned = _returned(reader, node)
        return _alternatives(reader, returned, depth + 1) if returned is not None else None
    if node.type not in {"string", "template_string", "binary_expression", "call_expression"}:
        return None
    base, parts = _pieces(reader, node, depth + 1)
    if parts is None or (base != "file" and not any(parts)):
        return None
    return [(base, "/".join(p for p in parts if p) or ".env")]


def _member(
    reader: _Reader, node: _Node, name: str, assigned: dict[str, _Node], depth: int
) -> list[tuple[str, str]] | None:
    """The paths `node.name` may hold: a field of the object a function of the file returns
    (`locate()` returning `{ file, config }`), or of an object literal."""

    node = js_nodes.unwrap(node) or node
    if depth > _MAX_DEPTH:
        return None
    if node.type == "call_expression":
        returned = _returned(reader, node)
        if returned is None:
            return None
        node = js_nodes.unwrap(returned) or returned
    if node.type == "identifier":
        from .nest import _local_value

        value = _local_value(reader, node)
        return _member(reader, value, name, assigned, depth + 1) if value is not None else None
    if node.type != "object":
        return None
    for pair in node.named_children:
        if pair.type == "shorthand_property_identifier" and reader._text(pair) == name:
            return _alternatives(reader, pair, depth + 1, assigned)
        if pair.type == "pair":
            key = pair.child_by_field_id(reader.fields.key)
            value = pair.child_by_field_id(reader.fields.value)
            if key is not None and value is not None and reader._text(key).strip("'\"") == name:
                return _alternatives(reader, value, depth + 1, assigned)
    return None


def _returned(reader: _Reader, call: _Node) -> _Node | None:
    """What a call of a function of the file (`function locate() {...}`, a `const` arrow)
    with no arguments returns: its body's last top-level `return`, or an arrow's body."""
    from .nest import _local_value

    callee = call.child_by_field_id(reader.fields.function)
    if callee is None or callee.type != "identifier" or reader._arguments(call):
        return None
    name = reader._text(callee)
    function: _Node | None = None
    scope = call.parent
    while scope is not None and function is None:
        if scope.type in {"program", "statement_block"}:
            for statement in scope.named_children:
                if statement.type == "export_statement":
                    statement = statement.child_by_field_id(reader.fields.declaration) or statement
                named = statement.child_by_field_id(reader.fields.name)
                if (
                    statement.type == "function_declaration"
                    and named is not None
                    and reader._text(named) == name
                ):
                    function = statement
                    break
        scope = scope.parent
    if function is None:
        value = _local_value(reader, callee)
        value = js_nodes.unwrap(value) if value is not None else None
        if value is None or value.type not in {"arrow_function", "function_expression"}:
            return None
        function = value
    body = function.child_by_field_id(reader.fields.body)
    if body is None:
        return None
    if body.type != "statement_block":
        return body  # an arrow's expression body
    returns = [c for c in body.named_children if c.type == "return_statement"]
    if not returns or not returns[-1].named_children:
        return None
    return returns[-1].named_children[0]


def _holds(reader: _Reader, node: _Node, depth: int) -> bool | None:
    """Whether a test holds under the configuration's defaults, where it reads only
    `process.env` (an unset variable: undefined, falsy, equal to no string), constants of the
    file and `!`, `&&`, `||`, `===`, `!==`; None where anything else decides it."""
    from .nest import _local_value

    node = js_nodes.unwrap(node) or node
    if depth > _MAX_DEPTH:
        return None
    text = reader._text(node)
    if node.type == "member_expression" and text.startswith("process.env."):
        return False
    if node.type == "identifier":
        value = _local_value(reader, node)
        return _holds(reader, value, depth + 1) if value is not None else None
    if node.type == "unary_expression" and text.startswith("!"):
        inner = node.child_by_field_id(reader.fields.argument)
        held = _holds(reader, inner, depth + 1) if inner is not None else None
        return None if held is None else not held
    if node.type != "binary_expression":
        return None
    operator = reader._text(node.child_by_field_id(reader.fields.operator))
    left = node.child_by_field_id(reader.fields.left)
    right = node.child_by_field_id(reader.fields.right)
    if left is None or right is None:
        return None
    if operator in {"&&", "||"}:
        first = _holds(reader, left, depth + 1)
        if first is not None and first == (operator == "||"):
            return first  # short-circuit: the right side is never run
        second = _holds(reader, right, depth + 1)
        if first is None:
            return second if second is not None and second == (operator == "||") else None
        return second
    if operator in _EQUALS | _DIFFERS:
        sides = [js_nodes.unwrap(left) or left, js_nodes.unwrap(right) or right]
        unset = [s for s in sides if reader._text(s).startswith("process.env.")]
        spelled = [s for s in sides if s.type == "string"]
        if len(unset) == 1 and len(spelled) == 1:
            return operator in _DIFFERS
    return None


def compiled_star_exports(reader: _Reader, root: _Node) -> list[ImportRef]:
    """`__exportStar(require("./env"), exports)` at the top of a module (TypeScript's CommonJS
    output for `export * from './env'`): the module whose exports it re-exports."""
    found: list[ImportRef] = []
    for statement in root.named_children:
        call = statement.named_children[0] if statement.type == "expression_statement" else None
        if call is None or call.type != "call_expression":
            continue
        callee = call.child_by_field_id(reader.fields.function)
        args = reader._arguments(call)
        if callee is None or reader._text(callee) != "__exportStar" or len(args) != 2:
            continue
        module = reader._require(args[0])
        if module is not None and reader._text(args[1]) == "exports":
            found.append(ImportRef(module, None, reader.path))
    return found
