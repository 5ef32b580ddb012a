"""pack-http-routes: `@fastify/autoload` given its `options` as a copy of what the enclosing
plugin is given (`Object.assign({}, opts)`, `{ ...opts }`, or `opts` itself): the prefix of
each loaded plugin is that object's `prefix` where the caller gives one, none where it gives
none (the loader's `options.prefix || ''`), followed by the plugin's `autoPrefix` export;
the root plugin of a fastify-cli app, which no scanned call registers, keeps its loaded
plugins' `autoPrefix` (the prefix it is served under stays a finding, `prefixUnresolved`).
Before, a copy was a value computed out of sight, and every loaded route lost its
`autoPrefix`. A prefix the callers of the enclosing plugin do pass is the one each loaded
plugin is served under (callers passing different ones: a finding); before, the loader's
`|| ''` default was read as if no call passed one, and the prefix was lost."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402


def _root(options: str) -> str:
    return (
        "import type { FastifyPluginAsync } from 'fastify';\n"
        "import autoload from '@fastify/autoload';\n"
        "import { join } from 'node:path';\n"
        "\n"
        "const shell: FastifyPluginAsync = async (instance, settings) => {\n"
        "  await instance.register(autoload, {\n"
        "    dir: join(__dirname, 'handlers'),\n"
        "    dirNameRoutePrefix: false,\n"
        f"    options: {options},\n"
        "  });\n"
        "};\n"
        "export default shell;\n"
    )


CLI_APP: dict[str, str] = {
    "backend/shell.ts": _root("Object.assign({}, settings)"),
    "backend/handlers/billing.ts": (
        "import type { FastifyInstance } from 'fastify';\n"
        "export const autoPrefix = '/_billing';\n"
        "export default async function billing(app: FastifyInstance) {\n"
        "  app.get('/invoices', async () => []);\n"
        "  app.route({ method: 'DELETE', url: '/invoices/:id', handler: async () => null });\n"
        "}\n"
    ),
    "backend/handlers/teams/index.ts": (
        "import type { FastifyInstance } from 'fastify';\n"
        "export default async (app: FastifyInstance) => {\n"
        "  app.post('/members', async () => ({}));\n"
        "};\n"
    ),
}


def _routes(files: dict[str, str]) -> dict[str, bool]:
    return {
        str(r["name"]): bool(r["attrs"].get("prefixUnresolved"))
        for r in document(files)["resources"]
    }


@pytest.mark.parametrize("options", ["Object.assign({}, settings)", "{ ...settings }", "settings"])
def test_a_copy_of_the_root_plugin_s_options_keeps_each_auto_prefix(options: str) -> None:
    files = {**CLI_APP, "backend/shell.ts": _root(options)}
    # nothing registers the root plugin: where it is served stays unknown, so flagged
    assert _routes(files) == {
        "GET /_billing/invoices": True,
        "DELETE /_billing/invoices/{id}": True,
        "POST /members": True,
    }


def test_a_caller_s_options_without_a_prefix_give_none() -> None:
    files = {
        **CLI_APP,
        "backend/server.ts": (
            "import Fastify from 'fastify';\n"
            "import shell from './shell';\n"
            "const server = Fastify({ logger: true });\n"
            "server.register(shell, { greeting: 'hi' });\n"
        ),
    }
    assert _routes(files) == {
        "GET /_billing/invoices": False,
        "DELETE /_billing/invoices/{id}": False,
        "POST /members": False,
    }


def _shared_root() -> str:
    """The root plugin wrapped in `fastify-plugin`: the prefix it is registered with does
    not apply to its own routes (Fastify), only through the options it hands the loader."""
    return _root("settings").replace(
        "export default shell;", "import fp from 'fastify-plugin';\nexport default fp(shell);"
    )


def _registered(*options: str) -> str:
    return (
        "import Fastify from 'fastify';\n"
        "import shell from './shell';\n"
        "const server = Fastify({ logger: true });\n"
        + "".join(f"server.register(shell, {o});\n" for o in options)
    )


def test_the_prefix_a_caller_gives_is_each_loaded_plugin_s_before_its_auto_prefix() -> None:
    files = {
        **CLI_APP,
        "backend/shell.ts": _shared_root(),
        "backend/server.ts": _registered("{ prefix: '/v2/' }", "{ prefix: '/v2', greeting: 'hi' }"),
    }
    # the loader's `options.prefix || ''` is what every caller passes, not its default; the
    # loader drops its last `/` before the plugin's own (`/v2/` + `/_billing`: `/v2/_billing`)
    assert _routes(files) == {
        "GET /v2/_billing/invoices": False,
        "DELETE /v2/_billing/invoices/{id}": False,
        "POST /v2/members": False,
    }


def test_callers_giving_different_prefixes_leave_the_prefix_a_finding() -> None:
    files = {
        **CLI_APP,
        "backend/shell.ts": _shared_root(),
        "backend/server.ts": _registered("{ prefix: '/v2' }", "{ prefix: '/v3' }"),
    }
    found = document(files)
    assert all(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    assert any(
        f["code"] == "UNRESOLVED_PREFIX"
        and "`settings.prefix || ''`" in f["detail"]
        and {"path": "backend/handlers/teams/index.ts", "line": 3} in f["locations"]
        for f in found["findings"]
    )


def test_a_copy_merged_with_more_options_stays_a_finding() -> None:
    files = {**CLI_APP, "backend/shell.ts": _root("Object.assign({}, settings, extra())")}
    found = document(files)
    assert all(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    assert any(
        f["code"] == "UNRESOLVED_PREFIX"
        and "computed out of sight" in f["detail"]
        and {"path": "backend/shell.ts", "line": 6} in f["locations"]
        for f in found["findings"]
    )


def test_copied_options_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"backend/lib/money.ts": "export const cents = (n: number) => n * 100;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**CLI_APP, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /_billing/invoices"' in documents[1]
