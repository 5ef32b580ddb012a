"""A large result frame verified in pieces, so the host never holds its whole parsed payload.

A parsed result costs about nine times its bytes in dicts and strings: more than the gateway may
spend relaying one (issue 13: peak extra RSS < 8x the frame). But a canonical frame is fully
determined by its text. If the bytes around the payload are the canonical envelope for the
pinned plugin, this frame number and type `result`; every payload key is in its canonical place;
the requestId and each batch of array elements parse, pass their schema and re-encode to exactly
their own slice; and the digest over the payload's slice of the line matches: then the line *is*
the canonical frame of the assembled payload, and the full path (parse everything, schema,
re-encode, digest) would accept it with this very payload. So a large line is checked a batch of
elements at a time, and the payload bytes the gateway answers with are a view into the line.

This path only ever accepts. Anything unusual (a line that is not the canonical frame, a batch
that does not parse or breaks its schema, another requestId, a digest mismatch) gives None, and
the caller runs the full path on the same line, which names the fault exactly as for any other
frame. tests/core/test_piecewise.py pins that both paths give the same event or the same error.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gpp.core.canonical_json import canonical, canonical_trusted, loads_unscreened
from gpp.core.envelope import envelope_around_payload, frame_digest
from gpp.core.schema import REQUEST_ID, RESULT_ITEMS, Spec, Violation, array

PIECEWISE_FROM_BYTES = 1 << 20
"""Lines from this size on try the piecewise path; below it the full parse is cheap anyway."""
BATCH_BYTES = 1 << 16
"""About how many bytes of elements are parsed at once: their objects are what the path holds."""

_HEAD = re.compile(rb'\{"digest":"([0-9a-f]{64})","payload":')
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')

_KEYS = tuple(sorted(("requestId", *RESULT_ITEMS)))
"""The result payload's keys (`gpp.core.schema.RESULT_PAYLOAD`'s, all required) in canonical order,
which for ASCII keys is plain sorted order."""
_OPENERS = tuple(
    (b"{" if index == 0 else b",") + canonical(key) + b":" for index, key in enumerate(_KEYS)
)
_BATCH_SPECS: dict[str, Spec] = {key: array(item) for key, item in RESULT_ITEMS.items()}
"""An array without size bounds holds exactly when each of its batches holds."""
_CUTS = {key: b"},{" + canonical(min(item.keys)) + b":" for key, item in RESULT_ITEMS.items()}
"""Where a batch may end in each array: between two of its records, the second opening with
its first key in canonical order (`},{"attrs":` for resources). All of it is structure, never
string content (a quote inside a string is always escaped), and in a valid result no array
inside an element holds an object that opens with that key (a finding's locations open with
`"line"`), so a guessed end is right unless the line is at fault anyway."""


class VerifiedResult(NamedTuple):
    request_id: str
    digest: str
    payload_bytes: memoryview
    """The payload's canonical bytes: a view into the line, which it keeps alive."""


def verify_result(
    line: bytes,
    *,
    frame: int,
    plugin_id: str,
    plugin_version: str,
    request_id: str | None,
    batch_bytes: int | None = None,
) -> VerifiedResult | None:
    """The verified result in `line`, the answer to `request_id`; None where the full path
    must judge the line (it may well be valid: this path only proves canonical frames).

    `batch_bytes`: BATCH_BYTES unless given (tests cut small frames into many batches).
    """
    head = _HEAD.match(line)
    if head is None:
        return None
    digest = head.group(1).decode("ascii")
    _, tail = envelope_around_payload(plugin_id, plugin_version, "result", frame, digest)
    start, end = head.end(), len(line) - len(tail)
    if end - start < 2 or not line.endswith(tail):
        return None
    found = _payload_request_id(line, start, end, batch_bytes or BATCH_BYTES)
    if found is None or found != request_id:
        return None
    payload = memoryview(line)[start:end]
    if frame_digest("result", frame, payload) != digest:
        return None
    return VerifiedResult(found, digest, payload)


def _payload_request_id(line: bytes, pos: int, end: int, batch_bytes: int) -> str | None:
    """The requestId of the payload in `line[pos:end]` once every piece of it is proven."""
    request_id: str | None = None
    for index, key in enumerate(_KEYS):
        opener = _OPENERS[index]
        if not line.startswith(opener, pos):
            return None
        pos += len(opener)
        if key == "requestId":
            request_id, pos = _request_id(line, pos, end)
        else:
            last = index == len(_KEYS) - 1
            close = end - 2 if last else line.find(b"]" + _OPENERS[index + 1], pos, end)
            if close < 0 or line[close : close + 1] != b"]":
                return None
            pos = _array(line, pos, close, key, batch_bytes)
        if pos < 0:
            return None
    return request_id if pos == end - 1 and line[pos : pos + 1] == b"}" else None


def _request_id(line: bytes, pos: int, end: int) -> tuple[str | None, int]:
    literal = _STRING.match(line, pos, end)
    if literal is None:
        return None, -1
    text = line[pos : literal.end()]
    value = loads_unscreened(text)
    if type(value) is not str:
        return None, -1
    try:
        REQUEST_ID.check(value)
        if canonical(value) != text:
            return None, -1
    except (Violation, ValueError):
        return None, -1
    return value, literal.end()


def _array(line: bytes, pos: int, close: int, key: str, batch_bytes: int) -> int:
    """Past the array `line[pos:close + 1]` (`close` at its `]`) once every batch of its
    elements is proven, or -1."""
    if line[pos : pos + 1] != b"[":
        return -1
    spec, cut_mark = _BATCH_SPECS[key], _CUTS[key]
    start = pos + 1
    while start < close:
        cut = line.find(cut_mark, start + batch_bytes, close)
        stop = close if cut < 0 else cut + 1
        if not _batch_holds(line, start, stop, spec):
            return -1
        start = stop + 1  # past the comma, or past the `]`
    return close + 1


def _batch_holds(line: bytes, start: int, stop: int, spec: Spec) -> bool:
    """Whether `line[start:stop]` is one or more comma-separated elements, each canonical and
    valid: as an array, they parse, pass `spec` and re-encode to exactly these bytes."""
    text = b"".join((b"[", memoryview(line)[start:stop], b"]"))
    items = loads_unscreened(text)
    if type(items) is not list:
        return False
    try:
        spec.check(items)
        return canonical_trusted(items) == text
    except (Violation, ValueError):  # ValueError: a string the encoder refuses
        return False
