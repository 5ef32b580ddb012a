"""The sans-IO GPP/3 connection: one class for both parties, parameterized by role.

Feed it the bytes read from the peer and pull events; hand it events and write the bytes it
returns. It never touches a pipe, a process or a clock, so the asyncio host, the blocking SDK
and the tests all drive the very same checks.
"""

from __future__ import annotations

from typing import Any

from gpp.core import codes
from gpp.core.catalog import CATALOG, MessageRule, RequestPart, rule_for, sendable
from gpp.core.envelope import Frame, build_frame, decode_frame, verify_digest
from gpp.core.framing import DEFAULT_MAX_LINE_BYTES, LineBuffer, LineTooLong
from gpp.core.messages import Event, Phase, Result, Role, payload_of
from gpp.core.piecewise import PIECEWISE_FROM_BYTES, verify_result
from gpp.core.schema import Violation


class UsageError(RuntimeError):
    """The local side called the connection out of turn: a bug in the adapter, not the peer."""


class Connection:
    """One GPP/3 session seen from `role`. Any ProtocolError closes it for good (fail-closed)."""

    def __init__(
        self,
        role: Role,
        plugin_id: str,
        plugin_version: str,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ) -> None:
        self.role = role
        self._peer = role.peer  # Enum member attributes are Python-level lookups: once here
        self._receiver = role.value
        self.plugin_id = plugin_id
        self.plugin_version = plugin_version
        self.phase = Phase.AWAITING_HELLO
        self.frames_received = 0
        self.frames_sent = 0
        self.outstanding: str | None = None  # requestId of the discover awaiting its answer
        self.error: codes.ProtocolError | None = None
        self.last_frame: bytes | None = None  # the last line received, as sent
        self._lines = LineBuffer(max_line_bytes)
        self.piecewise_from_bytes = PIECEWISE_FROM_BYTES
        """Received lines from this size on are tried as a result verified in pieces."""
        self._eof = False

    # ------------------------------------------------------------------------------ receiving

    def receive_data(self, data: bytes) -> None:
        """Bytes read from the peer; `b""` means its stream ended."""
        if data:
            self._lines.feed(data)
        else:
            self._eof = True

    def next_event(self) -> Event | None:
        """The next verified event from the peer, or None until more data is fed.

        Raises the ProtocolError for the first fault, and from then on the same one.
        """
        if self.error is not None:
            raise self.error
        try:
            return self._next_event()
        except codes.ProtocolError as exc:
            self._fail(exc)
            raise

    def _next_event(self) -> Event | None:
        frame_no = self.frames_received + 1
        try:
            line = self._lines.next_line()
        except LineTooLong as exc:
            raise codes.FrameJSONError(
                "line exceeds max_line_bytes",
                frame=frame_no,
                expected=f"at most {exc.cap} bytes",
                got=f"more than {exc.cap} bytes",
                offending_frame=exc.head,
            ) from None
        if line is None:
            if self._eof and self.awaiting_peer:
                partial = self._lines.pending
                raise codes.UnexpectedEOFError(
                    "output ended mid-frame"
                    if partial
                    else f"output ended before the expected frame ({self.phase.value})",
                    frame=frame_no,
                    expected="a complete frame",
                    got="EOF",
                    offending_frame=partial or None,
                )
            return None
        self.frames_received = frame_no
        self.last_frame = line
        if len(line) >= self.piecewise_from_bytes:
            event = self._accept_in_pieces(line, frame_no)
            if event is not None:
                return event
        frame = self._decode(line, frame_no, strict=False)
        try:
            return self._accept(frame)
        except codes.ProtocolError:
            if frame.strict:
                raise
            # the fast parse may have let a JSON fault through or read a number as a float:
            # the strict parser's value has the last word on a frame that failed
            return self._accept(self._decode(line, frame_no, strict=True))

    def _accept_in_pieces(self, line: bytes, frame_no: int) -> Result | None:
        """A large result verified without holding its parsed payload (`gpp.core.piecewise`), or
        None: then the full path judges the line, and names its fault if it has one."""
        rule = CATALOG[Result.TYPE]
        if rule.sender is not self._peer or self.phase not in rule.transitions:
            return None
        verified = verify_result(
            line,
            frame=frame_no,
            plugin_id=self.plugin_id,
            plugin_version=self.plugin_version,
            request_id=self.outstanding,
        )
        if verified is None:
            return None
        event = Result(verified.request_id, None, verified.digest, verified.payload_bytes)
        self._advance(rule, {"requestId": verified.request_id})
        return event

    def _decode(self, line: bytes, frame_no: int, *, strict: bool) -> Frame:
        return decode_frame(
            line,
            frame=frame_no,
            plugin_id=self.plugin_id,
            plugin_version=self.plugin_version,
            receiver=self._receiver,
            strict=strict,
        )

    def _accept(self, frame: Frame) -> Event:
        """Judge a decoded frame by its catalog row, then its digest; only then change state."""
        rule = rule_for(frame.message_type, frame.payload)
        if rule.sender is self.role:
            wrong = f"is sent by the {self.role.value}, not the {self.role.peer.value}"
        elif self.phase not in rule.transitions:
            wrong = f"arrived in the wrong phase ({self.phase.value})"
        else:
            wrong = None
        if wrong is not None:
            raise frame.fault(
                codes.SchemaError,
                wrong,
                field="type",
                expected=self.allowed_from_peer(),
                got=frame.message_type,
            )
        try:
            rule.payload.check(frame.payload)
        except Violation as exc:
            raise frame.fault(
                codes.SchemaError,
                exc.problem,
                field=_payload_field(exc.field),
                expected=exc.expected,
                got=exc.got,
            ) from None
        if rule.request is RequestPart.ANSWERS and frame.payload["requestId"] != self.outstanding:
            raise frame.fault(
                codes.SchemaError,
                "answers another request",
                field="payload.requestId",
                expected=repr(self.outstanding),
                got=repr(frame.payload["requestId"]),
            )
        payload_bytes = verify_digest(frame)
        event = rule.event.from_payload(frame.payload, frame.digest, payload_bytes)
        self._advance(rule, frame.payload)
        return event

    @property
    def partial_frame(self) -> bytes:
        """Bytes of a frame begun but not finished (for timeout and EOF diagnostics)."""
        return self._lines.pending

    @property
    def awaiting_peer(self) -> bool:
        """Whether the protocol expects a frame from the peer now (so EOF is a fault)."""
        return bool(self.allowed_from_peer())

    def allowed_from_peer(self) -> str:
        """The message types the peer may send in this phase, for diagnostics."""
        return " or ".join(sendable(self.role.peer, self.phase))

    # -------------------------------------------------------------------------------- sending

    def send(self, event: Event) -> bytes:
        """The frame bytes for a local event. A payload that breaks its schema raises
        InvalidRequestError before anything changes: the session stays usable.

        A request built by `Discover.validated` passed its schema where it was built (the
        gateway, from the HTTP body), so it is not checked a second time here."""
        if self.error is not None:
            raise UsageError(f"session is closed: {self.error.fail_line()}")
        message_type, payload = payload_of(event)
        rule = rule_for(message_type, payload)
        if rule.sender is self._peer:
            raise UsageError(f"a {self.role.value} does not send {message_type}")
        if self.phase not in rule.transitions:
            raise UsageError(f"cannot send {message_type} while {self.phase.value}")
        frame_no = self.frames_sent + 1
        try:
            if not getattr(event, "is_validated", False):
                rule.payload.check(payload)
        except Violation as exc:
            raise codes.InvalidRequestError(
                exc.problem,
                frame=frame_no,
                message_type=message_type,
                field=_payload_field(exc.field),
                expected=exc.expected,
                got=exc.got,
            ) from None
        if rule.request is RequestPart.ANSWERS and payload["requestId"] != self.outstanding:
            raise UsageError(
                f"answer to {payload['requestId']!r} while {self.outstanding!r} is open"
            )
        line, _ = build_frame(
            self.plugin_id, self.plugin_version, message_type, frame_no, payload, trusted=True
        )
        self.frames_sent = frame_no
        self._advance(rule, payload)
        return line

    def send_fatal(self, code: str, message: str) -> bytes:
        """A session-fatal `error` frame, sendable in any phase, even after a receive fault:
        it is how a party tells its peer why it is leaving."""
        frame_no = self.frames_sent + 1
        line, _ = build_frame(
            self.plugin_id,
            self.plugin_version,
            "error",
            frame_no,
            {"code": code, "message": message},
        )
        self.frames_sent = frame_no
        self.phase = Phase.CLOSED
        return line

    def _advance(self, rule: MessageRule, payload: dict[str, Any]) -> None:
        """The phase a message leads to, and the request it leaves outstanding."""
        self.phase = rule.transitions[self.phase]
        self.outstanding = payload["requestId"] if rule.request is RequestPart.OPENS else None

    def _fail(self, error: codes.ProtocolError) -> None:
        self.error = error
        self.phase = Phase.CLOSED


def _payload_field(field: str) -> str:
    return f"payload.{field}" if field else "payload"
