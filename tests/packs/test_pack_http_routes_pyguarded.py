"""Routers and routes registered under an `if` inside the project's own functions (an app
factory's `if config.X: app.register_blueprint(bp)`, `include_router` in an `else`).

The configuration's defaults decide such a test where it reads them (an environment read
with a default, a module constant): a branch they do not run is not listed, with a finding
where the registration is written. A test nothing in the scanned files decides (an object
made at run time, a parameter) is not guessed either way: what it registers is listed as if
it ran, each route flagged (`attrs.prefixUnresolved`) and an `UNRESOLVED_PREFIX` finding at
the registration, never a silent inclusion.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, prefix_unresolved, scanned_both_ways

# a Flask factory: one blueprint behind an empty-by-default secret, one behind a flag on by
# default, one (and a route of the factory's own) behind an attribute of its argument
FACTORY_GUARDS = {
    "kiosk/__init__.py": "",
    "kiosk/conf.py": (
        "import os\n"
        "\n"
        "OPS_SECRET = os.environ.get('KIOSK_OPS_SECRET', '')\n"
        "SHOW_LABS = os.getenv('KIOSK_LABS', 'on')\n"
    ),
    "kiosk/ops.py": (
        "from flask import Blueprint\n"
        "\n"
        "panel = Blueprint('panel', __name__, url_prefix='/ops')\n"
        "\n"
        "@panel.route('/health-check')\n"
        "def health(): ...\n"
    ),
    "kiosk/labs.py": (
        "from flask import Blueprint\n"
        "\n"
        "lab = Blueprint('lab', __name__, url_prefix='/labs')\n"
        "\n"
        "@lab.route('/try', methods=['POST'])\n"
        "def attempt(): ...\n"
    ),
    "kiosk/tools.py": (
        "from flask import Blueprint\n"
        "\n"
        "toolbox = Blueprint('toolbox', __name__)\n"
        "\n"
        "@toolbox.route('/tools/reset')\n"
        "def reset(): ...\n"
    ),
    "kiosk/main.py": (
        "from flask import Flask\n"
        "\n"
        "from kiosk import conf as knobs\n"
        "from kiosk.labs import lab as labs_bp\n"
        "from kiosk.ops import panel\n"
        "from kiosk.tools import toolbox\n"
        "\n"
        "\n"
        "def make_app(runtime):\n"
        "    app = Flask(__name__)\n"
        "\n"
        "    @app.route('/')\n"
        "    def home(): ...\n"
        "\n"
        "    if knobs.OPS_SECRET:\n"
        "        app.register_blueprint(panel)\n"
        "    if knobs.SHOW_LABS:\n"
        "        app.register_blueprint(labs_bp)\n"
        "    if runtime.sandbox_mode:\n"
        "        app.register_blueprint(toolbox)\n"
        "\n"
        "        @app.route('/sandbox/echo')\n"
        "        def echo(): ...\n"
        "    return app\n"
    ),
}

# FastAPI: the router of an `else` branch the defaults run, one of an `if` they do not, and
# the same one again behind a value the caller passes (listed there, flagged)
ELSE_BRANCH = {
    "svc/__init__.py": "",
    "svc/settings.py": (
        "import os\n"
        "\n"
        "QUIET = os.environ.get('SVC_QUIET', '')\n"
        "LEGACY = os.environ.get('SVC_LEGACY', '') == 'yes'\n"
    ),
    "svc/routes/__init__.py": "",
    "svc/routes/stats.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "router = APIRouter()\n"
        "\n"
        "@router.get('/daily')\n"
        "async def daily(): ...\n"
    ),
    "svc/routes/old.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "legacy_router = APIRouter(prefix='/v0')\n"
        "\n"
        "@legacy_router.delete('/purge')\n"
        "async def purge(): ...\n"
    ),
    "svc/api.py": (
        "from fastapi import FastAPI\n"
        "\n"
        "import svc.settings as cfg\n"
        "from svc.routes import old, stats\n"
        "\n"
        "\n"
        "def assemble(options: dict) -> FastAPI:\n"
        "    api = FastAPI()\n"
        "    if cfg.QUIET:\n"
        "        pass\n"
        "    else:\n"
        "        api.include_router(stats.router, prefix='/stats')\n"
        "    if cfg.LEGACY:\n"
        "        api.include_router(old.legacy_router)\n"
        "    if options.get('mirror'):\n"
        "        api.include_router(old.legacy_router, prefix='/mirror')\n"
        "    return api\n"
        "\n"
        "\n"
        "application = assemble({})\n"
    ),
}


def _names(files: dict[str, str]) -> set[str]:
    return {str(r["name"]) for r in document(files)["resources"]}


def test_a_blueprint_the_defaults_leave_out_is_not_listed_and_says_so() -> None:
    assert _names(FACTORY_GUARDS) == {
        "GET /",
        "POST /labs/try",
        "GET /tools/reset",
        "GET /sandbox/echo",
    }
    places = finding_places(FACTORY_GUARDS)
    assert "kiosk/main.py:16" in places["UNRESOLVED_ROUTE"]


def test_a_registration_behind_a_test_nothing_decides_is_flagged_never_silent() -> None:
    assert prefix_unresolved(FACTORY_GUARDS) == ["GET /sandbox/echo", "GET /tools/reset"]
    places = finding_places(FACTORY_GUARDS)
    assert {"kiosk/main.py:20", "kiosk/main.py:22"} <= set(places["UNRESOLVED_PREFIX"])


def test_the_else_branch_the_defaults_run_is_served_plainly() -> None:
    assert _names(ELSE_BRANCH) == {"GET /stats/daily", "DELETE /mirror/v0/purge"}
    assert prefix_unresolved(ELSE_BRANCH) == ["DELETE /mirror/v0/purge"]
    places = finding_places(ELSE_BRANCH)
    assert "svc/api.py:14" in places["UNRESOLVED_ROUTE"]
    assert "svc/api.py:16" in places["UNRESOLVED_PREFIX"]


@pytest.mark.parametrize("files", [FACTORY_GUARDS, ELSE_BRANCH], ids=["factory", "else"])
def test_these_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
