"""The GPP/3 message catalog: every message type, who sends it, when, and what it leads to.

Everything that decides a phase transition lives in `CATALOG`, in the manner of h11's
`_state.py`: the host-side and the plugin-side connection read the same table, so both parties
obey the same rules. Adding a message type is one row here and one event class.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Role(enum.Enum):
    HOST = "host"
    PLUGIN = "plugin"

    @property
    def peer(self) -> Role:
        return Role.PLUGIN if self is Role.HOST else Role.HOST


class Phase(enum.Enum):
    AWAITING_HELLO = "awaiting hello"
    AWAITING_READY = "awaiting ready"
    IDLE = "idle"
    DISCOVERING = "discover outstanding"
    SHUTTING_DOWN = "shutting down"
    CLOSED = "closed"


# ------------------------------------------------------------------------------------ events


@dataclass(frozen=True)
class Hello:
    capabilities: tuple[str, ...]


@dataclass(frozen=True)
class Ready:
    pass


@dataclass(frozen=True)
class Discover:
    request_id: str
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Result:
    request_id: str
    document: dict[str, Any] = field(repr=False)
    """The result payload without `requestId`: resources, unresolved, findings, signals."""
    digest: str = ""


@dataclass(frozen=True)
class PluginError:
    """A request-scoped `error`: that request failed, the session goes on."""

    request_id: str
    code: str
    message: str


@dataclass(frozen=True)
class SessionError:
    """An `error` without requestId: the sender gives up on the session."""

    code: str
    message: str


@dataclass(frozen=True)
class Shutdown:
    pass


@dataclass(frozen=True)
class Bye:
    pass


Event = Hello | Ready | Discover | Result | PluginError | SessionError | Shutdown | Bye


# ----------------------------------------------------------------------------------- catalog


@dataclass(frozen=True)
class MessageRule:
    sender: Role | None  # None: either party
    transitions: dict[Phase, Phase]  # phase it may arrive in -> phase it leads to


_ANY_OPEN_PHASE: dict[Phase, Phase] = {p: Phase.CLOSED for p in Phase if p is not Phase.CLOSED}

CATALOG: dict[str, MessageRule] = {
    "hello": MessageRule(Role.PLUGIN, {Phase.AWAITING_HELLO: Phase.AWAITING_READY}),
    "ready": MessageRule(Role.HOST, {Phase.AWAITING_READY: Phase.IDLE}),
    "discover": MessageRule(Role.HOST, {Phase.IDLE: Phase.DISCOVERING}),
    "result": MessageRule(Role.PLUGIN, {Phase.DISCOVERING: Phase.IDLE}),
    "error": MessageRule(Role.PLUGIN, {Phase.DISCOVERING: Phase.IDLE}),
    "shutdown": MessageRule(Role.HOST, {Phase.IDLE: Phase.SHUTTING_DOWN}),
    "bye": MessageRule(Role.PLUGIN, {Phase.SHUTTING_DOWN: Phase.CLOSED}),
}
FATAL_ERROR = MessageRule(None, _ANY_OPEN_PHASE)
"""`error` without requestId: session-fatal, from either side, in any open phase."""

MESSAGE_TYPES = tuple(CATALOG)


def rule_for(message_type: str, payload: Any) -> MessageRule:
    if message_type == "error" and isinstance(payload, dict) and "requestId" not in payload:
        return FATAL_ERROR
    return CATALOG[message_type]


def event_from(message_type: str, payload: dict[str, Any], digest: str) -> Event:
    """Build the event for a payload that has already passed its schema."""
    if message_type == "hello":
        return Hello(tuple(payload["capabilities"]))
    if message_type == "ready":
        return Ready()
    if message_type == "discover":
        return Discover(payload["requestId"], tuple(payload["paths"]))
    if message_type == "result":
        document = {k: v for k, v in payload.items() if k != "requestId"}
        return Result(payload["requestId"], document, digest)
    if message_type == "error":
        if "requestId" in payload:
            return PluginError(payload["requestId"], payload["code"], payload["message"])
        return SessionError(payload["code"], payload["message"])
    if message_type == "shutdown":
        return Shutdown()
    return Bye()


def payload_of(event: Event) -> tuple[str, dict[str, Any]]:
    """The (type, payload) an event is sent as."""
    if isinstance(event, Hello):
        return "hello", {"capabilities": list(event.capabilities)}
    if isinstance(event, Ready):
        return "ready", {}
    if isinstance(event, Discover):
        return "discover", {"requestId": event.request_id, "paths": list(event.paths)}
    if isinstance(event, Result):
        return "result", {"requestId": event.request_id, **event.document}
    if isinstance(event, PluginError):
        return "error", {
            "requestId": event.request_id,
            "code": event.code,
            "message": event.message,
        }
    if isinstance(event, SessionError):
        return "error", {"code": event.code, "message": event.message}
    if isinstance(event, Shutdown):
        return "shutdown", {}
    return "bye", {}
