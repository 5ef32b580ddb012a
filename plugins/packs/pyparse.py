"""`ast.parse` of a file the scanner has decoded, fed the way it parses fastest, and able to read
Python written for a newer interpreter than the one running.

`ast.parse` of a str encodes it to UTF-8 before tokenizing; given bytes it skips that, about
5 % of the parse on a typical module. The two agree whenever decoding cannot differ: the text is
ASCII (so its bytes are its UTF-8) and its first two lines, where PEP 263 lets a coding cookie
sit, do not say `coding` (a cookie would make the bytes decode as declared, while the scanner
has already decided on UTF-8). Anything else is parsed as the str it is.

Newer syntax: the gateway runs CPython 3.11, and valid 3.12 code (PEP 695 `def f[T](x: T)`,
`class C[T]`, `type X = int`; PEP 701 f-strings whose replacement fields reuse the string's quote,
hold a backslash or a comment) and 3.14's unparenthesised `except A, B:` (PEP 758) are
SyntaxErrors to it. Only when `ast.parse` fails, the file is
parsed by tree-sitter-python (when importable: a pack run by a bare stdlib interpreter keeps
3.11's error) (a grammar of current Python); if that finds no error, the newer
constructs are rewritten into 3.11 text on the same lines — type parameters blanked, `type X =`
made `X =`, an f-string field that 3.11 cannot hold replaced by a name of the same length (its
value was not a literal a reader could use), `except A, B:` parenthesised — and that is parsed. Where even that fails, the
SyntaxError says which interpreter could not read the file.
"""

from __future__ import annotations

import ast
import platform
import sys
from typing import Any

from . import py_runtime

_NEWER_THAN = f"Python {platform.python_version()}"


def parse_python(source: str, path: str) -> ast.Module:
    """`ast.parse(source, filename=path)`, with the same tree and the same errors for what
    this interpreter reads; newer syntax read as described above; read as it runs
    (`py_runtime`: `match` statements as `if` chains, `if TYPE_CHECKING:` blocks not run)."""
    tree = _parsed(source, path)
    return py_runtime.as_run(tree) if py_runtime.may_change(source) else tree


def _parsed(source: str, path: str) -> ast.Module:
    try:
        return _parse(source, path)
    except SyntaxError as error:
        if sys.version_info >= (3, 14):  # reads all the syntax rewritten here
            raise
        rewritten = older_syntax(source)
        if rewritten is None:  # not valid current Python either: the interpreter's error
            raise
        try:
            return _parse(rewritten, path)
        except SyntaxError:
            error.msg = f"{error.msg} (valid newer Python that {_NEWER_THAN} cannot read)"
            raise error from None


def _parse(source: str, path: str) -> ast.Module:
    if source.isascii():  # O(1): a str knows whether it is ASCII
        data = source.encode("ascii")
        second_line_end = data.find(b"\n", data.find(b"\n") + 1)
        head = data if second_line_end < 0 else data[:second_line_end]
        if b"coding" not in head:
            return ast.parse(data, filename=path)
    return ast.parse(source, filename=path)


_parser: Any = None


def older_syntax(source: str) -> str | None:
    """`source` with its 3.12 constructs rewritten for 3.11 on the same lines, or None when
    tree-sitter-python finds an error in it (then it is not newer Python, only broken) or
    there is nothing newer in it to rewrite."""
    global _parser
    if _parser is None:
        try:
            import tree_sitter
            import tree_sitter_python
        except ImportError:  # a bare interpreter (`python -S`, no gateway venv): 3.11 only
            _parser = False
        else:
            _parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    if _parser is False:
        return None
    data = source.encode("utf-8", "surrogatepass")
    root = _parser.parse(data).root_node
    if root.has_error:
        return None
    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement) in bytes
    pending = [root]
    while pending:
        node = pending.pop()
        kind = node.type
        if kind == "type_parameter" and _blanked(node):
            edits.append(_blank(data, node.start_byte, node.end_byte))
            continue
        if kind in ("except_clause", "except_group_clause"):
            # PEP 758 (3.14): `except A, B:` catches either, as `except (A, B):` does
            caught = node.children_by_field_name("value")
            if len(caught) > 1:
                edits.append((caught[0].start_byte, caught[0].start_byte, b"("))
                edits.append((caught[-1].end_byte, caught[-1].end_byte, b")"))
        if kind == "type_alias_statement":
            keyword, name = node.children[0], node.children[1]
            edits.append((keyword.start_byte, name.start_byte, b""))
        if kind == "string" and node.children:
            quote = _quote(data[node.children[0].start_byte : node.children[0].end_byte])
            if quote is not None:
                for field in node.children:
                    if field.type == "interpolation":
                        edits += _field_edits(data, field, quote)
        pending.extend(reversed(node.children))
    if not edits:  # nothing newer to rewrite: whatever 3.11 refused is its own error
        return None
    kept: list[tuple[int, int, bytes]] = []
    for edit in sorted(edits):
        if not kept or edit[0] >= kept[-1][1]:  # one inside a replaced field goes with it
            kept.append(edit)
    for start, end, replacement in reversed(kept):
        data = data[:start] + replacement + data[end:]
    return data.decode("utf-8", "surrogatepass")


def _blanked(node: Any) -> bool:
    """Whether the type parameters `node` are PEP 695's (of a def, a class, or an alias's
    name), not a subscript in an annotation (`list[T]`)."""
    parent = node.parent
    if parent is None:
        return False
    return parent.type in ("function_definition", "class_definition") or (
        parent.type == "generic_type" and _in_alias_name(node)
    )


def _in_alias_name(node: Any) -> bool:
    """Whether the type parameters `node` are those of a `type X[T] = …` alias's name."""
    generic = node.parent
    return (
        generic.parent is not None
        and generic.parent.parent is not None
        and (
            generic.parent.parent.type == "type_alias_statement"
            and generic.parent.start_byte == generic.parent.parent.children[1].start_byte
        )
    )


def _blank(data: bytes, start: int, end: int) -> tuple[int, int, bytes]:
    """Spaces in place of `data[start:end]`, its line breaks kept."""
    return start, end, bytes(b if b in b"\r\n" else 0x20 for b in data[start:end])


def _quote(opening: bytes) -> bytes | None:
    """The quote of an f-string given its opening (`f"`, `rf'''`…), None for other strings."""
    prefix = opening.rstrip(b"'\"").lower()
    return opening[len(prefix) :] if b"f" in prefix else None


def _field_edits(data: bytes, field: Any, quote: bytes) -> list[tuple[int, int, bytes]]:
    """A replacement field 3.11 cannot hold (it reuses the quote, holds a backslash or a
    comment, or breaks a line in a one-line string) becomes `{___}`: its value is lost, but
    nothing a reader resolves lives in such an expression."""
    edits: list[tuple[int, int, bytes]] = []
    whole = data[field.start_byte : field.end_byte]
    if len(quote) == 1 and (b"\n" in whole or b"\r" in whole):
        # a line break anywhere in the field of a one-line string (`f"{` then the expression
        # on the next line): the field becomes `{___}`, its breaks escaped after it, in the
        # string's text, so the lines below keep their numbers
        breaks = whole.count(b"\n") or whole.count(b"\r")
        width = max(1, len(whole.split(b"\n")[0].strip(b"{ \t\r")))
        return [(field.start_byte, field.end_byte, b"{" + b"_" * width + b"}" + b"\\\n" * breaks)]
    expression = []
    for child in field.children:
        if child.type == "format_specifier":
            for inner in child.children:
                if inner.type == "format_expression":
                    edits += _field_edits(data, inner, quote)
        elif child.type not in ("{", "}", "type_conversion", "="):
            expression.append(child)
    if not expression:
        return edits
    start, end = expression[0].start_byte, expression[-1].end_byte
    text = data[start:end]
    if quote[:1] in text or b"\\" in text or b"#" in text:
        edits.append((start, end, _name_like(text)))
    return edits


def _name_like(text: bytes) -> bytes:
    """A name as long as `text` on its first line, its line breaks kept after it (in a
    triple-quoted string those are allowed, and they keep the lines below in place)."""
    breaks = text.count(b"\n")
    width = max(1, len(text.split(b"\n")[0]))
    return b"_" * width + b"\n" * breaks
