"""pack-http-routes: NestJS versioning as Nest's `RoutePathFactory` applies it (checked against
Nest 11's runtime): `enableVersioning()` with no options is URI versioning with the `v` prefix
and no default version; options with no `type` put no version in the path; the options, the
enum member, the versions and their lists reach Nest through the project's own constants,
re-exports and helpers (followed by the linker); the version goes after the global prefix and
before the `RouterModule` path; a method's `@Version` overrides its controller's `version`,
which overrides the default. Where a value is out of sight, a finding at its place."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, placed, scanned_both_ways  # noqa: E402

# A ticketing service of our own: `enableVersioning()` called bare in a setup helper of another
# file that main.ts calls, `Version` imported under another name, a method served under one
# version, under a version and VERSION_NEUTRAL, and under none; a controller's own version
# under a RouterModule path; a global prefix excluding a path.
TICKETS: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { TicketsModule } from './tickets.module';\n"
        "import { harden } from './boot/harden';\n"
        "async function run() {\n"
        "  const nest = await NestFactory.create(TicketsModule);\n"
        "  harden(nest);\n"
        "  await nest.listen(4100);\n"
        "}\n"
        "void run();\n"
    ),
    "src/boot/harden.ts": (
        "import type { INestApplication } from '@nestjs/common';\n"
        "export function harden(target: INestApplication): void {\n"
        "  target.setGlobalPrefix('desk', { exclude: ['alive'] });\n"
        "  target.enableVersioning();\n"
        "}\n"
    ),
    "src/session/session.controller.ts": (
        "import { Controller, Delete, Get, Post, Version as Rev, VERSION_NEUTRAL }\n"
        "  from '@nestjs/common';\n"
        "@Controller('session')\n"
        "export class SessionController {\n"
        "  @Rev('1')\n"
        "  @Get('whoami')\n"
        "  whoami() {}\n"
        "\n"
        "  @Post('open')\n"
        "  open() {}\n"
        "\n"
        "  @Rev(['2', VERSION_NEUTRAL])\n"
        "  @Delete('close')\n"
        "  close() {}\n"
        "}\n"
    ),
    "src/alive.controller.ts": (
        "import { Controller, Get, Version } from '@nestjs/common';\n"
        "@Controller()\n"
        "export class AliveController {\n"
        "  @Version('3')\n"
        "  @Get('alive')\n"
        "  probe() {}\n"
        "}\n"
    ),
    "src/queue/queue.controller.ts": (
        "import { Controller, Get, Patch, Version } from '@nestjs/common';\n"
        "@Controller({ path: 'queue', version: ['5', '6', '5'] })\n"
        "export class QueueController {\n"
        "  @Get()\n"
        "  waiting() {}\n"
        "  @Version('8')\n"
        "  @Patch(':ticketId')\n"
        "  move() {}\n"
        "}\n"
    ),
    "src/tickets.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { RouterModule } from '@nestjs/core';\n"
        "import { SessionController } from './session/session.controller';\n"
        "import { AliveController } from './alive.controller';\n"
        "import { QueueModule } from './queue/queue.module';\n"
        "@Module({\n"
        "  imports: [QueueModule, RouterModule.register([{ path: 'triage', module: QueueModule }])],\n"
        "  controllers: [SessionController, AliveController],\n"
        "})\n"
        "export class TicketsModule {}\n"
    ),
    "src/queue/queue.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { QueueController } from './queue.controller';\n"
        "@Module({ controllers: [QueueController] })\n"
        "export class QueueModule {}\n"
    ),
}


def test_bare_enable_versioning_is_uri_versioning_with_the_v_prefix() -> None:
    session = "src/session/session.controller.ts"
    queue = "src/queue/queue.controller.ts"
    assert placed(TICKETS) == {
        "GET /desk/v1/session/whoami": f"{session}:6 nestjs",
        "POST /desk/session/open": f"{session}:9 nestjs",
        "DELETE /desk/v2/session/close": f"{session}:13 nestjs",
        "DELETE /desk/session/close": f"{session}:13 nestjs",
        "GET /v3/alive": "src/alive.controller.ts:5 nestjs",  # excluded, its version kept
        "GET /desk/v5/triage/queue": f"{queue}:4 nestjs",
        "GET /desk/v6/triage/queue": f"{queue}:4 nestjs",
        "PATCH /desk/v8/triage/queue/{ticketId}": f"{queue}:7 nestjs",
    }
    assert document(TICKETS)["findings"] == []


def test_options_without_a_type_put_no_version_in_the_path() -> None:
    # Nest versions a path only when `type` is `VersioningType.URI`; none given is no URI
    harden = TICKETS["src/boot/harden.ts"].replace(
        "enableVersioning()", "enableVersioning({ defaultVersion: '4' })"
    )
    names = set(placed({**TICKETS, "src/boot/harden.ts": harden}))
    assert {"GET /desk/session/whoami", "POST /desk/session/open", "GET /alive"} <= names
    assert not any("/v" in name for name in names)
    assert document({**TICKETS, "src/boot/harden.ts": harden})["findings"] == []


# An inventory service of our own whose versioning options are a typed constant of another
# file, its enum member and VERSION_NEUTRAL re-exported by the project's own barrel under other
# names, the versions a controller and a method are served under kept in constants (a list
# too), the prefix a string of the project's.
STOCK: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { StockModule } from './stock.module';\n"
        "import { VERSIONS } from './settings/versions';\n"
        "const start = async () => {\n"
        "  const app = await NestFactory.create(StockModule);\n"
        "  app.setGlobalPrefix('inv');\n"
        "  app.enableVersioning(VERSIONS);\n"
        "  await app.listen(4200);\n"
        "};\n"
        "start();\n"
    ),
    "src/shared/nest.ts": (
        "export { VersioningType as Scheme, VERSION_NEUTRAL as UNVERSIONED } from '@nestjs/common';\n"
    ),
    "src/settings/marks.ts": "export const MARK = 'rel';\nexport const LEGACY = ['1', '2'];\n",
    "src/settings/versions.ts": (
        "import type { VersioningOptions } from '@nestjs/common';\n"
        "import { Scheme, UNVERSIONED } from '../shared/nest';\n"
        "import { MARK } from './marks';\n"
        "export const CURRENT = '7';\n"
        "export const VERSIONS: VersioningOptions = {\n"
        "  type: Scheme.URI,\n"
        "  prefix: MARK,\n"
        "  defaultVersion: [UNVERSIONED, CURRENT],\n"
        "};\n"
    ),
    "src/items.controller.ts": (
        "import { Controller, Get, Put, Version } from '@nestjs/common';\n"
        "import { LEGACY } from './settings/marks';\n"
        "import { UNVERSIONED } from './shared/nest';\n"
        "@Controller({ path: 'items', version: LEGACY })\n"
        "export class ItemsController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "  @Version(UNVERSIONED)\n"
        "  @Put(':sku')\n"
        "  restock() {}\n"
        "}\n"
    ),
    "src/counts.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('counts')\n"
        "export class CountsController {\n"
        "  @Get()\n"
        "  tally() {}\n"
        "}\n"
    ),
}


def test_versioning_options_and_versions_are_followed_through_the_project_s_constants() -> None:
    assert placed(STOCK) == {
        "GET /inv/rel1/items": "src/items.controller.ts:6 nestjs",
        "GET /inv/rel2/items": "src/items.controller.ts:6 nestjs",
        "PUT /inv/items/{sku}": "src/items.controller.ts:9 nestjs",
        "GET /inv/counts": "src/counts.controller.ts:4 nestjs",  # the default: neutral and 7
        "GET /inv/rel7/counts": "src/counts.controller.ts:4 nestjs",
    }
    assert document(STOCK)["findings"] == []


@pytest.mark.parametrize(
    ("main", "counts"),
    [
        # a local constant of main.ts, `prefix: false`, the enum through a namespace import
        (
            "  const options = { type: nest.VersioningType.URI, prefix: false,"
            " defaultVersion: '3' } as const;\n  app.enableVersioning(options);\n",
            "GET /inv/3/counts",
        ),
        # an empty prefix is no prefix either; a spread of a constant of the file
        (
            "  app.enableVersioning({ ...BASE, prefix: '' });\n",
            "GET /inv/9/counts",
        ),
        # header, media-type and custom versioning: nothing in the path
        (
            "  app.enableVersioning({ type: nest.VersioningType.HEADER, header: 'X-Rev' });\n",
            "GET /inv/counts",
        ),
        (
            "  app.enableVersioning({ type: nest.VersioningType.MEDIA_TYPE, key: 'v=',"
            " defaultVersion: '3' });\n",
            "GET /inv/items",
        ),
        (
            "  app.enableVersioning({ ...BASE, type: nest.VersioningType.CUSTOM,"
            " extractor: () => '9' });\n",
            "GET /inv/counts",
        ),
    ],
)
def test_each_way_of_writing_the_options_decides_the_segment(main: str, counts: str) -> None:
    source = (
        STOCK["src/main.ts"]
        .replace("  app.enableVersioning(VERSIONS);\n", main)
        .replace(
            "import { NestFactory }",
            "import * as nest from '@nestjs/common';\n"
            "const BASE = { type: nest.VersioningType.URI, defaultVersion: '9' };\n"
            "import { NestFactory }",
        )
    )
    found = placed({**STOCK, "src/main.ts": source})
    assert counts in found
    assert document({**STOCK, "src/main.ts": source})["findings"] == []


@pytest.mark.parametrize(
    ("call", "line"),
    [
        ("app.enableVersioning(readVersioning());", 7),  # a helper out of sight
        ("app.enableVersioning({ ...readVersioning(), defaultVersion: '2' });", 7),
        ("app.enableVersioning({ type: pickScheme(), defaultVersion: '2' });", 7),
        ("app.enableVersioning(settings.versioning);", 7),
    ],
)
def test_options_out_of_sight_are_a_finding_and_routes_are_flagged(call: str, line: int) -> None:
    source = STOCK["src/main.ts"].replace("app.enableVersioning(VERSIONS);", call)
    found = document({**STOCK, "src/main.ts": source})
    flagged = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert {"GET /inv/counts", "GET /inv/items"} <= flagged
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]
    assert {"path": "src/main.ts", "line": line} in found["findings"][0]["locations"]


def test_a_version_out_of_sight_is_a_finding_at_its_route() -> None:
    controller = STOCK["src/items.controller.ts"].replace(
        "@Version(UNVERSIONED)", "@Version(process.env.ITEMS_VERSION)"
    )
    found = document({**STOCK, "src/items.controller.ts": controller})
    flagged = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert flagged == {"PUT /inv/items/{sku}"}
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", [{"path": "src/items.controller.ts", "line": 9}])
    ]


# A billing service of our own whose methods get their version from decorators of the project
# that compose Nest's `Version` with `applyDecorators`: the version a parameter (passed, or left
# to its default `''`, which Nest takes as no version of the method's own), VERSION_NEUTRAL
# written in the composing function along with a route decorator, a composing arrow constant
# imported under another name; the controller's own version and a method's own `@Version`.
BILLING: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { VersioningType } from '@nestjs/common';\n"
        "import { BillingModule } from './billing.module';\n"
        "async function main() {\n"
        "  const app = await NestFactory.create(BillingModule);\n"
        "  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });\n"
        "  await app.listen(4300);\n"
        "}\n"
        "main();\n"
    ),
    "src/common/revision.ts": (
        "import { applyDecorators, Get, SetMetadata, Version, VERSION_NEUTRAL }\n"
        "  from '@nestjs/common';\n"
        "export function Revision(rev = '') {\n"
        "  return applyDecorators(Version(rev), SetMetadata('revision', rev));\n"
        "}\n"
        "export const Heartbeat = () =>\n"
        "  applyDecorators(Get('beat'), Version(VERSION_NEUTRAL));\n"
        "export const Second = () => applyDecorators(Version('2'));\n"
    ),
    "src/invoices.controller.ts": (
        "import { Controller, Get, Post, Version } from '@nestjs/common';\n"
        "import { Heartbeat, Revision, Second as Next } from './common/revision';\n"
        "@Controller({ path: 'invoices', version: '4' })\n"
        "export class InvoicesController {\n"
        "  @Revision('6')\n"
        "  @Get()\n"
        "  list() {}\n"
        "  @Revision()\n"
        "  @Post()\n"
        "  issue() {}\n"
        "  @Heartbeat()\n"
        "  beat() {}\n"
        "  @Next()\n"
        "  @Get('due')\n"
        "  due() {}\n"
        "  @Version('9')\n"
        "  @Get('void')\n"
        "  cancel() {}\n"
        "}\n"
    ),
    "src/billing.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { InvoicesController } from './invoices.controller';\n"
        "@Module({ controllers: [InvoicesController] })\n"
        "export class BillingModule {}\n"
    ),
}


def test_versions_composed_with_apply_decorators_are_the_method_s_own() -> None:
    invoices = "src/invoices.controller.ts"
    assert placed(BILLING) == {
        "GET /v6/invoices": f"{invoices}:6 nestjs",
        "POST /v4/invoices": f"{invoices}:9 nestjs",  # `''`: the controller's version
        "GET /invoices/beat": f"{invoices}:11 nestjs",
        "GET /v2/invoices/due": f"{invoices}:14 nestjs",
        "GET /v9/invoices/void": f"{invoices}:17 nestjs",
    }
    assert document(BILLING)["findings"] == []


def test_a_composed_version_out_of_sight_is_a_finding_at_its_route() -> None:
    controller = BILLING["src/invoices.controller.ts"].replace(
        "@Revision('6')", "@Revision(process.env.INVOICES_REV)"
    )
    found = document({**BILLING, "src/invoices.controller.ts": controller})
    flagged = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert flagged == {"GET /invoices"}
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", [{"path": "src/invoices.controller.ts", "line": 6}])
    ]


# The ticketing service enabling versioning only under an `if` that reads the configuration:
# where the visible defaults skip the branch (an unset variable is falsy; a sample environment
# file's value counts), Nest serves no version; where they run it, the versions; either way the
# names that depend on it carry the default they were read with.
GATED = (
    "import type { INestApplication } from '@nestjs/common';\n"
    "export function harden(target: INestApplication): void {\n"
    "  target.setGlobalPrefix('desk', { exclude: ['alive'] });\n"
    "  const versioned = process.env.DESK_VERSIONED;\n"
    "  if (versioned === 'yes') {\n"
    "    target.enableVersioning();\n"
    "  }\n"
    "}\n"
)
GATED_ON = {**TICKETS, "src/boot/harden.ts": GATED, "src/.env.example": "DESK_VERSIONED=yes\n"}


def test_versioning_the_configuration_s_defaults_do_not_enable_puts_no_version() -> None:
    files = {**TICKETS, "src/boot/harden.ts": GATED}
    found = {r["name"]: r["attrs"] for r in document(files)["resources"]}
    assert "GET /desk/session/whoami" in found
    assert "GET /alive" in found
    assert not any("/v" in name for name in found)
    assert found["GET /desk/session/whoami"]["configDefault"] == "process.env.DESK_VERSIONED unset"
    assert "configDefault" not in found["POST /desk/session/open"]  # no version either way
    assert document(files)["findings"] == []


def test_versioning_the_configuration_s_defaults_enable_puts_the_versions() -> None:
    found = {r["name"]: r["attrs"] for r in document(GATED_ON)["resources"]}
    assert "GET /desk/v1/session/whoami" in found
    assert "DESK_VERSIONED" in found["GET /desk/v1/session/whoami"]["configDefault"]
    assert "configDefault" not in found["POST /desk/session/open"]


def test_versioning_under_a_test_of_no_configuration_is_read_as_enabled() -> None:
    gated = GATED.replace("versioned === 'yes'", "target.getHttpServer()")
    found = placed({**TICKETS, "src/boot/harden.ts": gated})
    assert "GET /desk/v1/session/whoami" in found


# A reporting service whose Nest names are imported from `@nestjs/common`'s own modules, as an
# editor's auto-import writes them: the decorators, VERSION_NEUTRAL and the enum member.
REPORTS: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { VersioningType } from '@nestjs/common/enums/version-type.enum';\n"
        "import { ReportsModule } from './reports.module';\n"
        "async function go() {\n"
        "  const app = await NestFactory.create(ReportsModule);\n"
        "  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '2' });\n"
        "  await app.listen(4400);\n"
        "}\n"
        "go();\n"
    ),
    "src/reports.controller.ts": (
        "import { Controller } from '@nestjs/common/decorators/core/controller.decorator';\n"
        "import { Get, Post } from '@nestjs/common/decorators/http/request-mapping.decorator';\n"
        "import { Version } from '@nestjs/common/decorators/core/version.decorator';\n"
        "import { VERSION_NEUTRAL } from '@nestjs/common/interfaces/version-options.interface';\n"
        "@Controller('reports')\n"
        "export class ReportsController {\n"
        "  @Get()\n"
        "  latest() {}\n"
        "  @Version(['3', VERSION_NEUTRAL])\n"
        "  @Post('runs')\n"
        "  run() {}\n"
        "}\n"
    ),
    "src/reports.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { ReportsController } from './reports.controller';\n"
        "@Module({ controllers: [ReportsController] })\n"
        "export class ReportsModule {}\n"
    ),
}


def test_names_imported_from_nest_s_own_modules_are_nest_s() -> None:
    reports = "src/reports.controller.ts"
    assert placed(REPORTS) == {
        "GET /v2/reports": f"{reports}:7 nestjs",
        "POST /v3/reports/runs": f"{reports}:10 nestjs",
        "POST /reports/runs": f"{reports}:10 nestjs",
    }
    assert document(REPORTS)["findings"] == []


# A fleet service of our own whose versions are members of TypeScript enums of another file:
# a string enum for the default and a controller's list, a `const enum` counted from an
# initialised member for a method's own version, and a route path from a string enum too.
FLEET: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { VersioningType } from '@nestjs/common';\n"
        "import { FleetModule } from './fleet.module';\n"
        "import { ApiRev } from './common/revisions';\n"
        "async function boot() {\n"
        "  const app = await NestFactory.create(FleetModule);\n"
        "  app.enableVersioning({ type: VersioningType.URI, defaultVersion: ApiRev.Stable });\n"
        "  await app.listen(4500);\n"
        "}\n"
        "boot();\n"
    ),
    "src/common/revisions.ts": (
        "export enum ApiRev {\n"
        "  Stable = '1',\n"
        "  Beta = '2',\n"
        "}\n"
        "export const enum Generation { First = 4, Second, Third }\n"
        "export enum Paths { Trucks = 'trucks', Docks = 'docks' }\n"
    ),
    "src/trucks.controller.ts": (
        "import { Controller, Get, Version } from '@nestjs/common';\n"
        "import { ApiRev, Generation, Paths } from './common/revisions';\n"
        "@Controller({ path: Paths.Trucks, version: [ApiRev.Stable, ApiRev.Beta] })\n"
        "export class TrucksController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "  @Version(Generation.Third)\n"
        "  @Get(Paths.Docks)\n"
        "  docks() {}\n"
        "}\n"
    ),
    "src/yard.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('yard')\n"
        "export class YardController {\n"
        "  @Get()\n"
        "  map() {}\n"
        "}\n"
    ),
    "src/fleet.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { TrucksController } from './trucks.controller';\n"
        "import { YardController } from './yard.controller';\n"
        "@Module({ controllers: [TrucksController, YardController] })\n"
        "export class FleetModule {}\n"
    ),
}


def test_versions_and_paths_from_typescript_enums_are_their_members_values() -> None:
    trucks = "src/trucks.controller.ts"
    assert placed(FLEET) == {
        "GET /v1/trucks": f"{trucks}:5 nestjs",
        "GET /v2/trucks": f"{trucks}:5 nestjs",
        "GET /v6/trucks/docks": f"{trucks}:8 nestjs",
        "GET /v1/yard": "src/yard.controller.ts:4 nestjs",
    }
    assert document(FLEET)["findings"] == []


@pytest.mark.parametrize(
    "files",
    [TICKETS, STOCK, BILLING, GATED_ON, REPORTS, FLEET],
    ids=["tickets", "stock", "billing", "gated", "reports", "fleet"],
)
def test_versioned_services_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const clamp = (n: number) => Math.max(0, n);\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**files, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]


def test_an_enum_member_is_a_path_for_every_javascript_framework() -> None:
    # the evaluator is shared: an Express route's path from a string enum is read, a member
    # TypeScript computes at runtime is present but not visible (a finding, never silence)
    files = {
        "src/paths.ts": (
            "export enum Route {\n"
            "  Health = '/health',\n"
            "  Jobs = '/jobs',\n"
            "  Later = '/x'.repeat(2),\n"
            "}\n"
        ),
        "src/server.ts": (
            "import express from 'express';\n"
            "import { Route } from './paths';\n"
            "const app = express();\n"
            "app.get(Route.Health, (req, res) => res.end());\n"
            "app.post(Route.Jobs, (req, res) => res.end());\n"
            "app.get(Route.Later, (req, res) => res.end());\n"
            "app.listen(3000);\n"
        ),
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /health", "POST /jobs"]
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        ("UNRESOLVED_ROUTE", [{"path": "src/server.ts", "line": 6}])
    ]
