"""Syntax real code uses that the tree-sitter grammars reject, rewritten byte for byte into
syntax they read (issue 34 item 6: readers for the syntax real code uses). Each form made the
whole file a `parse-error`, and every route or table in it was lost:

- TypeScript's tagged templates with type arguments (`sql<Row[]>` before a backtick, 2.9);
- import types inside type arguments (`vi.importActual<typeof import('./x')>()`,
  `Promise<import('./types').Pin[]>`), read by the grammar only outside them;
- `export type * from './x'` (5.0);
- a bare `&` in JSX text or a JSX attribute string (`<p>Terms & Conditions</p>`,
  `href="?a=1&b=2"`), which the grammars take for a character reference that never ends.

Types name nothing the readers look for, so they are blanked (spaces, or an identifier of the
same length where a type must stay one); an ampersand becomes a space. Lines and columns stay
the file's and the readers slice names from the original bytes. Each rewrite is tried only on
a file the grammar rejects, and kept only when the rewritten file then reads without an error.
"""

from __future__ import annotations

import re

import tree_sitter

# `<...>` right after a name, a `]` or a `)` and right before a template's backtick, nested
# up to three deep, no backtick inside, at most 400 characters at each depth (an attempt is
# bounded: a file of many `<` stays linear)
_INNER = rb"[^<>`]"
_TAG_ARGUMENTS = re.compile(
    rb"(?<=[\w$\])])<(?:"
    + _INNER
    + rb"|<(?:"
    + _INNER
    + rb"|<"
    + _INNER
    + rb"{0,400}>){0,400}>){0,400}>(?=`)"
)
# `import('x')` where only a type can stand: after `typeof`, or first in a type argument list
_IMPORT_TYPE = re.compile(
    rb"""(?:(?<=\btypeof)|(?<=<))(\s*)(import\([ \t]*(['"])[^'"\n]{0,400}\3[ \t]*\))"""
)
_EXPORT_TYPE_STAR = re.compile(rb"(?<=\bexport)(\s+)type(?=\s*\*)")
# how many ampersands one file may have rewritten (each costs an incremental re-parse)
_MOST_AMPERSANDS = 256


def blanked(source: bytes) -> bytes:
    """`source` with the TypeScript forms above rewritten; the same bytes when it has none."""
    source = _TAG_ARGUMENTS.sub(lambda m: _spaces(m.group(0)), source)
    source = _IMPORT_TYPE.sub(_import_type, source)
    return _EXPORT_TYPE_STAR.sub(lambda m: m.group(1) + b"    ", source)


def _spaces(text: bytes) -> bytes:
    return re.sub(rb"[^\n]", b" ", text)


def _import_type(match: re.Match[bytes]) -> bytes:
    """`import('x')` as an identifier of its length (`typeof ___`, `<___.Pin[]>` stay types)."""
    return match.group(1) + b"_" * len(match.group(2))


def ampersands_read(
    parser: tree_sitter.Parser, source: bytes, tree: tree_sitter.Tree
) -> tree_sitter.Node | None:
    """The tree of `source` once each bare `&` the grammar stops at is read as text: the
    first error starting at an ampersand that is no operator (`&&`, `&=`) is rewritten to a
    space and the file re-parsed from the edit, until no error is left (the tree) or the
    first error is something else (None)."""
    text = bytearray(source)
    for _ in range(_MOST_AMPERSANDS):
        root = tree.root_node
        if not root.has_error:
            return root
        bad = first_error(root)
        at = bad.start_byte
        if bad.is_missing or bytes(text[at - 1 if at else 0 : at + 2]).count(b"&") != 1:
            return None
        if text[at] != ord("&") or bytes(text[at + 1 : at + 2]) == b"=":
            return None  # not at an ampersand, or one of the operators `&&`, `&=`
        text[at] = ord(" ")
        row, column = bad.start_point
        tree.edit(at, at + 1, at + 1, (row, column), (row, column + 1), (row, column + 1))
        tree = parser.parse(bytes(text), tree)
    return None


def first_error(node: tree_sitter.Node) -> tree_sitter.Node:
    """The first ERROR or MISSING node below `node`, deepest first: where the grammar stopped."""
    for child in node.children:
        if child.has_error or child.is_missing or child.type == "ERROR":
            return first_error(child)
    return node
