"""pack-http-routes: a JavaScript plugin or router function that returns early under a test
of the configuration before it registers routes (`if (!config.enabled) return` at the top of
a Fastify plugin): what follows is registered only when the test fails, decided with the
configuration's defaults as an `if` around a route is (an unset variable, a `??` default);
an early return nothing decides is a finding at each registration after it."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, placed  # noqa: E402

# A feature plugin behind a flag no environment sets: its route, its nested plugin and the
# plugin of another file it registers are not served by default; the plugin beside it, whose
# early return tests a variable that disables it, is.
FLAGGED = {
    "feat/app.ts": (
        "import fastify from 'fastify'\n"
        "import reports from './reports'\n"
        "const app = fastify()\n"
        "app.register(reports, { prefix: 'reports' })\n"
        "app.register(async function always(f) {\n"
        "  if (process.env.DISABLE_PING) return\n"
        "  f.get('/ping', async () => 'pong')\n"
        "})\n"
    ),
    "feat/reports.ts": (
        "import type { FastifyInstance } from 'fastify'\n"
        "import sheets from './sheets'\n"
        "const enabled = process.env.REPORTS_ENABLED === 'true'\n"
        "export default async function reports(f: FastifyInstance) {\n"
        "  f.addHook('onRequest', async () => {})\n"
        "  if (!enabled) {\n"
        "    return\n"
        "  }\n"
        "  f.get('/daily', async () => [])\n"
        "  f.register(async (inner) => { inner.get('/weekly', async () => []) })\n"
        "  f.register(sheets, { prefix: 'sheets' })\n"
        "}\n"
    ),
    "feat/sheets.ts": "export default async (f) => { f.get('/', async () => []) }\n",
}


def test_an_early_return_the_defaults_take_leaves_what_follows_unserved() -> None:
    assert placed(FLAGGED) == {"GET /ping": "feat/app.ts:7 fastify"}
    assert finding_places(FLAGGED) == {
        "UNRESOLVED_ROUTE": ["feat/reports.ts:9", "feat/reports.ts:10", "feat/reports.ts:11"]
    }
    details = [str(f["detail"]) for f in document(FLAGGED)["findings"]]
    assert all("after `if (!enabled) return`" in d for d in details)


def test_an_early_return_the_defaults_do_not_take_keeps_what_follows() -> None:
    files = dict(FLAGGED)
    files["feat/reports.ts"] = files["feat/reports.ts"].replace("=== 'true'", "!== 'false'")
    assert placed(files) == {
        "GET /ping": "feat/app.ts:7 fastify",
        "GET /reports/daily": "feat/reports.ts:9 fastify",
        "GET /reports/weekly": "feat/reports.ts:10 fastify",
        "GET /reports/sheets": "feat/sheets.ts:1 fastify",
    }
    assert finding_places(files) == {}


def test_a_default_written_in_code_decides_an_early_return() -> None:
    files = {
        "dflt/app.js": (
            "import fastify from 'fastify'\n"
            "const app = fastify()\n"
            "const mode = process.env.EXPORT_MODE ?? 'off'\n"
            "app.register(async (f) => {\n"
            "  if (mode !== 'on') { return }\n"
            "  f.get('/export', async () => 1)\n"
            "})\n"
        )
    }
    assert placed(files) == {}
    # (the app then serves nothing the pack reads: an `UNREAD_FRAMEWORK` beside, as for an `if`)
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["dflt/app.js:6"]
    files["dflt/app.js"] = files["dflt/app.js"].replace("?? 'off'", "?? 'on'")
    assert placed(files) == {"GET /export": "dflt/app.js:6 fastify"}


def test_only_a_bare_early_return_before_the_registration_gates_it() -> None:
    """An `if` with an `else`, one whose body does more than return, one written after the
    route, and a `return` in a nested function (a hook) gate nothing."""
    files = {
        "only/app.ts": (
            "import fastify from 'fastify'\n"
            "const app = fastify()\n"
            "app.register(async (f) => {\n"
            "  if (!process.env.A) return\n"
            "  else f.log.info('a')\n"
            "  if (!process.env.B) { f.log.info('b'); return }\n"
            "  f.addHook('onRequest', async (req) => { if (!process.env.C) return })\n"
            "  f.get('/kept', async () => 1)\n"
            "  if (!process.env.D) return\n"
            "})\n"
        )
    }
    assert placed(files) == {"GET /kept": "only/app.ts:8 fastify"}
    assert finding_places(files) == {}


def test_an_early_return_in_an_outer_function_does_not_reach_into_a_nested_plugin() -> None:
    files = {
        "nest/app.ts": (
            "import fastify from 'fastify'\n"
            "const app = fastify()\n"
            "app.register(async (outer) => {\n"
            "  outer.register(async (inner) => {\n"
            "    inner.get('/inner', async () => 1)\n"
            "  })\n"
            "  if (!process.env.LATE) return\n"
            "  outer.get('/late', async () => 1)\n"
            "})\n"
        )
    }
    assert placed(files) == {"GET /inner": "nest/app.ts:5 fastify"}
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["nest/app.ts:8"]}


def test_an_early_return_nothing_decides_is_flagged_at_each_registration_after_it() -> None:
    files = {
        "unk/settings.ts": "export function settings() { return loadFromVault() }\n",
        "unk/app.ts": (
            "import fastify from 'fastify'\n"
            "import { settings } from './settings'\n"
            "const { billing } = settings()\n"
            "const app = fastify()\n"
            "app.register(async (f) => {\n"
            "  if (!billing) return\n"
            "  f.get('/invoices', async () => [])\n"
            "}, { prefix: 'billing' })\n"
        ),
    }
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /billing/invoices", True)
    ]
    assert finding_places(files) == {"UNRESOLVED_PREFIX": ["unk/app.ts:7"]}
    assert "after `if (!billing) return`" in str(found["findings"][0]["detail"])


def test_an_express_mount_after_an_early_return_is_decided_the_same_way() -> None:
    """The reading is the JS reader's, not Fastify's: an Express setup function too."""
    files = {
        "exp/app.js": (
            "const express = require('express')\n"
            "const admin = express.Router()\n"
            "admin.get('/users', (req, res) => res.json([]))\n"
            "function mountAdmin(app) {\n"
            "  if (process.env.ADMIN_ENABLED !== 'yes') return\n"
            "  app.use('/admin', admin)\n"
            "}\n"
            "const app = express()\n"
            "app.get('/health', (req, res) => res.send('ok'))\n"
            "mountAdmin(app)\n"
        )
    }
    assert placed(files) == {"GET /health": "exp/app.js:9 express"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["exp/app.js:6"]
