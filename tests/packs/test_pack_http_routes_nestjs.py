"""pack-http-routes: NestJS, read through its record and the reader code for its decorators:
`@Controller(prefix)` (a string, `{ path }`, a list, none) classes, `@Get/@Post/.../@All(path)`
methods (aliased imports, lists of paths, constants from other files), `@UseGuards` on the
class or the method as auth evidence (guards set elsewhere keep the rest `unknown`), and
`app.setGlobalPrefix('api', { exclude })` in main.ts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes.frameworks import UNREAD  # noqa: E402
from routes_harness import document, placed, scanned_both_ways  # noqa: E402

EVERY = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
MAIN = (
    "import { NestFactory } from '@nestjs/core';\n"
    "import { AppModule } from './app.module';\n"
    "async function bootstrap() {\n"
    "  const app = await NestFactory.create(AppModule);\n"
    "  app.setGlobalPrefix('api/', { exclude: ['health'] });\n"
    "  await app.listen(3000);\n"
    "}\n"
    "bootstrap();\n"
)
# A NestJS service of our own: a decorator imported under another name, a list of paths on a
# method and on a controller (`{ path: [...] }`), a path constant from another file, `@All`,
# a controller with no prefix, guards from @nestjs/passport on a method and on a class, and a
# class that is no controller (its `@Get` is another library's).
SERVICE: dict[str, str] = {
    "src/main.ts": MAIN,
    "src/orders/orders.controller.ts": (
        "import { Controller, Get, Delete as Remove, UseGuards, Param } from '@nestjs/common';\n"
        "import { AuthGuard } from '@nestjs/passport';\n"
        "@Controller('orders')\n"
        "export class OrdersController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "\n"
        "  @Get(':orderId')\n"
        "  @UseGuards(AuthGuard('jwt'))\n"
        "  one(@Param('orderId') id: string) {}\n"
        "\n"
        "  @Remove([':orderId', 'by-ref/:ref'])\n"
        "  cancel() {}\n"
        "\n"
        "  helper() {}\n"
        "}\n"
    ),
    "src/staff/staff.controller.ts": (
        "import { All, Controller, Post, UseGuards } from '@nestjs/common';\n"
        "import { AuthGuard } from '@nestjs/passport';\n"
        "import { LEGACY } from './paths';\n"
        "@Controller({ path: ['staff', 'admin'] })\n"
        "@UseGuards(AuthGuard('jwt'))\n"
        "export class StaffController {\n"
        "  @Post('reindex/')\n"
        "  reindex() {}\n"
        "  @All(LEGACY)\n"
        "  legacy() {}\n"
        "}\n"
    ),
    "src/staff/paths.ts": "export const LEGACY = 'old';\n",
    "src/health.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller()\n"
        "export class HealthController {\n"
        "  @Get('health')\n"
        "  check() { return 'ok'; }\n"
        "}\n"
    ),
    "src/client.ts": (
        "import { Get } from './http-client';\n"
        "export class Client {\n"
        "  @Get('/remote')\n"
        "  fetch() {}\n"
        "}\n"
    ),
}


def test_controllers_and_their_methods_are_routes_under_the_global_prefix() -> None:
    orders = "src/orders/orders.controller.ts"
    staff = "src/staff/staff.controller.ts"
    assert placed(SERVICE) == {
        "GET /api/orders": f"{orders}:5 nestjs",
        "GET /api/orders/{orderId}": f"{orders}:8 nestjs",
        "DELETE /api/orders/{orderId}": f"{orders}:12 nestjs",
        "DELETE /api/orders/by-ref/{ref}": f"{orders}:12 nestjs",
        "POST /api/staff/reindex": f"{staff}:7 nestjs",
        "POST /api/admin/reindex": f"{staff}:7 nestjs",
        **{f"{m} /api/staff/old": f"{staff}:9 nestjs" for m in EVERY},
        **{f"{m} /api/admin/old": f"{staff}:9 nestjs" for m in EVERY},
        "GET /health": "src/health.controller.ts:4 nestjs",  # excluded from the global prefix
    }
    assert document(SERVICE)["findings"] == []


def test_use_guards_is_evidence_and_guards_set_elsewhere_keep_the_rest_unknown() -> None:
    auth = {s["resource"].partition(":")[2]: s["value"] for s in document(SERVICE)["signals"]}
    assert auth["GET /api/orders/{orderId}"] == "required"
    assert auth["POST /api/admin/reindex"] == "required"  # the class's guard
    assert auth["GET /api/orders"] == "unknown"  # an APP_GUARD in a module is not read
    assert auth["GET /health"] == "unknown"


def test_a_computed_global_prefix_is_a_finding_and_routes_are_listed_without_it() -> None:
    files = {
        "src/main.ts": MAIN.replace("'api/', { exclude: ['health'] }", "process.env.PREFIX"),
        "src/health.controller.ts": SERVICE["src/health.controller.ts"],
    }
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /health", True)
    ]
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        (
            "UNRESOLVED_PREFIX",
            [{"path": "src/health.controller.ts", "line": 4}, {"path": "src/main.ts", "line": 5}],
        )
    ]


def test_an_exclude_list_not_read_is_a_finding() -> None:
    files = {
        "src/main.ts": MAIN.replace("['health']", "[{ path: 'health', method: 0 }]"),
        "src/health.controller.ts": SERVICE["src/health.controller.ts"],
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /api/health"]
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_nestjs_is_no_longer_an_unread_framework() -> None:
    assert "NestJS" not in {u.name for u in UNREAD}


def test_a_nestjs_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const add = (a: number, b: number) => a + b;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SERVICE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # util.ts (and paths.ts until asked for) are not parsed
    assert '"GET /api/staff/old"' in documents[1]


def test_a_version_without_enable_versioning_is_not_in_the_path() -> None:
    # Nest reads `@Version` and a controller's `version` only once `enableVersioning` is on
    files = {
        "src/cats.controller.ts": (
            "import { Controller, Get, Version } from '@nestjs/common';\n"
            "@Controller({ path: 'cats', version: '1' })\n"
            "export class CatsController {\n"
            "  @Get()\n"
            "  all() {}\n"
            "}\n"
            "@Controller('dogs')\n"
            "export class DogsController {\n"
            "  @Version('2')\n"
            "  @Get()\n"
            "  all() {}\n"
            "  @Get('breeds')\n"
            "  breeds() {}\n"
            "}\n"
        ),
    }
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /cats", None),
        ("GET /dogs", None),
        ("GET /dogs/breeds", None),
    ]
    assert found["findings"] == []


# Our own versioned service: URI versioning with a default version under a global prefix that
# excludes a path, a controller served under two versions, a method's own version overriding
# its controller's, VERSION_NEUTRAL on a method and on a controller, the enum imported under
# another name, the version and its prefix given as constants of another file.
VERSIONED: dict[str, str] = {
    "src/bootstrap.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { VersioningType as Kinds } from '@nestjs/common';\n"
        "import { RootModule } from './root.module';\n"
        "import { FALLBACK } from './versions';\n"
        "export async function start() {\n"
        "  const server = await NestFactory.create(RootModule);\n"
        "  server.setGlobalPrefix('svc', { exclude: ['ping'] });\n"
        "  server.enableVersioning({ type: Kinds.URI, defaultVersion: FALLBACK });\n"
        "  await server.listen(8080);\n"
        "}\n"
    ),
    "src/versions.ts": "export const FALLBACK = '3';\nexport const NEXT = '4';\n",
    "src/ledger.controller.ts": (
        "import { Controller, Get, Put, Version, VERSION_NEUTRAL } from '@nestjs/common';\n"
        "import { NEXT } from './versions';\n"
        "@Controller({ path: 'ledger', version: ['1', NEXT] })\n"
        "export class LedgerController {\n"
        "  @Get('entries')\n"
        "  entries() {}\n"
        "  @Version('9')\n"
        "  @Put('entries/:entryId')\n"
        "  amend() {}\n"
        "  @Version(VERSION_NEUTRAL)\n"
        "  @Get('totals')\n"
        "  totals() {}\n"
        "}\n"
    ),
    "src/ping.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller()\n"
        "export class PingController {\n"
        "  @Get('ping')\n"
        "  pong() {}\n"
        "  @Get('status')\n"
        "  status() {}\n"
        "}\n"
    ),
    "src/neutral.controller.ts": (
        "import * as common from '@nestjs/common';\n"
        "import { Controller, Delete, VERSION_NEUTRAL as ANY } from '@nestjs/common';\n"
        "@Controller({ path: 'cache', version: ANY })\n"
        "export class CacheController {\n"
        "  @Delete()\n"
        "  purge() {}\n"
        "}\n"
    ),
}


def test_uri_versioning_puts_each_version_after_the_global_prefix() -> None:
    ledger = "src/ledger.controller.ts"
    assert placed(VERSIONED) == {
        "GET /svc/v1/ledger/entries": f"{ledger}:5 nestjs",
        "GET /svc/v4/ledger/entries": f"{ledger}:5 nestjs",
        "PUT /svc/v9/ledger/entries/{entryId}": f"{ledger}:8 nestjs",
        "GET /svc/ledger/totals": f"{ledger}:11 nestjs",
        "GET /v3/ping": "src/ping.controller.ts:4 nestjs",  # excluded: no prefix, a version
        "GET /svc/v3/status": "src/ping.controller.ts:6 nestjs",
        "DELETE /svc/cache": "src/neutral.controller.ts:5 nestjs",
    }
    assert document(VERSIONED)["findings"] == []


@pytest.mark.parametrize(
    ("options", "status"),
    [
        ("{ type: Kinds.URI, defaultVersion: FALLBACK, prefix: 'rev' }", "GET /svc/rev3/status"),
        ("{ type: Kinds.URI, defaultVersion: FALLBACK, prefix: false }", "GET /svc/3/status"),
        ("{ type: Kinds.HEADER, header: 'X-Api', defaultVersion: '3' }", "GET /svc/status"),
        ("{ type: Kinds.URI }", "GET /svc/status"),  # no default: unversioned routes keep none
    ],
)
def test_the_version_prefix_and_type_decide_the_segment(options: str, status: str) -> None:
    bootstrap = VERSIONED["src/bootstrap.ts"].replace(
        "{ type: Kinds.URI, defaultVersion: FALLBACK }", options
    )
    names = set(placed({**VERSIONED, "src/bootstrap.ts": bootstrap}))
    assert status in names


def test_a_computed_default_version_is_a_finding_at_enable_versioning() -> None:
    bootstrap = VERSIONED["src/bootstrap.ts"].replace(
        "defaultVersion: FALLBACK", "defaultVersion: process.env.V"
    )
    found = document({**VERSIONED, "src/bootstrap.ts": bootstrap})
    flagged = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert flagged == {"GET /ping", "GET /svc/status"}  # named without it, flagged
    assert "PUT /svc/v9/ledger/entries/{entryId}" in {r["name"] for r in found["resources"]}
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        (
            "UNRESOLVED_PREFIX",
            [
                {"path": "src/bootstrap.ts", "line": 8},
                {"path": "src/ping.controller.ts", "line": 4},
                {"path": "src/ping.controller.ts", "line": 6},
            ],
        )
    ]


# Our own modular service: `RouterModule` imported under another name mounts a module tree
# (nested children, a child given as a bare module class, a list kept in a constant); the
# modules import their controllers from other folders, one under an alias.
MODULAR: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { ShopModule } from './shop.module';\n"
        "async function go() {\n"
        "  const app = await NestFactory.create(ShopModule);\n"
        "  app.setGlobalPrefix('/edge/');\n"
        "}\n"
        "go();\n"
    ),
    "src/shop.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { RouterModule as Tree, Routes } from '@nestjs/core';\n"
        "import { CatalogModule, PricingModule } from './catalog/catalog.module';\n"
        "import { StaffModule } from './staff/staff.module';\n"
        "const tree: Routes = [\n"
        "  { path: 'store', module: CatalogModule, children: [\n"
        "      { path: '/prices/', module: PricingModule },\n"
        "      { path: 'internal', children: [StaffModule] },\n"
        "  ] },\n"
        "];\n"
        "@Module({ imports: [CatalogModule, PricingModule, StaffModule, Tree.register(tree)] })\n"
        "export class ShopModule {}\n"
    ),
    "src/catalog/catalog.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { ItemsController } from '../http/items.controller';\n"
        "import { QuoteController as Quotes } from '../http/quote.controller';\n"
        "@Module({ controllers: [ItemsController] })\n"
        "export class CatalogModule {}\n"
        "@Module({ controllers: [Quotes], providers: [] })\n"
        "export class PricingModule {}\n"
    ),
    "src/staff/staff.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { RosterController } from './roster.controller';\n"
        "@Module({ controllers: [RosterController] })\n"
        "export class StaffModule {}\n"
    ),
    "src/http/items.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('items')\n"
        "export class ItemsController {\n"
        "  @Get(':sku')\n"
        "  one() {}\n"
        "}\n"
    ),
    "src/http/quote.controller.ts": (
        "import { Controller, Post } from '@nestjs/common';\n"
        "@Controller()\n"
        "export class QuoteController {\n"
        "  @Post('quote')\n"
        "  quote() {}\n"
        "}\n"
    ),
    "src/staff/roster.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('roster')\n"
        "export class RosterController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "}\n"
    ),
    "src/http/loose.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('loose')\n"
        "export class LooseController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "}\n"
    ),
}


def test_router_module_paths_go_before_the_controllers_of_each_module() -> None:
    assert placed(MODULAR) == {
        "GET /edge/store/items/{sku}": "src/http/items.controller.ts:4 nestjs",
        "POST /edge/store/prices/quote": "src/http/quote.controller.ts:4 nestjs",
        "GET /edge/store/internal/roster": "src/staff/roster.controller.ts:4 nestjs",
        "GET /edge/loose": "src/http/loose.controller.ts:4 nestjs",  # in no routed module
    }
    assert document(MODULAR)["findings"] == []


def test_a_module_s_controllers_kept_in_a_constant_of_its_file_get_its_router_module_path() -> None:
    """`@Module({ controllers })`, the shorthand naming a list the file keeps (`const
    controllers = [...]`), is read like `controllers: [...]`."""
    staff = (
        "import { Module } from '@nestjs/common';\n"
        "import { RosterController } from './roster.controller';\n"
        "const controllers = [RosterController];\n"
        "@Module({ controllers, providers: [] })\n"
        "export class StaffModule {}\n"
    )
    found = placed({**MODULAR, "src/staff/staff.module.ts": staff})
    assert found["GET /edge/store/internal/roster"] == "src/staff/roster.controller.ts:4 nestjs"


def test_a_routed_module_whose_controllers_are_not_read_is_a_finding_at_each_unplaced_route() -> (
    None
):
    """A module RouterModule gives a path lists controllers the reader cannot read (an array
    imported from another file): a controller no module is seen to list may be served under
    that path, so its routes carry a finding instead of a path that is silently short."""
    files = {
        **MODULAR,
        "src/staff/list.ts": (
            "import { RosterController } from './roster.controller';\n"
            "export const ROSTER = [RosterController];\n"
        ),
        "src/staff/staff.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { ROSTER } from './list';\n"
            "@Module({ controllers: ROSTER })\n"
            "export class StaffModule {}\n"
        ),
    }
    found = document(files)
    unplaced = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert unplaced == {"GET /edge/roster", "GET /edge/loose"}
    (finding,) = found["findings"]
    assert finding["code"] == "UNRESOLVED_PREFIX" and "`StaffModule`" in finding["detail"]
    assert {"path": "src/staff/staff.module.ts", "line": 4} in finding["locations"]


def test_a_listed_controller_whose_declaration_is_not_scanned_is_a_finding_at_its_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A business module kept in a folder named `test/` (which every pack leaves out as test
    code) is listed by an app module: its routes are not listed, and the module says so."""
    files = {
        **MODULAR,
        "src/trial/trial.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { ProbeController } from './test/probe.controller';\n"
            "@Module({ controllers: [ProbeController] })\n"
            "export class TrialModule {}\n"
        ),
        "src/trial/test/probe.controller.ts": MODULAR["src/http/loose.controller.ts"]
        .replace("Loose", "Probe")
        .replace("loose", "probe"),
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    found = json.loads(documents[0])
    assert "GET /edge/probe" not in {r["name"] for r in found["resources"]}
    places = [where for f in found["findings"] for where in f["locations"]]
    assert {f["code"] for f in found["findings"]} == {"UNRESOLVED_ROUTER"}
    assert all("`ProbeController`" in f["detail"] for f in found["findings"])
    # at the module, and in the controller's own file, where its routes are written
    assert places == [
        {"path": "src/trial/test/probe.controller.ts", "line": 1},
        {"path": "src/trial/trial.module.ts", "line": 4},
    ]


def test_a_controller_imported_from_a_spec_folder_under_an_alias_is_named_in_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **MODULAR,
        "src/labs/index.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { BenchController as Bench } from '../labs/spec/bench.controller.js';\n"
            "import { Helper } from './helper';\n"
            "@Module({\n"
            "  controllers: [Bench, Helper],\n"
            "})\n"
            "export class LabsModule {}\n"
        ),
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    found = json.loads(documents[0])
    places = {
        (where["path"], where["line"], "`BenchController`" in f["detail"])
        for f in found["findings"]
        for where in f["locations"]
    }
    # `Helper` (not under a test folder, not scanned) is named at its module only
    assert places == {
        ("src/labs/spec/bench.controller.js", 1, True),
        ("src/labs/index.ts", 7, True),
        ("src/labs/index.ts", 7, False),
    }


def test_a_computed_router_module_path_is_a_finding_at_its_entry() -> None:
    shop = MODULAR["src/shop.module.ts"].replace("path: 'store'", "path: process.env.STORE")
    found = document({**MODULAR, "src/shop.module.ts": shop})
    assert "GET /edge/items/{sku}" in {r["name"] for r in found["resources"]}
    # one per module under it (the catalog, its pricing and staff children), each at its entry
    assert {f["code"] for f in found["findings"]} == {"UNRESOLVED_PREFIX"}
    gaps = sorted(
        (where["path"], where["line"])
        for f in found["findings"]
        for where in f["locations"]
        if where["path"] == "src/shop.module.ts"
    )
    assert gaps == [("src/shop.module.ts", line) for line in (6, 7, 8)]


# Settings through @nestjs/config: a namespace whose values `main.ts` reads with
# `ConfigService.get`/`getOrThrow` into locals, an environment variable's default.
CONFIGURED: dict[str, str] = {
    "src/settings/http.settings.ts": (
        "import { registerAs } from '@nestjs/config';\n"
        "export default registerAs('http', () => {\n"
        "  const port = Number(process.env.PORT);\n"
        "  return {\n"
        "    port,\n"
        "    base: process.env.HTTP_BASE ?? 'gateway',\n"
        "    versions: { mark: 'rev', current: process.env.HTTP_VERSION },\n"
        "  };\n"
        "});\n"
    ),
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { ConfigService } from '@nestjs/config';\n"
        "import { VersioningType } from '@nestjs/common';\n"
        "import { AppModule } from './app.module';\n"
        "async function boot() {\n"
        "  const app = await NestFactory.create(AppModule);\n"
        "  const settings = app.get(ConfigService);\n"
        "  const base = settings.getOrThrow<string>('http.base', { infer: true });\n"
        "  app.setGlobalPrefix(base);\n"
        "  app.enableVersioning({\n"
        "    type: VersioningType.URI,\n"
        "    prefix: settings.get('http.versions.mark')!,\n"
        "    defaultVersion: settings.get('http.versions.current'),\n"
        "  });\n"
        "}\n"
        "boot();\n"
    ),
    "src/orders.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller({ path: 'orders', version: '2' })\n"
        "export class OrdersController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "}\n"
    ),
}


def test_config_service_values_are_read_from_their_register_as_namespace() -> None:
    found = document(CONFIGURED)
    assert [r["name"] for r in found["resources"]] == ["GET /gateway/rev2/orders"]
    assert found["findings"] == []


@pytest.mark.parametrize(
    ("files", "route"),
    [
        (VERSIONED, "GET /svc/v4/ledger/entries"),
        (MODULAR, "GET /edge/store/internal/roster"),
        (CONFIGURED, "GET /gateway/rev2/orders"),
    ],
)
def test_nest_wiring_scanned_with_the_pre_filter_is_the_scan_of_every_file(
    files: dict[str, str], route: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**files, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert f'"{route}"' in documents[1]


# Controllers built from base classes of our own: a generic abstract base in another folder
# with its own routes, extended through a middle class, and a controller that adds its own.
INHERITED: dict[str, str] = {
    "src/common/crud.base.ts": (
        "import { Get, Delete, Param } from '@nestjs/common';\n"
        "export abstract class ResourceBase<T> {\n"
        "  @Get()\n"
        "  index(): T[] { return []; }\n"
        "  @Delete(':key')\n"
        "  drop(@Param('key') key: string) {}\n"
        "}\n"
    ),
    "src/common/audited.base.ts": (
        "import { Get } from '@nestjs/common';\n"
        "import { ResourceBase as Base } from './crud.base';\n"
        "export class AuditedBase<T> extends Base<T> {\n"
        "  @Get('history')\n"
        "  history() {}\n"
        "}\n"
    ),
    "src/fleet/vehicles.controller.ts": (
        "import { Controller, Post } from '@nestjs/common';\n"
        "import { AuditedBase } from '../common/audited.base';\n"
        "@Controller('vehicles')\n"
        "export class VehiclesController extends AuditedBase<string> {\n"
        "  @Post('recall')\n"
        "  recall() {}\n"
        "}\n"
    ),
    "src/fleet/depots.controller.ts": (
        "import { Controller } from '@nestjs/common';\n"
        "import { ResourceBase } from '../common/crud.base';\n"
        "@Controller(['depots', 'yards'])\n"
        "export class DepotsController extends ResourceBase<number> {}\n"
    ),
    "src/common/unused.base.ts": (
        "import { Get } from '@nestjs/common';\n"
        "export class NobodyExtendsMe {\n"
        "  @Get('orphan')\n"
        "  orphan() {}\n"
        "}\n"
    ),
}


def test_a_controller_serves_the_routes_of_the_base_classes_it_extends() -> None:
    crud, audited = "src/common/crud.base.ts", "src/common/audited.base.ts"
    assert placed(INHERITED) == {
        "POST /vehicles/recall": "src/fleet/vehicles.controller.ts:5 nestjs",
        "GET /vehicles/history": f"{audited}:4 nestjs",
        "GET /vehicles": f"{crud}:3 nestjs",
        "DELETE /vehicles/{key}": f"{crud}:5 nestjs",
        "GET /depots": f"{crud}:3 nestjs",
        "DELETE /depots/{key}": f"{crud}:5 nestjs",
        "GET /yards": f"{crud}:3 nestjs",
        "DELETE /yards/{key}": f"{crud}:5 nestjs",
    }
    assert document(INHERITED)["findings"] == []


def test_inherited_routes_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**INHERITED, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /vehicles/history"' in documents[1]


# Route decorators of our own composed with `applyDecorators`: a function taking the path, an
# arrow constant with a fixed path and two verbs, defined in other files, one imported under
# another name; a decorator of another library beside them is not a route.
COMPOSED: dict[str, str] = {
    "src/shared/http.decorators.ts": (
        "import { applyDecorators, Get, Patch, HttpCode, UseGuards } from '@nestjs/common';\n"
        "import { AuthGuard } from '@nestjs/passport';\n"
        "export function Listing(path: string, code = 200) {\n"
        "  return applyDecorators(Get(path), HttpCode(code), UseGuards(AuthGuard('jwt')));\n"
        "}\n"
        "export const Touch = () => applyDecorators(Get('touch'), Patch('touch'));\n"
    ),
    "src/shared/cache.ts": "export function Cached(ttl: number) { return () => undefined; }\n",
    "src/notes.controller.ts": (
        "import { Controller, Post } from '@nestjs/common';\n"
        "import { Listing as Index, Touch } from './shared/http.decorators';\n"
        "import { Cached } from './shared/cache';\n"
        "@Controller('notes')\n"
        "export class NotesController {\n"
        "  @Index(':noteId/revisions')\n"
        "  @Cached(30)\n"
        "  revisions() {}\n"
        "  @Touch()\n"
        "  touch() {}\n"
        "  @Post()\n"
        "  create() {}\n"
        "}\n"
    ),
}


def test_route_decorators_composed_with_apply_decorators_are_routes() -> None:
    notes = "src/notes.controller.ts"
    assert placed(COMPOSED) == {
        "GET /notes/{noteId}/revisions": f"{notes}:6 nestjs",
        "GET /notes/touch": f"{notes}:9 nestjs",
        "PATCH /notes/touch": f"{notes}:9 nestjs",
        "POST /notes": f"{notes}:11 nestjs",
    }
    assert document(COMPOSED)["findings"] == []


def test_composed_decorators_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**COMPOSED, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"PATCH /notes/touch"' in documents[1]


def test_the_strings_of_an_exclude_list_read_in_part_still_exclude() -> None:
    main = MAIN.replace(
        "['health']", "[`${ROOT}/x`, 'health', { path: 'metrics', method: 0 }, ...MORE]"
    )
    files = {
        "src/main.ts": main,
        "src/health.controller.ts": SERVICE["src/health.controller.ts"].replace(
            "  check() { return 'ok'; }\n",
            "  check() { return 'ok'; }\n  @Get('metrics')\n  m() {}\n",
        ),
    }
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /health", True),
        ("GET /api/metrics", True),  # its entry is not read: named under the prefix, flagged
    ]
    assert [(f["code"], f["locations"][-1]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", {"path": "src/main.ts", "line": 5})
    ]


def test_each_app_of_a_monorepo_has_its_own_global_prefix() -> None:
    files = {
        "apps/api/src/main.ts": MAIN.replace("'api/', { exclude: ['health'] }", "'api'"),
        "apps/api/src/orders/orders.controller.ts": SERVICE["src/orders/orders.controller.ts"],
        "apps/admin/src/main.ts": MAIN.replace("'api/', { exclude: ['health'] }", "'console'"),
        "apps/admin/src/health.controller.ts": SERVICE["src/health.controller.ts"],
        "libs/shared/src/health.controller.ts": SERVICE["src/health.controller.ts"],
    }
    found = document(files)
    names = {r["name"]: r["attrs"].get("prefixUnresolved") for r in found["resources"]}
    assert names == {
        "GET /api/orders": None,
        "GET /api/orders/{orderId}": None,
        "DELETE /api/orders/{orderId}": None,
        "DELETE /api/orders/by-ref/{ref}": None,
        "GET /console/health": None,
        "GET /health": True,  # a library served by either app: named without, flagged
    }


def test_an_environment_variable_s_default_is_the_global_prefix() -> None:
    main = MAIN.replace(
        "  app.setGlobalPrefix('api/', { exclude: ['health'] });\n",
        "  const base = process.env.API_BASE ?? 'edge';\n  app.setGlobalPrefix(base);\n",
    )
    files = {"src/main.ts": main, "src/health.controller.ts": SERVICE["src/health.controller.ts"]}
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /edge/health"]
    assert found["findings"] == []


def test_each_app_of_a_monorepo_has_its_own_versioning() -> None:
    def main(prefix: str, options: str) -> str:
        return (
            MAIN.replace("'api/', { exclude: ['health'] }", prefix)
            .replace(
                "  await app.listen(3000);\n",
                f"  app.enableVersioning({options});\n  await app.listen(3000);\n",
            )
            .replace(
                "'@nestjs/core';\n",
                "'@nestjs/core';\nimport { VersioningType } from '@nestjs/common';\n",
            )
        )

    files = {
        "apps/api/src/main.ts": main("'api'", "{ type: VersioningType.URI, defaultVersion: '2' }"),
        "apps/api/src/health.controller.ts": SERVICE["src/health.controller.ts"],
        "apps/ops/src/main.ts": main("'ops'", "{ type: VersioningType.HEADER, header: 'V' }"),
        "apps/ops/src/health.controller.ts": SERVICE["src/health.controller.ts"],
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /api/v2/health", "GET /ops/health"]
    assert found["findings"] == []


# Guard classes of our own: one extending passport's AuthGuard with no method of its own, one
# whose canActivate throws a 403, one that lets everything through; each exported from its file.
GUARDED: dict[str, str] = {
    "src/guards/session.guard.ts": (
        "import { Injectable } from '@nestjs/common';\n"
        "import { AuthGuard as PassportGuard } from '@nestjs/passport';\n"
        "@Injectable()\n"
        "export class SessionGuard extends PassportGuard('session') {}\n"
    ),
    "src/guards/owner.guard.ts": (
        "import { CanActivate, ExecutionContext, ForbiddenException } from '@nestjs/common';\n"
        "export class OwnerGuard implements CanActivate {\n"
        "  canActivate(context: ExecutionContext): boolean {\n"
        "    if (!context.switchToHttp().getRequest().owner) throw new ForbiddenException();\n"
        "    return true;\n"
        "  }\n"
        "}\n"
    ),
    "src/guards/open.guard.ts": (
        "export class OpenGuard {\n  canActivate(): boolean {\n    return true;\n  }\n}\n"
    ),
    "src/boxes.controller.ts": (
        "import { Controller, Get, Post, UseGuards } from '@nestjs/common';\n"
        "import { SessionGuard } from './guards/session.guard';\n"
        "import { OwnerGuard } from './guards/owner.guard';\n"
        "import { OpenGuard } from './guards/open.guard';\n"
        "@Controller('boxes')\n"
        "export class BoxesController {\n"
        "  @Get() @UseGuards(SessionGuard) list() {}\n"
        "  @Post() @UseGuards(OwnerGuard) make() {}\n"
        "  @Get('open') @UseGuards(OpenGuard) open() {}\n"
        "}\n"
    ),
}


def test_guard_classes_are_judged_by_what_they_extend_or_their_can_activate() -> None:
    auth = {s["resource"].partition(":")[2]: s["value"] for s in document(GUARDED)["signals"]}
    assert auth == {
        "GET /boxes": "required",  # extends AuthGuard('session') from @nestjs/passport
        "POST /boxes": "required",  # its canActivate answers 403
        "GET /boxes/open": "unknown",  # no evidence; global guards are not read
    }
