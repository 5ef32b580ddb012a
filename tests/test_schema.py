"""The result schema names the first fault by its field, however deep, on every path of a record
check: the straight-line happy path and the field loop that names the fault."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gpp.schema import RESULT_PAYLOAD, Violation

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
