"""pack-http-routes: NestJS, read through its record and the reader code for its decorators:
`@Controller(prefix)` (a string, `{ path }`, a list, none) classes, `@Get/@Post/.../@All(path)`
methods (aliased imports, lists of paths, constants from other files), `@UseGuards` on the
class or the method as auth evidence (guards set elsewhere keep the rest `unknown`), and
`app.setGlobalPrefix('api', { exclude })` in main.ts."""

from __future__ import annotations

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


def test_a_versioned_route_is_listed_with_a_finding_not_silently() -> None:
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
        ("GET /cats", True),
        ("GET /dogs", True),
        ("GET /dogs/breeds", None),
    ]
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", [{"path": "src/cats.controller.ts", "line": 4}]),
        ("UNRESOLVED_PREFIX", [{"path": "src/cats.controller.ts", "line": 10}]),
    ]


def test_a_javascript_controller_s_method_decorators_are_read_too() -> None:
    # tree-sitter's JavaScript grammar puts a method's decorators inside the method
    files = {
        "src/tags.controller.js": (
            "import { Controller, Get, Post } from '@nestjs/common';\n"
            "@Controller('tags')\n"
            "export class TagsController {\n"
            "  @Get() list() {}\n"
            "  @Post(':tag') add() {}\n"
            "}\n"
        ),
    }
    assert placed(files) == {
        "GET /tags": "src/tags.controller.js:4 nestjs",
        "POST /tags/{tag}": "src/tags.controller.js:5 nestjs",
    }
