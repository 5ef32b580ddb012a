"""The gate-forge HTTP gateway: config, plugin pools, routes, security, metrics, CLI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .main import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """`create_app` is imported when first asked for, not with the package: `gpp --version`,
    `gpp discover` and `gpp status` never build the app, and FastAPI is most of their start."""
    if name == "create_app":
        from .main import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
