"""The `auth` signal's three values and what counts as evidence of a guard.

`required` only when a guard is identified: a library guard reached through its import
(`fastapi.security.OAuth2PasswordBearer`, `flask_login.login_required`,
`passport.authenticate`, `express-jwt`), `Security(...)`, or a dependency, decorator or
middleware whose own definition answers 401/403 or checks the user (`EVIDENCE` over its
text). `none` only when everything on the way is known and none of it guards. Anything not
visible (an import from a package not listed here, a name the scanned files do not bind) makes
`unknown`. A name alone (`loginLimiter`, `/login`) is never evidence.
"""

from __future__ import annotations

import re

from .frameworks import JAVASCRIPT, PYTHON, READ

# Verdicts, ordered so that combining what is on the way is `max`: one identified guard
# protects the route; otherwise one unknown step leaves it unknown.
NONE = 0
UNKNOWN = 1
REQUIRED = 2
VALUES = ("none", "unknown", "required")

# Library guards: module (or its submodules) -> the names that guard when used ("*": any use),
# from each framework's record (`frameworks.READ`).
GUARDS: dict[str, frozenset[str]] = {
    module: names for framework in READ for module, names in framework.guards.items()
}
# Libraries that never guard: using them leaves a chain known (a rate limiter is not a guard,
# whatever its variable is called). Wrappers among them (`express-async-handler`) still pass
# on a guard given as their argument.
NOT_GUARDS = frozenset({
    *(module for framework in READ for module in framework.not_guards),
    "functools", "typing", "pydantic", "sqlalchemy", "sqlmodel",
})  # fmt: skip


def word_alternation(parts: tuple[str, ...]) -> str:
    """`parts` as one alternation that `re` searches fast: a part starting `\\b` and a word
    character `c` is written `c(?<!\\wc)` (the same matches: a boundary before a word character
    is a non-word character, or none, before it). Every alternative then starts with a literal,
    so the search skips to the positions holding one of those first characters instead of
    trying the whole alternation at every position (17 × faster on Python sources, where it ran
    longer than `ast.parse` of the file)."""
    return "|".join(
        f"{part[2]}(?<!\\w{part[2]}){part[3:]}"
        if part.startswith("\\b") and len(part) > 2 and (part[2].isalnum() or part[2] == "_")
        else part
        for part in parts
    )


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


# A definition that answers 401/403 or checks the caller. Read over the text of a dependency,
# decorator or middleware definition only (never of a handler), so a string or comment there
# counts too: a small over-reach, in code whose very job is to wrap handlers.
# The framework-neutral part is here; each framework's record adds its own (`evidence`).
_PYTHON_EVIDENCE_PARTS = (
    r"\b40[13]\b", r"HTTP_40[13]_", r"\bUnauthorized\b", r"\bForbidden\b",
    r"\bis_authenticated\b", r"\bis_anonymous\b",
    *(part for framework in PYTHON for part in framework.evidence),
)  # fmt: skip
PYTHON_EVIDENCE = re.compile(word_alternation(_PYTHON_EVIDENCE_PARTS))
PYTHON_EVIDENCE_HEADS = literal_heads(_PYTHON_EVIDENCE_PARTS)
# The part of the evidence that turns away an anonymous caller, whatever else the request is: a
# hook run before every route (`before_request`) counts as a guard only with it (a hook that
# answers 403 to banned users, or 401 to a bad token, lets anonymous callers through).
_PYTHON_USER_CHECK_PARTS = (
    r"\bis_authenticated\b", r"\bis_anonymous\b",
    *(part for framework in PYTHON for part in framework.user_checks),
)  # fmt: skip
PYTHON_USER_CHECK = re.compile(word_alternation(_PYTHON_USER_CHECK_PARTS))
PYTHON_USER_CHECK_HEADS = literal_heads(_PYTHON_USER_CHECK_PARTS)
JS_EVIDENCE = re.compile(
    word_alternation((
        r"\b40[13]\b", r"\bUNAUTHORIZED\b", r"\bFORBIDDEN\b", r"\bUnauthorized", r"\bForbidden",
        *(part for framework in JAVASCRIPT for part in framework.evidence),
    )).encode()
)  # fmt: skip


def external_verdict(module: str, path: tuple[str, ...]) -> int:
    """The verdict on `module`'s member `path` (`("authenticate", "()")`), a library the
    scanned files do not hold: `REQUIRED` for a listed guard, `NONE` for a library that never
    guards, else `UNKNOWN`."""
    top = module
    while True:
        names = GUARDS.get(top)
        if names is not None and ("*" in names or any(p in names for p in path)):
            return REQUIRED
        if top in NOT_GUARDS:
            return NONE
        if "." not in top:
            return UNKNOWN
        top = top.rpartition(".")[0]
