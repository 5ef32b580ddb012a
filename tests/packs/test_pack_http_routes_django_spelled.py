"""pack-http-routes on Django and DRF strings the project computes where a literal usually
stands (blind round 19's class): a router prefix written as an f-string with no placeholder
(`router.register(f"cve", ...)`), a concatenation of literals, a module constant (this file's
or imported), an f-string of constants; the same in drf-nested-routers' parent prefix and
lookup, an `@action`'s `url_path` and methods, a viewset's `lookup_field`, an action map,
`http_method_names`, `ROOT_URLCONF`, `DJANGO_SETTINGS_MODULE` and the name an app loop's
filter tests. Every place the Django reader takes a string reads it one way
(`django_facts._Reader.spelled`, the names it leaves evaluated by the linker). A string the pack cannot know (an environment variable, a constant
a branch rebinds, a class attribute the class body shadows) stays a finding. Our own code, not
a repository's; the routes named are what Django 5.2, DRF 3.15 and drf-nested-routers 0.94
serve for these files (bench/real_repos/derive/django_runtime_routes.py run over them)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

import pytest  # noqa: E402
from routes_harness import finding_places, located, scanned_both_ways  # noqa: E402

SPELLED: dict[str, str] = {
    "manage.py": (
        "import os\n"
        "\n"
        "PROJECT = 'proj'\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', f'{PROJECT}.settings')\n"
    ),
    "proj/__init__.py": "",
    "proj/settings.py": (
        "PROJECT = 'proj'\n"
        "ROOT_URLCONF = PROJECT + '.urls'\n"
        "INSTALLED_APPS = ['django.contrib.auth', 'django.contrib.contenttypes', 'stock']\n"
    ),
    "proj/urls.py": (
        "from django.urls import include, path\n"
        "from rest_framework_nested import routers\n"
        "\n"
        "from stock import api\n"
        "from stock.names import BINS, names\n"
        "\n"
        "SHELVES = 'shelves'\n"
        "READ = 'get'\n"
        "\n"
        "router = routers.SimpleRouter(trailing_slash=False)\n"
        "router.register(f'crates', api.CrateViewSet, basename='crate')\n"
        "router.register('pal' + 'lets', api.PalletViewSet, basename='pallet')\n"
        "router.register(SHELVES, api.ShelfViewSet, basename='shelf')\n"
        "router.register(BINS, api.BinViewSet, basename='bin')\n"
        "router.register(f'{names.ARCHIVE}/old', api.CrateViewSet, basename='old')\n"
        "shelf_router = routers.NestedSimpleRouter(router, SHELVES, lookup=f'shelf')\n"
        "shelf_router.register(f'slots', api.SlotViewSet, basename='slot')\n"
        "\n"
        "urlpatterns = [\n"
        "    path('api/', include(router.urls)),\n"
        "    path('api/', include(shelf_router.urls)),\n"
        "    path('tally/', api.TallyViewSet.as_view({READ: 'list'})),\n"
        "    path('ping/', api.Ping.as_view(http_method_names=[READ, 'head'])),\n"
        "]\n"
    ),
    "stock/__init__.py": "",
    "stock/names.py": ("BINS = 'b' + 'ins'\n\n\nclass names:\n    ARCHIVE = 'archive'\n"),
    "stock/api.py": (
        "from django.http import HttpResponse\n"
        "from django.views import View\n"
        "from rest_framework import mixins, viewsets\n"
        "from rest_framework.decorators import action\n"
        "from rest_framework.response import Response\n"
        "\n"
        "READ = 'get'\n"
        "CODE = 'code'\n"
        "\n"
        "\n"
        "class CrateViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):\n"
        "    lookup_field = CODE\n"
        "\n"
        "    @action(detail=True, methods=[READ, f'post'], url_path=f'seal')\n"
        "    def seal(self, request, code=None):\n"
        "        return Response()\n"
        "\n"
        "    def retrieve(self, request, code=None):\n"
        "        return Response()\n"
        "\n"
        "\n"
        "class PalletViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):\n"
        "    lookup_url_kwarg = 'pallet_' + 'id'\n"
        "\n"
        "\n"
        "class ShelfViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin,\n"
        "                   viewsets.GenericViewSet):\n"
        "    pass\n"
        "\n"
        "\n"
        "class BinViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):\n"
        "    pass\n"
        "\n"
        "\n"
        "class SlotViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):\n"
        "    pass\n"
        "\n"
        "\n"
        "class TallyViewSet(viewsets.ViewSet):\n"
        "    def list(self, request):\n"
        "        return Response()\n"
        "\n"
        "\n"
        "class Ping(View):\n"
        "    def get(self, request):\n"
        "        return HttpResponse()\n"
        "\n"
        "    def post(self, request):\n"
        "        return HttpResponse()\n"
    ),
}


def test_strings_spelled_with_f_strings_concatenation_and_constants_read_as_literals() -> None:
    assert located(SPELLED) == {
        # `f'crates'`, its `lookup_field` a module constant, its action's strings f-strings
        "GET /api/crates": "proj/urls.py:11",
        "GET /api/crates/{code}": "proj/urls.py:11",
        "GET /api/crates/{code}/seal": "proj/urls.py:11",
        "POST /api/crates/{code}/seal": "proj/urls.py:11",
        # `'pal' + 'lets'`, its `lookup_url_kwarg` concatenated
        "GET /api/pallets/{pallet_id}": "proj/urls.py:12",
        # a constant of the URLconf; the nested router's parent prefix the same constant
        "GET /api/shelves": "proj/urls.py:13",
        "GET /api/shelves/{pk}": "proj/urls.py:13",
        "GET /api/shelves/{shelf_pk}/slots": "proj/urls.py:17",
        # a constant imported from another module, itself concatenated
        "GET /api/bins": "proj/urls.py:14",
        # an f-string of another module's class attribute
        "GET /api/archive/old": "proj/urls.py:15",
        "GET /api/archive/old/{code}": "proj/urls.py:15",
        "GET /api/archive/old/{code}/seal": "proj/urls.py:15",
        "POST /api/archive/old/{code}/seal": "proj/urls.py:15",
        # an action map's key and `http_method_names` of the URLconf's constant
        "GET /tally/": "proj/urls.py:22",
        "GET /ping/": "proj/urls.py:23",
    }
    assert finding_places(SPELLED) == {}


def test_a_string_the_pack_cannot_know_stays_a_finding() -> None:
    """An environment variable, a constant a branch rebinds, a name the class body binds
    itself (which a method's decorator reads before the module's): none is guessed."""
    files = dict(SPELLED)
    files["proj/urls.py"] = (
        files["proj/urls.py"]
        .replace("from django.urls", "import os\nfrom django.urls")
        .replace("router.register(f'crates'", "router.register(os.environ['CRATES']")
        .replace(
            "SHELVES = 'shelves'\n",
            "SHELVES = 'shelves'\nif os.environ.get('X'):\n    SHELVES = 'racks'\n",
        )
    )
    files["stock/api.py"] = files["stock/api.py"].replace(
        "    lookup_field = CODE\n", "    lookup_field = CODE\n    READ = 'delete'\n"
    )
    names = set(located(files))
    assert not any("crates" in n or "shelves" in n for n in names)
    assert "GET /api/archive/old/{code}/seal" not in names  # the class's own `READ` shadows
    places = finding_places(files)["UNRESOLVED_ROUTE"]
    # the registrations and the nested router on `SHELVES`, and the action, each where written
    assert sorted(places) == [
        "proj/urls.py:14",
        "proj/urls.py:16",
        "proj/urls.py:19",
        "stock/api.py:16",
    ]


@pytest.mark.parametrize(
    ("where", "written", "instead"),
    [
        ("proj/urls.py", "http_method_names=[READ, 'head']", "http_method_names=[api.READ]"),
        (
            "stock/api.py",
            "class Ping(View):\n",
            "class Ping(View):\n    http_method_names = VERBS\n",
        ),
    ],
)
def test_http_method_names_the_reader_cannot_read_are_a_finding_not_every_method(
    where: str, written: str, instead: str
) -> None:
    """Given and not read (another module's constant in `as_view()`, a name the file never
    binds on the class): the view's methods are not known, so not listed, and said."""
    files = dict(SPELLED)
    files[where] = files[where].replace(written, instead)
    assert not any(n.endswith(" /ping/") for n in located(files))
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["proj/urls.py:23"]}


PLUGGED: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hub.conf')\n",
    "hub/__init__.py": "",
    "hub/conf.py": "ROOT_URLCONF = 'hub.urls'\nINSTALLED_APPS = ['hub.notes', 'hub.tags']\n",
    "hub/notes/__init__.py": "HAS_ROUTES = True\n",
    "hub/notes/urls.py": (
        "from django.urls import path\n\n\ndef board(request):\n    return None\n\n\n"
        "urlpatterns = [path('board/', board)]\n"
    ),
    "hub/tags/__init__.py": "",
    "hub/tags/urls.py": (
        "from django.urls import path\n\n\ndef cloud(request):\n    return None\n\n\n"
        "urlpatterns = [path('cloud/', cloud)]\n"
    ),
    "hub/urls.py": (
        "from django.apps import apps\nfrom django.urls import include, path\n\n"
        "MARKER = 'HAS_' + 'ROUTES'\n"
        "urlpatterns = [\n"
        "    path(f'{cfg.label}/', include(cfg.name + '.urls'))\n"
        "    for cfg in apps.get_app_configs()\n"
        "    if getattr(cfg.module, MARKER, False)\n"
        "]\n"
    ),
}


def test_a_loop_over_the_apps_filtered_by_a_constant_name_keeps_the_apps_it_names() -> None:
    """`getattr(cfg.module, MARKER, False)` with `MARKER` a constant of the URLconf: the apps
    whose package binds that name (`hub.notes`), not a filter the pack cannot read."""
    assert located(PLUGGED) == {"ANY /notes/board/": "hub/notes/urls.py:8"}
    assert finding_places(PLUGGED) == {}


JOINED: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_.settings')\n",
    "site_/__init__.py": "",
    "site_/settings.py": "ROOT_URLCONF = 'site_.urls'\nKINDS = [{'key': 'daily'}]\n",
    "site_/views.py": "def post(request, pk): ...\ndef feed(request, tab): ...\n",
    "site_/urls.py": (
        "from django.conf import settings\n"
        "from django.urls import re_path\n"
        "\n"
        "from site_ import views\n"
        "\n"
        "post_kinds = ['note', 'photo', 'link']\n"
        "KINDS = '|'.join(post_kinds)\n"
        "POST = rf'^p/({KINDS})/(?P<pk>\\d+)'\n"
        "SEP = '|'\n"
        "\n"
        "urlpatterns = [\n"
        "    re_path(rf'{POST}/$', views.post),\n"
        '    re_path(rf\'^tag/({SEP.join(("a", "b"))})/$\', views.post),\n'
        '    re_path(rf\'^(?P<tab>{"|".join(k["key"] for k in settings.KINDS)})/$\', views.feed),\n'
        "]\n"
    ),
}


def test_alternatives_joined_from_a_list_of_literals_read_as_the_regex_they_spell() -> None:
    """`"|".join(seq)` over a display of strings, or a name bound once to one, is the text it
    makes (the group then named as Django's resolver reverses it); a sequence the reader
    cannot list (a generator over settings) stays a finding where it is written."""
    found = located(JOINED)
    assert found == {"ANY /p/{_0}/{pk}/": "site_/urls.py:12", "ANY /tag/{_0}/": "site_/urls.py:13"}
    assert finding_places(JOINED) == {"UNRESOLVED_ROUTE": ["site_/urls.py:14"]}


@pytest.mark.parametrize("files", [SPELLED, PLUGGED, JOINED])
def test_the_pre_filter_reads_the_same(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"resources": []' not in documents[0]
