"""pack-http-routes: Koa constructs of issue 34's classes 1 and 3 that the sweep showed (session
43). A route for every method — koa-router's `all`, written directly, through a computed
method a helper is given from a table of records, or as `register(path, ['all'], …)` — is one
route named `ALL /x`, as koa-router's own stack keeps it (one layer of every method). A router
class from a package the Koa record names (lin-mizar's `LinRouter`, a koa-router subclass, with
its `linGet('name', '/x', …)` verbs; imported under another name too) is a router; the
package's folder loader (`new Loader(config, app)`) mounts on the app each router every script
under its folder exports (by any name, CommonJS or ESM, or as the module itself); a router
outside that folder stays mounted by nothing (`UNRESOLVED_PREFIX`); a route on the member of
the app where the loader keeps its own router (`app.context.loader.mainRouter`) is the app's.
A hook registry of the project's (`bus.listen(name, fn)` / `bus.trigger(name, addRoute)`): each
listener's call of its parameter (an inline listener, or a named function bound through a
registry passed in) is a call of the function the trigger passes, listed where the listener
writes it, through the route-adding function's locals (`const verb = spec.verb || 'get'`,
declared once, an older assignment left in a comment); a route-adding function given to a
hook no scanned listener binds is an `UNRESOLVED_ROUTE` at the trigger. An app wrapped by
koa-websocket (`websockify(new Koa())`, the record's `app_wrappers`) is the app. The fixtures are our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

EVERY = "koa-more"
LOADED = "koa-lib-loader"
HOOKS = "koa-hooks"


def test_a_route_for_every_method_is_one_all_route_also_through_a_computed_method() -> None:
    found = document(fixture_files(EVERY, "*.js"))
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == {
        "GET /v3/health": "srv/api.js:12",
        "ALL /v3/echo/{word}": "srv/api.js:12",
        "ALL /v3/any": "srv/api.js:14",
        "ALL /v3/both": "srv/api.js:17",
    }
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_all_routes_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, fixture_files(EVERY, "*.js"), monkeypatch)
    assert documents[0] == documents[1]
    assert '"ALL /v3/echo/{word}"' in documents[1]


def test_a_library_router_class_and_its_folder_loader_serve_each_exported_router() -> None:
    found = document(fixture_files(LOADED, "*.js"))
    placed = {
        r["name"]: (
            f"{r['location']['path']}:{r['location']['line']}",
            r["attrs"].get("prefixUnresolved", False),
        )
        for r in found["resources"]
    }
    assert placed == {
        "GET /": ("app/main.js:5", False),
        "GET /health": ("app/api/health.js:4", False),
        "GET /shop/orders": ("app/api/shop/orders.js:6", False),
        "GET /shop/orders/{orderId}": ("app/api/shop/orders.js:10", False),
        "DELETE /shop/orders/{orderId}": ("app/api/shop/orders.js:14", False),
        "POST /v2/stock": ("app/api/v2/stock.js:5", False),
        "PUT /v2/stock/{sku}": ("app/api/v2/stock.js:8", False),
        "GET /extra/x": ("app/lib/outside.js:5", True),
    }
    assert [(f["code"], f["locations"][0]["path"]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", "app/lib/outside.js")
    ]


def test_a_pre_filtered_scan_of_a_library_folder_loader_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, fixture_files(LOADED, "*.js"), monkeypatch)
    assert documents[0] == documents[1]
    assert '"PUT /v2/stock/{sku}"' in documents[1]


def test_routes_added_by_the_listeners_of_a_hook_are_listed_where_each_listener_calls() -> None:
    found = document(fixture_files(HOOKS, "*.js"))
    placed = {
        r["name"]: (
            f"{r['location']['path']}:{r['location']['line']}",
            r["attrs"].get("prefixUnresolved", False),
        )
        for r in found["resources"]
    }
    assert placed == {
        "GET /v3/health": ("srv/api.js:16", False),
        "GET /v3/ext/metrics": ("srv/extensions/metrics.js:4", False),
        "POST /v3/ext/metrics/reset": ("srv/extensions/metrics.js:5", False),
        "DELETE /v3/ext/audit/{entry}": ("srv/extensions/audit.js:2", False),
        # on koa-websocket's `app.ws` stack: no HTTP mount the pack reads, flagged
        "GET /live/feed": ("srv/main.js:12", True),
    }
    codes = sorted((f["code"], f["locations"][0]["path"], f["locations"][0]["line"])
                   for f in found["findings"])  # fmt: skip
    assert codes == [
        ("UNRESOLVED_PREFIX", "srv/main.js", 11),
        ("UNRESOLVED_ROUTE", "srv/api.js", 15),
    ]
    unheard = next(f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE")
    assert "routes:unheard" in unheard["detail"]


def test_a_pre_filtered_scan_of_hook_listeners_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, fixture_files(HOOKS, "*.js"), monkeypatch)
    assert documents[0] == documents[1]
    assert '"DELETE /v3/ext/audit/{entry}"' in documents[1]
