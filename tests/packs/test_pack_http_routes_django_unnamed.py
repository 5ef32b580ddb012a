"""pack-http-routes on URLconfs included through a module name the pack cannot compute
(`include(f"{ext}.urls")` over extensions found at run time): the include is a finding where
it is written, and each URLconf the walk never entered whose module name it may give (here:
any module ending in `.urls`) is a finding at its own urlpatterns, where its routes are
written, never silence. A URLconf it cannot name (`legacy_routes`) is left as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, names, scanned_both_ways

UNNAMED = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'portal.settings')\n",
    "portal/__init__.py": "",
    "portal/settings.py": (
        "from portal.finder import scan_extensions\n"
        "\n"
        "ROOT_URLCONF = 'portal.urls'\n"
        "PORTAL_EXTENSIONS = scan_extensions('addons')\n"
    ),
    "portal/finder.py": (
        "import os\n"
        "\n"
        "\n"
        "def scan_extensions(folder):\n"
        "    return [name for name in os.listdir(folder) if not name.startswith('_')]\n"
    ),
    "portal/views.py": "def home(request): ...\n",
    "portal/hooks.py": (
        "from django.urls import include, path\n"
        "\n"
        "\n"
        "def extension_routes(found):\n"
        "    patterns = []\n"
        "    for ext in found:\n"
        "        patterns.append(path('', include(f'{ext}.urls')))\n"
        "    return patterns\n"
    ),
    "portal/urls.py": (
        "from django.conf import settings\n"
        "from django.urls import path\n"
        "\n"
        "from portal import views\n"
        "from portal.hooks import extension_routes\n"
        "\n"
        "urlpatterns = extension_routes(settings.PORTAL_EXTENSIONS) + [\n"
        "    path('home/', views.home),\n"
        "]\n"
    ),
    "portal/legacy_routes.py": (
        "from django.urls import path\n\nfrom portal import views\n\n"
        "urlpatterns = [path('old-home/', views.home)]\n"
    ),
    "addons/badges/__init__.py": "",
    "addons/badges/views.py": "def wall(request): ...\n",
    "addons/badges/urls.py": (
        "from django.urls import path\n"
        "\n"
        "from .views import wall\n"
        "\n"
        "urlpatterns = [\n"
        "    path('badges/', wall),\n"
        "]\n"
    ),
}


def _routers(files: dict[str, str]) -> dict[str, str]:
    return {
        f"{f['locations'][0]['path']}:{f['locations'][0]['line']}": str(f["detail"])
        for f in document(files)["findings"]
        if f["code"] == "UNRESOLVED_ROUTER"
    }


def test_a_urlconf_an_unnamed_include_may_give_is_a_finding_where_it_is_written() -> None:
    assert names(UNNAMED) == {"ANY /home/"}
    routers = _routers(UNNAMED)
    assert "addons/badges/urls.py:6" in routers
    assert "portal/hooks.py:7" in routers[("addons/badges/urls.py:6")]
    assert not any(place.startswith("portal/legacy_routes.py") for place in routers)


def test_the_unnamed_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, UNNAMED, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
