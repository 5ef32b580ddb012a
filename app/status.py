"""`gpp status`: what a running gateway says of its plugins, for a person at a terminal.

Read over the gateway's own HTTP API (`GET /plugins`), so it shows what an engine sees; a
failing plugin shows why (its last diagnostic and its last stderr lines), not only a count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from gpp.client.local_gateway import find_token, is_loopback_url
from gpp.client.uds import unix_transport

STDERR_LINES = 3


def fetch(
    url: str | None, uds: Path | None, token_file: Path | None = None
) -> list[dict[str, Any]]:
    """GET /plugins from the gateway at `url` or on the Unix socket `uds`; raises httpx.HTTPError.
    The token is found as the clients find it; over a socket, only a listener of this user or
    root is sent it."""
    base = "http://localhost" if uds else (url or "http://127.0.0.1:8787")
    token = find_token(token_file, default_file=uds is not None or is_loopback_url(base))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = unix_transport(str(uds)) if uds else None
    with httpx.Client(base_url=base, transport=transport, headers=headers, timeout=10) as client:
        answer = client.get("/plugins")
        answer.raise_for_status()
        plugins: list[dict[str, Any]] = answer.json()
    return plugins


def render(plugins: list[dict[str, Any]]) -> str:
    """One line per plugin, then for each that failed: why, and its last words on stderr."""
    width = max((len(p["id"]) for p in plugins), default=0)
    lines = []
    for plugin in plugins:
        counts = f"served {plugin['served']}, failed {plugin['failed']}"
        if plugin.get("retryAfter"):
            counts += f", retry in {plugin['retryAfter']:.1f} s"
        lines.append(
            f"{plugin['id']:<{width}}  {plugin['version']:<8} {plugin['protocol']:<11} "
            f"{plugin['state']:<8} {counts}"
        )
        if plugin.get("lastDiagnostic"):
            lines += [f"    {line}" for line in plugin["lastDiagnostic"].splitlines()]
            lines += [f"    stderr: {line}" for line in plugin["recentStderr"][-STDERR_LINES:]]
    return "\n".join(lines) if lines else "no plugins registered"
