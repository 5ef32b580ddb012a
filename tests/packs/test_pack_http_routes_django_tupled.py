"""pack-http-routes on DRF registrations written with a stray trailing comma
(`router.register("x", XViewSet),`): Python runs the call inside the one-element tuple it
makes, so the viewset is served; the reader took only a bare call statement and lost it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import names, scanned_both_ways

TUPLED = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'garden.conf')\n",
    "garden/__init__.py": "",
    "garden/conf.py": "ROOT_URLCONF = 'garden.urlmap'\n",
    "garden/api.py": (
        "from rest_framework import viewsets\n"
        "\n"
        "\n"
        "class SeedSet(viewsets.ReadOnlyModelViewSet):\n"
        "    pass\n"
        "\n"
        "\n"
        "class PlotSet(viewsets.ViewSet):\n"
        "    def create(self, request): ...\n"
    ),
    "garden/urlmap.py": (
        "from django.urls import include, path\n"
        "from rest_framework.routers import SimpleRouter\n"
        "\n"
        "from garden.api import PlotSet, SeedSet\n"
        "\n"
        "beds = SimpleRouter()\n"
        "beds.register(r'seeds', SeedSet, basename='seed'),\n"
        "(beds.register('plots', PlotSet, basename='plot'),)\n"
        "\n"
        "urlpatterns = [path('api/', include(beds.urls))]\n"
    ),
}


def test_a_registration_in_a_stray_tuple_is_served() -> None:
    assert names(TUPLED) == {"GET /api/seeds/", "GET /api/seeds/{pk}/", "POST /api/plots/"}


def test_the_tupled_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, TUPLED, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
