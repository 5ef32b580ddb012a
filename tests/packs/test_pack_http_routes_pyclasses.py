"""pack-http-routes on the Python constructs real applications register routes through (issue
34, branch pyroutes): an app made from the project's own subclass of the framework's app class
inside a factory, a module's own `init_app(app)` hook, a project's `Api` subclass whose method
wraps `add_resource` with a list of rules, blueprints imported by name in a loop, views kept in a
dict by a helper. Each fixture is adversarial code written for this file (names, nesting, files
and aliasing varied), never a repository's; each test fails if its construct goes silent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, placed


def _codes(files: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for finding in document(files)["findings"]:
        out.setdefault(str(finding["code"]), []).extend(
            f"{p['path']}:{p['line']}" for p in finding["locations"]
        )
    return out


def _unresolved_prefix(files: dict[str, str]) -> list[str]:
    return sorted(
        str(r["name"]) for r in document(files)["resources"] if r["attrs"].get("prefixUnresolved")
    )


# -- an app subclass made in a factory, routes registered by a module's `init_app` hook ------

AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK: dict[str, str] = {
    "kiosk/__init__.py": "from .assemble import assemble\n",
    "kiosk/core.py": (
        "import flask\n"
        "\n"
        "class KioskApp(flask.Flask):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        kwargs.update({'static_url_path': '/assets'})\n"
        "        super(KioskApp, self).__init__(__name__, *args, **kwargs)\n"
    ),
    "kiosk/assemble.py": (
        "from kiosk.core import KioskApp\n"
        "\n"
        "def assemble(profile=None):\n"
        "    from . import (\n"
        "        pages,\n"
        "        metrics,\n"
        "    )\n"
        "    application = KioskApp()\n"
        "    metrics.init_app(application)\n"
        "    pages.init_app(application)\n"
        "    return application\n"
    ),
    "kiosk/metrics.py": "def init_app(app):\n    app.extensions['metrics'] = True\n",
    "kiosk/pages/__init__.py": (
        "from kiosk.pages.shared import screens\n"
        "\n"
        "@screens.route('/health', methods=['GET'])\n"
        "def health():\n"
        "    return 'ok'\n"
        "\n"
        "def init_app(app):\n"
        "    from kiosk.pages import menu  # its routes register on import\n"
        "    app.register_blueprint(screens, url_prefix='/kiosk')\n"
    ),
    "kiosk/pages/shared.py": (
        "from flask import Blueprint\n\nscreens = Blueprint('screens', __name__)\n"
    ),
    "kiosk/pages/menu.py": (
        "from kiosk.pages.shared import screens\n"
        "\n"
        "@screens.route('/menu/<int:item>', methods=['GET', 'POST'])\n"
        "def menu(item):\n"
        "    return ''\n"
    ),
}


def test_an_app_subclass_in_a_factory_with_a_module_hook() -> None:
    files = AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK
    assert placed(files) == {
        "GET /kiosk/health": "kiosk/pages/__init__.py:3 flask",
        "GET /kiosk/menu/{item}": "kiosk/pages/menu.py:3 flask",
        "POST /kiosk/menu/{item}": "kiosk/pages/menu.py:3 flask",
    }
    assert _unresolved_prefix(files) == []
    assert _codes(files) == {}


A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK: dict[str, str] = {
    "relay/server.py": (
        "from fastapi import FastAPI as _Base\n"
        "\n"
        "class RelayService(_Base):\n"
        "    pass\n"
        "\n"
        "def build_service():\n"
        "    import relay.endpoints as endpoints\n"
        "    svc = RelayService(title='relay')\n"
        "    endpoints.init_app(svc)\n"
        "    return svc\n"
    ),
    "relay/endpoints.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "hops = APIRouter()\n"
        "\n"
        "@hops.get('/hops/{hop_id}')\n"
        "def hop(hop_id: int):\n"
        "    return {}\n"
        "\n"
        "def init_app(target):\n"
        "    target.include_router(hops, prefix='/v3')\n"
    ),
}


def test_a_fastapi_subclass_in_a_factory_with_a_module_hook() -> None:
    files = A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK
    assert placed(files) == {"GET /v3/hops/{hop_id}": "relay/endpoints.py:5 fastapi"}
    assert _unresolved_prefix(files) == []
    assert _codes(files) == {}


FIXTURES = [
    AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK,
    A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK,
]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture as a repository: the pre-filtered scan equals parsing every file."""
    from routes_harness import scanned_both_ways

    for number, files in enumerate(FIXTURES):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files
