"""pack-http-routes: a `match` statement (Python 3.10) is followed as the `if` chain it behaves
as (`packs/py_runtime.py`), by every reader that follows branches: the settings object a module
picks per environment, the prefix a case gives a blueprint, the routes a case registers. A
case the pack cannot decide (a class pattern) keeps what it registers listed, with the finding
every undecided `if` gives."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs import py_runtime  # noqa: E402
from packs.pyparse import parse_python  # noqa: E402
from routes_harness import document, finding_places, scanned_both_ways  # noqa: E402

# settings classes picked by a `match` over an environment enum whose default the pack cannot
# work out; every case's class has the same defaults, so they decide
SETTINGS = {
    "svc/settings.py": (
        "import os\n"
        "from enum import Enum\n"
        "from pydantic_settings import BaseSettings\n\n\n"
        "class Base(BaseSettings):\n"
        "    with_console: bool = False\n"
        "    mount_at: str = ''\n\n\n"
        "class Local(Base):\n    pass\n\n\n"
        "class Live(Base):\n    pass\n\n\n"
        "class Stage(str, Enum):\n    LOCAL = 'local'\n    LIVE = 'live'\n\n\n"
        "stage = Stage(os.getenv('STAGE', probe() or 'local'))\n"
        "settings: Base\n"
        "match stage:\n"
        "    case Stage.LOCAL:\n"
        "        settings = Local()\n"
        "    case Stage.LIVE | 'prod':\n"
        "        settings = Live()\n"
    ),
    "svc/web.py": (
        "from fastapi import APIRouter, FastAPI\n"
        "from svc.settings import settings\n\n"
        "app = FastAPI()\n"
        "items = APIRouter(prefix=settings.mount_at)\n\n\n"
        "@items.get('/items')\n"
        "def listed():\n    return []\n\n\n"
        "app.include_router(items)\n"
        "if settings.with_console:\n\n"
        "    @app.get('/console/{rest:path}')\n"
        "    def console(rest: str):\n        return rest\n"
    ),
}


def test_settings_picked_by_a_match_decide_a_prefix_and_a_branch() -> None:
    assert {str(r["name"]) for r in document(SETTINGS)["resources"]} == {"GET /items"}
    assert finding_places(SETTINGS) == {"UNRESOLVED_ROUTE": ["svc/web.py:16"]}  # not run


def test_cases_give_the_blueprint_prefix_and_register_routes() -> None:
    files = {
        "shop/app.py": (
            "import os\n"
            "from flask import Blueprint, Flask\n\n"
            "app = Flask(__name__)\n"
            "flavour = os.environ.get('FLAVOUR', 'eu')\n"
            "match flavour:\n"
            "    case 'us':\n"
            "        prefix = '/us'\n"
            "    case 'eu' | 'uk' if True:\n"
            "        prefix = '/europe'\n"
            "    case other:\n"
            "        prefix = '/' + other\n"
            "shop = Blueprint('shop', __name__, url_prefix=prefix)\n\n\n"
            "@shop.route('/cart')\n"
            "def cart():\n    return ''\n\n\n"
            "match flavour:\n"
            "    case 'eu':\n"
            "        @shop.route('/vat')\n"
            "        def vat():\n            return ''\n"
            "    case _:\n"
            "        @shop.route('/tax')\n"
            "        def tax():\n            return ''\n"
            "app.register_blueprint(shop)\n"
        ),
    }
    assert {str(r["name"]) for r in document(files)["resources"]} == {
        "GET /europe/cart",
        "GET /europe/vat",
    }


def test_a_case_the_pack_cannot_decide_keeps_its_routes_with_a_finding() -> None:
    files = {
        "api/main.py": (
            "from fastapi import FastAPI\n"
            "from api.conf import mode\n\n"
            "app = FastAPI()\n"
            "match mode:\n"
            "    case Mode(debug=True):\n"
            "        @app.get('/debug')\n"
            "        def debug():\n            return 1\n"
        ),
        "api/conf.py": "mode = load()\n",
    }
    assert {str(r["name"]) for r in document(files)["resources"]} == {"GET /debug"}
    assert "api/main.py:7" in finding_places(files)["UNRESOLVED_PREFIX"]


def test_the_chain_is_the_comparisons_python_makes() -> None:
    source = (
        "match x:\n"
        "    case 1 | 2:\n        a = 1\n"
        "    case None:\n        a = 2\n"
        "    case [y, z] if y:\n        a = 3\n"
        "    case rest:\n        a = rest\n"
    )
    assert ast.unparse(py_runtime.as_run(ast.parse(source))) == (
        "if x == 1 or x == 2:\n    a = 1\n"
        "elif x is None:\n    a = 2\n"
        "elif case [y, z] and y:\n    a = 3\n"
        "else:\n    rest = x\n    a = rest"
    )
    assert not any(type(n) is ast.Match for n in ast.walk(parse_python(source, "m.py")))


@pytest.mark.parametrize("files", [SETTINGS], ids=["settings"])
def test_pre_filtered_equals_parse_all(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /items"' in documents[1]
