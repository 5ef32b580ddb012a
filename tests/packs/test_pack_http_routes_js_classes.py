"""pack-http-routes: JavaScript/TypeScript controller classes wrapping a router. A base class of
the project makes a router in its constructor (`this.app = Router()`), registers on it through
methods (`this.app[options.method](options.path, ...)`, `get(path, h) { this.route({ method:
'get', path, handler: h }) }`) and exposes it (`get router() { return this.app }`); each
subclass registers in its own constructor (`this.get('/x', h)`, `this.route({ method, path })`)
and routers are composed by mounting instances (`this.use('/x', new Sub(config).router)`).
Each subclass owns the router its base's constructor makes: a route is listed only under the
mounts of ITS class's instances (no cycle through the base's one router), placed where the
subclass writes it. What cannot be told stays a finding there."""

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
    "        this.settings = settings;\n"
    "    }\n"
    "    route(spec) {\n"
    "        this.inner[spec.method](spec.path, guard(spec.permission), spec.handler.bind(this));\n"
    "    }\n"
    "    get(path, handler, permission = 'none') {\n"
    "        this.route({ method: 'get', path, handler, permission });\n"
    "    }\n"
    "    delete(path, handler) {\n"
    "        this.route({ method: 'delete', path, handler });\n"
    "    }\n"
    "    use(path, router) {\n"
    "        this.inner.use(path, router);\n"
    "    }\n"
    "    get exposed() {\n"
    "        return this.inner;\n"
    "    }\n"
    "}\n"
)

FILES: dict[str, str] = {
    "lib/base/handlers.ts": BASE,
    "lib/parts/widgets.ts": (
        "import Handlers from '../base/handlers';\n"
        "export class WidgetHandlers extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.route({ method: 'post', path: '/:wid', handler: this.save, permission: 'W' });\n"
        "        this.get('', this.all);\n"
        "    }\n"
        "    all(req, res) {}\n"
        "    save(req, res) {}\n"
        "}\n"
    ),
    "lib/parts/gadgets.ts": (
        "import Handlers from '../base/handlers';\n"
        "export class GadgetHandlers extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.delete('/:gid', this.drop);\n"
        "    }\n"
        "    drop(req, res) {}\n"
        "}\n"
    ),
    "lib/parts/admin.ts": (
        "import Handlers from '../base/handlers';\n"
        "import { WidgetHandlers } from './widgets';\n"
        "import { GadgetHandlers } from './gadgets';\n"
        "export default class Back extends Handlers {\n"
        "    constructor(settings) {\n"
        "        super(settings);\n"
        "        this.use('/widgets', new WidgetHandlers(settings).exposed);\n"
        "        this.use('/gadgets', new GadgetHandlers(settings).exposed);\n"
        "        this.get('/stats', this.stats);\n"
        "    }\n"
        "    stats(req, res) {}\n"
        "}\n"
    ),
    "lib/server.ts": (
        "import express from 'express';\n"
        "import Back from './parts/admin';\n"
        "const server = express();\n"
        "server.use('/api/back', new Back(cfg).exposed);\n"
        "server.listen(8080);\n"
    ),
}


def test_each_subclass_owns_its_router_and_its_routes_are_placed_where_written() -> None:
    assert located(FILES) == {
        "POST /api/back/widgets/{wid}": "lib/parts/widgets.ts:5",
        "GET /api/back/widgets": "lib/parts/widgets.ts:6",
        "DELETE /api/back/gadgets/{gid}": "lib/parts/gadgets.ts:5",
        "GET /api/back/stats": "lib/parts/admin.ts:9",
    }
    codes = {f["detail"] for f in document(FILES)["findings"]}
    assert not any("cycle" in detail for detail in codes)
    # the wrapper's own computed call stays a finding where it is written
    assert "lib/base/handlers.ts:8" in finding_places(FILES)["UNRESOLVED_ROUTE"]


def test_a_class_below_a_subclass_inherits_the_router_too() -> None:
    files = {
        **FILES,
        "lib/parts/widgets.ts": FILES["lib/parts/widgets.ts"].replace(
            "export class WidgetHandlers extends Handlers",
            "class Middle extends Handlers {}\nexport class WidgetHandlers extends Middle",
        ),
    }
    found = located(files)
    assert found["POST /api/back/widgets/{wid}"] == "lib/parts/widgets.ts:6"
    assert found["DELETE /api/back/gadgets/{gid}"] == "lib/parts/gadgets.ts:5"
    assert "GET /api/back/widgets/stats" not in found


def test_a_subclass_making_its_own_router_keeps_it() -> None:
    files = {
        **FILES,
        "lib/parts/gadgets.ts": (
            "import { Router } from 'express';\n"
            "import Handlers from '../base/handlers';\n"
            "export class GadgetHandlers extends Handlers {\n"
            "    constructor(settings) {\n"
            "        super(settings);\n"
            "        this.inner = Router();\n"
            "        this.inner.get('/own', h);\n"
            "    }\n"
            "}\n"
        ),
    }
    found = located(files)
    assert found["GET /api/back/gadgets/own"] == "lib/parts/gadgets.ts:7"
    assert "GET /api/back/gadgets/stats" not in found


def test_a_subclass_nothing_mounts_is_flagged_not_placed_under_another() -> None:
    files = {**FILES, "lib/parts/admin.ts": FILES["lib/parts/admin.ts"].replace(
        "        this.use('/gadgets', new GadgetHandlers(settings).exposed);\n", ""
    )}  # fmt: skip
    found = located(files)
    assert "DELETE /api/back/gadgets/{gid}" not in found
    assert prefix_unresolved(files) == ["DELETE /{gid}"]
    assert "lib/parts/gadgets.ts:3" in finding_places(files)["UNRESOLVED_PREFIX"]


def test_a_computed_path_in_a_subclass_is_a_finding_at_its_call() -> None:
    files = {**FILES, "lib/parts/gadgets.ts": FILES["lib/parts/gadgets.ts"].replace(
        "this.delete('/:gid', this.drop);", "this.delete(pick(settings), this.drop);"
    )}  # fmt: skip
    assert "lib/parts/gadgets.ts:5" in finding_places(files)["UNRESOLVED_ROUTE"]
    assert not any("gadgets" in name for name in located(files))


def test_no_route_where_the_base_makes_no_router() -> None:
    files = {
        "lib/base/plain.ts": (
            "export default class Plain {\n"
            "    constructor(settings) { this.cache = new Map(); }\n"
            "    get(key, fallback) { return this.cache.get(key) ?? fallback; }\n"
            "}\n"
        ),
        "lib/parts/store.ts": (
            "import Plain from '../base/plain';\n"
            "export class Store extends Plain {\n"
            "    constructor(settings) {\n"
            "        super(settings);\n"
            "        this.get('/not-a-route', this.fallback);\n"
            "    }\n"
            "}\n"
        ),
        "lib/server.ts": (
            "import express from 'express';\n"
            "import { Store } from './parts/store';\n"
            "const server = express();\n"
            "server.get('/ok', (req, res) => res.json(new Store(cfg)));\n"
        ),
    }
    assert located(files) == {"GET /ok": "lib/server.ts:4"}


def test_a_wrapper_not_named_as_the_framework_s_is_followed_on_the_caller_s_instance() -> None:
    """A mount through a base method not named as the framework's (`attach`) is followed with
    its arguments bound and `this` the subclass's instance (`test_..._js_wrappers`)."""
    files = {
        **FILES,
        "lib/base/handlers.ts": BASE.replace(
            "    get exposed() {",
            "    attach(path, router) {\n        this.inner.use(path, router);\n    }\n"
            "    get exposed() {",
        ),
        "lib/parts/admin.ts": FILES["lib/parts/admin.ts"].replace(
            "this.use('/gadgets',", "this.attach('/gadgets',"
        ),
    }
    assert located(files)["DELETE /api/back/gadgets/{gid}"] == "lib/parts/gadgets.ts:5"
    assert "lib/base/handlers.ts:20" not in finding_places(files).get("UNRESOLVED_ROUTER", [])
    assert prefix_unresolved(files) == []


def test_scanned_both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, FILES, monkeypatch)
    assert documents[0] == documents[1]
    assert "/api/back/widgets/{wid}" in documents[1]
