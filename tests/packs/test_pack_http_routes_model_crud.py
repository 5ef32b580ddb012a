"""pack-http-routes: per-model CRUD route generators that loop over a list of models or
entities another module writes (`for (const { slug } of KINDS)`, `ENTITIES.forEach(e =>
crudFamily(router, e.plural, h))`, `NAMES.forEach(n => r.get('/x/' + n))`, the list imported
by name, through a CommonJS object, or as a member of one), each path named from the item.
The loop is unrolled once per item of the list the linker finds (`LoopKey` over a list's
indexes); before, each route was an `UNRESOLVED_ROUTE` at the loop and nothing was listed,
and a file spelling no `[` was not looked at for loops at all.

The fixture's truth is read by hand from Express 4's rules (each `app.use(prefix, router)`
prefixing the router's paths; `:name` a parameter), item by item of the literal lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, located, pre_filtered

FIXTURE = "js-model-crud"
SERVED = {
    "GET /ledger/invoices/{invoiceId}": "api/resources/documents.js:8",
    "GET /ledger/credit-notes/{creditNoteId}": "api/resources/documents.js:8",
    "GET /ledger/archive/receipts": "api/resources/documents.js:11",
    "GET /ledger/archive/waybills": "api/resources/documents.js:11",
    "GET /parties/vendors": "api/resources/parties.js:8",
    "POST /parties/vendors": "api/resources/parties.js:8",
    "DELETE /parties/vendors/{id}": "api/resources/parties.js:8",
    "GET /parties/payees": "api/resources/parties.js:8",
    "POST /parties/payees": "api/resources/parties.js:8",
    "DELETE /parties/payees/{id}": "api/resources/parties.js:8",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js") | fixture_files(FIXTURE, "*.json")


def test_each_model_of_an_imported_list_is_a_crud_family_of_routes() -> None:
    found = document(_files())
    assert located(_files()) == SERVED
    assert [f for f in found["findings"] if f["code"].startswith("UNRESOLVED")] == []


def test_a_list_out_of_sight_leaves_each_route_a_finding_at_the_loop() -> None:
    files = _files()
    files["api/catalog/index.js"] = "module.exports = { ENTITIES: loadEntities() };\n"
    found = document(files)
    names = {str(r["name"]) for r in found["resources"]}
    assert not any(name.startswith(("GET /parties", "POST /parties")) for name in names)
    places = {
        (where["path"], where["line"])
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    }
    assert ("api/resources/parties.js", 8) in places  # the loop that calls the generator
    assert ("api/http/crud.js", 2) in places  # the generator's own route


def test_a_loop_over_an_imported_list_in_a_file_spelling_no_bracket() -> None:
    files = {
        "package.json": '{"dependencies": {"express": "^4.19.2"}}',
        "names.js": "const REGIONS = ['north', 'south'];\nmodule.exports = { REGIONS };\n",
        "app.js": (
            "const express = require('express');\n"
            "const { REGIONS: regions } = require('./names');\n"
            "const app = express();\n"
            "for (const region of regions) app.get(`/regions/${region}`, (q, s) => s.end());\n"
        ),
    }
    assert located(files) == {"GET /regions/north": "app.js:4", "GET /regions/south": "app.js:4"}


def test_model_crud_routes_with_the_pre_filter_are_the_scan_of_every_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures" / "repos" / FIXTURE
    found, everything, filtered = pre_filtered(root, monkeypatch)
    assert {str(r["name"]) for r in found["resources"]} == set(SERVED)
    assert filtered <= everything
