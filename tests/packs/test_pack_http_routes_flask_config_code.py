"""pack-http-routes: a Flask app's `config` filled by the project's own configuration code
(`flask_mappings`): a module dict of defaults given to `from_mapping`/`update`, copied key by
key in a loop over its items, a comprehension over it reading the environment, a configuration
manager's own dict filled by its (name-mangled) methods and copied in by `init_app(app)`.
The prefix a blueprint is mounted under is then what those defaults say, marked where the
environment may say otherwise; what the code does not show stays a finding. Every fixture here
is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways

_VIEWS = {
    "desk/__init__.py": "",
    "desk/board.py": (
        "from flask import Blueprint\n"
        "board = Blueprint('board', __name__)\n"
        "@board.route('/cards')\n"
        "def cards():\n"
        "    return ''\n"
    ),
}


def _factory(*body: str, head: str = "") -> dict[str, str]:
    """`desk/factory.py`: an app made, configured by `body`, the board mounted under
    `app.config['BOARD_AT']`."""
    lines = [
        "from flask import Flask\n",
        "from desk.board import board\n",
        head,
        "def build():\n",
        "    app = Flask(__name__)\n",
        *(f"    {line}\n" for line in body),
        "    app.register_blueprint(board, url_prefix=app.config['BOARD_AT'])\n",
        "    return app\n",
    ]
    return {**_VIEWS, "desk/factory.py": "".join(lines)}


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


_DEFAULTS = "PRESETS = {'COLOR': 'blue', 'BOARD_AT': '/kanban', 'LIMIT': 3}\n"


def test_a_module_dict_given_to_from_mapping_or_update_sets_its_keys() -> None:
    for call in ("app.config.from_mapping(PRESETS)", "app.config.update(PRESETS)"):
        found = _routes(_factory(call, head=_DEFAULTS))
        assert set(found) == {"GET /kanban/cards"}, call
        assert "prefixUnresolved" not in found["GET /kanban/cards"]


def test_a_loop_over_a_module_dict_s_items_sets_each_key() -> None:
    for write in ("app.config.setdefault(name, preset)", "app.config[name] = preset"):
        body = ("for name, preset in PRESETS.items():", f"    {write}")
        found = _routes(_factory(*body, head=_DEFAULTS))
        assert set(found) == {"GET /kanban/cards"}, write
    # a setdefault after the key is set keeps the earlier value
    first = ("app.config['BOARD_AT'] = '/first'", "for k, v in PRESETS.items():")
    found = _routes(_factory(*first, "    app.config.setdefault(k, v)", head=_DEFAULTS))
    assert set(found) == {"GET /first/cards"}


def test_an_extension_s_comprehension_reads_each_variable_s_default() -> None:
    extension = {
        "desk/settings.py": (
            "import os\n"
            "PRESETS = {'BOARD_AT': '/kanban', 'THEME': 'dark'}\n"
            "class Settings:\n"
            "    def init_app(self, app):\n"
            "        app.config.update({k: os.environ.get(k, v) for k, v in PRESETS.items()})\n"
        ),
    }
    files = {
        **extension,
        **_factory("Settings().init_app(app)", head="from desk.settings import Settings\n"),
    }
    found = _routes(files)
    assert set(found) == {"GET /kanban/cards"}
    assert found["GET /kanban/cards"]["configDefault"] == "os.environ.BOARD_AT"


_MANAGER = (
    "import os\n"
    "PRESETS = {'BOARD_AT': '/kanban', 'ARCHIVE_AT': '/old', 'STRICT': 'no', 'TOKEN': None}\n"
    "class Manager:\n"
    "    def __init__(self):\n"
    "        self.config = dict()\n"
    "    def __from_env(self, key, fallback):\n"
    "        secret = key + '_SECRET_PATH'\n"
    "        if secret in os.environ:\n"
    "            with open(os.environ.get(secret)) as handle:\n"
    "                return handle.read().strip()\n"
    "        return os.environ.get(key, fallback)\n"
    "    def __typed(self, raw):\n"
    "        if isinstance(raw, str) and raw.lower() in ('yes', 'on'):\n"
    "            return True\n"
    "        if isinstance(raw, str) and raw.lower() in ('no', 'off'):\n"
    "            return False\n"
    "        return raw\n"
    "    def init_app(self, app):\n"
    "        self.config.update(app.config)\n"
    "        for name in os.environ:\n"
    "            if name.startswith('DESK_'):\n"
    "                self.config[name] = os.environ[name]\n"
    "        self.config.update({\n"
    "            key: self.__typed(self.__from_env(key, fallback))\n"
    "            for key, fallback in PRESETS.items()\n"
    "        })\n"
    "        if self.config['STRICT']:\n"
    "            self.config['ARCHIVE_AT'] = '/strict-old'\n"
    "        self.config['LATE'] = self.config['BOARD_AT'] + '/late'\n"
    "        app.config.update(self.config)\n"
    "        self.config['AFTER'] = '/not-copied'\n"
)


def _managed(*mounts: str) -> dict[str, str]:
    """A manager's `init_app` fills the app handed to it; the factory mounts `mounts`."""
    factory = (
        "from flask import Flask\n"
        "from desk.board import board\n"
        "from desk.shelf import shelf\n"
        "from desk.config import Manager\n"
        "def build(manager):\n"
        "    app = Flask(__name__)\n"
        "    manager.init_app(app)\n"
        + "".join(f"    app.register_blueprint({m})\n" for m in mounts)
        + "    return app\n"
        "def main():\n"
        "    return build(Manager())\n"
    )
    shelf = _VIEWS["desk/board.py"].replace("board", "shelf").replace("/cards", "/books")
    return {**_VIEWS, "desk/shelf.py": shelf, "desk/config.py": _MANAGER, "desk/app.py": factory}


def test_a_manager_s_own_dict_filled_by_its_methods_is_copied_into_the_app() -> None:
    files = _managed(
        "board, url_prefix=app.config['BOARD_AT']",
        "shelf, url_prefix=app.config['LATE']",
    )
    found = _routes(files)
    assert set(found) == {"GET /kanban/cards", "GET /kanban/late/books"}
    marks = str(found["GET /kanban/cards"]["configDefault"])
    assert "os.environ.BOARD_AT" in marks and "os.environ.BOARD_AT_SECRET_PATH" in marks
    # the manager's `self.config` is its own dict, never the app's: no write of it is one
    assert "prefixUnresolved" not in found["GET /kanban/cards"]


def test_what_the_manager_sets_under_a_test_or_after_the_copy_stays_a_finding() -> None:
    files = _managed(
        "board, url_prefix=app.config['ARCHIVE_AT']",
        "shelf, url_prefix=app.config['AFTER']",
    )
    found = _routes(files)
    assert set(found) == {"GET /cards", "GET /books"}
    assert all(a.get("prefixUnresolved") for a in found.values())
    assert finding_places(files)["UNRESOLVED_PREFIX"] == [
        "desk/app.py:8",
        "desk/board.py:3",
        "desk/app.py:9",
        "desk/shelf.py:3",
    ]


def test_a_mapping_the_code_does_not_show_may_set_any_key() -> None:
    files = _factory(
        "app.config['BOARD_AT'] = '/kanban'",
        "app.config.update(overrides())",
        head="from desk.extra import overrides\n",
    )
    found = _routes(files)
    assert set(found) == {"GET /kanban/cards"}
    assert "may be set by app.config.update(overrides())" in str(
        found["GET /kanban/cards"]["configDefault"]
    )


def test_a_value_read_from_config_is_what_a_helper_s_parameter_is_given() -> None:
    mounts = (
        "from desk.board import board\n"
        "def attach(app, at):\n"
        "    app.register_blueprint(board, url_prefix=f'{at}/v1')\n"
    )
    factory = (
        "from flask import Flask\n"
        "from desk import mounts\n" + _DEFAULTS + "def build():\n"
        "    app = Flask(__name__)\n"
        "    app.config.from_mapping(PRESETS)\n"
        "    mounts.attach(app, at=app.config.get('BOARD_AT'))\n"
        "    return app\n"
    )
    files = {**_VIEWS, "desk/mounts.py": mounts, "desk/factory.py": factory}
    found = _routes(files)
    assert set(found) == {"GET /kanban/v1/cards"}
    assert "prefixUnresolved" not in found["GET /kanban/v1/cards"]


def test_a_module_s_number_is_formatted_into_a_prefix_never_read_alone() -> None:
    versions = "REVISION = 2.0\nSTEP = 3\n"
    factory = (
        "from flask import Flask\n"
        "from desk.board import board\n"
        "from desk.shelf import shelf\n"
        "from desk import versions\n"
        "def build():\n"
        "    app = Flask(__name__)\n"
        "    app.register_blueprint(board, url_prefix=f'/v{int(versions.REVISION)}')\n"
        "    app.register_blueprint(shelf, url_prefix=f'/s{versions.STEP}/' + str(versions.STEP))\n"
        "    return app\n"
    )
    shelf = _VIEWS["desk/board.py"].replace("board", "shelf").replace("/cards", "/books")
    files = {**_VIEWS, "desk/shelf.py": shelf, "desk/versions.py": versions, "desk/app.py": factory}
    assert set(_routes(files)) == {"GET /v2/cards", "GET /s3/3/books"}
    alone = factory.replace("f'/v{int(versions.REVISION)}'", "versions.REVISION")
    found = _routes({**files, "desk/app.py": alone})
    assert found["GET /cards"].get("prefixUnresolved")


def test_a_test_on_a_key_the_manager_defaults_to_none_decides_which_blueprint_is_mounted() -> None:
    """`TOKEN` defaults to None (the variable unset): `!= ''` holds, so the shelf is mounted
    and the board, in the `else` branch, is not (a finding at its mount says why)."""
    mounts = (
        "from flask import Flask\n"
        "from desk.board import board\n"
        "from desk.shelf import shelf\n"
        "def attach(app: Flask, at):\n"
        "    if app.config['TOKEN'] != '':\n"
        "        app.register_blueprint(shelf, url_prefix=f'{at}/v1')\n"
        "    else:\n"
        "        app.register_blueprint(board, url_prefix=at)\n"
    )
    files = _managed()
    files["desk/mounts.py"] = mounts
    files["desk/app.py"] = files["desk/app.py"].replace(
        "    manager.init_app(app)\n",
        "    manager.init_app(app)\n    from desk import mounts\n"
        "    mounts.attach(app, app.config['BOARD_AT'])\n",
    )
    found = _routes(files)
    assert set(found) == {"GET /kanban/v1/books"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["desk/mounts.py:8"]


def test_the_pre_filter_parses_the_configuration_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manager's file names no Flask and no loader: it spells `.config.update(`, which
    the pre-filter parses before it trusts a read of the app's configuration."""
    files = _managed("board, url_prefix=app.config['BOARD_AT']")
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert "/kanban/cards" in documents[1]
