"""pack-http-routes: lists built by array methods over data the scan shows (issue 36 leftovers,
construct class 1): a `@hapi/glue` manifest whose plugin list a helper builds with
`.filter(Boolean).map(...)` over the list the composing function's caller passes (a ternary on
`typeof`, a field's absence, an object spread in the callback), that list itself joined by
`.concat`; hapi `server.route(...)` tables built by `.map` (through a helper) spread beside a
literal route (`[...built, { method, path }]`), `.map(...).flat()` and `.flatMap`. The fixture is our own;
its truth is hapi 19 + @hapi/glue 7's `server.table()` after composing it (NODE_PATH=app, as
its `jsconfig.json` resolves `relativeTo: 'mods'`). A callback the scan cannot run is a finding
at the registering call, never silence."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "js-array-lists"
# `server.table()` of the composed app: every route, at the call that registers it
SERVED = {
    "GET /healthz": "app/mods/health.js:4",
    "GET /books/entries/list": "app/mods/ledger.js:9",
    "POST /books/entries/add": "app/mods/ledger.js:9",
    "GET /shop/orders/all": "app/mods/orders.js:9",
    "GET /shop/orders/open": "app/mods/orders.js:9",
    "GET /shop/orders/closed": "app/mods/orders.js:9",
    "GET /shop/orders/held": "app/mods/orders.js:9",
    "POST /shop/orders": "app/mods/orders.js:10",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js*")


def test_a_manifest_and_route_tables_built_by_array_methods_are_read_as_hapi_serves_them() -> None:
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == SERVED
    assert all("prefixUnresolved" not in r["attrs"] for r in found["resources"])
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_array_built_lists_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /shop/orders/held"' in documents[1]


def test_a_callback_the_scan_cannot_run_is_a_finding_at_the_registering_call() -> None:
    files = {
        "srv.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const { toRoute } = require('route-kit');\n"
            "const rows = ['a', 'b'];\n"
            "const server = Hapi.server();\n"
            "server.route(rows.map((row) => toRoute(row)));\n"
            "server.route(rows.map((row) => ({ method: 'GET', path: '/rows/' + row })));\n"
        ),
    }
    found = document(files)
    assert sorted(r["name"] for r in found["resources"]) == ["GET /rows/a", "GET /rows/b"]
    [unread] = found["findings"]
    assert unread["code"] == "UNRESOLVED_ROUTE"
    assert unread["locations"] == [{"path": "srv.js", "line": 5}]


def test_a_list_another_module_exports_is_mapped_into_a_route_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "kinds.js": "export const KINDS = ['a', 'b'];\n",
        "srv.js": (
            "import Hapi from '@hapi/hapi';\n"
            "import { KINDS } from './kinds';\n"
            "const server = Hapi.server();\n"
            "server.route(KINDS.map((k) => ({ method: 'GET', path: '/k/' + k, handler: h })));\n"
        ),
    }
    assert sorted(r["name"] for r in document(files)["resources"]) == ["GET /k/a", "GET /k/b"]
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
