"""`gpp status`: what a running gateway says of its plugins, for a person at a terminal.

Read over the gateway's own HTTP API (`GET /plugins`), so it shows what an engine sees: per
plugin its counts, why it last failed (its last diagnostic) and its last stderr lines, whether
it failed or not (`print()` in a plugin goes there). Every value a plugin could have written
(its stderr, the version its hello announced, a diagnostic quoting its frame) is escaped for
the terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from gpp.client import find_token, is_loopback_url, loopback_transport, unix_transport

from .logs import escaped

STDERR_LINES = 3
FAILING_STATES = ("failed", "backoff")


class TokenRefused(Exception):
    """The gateway answered 401: it wants a token, and none (or another) was sent."""

    def __init__(self, sent: bool) -> None:
        super().__init__("token refused" if sent else "token required")
        self.sent = sent


def fetch(
    url: str | None, uds: Path | None, token_file: Path | None = None
) -> list[dict[str, Any]]:
    """GET /plugins from the gateway at `url` or on the Unix socket `uds`; raises TokenRefused
    on a 401, httpx.HTTPError when no gateway answers as one. The token is found as the clients
    find it; over a socket, only a listener of this user or root is sent it."""
    base = "http://localhost" if uds else (url or "http://127.0.0.1:8787")
    token = find_token(token_file, default_file=uds is not None or is_loopback_url(base))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = (
        unix_transport(str(uds))
        if uds
        else loopback_transport()  # anyone may listen on the port: only ours gets the token
        if is_loopback_url(base)
        else None
    )
    with httpx.Client(base_url=base, transport=transport, headers=headers, timeout=10) as client:
        answer = client.get("/plugins")
        if answer.status_code == 401:
            raise TokenRefused(sent=bool(token))
        answer.raise_for_status()
        plugins: list[dict[str, Any]] = answer.json()
    return plugins


def failing(plugin: dict[str, Any]) -> bool:
    """A plugin that is failed or backing off, or has failed a request since the gateway
    started (`gpp status` then exits non-zero)."""
    return plugin["state"] in FAILING_STATES or bool(plugin["failed"])


def render(plugins: list[dict[str, Any]]) -> str:
    """One line per plugin, then why it last failed, and its last words on stderr."""
    width = max((len(p["id"]) for p in plugins), default=0)
    lines = []
    for plugin in plugins:
        counts = f"served {plugin['served']}, failed {plugin['failed']}"
        if plugin.get("retryAfter"):
            counts += f", retry in {plugin['retryAfter']:.1f} s"
        lines.append(
            f"{escaped(plugin['id']):<{width}}  {escaped(plugin['version']):<8} "
            f"{plugin['protocol']:<11} {plugin['state']:<8} {counts}"
        )
        if plugin.get("lastDiagnostic"):
            lines += [f"    {escaped(line)}" for line in plugin["lastDiagnostic"].splitlines()]
        lines += [f"    stderr: {escaped(line)}" for line in plugin["recentStderr"][-STDERR_LINES:]]
    return "\n".join(lines) if lines else "no plugins registered"
