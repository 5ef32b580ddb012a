"""pack-http-routes: a function given the app, which binds it to a local of the same name as
its caller's (`export async function wire(root) { const app = root.withTypeProvider<T>(); ...
}` while `build` has `const app = fastify(); await wire(app)`). The two `app`s are different
locals (`js_scopes`): the call that passes the caller's must still be found, and the callee's
local read as the parameter it holds, so what `wire` registers (routes, a documentation
plugin inside `await Promise.all([...])`) is listed under the app its caller passes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, names, scanned_both_ways  # noqa: E402

MANIFEST = json.dumps(
    {"name": "svc", "dependencies": {"fastify": "4.26.0", "@fastify/swagger-ui": "1.9.3"}}
)

# `%s`: how the callee binds its parameter to its own `app`
FASTIFY = (
    "import Fastify, { FastifyInstance } from 'fastify';\n"
    "import explorer from '@fastify/swagger-ui';\n"
    "import { health } from './health';\n"
    "export async function wire(root: FastifyInstance) {\n"
    "%s"
    "  await Promise.all([\n"
    "    app.register(health, { prefix: '/health' }),\n"
    "    app.register(explorer, { routePrefix: '/reference' }),\n"
    "  ]);\n"
    "  app.get('/ping', async () => 'pong');\n"
    "  return app;\n"
    "}\n"
    "async function build() {\n"
    "  const app = Fastify({ logger: true });\n"
    "  await wire(app);\n"
    "  return app;\n"
    "}\n"
    "export default build;\n"
)

HEALTH = (
    "import { FastifyInstance } from 'fastify';\n"
    "export async function health(f: FastifyInstance) {\n"
    "  f.get('/live', async () => ({ ok: true }));\n"
    "}\n"
)

BINDINGS = {
    "a type provider": "  const app = root.withTypeProvider<Typed>();\n",
    "the parameter itself": "  const app = root;\n",
}

_REFERENCE = [
    "GET /reference",
    "GET /reference/*",
    "GET /reference/json",
    "GET /reference/yaml",
    "GET /reference/static/*",
    "GET /reference/static/index.html",
    "GET /reference/static/swagger-initializer.js",
]


def _files(binding: str) -> dict[str, str]:
    return {
        "package.json": MANIFEST,
        "src/app.ts": FASTIFY % BINDINGS[binding],
        "src/health.ts": HEALTH,
    }


@pytest.mark.parametrize("binding", sorted(BINDINGS))
def test_what_the_callee_registers_on_its_own_app_is_listed(binding: str) -> None:
    found = document(_files(binding))
    listed = {str(r["name"]): r for r in found["resources"]}
    assert set(listed) == {*_REFERENCE, "GET /ping", "GET /health/live"}
    assert listed["GET /reference/json"]["attrs"]["library"] == "@fastify/swagger-ui"
    assert listed["GET /reference/json"]["location"] == {"path": "src/app.ts", "line": 8}
    assert listed["GET /ping"]["location"] == {"path": "src/app.ts", "line": 10}
    assert not [f for f in found["findings"] if f["code"] != "UNRESOLVED_ROUTE"]


# Express, CommonJS: the callee narrows nothing, it only renames the parameter it is given.
EXPRESS: dict[str, str] = {
    "server.js": (
        "const express = require('express');\n"
        "function mount(base) {\n"
        "  const app = base;\n"
        "  app.get('/orders/:id', (req, res) => res.json({}));\n"
        "}\n"
        "function main() {\n"
        "  const app = express();\n"
        "  mount(app);\n"
        "  app.listen(8080);\n"
        "}\n"
        "main();\n"
    ),
}


def test_an_express_app_passed_to_a_function_with_its_own_local_of_that_name() -> None:
    assert names(EXPRESS) == {"GET /orders/{id}"}


def test_the_pre_filtered_scan_equals_the_parse_all_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files("a type provider"), monkeypatch)
    assert documents[0] == documents[1]
    assert "/health/live" in documents[0]
