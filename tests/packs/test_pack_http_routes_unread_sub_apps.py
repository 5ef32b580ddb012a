"""pack-http-routes on sub-apps mounted where the pack cannot read the mount: an app
(`FastAPI()`, `Starlette()`, `Flask()`) of a module that a module holding an unread mount
imports (directly or through a package), that imports that module in turn by no path, is
mounted by nothing the scan shows and is passed to no server call, is listed under a prefix
not known (`attrs.prefixUnresolved`, an `UNRESOLVED_PREFIX` where it is created naming the
unread mount), never at `/` as a root. The apps a server runs, the app the mount is made on,
and an app no such module imports stay roots. The fixtures are written for this file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, prefix_unresolved, scanned_both_ways

# A FastAPI hub: the mount loop over a dict a call returns lives in `hub/wiring.py`, which
# imports the app it mounts on (`hub/core.py`) and the add-ons' package; each add-on's app is
# reached through that package (one imported under an alias, one as a submodule of a package).
HUB: dict[str, str] = {
    "hub/__init__.py": "",
    "hub/core.py": (
        "from fastapi import FastAPI\n\nroot = FastAPI(title='hub')\n\n"
        "@root.get('/health')\nasync def health():\n    return {}\n"
    ),
    "hub/addons/__init__.py": (
        "from hub.addons import ledger as _ledger\n"
        "from hub.addons.stats import site as stats_site\n\n"
        "def discovered():\n"
        "    found = {}\n"
        "    found['ledger'] = _ledger.board\n"
        "    found['stats'] = stats_site.panel\n"
        "    return found\n"
    ),
    "hub/addons/ledger.py": (
        "import fastapi as fa\n\nboard = fa.FastAPI()\n\n"
        "@board.post('/entries')\nasync def add_entry():\n    return 1\n"
    ),
    "hub/addons/stats/__init__.py": "",
    "hub/addons/stats/site.py": (
        "from starlette.applications import Starlette\nfrom starlette.routing import Route\n\n"
        "async def totals(request):\n    return None\n\n"
        "panel = Starlette(routes=[Route('/totals', totals)])\n"
    ),
    "hub/wiring.py": (
        "from hub.core import root\n"  # 1
        "from hub import addons\n"
        "\n"
        "def attach():\n"
        "    for slug, sub_app in addons.discovered().items():\n"  # 5
        "        root.mount('/x/' + slug, sub_app)\n"
    ),
    "hub/asgi.py": "from hub.core import root\nfrom hub.wiring import attach\n\nattach()\napp = root\n",
    # an app of its own, imported by no module with an unread mount: a root
    "hub/admin.py": (
        "from fastapi import FastAPI\n\nstaff = FastAPI()\n\n"
        "@staff.get('/staff/ping')\nasync def ping():\n    return ''\n"
    ),
}

# A Flask app mounted on a FastAPI gateway through `WSGIMiddleware` in a loop over modules
# loaded by name; the gateway's own module runs it with uvicorn, a second app the loop's
# module imports is handed to a server of its own (`uvicorn.run`), a third's module is run as
# a program (`if '__main__' == __name__:`): all roots.
GATEWAY: dict[str, str] = {
    "gw/__init__.py": "",
    "gw/legacy/__init__.py": "",
    "gw/legacy/forms.py": (
        "from flask import Flask\n\nold = Flask(__name__)\n\n"
        "@old.route('/form/<int:n>', methods=['POST'])\ndef post_form(n):\n    return ''\n"
    ),
    "gw/metrics.py": (
        "import uvicorn\nfrom fastapi import FastAPI\n\nprobe = FastAPI()\n\n"
        "@probe.get('/metrics')\nasync def metrics():\n    return ''\n\n"
        "def serve_metrics():\n    uvicorn.run(probe, port=9100)\n"
    ),
    "gw/kit.py": (
        "import flask\n\nkit = flask.Flask('kit')\n\n"
        "@kit.get('/kit')\ndef kit_home():\n    return ''\n\n"
        "if '__main__' == __name__:\n    kit.run(port=5001)\n"
    ),
    "gw/main.py": (
        "import importlib\n"  # 1
        "import uvicorn\n"
        "from fastapi import FastAPI\n"
        "from fastapi.middleware.wsgi import WSGIMiddleware\n"
        "from gw.legacy import forms\n"  # 5
        "from gw import metrics, kit\n"
        "\n"
        "gateway = FastAPI()\n"
        "\n"
        "@gateway.get('/up')\n"  # 10
        "async def up():\n"
        "    return ''\n"
        "\n"
        "for name in ('forms',):\n"
        "    module = importlib.import_module('gw.legacy.' + name)\n"  # 15
        "    gateway.mount('/legacy', WSGIMiddleware(getattr(module, 'old')))\n"
        "\n"
        "if __name__ == '__main__':\n"
        "    uvicorn.run(gateway)\n"
    ),
}

# A Starlette site mounting each extension's app loaded by a computed module name over the
# package's folder: any module below `portal.extensions` may be one; an app beside them is not.
LOADED: dict[str, str] = {
    "portal/__init__.py": "",
    "portal/site.py": (
        "import importlib\n"  # 1
        "import pkgutil\n"
        "from starlette.applications import Starlette\n"
        "from starlette.routing import Route\n"
        "from portal import extensions\n"  # 5
        "\n"
        "async def home(request):\n"
        "    return None\n"
        "\n"
        "site = Starlette(routes=[Route('/', home)])\n"  # 10
        "for info in pkgutil.iter_modules(extensions.__path__):\n"
        "    site.mount(f'/ext/{info.name}', importlib.import_module(\n"
        "        f'portal.extensions.{info.name}.entry').asgi)\n"
    ),
    "portal/extensions/__init__.py": "",
    "portal/extensions/polls/__init__.py": "",
    "portal/extensions/polls/entry.py": (
        "from fastapi import FastAPI\n\nasgi = FastAPI()\n\n"
        "@asgi.get('/votes')\nasync def votes():\n    return []\n"
    ),
    "portal/extensions/wiki/__init__.py": "",
    "portal/extensions/wiki/entry.py": (
        "import fastapi\n\nasgi = fastapi.FastAPI()\n\n"
        "@asgi.put('/page/{slug}')\nasync def page(slug: str):\n    return ''\n"
    ),
    "portal/tools.py": (
        "from fastapi import FastAPI\n\ntool = FastAPI()\n\n"
        "@tool.get('/tool')\nasync def use_tool():\n    return ''\n"
    ),
}

# One app alone, and an app whose only mount the pack cannot read: nothing changes for them.
SINGLE: dict[str, str] = {
    "solo/app.py": (
        "from fastapi import FastAPI\nfrom solo.extra import more\n\napi = FastAPI()\n\n"
        "@api.get('/one')\nasync def one():\n    return 1\n\n"
        "api.mount('/more', more())\n"
    ),
    "solo/extra.py": "def more():\n    return None\n",
}


def _served(files: dict[str, str]) -> set[str]:
    return {
        f"{r['name']} {r['location']['path']}:{r['location']['line']}"
        for r in document(files)["resources"]
    }


def test_sub_apps_a_module_with_an_unread_mount_imports_are_flagged_where_created() -> None:
    """Each add-on app is reached from the unread mount's module through the package it
    imports (an alias, a submodule): its routes are listed with their prefix not known and
    an `UNRESOLVED_PREFIX` at the app's creation; the app the mount is made on, and an app
    the module does not import, are roots as before."""
    assert _served(HUB) == {
        "GET /health hub/core.py:5",
        "POST /entries hub/addons/ledger.py:5",
        "GET /totals hub/addons/stats/site.py:7",
        "GET /staff/ping hub/admin.py:5",
    }
    assert prefix_unresolved(HUB) == ["GET /totals", "POST /entries"]
    places = finding_places(HUB)
    assert places["UNRESOLVED_ROUTER"] == ["hub/wiring.py:6"]
    assert sorted(places["UNRESOLVED_PREFIX"]) == [
        "hub/addons/ledger.py:3",
        "hub/addons/ledger.py:5",
        "hub/addons/stats/site.py:7",
    ]
    details = {
        f["locations"][0]["path"]: f["detail"]
        for f in document(HUB)["findings"]
        if f["code"] == "UNRESOLVED_PREFIX"
    }
    assert "hub/wiring.py:6" in details["hub/addons/ledger.py"]


def test_a_flask_app_loaded_by_name_for_an_unread_mount_is_flagged_servers_stay_roots() -> None:
    """The Flask app the unread mount's module imports is flagged; the gateway the mount is
    made on, the app `uvicorn.run` serves and the app of a module run as `__main__` stay
    roots, unflagged."""
    assert prefix_unresolved(GATEWAY) == ["POST /form/{n}"]
    places = finding_places(GATEWAY)
    assert places["UNRESOLVED_ROUTER"] == ["gw/main.py:16"]
    assert places["UNRESOLVED_PREFIX"] == ["gw/legacy/forms.py:3", "gw/legacy/forms.py:5"]
    served = {r["name"] for r in document(GATEWAY)["resources"]}
    assert {"GET /up", "GET /metrics", "GET /kit"} <= served


def test_apps_below_a_package_loaded_by_computed_names_are_flagged() -> None:
    """`import_module(f"portal.extensions.{n}.entry").asgi` mounted in a loop: each app below
    `portal.extensions` may be one it loads, flagged at its creation; the site's own route and
    an app outside that package are not."""
    assert prefix_unresolved(LOADED) == ["GET /votes", "PUT /page/{slug}"]
    places = finding_places(LOADED)
    assert places["UNRESOLVED_ROUTER"] == ["portal/site.py:12"]
    assert sorted(places["UNRESOLVED_PREFIX"]) == [
        "portal/extensions/polls/entry.py:3",
        "portal/extensions/polls/entry.py:5",
        "portal/extensions/wiki/entry.py:3",
        "portal/extensions/wiki/entry.py:5",
    ]
    assert {"GET /", "GET /tool"} <= {r["name"] for r in document(LOADED)["resources"]}


def test_a_single_app_with_an_unread_mount_stays_a_root() -> None:
    assert prefix_unresolved(SINGLE) == []
    assert finding_places(SINGLE) == {"UNRESOLVED_ROUTER": ["solo/app.py:10"]}


def test_the_prefilter_scan_of_unread_sub_apps_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number, files in enumerate((HUB, GATEWAY, LOADED, SINGLE)):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files
