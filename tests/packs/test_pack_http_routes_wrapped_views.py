"""pack-http-routes on Flask class views handed to the project's own registration wrapper (blind
round 17: a `MethodView` given to a helper that loops over rules and calls `add_url_rule` with
the view it was given was listed as GET alone, its `post`/`delete` lost, with no finding). A view
function Flask makes of a class (`X.as_view(name)`) serves the class's methods however it reaches
`add_url_rule`: a parameter passed by position or name or in `**kwargs`, a loop's item, a module
name, through two wrappers; `methods = [...]` on the class (a plain `View`, or overriding a
`MethodView`'s own) says them too, and `methods=` passed on in a wrapper's `**kwargs` wins. What
cannot be read (a library's view class, a `methods` or `**options` out of sight) is a finding at
the call, never a GET. Each fixture is code written for this file, never a repository's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, placed, pre_filtered, write_files

_VIEWS = (
    "from flask.views import MethodView, View\n"
    "from flask_login import login_required\n"
    "\n"
    "def staff_only(view):\n"
    "    return login_required(view)\n"
    "\n"
    "class Freeze(MethodView):\n"
    "    decorators = [staff_only, login_required]\n"
    "\n"
    "    def post(self, thread_id):\n"
    "        return 'frozen'\n"
    "\n"
    "    def delete(self, thread_id):\n"
    "        return 'thawed'\n"
    "\n"
    "class Digest(View):\n"
    "    methods = ('GET', 'POST')\n"
    "\n"
    "    def dispatch_request(self):\n"
    "        return 'digest'\n"
    "\n"
    "class Tally(MethodView):\n"
    "    methods = ['PUT']  # its own list: `get` below is not served\n"
    "\n"
    "    def put(self):\n"
    "        return 'tally'\n"
    "\n"
    "    def get(self):\n"
    "        return 'never routed'\n"
    "\n"
    "class Recount(Tally):\n"
    "    def patch(self):\n"
    "        return 'recount'\n"
    "\n"
    "class Reaudit(Recount):\n"
    "    pass\n"
    "\n"
    "class Archive(Freeze):\n"
    "    def put(self, thread_id):\n"
    "        return 'archived'\n"
)

_APP = (
    "from flask import Flask\n"
    "from board.routes import threads\n"
    "\n"
    "def build():\n"
    "    app = Flask(__name__)\n"
    "    app.register_blueprint(threads, url_prefix='/threads')\n"
    "    return app\n"
)


def _board(wiring: str, routes: str) -> dict[str, str]:
    """A board app: the views above, a wrapper module `board/wiring.py`, and `routes` (after
    a fixed head of four lines) registering on the blueprint `threads`."""
    head = (
        "from flask import Blueprint\n"
        "from board import wiring\n"
        "from board.views import Archive, Digest, Freeze, Reaudit, Recount, Tally\n"
        "threads = Blueprint('threads', __name__)\n"
    )
    return {
        "board/__init__.py": "",
        "board/views.py": _VIEWS,
        "board/wiring.py": wiring,
        "board/routes.py": head + routes,
        "board/app.py": _APP,
    }


def _auth(files: dict[str, str]) -> dict[str, str]:
    """Route name -> its `auth` signal."""
    return {
        str(s["resource"]).removeprefix("route:"): str(s["value"])
        for s in document(files)["signals"]
        if s["signal"] == "auth"
    }


_FREEZE = {"POST", "DELETE"}

# (wrapper module, registration lines after the head, rules each registration serves)
_WRAPPED = {
    "keywords-and-a-loop": (
        "def attach(target, rules, view_func, **options):\n"
        "    for rule in rules:\n"
        "        target.add_url_rule(rule, view_func=view_func, **options)\n",
        "wiring.attach(threads, rules=['/<int:thread_id>/freeze', '/t/<int:thread_id>/freeze'],\n"
        "              view_func=Freeze.as_view('freeze'))\n",
        ["/threads/{thread_id}/freeze", "/threads/t/{thread_id}/freeze"],
    ),
    "positional-without-a-loop": (
        "def attach(target, rule, handler):\n    target.add_url_rule(rule, None, handler)\n",
        "wiring.attach(threads, '/<int:thread_id>/freeze', Freeze.as_view('freeze'))\n",
        ["/threads/{thread_id}/freeze"],
    ),
    "in-the-wrappers-kwargs": (
        "def attach(target, rule, **options):\n    target.add_url_rule(rule, **options)\n",
        "wiring.attach(threads, '/<int:thread_id>/freeze', view_func=Freeze.as_view('freeze'))\n",
        ["/threads/{thread_id}/freeze"],
    ),
    "a-module-name": (
        "def attach(target, rules, view):\n"
        "    for rule in rules:\n"
        "        target.add_url_rule(rule, view_func=view)\n",
        "freeze_view = Freeze.as_view('freeze')\n"
        "wiring.attach(threads, ('/<int:thread_id>/freeze',), freeze_view)\n",
        ["/threads/{thread_id}/freeze"],
    ),
    "two-wrappers-the-outer-looping": (
        "def _one(target, rule, view):\n"
        "    target.add_url_rule(rule, view_func=view)\n"
        "\n"
        "def attach(target, rules, view):\n"
        "    for rule in rules:\n"
        "        _one(target, rule, view)\n",
        "wiring.attach(threads, ['/<int:thread_id>/freeze', '/f/<int:thread_id>'],\n"
        "              view=Freeze.as_view('freeze'))\n",
        ["/threads/{thread_id}/freeze", "/threads/f/{thread_id}"],
    ),
    "two-wrappers-the-inner-looping": (
        "def _each(target, rules, view_func):\n"
        "    for rule in rules:\n"
        "        target.add_url_rule(rule, view_func=view_func)\n"
        "\n"
        "def attach(target, rules, view_func):\n"
        "    _each(target, rules=rules, view_func=view_func)\n",
        "wiring.attach(threads, ['/<int:thread_id>/freeze'], Freeze.as_view('freeze'))\n",
        ["/threads/{thread_id}/freeze"],
    ),
}


@pytest.mark.parametrize("variant", sorted(_WRAPPED))
def test_a_class_view_given_to_a_wrapper_serves_its_methods_at_the_call(variant: str) -> None:
    wiring, routes, rules = _WRAPPED[variant]
    files = _board(wiring, routes)
    call_line = 5 if "freeze_view" not in routes else 6
    expected = {
        f"{m} {rule}": f"board/routes.py:{call_line} flask" for rule in rules for m in _FREEZE
    }
    assert placed(files) == expected
    assert set(_auth(files).values()) == {"required"}  # the class's `decorators`
    assert not finding_places(files)


def test_the_view_class_methods_list_is_what_flask_serves_directly_or_wrapped() -> None:
    """`methods` on the class: a plain `View`'s list; a `MethodView`'s own list over its verb
    functions; a subclass without one serves the lists its bases have and every verb function
    it has, its base's `get` included (`MethodView.__init_subclass__`), two levels down too."""
    wiring = "def attach(target, rule, view):\n    target.add_url_rule(rule, view_func=view)\n"
    routes = (
        "threads.add_url_rule('/digest', view_func=Digest.as_view('digest'))\n"
        "wiring.attach(threads, '/d', Digest.as_view('d'))\n"
        "threads.add_url_rule('/tally', view_func=Tally.as_view('tally'))\n"
        "wiring.attach(threads, '/recount', Recount.as_view('recount'))\n"
        "wiring.attach(threads, '/reaudit', Reaudit.as_view('reaudit'))\n"
        "wiring.attach(threads, '/archive', Archive.as_view('archive'))\n"
    )
    assert sorted(placed(_board(wiring, routes))) == [
        "DELETE /threads/archive",
        "GET /threads/d",
        "GET /threads/digest",
        "GET /threads/reaudit",
        "GET /threads/recount",
        "PATCH /threads/reaudit",
        "PATCH /threads/recount",
        "POST /threads/archive",
        "POST /threads/d",
        "POST /threads/digest",
        "PUT /threads/archive",
        "PUT /threads/reaudit",
        "PUT /threads/recount",
        "PUT /threads/tally",
    ]


def test_methods_passed_on_in_a_wrappers_kwargs_win_over_the_views() -> None:
    """`methods=` given to the wrapper and passed on in its `**kwargs` (one or two wrappers
    deep, or spread from a module's literal dict); a call that passes none: the view's own."""
    wiring = (
        "def attach(target, rule, view, **options):\n"
        "    target.add_url_rule(rule, view_func=view, **options)\n"
        "\n"
        "def outer(target, rule, view, **more):\n"
        "    attach(target, rule, view, **more)\n"
    )
    routes = (
        "READ_ONLY = {'methods': ['GET']}\n"
        "wiring.attach(threads, '/a', Freeze.as_view('a'), methods=['PATCH'])\n"
        "wiring.outer(threads, '/b', Digest.as_view('b'), methods=('DELETE',))\n"
        "wiring.outer(threads, '/c', Freeze.as_view('c'))\n"
        "wiring.attach(threads, '/d', Digest.as_view('d'), **READ_ONLY)\n"
    )
    assert placed(_board(wiring, routes)) == {
        "PATCH /threads/a": "board/routes.py:6 flask",
        "DELETE /threads/b": "board/routes.py:7 flask",
        "POST /threads/c": "board/routes.py:8 flask",
        "DELETE /threads/c": "board/routes.py:8 flask",
        "GET /threads/d": "board/routes.py:9 flask",
    }


def test_methods_that_cannot_be_read_are_a_finding_at_the_call_never_a_get() -> None:
    """A library's view class (its methods are its own), a class `methods` out of sight, and
    `**options` out of sight carrying `methods` into a wrapper: each a finding at the call
    (and where the wrapper registers), no route."""
    wiring = (
        "def attach(target, rule, view, **options):\n"
        "    target.add_url_rule(rule, view_func=view, **options)\n"
    )
    routes = (
        "from gqlkit.flask import QueryView\n"
        "from board.settings import VERBS, EXTRA\n"
        "from flask.views import View\n"
        "class Odd(View):\n"
        "    methods = VERBS\n"
        "threads.add_url_rule('/gql', view_func=QueryView.as_view('gql'))\n"
        "wiring.attach(threads, '/gql2', QueryView.as_view('gql2'))\n"
        "wiring.attach(threads, '/odd', Odd.as_view('odd'))\n"
        "wiring.attach(threads, '/extra', Freeze.as_view('extra'), **EXTRA)\n"
    )
    files = _board(wiring, routes)
    assert placed(files) == {}
    assert sorted(set(finding_places(files)["UNRESOLVED_ROUTE"])) == [
        "board/routes.py:10",
        "board/routes.py:11",
        "board/routes.py:12",
        "board/routes.py:13",
        "board/wiring.py:2",
    ]
    details = [str(f["detail"]) for f in document(files)["findings"]]
    assert any("`QueryView`, a view class of `gqlkit.flask`" in d for d in details)


def test_a_function_view_given_to_the_wrapper_stays_get() -> None:
    wiring = "def attach(target, rule, view):\n    target.add_url_rule(rule, view_func=view)\n"
    routes = "def board_index():\n    return 'index'\nwiring.attach(threads, '/', board_index)\n"
    assert placed(_board(wiring, routes)) == {"GET /threads/": "board/routes.py:7 flask"}


def test_the_prefilter_reads_the_wrapped_class_views_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wiring, routes, rules = _WRAPPED["two-wrappers-the-outer-looping"]
    write_files(tmp_path, _board(wiring, routes))
    filtered, _, _ = pre_filtered(tmp_path, monkeypatch)
    names = {str(r["name"]) for r in filtered["resources"]}
    assert names == {f"{m} {rule}" for rule in rules for m in _FREEZE}


def test_a_restful_resource_given_as_a_view_to_the_wrapper_serves_its_methods() -> None:
    """flask-restful's `Resource` is a `MethodView`: `Res.as_view(...)` handed to the wrapper
    serves its verb methods, guarded by its `method_decorators`; `add_resource` serves the
    class's `methods` list where it has one, as the view function it makes carries it."""
    files = {
        "ledger/api.py": (
            "from flask import Flask\n"
            "from flask_restful import Api, Resource\n"
            "from flask_login import login_required\n"
            "\n"
            "def mount(target, rule, view):\n"
            "    target.add_url_rule(rule, view_func=view)\n"
            "\n"
            "class Entry(Resource):\n"
            "    method_decorators = [login_required]\n"
            "\n"
            "    def get(self, entry_id): ...\n"
            "\n"
            "    def patch(self, entry_id): ...\n"
            "\n"
            "class Sealed(Resource):\n"
            "    methods = ['GET']\n"
            "\n"
            "    def get(self): ...\n"
            "\n"
            "    def delete(self): ...\n"
            "\n"
            "site = Flask(__name__)\n"
            "mount(site, '/entries/<int:entry_id>', Entry.as_view('entry'))\n"
            "Api(site, prefix='/v1').add_resource(Sealed, '/sealed')\n"
        ),
    }
    assert placed(files) == {
        "GET /entries/{entry_id}": "ledger/api.py:23 flask",
        "PATCH /entries/{entry_id}": "ledger/api.py:23 flask",
        "GET /v1/sealed": "ledger/api.py:24 flask",
    }
    assert _auth(files)["PATCH /entries/{entry_id}"] == "required"


@pytest.mark.parametrize(
    "routes",
    [
        "for rule, view in [('/f', Freeze.as_view('f')), ('/g', Digest.as_view('g'))]:\n"
        "    threads.add_url_rule(rule, view_func=view)\n",
        "wiring.attach(threads, [('/f', Freeze.as_view('f')), ('/g', Digest.as_view('g'))])\n",
        "TABLE = (('/f', Freeze.as_view('f')), ('/g', Digest.as_view('g')))\n"
        "wiring.attach(threads, TABLE)\n",
    ],
    ids=["a-module-loop", "a-table-passed", "a-module-table-passed"],
)
def test_class_views_in_a_table_of_rules_serve_their_methods(routes: str) -> None:
    wiring = (
        "def attach(target, table):\n"
        "    for rule, view in table:\n"
        "        target.add_url_rule(rule, view_func=view)\n"
    )
    assert sorted(placed(_board(wiring, routes))) == [
        "DELETE /threads/f",
        "GET /threads/g",
        "POST /threads/f",
        "POST /threads/g",
    ]
