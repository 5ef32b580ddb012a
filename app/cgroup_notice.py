"""The one line `gpp serve` says at start about plugin cgroups (issue 35, item 3): where they go,
or why there are none, what that costs, and what to do, instead of a refusal at each plugin's
first request that only a registry file could lift.

Whether a cgroup can be made is found by making one (and removing it), as a session would: the
hierarchies a host mounts say nothing of who may write them. A non-root user on a host with
cgroup v1 sees the hierarchies of root's cgroup, and every plugin start is then refused.
"""

from __future__ import annotations

import os

from gpp.host import CgroupUnavailable, Layout, Limits, SessionGroup, cgroup_layout

from .systemd_scope import ASKING

LOST = (
    "plugins run bounded per process by rlimits only (no whole-plugin memory, CPU or process "
    "bound, no freezing when idle)"
)
REFUSED = "plugins that need one are refused"
DELEGATE = (
    "start the gateway in a delegated cgroup (cgroup v2 with systemd: "
    "systemd-run --user --scope -p Delegate=yes gpp serve …), or as root"
)


def probe() -> Layout | str:
    """Where this gateway's session cgroups go, or why it cannot make one (blocking: a mkdir
    and an rmdir per hierarchy)."""
    layout = cgroup_layout()
    if isinstance(layout, str):
        return layout
    try:
        group = SessionGroup.create(layout, Limits(None, None), os.getpid())
    except CgroupUnavailable as exc:
        return str(exc)
    group.remove()
    return layout


ASKED = f"in the scope systemd delegated at the gateway's asking ({ASKING})"


def start_line(
    found: Layout | str, optional: bool, euid: int, asked: bool = False, refused: str = ""
) -> str:
    """The line, from what `probe` found; `optional`: `--cgroup optional` was given; `asked`:
    the gateway runs in the scope it asked systemd for (`app.systemd_scope`); `refused`: why
    systemd would not make one when asked."""
    if not isinstance(found, str):
        where = f", {ASKED}" if asked else ""
        return f"gpp: plugin cgroups: {found.describe()}, one per session{where}"
    if asked:
        found = f"{found}, {ASKED}"
    if refused:
        found = f"{found}; {refused}"
    if optional:
        return f"gpp: no cgroup for plugins here ({found}); --cgroup optional: {LOST}"
    way = f"{DELEGATE}, " if euid != 0 and not asked else ""
    return (
        f"gpp: no cgroup for plugins here ({found}): {REFUSED}; "
        f"{way}or `gpp serve --cgroup optional`: {LOST}"
    )
