"""pack-http-routes: values an environment file the app LOADS gives `process.env` (issue 34
class 2, issue 36's NestJS row): dotenv's `config({ path })`, `import 'dotenv/config'`, NestJS's
`ConfigModule.forRoot({ envFilePath })` (a list, computed names, the default `.env`) read by
`ConfigService.get('X')`; dotenv's own parsing rules, its precedence (first value kept, unless
`override`), `dotenv-expand`. A file no code loads is not read as the app's (a sample is only
documentation), a path outside the repository is never read, and a value a file out of sight
may set stays a finding. Every pre-filtered scan equals the parse-all one. Our own fixtures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import REPO
from routes_harness import document, scanned_both_ways

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.seeds import admits

_NEST_MAIN = (
    "import { NestFactory } from '@nestjs/core';\n"
    "import { ConfigService } from '@nestjs/config';\n"
    "import { RootModule } from './root.module';\n"
    "async function start() {\n"
    "  const app = await NestFactory.create(RootModule);\n"
    "  const settings = app.get(ConfigService);\n"
    "  app.setGlobalPrefix(settings.get('HTTP_BASE'));\n"
    "  await app.listen(3000);\n"
    "}\n"
    "start();\n"
)
_NEST_ROOT = (
    "import { Module } from '@nestjs/common';\n"
    "import { ConfigModule } from '@nestjs/config';\n"
    "import { ParcelsController } from './parcels.controller';\n"
    "@Module({\n"
    "  imports: [ConfigModule.forRoot({ isGlobal: true, envFilePath: ENV_PATHS })],\n"
    "  controllers: [ParcelsController],\n"
    "})\n"
    "export class RootModule {}\n"
)
_NEST_CONTROLLER = (
    "import { Controller, Get, Post } from '@nestjs/common';\n"
    "@Controller('parcels')\n"
    "export class ParcelsController {\n"
    "  @Get('track') track() { return 1; }\n"
    "  @Post() send() { return 2; }\n"
    "}\n"
)


def _nest(paths: str, **env: str) -> dict[str, str]:
    files = {
        "svc/package.json": '{"name": "svc"}\n',
        "svc/src/main.ts": _NEST_MAIN,
        "svc/src/root.module.ts": _NEST_ROOT.replace("ENV_PATHS", paths),
        "svc/src/parcels.controller.ts": _NEST_CONTROLLER,
    }
    files.update(env)
    return files


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


def _codes(files: dict[str, str]) -> set[str]:
    return {str(f["code"]) for f in document(files)["findings"]}


def test_nest_global_prefix_from_the_env_file_config_module_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _nest(
        "[`.env.${process.env.NODE_ENV}`, '.env.shared', '.env']",
        **{
            "svc/.env.shared": "# shared\nOTHER=1\n",
            "svc/.env": "HTTP_BASE = 'gateway' # where the API lives\nHTTP_BASE=v0\n",
            "svc/.env.staging": "DB_HOST=db\n",  # a NODE_ENV file that does not set it
            "svc/.env.example": "HTTP_BASE=sample\n",  # documentation only
        },
    )
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    found = {r["name"]: r["attrs"] for r in json.loads(documents[0])["resources"]}
    assert set(found) == {"GET /v0/parcels/track", "POST /v0/parcels"}  # dotenv: the last line
    assert found["POST /v0/parcels"]["configDefault"] == (
        "process.env.HTTP_BASE as svc/.env sets it, loaded at svc/src/root.module.ts:5"
    )


def test_nest_keeps_the_first_file_that_sets_a_variable() -> None:
    files = _nest(
        "['config/.env.local', 'config/.env']",
        **{"svc/config/.env.local": "HTTP_BASE=/near\n", "svc/config/.env": "HTTP_BASE=far\n"},
    )
    assert set(_routes(files)) == {"GET /near/parcels/track", "POST /near/parcels"}


def test_a_computed_env_file_that_may_set_the_variable_leaves_it_unresolved() -> None:
    files = _nest(
        "[`.env.${process.env.NODE_ENV}`, '.env']",
        **{"svc/.env.production": "HTTP_BASE=prod\n", "svc/.env": "HTTP_BASE=dev\n"},
    )
    assert set(_routes(files)) == {"GET /parcels/track", "POST /parcels"}
    assert "UNRESOLVED_PREFIX" in _codes(files)


def test_ignore_env_file_and_the_default_env_file() -> None:
    ignored = _nest("'.env'", **{"svc/.env": "HTTP_BASE=x\n"})
    ignored["svc/src/root.module.ts"] = ignored["svc/src/root.module.ts"].replace(
        "envFilePath: '.env'", "ignoreEnvFile: true"
    )
    assert set(_routes(ignored)) == {"GET /parcels/track", "POST /parcels"}
    default = _nest("'.env'", **{"svc/.env": "HTTP_BASE=y\n"})
    default["svc/src/root.module.ts"] = default["svc/src/root.module.ts"].replace(
        ", envFilePath: '.env'", ""
    )
    assert set(_routes(default)) == {"GET /y/parcels/track", "POST /y/parcels"}


_EXPRESS = (
    "const express = require('express');\n"
    "const app = express();\n"
    "const ledger = express.Router();\n"
    "ledger.get('/balance', (q, s) => s.end());\n"
    "app.use(process.env.LEDGER_ROOT, ledger);\n"
    "module.exports = app;\n"
)


def test_dotenv_config_with_a_path_beside_the_file_and_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "api/boot/env.js": (
            "const path = require('path');\n"
            "const dotenv = require('dotenv');\n"
            "dotenv.config({ path: [path.join(__dirname, '..', 'settings', 'base.env'),\n"
            "  path.join(__dirname, '..', 'settings', 'local.env')], override: true });\n"
        ),
        "api/server.js": "require('./boot/env');\n" + _EXPRESS,
        "api/settings/base.env": 'export LEDGER_ROOT="/books"\n',
        "api/settings/local.env": "LEDGER_ROOT=/books-local\n",
    }
    # neither the loader nor the env files hold a route: the linker's asking brings them in
    for path in ("api/boot/env.js", "api/settings/base.env"):
        assert not admits(path, files[path].encode())
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    [route] = json.loads(documents[0])["resources"]
    assert route["name"] == "GET /books-local/balance"  # `override`: the last file wins


def test_dotenv_preload_and_expand() -> None:
    files = {
        "index.js": "import 'dotenv/config';\n" + _EXPRESS,
        ".env": "ROOT=/v2\nLEDGER_ROOT=${ROOT}/ledger\n",
    }
    assert set(_routes(files)) == {"GET /${ROOT}/ledger/balance"}  # dotenv alone: literal
    files["index.js"] = (
        "const { expand } = require('dotenv-expand');\n"
        "expand(require('dotenv').config());\n" + _EXPRESS
    )
    assert set(_routes(files)) == {"GET /v2/ledger/balance"}


def test_an_env_file_nothing_loads_or_outside_the_repository_is_not_read() -> None:
    files = {"index.js": _EXPRESS, ".env": "LEDGER_ROOT=/never\n"}
    assert "GET /never/balance" not in _routes(files)
    files["index.js"] = "require('dotenv').config({ path: '../../.env' });\n" + _EXPRESS
    assert "GET /never/balance" not in _routes(files)
    assert "UNRESOLVED_PREFIX" in _codes(files)


# -- a configuration service of the project's over `ConfigService` ----------------------------

_SERVICE = (
    "import { Injectable } from '@nestjs/common';\n"
    "import { ConfigService as Cfg } from '@nestjs/config';\n"
    "@Injectable()\n"
    "export class Settings {\n"
    "  constructor(private readonly cfg: Cfg) {}\n"
    "  get http() {\n"
    "    return { base: this.text('HTTP_BASE'), port: Number(this.raw('PORT')) };\n"
    "  }\n"
    "  get mode(): string { return this.raw('MODE'); }\n"
    "  text(name: string): string {\n"
    "    const found = this.raw<string>(name);\n"
    "    return found.replace(/\\\\n/g, '\\n');\n"
    "  }\n"
    "  private raw<T = string>(name: string, fallback?: T): T {\n"
    "    const got = this.cfg.get<T>(name, fallback);\n"
    "    if (got === undefined) { throw new Error(name); }\n"
    "    return got;\n"
    "  }\n"
    "}\n"
)
_SERVICE_MAIN = (
    "import { NestFactory } from '@nestjs/core';\n"
    "import { RootModule } from './root.module';\n"
    "import { Settings } from './config/settings';\n"
    "export async function launch() {\n"
    "  const app = await NestFactory.create(RootModule);\n"
    "  const settings = app.get(Settings);\n"
    "  const { base } = settings.http;\n"
    "  app.setGlobalPrefix(base);\n"
    "  await app.listen(1);\n"
    "}\n"
)


def test_a_config_service_of_the_projects_reads_the_loaded_env_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **_nest("['.env']", **{"svc/.env": "HTTP_BASE=depot\nMODE=x\n"}),
        "svc/src/main.ts": _SERVICE_MAIN,
        "svc/src/config/settings.ts": _SERVICE,
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    found = {r["name"]: r["attrs"] for r in json.loads(documents[0])["resources"]}
    assert set(found) == {"GET /depot/parcels/track", "POST /depot/parcels"}
    assert "svc/.env" in str(found["POST /depot/parcels"]["configDefault"])
    # read directly on the service too, without destructuring
    direct = dict(files)
    direct["svc/src/main.ts"] = _SERVICE_MAIN.replace(
        "const { base } = settings.http;\n  app.setGlobalPrefix(base);",
        "app.setGlobalPrefix(settings.mode);",
    )
    assert set(_routes(direct)) == {"GET /x/parcels/track", "POST /x/parcels"}


def test_a_service_key_out_of_sight_stays_unresolved() -> None:
    files = {
        **_nest("['.env']", **{"svc/.env": "HTTP_BASE=depot\n"}),
        "svc/src/main.ts": _SERVICE_MAIN.replace("settings.http", "settings.other"),
        "svc/src/config/settings.ts": _SERVICE,
    }
    assert set(_routes(files)) == {"GET /parcels/track", "POST /parcels"}
    assert "UNRESOLVED_PREFIX" in _codes(files)
