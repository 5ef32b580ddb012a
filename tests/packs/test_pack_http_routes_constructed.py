"""pack-http-routes: a path prefix that reaches a mount through a constructor (JavaScript): the
visible `new` sites pass it (`new Portal(opts, process.env.BASE ?? '/x')`), the constructor keeps
it on the instance (`this.base`), on `global`/`globalThis`, or in a module variable, and a
method mounts under it. One site gives its value (an environment default stays marked
`attrs.configDefault`), sites that agree give theirs, sites that disagree or none leave the
routes flagged; classes and constructor functions, CommonJS and ES modules alike, and the
pre-filtered scan equals the parse-all one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

# CommonJS, an ES class: `global.X` from the constructor, a nested router under it; the entry
# file names neither express nor a route, only the class it makes.
CLASS_GLOBAL: dict[str, str] = {
    "bin/start.js": (
        "const Kiosk = require('../src/kiosk');\n"
        "const MOUNT = process.env.KIOSK_MOUNT ?? '/kiosk';\n"
        "const kiosk = new Kiosk(Number(process.env.PORT) || 8000, MOUNT);\n"
        "kiosk.run();\n"
    ),
    "src/kiosk.js": (
        "const express = require('express');\n"
        "const catalog = require('./catalog');\n"
        "class Kiosk {\n"
        "  constructor(port, mountAt) {\n"
        "    this.port = port;\n"
        "    global.KioskMount = mountAt;\n"
        "  }\n"
        "  run() {\n"
        "    const web = express();\n"
        "    const outer = express.Router();\n"
        "    outer.use('/v2', catalog);\n"
        "    outer.get('/ping', (req, res) => res.send('pong'));\n"
        "    web.use(global.KioskMount + '/api', outer);\n"
        "    web.listen(this.port);\n"
        "  }\n"
        "}\n"
        "module.exports = Kiosk;\n"
    ),
    "src/catalog.js": (
        "const { Router } = require('express');\n"
        "const shelf = Router();\n"
        "shelf.get('/titles/:isbn', (req, res) => res.json({}));\n"
        "module.exports = shelf;\n"
    ),
}

# An ES module, a constructor function: `this.base` set from its second parameter, read in a
# prototype method; the default written inline with `||`.
FUNCTION_THIS: dict[str, str] = {
    "main.mjs": (
        "import Portal from './portal.mjs';\n"
        "const portal = new Portal({ verbose: true }, process.env.PORTAL_BASE || '/portal');\n"
        "portal.open();\n"
    ),
    "portal.mjs": (
        "import express from 'express';\n"
        "export default function Portal(options, base) {\n"
        "  this.options = options;\n"
        "  this.base = base;\n"
        "}\n"
        "Portal.prototype.open = function () {\n"
        "  const app = express();\n"
        "  app.get(`${this.base}/status`, (req, res) => res.end());\n"
        "  app.post(this.base + '/reload', (req, res) => res.end());\n"
        "  app.listen(9000);\n"
        "};\n"
    ),
}

# TypeScript: a module-level `let` assigned in the constructor, `globalThis`, `this.prefix`.
MODULE_LET: dict[str, str] = {
    "src/index.ts": ("import { Hub } from './hub';\nnew Hub('/hub');\n"),
    "src/hub.ts": (
        "import express, { Router } from 'express';\n"
        "let rootPath: string;\n"
        "function attach(app: express.Express): void {\n"
        "  const admin = Router();\n"
        "  admin.delete('/cache', (req, res) => res.end());\n"
        "  app.use(`${rootPath}/admin`, admin);\n"
        "}\n"
        "export class Hub {\n"
        "  private prefix: string;\n"
        "  constructor(prefix: string) {\n"
        "    rootPath = prefix;\n"
        "    this.prefix = prefix;\n"
        "    globalThis.HubRoot = prefix;\n"
        "    const app = express();\n"
        "    attach(app);\n"
        "    app.get(this.prefix + '/me', (req, res) => res.end());\n"
        "    app.get(`${globalThis.HubRoot}/health`, (req, res) => res.end());\n"
        "    app.listen(1);\n"
        "  }\n"
        "}\n"
    ),
}


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): r["attrs"] for r in document(files)["resources"]}


def test_a_global_set_from_a_constructor_parameter_prefixes_nested_routers() -> None:
    routes = _routes(CLASS_GLOBAL)
    assert sorted(routes) == ["GET /kiosk/api/ping", "GET /kiosk/api/v2/titles/{isbn}"]
    assert not any(a.get("prefixUnresolved") for a in routes.values())
    assert all(a.get("configDefault") for a in routes.values())
    assert document(CLASS_GLOBAL)["findings"] == []


def test_a_constructor_function_s_this_field_is_what_new_passes() -> None:
    routes = _routes(FUNCTION_THIS)
    assert sorted(routes) == ["GET /portal/status", "POST /portal/reload"]
    assert all(a.get("configDefault") for a in routes.values())
    assert document(FUNCTION_THIS)["findings"] == []


def test_a_module_variable_and_global_this_set_in_a_constructor() -> None:
    routes = _routes(MODULE_LET)
    assert sorted(routes) == ["DELETE /hub/admin/cache", "GET /hub/health", "GET /hub/me"]
    assert not any(a.get("prefixUnresolved") for a in routes.values())


def _sites(*bases: str) -> dict[str, str]:
    files = dict(CLASS_GLOBAL)
    made = "".join(f"new Kiosk(80, '{base}').run();\n" for base in bases)
    files["bin/start.js"] = "const Kiosk = require('../src/kiosk');\n" + made
    return files


def test_new_sites_that_agree_give_their_value() -> None:
    assert sorted(_routes(_sites("/shop", "/shop"))) == [
        "GET /shop/api/ping",
        "GET /shop/api/v2/titles/{isbn}",
    ]


@pytest.mark.parametrize("bases", [("/left", "/right"), ()])
def test_new_sites_that_disagree_or_none_leave_the_routes_flagged(bases: tuple[str, ...]) -> None:
    found = document(_sites(*bases))
    flagged = [r for r in found["resources"] if r["attrs"].get("prefixUnresolved")]
    codes = {f["code"] for f in found["findings"]}
    assert len(flagged) == 2 and "UNRESOLVED_PREFIX" in codes


@pytest.mark.parametrize(
    ("files", "route"),
    [
        (CLASS_GLOBAL, "GET /kiosk/api/ping"),
        (FUNCTION_THIS, "GET /portal/status"),
        (MODULE_LET, "DELETE /hub/admin/cache"),
    ],
)
def test_pre_filtered_equals_parse_all(
    files: dict[str, str], route: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file doing the `new` names no framework: the linker asks for it (it spells the
    class's module), so the filtered scan reads it too."""
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert f'"{route}"' in documents[1]


def test_a_class_made_through_a_constructor_parameter_is_no_reader_error() -> None:
    """`new this.Engine(...)` of a class the constructor was given: reading that `new` site's
    callee asks for a constructor's parameter while the sites are being indexed (once a
    `KeyError` that failed the whole link); the prefix is still what `new` passes."""
    files = dict(CLASS_GLOBAL)
    files["src/kiosk.js"] = (
        files["src/kiosk.js"]
        .replace("constructor(port, mountAt) {", "constructor(port, mountAt, Engine) {")
        .replace("this.port = port;", "this.port = port;\n    this.Engine = Engine;")
        .replace("web.listen(this.port);", "web.listen(this.port);\n    new this.Engine({ web });")
    )
    files["bin/start.js"] = files["bin/start.js"].replace(
        "new Kiosk(Number(process.env.PORT) || 8000, MOUNT)",
        "new Kiosk(8000, MOUNT, require('../src/engine'))",
    )
    files["src/engine.js"] = (
        "class Engine {\n  constructor(o) { this.o = o; }\n}\nmodule.exports = Engine;\n"
    )
    found = document(files)
    assert found["findings"] == []
    assert sorted(str(r["name"]) for r in found["resources"]) == [
        "GET /kiosk/api/ping",
        "GET /kiosk/api/v2/titles/{isbn}",
    ]
