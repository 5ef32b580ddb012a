"""pack-http-routes: NestJS applications whose paths come through their own settings and module
lists: a global prefix destructured from `ConfigService.get(namespace)`, the namespace a
constant, its value a shorthand property read through the project's own environment helper
(`setting('KEY', 'default')`, itself calling a reader that returns the default early when the
variable is unset); `RouterModule.register` children and `@Module` controllers spread from a
list the file spells (`children: [...members]`), two controllers of one class name told apart
that way; `@Sse` routes; a decorator commented out among a method's decorators."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

READERS = (
    "function rawSetting<T>(name: string, otherwise: T, convert?: (v: string) => T): T {\n"
    "  const raw: string | undefined = process.env[name]\n"
    "  if (typeof raw === 'undefined')\n"
    "    return otherwise\n"
    "  return convert ? convert(raw) : (raw as unknown as T)\n"
    "}\n"
    "export function setting(name: string, otherwise: string = '') {\n"
    "  return rawSetting(name, otherwise)\n"
    "}\n"
)
WAREHOUSE: dict[str, str] = {
    "src/env/readers.ts": READERS,
    "src/env/http.env.ts": (
        "import { registerAs } from '@nestjs/config';\n"
        "import { setting } from './readers';\n"
        "const mount = setting('HTTP_MOUNT', 'depot');\n"
        "export const httpNamespace = 'http';\n"
        "export const HttpEnv = registerAs(httpNamespace, () => ({\n"
        "  listenOn: 7000,\n"
        "  mount,\n"
        "}));\n"
    ),
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { ConfigService } from '@nestjs/config';\n"
        "import { RootModule } from './root.module';\n"
        "async function launch() {\n"
        "  const app = await NestFactory.create(RootModule);\n"
        "  const env = app.get(ConfigService<Record<string, unknown>>);\n"
        "  const { listenOn, mount: base } = env.get('http', { infer: true });\n"
        "  app.setGlobalPrefix(base);\n"
        "  await app.listen(listenOn);\n"
        "}\n"
        "launch();\n"
    ),
    "src/root.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { StockModule } from './stock/stock.module';\n"
        "import { NoticeModule } from './notices/notice.module';\n"
        "@Module({ imports: [StockModule, NoticeModule] })\n"
        "export class RootModule {}\n"
    ),
    "src/stock/stock.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { RouterModule } from '@nestjs/core';\n"
        "import { ShelvesModule } from './shelves/shelves.module';\n"
        "import { BinsModule } from './bins/bins.module';\n"
        "const members = [ShelvesModule];\n"
        "const everyone = [...members, BinsModule];\n"
        "@Module({\n"
        "  imports: [\n"
        "    ...everyone,\n"
        "    RouterModule.register([{ path: 'stock', module: StockModule, children: [...everyone] }]),\n"
        "  ],\n"
        "})\n"
        "export class StockModule {}\n"
    ),
    "src/stock/shelves/shelves.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { ShelvesController } from './shelves.controller';\n"
        "import { NoticesController } from './notices.controller';\n"
        "const handlers = [ShelvesController, NoticesController];\n"
        "@Module({ controllers: [...handlers] })\n"
        "export class ShelvesModule {}\n"
    ),
    "src/stock/shelves/shelves.controller.ts": (
        "import { Controller, Get, Sse, Param } from '@nestjs/common';\n"
        "@Controller('shelves')\n"
        "export class ShelvesController {\n"
        "  @Get(':shelf')\n"
        "  // @Cached(30)\n"
        "  one(@Param('shelf') shelf: string) {}\n"
        "\n"
        "  @Sse('changes')\n"
        "  /* @Throttled() */\n"
        "  changes() {}\n"
        "}\n"
    ),
    "src/stock/shelves/notices.controller.ts": (
        "import { Controller, Post } from '@nestjs/common';\n"
        "@Controller('notices')\n"
        "export class NoticesController {\n"
        "  @Post('shelf-empty')\n"
        "  empty() {}\n"
        "}\n"
    ),
    "src/stock/bins/bins.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { BinsController } from './bins.controller';\n"
        "@Module({ controllers: [BinsController] })\n"
        "export class BinsModule {}\n"
    ),
    "src/stock/bins/bins.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('bins')\n"
        "export class BinsController {\n"
        "  @Get()\n"
        "  list() {}\n"
        "}\n"
    ),
    # a second `NoticesController`, in a module with no RouterModule path
    "src/notices/notice.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { NoticesController } from './notices.controller';\n"
        "@Module({ controllers: [NoticesController] })\n"
        "export class NoticeModule {}\n"
    ),
    "src/notices/notices.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('notices')\n"
        "export class NoticesController {\n"
        "  @Get('latest')\n"
        "  latest() {}\n"
        "}\n"
    ),
}


def _routes(files: dict[str, str]) -> dict[str, bool]:
    found = document(files)
    return {str(r["name"]): bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}


def test_settings_routers_and_spread_lists_give_every_route_its_whole_path() -> None:
    found = document(WAREHOUSE)
    assert sorted(str(r["name"]) for r in found["resources"]) == [
        "GET /depot/notices/latest",
        "GET /depot/stock/bins",
        "GET /depot/stock/shelves/changes",
        "GET /depot/stock/shelves/{shelf}",
        "POST /depot/stock/notices/shelf-empty",
    ]
    assert not any(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    assert found["findings"] == []


def test_a_commented_out_decorator_leaves_the_route_decorators_around_it() -> None:
    found = document(WAREHOUSE)
    where = {str(r["name"]): r["location"] for r in found["resources"]}
    assert where["GET /depot/stock/shelves/{shelf}"]["path"] == (
        "src/stock/shelves/shelves.controller.ts"
    )
    assert where["GET /depot/stock/shelves/{shelf}"]["line"] == 4
    assert where["GET /depot/stock/shelves/changes"]["line"] == 8  # `@Sse`: served as GET


@pytest.mark.parametrize(
    "reader",
    [
        "export const setting = (name: string, otherwise?: string) => process.env[name] ?? otherwise;\n",
        "export function setting(name: string, otherwise = '') {\n"
        "  const value = process.env[name];\n"
        "  if (!value) return otherwise;\n"
        "  return value.trim();\n"
        "}\n",
    ],
)
def test_an_environment_helper_s_default_is_the_setting(reader: str) -> None:
    routes = _routes({**WAREHOUSE, "src/env/readers.ts": reader})
    assert routes["GET /depot/stock/bins"] is False


def test_a_helper_that_is_not_read_leaves_the_prefix_flagged_never_silent() -> None:
    opaque = "export function setting(name: string) {\n  return lookup(name).value;\n}\n"
    found = document({**WAREHOUSE, "src/env/readers.ts": opaque})
    assert {str(r["name"]) for r in found["resources"] if r["attrs"].get("prefixUnresolved")} == {
        "GET /notices/latest",
        "GET /stock/bins",
        "GET /stock/shelves/changes",
        "GET /stock/shelves/{shelf}",
        "POST /stock/notices/shelf-empty",
    }
    assert {f["code"] for f in found["findings"]} == {"UNRESOLVED_PREFIX"}
    assert any(
        where["path"] == "src/main.ts" for f in found["findings"] for where in f["locations"]
    )


def test_the_warehouse_scanned_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"src/util.ts": "export const twice = (n: number) => n * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**WAREHOUSE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"POST /depot/stock/notices/shelf-empty"' in documents[1]
