"""Routers of classes the scanned files do not show (issue 34, "never silent by construction"):
an object made by `new X(…)` or a factory call of a package no framework record reads, or of a
class of the repository extending one, called route-shaped (`.get('/x', h)`, `.addRoute('n',
'/x', meta, h)`), is an `UNRESOLVED_ROUTER` at its first such call in each file, never a route;
HTTP clients, caches and maps are none. Every scan is held to the parse-all one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, scanned_both_ways

# a package's router class subclassing a framework's, seen only through its import
_CATALOG = """\
import { PortalRouter as Gate, PortalError } from '@acme/portal-kit';
import { listItems } from '../services/items';

const catalog = new Gate({ prefix: '/catalog', module: 'Catalog' });

catalog.get('/items', async (ctx) => { ctx.body = await listItems(); });
catalog.grantedPost('createItem', '/items', { need: 'items.write' }, async (ctx) => {
  throw new PortalError();
});
catalog.del('/items/:sku', listItems);

export default catalog;
"""

# made by a factory of another package, used in a second file through an export
_MADE = """\
const kit = require('routekit');
const board = kit.createBoard({ base: '/boards' });
module.exports = board;
"""
_BOARD_ROUTES = """\
const board = require('./made');
const handlers = require('./handlers');

board.put('/:id', handlers.update);
board.patch(`/:id/pin`, function pin(req, res) { res.end(); });
"""

# a class of the repository extending a package's class
_BASE = """\
import { Blueprint } from 'tiny-web-core';
export class VersionedRouter extends Blueprint {
  version() { return 'v2'; }
}
"""
_USES_BASE = """\
import { VersionedRouter } from './base';
import * as ctl from './ctl';
const orders = new VersionedRouter();
orders.post('/orders', ctl.create);
"""

# a subclass registering on itself
_SELF_ROUTES = """\
const { PortalRouter } = require('@acme/portal-kit');
const { audit } = require('./audit');

class AuditRouter extends PortalRouter {
  constructor() {
    super({ prefix: '/audit' });
    this.get('/entries', audit);
    this.grantedDelete('purge', '/entries', {}, async (ctx) => audit(ctx));
  }
}
module.exports = new AuditRouter();
"""

# negatives: HTTP clients, caches, maps, a framework's own router, calls of no route shape
_CLIENTS = """\
import axios from 'axios';
import got from 'got';
import LRU from 'lru-cache';
import { ApiClient } from 'vendor-sdk';
import express from 'express';
import { Component } from 'react';
import { AssetLoader } from '3d-kit';
import $ from 'jquery';
import { refresh } from './session';

const http = axios.create({ baseURL: '/api' });
http.get('/users', { params: { page: 1 } }).then((r) => r.data);
http.post('/login', payload, (progress) => progress);
got.get('/health', refresh);
const cache = new LRU({ max: 10 });
cache.get('/key');
cache.set('/key', 1);
const seen = new Map();
seen.get('/x');
const sdk = new ApiClient({ host: 'h' });
sdk.get('/users');
sdk.post('/users', { name: 'n' });
sdk.fetch('users', refresh);
const loader = new AssetLoader();
loader.load('/assets/model.glb', (mesh) => mesh);  // a loader's URL and callback
$.get('/api/items', refresh);
export class Panel extends Component {
  load() { this.api.get('/api/panel', (r) => r); }
}
const router = express.Router();
router.get('/real', refresh);
export default router;
"""


def _foreign(files: dict[str, str]) -> list[tuple[str, int, str]]:
    return sorted(
        (loc["path"], loc["line"], str(f["detail"]))
        for f in document(files)["findings"]
        if f["code"] == "UNRESOLVED_ROUTER"
        for loc in f["locations"]
    )


def test_a_package_router_is_flagged_at_its_first_route_call_with_its_count() -> None:
    found = _foreign({"api/catalog.js": _CATALOG})
    assert [(p, n) for p, n, _ in found] == [("api/catalog.js", 6)]
    detail = found[0][2]
    assert "`PortalRouter`" in detail and "`@acme/portal-kit`" in detail
    assert "3 route-shaped calls" in detail
    assert document({"api/catalog.js": _CATALOG})["resources"] == []  # never guessed


def test_a_factory_made_router_is_flagged_in_each_file_calling_it() -> None:
    found = _foreign({"r/made.js": _MADE, "r/board.js": _BOARD_ROUTES})
    assert [(p, n) for p, n, _ in found] == [("r/board.js", 4)]
    assert "`createBoard`" in found[0][2] and "`routekit`" in found[0][2]
    assert "2 route-shaped calls" in found[0][2]


def test_a_class_of_the_repository_extending_a_package_class_is_flagged() -> None:
    found = _foreign({"v/base.js": _BASE, "v/orders.js": _USES_BASE})
    assert [(p, n) for p, n, _ in found] == [("v/orders.js", 4)]
    assert "v/base.js" in found[0][2] and "`tiny-web-core`" in found[0][2]


def test_a_subclass_registering_on_this_is_flagged_in_its_constructor() -> None:
    found = _foreign({"a/audit_router.js": _SELF_ROUTES})
    assert [(p, n) for p, n, _ in found] == [("a/audit_router.js", 7)]
    assert "`this` in `AuditRouter`" in found[0][2] and "2 route-shaped calls" in found[0][2]


def test_clients_caches_maps_and_known_routers_are_no_foreign_router() -> None:
    linked = document({"web/clients.js": _CLIENTS})
    assert _foreign({"web/clients.js": _CLIENTS}) == []
    assert [r["name"] for r in linked["resources"]] == ["GET /real"]


@pytest.mark.parametrize("with_framework", [False, True])
def test_foreign_routers_are_the_same_through_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_framework: bool
) -> None:
    """No file of the repository imports a framework the pack reads (or one does): the
    route-shaped calls' files are admitted by their bytes all the same."""
    files = {
        "api/catalog.js": _CATALOG,
        "r/made.js": _MADE,
        "r/board.js": _BOARD_ROUTES,
        "v/base.js": _BASE,
        "v/orders.js": _USES_BASE,
        "v/ctl.js": "export const create = () => 1;\n",
        "services/items.js": "export const listItems = () => [];\n",
        "a/audit_router.js": _SELF_ROUTES,
    }
    if with_framework:
        files["web/clients.js"] = _CLIENTS
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    codes = [f["code"] for f in json.loads(documents[1])["findings"]]
    assert codes.count("UNRESOLVED_ROUTER") == 4
