"""pack-http-routes on a DRF router subclass that overrides `get_routes(viewset)` with its own
logic (issue 36's Django REST framework row; `packs/routes/django_route_hooks.py`): the override
changes the route table for the view sets of one mixin (`issubclass`), through DRF's `Route`
records imported under an alias (`_replace`, `isinstance`, `detail`), restores it in a
`finally`, and hands it to `super().get_routes`; its base changes DRF's table in `__init__`. Our
own code, not a repository's; the routes named are what Django's resolver serves for these
files (checked by running them under Django 5 and REST framework 3)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, names, scanned_both_ways  # noqa: E402

A_ROUTER_WITH_ITS_OWN_GET_ROUTES: dict[str, str] = {
    "deck/__init__.py": "",
    "deck/settings.py": (
        "ROOT_URLCONF = 'deck.urls'\n"
        "SECRET_KEY = 'x'\n"
        "INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'rest_framework']\n"
    ),
    "deck/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from reports.endpoints import router as reports_router\n"
        "\n"
        "urlpatterns = [path('api/reports/', include(reports_router.urls))]\n"
    ),
    "toolkit/__init__.py": "",
    "toolkit/routing.py": (
        "from rest_framework import routers\n"
        "\n"
        "\n"
        "class BulkRouter(routers.SimpleRouter):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.routes[0].mapping.update({'delete': 'bulk_destroy'})\n"
    ),
    "reports/__init__.py": "",
    "reports/mixins.py": (
        "class Exportable:\n    def export(self, request, *args, **kwargs):\n        return None\n"
    ),
    "reports/routing.py": (
        "from rest_framework.routers import Route as Row\n"
        "\n"
        "from toolkit.routing import BulkRouter\n"
        "\n"
        "from .mixins import Exportable\n"
        "\n"
        "\n"
        "class ExportRouter(BulkRouter):\n"
        "    def get_routes(self, viewset):\n"
        "        if issubclass(viewset, Exportable):\n"
        "            saved = self.routes\n"
        "            self.routes = [\n"
        "                row._replace(mapping={**row.mapping, 'post': 'export'})\n"
        "                if isinstance(row, Row) and not row.detail\n"
        "                else row\n"
        "                for row in saved\n"
        "            ]\n"
        "            try:\n"
        "                return super().get_routes(viewset)\n"
        "            finally:\n"
        "                self.routes = saved\n"
        "        return super().get_routes(viewset)\n"
    ),
    "reports/endpoints.py": (
        "from rest_framework import mixins, viewsets\n"
        "from rest_framework.decorators import action\n"
        "from rest_framework.response import Response\n"
        "\n"
        "from .mixins import Exportable\n"
        "from .routing import ExportRouter\n"
        "\n"
        "\n"
        "class SheetViewSet(Exportable, mixins.ListModelMixin, viewsets.GenericViewSet):\n"
        "    queryset = []\n"
        "\n"
        "    def bulk_destroy(self, request):\n"
        "        return Response()\n"
        "\n"
        "\n"
        "class ChartViewSet(viewsets.ReadOnlyModelViewSet):\n"
        "    queryset = []\n"
        "\n"
        "    @action(detail=True, methods=['get'])\n"
        "    def preview(self, request, pk=None):\n"
        "        return Response()\n"
        "\n"
        "\n"
        "router = ExportRouter()\n"
        "router.register('sheets', SheetViewSet, basename='sheet')\n"
        "router.register('charts', ChartViewSet, basename='chart')\n"
    ),
}


EXPECTED = [
    "DELETE /api/reports/sheets/",
    "GET /api/reports/charts/",
    "GET /api/reports/charts/{pk}/",
    "GET /api/reports/charts/{pk}/preview/",
    "GET /api/reports/sheets/",
    "POST /api/reports/sheets/",
]

A_ROUTER_BRANCHING_ON_WHAT_IS_NOT_KNOWN = dict(A_ROUTER_WITH_ITS_OWN_GET_ROUTES)
A_ROUTER_BRANCHING_ON_WHAT_IS_NOT_KNOWN["reports/routing.py"] = A_ROUTER_WITH_ITS_OWN_GET_ROUTES[
    "reports/routing.py"
].replace("if issubclass(viewset, Exportable):", "if viewset.__module__.endswith('endpoints'):")


def test_an_overridden_get_routes_is_run_for_each_view_set_registered() -> None:
    assert sorted(names(A_ROUTER_WITH_ITS_OWN_GET_ROUTES)) == EXPECTED
    assert document(A_ROUTER_WITH_ITS_OWN_GET_ROUTES)["findings"] == []


def test_a_get_routes_whose_branch_is_not_known_is_a_finding_at_the_override() -> None:
    files = A_ROUTER_BRANCHING_ON_WHAT_IS_NOT_KNOWN
    assert names(files) == set()
    findings = document(files)["findings"]
    assert {f["code"] for f in findings} == {"UNRESOLVED_ROUTE"}
    assert all(f["locations"] == [{"path": "reports/routing.py", "line": 9}] for f in findings)
    details = " ".join(str(f["detail"]) for f in findings)
    assert "`SheetViewSet`" in details and "`ChartViewSet`" in details


@pytest.mark.parametrize(
    "files",
    [A_ROUTER_WITH_ITS_OWN_GET_ROUTES, A_ROUTER_BRANCHING_ON_WHAT_IS_NOT_KNOWN],
    ids=["known", "branching"],
)
def test_the_prefilter_changes_nothing_on_router_hooks(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
