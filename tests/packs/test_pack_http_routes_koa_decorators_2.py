"""pack-http-routes: koa-swagger-decorator 2 (issue 36 leftovers, construct class 2): methods
decorated `@routeConfig({ method, path })` (imported under another name too; a path from a
constant; a static method, which version 2's `applyRoute` never serves, left out), served on a
`SwaggerRouter` by `applyRoute(Class)` (chained), its `swagger()` endpoints taken from the
options the router was made with, koa-router's `prefix` before all of them. The fixture is our
own; its truth is koa-swagger-decorator 2.2.1's `router.stack` after loading the router module
compiled by TypeScript (HEAD left out), `:id` written `{id}` as the pack names it."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "koa-decorators-2"
SERVED = {
    "GET /v2/openapi.json": "src/http/router.ts:11",
    "GET /v2/swagger-html": "src/http/router.ts:11",
    "GET /v2/invoices": "src/http/ctl/invoices.ts:8",
    "DELETE /v2/invoices/{invoiceId}": "src/http/ctl/invoices.ts:13",
    "POST /v2/people": "src/http/ctl/people.ts:7",
    "GET /v2/people/{id}": "src/http/ctl/people.ts:12",
    "GET /v2/ping": "src/http/router.ts:13",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.ts")


def test_route_config_classes_applied_to_a_swagger_router_are_served_as_the_library_does() -> None:
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == SERVED
    assert {r["attrs"]["framework"] for r in found["resources"]} == {"koa"}
    handlers = {r["name"]: r["attrs"].get("handler") for r in found["resources"]}
    assert handlers["DELETE /v2/invoices/{invoiceId}"] == "InvoiceCtl.drop"
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_route_config_classes_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /v2/people/{id}"' in documents[1]
