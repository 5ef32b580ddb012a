"""pack-http-routes' cold cost (issue 34: a cold scan ≤ 0.25 × `ast.parse` of every file):
what the pre-filter and the linker leave unparsed, each case held to the document of parsing
every file (`scanned_both_ways`), so a selection that drops a file that matters fails here.

- front-end scripts of a Python app: a member call `x.get(...)` registers a route only on a
  router some file made from a framework's package; where no file imports one they are `GATED`
  (`seeds._admits_script`) and not parsed; a route on a parameter named as an app
  (`module.exports = (app) => app.get(...)`) needs no import and is a `SEED`;
- a view that calls a class (`form = SignupForm(request.POST)`) makes the linker look for a
  router class only where some parsed file spells a framework's router base
  (`seeds.ROUTER_BASE_WORDS`); else its forms and models stay unparsed;
- an anonymous function's own name is empty: the callers the linker looks for are found by the
  names it is bound to, never by the empty word every file holds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from routes_harness import scanned_both_ways, write_files

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import nextjs, seeds
from packs.routes.js_facts import _COMPUTED_CALL, route_shaped_calls
from packs.scan import Admission

FLASK_WITH_FRONT_END = {
    "app.py": (
        "from flask import Flask\n\napp = Flask(__name__)\n\n\n"
        "@app.get('/items')\ndef items():\n    return []\n"
    ),
    "static/js/api.js": (
        "export function load(render) {\n"
        "  $.get('/api/items', render);\n"
        "  return client.post(`/api/items/${render.id}`, { expression: 1 });\n}\n"
    ),
    "static/js/shell.jsx": (
        "import { BrowserRouter as Router } from 'react-router-dom';\n"
        "export const Shell = () => <Router>{store.use(plugins)}</Router>;\n"
    ),
    "static/js/lists.ts": "const seen = new Map();\nexport const lookup = (k) => seen.get(k);\n",
}


def _scan(
    root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, object], int, int]:
    """The filtered document, asserted equal to the parse-all one; files parsed by each."""
    documents, (every, filtered) = scanned_both_ways(root, files, monkeypatch)
    assert documents[0] == documents[1]
    return json.loads(documents[1]), every, filtered


def _routes(document: dict[str, object]) -> set[str]:
    resources = document["resources"]
    assert isinstance(resources, list)
    return {r["name"] for r in resources}


def test_front_end_scripts_of_a_python_app_are_not_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document, every, filtered = _scan(tmp_path, FLASK_WITH_FRONT_END, monkeypatch)
    assert _routes(document) == {"GET /items"}
    assert (every, filtered) == (4, 1)


def test_scripts_routing_on_a_router_made_elsewhere_are_parsed_where_a_framework_is_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **FLASK_WITH_FRONT_END,
        "server/base.js": "const express = require('express');\nexports.router = express.Router();\n",
        "server/api.js": (
            "const items = require('./base').router;\n"
            "items.get('/items', (req, res) => res.json([]));\nmodule.exports = items;\n"
        ),
        "server/main.js": (
            "const express = require('express');\nconst app = express();\n"
            "app.use('/api', require('./api'));\n"
        ),
    }
    document, every, filtered = _scan(tmp_path, files, monkeypatch)
    assert {"GET /items", "GET /api/items"} <= _routes(document)
    assert (every, filtered) == (7, 7)  # a framework in use: every `GATED` script is read


def test_a_route_on_a_parameter_named_as_an_app_needs_no_framework_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "plugins/ping.js": (
            "module.exports = async function (fastify) {\n"
            "  fastify.get('/ping', async () => 'pong');\n};\n"
        ),
        "hooks/audit.js": "module.exports = (app) => {\n  app.post('/audit', record);\n};\n",
        "web/menu.js": "export const open = (menu) => menu.get('items');\n",
    }
    document, every, filtered = _scan(tmp_path, files, monkeypatch)
    assert {"GET /ping", "POST /audit"} <= _routes(document)
    assert (every, filtered) == (3, 3)  # the plugins are `SEED`s: the gated script is read too


@pytest.mark.parametrize(
    ("source", "verdict"),
    [
        (b"const express = require('express');\n", Admission.SEED),
        (b'import Router from "@koa/router";\n', Admission.SEED),
        (b"import { Controller } from '@nestjs/common';\n", Admission.SEED),
        (b"const feathers = require('@feathersjs/express');\n", Admission.SEED),
        (b"module.exports = (router) => router.get('/x', h);\n", Admission.SEED),
        (b"module.exports = (server) => server ?. route ({ path: '/x' });\n", Admission.SEED),
        (b"module.exports = (app) => app[verb]('/x', h);\n", Admission.SEED),
        (b"this.app.get('/x', h);\n", Admission.GATED),  # a member, not a parameter
        (b"app.use(router);\n", Admission.GATED),  # what it mounts is a seed itself, or nothing
        (b"instance.delete();\n", Admission.GATED),  # no argument: no route's path
        (b"import { Router } from 'react-router';\n", Admission.GATED),
        (b"api.get('/users').then(show);\n", Admission.GATED),
        (b"const expression = 1;\n", Admission.GATED),  # a framework's word, `express`
        (b"const total = 1;\n", Admission.NO),
    ],
)
def test_what_makes_a_script_a_seed_or_gated(source: bytes, verdict: Admission) -> None:
    assert seeds.admits("web/a.js", source) is verdict


DJANGO_VIEW_CALLING_A_FORM = {
    "settings.py": "ROOT_URLCONF = 'site_urls'\n",
    "site_urls.py": (
        "from django.urls import path\n\nfrom shop import views\n\n"
        "urlpatterns = [path('signup/', views.signup)]\n"
    ),
    "shop/__init__.py": "",
    "shop/views.py": (
        "from shop.forms import SignupForm\n\n\ndef signup(request):\n"
        "    form = SignupForm(request.POST)\n    return form.render()\n"
    ),
    "shop/forms.py": "from shop.base import FormBase\n\n\nclass SignupForm(FormBase):\n    pass\n",
    "shop/base.py": "class FormBase:\n    def render(self):\n        return ''\n",
}


def test_a_view_calling_a_class_parses_no_form_where_no_router_base_is_spelt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document, every, filtered = _scan(tmp_path, DJANGO_VIEW_CALLING_A_FORM, monkeypatch)
    assert _routes(document) == {"ANY /signup/"}
    assert (every, filtered) == (6, 3)  # settings, the URLconf and the view


def test_a_router_class_two_classes_from_its_framework_base_is_still_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **DJANGO_VIEW_CALLING_A_FORM,
        "api_base.py": "import flask\n\n\nclass ApiBase(flask.Blueprint):\n    pass\n",
        "versioned.py": (
            "from api_base import ApiBase\n\n\nclass VersionedBlueprint(ApiBase):\n    pass\n"
        ),
        "app.py": (
            "from flask import Flask\n\nfrom versioned import VersionedBlueprint\n\n"
            "app = Flask(__name__)\n"
            "api = VersionedBlueprint('api', __name__, url_prefix='/v1')\n\n\n"
            "@api.route('/items')\ndef items():\n    return []\n\n\napp.register_blueprint(api)\n"
        ),
    }
    document, every, filtered = _scan(tmp_path, files, monkeypatch)
    assert {"ANY /signup/", "GET /v1/items"} <= _routes(document)
    assert filtered < every


ANONYMOUS_FUNCTION = {
    "server.js": (
        "const express = require('express');\nconst app = express();\nrequire('./routes')(app);\n"
    ),
    "routes.js": "module.exports = function (app) {\n  app.get('/a', (req, res) => res.end());\n};\n",
    "ready.js": (
        "var whenLoaded = function whenLoaded(win, fn) {\n"
        "  var doc = win.document;\n"
        '  var on = doc.addEventListener ? "addEventListener" : "attachEvent";\n'
        '  var prefix = doc.addEventListener ? "" : "on";\n'
        '  doc[on](prefix + "DOMContentLoaded", fn, false);\n'
        '  return win[on](prefix + "load", fn, false);\n};\n'
        "whenLoaded(window, function () { return 1; });\n"
    ),
    "util.js": "exports.add = (a, b) => a + b;\n",
    "helpers.py": "def add(a, b):\n    return a + b\n",
}


def test_an_anonymous_function_s_callers_are_sought_by_its_names_not_the_empty_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document, every, filtered = _scan(tmp_path, ANONYMOUS_FUNCTION, monkeypatch)
    assert _routes(document) == {"GET /a"}
    assert (every, filtered) == (5, 3)


FLASK_HELPER_AND_A_CHECK = {
    "app.py": (
        "from flask import Blueprint, Flask, request\n\nfrom helpers import add_routes\n"
        "from shop.checks import validate\n\napp = Flask(__name__)\n"
        "pages = Blueprint('pages', __name__)\nadd_routes(pages)\n"
        "app.register_blueprint(pages, url_prefix='/pages')\n\n\n"
        "def signup():\n    validate(request.form)\n    return ''\n"
    ),
    "helpers.py": (
        "def add_routes(router):\n"
        "    router.add_url_rule('/signup', 'signup', view_func=lambda: '')\n"
    ),
    "shop/__init__.py": "",
    "shop/checks.py": "from shop.rules import RULES\n\n\ndef validate(data):\n    return RULES(data)\n",
    "shop/rules.py": "def RULES(data):\n    return bool(data)\n",
}


def test_the_calls_of_a_route_helper_are_sought_among_calls_spelling_its_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`add_routes(pages)` is found by its name; `validate(request.form)` spells none of
    `add_routes`'s, so the module it is imported from is not parsed to see what it is."""
    document, every, filtered = _scan(tmp_path, FLASK_HELPER_AND_A_CHECK, monkeypatch)
    assert _routes(document) == {"GET /pages/signup"}
    assert (every, filtered) == (5, 2)


def _admits_script_by_calls(path: str, data: bytes) -> Admission:
    """`seeds._admits_script` as it was, a loop over every property call (the reference its
    searches are held to)."""
    if seeds._JS_PACKAGE.search(data) is not None or any(
        any(seed in data for seed in u.seeds) and u.pattern.search(data) is not None
        for u in seeds._JS_UNREAD
    ):
        return Admission.SEED
    if nextjs.route_file(path) is not None or nextjs.config_file(path, data):
        return Admission.YES
    names = any(name in data for name in seeds._JS_NAMES)
    verdict = Admission.GATED if names else Admission.NO
    if b"](" in data or b"] (" in data:
        for match in _COMPUTED_CALL.finditer(data):
            if seeds._receiver(data, match.start()) in seeds._APP_PARAMS and seeds._ARGUMENT.match(
                data, match.end() - 1
            ):
                return Admission.SEED
            verdict = Admission.GATED
    for match in seeds._JS_CALL.finditer(data):
        at = match.start() - 1
        while at >= 0 and data[at] in b" \t\r\n":
            at -= 1
        if at >= 0 and data[at] == 0x2E and (at == 0 or data[at - 1] != 0x2E):
            receiver = seeds._receiver(data, at - 1 if at > 0 and data[at - 1] == 0x3F else at)
            if (
                receiver in seeds._APP_PARAMS
                and match.group() in seeds._ROUTE_CALLS
                and seeds._ARGUMENT.match(data, match.end())
            ):
                return Admission.SEED
            verdict = Admission.GATED
    if next(route_shaped_calls(data), None) is not None:
        return Admission.YES  # a route-shaped call on an object a package may make
    return verdict


def test_a_script_s_admission_by_searches_is_its_admission_by_every_call() -> None:
    """`_admits_script` finds a route call on an app parameter, and any property call, by a
    search each (a front-end bundle holds thousands of `.get(`, judged one by one in Python
    before): on generated scripts and on every script of the fixtures, the verdict is the
    call-by-call one."""
    import random

    pieces = [b"app", b"router", b"routes", b"server", b"fastify", b"instance", b"this.", b"$",
              b"'express'", b"\"@koa/router\"", b"`koa-router/", b"'@scope/hapi'", b"'@nestjs/",
              b"require(", b"import x from ", b"'koa", b"hapi'",
              b"x", b"apps", b"myapp", b".", b"?.", b"...", b" ", b"\n", b"\t", b"get", b"post",
              b"del", b"delete", b"use", b"prefix", b"trace", b"route", b"forget", b"(", b")",
              b"'/x'", b"[verb]", b"[m] (", b"h", b",", b";", b"\xc3\xa9", b"Router", b"express",
              b"//", b"_", b"r = new K();", b"r.get('/x', h)", b"r.linPost('n', '/x', h)"]  # fmt: skip
    chooser = random.Random(34)
    scripts = [
        b"".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 14))) for _ in range(4000)
    ]
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    scripts += [
        p.read_bytes()
        for p in fixtures.rglob("*")
        if p.suffix in {".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx"} and p.is_file()
    ]
    verdicts = set()
    for data in scripts:
        verdict = seeds._admits_script("web/x.js", data)
        assert verdict == _admits_script_by_calls("web/x.js", data), data
        verdicts.add(verdict)
    assert verdicts == {Admission.SEED, Admission.YES, Admission.GATED, Admission.NO}


class _CountedText(str):
    """Text that counts the characters its `count` examines: the line numbering of a reader."""

    examined = 0

    def count(self, sub: Any, start: Any = None, end: Any = None) -> int:
        first = 0 if start is None else int(start)
        stop = len(self) if end is None else int(end)
        _CountedText.examined += max(0, stop - first)
        return super().count(sub, start, end)


def test_numbering_the_user_checks_of_a_file_full_of_them_is_linear_in_its_size() -> None:
    """The Django reader numbered each `request.user` by counting the lines from the top of
    the file (lemur: 0.06 s of a 0.3 s scan; a generated file of them, quadratic): counted on
    from the last one, the characters examined stay the file's size, and the lines the same."""
    import ast

    from packs.routes.django_facts import _Reader

    def examined(checks: int) -> tuple[int, int, list[int]]:
        text = "class V:\n" + "    def get(self, request):\n        return request.user\n" * checks
        reader = _Reader("", _CountedText(text))
        _CountedText.examined = 0
        tree = ast.parse(text)
        assert reader.checks_user(tree.body[0])
        assert reader.checks is not None
        return _CountedText.examined, len(text), reader.checks

    small, _, _ = examined(2_000)
    large, large_size, lines = examined(4_000)
    assert lines == [3 + 2 * n for n in range(4_000)]
    assert large <= 2 * large_size and large <= 2.2 * small + 1_000


def _called_spans_by_find(source: bytes, names: set[bytes]) -> list[tuple[int, int]]:
    """`js_facts.called_spans` as it was: each name found by `find`, its call checked there."""
    from packs.routes.js_facts import _CALL_TAIL, _NAME_BYTES_OR_DOT

    spans = []
    for name in names:
        start = source.find(name)
        while start >= 0:
            end = start + len(name)
            if (start == 0 or source[start - 1] not in _NAME_BYTES_OR_DOT) and (
                _CALL_TAIL.match(source, end) is not None
            ):
                spans.append((start, end))
            start = source.find(name, end)
    return sorted(spans)


def test_the_calls_of_a_file_s_functions_found_by_one_search_are_those_found_name_by_name() -> None:
    """A TypeScript file names its imports again and again as types: a `find` loop per name
    took a fifth of its reading; one search of every called name gives the same places, on
    generated scripts and every fixture script (names not ASCII: the loop, still)."""
    import random

    from packs.routes.js_facts import called_spans

    pieces = [b"reg", b"register", b"use", b"x", b"$", b"_", b".", b" ", b"\n", b"(", b")",
              b"app", b"=", b"\xc3\xa9", b"9", b"new ", b"a.reg", b"reg2", b"// reg(", b"'reg('"]  # fmt: skip
    chooser = random.Random(34)
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    sources = [
        p.read_bytes()
        for p in fixtures.rglob("*")
        if p.suffix in {".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx"} and p.is_file()
    ]
    sources += [
        b"".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 20))) for _ in range(3000)
    ]
    found = 0
    for source in sources:
        for names in ({b"reg", b"register", b"use", b"$", b"x"}, {b"reg", b"caf\xc3\xa9"}):
            spans = called_spans(source, names)
            assert spans == _called_spans_by_find(source, names), source
            found += len(spans)
    assert found > 100


def test_the_names_passed_as_arguments_found_by_one_pattern_are_those_of_a_pattern_per_file() -> (
    None
):
    """A file's router names given as arguments (`register(app)`) were found by a pattern of
    those names, compiled for each file (a sixth of a TypeScript repository's scan): one
    pattern of any name, each match's name checked, finds the same places, the closing `,`
    taken with each as before (`f(a, b)`: `b` not found after `a`)."""
    import random
    import re

    from packs.routes.js_facts import passed_spans

    def by_names(source: bytes, names: list[bytes]) -> list[tuple[int, int]]:
        pattern = rb"[(,]\s*(" + b"|".join(map(re.escape, names)) + rb")\s*[,)]"
        return [match.span(1) for match in re.finditer(pattern, source)]

    pieces = [b"app", b"router", b"ap", b"x", b"$", b"_", b"(", b")", b",", b" ", b"\n",
              b"\xc3\xa9", b"f", b"9", b".", b"app$", b"routerX"]  # fmt: skip
    chooser = random.Random(34)
    sources = [
        b"".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 24))) for _ in range(4000)
    ]
    sources += [b"f(app, router)", b"f(x, app)", b"f( app )", b"g(router,app,x)"]
    found = 0
    for source in sources:
        for names in ([b"app", b"router"], [b"ap", b"app"], [b"app", b"caf\xc3\xa9"]):
            spans = list(passed_spans(source, names))
            assert spans == by_names(source, names), source
            found += len(spans)
    assert found > 100


FLASK_WRAPPED = {
    "app/__init__.py": (
        "from flask import Flask\nfrom app.views import pages\nfrom app.setup import wire\n\n"
        "app = Flask(__name__)\nwire(app, pages)\n"
    ),
    "app/setup.py": ("def wire(app, bp):\n    app.register_blueprint(bp, url_prefix='/site')\n"),
    "app/views.py": (
        "from flask import Blueprint\nfrom app.util import log\n\n"
        "pages = Blueprint('pages', __name__)\n\n\n"
        "@pages.get('/about')\ndef about():\n    log(pages)\n    return ''\n"
    ),
    "app/util.py": "def log(thing):\n    print(thing)\n",
}


def test_a_link_reuses_the_calls_it_indexed_from_the_same_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An on-demand scan links the same facts objects round after round; `LinkMemo` keeps
    each file's calls as `_calls_of` indexed them, so a second link of the same facts indexes
    none again, and every link answers what a link without it answers."""
    from packs.routes import extract, route_document
    from packs.routes.linker import LinkMemo, _RouteResolver

    files = [(path, extract(path, source)) for path, source in sorted(FLASK_WRAPPED.items())]
    indexed: list[str] = []
    spell = _RouteResolver._imported_name

    def counting(file: str, facts: Any, callee: Any) -> str | None:
        indexed.append(file)
        return spell(file, facts, callee)

    monkeypatch.setattr(_RouteResolver, "_imported_name", staticmethod(counting))
    alone = route_document(files)
    assert indexed  # the calls were indexed: `wire(app, pages)` passes a router
    kept = LinkMemo()
    first = route_document(files, memo=kept)
    indexed.clear()
    again = route_document(files, memo=kept)
    assert indexed == []
    assert {r["name"] for r in alone.resources} == {"GET /site/about"}
    for linked in (first, again):
        assert (linked.resources, linked.findings, linked.signals) == (
            alone.resources, alone.findings, alone.signals,
        )  # fmt: skip
    edited = "app/__init__.py"  # its facts a new object: its calls indexed again, alone
    changed = [
        (path, extract(path, FLASK_WRAPPED[path] + "\n") if path == edited else facts)
        for path, facts in files
    ]
    indexed.clear()
    route_document(changed, memo=kept)
    assert indexed and set(indexed) == {edited}
    old = dict(files)[edited]
    assert all(facts is not old for _, facts, _ in kept.calls.values())  # forgotten


# a Flask app whose views module is named by nothing Django-shaped yet: no file spells a seed
FLASK_WITH_VIEWS = {
    "web/app.py": (
        "from flask import Flask\nfrom web import pages\n\napp = Flask(__name__)\n"
        "app.add_url_rule('/home', view_func=pages.home)\n"
    ),
    "web/__init__.py": "",
    "web/pages.py": (
        "from web.guards import login_required\n\n\n"
        "@login_required\ndef home(request):\n    return 'home'\n\n\n"
        "class Archive:\n    permission_classes = ['IsAuthenticated']\n"
    ),
    "web/guards.py": "def login_required(view):\n    return view\n",
}
# what makes it a Django project too: a settings module and a URLconf naming the same views
DJANGO_SEEDS = {
    "web/settings.py": "ROOT_URLCONF = 'web.urls'\n",
    "web/urls.py": (
        "from django.urls import path\nfrom web import pages\n\n"
        "urlpatterns = [path('pages/home/', pages.home), path('pages/archive/', pages.Archive)]\n"
    ),
}


def _counting_django_facts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The packages whose Django facts are read from now on."""
    from packs.routes import python_facts
    from packs.routes.django_facts import django_facts as original

    read: list[str] = []

    def counting(tree: Any, source: str, package: str) -> Any:
        read.append(package)
        return original(tree, source, package)

    monkeypatch.setattr(python_facts, "django_facts", counting)
    return read


def test_a_project_spelling_no_django_seed_is_read_without_django_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = _counting_django_facts(monkeypatch)
    documents, (every, filtered) = scanned_both_ways(tmp_path, FLASK_WITH_VIEWS, monkeypatch)
    assert documents[0] == documents[1]
    assert _routes(json.loads(documents[1])) == {"GET /home"}
    # the reference (parse-all) reads every file's, the pre-filtered scan none
    assert filtered > 0 and len(read) == every == 4


def test_the_first_django_seed_read_again_every_file_with_its_django_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repeat on the same scanner once a seed appears: the views module, unchanged and
    memoized without its Django facts, is read again with them (its memo entry would miss the
    view's guard and the class's permissions)."""
    from pack_http_routes import make_scanner

    write_files(tmp_path, FLASK_WITH_VIEWS)
    monkeypatch.chdir(tmp_path)
    scanner = make_scanner()
    scanner.workers = 1
    scanner.discover(["."])
    write_files(tmp_path, DJANGO_SEEDS)
    repeated = json.dumps(scanner.discover(["."]), sort_keys=True)
    cold = make_scanner(parse_all=True)
    cold.workers = 1
    assert repeated == json.dumps(cold.discover(["."]), sort_keys=True)
    assert "ANY /pages/home/" in _routes(json.loads(repeated))
    for name in DJANGO_SEEDS:  # and back: the seeds gone, the lean reader again
        (tmp_path / name).unlink()
    again = json.dumps(scanner.discover(["."]), sort_keys=True)
    assert again == json.dumps(make_scanner(parse_all=True).discover(["."]), sort_keys=True)


def test_a_def_is_read_for_a_loop_over_the_installed_apps_only_where_its_file_names_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`django_loops.function_loop` walks a def's every node; it finds a loop only over
    `get_app_configs()` or `INSTALLED_APPS`, so the defs of a file spelling neither are not
    walked, and those of one spelling either still are."""
    import ast

    from packs.routes import django_facts
    from packs.routes.django_loops import function_loop as original

    walked: list[str] = []

    def counting(node: Any, text: Any) -> Any:
        walked.append(node.name)
        return original(node, text)

    monkeypatch.setattr(django_facts, "function_loop", counting)
    plain = "def pages(request):\n    for app in request.apps:\n        yield app\n"
    django_facts.django_facts(ast.parse(plain), plain, "site")
    assert walked == []
    looping = (
        "from django.apps import apps\n\n\ndef plugin_urls():\n    found = []\n"
        "    for config in apps.get_app_configs():\n        found.append(config.name)\n"
        "    return found\n"
    )
    facts = django_facts.django_facts(ast.parse(looping), looping, "site")
    assert walked == ["plugin_urls"]
    assert facts is not None and "plugin_urls" in facts.app_loops


def test_a_literal_table_is_not_written_out_as_an_app_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A module's literal tables (`CHOICES = (("a", "A"), ...)`, thousands in a large Django
    project) hold no app name: the list is computed as a whole (None), and no element's text
    is made; a list writing some names still keeps each computed part with its text."""
    import ast

    from packs import django_apps

    opened: list[str] = []
    original = django_apps._Reader.open

    def counting(self: Any, node: ast.AST) -> Any:
        opened.append(ast.unparse(node))
        return original(self, node)

    monkeypatch.setattr(django_apps._Reader, "open", counting)
    table = 'COLORS = (("red", "Red"), ("blue", "Blue"))\nSIZES = [(1, "S"), (2, "M")]\n'
    facts = django_apps.package_settings("site", ast.parse(table), table, lists=True)
    assert facts is None and opened == []
    mixed = 'PLUGINS = ["site.core", extra_apps(), ("x", "X")]\n'
    facts = django_apps.package_settings("site", ast.parse(mixed), mixed, lists=True)
    assert facts is not None
    assert facts.lists["PLUGINS"] == (
        "site.core",
        django_apps.Open("extra_apps()", 1),
        django_apps.Open("('x', 'X')", 1),
    )
    assert opened == ["extra_apps()", "('x', 'X')"]


def test_a_definition_s_text_is_what_dedent_makes_of_its_lines() -> None:
    """`django_facts._Reader.segment` skips `textwrap.dedent` where it would change nothing
    (line 1 not indented, no line of blanks only): the text is dedent's on every statement,
    indented or not, with blank lines of spaces, tabs, a form feed, CRLF line ends."""
    import ast
    import textwrap

    from packs.routes import django_facts

    source = (
        "def a(request):\n    return 1\n\n\n"
        "def b(x):\n    \n    return x\n\n"
        "class C:\n\tdef m(self):\n\t\treturn 2\n\t\n"
        "if True:\n    def d():\n        return 3\n\n    class E:\n        pass\n"
        "\x0c\n"
        "def f():\r\n    return 4\r\n"
        "try:\n    def g():\n        return [\n  5]\nexcept ImportError:\n    pass\n"
    )
    tree = ast.parse(source)
    reader = django_facts._Reader("site", source)
    lines = source.splitlines(keepends=True)
    statements = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    assert len(statements) > 15
    for node in statements:
        written = "".join(lines[node.lineno - 1 : node.end_lineno or node.lineno])
        assert reader.segment(node) == textwrap.dedent(written)
