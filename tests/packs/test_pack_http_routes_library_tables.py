"""pack-http-routes: routes a library serves from a fixed table of its own, under a base path
the project chooses (`library_tables`). bull-board's server adapters serve its UI and API
under the mount the project gives the adapter's router (Express's `use`, Fastify's and hapi's
register prefix) or, for Koa's, under the adapter's own base (`setBasePath`, `registerPlugin({
mount })`); a package's plugin value (a hapi plugin exported by a library) under the register's
prefix. Each listed at the place the router is taken or registered with `attrs.library`, for
the versions the repository declares; a base not known, an option not read, or a version
outside those the record was read from is a finding at that place, never a guess."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

import pytest
from routes_harness import (
    document,
    finding_places,
    located,
    names,
    prefix_unresolved,
    scanned_both_ways,
)

# the table bull-board 6.14 serves (`@bull-board/api`'s routes), relative to its base
_BOARD_6_14 = {
    "GET /",
    "GET /queue/{queueName}",
    "GET /queue/{queueName}/{jobId}",
    "GET /api/redis/stats",
    "GET /api/queues",
    "PUT /api/queues/pause",
    "PUT /api/queues/resume",
    "GET /api/queues/{queueName}/{jobId}/logs",
    "GET /api/queues/{queueName}/{jobId}",
    "POST /api/queues/{queueName}/add",
    "PUT /api/queues/{queueName}/retry/{queueStatus}",
    "PUT /api/queues/{queueName}/promote",
    "PUT /api/queues/{queueName}/clean/{queueStatus}",
    "PUT /api/queues/{queueName}/pause",
    "PUT /api/queues/{queueName}/resume",
    "PUT /api/queues/{queueName}/empty",
    "PUT /api/queues/{queueName}/{jobId}/retry/{queueStatus}",
    "PUT /api/queues/{queueName}/{jobId}/clean",
    "PUT /api/queues/{queueName}/{jobId}/promote",
    "PATCH /api/queues/{queueName}/{jobId}/update-data",
}


def _under(base: str, table: set[str] = _BOARD_6_14) -> set[str]:
    """The table's routes under `base` (its `/` the base itself)."""
    out = set()
    for name in table:
        method, path = name.split(" ", 1)
        out.add(f"{method} {base.rstrip('/') + path if path != '/' else base or '/'}")
    return out


def _manifest(adapter: str, spec: str, folder: str = "ops") -> dict[str, str]:
    return {
        f"{folder}/package.json": json.dumps(
            {"name": folder, "dependencies": {f"@bull-board/{adapter}": spec}}
        )
    }


_EXPRESS_BOARD = (
    "import express from 'express';\n"
    "import { createBullBoard } from '@bull-board/api';\n"
    "import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';\n"
    "import { ExpressAdapter } from '@bull-board/express';\n"
    "import { mailQueue } from './queues';\n"
    "\n"
    "const web = express();\n"
    "web.get('/health', (req, res) => res.send('ok'));\n"
    "const dashboard = new ExpressAdapter();\n"
    "dashboard.setBasePath('/this/is/only/the/ui/links');\n"
    "createBullBoard({ queues: [new BullMQAdapter(mailQueue)], serverAdapter: dashboard });\n"
    "web.use('/ops/jobs', dashboard.getRouter());\n"
    "web.listen(8080);\n"
)


def test_an_express_adapter_serves_the_table_of_its_version_under_its_mount() -> None:
    files = {"ops/server.ts": _EXPRESS_BOARD, **_manifest("express", "6.14.0")}
    # `setBasePath` only tells the UI where it is: Express serves the router at its mount
    assert names(files) == {"GET /health"} | _under("/ops/jobs")
    found = document(files)
    board = [r for r in found["resources"] if r["name"] != "GET /health"]
    assert {r["attrs"].get("library") for r in board} == {"@bull-board/express"}
    assert {f"{r['location']['path']}:{r['location']['line']}" for r in board} == {
        "ops/server.ts:12"
    }  # where the router is taken and mounted
    assert found["findings"] == []  # read: no finding naming bull-board as unread


def test_the_table_follows_the_declared_versions() -> None:
    files = {"ops/server.ts": _EXPRESS_BOARD}
    old = names({**files, **_manifest("express", "~3.2.0")})
    assert "PUT /ops/jobs/api/queues/{queueName}/retry" in old  # before 4.10
    assert "PUT /ops/jobs/api/queues/{queueName}/retry/{queueStatus}" not in old
    assert "GET /ops/jobs/api/redis/stats" not in old  # from 4.2
    newer = names({**files, **_manifest("express", "~8.5.0")})
    assert "GET /ops/jobs/api/queues/{queueName}/workers" in newer  # from 8.5
    assert "GET /ops/jobs/api/job-schedulers/count" not in newer  # 8.4 only
    assert "PUT /ops/jobs/api/queues/{queueName}/{jobId}/retry" in newer  # again from 6.18.3
    # a range across eras: the routes every admitted version serves, the rest a finding
    spread = {**files, **_manifest("express", ">=6.14.0 <6.16.0")}
    assert "PUT /ops/jobs/api/queues/{queueName}/obliterate" not in names(spread)  # 6.15
    (finding,) = document(spread)["findings"]
    assert "obliterate" in str(finding["detail"]) and "some of the versions" in str(
        finding["detail"]
    )
    assert finding_places(spread) == {"UNRESOLVED_ROUTE": ["ops/server.ts:12"]}


def test_a_version_outside_those_read_is_a_finding_not_a_guess() -> None:
    files = {"ops/server.ts": _EXPRESS_BOARD}
    future = {**files, **_manifest("express", "^10.0.0")}
    assert names(future) == {"GET /health"}
    (finding,) = document(future)["findings"]
    detail = str(finding["detail"])
    assert "@bull-board/express" in detail and "3.0.0 to before 9.5.0" in detail, detail
    assert finding_places(future) == {"UNRESOLVED_ROUTE": ["ops/server.ts:12"]}
    # a range reaching past them: what every version read serves is listed, the rest said
    reaching = {**files, **_manifest("express", "^9.0.0")}
    assert "GET /ops/jobs/api/queues" in names(reaching)
    assert finding_places(reaching) == {"UNRESOLVED_ROUTE": ["ops/server.ts:12"]}
    assert "outside those its routes were read from" in str(document(reaching)["findings"])


def test_an_unknowable_mount_path_is_a_finding_at_the_mount() -> None:
    files = {
        "ops/server.ts": _EXPRESS_BOARD.replace("'/ops/jobs'", "process.env.BOARD_AT"),
        **_manifest("express", "6.14.0"),
    }
    assert _under("/") <= set(prefix_unresolved(files))  # listed, flagged, not placed
    assert set(finding_places(files)) == {"UNRESOLVED_PREFIX"}
    assert set(finding_places(files)["UNRESOLVED_PREFIX"]) == {"ops/server.ts:12"}


def test_the_history_routes_hang_on_the_options_of_the_call_that_configures_the_board() -> None:
    with_history = _EXPRESS_BOARD.replace(
        "serverAdapter: dashboard }",
        "serverAdapter: dashboard, options: { historyProvider: store } }",
    )
    files = {"ops/server.ts": with_history, **_manifest("express", "~8.4.0")}
    assert "GET /ops/jobs/api/metrics/history" in names(files)
    (finding,) = document(files)["findings"]
    assert "/api/metrics/history/usage" in str(finding["detail"])  # the provider's methods
    assert "GET /ops/jobs/api/metrics/history/usage" not in names(files)
    without = {"ops/server.ts": _EXPRESS_BOARD, **_manifest("express", "~8.4.0")}
    assert not {n for n in names(without) if "/metrics/history" in n}
    assert document(without)["findings"] == []  # no provider: none of them
    # the adapter configured in a call the file does not show: whether they are, not known
    elsewhere = {
        "ops/server.ts": _EXPRESS_BOARD.replace("createBullBoard(", "configureBoard("),
        **_manifest("express", "~8.4.0"),
    }
    (unread,) = document(elsewhere)["findings"]
    assert "historyProvider" in str(unread["detail"]), unread


def test_a_koa_adapter_mounts_itself_under_its_base_path() -> None:
    app = (
        "const Koa = require('koa');\n"
        "const { KoaAdapter } = require('@bull-board/koa');\n"
        "const { createBullBoard } = require('@bull-board/api');\n"
        "const app = new Koa();\n"
        "const board = new KoaAdapter();\n"
        "board.setBasePath('/admin/queues');\n"
        "createBullBoard({ queues: [], serverAdapter: board });\n"
        "app.use(board.registerPlugin());\n"
        "app.listen(3000);\n"
    )
    files = {"ops/app.js": app, **_manifest("koa", "5.10.0")}
    assert names(files) == _under("/admin/queues", _board_5_10())
    assert located(files)["GET /admin/queues/api/queues"] == "ops/app.js:8"
    assert document(files)["findings"] == []
    # `registerPlugin({ mount })` wins over the base path; none at all mounts it at `/`
    mounted = {
        **files,
        "ops/app.js": app.replace("registerPlugin()", "registerPlugin({ mount: '/q' })"),
    }
    assert "GET /q/api/queues" in names(mounted)
    bare = {**files, "ops/app.js": app.replace("board.setBasePath('/admin/queues');\n", "")}
    assert "GET /api/queues" in names(bare)
    # a base path computed out of sight: listed without it, a finding where it is taken
    computed = {
        **files,
        "ops/app.js": app.replace("'/admin/queues'", "process.env.QUEUES_UI"),
    }
    assert "GET /api/queues" in prefix_unresolved(computed)
    assert set(finding_places(computed)) == {"UNRESOLVED_PREFIX"}
    assert set(finding_places(computed)["UNRESOLVED_PREFIX"]) == {"ops/app.js:8"}


def _board_5_10() -> set[str]:
    """The table of 5.10: 6.14's without what 5.18 and later add."""
    later = {
        "PUT /api/queues/pause",
        "PUT /api/queues/resume",
        "POST /api/queues/{queueName}/add",
        "PATCH /api/queues/{queueName}/{jobId}/update-data",
    }
    return _BOARD_6_14 - later


def test_fastify_and_hapi_plugins_serve_under_the_register_prefix_with_their_static_route() -> None:
    fastify = (
        "import Fastify from 'fastify';\n"
        "import { FastifyAdapter } from '@bull-board/fastify';\n"
        "const app = Fastify();\n"
        "const ui = new FastifyAdapter();\n"
        "ui.setBasePath('/elsewhere');\n"
        "app.register(ui.registerPlugin(), { prefix: '/bull' });\n"
    )
    hapi = (
        "const Hapi = require('@hapi/hapi');\n"
        "const { HapiAdapter } = require('@bull-board/hapi');\n"
        "const start = async () => {\n"
        "  const server = Hapi.server({ port: 4000 });\n"
        "  const panel = new HapiAdapter();\n"
        "  await server.register({\n"
        "    plugin: panel.registerPlugin(),\n"
        "    routes: { prefix: '/ops' },\n"
        "  });\n"
        "  await server.start();\n"
        "};\n"
        "start();\n"
    )
    files = {
        "f/main.ts": fastify,
        **_manifest("fastify", "6.14.0", "f"),
        "h/main.js": hapi,
        **_manifest("hapi", "6.14.0", "h"),
    }
    found = names(files)
    assert _under("/bull") | {"GET /bull/static/*"} <= found
    hapi_table = {n.replace(":", "") for n in _under("/ops")}  # hapi names `{x}` alike
    assert hapi_table | {"GET /ops/static/{param*}"} <= found
    assert not {n for n in found if "/elsewhere" in n}
    assert located(files)["GET /bull/api/queues"] == "f/main.ts:6"
    assert located(files)["GET /ops/api/queues"] == "h/main.js:6"
    assert document(files)["findings"] == []


def test_an_adapter_made_in_another_module_is_followed_to_its_mount() -> None:
    files = {
        "ops/board.ts": (
            "import { ExpressAdapter } from '@bull-board/express';\n"
            "export const board = new ExpressAdapter();\n"
        ),
        "ops/server.ts": (
            "import express from 'express';\n"
            "import { board } from './board';\n"
            "const app = express();\n"
            "app.use('/queues', board.getRouter());\n"
        ),
        **_manifest("express", "6.14.0"),
    }
    assert names(files) == _under("/queues")
    assert located(files)["GET /queues/api/queues"] == "ops/server.ts:4"
    assert document(files)["findings"] == []  # its options are none that 6.14 reads


def test_an_adapter_the_scan_does_not_follow_is_still_named() -> None:
    files = {
        "ops/board.ts": (
            "import { ExpressAdapter } from '@bull-board/express';\n"
            "export class Board {\n"
            "  adapter = new ExpressAdapter();\n"
            "  mount(app) { app.use('/queues', this.adapter.getRouter()); }\n"
            "}\n"
        ),
        "ops/nest.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { BullBoardModule } from '@bull-board/nestjs';\n"
            "import { ExpressAdapter } from '@bull-board/express';\n"
            "@Module({\n"
            "  imports: [BullBoardModule.forRoot({ route: '/queues', adapter: ExpressAdapter })],\n"
            "})\n"
            "export class QueuesModule {}\n"
        ),
    }
    places = finding_places(files)["UNRESOLVED_ROUTE"]
    assert "ops/board.ts:4" in places  # the adapter on an instance field, taken there
    assert "ops/nest.module.ts:5" in places  # bull-board's NestJS module
    assert not {n for n in names(files) if "queues" in n}


_PLUGINS_HOST = (
    "const Hapi = require('@hapi/hapi');\n"
    "const { APIDocumentation } = require('@mojaloop/central-services-shared').Util.Hapi;\n"
    "const Metrics = require('@mojaloop/central-services-metrics');\n"
    "\n"
    "const boot = async (plugins) => {\n"
    "  const server = new Hapi.Server({ port: 5000 });\n"
    "  await server.register({ plugin: APIDocumentation, options: { document: '{}' } });\n"
    "  await server.register(plugins);\n"
    "  return server;\n"
    "};\n"
    "module.exports = { boot };\n"
)


def test_a_library_s_plugin_value_serves_its_table_where_it_is_registered() -> None:
    files = {
        "svc/host.js": _PLUGINS_HOST,
        "svc/main.js": (
            "const { boot } = require('./host');\n"
            "const stats = require('@mojaloop/central-services-metrics').plugin;\n"
            "\n"
            "boot(stats);\n"
        ),
        "svc/package.json": json.dumps(
            {
                "dependencies": {
                    "@mojaloop/central-services-shared": "18.35.6",
                    "@mojaloop/central-services-metrics": "12.8.5",
                }
            }
        ),
    }
    assert names(files) == {"GET /swagger.json", "GET /documentation", "GET /metrics"}
    assert located(files)["GET /swagger.json"] == "svc/host.js:7"
    assert located(files)["GET /metrics"] == "svc/main.js:4"  # where the caller passes it
    found = document(files)
    assert {r["attrs"]["library"] for r in found["resources"]} == {
        "@mojaloop/central-services-shared",
        "@mojaloop/central-services-metrics",
    }
    assert found["findings"] == []


def test_a_plugin_list_the_scan_does_not_follow_is_a_finding_at_the_register_call() -> None:
    files = {
        "svc/host.js": _PLUGINS_HOST,
        "svc/main.js": (
            "const { boot } = require('./host');\n"
            "const Metrics = require('@mojaloop/central-services-metrics');\n"
            "const start = ({ plugins = [] }) => boot(plugins);\n"
            "start({ plugins: [Metrics.plugin].filter(Boolean) });\n"
        ),
    }
    assert "GET /metrics" not in names(files)
    assert finding_places(files) == {"UNRESOLVED_ROUTER": ["svc/host.js:8"]}
    (finding,) = document(files)["findings"]
    assert "`plugins`" in str(finding["detail"]), finding


def test_library_tables_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "ops/server.ts": _EXPRESS_BOARD.replace("'/ops/jobs'", "'/jobs'"),
        "ops/board.ts": (
            "import { ExpressAdapter } from '@bull-board/express';\n"
            "export const board = new ExpressAdapter();\n"
        ),
        "ops/more.ts": (
            "import express from 'express';\n"
            "import { board } from './board';\n"
            "export const more = express();\n"
            "more.use('/more', board.getRouter());\n"
        ),
        "ops/util.ts": "export const twice = (n: number) => n * 2;\n",
        **_manifest("express", "6.14.0"),
        "svc/host.js": _PLUGINS_HOST,
    }
    documents, parsed = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    for name in ("GET /jobs/api/queues", "GET /more/api/queues", "GET /swagger.json"):
        assert f'"{name}"' in documents[1], name


def test_a_register_method_of_no_router_is_no_plugin_left_unknown() -> None:
    files = {
        "api/accounts.js": (
            "const Accounts = require('./accounts-service');\n"
            "module.exports = async function (fastify) {\n"
            "  const accounts = new Accounts();\n"
            "  fastify.post('/signup', async (request) => accounts.register(request.body));\n"
            "};\n"
        ),
        "api/accounts-service.js": "module.exports = class { register(form) { return form; } };\n",
    }
    assert names(files) == {"POST /signup"}
    assert "UNRESOLVED_ROUTER" not in finding_places(files)
