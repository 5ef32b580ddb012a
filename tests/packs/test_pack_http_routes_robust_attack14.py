"""pack-http-routes on hostile repositories aimed at stop 43's evaluators (attack-14): a
configuration default's str methods that grow it past any memory (`.replace` of a long
literal by a long literal, chained), and an `int` cast of a default Python's `int` refuses
(a superscript digit `str.isdigit` accepts, a hexadecimal literal past the decimal conversion
limit). Each costs a finding at the route, or the default unread, never the file's routes
(a `MemoryError` or `ValueError` out of the reader made the whole file a `parse-error`)."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs import django_models
from packs.bounded_values import Refused, format_text, percent_text
from packs.pymodules import MAX_ANCESTORS
from packs.routes.django_linker import DjangoRouteResolver
from packs.routes.js_facts import js_facts
from packs.routes.linker import _RouteResolver
from packs.scan_document import DocumentPieces
from routes_harness import finding_places, placed

THOUSAND = "a" * 1000
# four replacements of each "a" by a thousand: 10^15 characters asked for
GROWN = "".join(f".replace('a', '{THOUSAND}')" for _ in range(4))


def _fastapi(*lines: str) -> dict[str, str]:
    head = ["import os", "", "from decouple import config", "from fastapi import FastAPI", ""]
    head += ["app = FastAPI()", ""]
    return {"app.py": "\n".join([*head, *lines]) + "\n"}


def test_a_default_replaced_past_the_cap_is_a_finding_not_the_files_loss() -> None:
    files = _fastapi(
        f"BASE = os.getenv('BASE', '{THOUSAND}'){GROWN}",
        f"LITERAL = '{THOUSAND}'{GROWN}",
        "@app.get(BASE + '/grown')",
        "def grown():",
        "    pass",
        "@app.get(LITERAL)",
        "def literal():",
        "    pass",
        "@app.get(os.getenv('OK', '/OK/').lower().replace('k', 'kay'))",
        "def fine():",
        "    pass",
    )
    assert placed(files) == {"GET /okay/": "app.py:16 fastapi"}
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == ["app.py:10", "app.py:13"]


def test_an_int_default_python_refuses_is_not_read() -> None:
    huge = "0x" + "f" * 5000  # a hexadecimal literal: no decimal limit on the source
    files = _fastapi(
        "SUPER = config('SUPER', default='\u00b2', cast=int)",
        f"HUGE = config('HUGE', default={huge}, cast=int)",
        f"LONG = config('LONG', default='{'9' * 5000}', cast=int)",
        "PORT = config('PORT', default='8000', cast=int)",
        "@app.get('/p/' + PORT)",
        "def port():",
        "    pass",
        "@app.get('/s/' + SUPER)",
        "def superscript():",
        "    pass",
        "@app.get('/w')",
        "def w():",
        "    pass",
    )
    assert placed(files) == {"GET /p/8000": "app.py:12 fastapi", "GET /w": "app.py:18 fastapi"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["app.py:15"]


def _hooked(emits: int, listeners: int) -> dict[str, str]:
    """`addRoute` given to the hook `routes` `emits` times; `listeners` listeners each adding
    one route through it."""
    hooks = (
        "const all = {};\nexports.on = (n, f) => { (all[n] = all[n] || []).push(f); };\n"
        "exports.emit = (n, ...a) => (all[n] || []).forEach((f) => f(...a));\n"
    )
    router = (
        "const Router = require('koa-router');\nconst hooks = require('./hooks');\n"
        "const router = new Router();\nrouter.get('/api/ping', async () => {});\n"
        "function addRoute(cfg) {\n  router.get('/api/plugin/' + cfg.path, async () => {});\n}\n"
        + "hooks.emit('routes', addRoute);\n" * emits
        + "module.exports = router;\n"
    )
    plugins = "const hooks = require('../core/hooks');\n" + "".join(
        f"hooks.on('routes', (add) => add({{ path: 's{i}' }}));\n" for i in range(listeners)
    )
    return {
        "core/app.js": "const Koa = require('koa');\nconst router = require('./router');\n"
        "new Koa().use(router.routes());\n",
        "core/hooks.js": hooks,
        "core/router.js": router,
        "plugins/all.js": plugins,
    }


def test_hook_listeners_times_emits_past_the_cap_are_a_budget_finding() -> None:
    """Each listener's call of its parameter was written out once for every emit giving a
    function (`linker._hooked`): 400 listeners of ten calls and 400 emits, a 50 KB file, made
    1.6 million calls and the pack spun past `request_ms`. Past 4,096 the emits are a
    `LINK_BUDGET_EXCEEDED` finding; below it every route is listed."""
    few = _hooked(3, 4)
    assert set(placed(few)) == {"GET /api/ping", *(f"GET /api/plugin/s{i}" for i in range(4))}
    assert "LINK_BUDGET_EXCEEDED" not in finding_places(few)
    many = _hooked(65, 65)  # 4,225 calls
    emits = [f"core/router.js:{line}" for line in range(8, 8 + 65)]
    assert finding_places(many)["LINK_BUDGET_EXCEEDED"] == emits
    assert "GET /api/ping" in placed(many)


class _CountedText(bytes):
    """A file's bytes that count the times `in` looks for a `[` through them."""

    scans = 0

    def __contains__(self, part: object) -> bool:
        if part == b"[":
            type(self).scans += 1
        return super().__contains__(part)  # type: ignore[operator]


def test_a_file_of_many_calls_with_a_path_is_scanned_for_tables_once() -> None:
    """`js_facts._Reader._tables` looked for a `[` through the whole file at every call with
    a path: a controller of 10,000 `@Get('mN')` methods and no `[` (450 KB) was scanned
    10,000 times, and the read grew with the square of the file."""
    methods = "".join(f"  @Get('m{i}')\n  m{i}() {{}}\n" for i in range(200))
    text = (
        "import { Controller, Get } from '@nestjs/common';\n@Controller('c')\n"
        f"export class C {{\n{methods}}}\n"
    )
    source = _CountedText(text.encode())
    facts = js_facts(source, "src/c.ts")
    assert len(facts.routes) == 200
    assert _CountedText.scans == 1


def test_a_format_naming_one_value_many_times_is_refused_before_it_is_made() -> None:
    """`"{0}" * 300000` of a 4,000-character string, in a Django collector or a Flask route,
    asked `str.format` for 1.2 GB: the pack was killed (E_EOF) before `capped` looked at the
    result. The fields are counted first; what the refusal allocates stays small."""
    tracemalloc.start()
    try:
        for template, args, keywords in (
            ("{0}" * 3000, ["a" * 4000], {}),
            ("{a}" * 3000, [], {"a": "a" * 4000}),
            ("{}/" + "{k}" * 3000, ["b"], {"k": "a" * 4000}),
        ):
            with pytest.raises(Refused):
                format_text(template, args, keywords)
        with pytest.raises(Refused):  # `"%s" * 1000 % (P, P, ...)`: each value once
            percent_text("%s" * 1000, ("a" * 4000,) * 1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert (
        format_text("{0}/{0}-{k}", ["a" * 2000], {"k": "b"}) == "a" * 2000 + "/" + "a" * 2000 + "-b"
    )


def test_a_django_collector_formatting_past_the_cap_is_a_finding_at_its_urlconf() -> None:
    body = "        p = '" + "a" * 4000 + "'\n        q = '" + "{0}" * 3000 + "'.format(p)\n"
    files = {
        "proj/__init__.py": "",
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['proj']\n",
        "proj/views.py": "def v(request):\n    return None\n",
        "proj/urls.py": (
            "from django.urls import path\nfrom proj import views\n"
            "class Registry:\n    def __init__(self):\n        self.items = []\n"
            f"    def build(self):\n{body}"
            "        self.items.append(path(q, views.v))\n        return self.items\n"
            "reg = Registry()\nurlpatterns = [path('ok/', views.v)]\nurlpatterns += reg.build()\n"
        ),
    }
    assert set(placed(files)) == {"ANY /ok/"}
    assert finding_places(files)["UNRESOLVED_ROUTER"] == ["proj/urls.py:13"]


def _drf(rows: list[str], registrations: list[str]) -> dict[str, str]:
    """A DRF router subclass whose route table is `rows` (URL templates serving `list`), each
    of `registrations` a prefix registering one view set on it."""
    table = "".join(
        f"        Route(url=r'{url}', mapping={{'get': 'list'}}, name='n{i}', detail=False,"
        " initkwargs={}),\n"
        for i, url in enumerate(rows)
    )
    return {
        "proj/__init__.py": "",
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['proj']\n",
        "proj/tables.py": (
            "from rest_framework.routers import Route, SimpleRouter\n"
            f"class Big(SimpleRouter):\n    routes = [\n{table}    ]\n"
        ),
        "proj/urls.py": (
            "from django.urls import include, path\nfrom rest_framework import viewsets\n"
            "from proj import tables\nclass Boxes(viewsets.ModelViewSet):\n    pass\n"
            "r = tables.Big()\n"
            + "".join(f"r.register('{prefix}', Boxes)\n" for prefix in registrations)
            + "urlpatterns = [path('r/', include(r.urls))]\n"
        ),
    }


def test_a_route_table_times_its_registrations_spends_the_link_budget() -> None:
    """Each registration on a router subclass served every row of its table, unbudgeted: a
    table of 3,000 rows and 3,000 registrations (700 KB) was 9 million routes, past
    `request_ms`. A registration now spends a unit per row and per route it serves."""
    rows = [f"^{{prefix}}/r{i}$" for i in range(160)]
    found = finding_places(_drf(rows, [f"b{i}" for i in range(160)]))  # 25,600 routes
    assert found["LINK_BUDGET_EXCEEDED"]
    assert "LINK_BUDGET_EXCEEDED" not in finding_places(_drf(rows[:3], ["a", "b"]))
    assert set(placed(_drf(rows[:2], ["a"]))) == {"GET /r/a/r0", "GET /r/a/r1"}


def test_a_route_template_filled_past_the_cap_is_a_finding() -> None:
    """`{prefix}` written 1,000 times in a row's URL, filled with a 100-character prefix, was
    a route of 100,000 characters (4,000 of each, 16 million, in a 700 KB file)."""
    files = _drf(["^" + "{prefix}" * 1000 + "$", "^{prefix}/ok$"], ["p" * 100])
    assert set(placed(files)) == {"GET /r/" + "p" * 100 + "/ok"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["proj/urls.py:7"]


def _chain(depth: int) -> dict[str, str]:
    """A Django model below `depth` abstract bases, each the one before's subclass."""
    text = "from django.db import models\nclass B0(models.Model):\n    class Meta:\n"
    text += "        abstract = True\n"
    for i in range(1, depth):
        text += f"class B{i}(B{i - 1}):\n    class Meta:\n        abstract = True\n"
    text += f"class Deep(B{depth - 1}):\n    x = models.IntegerField()\n"
    return {"shop/__init__.py": "", "shop/models.py": text}


def test_a_class_below_more_ancestors_than_the_cap_has_a_base_out_of_sight() -> None:
    """`Modules.ancestors` listed every class's whole chain: 3,000 abstract bases, each the
    one before's subclass (150 KB), were 4.5 million steps and pack-django's link ran past
    `request_ms`. Past `MAX_ANCESTORS` classes the rest is a base out of sight: the model
    an `UNKNOWN_MODEL_BASE`, never a timeout."""
    shallow = _models(_chain(MAX_ANCESTORS))
    assert [r["name"] for r in shallow.resources] == ["shop_deep"]
    deep = _models(_chain(MAX_ANCESTORS + 2))
    assert deep.resources == []
    assert [(f["code"], f["locations"][0]["line"]) for f in deep.findings] == [
        ("UNKNOWN_MODEL_BASE", 3 * (MAX_ANCESTORS + 2) + 2)
    ]


def _models(files: dict[str, str]) -> DocumentPieces:
    return django_models.link([(p, django_models.extract(p, s)) for p, s in sorted(files.items())])


def test_class_views_below_diamonds_of_bases_read_each_class_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`class D(L, R)`, `L` and `R` below the one before, forty levels (2.5 KB): the Django
    linker's walks over a class view's bases read each class once per path to it, 2^32
    reads up to `_DEPTH`, and the pack ran past `request_ms`. Twelve levels here: each class
    is read a bounded number of times, the view's methods still its base's."""
    levels = 12
    views = "from django.views import View\nclass D0(View):\n    def get(self, request):\n"
    views += "        pass\n    def post(self, request):\n        pass\n"
    for i in range(1, levels + 1):
        views += f"class L{i}(D{i - 1}):\n    pass\nclass R{i}(D{i - 1}):\n    pass\n"
        views += f"class D{i}(L{i}, R{i}):\n    pass\n"
    files = {
        "proj/__init__.py": "",
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['proj']\n",
        "proj/views.py": views,
        "proj/urls.py": "from django.urls import path\nfrom proj import views\n"
        f"urlpatterns = [path('d/', views.D{levels}.as_view())]\n",
    }
    reads: list[str] = []
    klass = DjangoRouteResolver.klass

    def counted(self: DjangoRouteResolver, file: str, name: str) -> object:
        reads.append(name)
        return klass(self, file, name)

    monkeypatch.setattr(DjangoRouteResolver, "klass", counted)
    assert set(placed(files)) == {"GET /d/", "POST /d/"}
    assert len(reads) < 40 * (3 * levels + 1)  # 2^12 paths to `D0` read it 4,096 times


def test_a_method_view_below_diamonds_of_bases_reads_each_base_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Flask's `MethodView` below forty diamonds (`class D(L, R)`, 2.5 KB): the linker's
    `_class_verbs` read each base once per path to it (E_TIMEOUT). Twelve levels here."""
    levels = 12
    text = "from flask import Flask\nfrom flask.views import MethodView\napp = Flask(__name__)\n"
    text += "class D0(MethodView):\n    def get(self):\n        return ''\n"
    for i in range(1, levels + 1):
        text += f"class L{i}(D{i - 1}):\n    pass\nclass R{i}(D{i - 1}):\n"
        text += f"    def post(self):\n        return ''\nclass D{i}(L{i}, R{i}):\n    pass\n"
    text += f"app.add_url_rule('/d', view_func=D{levels}.as_view('d'))\n"
    reads: list[int] = []
    verbs = _RouteResolver._class_verbs

    def counted(self: _RouteResolver, *args: Any) -> Any:
        reads.append(1)
        return verbs(self, *args)

    monkeypatch.setattr(_RouteResolver, "_class_verbs", counted)
    assert set(placed({"app.py": text})) == {"GET /d", "POST /d"}
    assert len(reads) <= 3 * levels + 1  # 2^12 paths reach `D0`


def test_a_member_no_base_has_is_looked_for_once_per_base(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`D33.PREFIX` below 33 diamonds (`class D(L, R)`): the linker's `_member` looked along
    every path to each base, and one the walk's depth cut (or a member none has) tried all
    2^33 (E_TIMEOUT from 2.5 KB). A base already searched for the member is not again."""
    levels = 12
    text = "from fastapi import FastAPI, APIRouter\napp = FastAPI()\n"
    text += "class D0:\n    PREFIX = '/p'\n    router = APIRouter()\n"
    for i in range(1, levels + 1):
        text += f"class L{i}(D{i - 1}):\n    pass\nclass R{i}(D{i - 1}):\n    pass\n"
        text += f"class D{i}(L{i}, R{i}):\n    pass\n"
    text += f"@D{levels}.router.get(D{levels}.PREFIX + D{levels}.MISSING)\ndef f():\n    pass\n"
    text += f"app.include_router(D{levels}.router, prefix=D{levels}.PREFIX)\n"
    reads: list[int] = []
    member = _RouteResolver._member

    def counted(self: _RouteResolver, *args: Any) -> Any:
        reads.append(1)
        return member(self, *args)

    monkeypatch.setattr(_RouteResolver, "_member", counted)
    assert finding_places({"app.py": text})["UNRESOLVED_ROUTE"] == [f"app.py:{6 + 6 * levels}"]
    assert len(reads) < 20 * (3 * levels + 1)  # 2^12 paths to `D0`


def _forked(levels: int) -> dict[str, str]:
    """A path helper choosing, on a flag the scan cannot decide, between two calls of the
    one before, `levels` deep: 2^levels evaluations to read its value."""
    text = "import os\nfrom fastapi import FastAPI\napp = FastAPI()\n"
    text += "FLAG = os.environ.get('F') == '1'\ndef f0(x):\n    return x\n"
    for i in range(1, levels + 1):
        text += f"def f{i}(x):\n    return f{i - 1}(x) if FLAG else f{i - 1}(x + '')\n"
    text += f"@app.get(f{levels}('/x'))\ndef g():\n    pass\n@app.get('/ok')\ndef h():\n    pass\n"
    return {"app.py": text}


def test_undecided_choices_past_the_cap_are_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    """`f(x) if FLAG else f(x + '')` forty deep (3 KB) evaluated both branches of every
    choice, 2^40 evaluations (E_TIMEOUT). Past 1,024 such choices a link no longer forks: the
    route is an `UNRESOLVED_ROUTE`; below it both branches are still read."""
    assert set(placed(_forked(4))) == {"GET /x", "GET /ok"}
    forks: list[int] = []
    choice = _RouteResolver._choice

    def counted(self: _RouteResolver, *args: Any) -> Any:
        forks.append(1)
        return choice(self, *args)

    monkeypatch.setattr(_RouteResolver, "_choice", counted)
    files = _forked(11)  # 2,047 choices
    assert set(placed(files)) == {"GET /ok"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["app.py:29"]
    assert len(forks) <= 2 * 1_100
