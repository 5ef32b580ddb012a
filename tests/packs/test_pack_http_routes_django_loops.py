"""pack-http-routes on URL patterns a Django URLconf adds in a loop (`packs/routes/django_loops.py`,
`packs/routes/django_app_loops.py`): each app's (or plugin's) URLconf included per installed
app, through a project function keeping the apps whose `AppConfig` carries a marker, a
comprehension over `apps.get_app_configs()`, or a `for` over `settings.INSTALLED_APPS` with a
failed import skipped. Before, the reader never looked inside a module-level `for`: what the
loop added was dropped without a word.

tests/fixtures/repos/django-plugin-loops: its routes below are what Django 5 serves for it
(`get_resolver()` walked by bench/real_repos/derive/django_runtime_routes.py gives exactly
these three names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, fixture_files, names, pre_filtered, write_files

PROJECT = fixture_files("django-plugin-loops")


def details(files: dict[str, str]) -> dict[str, str]:
    """`file:line` -> the finding's detail."""
    return {
        f"{f['locations'][0]['path']}:{f['locations'][0]['line']}": str(f["detail"])
        for f in document(files)["findings"]
    }


def test_each_installed_app_a_project_function_keeps_is_included_under_its_prefix() -> None:
    """`enabled_addons()` keeps the configs with `addon_info` (a method of one, a class
    attribute inherited from the project's base of another; the third has none); the settings
    add the add-ons from a list of another module; the prefix is each app's label."""
    assert names(PROJECT) == {"ANY /", "ANY /x/books/entries/", "ANY /x/polls/polls/{pk}/"}


def test_the_apps_whose_code_is_not_shown_are_named_at_the_loop() -> None:
    found = details(PROJECT)
    assert list(found) == ["portal/urls.py:9"]
    assert "django.contrib.contenttypes, django.contrib.auth" in found["portal/urls.py:9"]


SHOP = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'shop.conf')\n",
    "shop/conf.py": (
        "ROOT_URLCONF = 'shop.routes'\n"
        "CORE = ('shop.cart', 'shop.search')\n"
        "INSTALLED_APPS = list(CORE)\n"
    ),
    "shop/__init__.py": "",
    "shop/cart/__init__.py": "SERVES_URLS = True\n",
    "shop/cart/urls.py": (
        "from django.urls import path\nfrom shop.cart import views\n\n"
        "urlpatterns = [path('cart/', views.show)]\n"
    ),
    "shop/cart/views.py": "def show(request):\n    return None\n",
    "shop/search/__init__.py": "",
    "shop/search/urls.py": (
        "from django.urls import path\nfrom shop.cart import views\n\n"
        "urlpatterns = [path('find/', views.show)]\n"
    ),
    "shop/routes.py": (
        "from django.apps import apps\nfrom django.urls import include, path\n\n"
        "urlpatterns = [\n"
        "    path('', include(cfg.name + '.urls'))\n"
        "    for cfg in apps.get_app_configs()\n"
        "    if getattr(cfg.module, 'SERVES_URLS', False)\n"
        "]\n"
    ),
}


def test_a_comprehension_keeps_the_apps_whose_package_sets_a_flag() -> None:
    assert names(SHOP) == {"ANY /cart/"}
    assert document(SHOP)["findings"] == []


DESK = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'desk.settings')\n",
    "desk/settings.py": (
        "from importlib import metadata\n"
        "ROOT_URLCONF = 'desk.urls'\n"
        "INSTALLED_APPS = ['desk.tickets', 'desk.audit']\n"
        "for point in metadata.entry_points(group='desk.apps'):\n"
        "    INSTALLED_APPS.append(point.value)\n"
    ),
    "desk/__init__.py": "",
    "desk/tickets/__init__.py": "",
    "desk/tickets/urls.py": (
        "from django.urls import re_path\n\n"
        "def board(request):\n    return None\n\n"
        "urlpatterns = [re_path(r'^board/$', board)]\n"
    ),
    "desk/audit/__init__.py": "",
    "desk/urls.py": (
        "from django.conf import settings\nfrom django.urls import include, path\n\n"
        "urlpatterns = []\n"
        "for dotted in settings.INSTALLED_APPS:\n"
        "    try:\n"
        "        urlpatterns += [path(dotted.split('.')[-1] + '/', include(dotted + '.urls'))]\n"
        "    except ImportError:\n"
        "        pass\n"
        "    urlpatterns.append(path('', include(dotted + '.urls')))\n"
    ),
}


def test_a_loop_over_the_settings_skips_a_failed_import_and_names_entry_point_apps() -> None:
    """`desk.audit` has no `urls`: under `try`/`except ImportError` its pass is skipped; the
    apps entry points add are named at each pattern; a route the pass computes from the app
    in a way not read is a finding, never dropped."""
    found = details(DESK)
    assert "ANY /board/" in names(DESK)
    assert "desk/settings.py:5" in found["desk/urls.py:10"]
    assert "desk.tickets" in found["desk/urls.py:7"]  # `dotted.split('.')[-1]`: not read


@pytest.mark.parametrize(
    "loop",
    [
        "for part in discover():\n    urlpatterns.append(path('', include(part + '.urls')))\n",
        "for part in ('a', 'b'):\n    urlpatterns.append(path(f'{part}/', include(f'x.{part}')))\n",
        "for i, part in enumerate(X):\n    urlpatterns += [path('', include(part.urls))]\n",
        "for cfg in apps.get_app_configs():\n    if cfg.label.startswith('p'):\n"
        "        urlpatterns.append(path('', include(cfg.name + '.urls')))\n",
    ],
)
def test_a_loop_the_pack_does_not_follow_is_a_finding_at_its_pattern(loop: str) -> None:
    files = {
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['proj']\n",
        "proj/urls.py": "from django.urls import include, path\n\nurlpatterns = []\n" + loop,
    }
    line = 5 if loop.count("\n") == 2 else 6
    assert finding_places(files).get("UNRESOLVED_ROUTER") == [f"proj/urls.py:{line}"]


def test_prefilter_identity_on_the_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, files in (("portal", PROJECT), ("shop", SHOP), ("desk", DESK)):
        write_files(tmp_path / name, files)
        found, _, _ = pre_filtered(tmp_path / name, monkeypatch)
        assert found["resources"]
