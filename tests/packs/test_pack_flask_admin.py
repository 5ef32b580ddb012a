"""Flask-Admin's views (`routes/flask_admin.py`, linked by `linker._flask_admin`): the project's
own `@expose` methods of each view an `Admin` adds are routes at the view's url; the routes the
library's own view classes generate (a `ModelView`'s CRUD pages, the default index) are an
`UNRESOLVED_ROUTE` naming Flask-Admin and the view where it is added. The fixture
(`tests/fixtures/repos/flask-admin-views`) is written for this file: aliased `Admin` and
`expose`, an admin made in one module and used in another, a project base class whose exposed
methods every subclass serves, a method re-defined without `expose`, relative, absolute and
default urls and endpoints, `ModelView` endpoints from an aliased model and from a loop."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import (
    document,
    finding_places,
    fixture_files,
    names,
    placed,
    scanned_both_ways,
)

FILES = fixture_files("flask-admin-views")


def test_the_exposed_methods_of_each_added_view_are_routes_at_its_url() -> None:
    """Each view's url as Flask-Admin computes it: its `url` (absolute, or under the admin's),
    else `<admin url>/<endpoint>` (the class name lower-cased, a ModelView's model's); every
    exposed method along its bases, not one re-defined without `expose`."""
    assert placed(FILES) == {
        "GET /health": "shop/app.py:16 flask",
        # the index view the project gives, under the admin's url
        "GET /backstage/": "shop/panels/guarded.py:21 flask",
        "GET /backstage/stats/": "shop/panels/guarded.py:25 flask",
        # an explicit endpoint; `ping` inherited, `legacy` re-defined without `expose`
        "GET /backstage/ledger.books/": "shop/panels/ledger.py:10 flask",
        "POST /backstage/ledger.books/": "shop/panels/ledger.py:10 flask",
        "GET /backstage/ledger.books/ping": "shop/panels/guarded.py:11 flask",
        # a relative url is under the admin's
        "GET /backstage/reports/entries": "shop/panels/ledger.py:19 flask",
        "GET /backstage/reports/ping": "shop/panels/guarded.py:11 flask",
        "GET /backstage/reports/legacy": "shop/panels/guarded.py:15 flask",
        "DELETE /backstage/reports/legacy": "shop/panels/guarded.py:15 flask",
        # an absolute url (through `add_views` and a module's class)
        "GET /abs/tools/": "shop/panels/ledger.py:10 flask",
        "POST /abs/tools/": "shop/panels/ledger.py:10 flask",
        "GET /abs/tools/ping": "shop/panels/guarded.py:11 flask",
        # a ModelView: its model's name (imported under an alias), or its endpoint
        "POST /backstage/invoice/{number}/void": "shop/panels/ledger.py:29 flask",
        "POST /backstage/parcels/{number}/void": "shop/panels/ledger.py:29 flask",
        # the admin made in another module under an alias, its url given; the class's name
        "GET /ops/audittrail/entries": "shop/panels/ledger.py:19 flask",
        "GET /ops/audittrail/ping": "shop/panels/guarded.py:11 flask",
        "GET /ops/audittrail/legacy": "shop/panels/guarded.py:15 flask",
        "DELETE /ops/audittrail/legacy": "shop/panels/guarded.py:15 flask",
        # added in a file whose only word of it is the add call (the admin imported)
        "GET /ops/late/": "shop/panels/ledger.py:10 flask",
        "POST /ops/late/": "shop/panels/ledger.py:10 flask",
        "GET /ops/late/ping": "shop/panels/guarded.py:11 flask",
    }


def test_the_routes_the_library_generates_are_named_at_the_view_that_adds_them() -> None:
    """Never silent: each ModelView added (its CRUD routes) and an admin's default index view
    are an `UNRESOLVED_ROUTE` naming Flask-Admin and the view, where it is added; an exposed
    url computed out of sight, and a ModelView whose model (its endpoint) is a loop's variable,
    at the `expose`. The project's own `Admin` class (no Flask-Admin) is nothing."""
    assert sorted(finding_places(FILES)["UNRESOLVED_ROUTE"]) == [
        "shop/app.py:24",
        "shop/app.py:25",
        "shop/app.py:27",
        "shop/extensions.py:4",
        "shop/panels/ledger.py:23",
        "shop/panels/ledger.py:35",
    ]
    details = {
        f"{p['path']}:{p['line']}": str(f["detail"])
        for f in document(FILES)["findings"]
        for p in f["locations"]
    }
    assert "`ledger.InvoiceDesk`" in details["shop/app.py:24"]
    assert "flask_admin.contrib.sqla.ModelView" in details["shop/app.py:24"]
    assert details["shop/extensions.py:4"].startswith("Flask-Admin is configured here")
    assert "AdminIndexView" in details["shop/extensions.py:4"]
    assert "shop/own_admin.py" not in " ".join(details)


def test_an_index_view_given_without_a_url_is_at_slash_admin_whatever_the_admin_s_url() -> None:
    """`Admin(url='/x', index_view=Home())`: the views are under `/x`, the index view at its
    own default url, `/admin` (`AdminIndexView(url=None)`); `Admin(app)` alone: `/admin`."""
    files = {
        "hub.py": (
            "import flask_admin as fa\n"
            "from flask import Flask\n"
            "from guard_kit import GuardMixin\n"
            "\n"
            "class Home(fa.AdminIndexView):\n"
            "    @fa.expose('/')\n"
            "    def index(self): ...\n"
            "\n"
            "class Tool(GuardMixin, fa.BaseView):  # another package's mixin: no finding\n"
            "    @fa.expose('/run', methods=('POST',))\n"
            "    def run(self): ...\n"
            "\n"
            "hub = Flask(__name__)\n"
            "panel = fa.Admin(hub, url='/x', index_view=Home())\n"
            "panel.add_view(Tool())\n"
            "plain = fa.Admin(hub, endpoint='plain')\n"
            "plain.add_view(Tool(endpoint='t2'))\n"
        )
    }
    assert names(files) == {"GET /admin/", "POST /x/tool/run", "POST /admin/t2/run"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["hub.py:16"]  # `plain`'s own index


def test_flask_admin_views_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-filter identity over the fixture: a pre-filtered scan equals parsing every file
    (`shop/late.py` spells no framework's word but the add call: `AdminSite.seeds`)."""
    documents, _ = scanned_both_ways(tmp_path, FILES, monkeypatch)
    assert documents[0] == documents[1]
    assert "GET /ops/audittrail/ping" in documents[0]
