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
