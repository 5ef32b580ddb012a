"""The vocabulary of GPP/3: the two parties, the phases of a session, and one event per message.

Events are small frozen values in the manner of h11's `_events.py`: the connection returns them,
the adapters act on them. The rules (who sends which, when, and what it leads to) are rows of
`gpp.core.catalog.CATALOG`; adding a message type is one event class here and one row there.
"""

from __future__ import annotations

import enum
from dataclasses import FrozenInstanceError, dataclass
from typing import Any, ClassVar

from gpp.core.canonical_json import loads_strict, loads_unscreened
from gpp.core.schema import DISCOVER_PAYLOAD, Spec


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

    # Members are singletons, so identity hashes them; Enum's own __hash__ is Python code, met
    # on every frame in the catalog's transition tables.
    __hash__ = object.__hash__


# ------------------------------------------------------------------------------------ events
# Each event knows its wire type and how it maps to a payload that has passed its schema.


@dataclass(frozen=True)
class Hello:
    capabilities: tuple[str, ...]
    TYPE: ClassVar[str] = "hello"

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> Hello:
        return cls(tuple(payload["capabilities"]))

    def to_payload(self) -> dict[str, Any]:
        return {"capabilities": list(self.capabilities)}


@dataclass(frozen=True)
class _Empty:
    """A message whose payload is `{}`."""

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> Any:
        return cls()

    def to_payload(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class Ready(_Empty):
    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True)
class Shutdown(_Empty):
    TYPE: ClassVar[str] = "shutdown"


@dataclass(frozen=True)
class Bye(_Empty):
    TYPE: ClassVar[str] = "bye"


@dataclass(frozen=True)
class Discover:
    """The discover request: THE request object, from the HTTP body to the plugin's handler.

    The gateway builds it once from the body (`Discover.validated`), the pool hands it to the
    host session, the connection sends it, the plugin's connection rebuilds it from the frame,
    and a handler that opts in receives it as it is (`gpp.plugin.sdk.serve(..., request=True)`).
    A new field is one attribute here, with a default so old callers keep working, plus its
    row in the payload schema (docs/protocol-changes.md).
    """

    request_id: str
    paths: tuple[str, ...]
    TYPE: ClassVar[str] = "discover"

    @classmethod
    def validated(cls, payload: Any, schema: Spec = DISCOVER_PAYLOAD) -> Discover:
        """The request for a payload checked by `schema` (raises `Violation`), once: a connection
        sends it without checking it again. `schema` may be stricter than the frame's (the
        gateway's body schema is), never looser."""
        schema.check(payload)
        event = cls.from_payload(payload, "")
        object.__setattr__(event, "_validated", True)
        return event

    @property
    def is_validated(self) -> bool:
        """Whether `validated` built it: its payload passed the schema already."""
        return "_validated" in self.__dict__

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> Discover:
        return cls(payload["requestId"], tuple(payload["paths"]))

    def to_payload(self) -> dict[str, Any]:
        return {"requestId": self.request_id, "paths": list(self.paths)}


class Result:
    """A frozen value like the other events, written out because its document can be lazy.

    A result verified in pieces (`gpp.core.piecewise`, for large frames) carries only its canonical
    payload bytes: holding the parsed document is what that path avoids. `document` is then
    parsed from those bytes on first use, by whoever wants the dict (the gateway does not: it
    answers with the bytes).
    """

    __slots__ = ("_document", "digest", "payload_bytes", "request_id")
    TYPE: ClassVar[str] = "result"
    request_id: str
    digest: str
    payload_bytes: bytes | memoryview | None
    """The payload's canonical bytes (`requestId` included) when the frame carried them: the
    gateway sends them as the HTTP body as they are instead of encoding the document again.
    A memoryview (into the received line) for a result verified in pieces."""
    _document: dict[str, Any] | None

    def __init__(
        self,
        request_id: str,
        document: dict[str, Any] | None = None,
        digest: str = "",
        payload_bytes: bytes | memoryview | None = None,
    ) -> None:
        if document is None and payload_bytes is None:
            raise TypeError("a Result needs its document or its payload bytes")
        for name, value in (
            ("request_id", request_id),
            ("_document", document),
            ("digest", digest),
            ("payload_bytes", payload_bytes),
        ):
            object.__setattr__(self, name, value)

    @property
    def document(self) -> dict[str, Any]:
        """The result payload without `requestId`: resources, unresolved, findings, signals."""
        if self._document is not None:
            return self._document
        assert self.payload_bytes is not None  # __init__ has one or the other
        # verified canonical bytes: orjson's value is the strict parser's
        payload = loads_unscreened(self.payload_bytes)
        if payload is None:  # no orjson here
            payload = loads_strict(bytes(self.payload_bytes))
        del payload["requestId"]
        document: dict[str, Any] = payload
        object.__setattr__(self, "_document", document)
        return document

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return (self.request_id, self.digest, self.document) == (
            other.request_id,
            other.digest,
            other.document,
        )

    __hash__ = None  # type: ignore[assignment]  # the document is a dict, as in a dataclass

    def __repr__(self) -> str:
        return f"Result(request_id={self.request_id!r}, digest={self.digest!r})"

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> Result:
        document = {k: v for k, v in payload.items() if k != "requestId"}
        return cls(payload["requestId"], document, digest, payload_bytes)

    def to_payload(self) -> dict[str, Any]:
        return {"requestId": self.request_id, **self.document}


@dataclass(frozen=True)
class PluginError:
    """A request-scoped `error`: that request failed, the session goes on."""

    request_id: str
    code: str
    message: str
    TYPE: ClassVar[str] = "error"

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> PluginError:
        return cls(payload["requestId"], payload["code"], payload["message"])

    def to_payload(self) -> dict[str, Any]:
        return {"requestId": self.request_id, "code": self.code, "message": self.message}


@dataclass(frozen=True)
class SessionError:
    """An `error` without requestId: the sender gives up on the session."""

    code: str
    message: str
    TYPE: ClassVar[str] = "error"

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> SessionError:
        return cls(payload["code"], payload["message"])

    def to_payload(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


Event = Hello | Ready | Discover | Result | PluginError | SessionError | Shutdown | Bye


def payload_of(event: Event) -> tuple[str, dict[str, Any]]:
    """The (type, payload) an event is sent as."""
    return event.TYPE, event.to_payload()
