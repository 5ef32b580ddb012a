"""flask-restx and flask-restful registrations reached through the project's own `Api`
instance: made once (of the framework's class or of the project's subclass of it) and used
from other modules that import the instance, not the framework. What a name is comes from the
linker (the value the import binds, across modules, through re-exports and aliases), never
from which imports the calling file has: `api.namespace('users')` in a file that imports only
`from ledger.api import api` is a `Namespace` mounted on that `Api`; made on a value the scan
does not show, its routes are listed with a finding at the namespace; made on a value the
scan shows to be no router (an object of the project's with a method of that name), nothing.
The same holds for a framework's router class imported under another name (`from flask import
Blueprint as Section`): the import, not the spelling, says what a call of it makes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import finding_places, placed, scanned_both_ways

# -- an instance in one module, its class in another, namespaces made in others ----------------

AN_API_INSTANCE_USED_FROM_OTHER_MODULES: dict[str, str] = {
    "ledger/base.py": (
        "from flask_restx import Api\n"
        "\n"
        "class LedgerApi(Api):\n"
        "    def documented(self):\n"
        "        return self.title\n"
    ),
    "ledger/resources.py": "class Base:\n    pass\n",
    # the package re-exports what its module makes
    "ledger/api/__init__.py": "from .core import api, bp\n",
    "ledger/api/core.py": (
        "from flask import Blueprint\n"
        "from ledger.base import LedgerApi\n"
        "\n"
        "bp = Blueprint('api', __name__, url_prefix='/api/2')\n"
        "api = LedgerApi(bp)\n"
    ),
    "ledger/accounts.py": (
        "from ledger.api import api\n"
        "from ledger.resources import Base\n"
        "\n"
        "accounts = api.namespace('accounts', 'Account operations')\n"
        "\n"
        "@accounts.route('/<int:acct>/')\n"
        "class Account(Base):\n"
        "    def get(self, acct): ...\n"
        "    def put(self, acct): ...\n"
        "\n"
        "@accounts.route('/', endpoint='all_accounts')\n"
        "class Accounts(Base):\n"
        "    def get(self): ...\n"
    ),
    # an alias of the import, an alias of that, a positional `path`, an empty one (its name's)
    "ledger/entries.py": (
        "from ledger.api import api as rest\n"
        "from ledger.resources import Base\n"
        "\n"
        "registry = rest\n"
        "journal = rest.namespace('journal', 'Entries', '/entries/')\n"
        "audit = registry.namespace('audit', path='')\n"
        "\n"
        "@journal.route('/<int:n>')\n"
        "class Entry(Base):\n"
        "    def delete(self, n): ...\n"
        "\n"
        "class AuditLog(Base):\n"
        "    def get(self): ...\n"
        "\n"
        "audit.add_resource(AuditLog, '/log')\n"
    ),
    # a namespace made in a module that declares no route; its routes in another
    "ledger/spaces.py": "from ledger.api import api\n\nreports = api.namespace('reports')\n",
    "ledger/reports.py": (
        "from ledger.resources import Base\n"
        "from ledger.spaces import reports\n"
        "\n"
        "@reports.route('/monthly')\n"
        "class Monthly(Base):\n"
        "    def get(self): ...\n"
    ),
    # a function given the instance makes its namespace on the parameter
    "ledger/plugins.py": (
        "from ledger.resources import Base\n"
        "\n"
        "class Ping(Base):\n"
        "    def get(self): ...\n"
        "\n"
        "def install(target):\n"
        "    hooks = target.namespace('hooks')\n"
        "    hooks.add_resource(Ping, '/ping')\n"
    ),
    "ledger/app.py": (
        "from flask import Flask\n"
        "from ledger.api import api, bp\n"
        "from ledger.plugins import install\n"
        "\n"
        "app = Flask(__name__)\n"
        "install(api)\n"
        "app.register_blueprint(bp)\n"
    ),
}


def test_namespaces_of_the_projects_instance_imported_from_its_module() -> None:
    files = AN_API_INSTANCE_USED_FROM_OTHER_MODULES
    assert placed(files) == {
        "GET /api/2/accounts/{acct}/": "ledger/accounts.py:6 flask",
        "PUT /api/2/accounts/{acct}/": "ledger/accounts.py:6 flask",
        "GET /api/2/accounts/": "ledger/accounts.py:11 flask",
        "DELETE /api/2/entries/{n}": "ledger/entries.py:8 flask",
        "GET /api/2/audit/log": "ledger/entries.py:15 flask",
        "GET /api/2/reports/monthly": "ledger/reports.py:4 flask",
        "GET /api/2/hooks/ping": "ledger/plugins.py:8 flask",
    }
    assert finding_places(files) == {}


# -- the framework's `Namespace` class re-exported by the project, and subclassed --------------

A_NAMESPACE_CLASS_REEXPORTED_AND_SUBCLASSED: dict[str, str] = {
    "shop/compat.py": (
        "from flask_restx import Api, Namespace\n"
        "\n"
        "class TaggedNamespace(Namespace):\n"
        "    def tagged(self, tag):\n"
        "        return tag\n"
    ),
    "shop/api.py": (
        "from flask import Blueprint\n"
        "from shop.compat import Api\n"
        "\n"
        "bp = Blueprint('api', __name__, url_prefix='/api')\n"
        "api = Api(bp, prefix='/v1')\n"
    ),
    "shop/carts.py": (
        "from shop.api import api\n"
        "from shop.compat import Namespace, TaggedNamespace\n"
        "\n"
        "carts = Namespace('carts')\n"
        "items = Namespace('items', path='/cart-items')\n"
        "orders = TaggedNamespace('orders', 'Orders', '/checkout/orders')\n"
        "tags = TaggedNamespace('tags')\n"
        "\n"
        "@carts.route('/<int:cart>')\n"
        "class Cart:\n"
        "    def get(self, cart): ...\n"
        "\n"
        "@items.route('/')\n"
        "class Items:\n"
        "    def post(self): ...\n"
        "\n"
        "@orders.route('/<int:order>')\n"
        "class Order:\n"
        "    def patch(self, order): ...\n"
        "\n"
        "@tags.route('/')\n"
        "class Tags:\n"
        "    def get(self): ...\n"
        "\n"
        "for space in (carts, items, orders, tags):\n"
        "    api.add_namespace(space)\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"
        "from shop.api import bp\n"
        "\n"
        "app = Flask(__name__)\n"
        "app.register_blueprint(bp)\n"
    ),
}


def test_a_namespace_class_the_project_reexports_or_subclasses_reads_its_own_path() -> None:
    files = A_NAMESPACE_CLASS_REEXPORTED_AND_SUBCLASSED
    assert placed(files) == {
        "GET /api/v1/carts/{cart}": "shop/carts.py:9 flask",
        "POST /api/v1/cart-items/": "shop/carts.py:13 flask",
        "PATCH /api/v1/checkout/orders/{order}": "shop/carts.py:17 flask",
        "GET /api/v1/tags/": "shop/carts.py:21 flask",
    }
    assert finding_places(files) == {}


# -- made on a value the scan does not show: listed, flagged at the namespace -------------------

NAMESPACES_MADE_ON_VALUES_NOT_SHOWN: dict[str, str] = {
    # a library's object, and the project's value loaded by a computed name
    "portal/loaded.py": (
        "import importlib\n"
        "\n"
        "BACKEND = 'portal.backends.default'\n"
        "api = importlib.import_module(BACKEND).api\n"
    ),
    "portal/views.py": (
        "from vendor_gateway import gateway\n"
        "from portal.loaded import api\n"
        "\n"
        "status = gateway.namespace('status')\n"
        "people = api.namespace('people', path='/folks')\n"
        "\n"
        "@status.route('/health')\n"
        "class Health:\n"
        "    def get(self): ...\n"
        "\n"
        "@people.route('/<int:pid>')\n"
        "class Person:\n"
        "    def get(self, pid): ...\n"
    ),
}


def test_a_namespace_made_on_a_value_not_shown_is_listed_and_flagged_at_the_namespace() -> None:
    files = NAMESPACES_MADE_ON_VALUES_NOT_SHOWN
    assert placed(files) == {
        "GET /status/health": "portal/views.py:7 flask",
        "GET /folks/{pid}": "portal/views.py:11 flask",
    }
    assert finding_places(files) == {
        "UNRESOLVED_PREFIX": [
            "portal/views.py:4",
            "portal/views.py:7",
            "portal/views.py:5",
            "portal/views.py:11",
        ]
    }


# -- made on a value the scan shows to be no router: no route, no finding ----------------------

A_PROJECT_OBJECT_WITH_A_METHOD_OF_THAT_NAME: dict[str, str] = {
    "bus/core.py": (
        "class Channel:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n"
        "    def route(self, topic):\n"
        "        return lambda handler: handler\n"
        "\n"
        "class Bus:\n"
        "    def namespace(self, name):\n"
        "        return Channel(name)\n"
        "\n"
        "bus = Bus()\n"
    ),
    "bus/handlers.py": (
        "from flask_restx import Resource\n"
        "from bus.core import bus\n"
        "\n"
        "orders = bus.namespace('orders')\n"
        "\n"
        "@orders.route('created')\n"
        "class OnCreated(Resource):\n"
        "    def get(self): ...\n"
    ),
}


def test_a_method_of_that_name_on_an_object_of_the_projects_makes_no_router() -> None:
    files = A_PROJECT_OBJECT_WITH_A_METHOD_OF_THAT_NAME
    assert placed(files) == {}
    assert finding_places(files) == {}


# -- flask-restful: `add_resource` on the project's instance, imported -------------------------

A_RESTFUL_INSTANCE_IMPORTED_BY_RESOURCE_MODULES: dict[str, str] = {
    "hub/rest.py": ("from flask_restful import Api\n\nclass HubApi(Api):\n    pass\n"),
    "hub/api.py": "from hub.rest import HubApi\n\nendpoints = HubApi(prefix='/hub')\n",
    "hub/devices.py": (
        "from hub.api import endpoints as registry\n"
        "\n"
        "class Device:\n"
        "    def get(self, dev): ...\n"
        "    def delete(self, dev): ...\n"
        "\n"
        "registry.add_resource(Device, '/devices/<dev>')\n"
    ),
    "hub/app.py": (
        "from flask import Flask\n"
        "from hub.api import endpoints\n"
        "\n"
        "app = Flask(__name__)\n"
        "endpoints.init_app(app)\n"
    ),
}


def test_add_resource_on_the_projects_restful_instance_imported_under_an_alias() -> None:
    files = A_RESTFUL_INSTANCE_IMPORTED_BY_RESOURCE_MODULES
    assert placed(files) == {
        "GET /hub/devices/{dev}": "hub/devices.py:7 flask",
        "DELETE /hub/devices/{dev}": "hub/devices.py:7 flask",
    }
    assert finding_places(files) == {}


# -- a framework's router class imported under another name ----------------------------------

FRAMEWORK_CLASSES_IMPORTED_UNDER_OTHER_NAMES: dict[str, str] = {
    "webapp/pages.py": (
        "from flask import Blueprint as Section\n"
        "\n"
        "pages = Section('pages', __name__, url_prefix='/pages')\n"
        "\n"
        "@pages.route('/<slug>')\n"
        "def page(slug): ...\n"
    ),
    "webapp/rest.py": (
        "from flask import Blueprint as BP\n"
        "from flask_restx import Api as RestApi, Namespace as Space\n"
        "\n"
        "bp = BP('rest', __name__, url_prefix='/rest')\n"
        "api = RestApi(bp)\n"
        "notes = Space('notes')\n"
        "\n"
        "@notes.route('/<int:nid>')\n"
        "class Note:\n"
        "    def get(self, nid): ...\n"
        "\n"
        "api.add_namespace(notes)\n"
    ),
    "webapp/search.py": (
        "from fastapi import APIRouter as R, FastAPI as Service\n"
        "\n"
        "finder = R(prefix='/search')\n"
        "\n"
        "@finder.get('/{term}')\n"
        "def search(term: str): ...\n"
        "\n"
        "service = Service()\n"
        "service.include_router(finder)\n"
    ),
    "webapp/app.py": (
        "from flask import Flask as Site\n"
        "from webapp.pages import pages\n"
        "from webapp.rest import bp\n"
        "\n"
        "app = Site(__name__)\n"
        "app.register_blueprint(pages)\n"
        "app.register_blueprint(bp)\n"
    ),
}


def test_a_framework_class_imported_under_another_name_is_that_class() -> None:
    files = FRAMEWORK_CLASSES_IMPORTED_UNDER_OTHER_NAMES
    assert placed(files) == {
        "GET /pages/{slug}": "webapp/pages.py:5 flask",
        "GET /rest/notes/{nid}": "webapp/rest.py:8 flask",
        "GET /search/{term}": "webapp/search.py:5 fastapi",
    }
    assert finding_places(files) == {}


FIXTURES = [
    AN_API_INSTANCE_USED_FROM_OTHER_MODULES,
    A_NAMESPACE_CLASS_REEXPORTED_AND_SUBCLASSED,
    NAMESPACES_MADE_ON_VALUES_NOT_SHOWN,
    A_RESTFUL_INSTANCE_IMPORTED_BY_RESOURCE_MODULES,
    FRAMEWORK_CLASSES_IMPORTED_UNDER_OTHER_NAMES,
]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture as a repository: the pre-filtered scan equals parsing every file (a module
    that only makes a namespace, or only makes the instance, is read where the link asks)."""
    for number, files in enumerate(FIXTURES):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files
