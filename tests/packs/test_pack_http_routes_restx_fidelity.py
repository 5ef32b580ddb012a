"""flask-restx and flask-restful as they serve, not as a reader would guess.

1. A rule is appended to its router's prefix as written: flask-restx's `Api.ns_urls` is
   `ns.path + url` and `Api._complete_url` is `"".join((blueprint prefix, api prefix, url))`
   (flask-restful's too), so `@ns.route('owner/<mail>')` on the namespace `ticket` is served at
   `/ticketowner/<mail>`. Flask's own blueprints join with a `/`, and keep doing so.
2. A decorated class is registered where it is written: two classes of one name in a module,
   each under its own `@ns.route`, serve each its own methods (the name ends bound to the
   last one). Decorated functions of one name (Flask blueprints, FastAPI) likewise.

Every fixture here is our own."""

from __future__ import annotations

from routes_harness import document, located

# -- 1. a rule without a leading `/` ------------------------------------------------------------

BARE_RULES: dict[str, str] = {
    "desk/__init__.py": "",
    "desk/app.py": (
        "from flask import Flask, Blueprint\n"
        "from flask_restx import Api, Namespace, Resource\n"
        "from flask_restful import Api as PlainApi\n"
        "\n"
        "app = Flask(__name__)\n"
        "svc = Blueprint('svc', __name__, url_prefix='/svc')\n"
        "api = Api(svc)\n"
        "ticket = api.namespace('ticket')\n"
        "groups = Namespace('grp', path='/groups/')\n"
        "api.add_namespace(groups)\n"
        "\n"
        "@ticket.route('owner/<string:mail>')\n"
        "class Owner(Resource):\n"
        "    def get(self, mail): ...\n"
        "\n"
        "@ticket.route('/<int:tid>')\n"
        "class Ticket(Resource):\n"
        "    def put(self, tid): ...\n"
        "\n"
        "class Every(Resource):\n"
        "    def get(self): ...\n"
        "\n"
        "groups.add_resource(Every, 'all')\n"
        "\n"
        "legacy = PlainApi(app, prefix='/v2')\n"
        "\n"
        "class Stats(Resource):\n"
        "    def get(self): ...\n"
        "\n"
        "legacy.add_resource(Stats, 'stats', '/totals')\n"
        "\n"
        "web = Blueprint('web', __name__, url_prefix='/web')\n"
        "\n"
        "@web.route('plain')\n"
        "def plain(): ...\n"
        "\n"
        "app.register_blueprint(svc)\n"
        "app.register_blueprint(web)\n"
    ),
    # a project's subclass of `Namespace`: the framework's join, through the class
    "desk/spaces.py": (
        "from flask_restx import Namespace, Resource\n"
        "from desk.app import api\n"
        "\n"
        "class Space(Namespace):\n"
        "    pass\n"
        "\n"
        "notes = Space('notes')\n"
        "api.add_namespace(notes)\n"
        "\n"
        "@notes.route('pinned')\n"
        "class Pinned(Resource):\n"
        "    def delete(self): ...\n"
    ),
}


def test_a_rule_without_a_leading_slash_is_appended_to_the_restful_prefix_as_written() -> None:
    names = {str(r["name"]) for r in document(BARE_RULES)["resources"]}
    assert names == {
        "GET /svc/ticketowner/{mail}",
        "PUT /svc/ticket/{tid}",
        "GET /svc/groupsall",
        "GET /v2stats",
        "GET /v2/totals",
        "DELETE /svc/notespinned",
        "GET /web/plain",  # Flask's blueprint: `/`.join, as before
    }


# -- 2. one name, several decorated definitions -------------------------------------------------

REUSED_NAMES: dict[str, str] = {
    "zone/__init__.py": "",
    "zone/api.py": (
        "from flask import Flask\n"
        "from flask_restx import Api, Resource\n"
        "\n"
        "app = Flask(__name__)\n"
        "api = Api(app)\n"
        "dom = api.namespace('domain')\n"
        "\n"
        "@dom.route('/<d>')\n"
        "class Domain(Resource):\n"
        "    def get(self, d): ...\n"
        "    def patch(self, d): ...\n"
        "    def delete(self, d): ...\n"
        "\n"
        "@dom.route('/<d>/keys')\n"
        "class Domain(Resource):\n"
        "    def post(self, d): ...\n"
        "\n"
        "def install(target):\n"
        "    @target.route('/<d>/audit')\n"
        "    class Domain(Resource):\n"
        "        def put(self, d): ...\n"
        "\n"
        "install(dom)\n"
    ),
    "zone/pages.py": (
        "from flask import Blueprint\n"
        "from flask_login import login_required\n"
        "\n"
        "shop = Blueprint('shop', __name__, url_prefix='/shop')\n"
        "blog = Blueprint('blog', __name__, url_prefix='/blog')\n"
        "\n"
        "@shop.route('/', methods=['GET', 'POST'])\n"
        "@login_required\n"
        "def index(): ...\n"
        "\n"
        "@blog.route('/')\n"
        "def index(): ...\n"
    ),
    "zone/fast.py": (
        "from fastapi import FastAPI, Depends\n"
        "from zone.security import current_user\n"
        "\n"
        "service = FastAPI()\n"
        "\n"
        "@service.get('/items')\n"
        "def listing(user=Depends(current_user)): ...\n"
        "\n"
        "@service.get('/public')\n"
        "def listing(): ...\n"
    ),
    "zone/security.py": (
        "from fastapi import Depends\n"
        "from fastapi.security import OAuth2PasswordBearer\n"
        "bearer = OAuth2PasswordBearer(tokenUrl='token')\n"
        "def current_user(token: str = Depends(bearer)): ...\n"
    ),
}


def _auth(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its `auth` signal."""
    return {
        str(s["resource"]).removeprefix("route:"): str(s["value"])
        for s in document(files)["signals"]
        if s["signal"] == "auth"
    }


def test_each_decorated_class_of_a_reused_name_serves_its_own_methods() -> None:
    found = _auth(REUSED_NAMES)
    restx = {name for name in found if name.split(" ")[1].startswith("/domain")}
    assert restx == {
        "GET /domain/{d}",
        "PATCH /domain/{d}",
        "DELETE /domain/{d}",
        "POST /domain/{d}/keys",
        "PUT /domain/{d}/audit",
    }
    where = located(REUSED_NAMES)
    assert where["POST /domain/{d}/keys"] == "zone/api.py:14"
    assert where["PATCH /domain/{d}"] == "zone/api.py:8"


def test_decorated_functions_of_a_reused_name_keep_each_its_own_guard() -> None:
    found = _auth(REUSED_NAMES)
    pages = {name for name in found if name.split(" ")[1].startswith(("/shop", "/blog"))}
    assert pages == {"GET /shop/", "POST /shop/", "GET /blog/"}
    assert found["GET /shop/"] == "required"
    assert found["GET /blog/"] != "required"
    assert (found["GET /items"], found["GET /public"]) == ("required", "none")


# a hook is the def it decorates too: two `check`s, each guarding its own blueprint
HOOKS: dict[str, str] = {
    "site/__init__.py": "",
    "site/parts.py": (
        "from flask import Flask, Blueprint, abort, g\n"
        "app = Flask(__name__)\n"
        "staff = Blueprint('staff', __name__, url_prefix='/staff')\n"
        "lobby = Blueprint('lobby', __name__, url_prefix='/lobby')\n"
        "\n"
        "@staff.before_request\n"
        "def check():\n"
        "    if g.user is None:\n"
        "        abort(401)\n"
        "\n"
        "@lobby.before_request\n"
        "def check():\n"
        "    g.seen = True\n"
        "\n"
        "@staff.route('/desk')\n"
        "def desk(): ...\n"
        "\n"
        "@lobby.route('/hall')\n"
        "def hall(): ...\n"
        "\n"
        "app.register_blueprint(staff)\n"
        "app.register_blueprint(lobby)\n"
    ),
}


def test_before_request_hooks_of_a_reused_name_guard_each_its_own_blueprint() -> None:
    assert _auth(HOOKS) == {"GET /staff/desk": "required", "GET /lobby/hall": "none"}
