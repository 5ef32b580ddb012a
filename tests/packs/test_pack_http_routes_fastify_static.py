"""pack-http-routes: a static-file plugin's route (`@fastify/static`, `fastify-static`), read
from its register call's options: `GET <prefix>/*` on the registering router (the prefix `/`
when none is given, under the parent plugins' prefixes); options it cannot read (computed, or
`wildcard: false` / `serve: false`, whose routes hang on the files found at start-up) keep the
`UNRESOLVED_ROUTE` at the call naming the library."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

SITE: dict[str, str] = {
    "web/server.mjs": (
        "import createServer from 'fastify';\n"
        "import serveFiles from '@fastify/static';\n"
        "import { portal } from './portal.mjs';\n"
        "const web = createServer();\n"
        "web.register(serveFiles, { root: '/srv/pub', prefix: '/media/' });\n"
        "web.register(serveFiles, { root: '/srv/tr', prefix: '/translations', decorateReply: false });\n"
        "web.register(portal, { prefix: '/portal' });\n"
        "web.get('/ping', async () => 'pong');\n"
        "web.listen({ port: 8080 });\n"
    ),
    "web/portal.mjs": (
        "const files = require('fastify-static');\n"
        "export async function portal(instance) {\n"
        "  instance.register(files, { root: __dirname });\n"
        "  instance.register(files, { root: '/srv/each', prefix: '/each/', wildcard: false });\n"
        "}\n"
    ),
}


def test_a_static_file_plugin_serves_its_prefix() -> None:
    found = document(SITE)
    placed = {
        str(r["name"]): f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
    }
    assert placed == {
        "GET /media/*": "web/server.mjs:5",
        "GET /translations/*": "web/server.mjs:6",
        "GET /portal/*": "web/portal.mjs:3",
        "GET /ping": "web/server.mjs:8",
    }
    # `wildcard: false`: one route per file found at start-up, not known here
    places = [
        f"{where['path']}:{where['line']}"
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    ]
    assert places[0] == "web/portal.mjs:4"  # then where the plugin is registered


def test_static_options_computed_out_of_sight_keep_the_finding() -> None:
    files = {
        **SITE,
        "web/server.mjs": SITE["web/server.mjs"].replace(
            "{ root: '/srv/pub', prefix: '/media/' }", "staticOptions()"
        ),
    }
    found = document(files)
    assert "GET /media/*" not in {str(r["name"]) for r in found["resources"]}
    assert any(
        where["path"] == "web/server.mjs" and where["line"] == 5
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    )


def test_static_routes_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"web/util.mjs": "export const half = (n) => n / 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SITE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /portal/*"' in documents[1]
