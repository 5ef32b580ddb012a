"""Object keys that spell a route, `'<verb> <path>'` (the Sails.js convention many Express apps
copy: `{ 'get /api/v1/ping': { controller: ping } }`), and the lines they are written on.

A loop that splits such keys (`const [method, path] = key.split(' ')`) registers one route per
key; the linker places each where its key is written, which is where the user writes the
route. Where a table is filled from modules the pack cannot list (plugins loaded at run time),
the keys of this shape the scanned files hold are what that table may receive: the linker
lists them with a finding that names what was not read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .model import HTTP_METHODS

if TYPE_CHECKING:
    from .js_facts import _Reader

ROUTE_KEY = re.compile(
    rb"""(['"`])((?i:%s|all) +/[^'"`\s]*)\1\s*:""" % "|".join(HTTP_METHODS).encode()
)
"""A quoted object key `'<verb> /path'` followed by its colon; the tree confirms it."""


def route_keys(reader: _Reader) -> tuple[tuple[str, int], ...]:
    """Each object key of the file spelled `'<verb> /path'`, with its line (1-based), in
    source order."""
    found: list[tuple[str, int]] = []
    root = reader._root
    if root is None:
        return ()
    for match in ROUTE_KEY.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(), match.start() + 1)
        while node is not None and node.type not in {"string", "template_string"}:
            node = node.parent if node.type in {"string_fragment", "'", '"', "`"} else None
        pair = node.parent if node is not None else None
        if (
            node is None
            or pair is None
            or pair.type != "pair"
            or pair.child_by_field_id(reader.fields.key) != node
        ):
            continue  # in a comment, a string or a value: no key
        found.append((match.group(2).decode(), node.start_point.row + 1))
    return tuple(found)
