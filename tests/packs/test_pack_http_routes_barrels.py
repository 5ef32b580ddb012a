"""pack-http-routes: a router or plugin mounted through re-export barrels that give a module's
namespace a name (`export * as routes from './routes'`), its members re-exported from their own
files (`export { default as x } from`, `export { x as y } from`, `export * from`), reached
through any number of barrels by every JS framework's mount (Fastify's `register`, Express's
and Koa's `use`, hapi's `register`): one resolution, the module linker's export table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import finding_places, placed, scanned_both_ways  # noqa: E402

# Four Fastify plugins, each exported its own way from its file.
PLUGINS: dict[str, str] = {
    "svc/http/routes/ledger/index.ts": (
        "export default async function ledger(app) {\n  app.get('/entries', async () => []);\n}\n"
    ),
    "svc/http/routes/ping.ts": "export default async (app) => { app.get('/', async () => 'ok'); };\n",
    "svc/http/routes/ticket.ts": (
        "export async function ticket(app) { app.post('/open', async () => 1); }\n"
    ),
    "svc/http/routes/misc.ts": "export async function misc(app) { app.put('/misc', async () => 1); }\n",
    # the barrel naming each plugin: a default renamed, a named export renamed, a star export
    "svc/http/routes/index.ts": (
        "export { default as ledger } from './ledger'\n"
        "export { default as ping } from './ping'\n"
        "export { ticket as tix } from './ticket'\n"
        "export * from './misc'\n"
    ),
}

MOUNTS = (
    "app.register({ns}.ledger, {{ prefix: 'ledger' }})\n"
    "app.register({ns}.ping, {{ prefix: '/ping' }})\n"
    "app.register({ns}.tix, {{ prefix: 'tix' }})\n"
    "app.register({ns}.misc, {{ prefix: 'm' }})\n"
)


def _fastify_app(imports: str, ns: str) -> str:
    return (
        "import fastify from 'fastify'\n"
        + imports
        + "const app = fastify()\n"
        + MOUNTS.format(ns=ns)
    )


MOUNTED = {
    "GET /ledger/entries": "svc/http/routes/ledger/index.ts:2 fastify",
    "GET /ping": "svc/http/routes/ping.ts:1 fastify",
    "POST /tix/open": "svc/http/routes/ticket.ts:1 fastify",
    "PUT /m/misc": "svc/http/routes/misc.ts:1 fastify",
}

# One barrel names the routes folder's namespace, the app imports that name.
NAMESPACE_BARREL = {
    **PLUGINS,
    "svc/http/index.ts": "export * as routes from './routes'\nexport const unrelated = 1\n",
    "svc/app.ts": _fastify_app("import { routes } from './http'\n", "routes"),
}

# Two barrels deep, the outer namespace imported under another name: `web.routes.ledger`.
TWO_NAMESPACES = {
    **PLUGINS,
    "svc/http/index.ts": "export * as routes from './routes'\n",
    "svc/lib.ts": "export * as http from './http'\n",
    "svc/app.ts": _fastify_app("import { http as web } from './lib'\n", "web.routes"),
}

# The same namespace made by `import * as` and re-exported by name, and one star-re-exported.
IMPORTED_THEN_EXPORTED = {
    **PLUGINS,
    "svc/http/names.ts": "import * as routes from './routes'\nexport { routes }\n",
    "svc/http/index.ts": "export * from './names'\n",
    "svc/app.ts": _fastify_app("import { routes as r } from './http'\n", "r"),
}


@pytest.mark.parametrize(
    "files",
    [NAMESPACE_BARREL, TWO_NAMESPACES, IMPORTED_THEN_EXPORTED],
    ids=["export-star-as", "two-namespaces-deep", "import-star-re-exported"],
)
def test_fastify_plugins_mounted_through_a_namespace_barrel_take_their_prefix(
    files: dict[str, str],
) -> None:
    assert placed(files) == MOUNTED
    assert finding_places(files) == {}


def test_an_express_router_mounted_through_a_namespace_barrel() -> None:
    files = {
        "web/routes/ledger.ts": (
            "import { Router } from 'express'\n"
            "const r = Router()\n"
            "r.get('/entries', (q, s) => s.json([]))\n"
            "export default r\n"
        ),
        "web/routes/index.ts": "export { default as ledger } from './ledger'\n",
        "web/http.ts": "export * as routes from './routes'\n",
        "web/app.ts": (
            "import express from 'express'\n"
            "import { routes } from './http'\n"
            "const app = express()\n"
            "app.use('/ledger', routes.ledger)\n"
        ),
    }
    assert placed(files) == {"GET /ledger/entries": "web/routes/ledger.ts:3 express"}
    assert finding_places(files) == {}


def test_a_koa_router_mounted_through_two_namespace_barrels() -> None:
    files = {
        "kapp/api/users.ts": (
            "import Router from '@koa/router'\n"
            "const r = new Router({ prefix: '/users' })\n"
            "r.get('/:id', async (ctx) => {})\n"
            "export default r\n"
        ),
        "kapp/api/index.ts": "export { default as users } from './users'\n",
        "kapp/web/index.ts": "export * as api from '../api'\n",
        "kapp/app.ts": (
            "import Koa from 'koa'\n"
            "import { api } from './web'\n"
            "const app = new Koa()\n"
            "app.use(api.users.routes())\n"
        ),
    }
    assert placed(files) == {"GET /users/{id}": "kapp/api/users.ts:3 koa"}
    assert finding_places(files) == {}


def test_a_hapi_plugin_registered_through_a_namespace_barrel() -> None:
    files = {
        "happ/plugins/notes.ts": (
            "export const notes = { name: 'notes', register: async (server) => {\n"
            "  server.route({ method: 'GET', path: '/notes', handler: () => [] })\n"
            "} }\n"
        ),
        "happ/plugins/index.ts": "export { notes as notesPlugin } from './notes'\n",
        "happ/all.ts": "export * as plugins from './plugins'\n",
        "happ/server.ts": (
            "import Hapi from '@hapi/hapi'\n"
            "import { plugins } from './all'\n"
            "const server = Hapi.server()\n"
            "await server.register(plugins.notesPlugin, { routes: { prefix: '/v1' } })\n"
        ),
    }
    assert placed(files) == {"GET /v1/notes": "happ/plugins/notes.ts:2 hapi"}
    assert finding_places(files) == {}


def test_the_prefilter_reads_namespace_barrels_as_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, TWO_NAMESPACES, monkeypatch)
    assert documents[0] == documents[1]
    assert "/ledger/entries" in documents[0]
    assert "UNRESOLVED_PREFIX" not in documents[0]
