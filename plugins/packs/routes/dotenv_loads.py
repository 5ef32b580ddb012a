"""Where a JavaScript or TypeScript file loads environment files into `process.env`: dotenv's
`config()` (`require('dotenv').config({ path, override })`, `import { config } from 'dotenv'`,
a default or namespace import), `import 'dotenv/config'` / `require('dotenv/config')`, and
NestJS's `ConfigModule.forRoot({ envFilePath, ignoreEnvFile, expandVariables })` (from
`@nestjs/config`; `.env` when no path is given). Each is an `EnvLoad` the linker reads values
from (`envfiles.loaded_value`); `dotenv-expand` named in the file expands its loads' values."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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
    from . import js_facts

    expand = b"dotenv-expand" in reader.source
    found: list[tuple[int, EnvLoad]] = []
    for match in _PRELOAD.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(), match.end())
        if node is not None and node.type in {"string", "string_fragment"}:
            found.append((match.start(), EnvLoad(js_facts._line(node), _DEFAULT, expand=expand)))
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
        options = js_facts._unwrap(args[0]) if args else None
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
    from . import js_facts

    files = _DEFAULT
    override = False
    if options is not None and options.type == "object":
        given = reader._field(options, "path")
        if given is not None:
            files = _paths(reader, given)
        flag = js_facts._unwrap(reader._field(options, "override"))
        override = flag is not None and flag.type == "true"
    elif options is not None:
        files = (("", ""),)  # options computed out of sight: any file
    return EnvLoad(js_facts._line(call), files, override, expand)


def _nest(reader: _Reader, call: _Node, options: _Node | None, expand: bool) -> EnvLoad | None:
    """`ConfigModule.forRoot({ envFilePath, ignoreEnvFile, expandVariables })`: NestJS reads
    each path in order, a variable keeping the first value a file gives it; none with
    `ignoreEnvFile: true`."""
    from . import js_facts

    files = _DEFAULT
    if options is not None and options.type == "object":
        ignored = js_facts._unwrap(reader._field(options, "ignoreEnvFile"))
        if ignored is not None and ignored.type == "true":
            return None
        given = reader._field(options, "envFilePath")
        if given is not None:
            files = _paths(reader, given)
        expanding = js_facts._unwrap(reader._field(options, "expandVariables"))
        expand = expand or (expanding is not None and expanding.type in {"true", "object"})
    elif options is not None:
        files = (("", ""),)
    return EnvLoad(js_facts._line(call), files, False, expand)


def _paths(reader: _Reader, node: _Node) -> tuple[tuple[str, str], ...]:
    from . import js_facts

    node = js_facts._unwrap(node) or node
    items = (
        [c for c in node.named_children if c.type != "comment"] if node.type == "array" else [node]
    )
    return tuple(_path(reader, item) for item in items)


def _path(reader: _Reader, node: _Node) -> tuple[str, str]:
    """(base, path) of one entry: base "file" for `path.join(__dirname, ...)`, "" for the
    working folder (a relative string, `process.cwd()`); a computed part is `*`."""
    base, parts = _pieces(reader, node, 0)
    if parts is None:
        return ("", "")
    text = "/".join(p for p in parts if p)
    return (base, text or ".env")


def _pieces(reader: _Reader, node: _Node, depth: int) -> tuple[str, list[str] | None]:
    from . import js_facts

    node = js_facts._unwrap(node) or node
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
