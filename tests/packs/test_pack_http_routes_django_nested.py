"""pack-http-routes on the Django constructs real projects use that the first reader missed
(`packs/routes/django_facts.py`, `packs/routes/django_linker.py`), each found on a repository
of bench/real_repos and written here as our own code: drf-nested-routers (nested twice, across
files, lookups and trailing slashes inherited), routes computed from module constants,
f-strings and settings (also star-imported), a constant or a URL list a branch rebinds, a list
wrapped in a namespace of its own, a callable object as view, `register("")`, optional and
unnamed regex groups, library views, converters that tell routes apart and
`i18n_patterns(prefix_default_language=False)`.

tests/fixtures/repos/django-nested-app holds most of them; its expected routes below are what
Django 6.1, DRF 3.16 and drf-nested-routers 0.95 serve for it (`get_resolver()` walked by
bench/real_repos/derive/django_runtime_routes.py gives exactly these 21 names)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes.django_linker import django_paths  # noqa: E402
from routes_harness import document, fixture_files, names, scanned_both_ways  # noqa: E402

PROJECT = fixture_files("django-nested-app")
SETTINGS = {"proj/settings.py": "ROOT_URLCONF = 'proj.urls'\n"}


def flagged(files: dict[str, str]) -> dict[str, bool]:
    """Route name -> whether its prefix is flagged as not fully known."""
    return {
        str(r["name"]): bool(r["attrs"].get("prefixUnresolved"))
        for r in document(files)["resources"]
    }


def findings(files: dict[str, str]) -> list[tuple[str, str, int]]:
    return sorted(
        (str(f["code"]), str(f["locations"][0]["path"]), int(f["locations"][0]["line"]))
        for f in document(files)["findings"]
    )


NESTED = {
    "GET /api/v3/depots",
    "GET /api/v3/depots/{code}",
    "GET /api/v3/depots/{depot_code}/bays",
    "GET /api/v3/depots/{depot_code}/bays/{number}",
    "POST /api/v3/depots/{depot_code}/bays/{number}/reserve",
    "GET /api/v3/depots/{depot_code}/bays/{bay_number}/slots/",
    "POST /api/v3/depots/{depot_code}/bays/{bay_number}/slots/",
    "GET /api/v3/depots/{depot_code}/bays/{bay_number}/slots/{pk}/",
    "PUT /api/v3/depots/{depot_code}/bays/{bay_number}/slots/{pk}/",
    "PATCH /api/v3/depots/{depot_code}/bays/{bay_number}/slots/{pk}/",
    "DELETE /api/v3/depots/{depot_code}/bays/{bay_number}/slots/{pk}/",
}
PLAIN = {
    "ANY /status/",
    "ANY /press/news.rss",
    "ANY /open/docs/",
    "ANY /tiles/{zoom}/{col}",
    "ANY /tiles/{zoom}/{col}{fmt}",
    "ANY /legacy/{_0}/",
    "POST /signout/",
    "ANY /ticket/{key}/",
}
LANGUAGES = {"ANY /about/", "ANY /{language}/about/"}


def test_the_fixture_lists_what_django_serves_for_it() -> None:
    assert names(PROJECT) == NESTED | PLAIN | LANGUAGES


def test_a_conditional_rebinding_is_flagged_at_its_place_and_nothing_else_is() -> None:
    """`mount` is rebound to a computed value and `urlpatterns` wrapped under a computed
    prefix, each in an `if`: the routes are named as served when the branch does not run, and
    flagged; the `i18n_patterns` routes, added after the wrap, are not."""
    marks = flagged(PROJECT)
    assert {n for n, f in marks.items() if not f} == LANGUAGES
    assert ("UNRESOLVED_PREFIX", "fleet/urls.py", 16) in findings(PROJECT)
    wrap = [f for f in document(PROJECT)["findings"] if "under another prefix" in str(f["detail"])]
    assert len(wrap) == 1
    assert {"path": "fleet/urls.py", "line": 36} in wrap[0]["locations"]


def test_converters_tell_routes_apart_and_a_true_duplicate_is_still_one() -> None:
    assert not any(code == "DUPLICATE_ROUTE" for code, _, _ in findings(PROJECT))
    same = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path\n"
            "from proj import views\n"
            "urlpatterns = [\n"
            "    path('k/<int:n>/', views.a),\n"
            "    path('k/<int:m>/', views.b),\n"
            "    path('k/<str:m>/', views.b),\n"
            "]\n"
        ),
        "proj/views.py": "def a(request, n):\n    pass\ndef b(request, m):\n    pass\n",
    }
    found = [f for f in document(same)["findings"] if f["code"] == "DUPLICATE_ROUTE"]
    assert len(found) == 1
    assert [w["line"] for w in found[0]["locations"]] == [4, 5]


def test_the_prefilter_changes_nothing_on_the_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, PROJECT, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]


VIEWSETS = (
    "from rest_framework import viewsets\n"
    "class Owners(viewsets.ModelViewSet):\n    pass\n"
    "class Pets(viewsets.ReadOnlyModelViewSet):\n    lookup_field = 'tag'\n"
)


def test_a_nested_router_without_lookup_is_named_as_drf_nested_routers_counts_it() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import include, path\n"
            "from rest_framework.routers import DefaultRouter\n"
            "from rest_framework_nested.routers import NestedDefaultRouter\n"
            "from proj.sets import Owners, Pets\n"
            "top = DefaultRouter(include_format_suffixes=False)\n"
            "top.register('owners', Owners)\n"
            "under = NestedDefaultRouter(top, 'owners')\n"
            "under.register('pets', Pets)\n"
            "urlpatterns = [path('', include(top.urls)), path('x/', include(under.urls))]\n"
        ),
        "proj/sets.py": VIEWSETS,
    }
    found = names(files)
    # `nested_1_` is the prefix drf-nested-routers gives a first-level router with no lookup
    assert "GET /x/owners/{nested_1_pk}/pets/{tag}/" in found
    assert "GET /x/owners/{nested_1_pk}/pets/" in found
    assert "GET /x/" in found  # a nested DefaultRouter's own API root, at its include


def test_a_nested_router_whose_parent_registration_is_not_shown_is_a_finding() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import include, path\n"
            "from rest_framework.routers import SimpleRouter\n"
            "from rest_framework_nested import routers\n"
            "from proj.sets import Owners, Pets\n"
            "top = SimpleRouter()\n"
            "top.register('owners', Owners)\n"
            "lost = routers.NestedSimpleRouter(top, 'people', lookup='person')\n"
            "lost.register('pets', Pets)\n"
            "urlpatterns = [path('', include(lost.urls))]\n"
        ),
        "proj/sets.py": VIEWSETS,
    }
    assert names(files) == set()
    assert ("UNRESOLVED_ROUTE", "proj/urls.py", 7) in findings(files)


def test_an_empty_registration_prefix_serves_the_list_at_the_include() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import include, path\n"
            "from rest_framework.routers import SimpleRouter\n"
            "from proj.sets import Owners\n"
            "only = SimpleRouter()\n"
            "only.register('', Owners, basename='owner')\n"
            "urlpatterns = [path('api/owners/', include(only.urls))]\n"
        ),
        "proj/sets.py": VIEWSETS,
    }
    assert names(files) == {
        "GET /api/owners/",
        "POST /api/owners/",
        "GET /api/owners/{pk}/",
        "PUT /api/owners/{pk}/",
        "PATCH /api/owners/{pk}/",
        "DELETE /api/owners/{pk}/",
    }


def test_a_list_rebound_from_itself_keeps_its_routes_under_the_new_route() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import include, path\n"
            "from proj import views\n"
            "extra = [path('b/', views.page)]\n"
            "urlpatterns = [path('a/', views.page)]\n"
            "urlpatterns = [path('site/', include((urlpatterns, 'site'), namespace='s'))]\n"
            "urlpatterns = urlpatterns + [path('c/', include(extra))]\n"
        ),
        "proj/views.py": "def page(request):\n    pass\n",
    }
    assert names(files) == {"ANY /site/a/", "ANY /c/b/"}
    assert not any(flagged(files).values())


def test_a_computed_route_a_branch_rebinds_from_an_import_and_settings() -> None:
    files = {
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nDOCS_AT = 'manual/'\n",
        "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings')\n",
        "proj/names.py": "AREA = 'zone'\n",
        "proj/urls.py": (
            "from django.conf import settings as conf\n"
            "from django.urls import path\n"
            "from proj import views\n"
            "from proj.names import AREA\n"
            "lead = 'x/'\n"
            "try:\n"
            "    from proj.local import lead\n"
            "except ImportError:\n"
            "    lead = 'y/'\n"
            "urlpatterns = [\n"
            "    path(f'{AREA}/{lead}', views.page),\n"
            "    path(conf.DOCS_AT + 'read/', views.page),\n"
            "    path(conf.MISSING, views.page),\n"
            "]\n"
        ),
        "proj/views.py": "def page(request):\n    pass\n",
    }
    assert names(files) == {"ANY /zone/x/", "ANY /manual/read/"}
    assert flagged(files)["ANY /zone/x/"] is True
    assert ("UNRESOLVED_PREFIX", "proj/urls.py", 9) in findings(files)
    assert ("UNRESOLVED_ROUTE", "proj/urls.py", 13) in findings(files)


def test_library_views_answer_their_known_methods_and_a_callable_object_every_one() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.contrib.auth.views import LogoutView, PasswordResetDoneView\n"
            "from django.urls import path\n"
            "from django.views.i18n import JavaScriptCatalog\n"
            "from rest_framework.authtoken.views import obtain_auth_token\n"
            "from rest_framework_simplejwt.views import TokenRefreshView\n"
            "from proj.hooks import Inbox\n"
            "urlpatterns = [\n"
            "    path('out/', LogoutView.as_view()),\n"
            "    path('done/', PasswordResetDoneView.as_view()),\n"
            "    path('js/', JavaScriptCatalog.as_view()),\n"
            "    path('token/', obtain_auth_token),\n"
            "    path('refresh/', TokenRefreshView.as_view()),\n"
            "    path('inbox/', Inbox()),\n"
            "]\n"
        ),
        "proj/hooks.py": "class Inbox:\n    def __call__(self, request):\n        pass\n",
    }
    assert names(files) == {
        "POST /out/",
        "GET /done/",
        "GET /js/",
        "POST /token/",
        "POST /refresh/",
        "ANY /inbox/",
    }


@pytest.mark.parametrize(
    ("regex", "expected"),
    [
        (r"^t/(?P<z>\d+)\.?(?P<ext>png|jpg)?$", ("t/{z}", "t/{z}{ext}")),
        (r"^node/([\d]+)/(.*)$", ("node/{_0}/{_1}",)),
        (r"^(?:(?P<lang>[a-z]{2})/)?home/$", ("home/", "{lang}/home/")),
        (r"^a/(?:b/)?(?:c/)?$", ("a/", "a/c/", "a/b/", "a/b/c/")),
        (r"^v(?:1|2)/$", None),
    ],
)
def test_optional_and_unnamed_groups_are_named_as_reverse_spells_them(
    regex: str, expected: tuple[str, ...] | None
) -> None:
    assert django_paths(regex, True) == expected


def test_schema_views_a_library_makes_answer_get() -> None:
    """drf-yasg's `schema_view.with_ui(...)`/`.without_ui(...)` of a `get_schema_view(...)` of
    the same file, and DRF's own `get_schema_view(...)` used as the view: GET (auth `unknown`:
    their permission options are the library's)."""
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path, re_path\n"
            "from drf_yasg.views import get_schema_view as yasg_schema\n"
            "from rest_framework.schemas import get_schema_view\n"
            "docs_view = yasg_schema(None, public=True)\n"
            "urlpatterns = [\n"
            "    re_path(r'^spec(?P<format>\\.json|\\.yaml)$', docs_view.without_ui(cache_timeout=0)),\n"
            "    path('ui/', docs_view.with_ui('redoc', cache_timeout=0)),\n"
            "    path('openapi', get_schema_view(title='Fleet')),\n"
            "]\n"
        ),
    }
    assert names(files) == {"GET /spec{format}", "GET /ui/", "GET /openapi"}


def test_view_bases_that_shadow_mix_in_or_come_from_the_standard_library() -> None:
    """A class named as the generic view it subclasses (`class ListView(Mixin, ListView)`:
    the base is the import the name had before), a third-party mixin and `abc.ABC` among the
    bases: the methods are the generic view's, not `ANY`."""
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path\n"
            "from proj import boards\n"
            "urlpatterns = [\n"
            "    path('list/', boards.ListView.as_view()),\n"
            "    path('edit/', boards.Editor.as_view()),\n"
            "    path('stats/', boards.Stats.as_view()),\n"
            "]\n"
        ),
        "proj/boards.py": (
            "import abc\n"
            "from django.views.generic import ListView, UpdateView\n"
            "from guards.views import OwnerOnlyMixin\n"
            "from rest_framework.views import APIView\n"
            "class ListView(OwnerOnlyMixin, ListView):\n    pass\n"
            "class Editor(OwnerOnlyMixin, UpdateView):\n    pass\n"
            "class Tally(abc.ABC, APIView):\n"
            "    def get(self, request):\n        pass\n"
            "class Stats(Tally):\n    pass\n"
        ),
    }
    assert names(files) == {
        "GET /list/",
        "GET /edit/",
        "POST /edit/",
        "PUT /edit/",
        "GET /stats/",
    }


def test_a_viewset_bound_to_an_action_map_in_the_urlconf_answers_its_keys() -> None:
    files = {
        **SETTINGS,
        "proj/urls.py": (
            "from django.urls import path\n"
            "from proj.sets import Owners\n"
            "urlpatterns = [\n"
            "    path('who/', Owners.as_view({'get': 'list', 'post': 'create'})),\n"
            "    path('ping/', Owners.as_view(actions={'get': 'ping'})),\n"
            "]\n"
        ),
        "proj/sets.py": VIEWSETS,
    }
    assert names(files) == {"GET /who/", "POST /who/", "GET /ping/"}


def test_the_folder_of_manage_py_is_an_import_root_even_when_it_is_a_package() -> None:
    """`backend/__init__.py` makes `backend` a package, but `python backend/manage.py` puts
    `backend/` on `sys.path`: `config.urls` is `backend/config/urls.py`."""
    files = {
        "backend/__init__.py": "",
        "backend/manage.py": (
            "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')\n"
        ),
        "backend/config/__init__.py": "",
        "backend/config/settings.py": "ROOT_URLCONF = 'config.urls'\n",
        "backend/config/urls.py": (
            "from django.urls import include, path\n"
            "urlpatterns = [path('v1/', include('shelf.urls'))]\n"
        ),
        "backend/shelf/__init__.py": "",
        "backend/shelf/urls.py": (
            "from django.urls import path\n"
            "from shelf import views\n"
            "urlpatterns = [path('books/', views.books)]\n"
        ),
        "backend/shelf/views.py": (
            "from django.views.decorators.http import require_GET\n"
            "@require_GET\ndef books(request):\n    pass\n"
        ),
    }
    assert names(files) == {"GET /v1/books/"}
