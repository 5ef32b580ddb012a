"""pack-http-routes: a library that makes an Express router from a table the project writes
(`option_routes.TableRouter`: express-routes-mapper's `mapRoutes({ 'VERB /path':
'Controller.method' }, folder)`): each key a route at the `mapRoutes` call, under where the
router is mounted, the table read where it is written (another module, an object of them);
what the versions the nearest `package.json` declares leave open (a verb 1.0 ignores, 1.0.1's
one router shared by every call) and a table out of sight are an `UNRESOLVED_ROUTE` at the
call naming the library. Before, the app was an `UNREAD_FRAMEWORK` finding and no route."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, located, scanned_both_ways  # noqa: E402


def _manifest(mapper: str) -> str:
    deps = {"express": "^4.18.0", "express-routes-mapper": mapper}
    return json.dumps({"name": "shop", "dependencies": deps})


SHOP: dict[str, str] = {
    "package.json": _manifest("~1.1.0"),
    "settings/tables/open.js": (
        "module.exports = {\n"
        "  'POST /signup': 'Account/AccountController.signup',\n"
        "  'GET   /catalog/:sku': 'Catalog/CatalogController.show',\n"
        "};\n"
    ),
    "settings/tables/staff.js": (
        "export default {\n"
        "  'GET /orders': 'Orders/OrdersController.list',\n"
        "  'PATCH /orders/:id': 'Orders/OrdersController.amend',\n"
        "};\n"
    ),
    "settings/index.js": (
        "const open = require('./tables/open');\n"
        "import staff from './tables/staff';\n"
        "module.exports = { tables: { open, staff }, port: process.env.PORT };\n"
    ),
    "server/main.js": (
        "import express from 'express';\n"
        "import routesFromTable from 'express-routes-mapper';\n"
        "import settings from '../settings';\n"
        "import { staffOnly } from './guards';\n"
        "const shop = express();\n"
        "const openRoutes = routesFromTable(settings.tables.open, 'server/controllers/');\n"
        "const staffRoutes = routesFromTable(settings.tables.staff, 'server/controllers/');\n"
        "shop.use('/v1', openRoutes);\n"
        "shop.all('/staff/*', staffOnly);\n"
        "shop.use('/staff', staffRoutes);\n"
        "shop.listen(3000);\n"
    ),
    "server/guards.js": (
        "export const staffOnly = (req, res, next) => (req.user ? next() : res.sendStatus(401));\n"
    ),
}


def test_each_table_entry_is_a_route_at_its_map_call() -> None:
    found = document(SHOP)
    placed = {
        str(r["name"]): f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
    }
    assert {k: v for k, v in placed.items() if not k.startswith("ALL ")} == {
        "POST /v1/signup": "server/main.js:6",
        "GET /v1/catalog/{sku}": "server/main.js:6",
        "GET /staff/orders": "server/main.js:7",
        "PATCH /staff/orders/{id}": "server/main.js:7",
    }
    assert [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"] == []


def test_versions_that_share_one_router_or_ignore_a_verb_say_so() -> None:
    found = document({**SHOP, "package.json": _manifest("^1.0.1")})
    names = {str(r["name"]) for r in found["resources"]}
    assert "GET /staff/orders" in names and "POST /v1/signup" in names
    assert "PATCH /staff/orders/{id}" not in names  # 1.0 routes get/post/put/delete only
    details = [f["detail"] for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert any("`PATCH /orders/:id`" in d for d in details)
    assert any("serves the tables of every call on each router" in d for d in details)
    places = {
        f"{where['path']}:{where['line']}"
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    }
    assert places == {"server/main.js:6", "server/main.js:7"}


def test_a_table_out_of_sight_is_a_finding_at_the_call() -> None:
    files = {
        **SHOP,
        "server/main.js": SHOP["server/main.js"].replace(
            "settings.tables.open", "loadTable(process.argv[2])"
        ),
    }
    found = document(files)
    assert not any(str(r["name"]).startswith("POST /v1") for r in found["resources"])
    assert any(
        f["code"] == "UNRESOLVED_ROUTE"
        and "express-routes-mapper" in f["detail"]
        and f["locations"][0] == {"path": "server/main.js", "line": 6}
        for f in found["findings"]
    )


def test_table_routes_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"server/util.js": "export const noop = () => {};\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SHOP, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /v1/catalog/{sku}"' in documents[1]


# the lock's pins decide what `^1.0.1` installs: yarn's 1.0.1 keeps one router for every call
# (each router serves every table, as the runtime lists them), npm's 1.0.4 one per call
_YARN_LOCK = (
    "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n"
    "# yarn lockfile v1\n\n\n"
    "express-routes-mapper@^1.0.1:\n"
    '  version "1.0.1"\n'
    '  resolved "https://registry.yarnpkg.com/express-routes-mapper/-/x.tgz"\n'
)
_NPM_LOCK = json.dumps(
    {
        "name": "shop",
        "lockfileVersion": 3,
        "packages": {
            "": {"name": "shop"},
            "node_modules/express-routes-mapper": {"version": "1.0.4"},
        },
    }
)
PINNED: dict[str, str] = {
    **{k: v for k, v in SHOP.items() if k != "package.json"},
    "package.json": _manifest("^1.0.1"),
    "settings/tables/staff.js": (
        "export default {\n  'GET /orders': 'Orders/OrdersController.list',\n};\n"
    ),
    "server/main.js": SHOP["server/main.js"].replace(
        "const staffRoutes = routesFromTable(settings.tables.staff, 'server/controllers/');\n",
        "import { staffRoutes } from './back';\n",
    ),
    "server/back.js": (
        "const tableRouter = require('express-routes-mapper');\n"
        "const tables = require('../settings').tables;\n"
        "\n"
        "exports.staffRoutes = tableRouter(tables.staff, 'server/controllers/');\n"
    ),
}


def test_a_locked_version_sharing_one_router_serves_every_table_on_each() -> None:
    found = document({**PINNED, "yarn.lock": _YARN_LOCK})
    assert located({**PINNED, "yarn.lock": _YARN_LOCK}) == {
        "POST /v1/signup": "server/main.js:6",
        "GET /v1/catalog/{sku}": "server/main.js:6",
        "GET /v1/orders": "server/back.js:4",
        "POST /staff/signup": "server/main.js:6",
        "GET /staff/catalog/{sku}": "server/main.js:6",
        "GET /staff/orders": "server/back.js:4",
        "ALL /staff/*": "server/main.js:9",
    }
    assert [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"] == []


def test_a_locked_version_with_a_router_per_call_serves_its_own_table() -> None:
    found = document({**PINNED, "package-lock.json": _NPM_LOCK})
    assert located({**PINNED, "package-lock.json": _NPM_LOCK}) == {
        "POST /v1/signup": "server/main.js:6",
        "GET /v1/catalog/{sku}": "server/main.js:6",
        "GET /staff/orders": "server/back.js:4",
        "ALL /staff/*": "server/main.js:9",
    }
    assert [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"] == []


def test_a_lock_pinning_another_version_than_declared_leaves_the_finding() -> None:
    lock = _YARN_LOCK.replace('version "1.0.1"', 'version "0.9.0"')
    found = document({**PINNED, "yarn.lock": lock})
    details = [f["detail"] for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert any("serves the tables of every call on each router" in d for d in details)
    assert "GET /v1/orders" not in {str(r["name"]) for r in found["resources"]}


def test_locked_table_routes_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {**PINNED, "yarn.lock": _YARN_LOCK, "server/util.js": "export const x = 1;\n"}
    documents, parsed = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /staff/catalog/{sku}"' in documents[1]
