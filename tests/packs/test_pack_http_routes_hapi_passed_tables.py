"""pack-http-routes: hapi route tables given to a function of the project's as an argument and
registered on its parameter (`const boot = async (port, deps, routes) => { …;
server.route(routes) }`, called `boot(port, deps, Tables.publicTable(deps))`): the table each
scanned call passes — what a project function taking parameters returns (an array literal of
route options), an array a module exports, a member of an imported namespace — through one or
two functions passing it on, each call's table on the server it is given to; an argument the
scan cannot read is a finding at the registration and at the call that passes it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, located, scanned_both_ways  # noqa: E402

MANIFEST = '{"dependencies": {"@hapi/hapi": "^21.0.0"}}\n'

# -- A: a factory taking parameters returns the table; two servers made by one function --

TABLES = (
    "const relay = (deps, req, h) => deps.dispatch(req.path, h)\n"
    "// the table each server is given, its handlers closing over what the caller passes\n"
    "const publicTable = (deps) => [\n"
    "  { method: 'GET', path: '/status', handler: (req, h) => relay(deps, req, h) },\n"
    "  {\n"
    "    method: 'PUT',\n"
    "    path: '/tickets/{ref}',\n"
    "    handler: (req, h) => relay(deps, req, h),\n"
    "    options: { tags: ['api'] },\n"
    "  },\n"
    "]\n"
    "const staffTable = (deps) => [\n"
    "  { method: 'GET', path: '/status', handler: (req, h) => relay(deps, req, h) },\n"
    "  { method: 'DELETE', path: '/tickets/{ref}', handler: (req, h) => relay(deps, req, h) },\n"
    "]\n"
    "module.exports = { publicTable, staffTable }\n"
)
BOOT = (
    "const Hapi = require('@hapi/hapi')\n"
    "const Tables = require('./http/tables')\n"
    "const boot = async (port, deps, routes, staff) => {\n"
    "  const server = await new Hapi.Server({ port })\n"
    "  server.app.staff = staff\n"
    "  server.route(routes)\n"
    "  await server.start()\n"
    "  return server\n"
    "}\n"
    "const startPublic = async ({ PORT, wire }) => {\n"
    "  const deps = await wire()\n"
    "  return boot(PORT, deps, Tables.publicTable(deps), false)\n"
    "}\n"
    "const startStaff = async ({ STAFF_PORT, wire }) => {\n"
    "  const deps = await wire()\n"
    "  return boot(STAFF_PORT, deps, Tables.staffTable(deps), true)\n"
    "}\n"
    "module.exports = { startPublic, startStaff }\n"
)
FACTORY: dict[str, str] = {
    "package.json": MANIFEST,
    "src/http/tables.js": TABLES,
    "src/boot.js": BOOT,
}


def test_a_table_a_factory_returns_reaches_the_route_call_of_the_parameter() -> None:
    assert located(FACTORY) == {
        "GET /status": "src/boot.js:6",  # in both tables: one route at the registering call
        "PUT /tickets/{ref}": "src/boot.js:6",
        "DELETE /tickets/{ref}": "src/boot.js:6",
    }
    assert not document(FACTORY)["findings"]


def test_each_server_serves_only_the_table_its_call_passes() -> None:
    """Dropping the staff server's call leaves its table unregistered: the staff-only route
    goes, so the routes are bound per call, not pooled from every table the file names."""
    files = {
        **FACTORY,
        "src/boot.js": BOOT.replace(
            "  return boot(STAFF_PORT, deps, Tables.staffTable(deps), true)\n",
            "  return deps\n",
        ),
    }
    assert sorted(located(files)) == ["GET /status", "PUT /tickets/{ref}"]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (  # joined from two factories' results
            "Tables.staffTable(deps).concat(Tables.publicTable(deps))",
            {"GET /status", "PUT /tickets/{ref}", "DELETE /tickets/{ref}"},
        ),
        (  # a factory's list spread into a literal with one more route
            "[...Tables.staffTable(deps), { method: 'GET', path: '/echo', handler: () => 1 }]",
            {"GET /status", "PUT /tickets/{ref}", "DELETE /tickets/{ref}", "GET /echo"},
        ),
        (  # a literal table written at the call: the staff factory's routes are not served
            "[{ method: 'GET', path: '/echo', handler: () => 1 }]",
            {"GET /status", "PUT /tickets/{ref}", "GET /echo"},
        ),
    ],
)
def test_a_table_joined_or_written_at_the_call_is_read_part_by_part(
    given: str, expected: set[str]
) -> None:
    files = {**FACTORY, "src/boot.js": BOOT.replace("Tables.staffTable(deps)", given)}
    assert set(located(files)) == expected
    assert not document(files)["findings"]


def test_a_literal_table_passed_is_placed_where_its_entries_are_written() -> None:
    given = "[{ method: 'GET', path: '/echo', handler: () => 1 }]"
    files = {**FACTORY, "src/boot.js": BOOT.replace("Tables.staffTable(deps)", given)}
    assert located(files)["GET /echo"] == "src/boot.js:16"


# -- B: an array a module exports, passed by name and as a namespace's member (ESM) --

EXPORTED: dict[str, str] = {
    "package.json": '{"type": "module", "dependencies": {"@hapi/hapi": "^21.0.0"}}\n',
    "src/routes/ledger.js": (
        "const show = () => 'entry'\n"
        "export const ledgerRoutes = [\n"
        "  { method: 'GET', path: '/ledger/{day}', handler: show },\n"
        "  { method: 'POST', path: '/ledger', handler: show },\n"
        "]\n"
    ),
    "src/routes/index.js": (
        "export const audit = [{ method: 'GET', path: '/audit', options: { handler: () => 1 } }]\n"
    ),
    "src/serve.js": (
        "import Hapi from '@hapi/hapi'\n"
        "import { ledgerRoutes } from './routes/ledger.js'\n"
        "import * as More from './routes/index.js'\n"
        "export async function serve(port, routes) {\n"
        "  const server = Hapi.server({ port })\n"
        "  server.route(routes)\n"
        "  return server\n"
        "}\n"
        "await serve(3000, ledgerRoutes)\n"
        "await serve(3001, More.audit)\n"
    ),
}


def test_an_exported_array_passed_by_name_or_as_a_namespace_member_is_registered() -> None:
    assert located(EXPORTED) == {
        "GET /ledger/{day}": "src/routes/ledger.js:3",  # a bound table: where it is written
        "POST /ledger": "src/routes/ledger.js:4",
        "GET /audit": "src/routes/index.js:1",
    }
    assert not document(EXPORTED)["findings"]


# -- C: through two functions, each passing the table on --

TWO_LEVELS: dict[str, str] = {
    "package.json": MANIFEST,
    "lib/routes.js": (
        "module.exports.inventory = (store) => [\n"
        "  { method: 'GET', path: '/items', handler: () => store.all() },\n"
        "  { method: ['POST', 'PATCH'], path: '/items/{sku}', handler: () => store.put() },\n"
        "]\n"
    ),
    "lib/server.js": (
        "const Hapi = require('@hapi/hapi')\n"
        "const attach = (server, table) => {\n"
        "  server.route(table)\n"
        "}\n"
        "const create = async (opts, table) => {\n"
        "  const server = Hapi.server({ port: opts.port })\n"
        "  attach(server, table)\n"
        "  return server\n"
        "}\n"
        "module.exports = { create }\n"
    ),
    "index.js": (
        "const { create } = require('./lib/server')\n"
        "const { inventory } = require('./lib/routes')\n"
        "const main = async (store) => create({ port: 8080 }, inventory(store))\n"
        "main(new Map())\n"
    ),
}


def test_a_table_passed_on_through_two_functions_reaches_the_route_call() -> None:
    assert sorted(located(TWO_LEVELS)) == [
        "GET /items",
        "PATCH /items/{sku}",
        "POST /items/{sku}",
    ]
    assert not document(TWO_LEVELS)["findings"]


# -- D: an argument the scan cannot read --


def test_a_table_out_of_sight_is_a_finding_where_registered_and_where_passed() -> None:
    files = {
        **FACTORY,
        "src/boot.js": BOOT.replace(
            "Tables.staffTable(deps)", "require('route-kit').tableFor(deps)"
        ),
    }
    assert sorted(located(files)) == ["GET /status", "PUT /tickets/{ref}"]
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "src/boot.js:16",  # the call passing the table
        "src/boot.js:6",  # the registration
    ]


def test_a_table_held_by_a_local_is_followed_and_a_choice_is_a_finding_at_the_call() -> None:
    held = BOOT.replace(
        "  return boot(STAFF_PORT, deps, Tables.staffTable(deps), true)\n",
        "  const table = Tables.staffTable(deps)\n  return boot(STAFF_PORT, deps, table, true)\n",
    )
    assert "DELETE /tickets/{ref}" in located({**FACTORY, "src/boot.js": held})
    chosen = BOOT.replace("Tables.staffTable(deps)", "(deps.open ? Tables.staffTable(deps) : [])")
    files = {**FACTORY, "src/boot.js": chosen}
    assert "DELETE /tickets/{ref}" not in located(files)
    # never silent: the staff call's table is named where it is passed
    assert {"src/boot.js:6", "src/boot.js:16"} <= set(finding_places(files)["UNRESOLVED_ROUTE"])


def test_a_parameter_no_call_passes_is_a_finding_at_the_registration() -> None:
    files = {**FACTORY, "src/boot.js": BOOT.split("const startPublic")[0]}
    assert located(files) == {}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["src/boot.js:6"]


@pytest.mark.parametrize("files", [FACTORY, EXPORTED, TWO_LEVELS])
def test_the_pre_filter_keeps_the_files_passing_tables(
    tmp_path: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
