"""pack-http-routes: hapi route tables gathered from objects of routes and from other tables
(`module.exports = [...Object.values(require('./x/endpoints')), ...other]`, an object of route
options `{ listThing: { method, path, handler }, … }`, objects spreading other modules' objects
`{ ...require('./a'), ...require('./b') }` where a later key wins as in JavaScript, a module's
list read through `Object.values` too): each route listed at its own route options object.
An element of such a table the scan cannot read (a spread of a call's value, a conditional
spread of an object) is an `UNRESOLVED_ROUTE` at that element, the rest of the table still
listed: never a table dropped in silence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, located, scanned_both_ways  # noqa: E402

MANIFEST = '{"dependencies": {"@hapi/hapi": "^21.3.0"}}\n'

SERVER = (
    "'use strict'\n"
    "const Hapi = require('@hapi/hapi')\n"
    "const everything = require('./web/everything')\n"
    "const launch = async () => {\n"
    "  const server = Hapi.server({ port: 8080 })\n"
    "  server.route(everything)\n"
    "  await server.start()\n"
    "}\n"
    "launch()\n"
)
# the table the server registers: names of other tables spread, one route options object
EVERYTHING = (
    "const areas = require('../areas')\n"
    "const { legacy } = require('./legacy')\n"
    "module.exports = [\n"
    "  ...areas,\n"
    "  ...legacy,\n"
    "  { method: 'GET', path: '/ping', handler: () => 'pong' },\n"
    "]\n"
)
LEGACY = "exports.legacy = [{ method: 'POST', path: '/old/submit', handler: (r) => r.payload }]\n"
# the areas' tables, each an object of route options (or a list), read through Object.values
AREAS = (
    "module.exports = [\n"
    "  ...Object.values(require('./parcels/endpoints')),\n"
    "  ...Object.values(require('./ledger/endpoints')),\n"
    "  ...Object.values(require('./audit/endpoints')),\n"
    "]\n"
)
PARCELS = (
    "const ROOT = '/v3/parcels'\n"
    "const act = require('./act')\n"
    "module.exports = {\n"
    "  listParcels: { method: 'GET', path: ROOT, handler: act.list },\n"
    "  oneParcel: {\n"
    "    method: 'GET',\n"
    "    path: `${ROOT}/{parcelId}`,\n"
    "    handler: act.one,\n"
    "  },\n"
    "}\n"
)
# objects spreading other modules' objects: a key both define is the later module's route
LEDGER = "module.exports = {\n  ...require('./parts/entries'),\n  ...require('./parts/sums'),\n}\n"
ENTRIES = (
    "const listEntries = { method: 'GET', path: '/ledger/entries', handler: () => [] }\n"
    "const dropEntry = { method: 'DELETE', path: '/ledger/entries/{n}', handler: () => 1 }\n"
    "module.exports = { listEntries, dropEntry }\n"
)
SUMS = (
    "const BASE = '/ledger'\n"
    "const dropEntry = { method: 'DELETE', path: BASE + '/v2/entries/{n}', handler: () => 2 }\n"
    "module.exports = {\n"
    "  totals: { method: ['GET', 'POST'], path: `${BASE}/totals`, handler: () => 0 },\n"
    "  dropEntry,\n"
    "}\n"
)
# a module's list read through Object.values: the list's own items
AUDIT = "module.exports = [{ method: 'GET', path: '/audit/log', handler: () => [] }]\n"

FILES = {
    "package.json": MANIFEST,
    "server.js": SERVER,
    "web/everything.js": EVERYTHING,
    "web/legacy.js": LEGACY,
    "areas/index.js": AREAS,
    "areas/parcels/endpoints.js": PARCELS,
    "areas/ledger/endpoints.js": LEDGER,
    "areas/ledger/parts/entries.js": ENTRIES,
    "areas/ledger/parts/sums.js": SUMS,
    "areas/audit/endpoints.js": AUDIT,
}

EXPECTED = {
    "GET /v3/parcels": "areas/parcels/endpoints.js:4",
    "GET /v3/parcels/{parcelId}": "areas/parcels/endpoints.js:5",
    "GET /ledger/entries": "areas/ledger/parts/entries.js:1",
    "DELETE /ledger/v2/entries/{n}": "areas/ledger/parts/sums.js:2",
    "GET /ledger/totals": "areas/ledger/parts/sums.js:4",
    "POST /ledger/totals": "areas/ledger/parts/sums.js:4",
    "GET /audit/log": "areas/audit/endpoints.js:1",
    "POST /old/submit": "web/legacy.js:1",
    "GET /ping": "web/everything.js:6",
}


def test_tables_of_objects_of_routes_list_each_route_at_its_object() -> None:
    assert located(FILES) == EXPECTED
    assert document(FILES)["findings"] == []


def test_a_later_spread_object_replaces_a_key_an_earlier_one_holds() -> None:
    # JavaScript's `{ ...a, ...b }`: b's `dropEntry` is the one the table gets, a's is gone
    routes = located(FILES)
    assert "DELETE /ledger/entries/{n}" not in routes
    assert routes["DELETE /ledger/v2/entries/{n}"] == "areas/ledger/parts/sums.js:2"
    # the other way round, the first module's route is the one served
    swapped = {
        **FILES,
        "areas/ledger/endpoints.js": LEDGER.replace("entries'", "@").replace("sums'", "entries'")
        .replace("@", "sums'"),
    }  # fmt: skip
    routes = located(swapped)
    assert routes["DELETE /ledger/entries/{n}"] == "areas/ledger/parts/entries.js:2"
    assert "DELETE /ledger/v2/entries/{n}" not in routes


# -- never silent: an element the scan cannot read is a finding there, the rest listed --

UNREAD_SPREADS = {
    **FILES,
    "web/everything.js": (
        "const areas = require('../areas')\n"
        "const { legacy } = require('./legacy')\n"
        "const makeMore = require('route-maker-of-elsewhere')\n"
        "module.exports = [\n"
        "  ...areas,\n"
        "  ...makeMore({ prefix: '/more' }),\n"
        "  ...legacy,\n"
        "  { method: 'GET', path: '/ping', handler: () => 'pong' },\n"
        "]\n"
    ),
    "areas/ledger/parts/entries.js": (
        "const listEntries = { method: 'GET', path: '/ledger/entries', handler: () => [] }\n"
        "const wipe = { method: 'DELETE', path: '/ledger', handler: () => 1 }\n"
        "module.exports = {\n"
        "  listEntries,\n"
        "  ...(process.env.ALLOW_WIPE === 'yes' && { wipe }),\n"
        "}\n"
    ),
}


def test_an_element_not_read_is_a_finding_at_it_and_the_rest_is_listed() -> None:
    routes = located(UNREAD_SPREADS)
    assert routes == {
        **{k: v for k, v in EXPECTED.items() if k != "GET /ping"},
        "GET /ping": "web/everything.js:8",
    }
    places = finding_places(UNREAD_SPREADS)
    assert set(places) == {"UNRESOLVED_ROUTE"}
    # the call spread in the server's table, and the conditional spread in the object that
    # Object.values reads (placed at the element that spreads that object's values)
    assert "web/everything.js:6" in places["UNRESOLVED_ROUTE"]
    assert "areas/index.js:3" in places["UNRESOLVED_ROUTE"]
    details = [f["detail"] for f in document(UNREAD_SPREADS)["findings"]]
    assert any("makeMore" in d for d in details)


def test_a_table_spreading_only_a_call_it_cannot_read_is_not_silent() -> None:
    files = {
        "package.json": MANIFEST,
        "server.js": SERVER,
        "web/everything.js": (
            "const build = require('./build')\n"
            "module.exports = [...Object.values(build()), ...build().more]\n"
        ),
        "web/build.js": "module.exports = () => JSON.parse(process.env.ROUTES)\n",
    }
    assert located(files) == {}
    assert finding_places(files).get("UNRESOLVED_ROUTE")


@pytest.mark.parametrize("files", [FILES, UNREAD_SPREADS], ids=["read", "unread"])
def test_the_pre_filter_reads_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]


# -- routes a known library makes: @envage/hapi-pg-rest-api's `getRoutes()` --

REST_MANIFEST = '{"dependencies": {"@hapi/hapi": "^21.3.0", "@envage/hapi-pg-rest-api": "7.0.1"}}\n'
REST_API = (
    "const PgApi = require('@envage/hapi-pg-rest-api')\n"
    "const { pool } = require('./db')\n"
    "const VERSION = 'v4'\n"
    "const memosApi = new PgApi({\n"
    "  table: 'app.memos',\n"
    "  primaryKey: 'memo_id',\n"
    "  endpoint: `/store/${VERSION}/memos`,\n"
    "  connection: pool,\n"
    "  validation: {},\n"
    "})\n"
    "module.exports = memosApi.getRoutes()\n"
    "module.exports.repository = memosApi.repo\n"
)
REST_FILES = {
    "package.json": REST_MANIFEST,
    "server.js": SERVER,
    "web/everything.js": (
        "const memos = require('../api/memos')\n"
        "module.exports = [\n"
        "  ...memos,\n"
        "  { method: 'GET', path: '/ping', handler: () => 'pong' },\n"
        "]\n"
    ),
    "api/memos.js": REST_API,
    "api/db.js": "exports.pool = null\n",
}
MEMOS = "/store/v4/memos"
REST_EXPECTED = {
    **{f"{m} {MEMOS}": "api/memos.js:4" for m in ("GET", "POST", "PATCH", "DELETE")},
    **{f"{m} {MEMOS}/{{id*}}": "api/memos.js:4" for m in ("GET", "PUT", "PATCH", "DELETE")},
    f"GET {MEMOS}/schema": "api/memos.js:4",
    "GET /ping": "web/everything.js:4",
}


def test_a_rest_api_s_routes_are_listed_at_its_new_with_the_library() -> None:
    found = document(REST_FILES)
    assert located(REST_FILES) == REST_EXPECTED
    libraries = {r["name"]: r["attrs"].get("library") for r in found["resources"]}
    assert {libraries[n] for n in REST_EXPECTED if n != "GET /ping"} == {"@envage/hapi-pg-rest-api"}
    assert found["findings"] == []


def test_a_rest_api_made_inline_or_imported_as_a_default_reads_the_same() -> None:
    inline = (
        "import RestApi from '@envage/hapi-pg-rest-api'\n"
        "const options = { endpoint: '/store/v4/memos', validation: {} }\n"
        "export default [\n"
        "  ...new RestApi(options).getRoutes(),\n"
        "]\n"
    )
    files = {**REST_FILES, "api/memos.js": inline}
    assert located(files) == {
        **{name: "api/memos.js:4" for name in REST_EXPECTED if name != "GET /ping"},
        "GET /ping": "web/everything.js:4",
    }


def test_a_rest_api_whose_endpoint_or_version_is_not_read_is_a_finding_at_its_new() -> None:
    computed = {**REST_FILES, "api/memos.js": REST_API.replace("`/store/${VERSION}/memos`",
                                                               "process.env.MEMOS_AT")}  # fmt: skip
    assert located(computed) == {"GET /ping": "web/everything.js:4"}
    findings = document(computed)["findings"]
    assert [f["code"] for f in findings] == ["UNRESOLVED_ROUTE"]
    assert "@envage/hapi-pg-rest-api" in findings[0]["detail"]
    assert finding_places(computed)["UNRESOLVED_ROUTE"][0] == "api/memos.js:4"
    # a release before the first one its routes were read from
    older = {**REST_FILES, "package.json": REST_MANIFEST.replace("7.0.1", "^3.0.0")}
    assert located(older) == {"GET /ping": "web/everything.js:4"}
    assert "api/memos.js:4" in finding_places(older)["UNRESOLVED_ROUTE"]


def test_another_package_s_get_routes_is_no_rest_api() -> None:
    other = {**REST_FILES, "api/memos.js": REST_API.replace("@envage/", "@elsewhere/")}
    assert located(other) == {"GET /ping": "web/everything.js:4"}
    assert "web/everything.js:3" in finding_places(other)["UNRESOLVED_ROUTE"]


def test_the_pre_filter_reads_a_rest_api_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, REST_FILES, monkeypatch)
    assert documents[0] == documents[1]
    assert "/store/v4/memos/schema" in documents[0]
