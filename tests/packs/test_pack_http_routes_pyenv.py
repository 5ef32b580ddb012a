"""pack-http-routes: Python prefixes and paths read from the environment with a default written
in code (blind5py, issue 34/36): `os.environ.get("X", "/api")`, `os.getenv(...)` (also
`environ`/`getenv` imported from `os` under another name), inline or returned by a project
function of no parameters whose body picks its result from the variable
(`raw = os.getenv("ROOT", ""); if not raw: return ""; return "/" + raw.strip("/")`). Each is
read as its default when the environment sets nothing, and the routes it names say so in
`attrs.configDefault`; a variable without a default stays unknown (a finding, as before).
Every fixture here is our own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    """Route name -> its attrs."""
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


# a settings helper module: a guarded function, a one-line one through an aliased import
HELPERS = (
    "import os\n"
    "from os import getenv as read_env\n"
    "\n"
    "def service_root() -> str:\n"
    "    raw = os.environ.get('SVC_ROOT', '')\n"
    "    if not raw:\n"
    "        return ''\n"
    "    return '/' + raw.strip('/')\n"
    "\n"
    "def api_version():\n"
    "    return f\"/{read_env('SVC_API_VERSION', 'v3')}\"\n"
)

FASTAPI_APP = {
    "svc/__init__.py": "",
    "svc/conf.py": HELPERS,
    "svc/app.py": (
        "import os\n"
        "from fastapi import FastAPI, APIRouter\n"
        "from svc import conf\n"
        "from svc.conf import api_version\n"
        "inner = FastAPI()\n"
        "parts = APIRouter(prefix=os.getenv('PARTS_PREFIX', '/parts'))\n"
        "@parts.get('/{pid}')\n"
        "def one(pid: int): ...\n"
        "inner.include_router(parts, prefix=api_version())\n"
        "app = FastAPI()\n"
        "app.mount(conf.service_root() + '/inner', inner)\n"
        "@app.get(conf.service_root() + '/ping')\n"
        "def ping(): ...\n"
    ),
}

FLASK_APP = {
    "webapp/__init__.py": "",
    "webapp/paths.py": (
        "from os import environ\n"
        "DEFAULT_MOUNT = 'portal'\n"
        "\n"
        "def mount_point():\n"
        "    chosen = environ.get('PORTAL_MOUNT', DEFAULT_MOUNT).strip('/')\n"
        "    if chosen == '':\n"
        "        return ''\n"
        "    return '/' + chosen\n"
    ),
    "webapp/web.py": (
        "from flask import Flask, Blueprint\n"
        "from webapp.paths import mount_point\n"
        "pages = Blueprint('pages', __name__)\n"
        "@pages.route('/about')\n"
        "def about(): ...\n"
        "def build():\n"
        "    app = Flask(__name__)\n"
        "    app.register_blueprint(pages, url_prefix=mount_point() + '/pages')\n"
        "    return app\n"
    ),
}


def test_env_defaults_inline_and_returned_by_a_guarded_helper_give_fastapi_prefixes() -> None:
    found = _routes(FASTAPI_APP)
    assert set(found) == {"GET /inner/v3/parts/{pid}", "GET /ping"}
    assert found["GET /inner/v3/parts/{pid}"]["configDefault"] == (
        "os.environ.SVC_ROOT; os.environ.SVC_API_VERSION; os.environ.PARTS_PREFIX"
    )
    assert found["GET /ping"]["configDefault"] == "os.environ.SVC_ROOT"
    assert all("prefixUnresolved" not in attrs for attrs in found.values())
    assert finding_places(FASTAPI_APP) == {}


def test_a_helper_reading_an_imported_environ_with_a_module_constant_default() -> None:
    found = _routes(FLASK_APP)
    assert set(found) == {"GET /portal/pages/about"}
    assert found["GET /portal/pages/about"]["configDefault"] == "os.environ.PORTAL_MOUNT"


def test_a_variable_without_a_default_stays_a_finding_a_helper_with_parameters_branches() -> None:
    files = {
        "api.py": (
            "import os\n"
            "from fastapi import FastAPI, APIRouter\n"
            "def rooted(extra):\n"
            "    base = os.getenv('ROOTED', '')\n"
            "    if not base:\n"
            "        return extra\n"
            "    return base + extra\n"
            "a = APIRouter(prefix=os.getenv('NO_DEFAULT'))\n"
            "@a.get('/x')\n"
            "def x(): ...\n"
            "app = FastAPI()\n"
            "app.include_router(a)\n"
            "@app.get(rooted('/y'))\n"
            "def y(): ...\n"
            "@app.get(os.environ['STRICT'] + '/z')\n"
            "def z(): ...\n"
        ),
    }
    found = _routes(files)
    assert found["GET /x"].get("prefixUnresolved") is True
    assert "GET /z" not in found
    places = finding_places(files)
    assert "api.py:8" in places["UNRESOLVED_PREFIX"]
    assert "api.py:15" in places["UNRESOLVED_ROUTE"]
    # `rooted('/y')`: its test reads the variable's default (""), so it returns its argument
    # (`py_branches`), marked as the configuration's default
    assert found["GET /y"]["configDefault"] == "os.environ.ROOTED"
    assert "api.py:13" not in places["UNRESOLVED_ROUTE"]


@pytest.mark.parametrize("files", [FASTAPI_APP, FLASK_APP], ids=["fastapi", "flask"])
def test_env_default_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]


# routes written under a module-level `if` on configuration: served when the defaults run it
CONDITIONAL = {
    "shop/__init__.py": "",
    "shop/conf.py": (
        "import os\n\n"
        "def mount_base():\n"
        "    v = os.getenv('SHOP_BASE', '')\n"
        "    if not v:\n"
        "        return ''\n"
        "    return '/' + v.strip('/')\n\n"
        "FEATURES = os.environ.get('SHOP_FEATURES', 'legacy')\n"
    ),
    "shop/main.py": (
        "import os\n"
        "from fastapi import FastAPI\n"
        "from shop.conf import mount_base, FEATURES\n"
        "app = FastAPI()\n"
        "base = mount_base()\n"
        "if base != '':\n"
        "    @app.get(base)\n"
        "    def bare(): ...\n"
        "if base:\n"
        "    @app.get(base + '/x')\n"
        "    def x(): ...\n"
        "else:\n"
        "    @app.get('/plain')\n"
        "    def plain(): ...\n"
        "if FEATURES == 'legacy':\n"
        "    @app.get('/legacy')\n"
        "    def legacy(): ...\n"
        "if not os.getenv('SHOP_BETA', ''):\n"
        "    pass\n"
        "else:\n"
        "    @app.get('/beta')\n"
        "    def beta(): ...\n"
        "if os.environ['STRICT']:\n"
        "    @app.get('/strict')\n"
        "    def strict(): ...\n"
        "if __name__ == '__main__':\n"
        "    @app.get('/script')\n"
        "    def script(): ...\n"
        "@app.get(base + '/always')\n"
        "def always(): ...\n"
    ),
}


def test_a_route_under_a_module_level_if_the_configuration_defaults_do_not_run_is_a_finding() -> (
    None
):
    found = _routes(CONDITIONAL)
    # run by the defaults, or a test nothing decides (listed as if it ran, flagged below)
    assert set(found) == {"GET /plain", "GET /legacy", "GET /strict", "GET /script", "GET /always"}
    places = finding_places(CONDITIONAL)
    assert sorted(places["UNRESOLVED_ROUTE"]) == [
        "shop/main.py:10",
        "shop/main.py:21",
        "shop/main.py:7",
    ]
    # an environment variable with no default, `__name__`: never a silent inclusion
    assert sorted(places["UNRESOLVED_PREFIX"]) == ["shop/main.py:24", "shop/main.py:27"]
    findings = document(CONDITIONAL)["findings"]
    details = [str(f["detail"]) for f in findings if f["code"] == "UNRESOLVED_ROUTE"]
    assert any("`else` branch of `if not os.getenv('SHOP_BETA', ''):`" in d for d in details)
    assert all("os.environ." in d for d in details)


def test_conditional_routes_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, CONDITIONAL, monkeypatch)
    assert documents[0] == documents[1]
    assert len(json.loads(documents[0])["findings"]) == 5


# Django: URL patterns added under `if settings.X:` where X is a flag from the environment
DJANGO_FLAGS = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'desk.settings.live')\n",
    "desk/__init__.py": "",
    "desk/settings/__init__.py": "",
    "desk/settings/shared.py": (
        "import os\n"
        "ROOT_URLCONF = 'desk.urls'\n"
        "OPEN_SCHEMA = os.environ.get('DESK_OPEN_SCHEMA', '0') == '1'\n"
        "LEGACY = '1' != os.getenv('DESK_NO_LEGACY', '0')\n"
        "DEBUG = int(os.environ.get('DEBUG', 0)) == 1\n"
    ),
    "desk/settings/live.py": "from .shared import *\n",
    "desk/views.py": (
        "def home(request): ...\n"
        "def schema(request): ...\n"
        "def old(request): ...\n"
        "def new(request): ...\n"
        "def dbg(request): ...\n"
    ),
    "desk/urls.py": (
        "from django.conf import settings\n"
        "from django.urls import path\n"
        "from desk import views\n"
        "urlpatterns = [path('', views.home)]\n"
        "if settings.OPEN_SCHEMA:\n"
        "    urlpatterns += [path('schema/', views.schema)]\n"
        "if not settings.LEGACY:\n"
        "    urlpatterns += [path('new/', views.new)]\n"
        "else:\n"
        "    urlpatterns += [path('old/', views.old)]\n"
        "if settings.DEBUG:\n"
        "    urlpatterns = [path('dbg/', views.dbg)] + urlpatterns\n"
    ),
}


def test_django_patterns_added_under_a_settings_flag_the_defaults_turn_off_are_findings() -> None:
    found = _routes(DJANGO_FLAGS)
    # `DEBUG` reads `int(...)`: not known, so its pattern is listed as before; the rebinding
    # under it leaves the patterns it keeps as they were
    assert set(found) == {"ANY /", "ANY /old/", "ANY /dbg/"}
    places = finding_places(DJANGO_FLAGS)
    assert sorted(places["UNRESOLVED_ROUTE"]) == ["desk/urls.py:6", "desk/urls.py:8"]
    details = sorted(str(f["detail"]) for f in document(DJANGO_FLAGS)["findings"])
    assert "`settings.OPEN_SCHEMA` is true" in details[1]
    assert "(os.environ.DESK_OPEN_SCHEMA) it is false" in details[1]
    assert "`settings.LEGACY` is false" in details[0]


def test_django_flag_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, DJANGO_FLAGS, monkeypatch)
    assert documents[0] == documents[1]
    assert len(json.loads(documents[0])["resources"]) == 3


def test_a_settings_module_constant_and_an_or_fallback_give_their_defaults() -> None:
    files = {
        "cfg/__init__.py": "",
        "cfg/values.py": (
            "import os\n"
            "API_PREFIX = os.getenv('API_PREFIX', '/api')\n"
            "ADMIN = os.environ.get('ADMIN_ROOT') or '/admin'\n"
            "KEPT = os.getenv('KEPT_ROOT', '/kept') or '/unused'\n"
        ),
        "web.py": (
            "import os\n"
            "from fastapi import FastAPI, APIRouter\n"
            "from cfg import values\n"
            "from cfg.values import ADMIN, KEPT\n"
            "r = APIRouter()\n"
            "@r.get('/items')\n"
            "def items(): ...\n"
            "a = APIRouter()\n"
            "@a.get('/users')\n"
            "def users(): ...\n"
            "k = APIRouter()\n"
            "@k.get('/k')\n"
            "def kept(): ...\n"
            "app = FastAPI()\n"
            "app.include_router(r, prefix=values.API_PREFIX)\n"
            "app.include_router(a, prefix=ADMIN)\n"
            "app.include_router(k, prefix=KEPT)\n"
            "@app.get(os.environ.get('HEALTH_PATH', '') or '/health')\n"
            "def health(): ...\n"
            "@app.get(os.environ.get('PING_PATH', os.sep) or '/ping')\n"
            "def ping(): ...\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /api/items", "GET /admin/users", "GET /kept/k", "GET /health"}
    assert found["GET /admin/users"]["configDefault"] == "os.environ.ADMIN_ROOT"
    assert found["GET /health"]["configDefault"] == "os.environ.HEALTH_PATH"
    # a default computed out of sight: which side of the `or` wins is not known
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["web.py:20"]
