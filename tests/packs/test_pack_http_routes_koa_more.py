"""pack-http-routes: Koa constructs of issue 34's classes 1 and 3 that the sweep showed (session
43). A route for every method — koa-router's `all`, written directly, through a computed
method a helper is given from a table of records, or as `register(path, ['all'], …)` — is one
route named `ALL /x`, as koa-router's own stack keeps it (one layer of every method). The
fixtures are our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

EVERY = "koa-more"


def test_a_route_for_every_method_is_one_all_route_also_through_a_computed_method() -> None:
    found = document(fixture_files(EVERY, "*.js"))
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == {
        "GET /v3/health": "srv/api.js:12",
        "ALL /v3/echo/{word}": "srv/api.js:12",
        "ALL /v3/any": "srv/api.js:14",
        "ALL /v3/both": "srv/api.js:17",
    }
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_all_routes_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, fixture_files(EVERY, "*.js"), monkeypatch)
    assert documents[0] == documents[1]
    assert '"ALL /v3/echo/{word}"' in documents[1]
