"""Flow-typed JavaScript (`// @flow`, `.js` files with type annotations) read by TypeScript's TSX
grammar: JavaScript's grammar rejects every annotation, so such a file was a `parse-error` and
each route, router and model in it lost (issue 34 item 8). TSX reads almost all of Flow's syntax
as its own (annotations, generics, `?T`, `{| |}`, `(x: T)` casts, `import type`, `declare`);
the few forms it does not are blanked first, byte for byte, so lines and columns stay those of
the file. What still fails inside a type of a file that says `@flow` is no code (a type names
nothing the readers look for), so such a tree is read; an error anywhere else is the file's."""

from __future__ import annotations

import re

import tree_sitter

# the comments and blank space a file starts with, where Flow looks for its pragma
_HEADER = re.compile(rb"(?:#![^\n]*\n)?(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_PRAGMA = re.compile(rb"@flow\b")

# Flow's own forms that TSX does not read, each replaced by spaces of the same length:
# `%checks` predicates, `+x: T` / `-x: T` variance, `opaque type T: Super = …` (the keyword
# and its supertype)
_CHECKS = re.compile(rb"%checks\b")
_VARIANCE = re.compile(rb"(?<=[{,;])(\s*)([+-])(?=[A-Za-z_$][\w$]*\s*\??:)")
_OPAQUE = re.compile(rb"\bopaque(\s+type\s+[A-Za-z_$][\w$]*(?:\s*<[^>\n]*>)?)(\s*:[^=;\n]*)?")

# nodes whose text is a type: an error inside one hides no value the readers read
_TYPE_NODES = frozenset({
    "type_alias_declaration", "interface_declaration", "type_annotation", "object_type",
    "type_parameters", "type_arguments", "ambient_declaration", "opting_type_annotation",
    "omitting_type_annotation", "asserts_annotation", "type_predicate_annotation",
})  # fmt: skip


def is_flow(source: bytes) -> bool:
    """Whether the file says `@flow` in the comments it starts with (Flow's own rule for the
    files it checks; `@noflow` is not it)."""
    header = _HEADER.match(source)
    return header is not None and _PRAGMA.search(header.group()) is not None


def blanked(source: bytes) -> bytes:
    """`source` with the Flow-only forms TSX does not read replaced by spaces."""

    def spaces(match: re.Match[bytes]) -> bytes:
        return b" " * len(match.group())

    def variance(match: re.Match[bytes]) -> bytes:
        return match.group(1) + b" "

    def opaque(match: re.Match[bytes]) -> bytes:
        supertype = match.group(2) or b""
        return b" " * len(b"opaque") + match.group(1) + b" " * len(supertype)

    if b"%checks" in source:
        source = _CHECKS.sub(spaces, source)
    if b"+" in source or b"-" in source:
        source = _VARIANCE.sub(variance, source)
    if b"opaque" in source:
        source = _OPAQUE.sub(opaque, source)
    return source


def errors_only_in_types(root: tree_sitter.Node) -> bool:
    """Whether every ERROR or MISSING node of the tree lies inside a type."""
    pending = [(root, False)]
    while pending:
        node, in_type = pending.pop()
        if not node.has_error and not node.is_missing:
            continue
        in_type = in_type or node.type in _TYPE_NODES
        if (node.is_error or node.is_missing) and not in_type:
            return False
        pending.extend((child, in_type) for child in node.children)
    return True
