"""Hook registries (JavaScript): functions kept under a name and called later by the app's own
hook runner, `hooks.on('extra', (add) => add({ path: 'x' }))` then `hooks.emit('extra',
addRoute)`. Read here, as facts: each call that names a hook by a string first and passes
functions after it (`HookCall`), and each call a function makes of its own parameter with a
literal argument (`add({ path: 'x' })`: what a listener does with what the runner gives it).
The linker pairs them by the hook's name (`linker._hooked`): a listener's call of its
parameter is a call of each function an emit of the same hook passes in that position."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import tree_sitter

from .frameworks import JAVASCRIPT
from .model import NO_AUTH, Expr, Function, HookCall, Invocation, Lit, Namespace

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node

# a call whose first argument is a name-like string followed by more arguments: `on('x', f)`
_HOOK_CALL = re.compile(rb"\(\s*(['\"])([A-Za-z_$][\w$:.\-]*)\1\s*,")
# a name called with a literal object or string first: `add({`, `add('`
_PARAM_CALL = re.compile(rb"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(\s*[{'\"`]")
_FUNCTION_VALUES = {"arrow_function", "function_expression", "function"}
_NAMES = {"identifier", "member_expression"}
_PASSED = (Lit, Namespace)  # what a listener passes that a route is made of
_WORDS = frozenset({"require", "import", "if", "for", "while", "switch", "catch", "function"})
# methods a framework record already reads as calling the function they are given (hapi's
# `server.dependency('auth', after)`): the framework's, not a hook of the project's
_FRAMEWORK_CALLBACKS = frozenset(name for f in JAVASCRIPT for name in f.callbacks)


def read(reader: _Reader, root: _Node) -> tuple[tuple[HookCall, ...], tuple[Invocation, ...]]:
    """The file's hook calls and its calls of a parameter with a literal argument."""
    hooks: list[HookCall] = []
    for match in _HOOK_CALL.finditer(reader.source):
        call = _call_of_first(root, match.start(2), match.end(2))
        if call is None or _method(reader, call) in _FRAMEWORK_CALLBACKS:
            continue
        arguments = reader._arguments(call)
        passed: list[Expr | None] = []
        for argument in arguments[1:]:
            inner = _unwrap(argument)
            if inner.type in _FUNCTION_VALUES:
                passed.append(Function("", None, NO_AUTH, _site(inner)))
            elif inner.type in _NAMES:
                passed.append(reader._expr(inner))
            else:
                passed.append(None)
        if any(p is not None for p in passed):
            name = match.group(2).decode()
            hooks.append(HookCall(name, tuple(passed), _line(call), reader._enclosing(call)))
    calls: list[Invocation] = []
    if hooks:  # a listener is read where it is bound (written there, or a function of the file)
        for match in _PARAM_CALL.finditer(reader.source):
            name = match.group(1).decode()
            if name in reader.bindings or name in _WORDS:
                continue
            node = root.descendant_for_byte_range(match.start(1), match.end(1))
            call = node.parent if node is not None else None
            if (
                node is None
                or node.type != "identifier"
                or call is None
                or call.type != "call_expression"
                or call.child_by_field_id(reader.fields.function) != node
            ):
                continue
            param = reader._param(node, name)
            if param is None:
                continue
            args = tuple(
                value if isinstance(value := reader._value(a), _PASSED) else None
                for a in reader._arguments(call)
            )
            calls.append(Invocation(param, args, (), _line(call), None, reader._enclosing(call)))
    return tuple(hooks), tuple(calls)


def _call_of_first(root: _Node, start: int, end: int) -> _Node | None:
    """The call whose first argument is the string spanning `start`..`end`, else None."""
    node = root.descendant_for_byte_range(start, end)
    while node is not None and node.type != "string":
        node = node.parent if node.type in {"string_fragment", "'", '"'} else None
    arguments = node.parent if node is not None else None
    call = arguments.parent if arguments is not None else None
    if (
        node is None
        or arguments is None
        or arguments.type != "arguments"
        or call is None
        or call.type != "call_expression"
        or next((c for c in arguments.named_children if c.type != "comment"), None) != node
    ):
        return None
    return call


def _method(reader: _Reader, call: _Node) -> str:
    """The property a call is made through (`dependency` of `server.dependency(...)`), else ''."""
    callee = call.child_by_field_id(reader.fields.function)
    if callee is None or callee.type != "member_expression":
        return ""
    return reader._text(callee.child_by_field_id(reader.fields.property))


def _unwrap(node: _Node) -> _Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _site(node: _Node) -> str:
    return f"{node.start_point.row + 1}:{node.start_point.column}"


def _line(node: _Node) -> int:
    return node.start_point.row + 1
