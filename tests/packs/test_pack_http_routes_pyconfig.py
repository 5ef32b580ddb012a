"""pack-http-routes: Python prefixes read through a configuration library's default (blind 12a):
python-decouple's `config("X", default="sub", cast=int)` (imported under any name, as
`decouple.config`, or of an `AutoConfig()` instance), django-environ's `env("X", default=...)`
and `env.str("X", "d")` of an `environ.Env()`, environs' `env.str("X", "d")` of an `Env()`;
str methods with literal arguments on the result (`.strip("/")`, `.lower()`) are applied to the
default. Each is read as its default when the environment sets nothing, the routes it names
saying so in `attrs.configDefault`; a variable without a default, with `default=None`, or cast
in a way not followed stays unknown (a finding at the prefix, as before). Every fixture here
is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    """Route name -> its attrs."""
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


# decouple: a settings package read from two routing modules, one through a module alias
DECOUPLE_APP = {
    "vault/__init__.py": "",
    "vault/core/__init__.py": "",
    "vault/core/knobs.py": (
        "import decouple\n"
        "from decouple import config as setting, AutoConfig\n"
        "from decouple import Csv\n"
        "\n"
        "local = AutoConfig(search_path='/etc/vault')\n"
        "FEED_PATH = setting('VAULT_FEED_PATH', default='/feeds/').strip('/')\n"
        "API_GEN = setting('VAULT_API_GEN', cast=int, default='2')\n"
        "PANEL = decouple.config('VAULT_PANEL', default='Panel').lower()\n"
        "TOOLS = local('VAULT_TOOLS', 'tools')\n"
        "SECRET_ROOT = setting('VAULT_SECRET_ROOT')\n"
        "NOTHING = setting('VAULT_NOTHING', default=None)\n"
        "LISTED = setting('VAULT_LISTED', default='a,b', cast=Csv())\n"
    ),
    "vault/web/__init__.py": "",
    "vault/web/feeds.py": (
        "from fastapi import APIRouter\n"
        "from vault.core.knobs import FEED_PATH, API_GEN\n"
        "feeds = APIRouter(prefix=f'/{FEED_PATH}')\n"
        "@feeds.get('/{slug}/rss')\n"
        "async def rss(slug: str): ...\n"
        "versioned = APIRouter(prefix=f'/v{API_GEN}')\n"
        "@versioned.post('/items')\n"
        "async def add_item(): ...\n"
    ),
    "vault/web/main.py": (
        "from fastapi import FastAPI, APIRouter\n"
        "from vault.core import knobs as k\n"
        "from vault.web import feeds\n"
        "side = APIRouter()\n"
        "@side.get('/state')\n"
        "def state(): ...\n"
        "hidden = APIRouter()\n"
        "@hidden.get('/keys')\n"
        "def keys(): ...\n"
        "empty = APIRouter()\n"
        "@empty.get('/none')\n"
        "def none(): ...\n"
        "listed = APIRouter()\n"
        "@listed.get('/many')\n"
        "def many(): ...\n"
        "server = FastAPI()\n"
        "server.include_router(feeds.feeds)\n"
        "server.include_router(feeds.versioned)\n"
        "server.include_router(side, prefix='/' + k.PANEL + '/' + k.TOOLS)\n"
        "server.include_router(hidden, prefix=k.SECRET_ROOT)\n"
        "server.include_router(empty, prefix=k.NOTHING)\n"
        "server.include_router(listed, prefix=k.LISTED)\n"
    ),
}

# django-environ's and environs' readers in one Flask application
ENV_READERS_APP = {
    "shelf/__init__.py": "",
    "shelf/conf.py": (
        "import environ\n"
        "from environs import Env as EnvReader\n"
        "env = environ.Env(DEBUG=(bool, False))\n"
        "environ.Env.read_env()\n"
        "reader = EnvReader()\n"
        "reader.read_env()\n"
        "BOOKS_AT = env.str('SHELF_BOOKS', default='/books/').rstrip('/')\n"
        "AUTHORS_AT = env('SHELF_AUTHORS', default='/Authors').lower()\n"
        "DOCS_AT = reader.str('SHELF_DOCS', '/manual')\n"
        "HOOKS_AT = reader('SHELF_HOOKS', '/hooks')\n"
        "PORT = env.int('SHELF_PORT', default=8080)\n"
        "STRICT_AT = env('SHELF_STRICT')\n"
    ),
    "shelf/views.py": (
        "from flask import Blueprint\n"
        "books = Blueprint('books', __name__)\n"
        "@books.route('/<int:bid>')\n"
        "def book(bid): ...\n"
        "authors = Blueprint('authors', __name__)\n"
        "@authors.route('/list')\n"
        "def authors_list(): ...\n"
        "docs = Blueprint('docs', __name__)\n"
        "@docs.route('/index')\n"
        "def docs_index(): ...\n"
        "hooks = Blueprint('hooks', __name__)\n"
        "@hooks.route('/in', methods=['POST'])\n"
        "def hook_in(): ...\n"
        "strict = Blueprint('strict', __name__)\n"
        "@strict.route('/only')\n"
        "def only(): ...\n"
    ),
    "shelf/factory.py": (
        "from flask import Flask\n"
        "from shelf import conf\n"
        "from shelf.views import books, authors, docs, hooks, strict\n"
        "def create_app():\n"
        "    app = Flask(__name__)\n"
        "    app.register_blueprint(books, url_prefix=conf.BOOKS_AT)\n"
        "    app.register_blueprint(authors, url_prefix=conf.AUTHORS_AT)\n"
        "    app.register_blueprint(docs, url_prefix=f'{conf.DOCS_AT}/{conf.PORT}')\n"
        "    app.register_blueprint(hooks, url_prefix=conf.HOOKS_AT)\n"
        "    app.register_blueprint(strict, url_prefix=conf.STRICT_AT)\n"
        "    return app\n"
    ),
}


def test_decouple_defaults_cast_and_str_methods_give_fastapi_prefixes() -> None:
    found = _routes(DECOUPLE_APP)
    assert found["GET /feeds/{slug}/rss"]["configDefault"] == "decouple VAULT_FEED_PATH"
    assert found["POST /v2/items"]["configDefault"] == "decouple VAULT_API_GEN"
    assert found["GET /panel/tools/state"]["configDefault"] == (
        "decouple VAULT_PANEL; decouple VAULT_TOOLS"
    )
    for name in ("GET /feeds/{slug}/rss", "POST /v2/items", "GET /panel/tools/state"):
        assert "prefixUnresolved" not in found[name]


def test_decouple_without_a_default_or_with_an_unfollowed_cast_stays_a_finding() -> None:
    found = _routes(DECOUPLE_APP)
    for name in ("GET /keys", "GET /none", "GET /many"):
        assert found[name].get("prefixUnresolved") is True
        assert "configDefault" not in found[name]
    places = finding_places(DECOUPLE_APP)["UNRESOLVED_PREFIX"]
    assert {"vault/web/main.py:20", "vault/web/main.py:21", "vault/web/main.py:22"} <= set(places)


def test_django_environ_and_environs_readers_give_flask_prefixes() -> None:
    found = _routes(ENV_READERS_APP)
    assert found["GET /books/{bid}"]["configDefault"] == "django-environ SHELF_BOOKS"
    assert found["GET /authors/list"]["configDefault"] == "django-environ SHELF_AUTHORS"
    assert found["GET /manual/8080/index"]["configDefault"] == (
        "environs SHELF_DOCS; django-environ SHELF_PORT"
    )
    assert found["POST /hooks/in"]["configDefault"] == "environs SHELF_HOOKS"
    assert found["GET /only"].get("prefixUnresolved") is True
    assert "shelf/factory.py:10" in finding_places(ENV_READERS_APP)["UNRESOLVED_PREFIX"]


@pytest.mark.parametrize("files", [DECOUPLE_APP, ENV_READERS_APP], ids=["decouple", "environ"])
def test_config_library_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
