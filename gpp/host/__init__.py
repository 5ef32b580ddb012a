"""What the gateway runs to drive plugins: the pinned GPP/3 session, the JSON-RPC session, the
child process and its sandbox (identity, seccomp, cgroups, shims).

`PluginSession` and `Timeouts` are importable from here, where DESIGN.md fixes them."""

from gpp.host.session import PluginSession, Timeouts

__all__ = ["PluginSession", "Timeouts"]
