"""pack-http-routes on a router kept as an attribute of a project object (blind-8, Hyperion):
a class whose `__init__` stores `self.<attr> = <param> or APIRouter(...)` (or an `if`
expression, or a parameter defaulting to the call), in a base class reached through
`super().__init__`; per-feature files make an instance and register on `instance.<attr>`; one
file includes `item.<attr>` for each item of a list the scan cannot enumerate (built by
`Path.glob` and `importlib`). Each instance's attribute is its own router: its routes are
listed under what is known (the loop's include gives no prefix of its own) and marked
`prefixUnresolved`, with findings where the instance is made and where the routes are
written, never silence. The fixture is written for this file, not copied from a repository;
its names match what FastAPI itself serves for these files (checked with FastAPI 0.115)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import finding_places, placed, prefix_unresolved, scanned_both_ways

A_ROUTER_PER_INSTANCE_INCLUDED_IN_A_LOOP: dict[str, str] = {
    "depot/__init__.py": "",
    "depot/parts/__init__.py": "",
    "depot/parts/shapes.py": (
        "import fastapi\n"
        "from fastapi import APIRouter as Maker\n"
        "\n"
        "class Section:\n"
        "    def __init__(self, slug: str, label: str, routes: Maker | None = None):\n"
        "        self.slug = slug\n"
        "        self.routes = routes if routes else Maker(tags=[label])\n"
        "\n"
        "class Wing(Section):\n"
        "    def __init__(self, slug, label, routes=None, owners=()):\n"
        "        super().__init__(slug, label, routes)\n"
        "        self.owners = owners\n"
        "\n"
        "class Annex:\n"
        "    def __init__(self, slug, api=fastapi.APIRouter()):\n"
        "        self.slug = slug\n"
        "        self.api = api\n"
    ),
    "depot/wings/__init__.py": "",
    "depot/wings/garden/__init__.py": "",
    "depot/wings/garden/views_garden.py": (
        "from depot.parts.shapes import Wing\n"
        "\n"
        "wing = Wing(slug='garden', label='Garden', owners=('ann',))\n"
        "\n"
        "\n"
        "@wing.routes.get('/garden/beds/{bed}')\n"
        "async def a_bed(bed: int):\n"
        "    return {}\n"
        "\n"
        "\n"
        "@wing.routes.api_route('/garden/seeds', methods=['PUT', 'PATCH'])\n"
        "async def seeds():\n"
        "    return {}\n"
    ),
    "depot/wings/store/__init__.py": "",
    "depot/wings/store/views_store.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "from depot.parts import shapes\n"
        "\n"
        "crates = APIRouter(prefix='/store')\n"
        "section = shapes.Section('store', 'Store', routes=crates)\n"
        "\n"
        "@crates.delete('/crates/{crate_id}')\n"
        "def drop(crate_id: str):\n"
        "    return None\n"
    ),
    "depot/wings/attic/__init__.py": "",
    "depot/wings/attic/views_attic.py": (
        "from depot.parts.shapes import Annex\n"
        "\n"
        "annex = Annex('attic')\n"
        "\n"
        "@annex.api.post('/attic/boxes')\n"
        "def box():\n"
        "    return {}\n"
    ),
    "depot/wings/porch/__init__.py": "",
    "depot/wings/porch/views_porch.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "from depot.parts.shapes import Wing\n"
        "\n"
        "shelf = APIRouter(prefix='/porch')\n"
        "porch = Wing('porch', 'Porch', shelf)  # its own router given: stored, not made\n"
        "\n"
        "@porch.routes.get('/chairs')\n"
        "def chairs():\n"
        "    return []\n"
    ),
    "depot/catalogue.py": (
        "import importlib\n"
        "from pathlib import Path\n"
        "\n"
        "sections = []\n"
        "for found in sorted(Path(__file__).parent.glob('wings/*/views_*.py')):\n"
        "    name = 'depot.wings.' + found.parent.name + '.' + found.stem\n"
        "    loaded = importlib.import_module(name)\n"
        "    for holder in ('wing', 'section'):\n"
        "        if hasattr(loaded, holder):\n"
        "            sections.append(getattr(loaded, holder))\n"
    ),
    "depot/wiring.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "from depot.catalogue import sections\n"
        "\n"
        "every = APIRouter()\n"
        "\n"
        "for section in sections:\n"
        "    every.include_router(section.routes)\n"
    ),
    "depot/main.py": (
        "from fastapi import FastAPI\n"
        "\n"
        "from depot import wiring\n"
        "from depot.wings.porch import views_porch\n"
        "from depot.wings.attic.views_attic import annex\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(wiring.every, prefix='/api')\n"
        "app.include_router(annex.api, prefix='/v2')\n"
        "app.include_router(views_porch.shelf, prefix='/out')\n"
    ),
}


def test_a_router_per_instance_included_in_a_loop_is_listed_and_flagged() -> None:
    files = A_ROUTER_PER_INSTANCE_INCLUDED_IN_A_LOOP
    assert placed(files) == {
        "GET /api/garden/beds/{bed}": "depot/wings/garden/views_garden.py:6 fastapi",
        "PUT /api/garden/seeds": "depot/wings/garden/views_garden.py:11 fastapi",
        "PATCH /api/garden/seeds": "depot/wings/garden/views_garden.py:11 fastapi",
        "DELETE /api/store/crates/{crate_id}": "depot/wings/store/views_store.py:8 fastapi",
        "POST /v2/attic/boxes": "depot/wings/attic/views_attic.py:5 fastapi",
        "GET /out/porch/chairs": "depot/wings/porch/views_porch.py:8 fastapi",
    }
    # the loop's routers are served under a prefix the scan cannot see: flagged, not guessed
    assert sorted(prefix_unresolved(files)) == [
        "DELETE /api/store/crates/{crate_id}",
        "GET /api/garden/beds/{bed}",
        "PATCH /api/garden/seeds",
        "PUT /api/garden/seeds",
    ]
    places = finding_places(files)
    assert places["UNRESOLVED_ROUTER"] == ["depot/wiring.py:8"]
    assert "depot/wiring.py:8" in places["UNRESOLVED_PREFIX"]  # the include, and each route
    assert "depot/wings/garden/views_garden.py:6" in places["UNRESOLVED_PREFIX"]
    assert "depot/wings/store/views_store.py:8" in places["UNRESOLVED_PREFIX"]
    assert not any("attic" in p or "porch" in p for p in places["UNRESOLVED_PREFIX"])


def test_the_attribute_router_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(
        tmp_path, A_ROUTER_PER_INSTANCE_INCLUDED_IN_A_LOOP, monkeypatch
    )
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
