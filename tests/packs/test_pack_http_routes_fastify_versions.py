"""pack-http-routes: what a Fastify app serves that depends on the Fastify (or plugin) version
the repository installs. `all()` registers the framework's `supportedMethods`, which changed by
major (`frameworks._FASTIFY_ALL`, read from Fastify's own source): TRACE and no HEAD beside
GET from 5.0, WebDAV's methods in 4.4 to 5.0, HEAD its own route before 4. Methods only some
of the admitted versions register are an `UNRESOLVED_ROUTE` where `all` is called."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, names, scanned_both_ways


def _manifest(**deps: str) -> str:
    return json.dumps({"name": "relay", "private": True, "dependencies": deps})


def _proxy_app(fastify: str | None) -> dict[str, str]:
    """A catch-all proxy registered inside a plugin the app mounts under a prefix, the plugin
    in another folder than the app's manifest (the nearest `package.json` up the tree)."""
    files = {
        "api/src/proxy/forward.ts": (
            "import type { FastifyInstance } from 'fastify';\n"
            "\n"
            "export default async function forward(scope: FastifyInstance) {\n"
            "  scope.all('/upstream/*', async (req, reply) => reply.send(req.url));\n"
            "  scope.get('/upstream-health', async () => 'ok');\n"
            "}\n"
        ),
        "api/src/server.ts": (
            "import buildServer from 'fastify';\n"
            "import forward from './proxy/forward';\n"
            "const srv = buildServer({ logger: false });\n"
            "srv.register(forward, { prefix: '/edge' });\n"
        ),
    }
    if fastify is not None:
        files["api/package.json"] = _manifest(fastify=fastify)
    return files


_BASE = {"DELETE", "GET", "PATCH", "POST", "PUT", "OPTIONS"}


def _all_methods(files: dict[str, str]) -> set[str]:
    return {n.split(" ", 1)[0] for n in names(files) if n.endswith(" /edge/upstream/*")}


def test_fastify_5_all_registers_trace_and_no_head_beside_get() -> None:
    assert _all_methods(_proxy_app("^5.2.0")) == _BASE | {"TRACE"}
    assert "UNRESOLVED_ROUTE" not in finding_places(_proxy_app("^5.2.0"))


def test_fastify_4_all_registers_webdav_methods_by_minor() -> None:
    webdav = {"PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH"}
    assert _all_methods(_proxy_app("~4.10.1")) == _BASE | webdav | {"TRACE"}
    later = _all_methods(_proxy_app("4.28.1"))
    assert later == _BASE | webdav | {"TRACE", "REPORT", "MKCALENDAR"}


def test_fastify_3_all_lists_head_as_its_own_route() -> None:
    assert _all_methods(_proxy_app("^3.29.0")) == _BASE | {"HEAD"}


def test_a_range_over_majors_lists_the_common_methods_and_names_the_rest_at_the_call() -> None:
    files = _proxy_app(">=3.0.0")
    assert _all_methods(files) == _BASE
    found = document(files)
    details = [str(f["detail"]) for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert any("HEAD" in d and "TRACE" in d and "MKCALENDAR" in d for d in details), details
    assert "api/src/proxy/forward.ts:4" in finding_places(files)["UNRESOLVED_ROUTE"]


def test_no_declared_fastify_lists_the_common_methods_with_a_finding() -> None:
    files = _proxy_app(None)
    assert _all_methods(files) == _BASE
    assert "api/src/proxy/forward.ts:4" in finding_places(files)["UNRESOLVED_ROUTE"]


def test_all_methods_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _proxy_app("^5.0.0"), monkeypatch)
    assert documents[0] == documents[1]
    assert "TRACE /edge/upstream/*" in documents[0]


# a swagger UI whose range (^1.2.0) admits three of its eras, the lock file at the workspace's
# root pinning one of them: the routes of that version are listed, the others are not guessed
def _docs_app(lock_name: str, lock: str) -> dict[str, str]:
    return {
        "package.json": json.dumps({"name": "mono", "private": True, "workspaces": ["apps/*"]}),
        lock_name: lock,
        "apps/catalog/package.json": _manifest(
            fastify="^4.9.0", **{"@fastify/swagger-ui": "^1.2.0"}
        ),
        "apps/catalog/plugins/reference.js": (
            "const explorer = require('@fastify/swagger-ui');\n"
            "module.exports = async function reference(app) {\n"
            "  await app.register(explorer, { routePrefix: '/api-docs' });\n"
            "};\n"
        ),
        "apps/catalog/server.js": (
            "const makeApp = require('fastify');\n"
            "const reference = require('./plugins/reference');\n"
            "const app = makeApp();\n"
            "app.register(reference);\n"
        ),
    }


def _npm_lock(**pins: str) -> str:
    packages = {f"node_modules/{name}": {"version": version} for name, version in pins.items()}
    return json.dumps({"name": "mono", "lockfileVersion": 3, "packages": {"": {}, **packages}})


_UI_13 = {"/api-docs/uiConfig", "/api-docs/initOAuth", "/api-docs/*"}


def test_a_lock_file_pin_picks_the_era_of_a_documentation_plugin() -> None:
    files = _docs_app("package-lock.json", _npm_lock(**{"@fastify/swagger-ui": "1.3.0"}))
    served = {n.split(" ", 1)[1] for n in names(files)}
    assert served >= _UI_13
    assert "/api-docs/static/index.html" not in served
    assert "UNRESOLVED_ROUTE" not in finding_places(files)


def test_a_yarn_lock_pin_counts_too() -> None:
    lock = '"@fastify/swagger-ui@^1.2.0":\n  version "1.9.3"\n  resolved "x"\n'
    served = {n.split(" ", 1)[1] for n in names(_docs_app("yarn.lock", lock))}
    assert "/api-docs/static/index.html" in served
    assert "/api-docs/uiConfig" not in served  # gone from 1.4


def test_a_stale_pin_outside_the_declared_range_is_not_taken() -> None:
    files = _docs_app("package-lock.json", _npm_lock(**{"@fastify/swagger-ui": "0.9.0"}))
    served = {n.split(" ", 1)[1] for n in names(files)}
    assert "/api-docs/uiConfig" not in served  # the eras of ^1.2.0 disagree on it: a finding
    assert "apps/catalog/plugins/reference.js:3" in finding_places(files)["UNRESOLVED_ROUTE"]


def test_a_lock_file_pins_the_fastify_major_of_all() -> None:
    files = _proxy_app(">=3.0.0")
    files["api/package-lock.json"] = _npm_lock(fastify="5.1.0")
    assert _all_methods(files) == _BASE | {"TRACE"}


def test_lock_pins_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _docs_app("package-lock.json", _npm_lock(**{"@fastify/swagger-ui": "1.3.0"}))
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"name": "GET /api-docs/uiConfig"' in documents[0]


def _head_app(fastify: str) -> dict[str, str]:
    return {
        "svc/package.json": _manifest(fastify=fastify),
        "svc/probe.mjs": (
            "import Fastify from 'fastify';\n"
            "const probe = Fastify();\n"
            "probe.route({ method: ['HEAD', 'GET'], url: '/alive', handler: async () => 'y' });\n"
            "probe.route({ method: 'HEAD', url: '/only-head', handler: async () => '' });\n"
        ),
    }


def test_a_head_written_beside_get_is_the_one_fastify_4_serves_anyway() -> None:
    assert names(_head_app("^4.26.0")) == {"GET /alive", "HEAD /only-head"}
    assert names(_head_app("^3.29.0")) == {"GET /alive", "HEAD /alive", "HEAD /only-head"}
    assert "HEAD /alive" in names(_head_app(">=3 <6"))  # some admitted version lists it
