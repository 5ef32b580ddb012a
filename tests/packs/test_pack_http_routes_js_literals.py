"""pack-http-routes: paths as JavaScript spells them.

- A string literal with escapes (`'/:id(\\\\d+)'`, a parameter's regex; `\\'`, `\\x41`,
  `\\u{43}`) is read as JavaScript reads it; before, any backslash made the path computed, an
  `UNRESOLVED_ROUTE`, and the route was lost.
- koa-router joins a router's prefix and a route's path as written (`prefix + path`), so
  `new Router({ prefix: '/hooks' }).all('*')` serves `/hooks*`, not `/hooks/*`; a path
  without a leading `/` under no prefix is still named from `/`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

BACKSLASH = "\\"

SITE: dict[str, str] = {
    "srv/feeds.ts": (
        "import Router from '@koa/router';\n"
        "export const feeds = new Router();\n"
        f"feeds.all('/feeds/:owner({BACKSLASH}{BACKSLASH}d+)/:rest(.+)', async (ctx) => {{}});\n"
        f'feeds.get("/feeds/{BACKSLASH}"quoted{BACKSLASH}"", async (ctx) => {{}});\n'
        f"feeds.get('/feeds/{BACKSLASH}x61{BACKSLASH}u0062{BACKSLASH}u{{63}}', async () => {{}});\n"
    ),
    "srv/hooks.js": (
        "const Router = require('koa-router');\n"
        "const hooks = new Router({ prefix: '/hooks' });\n"
        "hooks.all('*', receive).post('/github', receive).get('status', receive);\n"
        "function receive(ctx) { ctx.body = 'ok'; }\n"
        "module.exports = hooks;\n"
    ),
    "srv/main.js": (
        "const Koa = require('koa');\n"
        "const { feeds } = require('./feeds');\n"
        "const hooks = require('./hooks');\n"
        "const site = new Koa();\n"
        "site.use(feeds.routes()).use(hooks.routes());\n"
        "site.listen(80);\n"
    ),
    "srv/api.js": (
        "const express = require('express');\n"
        "const api = express.Router();\n"
        f"api.get('/files/:name({BACKSLASH}{BACKSLASH}w+{BACKSLASH}{BACKSLASH}.txt)', h);\n"
        "function h(req, res) { res.end(); }\n"
        "module.exports = api;\n"
    ),
}


def test_escaped_string_paths_and_koa_joins_are_named_as_served() -> None:
    found = document(SITE)
    placed = {
        str(r["name"]): f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
    }
    assert placed == {
        "ALL /feeds/{owner}/{rest}": "srv/feeds.ts:3",
        'GET /feeds/"quoted"': "srv/feeds.ts:4",
        "GET /feeds/abc": "srv/feeds.ts:5",
        "ALL /hooks*": "srv/hooks.js:3",
        "POST /hooks/github": "srv/hooks.js:3",
        "GET /hooksstatus": "srv/hooks.js:3",
        "GET /files/{name}": "srv/api.js:3",
    }
    assert not [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]


def test_js_literals_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"srv/util.js": "module.exports = (a) => a;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SITE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"ALL /hooks*"' in documents[1]
