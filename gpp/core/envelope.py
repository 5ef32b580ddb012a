"""GPP/3 envelopes: build a frame, and decode and verify a received one. Shared by host and SDK.

A received line is judged in two steps, so that each fault gets its precise cause:
`decode_frame` parses it and checks the envelope against `ENVELOPE`, one row per field; the
connection then judges the payload against the catalog (phase, schema, requestId); last,
`verify_digest` checks the digest over the payload that passed. A payload that passed its schema
holds no floats, so it is encoded for the digest on the fast path.

Parsing is orjson's, once per frame, where it is importable. orjson lets duplicate keys, deep
nesting and integers past 64 bits through (the last as floats), so the strict parser has the
last word whenever the line is not exactly the canonical frame (which can hold none of them)
and whenever a check fails: the fault is then judged again on the strict parser's value.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from gpp.core import codes
from gpp.core.canonical_json import (
    JSONRejected,
    UnsafeInteger,
    canonical,
    canonical_trusted,
    loads_strict,
    loads_unscreened,
)
from gpp.core.catalog import CATALOG
from gpp.core.schema import describe

PROTOCOL_VERSION = 3
ENVELOPE_KEYS = ("protocolVersion", "pluginId", "pluginVersion", "type", "seq", "payload", "digest")
_DIGEST = re.compile(r"[0-9a-f]{64}")

_SMALL_PAYLOAD = 1 << 14
"""A received frame with a payload up to this many bytes is compared with its canonical frame
built whole; a larger one in place, without copying it."""

_canonical_name = functools.lru_cache(maxsize=256)(canonical)
"""The canonical bytes of a name that every frame repeats: the plugin id and version (pinned
per session) and the message type (from the catalog). Nothing else is cached: only names that
already passed their envelope check, or that the local side sends, come here."""

# ------------------------------------------------------------------------------------ build


def frame_digest(message_type: str, seq: int, payload_json: bytes | memoryview) -> str:
    """sha256 of canonical({"type","seq","payload"}), from the payload's canonical bytes.

    Building the outer object by hand (its keys sort payload < seq < type) means the payload,
    the only large part, is encoded once and shared with the frame itself.
    """
    hasher = hashlib.sha256(b'{"payload":')
    hasher.update(payload_json)
    hasher.update(b',"seq":%d,"type":' % seq)
    hasher.update(_canonical_name(message_type))
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
    line = b'{"digest":"%b","payload":%b%b%d,"type":%b}\n' % (
        digest.encode(),
        payload_json,
        _pinned_middle(plugin_id, plugin_version),
        seq,
        _canonical_name(message_type),
    )
    return line, digest


def envelope_around_payload(
    plugin_id: str, plugin_version: str, message_type: str, seq: int, digest: str
) -> tuple[bytes, bytes]:
    """The canonical frame's bytes before and after its payload: what a received line must
    start and end with to be the canonical frame (the payload aside)."""
    # Canonical key order: digest payload pluginId pluginVersion protocolVersion seq type.
    head = b'{"digest":"%b","payload":' % digest.encode()
    tail = b'%b%d,"type":%b}' % (
        _pinned_middle(plugin_id, plugin_version),
        seq,
        _canonical_name(message_type),
    )
    return head, tail


@functools.lru_cache(maxsize=256)
def _pinned_middle(plugin_id: str, plugin_version: str) -> bytes:
    """The canonical frame's bytes from the payload's end to the seq's value: the same for
    every frame of a session (cached like `_canonical_name`, and for the same callers)."""
    return b',"pluginId":%b,"pluginVersion":%b,"protocolVersion":%d,"seq":' % (
        _canonical_name(plugin_id),
        _canonical_name(plugin_version),
        PROTOCOL_VERSION,
    )


# ------------------------------------------------------------------------- envelope checks


class Pinned(NamedTuple):
    """What a received envelope must match: the session's pins and the frame's number."""

    plugin_id: str
    plugin_version: str
    seq: int  # the frame number: seq starts at 1 and counts frames, per direction
    receiver: str  # "host" or "plugin", as the version diagnostic names the party decoding


class Fault(NamedTuple):
    error: type[codes.ProtocolError]
    problem: str
    expected: str
    got: str | None


Judge = Callable[[Any, Pinned], Fault | None]
"""A present envelope field's fault, or None when its value is right."""


def _judge_version(value: Any, pinned: Pinned) -> Fault | None:
    if type(value) is int and value == PROTOCOL_VERSION:
        return None
    # `3.0` and `"3"` are not 3: only the integer names a version, so say what came instead
    speaks = (
        f"speaks GPP/{value}" if type(value) is int else f"is {describe(value)}, not an integer,"
    )
    return Fault(
        codes.ProtocolVersionError,
        f"{speaks} but this {pinned.receiver} speaks GPP/{PROTOCOL_VERSION}",
        str(PROTOCOL_VERSION),
        describe(value),
    )


def _judge_pinned(pin: str) -> Judge:
    def judge(value: Any, pinned: Pinned) -> Fault | None:
        expected = getattr(pinned, pin)
        if value == expected:
            return None
        return Fault(
            codes.UnknownPluginError,
            "does not match the pinned plugin",
            repr(expected),
            describe(value),
        )

    return judge


def _judge_type(value: Any, pinned: Pinned) -> Fault | None:
    if type(value) is str and value in CATALOG:
        return None
    return Fault(
        codes.UnknownTypeError,
        "is not a GPP/3 message type",
        "one of " + " ".join(CATALOG),
        describe(value),
    )


def _judge_seq(value: Any, pinned: Pinned) -> Fault | None:
    if type(value) is int and value == pinned.seq:
        return None
    if type(value) is not int:
        problem = "has the wrong type"
    else:
        problem = "repeats an earlier frame" if value < pinned.seq else "skips ahead"
    return Fault(codes.SchemaError, problem, str(pinned.seq), describe(value))


def _judge_digest_form(value: Any, pinned: Pinned) -> Fault | None:
    if type(value) is str and _DIGEST.fullmatch(value):
        return None
    return Fault(codes.SchemaError, "is malformed", "64 lowercase hex digits", describe(value))


@dataclass(frozen=True)
class EnvelopeField:
    key: str
    expected: str  # how the diagnostic for a missing field names it
    judge: Judge | None  # None: judged elsewhere (the payload, by the catalog's schema)


ENVELOPE: tuple[EnvelopeField, ...] = (
    EnvelopeField("protocolVersion", str(PROTOCOL_VERSION), _judge_version),
    EnvelopeField("pluginId",        "string",                  _judge_pinned("plugin_id")),
    EnvelopeField("pluginVersion",   "string",                  _judge_pinned("plugin_version")),
    EnvelopeField("type",            "string",                  _judge_type),
    EnvelopeField("seq",             "integer",                 _judge_seq),
    EnvelopeField("payload",         "object",                  None),
    EnvelopeField("digest",          "64 lowercase hex digits", _judge_digest_form),
)  # fmt: skip
"""Every envelope field, in the order its checks run. The version goes first of all, present
or not, so a GPP/2 peer is named as such before anything else; then every field must be
present and no other allowed; then the rest, in this order, so each fault has one cause."""
_FIELDS = {field.key: field for field in ENVELOPE}
_VERSION, *_AFTER_PRESENCE = ENVELOPE


# ----------------------------------------------------------------------------------- decode


class Frame(NamedTuple):
    """A received frame whose envelope is verified; its payload and digest are not yet.

    A named tuple, not a frozen dataclass: as immutable, and made once per frame for a third
    of the cost (a frozen dataclass sets each of its eight fields through `object.__setattr__`).
    """

    message_type: str
    seq: int
    payload: Any
    digest: str
    line: bytes
    plugin_id: str
    plugin_version: str
    strict: bool  # parsed by the strict parser (whose value has the last word)

    def fault(
        self,
        error: type[codes.ProtocolError],
        problem: str,
        *,
        field: str,
        expected: str | None,
        got: str | None,
    ) -> codes.ProtocolError:
        """The error for a fault in this frame, with its number, type and the line."""
        return error(
            problem,
            frame=self.seq,
            message_type=self.message_type,
            field=field,
            expected=expected,
            got=got,
            offending_frame=self.line,
        )


def decode_frame(
    line: bytes,
    *,
    frame: int,
    plugin_id: str,
    plugin_version: str,
    receiver: str = "host",
    strict: bool = False,
) -> Frame:
    """Parse one received line and verify its envelope, or raise the single ProtocolError.

    `frame` is the line's number on its stream, which is also the seq it must carry. With
    `strict`, the strict parser reads the line; without, orjson does, and a fault is judged
    again on the strict parser's value before it is raised.
    """
    value = None if strict or not line else loads_unscreened(line)
    if value is None:
        value, strict = _strict_value(line, frame), True
    if not _envelope_holds(value, frame, plugin_id, plugin_version):
        fault = _envelope_fault(value, line, Pinned(plugin_id, plugin_version, frame, receiver))
        if fault is not None:
            if not strict:
                return decode_frame(
                    line,
                    frame=frame,
                    plugin_id=plugin_id,
                    plugin_version=plugin_version,
                    receiver=receiver,
                    strict=True,
                )
            raise fault
    return Frame(
        value["type"],
        frame,
        value["payload"],
        value["digest"],
        line,
        plugin_id,
        plugin_version,
        strict,
    )


def _envelope_holds(value: Any, seq: int, plugin_id: str, plugin_version: str) -> bool:
    """True only when `_envelope_fault` finds nothing: every judge of `ENVELOPE` inlined, for
    the frame that is right (nearly all of them). False decides nothing: the full check then
    looks for the fault, and names it."""
    return (
        type(value) is dict
        and value.keys() == _FIELDS.keys()
        and type(version := value["protocolVersion"]) is int
        and version == PROTOCOL_VERSION
        and value["pluginId"] == plugin_id
        and value["pluginVersion"] == plugin_version
        and type(message_type := value["type"]) is str
        and message_type in CATALOG
        and type(number := value["seq"]) is int
        and number == seq
        and type(digest := value["digest"]) is str
        and _DIGEST.fullmatch(digest) is not None
    )


def _envelope_fault(value: Any, line: bytes, pinned: Pinned) -> codes.ProtocolError | None:
    if not isinstance(value, dict):
        return codes.FrameJSONError(
            "not a JSON object",
            frame=pinned.seq,
            expected="object",
            got=describe(value).split(" ")[0],
            offending_frame=line,
        )
    named = value.get("type") if isinstance(value.get("type"), str) else None
    if _VERSION.key in value and (fault := _judge_version(value[_VERSION.key], pinned)):
        return _field_error(_VERSION, fault, named, line, pinned)
    if value.keys() != _FIELDS.keys():  # one comparison for the usual case: exactly these
        for field in ENVELOPE:
            if field.key not in value:
                fault = Fault(codes.SchemaError, "missing", field.expected, None)
                return _field_error(field, fault, named, line, pinned)
        for key in value:
            if key not in _FIELDS:
                return codes.SchemaError(
                    "is not allowed",
                    frame=pinned.seq,
                    message_type=named,
                    field=key,
                    expected="no such field",
                    got=describe(value[key]),
                    offending_frame=line,
                )
    for field in _AFTER_PRESENCE:
        if field.judge is not None and (fault := field.judge(value[field.key], pinned)):
            return _field_error(field, fault, named, line, pinned)
    return None


def _field_error(
    field: EnvelopeField, fault: Fault, named: str | None, line: bytes, pinned: Pinned
) -> codes.ProtocolError:
    return fault.error(
        fault.problem,
        frame=pinned.seq,
        message_type=None if field.key == "type" else named,
        field=field.key,
        expected=fault.expected,
        got=fault.got,
        offending_frame=line,
    )


def _strict_value(line: bytes, frame: int) -> Any:
    if not line:
        raise codes.FrameJSONError(
            "empty line", frame=frame, expected="a JSON object", offending_frame=line
        )
    try:
        return loads_strict(line)
    except UnsafeInteger as exc:  # well-formed JSON, but a value the schema forbids (§3)
        raise codes.SchemaError(
            "holds an integer outside ±(2**53-1)",
            frame=frame,
            expected="an integer within ±(2**53-1)",
            got=f"integer {exc.literal}",
            offending_frame=line,
        ) from None
    except JSONRejected as exc:
        raise codes.FrameJSONError(
            f"invalid JSON: {exc.reason}", frame=frame, offending_frame=line
        ) from None


# ----------------------------------------------------------------------------------- digest


def verify_digest(frame: Frame) -> bytes:
    """The payload's canonical bytes, once the frame's digest proves to cover them.

    Call it after the payload passed its schema: it is encoded on the fast path, which only a
    value without floats allows. The bytes are what the digest covers and, for a result, the
    gateway's HTTP body.
    """
    payload_json = canonical_trusted(frame.payload)
    actual = frame_digest(frame.message_type, frame.seq, payload_json)
    if actual != frame.digest:
        _confirm_strict(frame)
        raise frame.fault(
            codes.SchemaError,
            "does not match the frame",
            field="digest",
            expected=actual,
            got=frame.digest,
        )
    if not _is_canonical_frame(frame, payload_json):
        _confirm_strict(frame)  # only a line that is not the canonical frame can hide a fault
    return payload_json


def _is_canonical_frame(frame: Frame, payload_json: bytes) -> bool:
    """Whether the line is exactly the canonical frame: a small one against the canonical
    frame built whole, a large one compared in place (no copy of it)."""
    line = frame.line
    if len(payload_json) <= _SMALL_PAYLOAD:
        return line == b'{"digest":"%b","payload":%b%b%d,"type":%b}' % (
            frame.digest.encode(),
            payload_json,
            _pinned_middle(frame.plugin_id, frame.plugin_version),
            frame.seq,
            _canonical_name(frame.message_type),
        )
    head, tail = envelope_around_payload(
        frame.plugin_id, frame.plugin_version, frame.message_type, frame.seq, frame.digest
    )
    return (
        len(line) == len(head) + len(payload_json) + len(tail)
        and line.startswith(head)
        and line.endswith(tail)
        and line.startswith(payload_json, len(head))
    )


def _confirm_strict(frame: Frame) -> None:
    """A JSON-level fault the fast parse let through outranks any other."""
    if not frame.strict:
        _strict_value(frame.line, frame.seq)
