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


_READ_ROOT = "server.get('ConfigService').get('HUB_ROOT', 'dflt')"
_LOCATE = (
    "import { join, resolve } from 'path';\n"
    "import * as fs from 'fs';\n"
    "const live = process.env.APP_STAGE === 'live';\n"
    "function locate() {\n"
    "  const shared = resolve(__dirname, '..', '..', '..', 'deploy', 'hub.env');\n"
    "  const liveFile = join(__dirname, '../../../deploy/live.env');\n"
    "  const picked = TEST ? liveFile : shared;\n"
    "  return { picked, other: 1 };\n"
    "}\n"
    "export const { picked: hubEnvFile, other } = locate();\n"
)
_LOCATE_JS = (
    '"use strict";\n'
    "var _a;\n"
    "exports.__esModule = true;\n"
    "exports.other = exports.hubEnvFile = void 0;\n"
    'var path = require("path");\n'
    "var live = process.env.APP_STAGE === 'live';\n"
    "function locate() {\n"
    "    var shared = path.resolve(__dirname, '../../../deploy/hub.env');\n"
    "    var liveFile = path.join(__dirname, '../../../deploy/live.env');\n"
    "    var picked = live ? liveFile : shared;\n"
    "    return { picked: picked, other: 1 };\n"
    "}\n"
    "exports.hubEnvFile = (_a = locate(), _a.picked), exports.other = _a.other;\n"
)


def _workspace(
    test: str = "live", *, compiled: bool = False, more: dict[str, str] | None = None
) -> dict[str, str]:
    settings = (
        {
            "libs/settings/package.json": '{"name": "@acme/settings", "main": "lib/index.js"}',
            "libs/settings/lib/index.js": '"use strict";\n__exportStar(require("./locate"), exports);\n',
            "libs/settings/lib/locate.js": _LOCATE_JS,
        }
        if compiled
        else {
            "libs/settings/package.json": '{"name": "@acme/settings", "main": "src/index.ts"}',
            "libs/settings/src/index.ts": "export * from './locate';\n",
            "libs/settings/src/locate.ts": _LOCATE.replace("TEST", test),
        }
    )
    return _hub(
        _READ_ROOT,
        "{ isGlobal: true, envFilePath: [envAt, '.env'] }",
        "import { hubEnvFile as envAt } from '@acme/settings';\n",
        **{
            "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - 'libs/*'\n",
            "package.json": '{"name": "acme", "private": true}',
            "deploy/hub.env": "HUB_ROOT=deployed\n",
            "apps/hub/.env": "HUB_ROOT=local\n",  # read after: the first file wins
            **settings,
            **(more or {}),
        },
    )


def test_an_env_file_path_a_workspace_package_exports_is_the_one_loaded() -> None:
    files = _workspace()  # APP_STAGE unset: `live` is false, the shared file is picked
    found = _routes(files)
    assert set(found) == _under("deployed")
    assert "deploy/hub.env" in str(found["GET /deployed/depots/{code}"]["configDefault"])
    compiled = _workspace(compiled=True)  # the package as `tsc` compiles it to CommonJS
    assert set(_routes(compiled)) == _under("deployed")


def test_an_exported_path_the_defaults_do_not_decide_is_one_of_several() -> None:
    both = _workspace("fs.existsSync(liveFile)", more={"deploy/live.env": "HUB_ROOT=other\n"})
    assert set(_routes(both)) == _under("")
    assert "UNRESOLVED_PREFIX" in _codes(both)
    decided = _workspace(
        "live && fs.existsSync(liveFile)", more={"deploy/live.env": "HUB_ROOT=x\n"}
    )
    assert set(_routes(decided)) == _under("deployed")  # `live` false: never the live file


def test_an_env_file_path_exported_by_a_module_of_the_app() -> None:
    files = _hub(
        _READ_ROOT,
        "{ envFilePath: HUB_ENV }",
        "import { HUB_ENV } from './paths/env-file';\n",
        **{
            "apps/hub/src/paths/env-file.ts": (
                "import * as path from 'path';\n"
                "export const HUB_ENV = path.join(__dirname, '..', '..', 'conf', 'hub.env');\n"
            ),
            "apps/hub/conf/hub.env": "HUB_ROOT=/conf-root\n",
            "apps/hub/.env": "HUB_ROOT=not-loaded\n",
        },
    )
    assert set(_routes(files)) == _under("conf-root")


def test_the_prefilter_changes_nothing_on_exported_env_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number, files in enumerate((_workspace(), _workspace(compiled=True))):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1]
        names = {r["name"] for r in json.loads(documents[0])["resources"]}
        assert names == _under("deployed")


def test_a_string_token_resolves_a_class_only_where_nest_keys_providers_by_name() -> None:
    read = "server.get('ConfigService').get('HUB_ROOT', '/v-hub')"
    nine = _hub(read, core="^9.2.0", **{"apps/hub/.env": "HUB_ROOT=set\n"})
    assert set(_routes(nine)) == _under("")  # Nest 8+: `get('ConfigService')` throws
    assert "UNRESOLVED_PREFIX" in _codes(nine)
    either = _hub(read, core=">=7.0.0 <9", **{"apps/hub/.env": "HUB_ROOT=set\n"})
    assert set(_routes(either)) == _under("set")


_SETTINGS = (
    "import { Injectable } from '@nestjs/common';\n"
    "import { ConfigService as Source } from '@nestjs/config';\n"
    "@Injectable()\n"
    "export class HubSettings {\n"
    "  constructor(private readonly source: Source) {}\n"
    "  get web() { return { root: this.text('HUB_ROOT', 'svc-default') }; }\n"
    "  private text(name: string, otherwise?: string) { return this.source.get(name, otherwise); }\n"
    "}\n"
)


def test_a_service_of_the_projects_fetched_by_its_name() -> None:
    read = "holder.web.root"
    files = _hub(read, **{"apps/hub/src/config/hub-settings.ts": _SETTINGS})
    boot = _BOOT.replace("READ", read).replace(
        "  server.setGlobalPrefix",
        "  const holder = server.get('HubSettings');\n  server.setGlobalPrefix",
    )
    files["apps/hub/src/main.ts"] = boot
    assert set(_routes(files)) == _under("svc-default")
    files["apps/hub/.env"] = "HUB_ROOT=svc-env\n"
    assert set(_routes(files)) == _under("svc-env")
    files["apps/hub/package.json"] = files["apps/hub/package.json"].replace("^7.6.0", "^10.0.0")
    assert set(_routes(files)) == _under("")
