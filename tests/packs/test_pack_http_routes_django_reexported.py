"""pack-http-routes on a URLconf whose `urlpatterns` another module holds: a package
`urls/__init__.py` doing `from .base import urlpatterns` (Django imports the package and reads
the name it binds), included by name or named by ROOT_URLCONF. Blind round 23's class: the
include was a finding and the routes were missing. Our own code; the routes named are what
Django 5.2 serves for these files."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import finding_places, located, scanned_both_ways

FILES: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'yard.settings')\n",
    "yard/__init__.py": "",
    "yard/settings.py": "ROOT_URLCONF = 'yard.routes'\nINSTALLED_APPS = []\n",
    "yard/views.py": "def dock(request): ...\ndef gate(request): ...\ndef crane(request): ...\n",
    "yard/routes/__init__.py": "from yard.routes.main import urlpatterns  # noqa: F401\n",
    "yard/routes/main.py": (
        "from django.urls import include, path\n"
        "from yard.views import dock\n"
        "urlpatterns = [\n"
        "    path('dock/', dock),\n"
        "    path('lift/', include('yard.lifts.urls')),\n"
        "]\n"
    ),
    "yard/lifts/__init__.py": "",
    "yard/lifts/urls/__init__.py": "from .base import *  # noqa: F403\n",
    "yard/lifts/urls/base.py": (
        "from django.urls import path\n"
        "from yard.views import crane, gate\n"
        "urlpatterns = (\n"
        "    path('gate/', gate),\n"
        "    path('crane/<int:pk>/', crane),\n"
        ")\n"
    ),
}


def test_urlpatterns_a_urlconf_imports_from_another_module_are_served_where_written() -> None:
    assert located(FILES) == {
        "ANY /dock/": "yard/routes/main.py:4",
        "ANY /lift/gate/": "yard/lifts/urls/base.py:4",
        "ANY /lift/crane/{pk}/": "yard/lifts/urls/base.py:5",
    }
    assert finding_places(FILES) == {}


def test_the_pre_filter_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, FILES, monkeypatch)
    assert documents[0] == documents[1]
