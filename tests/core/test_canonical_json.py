"""GF-canonical JSON against the RFC 8785 reference implementation, and the strict parser."""

from __future__ import annotations

import hashlib
import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from gpp import digest
from gpp.core import JSONRejected, UnsafeInteger, canonical, loads_strict
from gpp.core import canonical_json as canonical_module
from gpp.core.canonical_json import MAX_DEPTH, number

VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "canonical.json").read_text("utf-8"))
NUMBERS = json.loads((Path(__file__).parents[1] / "vectors" / "numbers.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_shared_vectors(vector: dict[str, str]) -> None:
    value = json.loads(vector["input"])
    assert canonical(value).decode("utf-8") == vector["canonical"]
    assert rfc8785.dumps(value).decode("utf-8") == vector["canonical"]
    assert digest(value) == vector["digest"] == hashlib.sha256(canonical(value)).hexdigest()


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.1, "0.1"),
        (-0.0, "0"),
        (1.0, "1"),
        (1e20, "100000000000000000000"),
        (1e-6, "0.000001"),
        (-5e-324, "-5e-324"),
        (2.0**53, "9007199254740992"),
    ],
)
def test_numbers_render_as_ecmascript(value: float, text: str) -> None:
    assert number(value) == text
    assert canonical(value) == text.encode() == rfc8785.dumps(value)


@pytest.mark.parametrize(
    "vector", NUMBERS["rfc8785"] + NUMBERS["doubles"], ids=lambda v: str(v["bits"])
)
def test_number_vectors(vector: dict[str, str | None]) -> None:
    """RFC 8785's Appendix B samples (and big integral doubles): the same file Node's tests read."""
    value = struct.unpack(">d", bytes.fromhex(str(vector["bits"])))[0]
    if vector["canonical"] is None:
        with pytest.raises(ValueError, match="is not an I-JSON number"):
            canonical(value)
        return
    assert number(value) == vector["canonical"]
    assert canonical([value]) == f"[{vector['canonical']}]".encode() == rfc8785.dumps([value])


def test_keys_sort_by_utf16_code_units_not_code_points() -> None:
    value = {"\ue000": 1, "\U0001f600": 2}
    assert sorted(value) == ["\ue000", "\U0001f600"]  # code point order: the wrong one
    assert canonical(value) == '{"\U0001f600":2,"\ue000":1}'.encode()


@pytest.mark.parametrize(
    "bad",
    [math.nan, math.inf, -math.inf, 2**53, -(2**53), "\ud800", {1: "x"}, {"k": "\udfff"}, b"x"],
    ids=[
        "nan",
        "inf",
        "-inf",
        "2^53",
        "-2^53",
        "lone-surrogate",
        "int-key",
        "key-surrogate",
        "bytes",
    ],
)
def test_canonical_rejects_what_ijson_forbids(bad: Any) -> None:
    with pytest.raises(ValueError):
        canonical(bad)


def test_canonical_rejects_on_the_stdlib_path_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canonical_module, "_orjson", None)
    for bad in ({1: "x"}, {True: 1}, 2**53, math.nan, "\ud800"):
        with pytest.raises(ValueError):
            canonical(bad)
    for vector in VECTORS:
        assert canonical(json.loads(vector["input"])).decode() == vector["canonical"]


def test_plain_documents_take_the_c_encoder_path() -> None:
    doc: dict[str, Any] = {
        "resources": [{"kind": "table", "name": "ü", "n": 3, "ok": True}] * 50,
        "x": None,
    }
    assert canonical_module._fast_encode(doc) is None  # null may be orjson's NaN: exact path
    del doc["x"]
    assert canonical_module._fast_encode(doc) == rfc8785.dumps(doc)
    assert canonical_module._fast_encode({"a": 1.5}) is None
    assert canonical_module._fast_encode({"\U0001f600": 1}) is None


def test_nesting_up_to_the_limit_works_and_beyond_is_rejected() -> None:
    deepest = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    value = loads_strict(deepest)
    assert canonical(value) == deepest
    nested_obj = b'{"a":' * MAX_DEPTH + b"1" + b"}" * MAX_DEPTH
    assert canonical(loads_strict(nested_obj)) == nested_obj
    with pytest.raises(JSONRejected, match="nesting deeper than 512"):
        loads_strict(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    # brackets inside strings do not count as nesting
    assert loads_strict(json.dumps(["[" * 2000]).encode()) == ["[" * 2000]


def _depth_by_scan(line: bytes) -> int:
    """The nesting depth the slow, obvious way: one byte at a time, strings skipped."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in line:
        if in_string:
            if escaped:
                escaped = False
            elif byte == ord("\\"):
                escaped = True
            elif byte == ord('"'):
                in_string = False
        elif byte == ord('"'):
            in_string = True
        elif byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


_bracket_heavy_values = st.recursive(
    st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=60,
)


@settings(max_examples=300, deadline=None)
@given(_bracket_heavy_values, st.integers(min_value=0, max_value=8))
def test_nesting_check_agrees_with_a_byte_scan(value: Any, limit: int) -> None:
    line = json.dumps(value).encode()
    expected = _depth_by_scan(line) > limit
    assert canonical_module._nesting_exceeds(line, limit) is expected


@pytest.mark.parametrize(
    "line",
    [
        b"[" * 513 + b"]" * 513,
        b"[" * 600 + b"]" * 600,
        b"[[]," * 513 + b"]" * 513,  # a leaf beside every level
        b'{"a":' * 513 + b"[]" + b"}" * 513,
        (b"[" * 100 + b"]" * 100) * 50 + b"[" * 513 + b"]" * 513,  # many peaks, then one deep
        b"[" * 513,  # never closed: the parser would still recurse that deep
    ],
)
def test_nesting_check_finds_depth_past_the_limit(line: bytes) -> None:
    assert _depth_by_scan(line) > MAX_DEPTH
    assert canonical_module._nesting_exceeds(line, MAX_DEPTH)


@pytest.mark.parametrize(
    "line",
    [
        b"[" * 512 + b"]" * 512,
        (b"[" * 512 + b"]" * 512 + b",") * 40,
        b"[" + b"[[]]," * 100_000 + b"[]]",
        json.dumps([["[" * 600, {"k": "{{{"}]] * 300).encode(),
        json.dumps(['\\"[[[[' * 200]).encode(),
    ],
)
def test_nesting_check_passes_depth_within_the_limit(line: bytes) -> None:
    assert _depth_by_scan(line) <= MAX_DEPTH
    assert not canonical_module._nesting_exceeds(line, MAX_DEPTH)


def test_nesting_check_of_a_huge_deep_line() -> None:
    """Issue 23: a 4 MB `[[[…]]]` line from a plugin (or a 1 MB client body) took one regex
    pass per level, 512 of them, on the event loop (tens of seconds); the check is now a few
    passes."""
    assert canonical_module._nesting_exceeds(b"[" * (2 << 20) + b"]" * (2 << 20), MAX_DEPTH)
    assert canonical_module._nesting_exceeds(b"[" * (1 << 19) + b"]" * (1 << 19), MAX_DEPTH)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b'{"a":1,"a":2}', 'duplicate key "a"'),
        (b'{"a":{"b":1,"b":1}}', 'duplicate key "b"'),
        (b'"\\ud800"', "lone surrogate"),
        (b'["\\udc00x"]', "lone surrogate"),
        (b'"\xff"', "invalid UTF-8"),
        (b'"\xed\xa0\x80"', "invalid UTF-8"),  # a surrogate encoded in UTF-8
        (b"NaN", "NaN is not an I-JSON number"),
        (b"[-Infinity]", "-Infinity is not an I-JSON number"),
        (b"[1e400]", "overflows a double"),
        (b"{", "Expecting property name"),
    ],
)
def test_strict_parser_rejects(line: bytes, reason: str) -> None:
    with pytest.raises(JSONRejected, match=reason):
        loads_strict(line)


def test_strict_parser_accepts_surrogate_pairs() -> None:
    assert loads_strict(b'"\\ud83d\\ude00"') == "\U0001f600"


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_json_values)
def test_canonical_equals_rfc8785(value: Any) -> None:
    expected = rfc8785.dumps(value)
    assert canonical(value) == expected
    # Idempotent, except that an integral float from 2**53 to 1e21 renders as an integer
    # literal past the limit, which the parser refuses.
    try:
        reparsed = loads_strict(expected)
    except UnsafeInteger:
        assert _has_big_integral_float(value)
    else:
        assert canonical(reparsed) == expected


def _has_big_integral_float(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer() and abs(value) > 2**53 - 1
    if isinstance(value, dict):
        return any(_has_big_integral_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_big_integral_float(v) for v in value)
    return False
