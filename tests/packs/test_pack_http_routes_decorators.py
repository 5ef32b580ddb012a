"""pack-http-routes: the controller-decorator libraries of NestJS's shape, read through their
records (`frameworks.Controllers`) by the one decorator reader (`nest`): fastify-decorators,
routing-controllers, inversify-express-utils and Ts.ED. Each fixture is our own service: the
decorators' path spellings (positional, `{ route }`/`{ url }` options, constants of another
file, aliases), `@All`/`@httpMethod`, and the bootstraps that serve the controllers (a class
list, a glob, a folder and mask, `mount`) with their prefixes; what a bootstrap does not say
is a finding at it, a controller none serves a finding at the controller."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes.frameworks import UNREAD  # noqa: E402
from routes_harness import (  # noqa: E402
    document,
    finding_places,
    placed,
    prefix_unresolved,
    scanned_both_ways,
)

EVERY = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")

# fastify-decorators: a plugin registered with `{ prefix, directory, mask }` finds the
# controllers of a folder; paths as `{ route }`, `{ url }`, a string, a constant of another file
FASTIFY_DEC: dict[str, str] = {
    "server/index.ts": (
        "import Fastify from 'fastify';\n"
        "import { bootstrap as loadHandlers } from 'fastify-decorators';\n"
        "const server = Fastify();\n"
        "server.register(loadHandlers, {\n"
        "  prefix: '/v3',\n"
        "  directory: new URL('handlers', import.meta.url),\n"
        "  mask: /\\.handle\\./,\n"
        "});\n"
    ),
    "server/paths.ts": "export const PARCELS = '/parcels';\nexport const ONE = '/:parcelId';\n",
    "server/handlers/parcel.handle.ts": (
        "import { Controller, GET as Read, POST, ALL } from 'fastify-decorators';\n"
        "import { PARCELS, ONE } from '../paths';\n"
        "@Controller({ route: PARCELS })\n"
        "export default class ParcelHandlers {\n"
        "  @Read({ url: ONE })\n"
        "  async one() {}\n"
        "  @POST('/')\n"
        "  async make() {}\n"
        "  @ALL('/echo')\n"
        "  async echo() {}\n"
        "}\n"
    ),
    "server/handlers/nested/depot.handle.ts": (
        "import { Controller, DELETE } from 'fastify-decorators';\n"
        "@Controller('/depots')\n"
        "export class DepotHandlers {\n"
        "  @DELETE({ url: '/:depotId', schema: {} })\n"
        "  async drop() {}\n"
        "}\n"
    ),
    # in the folder but not matched by the mask: not served, a finding at its controller
    "server/handlers/stray.ts": (
        "import { Controller, GET } from 'fastify-decorators';\n"
        "@Controller({ route: '/stray' })\n"
        "export class Stray {\n"
        "  @GET('/x')\n"
        "  async x() {}\n"
        "}\n"
    ),
}


def test_fastify_decorators_controllers_in_the_bootstrap_folder_are_routes() -> None:
    found = placed(FASTIFY_DEC)
    every = {f"{m} /v3/parcels/echo" for m in EVERY}
    assert {
        "GET /v3/parcels/{parcelId}",
        "POST /v3/parcels",
        "DELETE /v3/depots/{depotId}",
        *every,
    } <= set(found)
    assert found["GET /v3/parcels/{parcelId}"] == (
        "server/handlers/parcel.handle.ts:5 fastify-decorators"
    )
    assert "fastify-decorators" not in {u.name for u in UNREAD}


def test_a_controller_no_bootstrap_serves_is_a_finding_at_the_controller() -> None:
    assert prefix_unresolved(FASTIFY_DEC) == ["GET /stray/x"]
    assert "server/handlers/stray.ts:2" in finding_places(FASTIFY_DEC)["UNRESOLVED_PREFIX"]


def test_a_computed_bootstrap_folder_is_a_finding_at_the_bootstrap() -> None:
    files = {
        **FASTIFY_DEC,
        "server/index.ts": FASTIFY_DEC["server/index.ts"].replace(
            "new URL('handlers', import.meta.url)", "pickFolder()"
        ),
    }
    assert "server/index.ts:4" in finding_places(files)["UNRESOLVED_PREFIX"]
    assert "GET /v3/parcels/{parcelId}" in prefix_unresolved(files)  # its prefix is read


# routing-controllers: `useExpressServer(app, { routePrefix, controllers })`, controllers
# given as classes in one app and as a glob in another; `@Method('patch', path)`, `@All`
ROUTING: dict[str, str] = {
    "src/boot.ts": (
        "import express from 'express';\n"
        "import { useExpressServer } from 'routing-controllers';\n"
        "import { LedgerApi } from './api/ledger';\n"
        "const PREFIX = '/books';\n"
        "const app = express();\n"
        "useExpressServer(app, { routePrefix: PREFIX, controllers: [LedgerApi] });\n"
    ),
    "src/api/ledger.ts": (
        "import { JsonController, Get, Method, All, Param } from 'routing-controllers';\n"
        "@JsonController('/ledger')\n"
        "export class LedgerApi {\n"
        "  @Get('/entries/:entryId')\n"
        "  entry(@Param('entryId') id: string) {}\n"
        "  @Method('patch', '/entries/:entryId')\n"
        "  amend() {}\n"
        "  @All('/ping')\n"
        "  ping() {}\n"
        "}\n"
    ),
    "admin/start.ts": (
        "import * as rc from 'routing-controllers';\n"
        "import * as path from 'path';\n"
        "rc.createExpressServer({\n"
        "  routePrefix: '/console',\n"
        "  controllers: [path.join(__dirname, 'pages', '**', '*.js')],\n"
        "}).listen(4000);\n"
    ),
    "admin/pages/deep/users.ts": (
        "import { Controller, Post } from 'routing-controllers';\n"
        "@Controller()\n"
        "export class UserPages {\n"
        "  @Post('/users')\n"
        "  create() {}\n"
        "}\n"
    ),
}


def test_routing_controllers_routes_under_the_route_prefix_of_their_bootstrap() -> None:
    found = placed(ROUTING)
    assert found["GET /books/ledger/entries/{entryId}"] == (
        "src/api/ledger.ts:4 routing-controllers"
    )
    assert "PATCH /books/ledger/entries/{entryId}" in found
    assert {f"{m} /books/ledger/ping" for m in EVERY} <= set(found)
    assert found["POST /console/users"] == "admin/pages/deep/users.ts:4 routing-controllers"
    assert prefix_unresolved(ROUTING) == []


def test_routing_controllers_options_not_read_are_a_finding_at_the_bootstrap() -> None:
    files = {
        **ROUTING,
        "src/boot.ts": ROUTING["src/boot.ts"].replace(
            "{ routePrefix: PREFIX, controllers: [LedgerApi] }", "settings()"
        ),
    }
    assert "src/boot.ts:6" in finding_places(files)["UNRESOLVED_PREFIX"]
    assert "GET /ledger/entries/{entryId}" in prefix_unresolved(files)


def test_a_routing_controllers_bootstrap_listing_no_controllers_serves_every_one() -> None:
    files = {
        **ROUTING,
        "src/boot.ts": ROUTING["src/boot.ts"].replace(", controllers: [LedgerApi]", ""),
        "admin/start.ts": "import { createExpressServer } from 'routing-controllers';\n"
        "createExpressServer().listen(4000);\n",
    }
    found = placed(files)
    # served by both apps: under the first's prefix and under none
    assert {"GET /books/ledger/entries/{entryId}", "GET /ledger/entries/{entryId}"} <= set(found)
    assert {"POST /books/users", "POST /users"} <= set(found)
    assert prefix_unresolved(files) == []


# inversify-express-utils: `@controller(path, ...middleware)`, `@httpGet`, `@httpMethod`,
# served by `new InversifyExpressServer(container, null, { rootPath })` (no list: all)
INVERSIFY: dict[str, str] = {
    "app/server.ts": (
        "import { Container } from 'inversify';\n"
        "import { InversifyExpressServer as Server } from 'inversify-express-utils';\n"
        "import './controllers/tickets';\n"
        "const container = new Container();\n"
        "const server = new Server(container, null, { rootPath: '/desk' });\n"
        "server.build().listen(3000);\n"
    ),
    "app/controllers/tickets.ts": (
        "import { controller, httpGet, httpMethod, httpDelete } from 'inversify-express-utils';\n"
        "@controller('/tickets', authMiddleware)\n"
        "export class Tickets {\n"
        "  @httpGet('/')\n"
        "  list() {}\n"
        "  @httpMethod('put', '/:ticketId')\n"
        "  replace() {}\n"
        "  @httpDelete('/:ticketId')\n"
        "  close() {}\n"
        "}\n"
    ),
}


def test_inversify_controllers_are_routes_under_the_root_path() -> None:
    found = placed(INVERSIFY)
    assert found["GET /desk/tickets"] == "app/controllers/tickets.ts:4 inversify-express-utils"
    assert {"PUT /desk/tickets/{ticketId}", "DELETE /desk/tickets/{ticketId}"} <= set(found)
    assert prefix_unresolved(INVERSIFY) == []


def test_a_method_given_as_a_computed_value_is_a_finding_at_the_route() -> None:
    files = {
        **INVERSIFY,
        "app/controllers/tickets.ts": INVERSIFY["app/controllers/tickets.ts"].replace(
            "httpMethod('put'", "httpMethod(VERB"
        ),
    }
    assert "app/controllers/tickets.ts:6" in finding_places(files)["UNRESOLVED_ROUTE"]
    assert not any("{ticketId}" in n and n.startswith(("GET", "PUT")) for n in placed(files))


# Ts.ED: `@Configuration({ mount: { '/rest': [...], '/v2': glob } })`
TSED: dict[str, str] = {
    "src/Server.ts": (
        "import { Configuration } from '@tsed/di';\n"
        "import { Shelves } from './rest/Shelves';\n"
        "const rootDir = __dirname;\n"
        "@Configuration({\n"
        "  rootDir,\n"
        "  mount: {\n"
        "    '/rest': [Shelves],\n"
        "    '/v2': `${rootDir}/v2/**/*.ts`,\n"
        "  },\n"
        "})\n"
        "export class Server {}\n"
    ),
    "src/rest/Shelves.ts": (
        "import { Controller } from '@tsed/di';\n"
        "import { Get, Put } from '@tsed/schema';\n"
        "@Controller('/shelves')\n"
        "export class Shelves {\n"
        "  @Get('/:shelfId')\n"
        "  one() {}\n"
        "  @Put()\n"
        "  put() {}\n"
        "}\n"
    ),
    "src/v2/Books.ts": (
        "import { Controller, Get } from '@tsed/common';\n"
        "@Controller('books')\n"
        "export class Books {\n"
        "  @Get('/')\n"
        "  all() {}\n"
        "}\n"
    ),
}


def test_tsed_controllers_are_routes_under_their_mount_path() -> None:
    found = placed(TSED)
    assert found["GET /rest/shelves/{shelfId}"] == "src/rest/Shelves.ts:5 tsed"
    assert "PUT /rest/shelves" in found
    assert found["GET /v2/books"] == "src/v2/Books.ts:4 tsed"
    assert prefix_unresolved(TSED) == []


def test_the_libraries_are_read_and_named_in_no_unread_finding() -> None:
    for files in (FASTIFY_DEC, ROUTING, INVERSIFY, TSED):
        assert "UNREAD_FRAMEWORK" not in finding_places(files)
    assert not {"routing-controllers", "inversify-express-utils", "Ts.ED"} & {
        u.name for u in UNREAD
    }


@pytest.mark.parametrize("files", [FASTIFY_DEC, ROUTING, INVERSIFY, TSED])
def test_decorator_libraries_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    extra = {"lib/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**files, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert document(files)["resources"]
