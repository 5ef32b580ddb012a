"""pack-http-routes on a whole Django site mounted under a computed prefix
(`urlpatterns = [path(settings.MOUNT, include(_routes))]`): the patterns included under a route
the pack cannot name are listed with their own path, flagged, with the finding at the include
(never silent, still walked); and a setting read as `getattr(<options the scan cannot see>,
'X', default)` passed through a small project helper is that default, evaluated, the routes
under it carrying `attrs.configDefault`.

tests/fixtures/repos/django-mounted-site is our own project: its options come from a module an
environment variable names (not in the tree), its mount point is normalised by a helper."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, fixture_files, scanned_both_ways  # noqa: E402

SITE = fixture_files("django-mounted-site")
OWN = {"GET /", "GET /docks/{pk}/", "POST /docks/{pk}/moor/"}
# a project helper building patterns from a table filled out of sight
YARD = {
    "yard/settings.py": "ROOT_URLCONF = 'yard.urls'\n",
    "yard/tools.py": (
        "from django.urls import path\n"
        "from yard.table import TABLE\n"
        "def pages_of(kind):\n"
        "    out = []\n"
        "    for row in TABLE.get(kind, ()):\n"
        "        out.append(path(row['at'] + '/', row['view']))\n"
        "    return out\n"
    ),
    "yard/table.py": "import importlib\nTABLE = importlib.import_module('plugins').TABLE\n",
    "yard/urls.py": (
        "from django.urls import include, path\n"
        "from yard.tools import pages_of\n"
        "urlpatterns = [\n"
        "    path('crates/', include(pages_of('crate'))),\n"
        "    path('boxes/', include(pages_of('box'))),\n"
        "]\n"
    ),
}


def listed(files: dict[str, str]) -> dict[str, tuple[bool, str | None]]:
    """Route name -> (prefix flagged as not known, its configuration defaults)."""
    return {
        str(r["name"]): (bool(r["attrs"].get("prefixUnresolved")), r["attrs"].get("configDefault"))
        for r in document(files)["resources"]
    }


def places(files: dict[str, str]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for finding in document(files)["findings"]:
        out.setdefault(str(finding["code"]), set()).update(
            f"{p['path']}:{p['line']}" for p in finding["locations"]
        )
    return out


def test_patterns_under_a_route_the_pack_cannot_name_are_listed_and_flagged() -> None:
    # a mount point no default tells: the site is listed under its own paths, each flagged,
    # the finding at the include; the included URLconf's own finding still raised
    files = {
        **SITE,
        "harbor/settings.py": (
            "import os\nROOT_URLCONF = 'harbor.urls'\nMOUNT_POINT = os.environ['HARBOR_MOUNT']\n"
        ),
    }
    assert listed(files) == {name: (True, None) for name in OWN}
    found = places(files)
    assert "harbor/urls.py:11" in found["UNRESOLVED_PREFIX"]
    assert "harbor/docks/tally.py:5" in found["UNRESOLVED_ROUTER"]
    assert "UNRESOLVED_ROUTE" not in found


def test_a_regex_route_with_alternatives_over_an_include_lists_it_flagged() -> None:
    files = {
        "cfg/settings.py": "ROOT_URLCONF = 'cfg.root'\n",
        "cfg/root.py": (
            "from django.urls import include, re_path\n"
            "from cfg import leaf as leaves\n"
            "urlpatterns = [re_path(r'^(?:one|two)/', include(leaves))]\n"
        ),
        "cfg/leaf.py": (
            "from django.urls import path\n"
            "def page(request):\n    return None\n"
            "urlpatterns = [path('page/', page)]\n"
        ),
    }
    assert listed(files) == {"ANY /page/": (True, None)}
    assert "cfg/root.py:3" in places(files)["UNRESOLVED_PREFIX"]


def test_a_view_under_a_route_the_pack_cannot_name_is_still_a_finding() -> None:
    files = {
        "cfg/settings.py": "ROOT_URLCONF = 'cfg.root'\n",
        "cfg/root.py": (
            "import os\nfrom django.urls import path\n"
            "def page(request):\n    return None\n"
            "urlpatterns = [path(os.environ['P'], page)]\n"
        ),
    }
    assert listed(files) == {}
    assert places(files) == {"UNRESOLVED_ROUTE": {"cfg/root.py:5"}}


@pytest.mark.parametrize("settings_text", [
    None,
    "import os\nROOT_URLCONF = 'harbor.urls'\nMOUNT_POINT = os.environ['HARBOR_MOUNT']\n",
])  # fmt: skip
def test_the_prefilter_changes_no_mounted_site_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings_text: str | None
) -> None:
    files = dict(SITE)
    if settings_text is not None:
        files["harbor/settings.py"] = settings_text
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    built, _ = scanned_both_ways(tmp_path / "yard", YARD, monkeypatch)
    assert built[0] == built[1]
    assert "this call builds" in built[0]
    assert "/docks/{pk}/moor/" in documents[0]
    assert ("/berths/docks/" in documents[0]) is (settings_text is None)


def test_a_mount_point_read_with_getattr_of_an_unseen_configuration_is_its_default() -> None:
    # `getattr(<a module imported by a name the environment gives>, "MOUNT_POINT", "/berths/")`
    # through the project's helper (`value.strip("/") + "/"`): the default, marked as such
    assert listed(SITE) == {
        name.replace(" /", " /berths/"): (False, "getattr(opts, 'MOUNT_POINT')") for name in OWN
    }
    found = places(SITE)
    assert "UNRESOLVED_PREFIX" not in found
    assert "harbor/docks/tally.py:5" in found["UNRESOLVED_ROUTER"]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("getattr(cfg, 'PANEL', 'desk/')", "desk/"),  # read directly
        ("getattr(cfg, 'PANEL', 'desk') + '/'", "desk/"),  # joined
        ("f\"{getattr(cfg, 'PANEL', 'desk')}/\"", "desk/"),  # in an f-string
        ("mounted(getattr(cfg.inner, 'PANEL', ''))", ""),  # through a helper, an attribute
        ("getattr(cfg, 'PANEL', '/Desk/').strip('/').lower() + '/'", "desk/"),  # str methods
    ],
)
def test_getattr_defaults_of_a_configuration_object_name_the_prefix(
    written: str, expected: str
) -> None:
    files = {
        "conf/settings.py": (
            "import importlib, os\n"
            "from conf.util import mounted\n"
            "cfg = importlib.import_module(os.environ['CONF_MODULE'])\n"
            f"ROOT_URLCONF = 'conf.urls'\nPANEL = {written}\n"
        ),
        "conf/util.py": "def mounted(p):\n    return p + '/' if p else ''\n",
        "conf/urls.py": (
            "from django.conf import settings as s\n"
            "from django.urls import include, path\n"
            "def board(request):\n    return None\n"
            "urlpatterns = [path(s.PANEL, include([path('board/', board)]))]\n"
        ),
    }
    source = "getattr(cfg.inner, 'PANEL')" if "inner" in written else "getattr(cfg, 'PANEL')"
    assert listed(files) == {f"ANY /{expected}board/": (False, source)}


def test_a_pattern_a_project_call_builds_under_a_route_it_cannot_name_is_a_finding_at_the_call() -> (
    None
):
    # the helper's routes come from a table filled out of sight: the pattern it builds has a
    # route the pack cannot name, a finding where the helper is written and at each call
    files = YARD
    found = places(files)
    assert listed(files) == {}
    assert {"yard/urls.py:4", "yard/urls.py:5"} <= found.get("UNRESOLVED_ROUTE", set()) | found.get(
        "UNRESOLVED_ROUTER", set()
    ), found
