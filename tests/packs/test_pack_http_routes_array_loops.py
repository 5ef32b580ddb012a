"""pack-http-routes: loops over lists built by `.map` from a list the file spells (issue 36
leftovers, construct class 1): an Express route table looped over with `forEach` and with a
destructuring `for...of` over a `.map` written in the loop head, a koa-router table built by a
`function` callback and iterated with `for...of` (koa-router's `del`), Fastify's
`routes.forEach(r => app.route(r))` over a literal list and over a built one. Each item is the
callback's value with its parameter bound (`js_loops.Closure`). The fixture is our own; its truth
is Express 4.17's `app._router.stack`, @koa/router 10's `router.stack` and Fastify 3.29's
`printRoutes()`."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "js-array-loops"
SERVED = {
    "GET /store/books": "web/catalog.js:8",
    "GET /store/maps": "web/catalog.js:8",
    "POST /store/books/draft": "web/catalog.js:11",
    "POST /store/maps/draft": "web/catalog.js:11",
    "PUT /k/doors/open": "kapi/doors.js:12",
    "DELETE /k/doors/shut": "kapi/doors.js:12",
    "GET /fixed": "svc/server.js:10",
    "DELETE /purge/cache": "svc/server.js:11",
    "DELETE /purge/queue": "svc/server.js:11",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js")


def test_loops_over_lists_built_by_map_register_each_built_item() -> None:
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == SERVED
    assert all("prefixUnresolved" not in r["attrs"] for r in found["resources"])
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_loops_over_built_lists_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"DELETE /k/doors/shut"' in documents[1]


def test_a_loop_over_a_list_mapped_by_a_named_function_is_a_finding_at_the_call() -> None:
    files = {
        "r.js": (
            "const express = require('express');\n"
            "const { toRow } = require('row-kit');\n"
            "const app = express();\n"
            "const rows = ['a', 'b'].map(toRow);\n"
            "rows.forEach((row) => app.get(row.path, (q, s) => s.end()));\n"
        ),
    }
    found = document(files)
    assert found["resources"] == []
    unread = [f["locations"] for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert unread == [[{"path": "r.js", "line": 5}]]
