"""pack-http-routes on views registered at start by an app's `AppConfig.ready()` (issue 34 class
1, `packs/routes/django_registries.py`): `ready()` hands `self.get_models()` to a project
function (imported inside `ready()`, once through its module, once under another name) that
loops over the models and, for those below a mixin, calls the registry's decorator as a
function (`attach(model, "audit")("core.generic.AuditView")`, a dotted string the URL builder
turns back into the class with Django's `import_string`, or a class). One app sets its own
`label`, one model package is split in files. Our own code, not a repository's; the routes named
are what Django's resolver serves for these files (checked by running them under Django 6)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, names, scanned_both_ways  # noqa: E402

VIEWS_REGISTERED_AT_START: dict[str, str] = {
    "site_cfg/__init__.py": "",
    "site_cfg/settings.py": (
        "ROOT_URLCONF = 'site_cfg.urls'\n"
        "SECRET_KEY = 'x'\n"
        "INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'core',\n"
        "                  'garden', 'tools.apps.ToolsConfig']\n"
    ),
    "site_cfg/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "urlpatterns = [\n"
        "    path('garden/', include('garden.urls')),\n"
        "    path('kit/', include('tools.urls')),\n"
        "]\n"
    ),
    "core/__init__.py": "",
    "core/registry.py": "PAGES = {}\n",
    "core/pages.py": (
        "from core.registry import PAGES\n"
        "\n"
        "\n"
        "def page_for(model, action, url=None):\n"
        "    def wrap(view):\n"
        "        meta = model._meta\n"
        "        per_app = PAGES.setdefault(meta.app_label, {})\n"
        "        per_app.setdefault(meta.model_name, []).append((action, url or action, view))\n"
        "        return view\n"
        "    return wrap\n"
    ),
    "core/models.py": (
        "from django.db import models\n"
        "\n"
        "\n"
        "class Auditable(models.Model):\n"
        "    class Meta:\n"
        "        abstract = True\n"
        "\n"
        "\n"
        "class Commentable(models.Model):\n"
        "    class Meta:\n"
        "        abstract = True\n"
    ),
    "core/generic.py": (
        "from django.http import HttpResponse\n"
        "from django.views import View\n"
        "\n"
        "\n"
        "class AuditView(View):\n"
        "    def get(self, request, pk, **kw):\n"
        "        return HttpResponse('')\n"
        "\n"
        "\n"
        "class CommentsView(View):\n"
        "    def get(self, request, pk, **kw):\n"
        "        return HttpResponse('')\n"
        "\n"
        "    def post(self, request, pk, **kw):\n"
        "        return HttpResponse('')\n"
    ),
    "core/traits.py": (
        "from core.generic import CommentsView\n"
        "from core.models import Auditable, Commentable\n"
        "\n"
        "\n"
        "def enable(*model_classes):\n"
        "    from core.pages import page_for as attach\n"
        "\n"
        "    for cls in model_classes:\n"
        "        if issubclass(cls, Auditable):\n"
        "            attach(cls, 'audit')('core.generic.AuditView')\n"
        "        if issubclass(cls, Commentable):\n"
        "            attach(cls, 'comments', url='notes')(CommentsView)\n"
    ),
    "core/urlkit.py": (
        "from django.urls import path\n"
        "from django.utils.module_loading import import_string\n"
        "\n"
        "from core.registry import PAGES\n"
        "\n"
        "\n"
        "def model_urls(app, model):\n"
        "    out = []\n"
        "    for action, url, view in PAGES.get(app, {}).get(model, []):\n"
        "        if isinstance(view, str):\n"
        "            view = import_string(view)\n"
        "        out.append(path(url + '/', view.as_view(), name=f'{model}_{action}'))\n"
        "    return out\n"
    ),
    "garden/__init__.py": "",
    "garden/apps.py": (
        "from django.apps import AppConfig\n"
        "\n"
        "\n"
        "class GardenConfig(AppConfig):\n"
        "    name = 'garden'\n"
        "\n"
        "    def ready(self):\n"
        "        from core import traits\n"
        "\n"
        "        traits.enable(*self.get_models())\n"
    ),
    "garden/models/__init__.py": "from .beds import Bed\nfrom .plants import Plant, Seed\n",
    "garden/models/beds.py": (
        "from core.models import Auditable\n\n\nclass Bed(Auditable):\n    pass\n"
    ),
    "garden/models/plants.py": (
        "from django.db import models\n"
        "\n"
        "from core.models import Auditable, Commentable\n"
        "\n"
        "\n"
        "class Plant(Commentable, Auditable):\n"
        "    pass\n"
        "\n"
        "\n"
        "class Seed(models.Model):\n"
        "    pass\n"
    ),
    "garden/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from core.urlkit import model_urls\n"
        "\n"
        "urlpatterns = [\n"
        "    path('beds/<int:pk>/', include(model_urls('garden', 'bed'))),\n"
        "    path('plants/<int:pk>/', include(model_urls('garden', 'plant'))),\n"
        "    path('seeds/<int:pk>/', include(model_urls('garden', 'seed'))),\n"
        "]\n"
    ),
    "tools/__init__.py": "",
    "tools/apps.py": (
        "from django.apps import AppConfig\n"
        "\n"
        "\n"
        "class ToolsConfig(AppConfig):\n"
        "    name = 'tools'\n"
        "    label = 'kit'\n"
        "\n"
        "    def ready(self):\n"
        "        from core.traits import enable as switch_on\n"
        "\n"
        "        found = list(self.get_models())\n"
        "        switch_on(*found)\n"
    ),
    "tools/models.py": (
        "from core.models import Commentable\n\n\nclass Hammer(Commentable):\n    pass\n"
    ),
    "tools/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        "from core import urlkit\n"
        "\n"
        "urlpatterns = [\n"
        "    path('hammers/<int:pk>/', include(urlkit.model_urls('kit', 'hammer'))),\n"
        "]\n"
    ),
}

EXPECTED = [
    "GET /garden/beds/{pk}/audit/",
    "GET /garden/plants/{pk}/audit/",
    "GET /garden/plants/{pk}/notes/",
    "GET /kit/hammers/{pk}/notes/",
    "POST /garden/plants/{pk}/notes/",
    "POST /kit/hammers/{pk}/notes/",
]


def test_views_an_app_s_ready_registers_for_its_models_are_listed() -> None:
    assert sorted(names(VIEWS_REGISTERED_AT_START)) == EXPECTED
    assert document(VIEWS_REGISTERED_AT_START)["findings"] == []


def test_a_filler_call_no_ready_reaches_still_flags_what_is_built() -> None:
    files = dict(VIEWS_REGISTERED_AT_START)
    files["core/upkeep.py"] = (
        "from django.apps import apps\n"
        "\n"
        "from core.pages import page_for\n"
        "\n"
        "\n"
        "def late_pages():\n"
        "    for model in apps.get_models():\n"
        "        page_for(model, 'history')('core.generic.AuditView')\n"
    )
    assert sorted(names(files)) == EXPECTED
    details = [f["detail"] for f in document(files)["findings"]]
    assert any("`page_for`" in d and "core/upkeep.py:8" in d for d in details)


def test_a_mixin_test_the_pack_cannot_decide_flags_what_is_built() -> None:
    files = dict(VIEWS_REGISTERED_AT_START)
    files["garden/models/beds.py"] = (
        "from core.models import Auditable\nfrom plotlib import Plot\n\n\n"
        "class Bed(Auditable, Plot):\n    pass\n"
    )
    files["core/traits.py"] = files["core/traits.py"].replace(
        "if issubclass(cls, Auditable):", "if issubclass(cls, Auditable) or cls.audited:"
    )
    listed = names(files)
    assert "GET /garden/beds/{pk}/audit/" in listed
    details = [f["detail"] for f in document(files)["findings"]]
    assert any("`page_for`" in d and "ready()" in d for d in details)


def test_a_ready_in_test_code_registers_nothing() -> None:
    files = dict(VIEWS_REGISTERED_AT_START)
    files["garden/tests/__init__.py"] = ""
    files["garden/tests/apps.py"] = (
        "from django.apps import AppConfig\n"
        "\n"
        "\n"
        "class ProbeConfig(AppConfig):\n"
        "    name = 'garden'\n"
        "\n"
        "    def ready(self):\n"
        "        from core.pages import page_for\n"
        "\n"
        "        for model in self.get_models():\n"
        "            page_for(model, 'probe')('core.generic.AuditView')\n"
    )
    assert sorted(names(files)) == EXPECTED


def test_the_prefilter_changes_nothing_on_views_registered_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, VIEWS_REGISTERED_AT_START, monkeypatch)
    assert documents[0] == documents[1]
    assert "/garden/plants/{pk}/notes/" in documents[0]
