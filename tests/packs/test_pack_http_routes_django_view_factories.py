"""pack-http-routes on Django URL patterns whose view is what a call of the project's own
function returns (blind round 19's class): `path("x/", make_view())` where `make_view` returns
`import_string(settings.SOME_VIEW).as_view()` (the setting's value in the settings module
`DJANGO_SETTINGS_MODULE` names, through `from .base import *`, maybe an environment variable's
default), `X.as_view(http_method_names=[...])`, a library's class view, a function view of the
project, a view class named by a literal dotted path built from the call's argument. Each is
listed with the methods of the view the function returns, at the pattern; a function whose
value the pack cannot follow is a finding there, never a route taking every method. Our own
code, not a repository's; the routes named are what Django 5.2's resolver serves for these
files (bench/real_repos/derive/django_runtime_routes.py run over them)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

import pytest  # noqa: E402
from routes_harness import document, finding_places, located, scanned_both_ways  # noqa: E402

FACTORIES: dict[str, str] = {
    "manage.py": (
        "import os\n\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings.prod')\n"
    ),
    "proj/__init__.py": "",
    "proj/settings/__init__.py": "",
    "proj/settings/base.py": (
        "import os\n"
        "\n"
        "ROOT_URLCONF = 'proj.urls'\n"
        "INSTALLED_APPS = ['django.contrib.auth', 'django.contrib.contenttypes', 'desk']\n"
        "REPORT_VIEW_CLASS = 'desk.views.ReportView'\n"
        "LEDGER_VIEW_CLASS = os.environ.get('LEDGER_VIEW', 'desk.views.LedgerView')\n"
        "PANEL_KIND = 'Panel'\n"
    ),
    "proj/settings/prod.py": "from .base import *  # noqa\n",
    "proj/urls.py": (
        "from django.conf import settings\n"
        "from django.urls import path\n"
        "from django.utils.module_loading import import_string\n"
        "\n"
        "from desk import views\n"
        "from desk.factories import archive_view, listing_view, sign_in_view, view_for\n"
        "\n"
        "\n"
        "def report_view():\n"
        "    view_class = import_string(settings.REPORT_VIEW_CLASS)\n"
        "    return view_class.as_view()\n"
        "\n"
        "\n"
        "def ledger_view():\n"
        "    return import_string(settings.LEDGER_VIEW_CLASS).as_view()\n"
        "\n"
        "\n"
        "urlpatterns = [\n"
        "    path('reports/<int:year>', report_view(), name='reports'),\n"
        "    path('ledger/', ledger_view()),\n"
        "    path('archive/', archive_view()),\n"
        "    path('listing/', listing_view()),\n"
        "    path('sign-in/', sign_in_view()),\n"
        "    path('panel/', view_for('Panel')),\n"
        "    path('panel/default/', view_for(settings.PANEL_KIND, flavour='plain')),\n"
        "    path('feed/', views.Feed()),\n"
        "]\n"
    ),
    "desk/__init__.py": "",
    "desk/views.py": (
        "from django.http import HttpResponse\n"
        "from django.views import View\n"
        "from django.views.decorators.http import require_GET\n"
        "\n"
        "\n"
        "class ReportView(View):\n"
        "    def get(self, request, year):\n"
        "        return HttpResponse()\n"
        "\n"
        "    def post(self, request, year):\n"
        "        return HttpResponse()\n"
        "\n"
        "\n"
        "class LedgerView(View):\n"
        "    def put(self, request):\n"
        "        return HttpResponse()\n"
        "\n"
        "\n"
        "class ArchiveView(View):\n"
        "    def get(self, request):\n"
        "        return HttpResponse()\n"
        "\n"
        "    def delete(self, request):\n"
        "        return HttpResponse()\n"
        "\n"
        "\n"
        "class PanelView(View):\n"
        "    def patch(self, request):\n"
        "        return HttpResponse()\n"
        "\n"
        "\n"
        "@require_GET\n"
        "def listing(request):\n"
        "    return HttpResponse()\n"
        "\n"
        "\n"
        "class Feed:\n"
        "    def __call__(self, request):\n"
        "        return HttpResponse()\n"
    ),
    "desk/factories.py": (
        "from django.contrib.auth.views import LoginView\n"
        "from django.utils.module_loading import import_string\n"
        "\n"
        "from desk import views\n"
        "from desk.views import ArchiveView\n"
        "\n"
        "\n"
        "def archive_view():\n"
        "    return ArchiveView.as_view(http_method_names=['get', 'head', 'options'])\n"
        "\n"
        "\n"
        "def listing_view():\n"
        "    return views.listing\n"
        "\n"
        "\n"
        "def sign_in_view():\n"
        "    return LoginView.as_view(template_name='desk/login.html')\n"
        "\n"
        "\n"
        "def view_for(kind, flavour='rich'):\n"
        "    return import_string(f'desk.views.{kind}View').as_view()\n"
    ),
}


def test_a_view_a_project_function_returns_answers_that_views_methods_at_the_pattern() -> None:
    found = document(FACTORIES)
    assert {
        str(r["name"]): (
            f"{r['location']['path']}:{r['location']['line']}",
            r["attrs"].get("handler"),
            r["attrs"].get("configDefault"),
        )
        for r in found["resources"]
    } == {
        # `import_string(settings.REPORT_VIEW_CLASS)`, the setting star-imported from base
        "GET /reports/{year}": ("proj/urls.py:19", "ReportView", None),
        "POST /reports/{year}": ("proj/urls.py:19", "ReportView", None),
        # the setting is an environment variable's default: said on the route
        "PUT /ledger/": ("proj/urls.py:20", "LedgerView", "os.environ.LEDGER_VIEW"),
        # `as_view(http_method_names=...)` written in the function: its DELETE is refused
        "GET /archive/": ("proj/urls.py:21", "ArchiveView", None),
        # a function view of the project (`@require_GET`)
        "GET /listing/": ("proj/urls.py:22", "views.listing", None),
        # Django's own `LoginView`
        "GET /sign-in/": ("proj/urls.py:23", "LoginView", None),
        "POST /sign-in/": ("proj/urls.py:23", "LoginView", None),
        "PUT /sign-in/": ("proj/urls.py:23", "LoginView", None),
        # the dotted path built from the call's argument, literal or a setting
        "PATCH /panel/": ("proj/urls.py:24", "PanelView", None),
        "PATCH /panel/default/": ("proj/urls.py:25", "PanelView", None),
        # a callable object of a project class: Django calls it for every method
        "ANY /feed/": ("proj/urls.py:26", "views.Feed", None),
    }
    assert found["findings"] == []


def test_a_view_factory_the_pack_cannot_follow_is_a_finding_at_the_pattern_not_any() -> None:
    """The class named out of sight (an environment variable with no default, a setting the
    settings never set), or a view wrapped by a library call the pack does not run: no route,
    a finding where the pattern is written."""
    files = dict(FACTORIES)
    files["proj/urls.py"] = files["proj/urls.py"].replace(
        "def report_view():\n    view_class = import_string(settings.REPORT_VIEW_CLASS)\n",
        "def report_view():\n"
        "    import os\n"
        "    view_class = import_string(os.environ['REPORT_VIEW'])\n",
    )
    files["proj/urls.py"] = files["proj/urls.py"].replace(
        "settings.LEDGER_VIEW_CLASS", "settings.NOT_SET_ANYWHERE"
    )
    files["desk/factories.py"] = files["desk/factories.py"].replace(
        "    return views.listing\n", "    return cache_page(60)(views.listing)\n"
    )
    names = set(located(files))
    assert not any(n.endswith(("/reports/{year}", "/ledger/", "/listing/")) for n in names)
    assert not any(n.startswith("ANY ") and n != "ANY /feed/" for n in names)
    places = finding_places(files)
    assert sorted(places) == ["UNRESOLVED_ROUTER"]
    assert sorted(places["UNRESOLVED_ROUTER"]) == [
        "proj/urls.py:20",
        "proj/urls.py:21",
        "proj/urls.py:23",
    ]


def test_a_function_that_is_not_a_view_factory_returns_what_the_pack_reads_as_no_view() -> None:
    """A project function returning a URL list or a string is no view: a finding, no route."""
    files = dict(FACTORIES)
    files["desk/factories.py"] = files["desk/factories.py"].replace(
        "    return views.listing\n", "    return 'desk.views.listing'\n"
    )
    assert not any(n.endswith("/listing/") for n in located(files))
    assert "proj/urls.py:22" in finding_places(files)["UNRESOLVED_ROUTER"]


def test_the_pre_filter_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, FACTORIES, monkeypatch)
    assert documents[0] == documents[1]
    assert '"resources": []' not in documents[0]
