"""pack-http-routes: Flask-Classful's class views (`routes/flask_classful.py`,
`linker._class_views`). The fixture `flask-classful-views` is our own: views below a project base
of `FlaskView` whose `register` override hands its app on, mixins in a module that names no
framework, method-name routes (`index`, `get`, `post`, `put`, `patch`, `delete`, any other
public method, `@method`), `@route` with methods (two on one method), `route_base` and
`route_prefix` on a base and overridden in a subclass and by `register(...)`, `trailing_slash`
both ways, `method_dashified`, `excluded_methods`, `before_`/`after_`/`_` names, a base method
hidden by a subclass's attribute, aliases (`latest = top_rated`; no `@route` rule of the
original's), a diamond of mixins (Python's C3 order picks the method), type-hint converters
(none where the module defers its annotations), defaults left out of a rule, a route base's own
variables, one class registered on two blueprints, a blueprint's own prefix and one
`register_blueprint(url_prefix=)` replaces (a configuration value chosen by `'/api' if not
testing else ''` in a factory whose `testing` defaults to None), a register through a helper
given the app, one under an `if` the configuration's defaults do not run, and `decorators`
that guard. Its truth is Flask-Classful 0.16.0's `app.url_map` under Flask 3.1 (HEAD and
OPTIONS left out), each route placed at the method when the registered class defines it, else
at the registered class."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from routes_harness import document, findings_of, fixture_files, pre_filtered, scanned_both_ways

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import extract
from packs.routes.linker import resolve_routes

FIXTURE = "flask-classful-views"
VIEWS = "shelf/views/__init__.py"
SERVED = {
    "GET /api/v1/books": f"{VIEWS}:13",
    "POST /api/v1/books": f"{VIEWS}:16",
    "GET /api/v1/books/covers": f"{VIEWS}:25",
    "GET /api/v1/books/covers_again": f"{VIEWS}:35",
    "POST /api/v1/books/reindex": f"{VIEWS}:30",
    "GET /api/v1/books/search": f"{VIEWS}:13",
    "POST /api/v1/books/search": f"{VIEWS}:13",
    "PUT /api/v1/books/{book_id}/cover": f"{VIEWS}:25",
    "DELETE /api/v1/books/{item_id}": f"{VIEWS}:13",
    "GET /api/v1/books/{item_id}": f"{VIEWS}:13",
    "PATCH /api/v1/books/{item_id}": f"{VIEWS}:22",
    "PUT /api/v1/books/{item_id}": f"{VIEWS}:19",
    "GET /api/v1/branches/{branch_id}/shelves": f"{VIEWS}:61",
    "GET /api/v1/branches/{branch_id}/shelves/{shelf_id}": f"{VIEWS}:64",
    "GET /api/v1/issues/{page}": f"{VIEWS}:68",
    "GET /api/v2/authors/": f"{VIEWS}:38",
    "GET /api/v2/authors/latest/{limit}/": f"{VIEWS}:48",
    "GET /api/v2/authors/search": f"{VIEWS}:38",
    "POST /api/v2/authors/search": f"{VIEWS}:38",
    "GET /api/v2/authors/top_rated/{limit}/": f"{VIEWS}:45",
    "GET /api/v2/authors/{author_id}/": f"{VIEWS}:42",
    "GET /members/loans/loan-records/count": f"{VIEWS}:51",
    "GET /members/loans/loan-records/overdue-items": f"{VIEWS}:54",
    "GET /members/v1/wishlist/": f"{VIEWS}:13",
    "POST /members/v1/wishlist/": f"{VIEWS}:16",
    "GET /members/v1/wishlist/covers": f"{VIEWS}:25",
    "GET /members/v1/wishlist/covers_again/": f"{VIEWS}:35",
    "POST /members/v1/wishlist/reindex/": f"{VIEWS}:30",
    "GET /members/v1/wishlist/search": f"{VIEWS}:13",
    "POST /members/v1/wishlist/search": f"{VIEWS}:13",
    "PUT /members/v1/wishlist/{book_id}/cover": f"{VIEWS}:25",
    "DELETE /members/v1/wishlist/{item_id}/": f"{VIEWS}:13",
    "GET /members/v1/wishlist/{item_id}/": f"{VIEWS}:13",
    "PATCH /members/v1/wishlist/{item_id}/": f"{VIEWS}:22",
    "PUT /members/v1/wishlist/{item_id}/": f"{VIEWS}:19",
    "GET /staff/rota/": "shelf/staff.py:22",
    "GET /staff/rota/{shift}/": "shelf/staff.py:25",
}
# the converter each rule's variables have (`flask_shape`), where the library gives one
SHAPES = {
    "PUT /api/v1/books/{item_id}": "/api/v1/books/{int}",
    "PUT /api/v1/books/{book_id}/cover": "/api/v1/books/{int}/cover",
    "GET /api/v1/branches/{branch_id}/shelves/{shelf_id}": "/api/v1/branches/{string}/shelves/{uuid}",
    "GET /staff/rota/{shift}/": "/staff/rota/{string}/",  # `shift: int` under deferred annotations
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE)


def test_class_views_are_routed_as_flask_classful_registers_them() -> None:
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}" for r in found["resources"]
    }
    assert placed == SERVED
    handlers = {r["name"]: r["attrs"].get("handler") for r in found["resources"]}
    assert handlers["GET /api/v1/books"] == "BooksView(Listing.index)"
    assert handlers["PUT /api/v1/books/{book_id}/cover"] == "BooksView.cover"
    assert handlers["GET /members/loans/loan-records/count"] == "LoanRecordsView(Counting.count)"
    assert handlers["GET /api/v1/issues/{page}"] == "IssuesView(Paged.index)"  # C3, not depth first
    assert {r["attrs"]["framework"] for r in found["resources"]} == {"flask"}
    assert findings_of(found) == [("UNRESOLVED_ROUTE", [("shelf/staff.py", 32)])]


def test_a_rules_converters_come_from_the_methods_type_hints() -> None:
    files = _files()
    routes = resolve_routes({path: extract(path, text) for path, text in files.items()}).routes
    shapes = {f"{r.method} {r.route}": r.shape for r in routes}
    assert {name: shapes[name] for name in SHAPES} == SHAPES


def test_class_views_carry_their_decorators_and_the_prefix_s_configuration_default() -> None:
    found = document(_files())
    auth = {s["resource"]: s["value"] for s in found["signals"] if s["signal"] == "auth"}
    assert auth["route:GET /staff/rota/"] == "required"  # `decorators = [staff_only]`
    assert auth["route:GET /staff/rota/{shift}/"] == "required"
    assert auth["route:GET /api/v1/books/search"] == "none"  # `@route` guards nothing
    by_name = {r["name"]: r["attrs"] for r in found["resources"]}
    assert "`testing=None`" in by_name["GET /api/v1/books"]["configDefault"]
    assert "configDefault" not in by_name["GET /members/v1/wishlist/"]


def test_the_pre_filter_scan_of_class_views_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /staff/rota/{shift}/"' in documents[1]


REGISTERED_ELSEWHERE = {
    # the view and its mixin in files that name no framework and register nothing: only the
    # file registering it spells `.register(`, the linker asks for the rest
    "plain/mixins.py": "class Paging:\n    def page(self, number):\n        return number\n",
    "plain/views.py": (
        "from plain.mixins import Paging\n"
        "from plain.base import Base\n"
        "\n"
        "class Ledger(Paging, Base):\n"
        "    route_base = 'ledger'\n"
    ),
    "plain/base.py": "import flask_classful\n\nclass Base(flask_classful.FlaskView):\n    pass\n",
    "plain/wiring.py": (
        "from plain.views import Ledger\n\ndef wire(target):\n    Ledger.register(target)\n"
    ),
    "plain/app.py": (
        "from flask import Flask\n"
        "from plain.wiring import wire\n"
        "\n"
        "app = Flask(__name__)\n"
        "wire(app)\n"
    ),
}


def test_a_view_wired_through_a_helper_from_files_naming_no_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from routes_harness import write_files

    write_files(tmp_path, REGISTERED_ELSEWHERE)
    found, every, filtered = pre_filtered(tmp_path, monkeypatch)
    assert {r["name"]: r["location"]["path"] for r in found["resources"]} == {
        "GET /ledger/page/{number}/": "plain/views.py"
    }
    assert filtered <= every


def _one(files: dict[str, str]) -> tuple[set[str], list[tuple[str, list[tuple[str, int]]]]]:
    found = document(files)
    return {r["name"] for r in found["resources"]}, findings_of(found)


def _details(files: dict[str, str]) -> list[str]:
    return [str(f["detail"]) for f in document(files)["findings"]]


BLUEPRINT = "from flask import Blueprint\nbp = Blueprint('bp', __name__)\n"


def test_a_computed_route_base_is_a_finding_at_the_register_call() -> None:
    names, findings = _one({
        "site/bp.py": BLUEPRINT,
        "site/views.py": (
            "from flask_classful import FlaskView\n"
            "from site.bp import bp\n"
            "from settings_lib import base_for\n"
            "\n"
            "class Orders(FlaskView):\n"
            "    route_base = base_for('orders')\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Orders.register(bp)\n"
        ),
    })  # fmt: skip
    assert names == set()
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 10)]) in findings


def test_a_register_on_what_is_no_app_or_blueprint_is_a_finding() -> None:
    names, findings = _one({
        "site/views.py": (
            "from flask_classful import FlaskView\n"
            "from somewhere_else import make_target\n"
            "\n"
            "class Orders(FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Orders.register(make_target())\n"
        ),
    })  # fmt: skip
    assert names == set()
    assert ("UNRESOLVED_ROUTER", [("site/views.py", 8)]) in findings


def test_class_views_of_a_library_the_pack_does_not_read_are_named() -> None:
    names, findings = _one({
        "site/bp.py": BLUEPRINT,
        "site/views.py": (
            "from flask_classy import FlaskView\n"
            "import flask_sitemap\n"
            "from site.bp import bp\n"
            "from site.ghost import Phantom\n"
            "\n"
            "class Orders(FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Orders.register(bp)\n"
            "flask_sitemap.register(bp)\n"
            "Phantom.register(bp)\n"
        ),
    })  # fmt: skip
    assert names == set()
    assert ("UNREAD_FRAMEWORK", [("site/views.py", 10)]) in findings  # below flask_classy
    assert ("UNREAD_FRAMEWORK", [("site/views.py", 11)]) in findings  # a library's `register`
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 12)]) in findings  # a class not shown


def test_a_register_override_that_does_not_hand_its_app_on_is_a_finding() -> None:
    files = {
        "site/bp.py": BLUEPRINT,
        "site/views.py": (
            "from flask_classful import FlaskView\n"
            "from site.bp import bp\n"
            "\n"
            "class Base(FlaskView):\n"
            "    @classmethod\n"
            "    def register(cls, app, **kwargs):\n"
            "        app.logger.info('views are registered elsewhere')\n"
            "\n"
            "class Orders(Base):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Orders.register(bp)\n"
        ),
    }
    names, findings = _one(files)
    assert names == set()
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 13)]) in findings
    assert any("register` of its class at site/views.py:6" in d for d in _details(files))


def test_a_computed_route_rule_and_a_method_the_library_cannot_read_are_findings() -> None:
    names, findings = _one({
        "site/bp.py": BLUEPRINT,
        "site/views.py": (
            "from flask_classful import FlaskView, route\n"
            "from site.bp import bp\n"
            "from vendor import PATHS\n"
            "\n"
            "class Refunds(FlaskView):\n"
            "    @route(PATHS['refunds'])\n"
            "    def lookup(self):\n"
            "        return ''\n"
            "\n"
            "    def archive(this):\n"
            "        return ''\n"
            "\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Refunds.register(bp)\n"
        ),
    })  # fmt: skip
    assert names == {"GET /refunds/"}
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 6)]) in findings  # the `@route`
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 10)]) in findings  # `register` would raise


def test_spread_options_and_a_library_s_mixin_are_findings_at_the_register_call() -> None:
    names, findings = _one({
        "site/bp.py": BLUEPRINT,
        "site/views.py": (
            "from flask_classful import FlaskView\n"
            "from site.bp import bp\n"
            "from vendor import Auditing, OPTIONS\n"
            "\n"
            "class Audited(Auditing, FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Audited.register(bp, **OPTIONS)\n"
            "Audited.register(bp)\n"
        ),
    })  # fmt: skip
    assert names == {"GET /audited/"}  # the second call's, its library base named beside it
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 9)]) in findings
    assert ("UNRESOLVED_ROUTE", [("site/views.py", 10)]) in findings


def test_a_view_registered_on_a_helper_s_parameter_no_call_passes_is_listed_flagged() -> None:
    found = document({
        "site/views.py": (
            "from flask_classful import FlaskView\n"
            "\n"
            "class Orders(FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "def init_app(app):\n"
            "    Orders.register(app)\n"
        ),
    })  # fmt: skip
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /orders/", True)
    ]


def test_a_view_s_before_hooks_guard_as_a_flask_before_request_hook_does() -> None:
    """`before_request` (every method) and `before_<name>` (one), which the library runs before
    the method: a guard where the body turns anonymous callers away, not known where it
    answers 403 to some requests only."""
    found = document({
        "site/views.py": (
            "from flask import Flask, abort, g\n"
            "from flask_classful import FlaskView\n"
            "\n"
            "app = Flask(__name__)\n"
            "\n"
            "class Gate:\n"
            "    def before_request(self, name, **kwargs):\n"
            "        if g.user is None:\n"
            "            abort(401)\n"
            "\n"
            "class Open(FlaskView):\n"
            "    def before_archive(self, **kwargs):\n"
            "        if kwargs.get('locked'):\n"
            "            abort(403)\n"
            "    def index(self):\n"
            "        return ''\n"
            "    def archive(self):\n"
            "        return ''\n"
            "\n"
            "class Closed(Gate, FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "Open.register(app)\n"
            "Closed.register(app)\n"
        ),
    })  # fmt: skip
    auth = {s["resource"]: s["value"] for s in found["signals"] if s["signal"] == "auth"}
    assert auth == {
        "route:GET /open/": "none",
        "route:GET /open/archive/": "unknown",
        "route:GET /closed/": "required",
    }


def test_register_s_options_by_position_and_its_app_by_name() -> None:
    """`register(app, route_base, subdomain, route_prefix, trailing_slash)` by position, and
    `register(app=app, ...)` (held against the library's `url_map` too)."""
    names, findings = _one({
        "app.py": (
            "from flask import Flask\n"
            "from flask_classful import FlaskView\n"
            "\n"
            "class Orders(FlaskView):\n"
            "    def index(self):\n"
            "        return ''\n"
            "\n"
            "    def get(self, number):\n"
            "        return ''\n"
            "\n"
            "class Carts(Orders):\n"
            "    pass\n"
            "\n"
            "def create_app():\n"
            "    app = Flask(__name__)\n"
            "    Orders.register(app, 'orders/all', None, '/shop', False)\n"
            "    Carts.register(app=app, route_base='mine', strict_slashes=False)\n"
            "    return app\n"
        ),
    })  # fmt: skip
    assert names == {
        "GET /shop/orders/all",
        "GET /shop/orders/all/{number}",
        "GET /mine/",
        "GET /mine/{number}/",
    }
    assert findings == []
