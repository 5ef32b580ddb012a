"""pack-http-routes on a Django view imported from a package whose `__init__.py` re-exports it
from a submodule of the same name (`views/__init__.py`: `from .inbox import inbox`): Python
gives the package's binding, the function, never the submodule (which had made the route an
UNRESOLVED_ROUTER "names a module with no urlpatterns"). A name the package does not bind is
still its submodule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import finding_places, names, scanned_both_ways

SHADOWED = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'helpdesk.prefs')\n",
    "helpdesk/__init__.py": "",
    "helpdesk/prefs.py": "ROOT_URLCONF = 'helpdesk.paths'\n",
    "helpdesk/screens/__init__.py": (
        "from .inbox import InboxScreen, inbox\nfrom .archive import archived as old_items\n"
    ),
    "helpdesk/screens/inbox.py": (
        "from django.views import View\n"
        "\n"
        "\n"
        "def inbox(request, box_id): ...\n"
        "\n"
        "\n"
        "class InboxScreen(View):\n"
        "    def get(self, request): ...\n"
    ),
    "helpdesk/screens/archive.py": "def archived(request): ...\n",
    "helpdesk/screens/extra.py": (
        "from django.urls import path\n"
        "\n"
        "from .archive import archived\n"
        "\n"
        "urlpatterns = [path('extra/', archived)]\n"
    ),
    "helpdesk/paths.py": (
        "from django.urls import include, path\n"
        "\n"
        "from helpdesk import screens as sc\n"
        "from helpdesk.screens import extra, inbox\n"
        "\n"
        "urlpatterns = [\n"
        "    path('box/<int:box_id>/', inbox),\n"
        "    path('boxes/', sc.InboxScreen.as_view()),\n"
        "    path('old/', sc.old_items),\n"
        "    path('more/', include(extra)),\n"
        "]\n"
    ),
}


def test_a_name_the_package_re_exports_is_its_binding_not_the_submodule() -> None:
    assert names(SHADOWED) == {
        "ANY /box/{box_id}/",
        "GET /boxes/",
        "ANY /old/",
        "ANY /more/extra/",
    }
    assert "UNRESOLVED_ROUTER" not in finding_places(SHADOWED)


def test_the_shadowed_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, SHADOWED, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
