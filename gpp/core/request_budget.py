"""The request budget the host tells a GPP/3 plugin: the contract's `environment.requestBudget`.

The host kills a plugin that has not answered a discover within `request_ms`; a plugin that can
stop early (the packs answer what they have read, with a `DEADLINE_REACHED` finding) needs that
figure to stop in time. It travels as one environment variable set when the plugin starts, not as
a frame field, so it costs no protocol change and reaches a plugin before its first request. Both
ends read the name from here (the host sets it, `gpp.sdk.request_budget_ms` reads it), and the
Node SDK's `requestBudgetMs` reads the same name from the JSON with the same rule.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gpp.core.canonical_json import MAX_SAFE_INTEGER

__all__ = ["REQUEST_BUDGET_VARIABLE", "request_budget_environment", "request_budget_ms"]

REQUEST_BUDGET_VARIABLE = "GPP_REQUEST_MS"
"""The contract's `environment.requestBudget.variable` (tests/core/test_contract.py checks it)."""

_DIGITS = re.compile(r"[0-9]+")


def request_budget_environment(request_ms: int) -> dict[str, str]:
    """What the host adds to a plugin's environment for a session with this `request_ms`."""
    return {REQUEST_BUDGET_VARIABLE: str(request_ms)}


def request_budget_ms(environ: Mapping[str, str] | None = None) -> int | None:
    """The host's budget for one discover, in milliseconds, or None when the host did not say.

    Only ASCII decimal digits naming 1 … 2^53−1 count (no sign, space or fraction: what `int()`
    would forgive, Node's `Number()` would read differently), so both SDKs agree on every value.
    """
    raw = (os.environ if environ is None else environ).get(REQUEST_BUDGET_VARIABLE, "")
    if not _DIGITS.fullmatch(raw):
        return None
    value = int(raw)
    return value if 1 <= value <= MAX_SAFE_INTEGER else None
