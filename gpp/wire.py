"""GPP/3 framing and envelopes: the one wire module, shared by the host and the plugin SDK.

Bytes in, verified (type, payload) out; (type, payload) in, frame bytes out. No IO: the
adapters feed it whatever chunks their pipes produce.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import codes
from .canonical_json import JSONRejected, canonical, canonical_trusted, loads_fast, loads_strict
from .messages import CATALOG
from .schema import describe

PROTOCOL_VERSION = 3
DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
ENVELOPE_KEYS = ("protocolVersion", "pluginId", "pluginVersion", "type", "seq", "payload", "digest")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class LineTooLong(Exception):
    def __init__(self, size: int, cap: int, head: bytes) -> None:
        super().__init__(f"line of {size}+ bytes exceeds {cap}")
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
    plugin_id: str,
    plugin_version: str,
    message_type: str,
    seq: int,
    payload: Any,
    *,
    trusted: bool = False,
) -> tuple[bytes, str]:
    """The newline-terminated frame, canonical itself, and its digest.

    `trusted`: the payload passed its GPP/3 schema (so it holds no floats), which lets the
    encoder skip the scans that only floats need.
    """
    payload_json = canonical_trusted(payload) if trusted else canonical(payload)
    digest = frame_digest(message_type, seq, payload_json)
    return _envelope_line(
        plugin_id, plugin_version, message_type, seq, payload_json, digest
    ), digest


def _envelope_line(
    plugin_id: str,
    plugin_version: str,
    message_type: str,
    seq: int,
    payload_json: bytes,
    digest: str,
) -> bytes:
    # Canonical key order: digest payload pluginId pluginVersion protocolVersion seq type.
    return b"".join(
        (
            b'{"digest":"', digest.encode(), b'","payload":', payload_json,
            b',"pluginId":', canonical(plugin_id),
            b',"pluginVersion":', canonical(plugin_version),
            b',"protocolVersion":%d,"seq":%d,"type":' % (PROTOCOL_VERSION, seq),
            canonical(message_type), b"}\n",
        )
    )  # fmt: skip


@dataclass(frozen=True)
class Frame:
    """A received frame whose envelope, payload and digest are verified."""

    message_type: str
    seq: int
    payload: Any
    digest: str
    payload_bytes: bytes
    """The payload's canonical bytes, as hashed for the digest: a result's HTTP body."""


PayloadCheck = Callable[[str, Any], None]
"""Raises the ProtocolError for a payload that may not arrive now (phase, schema, requestId)."""


def decode_frame(
    line: bytes,
    *,
    frame: int,
    plugin_id: str,
    plugin_version: str,
    seq: int,
    check_payload: PayloadCheck,
    receiver: str = "host",
) -> Frame:
    """Verify one received line completely, or raise the single ProtocolError for it.

    Checks run in the order that makes the cause precise: JSON, object, version (so a GPP/2
    peer is named as such before anything else), exact keys, identity, type, seq, digest form,
    then `check_payload`, then the digest itself. `receiver` ("host" or "plugin") is the
    party decoding, as named in the version diagnostic. The payload is checked before its digest
    because a payload that passed its schema holds no floats, so it encodes on the fast path.

    Parsing is orjson's where it is importable; orjson lets duplicate keys and deep nesting
    through, so the strict parser has the last word whenever the line is not exactly the
    canonical frame (which cannot hold either), and whenever any check fails.
    """
    value = loads_fast(line) if line else None
    try:
        if value is None:
            value = _strict_value(line, frame)
        result = _verify(
            line, value, frame, plugin_id, plugin_version, seq, check_payload, receiver
        )
    except codes.ProtocolError:
        _strict_value(line, frame)  # a JSON-level fault outranks what the fast parse let through
        raise
    payload_json, message_type = result
    if line + b"\n" != _envelope_line(
        plugin_id, plugin_version, message_type, seq, payload_json, value["digest"]
    ):
        _strict_value(line, frame)
    return Frame(message_type, seq, value["payload"], value["digest"], payload_json)


def _strict_value(line: bytes, frame: int) -> Any:
    if not line:
        raise codes.FrameJSONError(
            "empty line", frame=frame, expected="a JSON object", got="nothing", offending_frame=line
        )
    try:
        return loads_strict(line)
    except JSONRejected as exc:
        raise codes.FrameJSONError(
            f"invalid JSON: {exc.reason}", frame=frame, offending_frame=line
        ) from None


def _verify(
    line: bytes,
    value: Any,
    frame: int,
    plugin_id: str,
    plugin_version: str,
    seq: int,
    check_payload: PayloadCheck,
    receiver: str,
) -> tuple[bytes, str]:
    def fail(cls: type[codes.ProtocolError], problem: str, **fields: Any) -> codes.ProtocolError:
        return cls(problem, frame=frame, offending_frame=line, **fields)

    if not isinstance(value, dict):
        raise fail(
            codes.FrameJSONError,
            "not a JSON object",
            expected="object",
            got=describe(value).split(" ")[0],
        )
    message_type = value.get("type") if isinstance(value.get("type"), str) else None

    got_version = value.get("protocolVersion", PROTOCOL_VERSION)
    if type(got_version) is not int or got_version != PROTOCOL_VERSION:
        # `3.0` and `"3"` are not 3: only the integer names a version, so say what came instead
        speaks = (
            f"speaks GPP/{got_version}"
            if type(got_version) is int
            else f"is {describe(got_version)}, not an integer,"
        )
        raise fail(
            codes.ProtocolVersionError,
            f"{speaks} but this {receiver} speaks GPP/{PROTOCOL_VERSION}",
            message_type=message_type,
            field="protocolVersion",
            expected=str(PROTOCOL_VERSION),
            got=describe(got_version),
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
        if type(got_seq) is not int:
            problem = "has the wrong type"
        else:
            problem = "repeats an earlier frame" if got_seq < seq else "skips ahead"
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
    check_payload(message_type, value["payload"])
    payload_json = canonical_trusted(value["payload"])
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
    return payload_json, message_type


_ENVELOPE_EXPECTED = {
    "protocolVersion": str(PROTOCOL_VERSION),
    "pluginId": "string",
    "pluginVersion": "string",
    "type": "string",
    "seq": "integer",
    "payload": "object",
    "digest": "64 lowercase hex digits",
}
