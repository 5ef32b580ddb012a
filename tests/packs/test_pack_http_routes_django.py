"""pack-http-routes: Django URLconf and Django REST framework (`packs/routes/django_facts.py`,
`packs/routes/django_linker.py`). A small project of our own: a settings module named by
manage.py (through `from .base import *`), a root URLconf with nested includes (a module
string, a module object, a `(patterns, app_name)` tuple, an inline list, `+=`, `.extend`, a
conditional append), function views (unrestricted, `@require_http_methods`, `@require_GET`),
class-based views (their own methods, generic bases, `http_method_names`, a guarding mixin),
a DRF router app (viewsets, mixins, `@action`s, lookup fields, permission classes,
`@api_view`, `APIView`), and the constructs that are findings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import extract, link_routes, seeds  # noqa: E402
from packs.routes.django_linker import django_path  # noqa: E402
from packs.scan import JSONObject  # noqa: E402

PROJECT: dict[str, str] = {
    "manage.py": (
        "import os, sys\n"
        "def main():\n"
        "    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'shop.settings')\n"
        "    from django.core.management import execute_from_command_line\n"
        "    execute_from_command_line(sys.argv)\n"
    ),
    "shop/__init__.py": "",
    "shop/settings/__init__.py": "from .base import *\nDEBUG = False\n",
    "shop/settings/base.py": (
        "ROOT_URLCONF = 'shop.urls'\n"
        "REST_FRAMEWORK = {\n"
        "    'DEFAULT_PERMISSION_CLASSES': ['rest_framework.permissions.IsAuthenticated'],\n"
        "}\n"
    ),
    "shop/urls.py": (
        "from django.conf import settings\n"
        "from django.urls import include, path, re_path\n"
        "from catalog import urls as catalog_urls\n"
        "from pages import views\n"
        "urlpatterns = [\n"
        "    path('', views.home),\n"
        "    path('catalog/', include(catalog_urls)),\n"
        "    path('api/', include('api.urls')),\n"
        "    re_path(r'^legacy/(?P<year>[0-9]{4})/$', views.archive),\n"
        "    path('help/', include([path('faq/', views.faq), path('contact/', views.Contact.as_view())])),\n"
        "]\n"
        "urlpatterns += [path('about/', views.About.as_view())]\n"
        "if settings.DEBUG:\n"
        "    urlpatterns.append(path('debug/', views.debug_page))\n"
    ),
    "pages/__init__.py": "",
    "pages/views.py": (
        "from django.contrib.auth.mixins import LoginRequiredMixin\n"
        "from django.views import View\n"
        "from django.views.decorators.http import require_GET, require_http_methods\n"
        "from django.views.generic import CreateView, TemplateView\n"
        "def home(request):\n"
        "    return None\n"
        "@require_http_methods(['GET', 'POST'])\n"
        "def archive(request, year):\n"
        "    return None\n"
        "@require_GET\n"
        "def faq(request):\n"
        "    return None\n"
        "def debug_page(request):\n"
        "    return None\n"
        "class Contact(CreateView):\n"
        "    http_method_names = ['get', 'post']\n"
        "class About(LoginRequiredMixin, View):\n"
        "    def get(self, request):\n"
        "        return None\n"
        "    def delete(self, request):\n"
        "        return None\n"
    ),
    "catalog/__init__.py": "",
    "catalog/urls.py": (
        "from django.urls import path\n"
        "from .views import ItemList\n"
        "app_name = 'catalog'\n"
        "urlpatterns = [path('items/<int:pk>/', ItemList.as_view())]\n"
        "urlpatterns.extend([path('items/', ItemList.as_view(), name='items')])\n"
    ),
    "catalog/views.py": (
        "from django.views.generic import ListView\nclass ItemList(ListView):\n    pass\n"
    ),
    "api/__init__.py": "",
    "api/urls.py": (
        "from django.urls import include, path\n"
        "from rest_framework.routers import DefaultRouter, SimpleRouter\n"
        "from . import views\n"
        "router = DefaultRouter()\n"
        "router.register(r'orders', views.OrderViewSet, basename='order')\n"
        "router.register('tags', views.TagViewSet)\n"
        "plain = SimpleRouter(trailing_slash=False)\n"
        "plain.register('notes', views.NoteViewSet)\n"
        "urlpatterns = [\n"
        "    path('', include((router.urls, 'api'), namespace='api')),\n"
        "    path('v2/', include(plain.urls)),\n"
        "    path('ping/', views.ping),\n"
        "    path('me/', views.Me.as_view()),\n"
        "]\n"
    ),
    "api/permissions.py": (
        "from rest_framework.permissions import BasePermission\n"
        "class IsOwner(BasePermission):\n"
        "    def has_permission(self, request, view):\n"
        "        return request.user.is_authenticated\n"
    ),
    "api/views.py": (
        "from rest_framework import mixins, viewsets\n"
        "from rest_framework.decorators import action, api_view, permission_classes\n"
        "from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly\n"
        "from rest_framework.views import APIView\n"
        "from .permissions import IsOwner\n"
        "class OrderViewSet(viewsets.ModelViewSet):\n"
        "    lookup_field = 'number'\n"
        "    permission_classes = [IsOwner]\n"
        "    @action(detail=True, methods=['post'], url_path='cancel-now')\n"
        "    def cancel(self, request, number=None):\n"
        "        return None\n"
        "    @action(detail=False)\n"
        "    def recent(self, request):\n"
        "        return None\n"
        "class TagViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin,\n"
        "                 viewsets.GenericViewSet):\n"
        "    permission_classes = [IsAuthenticatedOrReadOnly]\n"
        "    lookup_url_kwarg = 'slug'\n"
        "class NoteViewSet(viewsets.ViewSet):\n"
        "    permission_classes = [AllowAny]\n"
        "    def list(self, request):\n"
        "        return None\n"
        "    def destroy(self, request, pk=None):\n"
        "        return None\n"
        "@api_view(['GET', 'POST'])\n"
        "@permission_classes([AllowAny])\n"
        "def ping(request):\n"
        "    return None\n"
        "class Me(APIView):\n"
        "    def get(self, request):\n"
        "        return None\n"
    ),
    "pages/helpers.py": "def unrelated():\n    return 1\n",
}


def document(files: dict[str, str]) -> JSONObject:
    linked = link_routes([(path, extract(path, source)) for path, source in sorted(files.items())])
    return {"resources": linked.resources, "findings": linked.findings}


def routes(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its `attrs.framework`."""
    return {str(r["name"]): str(r["attrs"]["framework"]) for r in document(files)["resources"]}


def auths(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its auth signal."""
    linked = link_routes([(p, extract(p, s)) for p, s in sorted(files.items())])
    return {str(s["resource"]).removeprefix("route:"): str(s["value"]) for s in linked.signals}


def codes(files: dict[str, str]) -> list[tuple[str, str]]:
    return sorted(
        (str(f["code"]), str(f["locations"][0]["path"])) for f in document(files)["findings"]
    )


def test_a_django_project_lists_its_urlconf_and_rest_framework_routes() -> None:
    found = set(routes(PROJECT))
    assert found == {
        "ANY /",
        "ANY /debug/",
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
        (r"^a\.b/(?P<x>(?:\d|x)+)$", True, "a.b/{x}"),
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
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\n",
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
        ),
        "proj/views.py": "def home(request):\n    return None\n",
    }
    found = routes(files)
    assert set(found) == {"ANY /shop/", "ANY /lib/"}  # a view out of sight: methods unknown
    doc = document(files)
    details = [str(f["detail"]) for f in doc["findings"]]
    assert any("i18n_patterns" in d for d in details)
    assert any("format_suffix_patterns" in d for d in details)
    assert any("(?:en|fr)" in d for d in details)
    assert any("computed" in d for d in details)
    assert any("admin.site.urls" in d for d in details)
    assert any("allauth.urls" in d for d in details)
    assert any("library_view" in d for d in details)
    unresolved = {str(r["name"]): r["attrs"].get("prefixUnresolved") for r in doc["resources"]}
    assert unresolved == {"ANY /lib/": None, "ANY /shop/": True}
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
    for name, text in PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    documents, parsed = [], []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.workers = 1
        documents.append(json.dumps(scanner.discover(["."]), sort_keys=True))
        parsed.append(scanner.parsed)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # pages/helpers.py and empty packages are never parsed
    assert '"GET /api/orders/{number}/"' in documents[1]


def test_the_pre_filter_admits_django_urlconfs_and_settings() -> None:
    assert seeds.admits("u.py", b"urlpatterns = []\n")
    assert seeds.admits("s.py", b"ROOT_URLCONF = 'x.urls'\n")
    assert seeds.admits("s.py", b"REST_FRAMEWORK = {}\n")
    assert seeds.admits("m.py", b"os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'x')\n")
    assert not seeds.admits("v.py", b"def home(request):\n    return None\n")
