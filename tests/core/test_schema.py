"""The result schema names the first fault by its field, however deep, on every path of a record
check: the straight-line happy path and the field loop that names the fault."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpp.core import RESULT_PAYLOAD, Violation, schema

VALID: dict[str, Any] = {
    "requestId": "r1",
    "resources": [
        {"kind": "table", "name": "a", "location": {"path": "a.py", "line": 1}, "attrs": {}},
        {"kind": "table", "name": "b", "location": {"path": "b.py", "line": 2}, "attrs": {"x": 1}},
    ],
    "unresolved": [],
    "findings": [],
    "classificationSignals": [],
}


def _set(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    *parents, last = path
    for step in parents:
        document = document[step]
    if value is KeyError:
        del document[last]
    else:
        document[last] = value


FAULTS = [
    (("resources", 1, "name"), 7, "resources[1].name", "has the wrong type"),
    (("resources", 1, "name"), KeyError, "resources[1].name", "missing"),
    (("resources", 1, "location", "line"), 0, "resources[1].location.line", "has the wrong value"),
    (("resources", 1, "location", "path"), KeyError, "resources[1].location.path", "missing"),
    (("resources", 1, "location", "path"), "../x", "resources[1].location.path", None),
    (("resources", 1, "attrs", "x"), [1], "resources[1].attrs.x", "has the wrong type"),
    (("resources", 0, "extra"), 1, "resources[0].extra", "is not allowed"),
    (("resources", 0), [], "resources[0]", "has the wrong type"),
    (("requestId",), "", "requestId", "has the wrong value"),
    (("findings",), KeyError, "findings", "missing"),
]


@pytest.mark.parametrize(("path", "value", "field", "problem"), FAULTS)
def test_a_fault_is_named_by_its_field(
    path: tuple[Any, ...], value: Any, field: str, problem: str | None
) -> None:
    document = copy.deepcopy(VALID)
    _set(document, path, value)
    with pytest.raises(Violation) as fault:
        RESULT_PAYLOAD.check(document)
    assert fault.value.field == field
    if problem is not None:
        assert fault.value.problem == problem


def test_a_valid_result_passes() -> None:
    RESULT_PAYLOAD.check(copy.deepcopy(VALID))


_FIELD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=3),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False),
    st.sampled_from(["", "a.py", "../x", "/abs", "not-found", "too-large", "table:a", "x"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.sampled_from(["path", "line", "x"]), st.integers(0, 3), max_size=3),
)


_EDGES = [0, 1, -1, 2**53 - 1, 2**53, True, "a.py", "table:a", ":a", "x/../y", "not-found", {}]


def _by_fields(spec_fields: dict[str, Any], value: Any) -> bool:
    """The record rule from its field specs' own checks, one field at a time."""
    if type(value) is not dict or set(value) != set(spec_fields):
        return False
    try:
        for key, spec in spec_fields.items():
            spec.check(value[key])
    except Violation:
        return False
    return True


_ARRAYS = {"any": schema.array(schema.STRING), "some": schema.array(schema.STRING, min_items=1)}
"""Two array fields: an empty list is inlined as valid for the first only."""


@pytest.mark.parametrize("name", ["LOCATION", "UNRESOLVED", "SIGNAL", "FINDING", "ARRAYS"])
@settings(max_examples=400)
@given(data=st.data())
def test_the_generated_record_check_accepts_exactly_what_its_fields_accept(
    name: str, data: st.DataObject
) -> None:
    """The inlined conditions (`Accepts`) are a shortcut: never laxer, never stricter."""
    fields = {
        "LOCATION": {"path": schema.PATH, "line": schema.positive_int()},
        "UNRESOLVED": {
            "path": schema.PATH,
            "reason": schema.one_of(*schema.REASONS),
            "detail": schema.STRING,
        },
        "SIGNAL": {
            "resource": schema.matching("kind:name", r"(?s)[^:]+:.+"),
            "signal": schema.STRING,
            "value": schema.SCALAR,
            "source": schema.LOCATION,
        },
        "FINDING": {
            "code": schema.matching("UPPER_SNAKE code", r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"),
            "detail": schema.STRING,
            "locations": schema.array(schema.LOCATION),
        },
        "ARRAYS": _ARRAYS,
    }[name]
    value = {  # each field mostly there, an extra one sometimes; values near the edges
        key: data.draw(st.sampled_from(_EDGES) if data.draw(st.integers(0, 3)) else _FIELD_VALUES)
        for key in [*fields, "extra"]
        if data.draw(st.integers(0, 9)) < (9 if key != "extra" else 1)
    }
    if name == "SIGNAL" and data.draw(st.booleans()):
        value["source"] = {"path": "a.py", "line": data.draw(st.integers(-1, 2))}
    if name == "ARRAYS" and data.draw(st.booleans()):
        value = {key: data.draw(st.sampled_from([[], ["a"], [1], ()])) for key in fields}
    spec = schema.record(_ARRAYS) if name == "ARRAYS" else getattr(schema, name)
    try:
        spec.check(value)
        accepted = True
    except Violation:
        accepted = False
    assert accepted == _by_fields(fields, value)


def test_the_path_cache_counts_what_it_holds() -> None:
    cache = schema._ValidPathCache(max_bytes=64 * 1024, max_path_chars=100)
    paths = [f"dir/{n:05d}" for n in range(50)]
    for path in [*paths, *paths]:
        cache.add(path)
    assert all(p in cache for p in paths)
    assert cache.bytes >= sum(len(p) for p in paths)
    cache.add("x" * 101)
    assert "x" * 101 not in cache
    for n in range(5000):
        cache.add(f"other/{n:05d}")
        assert cache.bytes <= cache.max_bytes
