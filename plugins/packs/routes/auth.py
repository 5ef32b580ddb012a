"""Whether a name says "this needs an authenticated caller".

Only names are read (`get_current_user`, `requireAuth`, `login_required`, `verify_token`,
`passport.authenticate`, `IsAuthenticated`): the scanned code is never run, so a guard named
`check` is invisible, and that is the documented limit of the `auth` signal.
"""

from __future__ import annotations

import re

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_AUTH = re.compile(r"auth|login|token|jwt|permission|current(_[a-z0-9]+)*_?user")


def says_auth(name: str) -> bool:
    """True when `name`, in snake_case, mentions auth, login, token, jwt, permission, or a
    current user (`get_current_active_superuser` too)."""
    return _AUTH.search(_CAMEL.sub("_", name).lower()) is not None
