"""pack-http-routes on what Django projects mount from libraries (`packs/routes/django_linker.py`,
the records of `packs/routes/django_routers.py`): a library's URLconf included (by a module
string, an imported module object, a dotted module, `admin.site.urls`) is never a route but a
finding naming the library; `static(settings.MEDIA_URL)` and `staticfiles_urlpatterns()` are read
from the settings module, served only in DEBUG (said in `attrs.configDefault`); Wagtail's
`WagtailAPIRouter` serves each endpoint's routes as wagtail 7.4.4 builds them, a project view
set's `get_urlpatterns` override read as the project's code; drf-extensions' routers are DRF's,
their chained registrations a finding; django-ninja's API a finding naming it.

tests/fixtures/repos/django-library-urls-app holds our own project (names, aliases, files and
nesting of its own: no repository's code). Its Wagtail endpoints and static-file routes are what
Django 6.0.10 with wagtail 7.4.4 serve for the same router, view sets and settings
(`get_resolver()` walked: `^docks/<slug:berth>/manifest/` after the three of the library,
`^tides/now/` alone, `^uploads/(?P<path>.*)$`, `^assets/(?P<path>.*)$`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, fixture_files, names, scanned_both_ways  # noqa: E402

PROJECT = fixture_files("django-library-urls-app")

WAGTAIL = {
    *(f"GET /v3/{e}/{r}" for e in ("pages", "pictures", "docks") for r in ("", "{pk}/", "find/")),
    "GET /v3/docks/{berth}/manifest/",
    "GET /v3/tides/now/",
}
OWN = {"ANY /quay/board/", "GET /tide/", "ANY /uploads/{path}", "ANY /assets/{path}"}


def details(files: dict[str, str]) -> list[tuple[str, str, int, str]]:
    return sorted(
        (
            str(f["code"]),
            str(f["locations"][0]["path"]),
            int(f["locations"][0]["line"]),
            str(f["detail"]),
        )
        for f in document(files)["findings"]
    )


def test_the_fixture_lists_what_django_serves_for_it_and_no_library_urlconf() -> None:
    """Wagtail's endpoints and the project's own routes; the includes of a library's URLconf
    (`include(cms_pages)` at `site/` and at the root, `include(cms.search.urls)`) are none."""
    assert names(PROJECT) == WAGTAIL | OWN


def test_each_library_urlconf_is_a_finding_naming_its_package_where_it_is_included() -> None:
    found = [d for d in details(PROJECT) if d[1] == "harbor/entry.py"]
    libraries = {line: detail for code, _, line, detail in found if code == "UNRESOLVED_ROUTER"}
    assert "package `django`" in libraries[13]  # admin.site.urls
    assert "`include(cms_pages)`" in libraries[14] and "package `cms`" in libraries[14]
    assert "`cms.search.urls`" in libraries[15]
    assert "allauth.account.urls" in libraries[16] and "package `allauth`" in libraries[16]
    assert "`include(cms_pages)`" in libraries[23]


def test_static_file_routes_come_from_settings_and_say_they_are_served_in_debug_only() -> None:
    resources = {str(r["name"]): r["attrs"] for r in document(PROJECT)["resources"]}
    for name, handler in (
        ("ANY /uploads/{path}", "django.views.static.serve"),
        ("ANY /assets/{path}", "django.contrib.staticfiles.views.serve"),
    ):
        assert resources[name]["handler"] == handler
        assert "DEBUG" in str(resources[name]["configDefault"])
    assert "configDefault" not in resources["GET /tide/"]


def test_static_file_routes_are_not_listed_when_the_settings_turn_debug_off() -> None:
    files = dict(PROJECT)
    files["harbor/conf/devbox.py"] = "from .shared import *  # noqa: F403\n"
    found = names(files)
    assert "ANY /uploads/{path}" not in found and "ANY /assets/{path}" not in found
    said = [d for d in details(files) if d[1] == "harbor/entry.py" and d[2] in (21, 22)]
    assert [d[0] for d in said] == ["UNRESOLVED_ROUTE", "UNRESOLVED_ROUTE"]
    assert all("DEBUG" in d[3] for d in said)


@pytest.mark.parametrize(
    ("debug", "why"),
    [
        ("", "Django's default"),  # never set: Django's own `DEBUG = False`
        ("DEBUG = pick_mode()\n", "do not tell"),  # a function of the project's, not run
        ("import os\nDEBUG = os.environ.get('DEV', '') == 'on'\n", "os.environ.DEV"),
    ],
)
def test_static_file_routes_where_debug_is_not_true_are_a_finding_naming_why(
    debug: str, why: str
) -> None:
    files = dict(PROJECT)
    files["harbor/conf/devbox.py"] = "from .shared import *  # noqa: F403\n" + debug
    files["harbor/conf/shared.py"] = PROJECT["harbor/conf/shared.py"].replace("DEBUG = False\n", "")
    found = names(files)
    assert "ANY /uploads/{path}" not in found and "ANY /assets/{path}" not in found
    said = [d for d in details(files) if d[1] == "harbor/entry.py" and d[2] in (21, 22)]
    assert len(said) == 2 and all(why in d[3] for d in said)


def test_a_static_prefix_out_of_sight_is_a_finding_at_the_call() -> None:
    files = dict(PROJECT)
    files["harbor/conf/shared.py"] = PROJECT["harbor/conf/shared.py"].replace(
        'MEDIA_URL = "/uploads/"', 'import os\nMEDIA_URL = os.environ["MEDIA"]'
    )
    assert "ANY /uploads/{path}" not in names(files)
    assert any(d[1:3] == ("harbor/entry.py", 21) and "prefix" in d[3] for d in details(files))


def test_an_endpoint_override_not_followed_and_a_ninja_api_are_findings() -> None:
    found = details(PROJECT)
    assert any(
        d[1] == "harbor/berths/endpoints.py" and d[2] == 25 and "get_urlpatterns" in d[3]
        for d in found
    )
    ninja = [d for d in found if "django-ninja" in d[3]]
    assert [(d[0], d[1], d[2]) for d in ninja] == [("UNRESOLVED_ROUTER", "harbor/entry.py", 18)]


def test_drf_extensions_routers_are_drfs_and_a_chained_registration_is_a_finding() -> None:
    files = {
        "site/settings.py": "ROOT_URLCONF = 'site.urls'\n",
        "site/urls.py": (
            "from django.urls import include, path\n"
            "from rest_framework_extensions.routers import ExtendedSimpleRouter as Nestable\n"
            "from site import api\n"
            "fleet = Nestable(trailing_slash=False)\n"
            "fleet.register('ships', api.Ships)\n"
            "fleet.register('ports', api.Ports).register(\n"
            "    'cranes', api.Cranes, basename='port-cranes', parents_query_lookups=['port'])\n"
            "urlpatterns = [path('sea/', include(fleet.urls))]\n"
        ),
        "site/api.py": (
            "from rest_framework import viewsets\n"
            "class Ships(viewsets.ReadOnlyModelViewSet):\n    pass\n"
            "class Ports(viewsets.ReadOnlyModelViewSet):\n    pass\n"
            "class Cranes(viewsets.ReadOnlyModelViewSet):\n    pass\n"
        ),
    }
    assert names(files) == {
        "GET /sea/ships",
        "GET /sea/ships/{pk}",
        "GET /sea/ports",
        "GET /sea/ports/{pk}",
    }
    chained = [d for d in details(files) if d[1:3] == ("site/urls.py", 6)]
    assert [d[0] for d in chained] == ["UNRESOLVED_ROUTE"]
    assert "api.Cranes" in chained[0][3] and "drf-extensions" in chained[0][3]


def test_the_prefilter_changes_nothing_on_the_fixture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, PROJECT, monkeypatch)
    assert documents[0] == documents[1]
    assert parsed[1] <= parsed[0]
