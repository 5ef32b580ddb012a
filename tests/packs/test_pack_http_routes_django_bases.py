"""pack-http-routes on two Django classes of construct an outside evaluation found
(`packs/routes/django_facts.py`, `packs/routes/django_linker.py`), written as our own code:

- a DRF router subclass of the repository (`class ExtendedRouter(DefaultRouter)`, two levels
  deep, across files, aliased module) whose `get_urls()` or `urls` property returns `super()`'s
  list plus `path()`/`re_path()` entries of its own: the registered viewsets' routes, their
  `@action`s and the API root are listed, and the extras under the same include; an override
  the pack cannot follow, and an instance of a class that is no router, stay findings where the
  router is used; a trailing slash its `__init__` sets is read, any other change to its `routes` is
  a finding; one adding methods to DRF's list or detail route with literal values
  (`self.routes[0].mapping.update({...})`) serves them where the viewset has the action, and a
  literal route table of its own (`routes = [Route(...), DynamicRoute(...)]`) is served as DRF
  fills it;
- class views whose handler methods come from library bases: Django's generic bases combined
  as mixins (`BaseDetailView`, `ProcessFormView`, `BaseDeleteView`, `DeletionMixin` ...) and
  django-filter's `FilterView`: the methods Django serves, not `ANY`.

The expected routes below are what Django 6.0, DRF and django-filter 26.2 serve for the two
fixtures (`get_resolver()` walked by bench/real_repos/derive/django_runtime_routes.py): for
tests/fixtures/repos/django-router-subclass-app these 22 names and the three of the
`MagicRouter` and the `ListOnlyRouter` the pack flags; for tests/fixtures/repos/django-generic-bases-app these, with `GET /gadget/` for
the unknown library's base (a stub of ours at runtime) the pack lists as `ANY`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, fixture_files, names, scanned_both_ways  # noqa: E402

PROJECT = fixture_files("django-router-subclass-app")
SETTINGS = {"proj/settings.py": "ROOT_URLCONF = 'proj.urls'\n"}


def findings(files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    return sorted(
        (
            str(f["code"]),
            str(f["locations"][0]["path"]),
            int(f["locations"][0]["line"]),
            str(f["detail"]),
        )
        for f in document(files)["findings"]
    )


ROUTER_ROUTES = {
    # ExtendedRouter(DefaultRouter): the API root, the viewsets, an @action, then its extras
    "GET /books/",
    "GET /books/entries/",
    "POST /books/entries/",
    "GET /books/entries/{ref}/",
    "PUT /books/entries/{ref}/",
    "PATCH /books/entries/{ref}/",
    "DELETE /books/entries/{ref}/",
    "POST /books/entries/{ref}/void/",
    "GET /books/payees/",
    "GET /books/payees/{pk}/",
    "GET /books/healthz/",
    "GET /books/ver/{major}/",
    # AuditedRouter(ExtendedRouter), `include_root_view = False`, trailing_slash=False: no
    # root; both levels' extras
    "GET /mail/v1/threads",
    "POST /mail/v1/threads",
    "GET /mail/v1/healthz/",
    "GET /mail/v1/ver/{major}/",
    "POST /mail/v1/audit/",
    # PlainRouter(SimpleRouter), `super(PlainRouter, self).get_urls() + [...]`
    "GET /mail/v2/labels/",
    "GET /mail/v2/labels/{slug}/",
    "GET /mail/v2/ping",
    # LenientRouter: `self.trailing_slash = "/?"` in `__init__`, named as `reverse()` spells it
    "GET /mail/v4/drafts",
    "GET /mail/v4/drafts/{slug}",
}


def test_a_router_subclass_lists_its_viewsets_routes_and_its_own_entries() -> None:
    assert names(PROJECT) == ROUTER_ROUTES


def test_an_override_not_followed_and_a_non_router_stay_findings_where_used() -> None:
    found = [f for f in findings(PROJECT) if f[0] == "UNRESOLVED_ROUTER"]
    assert [(path, line) for _, path, line, _ in found] == [
        ("hub/urls.py", 9),  # `staff_site.urls`: an AdminSite subclass, no DRF router
        ("inbox/urls.py", 24),  # `magic.urls`: MagicRouter's comprehension is not followed
        ("inbox/urls.py", 26),  # `list_only.urls`: its `__init__` reshapes `self.routes`
    ]
    assert "MagicRouter" in found[1][3] and "hub/plumbing/routing.py:38" in found[1][3]
    assert "ListOnlyRouter" in found[2][3] and "`__init__`" in found[2][3]


def test_a_router_subclass_returning_only_its_own_list_serves_no_viewset() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path\n"
            "from rest_framework.routers import SimpleRouter\n"
            "from proj import views\n"
            "class Frozen(SimpleRouter):\n"
            "    def get_urls(self):\n"
            "        '''Only the status page, whatever is registered.'''\n"
            "        return [path('status/', views.status)]\n"
            "router = Frozen()\n"
            "router.register('items', views.Items, basename='item')\n"
            "urlpatterns = router.urls\n"
        ),
        "proj/views.py": (
            "from rest_framework import viewsets\n"
            "def status(request):\n    pass\n"
            "class Items(viewsets.ModelViewSet):\n    pass\n"
        ),
    }
    assert names(files) == {"ANY /status/"}


def test_a_drf_router_imported_under_another_name_is_followed_to_its_class() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import include, path\n"
            "from rest_framework.routers import SimpleRouter as Router\n"
            "from proj import views\n"
            "router = Router()\n"
            "router.register('items', views.Items, basename='item')\n"
            "urlpatterns = [path('api/', include(router.urls))]\n"
        ),
        "proj/views.py": (
            "from rest_framework import viewsets\n"
            "class Items(viewsets.ReadOnlyModelViewSet):\n    pass\n"
        ),
    }
    assert names(files) == {"GET /api/items/", "GET /api/items/{pk}/"}
    assert findings(files) == []


def test_the_prefilter_changes_nothing_on_the_router_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, PROJECT, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]


BASES = ROOT / "tests" / "fixtures" / "repos" / "django-generic-bases-app"
GENERIC: dict[str, str] = {
    str(p.relative_to(BASES)): p.read_text(encoding="utf-8") for p in sorted(BASES.rglob("*.py"))
}
GENERIC_ROUTES = {
    # FormMixin + SingleObjectTemplateResponseMixin + BaseDetailView, its own `post`
    "GET /t/{pk}/",
    "POST /t/{pk}/",
    # django-filter's FilterView: subclassed (aliased, as a module attribute) and used as is
    "GET /board/",
    "GET /agents/",
    "GET /all/",
    "GET /t/{pk}/close/",  # BaseDeleteView
    "POST /t/{pk}/close/",
    "DELETE /t/{pk}/close/",
    "GET /t/{pk}/retag/",  # BaseUpdateView
    "POST /t/{pk}/retag/",
    "PUT /t/{pk}/retag/",
    "GET /wizard/",  # ProcessFormView
    "POST /wizard/",
    "PUT /wizard/",
    "POST /purge/",  # DeletionMixin + View: the one Django mixin with handlers
    "DELETE /purge/",
    "GET /latest/",  # generic.dates.BaseArchiveIndexView, reached through the package
    "GET /plain/",  # BaseListView used as is
    "GET /old/",  # RedirectView: every method but TRACE
    "POST /old/",
    "PUT /old/",
    "PATCH /old/",
    "DELETE /old/",
    "ANY /gadget/",  # a base of a library the pack does not know
}


def test_library_view_bases_give_the_methods_django_serves() -> None:
    assert names(GENERIC) == GENERIC_ROUTES


def test_a_base_of_an_unknown_library_stays_any_with_its_finding() -> None:
    assert [(c, p, n) for c, p, n, _ in findings(GENERIC)] == [
        ("UNRESOLVED_ROUTE", "desk/urls.py", 20)
    ]


def test_the_prefilter_changes_nothing_on_the_generic_bases_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, GENERIC, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]


COLLECTING = {
    **SETTINGS,
    "proj/urls.py": (
        "from typing import Any, NamedTuple\n"
        "from django.urls import include, path\n"
        "from rest_framework import routers, viewsets\n"
        "class Page(NamedTuple):\n"
        "    route: Any\n"
        "class Collecting(routers.SimpleRouter):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.pages = []\n"
        "    def add_page(self, url, view):\n"
        "        self.pages.append(Page(path(url, view)))\n"
        "    @property\n"
        "    def urls(self):\n"
        "        return super().urls + [p.route for p in self.pages]\n"
        "class Notes(viewsets.ReadOnlyModelViewSet):\n"
        "    pass\n"
        "hub = Collecting()\n"
        "hub.register('notes', Notes)\n"
        "hub.add_page('me/', Notes.as_view({'get': 'list'}))\n"
        "urlpatterns = [path('v2/', include(hub.urls))]\n"
    ),
}


def test_a_router_subclass_adding_entries_out_of_sight_still_lists_its_registrations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`super().urls + [p.route for p in self.pages]`: what `super()` builds is served whatever
    the rest adds, so the registrations are routes, and the entries the pack cannot follow
    are a finding at the override, not a reason to drop every route of the router."""
    assert names(COLLECTING) == {"GET /v2/notes/", "GET /v2/notes/{pk}/"}
    assert [(code, line) for code, path, line, _ in findings(COLLECTING)] == [
        ("UNRESOLVED_ROUTE", 13)
    ]
    documents, _ = scanned_both_ways(tmp_path, COLLECTING, monkeypatch)
    assert documents[0] == documents[1]


BULK = {
    **SETTINGS,
    "proj/routing.py": (
        "from rest_framework import routers as rf\n"
        "class BatchRouter(rf.DefaultRouter):\n"
        "    include_root_view = False\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.routes[0].mapping.update({'put': 'batch_put', 'delete': 'batch_drop'})\n"
        "class CloningRouter(BatchRouter):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.routes[-2].mapping['post'] = 'clone'\n"
        "EXTRA = {'patch': 'batch_patch'}\n"
        "class OpaqueRouter(rf.SimpleRouter):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.routes[0].mapping.update(EXTRA)\n"
    ),
    "proj/mixins.py": (
        "class BatchMixin:\n"
        "    def batch_put(self, request):\n"
        "        pass\n"
        "    def batch_drop(self, request):\n"
        "        pass\n"
    ),
    "proj/urls.py": (
        "from django.urls import include, path\n"
        "from rest_framework import viewsets\n"
        "from proj import routing\n"
        "from proj.mixins import BatchMixin\n"
        "class Crates(BatchMixin, viewsets.ModelViewSet):\n"
        "    def clone(self, request, pk=None):\n"
        "        pass\n"
        "class Labels(viewsets.ReadOnlyModelViewSet):\n"
        "    pass\n"
        "one = routing.CloningRouter()\n"
        "one.register('crates', Crates)\n"
        "one.register('labels', Labels)\n"
        "two = routing.OpaqueRouter()\n"
        "two.register('bins', Labels)\n"
        "urlpatterns = [path('a/', include(one.urls)), path('b/', include(two.urls))]\n"
    ),
}


def test_a_router_subclass_adding_methods_to_drfs_routes_serves_them_where_defined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`self.routes[0].mapping.update({...})` and `self.routes[-2].mapping[m] = ...` in the
    `__init__` of a router subclass (two levels): the methods are added to DRF's list and
    detail routes, each served only where the viewset has the action (DRF's
    `get_method_map`); a mapping that is not literal stays the finding where it is used."""
    crud = {"GET /a/crates/", "POST /a/crates/", "GET /a/crates/{pk}/", "PUT /a/crates/{pk}/",
            "PATCH /a/crates/{pk}/", "DELETE /a/crates/{pk}/"}  # fmt: skip
    assert names(BULK) == crud | {
        "PUT /a/crates/",
        "DELETE /a/crates/",
        "POST /a/crates/{pk}/",
        "GET /a/labels/",
        "GET /a/labels/{pk}/",
    }
    found = findings(BULK)
    assert [(code, path, line) for code, path, line, _ in found] == [
        ("UNRESOLVED_ROUTE", "proj/urls.py", 10),  # DefaultRouter's `.json` suffixes
        ("UNRESOLVED_ROUTER", "proj/urls.py", 15),
    ]
    assert "suffix" in found[0][3]
    assert "OpaqueRouter" in found[1][3] and "`__init__`" in found[1][3]
    documents, parsed = scanned_both_ways(tmp_path, BULK, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]


TABLES = {
    **SETTINGS,
    "proj/tables.py": (
        "from rest_framework.routers import DynamicRoute, Route, SimpleRouter\n"
        "class ReadRouter(SimpleRouter):\n"
        "    routes = [\n"
        "        Route(url=r'^{prefix}$', mapping={'get': 'list'}, name='{basename}-list',\n"
        "              detail=False, initkwargs={'suffix': 'List'}),\n"
        "        Route(r'^{prefix}/{lookup}$', {'get': 'retrieve'}, '{basename}-detail', True,\n"
        "              {'suffix': 'Detail'}),\n"
        "        DynamicRoute(url=r'^{prefix}/{lookup}/{url_path}$', name='{basename}-{url_name}',\n"
        "                     detail=True, initkwargs={}),\n"
        "    ]\n"
        "class WriteRouter(ReadRouter):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.routes[0].mapping['post'] = 'create'\n"
        "class FlatRouter(SimpleRouter):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.routes = [Route(url=r'^{prefix}/all{trailing_slash}$',\n"
        "                             mapping={'get': 'list'}, name='{basename}-all',\n"
        "                             detail=False, initkwargs={})]\n"
    ),
    "proj/urls.py": (
        "from django.urls import include, path\n"
        "from rest_framework import viewsets\n"
        "from rest_framework.decorators import action\n"
        "from proj import tables\n"
        "class Boxes(viewsets.ModelViewSet):\n"
        "    lookup_field = 'code'\n"
        "    @action(detail=True, methods=['post'])\n"
        "    def seal(self, request, code=None):\n"
        "        pass\n"
        "    @action(detail=False)\n"
        "    def recent(self, request):\n"
        "        pass\n"
        "rw = tables.WriteRouter()\n"
        "rw.register('boxes', Boxes)\n"
        "flat = tables.FlatRouter()\n"
        "flat.register('boxes', Boxes)\n"
        "urlpatterns = [path('r/', include(rw.urls)), path('f/', include(flat.urls))]\n"
    ),
}


def test_a_router_subclass_with_its_own_route_table_serves_what_it_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A literal `routes = [Route(...), DynamicRoute(...)]` class attribute (keywords and
    positions), a subclass's `__init__` adding a method to it, and `self.routes = [...]` in
    `__init__`: each route's URL filled as DRF fills it, its methods where the viewset has
    the action, `@action`s only where a `DynamicRoute` of their `detail` serves them."""
    assert names(TABLES) == {
        "GET /r/boxes",
        "POST /r/boxes",
        "GET /r/boxes/{code}",
        "POST /r/boxes/{code}/seal",
        "GET /f/boxes/all/",
    }
    assert findings(TABLES) == []
    documents, parsed = scanned_both_ways(tmp_path, TABLES, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]


def test_a_paginator_beside_apiview_adds_no_handler_method() -> None:
    """`class Listing(APIView, LimitOffsetPagination)`: DRF's paginators define no handler,
    so the view answers its own methods, not `ANY` with a finding."""
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path\n"
            "from shelf import views as v\n"
            "urlpatterns = [path('shelf/', v.Listing.as_view()), path('deck/', v.Deck.as_view())]\n"
        ),
        "shelf/views.py": (
            "from rest_framework.views import APIView\n"
            "from rest_framework import pagination\n"
            "from vendorlib.paging import Pager\n"
            "class Listing(APIView, pagination.LimitOffsetPagination):\n"
            "    def get(self, request): ...\n"
            "    def post(self, request): ...\n"
            "class Deck(APIView, Pager):\n"
            "    def get(self, request): ...\n"
        ),
    }
    assert names(files) == {"ANY /deck/", "GET /shelf/", "POST /shelf/"}
