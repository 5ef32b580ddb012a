"""The strings every match of a regular expression starts with, to look for before searching.

A search for an alternation whose alternatives start with common letters (`is_authenticated`,
`not g.user`, `request.user`) stops at every such letter of a file; a few `in` scans for the
literal heads of its alternatives are several times cheaper, and most source files hold none of
them (the route reader searched every file it parsed for its auth evidence, user checks and
unread frameworks, which cost about half of `ast.parse` of the file). Exact: a text holding no
head holds no match.
"""

from __future__ import annotations

import re

_SPECIAL = frozenset(".^$*+?{}()|[]\\")
_MAX_CLASS = 4  # a character class of at most this many characters is spelt out as heads


def literal_heads(parts: tuple[str, ...]) -> tuple[str, ...]:
    """Strings one of which starts every match of the alternation of `parts` (regular
    expressions without flags), or `()` when some part can match without a known start. Each
    part's leading literal run (after a `\\b`), a small class (`40[13]`) spelt out, a quantified
    atom left off; a head holding another is left out (finding the other finds it)."""
    heads: set[str] = set()
    for part in parts:
        found = _part_heads(part)
        if not found:
            return ()
        heads.update(found)
    return tuple(sorted(h for h in heads if not any(o != h and o in h for o in heads)))


def _part_heads(part: str) -> list[str]:
    """The heads of one part (see `literal_heads`); empty when it has none or alternates at
    its top level."""
    if _top_level_bar(part):
        return []
    heads = [""]
    at = 2 if part.startswith("\\b") else 0
    while at < len(part):
        char = part[at]
        if char == "\\" and at + 1 < len(part) and not part[at + 1].isalnum():
            options, width = [part[at + 1]], 2  # an escaped punctuation character: itself
        elif char == "[":
            spelt = _class_options(part, at)
            if spelt is None:
                break
            options, width = spelt
        elif char in _SPECIAL:
            break
        else:
            options, width = [char], 1
        after = part[at + width : at + width + 1]
        if after and after in "?*{":  # the atom may be absent
            break
        heads = [head + option for head in heads for option in options]
        if after == "+":
            break
        at += width
    return heads if all(heads) else []


def _class_options(part: str, start: int) -> tuple[list[str], int] | None:
    """The characters of the small class at `start` (`[13]`, `[\\"']`) and its width in
    `part`; None for a negated one, a range, an escape that is a set (`\\w`), or a large one."""
    options: list[str] = []
    at = start + 1
    while at < len(part) and part[at] != "]":
        char = part[at]
        if char == "\\" and at + 1 < len(part) and not part[at + 1].isalnum():
            options.append(part[at + 1])
            at += 2
            continue
        if char in "\\^-[":
            return None
        options.append(char)
        at += 1
    if at >= len(part) or not options or len(options) > _MAX_CLASS:
        return None
    return options, at + 1 - start


def _top_level_bar(part: str) -> bool:
    """Whether `part` holds a `|` outside every group and class (an alternation of its own)."""
    depth, at, in_class = 0, 0, False
    while at < len(part):
        char = part[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        at += 1
    return False


def search_gated(pattern: re.Pattern[str], heads: tuple[str, ...], text: str) -> bool:
    """Whether `pattern` matches in `text`, looking for its `heads` first: most source holds
    none of them, and a few `in` scans are several times cheaper than a search that stops at
    every character one of its alternatives starts with (`i`, `n`, `g`...)."""
    if heads and not any(head in text for head in heads):
        return False
    return pattern.search(text) is not None
