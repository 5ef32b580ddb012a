"""What the gateway runs to drive plugins: the pinned GPP/3 session, the JSON-RPC session, the
child process and its sandbox (identity, seccomp, cgroups, shims).

`__all__` is the public surface the gateway builds on (`PluginSession` and `Timeouts` where
DESIGN.md fixes them); everything else in the modules below is internal."""

from gpp.host.cgroups import CgroupUnavailable, Layout, Limits, SessionGroup
from gpp.host.cgroups import find_layout as find_cgroup_layout
from gpp.host.jsonrpc import PLUGIN_UNAVAILABLE, SERVER_ERRORS, Call, JsonRpcSession, Listener
from gpp.host.process import OFF_LOOP_BYTES, ProcessOptions
from gpp.host.rate_limit import BURST_LINES, LINES_PER_SECOND, RateLimitedLog, TokenBucket
from gpp.host.sandbox import SandboxPolicy, cgroup_layout, namespaces_available, namespaces_refusal
from gpp.host.session import PluginSession, Timeouts
from gpp.host.uids import DEFAULT_UID_RANGE
from gpp.host.uids import host_refusal as uid_range_refusal
from gpp.host.view import entry_files, own_entry_files

__all__ = [
    "BURST_LINES",
    "DEFAULT_UID_RANGE",
    "LINES_PER_SECOND",
    "OFF_LOOP_BYTES",
    "PLUGIN_UNAVAILABLE",
    "SERVER_ERRORS",
    "Call",
    "CgroupUnavailable",
    "JsonRpcSession",
    "Layout",
    "Limits",
    "Listener",
    "PluginSession",
    "ProcessOptions",
    "RateLimitedLog",
    "SandboxPolicy",
    "SessionGroup",
    "Timeouts",
    "TokenBucket",
    "cgroup_layout",
    "entry_files",
    "find_cgroup_layout",
    "namespaces_available",
    "namespaces_refusal",
    "own_entry_files",
    "uid_range_refusal",
]
