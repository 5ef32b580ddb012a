"""pack-http-routes: JavaScript/TypeScript `use()` given a parameter of the function it is written
in, followed per call with the arguments bound: a base class's wrapper method not named as the
framework's own (`attach(path, router, mw) { this.inner.use(path, mw, router) }`, called as
`this.attach('/x', new Sub(cfg).exposed, mw)` in a subclass's constructor) mounts on the router
of the instance it is called on (`this` bound to the caller's: a subclass's own router, another
instance's `ctrl.attach(...)`), and a plain helper (`function attach(target, p, r) { target.use(p,
r) }`) once per call. A route-registering wrapper (`upload(path, h) { this.inner.post(path, parse,
h) }`) registers on the caller's instance the same way. What a call passes that the scan cannot
tell stays a finding at the wrapper; a wrapper no scanned call reaches is read as written (its
arguments findings there), never silent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    located,
    prefix_unresolved,
    scanned_both_ways,
)

BASE = (
    "import { Router } from 'express';\n"
    "export default class Handlers {\n"
    "    constructor(settings) {\n"
    "        this.inner = Router();\n"
    "    }\n"
    "    attach(path, router, mw) {\n"
    "        this.inner.use(path, mw, router);\n"
    "    }\n"
    "    upload(path, handler) {\n"
    "        this.inner.post(path, parseBody, handler);\n"
    "    }\n"
    "    get exposed() {\n"
    "        return this.inner;\n"
    "    }\n"
    "}\n"
    "function parseBody(req, res, next) { next(); }\n"
)

FILES: dict[str, str] = {
    "lib/base/handlers.ts": BASE,
    "lib/parts/gadgets.ts": (
        "import { Router } from 'express';\n"
        "import Handlers from '../base/handlers';\n"
        "export class GadgetHandlers extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.inner.delete('/:gid', this.drop);\n"
        "        this.upload('/:gid/picture', this.picture);\n"
        "    }\n"
        "}\n"
    ),
    "lib/parts/widgets.ts": (
        "import Handlers from '../base/handlers';\n"
        "export class WidgetHandlers extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.inner.get('/', this.all);\n"
        "    }\n"
        "}\n"
    ),
    "lib/parts/admin.ts": (
        "import Handlers from '../base/handlers';\n"
        "import { GadgetHandlers } from './gadgets';\n"
        "import { WidgetHandlers } from './widgets';\n"
        "export default class Back extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.attach('/gadgets', new GadgetHandlers(settings).exposed, throttle);\n"
        "        this.inner.get('/stats', this.stats);\n"
        "    }\n"
        "}\n"
        "function throttle(req, res, next) { next(); }\n"
    ),
    "lib/parts/front.ts": (
        "import Handlers from '../base/handlers';\n"
        "export default class Front extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.inner.get('/home', this.home);\n"
        "    }\n"
        "}\n"
    ),
    "lib/server.ts": (
        "import express from 'express';\n"
        "import Back from './parts/admin';\n"
        "import Front from './parts/front';\n"
        "import { WidgetHandlers } from './parts/widgets';\n"
        "const server = express();\n"
        "const back = new Back(cfg);\n"
        "back.attach('/widgets', new WidgetHandlers(cfg).exposed, audit);\n"
        "server.use('/api/back', back.exposed);\n"
        "server.use('/front', new Front(cfg).exposed);\n"
        "server.listen(8080);\n"
        "function audit(req, res, next) { next(); }\n"
    ),
}


def test_a_base_wrapper_mounts_on_the_router_of_the_instance_it_is_called_on() -> None:
    assert located(FILES) == {
        "GET /api/back/stats": "lib/parts/admin.ts:8",
        "DELETE /api/back/gadgets/{gid}": "lib/parts/gadgets.ts:6",
        "POST /api/back/gadgets/{gid}/picture": "lib/parts/gadgets.ts:7",
        "GET /api/back/widgets": "lib/parts/widgets.ts:5",
        "GET /front/home": "lib/parts/front.ts:5",
    }
    places = finding_places(FILES)
    assert "UNRESOLVED_ROUTER" not in places
    assert prefix_unresolved(FILES) == []


def test_the_wrapper_mounts_nothing_on_a_sibling_that_does_not_call_it() -> None:
    names = set(located(FILES))
    assert not any(name.startswith("/front/gadgets") for name in names)
    assert "GET /front/widgets" not in names
    assert "DELETE /front/gadgets/{gid}" not in names
    assert "POST /front/gadgets/{gid}/picture" not in names


def test_each_call_of_the_wrapper_mounts_its_own_child_under_its_own_prefix() -> None:
    files = {
        **FILES,
        "lib/parts/front.ts": FILES["lib/parts/front.ts"]
        .replace("import Handlers", "import { WidgetHandlers } from './widgets';\nimport Handlers")
        .replace(
            "        this.inner.get('/home', this.home);\n",
            "        this.inner.get('/home', this.home);\n"
            "        this.attach('/w', new WidgetHandlers(settings).exposed, this.home);\n",
        ),
    }
    found = located(files)
    assert found["GET /front/w"] == "lib/parts/widgets.ts:5"
    assert found["GET /api/back/widgets"] == "lib/parts/widgets.ts:5"
    assert "DELETE /front/w/{gid}" not in found
    assert "GET /front/gadgets" not in found


def test_a_plain_helper_mounts_once_per_call_with_its_arguments() -> None:
    files = {
        "lib/helpers.js": (
            "function attach(target, at, router, guard) {\n"
            "    target.use(at, guard, router);\n"
            "}\n"
            "module.exports = { attach };\n"
        ),
        "lib/app.js": (
            "const express = require('express');\n"
            "const { attach } = require('./helpers');\n"
            "const app = express();\n"
            "const users = express.Router();\n"
            "users.get('/:id', show);\n"
            "const teams = express.Router();\n"
            "teams.get('/', list);\n"
            "attach(app, '/users', users, requireLogin);\n"
            "attach(app, '/teams', teams, requireLogin);\n"
            "function requireLogin(req, res, next) { next(); }\n"
            "app.listen(3000);\n"
        ),
    }
    assert located(files) == {"GET /users/{id}": "lib/app.js:5", "GET /teams": "lib/app.js:7"}
    assert "UNRESOLVED_ROUTER" not in finding_places(files)


def test_a_child_a_call_passes_that_the_scan_cannot_tell_is_a_finding_at_the_wrapper() -> None:
    files = {
        **FILES,
        "lib/parts/admin.ts": FILES["lib/parts/admin.ts"].replace(
            "new GadgetHandlers(settings).exposed", "pickRouter(settings)"
        ),
    }
    found = located(files)
    assert "DELETE /api/back/gadgets/{gid}" not in found
    assert "lib/base/handlers.ts:7" in finding_places(files)["UNRESOLVED_ROUTER"]
    assert "DELETE /{gid}" in prefix_unresolved(files)  # the child nothing mounts: flagged


def test_a_wrapper_no_scanned_call_reaches_stays_a_finding_where_it_is_written() -> None:
    files = {
        **FILES,
        "lib/parts/admin.ts": FILES["lib/parts/admin.ts"].replace(
            "        this.attach('/gadgets', new GadgetHandlers(settings).exposed, throttle);\n",
            "",
        ),
        "lib/server.ts": FILES["lib/server.ts"].replace(
            "back.attach('/widgets', new WidgetHandlers(cfg).exposed, audit);\n", ""
        ),
    }
    assert "lib/base/handlers.ts:7" in finding_places(files)["UNRESOLVED_ROUTER"]
    assert "GET /api/back/widgets" not in located(files)


def test_a_helper_given_no_router_adds_no_route() -> None:
    files = {
        "lib/app.js": (
            "const express = require('express');\n"
            "const app = express();\n"
            "function guardAll(target, guard) { target.use(guard); }\n"
            "guardAll(app, requireLogin);\n"
            "app.get('/me', me);\n"
            "function requireLogin(req, res, next) { next(); }\n"
            "app.listen(3000);\n"
        ),
    }
    assert located(files) == {"GET /me": "lib/app.js:5"}
    assert "UNRESOLVED_ROUTER" not in finding_places(files)
    assert document(files)["resources"][0]["attrs"].get("prefixUnresolved") is None


LOOPED = {
    "lib/app.js": (
        "const express = require('express');\n"
        "const app = express();\n"
        "const users = express.Router();\n"
        "users.get('/:id', show);\n"
        "const teams = express.Router();\n"
        "teams.get('/', list);\n"
        "function mountAll(target, base) {\n"
        "    [users, teams].forEach((router) => target.use(base, router));\n"
        "}\n"
        "mountAll(app, '/v1');\n"
        "[users].forEach((router) => app.use('/old', router));\n"
        "app.listen(3000);\n"
    ),
}


def test_a_loop_s_item_given_to_use_stays_the_item_and_the_helper_s_parameter_is_bound() -> None:
    assert located(LOOPED) == {
        "GET /v1/{id}": "lib/app.js:4",
        "GET /v1": "lib/app.js:6",
        "GET /old/{id}": "lib/app.js:4",
    }
    assert "UNRESOLVED_ROUTER" not in finding_places(LOOPED)
    assert prefix_unresolved(LOOPED) == []


def test_scanned_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, FILES, monkeypatch)
    assert documents[0] == documents[1]
    assert "/api/back/gadgets/{gid}/picture" in documents[1]


def test_a_route_the_subclass_writes_through_a_base_verb_is_listed_once_as_written() -> None:
    """`this.get('/x', this.preview, ADMIN)` on a base whose `get(path, handler, permission)`
    calls `this.route({ method: 'get', path, handler, permission })`: the call is the route as
    the reader reads it where it is written (a handler named), not again through the base
    method with `this` bound (whose options name none); the base file listed after the
    subclass's, as the linker walks them."""
    files = {
        "src/routes/controller.ts": (
            "import { Router } from 'express';\n"
            "export default class Controller {\n"
            "    constructor(config) { this.app = Router(); }\n"
            "    route(options) {\n"
            "        this.app[options.method](options.path, options.handler.bind(this));\n"
            "    }\n"
            "    get(path, handler, permission = 'none') {\n"
            "        this.route({ method: 'get', path, handler, permission });\n"
            "    }\n"
            "    get router() { return this.app; }\n"
            "}\n"
        ),
        "src/routes/admin/email.ts": (
            "import Controller from '../controller';\n"
            "export default class Email extends Controller {\n"
            "    constructor(config) {\n"
            "        super(config);\n"
            "        this.get('/preview/:t', this.preview);\n"
            "    }\n"
            "}\n"
        ),
        "src/routes/index.ts": (
            "import express from 'express';\n"
            "import Email from './admin/email';\n"
            "const app = express();\n"
            "app.use('/api/email', new Email(cfg).router);\n"
        ),
    }
    found = [r for r in document(files)["resources"] if r["name"] == "GET /api/email/preview/{t}"]
    assert len(found) == 1
    assert found[0]["attrs"].get("handler") == "this.preview"
    assert found[0]["location"] == {"path": "src/routes/admin/email.ts", "line": 5}
