"""pack-http-routes on URL patterns built from registries a project's decorators fill at import
(issue 34 class 1, issue 36's Django URLs row; `packs/routes/django_registries.py`): a store in a
third package (`defaultdict(dict)` keyed by `Model._meta.app_label` and `model_name`, and a
plain dict keyed by string labels), decorators with and without `path`/`detail`, stacked, one
imported under an alias and one reached through its module, a builder the URLconfs call inside
`include()` that loops over the store. Our own code, not a repository's; the routes named are
what Django's resolver serves for these files (checked by running them under Django 5)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, names, scanned_both_ways  # noqa: E402

A_PROJECT_WITH_VIEW_REGISTRIES: dict[str, str] = {
    "portal/__init__.py": "",
    "portal/settings.py": (
        "ROOT_URLCONF = 'portal.urls'\n"
        "SECRET_KEY = 'x'\n"
        "INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'library', 'shelf']\n"
    ),
    "portal/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "urlpatterns = [\n"
        "    path('library/', include('library.urls')),\n"
        "    path('shelf/', include(('shelf.routes', 'shelf'))),\n"
        "]\n"
    ),
    "hub/__init__.py": "",
    "hub/tables.py": (
        "import collections\n\nMODEL_VIEWS = collections.defaultdict(dict)\nWIDGETS = {}\n"
    ),
    "hub/marks.py": (
        "from hub.tables import MODEL_VIEWS, WIDGETS\n"
        "\n"
        "\n"
        "def attach_view(model, name='', path=None, detail=True, kwargs=None):\n"
        "    def remember(view):\n"
        "        label = model._meta.app_label\n"
        "        lowered = model._meta.model_name\n"
        "        per_app = MODEL_VIEWS[label]\n"
        "        per_app.setdefault(lowered, []).append({\n"
        "            'view': view,\n"
        "            'name': name,\n"
        "            'path': name if path is None else path,\n"
        "            'detail': detail,\n"
        "            'kwargs': kwargs or {},\n"
        "        })\n"
        "        return view\n"
        "    return remember\n"
        "\n"
        "\n"
        "def widget(group, slug=None):\n"
        "    def keep(func):\n"
        "        WIDGETS.setdefault(group, []).append((slug or func.__name__, func))\n"
        "        return func\n"
        "    return keep\n"
    ),
    "hub/builders.py": (
        "from django.urls import path\n"
        "from django.views import View\n"
        "\n"
        "from hub import tables\n"
        "\n"
        "\n"
        "def patterns_for(app, model, detail=True):\n"
        "    found = []\n"
        "    try:\n"
        "        entries = [e for e in tables.MODEL_VIEWS[app][model] if e['detail'] == detail]\n"
        "    except KeyError:\n"
        "        return []\n"
        "    for entry in entries:\n"
        "        view = entry['view']\n"
        "        if isinstance(view, type) and issubclass(view, View):\n"
        "            view = view.as_view()\n"
        "        suffix = entry['path'] + '/' if entry['path'] else ''\n"
        "        label = f\"{model}_{entry['name']}\" if entry['name'] else model\n"
        "        found.append(path(suffix, view, name=label, kwargs=entry['kwargs']))\n"
        "    return found\n"
        "\n"
        "\n"
        "def widget_patterns(group):\n"
        "    return [path(f'{slug}/', func) for slug, func in tables.WIDGETS.get(group, [])]\n"
    ),
    "library/__init__.py": "",
    "library/models.py": (
        "from django.db import models\n"
        "\n"
        "\n"
        "class Book(models.Model):\n"
        "    title = models.CharField(max_length=80)\n"
        "\n"
        "\n"
        "class PenName(models.Model):\n"
        "    label = models.CharField(max_length=80)\n"
    ),
    "library/views.py": (
        "from django.http import HttpResponse\n"
        "from django.views.generic import View\n"
        "\n"
        "from hub.marks import attach_view as hook, widget\n"
        "\n"
        "from .models import Book, PenName\n"
        "\n"
        "\n"
        "class Page(View):\n"
        "    def get(self, request, **kw):\n"
        "        return HttpResponse('')\n"
        "\n"
        "\n"
        "@hook(Book, 'list', path='', detail=False)\n"
        "class BookList(Page):\n"
        "    pass\n"
        "\n"
        "\n"
        "@hook(Book)\n"
        "class BookDetail(Page):\n"
        "    pass\n"
        "\n"
        "\n"
        "@hook(Book, 'add', detail=False)\n"
        "@hook(Book, 'edit')\n"
        "class BookEdit(Page):\n"
        "    def post(self, request, **kw):\n"
        "        return HttpResponse('')\n"
        "\n"
        "\n"
        "@hook(PenName, 'history', path='changes', kwargs={'full': True})\n"
        "class PenNameHistory(Page):\n"
        "    pass\n"
        "\n"
        "\n"
        "@widget('stats')\n"
        "def totals(request):\n"
        "    return HttpResponse('')\n"
        "\n"
        "\n"
        "@widget('stats', slug='by-month')\n"
        "def monthly(request):\n"
        "    return HttpResponse('')\n"
    ),
    "library/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from hub.builders import patterns_for, widget_patterns\n"
        "\n"
        "from . import views  # noqa: F401\n"
        "\n"
        "urlpatterns = [\n"
        "    path('books/', include(patterns_for('library', 'book', detail=False))),\n"
        "    path('books/<int:pk>/', include(patterns_for('library', 'book'))),\n"
        "    path('pen-names/<int:pk>/', include(patterns_for('library', 'penname'))),\n"
        "    path('pen-names/', include(patterns_for('library', 'penname', detail=False))),\n"
        "    path('widgets/', include(widget_patterns('stats'))),\n"
        "]\n"
    ),
    "shelf/__init__.py": "",
    "shelf/models/__init__.py": "from .boxes import Crate\n",
    "shelf/models/boxes.py": (
        "from django.db import models\n"
        "\n"
        "\n"
        "class Crate(models.Model):\n"
        "    code = models.CharField(max_length=8)\n"
    ),
    "shelf/views.py": (
        "from django.views.generic import TemplateView\n"
        "\n"
        "from hub import marks\n"
        "\n"
        "from .models import Crate\n"
        "\n"
        "\n"
        "@marks.attach_view(Crate, 'audit', path='audit-log')\n"
        "class CrateAudit(TemplateView):\n"
        "    template_name = 'x.html'\n"
        "\n"
        "\n"
        "@marks.attach_view(Crate, 'list', path='', detail=False)\n"
        "class CrateList(TemplateView):\n"
        "    template_name = 'x.html'\n"
    ),
    "shelf/routes.py": (
        "from django.urls import include, path\n"
        "\n"
        "import shelf.views  # noqa: F401\n"
        "from hub.builders import patterns_for as crate_urls\n"
        "\n"
        "urlpatterns = [\n"
        "    path('crates/', include(crate_urls('shelf', 'crate', detail=False))),\n"
        "    path('crates/<int:pk>/', include(crate_urls('shelf', 'crate'))),\n"
        "]\n"
    ),
}


EXPECTED = [
    "ANY /library/widgets/by-month/",
    "ANY /library/widgets/totals/",
    "GET /library/books/",
    "GET /library/books/add/",
    "GET /library/books/{pk}/",
    "GET /library/books/{pk}/edit/",
    "GET /library/pen-names/{pk}/changes/",
    "GET /shelf/crates/",
    "GET /shelf/crates/{pk}/audit-log/",
    "POST /library/books/add/",
    "POST /library/books/{pk}/edit/",
]


def findings_at(files: dict[str, str], place: str) -> list[tuple[str, set[str]]]:
    """The findings listing `place` (`file:line`): detail, every place listed."""
    out = []
    for finding in document(files)["findings"]:
        listed = {f"{p['path']}:{p['line']}" for p in finding["locations"]}
        if place in listed:
            out.append((str(finding["detail"]), listed))
    return out


def test_views_registered_by_decorators_are_listed_where_the_builder_includes_them() -> None:
    assert sorted(names(A_PROJECT_WITH_VIEW_REGISTRIES)) == EXPECTED
    assert document(A_PROJECT_WITH_VIEW_REGISTRIES)["findings"] == []


def test_a_decorator_whose_key_cannot_be_computed_is_a_finding_at_the_decorator() -> None:
    files = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
    files["shelf/views.py"] = files["shelf/views.py"].replace(
        "from hub import marks\n",
        "from django.apps import apps\n\nfrom hub import marks\n",
    ) + (
        "\n\n@marks.attach_view(apps.get_model('shelf', 'Crate'), 'print')\n"
        "class CratePrint(TemplateView):\n"
        "    template_name = 'x.html'\n"
    )
    assert sorted(names(files)) == EXPECTED
    ((detail, _),) = findings_at(files, "shelf/views.py:20")
    assert "`MODEL_VIEWS`" in detail


A_REGISTRY_ALSO_FILLED_AT_RUNTIME = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
# a call no app's `ready()` reaches (those are run: test_pack_http_routes_django_ready.py)
A_REGISTRY_ALSO_FILLED_AT_RUNTIME["library/upkeep.py"] = (
    "from django.apps import apps\n"
    "\n"
    "\n"
    "def refresh():\n"
    "    from hub.marks import attach_view\n"
    "    for model in apps.get_models():\n"
    "        attach_view(model, 'notes')('library.views.BookDetail')\n"
)


def test_a_registry_also_filled_at_runtime_flags_what_is_built_from_it() -> None:
    files = A_REGISTRY_ALSO_FILLED_AT_RUNTIME
    assert sorted(names(files)) == EXPECTED
    listed = {
        place
        for finding in document(files)["findings"]
        if "`attach_view`" in finding["detail"] and "library/upkeep.py:7" in finding["detail"]
        for place in (f"{p['path']}:{p['line']}" for p in finding["locations"])
    }
    # at each URLconf call building from it, and at the views it lists
    assert {"library/urls.py:8", "shelf/routes.py:7", "library/views.py:14"} <= listed


def test_decorators_in_test_code_fill_nothing() -> None:
    files = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
    files["library/tests/__init__.py"] = ""
    files["library/tests/test_views.py"] = (
        "from hub.marks import attach_view\n"
        "from library.models import Book\n"
        "from library.views import Page\n"
        "\n"
        "\n"
        "@attach_view(Book, 'probe')\n"
        "class Probe(Page):\n"
        "    pass\n"
    )
    assert sorted(names(files)) == EXPECTED


@pytest.mark.parametrize(
    "files",
    [A_PROJECT_WITH_VIEW_REGISTRIES, A_REGISTRY_ALSO_FILLED_AT_RUNTIME],
    ids=["closed", "open"],
)
def test_the_prefilter_changes_nothing_on_registries(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"resources": []' not in documents[0]


def test_a_decorator_applied_by_a_module_level_call_fills_the_registry_too() -> None:
    files = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
    files["shelf/views.py"] += (
        "\n\nclass Labels(TemplateView):\n"
        "    template_name = 'x.html'\n"
        "\n\n"
        "marks.attach_view(Crate, 'labels', path='print/labels')(Labels)\n"
    )
    assert sorted(names(files)) == sorted([*EXPECTED, "GET /shelf/crates/{pk}/print/labels/"])
    assert document(files)["findings"] == []


A_STORE_OF_A_DICT_SUBCLASS_KEYED_BY_CONSTANTS = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
A_STORE_OF_A_DICT_SUBCLASS_KEYED_BY_CONSTANTS["hub/tables.py"] = (
    "import collections\n"
    "\n"
    "VIEW_STORE = 'views'\n"
    "\n"
    "\n"
    "class Stores(dict):\n"
    "    def __setitem__(self, key, value):\n"
    "        raise TypeError('the stores are fixed')\n"
    "\n"
    "\n"
    "STORES = Stores({VIEW_STORE: collections.defaultdict(dict), 'other': {}})\n"
    "WIDGETS = {}\n"
)
A_STORE_OF_A_DICT_SUBCLASS_KEYED_BY_CONSTANTS["hub/marks.py"] = (
    A_PROJECT_WITH_VIEW_REGISTRIES["hub/marks.py"]
    .replace("import MODEL_VIEWS, WIDGETS", "import STORES, VIEW_STORE, WIDGETS")
    .replace("MODEL_VIEWS[label]", "STORES[VIEW_STORE][label]")
)
A_STORE_OF_A_DICT_SUBCLASS_KEYED_BY_CONSTANTS["hub/builders.py"] = A_PROJECT_WITH_VIEW_REGISTRIES[
    "hub/builders.py"
].replace("tables.MODEL_VIEWS[app]", "tables.STORES[tables.VIEW_STORE][app]")


def test_a_store_of_a_dict_subclass_keyed_by_module_constants_is_filled_the_same() -> None:
    files = A_STORE_OF_A_DICT_SUBCLASS_KEYED_BY_CONSTANTS
    assert "MODEL_VIEWS" not in "".join(files.values())
    assert sorted(names(files)) == EXPECTED
    assert document(files)["findings"] == []


A_MODEL_WITH_ITS_OWN_APP_LABEL = dict(A_PROJECT_WITH_VIEW_REGISTRIES)
A_MODEL_WITH_ITS_OWN_APP_LABEL["library/models.py"] = A_PROJECT_WITH_VIEW_REGISTRIES[
    "library/models.py"
] + ("\n    class Meta:\n        app_label = 'authors'\n")
A_MODEL_WITH_ITS_OWN_APP_LABEL["library/urls.py"] = A_PROJECT_WITH_VIEW_REGISTRIES[
    "library/urls.py"
].replace("patterns_for('library', 'penname'", "patterns_for('authors', 'penname'")


def test_a_model_s_own_meta_app_label_keys_its_views() -> None:
    files = A_MODEL_WITH_ITS_OWN_APP_LABEL
    assert sorted(names(files)) == EXPECTED
    assert document(files)["findings"] == []
