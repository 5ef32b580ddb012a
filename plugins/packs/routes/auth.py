"""Whether a name says "this needs an authenticated caller".

Only names are read (`get_current_user`, `requireAuth`, `login_required`, `verify_token`,
`passport.authenticate`, `IsAuthenticated`): the scanned code is never run, so a guard named
`check` is invisible, and that is the documented limit of the `auth` signal.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_AUTH = re.compile(r"auth|login|token|jwt|permission|current(_[a-z0-9]+)*_?user")


def says_auth(name: str) -> bool:
    """True when `name`, in snake_case, mentions auth, login, token, jwt, permission, or a
    current user (`get_current_active_superuser` too)."""
    if len(name) > _REMEMBERED_LENGTH:  # a whole expression's text: not worth keeping
        return _mentions_auth(name)
    return _remembered(name)


def _mentions_auth(name: str) -> bool:
    return _AUTH.search(_CAMEL.sub("_", name).lower()) is not None


# A repository repeats its few guard names on every route: the regexes run once per name.
# Bounded in count and key length, since the names come from untrusted source.
_REMEMBERED_LENGTH = 200
_remembered = lru_cache(maxsize=4096)(_mentions_auth)
