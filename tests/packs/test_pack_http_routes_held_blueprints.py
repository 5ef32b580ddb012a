"""pack-http-routes on a project class that HOLDS a Flask blueprint and wraps its registration
in a method (issue 34 item 1): `__init__` stores the app it is given and a `Blueprint` it makes
on `self`, one method adds a class view at each of the URLs it is given as `*varargs` (`rule=`
by keyword, the view `cls.as_view(...)` of a parameter) and another method mounts the
blueprint on `self.app`. Each call of the adding method is a route per URL, with the view's
methods, under the blueprint's prefix, placed at the call; a call whose URL cannot be read is a
finding there. Before, `self.<attr>` in a method was read as a global name, a method named as a
framework's call (`add_resource`) was never followed, and a call passing nothing but its
object (`hub.mount()`) was not seen: every route was lost. Code written for this file only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, located, pre_filtered, write_files

_HUB = (
    "from flask import Blueprint\n"
    "\n"
    "class Hub:\n"
    "    def __init__(self, site, title='x'):\n"
    "        self.site = site\n"
    "        self.title = title\n"
    "        self.bp = Blueprint('hub', __name__, url_prefix='/v2')\n"
    "\n"
    "    def add_resource(self, cls, *paths, hidden=False):\n"
    "        name = cls.__name__.lower()\n"
    "        handler = cls.as_view(cls.__name__)\n"
    "        for one in paths:\n"
    "            self.bp.add_url_rule(rule=one, endpoint=name, view_func=handler)\n"
    "\n"
    "    def mount(self):\n"
    "        self.site.register_blueprint(self.bp)\n"
)

_VIEWS = (
    "from flask.views import MethodView\n"
    "\n"
    "class Health(MethodView):\n"
    "    def get(self):\n"
    "        return 'ok'\n"
    "\n"
    "class Blob(MethodView):\n"
    "    def get(self, key=None):\n"
    "        return ''\n"
    "\n"
    "    def put(self, key):\n"
    "        return ''\n"
)

_SITE = "from flask import Flask\nfrom hub import Hub\n\nsite = Flask(__name__)\nhub = Hub(site)\n"

_ROUTES = (
    "from core import hub\n"  # 1
    "from views import Health, Blob\n"
    "\n"
    "hub.add_resource(Health, '/health')\n"  # 4
    "hub.add_resource(Blob, '/blob', '/blob/<key>')\n"  # 5
    "hub.add_resource(\n"  # 6
    "    Health, '/a' '/b', hidden=True\n"
    ")\n"
    "hub.mount()\n"
)


def _files(routes: str = _ROUTES) -> dict[str, str]:
    return {"hub.py": _HUB, "views.py": _VIEWS, "core.py": _SITE, "routes.py": routes}


def test_each_call_of_the_holding_method_is_a_route_per_url_at_the_call() -> None:
    assert located(_files()) == {
        "GET /v2/health": "routes.py:4",
        "GET /v2/blob": "routes.py:5",
        "GET /v2/blob/{key}": "routes.py:5",
        "PUT /v2/blob": "routes.py:5",
        "PUT /v2/blob/{key}": "routes.py:5",
        "GET /v2/a/b": "routes.py:6",
    }
    assert document(_files())["findings"] == []


def test_the_blueprint_is_served_where_another_method_mounts_it_on_the_stored_app() -> None:
    """No `hub.mount()`: the routes are listed, their prefix unknown (a finding), never
    dropped; mounted on the app `__init__` stored, they are served under it with no finding."""
    unmounted = _files(_ROUTES.replace("hub.mount()\n", ""))
    found = document(unmounted)
    assert {r["name"] for r in found["resources"]} == set(located(_files()))
    assert all(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    assert "UNRESOLVED_PREFIX" in finding_places(unmounted)


def test_the_app_stored_in_init_is_what_the_constructor_is_given() -> None:
    """`Hub(site)` and `Hub(site=site)` store the same app; a blueprint prefix of the app's
    own mount is applied (`url_prefix=` on `register_blueprint` replaces the blueprint's)."""
    by_name = _files()
    by_name["core.py"] = _SITE.replace("Hub(site)", "Hub(title='t', site=site)")
    assert located(by_name) == located(_files())
    moved = _files()
    moved["hub.py"] = _HUB.replace(
        "register_blueprint(self.bp)", "register_blueprint(self.bp, url_prefix='/v3')"
    )
    assert "GET /v3/health" in located(moved)


def test_a_url_the_method_cannot_read_is_a_finding_at_the_call() -> None:
    routes = _ROUTES.replace("'/health'", "make_path()")
    places = finding_places(_files(routes))
    assert "routes.py:4" in places.get("UNRESOLVED_ROUTE", [])
    assert "GET /v2/health" not in located(_files(routes))
    assert "GET /v2/blob" in located(_files(routes))


def test_a_flask_restful_api_add_resource_still_reads_as_before() -> None:
    files = {
        "app.py": (
            "from flask import Flask\n"
            "from flask_restful import Api, Resource\n"
            "\n"
            "class Item(Resource):\n"
            "    def get(self, id):\n"
            "        return {}\n"
            "\n"
            "app = Flask(__name__)\n"
            "api = Api(app, prefix='/r')\n"
            "api.add_resource(Item, '/items/<id>')\n"
        )
    }
    assert located(files) == {"GET /r/items/{id}": "app.py:10"}


def test_pre_filtered_scan_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_files(tmp_path, _files())
    found, _, _ = pre_filtered(tmp_path, monkeypatch)
    names = {r["name"] for r in found["resources"]}
    assert names == set(located(_files()))


def _gated(test: str) -> dict[str, str]:
    files = _files(
        _ROUTES.replace(
            "hub.mount()\n",
            f"from cfg import ENABLE_EXTRA\nfrom outside import flag\nif {test}:\n"
            "    hub.add_resource(Blob, '/extra')\nhub.mount()\n",
        )
    )
    files["cfg.py"] = (
        "from decouple import config\n"
        "ENABLE_EXTRA = config('ENABLE_EXTRA', default=False, cast=bool)\n"
    )
    return files


def test_a_call_under_an_if_the_defaults_make_false_registers_nothing_with_a_finding() -> None:
    """The `if` is around the CALL of the wrapper, not inside it: off by the configuration's
    defaults, nothing is listed and an `UNRESOLVED_ROUTE` is at the call; its `else` runs."""
    off = _gated("ENABLE_EXTRA")
    assert not any("/extra" in name for name in located(off))
    assert finding_places(off).get("UNRESOLVED_ROUTE") == ["routes.py:12"]
    assert located(_gated("not ENABLE_EXTRA"))["PUT /v2/extra"] == "routes.py:12"


def test_a_call_under_an_if_nothing_decides_is_listed_with_a_finding_at_it() -> None:
    undecided = _gated("flag()")  # a module the scan does not hold
    assert located(undecided)["PUT /v2/extra"] == "routes.py:12"
    assert finding_places(undecided).get("UNRESOLVED_PREFIX") == ["routes.py:12"]
