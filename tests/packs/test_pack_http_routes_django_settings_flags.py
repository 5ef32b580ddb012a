"""pack-http-routes: Django URL patterns added under a module-level `if` on a setting the
project's settings module gives a constant (`OPEN_FEED = False`): that constant is its default
configuration as surely as an environment variable's default is, so a pattern the branch does
not add is not listed and a finding at it says why, naming the settings line; the `else`
branch is listed. The tests read `settings.X`, `hasattr(settings, "X") and settings.X` and
`getattr(settings, "X", default)` (whose default decides where no settings module sets `X`).
A star import of a local module the repository does not hold (`from .overrides import *`
under `try`) is a local override left out, not the default; where the value cannot be known
(a module in the repository that may override it, two settings modules that disagree, a
value chosen in an `if` or computed) the pattern is walked as before. Every fixture here is
our own."""

from __future__ import annotations

from routes_harness import document

VIEWS = "".join(
    f"def {name}(request): ...\n"
    for name in ("home", "feed", "tix", "badge", "plain", "sso", "local", "mirror", "extra")
)

SETTINGS = (
    "import os\n"
    "ROOT_URLCONF = 'hall.urls'\n"
    "OPEN_FEED = False\n"
    "TICKETS = True\n"
    "BADGES = False\n"
    "SSO = 0\n"
    "MIRROR = int(os.environ.get('HALL_MIRROR', 0))\n"
    "try:\n"
    "    from .overrides import *\n"
    "except ImportError:\n"
    "    pass\n"
)

URLS = (
    "from django.conf import settings\n"
    "from django.urls import path\n"
    "from hall import views\n"
    "urlpatterns = [path('', views.home)]\n"
    "if settings.OPEN_FEED:\n"
    "    urlpatterns.append(path('feed/', views.feed))\n"
    "if hasattr(settings, 'TICKETS') and settings.TICKETS:\n"
    "    urlpatterns.append(path('tix/', views.tix))\n"
    "if hasattr(settings, 'BADGES') and settings.BADGES:\n"
    "    urlpatterns.append(path('badge/', views.badge))\n"
    "else:\n"
    "    urlpatterns.append(path('plain/', views.plain))\n"
    "if getattr(settings, 'SSO', True):\n"
    "    urlpatterns.append(path('sso/', views.sso))\n"
    "if getattr(settings, 'LOCAL_ONLY', False):\n"
    "    urlpatterns.append(path('local/', views.local))\n"
    "if not settings.MIRROR:\n"
    "    urlpatterns.append(path('mirror/', views.mirror))\n"
    "if hasattr(settings, 'EXTRA') and settings.EXTRA:\n"
    "    urlpatterns.append(path('extra/', views.extra))\n"
)

HALL = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hall.settings')\n",
    "hall/__init__.py": "",
    "hall/settings.py": SETTINGS,
    "hall/views.py": VIEWS,
    "hall/urls.py": URLS,
}

EVERY = {f"ANY /{p}" for p in ("", "feed/", "tix/", "badge/", "plain/", "sso/", "local/")}
EVERY |= {"ANY /mirror/", "ANY /extra/"}


def _names(files: dict[str, str]) -> set[str]:
    return {str(r["name"]) for r in document(files)["resources"]}


def _off(files: dict[str, str]) -> dict[int, str]:
    """The URLconf's line -> the detail of the finding there."""
    return {
        int(place["line"]): str(f["detail"])
        for f in document(files)["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for place in f["locations"]
    }


def test_a_pattern_the_settings_constant_turns_off_is_a_finding_naming_the_constant() -> None:
    # `MIRROR` is computed (`int()` of an environment read): walked as before
    assert _names(HALL) == {"ANY /", "ANY /tix/", "ANY /plain/", "ANY /mirror/"}
    off = _off(HALL)
    assert sorted(off) == [6, 10, 14, 16, 20]
    assert off[6] == (
        "this URL pattern is added only when `settings.OPEN_FEED` is true; under the "
        "configuration's defaults (`OPEN_FEED = False` at hall/settings.py:3) it is false: "
        "it is not listed"
    )
    assert "(`BADGES = False` at hall/settings.py:5)" in off[10]
    assert "(`SSO = 0` at hall/settings.py:6)" in off[14]
    # no settings module sets it: the test's own reading (`getattr`'s default, `hasattr`'s false)
    assert "(`LOCAL_ONLY` is set by none of hall/settings.py) it is false" in off[16]
    assert "(`EXTRA` is set by none of hall/settings.py) it is false" in off[20]


def test_a_local_module_in_the_repository_that_may_override_leaves_the_pattern_walked() -> None:
    files = {**HALL, "hall/overrides.py": "OPEN_FEED = True\nBADGES = False\nEXTRA = 1\n"}
    names = _names(files)
    # set in two modules: not known which wins; `SSO` is bound in one only: still decided
    assert {"ANY /feed/", "ANY /badge/", "ANY /plain/", "ANY /extra/"} <= names
    assert "ANY /sso/" not in names
    assert sorted(_off(files)) == [14, 16]


def test_settings_modules_that_disagree_or_a_value_chosen_in_an_if_leave_it_walked() -> None:
    other = SETTINGS.replace("OPEN_FEED = False", "OPEN_FEED = True").replace(
        "SSO = 0\n", "SSO = 0\nif os.environ.get('CI'):\n    SSO = 1\n"
    )
    files = {
        **HALL,
        "hall/wsgi.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hall.live')\n",
        "hall/live.py": other,
    }
    names = _names(files)
    assert {"ANY /feed/", "ANY /sso/"} <= names
    # both modules say `BADGES = False`: decided, named at the first settings module read
    assert "ANY /badge/" not in names
    off = _off(files)
    assert sorted(off) == [10, 16, 20]
    assert "(`BADGES = False` at hall/live.py:5)" in off[10]
    assert "set by none of hall/live.py, hall/settings.py" in off[16]
