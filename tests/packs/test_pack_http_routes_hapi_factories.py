"""pack-http-routes: hapi route objects the project's own functions return, called in the list
given to `server.route` (`[createRoute(), getRoute(opts)]`, an arrow's expression body, a
`return {…}`, ESM's default export, a parameter in the path), joined lists (`login(server,
opts).concat([logout(), …])`, a factory returning `[].concat(a(cfg), b(cfg))`) read part by
part; plugins registered in a loop over a literal list of names (`require(`./plugins/${n}`)`,
a list mapped to modules); hapi-swagger 17's `OAS: 'v3.0'` JSON path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    located,
    prefix_unresolved,
    scanned_both_ways,
)

SERVER = (
    "const Hapi = require('@hapi/hapi');\n"
    "const start = async () => {\n"
    "  const server = Hapi.server({ port: 4000 });\n"
    "  await server.register({ plugin: require('./shelf'), routes: { prefix: '/api' } });\n"
    "  await server.start();\n"
    "};\n"
    "start();\n"
)
# a plugin whose routes are objects returned by its own modules' functions
SHELF: dict[str, str] = {
    "server.js": SERVER,
    "shelf/index.js": (
        "const addBook = require('./add');\n"
        "const oneBook = require('./one');\n"
        "const byAuthor = require('./author');\n"
        "const wipe = require('./wipe').default;\n"
        "module.exports = {\n"
        "  name: 'shelf',\n"
        "  async register(server, options) {\n"
        "    server.route([addBook(), oneBook(), byAuthor('writer'), wipe()]);\n"
        "  },\n"
        "};\n"
    ),
    "shelf/add.js": (
        "module.exports = () => ({\n"
        "  method: 'POST',\n"
        "  path: '/books',\n"
        "  options: { handler: async () => 'ok' },\n"
        "});\n"
    ),
    "shelf/one.js": (
        "module.exports = function () {\n"
        "  return { method: 'GET', path: '/books/{isbn}', options: { handler: () => 1 } };\n"
        "};\n"
    ),
    "shelf/author.js": (
        "module.exports = (segment) => ({\n"
        "  method: 'GET',\n"
        "  path: `/${segment}s/{name}/books`,\n"
        "  handler: () => [],\n"
        "});\n"
    ),
    "shelf/wipe.js": (
        "export default () => ({ method: 'DELETE', path: '/books', handler: () => null });\n"
    ),
}


def test_route_objects_returned_by_the_projects_functions_are_routes() -> None:
    found = located(SHELF)
    assert set(found) == {
        "POST /api/books",
        "GET /api/books/{isbn}",
        "GET /api/writers/{name}/books",
        "DELETE /api/books",
    }
    assert found["POST /api/books"] == "shelf/index.js:8"  # the call that registers it
    assert not document(SHELF)["findings"]


def test_a_factory_on_a_plugin_nothing_registers_is_listed_with_its_prefix_unknown() -> None:
    files = {**SHELF, "server.js": "const Hapi = require('@hapi/hapi');\nHapi.server();\n"}
    assert prefix_unresolved(files) == [
        "DELETE /books",
        "GET /books/{isbn}",
        "GET /writers/{name}/books",
        "POST /books",
    ]
    assert "shelf/index.js:8" in finding_places(files)["UNRESOLVED_PREFIX"]


# a joined table: one part made from options the scan does not show
GATE: dict[str, str] = {
    "server.js": SERVER.replace("./shelf", "./gate"),
    "gate/index.js": (
        "const signIn = require('./signin');\n"
        "const signOut = require('./signout');\n"
        "const keys = require('./keys');\n"
        "exports.plugin = {\n"
        "  name: 'gate',\n"
        "  register(server, options) {\n"
        "    server.route(signIn(server, options).concat([signOut(), keys(options)]));\n"
        "  },\n"
        "};\n"
    ),
    "gate/signin.js": (
        "function visitor(config) {\n"
        "  return [{ method: ['GET'], path: '/signin/visitor/{web?}', handler: () => 1 }];\n"
        "}\n"
        "function providers(config) {\n"
        "  return Object.keys(config.providers).map((p) => ({\n"
        "    method: 'GET', path: `/signin/${p}`, handler: () => 1 }));\n"
        "}\n"
        "module.exports = (_, config) => [].concat(visitor(config), providers(config));\n"
    ),
    "gate/signout.js": (
        "module.exports = () => ({ method: 'POST', path: '/signout', handler: () => 1 });\n"
    ),
    "gate/keys.js": (
        "module.exports = (config) => ({ method: 'GET', path: '/keys', handler: () => 1 });\n"
    ),
}


def test_a_joined_table_is_read_part_by_part_and_the_unread_part_is_a_finding() -> None:
    found = located(GATE)
    assert set(found) == {"GET /api/signin/visitor/{web?}", "POST /api/signout", "GET /api/keys"}
    places = finding_places(GATE)
    assert "gate/index.js:7" in places["UNRESOLVED_ROUTE"]  # the providers' routes


def test_an_unreadable_factory_in_a_route_list_is_a_finding_at_the_call() -> None:
    files = {
        **SHELF,
        "shelf/one.js": "module.exports = require('route-kit').one;\n",
    }
    assert "GET /api/books/{isbn}" not in located(files)
    assert "shelf/index.js:8" in finding_places(files)["UNRESOLVED_ROUTE"]


# plugins registered by name in loops over literal lists
def _looped(register: str) -> dict[str, str]:
    files = {k: v for k, v in SHELF.items() if k != "server.js"}
    files["lib/plugins.js"] = (  # (`register` is read as hapi's in a file that names hapi)
        "/** @param {import('@hapi/hapi').Server} server */\n"
        "async function registerAll(server) {\n" + register + "}\nmodule.exports = registerAll;\n"
    )
    files["server.js"] = (
        "const Hapi = require('@hapi/hapi');\n"
        "const registerAll = require('./lib/plugins');\n"
        "const start = async () => {\n"
        "  const server = Hapi.server({ port: 4000 });\n"
        "  await registerAll(server);\n"
        "};\n"
        "start();\n"
    )
    files["tally/index.js"] = (
        "module.exports = { name: 'tally', register(server) {\n"
        "  server.route({ method: 'GET', path: '/tally', handler: () => 0 });\n"
        "} };\n"
    )
    return files


def test_plugins_required_by_name_in_a_loop_get_the_registers_prefix() -> None:
    files = _looped(
        "  const names = ['shelf', 'tally'];\n"
        "  return names.map(async (name) => {\n"
        "    await server.register({ plugin: require(`../${name}`), routes: { prefix: '/v2' } });\n"
        "  });\n"
    )
    assert set(located(files)) == {
        "POST /v2/books",
        "GET /v2/books/{isbn}",
        "GET /v2/writers/{name}/books",
        "DELETE /v2/books",
        "GET /v2/tally",
    }
    assert not prefix_unresolved(files)


def test_a_list_mapped_to_modules_then_registered_in_a_loop() -> None:
    files = _looped(
        "  const plugins = ['@hapi/inert', '../tally', '../shelf'].map((p) => require(p));\n"
        "  plugins.forEach((plugin) => server.register({ plugin, routes: { prefix: '/v3' } }));\n"
    )
    assert "GET /v3/tally" in located(files)
    assert "POST /v3/books" in located(files)
    assert not prefix_unresolved(files)


def test_a_required_name_concatenated_in_a_loop() -> None:
    files = _looped(
        "  for (const name of ['tally']) {\n"
        "    server.register(require('../' + name), { routes: { prefix: '/x' } });\n"
        "  }\n"
    )
    assert "GET /x/tally" in located(files)
    assert "GET /tally" not in prefix_unresolved(files)  # (the shelf: registered by nothing)


def _swagger(options: str, version: str) -> dict[str, str]:
    return {
        "package.json": '{"dependencies": {"hapi-swagger": "' + version + '"}}\n',
        "server.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const Swagger = require('hapi-swagger');\n"
            "const server = Hapi.server();\n"
            f"server.register({{ plugin: Swagger, options: {{ {options} }} }});\n"
            "server.route({ method: 'GET', path: '/', handler: () => 1 });\n"
        ),
    }


def test_hapi_swagger_17_serves_openapi_json_under_oas_3() -> None:
    names = set(located(_swagger("OAS: 'v3.0'", "^17.2.1")))
    assert "GET /openapi.json" in names and "GET /swagger.json" not in names
    names = set(located(_swagger("OAS: 'v3.0', jsonPath: '/spec.json'", "^17.0.0")))
    assert "GET /spec.json" in names
    assert "GET /swagger.json" in set(located(_swagger("OAS: 'v2'", "^17.0.0")))


def test_hapi_swagger_before_17_ignores_oas() -> None:
    names = set(located(_swagger("OAS: 'v3.0'", "^16.0.0")))
    assert "GET /swagger.json" in names and "GET /openapi.json" not in names


def test_hapi_swagger_oas_computed_makes_its_json_a_finding() -> None:
    files = _swagger("OAS: process.env.OAS", "^17.0.0")
    names = set(located(files))
    assert "GET /swagger.json" not in names and "GET /openapi.json" not in names
    assert "server.js:4" in finding_places(files)["UNRESOLVED_ROUTE"]


# route files found by a glob at run time and required in a loop
GLOBBED: dict[str, str] = {
    "package.json": '{"dependencies": {"@hapi/hapi": "^21.0.0"}}\n',
    "app/main.js": (
        "const Hapi = require('@hapi/hapi');\n"
        "const server = Hapi.server();\n"
        "server.register(require('./web/table'));\n"
    ),
    "app/web/table.js": (
        "const { globSync } = require('node:fs');\n"
        "exports.plugin = {\n"
        "  name: 'table',\n"
        "  register(server) {\n"
        "    globSync('**/table.js', { cwd: __dirname })\n"
        "      .filter((f) => f !== 'table.js')\n"
        "      .forEach((f) => server.route(require('./' + f)));\n"
        "  },\n"
        "};\n"
    ),
    "app/web/plates/table.js": (
        "module.exports = [\n"
        "  { method: 'GET', path: '/plates', handler: () => [] },\n"
        "  { method: 'PUT', path: '/plates/{id}', handler: () => 1 },\n"
        "];\n"
    ),
    "app/web/cups/deep/table.js": (
        "module.exports = [{ method: 'GET', path: '/cups', options: { handler: () => [] } }];\n"
    ),
    "app/web/cups/notes.js": "module.exports = [{ method: 'GET', path: '/notes' }];\n",
}


def test_route_files_a_glob_finds_below_its_cwd_are_each_a_route_table() -> None:
    found = located(GLOBBED)
    assert found == {
        "GET /plates": "app/web/plates/table.js:2",
        "PUT /plates/{id}": "app/web/plates/table.js:3",
        "GET /cups": "app/web/cups/deep/table.js:1",
    }
    assert not document(GLOBBED)["findings"]  # the loader itself filtered out


def test_fs_glob_sync_as_a_member_and_a_filter_not_read_is_a_finding() -> None:
    files = dict(GLOBBED)
    files["app/web/table.js"] = (
        files["app/web/table.js"]
        .replace("const { globSync } = require('node:fs');", "const fs = require('fs');")
        .replace("globSync(", "fs.globSync(")
    )
    assert located(files) == located(GLOBBED)
    files["app/web/table.js"] = files["app/web/table.js"].replace("f !== 'table.js'", "keep(f)")
    assert not located(files)
    assert "app/web/table.js:7" in finding_places(files)["UNRESOLVED_ROUTE"]  # the route call


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looped = _looped(
        "  const names = ['shelf', 'tally'];\n"
        "  return names.map((n) => server.register({ plugin: require(`../${n}`),"
        " routes: { prefix: '/v2' } }));\n"
    )
    for index, files in enumerate((SHELF, GATE, looped, GLOBBED)):
        documents, _ = scanned_both_ways(tmp_path / str(index), files, monkeypatch)
        assert documents[0] == documents[1]
