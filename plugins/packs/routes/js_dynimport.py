"""What a dynamic `import()` loads (ECMAScript's import call), read as a static import reads.

A server often loads its routers inside its start function: `const v1 = (await
import('./routes/v1.js')).default`, `const { default: router } = await import(path)`,
`import('./x.js').then((m) => app.use(m.default))`. The call resolves to the module's
namespace object, so the reader binds it as `import * as ns from '…'` binds one
(`ImportRef(module, None)`): its `.default` is the default export (`module.exports` of a
CommonJS module, as Node gives it), its other members the named exports, destructured or
read as members, awaited or given to `.then(callback)` (the callback's first parameter is
the namespace, destructured or not, and an arrow's expression body is the value `then`
gives). Fastify's `register(import('./routes.js'))` registers the module's default export,
as avvio takes one (a promise's or a namespace object's `default`).

The module is named by a literal specifier, or one the file spells from literals: a template
or `+` of strings and of names a block around binds to strings (`` `./routes/${VERSION}.js`
``), the file's own folder (`__dirname`, `import.meta.dirname`, `new URL('./x.js',
import.meta.url)`) joined with such parts (`path.join(__dirname, 'routes', 'v1.js')`,
`` `${__dirname}/routes/v1.js` ``), also through `pathToFileURL(…).href` and
`fileURLToPath(…)`. Any other specifier names a module the scan cannot know: the import is
`Opaque`, so nothing it may load is guessed, and a router taken from it is a finding where it
is mounted (the routers of the modules it may load stay listed, their prefix unknown).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

import tree_sitter

from . import js_scopes
from .model import Expr, ImportRef, Opaque

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node

# `import(` as a call (not `.import(`, `xImport(`): whether a file needs reading for it at all
CALLS = re.compile(rb"(?<![\w$.])import\s*\(")
_TRANSPARENT = frozenset({"parenthesized_expression", "await_expression", "as_expression",
                          "non_null_expression", "satisfies_expression"})  # fmt: skip
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_HERE = "\0"  # the importing file's folder, as `__dirname` spells it (never in a real path)
_FOLDER_NAMES = frozenset({"__dirname", "import.meta.dirname"})
_URL_PASSES = frozenset({"pathToFileURL", "fileURLToPath", "url.pathToFileURL",
                         "url.fileURLToPath"})  # fmt: skip
_MAX_PARTS = 32  # parts of a spelled specifier: past it, the specifier is not known


def is_import(reader: _Reader, node: _Node | None) -> bool:
    """Whether `node` (awaited or parenthesized) is an `import(…)` call."""
    node = _unwrap(node)
    if node is None or node.type != "call_expression":
        return False
    function = node.child_by_field_id(reader.fields.function)
    return function is not None and function.type == "import"


def value(reader: _Reader, node: _Node) -> Expr | None:
    """What a call gives when it is a dynamic import: the namespace of the module an
    `import(…)` names (`Opaque` when the specifier is not known); for `import(…).then(cb)`,
    the value of `cb`'s expression body (`m => m.default`), `Opaque` for any other callback.
    None for every other call."""
    function = node.child_by_field_id(reader.fields.function)
    if function is None:
        return None
    if function.type == "import":
        return namespace(reader, node)
    if _then_of(reader, node) is None:
        return None
    callback = _callback(reader, node)
    body = callback.child_by_field_id(reader.fields.body) if callback is not None else None
    if body is None or body.type == "statement_block":
        return Opaque()
    return reader._expr(body) or Opaque()


def namespace(reader: _Reader, call: _Node) -> Expr:
    """The namespace object `import(specifier)` resolves to, `Opaque` for a specifier the
    file does not spell."""
    args = reader._arguments(call)
    spelled = specifier(reader, args[0]) if args else None
    return ImportRef(spelled, None, reader.path) if spelled is not None else Opaque()


def specifier(reader: _Reader, node: _Node) -> str | None:
    """The module specifier `node` spells (a relative one for a path under the file's own
    folder), None when it is not known."""
    text = _spelled(reader, node, 0)
    if text is None or _HERE in text[1:]:
        return None
    if not text.startswith(_HERE):
        return text if text and not text.startswith("/") else None
    joined = posixpath.normpath("." + text[1:]) if text[1:] else "."
    if joined.startswith("/"):
        return None
    return joined if joined.startswith(".") else f"./{joined}"


def then_params(reader: _Reader, root: _Node) -> dict[int, dict[str, Expr]]:
    """The parameters of the callbacks given to `import(…).then(…)`, by the callback's node
    id: its first parameter's name the namespace, or each name an object pattern takes out of
    it (`({ default: router, users }) => …`) that member."""
    found: dict[int, dict[str, Expr]] = {}
    for match in CALLS.finditer(reader.source):
        word = root.descendant_for_byte_range(match.start(), match.start() + 6)
        while word is not None and word.type == "import":  # the keyword, then its node
            word = word.parent
        call = word
        if call is None or not is_import(reader, call):
            continue
        then = _then_call(reader, call)
        callback = _callback(reader, then) if then is not None else None
        if callback is None:
            continue
        bound = _first_param(reader, callback, namespace(reader, call))
        if bound:
            found[callback.id] = bound
    return found


def loaded(
    reader: _Reader, node: _Node, name: str, params: dict[int, dict[str, Expr]]
) -> Expr | None:
    """What the name read at `node` holds when it is a parameter of a callback given to
    `import(…).then(…)` (`then_params`), else None."""
    scopes = reader._scopes
    reached = scopes.reached(node, name) if scopes is not None else None
    if reached is None or reached[0] != js_scopes.PARAM:
        return None
    return params.get(reached[1].id, {}).get(name)


def _first_param(reader: _Reader, callback: _Node, whole: Expr) -> dict[str, Expr]:
    """The names a callback's first parameter binds, given the namespace `whole`."""
    fields = reader.fields
    first = callback.child_by_field_id(fields.parameter)
    if first is None:
        params = callback.child_by_field_id(fields.parameters)
        listed = [p for p in params.named_children if p.type != "comment"] if params else []
        first = listed[0] if listed else None
    if first is not None and first.type in {"required_parameter", "optional_parameter"}:
        first = first.child_by_field_id(fields.pattern)
    if first is None:
        return {}
    if first.type == "identifier":
        return {reader._text(first): whole}
    if first.type != "object_pattern":
        return {}
    bound: dict[str, Expr] = {}
    for item in first.named_children:
        key = local = None
        if item.type == "shorthand_property_identifier_pattern":
            key = local = reader._text(item)
        elif item.type == "pair_pattern":
            target = item.child_by_field_id(fields.value)
            if target is not None and target.type == "identifier":
                key_node = item.child_by_field_id(fields.key)
                spelled = reader._string(key_node) if key_node is not None else None
                key, local = spelled or reader._text(key_node), reader._text(target)
        if key and local:
            bound[local] = _member(whole, key)
    return bound


def _member(whole: Expr, key: str) -> Expr:
    """A member of a namespace: the export `key` (`Opaque` of an import not known)."""
    if isinstance(whole, ImportRef) and whole.attr is None:
        return ImportRef(whole.module, key, whole.origin)
    return Opaque()


def _then_of(reader: _Reader, call: _Node) -> _Node | None:
    """The import call of `import(…).then(cb)`, else None."""
    function = call.child_by_field_id(reader.fields.function)
    if function is None or function.type != "member_expression":
        return None
    if reader._text(function.child_by_field_id(reader.fields.property)) != "then":
        return None
    target = _unwrap(function.child_by_field_id(reader.fields.object))
    return target if is_import(reader, target) else None


def _then_call(reader: _Reader, call: _Node) -> _Node | None:
    """The `.then(…)` call made on an import call, else None."""
    member = call.parent
    while member is not None and member.type == "parenthesized_expression":
        member = member.parent
    then = member.parent if member is not None else None
    if member is None or then is None or member.type != "member_expression":
        return None
    return then if then.type == "call_expression" and _then_of(reader, then) is not None else None


def _callback(reader: _Reader, then: _Node) -> _Node | None:
    """The function written as the first argument of a `.then(…)` call."""
    args = reader._arguments(then)
    first = _unwrap(args[0]) if args else None
    return first if first is not None and first.type in _FUNCTIONS else None


def _spelled(reader: _Reader, node: _Node | None, depth: int) -> str | None:
    """The text a specifier expression spells, the file's own folder as `_HERE`."""
    node = _unwrap(node)
    if node is None or depth > _MAX_PARTS:
        return None
    kind = node.type
    if kind == "string":
        return reader._string(node)
    if reader._text(node) in _FOLDER_NAMES:
        return _HERE
    if kind == "template_string":
        return reader._template_text(node, lambda inner: _spelled(reader, inner, depth + 1))
    if kind == "binary_expression":
        if reader._text(node.child_by_field_id(reader.fields.operator)) != "+":
            return None
        parts = [
            _spelled(reader, node.child_by_field_id(f), depth + 1)
            for f in (reader.fields.left, reader.fields.right)
        ]
        return None if None in parts else "".join(p for p in parts if p is not None)
    if kind == "identifier":
        return reader._spelled(node)
    if kind == "member_expression":  # `pathToFileURL(p).href`, `new URL(…).pathname`
        prop = reader._text(node.child_by_field_id(reader.fields.property))
        inner = node.child_by_field_id(reader.fields.object)
        return _spelled(reader, inner, depth + 1) if prop in {"href", "pathname"} else None
    if kind == "new_expression":
        return _url(reader, node, depth)
    if kind == "call_expression":
        return _called(reader, node, depth)
    return None


def _url(reader: _Reader, node: _Node, depth: int) -> str | None:
    """`new URL('./x.js', import.meta.url)`: the file's folder joined with the path."""
    args = reader._arguments(node)
    made = reader._text(node.child_by_field_id(reader.fields.constructor))
    if made != "URL" or len(args) != 2 or reader._text(_unwrap(args[1])) != "import.meta.url":
        return None
    relative = _spelled(reader, args[0], depth + 1)
    if relative is None or _HERE in relative or not relative.startswith("."):
        return None
    return f"{_HERE}/{relative}"


def _called(reader: _Reader, node: _Node, depth: int) -> str | None:
    """`path.join(__dirname, 'routes')` (`resolve` too) of spelled parts, the file's folder
    first; `pathToFileURL(p)` and `fileURLToPath(u)` as the path they are given."""
    callee = reader._text(node.child_by_field_id(reader.fields.function))
    args = reader._arguments(node)
    if callee in _URL_PASSES and len(args) == 1:
        return _spelled(reader, args[0], depth + 1)
    if callee.rpartition(".")[2] not in {"join", "resolve"} or not args:
        return None
    parts = [_spelled(reader, a, depth + 1) for a in args]
    if None in parts or parts[0] != _HERE:
        return None
    rest = [p for p in parts[1:] if p is not None]
    if any(p.startswith("/") or _HERE in p for p in rest):
        return None  # an absolute part: `resolve` starts again there, out of the repository
    return "/".join((_HERE, *rest))


def _unwrap(node: _Node | None) -> _Node | None:
    while node is not None and node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node
