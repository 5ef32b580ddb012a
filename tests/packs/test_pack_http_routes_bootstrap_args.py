"""pack-http-routes: the options a controller library's bootstrap is given (its prefix and the
controllers it serves) when they reach it through the project's own functions: a parameter of a
wrapper method (instance, static, arrow, in another file), a value returned by a static method
or a factory (spreading a base object of another module), a module constant of another file.
Each call site of the wrapper is its own bootstrap (two callers, two prefixes: both served);
options the scan cannot follow stay a finding at the bootstrap."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    placed,
    prefix_unresolved,
    scanned_both_ways,
)

# a wrapper class whose instance method hands its parameter to `useExpressServer`; the options
# are built by a static method spreading a shared base of another file, by an exported arrow
# factory, and kept in a module constant of another file
WRAPPED: dict[str, str] = {
    "svc/core/Launcher.ts": (
        "import { useExpressServer as mount, RoutingControllersOptions } from 'routing-controllers';\n"
        "export class Launcher {\n"
        "  launch(app: any, settings: RoutingControllersOptions) {\n"
        "    const served = mount(app, settings);\n"
        "    return served.listen(0);\n"
        "  }\n"
        "}\n"
    ),
    "svc/core/defaults.ts": (
        "export const sharedRouting = { classTransformer: true, routePrefix: '/ignored' };\n"
    ),
    "svc/apps/storefront.ts": (
        "import express from 'express';\n"
        "import * as path from 'path';\n"
        "import { Launcher } from '../core/Launcher';\n"
        "import { sharedRouting } from '../core/defaults';\n"
        "export class Storefront {\n"
        "  static start() {\n"
        "    const app = express();\n"
        "    return new Launcher().launch(app, Storefront.routing());\n"
        "  }\n"
        "  static routing() {\n"
        "    return {\n"
        "      ...sharedRouting,\n"
        "      routePrefix: '/shop',\n"
        "      controllers: [path.join(__dirname, '../shop/**/*Endpoint{.js,.ts}')],\n"
        "    };\n"
        "  }\n"
        "}\n"
    ),
    "svc/core/factory.ts": (
        "import { TillEndpoint as Till } from '../till/TillEndpoint';\n"
        "export const tillRouting = (base: string) => ({ routePrefix: base, controllers: [Till] });\n"
    ),
    "svc/apps/tills.ts": (
        "import express from 'express';\n"
        "import { Launcher } from '../core/Launcher';\n"
        "import { tillRouting } from '../core/factory';\n"
        "const launcher = new Launcher();\n"
        "const options = tillRouting('/till');\n"
        "const app = express();\n"
        "launcher.launch(app, options);\n"
        "launcher.launch(app, tillRouting('/backoffice/till'));\n"
    ),
    "svc/shop/deep/BasketEndpoint.ts": (
        "import { JsonController, Get, Post } from 'routing-controllers';\n"
        "@JsonController('/baskets')\n"
        "export class BasketEndpoint {\n"
        "  @Get('/:basketId')\n"
        "  one() {}\n"
        "  @Post()\n"
        "  make() {}\n"
        "}\n"
    ),
    "svc/till/TillEndpoint.ts": (
        "import { Controller, Put } from 'routing-controllers';\n"
        "@Controller('/drawers')\n"
        "export class TillEndpoint {\n"
        "  @Put('/:drawerId')\n"
        "  close() {}\n"
        "}\n"
    ),
}

# a static wrapper method in another file, given a module constant of a third file
STATIC: dict[str, str] = {
    "api/http/serve.ts": (
        "import * as rc from 'routing-controllers';\n"
        "export abstract class Serve {\n"
        "  static up = (app: any, port: number, opts: rc.RoutingControllersOptions) =>\n"
        "    rc.useExpressServer(app, opts).listen(port);\n"
        "}\n"
    ),
    "api/http/routing.ts": (
        "import { LoanApi } from '../loans';\n"
        "export const LOAN_ROUTING = { routePrefix: '/lending', controllers: [LoanApi] };\n"
    ),
    "api/main.ts": (
        "import express from 'express';\n"
        "import { Serve } from './http/serve';\n"
        "import { LOAN_ROUTING } from './http/routing';\n"
        "Serve.up(express(), 8080, LOAN_ROUTING);\n"
    ),
    "api/loans.ts": (
        "import { JsonController, Delete } from 'routing-controllers';\n"
        "@JsonController('/loans')\n"
        "export class LoanApi {\n"
        "  @Delete('/:loanId')\n"
        "  cancel() {}\n"
        "}\n"
    ),
}


def test_options_built_by_a_static_method_reach_the_bootstrap_through_a_wrapper() -> None:
    found = placed(WRAPPED)
    assert found["GET /shop/baskets/{basketId}"] == (
        "svc/shop/deep/BasketEndpoint.ts:4 routing-controllers"
    )
    assert "POST /shop/baskets" in found
    assert not any(route.startswith("GET /ignored") for route in found)


def test_each_call_of_the_wrapper_serves_under_its_own_prefix() -> None:
    found = placed(WRAPPED)
    assert {"PUT /till/drawers/{drawerId}", "PUT /backoffice/till/drawers/{drawerId}"} <= set(found)
    assert not any(route.startswith("PUT /shop") for route in found)
    assert prefix_unresolved(WRAPPED) == []


def test_a_module_constant_of_another_file_given_to_a_static_wrapper() -> None:
    found = placed(STATIC)
    assert found["DELETE /lending/loans/{loanId}"] == "api/loans.ts:4 routing-controllers"
    assert prefix_unresolved(STATIC) == []


def test_options_a_caller_computes_out_of_sight_are_a_finding_at_the_bootstrap() -> None:
    files = {
        **STATIC,
        "api/main.ts": STATIC["api/main.ts"].replace("LOAN_ROUTING)", "loadRouting())"),
    }
    assert "api/http/serve.ts:4" in finding_places(files)["UNRESOLVED_PREFIX"]
    assert "DELETE /loans/{loanId}" in prefix_unresolved(files)


# fastify-decorators: a plugin function of the project's registers the library's bootstrap
# with the options it is given; an outer function passes its own parameter on; each app gives
# its own folder (a `path.join(__dirname, ...)` written in the caller's file) and prefix
CHAINED: dict[str, str] = {
    "srv/plugins/handlers.js": (
        "const { bootstrap } = require('fastify-decorators');\n"
        "function attachHandlers(instance, given) {\n"
        "  instance.register(bootstrap, given);\n"
        "}\n"
        "const withDefaults = (instance, extra) => attachHandlers(instance, extra);\n"
        "module.exports = { withDefaults };\n"
    ),
    "srv/apps/public.js": (
        "const fastify = require('fastify');\n"
        "const path = require('path');\n"
        "const { withDefaults } = require('../plugins/handlers');\n"
        "const server = fastify();\n"
        "withDefaults(server, { prefix: '/open', directory: path.join(__dirname, 'calls') });\n"
    ),
    "srv/apps/calls/weather.handler.js": (
        "import { Controller, GET } from 'fastify-decorators';\n"
        "@Controller('/weather')\n"
        "export default class Weather {\n"
        "  @GET('/today')\n"
        "  async today() {}\n"
        "}\n"
    ),
}


def test_options_passed_on_through_two_functions_reach_a_registered_bootstrap() -> None:
    found = placed(CHAINED)
    assert found["GET /open/weather/today"] == (
        "srv/apps/calls/weather.handler.js:4 fastify-decorators"
    )
    assert prefix_unresolved(CHAINED) == []


def test_chained_bootstrap_options_pre_filtered_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"lib/util.js": "exports.twice = (n) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**CHAINED, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]


# inversify-express-utils: a server class of the project's `new`s the library's server with
# the settings its constructor's caller builds (a factory of another file)
CONSTRUCTED: dict[str, str] = {
    "core/boot/server.ts": (
        "import { InversifyExpressServer } from 'inversify-express-utils';\n"
        "export function serve(container: any, app: any, config: any) {\n"
        "  return new InversifyExpressServer(container, app, config).build();\n"
        "}\n"
    ),
    "core/boot/config.ts": (
        "const version = 'v4';\n"
        "export function serverConfig() {\n"
        "  return { rootPath: '/' + version };\n"
        "}\n"
    ),
    "core/main.ts": (
        "import express from 'express';\n"
        "import { serve } from './boot/server';\n"
        "import { serverConfig as cfg } from './boot/config';\n"
        "const app = express.Router();\n"
        "serve(container, app, cfg()).listen(1);\n"
    ),
    "core/controllers/meters.ts": (
        "import { controller, httpPatch } from 'inversify-express-utils';\n"
        "@controller('/meters')\n"
        "export class Meters {\n"
        "  @httpPatch('/:meterId')\n"
        "  read() {}\n"
        "}\n"
    ),
}


def test_a_constructed_bootstrap_given_a_factory_result_through_a_function() -> None:
    found = placed(CONSTRUCTED)
    assert (
        found["PATCH /v4/meters/{meterId}"]
        == "core/controllers/meters.ts:4 inversify-express-utils"
    )
    assert prefix_unresolved(CONSTRUCTED) == []


@pytest.mark.parametrize("files", [WRAPPED, STATIC, CONSTRUCTED])
def test_bootstrap_options_through_functions_pre_filtered_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    extra = {"lib/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**files, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert document(files)["resources"]
