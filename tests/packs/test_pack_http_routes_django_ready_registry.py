"""pack-http-routes (Django): a plugin registry, a module-level object of a project class whose
`register()` stores objects on it, filled by the apps' `AppConfig.ready()` (not at import), read
by the URLconfs through a property that gathers the URL patterns each registered object's
method returns (`urlpatterns = [...] + application_type_registry.api_urls`): its routes under
the URLconf's prefix, an `include` of a module imported inside that method followed by its
name; an app config of a template folder (`{{ cookiecutter.module }}/apps.py`, no module Python
imports) is not run (blind24m's baserow: 113 -> 297 of its 342 routes, its plugin registries
were `UNRESOLVED_ROUTER`s)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

REGISTRY: dict[str, str] = {
    "core/__init__.py": "",
    "core/registries.py": (
        "from .registry import APIUrlsRegistryMixin, Registry\n"
        "\n"
        "\n"
        "class ApplicationTypeRegistry(APIUrlsRegistryMixin, Registry):\n"
        '    name = "application"\n'
        "\n"
        "\n"
        "application_type_registry = ApplicationTypeRegistry()\n"
    ),
    "core/registry.py": (
        "class Registry:\n"
        "    def __init__(self):\n"
        "        self.registry = {}\n"
        "\n"
        "    def register(self, instance):\n"
        "        self.registry[instance.type] = instance\n"
        "\n"
        "\n"
        "class APIUrlsRegistryMixin:\n"
        "    @property\n"
        "    def api_urls(self):\n"
        "        api_urls = []\n"
        "        for types in self.registry.values():\n"
        "            api_urls += types.get_api_urls()\n"
        "        return api_urls\n"
    ),
    "core/urls.py": (
        "from django.urls import path\n"
        "\n"
        "from .registries import application_type_registry\n"
        "from .views import SettingsView\n"
        "\n"
        'urlpatterns = [path("settings/", SettingsView.as_view())] + application_type_registry.api_urls\n'
    ),
    "core/views.py": (
        "from rest_framework.views import APIView\n"
        "\n"
        "\n"
        "class SettingsView(APIView):\n"
        "    def get(self, request):\n"
        "        return None\n"
    ),
    "database/__init__.py": "",
    "database/api/__init__.py": "",
    "database/api/urls.py": (
        "from django.urls import path\n"
        "\n"
        "from .views import TablesView\n"
        "\n"
        'app_name = "database"\n'
        'urlpatterns = [path("tables/<int:table_id>/", TablesView.as_view())]\n'
    ),
    "database/api/views.py": (
        "from rest_framework.views import APIView\n"
        "\n"
        "\n"
        "class TablesView(APIView):\n"
        "    def get(self, request, table_id):\n"
        "        return None\n"
        "\n"
        "    def delete(self, request, table_id):\n"
        "        return None\n"
    ),
    "database/application_types.py": (
        "from django.urls import include, path\n"
        "\n"
        "\n"
        "class DatabaseApplicationType:\n"
        '    type = "database"\n'
        "\n"
        "    def get_api_urls(self):\n"
        "        from .api import urls\n"
        "\n"
        '        return [path("database/", include(urls, namespace="database"))]\n'
    ),
    "database/apps.py": (
        "from django.apps import AppConfig\n"
        "\n"
        "\n"
        "class DatabaseConfig(AppConfig):\n"
        '    name = "database"\n'
        "\n"
        "    def ready(self):\n"
        "        from core.registries import application_type_registry\n"
        "\n"
        "        from .application_types import DatabaseApplicationType\n"
        "\n"
        "        application_type_registry.register(DatabaseApplicationType())\n"
    ),
    "plugin-template/{{ cookiecutter.module }}/application_types.py": (
        "from django.urls import path\n"
        "\n"
        "from .views import StartView\n"
        "\n"
        "\n"
        "class TemplateApplicationType:\n"
        '    type = "template"\n'
        "\n"
        "    def get_api_urls(self):\n"
        '        return [path("starting/", StartView.as_view())]\n'
    ),
    "plugin-template/{{ cookiecutter.module }}/apps.py": (
        "from django.apps import AppConfig\n"
        "\n"
        "\n"
        "class PluginConfig(AppConfig):\n"
        '    name = "{{ cookiecutter.module }}"\n'
        "\n"
        "    def ready(self):\n"
        "        from core.registries import application_type_registry\n"
        "\n"
        "        from .application_types import TemplateApplicationType\n"
        "\n"
        "        application_type_registry.register(TemplateApplicationType())\n"
    ),
    "site/settings.py": (
        'ROOT_URLCONF = "site.urls"\nINSTALLED_APPS = ["core", "database.apps.DatabaseConfig"]\n'
    ),
    "site/urls.py": (
        "from django.urls import include, path\n"
        "\n"
        'urlpatterns = [path("api/", include("core.urls"))]\n'
    ),
}


def test_a_registry_filled_in_ready_gives_the_routes_its_objects_make() -> None:
    found = document(REGISTRY)
    assert {str(r["name"]): r["location"] for r in found["resources"]} == {
        "GET /api/settings/": {"path": "core/urls.py", "line": 6},
        "GET /api/database/tables/{table_id}/": {"path": "database/api/urls.py", "line": 6},
        "DELETE /api/database/tables/{table_id}/": {"path": "database/api/urls.py", "line": 6},
    }
    assert found["findings"] == []


def test_a_registry_no_ready_fills_stays_a_finding() -> None:
    files = {**REGISTRY, "database/apps.py": REGISTRY["database/apps.py"].replace(
        "        application_type_registry.register(DatabaseApplicationType())\n", "        pass\n"
    )}  # fmt: skip
    found = document(files)
    assert {str(r["name"]) for r in found["resources"]} == {"GET /api/settings/"}
    assert [f["locations"] for f in found["findings"]] == [[{"path": "core/urls.py", "line": 6}]]


def test_pre_filtered_is_parse_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, REGISTRY, monkeypatch)
    assert documents[0] == documents[1]
    assert '"DELETE /api/database/tables/{table_id}/"' in documents[0]


def test_a_registry_property_named_urls_is_evaluated_too() -> None:
    """`urlpatterns = [...] + plugin_registry.urls`: read as a router's `.urls` first, and
    where no router of the scanned files is named so, the object's property."""
    files = {
        **REGISTRY,
        "core/registry.py": REGISTRY["core/registry.py"].replace("def api_urls", "def urls"),
        "core/urls.py": REGISTRY["core/urls.py"].replace("registry.api_urls", "registry.urls"),
    }
    found = document(files)
    assert "GET /api/database/tables/{table_id}/" in {str(r["name"]) for r in found["resources"]}
    assert found["findings"] == []
