"""A path helper of the project's that returns one of two strings by a test on its argument's
ends, written as the conditional older Python spells (`test and a or b`): followed by the
evaluator with the arguments bound, as `a if test else b` is. `x.endswith(...)` and
`x.startswith(...)` (a tuple of affixes, after `lower()`-like folds) are tests the linker
decides on a string it knows (a literal, a Flask config key the project sets); `test and a
or b` is the conditional only where `a` is a string never empty (else Python may give `b`
when the test holds): otherwise, and where the tested string is not known, the route is a
finding at its place, never a wrong path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import finding_places, placed, scanned_both_ways

A_SUFFIX_HELPER_ON_CONFIGURED_URLS: dict[str, str] = {
    "vault/urls.py": (
        "def suffixed(url, suffix):\n"
        "    '''One slash between a URL and what follows it.'''\n"
        "    return url.endswith('/') and ('%s/' % suffix) or ('/%s' % suffix)\n"
        "\n"
        "def era(path):\n"
        "    return path.strip().upper().startswith(('/V1', '/V2')) and '/legacy' or '/current'\n"
        "\n"
        "def slashed(path):\n"
        "    return path.endswith('/') and path or path + '/'\n"
    ),
    "vault/settings.py": (
        "class Defaults:\n    RECOVER_URL = '/recover/'\n    UNLOCK_URL = '/unlock'\n"
    ),
    "vault/views.py": (
        "import os\n"
        "from flask import Blueprint\n"
        "from vault.urls import era, slashed, suffixed\n"
        "\n"
        "def recover(token): ...\n"
        "def unlock(token): ...\n"
        "def listing(): ...\n"
        "\n"
        "def build(app):\n"
        "    bp = Blueprint('vault', __name__)\n"
        "    recover_url = app.config['RECOVER_URL']\n"
        "    bp.route(recover_url + suffixed(recover_url, '<token>'), methods=['POST'])(recover)\n"
        "    bp.route(\n"
        "        app.config['UNLOCK_URL'] + suffixed(app.config['UNLOCK_URL'], '<token>')\n"
        "    )(unlock)\n"
        "    bp.route('/v2/items' + era('/v2/items'))(listing)\n"
        "    bp.route('/items' + era(' /items'), endpoint='now')(listing)\n"
        "    bp.route(slashed('/boxes'), endpoint='boxes')(listing)\n"
        "    bp.route(suffixed(os.environ['BASE_URL'], 'x'), endpoint='based')(listing)\n"
        "    return bp\n"
    ),
    "vault/app.py": (
        "from flask import Flask\n"
        "from vault.settings import Defaults\n"
        "from vault.views import build\n"
        "\n"
        "def create():\n"
        "    app = Flask(__name__)\n"
        "    app.config.from_object(Defaults)\n"
        "    app.register_blueprint(build(app))\n"
        "    return app\n"
    ),
}


def test_a_helper_choosing_by_its_arguments_ends_is_followed_with_them_bound() -> None:
    files = A_SUFFIX_HELPER_ON_CONFIGURED_URLS
    assert placed(files) == {
        "POST /recover/{token}/": "vault/views.py:12 flask",
        "GET /unlock/{token}": "vault/views.py:13 flask",
        "GET /v2/items/legacy": "vault/views.py:16 flask",
        "GET /items/current": "vault/views.py:17 flask",
    }
    # `path and ...` may be empty where the test holds: not read as the conditional; a URL
    # from the environment: which end it has is not known
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["vault/views.py:18", "vault/views.py:19"]}


def test_the_prefilter_parses_every_file_the_helper_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, A_SUFFIX_HELPER_ON_CONFIGURED_URLS, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
