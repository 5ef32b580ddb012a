"""pack-http-routes: routes the project MARKS with a decorator of its own and REGISTERS LATER by
collecting the marks (`routes/py_marks.py`, `linker._marked_routes`). Our own fixtures, one per
shape: a factory appending a `namedtuple` record to a list attribute of the function and a
`Blueprint` subclass collecting `dir(self)` in its constructor (`self.route(*rd.args,
**rd.kwargs)(fn)`), its subclasses passing their prefix (or none) to `super().__init__`, two
marks stacked on one method, `defaults=`/`methods=` kept, instances registered in a factory
that also writes the app's config, one instance kept as an object and never registered; a
module-level registry the decorator fills and the base reads over `inspect.getmembers`
(`add_url_rule(rule, view_func=fn, **options)`); a dataclass record assigned to the function
(`fn._page = Page(...)`) read over the class's own `__dict__`, with a name filter; a FastAPI
`APIRouter` subclass doing the same with `add_api_route`; a collector the pack cannot read (a
finding at each marked method, never silence)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, placed, pre_filtered, write_files

MARKS = """\
import collections


Mark = collections.namedtuple("Mark", ["args", "kwargs"])


def route(*args, **kwargs):
    def wrap(fn):
        marks = getattr(fn, "_marks", [])
        marks.append(Mark(args, kwargs))
        setattr(fn, "_marks", marks)
        return fn

    return wrap
"""

BASE = """\
import flask


class SiteModule(flask.Blueprint):
    def __init__(self, name, import_name, url_prefix=None):
        super().__init__(name, import_name, url_prefix=url_prefix)
        for attr in dir(self):
            member = getattr(self, attr)
            for mark in getattr(member, "_marks", []):
                self.route(*mark.args, **mark.kwargs)(member)
"""

PAGES = """\
from .base import SiteModule
from .marks import route


class Shared(SiteModule):
    @route("/health")
    def health(self):
        return "ok"


class Manual(Shared):
    def __init__(self, db):
        super().__init__("manual", __name__, url_prefix="/manual")
        self.db = db

    @route("/", methods=["GET"])
    def index(self):
        return ""

    @route("/section", defaults={"key": "intro"})
    @route("/section/<key>", methods=["GET", "POST"])
    def section(self, key):
        return key

    def plain(self):
        return "no mark: no route"


class Root(Shared):
    def __init__(self, db):
        super().__init__("root", __name__)

    @route("/about")
    def about(self):
        return ""
"""

APP = """\
from flask import Flask

from site_pkg import pages


def create_app():
    app = Flask(__name__)
    db = object()
    kept = pages.Manual(db)
    app.config["MANUAL"] = kept
    app.register_blueprint(pages.Manual(db))
    app.register_blueprint(pages.Root(db))
    return app
"""

ATTRIBUTE_LISTS = {
    "site_pkg/__init__.py": "",
    "site_pkg/marks.py": MARKS,
    "site_pkg/base.py": BASE,
    "site_pkg/pages.py": PAGES,
    "app.py": APP,
}


def test_marks_appended_to_a_list_attribute_are_routes_of_each_registered_instance() -> None:
    assert placed(ATTRIBUTE_LISTS) == {
        "GET /manual/": "site_pkg/pages.py:16 flask",
        "GET /manual/health": "site_pkg/pages.py:6 flask",
        "GET /manual/section": "site_pkg/pages.py:20 flask",
        "GET /manual/section/{key}": "site_pkg/pages.py:21 flask",
        "POST /manual/section/{key}": "site_pkg/pages.py:21 flask",
        "GET /about": "site_pkg/pages.py:33 flask",
        "GET /health": "site_pkg/pages.py:6 flask",
    }
    assert finding_places(ATTRIBUTE_LISTS) == {}


def test_an_inherited_marked_method_names_the_class_that_defines_it() -> None:
    handlers = {
        str(r["name"]): r["attrs"].get("handler") for r in document(ATTRIBUTE_LISTS)["resources"]
    }
    assert handlers["GET /manual/health"] == "Manual(Shared.health)"
    assert handlers["GET /manual/"] == "Manual.index"


REGISTRY_MARKS = """\
ROUTES = {}


def expose(rule, **options):
    def decorate(fn):
        ROUTES.setdefault(fn.__name__, []).append((rule, options))
        return fn

    return decorate
"""

REGISTRY_BASE = """\
import inspect

from flask import Blueprint

from .exposed import ROUTES, expose


class Panel(Blueprint):
    def __init__(self, name, prefix):
        super().__init__(name, __name__, url_prefix=prefix)

    def install(self):
        pass

    def collect(self):
        for name, fn in inspect.getmembers(self, predicate=inspect.ismethod):
            for rule, options in ROUTES.get(fn.__name__, []):
                self.add_url_rule(rule, view_func=fn, **options)


class Reports(Panel):
    def __init__(self):
        super().__init__("reports", "/reports")
        self.collect()

    @expose("/daily", methods=["GET"])
    def daily(self):
        return ""

    @expose("/export", methods=["POST"], endpoint="export_all")
    def export(self):
        return ""
"""

REGISTRY = {
    "panel/__init__.py": "",
    "panel/exposed.py": REGISTRY_MARKS,
    "panel/base.py": REGISTRY_BASE,
    "app.py": "from flask import Flask\n\nfrom panel.base import Reports\n\n"
    "app = Flask(__name__)\napp.register_blueprint(Reports())\n",
}


def test_a_module_registry_filled_by_the_decorator_and_read_over_getmembers() -> None:
    assert placed(REGISTRY) == {
        "GET /reports/daily": "panel/base.py:26 flask",
        "POST /reports/export": "panel/base.py:30 flask",
    }


DATACLASS_MARKS = """\
from dataclasses import dataclass


@dataclass
class Page:
    rule: str
    methods: list


def page(rule, methods=None):
    def mark(fn):
        fn._page = Page(rule=rule, methods=methods)
        return fn

    return mark
"""

DATACLASS_BASE = """\
from flask import Blueprint

from .marking import page


class Section(Blueprint):
    def register_pages(self):
        for name, member in vars(type(self)).items():
            if not name.startswith("page_"):
                continue
            found = getattr(member, "_page", None)
            if found is None:
                continue
            self.add_url_rule(found.rule, view_func=getattr(self, name), methods=found.methods)


class Docs(Section):
    def __init__(self):
        super().__init__("docs", __name__, url_prefix="/docs")
        self.register_pages()

    @page("/start")
    def page_start(self):
        return ""

    @page("/upload", methods=["PUT"])
    def page_upload(self):
        return ""

    @page("/hidden")
    def draft(self):
        return "its name is left out by the filter"
"""

OWN_CLASS_DICT = {
    "docs/__init__.py": "",
    "docs/marking.py": DATACLASS_MARKS,
    "docs/base.py": DATACLASS_BASE,
    "app.py": "from flask import Flask\n\nfrom docs.base import Docs\n\n"
    "app = Flask(__name__)\napp.register_blueprint(Docs())\n",
}


def test_a_record_assigned_to_the_function_read_over_the_class_dict_with_a_name_filter() -> None:
    assert placed(OWN_CLASS_DICT) == {
        "GET /docs/start": "docs/base.py:22 flask",
        "PUT /docs/upload": "docs/base.py:26 flask",
    }


FASTAPI_ROUTERS = {
    "svc/__init__.py": "",
    "svc/marks.py": """\
def endpoint(path, methods=None):
    def wrap(fn):
        fn.__dict__.setdefault("_endpoints", [])
        fn._endpoints.append({"path": path, "methods": methods})
        return fn

    return wrap
""",
    "svc/routers.py": """\
from fastapi import APIRouter

from .marks import endpoint


class Resource(APIRouter):
    def __init__(self, prefix):
        super().__init__(prefix=prefix)
        for name in dir(self):
            fn = getattr(self, name)
            for spec in getattr(fn, "_endpoints", ()):
                self.add_api_route(spec["path"], fn, methods=spec["methods"])


class Items(Resource):
    def __init__(self, store):
        super().__init__("/items")
        self.store = store

    @endpoint("/")
    def listing(self):
        return []

    @endpoint("/{item_id}", methods=["DELETE"])
    def remove(self, item_id: int):
        return None
""",
    "main.py": """\
from fastapi import FastAPI

from svc.routers import Items

app = FastAPI()
app.include_router(Items(store=None))
""",
}


def test_an_api_router_subclass_collecting_its_marks() -> None:
    assert placed(FASTAPI_ROUTERS) == {
        "GET /items/": "svc/routers.py:20 fastapi",
        "DELETE /items/{item_id}": "svc/routers.py:24 fastapi",
    }


UNREAD_COLLECTOR = {
    **ATTRIBUTE_LISTS,
    "site_pkg/base.py": """\
import flask


class SiteModule(flask.Blueprint):
    def __init__(self, name, import_name, url_prefix=None):
        super().__init__(name, import_name, url_prefix=url_prefix)
        for attr in dir(self):
            member = getattr(self, attr)
            for mark in getattr(member, "_marks", []):
                self.add_url_rule(self.rewrite(mark), view_func=member)

    def rewrite(self, mark):
        return mark.args[0]
""",
}


def test_a_collector_not_read_is_a_finding_at_each_marked_method() -> None:
    assert placed(UNREAD_COLLECTOR) == {}
    marked = {f"site_pkg/pages.py:{line}" for line in (6, 16, 20, 21, 33)}
    assert set(finding_places(UNREAD_COLLECTOR)["UNRESOLVED_ROUTE"]) == marked


UNSEEN_INSTANCES = {
    **ATTRIBUTE_LISTS,
    "app.py": """\
from flask import Flask

from site_pkg import pages

app = Flask(__name__)
for module in pages.__dict__.values():
    app.register_blueprint(module(None))
""",
}


def test_a_collector_no_registered_instance_runs_is_a_finding_at_its_registration() -> None:
    assert placed(UNSEEN_INSTANCES) == {}
    assert "site_pkg/base.py:10" in finding_places(UNSEEN_INSTANCES)["UNRESOLVED_ROUTE"]


UNREAD_FASTAPI_COLLECTOR = {
    **FASTAPI_ROUTERS,
    "svc/routers.py": FASTAPI_ROUTERS["svc/routers.py"].replace(
        'self.add_api_route(spec["path"], fn', "self.add_api_route(self.full(spec), fn"
    ),
}


def test_an_api_router_subclass_whose_collector_is_not_read_is_a_finding_at_each_mark() -> None:
    assert "self.full(spec)" in UNREAD_FASTAPI_COLLECTOR["svc/routers.py"]
    assert placed(UNREAD_FASTAPI_COLLECTOR) == {}
    marked = ["svc/routers.py:20", "svc/routers.py:24"]
    assert sorted(finding_places(UNREAD_FASTAPI_COLLECTOR)["UNRESOLVED_ROUTE"]) == marked


@pytest.mark.parametrize(
    "files",
    [
        ATTRIBUTE_LISTS,
        REGISTRY,
        OWN_CLASS_DICT,
        FASTAPI_ROUTERS,
        UNREAD_COLLECTOR,
        UNSEEN_INSTANCES,
        UNREAD_FASTAPI_COLLECTOR,
    ],
)
def test_the_prefilter_changes_nothing_on_marked_routes(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, files)
    found, _, _ = pre_filtered(tmp_path, monkeypatch)
    assert found["resources"] or found["findings"]
