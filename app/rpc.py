"""The old home of the JSON-RPC host session and pool, kept importable.

The session now lives beside its transport, in `gpp.jsonrpc.host` (the plugin side is
`gpp.jsonrpc`), and the pool beside the GPP/3 one, as `app.pool.JsonRpcPool`.
"""

from __future__ import annotations

from gpp.jsonrpc.host import (
    PLUGIN_EXITED,
    PLUGIN_TIMED_OUT,
    PLUGIN_UNAVAILABLE,
    SERVER_ERRORS,
    Call,
    JsonRpcSession,
    Listener,
)

from .pool import JsonRpcPool

JsonRpcPlugin = JsonRpcPool

__all__ = [
    "PLUGIN_EXITED",
    "PLUGIN_TIMED_OUT",
    "PLUGIN_UNAVAILABLE",
    "SERVER_ERRORS",
    "Call",
    "JsonRpcPlugin",
    "JsonRpcPool",
    "JsonRpcSession",
    "Listener",
]
