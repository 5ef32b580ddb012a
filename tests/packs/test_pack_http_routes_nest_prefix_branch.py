"""pack-http-routes (NestJS): a global prefix set under an `if` that reads the configuration
(`if (process.env.SERVE_CLIENT) app.setGlobalPrefix('api')`) applies where the configuration's
defaults run that branch; where they do not (an unset variable is falsy) the routes are named
without it and an `UNRESOLVED_PREFIX` at the call says so. Blind24j's laudspeaker: its 180
routes were all named under `/api`, silently, though its default deployment serves them at
the root."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402


def _app(guard: str) -> dict[str, str]:
    return {
        "src/main.ts": (
            "import { NestFactory } from '@nestjs/core';\n"
            "import { AppModule } from './app.module';\n"
            "async function bootstrap() {\n"
            "  const app = await NestFactory.create(AppModule);\n"
            f"{guard}"
            "  await app.listen(3000);\n"
            "}\n"
            "bootstrap();\n"
        ),
        "src/app.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { UsersController } from './users.controller';\n"
            "@Module({ controllers: [UsersController] })\n"
            "export class AppModule {}\n"
        ),
        "src/users.controller.ts": (
            "import { Controller, Get, Post } from '@nestjs/common';\n"
            "@Controller('users')\n"
            "export class UsersController {\n"
            "  @Get() list() { return []; }\n"
            "  @Post(':id/ban') ban() { return true; }\n"
            "}\n"
        ),
    }


@pytest.mark.parametrize(
    ("guard", "prefix", "gap"),
    [
        ("  if (process.env.SERVE_CLIENT) app.setGlobalPrefix('api');\n", "", True),
        (
            "  if (!process.env.SERVE_CLIENT) {\n    app.setGlobalPrefix('api');\n  }\n",
            "/api",
            False,
        ),
        (
            "  const served = process.env.SERVE_CLIENT ?? 'yes';\n"
            "  if (served) app.setGlobalPrefix('v2');\n",
            "/v2",
            False,
        ),
        (
            "  if (process.env.SERVE_CLIENT) {\n  } else app.setGlobalPrefix('api');\n",
            "/api",
            False,
        ),
        ("  app.setGlobalPrefix('api');\n", "/api", False),
    ],
)
def test_a_global_prefix_under_a_configuration_if(guard: str, prefix: str, gap: bool) -> None:
    found = document(_app(guard))
    assert {str(r["name"]) for r in found["resources"]} == {
        f"GET {prefix}/users",
        f"POST {prefix}/users/{{id}}/ban",
    }
    places = [
        f"{where['path']}:{where['line']}"
        for finding in found["findings"]
        if finding["code"] == "UNRESOLVED_PREFIX"
        for where in finding["locations"]
    ]
    assert ("src/main.ts:5" in places) is gap
    if gap:
        assert "process.env.SERVE_CLIENT" in str(found["findings"])


def test_pre_filtered_is_parse_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _app("  if (process.env.SERVE_CLIENT) app.setGlobalPrefix('api');\n")
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /users"' in documents[0]
