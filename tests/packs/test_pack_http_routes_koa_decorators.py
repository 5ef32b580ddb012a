"""koa-swagger-decorator (`packs/routes/koa_decorators.py`): routes declared by `@request` on
class methods, served through a `SwaggerRouter`'s `map`, `mapDir` and `swagger`; the fixture's
truth is the library's own `router.stack` (koa-swagger-decorator 1.7.3 on koa-router 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "koa-decorators"
# what koa-swagger-decorator 1.7.3 serves for the fixture: `router.stack` of its two routers
# after loading src/routing.js (HEAD left out), `:id` written `{id}` as the pack names it
SERVED = {
    "GET /api/v2/ledger/entries": "src/handlers/ledger.ts:5",
    "POST /api/v2/ledger/entries/{entryId}/void": "src/handlers/ledger.ts:12",
    "GET /api/v2/accounts": "src/handlers/auto/accounts.ts:4",
    "DELETE /api/v2/accounts/{id}": "src/handlers/auto/accounts.ts:9",
    "GET /api/v2/openapi.json": "src/routing.js:8",
    "GET /api/v2/swagger-html": "src/routing.js:8",
    "GET /api/v2/ping": "src/routing.js:9",
    "GET /status": "src/handlers/nested/a/status.ts:4",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.*")


def test_decorated_classes_are_served_as_the_library_maps_them() -> None:
    """`map(Class, {})` under the router's prefix and the class's `@prefix` (imported under
    another name), `mapDir` of a folder (`path.join`, `path.resolve` of `__dirname`; its own
    files only with `recursive: false`, every level by default; a default export that is no
    class passed over), static and instance methods, decorators in any order, `{id}` as `:id`;
    `swagger()` with its JSON endpoint renamed; the router's own `get`."""
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
        if not r["attrs"].get("prefixUnresolved")
    }
    assert placed == SERVED
    assert {r["attrs"]["framework"] for r in found["resources"]} == {"koa"}
    handlers = {r["name"]: r["attrs"].get("handler") for r in found["resources"]}
    assert handlers["POST /api/v2/ledger/entries/{entryId}/void"] == "Ledger.cancel"


def test_a_class_nothing_maps_is_listed_with_its_prefix_unknown_and_a_finding() -> None:
    """`deep/hidden.ts` lies below a folder mapped without recursion: not served there; its
    class is a router nothing the files show mounts, so its route is flagged, never silent."""
    found = document(_files())
    hidden = [r for r in found["resources"] if r["name"] == "GET /hidden"]
    assert [r["attrs"].get("prefixUnresolved") for r in hidden] == [True]
    places = [
        location["path"]
        for finding in found["findings"]
        if finding["code"] == "UNRESOLVED_PREFIX"
        for location in finding["locations"]
    ]
    assert "src/handlers/auto/deep/hidden.ts" in places


def test_map_dir_of_a_folder_out_of_sight_is_a_finding_naming_the_library() -> None:
    found = document(
        {
            "app.js": "const { SwaggerRouter } = require('koa-swagger-decorator');\n"
            "const r = new SwaggerRouter();\nr.mapDir(process.env.CONTROLLERS);\n"
            "module.exports = r;\n"
        }
    )
    details = [f["detail"] for f in found["findings"] if f["locations"][0]["path"] == "app.js"]
    assert any("koa-swagger-decorator" in d for d in details), details
    assert found["resources"] == []


def test_the_pre_filtered_scan_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[1] == documents[0]
    names = {r["name"] for r in json.loads(documents[0])["resources"]}
    assert set(SERVED) <= names
