"""app.summary: a result document as a table a person reads, its plugin's strings escaped."""

from __future__ import annotations

from app.summary import table


def test_an_empty_document_says_so_in_counts() -> None:
    empty: dict[str, list[object]] = {
        "resources": [],
        "unresolved": [],
        "findings": [],
        "classificationSignals": [],
    }
    assert table(empty) == "0 resources (none), 0 unresolved, 0 findings"


def test_what_a_plugin_named_is_escaped() -> None:
    document = {
        "resources": [
            {"kind": "route", "name": "GET /\x1b[2J", "location": {"path": "a\rb.py", "line": 3},
             "attrs": {}},
        ],
        "unresolved": [],
        "findings": [],
        "classificationSignals": [],
    }  # fmt: skip
    assert table(document).splitlines() == [
        "1 resources (1 route), 0 unresolved, 0 findings",
        "  route  GET /\\u001b[2J  a\\rb.py:3",
    ]
