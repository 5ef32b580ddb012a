"""The attacker of hole 7: swaps a checked file for a symlink before the plugin reads it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def then_swap(check: Callable[..., Any], victim: Path, secret: Path) -> Callable[..., Any]:
    """`check`, after which `victim` is replaced by a symlink to `secret` (the race, won)."""

    def checked_then_swapped(*args: Any) -> Any:
        result = check(*args)
        victim.unlink()
        os.symlink(secret, victim)
        return result

    return checked_then_swapped
