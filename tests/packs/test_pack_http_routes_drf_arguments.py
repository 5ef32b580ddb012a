"""pack-http-routes on the method lists Django's and DRF's decorators take positionally or by
keyword, as their signatures allow: `@action(["post"], True)` (`methods`, `detail`),
`@api_view(http_method_names=["POST"])`, `@require_http_methods(request_method_list=[...])`
(blind round 23's class: the keyword form was read as the default GET, silently). Our own
code; the routes are what Django 5.2 and DRF 3.15 serve for these files."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import finding_places, located, scanned_both_ways

FILES: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'depot.settings')\n",
    "depot/__init__.py": "",
    "depot/settings.py": (
        "ROOT_URLCONF = 'depot.urls'\n"
        "INSTALLED_APPS = ['django.contrib.auth', 'django.contrib.contenttypes', 'rest_framework']\n"
    ),
    "depot/views.py": (
        "from django.views.decorators.http import require_http_methods\n"
        "from rest_framework import viewsets\n"
        "from rest_framework.decorators import action, api_view\n"
        "\n"
        "\n"
        "@api_view(http_method_names=['POST'])\n"
        "def flag(request): ...\n"
        "\n"
        "\n"
        "@api_view(['PUT', 'patch'])\n"
        "def rename(request): ...\n"
        "\n"
        "\n"
        "@require_http_methods(request_method_list=['DELETE'])\n"
        "def purge(request): ...\n"
        "\n"
        "\n"
        "class CrateViewSet(viewsets.GenericViewSet):\n"
        "    @action(['post'], detail=False)\n"
        "    def reset(self, request): ...\n"
        "\n"
        "    @action(['get', 'delete'], True, url_path='seal')\n"
        "    def sealing(self, request, pk=None): ...\n"
    ),
    "depot/urls.py": (
        "from django.urls import include, path\n"
        "from rest_framework import routers\n"
        "\n"
        "from depot import views\n"
        "\n"
        "router = routers.SimpleRouter()\n"
        "router.register('crates', views.CrateViewSet, basename='crate')\n"
        "\n"
        "urlpatterns = [\n"
        "    path('api/', include(router.urls)),\n"
        "    path('flag/', views.flag),\n"
        "    path('rename/', views.rename),\n"
        "    path('purge/', views.purge),\n"
        "]\n"
    ),
}


def test_method_lists_passed_by_keyword_or_position_are_the_methods_served() -> None:
    names = set(located(FILES))
    assert {
        "POST /flag/",
        "PUT /rename/",
        "PATCH /rename/",
        "DELETE /purge/",
        "POST /api/crates/reset/",
        "GET /api/crates/{pk}/seal/",
        "DELETE /api/crates/{pk}/seal/",
    } <= names
    assert not {"GET /flag/", "GET /api/crates/reset/", "GET /api/crates/seal/"} & names
    assert "UNRESOLVED_ROUTE" not in finding_places(FILES)


def test_the_pre_filter_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, FILES, monkeypatch)
    assert documents[0] == documents[1]
