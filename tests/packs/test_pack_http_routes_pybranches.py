"""pack-http-routes: Python path helpers whose value a test decides, and wrappers that map the
rules they are given before registering them (issue 34, class 2; `routes/py_branches.py`).

1. A project function that returns one value or another by a test (`if T: return A` then
   `return B`, `if/else` assigning a local, `A if T else B`, early returns, nested `if`s) is
   the branch the configuration's defaults pick, where `T` reads one (an environment default
   through the project's own flag parser, `bool(int(...))`, `strtobool`, python-decouple's
   `config(..., cast=bool)`, a pydantic `BaseSettings` bool field, a plain module constant):
   the routes it names carry `attrs.configDefault`. A test it cannot tell stays an
   `UNRESOLVED_ROUTE` at the call, never a guess.
2. A comprehension or `map()` over a wrapper's `*args` or list parameter (`[f(u) for u in
   urls]`, `list(map(f, urls))`, `tuple(...)`, a generator passed on with `*`), the result
   passed on as `*urls` to the registration call: one route per url, at the user's call line.

Every fixture here is our own. The expected routes of `MAPPED_RULES` were checked against
Flask 2.3 and Flask-RESTful 0.3.10 themselves (`app.url_map` of the fixture imported, HEAD and
the automatic OPTIONS left out, `DEPOT_PER_SITE` unset, then set to `true`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, placed, scanned_both_ways


def _defaults(files: dict[str, str]) -> dict[str, str | None]:
    """Route name -> its `attrs.configDefault` (None: none)."""
    return {str(r["name"]): r["attrs"].get("configDefault") for r in document(files)["resources"]}


# -- 1. helpers whose value a configured test picks ----------------------------------------

FLAGGED_HELPERS: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/knobs.py": (
        "import os\n"
        "from distutils.util import strtobool\n"
        "from decouple import config as env_config\n"
        "from pydantic_settings import BaseSettings\n"
        "\n"
        "def truthy(raw):\n"
        "    raw = raw.strip().lower()\n"
        "    if raw in ('1', 'true', 'yes'):\n"
        "        return True\n"
        "    elif raw in ('0', 'false', 'no'):\n"
        "        return False\n"
        "    raise ValueError(raw)\n"
        "\n"
        "REGIONAL = truthy(os.getenv('SHOP_REGIONAL', 'no'))\n"
        "LEGACY = bool(int(os.environ.get('SHOP_LEGACY', '1')))\n"
        "BETA = strtobool(os.environ.get('SHOP_BETA', 'off'))\n"
        "SAFE = env_config('SHOP_SAFE', default=True, cast=bool)\n"
        "TRACING = False\n"
        "\n"
        "class Plain:\n"
        "    SPLIT = truthy(os.environ.get('SHOP_SPLIT', 'yes'))\n"
        "\n"
        "plain = Plain()\n"
        "\n"
        "class Knobs(BaseSettings):\n"
        "    locale_paths: bool = False\n"
        "    shop_name: str = 'corner'\n"
        "\n"
        "knobs = Knobs()\n"
    ),
    "shop/paths.py": (
        "from shop import knobs as k\n"
        "from shop.knobs import TRACING\n"
        "\n"
        "def regional(rule):\n"
        "    if k.REGIONAL:\n"
        "        return '/r/<region>' + rule\n"
        "    return rule\n"
        "\n"
        "def legacy(rule):\n"
        "    if not k.LEGACY:\n"
        "        prefix = '/v2'\n"
        "    else:\n"
        "        prefix = '/v1'\n"
        "    return prefix + rule\n"
        "\n"
        "def beta(rule):\n"
        "    return '/beta{}'.format(rule) if k.BETA else rule\n"
        "\n"
        "def safe(rule):\n"
        "    if k.SAFE:\n"
        "        if k.knobs.locale_paths:\n"
        "            return f'/<lang>{rule}'\n"
        "        return '/s' + rule\n"
        "    return rule\n"
        "\n"
        "def traced(rule):\n"
        "    if TRACING:\n"
        "        return '/trace' + rule\n"
        "    return rule\n"
        "\n"
        "def split(rule):\n"
        "    if not k.plain.SPLIT:\n"
        "        return None\n"
        "    if k.plain.SPLIT:\n"
        "        return '/split' + rule\n"
    ),
    "shop/site.py": (
        "from flask import Flask\n"
        "from shop import paths\n"
        "from shop.paths import regional as reg, traced\n"
        "\n"
        "app = Flask(__name__)\n"
        "\n"
        "@app.route(reg('/cart'))\n"
        "def cart(): ...\n"
        "\n"
        "@app.route(paths.legacy('/items'), methods=['GET', 'POST'])\n"
        "def items(): ...\n"
        "\n"
        "@app.route(paths.beta('/news'))\n"
        "def news(): ...\n"
        "\n"
        "@app.route(paths.safe('/pay'), methods=['POST'])\n"
        "def pay(): ...\n"
        "\n"
        "@app.route(traced('/orders'))\n"
        "def orders(): ...\n"
        "\n"
        "@app.route(paths.split('/halves'))\n"
        "def halves(): ...\n"
    ),
}


def test_helpers_take_the_branch_the_configuration_defaults_pick() -> None:
    found = _defaults(FLAGGED_HELPERS)
    assert found == {
        "GET /cart": "os.environ.SHOP_REGIONAL",
        "GET /v1/items": "os.environ.SHOP_LEGACY",
        "POST /v1/items": "os.environ.SHOP_LEGACY",
        "GET /news": "os.environ.SHOP_BETA",
        "POST /s/pay": "decouple SHOP_SAFE; Knobs.locale_paths (BaseSettings)",
        "GET /orders": None,  # a plain module constant: no configuration to name
        "GET /split/halves": "os.environ.SHOP_SPLIT",  # a class attribute, a `None` guard
    }
    assert finding_places(FLAGGED_HELPERS) == {}


def test_the_routes_are_placed_where_the_helper_is_called() -> None:
    where = placed(FLAGGED_HELPERS)
    assert where["GET /cart"] == "shop/site.py:7 flask"
    assert where["POST /s/pay"] == "shop/site.py:16 flask"


UNDECIDED_HELPERS: dict[str, str] = {
    "desk/__init__.py": "",
    "desk/rules.py": (
        "import os\n"
        "from desk.runtime import tenant_mode\n"
        "\n"
        "STRICT = os.environ.get('DESK_STRICT') == 'yes'\n"
        "\n"
        "def tenanted(rule):\n"
        "    if tenant_mode():\n"
        "        return '/t/<tenant>' + rule\n"
        "    return rule\n"
        "\n"
        "def strict(rule):\n"
        "    return '/strict' + rule if STRICT else rule\n"
        "\n"
        "def looped(rule):\n"
        "    for part in ('a', 'b'):\n"
        "        if part == rule:\n"
        "            return '/' + part\n"
        "    return rule\n"
        "\n"
        "def same(rule):\n"
        "    if os.environ.get('DESK_ANY'):\n"
        "        return rule\n"
        "    return rule\n"
    ),
    "desk/web.py": (
        "from flask import Blueprint\n"
        "from desk import rules\n"
        "\n"
        "bp = Blueprint('desk', __name__)\n"
        "\n"
        "@bp.route(rules.tenanted('/tickets'))\n"
        "def tickets(): ...\n"
        "\n"
        "@bp.route(rules.strict('/audit'))\n"
        "def audit(): ...\n"
        "\n"
        "@bp.route(rules.looped('/c'))\n"
        "def looped(): ...\n"
        "\n"
        "@bp.route(rules.same('/open'))\n"
        "def opened(): ...\n"
    ),
}


def test_a_test_that_cannot_be_told_is_a_finding_at_the_call_never_a_guess() -> None:
    """An unknown function, a variable with no default, a loop: each route is an
    UNRESOLVED_ROUTE where it is written; branches that agree need no test."""
    assert set(_defaults(UNDECIDED_HELPERS)) == {"GET /open"}
    assert sorted(finding_places(UNDECIDED_HELPERS)["UNRESOLVED_ROUTE"]) == [
        "desk/web.py:12",
        "desk/web.py:6",
        "desk/web.py:9",
    ]


def test_an_int_constant_is_formatted_as_python_does_never_read_as_a_flag() -> None:
    """Only `True`/`False` are read as flags: `LEVEL = 2` named as "True" in a path would be a
    wrong route. Formatted into an f-string it is what Python prints (`/l2`, `model.Number`);
    tested alone it decides nothing (no configuration default): the route stays flagged."""
    files = {
        "lab/site.py": (
            "from flask import Flask\n"
            "LEVEL = 2\n"
            "LIVE = True\n"
            "app = Flask(__name__)\n"
            "def leveled(rule):\n"
            "    if LIVE:\n"
            "        return f'/l{LEVEL}' + rule\n"
            "    return rule\n"
            "@app.route(leveled('/probe'))\n"
            "def probe(): ...\n"
            "def gated(rule):\n"
            "    if LEVEL:\n"
            "        return '/True' + rule\n"
            "    return rule\n"
            "@app.route(gated('/gate'))\n"
            "def gate(): ...\n"
        ),
    }
    assert _defaults(files) == {"GET /l2/probe": None}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["lab/site.py:15"]


# -- 2. wrappers mapping the rules they are given ------------------------------------------

MAPPED_RULES: dict[str, str] = {
    "depot/__init__.py": "",
    "depot/conf.py": (
        "import os\n"
        "\n"
        "def on(value):\n"
        "    return value.lower() == 'true'\n"
        "\n"
        "PER_SITE = on(os.environ.get('DEPOT_PER_SITE', 'False'))\n"
    ),
    "depot/rules.py": (
        "from depot import conf\n"
        "\n"
        "def sited(rule):\n"
        "    if conf.PER_SITE:\n"
        "        return '/<site>' + rule\n"
        "    return rule\n"
        "\n"
        "def versioned(rule, version='v1'):\n"
        "    return f'/{version}{rule}'\n"
    ),
    "depot/restapi.py": (
        "from flask_restful import Api\n"
        "from depot.rules import sited, versioned as ver\n"
        "\n"
        "class DepotApi(Api):\n"
        "    def register(self, view, *paths, **options):\n"
        "        paths = [sited(p) for p in paths]\n"
        "        return self.add_resource(view, *paths, **options)\n"
        "\n"
        "    def register_mapped(self, view, *paths, **options):\n"
        "        self.add_resource(view, *list(map(ver, paths)), **options)\n"
        "\n"
        "    def register_listed(self, view, paths, **options):\n"
        "        self.add_resource(view, *(sited(ver(p)) for p in paths), **options)\n"
        "\n"
        "    def register_tuple(self, view, *paths, **options):\n"
        "        shaped = tuple(sited(p) for p in paths)\n"
        "        self.add_resource(view, *shaped, **options)\n"
        "\n"
        "    def register_lambda(self, view, *paths, **options):\n"
        "        self.add_resource(view, *map(lambda p: ver(p, 'v2'), paths), **options)\n"
        "\n"
        "    def register_everywhere(self, view, *paths, **options):\n"
        "        return self.register(view, *paths, **options)\n"
        "\n"
        "    def register_some(self, view, *paths, **options):\n"
        "        kept = [p for p in paths if p.startswith('/')]\n"
        "        self.add_resource(view, *kept, **options)\n"
    ),
    "depot/views.py": (
        "from flask import Flask\n"
        "from flask_restful import Resource\n"
        "from depot.restapi import DepotApi\n"
        "\n"
        "class Bins(Resource):\n"
        "    def get(self): return {}\n"
        "    def post(self): return {}\n"
        "\n"
        "class Crate(Resource):\n"
        "    def get(self, crate_id): return {}\n"
        "    def delete(self, crate_id): return {}\n"
        "\n"
        "class Health(Resource):\n"
        "    def get(self): return {}\n"
        "\n"
        "class Logs(Resource):\n"
        "    def get(self): return {}\n"
        "\n"
        "class Odd(Resource):\n"
        "    def put(self): return {}\n"
        "\n"
        "app = Flask(__name__)\n"
        "api = DepotApi(app)\n"
        "api.register(Bins, '/bins', '/boxes', endpoint='bins')\n"
        "api.register_mapped(Crate, '/crates/<int:crate_id>', endpoint='crate')\n"
        "api.register_listed(Health, ['/health', '/ping'], endpoint='health')\n"
        "api.register_tuple(Logs, '/logs', endpoint='logs')\n"
        "api.register_some(Odd, '/odd', endpoint='odd')\n"
        "api.register_lambda(Health, '/alive', endpoint='alive')\n"
        "api.register_everywhere(Logs, '/journal', '/trail', endpoint='journal')\n"
    ),
}


def test_rules_mapped_over_a_wrappers_arguments_are_one_route_each_at_the_call() -> None:
    assert placed(MAPPED_RULES) == {
        "GET /bins": "depot/views.py:24 flask",
        "POST /bins": "depot/views.py:24 flask",
        "GET /boxes": "depot/views.py:24 flask",
        "POST /boxes": "depot/views.py:24 flask",
        "GET /v1/crates/{crate_id}": "depot/views.py:25 flask",
        "DELETE /v1/crates/{crate_id}": "depot/views.py:25 flask",
        "GET /v1/health": "depot/views.py:26 flask",
        "GET /v1/ping": "depot/views.py:26 flask",
        "GET /logs": "depot/views.py:27 flask",
        "GET /v2/alive": "depot/views.py:29 flask",
        "GET /journal": "depot/views.py:30 flask",  # `*paths` passed on to `register`
        "GET /trail": "depot/views.py:30 flask",
    }
    found = _defaults(MAPPED_RULES)
    assert found["GET /bins"] == "os.environ.DEPOT_PER_SITE"
    assert found["GET /v1/ping"] == "os.environ.DEPOT_PER_SITE"
    assert found["GET /v1/crates/{crate_id}"] is None  # `versioned` tests nothing


def test_a_filtered_mapping_is_a_finding_at_the_call_never_silent() -> None:
    assert "depot/views.py:28" in finding_places(MAPPED_RULES)["UNRESOLVED_ROUTE"]


LOOPED_RULES: dict[str, str] = {
    "kiosk/__init__.py": "",
    "kiosk/flags.py": (
        "import os\n"
        "\n"
        "SHARED = os.environ.get('KIOSK_SHARED', 'TRUE').lower() == 'true'\n"
        "PINNED = os.environ.get('KIOSK_PINNED', '') == 'on'\n"
        "QUIET = os.getenv('KIOSK_QUIET', '0') not in ('0', 'false')\n"
    ),
    "kiosk/core.py": (
        "from flask import Flask\n"
        "from kiosk import flags\n"
        "\n"
        "def placed(rule):\n"
        "    if flags.SHARED and not flags.PINNED:\n"
        "        return '/shared' + rule\n"
        "    return rule\n"
        "\n"
        "def hushed(rule):\n"
        "    if flags.QUIET or flags.PINNED:\n"
        "        return '/q' + rule\n"
        "    return rule\n"
        "\n"
        "class KioskApp(Flask):\n"
        "    def pages(self, view, *rules):\n"
        "        for rule in rules:\n"
        "            self.add_url_rule(placed(rule), view_func=view)\n"
        "\n"
        "    def quiet_pages(self, view, rules):\n"
        "        for rule in rules:\n"
        "            self.add_url_rule('/k' + hushed(rule), view_func=view)\n"
    ),
    "kiosk/main.py": (
        "from kiosk.core import KioskApp\n"
        "\n"
        "app = KioskApp(__name__)\n"
        "\n"
        "def screen(): return ''\n"
        "def status(): return ''\n"
        "\n"
        "app.pages(screen, '/screen', '/display')\n"
        "app.quiet_pages(status, ['/status'])\n"
    ),
}


def test_a_loop_over_a_wrappers_rules_through_a_helper_is_one_route_each() -> None:
    """`for rule in rules: add_url_rule(placed(rule))` (and joined: `'/k' + hushed(rule)`),
    the helpers deciding by `and`/`or` of configured flags. Checked against Flask 2.3's
    `url_map` with the variables unset."""
    assert _defaults(LOOPED_RULES) == {
        "GET /shared/screen": "os.environ.KIOSK_SHARED; os.environ.KIOSK_PINNED",
        "GET /shared/display": "os.environ.KIOSK_SHARED; os.environ.KIOSK_PINNED",
        "GET /k/status": "os.environ.KIOSK_QUIET; os.environ.KIOSK_PINNED",
    }
    assert placed(LOOPED_RULES)["GET /shared/display"] == "kiosk/main.py:8 flask"
    assert finding_places(LOOPED_RULES) == {}


@pytest.mark.parametrize(
    "files",
    [FLAGGED_HELPERS, UNDECIDED_HELPERS, MAPPED_RULES, LOOPED_RULES],
    ids=["flagged", "undecided", "mapped", "looped"],
)
def test_these_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
