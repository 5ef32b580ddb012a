"""JavaScript/TypeScript registration constructs read since issue 34/36's later notes: a router
class reached through the project's aliases and re-exports, ... Each case holds the
pre-filtered document equal to parse-all's (`routes_harness.pre_filtered`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from routes_harness import pre_filtered, write_files


def _routes(document: dict[str, Any]) -> dict[str, str]:
    """Route name -> `file:line`, with ` ?` when its prefix is not known."""
    return {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}"
        + (" ?" if r["attrs"].get("prefixUnresolved") else "")
        for r in document["resources"]
    }


def _findings(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    return sorted(
        (f["code"], loc["path"], loc["line"])
        for f in document.get("findings", [])
        for loc in f["locations"][:1]
    )


# ------------------------------------------------ a router class reached through aliases


def test_a_router_class_imported_under_an_alias_or_re_exported_makes_a_router(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`new` (or a capitalised call) of a name the file imports from the project, which leads
    through renamed imports, a barrel's `export { default as X } from`, a CommonJS object of
    `require`s and a module re-exporting a package, to a framework's app or router maker,
    makes that app or router (its `prefix` option read); a project class that leads to no
    framework stays what it was (its `get` is no route)."""
    write_files(tmp_path, {
        "srv/index.js": "const Web = require('./kit/web');\n"
                        "const { Branch: B, Cache } = require('./kit');\n"
                        "import { Tree as T } from './kit/tree';\n"
                        "const site = new Web();\n"
                        "const api = new B({ prefix: '/api' });\n"
                        "api.get('/items/:id', (ctx) => { ctx.body = 1; });\n"
                        "const leaf = new T();\n"
                        "leaf.post('/leaf', (ctx) => { ctx.body = 2; });\n"
                        "api.use('/nested', leaf.routes());\n"
                        "const cache = new Cache();\n"
                        "cache.get('/not-a-route', () => 0);\n"
                        "site.use(api.routes());\n"
                        "site.listen(3000);\n",
        "srv/kit/index.js": "module.exports = { Branch: require('./router'), Cache: require('./cache') };\n",
        "srv/kit/router.js": "module.exports = require('@koa/router');\n",
        "srv/kit/web.js": "const Koa = require('koa');\nmodule.exports = Koa;\n",
        "srv/kit/cache.js": "class Cache { get(key, make) { return make(); } }\nmodule.exports = Cache;\n",
        "srv/kit/tree.ts": "export { default as Tree } from './base';\n",
        "srv/kit/base.ts": "import KoaRouter from 'koa-router';\nexport default KoaRouter;\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /api/items/{id}": "srv/index.js:6",
        "POST /api/nested/leaf": "srv/index.js:8",
    }
    assert _findings(document) == []


# ------------------------------------------------ Node's object of globals across files


def test_an_app_or_prefix_stored_on_global_in_one_file_is_read_in_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`global.X = v` / `globalThis.X = v` in one file is read in any other as `global.X`,
    `globalThis.X` or a free `X`: an app stored there serves the routes and mounts made on it
    elsewhere, a base path stored there (in a file that registers nothing, with an environment
    default) prefixes them; two files storing different values leave the prefix unknown."""
    write_files(tmp_path, {
        "conf/base.js": "global.ROOT = process.env.ROOT || '/svc';\n",
        "srv/main.js": "require('../conf/base');\n"
                       "const express = require('express');\n"
                       "globalThis.web = express();\n"
                       "require('./feature');\n"
                       "web.listen(8080);\n",
        "srv/feature.js": "const { Router } = require('express');\n"
                          "const r = Router();\n"
                          "r.get('/list', (req, res) => res.json([]));\n"
                          "web.use(ROOT + '/feature', r);\n"
                          "global.web.delete(`${globalThis.ROOT}/gone/:id`, (q, s) => s.end());\n"
                          "const other = Router();\n"
                          "other.put('/x', (q, s) => s.end());\n"
                          "globalThis.web.use(global.SHIFT, other);\n",
        "srv/a.js": "global.SHIFT = '/a';\n",
        "srv/b.js": "global.SHIFT = '/b';\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /svc/feature/list": "srv/feature.js:3",
        "DELETE /svc/gone/{id}": "srv/feature.js:5",
        "PUT /x": "srv/feature.js:7 ?",
    }
    assert _findings(document) == [("UNRESOLVED_PREFIX", "srv/feature.js", 7)]
