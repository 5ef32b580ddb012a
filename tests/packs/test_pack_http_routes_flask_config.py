"""pack-http-routes: Flask's configuration read as data the app loads (`flask_config`): a
blueprint mounted under `app.config["X_PREFIX"]` (or `app.config.get("X_PREFIX", "/x")`) is
served under what `from_object` (a class, a module, a dotted string naming either, one of a
table of classes), `from_mapping`, `update`, `config["K"] = v` and `setdefault` put there, in
statement order. What only the running app knows (`from_envvar`, `from_pyfile`, a
`from_object` of a parameter no call shows, a key computed from the environment) keeps the
value read before it, said in `attrs.configDefault`; a key nothing sets stays an
`UNRESOLVED_PREFIX`. Every fixture here is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, prefix_unresolved, scanned_both_ways

_VIEWS = {
    "shop/orders.py": (
        "from flask import Blueprint\n"
        "orders = Blueprint('orders', __name__)\n"
        "@orders.route('/list')\n"
        "def listing():\n"
        "    return ''\n"
    ),
    "shop/stock.py": (
        "from flask import Blueprint\n"
        "stock = Blueprint('stock', __name__)\n"
        "@stock.route('/count', methods=['POST'])\n"
        "def count():\n"
        "    return ''\n"
    ),
}


def _app(*body: str, head: str = "", params: str = "") -> dict[str, str]:
    """`shop/factory.py`: a factory writing the configuration (`body`) then mounting both
    blueprints under `ORDERS_ROOT` and `STOCK_ROOT`."""
    lines = [
        "from flask import Flask\n",
        "from shop.orders import orders\n",
        "from shop.stock import stock\n",
        head,
        f"def make_app({params}):\n",
        "    app = Flask(__name__)\n",
        *(f"    {line}\n" for line in body),
        "    app.register_blueprint(orders, url_prefix=app.config['ORDERS_ROOT'])\n",
        "    app.register_blueprint(stock, url_prefix=app.config.get('STOCK_ROOT', '/inventory'))\n",
        "    return app\n",
    ]
    return {**_VIEWS, "shop/factory.py": "".join(lines)}


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


_SETTINGS = {
    "shop/conf/base.py": (
        "class Shared:\n"
        "    ORDERS_ROOT = '/orders'\n"
        "    lower_case = '/ignored'\n"
        "class Live(Shared):\n"
        "    STOCK_ROOT = '/stock'\n"
        "class Trial(Shared):\n"
        "    STOCK_ROOT = '/trial-stock'\n"
    ),
    "shop/conf/flat.py": "ORDERS_ROOT = '/flat-orders'\nSTOCK_ROOT = '/flat-stock'\n",
}


def test_from_object_of_a_class_and_its_bases_gives_the_prefixes() -> None:
    files = {
        **_SETTINGS,
        **_app("app.config.from_object(Live)", head="from shop.conf.base import Live\n"),
    }
    found = _routes(files)
    assert set(found) == {"GET /orders/list", "POST /stock/count"}
    assert all("configDefault" not in a and "prefixUnresolved" not in a for a in found.values())


def test_a_dotted_string_names_a_class_or_a_module() -> None:
    to_class = _app("app.config.from_object('shop.conf.base.Live')")
    assert set(_routes({**_SETTINGS, **to_class})) == {"GET /orders/list", "POST /stock/count"}
    to_module = _app("app.config.from_object('shop.conf.flat')")
    assert set(_routes({**_SETTINGS, **to_module})) == {
        "GET /flat-orders/list",
        "POST /flat-stock/count",
    }


def test_a_table_of_classes_chosen_by_name_is_known_where_every_class_agrees() -> None:
    head = (
        "from shop.conf.base import Live, Trial\n"
        "CHOICES = {'live': Live, 'trial': Trial, 'default': Live}\n"
    )
    files = {
        **_SETTINGS,
        **_app("app.config.from_object(CHOICES[name])", head=head, params="name='default'"),
    }
    found = _routes(files)
    # every class inherits the one ORDERS_ROOT; STOCK_ROOT differs by the name: not known
    assert "GET /orders/list" in found and "prefixUnresolved" not in found["GET /orders/list"]
    assert prefix_unresolved(files) == ["POST /count"]
    assert finding_places(files)["UNRESOLVED_PREFIX"] == [
        "shop/factory.py:10",
        "shop/stock.py:3",
    ]


def test_a_parameter_s_default_is_read_and_said_to_be_one() -> None:
    files = {
        **_SETTINGS,
        **_app(
            "app.config.from_object(settings)",
            head="from shop.conf.base import Trial\n",
            params="settings=Trial",
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /orders/list", "POST /trial-stock/count"}
    assert "settings's default" in str(found["GET /orders/list"]["configDefault"])


def test_a_parameter_no_call_shows_may_set_any_key_after_the_defaults() -> None:
    files = {
        **_SETTINGS,
        **_app(
            "app.config.from_object('shop.conf.base.Live')",
            "app.config.from_object(overrides)",
            params="overrides=None",
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /orders/list", "POST /stock/count"}
    assert found["POST /stock/count"]["configDefault"] == (
        "app.config['STOCK_ROOT'] may be set by app.config.from_object(overrides) "
        "(shop/factory.py:7)"
    )


def test_files_that_set_a_key_differently_leave_it_not_known() -> None:
    files = {
        **_app("app.config['ORDERS_ROOT'] = '/one'"),
        "shop/other.py": "def tune(app):\n    app.config.from_mapping({'ORDERS_ROOT': '/two'})\n",
    }
    assert prefix_unresolved(files) == ["GET /list"]


def test_later_writes_override_earlier_ones_in_statement_order() -> None:
    files = {
        **_SETTINGS,
        **_app(
            "app.config.from_object('shop.conf.flat')",
            "app.config.update(ORDERS_ROOT='/v2/orders')",
            "app.config.from_mapping({'STOCK_ROOT': '/v2/stock'})",
            "app.config['ORDERS_ROOT'] = '/v3/orders'",
            "app.config.setdefault('ORDERS_ROOT', '/never')",
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /v3/orders/list", "POST /v2/stock/count"}
    assert all("configDefault" not in a for a in found.values())


def test_get_s_default_where_nothing_sets_the_key() -> None:
    files = _app("app.config.setdefault('ORDERS_ROOT', '/kept')")
    found = _routes(files)
    assert set(found) == {"GET /kept/list", "POST /inventory/count"}
    assert all("configDefault" not in a and "prefixUnresolved" not in a for a in found.values())


def test_what_the_running_app_loads_keeps_the_value_read_before_and_says_so() -> None:
    files = {
        **_SETTINGS,
        **_app(
            "app.config.from_pyfile('deploy.cfg', silent=True)",
            "app.config['ORDERS_ROOT'] = '/set-after'",
            "app.config.from_object('shop.conf.base.Live')",
            "app.config.from_envvar('SHOP_SETTINGS')",
        ),
        "shop/env.py": (
            "import os\n"
            "from flask import current_app\n"
            "def from_environment():\n"
            "    for name, value in os.environ.items():\n"
            "        current_app.config[name] = value\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /orders/list", "POST /stock/count"}
    said = str(found["GET /orders/list"]["configDefault"])
    assert "from_envvar('SHOP_SETTINGS') (shop/factory.py:9)" in said
    assert "current_app.config[name] = value (shop/env.py:5)" in said
    assert "from_pyfile" not in said  # `from_object` set the key again after it
    assert "prefixUnresolved" not in found["GET /orders/list"]


def test_a_key_set_only_under_a_test_is_said_to_be() -> None:
    files = _app("if debug:", "    app.config['ORDERS_ROOT'] = '/debug'", params="debug=False")
    found = _routes(files)
    assert "GET /debug/list" in found
    assert "set only where" in str(found["GET /debug/list"]["configDefault"])


def test_a_key_nothing_sets_stays_an_unresolved_prefix_never_the_root() -> None:
    files = _app("app.config.from_envvar('SHOP_SETTINGS')")
    assert prefix_unresolved(files) == ["GET /list"]
    findings = document(files)["findings"]
    assert [f["detail"] for f in findings if f["code"] == "UNRESOLVED_PREFIX"] == [
        "the prefix `app.config['ORDERS_ROOT']` of this mount is computed out of sight"
    ]
    # the key `get` gives a default for: that default, said to be one the loader may replace
    stock = _routes(files)["POST /inventory/count"]
    assert "from_envvar('SHOP_SETTINGS')" in str(stock["configDefault"])


def test_a_value_chosen_by_a_parameter_defaulting_to_none_is_the_default_s_branch() -> None:
    """`'/x' if not testing else ''` in `def make_app(testing=None)`: the default's truth where
    no call binds it, marked as the default a call may override (before: both branches, not
    known: an `UNRESOLVED_PREFIX`); a number's truth too; a default the scan cannot read stays
    not known."""
    files = _app(
        "app.config['ORDERS_ROOT'] = ('/api' if not testing else '') + ('/deep' if level else '')",
        "app.config['STOCK_ROOT'] = '/m' if mode else ''",
        head="from vendor import detect\n",
        params="testing=None, level=0, mode=detect()",
    )
    routes = _routes(files)
    assert set(routes) == {"GET /api/list", "POST /count"}
    assert "`testing=None`, the default of `make_app`" in str(
        routes["GET /api/list"]["configDefault"]
    )
    assert "`level=0`" in str(routes["GET /api/list"]["configDefault"])
    assert routes["POST /count"].get("prefixUnresolved") is True  # `mode=detect()`: not known
    assert finding_places(files)["UNRESOLVED_PREFIX"] == ["shop/factory.py:10", "shop/stock.py:3"]


def test_the_pre_filter_parses_the_configuration_s_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **_SETTINGS,
        **_app("setup(app)", head="from shop.setup import setup\n"),
        "shop/setup.py": (
            "def setup(app):\n"
            "    app.config.from_object('shop.conf.base.Live')\n"
            "    app.config.from_pyfile('local.cfg')\n"
        ),
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /orders/list"' in documents[1] and '"POST /stock/count"' in documents[1]
