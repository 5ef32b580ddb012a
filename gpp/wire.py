"""GPP/3 framing and envelopes: the one wire module, shared by the host and the plugin SDK.

Bytes in, verified (type, payload) out; (type, payload) in, frame bytes out. No IO: the
adapters feed it whatever chunks their pipes produce.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from . import codes
from .canonical_json import JSONRejected, canonical, loads_strict
from .messages import CATALOG
from .schema import describe

PROTOCOL_VERSION = 3
DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
ENVELOPE_KEYS = ("protocolVersion", "pluginId", "pluginVersion", "type", "seq", "payload", "digest")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class LineTooLong(Exception):
    def __init__(self, size: int, cap: int, head: bytes) -> None:
        super().__init__(f"line of {size}+ bytes exceeds {cap}")
        self.size = size
        self.cap = cap
        self.head = head


class LineBuffer:
    """Splits a byte stream into lines, refusing a line longer than `cap` as soon as it shows.

    The cap is enforced on the buffered, newline-less tail after every feed, so a peer that
    never sends a newline costs at most `cap` plus one read chunk of memory.
    """

    def __init__(self, cap: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self.cap = cap
        self._buffer = bytearray()
        self._scanned = 0  # bytes at the front of the buffer known to hold no newline

    def feed(self, data: bytes) -> None:
        self._buffer += data

    def next_line(self) -> bytes | None:
        """The next complete line without its newline, or None until more data arrives."""
        end = self._buffer.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._buffer)
            if len(self._buffer) > self.cap:
                raise LineTooLong(len(self._buffer), self.cap, bytes(self._buffer[:600]))
            return None
        if end > self.cap:
            raise LineTooLong(end, self.cap, bytes(self._buffer[:600]))
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._scanned = 0
        return line

    @property
    def pending(self) -> bytes:
        """A partial line left in the buffer (what was cut off at EOF)."""
        return bytes(self._buffer)


def frame_digest(message_type: str, seq: int, payload_json: bytes) -> str:
    """sha256 of canonical({"type","seq","payload"}), from the payload's canonical bytes.

    Building the outer object by hand (its keys sort payload < seq < type) means the payload,
    the only large part, is encoded once and shared with the frame itself.
    """
    hasher = hashlib.sha256(b'{"payload":')
    hasher.update(payload_json)
    hasher.update(b',"seq":%d,"type":' % seq)
    hasher.update(canonical(message_type))
    hasher.update(b"}")
    return hasher.hexdigest()


def build_frame(
    plugin_id: str, plugin_version: str, message_type: str, seq: int, payload: dict[str, Any]
) -> tuple[bytes, str]:
    """The newline-terminated frame, canonical itself, and its digest."""
    payload_json = canonical(payload)
    digest = frame_digest(message_type, seq, payload_json)
    # Canonical key order: digest payload pluginId pluginVersion protocolVersion seq type.
    line = b"".join(
        (
            b'{"digest":"',
            digest.encode(),
            b'","payload":',
            payload_json,
            b',"pluginId":',
            canonical(plugin_id),
            b',"pluginVersion":',
            canonical(plugin_version),
            b',"protocolVersion":%d,"seq":%d,"type":' % (PROTOCOL_VERSION, seq),
            canonical(message_type),
            b"}\n",
        )
    )
    return line, digest


@dataclass(frozen=True)
class Frame:
    """A received frame whose envelope, identity, seq and digest are verified."""

    message_type: str
    seq: int
    payload: Any
    digest: str


def parse_frame(line: bytes, *, frame: int, plugin_id: str, plugin_version: str, seq: int) -> Frame:
    """Verify one received line's envelope, or raise the single ProtocolError for it.

    Checks run in the order that makes the cause precise: JSON, object, version (so a GPP/2
    peer is named as such before anything else), exact keys, identity, type, seq, digest.
    """

    def fail(cls: type[codes.ProtocolError], problem: str, **fields: Any) -> codes.ProtocolError:
        return cls(problem, frame=frame, offending_frame=line, **fields)

    if not line:
        raise fail(codes.FrameJSONError, "empty line", expected="a JSON object", got="nothing")
    try:
        value = loads_strict(line)
    except JSONRejected as exc:
        raise fail(codes.FrameJSONError, f"invalid JSON: {exc.reason}") from None
    if not isinstance(value, dict):
        raise fail(
            codes.FrameJSONError,
            "not a JSON object",
            expected="object",
            got=describe(value).split(" ")[0],
        )
    message_type = value.get("type") if isinstance(value.get("type"), str) else None

    if "protocolVersion" in value and value["protocolVersion"] != PROTOCOL_VERSION:
        got = value["protocolVersion"]
        raise fail(
            codes.ProtocolVersionError,
            f"speaks GPP/{got} but this host speaks GPP/{PROTOCOL_VERSION}",
            message_type=message_type,
            field="protocolVersion",
            expected=str(PROTOCOL_VERSION),
            got=describe(got),
        )
    for key in ENVELOPE_KEYS:
        if key not in value:
            raise fail(
                codes.SchemaError,
                "missing",
                message_type=message_type,
                field=key,
                expected=_ENVELOPE_EXPECTED[key],
                got=None,
            )
    for key in value:
        if key not in _ENVELOPE_EXPECTED:
            raise fail(
                codes.SchemaError,
                "is not allowed",
                message_type=message_type,
                field=key,
                expected="no such field",
                got=describe(value[key]),
            )
    for key, pinned in (("pluginId", plugin_id), ("pluginVersion", plugin_version)):
        if value[key] != pinned:
            raise fail(
                codes.UnknownPluginError,
                "does not match the pinned plugin",
                message_type=message_type,
                field=key,
                expected=repr(pinned),
                got=describe(value[key]),
            )
    if message_type not in CATALOG:
        raise fail(
            codes.UnknownTypeError,
            "is not a GPP/3 message type",
            field="type",
            expected="one of " + " ".join(CATALOG),
            got=describe(value["type"]),
        )
    got_seq = value["seq"]
    if type(got_seq) is not int or got_seq != seq:
        problem = (
            "repeats an earlier frame"
            if type(got_seq) is int and got_seq < seq
            else ("skips ahead" if type(got_seq) is int else "has the wrong type")
        )
        raise fail(
            codes.SchemaError,
            problem,
            message_type=message_type,
            field="seq",
            expected=str(seq),
            got=describe(got_seq),
        )
    sent_digest = value["digest"]
    if type(sent_digest) is not str or not _DIGEST.fullmatch(sent_digest):
        raise fail(
            codes.SchemaError,
            "is malformed",
            message_type=message_type,
            field="digest",
            expected="64 lowercase hex digits",
            got=describe(sent_digest),
        )
    payload = value["payload"]
    try:
        payload_json = canonical(payload)
    except ValueError as exc:  # e.g. an integer outside ±(2^53-1)
        raise fail(
            codes.SchemaError,
            f"is not canonicalizable: {exc}",
            message_type=message_type,
            field="payload",
            expected="I-JSON value",
            got=describe(payload),
        ) from None
    actual = frame_digest(message_type, seq, payload_json)
    if actual != sent_digest:
        raise fail(
            codes.SchemaError,
            "does not match the frame",
            message_type=message_type,
            field="digest",
            expected=actual,
            got=sent_digest,
        )
    return Frame(message_type, seq, payload, actual)


_ENVELOPE_EXPECTED = {
    "protocolVersion": str(PROTOCOL_VERSION),
    "pluginId": "string",
    "pluginVersion": "string",
    "type": "string",
    "seq": "integer",
    "payload": "object",
    "digest": "64 lowercase hex digits",
}
