"""Every uvicorn and Starlette member `app.server` relies on beyond their documented API.

The front door subclasses uvicorn's httptools protocol (overriding its callbacks, reading the
attributes it keeps) and `FastPath` assembles Starlette's own exception middlewares. Neither is
a public contract: uvicorn is pinned (0.55), and a bump that renames one of these must fail
loudly when `app.server` is imported, naming the member, not at the first request in
production. One row per member; `missing()` lists those not found.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, NamedTuple


class Member(NamedTuple):
    module: str
    name: str  # "Class.attribute", or "Class" / "CONSTANT"
    kind: str  # "attribute" (getattr), "instance" (assigned in the class), "parameter"

    def __str__(self) -> str:
        return f"{self.module}.{self.name} ({self.kind})"


_HTTPTOOLS = "uvicorn.protocols.http.httptools_impl"
_PROTOCOL_CALLBACKS = (
    "__init__", "connection_made", "connection_lost", "data_received", "on_message_begin",
    "on_header", "on_headers_complete", "on_body", "on_message_complete", "pause_writing",
    "resume_writing",
)  # fmt: skip
_PROTOCOL_STATE = (
    "transport",
    "loop",
    "client",
    "cycle",
    "connections",
    "parser",
    "pipeline",
    "url",
    "headers",
)

MEMBERS: tuple[Member, ...] = (
    Member("uvicorn", "Config", "attribute"),
    Member("uvicorn", "Server", "attribute"),
    *(Member("uvicorn", f"Config.{p}", "parameter")
      for p in ("http", "log_config", "access_log", "proxy_headers", "timeout_graceful_shutdown")),
    Member(_HTTPTOOLS, "STATUS_LINE", "attribute"),
    *(Member(_HTTPTOOLS, f"HttpToolsProtocol.{m}", "attribute") for m in _PROTOCOL_CALLBACKS),
    *(Member(_HTTPTOOLS, f"HttpToolsProtocol.{a}", "instance") for a in _PROTOCOL_STATE),
    *(Member(_HTTPTOOLS, f"RequestResponseCycle.{a}", "instance")
      for a in ("response_started", "response_complete")),
    Member("starlette.middleware.errors", "ServerErrorMiddleware.handler", "parameter"),
    Member("starlette.middleware.exceptions", "ExceptionMiddleware.handlers", "parameter"),
    Member("starlette.exceptions", "HTTPException.headers", "parameter"),
    Member("starlette.requests", "Request", "attribute"),
    Member("starlette.types", "ASGIApp", "attribute"),
)  # fmt: skip


def present(member: Member) -> bool:
    """Whether the installed package still has `member`."""
    try:
        owner: Any = importlib.import_module(member.module)
    except ImportError:
        return False
    *path, last = member.name.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            return False
    if member.kind == "attribute":
        return hasattr(owner, last)
    if member.kind == "parameter":
        return last in inspect.signature(owner).parameters
    source = inspect.getsource(owner)  # an attribute the class assigns to its instances
    return f"self.{last} =" in source or f"self.{last}:" in source


def missing() -> list[Member]:
    return [member for member in MEMBERS if not present(member)]


def require() -> None:
    """ImportError naming every member gone, so a framework bump fails at import."""
    gone = missing()
    if gone:
        raise ImportError(
            "app.server relies on framework members this install lacks (uvicorn or Starlette "
            "changed; see app/server/upstream.py): " + ", ".join(map(str, gone))
        )
