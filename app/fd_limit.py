"""File descriptors: the budget the gateway's connections must stay within.

Every HTTP connection is a descriptor, and so is every pipe to a plugin. At a soft limit of
1024, 1,100 idle connections made accept() fail with EMFILE: new clients got a reset and
nothing was logged. So the soft limit is raised to the hard one at start (the kernel allows it
without privilege), and connections are capped below it with room kept for the plugins'
pipes, the listening socket and the log: past the cap the front door closes idle connections,
then refuses new ones with a 503 it can still write.
"""

from __future__ import annotations

import resource

RESERVED_FDS = 64
"""At least this many descriptors are kept for everything but connections."""
RESERVED_SHARE = 4
"""... or one in this many of the limit, if that is more (many plugins, many instances)."""


def raise_soft_limit() -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit; the (soft, hard) now in effect."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft and (hard == resource.RLIM_INFINITY or hard > soft):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # e.g. a hard limit above the kernel's nr_open
            return soft, hard
        soft = hard
    return soft, hard


def connection_cap(max_connections: int) -> int:
    """`max_connections`, lowered to fit the soft limit now in effect with the reserve kept."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return max_connections
    budget = soft - max(RESERVED_FDS, soft // RESERVED_SHARE)
    return max(1, min(max_connections, budget))
