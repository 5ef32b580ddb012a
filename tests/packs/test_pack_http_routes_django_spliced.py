"""pack-http-routes on URL lists spliced by name into a Django URLconf (`urlpatterns =
library_urlpatterns + ours`, `+=`, `[*theirs, path(...)]`): a list is URL patterns, never a
view. One a library defines is a finding naming the library (as `include()` of its URLconf
is), never an `ANY` route at the include's prefix; an empty list of the project's own adds
nothing, and no finding; one of the project's own is walked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, names, scanned_both_ways

SPLICED = {
    "manage.py": ("import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'atelier.config')\n"),
    "atelier/__init__.py": "",
    "atelier/config.py": "ROOT_URLCONF = 'atelier.routes'\nDEBUG = False\n",
    "atelier/routes.py": (
        "from django.urls import include, path\n"
        "\n"
        "from atelier import views\n"
        "\n"
        "urlpatterns = [\n"
        "    path('', views.landing),\n"
        "    path('sso/', include('atelier.sso_urls')),\n"
        "    path('vault/', include('atelier.vault_urls')),\n"
        "]\n"
    ),
    "atelier/views.py": ("def landing(request): ...\n\ndef keys(request): ...\n"),
    # a library's list, then one left empty on purpose, then our own
    "atelier/sso_urls.py": (
        "from tokensmith.routes import core_patterns as shared\n"
        "\n"
        "extra_patterns = [\n"
        "    # nothing of ours yet\n"
        "]\n"
        "\n"
        "urlpatterns = shared + extra_patterns\n"
    ),
    "atelier/vault_urls.py": (
        "from django.urls import path\n"
        "from tokensmith import routes as ts\n"
        "\n"
        "from atelier import views\n"
        "\n"
        "mine = [path('keys/', views.keys)]\n"
        "urlpatterns = [*ts.device_patterns, *mine]\n"
        "urlpatterns += ts.admin_patterns\n"
    ),
}


def test_a_library_list_spliced_by_name_is_no_route() -> None:
    assert names(SPLICED) == {"ANY /", "ANY /vault/keys/"}


def test_each_library_list_is_a_finding_naming_the_library_where_it_is_spliced() -> None:
    findings = document(SPLICED)["findings"]
    routers = {
        f"{f['locations'][0]['path']}:{f['locations'][0]['line']}": str(f["detail"])
        for f in findings
        if f["code"] == "UNRESOLVED_ROUTER"
    }
    assert set(routers) == {
        "atelier/sso_urls.py:7",
        "atelier/vault_urls.py:7",
        "atelier/vault_urls.py:8",
    }
    assert all("library package `tokensmith`" in d for d in routers.values())
    # the empty list of the project's own is no finding, and no route is listed as ANY
    assert "UNRESOLVED_ROUTE" not in finding_places(SPLICED)


def test_the_spliced_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, SPLICED, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
