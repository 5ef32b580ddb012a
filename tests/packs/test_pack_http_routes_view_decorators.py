"""pack-http-routes on library view decorators that add methods to the route above them
(`ViewDecorator` records): flask-cors's `@cross_origin()` written below `@bp.route(...)` sets
the view's `required_methods` to hold OPTIONS and turns `provide_automatic_options` off, so
Flask serves OPTIONS through the view as one of the rule's own methods (as `url_map` shows it,
what the truths list); above the route decorator it runs after the route is made and changes
nothing; `automatic_options=False` turns it off; a switch the scan cannot read leaves the
route's methods not known (a finding at the route). The fixture is written for this file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways

CORS_VIEWS: dict[str, str] = {
    "portal/__init__.py": "",
    "portal/switches.py": "import os\n\nPREFLIGHT = os.environ.get('PREFLIGHT') == '1'\n",
    "portal/grants.py": (
        "import flask_cors\n"  # 1
        "from flask import Blueprint\n"
        "from flask_cors import cross_origin as allow_origins\n"
        "from portal.switches import PREFLIGHT\n"
        "\n"  # 5
        "grants = Blueprint('grants', __name__, url_prefix='/grants')\n"
        "\n"
        "@grants.route('/exchange', methods=['PUT', 'GET'])\n"
        "@allow_origins()\n"
        "def exchange():\n"  # 10
        "    return ''\n"
        "\n"
        "@grants.route('/profile')\n"
        "@flask_cors.cross_origin(origins=['https://a.example'], supports_credentials=True)\n"
        "def profile():\n"  # 15
        "    return ''\n"
        "\n"
        "@allow_origins()\n"
        "@grants.route('/late')\n"
        "def late():\n"  # 20
        "    return ''\n"
        "\n"
        "@grants.route('/quiet')\n"
        "@allow_origins(automatic_options=False)\n"
        "def quiet():\n"  # 25
        "    return ''\n"
        "\n"
        "@grants.delete('/item/<int:n>')\n"
        "@allow_origins(automatic_options=True)\n"
        "def drop(n):\n"  # 30
        "    return ''\n"
        "\n"
        "@grants.route('/switched')\n"
        "@allow_origins(automatic_options=PREFLIGHT)\n"
        "def switched():\n"  # 35
        "    return ''\n"
    ),
    "portal/factory.py": (
        "from flask import Flask\n"
        "from flask_cors.decorator import cross_origin\n"
        "from portal.grants import grants\n\n"
        "def build():\n"  # 5
        "    site = Flask(__name__)\n"
        "    site.register_blueprint(grants)\n\n"
        "    @site.route('/keys')\n"
        "    @cross_origin()\n"  # 10
        "    def keys():\n"
        "        return ''\n\n"
        "    return site\n"
    ),
}


def _named(files: dict[str, str]) -> set[str]:
    return {f"{r['name']} {r['location']['line']}" for r in document(files)["resources"]}


def test_cross_origin_below_a_route_adds_options_as_the_views_own_method() -> None:
    """Imported under an alias, through the module, from its submodule, beside written
    methods, on a verb decorator and inside an app factory; above the route, or switched
    off, no OPTIONS is listed; a computed switch is a finding at the route."""
    assert _named(CORS_VIEWS) == {
        "GET /grants/exchange 8",
        "PUT /grants/exchange 8",
        "OPTIONS /grants/exchange 8",
        "GET /grants/profile 13",
        "OPTIONS /grants/profile 13",
        "GET /grants/late 19",
        "GET /grants/quiet 23",
        "DELETE /grants/item/{n} 28",
        "OPTIONS /grants/item/{n} 28",
        "GET /keys 9",
        "OPTIONS /keys 9",
    }
    assert finding_places(CORS_VIEWS) == {"UNRESOLVED_ROUTE": ["portal/grants.py:33"]}


def test_the_prefilter_scan_of_view_decorators_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, CORS_VIEWS, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
