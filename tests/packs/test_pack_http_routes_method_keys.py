"""pack-http-routes: route tables whose keys spell `'<verb> <path>'` (the Sails.js convention
many Express apps copy), merged from several modules and registered by a loop that splits each
key (`const [verb, url] = spec.split(' ')`, `parts[0]`, `.toLowerCase()`, a template over the
parts) and calls `router[verb](url, ...chain)`. The table is what a project function returns:
a `const` filled by `Object.assign` (of literals, of what another module's function returns),
or spreads of its locals, later keys winning as in JavaScript. One route per key, placed where
its key is written. A merge over things loaded at run time (`exts.forEach((e) =>
Object.assign(table, e.endpoints))`) is a finding at the merge, and the keys of that shape in
the modules of the merge's package (not a sibling front-end's) are listed where written; a
spread not read is a finding at the loop; the keys the loop sees are still listed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, findings_of, places_of, pre_filtered, write_files

MERGED: dict[str, str] = {
    "server/package.json": '{"dependencies": {"express": "4"}}',
    "server/http/health.js": (
        "module.exports = function makeHealth(ctx) {\n"
        "  return { check: (q, s) => s.end(), login: (q, s) => s.end(), out: (q, s) => s.end() };\n"
        "};\n"
    ),
    # a project function returning a table of its own, merged by `Object.assign`
    "server/http/accounts.js": (
        "module.exports = (ctx) => ({\n"
        '  "get /v2/accounts/:id": { run: ctx.read },\n'
        '  "patch /v2/accounts/:id": { run: ctx.write, open: false },\n'
        "});\n"
    ),
    "server/http/table.js": (
        "const makeHealth = require('./health');\n"
        "const accounts = require('./accounts');\n"
        "\n"
        "function buildTable(ctx) {\n"
        "  const health = makeHealth(ctx);\n"
        "  const table = {};\n"
        "  // 'get /v2/commented': not a key\n"
        "  ctx.extensions.forEach((ext) => {\n"
        "    if (ext.endpoints) {\n"
        "      Object.assign(table, ext.endpoints);\n"
        "    }\n"
        "  });\n"
        "  const base = {\n"
        "    'get /v2/health': { open: true, run: health.check },\n"
        "    'post /v2/session': { open: true, throttle: true, run: health.login },\n"
        "    'delete /v2/session': { run: health.out },\n"
        "    'get /v2/accounts/:id': { run: health.check },\n"
        "  };\n"
        "  Object.assign(table, base, accounts(ctx));\n"
        "  return table;\n"
        "}\n"
        "\n"
        "module.exports = buildTable;\n"
    ),
    "server/http/wire.js": (
        "const { Router } = require('express');\n"
        "const buildTable = require('./table');\n"
        "const guard = (req, res, next) => (req.user ? next() : res.status(401).end());\n"
        "\n"
        "module.exports = function wire(ctx) {\n"
        "  const router = Router();\n"
        "  const table = buildTable(ctx);\n"
        "  for (const spec in table) {\n"
        "    const [verb, url] = spec.split(' ');\n"
        "    const chain = [];\n"
        "    if (!table[spec].open) chain.push(guard);\n"
        "    if (table[spec].open && table[spec].throttle) chain.push(guard);\n"
        "    chain.push(table[spec].run);\n"
        "    router[verb](url, ...chain);\n"
        "  }\n"
        "  return router;\n"
        "};\n"
    ),
    "server/app.js": (
        "const express = require('express');\n"
        "const wire = require('./http/wire');\n"
        "const app = express();\n"
        "app.use('/api', wire({ extensions: [] }));\n"
        "app.listen(8080);\n"
    ),
    # an extension in a package of its own below the server's: what the merge may bring in
    "server/extensions/mail/package.json": '{"name": "mail"}',
    "server/extensions/mail/endpoints.js": (
        "module.exports = function mailEndpoints(mailer) {\n"
        "  return {\n"
        "    'post /v2/mail/send': { run: mailer.send },\n"
        "    note: 'post /v2/mail/not-a-key',\n"
        "  };\n"
        "};\n"
    ),
    # a sibling front-end's mock data: another package, no route of the server's
    "front/package.json": '{"dependencies": {"preact": "10"}}',
    "front/src/mock.js": "export const answers = {\n  'get /v2/mock-only': { ok: true },\n};\n",
}


def test_keys_merged_by_assign_are_routes_at_their_keys() -> None:
    found = document(MERGED)
    assert places_of(found) == {
        "GET /api/v2/health": ("server/http/table.js", 14),
        "POST /api/v2/session": ("server/http/table.js", 15),
        "DELETE /api/v2/session": ("server/http/table.js", 16),
        # written in both: the later merge (`accounts(ctx)`) wins, as in JavaScript
        "GET /api/v2/accounts/{id}": ("server/http/accounts.js", 2),
        "PATCH /api/v2/accounts/{id}": ("server/http/accounts.js", 3),
        # brought in by the merge not read: listed where written, with the finding
        "POST /api/v2/mail/send": ("server/extensions/mail/endpoints.js", 3),
    }


def test_a_guard_pushed_under_a_test_of_the_entry_is_decided_per_key() -> None:
    """`if (!table[spec].open) chain.push(guard)`: a key whose entry says `open: true` has no
    guard, one without the field (undefined) has it; `a && b` is both; an entry not read (an
    extension's, a flag the reader keeps no value of) is not known, never none."""
    signals = {
        s["resource"]: s["value"] for s in document(MERGED)["signals"] if s["signal"] == "auth"
    }
    assert signals == {
        "route:GET /api/v2/health": "none",
        "route:POST /api/v2/session": "required",  # open, but throttled: guarded
        "route:DELETE /api/v2/session": "required",
        "route:GET /api/v2/accounts/{id}": "required",
        "route:PATCH /api/v2/accounts/{id}": "unknown",
        "route:POST /api/v2/mail/send": "unknown",
    }


def test_a_merge_of_things_loaded_at_run_time_is_a_finding_there() -> None:
    findings = findings_of(document(MERGED))
    unresolved = [places for code, places in findings if code == "UNRESOLVED_ROUTE"]
    assert unresolved == [[("server/http/table.js", 10)]]
    detail = next(
        f["detail"] for f in document(MERGED)["findings"] if f["code"] == "UNRESOLVED_ROUTE"
    )
    assert "`ext.endpoints`" in detail and "server/http/wire.js:14" in detail


SPREAD: dict[str, str] = {
    "package.json": '{"dependencies": {"express": "4", "vendor-routes": "1"}}',
    "src/handlers.ts": "export const ok = (req: any, res: any) => res.end();\n",
    "src/routes.ts": (
        "import { ok } from './handlers';\n"
        "import { vendorTable } from 'vendor-routes';\n"
        "export function allRoutes(withVendor: boolean) {\n"
        "  const core = {\n"
        '    "GET /status": { handler: ok },\n'
        '    "POST /items": { handler: ok },\n'
        "  };\n"
        "  const admin = {\n"
        '    "GET /status": { handler: ok, admin: true },\n'
        '    "PUT /items/:itemId": { handler: ok },\n'
        "  };\n"
        "  return { ...core, ...admin };\n"
        "}\n"
        "export function withVendor() {\n"
        "  const own = { 'get /own': { handler: ok } };\n"
        "  return { ...vendorTable, ...own };\n"
        "}\n"
    ),
    "src/server.ts": (
        "import express from 'express';\n"
        "import { allRoutes, withVendor } from './routes';\n"
        "const app = express();\n"
        "Object.entries(allRoutes(true)).forEach(([key, def]) => {\n"
        "  const parts = key.split(' ');\n"
        "  app[parts[0].toLowerCase()](`/v1${parts[1]}`, def.handler);\n"
        "});\n"
        "const more = withVendor();\n"
        "const keys = Object.keys(more);\n"
        "keys.forEach((k) => {\n"
        "  const [m, p] = k.split(' ');\n"
        "  app[m](p, more[k].handler);\n"
        "});\n"
        "app.listen(3000);\n"
    ),
}


def test_spreads_of_locals_later_keys_winning_indexed_and_cased_parts() -> None:
    found = document(SPREAD)
    assert places_of(found) == {
        "GET /v1/status": ("src/routes.ts", 9),
        "POST /v1/items": ("src/routes.ts", 6),
        "PUT /v1/items/{itemId}": ("src/routes.ts", 10),
        "GET /own": ("src/routes.ts", 15),
    }


def test_a_spread_not_read_is_a_finding_at_the_loop() -> None:
    findings = document(SPREAD)["findings"]
    unread = [
        f["detail"]
        for f in findings
        if f["code"] == "UNRESOLVED_ROUTE"
        and [(p["path"], p["line"]) for p in f["locations"]] == [("src/server.ts", 12)]
    ]
    assert len(unread) == 1 and "a part of `withVendor()` is not read" in unread[0]


INLINE: dict[str, str] = {
    "package.json": '{"dependencies": {"express": "4"}}',
    "app.js": (
        "const express = require('express');\n"
        "const app = express();\n"
        "const h = (req, res) => res.end();\n"
        "const TABLE = {\n"
        "  'get /ping': h,\n"
        "  'post /echo': h,\n"
        "};\n"
        "for (const key of Object.keys(TABLE)) {\n"
        "  const bits = key.split(' ');\n"
        "  app[bits[0]](bits[1], TABLE[key]);\n"
        "}\n"
        "app.listen(1);\n"
    ),
}


def test_a_table_the_file_spells_splits_its_keys_too() -> None:
    assert places_of(document(INLINE)) == {
        "GET /ping": ("app.js", 5),
        "POST /echo": ("app.js", 6),
    }


def test_the_pre_filter_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_files(tmp_path, MERGED)
    found, _, _ = pre_filtered(tmp_path, monkeypatch)
    assert "POST /api/v2/mail/send" in {r["name"] for r in found["resources"]}
