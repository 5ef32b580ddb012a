"""TypeScript's tagged templates with type arguments (`sql<Row[]>` before a template literal,
TypeScript 2.9) read by a TypeScript grammar that does not know them: the file was a
`parse-error` and every route in it lost (issue 34 item 6: readers for the syntax real code
uses). The type arguments are blanked, byte for byte, so lines and columns stay the file's;
a type names nothing the readers look for. Tried only on a file the grammar rejects, and kept
only when the blanked file then reads without an error."""

from __future__ import annotations

import re

# `<...>` right after a name, a `]` or a `)` and right before a template's backtick, nested
# up to three deep, no backtick inside, at most 400 characters at each depth (an attempt is
# bounded: a file of many `<` stays linear)
_INNER = rb"[^<>`]"
_ARGUMENTS = re.compile(
    rb"(?<=[\w$\])])<(?:"
    + _INNER
    + rb"|<(?:"
    + _INNER
    + rb"|<"
    + _INNER
    + rb"{0,400}>){0,400}>){0,400}>(?=`)"
)


def blanked(source: bytes) -> bytes:
    """`source` with each tagged template's type arguments replaced by spaces (newlines
    kept); the same bytes when it has none."""
    return _ARGUMENTS.sub(lambda m: re.sub(rb"[^\n]", b" ", m.group(0)), source)
