"""gpp.core.envelope: build a frame, decode and verify a received one, the fast accept and the
canonical-frame shortcut."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_connection import EMPTY, ID, VERSION, _resource

from gpp.core import build_frame, canonical, codes, decode_frame, digest, envelope, verify_digest


def test_built_frame_is_canonical_and_its_digest_covers_type_seq_payload() -> None:
    payload = {"capabilities": ["discover"]}
    line, frame_digest = build_frame(ID, VERSION, "hello", 1, payload)
    envelope = {
        "protocolVersion": 3,
        "pluginId": ID,
        "pluginVersion": VERSION,
        "type": "hello",
        "seq": 1,
        "payload": payload,
        "digest": frame_digest,
    }
    assert line == canonical(envelope) + b"\n"
    assert frame_digest == digest({"type": "hello", "seq": 1, "payload": payload})


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=10),
        st.recursive(
            st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
            max_leaves=20,
        ),
        max_size=6,
    ),
    st.sampled_from(["hello", "result", "error", "bye"]),
    st.integers(1, 10**6),
)
def test_verify_of_build_round_trips(payload: dict[str, Any], message_type: str, seq: int) -> None:
    line, frame_digest = build_frame(ID, VERSION, message_type, seq, payload)
    frame = _decode(line.rstrip(b"\n"), seq)
    assert (frame.message_type, frame.seq, frame.payload, frame.digest) == (
        message_type,
        seq,
        payload,
        frame_digest,
    )


def test_a_non_canonical_but_valid_frame_verifies() -> None:
    payload = {"capabilities": ["discover"]}
    d = digest({"type": "hello", "seq": 1, "payload": payload})
    line = (
        b'{ "type": "hello", "seq": 1, "payload": {"capabilities": ["discover"]}, "digest": "'
        + d.encode()
        + b'", "pluginVersion": "1.0.0", "pluginId": "p", "protocolVersion": 3 }'
    )
    assert _decode(line, 1).payload == payload


def _decode(line: bytes, seq: int) -> Any:
    """Decode and verify a frame without a catalog row's checks (any payload goes)."""
    frame = decode_frame(line, frame=seq, plugin_id=ID, plugin_version=VERSION)
    verify_digest(frame)
    return frame


def test_fast_parse_defers_to_the_strict_parser_on_duplicate_keys() -> None:
    payload = {"capabilities": ["discover"]}
    line, _ = build_frame(ID, VERSION, "hello", 1, payload)
    duplicated = line.rstrip(b"\n")[:-1] + b',"seq":1}'
    with pytest.raises(codes.FrameJSONError, match='duplicate key "seq"'):
        _decode(duplicated, 1)
    deep = line.replace(b'"payload":{', b'"payload":{"x":' + b"[" * 600 + b"]" * 600 + b",")
    with pytest.raises(codes.FrameJSONError, match="nesting deeper than 512"):
        _decode(deep.rstrip(b"\n"), 1)


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_the_envelope_fast_accept_agrees_with_the_full_check(data: st.DataObject) -> None:
    """`_envelope_holds` is a shortcut for `_envelope_fault(...) is None`: never laxer."""
    value: Any = {}
    for key, variants in _ENVELOPE_VARIANTS.items():  # valid, mostly; one or two faults
        roll = data.draw(st.integers(0, 19))
        if key == "extra":
            if roll == 0:
                value[key] = variants[0]
        elif roll < 16:
            value[key] = variants[0]
        elif roll < 19:
            value[key] = data.draw(st.sampled_from(variants))
    if data.draw(st.integers(0, 30)) == 0:
        value = data.draw(st.sampled_from([[], "x", None, 3, [value]]))
    pinned = envelope.Pinned(ID, VERSION, 4, "host")
    assert envelope._envelope_holds(value, 4, ID, VERSION) == (
        envelope._envelope_fault(value, b"{}", pinned) is None
    )


def _not_canonical(line: bytes) -> list[bytes]:
    """Lines that carry the same frame as `line` (canonical) but are not its canonical text."""
    import json

    body = line.rstrip(b"\n")
    envelope_value = json.loads(body)
    return [
        body.replace(b'","payload":', b'", "payload":', 1),
        body + b" ",
        b" " + body,
        body.replace(b'"requestId":"r', b'"requestId":"\\u0072', 1),
        json.dumps(dict(reversed(envelope_value.items())), separators=(",", ":")).encode(),
        json.dumps(envelope_value, separators=(",", ":"), sort_keys=True).encode(),  # ü escaped
    ]


@pytest.mark.parametrize("resources", [1, 200])  # below and above envelope._SMALL_PAYLOAD
def test_only_the_canonical_text_is_taken_for_the_canonical_frame(resources: int) -> None:
    """The canonical-frame test decides whether the strict parser must confirm a line: it is
    built whole for a small payload and compared in place for a large one; both must take
    exactly the canonical text."""
    payload = {
        "requestId": "r1",
        **EMPTY,
        "resources": [_resource(n, "x") for n in range(resources)],
    }
    line, _ = build_frame(ID, VERSION, "result", 2, payload)
    payload_json = canonical(payload)
    assert (len(payload_json) > envelope._SMALL_PAYLOAD) == (resources > 1)
    frame = decode_frame(line.rstrip(b"\n"), frame=2, plugin_id=ID, plugin_version=VERSION)
    assert envelope._is_canonical_frame(frame, payload_json)
    for variant in _not_canonical(line):
        frame = decode_frame(variant, frame=2, plugin_id=ID, plugin_version=VERSION)
        assert frame.payload == payload
        assert verify_digest(frame) == payload_json
        assert not envelope._is_canonical_frame(frame, payload_json)


_ENVELOPE_VARIANTS: dict[str, list[Any]] = {
    "protocolVersion": [3, 3.0, "3", 2, 4, True, None],
    "pluginId": [ID, "q", "", None, 1],
    "pluginVersion": [VERSION, "1.0.1", None, ["1.0.0"]],
    "type": ["hello", "result", "error", "greeting", "", None, 1],
    "seq": [4, 3, 5, "4", 4.0, True, None, -4],  # the first of each is valid
    "payload": [{}, [], None, "x"],
    "digest": ["a" * 64, "A" * 64, "a" * 63, "g" * 64, "a" * 64 + "\n", None, 1],
    "extra": [0, None],
}
