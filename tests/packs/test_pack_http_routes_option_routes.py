"""pack-http-routes: the routes a documentation plugin serves of its own, fixed by its
documented options (`option_routes`: `@fastify/swagger-ui`'s `routePrefix`, hapi-swagger's
paths and switches), listed at the register call with `attrs.library`, under the
registering router's prefixes, for the versions the nearest `package.json` declares. Routes
only some admitted versions serve, and options computed out of sight, are an
`UNRESOLVED_ROUTE` at the register call naming the library (issue 34: "items a known library
generates at runtime get a finding naming the library and the place it is configured")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402


def _manifest(**deps: str) -> str:
    return json.dumps({"name": "svc", "private": True, "dependencies": deps})


# a workspace whose API declares a 4.x swagger UI; its prefix a constant of another module,
# the UI registered inside a plugin the app mounts under `/v2`
FASTIFY: dict[str, str] = {
    "package.json": json.dumps({"name": "mono", "private": True, "workspaces": ["services/*"]}),
    "services/ledger/package.json": _manifest(
        fastify="^4.26.0", **{"@fastify/swagger": "^8.0.0", "@fastify/swagger-ui": "~4.1.0"}
    ),
    "services/ledger/src/paths.ts": "export const REFERENCE_AT = '/reference';\n",
    "services/ledger/src/docs.ts": (
        "import type { FastifyInstance } from 'fastify';\n"
        "import openapi from '@fastify/swagger';\n"
        "import explorer from '@fastify/swagger-ui';\n"
        "import { REFERENCE_AT } from './paths';\n"
        "\n"
        "export async function documentation(scope: FastifyInstance) {\n"
        "  await scope.register(openapi, { openapi: { info: { title: 'ledger' } } });\n"
        "  await scope.register(explorer, {\n"
        "    routePrefix: REFERENCE_AT,\n"
        "    uiConfig: { deepLinking: false },\n"
        "  });\n"
        "}\n"
    ),
    "services/ledger/src/main.ts": (
        "import Fastify from 'fastify';\n"
        "import { documentation } from './docs';\n"
        "const server = Fastify();\n"
        "server.register(documentation, { prefix: '/v2' });\n"
        "server.get('/health', async () => ({ up: true }));\n"
    ),
}

_LEDGER = [
    "GET /v2/reference",
    "GET /v2/reference/static/index.html",
    "GET /v2/reference/static/swagger-initializer.js",
    "GET /v2/reference/json",
    "GET /v2/reference/yaml",
    "GET /v2/reference/static/*",
]


def _places(found: dict[str, object], code: str = "UNRESOLVED_ROUTE") -> list[str]:
    return [
        f"{where['path']}:{where['line']}"
        for f in found["findings"]  # type: ignore[attr-defined]
        if f["code"] == code
        for where in f["locations"]
    ]


def test_a_swagger_ui_serves_its_routes_under_its_route_prefix() -> None:
    found = document(FASTIFY)
    by_name = {str(r["name"]): r for r in found["resources"]}
    for name in _LEDGER:
        assert by_name[name]["location"] == {"path": "services/ledger/src/docs.ts", "line": 8}
        assert by_name[name]["attrs"]["library"] == "@fastify/swagger-ui"
        assert by_name[name]["attrs"]["framework"] == "fastify"
    assert set(by_name) == {*_LEDGER, "GET /health"}
    assert "services/ledger/src/docs.ts:8" not in _places(found)


def test_a_base_dir_adds_its_file_route_from_version_two() -> None:
    files = {
        **FASTIFY,
        "services/ledger/src/docs.ts": FASTIFY["services/ledger/src/docs.ts"].replace(
            "uiConfig: { deepLinking: false },", "baseDir: '/srv/specs',"
        ),
    }
    assert "GET /v2/reference/*" in {str(r["name"]) for r in document(files)["resources"]}


def test_versions_that_serve_different_routes_list_the_common_ones_and_say_so() -> None:
    # `^1.1.0` admits 1.1 (`/uiConfig`, `/initOAuth`), 1.4 and 1.5+ (the initializer, the page)
    files = {
        **FASTIFY,
        "services/ledger/package.json": _manifest(**{"@fastify/swagger-ui": "^1.1.0"}),
    }
    found = document(files)
    names = {str(r["name"]) for r in found["resources"]}
    assert {"GET /v2/reference", "GET /v2/reference/json", "GET /v2/reference/*"} <= names
    assert "GET /v2/reference/uiConfig" not in names
    assert "GET /v2/reference/static/index.html" not in names
    detail = next(
        f["detail"]
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE" and "@fastify/swagger-ui" in f["detail"]
    )
    assert "/v2/reference/uiConfig" not in detail  # said relative to the register call
    assert "`GET /reference/uiConfig`" in detail and "before 1.4" in detail
    assert "services/ledger/src/docs.ts:8" in _places(found)


def test_no_declared_version_lists_what_every_version_serves() -> None:
    files = {k: v for k, v in FASTIFY.items() if k != "services/ledger/package.json"}
    found = document(files)
    names = {str(r["name"]) for r in found["resources"]}
    assert {"GET /v2/reference", "GET /v2/reference/yaml", "GET /v2/reference/static/*"} <= names
    assert "services/ledger/src/docs.ts:8" in _places(found)


def test_a_route_prefix_computed_out_of_sight_keeps_the_finding() -> None:
    files = {
        **FASTIFY,
        "services/ledger/src/docs.ts": FASTIFY["services/ledger/src/docs.ts"].replace(
            "routePrefix: REFERENCE_AT,", "routePrefix: process.argv[2],"
        ),
    }
    found = document(files)
    assert not any("reference" in str(r["name"]) for r in found["resources"])
    assert "services/ledger/src/docs.ts:8" in _places(found)


# hapi: swagger options a `const` of the file, the plugin among others in one register list
HAPI: dict[str, str] = {
    "package.json": _manifest(**{"@hapi/hapi": "^21.3.0", "hapi-swagger": "^17.2.0"}),
    "lib/openapi.js": (
        "'use strict';\n"
        "const Inert = require('@hapi/inert');\n"
        "const Vision = require('@hapi/vision');\n"
        "const Swagger = require('hapi-swagger');\n"
        "const swaggerSettings = {\n"
        "  info: { title: 'kennel' },\n"
        "  documentationPath: '/explore',\n"
        "  jsonPath: '/openapi.json',\n"
        "  swaggerUIPath: '/assets/ui/',\n"
        "};\n"
        "exports.plugin = {\n"
        "  name: 'openapi',\n"
        "  register: async (server) => {\n"
        "    await server.register([Inert, Vision, { plugin: Swagger, options: swaggerSettings }]);\n"
        "  },\n"
        "};\n"
    ),
    "lib/start.js": (
        "const Hapi = require('@hapi/hapi');\n"
        "const openapi = require('./openapi');\n"
        "const boot = async () => {\n"
        "  const server = Hapi.server({ port: 4000 });\n"
        "  await server.register(openapi);\n"
        "  server.route({ method: 'GET', path: '/kennels', handler: () => [] });\n"
        "  await server.start();\n"
        "};\n"
        "boot();\n"
    ),
}


def test_hapi_swagger_serves_its_paths_from_its_options() -> None:
    found = document(HAPI)
    by_name = {str(r["name"]): r for r in found["resources"]}
    files = [
        "favicon-16x16.png", "favicon-32x32.png", "index.html", "oauth2-redirect.html",
        "swagger-ui-bundle.js", "swagger-ui-bundle.js.map", "swagger-ui-standalone-preset.js",
        "swagger-ui-standalone-preset.js.map", "swagger-ui.css", "swagger-ui.css.map",
        "swagger-ui.js", "swagger-ui.js.map", "extend.js",
    ]  # fmt: skip
    expected = {"GET /openapi.json", "GET /explore", *(f"GET /assets/ui/{f}" for f in files)}
    assert set(by_name) == {*expected, "GET /kennels"}
    for name in expected:
        assert by_name[name]["location"] == {"path": "lib/openapi.js", "line": 14}
        assert by_name[name]["attrs"]["library"] == "hapi-swagger"
    assert "lib/openapi.js:14" not in _places(found)


def test_hapi_swagger_switched_off_pages_serve_only_the_json() -> None:
    files = {
        **HAPI,
        "lib/openapi.js": HAPI["lib/openapi.js"].replace(
            "  swaggerUIPath: '/assets/ui/',\n",
            "  documentationPage: false,\n  swaggerUI: false,\n",
        ),
    }
    names = {str(r["name"]) for r in document(files)["resources"]}
    assert names == {"GET /openapi.json", "GET /kennels"}


def test_hapi_swagger_before_10_serves_one_ui_route() -> None:
    files = {**HAPI, "package.json": _manifest(**{"hapi": "16.x", "hapi-swagger": "~9.1.0"})}
    names = {str(r["name"]) for r in document(files)["resources"]}
    assert "GET /assets/ui/{path*}" in names
    assert "GET /assets/ui/index.html" not in names


def test_hapi_swagger_in_a_composed_manifest() -> None:
    files = {
        "package.json": _manifest(**{"@hapi/glue": "^9.0.0", "hapi-swagger": "^16.0.0"}),
        "boot.js": (
            "const Glue = require('@hapi/glue');\n"
            "const layout = {\n"
            "  server: { port: 3030 },\n"
            "  register: {\n"
            "    plugins: [\n"
            "      { plugin: '@hapi/inert' },\n"
            "      { plugin: 'hapi-swagger', options: { jsonPath: '/contract.json' } },\n"
            "    ],\n"
            "  },\n"
            "};\n"
            "Glue.compose(layout, { relativeTo: __dirname });\n"
        ),
    }
    found = document(files)
    names = {str(r["name"]) for r in found["resources"]}
    assert {"GET /contract.json", "GET /documentation", "GET /swaggerui/extend.js"} <= names
    assert len(names) == 15


def test_documented_routes_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"services/ledger/src/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**FASTIFY, **HAPI, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /v2/reference/json"' in documents[1]
    assert '"GET /explore"' in documents[1]


# an OAuth plugin's redirect route, from its `startRedirectPath`, inside a shared plugin
OAUTH: dict[str, str] = {
    "package.json": _manifest(fastify="^5.0.0", **{"@fastify/oauth2": "^8.1.0"}),
    "src/auth/provider.mjs": (
        "import fp from 'fastify-plugin';\n"
        "import oauthPlugin from '@fastify/oauth2';\n"
        "const SIGN_IN = '/session/gitlab';\n"
        "export default fp(async function provider(app) {\n"
        "  app.register(oauthPlugin, {\n"
        "    name: 'gitlab',\n"
        "    scope: ['read_user'],\n"
        "    startRedirectPath: SIGN_IN,\n"
        "    callbackUri: 'https://example.test/session/gitlab/done',\n"
        "  });\n"
        "  app.register(oauthPlugin, { name: 'tokenOnly', scope: [] });\n"
        "});\n"
    ),
    "src/index.mjs": (
        "import fastify from 'fastify';\n"
        "import provider from './auth/provider.mjs';\n"
        "const web = fastify();\n"
        "web.register(async (area) => { area.register(provider); }, { prefix: '/portal' });\n"
    ),
}


def test_an_oauth_plugin_serves_its_start_redirect_path() -> None:
    found = document(OAUTH)
    by_name = {str(r["name"]): r for r in found["resources"]}
    assert set(by_name) == {"GET /portal/session/gitlab"}
    assert by_name["GET /portal/session/gitlab"]["location"] == {
        "path": "src/auth/provider.mjs",
        "line": 5,
    }
    assert by_name["GET /portal/session/gitlab"]["attrs"]["library"] == "@fastify/oauth2"
    assert found["findings"] == []  # no `startRedirectPath`: no route of its own


def test_hapi_swagger_registered_under_a_prefix_serves_under_it() -> None:
    files = {
        **HAPI,
        "lib/openapi.js": HAPI["lib/openapi.js"].replace(
            "{ plugin: Swagger, options: swaggerSettings }]);",
            "{ plugin: Swagger, options: swaggerSettings }], {\n"
            "      routes: { prefix: '/meta' },\n"
            "    });",
        ),
    }
    names = {str(r["name"]) for r in document(files)["resources"]}
    assert {"GET /meta/openapi.json", "GET /meta/explore", "GET /meta/assets/ui/extend.js"} <= names
    assert "GET /openapi.json" not in names


# fastify-metrics, as a TypeScript ESM module takes the CommonJS default (`.default`), in a
# factory under a prefix; the route hangs on `endpoint` and on the declared major
METRICS: dict[str, str] = {
    "package.json": _manifest(fastify="^4.0.0", **{"fastify-metrics": "^10.0.0"}),
    "src/admin.ts": (
        "import { fastify } from 'fastify';\n"
        "import fastifyMetrics from 'fastify-metrics';\n"
        "export function build() {\n"
        "  const admin = fastify();\n"
        "  admin.register(fastifyMetrics.default, {\n"
        "    endpoint: '/prometheus',\n"
        "    routeMetrics: { enabled: false },\n"
        "  });\n"
        "  admin.register(async (ops) => { ops.register(require('fastify-metrics')); },\n"
        "                 { prefix: '/ops' });\n"
        "  return admin;\n"
        "}\n"
    ),
}


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        ("^10.0.0", {"GET /prometheus", "GET /ops/metrics"}),  # '/metrics' by default from 9
        ("~8.0.0", {"GET /prometheus"}),  # before 9: a route only where `endpoint` is given
    ],
)
def test_fastify_metrics_serves_its_endpoint(declared: str, expected: set[str]) -> None:
    files = {
        **METRICS,
        "package.json": _manifest(fastify="^4.0.0", **{"fastify-metrics": declared}),
    }
    found = document(files)
    by_name = {str(r["name"]): r for r in found["resources"]}
    assert set(by_name) == expected
    assert by_name["GET /prometheus"]["location"] == {"path": "src/admin.ts", "line": 5}
    assert by_name["GET /prometheus"]["attrs"]["library"] == "fastify-metrics"
    assert found["findings"] == []


def test_fastify_metrics_endpoint_it_cannot_read_is_a_finding_at_the_register() -> None:
    """`endpoint: null` (no route) or a route's options object: not read, never silent."""
    for endpoint in ("null", "{ url: '/m', schema: {} }"):
        files = {
            **METRICS,
            "src/admin.ts": METRICS["src/admin.ts"].replace("'/prometheus'", endpoint),
        }
        found = document(files)
        assert {str(r["name"]) for r in found["resources"]} == {"GET /ops/metrics"}
        assert _places(found) == ["src/admin.ts:5"]
        assert "fastify-metrics" in json.dumps(found["findings"])
