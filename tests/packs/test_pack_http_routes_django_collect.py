"""pack-http-routes on URL patterns a project's own collector class builds (issue 34, class 1
for Django; `packs/routes/django_collect.py`): a registry whose methods store `path(...)`
results, or `(prefix, view)` tuples later turned into them, on the instance; a prefix held on
the instance; sections nested by name and assembled by a method that walks them recursively;
the object made at module level in one file and filled at import by plugin modules the URLconf
imports, or by a helper it calls first; an object handed to a method of something made at
runtime. Our own code, not a repository's; the routes named are what Django's resolver serves
for these files (the registries are plain Python: running the URLconf gives these lists)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    names,
    prefix_unresolved,
    scanned_both_ways,
)


def places(files: dict[str, str]) -> set[str]:
    """Every place a finding lists, `file:line`."""
    return {place for found in finding_places(files).values() for place in found}


SETTINGS = {"site/settings.py": "ROOT_URLCONF = 'site.urls'\n", "site/__init__.py": ""}

A_REGISTRY_FILLED_BY_PLUGINS: dict[str, str] = {
    **SETTINGS,
    "site/urls.py": (
        "from django.urls import include, path\n"
        "from kit.board import board as control\n"
        "import shop.hooks  # noqa: F401\n"
        "from kit import board\n"
        "\n"
        "urlpatterns = [path('health/', board.ping)]\n"
        "urlpatterns += control.assemble()\n"
        "urlpatterns.append(path('panel/', include(control.nested())))\n"
    ),
    "kit/__init__.py": "",
    "kit/board.py": (
        "from django.urls import path as route, include\n"
        "\n"
        "def ping(request):\n"
        "    return None\n"
        "\n"
        "class UrlRegistry:\n"
        "    def __init__(self, base='api/'):\n"
        "        self.base = base\n"
        "        self._items = []\n"
        "        self._sections = {}\n"
        "\n"
        "    def add(self, prefix, *views):\n"
        "        for suffix, view in views:\n"
        "            self._items.append((self.base + prefix + suffix, view))\n"
        "\n"
        "    def section(self, label, parent=None):\n"
        "        self._sections.setdefault(parent, []).append(label)\n"
        "\n"
        "    def put(self, label, *patterns):\n"
        "        self._sections.setdefault('@' + label, []).extend(patterns)\n"
        "\n"
        "    def assemble(self):\n"
        "        return [route(p, v) for p, v in self._items]\n"
        "\n"
        "    def nested(self, parent=None):\n"
        "        out = list(self._sections.get('@%s' % parent, []))\n"
        "        for label in self._sections.get(parent, []):\n"
        "            out.append(route(f'{label}/', include((self.nested(label), label))))\n"
        "        return out\n"
        "\n"
        "board = UrlRegistry(base='v2/')\n"
        "board.add('status/', ('', ping))\n"
    ),
    "shop/__init__.py": "",
    "shop/views.py": (
        "def listing(request):\n    return None\n\ndef item(request, pk):\n    return None\n"
    ),
    "shop/hooks.py": (
        "from django.urls import re_path\n"
        "\n"
        "from kit.board import board\n"
        "from shop import views\n"
        "\n"
        "board.add('shop/', ('', views.listing), ('<int:pk>/', views.item))\n"
        "board.section('orders')\n"
        "board.section('refunds', parent='orders')\n"
        "board.put('orders', re_path(r'^all/$', views.listing))\n"
        "board.put('refunds', re_path(r'^(?P<pk>[0-9]+)/$', views.item))\n"
    ),
}

EXPECTED = [
    "ANY /health/",
    "ANY /panel/orders/all/",
    "ANY /panel/orders/refunds/{pk}/",
    "ANY /v2/shop/",
    "ANY /v2/shop/{pk}/",
    "ANY /v2/status/",
]


def test_a_registry_filled_by_an_imported_plugin_lists_what_django_serves() -> None:
    assert sorted(names(A_REGISTRY_FILLED_BY_PLUGINS)) == EXPECTED
    assert prefix_unresolved(A_REGISTRY_FILLED_BY_PLUGINS) == []
    assert finding_places(A_REGISTRY_FILLED_BY_PLUGINS) == {}


def test_a_plugin_module_the_urlconf_does_not_import_is_listed_with_a_finding_there() -> None:
    files = dict(A_REGISTRY_FILLED_BY_PLUGINS)
    files["site/urls.py"] = files["site/urls.py"].replace("import shop.hooks  # noqa: F401\n", "")
    assert sorted(names(files)) == EXPECTED
    assert prefix_unresolved(files) == [
        "ANY /panel/orders/all/",
        "ANY /panel/orders/refunds/{pk}/",
        "ANY /v2/shop/",
        "ANY /v2/shop/{pk}/",
    ]
    assert {"shop/hooks.py:6", "shop/hooks.py:9", "shop/hooks.py:10"} <= places(files)


A_SECTION_TREE_REGISTERED_THROUGH_EXTENSIONS: dict[str, str] = {
    **SETTINGS,
    "site/settings.py": "ROOT_URLCONF = 'site.urls'\nPANEL_APPS = ['notes']\n",
    "site/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from panel import tree\n"
        "from panel.loader import load_extensions\n"
        "\n"
        "load_extensions()\n"
        "urlpatterns = [path('cp/', include(tree.Section.root()))]\n"
    ),
    "panel/__init__.py": "",
    "panel/tree.py": (
        "from django.urls import include, path\n"
        "\n"
        "class Section:\n"
        "    made = []\n"
        "\n"
        "    def __init__(self, slug):\n"
        "        self.slug = slug\n"
        "        self.children = []\n"
        "        self.urls = []\n"
        "\n"
        "    def nest(self, slug):\n"
        "        child = Section(slug)\n"
        "        self.children.append(child)\n"
        "        return child\n"
        "\n"
        "    def add(self, route, view):\n"
        "        self.urls += [path(route, view)]\n"
        "\n"
        "    def patterns(self):\n"
        "        out = list(self.urls)\n"
        "        for child in self.children:\n"
        "            out.append(path(child.slug + '/', include(child.patterns())))\n"
        "        return out\n"
        "\n"
        "    @staticmethod\n"
        "    def root():\n"
        "        return TOP.patterns()\n"
        "\n"
        "TOP = Section('')\n"
    ),
    "panel/loader.py": (
        "from importlib import import_module\n"
        "\n"
        "from django.conf import settings\n"
        "\n"
        "from panel.tree import TOP\n"
        "\n"
        "def load_extensions():\n"
        "    for name in settings.PANEL_APPS:\n"
        "        module = import_module(name + '.panel')\n"
        "        if hasattr(module, 'Extension'):\n"
        "            module.Extension().attach(TOP)\n"
    ),
    "notes/__init__.py": "",
    "notes/views.py": (
        "from django.views import View\n"
        "\n"
        "class NoteList(View):\n"
        "    def get(self, request):\n"
        "        return None\n"
        "\n"
        "def note_edit(request, pk):\n"
        "    return None\n"
    ),
    "notes/panel.py": (
        "from . import views\n"
        "\n"
        "class Extension:\n"
        "    def attach(self, top):\n"
        "        notes = top.nest('notes')\n"
        "        notes.add('', views.NoteList.as_view())\n"
        "        notes.nest('edit').add('<int:pk>/', views.note_edit)\n"
    ),
}


def test_a_section_tree_filled_through_runtime_extensions_is_listed_and_flagged() -> None:
    files = A_SECTION_TREE_REGISTERED_THROUGH_EXTENSIONS
    assert sorted(names(files)) == ["ANY /cp/notes/edit/{pk}/", "GET /cp/notes/"]
    assert prefix_unresolved(files) == ["ANY /cp/notes/edit/{pk}/", "GET /cp/notes/"]
    assert "panel/loader.py:11" in places(files)


def test_a_registry_whose_build_cannot_be_followed_is_a_finding_at_the_urlconf() -> None:
    files = dict(A_REGISTRY_FILLED_BY_PLUGINS)
    files["kit/board.py"] = files["kit/board.py"].replace(
        "        return [route(p, v) for p, v in self._items]\n",
        "        return [route(p, v) for p, v in self._items if callable(v)]\n",
    )
    assert "ANY /v2/shop/" not in names(files)
    assert "site/urls.py:7" in places(files)


A_PLAIN_STORE_TURNED_INTO_PATTERNS_BY_THE_URLCONF: dict[str, str] = {
    **SETTINGS,
    "site/urls.py": (
        "from django.urls import path\n"
        "\n"
        "from hub.store import entries\n"
        "\n"
        "urlpatterns = [path(prefix, view) for prefix, view in entries.pairs]\n"
    ),
    "hub/__init__.py": "",
    "hub/store.py": (
        "class Pairs:\n"
        "    def __init__(self):\n"
        "        self.pairs = []\n"
        "\n"
        "    def put(self, prefix, view):\n"
        "        self.pairs.append((prefix, view))\n"
        "\n"
        "def home(request):\n"
        "    return None\n"
        "\n"
        "entries = Pairs()\n"
        "entries.put('home/', home)\n"
    ),
    "hub/extra.py": (
        "from hub.store import entries\n"
        "\n"
        "def more(request):\n"
        "    return None\n"
        "\n"
        "entries.put('more/', more)\n"
    ),
}


@pytest.mark.parametrize(
    "files",
    [
        A_REGISTRY_FILLED_BY_PLUGINS,
        A_SECTION_TREE_REGISTERED_THROUGH_EXTENSIONS,
        A_PLAIN_STORE_TURNED_INTO_PATTERNS_BY_THE_URLCONF,
    ],
    ids=["registry", "sections", "plain-store"],
)
def test_the_prefilter_changes_nothing_on_collectors(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"resources": []' not in documents[0]


def test_document_has_no_collector_finding_when_all_is_known() -> None:
    assert document(A_REGISTRY_FILLED_BY_PLUGINS)["findings"] == []


A_PREFIX_FROM_A_SETTINGS_OBJECT_WITH_DEFAULTS: dict[str, str] = {
    "conf/__init__.py": "",
    "conf/settings.py": ("ROOT_URLCONF = 'conf.urls'\nSHOP_PATH = 'store'\n"),
    "conf/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from options import opts\n"
        "\n"
        "urlpatterns = []\n"
        "if opts.CONSOLE_PATH:\n"
        "    console = f'{opts.CONSOLE_PATH}/'\n"
        "    urlpatterns += [path(console, include('console.urls'))]\n"
        "urlpatterns += [path(opts.SHOP_PATH + '/', include('console.urls'))]\n"
    ),
    "options/__init__.py": "from .wrapper import Options\n\nopts = Options()\n",
    "options/fallback.py": "CONSOLE_PATH = 'desk'\nSHOP_PATH = 'never'\n",
    "options/wrapper.py": (
        "from django.conf import settings as project\n"
        "\n"
        "from . import fallback\n"
        "\n"
        "class Options:\n"
        "    def __getattr__(self, key):\n"
        "        try:\n"
        "            return getattr(project, key)\n"
        "        except AttributeError:\n"
        "            pass\n"
        "        return getattr(fallback, key)\n"
    ),
    "console/__init__.py": "",
    "console/urls.py": (
        "from django.urls import path\n"
        "\n"
        "def board(request):\n"
        "    return None\n"
        "\n"
        "urlpatterns = [path('board/', board)]\n"
    ),
}


def test_a_prefix_read_through_a_settings_object_falling_back_to_defaults() -> None:
    files = A_PREFIX_FROM_A_SETTINGS_OBJECT_WITH_DEFAULTS
    assert sorted(names(files)) == ["ANY /desk/board/", "ANY /store/board/"]
    assert prefix_unresolved(files) == []


def test_the_prefilter_changes_nothing_on_a_settings_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, A_PREFIX_FROM_A_SETTINGS_OBJECT_WITH_DEFAULTS,
                                     monkeypatch)  # fmt: skip
    assert documents[0] == documents[1]
    assert "/desk/board/" in documents[0]


def test_a_collector_doing_what_python_would_refuse_is_a_finding_not_a_crash() -> None:
    files = dict(A_REGISTRY_FILLED_BY_PLUGINS)
    files["kit/board.py"] = files["kit/board.py"].replace(
        "        return [route(p, v) for p, v in self._items]\n",
        "        seen = {}\n"
        "        if [self.base] in seen:\n"
        "            return []\n"
        "        return [route(p, v) for p, v in self._items]\n",
    )
    assert "ANY /v2/shop/" not in names(files)
    assert "site/urls.py:7" in places(files)


def test_patterns_built_from_a_plain_store_are_listed_and_say_others_may_fill_it() -> None:
    files = A_PLAIN_STORE_TURNED_INTO_PATTERNS_BY_THE_URLCONF
    assert sorted(names(files)) == ["ANY /home/"]
    assert prefix_unresolved(files) == ["ANY /home/"]
    assert "site/urls.py:5" in places(files)


def test_an_included_urlconf_filling_the_registry_at_import_counts_with_its_order_flagged() -> None:
    files = dict(A_REGISTRY_FILLED_BY_PLUGINS)
    files["shop/urls.py"] = (
        "from django.urls import path\n"
        "\n"
        "from kit.board import board\n"
        "from shop import views\n"
        "\n"
        "board.add('cart/', ('', views.listing))\n"
        "urlpatterns = [path('', views.listing)]\n"
    )
    files["site/urls.py"] += "urlpatterns.append(path('shop/', include('shop.urls')))\n"
    assert {"ANY /v2/cart/", "ANY /shop/"} <= set(names(files))
    assert "ANY /v2/cart/" in prefix_unresolved(files)
    assert "shop/urls.py:6" in places(files)
