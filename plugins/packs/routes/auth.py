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
from .heads import literal_heads

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
