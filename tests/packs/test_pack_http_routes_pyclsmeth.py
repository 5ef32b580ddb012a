"""pack-http-routes on registration calls made inside a project class's methods (blind-9,
RuoYi-Vue3-FastAPI): a helper class whose classmethod, staticmethod or instance method is
given the app or router as a parameter and registers on it (`add_route`, `add_api_route`,
`add_url_rule`, `include_router`, `register_blueprint`, a route decorator on a nested def),
its paths the class's own attributes (`cls.X`, `self.X`, `ClassName.X`, inherited from a base
in another module, overridden by a subclass), module constants and f-strings over them. The
method is reached as `Cls.m(app)`, `Cls().m(app)`, `obj = Cls(); obj.m(app)`,
`cls._helper(app)` and `super().m(app)` from a subclass. An attribute set only at run time
(in `__init__` from a parameter, or from a setting with no default) is a finding, never
silence. The fixtures are written for this file, not copied from a repository; their routes
are what FastAPI 0.115 / Flask 3 serve for these files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import finding_places, placed, scanned_both_ways

HELPER_CLASS_METHODS: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/consts.py": "API_ROOT = '/api'\n",
    "shop/base.py": "class SpecPages:\n    SPEC = '/spec.json'\n",
    "shop/helpers.py": (
        "from fastapi import FastAPI\n"
        "from shop.base import SpecPages\n"
        "from shop.consts import API_ROOT\n"
        "\n"
        "async def view(request):\n"
        "    return None\n"
        "\n"
        "class Docs(SpecPages):\n"
        "    _PAGE = '/docs'\n"
        "    HEALTH = f'{API_ROOT}/health'\n"
        "\n"
        "    @classmethod\n"
        "    def install(cls, app: FastAPI) -> None:\n"
        "        app.add_route(cls._PAGE, view)\n"
        "        app.add_route(cls.SPEC, view)\n"
        "        cls._more(app)\n"
        "\n"
        "    @classmethod\n"
        "    def _more(cls, target):\n"
        "        target.add_api_route(Docs.HEALTH, view, methods=['POST'])\n"
        "\n"
        "    @staticmethod\n"
        "    def plain(app):\n"
        "        app.add_route(API_ROOT + '/static', view)\n"
        "\n"
        "    def inst(self, app):\n"
        "        app.add_route(self._PAGE + '/inst', view)\n"
        "\n"
        "        @app.get(f'{self.SPEC}/deco')\n"
        "        def deco():\n"
        "            return 1\n"
    ),
    "shop/main.py": (
        "from fastapi import FastAPI\n"
        "from shop.helpers import Docs\n"
        "\n"
        "def make():\n"
        "    app = FastAPI()\n"
        "    Docs.install(app)\n"
        "    Docs.plain(app)\n"
        "    d = Docs()\n"
        "    d.inst(app)\n"
        "    return app\n"
        "\n"
        "app = make()\n"
    ),
}


def test_classmethods_staticmethods_and_methods_given_the_app_register_its_routes() -> None:
    assert placed(HELPER_CLASS_METHODS) == {
        "GET /docs": "shop/helpers.py:14 fastapi",
        "GET /spec.json": "shop/helpers.py:15 fastapi",  # inherited from another module
        "POST /api/health": "shop/helpers.py:20 fastapi",  # through `cls._more(app)`
        "GET /api/static": "shop/helpers.py:24 fastapi",
        "GET /docs/inst": "shop/helpers.py:27 fastapi",
        "GET /spec.json/deco": "shop/helpers.py:29 fastapi",
    }
    assert finding_places(HELPER_CLASS_METHODS) == {}


A_SUBCLASS_CALLING_SUPER: dict[str, str] = {
    "kiosk/__init__.py": "",
    "kiosk/roots.py": "ROOT = '/v1'\n",
    "kiosk/core/__init__.py": "",
    "kiosk/core/basis.py": (
        "class Wiring:\n"
        "    HEALTH = '/health'\n"
        "    PREFIX = '/base'\n"
        "\n"
        "    @classmethod\n"
        "    def attach(cls, target):\n"
        "        target.add_api_route(cls.PREFIX + '/ping', lambda: 1)\n"
        "        target.add_api_route(cls.HEALTH, lambda: 1, methods=['HEAD'])\n"
    ),
    "kiosk/parts.py": (
        "from fastapi import APIRouter\n"
        "from kiosk.core.basis import Wiring as W\n"
        "from kiosk.roots import ROOT\n"
        "from kiosk import settings\n"
        "\n"
        "shelf = APIRouter()\n"
        "\n"
        "@shelf.get('/items')\n"
        "def items():\n"
        "    return []\n"
        "\n"
        "class Plugged(W):\n"
        "    PREFIX = f'{ROOT}/plugged'\n"
        "    MOUNTED = ROOT + '/shelf'\n"
        "    FROM_ENV = settings.MISSING\n"
        "\n"
        "    def __init__(self, where):\n"
        "        self.where = where\n"
        "\n"
        "    @classmethod\n"
        "    def attach(cls, target):\n"
        "        super().attach(target)\n"
        "        target.include_router(shelf, prefix=Plugged.MOUNTED)\n"
        "\n"
        "    def ready(self, target):\n"
        "        target.add_api_route(self.MOUNTED + '/ready', lambda: 1)\n"
        "\n"
        "    def late(self, target):\n"
        "        target.add_api_route(self.where, lambda: 1)\n"
        "\n"
        "    @staticmethod\n"
        "    def env(target):\n"
        "        target.add_api_route(Plugged.FROM_ENV + '/x', lambda: 1)\n"
    ),
    "kiosk/settings.py": "import os\nMISSING = os.environ['KIOSK_MISSING']\n",
    "kiosk/app.py": (
        "from fastapi import FastAPI\n"
        "from kiosk import parts\n"
        "\n"
        "server = FastAPI()\n"
        "parts.Plugged.attach(server)\n"
        "parts.Plugged('/late').late(server)\n"
        "parts.Plugged.env(server)\n"
        "wiring = parts.Plugged('/w')\n"
        "wiring.ready(server)\n"
    ),
}


def test_a_base_method_reached_through_super_reads_the_subclass_attributes() -> None:
    assert placed(A_SUBCLASS_CALLING_SUPER) == {
        "GET /v1/plugged/ping": "kiosk/core/basis.py:7 fastapi",  # `cls` is the subclass
        "HEAD /health": "kiosk/core/basis.py:8 fastapi",
        "GET /v1/shelf/items": "kiosk/parts.py:8 fastapi",
        "GET /v1/shelf/ready": "kiosk/parts.py:26 fastapi",  # `wiring.ready(server)`
    }


def test_an_attribute_set_at_run_time_is_a_finding_where_the_method_is_called() -> None:
    places = finding_places(A_SUBCLASS_CALLING_SUPER)
    # `self.where` comes from `__init__`, `FROM_ENV` from a variable with no default
    assert sorted(places["UNRESOLVED_ROUTE"]) == [
        "kiosk/app.py:6",
        "kiosk/app.py:7",
        "kiosk/parts.py:29",
        "kiosk/parts.py:33",
    ]


A_FLASK_HOOK_OBJECT: dict[str, str] = {
    "web/__init__.py": (
        "from flask import Flask\n"
        "from web.hooks import Hooks\n"
        "from web.more import Extra\n"
        "\n"
        "def create_app():\n"
        "    application = Flask(__name__)\n"
        "    hooks = Hooks()\n"
        "    hooks.install(application)\n"
        "    Extra.wire(application)\n"
        "    Hooks().extra(application)\n"
        "    return application\n"
    ),
    "web/hooks.py": (
        "from flask import Blueprint\n"
        "\n"
        "pages = Blueprint('pages', __name__)\n"
        "\n"
        "@pages.route('/about')\n"
        "def about():\n"
        "    return ''\n"
        "\n"
        "def status():\n"
        "    return ''\n"
        "\n"
        "class Hooks:\n"
        "    STATUS_RULE = '/status/<int:code>'\n"
        "    PAGES_AT = '/pages'\n"
        "\n"
        "    def install(self, flask_app):\n"
        "        flask_app.add_url_rule(self.STATUS_RULE, 'status', status)\n"
        "        flask_app.register_blueprint(pages, url_prefix=self.PAGES_AT)\n"
        "\n"
        "        @flask_app.route(f'{Hooks.PAGES_AT}/inline', methods=['POST'])\n"
        "        def inline():\n"
        "            return ''\n"
        "\n"
        "    def extra(self, flask_app):\n"
        "        flask_app.add_url_rule(self.PAGES_AT + '/more', 'more', status)\n"
    ),
    "web/more.py": (
        "class Extra:\n"
        "    WHERE = '/extra'\n"
        "\n"
        "    @classmethod\n"
        "    def wire(klass, into):\n"
        "        for rule in ('/a', '/b'):\n"
        "            into.add_url_rule(klass.WHERE + rule, view_func=lambda: '')\n"
    ),
}


def test_a_flask_hook_object_made_in_the_factory_registers_on_the_app() -> None:
    assert placed(A_FLASK_HOOK_OBJECT) == {
        "GET /pages/about": "web/hooks.py:5 flask",
        "GET /status/{code}": "web/hooks.py:17 flask",
        "POST /pages/inline": "web/hooks.py:20 flask",
        "GET /pages/more": "web/hooks.py:25 flask",  # `Hooks().extra(app)`
        "GET /extra/a": "web/more.py:7 flask",
        "GET /extra/b": "web/more.py:7 flask",
    }
    assert finding_places(A_FLASK_HOOK_OBJECT) == {}


LOOPS_OVER_A_METHODS_OWN_LISTS: dict[str, str] = {
    "hub/__init__.py": "",
    "hub/conf.py": (
        "from pydantic_settings import BaseSettings\n"
        "class Options(BaseSettings):\n"
        "    hide_console: bool = False\n"
        "    legacy_paths: bool = False\n"
        "options = Options()\n"
    ),
    "hub/pages.py": (
        "from hub.conf import options\n"
        "\n"
        "class Console:\n"
        "    HOME = '/console'\n"
        "    OLD = '/old-console'\n"
        "\n"
        "    @classmethod\n"
        "    def mount_on(cls, api, page, *, extra=()):\n"
        "        homes: list[str] = (\n"
        "            [cls.HOME] if not options.hide_console else [cls.HOME, cls.OLD]\n"
        "        )\n"
        "        for home in homes:\n"
        "            api.add_route(home, page)\n"
        "        spots = [cls.HOME + '/a', cls.HOME + '/b']\n"
        "        for spot in spots:\n"
        "            api.add_route(spot, page)\n"
        "        for alt in ([cls.OLD + '/x'] if options.legacy_paths else []):\n"
        "            api.add_route(alt, page)\n"
    ),
    "hub/main.py": (
        "from fastapi import FastAPI\n"
        "from hub.pages import Console\n"
        "\n"
        "async def page(request):\n"
        "    return None\n"
        "\n"
        "def build():\n"
        "    site = FastAPI()\n"
        "    Console.mount_on(site, page)\n"
        "    return site\n"
    ),
}


def test_a_loop_over_a_list_the_method_builds_registers_each_item() -> None:
    """A local list, or one of two chosen by a setting: each item of the branch the defaults
    pick is a route; those of the other branch are a finding at the registering call."""
    assert placed(LOOPS_OVER_A_METHODS_OWN_LISTS) == {
        "GET /console": "hub/pages.py:13 fastapi",
        "GET /console/a": "hub/pages.py:16 fastapi",
        "GET /console/b": "hub/pages.py:16 fastapi",
    }
    places = finding_places(LOOPS_OVER_A_METHODS_OWN_LISTS)
    assert places == {"UNRESOLVED_ROUTE": ["hub/pages.py:13", "hub/pages.py:18"]}


@pytest.mark.parametrize(
    "files",
    [
        HELPER_CLASS_METHODS,
        A_SUBCLASS_CALLING_SUPER,
        A_FLASK_HOOK_OBJECT,
        LOOPS_OVER_A_METHODS_OWN_LISTS,
    ],
)
def test_registration_in_methods_scans_the_same_with_and_without_the_pre_filter(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
