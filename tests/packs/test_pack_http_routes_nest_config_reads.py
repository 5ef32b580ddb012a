"""pack-http-routes: how NestJS's `ConfigService` is reached and read where `main.ts` sets the
global prefix (blind round 16j): `app.get('ConfigService')` (a string token naming the class, as
Nest 6/7 resolve it), `get(key, default)` (the loaded environment file's value, else the
default, marked in `attrs.configDefault`, else unknown), and an `envFilePath` imported from
another module or a workspace package (the path it exports, computed with
`path.join(__dirname, ...)`). Every pre-filtered scan equals the parse-all one. Our own
fixtures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import REPO
from routes_harness import document, scanned_both_ways

sys.path.insert(0, str(REPO / "plugins"))

_BOOT = (
    "import { NestFactory } from '@nestjs/core';\n"
    "import { HubModule } from './hub.module';\n"
    "async function boot() {\n"
    "  const server = await NestFactory.create(HubModule);\n"
    "  server.setGlobalPrefix(READ);\n"
    "  await server.listen(4000);\n"
    "}\n"
    "boot();\n"
)
_HUB = (
    "import { Module } from '@nestjs/common';\n"
    "import { ConfigModule as Cfg } from '@nestjs/config';\n"
    "IMPORTS"
    "import { DepotController } from './depot/depot.controller';\n"
    "@Module({\n"
    "  imports: [Cfg.forRoot(OPTIONS)],\n"
    "  controllers: [DepotController],\n"
    "})\n"
    "export class HubModule {}\n"
)
_DEPOT = (
    "import { Controller, Get, Delete } from '@nestjs/common';\n"
    "@Controller('depots')\n"
    "export class DepotController {\n"
    "  @Get(':code') one() { return 1; }\n"
    "  @Delete(':code') drop() { return 2; }\n"
    "}\n"
)


def _hub(
    read: str, options: str = "", imports: str = "", core: str = "^7.6.0", **more: str
) -> dict[str, str]:
    files = {
        "apps/hub/package.json": json.dumps(
            {"name": "hub", "dependencies": {"@nestjs/core": core, "@nestjs/config": "^1.0.0"}}
        ),
        "apps/hub/src/main.ts": _BOOT.replace("READ", read),
        "apps/hub/src/hub.module.ts": _HUB.replace("OPTIONS", options).replace("IMPORTS", imports),
        "apps/hub/src/depot/depot.controller.ts": _DEPOT,
    }
    files.update(more)
    return files


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


def _codes(files: dict[str, str]) -> set[str]:
    return {str(f["code"]) for f in document(files)["findings"]}


_UNDER = {"GET /{p}depots/{{code}}", "DELETE /{p}depots/{{code}}"}


def _under(prefix: str) -> set[str]:
    return {n.format(p=f"{prefix}/" if prefix else "") for n in _UNDER}


def test_a_default_given_to_get_is_the_prefix_where_no_loaded_file_sets_the_key() -> None:
    read = "server.get(ConfigService).get('HUB_ROOT', 'hub-api')"
    boot = {
        "apps/hub/src/main.ts": _BOOT.replace("READ", read).replace(
            "import { HubModule }",
            "import { ConfigService } from '@nestjs/config';\nimport { HubModule }",
        )
    }
    files = _hub(
        read,
        **boot,
        **{
            "apps/hub/.env": "OTHER=1\n",
            "apps/hub/.env.example": "HUB_ROOT=sample\n",  # documentation: the default wins
        },
    )
    found = _routes(files)
    assert set(found) == _under("hub-api")
    assert "the default" in str(found["GET /hub-api/depots/{code}"]["configDefault"])
    assert "UNRESOLVED_PREFIX" not in _codes(files)


def test_the_loaded_file_wins_over_the_default_and_a_file_out_of_sight_leaves_it_open() -> None:
    read = "server.get(ConfigService).get('HUB_ROOT', 'hub-api')"
    boot = {
        "apps/hub/src/main.ts": _BOOT.replace("READ", read).replace(
            "import { HubModule }",
            "import { ConfigService } from '@nestjs/config';\nimport { HubModule }",
        )
    }
    loaded = _hub(read, **boot, **{"apps/hub/.env": "HUB_ROOT=/edge\n"})
    assert set(_routes(loaded)) == _under("edge")
    computed = _hub(
        read,
        "{ envFilePath: [`conf/${process.env.STAGE}.env`] }",
        **boot,
        **{"apps/hub/conf/live.env": "HUB_ROOT=live\n"},
    )
    assert set(_routes(computed)) == _under("")
    assert "UNRESOLVED_PREFIX" in _codes(computed)


def test_a_string_token_naming_config_service_reads_it_with_its_default() -> None:
    files = _hub(
        "server.get('ConfigService').get(\"HUB_ROOT\", '/v-hub')",
        **{"apps/hub/.env": "UNRELATED=2\n"},
    )
    assert set(_routes(files)) == _under("v-hub")


def test_the_prefilter_changes_nothing_on_config_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _hub(
        "server.get('ConfigService').get('HUB_ROOT', 'fallback')",
        **{"apps/hub/.env": "HUB_ROOT=from-file\n"},
    )
    documents, _ = scanned_both_ways(tmp_path / "set", files, monkeypatch)
    assert documents[0] == documents[1]
    names = {r["name"] for r in json.loads(documents[0])["resources"]}
    assert names == _under("from-file")
    files["apps/hub/.env"] = "ELSE=1\n"  # the default, read through the pre-filter too
    documents, _ = scanned_both_ways(tmp_path / "unset", files, monkeypatch)
    assert documents[0] == documents[1]
    names = {r["name"] for r in json.loads(documents[0])["resources"]}
    assert names == _under("fallback")
