"""pack-http-routes on Django views and URL lists that come from an installed library the scan
cannot read (issue 34 class 4, issue 36's Django row; `packs/routes/django_library_views.py`):
the project's class views below a library's view class (django-oauth-toolkit's generic views,
allauth's `SignupView`, dj-rest-auth's `SocialLoginView`), a library view used as it is
(ariadne-django's `GraphQLView` under an alias, a submodule's class), and a library's
module-level URL list spliced into or included in the project's own URLconf. Our own code, not
a repository's; the methods named are those of each library's released source (the record
cites it), HEAD and OPTIONS left out as for every view."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, names, placed, scanned_both_ways  # noqa: E402

_SETTINGS = (
    "ROOT_URLCONF = 'hub.urls'\n"
    "SECRET_KEY = 'x'\n"
    "INSTALLED_APPS = ['django.contrib.auth', 'oauth2_provider', 'allauth', 'allauth.account']\n"
)

VIEWS_BELOW_LIBRARY_CLASSES: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hub.settings')\n",
    "hub/__init__.py": "",
    "hub/settings.py": _SETTINGS,
    "hub/urls.py": (
        "from ariadne_django.views import GraphQLView as Gql\n"
        "from django.urls import include, path\n"
        "from oauth2_provider.views import base as provider_base\n"
        "\n"
        "from clients import pages\n"
        "from graph.schema import schema\n"
        "\n"
        "urlpatterns = [\n"
        "    path('graph/', Gql.as_view(schema=schema)),\n"
        "    path('grant/', provider_base.TokenView.as_view()),\n"
        "    path('clients/', include(pages.patterns)),\n"
        "]\n"
    ),
    "graph/__init__.py": "",
    "graph/schema.py": "schema = None\n",
    "clients/__init__.py": "",
    "clients/pages.py": (
        "from allauth.account.views import SignupView\n"
        "from dj_rest_auth.registration.views import SocialLoginView\n"
        "from django.urls import path, re_path\n"
        "from oauth2_provider import views as o2\n"
        "from oauth2_provider.views.generic import ProtectedResourceView\n"
        "\n"
        "\n"
        "class OwnedOnly:\n"
        "    def get_queryset(self):\n"
        "        return []\n"
        "\n"
        "\n"
        "class Shown(OwnedOnly, o2.ApplicationDetail):\n"
        "    pass\n"
        "\n"
        "\n"
        "class Erased(OwnedOnly, o2.ApplicationDelete):\n"
        "    http_method_names = ['get', 'delete']\n"
        "\n"
        "\n"
        "class Join(SignupView):\n"
        "    def dispatch(self, request, *args, **kwargs):\n"
        "        return super().dispatch(request, *args, **kwargs)\n"
        "\n"
        "\n"
        "class Federated(SocialLoginView):\n"
        "    callback_url = '/home'\n"
        "\n"
        "\n"
        "class Ping(ProtectedResourceView):\n"
        "    def get(self, request):\n"
        "        return None\n"
        "\n"
        "\n"
        "patterns = [\n"
        "    path('<int:pk>/', Shown.as_view()),\n"
        "    path('<int:pk>/erase/', Erased.as_view()),\n"
        "    re_path(r'^join/?$', Join.as_view()),\n"
        "    path('federated/', Federated.as_view()),\n"
        "    path('ping/', Ping.as_view()),\n"
        "    path('bare/', ProtectedResourceView.as_view()),\n"
        "]\n"
    ),
}

EXPECTED_VIEWS = [
    "DELETE /clients/{pk}/erase/",
    "GET /clients/join",
    "GET /clients/ping/",
    "GET /clients/{pk}/",
    "GET /clients/{pk}/erase/",
    "GET /graph/",
    "POST /clients/federated/",
    "POST /clients/join",
    "POST /grant/",
    "POST /graph/",
    "PUT /clients/join",
]


# a project mixin written on `object` (its own `dispatch`) before a library view: the methods
# are the library view's, as Python's MRO gives them; a project view on `object` with its own
# handler answers that one
A_MIXIN_ON_OBJECT: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_.conf')\n",
    "site_/__init__.py": "",
    "site_/conf.py": "ROOT_URLCONF = 'site_.routes'\n",
    "site_/guards.py": (
        "class Gatekeeper(object):\n"
        "    teams = None\n"
        "\n"
        "    def dispatch(self, request, *args, **kwargs):\n"
        "        return super(Gatekeeper, self).dispatch(request, *args, **kwargs)\n"
    ),
    "site_/pages.py": (
        "from drf_spectacular.views import SpectacularRedocView\n"
        "\n"
        "from .guards import Gatekeeper\n"
        "\n"
        "\n"
        "class Reference(Gatekeeper, SpectacularRedocView):\n"
        "    teams = ['staff']\n"
        "\n"
        "\n"
        "class Query(object):\n"
        "    def post(self, request):\n"
        "        return None\n"
    ),
    "site_/routes.py": (
        "from django.urls import path\n"
        "\n"
        "from . import pages\n"
        "\n"
        "urlpatterns = [\n"
        "    path('reference/', pages.Reference.as_view(url_name='schema')),\n"
        "    path('query/', pages.Query.as_view()),\n"
        "]\n"
    ),
}


# library function views that restrict no method (Django calls them for every one: `ANY`,
# known, so no finding) and a library class view by its record, under aliases and modules
LIBRARY_FUNCTION_VIEWS: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'depot.prefs')\n",
    "depot/__init__.py": "",
    "depot/prefs.py": "ROOT_URLCONF = 'depot.links'\nMEDIA_ROOT = '/srv/m'\n",
    "depot/maps.py": "SECTIONS = {}\n",
    "depot/links.py": (
        "from django.contrib.sitemaps import views as maps_views\n"
        "from django.urls import path, re_path\n"
        "from django.views import i18n\n"
        "from django.views.static import serve as hand_out\n"
        "from wagtail.images.views.serve import ServeView as Picture\n"
        "\n"
        "from .maps import SECTIONS\n"
        "\n"
        "urlpatterns = [\n"
        "    re_path(r'^files/(?P<path>.*)$', hand_out, {'document_root': '/srv/m'}),\n"
        "    path('map.xml', maps_views.index, {'sitemaps': SECTIONS}),\n"
        "    path('map-<section>.xml', maps_views.sitemap, {'sitemaps': SECTIONS}),\n"
        "    path('lang/', i18n.set_language),\n"
        "    re_path(r'^pic/([^/]*)/(\\d*)/([^/]*)/$', Picture.as_view()),\n"
        "]\n"
    ),
}


LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hub.settings')\n",
    "hub/__init__.py": "",
    "hub/settings.py": _SETTINGS,
    "hub/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "urlpatterns = [\n"
        "    path('auth/', include('hub.auth_urls')),\n"
        "    path('provider/', include('oauth2_provider.urls')),\n"
        "]\n"
    ),
    "hub/auth_urls.py": (
        "import oauth2_provider.urls as provider_urls\n"
        "from django.urls import include, path\n"
        "from oauth2_provider.urls import base_urlpatterns as core\n"
        "\n"
        "from .views import health\n"
        "\n"
        "ours = [path('health/', health)]\n"
        "urlpatterns = core + ours + [\n"
        "    path('manage/', include(provider_urls.management_urlpatterns)),\n"
        "]\n"
    ),
    "hub/views.py": (
        "from django.views.decorators.http import require_GET\n"
        "\n"
        "\n"
        "@require_GET\n"
        "def health(request):\n"
        "    return None\n"
    ),
}

EXPECTED_LISTS = sorted(
    [
        "GET /auth/health/",
        *(
            f"{m} /auth/{r}"
            for r, ms in (
                ("authorize/", "GET POST PUT"),
                ("token/", "POST"),
                ("revoke_token/", "POST"),
                ("introspect/", "GET POST"),
                ("device-authorization/", "POST"),
                ("device/", "GET POST PUT"),
                ("device-confirm/{client_id}/{user_code}", "GET POST PUT"),
                ("device-grant-status/{client_id}/{user_code}", "GET"),
                ("manage/applications/", "GET"),
                ("manage/applications/register/", "GET POST PUT"),
                ("manage/applications/{pk}/", "GET"),
                ("manage/applications/{pk}/delete/", "GET POST DELETE"),
                ("manage/applications/{pk}/update/", "GET POST PUT"),
                ("manage/authorized_tokens/", "GET"),
                ("manage/authorized_tokens/{pk}/delete/", "GET POST DELETE"),
            )
            for m in ms.split()
        ),
    ]
)


def test_views_below_library_classes_answer_the_methods_the_library_gives_them() -> None:
    assert sorted(names(VIEWS_BELOW_LIBRARY_CLASSES)) == EXPECTED_VIEWS


def test_a_library_view_with_no_handler_is_a_finding_where_it_is_used() -> None:
    places = finding_places(VIEWS_BELOW_LIBRARY_CLASSES)
    assert places == {"UNRESOLVED_ROUTE": ["clients/pages.py:41"]}


def test_a_library_url_list_in_the_projects_urlconf_lists_its_routes() -> None:
    assert sorted(names(LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF)) == EXPECTED_LISTS
    located = placed(LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF)
    assert located["POST /auth/token/"] == "hub/auth_urls.py:8 django"
    assert located["GET /auth/manage/applications/"] == "hub/auth_urls.py:9 django"


def test_library_routes_of_later_releases_say_the_release_they_need() -> None:
    resources = document(LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF)["resources"]
    marked = {
        str(r["name"]): r["attrs"].get("configDefault") for r in resources if "device" in r["name"]
    }
    assert len(marked) == 8
    assert set(marked.values()) == {
        "django-oauth-toolkit 3.2.0 or later (served from that release on)"
    }
    token = next(r for r in resources if r["name"] == "POST /auth/token/")
    assert "configDefault" not in token["attrs"]


def test_a_library_urlconf_included_by_module_stays_a_finding_naming_it() -> None:
    places = finding_places(LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF)
    assert places == {"UNRESOLVED_ROUTER": ["hub/urls.py:5"]}


def test_a_project_mixin_on_object_keeps_the_library_views_methods() -> None:
    assert sorted(names(A_MIXIN_ON_OBJECT)) == ["GET /reference/", "POST /query/"]
    assert finding_places(A_MIXIN_ON_OBJECT) == {}


def test_library_function_views_are_any_and_known() -> None:
    assert sorted(names(LIBRARY_FUNCTION_VIEWS)) == [
        "ANY /files/{path}",
        "ANY /lang/",
        "ANY /map-{section}.xml",
        "ANY /map.xml",
        "GET /pic/{_0}/{_1}/{_2}/",
    ]
    assert finding_places(LIBRARY_FUNCTION_VIEWS) == {}


# a library's module-level views bound to its classes (`login = LoginView.as_view()` in
# allauth's `account/views.py`), used by the project under a module alias, a renamed import
# and a full dotted import, nested in an included list of another file: each answers its
# class's methods (by the record's `aliases`); a name the record does not hold stays `ANY`
# with a finding where it is written
LIBRARY_VIEWS_BOUND_TO_CLASSES: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'portal.config')\n",
    "portal/__init__.py": "",
    "portal/config.py": "ROOT_URLCONF = 'portal.entry'\n",
    "portal/entry.py": (
        "from allauth.account import views as acct\n"
        "from django.urls import include, path\n"
        "\n"
        "urlpatterns = [\n"
        "    path('session/', include([\n"
        "        path('open/', acct.login),\n"
        "        path('close/', acct.logout),\n"
        "    ])),\n"
        "    path('people/', include('portal.people')),\n"
        "]\n"
    ),
    "portal/people.py": (
        "import allauth.mfa.base.views\n"
        "from allauth.account.views import password_reset_done as mailed\n"
        "from allauth.socialaccount.views import login_error as oops, signup as join_via\n"
        "from allauth.account import views as acct\n"
        "from django.urls import path, re_path\n"
        "\n"
        "urlpatterns = [\n"
        "    path('mailed/', mailed),\n"
        "    path('oops/', oops),\n"
        "    re_path(r'^join-via/$', join_via),\n"
        "    path('second-factor/', allauth.mfa.base.views.authenticate),\n"
        "    path('mystery/', acct.not_a_view_of_the_release),\n"
        "]\n"
    ),
}

EXPECTED_BOUND = [
    "ANY /people/mystery/",
    "GET /people/join-via/",
    "GET /people/mailed/",
    "GET /people/oops/",
    "GET /people/second-factor/",
    "GET /session/close/",
    "GET /session/open/",
    "POST /people/join-via/",
    "POST /people/second-factor/",
    "POST /session/close/",
    "POST /session/open/",
    "PUT /people/join-via/",
    "PUT /session/open/",
]


def test_library_views_bound_to_classes_answer_their_classes_methods() -> None:
    assert sorted(names(LIBRARY_VIEWS_BOUND_TO_CLASSES)) == EXPECTED_BOUND
    assert finding_places(LIBRARY_VIEWS_BOUND_TO_CLASSES) == {
        "UNRESOLVED_ROUTE": ["portal/people.py:12"]
    }


def test_every_alias_of_a_record_names_one_of_its_views() -> None:
    from packs.routes.django_library_views import LIBRARY_VIEWS, library_view_methods

    for record in LIBRARY_VIEWS:
        held = dict(record.views)
        for alias, cls in record.aliases:
            assert cls in held, (record.source, alias)
            for module in record.modules:
                assert library_view_methods(f"{module}.{alias}") == held[cls]
    assert library_view_methods("allauth.account.views.login") == ("get", "post", "put")


@pytest.mark.parametrize(
    "files",
    [
        VIEWS_BELOW_LIBRARY_CLASSES,
        LIBRARY_LISTS_IN_THE_PROJECTS_URLCONF,
        A_MIXIN_ON_OBJECT,
        LIBRARY_FUNCTION_VIEWS,
        LIBRARY_VIEWS_BOUND_TO_CLASSES,
    ],
    ids=["views", "lists", "object", "functions", "bound"],
)
def test_the_prefilter_changes_nothing_on_library_views(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
