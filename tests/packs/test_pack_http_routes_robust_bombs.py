"""pack-http-routes on hostile repositories aimed at this session's evaluators (attack-12): a
format width or `%` width that pads a path to a gigabyte, locals doubled into each other, a
class that is its own base through imports, `INSTALLED_APPS` doubled in the settings. Each
costs a finding at the route, never the document (an out-of-memory kill, a recursion error,
a scan exponential in the file). The sizes here are small enough for today's main to finish
wrong (a padded path listed, a tree of 2^15 nodes); the real bombs use widths of 10^9 and
forty doublings, which the same guards stop."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.bounded_values import MAX_LENGTH
from packs.routes import extract
from routes_harness import document, finding_places, placed

PADDED: dict[str, str] = {
    "pad/__init__.py": "",
    "pad/app.py": (
        "from flask import Flask\n"
        "\n"
        "app = Flask(__name__)\n"
        "\n"
        "@app.route('{:>5000}'.format('/wide'))\n"
        "def wide():\n"
        "    return ''\n"
        "\n"
        "@app.route('%5000s' % '/percent')\n"
        "def percent():\n"
        "    return ''\n"
        "\n"
        "class Views:\n"
        "    PREFIX = '/v'\n"
        "\n"
        "    @classmethod\n"
        "    def register(cls, target):\n"
        "        target.add_url_rule(cls.PREFIX + '{:>5000}'.format('x'), 'a', wide)\n"
        "        name = 'y'\n"
        "        target.add_url_rule(cls.PREFIX + f'/{name:>5000}', 'b', wide)\n"
        "        target.add_url_rule(cls.PREFIX + '/{}/{k}'.format('ok', k='fine'), 'c', wide)\n"
        "\n"
        "Views.register(app)\n"
    ),
}


def test_a_format_or_percent_width_is_a_finding_not_a_padded_path() -> None:
    """`"{:>999999999}".format(x)` and `"%999999999s" % x` ran unguarded in the linker (an
    out-of-memory kill); they now follow the table packs' rules (`computed_names`)."""
    assert placed(PADDED) == {"GET /v/ok/fine": "pad/app.py:23 flask"}  # at the call
    assert sorted(finding_places(PADDED)["UNRESOLVED_ROUTE"]) == [
        "pad/app.py:18",
        "pad/app.py:20",
        "pad/app.py:23",
        "pad/app.py:23",
        "pad/app.py:5",
        "pad/app.py:9",
    ]


def _doubled(count: int) -> str:
    lines = ["from flask import Flask", "app = Flask(__name__)", "def wire(app):", "    p0 = '/ab'"]
    lines += [f"    p{i} = p{i - 1} + p{i - 1}" for i in range(1, count + 1)]
    lines += [f"    app.add_url_rule(p{count}, 'v', lambda: '')", "    app.add_url_rule('/ok', 'w', lambda: '')", "wire(app)"]  # fmt: skip
    return "\n".join(lines) + "\n"


def test_a_path_doubled_past_the_cap_is_a_finding() -> None:
    """Twelve doublings make a path of 12,292 characters: past the cap, a finding."""
    files = {"app.py": _doubled(12)}
    assert placed(files) == {"GET /ok": "app.py:18 flask"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["app.py:17", "app.py:19"]
    assert all(len(str(r["name"])) <= MAX_LENGTH for r in document(files)["resources"])


def test_locals_made_of_each_other_are_read_within_the_files_budget() -> None:
    """Each local was read in again wherever it is used: fifteen doublings built a path of
    2^15 parts (forty would never end); the file's reads now share one budget."""
    facts = extract("app.py", _doubled(15))
    [doubled, fine] = facts.routes
    assert len(repr(doubled.path)) < 100_000
    assert repr(fine.path) == "Lit(value='/ok')"


SELF_BASED: dict[str, str] = {
    "a.py": (
        "from b import B as Base\n"
        "class A(Base):\n"
        "    P = '/a'\n"
        "    @classmethod\n"
        "    def reg(cls, app):\n"
        "        super().reg(app)\n"
        "        app.add_url_rule(cls.P + '/x', 'v', lambda: '')\n"
    ),
    "b.py": (
        "from a import A as Base\n"
        "class B(Base):\n"
        "    @classmethod\n"
        "    def reg(cls, app):\n"
        "        cls.reg(app)\n"
        "        app.add_url_rule(cls.Q + '/y', 'w', lambda: '')\n"
    ),
    "main.py": (
        "from flask import Flask\n"
        "from a import A\n"
        "from b import B\n"
        "app = Flask(__name__)\n"
        "A.reg(app)\n"
        "B.reg(app)\n"
    ),
}


def test_a_class_that_is_its_own_base_through_imports_ends() -> None:
    """`class A(B)` and `class B(A)` in two modules: looking an attribute up through the bases
    recursed until Python's limit (RecursionError, the whole document lost)."""
    assert placed(SELF_BASED) == {"GET /a/x": "a.py:7 flask"}
    assert finding_places(SELF_BASED)["UNRESOLVED_ROUTE"] == ["b.py:6", "main.py:5", "main.py:6"]


def test_installed_apps_doubled_past_the_cap_are_computed() -> None:
    """`INSTALLED_APPS += INSTALLED_APPS` sixty times asked for 2^60 names (an out-of-memory
    kill); past the cap the setting is computed, a finding at the loop over the apps."""
    files = {
        "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings')\n",
        "proj/__init__.py": "",
        "proj/settings.py": (
            "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['a']\n"
            + "INSTALLED_APPS += INSTALLED_APPS\n" * 13
        ),
        "proj/urls.py": (
            "from django.apps import apps\nfrom django.urls import include, path\n"
            "urlpatterns = [path('', include(c.name + '.urls')) for c in apps.get_app_configs()]\n"
        ),
        "a/__init__.py": "",
        "a/urls.py": (
            "from django.urls import path\ndef v(r):\n    return None\n"
            "urlpatterns = [path('z/', v)]\n"
        ),
    }
    [finding] = document(files)["findings"]
    assert "`INSTALLED_APPS` of proj/settings.py is computed" in str(finding["detail"])


def _include_tree(depth: int) -> dict[str, str]:
    """Each URLconf includes the next twice, under prefixes with optional groups (eight
    variants and four): 12^depth walks to the last one, whose own pattern is not nameable."""
    files = {
        "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings')\n",
        "proj/__init__.py": "",
        "proj/settings.py": "ROOT_URLCONF = 'u0'\nINSTALLED_APPS = []\n",
    }
    for i in range(depth):
        files[f"u{i}.py"] = (
            "from django.urls import include, re_path\n"
            f"urlpatterns = [re_path(r'^(?:a/)?(?:b/)?(?:c/)?', include('u{i + 1}')),\n"
            f"               re_path(r'^(x)?(y)?/', include('u{i + 1}'))]\n"
        )
    groups = "".join(f"(?:g{i}/)?" for i in range(20))
    files[f"u{depth}.py"] = (
        "from django.urls import re_path\ndef v(r):\n    return None\n"
        f"urlpatterns = [re_path(r'^{groups}leaf$', v)]\n"
    )
    return files


def test_includes_multiplied_by_optional_groups_stop_at_the_link_budget() -> None:
    """The Django walk spent no budget: thirty levels never ended (five took seconds); it now
    spends the linker's, and the patterns it did not follow are `LINK_BUDGET_EXCEEDED`."""
    places = finding_places(_include_tree(5))
    assert places["UNRESOLVED_ROUTE"] == ["u5.py:4"]
    assert places["LINK_BUDGET_EXCEEDED"]
    assert all(p.startswith("u") for p in places["LINK_BUDGET_EXCEEDED"])


INCLUDE_CYCLE: dict[str, str] = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'ring.settings')\n",
    "ring/__init__.py": "",
    "ring/settings.py": "ROOT_URLCONF = 'ring.urls'\n",
    "ring/views.py": "def home(request):\n    return None\n",
    "ring/urls.py": (
        "from django.urls import include, path\n"
        "from . import views\n"
        "\n"
        "urlpatterns = [\n"
        "    path('', views.home),\n"
        "    path('more/', include('ring.inner')),\n"
        "]\n"
    ),
    "ring/inner.py": (
        "from django.urls import include, path\n"
        "from . import views\n"
        "\n"
        "urlpatterns = [\n"
        "    path('in/', views.home),\n"
        "    path('again/', include('ring.urls')),\n"
        "]\n"
    ),
}


def test_urlconfs_that_include_each_other_are_listed_once_with_a_finding_where_it_closes() -> None:
    """`a.urls` includes `b.urls`, which includes `a.urls` again: Django serves the paths
    without end. The walk stopped there quietly; the place where the loop closes is now a
    finding, and what one pass serves is still listed."""
    assert set(placed(INCLUDE_CYCLE)) == {"ANY /", "ANY /more/in/"}
    assert finding_places(INCLUDE_CYCLE)["UNRESOLVED_ROUTER"] == ["ring/inner.py:6"]
