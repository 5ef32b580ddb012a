"""pack-http-routes (NestJS): a business module kept in a folder the scan leaves out as test
code (`src/api/tests/tests.module.ts`, imported by the app's `ApiModule`): its controllers'
routes are not read, and a finding at the import and at that module's file says so, never
silence (blind24j's laudspeaker: 13 routes of `src/api/tests/` were silent). A module the
scanned files declare, and a library's module, are no such finding."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

import pytest  # noqa: E402
from routes_harness import scanned_both_ways  # noqa: E402

APP: dict[str, str] = {
    "src/main.ts": (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { ApiModule } from './api/api.module';\n"
        "async function bootstrap() {\n"
        "  const app = await NestFactory.create(ApiModule);\n"
        "  await app.listen(3000);\n"
        "}\n"
        "bootstrap();\n"
    ),
    "src/api/api.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { ConfigModule } from '@nestjs/config';\n"
        "import { DiagnosticsModule } from './tests/diagnostics.module';\n"
        "import { UsersModule } from './users/users.module';\n"
        "@Module({\n"
        "  imports: [ConfigModule.forRoot(), UsersModule, DiagnosticsModule],\n"
        "})\n"
        "export class ApiModule {}\n"
    ),
    "src/api/users/users.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { UsersController } from './users.controller';\n"
        "@Module({ controllers: [UsersController] })\n"
        "export class UsersModule {}\n"
    ),
    "src/api/users/users.controller.ts": (
        "import { Controller, Get } from '@nestjs/common';\n"
        "@Controller('users')\n"
        "export class UsersController {\n"
        "  @Get() list() { return []; }\n"
        "}\n"
    ),
    "src/api/tests/diagnostics.module.ts": (
        "import { Module } from '@nestjs/common';\n"
        "import { DiagnosticsController } from './diagnostics.controller';\n"
        "@Module({ controllers: [DiagnosticsController] })\n"
        "export class DiagnosticsModule {}\n"
    ),
}


def test_a_module_in_a_test_folder_the_app_imports_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, APP, monkeypatch)  # the walk leaves tests/ out
    assert documents[0] == documents[1]
    found = json.loads(documents[0])
    assert {str(r["name"]) for r in found["resources"]} == {"GET /users"}
    places = [
        (where["path"], where["line"])
        for f in found["findings"]
        if "DiagnosticsModule" in f["detail"]
        for where in f["locations"]
    ]
    assert sorted(places) == [
        ("src/api/api.module.ts", 6),
        ("src/api/tests/diagnostics.module.ts", 1),
    ]
    assert not any("ConfigModule" in f["detail"] or "UsersModule" in f["detail"]
                   for f in found["findings"])  # fmt: skip
