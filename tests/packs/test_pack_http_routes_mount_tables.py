"""pack-http-routes on routers mounted in a loop over a table (issue 34 item 2): the router and
its prefix taken from each item, by tuple unpacking (`for prefix, r in ROUTERS:`), by index
(`entry[0]`) or by a dict's string key (`spec["router"]`); the table a literal in the same file
or imported (by name, under an alias, or as a module's attribute), for FastAPI's
`include_router(r, prefix=...)` and Flask's `register_blueprint(bp, url_prefix=...)` alike. A
table the scan cannot read, or an item without the element used, is a finding at the loop's
call: never dropped. The fixtures are written for this file; their routes are what FastAPI
0.115 / Flask 3 serve for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways

KIT_FASTAPI: dict[str, str] = {
    "kit/__init__.py": "",
    "kit/api/__init__.py": "",
    "kit/api/people.py": (
        "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n"
        "@router.get('/list')\nasync def listing():\n    return []\n"
    ),
    "kit/api/items.py": (
        "from fastapi import APIRouter\n\nitems = APIRouter(prefix='/items')\n\n"
        "@items.post('/{iid}')\nasync def make(iid: int):\n    return 1\n"
    ),
    "kit/api/deep.py": (
        "from fastapi import APIRouter\n\nleaf = APIRouter(prefix='/leaf')\n\n"
        "@leaf.delete('/x')\nasync def drop():\n    return 1\n\n"
        "mid = APIRouter(prefix='/mid')\nmid.include_router(leaf)\n"
    ),
    "kit/catalog.py": (
        "from kit.api import people, items as it\nfrom kit.api.deep import mid\n\n"
        "MOUNTED = [\n    ('/people', people.router),\n    ('/stock', it.items),\n]\n"
        "urlpatterns = [\n    {'Mount': mid, 'at': '/outer'},\n    {'at': '/p2', 'Mount': people.router},\n"
        "    {'at': '/nothing'},\n]\n"
    ),
    "kit/main.py": (
        "from fastapi import FastAPI\n"  # 1
        "from kit import catalog as cat\n"
        "from kit.catalog import MOUNTED as TABLE\n"
        "from kit.api import people\n"
        "\n"  # 5
        "app = FastAPI()\n"
        "for at, sub in TABLE:\n"
        "    app.include_router(sub, prefix='/v1' + at)\n"
        "for spec in cat.urlpatterns:\n"
        "    app.include_router(spec['Mount'], prefix=spec['at'])\n"  # 10
        "LOCAL = (('/here', people.router),)\n"
        "for at, sub in LOCAL:\n"
        "    app.include_router(sub, prefix=at)\n"
        "def listed():\n"
        "    return []\n"  # 15
        "for at, sub in listed():\n"
        "    app.include_router(sub, prefix=at)\n"
    ),
}

SHOP_FLASK: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/views/__init__.py": "",
    "shop/views/cart.py": (
        "from flask import Blueprint\n\ncart_bp = Blueprint('cart', __name__, url_prefix='/own')\n\n"
        "@cart_bp.route('/show')\ndef show():\n    return ''\n"
    ),
    "shop/views/acct.py": (
        "from flask import Blueprint\n\nacct = Blueprint('acct', __name__)\n\n"
        "@acct.route('/me', methods=['POST'])\ndef me():\n    return ''\n"
    ),
    "shop/wiring.py": (
        "from shop.views.cart import cart_bp as basket\nfrom shop.views import acct\n\n"
        "BLUEPRINTS = ((basket, '/cart'), (acct.acct, '/account'))\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"  # 1
        "from shop import wiring\n"
        "from shop.views.acct import acct\n"
        "\n"
        "def create():\n"  # 5
        "    app = Flask(__name__)\n"
        "    for bp, at in wiring.BLUEPRINTS:\n"
        "        app.register_blueprint(bp, url_prefix=at)\n"
        "    for entry in wiring.BLUEPRINTS:\n"
        "        app.register_blueprint(entry[0], url_prefix='/again' + entry[1])\n"  # 10
        "    for spec in SAME:\n"
        "        app.register_blueprint(spec['bp'], url_prefix=spec['at'])\n"
        "    for spec in SAME:\n"
        "        app.register_blueprint(spec['nope'])\n"
        "    return app\n"  # 15
        "\n"
        "SAME = [{'bp': acct, 'at': '/local'}]\n"
    ),
}


WIRED_BY_HELPERS: dict[str, str] = {
    "hub/__init__.py": "",
    "hub/parts.py": (
        "from flask import Blueprint\n\n"
        "alpha = Blueprint('alpha', __name__)\nbeta = Blueprint('beta', __name__, url_prefix='/b')\n\n"
        "@alpha.route('/a1')\ndef a1():\n    return ''\n\n"
        "@beta.route('/b1', methods=['PUT'])\ndef b1():\n    return ''\n"
    ),
    "hub/setup.py": (
        "def attach_pairs(app, pairs):\n"  # 1
        "    for where, bp in pairs:\n"
        "        app.register_blueprint(bp, url_prefix=where)\n"
        "\n"
        "def attach_specs(app, specs):\n"  # 5
        "    for s in specs:\n"
        "        app.register_blueprint(s['bp'], url_prefix='/s' + s['at'])\n"
    ),
    "hub/app.py": (
        "from flask import Flask\n"  # 1
        "from hub.parts import alpha, beta\n"
        "from hub.setup import attach_pairs, attach_specs\n"
        "\n"
        "def loaded():\n"  # 5
        "    return []\n"
        "\n"
        "app = Flask(__name__)\n"
        "attach_pairs(app, [('/p', alpha), ('/q', beta)])\n"
        "attach_specs(app, ({'bp': beta, 'at': '/x'},))\n"  # 10
        "attach_specs(app, loaded())\n"
    ),
}


MOUNTED_BY_DICT_ITEMS: dict[str, str] = {
    "svc/__init__.py": "",
    "svc/options.py": (
        "from pydantic_settings import BaseSettings\n\n"
        "class Options(BaseSettings):\n    extras_at: str = '/addons'\n\noptions = Options()\n"
    ),
    "svc/addons/__init__.py": (
        "from svc.addons.quote.web import site as quote_site\n"
        "from svc.addons import weather\n\n"
        "# each sub-app under its key, joined onto the configured root\n"
        "HOSTED = {\n    '/quote': quote_site,\n    '/weather': weather.web.site,\n}\n"
        "SPARE = {'/q2': quote_site}\n"
    ),
    "svc/addons/quote/__init__.py": "",
    "svc/addons/quote/web.py": (
        "from fastapi import FastAPI\n\nsite = FastAPI()\n\n"
        "@site.get('/manifest.json')\nasync def manifest():\n    return {}\n"
    ),
    "svc/addons/weather/__init__.py": "from svc.addons.weather import web\n",
    "svc/addons/weather/web.py": (
        "import fastapi\n\nsite = fastapi.FastAPI()\n\n"
        "@site.post('/forecast/')\nasync def forecast():\n    return {}\n"
    ),
    "svc/server.py": (
        "from fastapi import FastAPI\n"  # 1
        "from svc import addons as pkg\n"
        "from svc.addons import SPARE\n"
        "from svc.options import options\n"
        "\n"  # 5
        "server = FastAPI()\n"
        "for mount_at, sub_app in pkg.HOSTED.items():\n"
        "    server.mount(path=options.extras_at + mount_at, app=sub_app)\n"
        "for key, value in SPARE.items():\n"
        "    server.mount(key, value)\n"  # 10
        "def hosted():\n"
        "    return pkg.HOSTED\n"
        "for mount_at, sub_app in hosted().items():\n"
        "    server.mount('/again' + mount_at, sub_app)\n"
    ),
}


WHOLE_ITEMS: dict[str, str] = {
    "crm/__init__.py": "",
    "crm/pages/__init__.py": "",
    "crm/pages/leads.py": (
        "from flask import Blueprint\n\nleads = Blueprint('leads', __name__, url_prefix='/leads')\n\n"
        "@leads.route('/open')\ndef open_leads():\n    return ''\n"
    ),
    "crm/pages/notes.py": (
        "import flask\n\nnotes = flask.Blueprint('notes', __name__)\n\n"
        "@notes.route('/note/<int:n>', methods=['PATCH'])\ndef edit(n):\n    return ''\n"
    ),
    "crm/registry.py": (
        "from crm.pages.leads import leads\nfrom crm.pages import notes as notes_mod\n\n"
        "ENABLED = (leads, notes_mod.notes)\nBY_NAME = {'leads': leads, 'notes': notes_mod.notes}\n"
        "LATER = [bp for bp in ENABLED]\n"
    ),
    "crm/web.py": (
        "from flask import Flask\n"  # 1
        "from crm import registry\n"
        "from crm.registry import BY_NAME as named\n"
        "\n"
        "def make():\n"  # 5
        "    web = Flask(__name__)\n"
        "    for blueprint in registry.ENABLED:\n"
        "        web.register_blueprint(blueprint)\n"
        "    for each in named.values():\n"
        "        web.register_blueprint(each, url_prefix='/by-name')\n"  # 10
        "    for bp in registry.unknown_list:\n"
        "        web.register_blueprint(bp, url_prefix='/lost')\n"
        "    return web\n"
    ),
}


def _served(files: dict[str, str]) -> set[str]:
    """Each route as `name file:line`, once per mount that serves it."""
    return {
        f"{r['name']} {r['location']['path']}:{r['location']['line']}"
        for r in document(files)["resources"]
    }


def test_fastapi_routers_mounted_over_tables_of_tuples_and_dicts() -> None:
    """Tuple items unpacked (an imported table under an alias, a literal of the same file),
    dict items read by key (a module's attribute, named `urlpatterns` as Django's URLconfs
    are: a list of dicts is none, so no Django finding), the prefix joined onto, and a router
    that mounts another (three prefixes); an item without the key, and a table a call
    returns, are findings at the loop's call."""
    assert _served(KIT_FASTAPI) == {
        "GET /v1/people/list kit/api/people.py:5",
        "POST /v1/stock/items/{iid} kit/api/items.py:5",
        "DELETE /outer/mid/leaf/x kit/api/deep.py:5",
        "GET /p2/list kit/api/people.py:5",
        "GET /here/list kit/api/people.py:5",
    }
    assert finding_places(KIT_FASTAPI) == {
        "UNRESOLVED_ROUTER": ["kit/main.py:10", "kit/main.py:17"]
    }


def test_flask_blueprints_registered_over_tables_by_index_and_by_key() -> None:
    """`url_prefix=` from each item replaces the blueprint's own; items read by unpacking, by
    index and by key (a literal of the same file defined after the function); a key no item
    has is a finding at the call."""
    assert _served(SHOP_FLASK) == {
        "GET /cart/show shop/views/cart.py:5",
        "POST /account/me shop/views/acct.py:5",
        "GET /again/cart/show shop/views/cart.py:5",
        "POST /again/account/me shop/views/acct.py:5",
        "POST /local/me shop/views/acct.py:5",
    }
    assert finding_places(SHOP_FLASK) == {"UNRESOLVED_ROUTER": ["shop/app.py:14"]}


def test_mounts_over_a_helpers_list_parameter_are_one_per_item_each_call_passes() -> None:
    """`for where, bp in pairs:` and `s["bp"]` inside project helpers: each item of the list
    each call passes; a list the scan cannot read (a call's result) is a finding at the
    helper's mount, as any mount of a helper given what is not known: never dropped."""
    assert _served(WIRED_BY_HELPERS) == {
        "GET /p/a1 hub/parts.py:6",
        "PUT /q/b1 hub/parts.py:10",
        "PUT /s/x/b1 hub/parts.py:10",
    }
    assert finding_places(WIRED_BY_HELPERS) == {"UNRESOLVED_ROUTER": ["hub/setup.py:7"]}


def test_sub_apps_mounted_over_an_imported_dicts_items_each_under_its_key() -> None:
    """`for at, sub in pkg.TABLE.items(): app.mount(path=root + at, app=sub)`: a module's
    dict (its keys the paths, its values sub-apps of other files, one through a package's
    attribute) read where it is written, the configured root joined on, and the same for a
    dict imported by name (positional arguments); a dict a call returns is a finding at the
    loop's mount."""
    assert _served(MOUNTED_BY_DICT_ITEMS) == {
        "GET /addons/quote/manifest.json svc/addons/quote/web.py:5",
        "POST /addons/weather/forecast/ svc/addons/weather/web.py:5",
        "GET /q2/manifest.json svc/addons/quote/web.py:5",
    }
    assert finding_places(MOUNTED_BY_DICT_ITEMS) == {"UNRESOLVED_ROUTER": ["svc/server.py:14"]}


def test_blueprints_registered_over_an_imported_tables_items_used_whole() -> None:
    """`for bp in registry.ENABLED: app.register_blueprint(bp)` and `for bp in
    named.values():` (a dict imported under an alias): each item as written in the table's
    module, the blueprint's own prefix kept or replaced by `url_prefix=`; a table no scanned
    module binds is a finding at the loop's call (its blueprints are mounted elsewhere)."""
    assert _served(WHOLE_ITEMS) == {
        "GET /leads/open crm/pages/leads.py:5",
        "PATCH /note/{n} crm/pages/notes.py:5",
        "GET /by-name/open crm/pages/leads.py:5",
        "PATCH /by-name/note/{n} crm/pages/notes.py:5",
    }
    assert finding_places(WHOLE_ITEMS) == {"UNRESOLVED_ROUTER": ["crm/web.py:12"]}


def test_the_prefilter_scan_of_mount_tables_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = (KIT_FASTAPI, SHOP_FLASK, WIRED_BY_HELPERS, MOUNTED_BY_DICT_ITEMS, WHOLE_ITEMS)
    for number, files in enumerate(tables):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files
