"""pack-http-routes follows Python's star re-exports (`from .x import *`) as the import system
binds them (`pymodules.star_brings`, the routes linker's `_star_source`): a package that
re-exports its subpackages' blueprints by `*`, read through a module alias (`import pkg as v;
v.name`) or a from-import, gives each blueprint its registered prefix; `__all__` limits what
a star brings, a name starting with `_` is never brought without it, the last star import that
brings a name wins, and a name that is both a subpackage and a re-exported attribute is the
attribute (the star import binds it after the submodule's import)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import names, prefix_unresolved, scanned_both_ways


def _blueprint(name: str, *paths: str) -> str:
    routes = "".join(
        f"\n@{name}.route('{p}')\ndef view_{i}():\n    return 'x'\n" for i, p in enumerate(paths)
    )
    return f"from flask import Blueprint\n{name} = Blueprint('{name}', __name__)\n{routes}"


# a package re-exporting its subpackages by `*`; each subpackage re-exports by name what its
# own modules define, one blueprint named like the subpackage itself
SHOP = {
    "shop/__init__.py": "",
    "shop/app.py": "from flask import Flask\napp = Flask(__name__)\n",
    "shop/views/__init__.py": (
        "from .orders import *\nfrom .stock import *\nfrom .ping_views import ping\n"
    ),
    "shop/views/orders/__init__.py": "from .order_views import orders, ordersByStore\n",
    "shop/views/orders/order_views.py": (
        _blueprint("orders", "/list") + "\n" + _blueprint("ordersByStore", "/mine")
    ),
    "shop/views/stock/__init__.py": "from .stock_views import *\n",
    "shop/views/stock/stock_views.py": _blueprint("stock", "/count"),
    "shop/views/ping_views.py": _blueprint("ping", "/now"),
    "shop/routing.py": (
        "from flask import Blueprint\n"
        "from shop.app import app\n"
        "import shop.views as v\n\n"
        "v1 = Blueprint('v1', __name__)\n"
        "v.stock.register_blueprint(v.ordersByStore, url_prefix='/<int:store>/orders')\n"
        "v1.register_blueprint(v.orders, url_prefix='/orders')\n"
        "v1.register_blueprint(v.stock, url_prefix='/stock')\n"
        "v1.register_blueprint(v.ping, url_prefix='/ping')\n"
        "app.register_blueprint(v1, url_prefix='/api')\n"
    ),
}


def test_blueprints_re_exported_by_star_through_a_module_alias_get_their_prefixes() -> None:
    assert names(SHOP) == {
        "GET /api/orders/list",
        "GET /api/stock/count",
        "GET /api/stock/{store}/orders/mine",
        "GET /api/ping/now",
    }
    assert prefix_unresolved(SHOP) == []


def test_a_star_re_exported_blueprint_imported_by_name() -> None:
    files = {
        **SHOP,
        "shop/routing.py": (
            "from shop.app import app\n"
            "from shop.views import stock, orders\n"
            "app.register_blueprint(stock, url_prefix='/s')\n"
            "app.register_blueprint(orders, url_prefix='/o')\n"
        ),
    }
    assert {"GET /s/count", "GET /o/list"} <= names(files)


def _two_stars(second_all: str) -> dict[str, str]:
    """`pkg` star-imports `a` then `b`, both binding `bp`; `b`'s `__all__` as given."""
    return {
        "pkg/__init__.py": "from .a import *\nfrom .b import *\n",
        "pkg/a.py": _blueprint("bp", "/from-a"),
        "pkg/b.py": second_all + _blueprint("bp", "/from-b") + "\n" + _blueprint("other", "/o"),
        "main.py": (
            "from flask import Flask\nimport pkg\napp = Flask(__name__)\n"
            "app.register_blueprint(pkg.bp, url_prefix='/x')\n"
            "app.register_blueprint(pkg.other, url_prefix='/y')\n"
        ),
    }


def test_the_last_star_import_that_brings_a_name_wins() -> None:
    assert {"GET /x/from-b", "GET /y/o"} <= names(_two_stars(""))
    assert "GET /x/from-a" not in names(_two_stars(""))


def test_all_limits_what_a_star_import_brings() -> None:
    found = names(_two_stars("__all__ = ['other']\n"))
    assert {"GET /x/from-a", "GET /y/o"} <= found
    assert "GET /x/from-b" not in found


def test_a_private_name_is_not_brought_by_a_star_import() -> None:
    files = {
        "pkg/__init__.py": "from .a import *\n",
        "pkg/a.py": _blueprint("_hidden", "/h"),
        "main.py": (
            "from flask import Flask\nimport pkg\napp = Flask(__name__)\n"
            "app.register_blueprint(pkg._hidden, url_prefix='/x')\n"
        ),
    }
    assert "GET /x/h" not in names(files)


def test_all_may_list_a_name_its_module_star_imports_itself() -> None:
    files = {
        "pkg/__init__.py": "from .mid import *\n",
        "pkg/mid.py": "from .leaf import *\n__all__ = ['bp']\n",
        "pkg/leaf.py": _blueprint("bp", "/leaf"),
        "main.py": (
            "from flask import Flask\nimport pkg\napp = Flask(__name__)\n"
            "app.register_blueprint(pkg.bp, url_prefix='/x')\n"
        ),
    }
    assert names(files) == {"GET /x/leaf"}


def test_a_cycle_of_star_imports_ends() -> None:
    files = {
        "pkg/__init__.py": "from .a import *\n",
        "pkg/a.py": "from .b import *\n",
        "pkg/b.py": "from .a import *\n" + _blueprint("bp", "/b"),
        "main.py": (
            "from flask import Flask\nimport pkg\napp = Flask(__name__)\n"
            "app.register_blueprint(pkg.bp, url_prefix='/x')\n"
            "app.register_blueprint(pkg.missing, url_prefix='/y')\n"
        ),
    }
    assert names(files) == {"GET /x/b"}


def test_a_name_a_function_binds_is_not_re_exported() -> None:
    # the reader folds a function's own names into the file's bindings (app factories link);
    # `from .a import *` takes only what the module binds at its top level
    files = {
        "pkg/__init__.py": "from .a import *\n",
        "pkg/a.py": (
            "from flask import Blueprint\n\n"
            "def make():\n    bp = Blueprint('bp', __name__)\n"
            "    @bp.route('/inner')\n    def inner():\n        return 'x'\n    return bp\n"
        ),
        "main.py": (
            "from flask import Flask\nimport pkg\napp = Flask(__name__)\n"
            "app.register_blueprint(pkg.bp, url_prefix='/x')\n"
        ),
    }
    assert "GET /x/inner" not in names(files)


def test_star_re_exports_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, SHOP, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /api/stock/{store}/orders/mine"' in documents[1]
