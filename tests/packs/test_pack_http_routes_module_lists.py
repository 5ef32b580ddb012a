"""pack-http-routes (Flask, FastAPI): blueprints registered by a loop over what a project
function returns (`for module in get_submodules(): app.register_blueprint(module)`, the
function returning a literal list of imported blueprints), and a project subclass of
`Blueprint`/`APIRouter` whose constructor makes the prefix of its own parameters
(`kwargs.setdefault("url_prefix", "/" + name)`, then `super().__init__(name, ..., **kwargs)`):
each object's prefix is what its construction passes, a `url_prefix=` given there wins, and a
prefix the constructor computes some other way stays flagged. Blind24p's pgadmin4: its
blueprints were all "mounted by nothing" (15 -> 324 of its 1,525 routes)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

MODULES: dict[str, str] = {
    "portal/utils.py": (
        "from flask import Blueprint\n"
        "\n"
        "\n"
        "class PortalModule(Blueprint):\n"
        "    def __init__(self, name, import_name, **kwargs):\n"
        "        kwargs.setdefault('url_prefix', '/' + name)\n"
        "        kwargs.setdefault('template_folder', 'templates')\n"
        "        super().__init__(name, import_name, **kwargs)\n"
    ),
    "portal/about/__init__.py": (
        "from portal.utils import PortalModule\n"
        "\n"
        "blueprint = PortalModule('about', __name__)\n"
        "\n"
        "\n"
        "@blueprint.route('/')\n"
        "def index():\n"
        "    return 'x'\n"
    ),
    "portal/help/__init__.py": (
        "from portal.utils import PortalModule\n"
        "\n"
        "blueprint = PortalModule('help', __name__, url_prefix='/manual')\n"
        "\n"
        "\n"
        "@blueprint.route('/topics', methods=['GET', 'POST'])\n"
        "def topics():\n"
        "    return 'x'\n"
    ),
    "portal/submodules.py": (
        "from .about import blueprint as AboutModule\n"
        "from .help import blueprint as HelpModule\n"
        "\n"
        "\n"
        "def get_submodules():\n"
        "    return [AboutModule, HelpModule]\n"
    ),
    "portal/__init__.py": (
        "from flask import Flask\n"
        "\n"
        "from .submodules import get_submodules\n"
        "\n"
        "\n"
        "def create_app():\n"
        "    app = Flask(__name__)\n"
        "    for module in get_submodules():\n"
        "        app.register_blueprint(module)\n"
        "    return app\n"
    ),
}


def test_blueprints_a_function_returns_and_prefixes_their_constructor_makes() -> None:
    found = document(MODULES)
    assert {str(r["name"]): r["attrs"].get("prefixUnresolved") for r in found["resources"]} == {
        "GET /about/": None,
        "GET /manual/topics": None,
        "POST /manual/topics": None,
    }
    assert found["findings"] == []


def test_a_prefix_the_constructor_computes_otherwise_is_flagged() -> None:
    files = {
        **MODULES,
        "portal/utils.py": MODULES["portal/utils.py"].replace(
            "'/' + name", "'/' + lookup_prefix(name)"
        ),
    }
    found = document(files)
    by_name = {str(r["name"]): r["attrs"] for r in found["resources"]}
    assert by_name["GET /manual/topics"].get("prefixUnresolved") is None  # given at the call
    assert by_name["GET /"]["prefixUnresolved"] is True
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_without_the_loop_nothing_mounts_them() -> None:
    files = {**MODULES, "portal/__init__.py": "from flask import Flask\napp = Flask(__name__)\n"}
    found = document(files)
    assert all(r["attrs"].get("prefixUnresolved") for r in found["resources"])


def test_an_api_router_subclass_with_a_keyword_prefix() -> None:
    files = {
        "svc/routing.py": (
            "from fastapi import APIRouter\n"
            "\n"
            "\n"
            "class Section(APIRouter):\n"
            "    def __init__(self, section, **options):\n"
            "        options['prefix'] = f'/api/{section}'\n"
            "        super().__init__(**options)\n"
        ),
        "svc/main.py": (
            "from fastapi import FastAPI\n"
            "from svc.routing import Section\n"
            "\n"
            "app = FastAPI()\n"
            "boards = Section('boards')\n"
            "\n"
            "\n"
            "@boards.get('/{board_id}')\n"
            "def board(board_id: int):\n"
            "    return board_id\n"
            "\n"
            "\n"
            "app.include_router(boards)\n"
        ),
    }
    assert {str(r["name"]) for r in document(files)["resources"]} == {"GET /api/boards/{board_id}"}


def test_pre_filtered_is_parse_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, MODULES, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /about/"' in documents[0]
