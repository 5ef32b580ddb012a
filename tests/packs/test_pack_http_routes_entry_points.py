"""Code the app never loads: a plugin distribution of the repository (a folder with its own
`setup.py`, `pyproject.toml` or `setup.cfg`) whose routes reach the app only through setuptools
entry points is served only once installed, so its routes are no resources; the loader says
so, naming the group and the distributions that provide it (issue 34, precision)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.entry_points import cfg_entry_points, python_entry_points, toml_entry_points
from routes_harness import document, finding_places, names, scanned_both_ways

PLUGGY_WITH_A_SETUP_PY_PLUGIN = {
    "garden/__init__.py": "",
    "garden/hookspecs.py": (
        "import pluggy\n"
        "hookspec = pluggy.HookspecMarker('garden')\n"
        "@hookspec\n"
        "def garden_routes(app):\n"
        "    pass\n"
    ),
    "garden/builtin.py": (
        "import pluggy\n"
        "from flask import Blueprint\n"
        "hookimpl = pluggy.HookimplMarker('garden')\n"
        "beds = Blueprint('beds', __name__)\n"
        "@beds.route('/beds')\n"
        "def list_beds():\n"
        "    return []\n"
        "@hookimpl\n"
        "def garden_routes(app):\n"
        "    app.register_blueprint(beds, url_prefix='/core')\n"
    ),
    "garden/app.py": (
        "import pluggy\n"
        "from flask import Flask\n"
        "from garden import builtin, hookspecs\n"
        "def create_app():\n"
        "    app = Flask(__name__)\n"
        "    manager = pluggy.PluginManager('garden')\n"
        "    manager.add_hookspecs(hookspecs)\n"
        "    manager.register(builtin)\n"
        "    manager.load_setuptools_entrypoints('garden.plugins')\n"
        "    manager.hook.garden_routes(app=app)\n"
        "    return app\n"
    ),
    "extras/weather/setup.py": (
        "from setuptools import setup\n"
        "setup(\n"
        "    name='garden-weather',\n"
        "    packages=['weather_plugin'],\n"
        "    entry_points={'garden.plugins': ['weather = weather_plugin']},\n"
        ")\n"
    ),
    "extras/weather/weather_plugin/__init__.py": (
        "import pluggy\n"
        "from .views import forecast\n"
        "hookimpl = pluggy.HookimplMarker('garden')\n"
        "@hookimpl\n"
        "def garden_routes(app):\n"
        "    app.register_blueprint(forecast, url_prefix='/weather')\n"
    ),
    "extras/weather/weather_plugin/views.py": (
        "from flask import Blueprint\n"
        "forecast = Blueprint('forecast', __name__)\n"
        "@forecast.route('/today')\n"
        "def today():\n"
        "    return {}\n"
        "@forecast.route('/week', methods=['GET', 'POST'])\n"
        "def week():\n"
        "    return {}\n"
    ),
}

METADATA_WITH_A_PYPROJECT_PLUGIN = {
    "atlas/main.py": (
        "from importlib.metadata import entry_points as discovered\n"
        "from fastapi import FastAPI, APIRouter\n"
        "app = FastAPI()\n"
        "core = APIRouter()\n"
        "@core.get('/health')\n"
        "def health():\n"
        "    return 'ok'\n"
        "app.include_router(core)\n"
        "for plugin in discovered(group='atlas.routers'):\n"
        "    app.include_router(plugin.load().router)\n"
    ),
    "plugins/atlas-maps/pyproject.toml": (
        "[project]\n"
        'name = "atlas-maps"\n'
        'version = "1.0"\n'
        '[project.entry-points."atlas.routers"]\n'
        'maps = "atlas_maps.api"\n'
        "[project.scripts]\n"
        'atlas-maps = "atlas_maps.cli:main"\n'
    ),
    "plugins/atlas-maps/src/atlas_maps/__init__.py": "",
    "plugins/atlas-maps/src/atlas_maps/api.py": (
        "from fastapi import APIRouter\n"
        "router = APIRouter(prefix='/maps')\n"
        "@router.get('/tiles/{z}')\n"
        "def tiles(z: int):\n"
        "    return z\n"
    ),
}

PKG_RESOURCES_WITH_A_SETUP_CFG_PLUGIN = {
    "relay/server.py": (
        "import pkg_resources\n"
        "from flask import Flask\n"
        "app = Flask(__name__)\n"
        "@app.route('/ping')\n"
        "def ping():\n"
        "    return 'pong'\n"
        "for hook in pkg_resources.iter_entry_points(group='relay.hooks'):\n"
        "    hook.load()(app)\n"
    ),
    "contrib/relay_audit/setup.cfg": (
        "[metadata]\n"
        "name = relay-audit\n"
        "[options.entry_points]\n"
        "relay.hooks =\n"
        "    audit = relay_audit:install\n"
    ),
    "contrib/relay_audit/relay_audit/__init__.py": (
        "from flask import Blueprint\n"
        "def install(app):\n"
        "    log = Blueprint('log', __name__)\n"
        "    log.add_url_rule('/entries', view_func=print)\n"
        "    app.register_blueprint(log, url_prefix='/audit')\n"
    ),
}


def test_a_pluggy_plugin_distribution_loaded_by_entry_points_is_not_the_apps() -> None:
    """`load_setuptools_entrypoints("garden.plugins")`: the app's own implementation of the
    hook mounts its blueprint; the one in `extras/weather` (its own `setup.py` providing the
    group) is served only once installed."""
    assert names(PLUGGY_WITH_A_SETUP_PY_PLUGIN) == {"GET /core/beds"}
    [finding] = document(PLUGGY_WITH_A_SETUP_PY_PLUGIN)["findings"]
    assert finding["code"] == "UNRESOLVED_ROUTE"
    assert finding["locations"] == [{"path": "garden/app.py", "line": 9}]
    assert "`garden.plugins`" in finding["detail"]
    assert "`garden-weather` (extras/weather/setup.py)" in finding["detail"]


def test_an_importlib_metadata_group_provided_by_a_pyproject_distribution() -> None:
    """`entry_points(group=...)` imported under another name; the distribution's source in a
    `src/` layout below its `pyproject.toml`; its scripts are no plugin group."""
    assert names(METADATA_WITH_A_PYPROJECT_PLUGIN) == {"GET /health"}
    assert finding_places(METADATA_WITH_A_PYPROJECT_PLUGIN) == {
        "UNRESOLVED_ROUTE": ["atlas/main.py:9"],
        "UNRESOLVED_ROUTER": ["atlas/main.py:10"],  # `plugin.load().router`, as before
    }
    [finding] = [
        f
        for f in document(METADATA_WITH_A_PYPROJECT_PLUGIN)["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
    ]
    assert "`atlas-maps` (plugins/atlas-maps/pyproject.toml)" in finding["detail"]


def test_a_pkg_resources_group_provided_by_a_setup_cfg_distribution() -> None:
    assert names(PKG_RESOURCES_WITH_A_SETUP_CFG_PLUGIN) == {"GET /ping"}
    assert finding_places(PKG_RESOURCES_WITH_A_SETUP_CFG_PLUGIN) == {
        "UNRESOLVED_ROUTE": ["relay/server.py:7"]
    }


def test_the_apps_own_distribution_and_a_group_nobody_loads_keep_their_routes() -> None:
    """A distribution holding the loader is the app's (its own plugins of a group it loads are
    its code); a distribution whose group no loader names is left as it is read."""
    own = {
        **{f"server/{k}": v for k, v in PLUGGY_WITH_A_SETUP_PY_PLUGIN.items()},
        "server/pyproject.toml": (
            '[project]\nname = "garden"\n[project.entry-points."garden.plugins"]\n'
            'weather = "weather_plugin"\n'
        ),
    }
    own["server/extras/weather/setup.py"] = own["server/extras/weather/setup.py"].replace(
        "'garden.plugins'", "'garden.other'"
    )
    assert names(own) == {"GET /core/beds", "GET /weather/today", "GET /weather/week",
                          "POST /weather/week"}  # fmt: skip
    assert document(own)["findings"] == []


@pytest.mark.parametrize(
    "files",
    [
        PLUGGY_WITH_A_SETUP_PY_PLUGIN,
        METADATA_WITH_A_PYPROJECT_PLUGIN,
        PKG_RESOURCES_WITH_A_SETUP_CFG_PLUGIN,
    ],
    ids=["pluggy-setup-py", "metadata-pyproject", "pkg-resources-setup-cfg"],
)
def test_the_prefilter_parses_every_file_these_constructs_need(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"UNRESOLVED_ROUTE"' in documents[1]


def test_the_declarations_each_form_reads() -> None:
    setup_py = (
        "import setuptools\n"
        "setuptools.setup(name='x', entry_points='''\n[tasks.plugins]\nt = t_mod:T\n'''\n)\n"
        "from importlib import metadata\n"
        "metadata.entry_points().select(group='a.b')\n"
        "metadata.entry_points()['c.d']\n"
        "metadata.entry_points().get('e.f', [])\n"
        "def load(group):\n"
        "    return metadata.entry_points(group=group)\n"
    )
    assert python_entry_points(setup_py, "setup.py") == (
        "x",
        (("tasks.plugins", ("t = t_mod:T",)),),
        (("a.b", 8), ("c.d", 9), ("e.f", 10)),
    )
    poetry = '[tool.poetry]\nname = "p"\n[tool.poetry.plugins."g"]\nn = "m:f"\n'
    assert toml_entry_points(poetry) == ("p", (("g", ("n = m:f",)),))
    assert toml_entry_points("not = [toml") == ("", ())
    assert cfg_entry_points("[options.entry_points]\nconsole_scripts =\n    x = y:z\n") == ("", ())


def test_a_provider_holding_no_route_is_not_named() -> None:
    """A distribution of the group whose plugin serves no route (a metrics hook) is not named;
    a loader whose providers hold none says nothing."""
    quiet = {
        "extras/quiet/pyproject.toml": (
            '[project]\nname = "garden-metrics"\n'
            '[project.entry-points."garden.plugins"]\nmetrics = "garden_metrics"\n'
        ),
        "extras/quiet/garden_metrics/__init__.py": "def garden_routes(app):\n    return None\n",
    }
    files = {**PLUGGY_WITH_A_SETUP_PY_PLUGIN, **quiet}
    [finding] = document(files)["findings"]
    assert "`garden-weather`" in finding["detail"]
    assert "garden-metrics" not in finding["detail"]
    without_weather = {k: v for k, v in files.items() if not k.startswith("extras/weather/")}
    assert names(without_weather) == {"GET /core/beds"}
    assert document(without_weather)["findings"] == []
