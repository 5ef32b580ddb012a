"""pack-http-routes: Flask's `current_app` used as the application in view modules
(`@current_app.route(...)`, `Api(current_app, prefix=...)`), imported from flask or spelled
`flask.current_app`: read as the one Flask app the repository creates (at module level or in a
factory), a restful `Api` on it mounted there with its prefix. Where several apps are created,
its routes are listed at the root with an `UNRESOLVED_PREFIX` saying which app is not known.
Every fixture here is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, names, prefix_unresolved, scanned_both_ways

_VIEWS = (
    "from flask import current_app\n"
    "\n"
    "@current_app.route('/about')\n"
    "def about():\n"
    "    return ''\n"
    "\n"
    "@current_app.route('/notes/<int:note_id>', methods=['PUT'])\n"
    "def note(note_id):\n"
    "    return ''\n"
)
_DOTTED_VIEWS = (
    "import flask\n"
    "\n"
    "@flask.current_app.route('/contact', methods=['POST'])\n"
    "def contact():\n"
    "    return ''\n"
)
_API = (
    "from flask import current_app\n"
    "from flask_restful import Api, Resource\n"
    "from desk.boot import desk_app\n"
    "\n"
    "class Papers(Resource):\n"
    "    def get(self):\n"
    "        return []\n"
    "\n"
    "api = Api(current_app, prefix=desk_app.config['API_ROOT'])\n"
    "api.add_resource(Papers, '/papers')\n"
)
_MODULE_APP = {
    "desk/boot.py": (
        "from flask import Flask\n"
        "desk_app = Flask(__name__)\n"
        "desk_app.config['API_ROOT'] = '/api/v3'\n"
    ),
    "desk/main.py": (
        "from desk.boot import desk_app\n"
        "with desk_app.app_context():\n"
        "    from desk import views, dotted, api\n"
    ),
    "desk/views.py": _VIEWS,
    "desk/dotted.py": _DOTTED_VIEWS,
    "desk/api.py": _API,
}
_EXPECTED = {
    "GET /about",
    "PUT /notes/{note_id}",
    "POST /contact",
    "GET /api/v3/papers",
}


def test_current_app_routes_are_the_module_level_apps() -> None:
    assert names(_MODULE_APP) == _EXPECTED
    assert finding_places(_MODULE_APP) == {}


def test_restful_api_on_current_app_is_mounted_on_the_app_with_its_prefix() -> None:
    files = {
        **_MODULE_APP,
        "desk/api.py": _API.replace("prefix=desk_app.config['API_ROOT']", "prefix='/v9'"),
    }
    assert "GET /v9/papers" in names(files)
    assert finding_places(files) == {}  # never "the Blueprint created here is mounted by nothing"


def test_current_app_routes_are_the_factorys_app() -> None:
    files = {
        "desk/boot.py": (
            "from flask import Flask\n"
            "def build():\n"
            "    made = Flask(__name__)\n"
            "    made.config['API_ROOT'] = '/api/v3'\n"
            "    with made.app_context():\n"
            "        from desk import views, dotted\n"
            "    return made\n"
        ),
        "desk/views.py": _VIEWS,
        "desk/dotted.py": _DOTTED_VIEWS,
        "desk/api.py": (
            "from flask import current_app as serving\n"
            "from flask_restx import Api, Resource\n"
            "class Papers(Resource):\n"
            "    def get(self):\n"
            "        return []\n"
            "api = Api(serving, prefix='/api/v3')\n"
            "api.add_resource(Papers, '/papers')\n"
        ),
    }
    assert names(files) == _EXPECTED
    assert finding_places(files) == {}


def test_several_apps_list_current_app_routes_at_the_root_with_a_finding() -> None:
    files = {
        "desk/views.py": _VIEWS,
        "desk/public.py": "from flask import Flask\nfront = Flask(__name__)\n",
        "desk/admin.py": "from flask import Flask\n\nback = Flask(__name__)\n",
    }
    assert names(files) == {"GET /about", "PUT /notes/{note_id}"}
    assert prefix_unresolved(files) == ["GET /about", "PUT /notes/{note_id}"]
    [finding] = [f for f in document(files)["findings"] if f["code"] == "UNRESOLVED_PREFIX"]
    assert "desk/admin.py:3" in str(finding["detail"])
    assert "desk/public.py:2" in str(finding["detail"])
    assert finding_places(files) == {
        "UNRESOLVED_PREFIX": ["desk/admin.py:3", "desk/views.py:3", "desk/views.py:7"]
    }


def test_current_app_routes_survive_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _MODULE_APP, monkeypatch)
    assert documents[0] == documents[1]
    assert all(f'"{name}"' in documents[1] for name in _EXPECTED)


def test_a_nested_function_whose_defaults_name_its_own_parameters_is_read() -> None:
    # `def link(page=page)`: the default is the enclosing function's `page`, not the parameter
    views = _VIEWS.replace(
        "def about():\n    return ''\n",
        "def about():\n"
        "    page = 1\n"
        "    def link(page=page, size=page):\n"
        "        return '?page=%d' % page\n"
        "    return link()\n",
    )
    files = {**_MODULE_APP, "desk/views.py": views}
    assert names(files) == _EXPECTED
