"""pack-http-routes: a hapi route table passed through a function of the project's before it is
registered (`server.route(Gate.pass(table, Settings.stage))`): the function returns its
parameter, or a filtered or mapped copy of it, maybe only on one branch of a test on the
configuration. The linker follows the function (plain, exported from another module, a static
method called through `this` or the class's name) with its parameters bound; a branch decided
by the configuration takes its default (a variable nothing sets is unset); a `filter` whose
test reads the entries' literal fields (`!r?.options?.app?.draft`, `includes`, `===`) is
evaluated; a callback it cannot read lists the routes as written, each with a finding."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, located, scanned_both_ways  # noqa: E402

MANIFEST = '{"dependencies": {"@hapi/hapi": "^21.0.0"}}\n'

ORDERS = (
    "const show = (req, h) => h.response('ok')\n"
    "module.exports = [\n"
    "  { method: 'GET', path: '/orders', handler: show },\n"
    "  {\n"
    "    method: 'POST',\n"
    "    path: '/orders/{id}/refund',\n"
    "    handler: show,\n"
    "    options: { app: { draft: true }, tags: ['api'] },\n"
    "  },\n"
    "]\n"
)
HEALTH = "module.exports = [{ method: 'GET', path: '/health', options: { handler: () => 'up' } }]\n"
SETTINGS = "module.exports = {\n  stage: process.env.DEPLOY_STAGE,\n  port: 8080,\n}\n"
# a class whose static methods call each other through `this`, deciding on the stage
GATE = (
    "class Gate {\n"
    "  static pass (table, stage) {\n"
    "    // unfinished endpoints stay out of live stages\n"
    "    if (this._guarded(stage)) {\n"
    "      return this._finished(table)\n"
    "    }\n"
    "    return table\n"
    "  }\n"
    "\n"
    "  static _guarded (stage) {\n"
    "    return ['live', 'canary'].includes(stage)\n"
    "  }\n"
    "\n"
    "  static _finished (table) {\n"
    "    return table.filter(entry => !entry?.options?.app?.draft)\n"
    "  }\n"
    "}\n"
    "module.exports = Gate\n"
)
PLUGIN = (
    "const Gate = require('../gate.js')\n"
    "const Settings = require('../../settings.js')\n"
    "const OrderRoutes = require('../routes/orders.js')\n"
    "const HealthRoutes = require('../routes/health.js')\n"
    "\n"
    "const table = [...HealthRoutes, ...OrderRoutes]\n"
    "\n"
    "module.exports = {\n"
    "  name: 'routing',\n"
    "  register: (server, _opts) => {\n"
    "    const kept = Gate.pass(table, Settings.stage)\n"
    "    server.route(kept)\n"
    "  },\n"
    "}\n"
)
SERVER = (
    "const Hapi = require('@hapi/hapi')\n"
    "const Routing = require('./plugins/routing.js')\n"
    "const Settings = require('../settings.js')\n"
    "exports.start = async () => {\n"
    "  const server = Hapi.server({ port: Settings.port })\n"
    "  await server.register(Routing)\n"
    "  return server\n"
    "}\n"
)
GATED: dict[str, str] = {
    "package.json": MANIFEST,
    "settings.js": SETTINGS,
    "src/gate.js": GATE,
    "src/plugins/routing.js": PLUGIN,
    "src/routes/orders.js": ORDERS,
    "src/routes/health.js": HEALTH,
    "src/server.js": SERVER,
}
EVERY_ROUTE = {
    "GET /health": "src/routes/health.js:1",
    "GET /orders": "src/routes/orders.js:3",
    "POST /orders/{id}/refund": "src/routes/orders.js:4",
}


def test_a_table_passed_through_a_gate_is_every_route_under_the_default_stage() -> None:
    """The stage is unset by default: not a guarded one, so the gate returns its parameter,
    the table itself, each route where it is written, and nothing is said about it."""
    assert located(GATED) == EVERY_ROUTE
    assert not document(GATED)["findings"]


@pytest.mark.parametrize(
    "gate",
    [
        GATE.replace("this._", "Gate._"),  # the class's name instead of `this`
        GATE.replace("if (this._guarded(stage))", "if (['live', 'canary'].includes(stage))"),
        GATE.replace("if (this._guarded(stage))", "if (stage === 'live')"),
        GATE.replace("if (this._guarded(stage))", "if (!!this._guarded(stage))"),
    ],
)
def test_the_gate_s_test_is_read_however_it_is_spelled(gate: str) -> None:
    files = {**GATED, "src/gate.js": gate}
    assert located(files) == EVERY_ROUTE
    assert not document(files)["findings"]


def test_a_stage_a_sample_file_sets_takes_the_filtered_branch() -> None:
    """`.env.example` documents a guarded stage: the gate filters, its test on the entries'
    own fields (`!entry?.options?.app?.draft`) read per entry, the draft dropped."""
    files = {**GATED, ".env.example": "DEPLOY_STAGE=live\n"}
    assert sorted(located(files)) == ["GET /health", "GET /orders"]
    assert not document(files)["findings"]


def test_a_plain_function_returning_its_parameter_passes_the_table_through() -> None:
    files = {
        **GATED,
        "src/gate.js": "module.exports = { pass: (table, stage) => table }\n",
    }
    assert located(files) == EVERY_ROUTE
    assert not document(files)["findings"]


# -- array methods over a table at the registering call --

DIRECT: dict[str, str] = {
    "package.json": MANIFEST,
    "src/routes/orders.js": ORDERS,
    "src/routes/health.js": HEALTH,
    "src/server.js": (
        "const Hapi = require('@hapi/hapi')\n"
        "const OrderRoutes = require('./routes/orders.js')\n"
        "const HealthRoutes = require('./routes/health.js')\n"
        "const server = Hapi.server({ port: 3000 })\n"
        "server.route(TABLE)\n"
    ),
}


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (
            "OrderRoutes.map(r => ({ ...r, path: '/v1' + r.path }))",
            {"GET /v1/orders", "POST /v1/orders/{id}/refund"},
        ),
        (
            "[...HealthRoutes, ...OrderRoutes].filter(r => r.method !== 'POST')",
            {"GET /health", "GET /orders"},
        ),
        ("OrderRoutes.filter(r => r.options?.app?.draft)", {"POST /orders/{id}/refund"}),
        ("OrderRoutes.filter(r => !r.options)", {"GET /orders"}),
    ],
)
def test_a_table_filtered_or_mapped_at_the_call_is_read_per_entry(
    table: str, expected: set[str]
) -> None:
    files = {**DIRECT, "src/server.js": DIRECT["src/server.js"].replace("TABLE", table)}
    assert set(located(files)) == expected
    assert not document(files)["findings"]


@pytest.mark.parametrize("method", ["filter", "map"])
def test_a_callback_not_read_lists_the_routes_as_written_each_with_a_finding(
    method: str,
) -> None:
    """`allowed` is a package's: whether it keeps (or how it changes) each route is not known,
    so each route is listed where it is written, a finding there and at the call."""
    server = (
        DIRECT["src/server.js"]
        .replace("const Hapi", "const { allowed } = require('route-policy')\nconst Hapi")
        .replace("TABLE", f"OrderRoutes.{method}(r => allowed(r))")
    )
    files = {**DIRECT, "src/server.js": server}
    assert located(files) == {
        "GET /orders": "src/routes/orders.js:3",
        "POST /orders/{id}/refund": "src/routes/orders.js:4",
    }
    places = finding_places(files)["UNRESOLVED_ROUTE"]
    assert sorted(places) == [
        "src/routes/orders.js:3",
        "src/routes/orders.js:4",
        "src/server.js:6",
        "src/server.js:6",
    ]


def test_an_unread_filter_behind_the_gate_is_a_finding_at_each_route() -> None:
    files = {
        **GATED,
        ".env.example": "DEPLOY_STAGE=canary\n",
        "src/gate.js": GATE.replace("!entry?.options?.app?.draft", "policy.allows(entry)"),
    }
    assert located(files) == EVERY_ROUTE
    places = finding_places(files)["UNRESOLVED_ROUTE"]
    assert set(places) == {*EVERY_ROUTE.values(), "src/plugins/routing.js:12"}


def test_a_table_given_to_a_dependency_s_function_is_listed_as_written_each_flagged() -> None:
    """The gate is a package's (`import` of a dependency the repository does not hold): what
    it keeps is not known, so each route is listed where it is written, a finding there naming
    the function, never silence (blind round 23: 313 routes of one application)."""
    plugin = PLUGIN.replace("require('../gate.js')", "require('route-engine/gate.js')")
    files = {**GATED, "src/plugins/routing.js": plugin}
    del files["src/gate.js"]
    assert located(files) == EVERY_ROUTE
    findings = [f for f in document(files)["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    places = {f"{p['path']}:{p['line']}" for f in findings for p in f["locations"]}
    assert places == {*EVERY_ROUTE.values(), "src/plugins/routing.js:12"}
    assert all("route-engine/gate.js" in str(f["detail"]) for f in findings)


def test_the_gated_table_is_the_same_through_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, GATED, monkeypatch)
    assert documents[0] == documents[1]
    assert "/orders/{id}/refund" in documents[0]
