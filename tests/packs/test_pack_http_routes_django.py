"""pack-http-routes: Django URLconf and Django REST framework (`packs/routes/django_facts.py`,
`packs/routes/django_linker.py`). A small project of our own
(tests/fixtures/repos/django-rest-app, also in the pre-filter identity tests of
test_pack_robust.py): a settings module named by
manage.py (through `from .base import *`), a root URLconf with nested includes (a module
string, a module object, a `(patterns, app_name)` tuple, an inline list, `+=`, `.extend`, a
conditional append), function views (unrestricted, `@require_http_methods`, `@require_GET`),
class-based views (their own methods, generic bases, `http_method_names`, a guarding mixin),
a DRF router app (viewsets, mixins, `@action`s, lookup fields, permission classes,
`@api_view`, `APIView`), and the constructs that are findings."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import extract, route_document, seeds  # noqa: E402
from packs.routes.django_linker import django_path, django_paths  # noqa: E402
from routes_harness import document, names, scanned_both_ways  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "repos" / "django-rest-app"
PROJECT: dict[str, str] = {
    str(p.relative_to(FIXTURE)): p.read_text(encoding="utf-8")
    for p in sorted(FIXTURE.rglob("*.py"))
}


def routes(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its `attrs.framework`."""
    return {str(r["name"]): str(r["attrs"]["framework"]) for r in document(files)["resources"]}


def auths(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its auth signal."""
    linked = route_document([(p, extract(p, s)) for p, s in sorted(files.items())])
    return {str(s["resource"]).removeprefix("route:"): str(s["value"]) for s in linked.signals}


def codes(files: dict[str, str]) -> list[tuple[str, str]]:
    return sorted(
        (str(f["code"]), str(f["locations"][0]["path"])) for f in document(files)["findings"]
    )


def test_a_django_project_lists_its_urlconf_and_rest_framework_routes() -> None:
    found = set(routes(PROJECT))
    # `if settings.DEBUG:` adds `debug/`; the settings module sets `DEBUG = False`: its default
    # configuration, so not listed (a finding there says why)
    assert found == {
        "ANY /",
        "GET /legacy/{year}/",
        "POST /legacy/{year}/",
        "GET /catalog/items/{pk}/",
        "GET /catalog/items/",
        "GET /help/faq/",
        "GET /help/contact/",
        "POST /help/contact/",
        "GET /about/",
        "DELETE /about/",
        # DefaultRouter: the API root, then each registration's generated routes
        "GET /api/",
        "GET /api/orders/",
        "POST /api/orders/",
        "GET /api/orders/{number}/",
        "PUT /api/orders/{number}/",
        "PATCH /api/orders/{number}/",
        "DELETE /api/orders/{number}/",
        "POST /api/orders/{number}/cancel-now/",
        "GET /api/orders/recent/",
        "GET /api/tags/",
        "GET /api/tags/{slug}/",
        # SimpleRouter(trailing_slash=False): only the actions NoteViewSet defines
        "GET /api/v2/notes",
        "DELETE /api/v2/notes/{pk}",
        "GET /api/ping/",
        "POST /api/ping/",
        "GET /api/me/",
    }
    assert set(routes(PROJECT).values()) == {"django"}
    details = [str(f["detail"]) for f in document(PROJECT)["findings"]]
    assert any("(`DEBUG = False` at shop/settings/__init__.py:2) it is false" in d for d in details)


def test_auth_comes_from_permission_classes_mixins_and_settings() -> None:
    auth = auths(PROJECT)
    assert auth["GET /about/"] == "required"  # LoginRequiredMixin
    assert auth["ANY /"] == "none"  # a plain function view: everything on the way is known
    assert auth["GET /api/"] == "required"  # the API root: DEFAULT_PERMISSION_CLASSES
    assert auth["GET /api/me/"] == "required"  # APIView without its own: the settings' default
    assert auth["GET /api/orders/"] == "required"  # a custom class that checks the user
    assert auth["GET /api/tags/"] == "none"  # IsAuthenticatedOrReadOnly: reads are open
    assert auth["GET /api/v2/notes"] == "none"  # AllowAny
    assert auth["POST /api/ping/"] == "none"  # @permission_classes([AllowAny])


def test_read_only_open_permissions_guard_writes() -> None:
    files = {
        **PROJECT,
        "api/views.py": PROJECT["api/views.py"].replace(
            "class TagViewSet(mixins.ListModelMixin,", "class TagViewSet(mixins.CreateModelMixin,"
        ),
    }
    auth = auths(files)
    assert auth["POST /api/tags/"] == "required"
    assert auth["GET /api/tags/{slug}/"] == "none"


def test_without_default_permission_classes_drf_allows_any() -> None:
    files = {**PROJECT, "shop/settings/base.py": "ROOT_URLCONF = 'shop.urls'\n"}
    assert auths(files)["GET /api/me/"] == "none"


@pytest.mark.parametrize(
    ("route", "regex", "expected"),
    [
        ("users/<int:pk>/", False, "users/{pk}/"),
        ("<slug>/", False, "{slug}/"),
        (r"^users/(?P<pk>[0-9]+)/$", True, "users/{pk}/"),
        (r"^^user/(?P<u>[\w.]+)/$", True, "user/{u}/"),  # joined from two anchored parts
        (r"\A^feed/$", True, "feed/"),
        (r"^a\.b/(?P<x>(?:\d|x)+)$", True, "a.b/{x}"),
        (r"^articles/(?P<slug>[-\w]+)/comments/?$", True, "articles/{slug}/comments"),
        (r"^\.well-known/jwks.json$", True, ".well-known/jwks.json"),
        (r"^(?:en|fr)/$", True, None),
        (r"^files/.*$", True, None),
        (r"^v[12]/$", True, None),
    ],
)
def test_paths_and_regexes_are_named_as_django_matches_them(
    route: str, regex: bool, expected: str | None
) -> None:
    assert django_path(route, regex) == expected


def test_what_is_recognised_and_not_read_is_a_finding() -> None:
    files = {
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nDEBUG = True\n",
        "proj/urls.py": (
            "from django.conf.urls.i18n import i18n_patterns\n"
            "from django.contrib import admin\n"
            "from django.urls import include, path, re_path\n"
            "from rest_framework.urlpatterns import format_suffix_patterns\n"
            "from proj import views\n"
            "import os\n"
            "urlpatterns = [\n"
            "    re_path(r'^(?:en|fr)/home/$', views.home),\n"
            "    path(os.environ['P'], views.home),\n"
            "    path('admin/', admin.site.urls),\n"
            "    path('accounts/', include('allauth.urls')),\n"
            "    path('lib/', library_view),\n"
            "]\n"
            "urlpatterns = format_suffix_patterns(urlpatterns)\n"
            "urlpatterns += i18n_patterns(path('shop/', views.home))\n"
            "urlpatterns += static('/media/', document_root='/srv') + static(settings.X)\n"
        ),
        "proj/views.py": "def home(request):\n    return None\n",
    }
    found = routes(files)
    # a view out of sight: methods unknown; Django's own file view for `static()` (any method:
    # `serve` restricts none); the language prefix of `i18n_patterns` a path parameter
    assert set(found) == {"ANY /{language}/shop/", "ANY /lib/", "ANY /media/{path}"}
    doc = document(files)
    details = [str(f["detail"]) for f in doc["findings"]]
    assert any("format_suffix_patterns" in d for d in details)
    assert any("(?:en|fr)" in d for d in details)
    assert any("computed" in d for d in details)
    assert any("admin.site.urls" in d for d in details)
    assert any("allauth.urls" in d for d in details)
    assert any("library_view" in d for d in details)
    unresolved = {str(r["name"]): r["attrs"].get("prefixUnresolved") for r in doc["resources"]}
    assert unresolved == {
        "ANY /lib/": None,
        "ANY /{language}/shop/": None,
        "ANY /media/{path}": None,
    }
    assert auths(files)["ANY /lib/"] == "unknown"


def test_urlpatterns_no_root_urlconf_names_are_listed_with_a_finding() -> None:
    files = {
        "app/urls.py": (
            "from django.urls import path\nfrom . import views\n"
            "urlpatterns = [path('x/', views.x)]\n"
        ),
        "app/views.py": "def x(request):\n    return None\n",
    }
    doc = document(files)
    assert [r["name"] for r in doc["resources"]] == ["ANY /x/"]
    assert [f["code"] for f in doc["findings"]] == ["UNRESOLVED_PREFIX"]


def test_django_is_no_longer_an_unread_framework() -> None:
    details = " ".join(str(f["detail"]) for f in document(PROJECT)["findings"])
    assert "UNREAD" not in json.dumps(document(PROJECT)["findings"])
    assert "reads FastAPI" not in details


def test_a_django_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, PROJECT, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # pages/helpers.py and empty packages are never parsed
    assert '"GET /api/orders/{number}/"' in documents[1]


def test_the_pre_filter_admits_django_urlconfs_and_settings() -> None:
    assert seeds.admits("u.py", b"urlpatterns = []\n")
    assert seeds.admits("s.py", b"ROOT_URLCONF = 'x.urls'\n")
    assert seeds.admits("s.py", b"REST_FRAMEWORK = {}\n")
    assert seeds.admits("m.py", b"os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'x')\n")
    assert not seeds.admits("v.py", b"def home(request):\n    return None\n")


# -- the pre-filter on generated Django projects -----------------------------------------------

_DJANGO_MODULES = ("manage.py", "proj/settings.py", "proj/urls.py", "a/urls.py", "a/views.py",
                   "b/views.py", "c/perms.py")  # fmt: skip
_DJANGO_PIECES = (
    "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings')",
    "ROOT_URLCONF = 'proj.urls'", "ROOT_URLCONF = 'a.urls'", "from proj.base import *",
    "REST_FRAMEWORK = {'DEFAULT_PERMISSION_CLASSES': ['c.perms.P']}",
    "from django.urls import include, path, re_path", "from a import views",
    "from a.views import V, f", "from b import views as bv", "from b.views import *",
    "from c.perms import P", "from rest_framework.routers import DefaultRouter, SimpleRouter",
    "from rest_framework import viewsets", "from django.views import View",
    "from django.contrib.auth.decorators import login_required",
    "from django.views.decorators.http import require_GET",
    "router = DefaultRouter()", "router = SimpleRouter(trailing_slash=False)",
    "router.register('x', V)", "router.register('y', bv.W)",
    "urlpatterns = [path('p/<int:pk>/', views.f), path('q/', include('a.urls'))]",
    "urlpatterns = [path('r/', include(router.urls)), re_path(r'^s/(?P<id>[0-9]+)$', V.as_view())]",
    "urlpatterns += [path('t/', bv.g), path('v/', login_required(f))]",
    "extra = [path('u/', f)]\nurlpatterns.extend(extra)",
    "urlpatterns = [path('w/', include((extra, 'w'))), path('z/', include(bv))]",
    "class V(viewsets.ModelViewSet):\n    permission_classes = [P]",
    "class V(View):\n    def get(self, request):\n        return None",
    "class W(V):\n    lookup_field = 'slug'\n    http_method_names = ['get']",
    "def f(request):\n    return None", "@require_GET\ndef g(request):\n    return None",
    "class P:\n    def has_permission(self, request, view):\n        return request.user.pk",
    # a router subclass of the repository and its extras; library view bases
    "from c.perms import R", "router = R()", "router = bv.R(trailing_slash=False)",
    "class R(DefaultRouter):\n    def get_urls(self):\n        return super().get_urls() + "
    "[path('h/', f)]",
    "class R(SimpleRouter):\n    @property\n    def urls(self):\n        u = super().urls\n"
    "        u.append(path('k/', f))\n        return u",
    "from django.views.generic.detail import BaseDetailView",
    "from django_filters.views import FilterView",
    "class D(BaseDetailView):\n    def post(self, request):\n        return None",
    "urlpatterns = [path('d/', D.as_view()), path('fv/', FilterView.as_view())]",
    # class views bound to names, named by URL patterns here or through imports
    "bound = login_required(V.as_view())", "from a.views import bound",
    "urlpatterns = [path('b/', views.bound), path('bb/', bound)]",
    "bound = bv.pick(W).as_view()", "urlpatterns = [path('m/', pick(V).as_view())]",
    # patterns under a route the pack cannot name, added there by a call of the project
    "urlpatterns = [path(f'{bv.knobs.P}/', include('a.urls'))]", "urlpatterns += bv.more()",
    # libraries' URLconfs and routers, static files from settings (DEBUG there or not)
    "from cms import urls as cms_urls", "urlpatterns = [path('c/', include(cms_urls))]",
    "from django.conf import settings", "MEDIA_URL = '/m/'", "DEBUG = True", "DEBUG = False",
    "from django.conf.urls.static import static as files",
    "urlpatterns += files(settings.MEDIA_URL)", "STATIC_URL = '/st/'",
    "from django.contrib.staticfiles.urls import staticfiles_urlpatterns",
    "urlpatterns += staticfiles_urlpatterns()",
    "from wagtail.api.v2.router import WagtailAPIRouter", "api = WagtailAPIRouter('w')",
    "api.register_endpoint('pages', V)", "from c.perms import api",
    "urlpatterns = [path('api/', api.urls)]",
    "class V(V):\n    @classmethod\n    def get_urlpatterns(cls):\n"
    "        return super().get_urlpatterns() + [path('x/', cls.as_view({'get': 'x'}))]",
    "from ninja import NinjaAPI", "api = NinjaAPI()",
    "router.register('x', V).register('y', bv.W, parents_query_lookups=['x'])",
)  # fmt: skip
_DJANGO_PROJECT = st.fixed_dictionaries({
    module: st.lists(st.sampled_from(_DJANGO_PIECES), max_size=6).map("\n".join)
    for module in _DJANGO_MODULES
})  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DJANGO_PROJECT)
def test_the_prefilter_changes_no_django_document(files: dict[str, str]) -> None:
    """The byte-identity of the pre-filtered scan and parse-all on generated Django projects:
    settings, URLconfs, views, viewsets and permission classes spread over modules that import
    each other by name, by module, by star and by string."""
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            (Path(root) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(root) / name).write_text(text + "\n")
        documents = []
        for parse_all in (True, False):
            scanner = make_scanner(parse_all=parse_all)
            scanner.workers = 1
            scanner_cwd = os.getcwd()
            os.chdir(root)
            try:
                documents.append(json.dumps(scanner.discover(["."]), sort_keys=True))
            finally:
                os.chdir(scanner_cwd)
        assert documents[1] == documents[0]


SECOND: dict[str, str] = {
    "site/settings.py": "ROOT_URLCONF = 'site.urls'\n",
    "site/urls.py": (
        "from django.conf.urls import url\n"
        "from django.urls import path\n"
        "from django.views.generic import RedirectView, TemplateView, View\n"
        "from rest_framework.routers import DefaultRouter\n"
        "from site import views\n"
        "router = DefaultRouter(include_root_view=False, include_format_suffixes=False)\n"
        "router.register(r'users/(?P<uid>[0-9]+)/keys', views.Keys)\n"
        "router.register(r'(?:a|b)', views.Keys)\n"
        "urlpatterns = [\n"
        "    url(r'^old/(?P<slug>[-\\w]+)/$', views.Staff.as_view()),\n"
        "    path('tos/', TemplateView.as_view(template_name='tos.html')),\n"
        "    path('go/', RedirectView.as_view(url='/', http_method_names=['get'])),\n"
        "    path('bare/', View.as_view()),\n"
        "    path('child/', views.Child.as_view()),\n"
        "]\n"
        "urlpatterns += router.urls\n"
    ),
    "site/views.py": (
        "from django.contrib.auth.decorators import login_required\n"
        "from django.utils.decorators import method_decorator\n"
        "from django.views import View\n"
        "from rest_framework.decorators import action\n"
        "from rest_framework.viewsets import ReadOnlyModelViewSet\n"
        "class Staff(View):\n"
        "    http_method_names = ['get', 'put']\n"
        "    @method_decorator(login_required)\n"
        "    def dispatch(self, request, *args, **kwargs):\n"
        "        return super().dispatch(request, *args, **kwargs)\n"
        "    def get(self, request, slug):\n"
        "        return None\n"
        "    def post(self, request, slug):\n"
        "        return None\n"
        "    def put(self, request, slug):\n"
        "        return None\n"
        "class Child(Staff):\n"
        "    def patch(self, request):\n"
        "        return None\n"
        "class Keys(ReadOnlyModelViewSet):\n"
        "    @action(detail=True, methods=['post'], url_path=r'rotate/(?P<n>[0-9]+)')\n"
        "    def rotate(self, request, pk=None, n=None):\n"
        "        return None\n"
    ),
}


def test_router_options_regex_prefixes_generic_views_and_inherited_method_names() -> None:
    assert auths(SECOND) == {
        "GET /old/{slug}/": "required",  # `method_decorator(login_required)` on dispatch
        "PUT /old/{slug}/": "required",  # POST is not in http_method_names
        "GET /child/": "required",  # inherited: the guard and http_method_names (no PATCH)
        "PUT /child/": "required",
        "GET /tos/": "none",  # Django's own TemplateView: GET
        "GET /go/": "none",  # RedirectView, limited by as_view(http_method_names=)
        "ANY /bare/": "unknown",  # View with no handler: nothing known
        # no API root (include_root_view=False); a regex prefix with a named group
        "GET /users/{uid}/keys/": "none",
        "GET /users/{uid}/keys/{pk}/": "none",
        "POST /users/{uid}/keys/{pk}/rotate/{n}/": "none",
    }
    details = " ".join(str(f["detail"]) for f in document(SECOND)["findings"])
    assert "`(?:a|b)` is a regex that is no path" in details
    assert "format suffix" not in details  # include_format_suffixes=False
    assert "`View` is not defined" in details


def test_a_class_view_with_its_own_dispatch_is_any_and_one_with_no_handler_a_finding() -> None:
    files = {
        "g/settings.py": "ROOT_URLCONF = 'g.urls'\n",
        "g/urls.py": (
            "from django.urls import path\nfrom g.views import Api, Empty\n"
            "urlpatterns = [path('graphql/', Api.as_view()), path('empty/', Empty.as_view())]\n"
        ),
        "g/views.py": (
            "from django.views.generic import View\n"
            "class Api(View):\n"
            "    def dispatch(self, request, *args, **kwargs):\n"
            "        return None\n"
            "class Empty(View):\n"
            "    def helper(self):\n"
            "        return None\n"
        ),
    }
    assert auths(files) == {"ANY /graphql/": "none"}
    details = " ".join(str(f["detail"]) for f in document(files)["findings"])
    assert "`Empty` defines no handler method" in details


def test_a_decorator_of_the_repository_is_judged_by_its_text() -> None:
    files = {
        "d/settings.py": "ROOT_URLCONF = 'd.urls'\n",
        "d/urls.py": (
            "from django.urls import path\nfrom d import views\n"
            "urlpatterns = [path('a/', views.a), path('b/', views.b), path('c/', views.c)]\n"
        ),
        "d/deco.py": (
            "from django.http import HttpResponseForbidden\n"
            "def api_key(view):\n"
            "    def inner(request):\n"
            "        if request.headers.get('X-Key') != 's':\n"
            "            return HttpResponseForbidden()\n"
            "        return view(request)\n"
            "    return inner\n"
            "def timed(view):\n"
            "    return view\n"
        ),
        "d/views.py": (
            "from d.deco import api_key, timed\nfrom vendor import mystery\n"
            "@api_key\ndef a(request):\n    return None\n"
            "@timed\ndef b(request):\n    return None\n"
            "@mystery\ndef c(request):\n    return None\n"
        ),
    }
    assert auths(files) == {"ANY /a/": "required", "ANY /b/": "none", "ANY /c/": "unknown"}


def test_a_regex_ending_in_an_optional_group_is_both_paths() -> None:
    optional = r"^thumb/(?P<id>[0-9]+)/(?:(?P<format>[a-z]+)/)?"
    assert django_paths(optional, True) == ("thumb/{id}/", "thumb/{id}/{format}/")
    assert django_paths(r"^x/(?:a|b)?$", True) is None  # alternatives inside: no path
    assert django_paths("users/<int:pk>/", False) == ("users/{pk}/",)


def test_a_root_urlconf_out_of_sight_is_a_finding_where_it_is_set() -> None:
    files = {"s/settings.py": "DEBUG = True\nROOT_URLCONF = 'elsewhere.urls'\n"}
    findings = document(files)["findings"]
    assert [(f["code"], f["locations"]) for f in findings] == [
        ("UNRESOLVED_ROUTER", [{"path": "s/settings.py", "line": 2}])
    ]


def test_a_class_view_bound_to_a_name_answers_the_class_methods() -> None:
    """`erase = Eraser.as_view()` (maybe wrapped, maybe re-exported) named by a URL pattern
    serves the class's methods, as `Eraser.as_view()` written in the pattern does."""
    files = {
        "shop/settings.py": "ROOT_URLCONF = 'shop.urls'\n",
        "shop/urls.py": (
            "from django.urls import path\n"
            "from shop.screens import erase, peek, guarded\n"
            "from shop import screens as sc\n"
            "urlpatterns = [path('erase/<int:pk>/', erase), path('peek/', peek),\n"
            "               path('guarded/', guarded), path('tos/', sc.tos),\n"
            "               path('made/', sc.made), path('inline/', sc.registry.pick(sc.Eraser).as_view())]\n"
        ),
        "shop/screens/__init__.py": (
            "from .parts import Eraser, erase, peek, guarded, tos, made, registry\n"
        ),
        "shop/screens/parts.py": (
            "from django.contrib.auth.decorators import login_required\n"
            "from django.views.generic import TemplateView, View\n"
            "class Eraser(View):\n"
            "    def get(self, request, pk):\n        return None\n"
            "    def post(self, request, pk):\n        return None\n"
            "class Peeker(View):\n"
            "    def get(self, request):\n        return None\n"
            "    def delete(self, request):\n        return None\n"
            "erase = Eraser.as_view()\n"
            "peek = Peeker.as_view(http_method_names=['get'])\n"
            "guarded = login_required(Peeker.as_view())\n"
            "tos = TemplateView.as_view(template_name='tos.html')\n"
            "class Registry:\n"
            "    def pick(self, cls):\n        return cls\n"
            "registry = Registry()\n"
            "made = registry.pick(Peeker).as_view()\n"
        ),
    }
    assert auths(files) == {
        "GET /erase/{pk}/": "none",
        "POST /erase/{pk}/": "none",
        "GET /peek/": "none",
        "GET /guarded/": "required",
        "DELETE /guarded/": "required",
        "GET /tos/": "none",
        "GET /made/": "none",
        "DELETE /made/": "none",
        "GET /inline/": "none",
        "POST /inline/": "none",
    }
    # a class made by a call from the class named (a registry's `pick(Peeker)`) is read as
    # that class, the route saying so (`configDefault`), its prefix known
    made = {str(r["name"]): r["attrs"] for r in document(files)["resources"]}
    assert "`registry.pick(Peeker)` is read as `Peeker`" in made["GET /made/"]["configDefault"]
    assert "`sc.registry.pick(sc.Eraser)`" in made["POST /inline/"]["configDefault"]
    assert "prefixUnresolved" not in made["POST /inline/"]
    assert "configDefault" not in made["GET /peek/"]


def test_patterns_under_a_prefix_the_pack_cannot_name_are_findings_where_they_are_added() -> None:
    """A URLconf included under a route computed out of sight (a project's settings object)
    is walked (its routes listed flagged, here none), and what it adds through a call of its
    own (a registry of extensions) is a finding at that call, not silence."""
    files = {
        "forum/settings.py": "ROOT_URLCONF = 'forum.urls'\n",
        "forum/conf.py": (
            "class Knobs:\n    def __getattr__(self, name):\n        return 'panel'\n"
            "knobs = Knobs()\n"
        ),
        "forum/urls.py": (
            "from django.urls import include, path\n"
            "from forum.conf import knobs\n"
            "panel = [path('', include('forum.panel.urls'))]\n"
            "urlpatterns = [path(f'{knobs.PANEL}/', include((panel, 'panel')))]\n"
        ),
        "forum/panel/urls.py": (
            "from django.urls import path\n"
            "from forum import registry\n"
            "urlpatterns = []\n"
            "urlpatterns += registry.collected_patterns()\n"
        ),
        "forum/registry.py": "def collected_patterns():\n    return []\n",
    }
    found = [
        (str(f["locations"][0]["path"]), f["locations"][0].get("line"), str(f["detail"]))
        for f in document(files)["findings"]
    ]
    assert any(
        p == "forum/panel/urls.py" and line == 4 and "registry.collected_patterns()" in d
        for p, line, d in found
    ), found
    assert routes(files) == {}


def test_a_list_of_dicts_named_urlpatterns_is_no_urlconf() -> None:
    """A FastAPI project's own table `urlpatterns = [{"router": r, "prefix": "/x"}]`: a dict is
    no URL pattern (Django's resolver refuses one), so no Django view is reported unfollowed."""
    files = {
        "svc/tables.py": (
            "from svc.views import router as people\n"
            "urlpatterns = [\n    {'router': people, 'prefix': '/people'},\n]\n"
        ),
        "svc/views.py": (
            "from fastapi import APIRouter\nrouter = APIRouter()\n"
            "@router.get('/all')\ndef every(): ...\n"
        ),
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /all"]
    assert all("tables.py" not in str(f["locations"]) for f in found["findings"])


def test_a_viewset_bound_to_an_action_map_held_by_a_module_constant() -> None:
    """`Notes.as_view(list_methods)` with `list_methods = {'get': 'list', 'post': 'create'}`
    written above the URL patterns: the map's methods, as the literal in the call gives them
    (was read as a class view of an unseen base, `ANY`); a constant the module rebinds is not
    taken as one map."""
    files = {
        "site/settings.py": "ROOT_URLCONF = 'site.urls'\n",
        "site/urls.py": (
            "from django.urls import path\n"
            "from site import views\n"
            "list_methods = {'get': 'list', 'post': 'create'}\n"
            "detail_methods = {'get': 'retrieve', 'delete': 'destroy'}\n"
            "urlpatterns = [\n"
            "    path('notes/', views.Notes.as_view(list_methods)),\n"
            "    path('notes/<int:pk>/', views.Notes.as_view(actions=detail_methods)),\n"
            "]\n"
        ),
        "site/views.py": (
            "from rest_framework import viewsets\nclass Notes(viewsets.ModelViewSet):\n    pass\n"
        ),
    }
    assert names(files) == {
        "GET /notes/",
        "POST /notes/",
        "GET /notes/{pk}/",
        "DELETE /notes/{pk}/",
    }


def test_rest_framework_before_3_10_list_route_and_detail_route() -> None:
    """DRF's `@list_route(methods=[...])` and `@detail_route(...)` (3.0–3.9; `@action` since
    3.8), imported from `rest_framework.decorators` or a project's copy of them, with
    `url_path`: routes of the viewset's list and detail paths, GET by default (blind24m's
    taiga-back: 199 routes were missing)."""
    files = {
        "site/settings.py": "ROOT_URLCONF = 'site.urls'\n",
        "site/urls.py": (
            "from rest_framework.routers import SimpleRouter\n"
            "from site.views import Boards\n"
            "router = SimpleRouter(trailing_slash=False)\n"
            "router.register('boards', Boards)\n"
            "urlpatterns = router.urls\n"
        ),
        "site/views.py": (
            "from rest_framework import viewsets\n"
            "from rest_framework.decorators import detail_route\n"
            "from site.base.decorators import list_route\n"
            "class Boards(viewsets.ReadOnlyModelViewSet):\n"
            "    @list_route(methods=['GET'])\n"
            "    def filters_data(self, request):\n        pass\n"
            "    @list_route(['post'], url_path='bulk-create')\n"
            "    def bulk_create(self, request):\n        pass\n"
            "    @detail_route()\n"
            "    def stats(self, request, pk=None):\n        pass\n"
        ),
        "site/base/decorators.py": (
            "def list_route(methods=['get'], **kwargs):\n"
            "    def decorator(func):\n"
            "        func.bind_to_methods = methods\n"
            "        func.detail = False\n"
            "        return func\n"
            "    return decorator\n"
        ),
    }
    assert names(files) == {
        "GET /boards",
        "GET /boards/{pk}",
        "GET /boards/filters_data",
        "POST /boards/bulk-create",
        "GET /boards/{pk}/stats",
    }


def test_a_urlconf_prepending_to_the_urlpatterns_it_imports() -> None:
    """`from site.urls import urlpatterns` then `urlpatterns = extra + urlpatterns`: the right
    side is the imported module's list, read before the name is rebound (was taken for the
    list including itself: a false cycle, and no route at all; blind25p's Argus)."""
    files = {
        "site/settings.py": "ROOT_URLCONF = 'front.root_urls'\n",
        "site/urls.py": (
            "from django.urls import path\n"
            "from site import views\n"
            "urlpatterns = [path('api/v1/items/', views.items)]\n"
        ),
        "site/views.py": "def items(request):\n    pass\n",
        "front/root_urls.py": (
            "from site.urls import urlpatterns\n"
            "from .front_urls import urlpatterns as front_urlpatterns\n"
            "urlpatterns = front_urlpatterns + urlpatterns\n"
        ),
        "front/front_urls.py": (
            "from django.urls import path\n"
            "from front import pages\n"
            "urlpatterns = [path('', pages.home)]\n"
        ),
        "front/pages.py": "def home(request):\n    pass\n",
    }
    found = document(files)
    assert {str(r["name"]) for r in found["resources"]} == {"ANY /", "ANY /api/v1/items/"}
    assert found["findings"] == []
