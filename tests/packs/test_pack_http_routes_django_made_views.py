"""pack-http-routes on Django URL patterns the project's own code makes (blind round 17's
classes): a list returned by a classmethod or staticmethod of a view class, built by a
comprehension over its argument, a default argument, a module constant or `or` of the two,
its route made by another classmethod from the class's options (an f-string, `+`,
`.format`), its view `cls.as_view(action=...)`, spread into `urlpatterns`; a view made by
calling a project function that returns a def of its own (`error_page(404)`); a view class
below django-formtools' wizard views. Our own code, not a repository's; the routes named are
what Django's resolver serves for these files."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

import pytest  # noqa: E402
from routes_harness import document, finding_places, located, scanned_both_ways  # noqa: E402

SETTINGS = {"site/__init__.py": "", "site/settings.py": "ROOT_URLCONF = 'site.urls'\n"}

CRUD_VIEWS = (
    "from django.urls import path\n"
    "from django.views import View\n"
    "\n"
    "EVERY_ACTION = {'list': {'get': 'listing'}, 'add': {'get': 'form', 'post': 'save'},\n"
    "                'remove': {'post': 'drop'}}\n"
    "PLAIN = ['list', 'show']\n"
    "\n"
    "class Crud(View):\n"
    "    lookup = 'pk'\n"
    "    converter = 'int'\n"
    "\n"
    "    def dispatch(self, request, *args, **kwargs):\n"
    "        return getattr(self, EVERY_ACTION[self.action][request.method.lower()])(request)\n"
    "\n"
    "    @classmethod\n"
    "    def as_view(cls, action):\n"
    "        def view(request, *args, **kwargs):\n"
    "            self = cls()\n"
    "            self.action = action\n"
    "            return self.dispatch(request, *args, **kwargs)\n"
    "        return view\n"
    "\n"
    "    @classmethod\n"
    "    def pattern(cls, base, action):\n"
    "        if action == 'list':\n"
    "            return f'{base}/'\n"
    "        if action == 'add':\n"
    "            return base + '/new/'\n"
    "        return '{}/<{}:{}>/{}/'.format(base, cls.converter, cls.lookup, action)\n"
    "\n"
    "    @classmethod\n"
    "    def get_urls(cls, url_base, url_name, actions=None):\n"
    "        return [path(cls.pattern(url_base, a), cls.as_view(action=a), name=f'{url_name}.{a}')\n"
    "                for a in actions or EVERY_ACTION.keys()]\n"
    "\n"
    "class ShelfView(Crud):\n"
    "    pass\n"
    "\n"
    "class LabelView(Crud):\n"
    "    lookup = 'slug'\n"
    "    converter = 'slug'\n"
    "\n"
    "    def post(self, request, *args, **kwargs):\n"
    "        return None\n"
    "\n"
    "class Board(View):\n"
    "    def get(self, request):\n"
    "        return None\n"
    "\n"
    "    @staticmethod\n"
    "    def routes(base, actions=PLAIN):\n"
    "        return [path(base + '/' + a + '/', Board.as_view()) for a in actions]\n"
)

CLASS_BUILT_LISTS: dict[str, str] = {
    **SETTINGS,
    "site/urls.py": (
        "from django.urls import include, path\n"
        "from desk import views\n"
        "\n"
        "urlpatterns = [\n"
        "    path('desk/', include([\n"
        "        *views.ShelfView.get_urls(url_base='shelves', url_name='shelves'),\n"
        "        *views.LabelView.get_urls(\n"
        "            url_base='labels', url_name='labels', actions=('list', 'remove')\n"
        "        ),\n"
        "    ])),\n"
        "    *views.Board.routes('boards'),\n"
        "]\n"
    ),
    "desk/__init__.py": "",
    "desk/views.py": CRUD_VIEWS,
}


def test_url_lists_a_view_class_builds_list_each_route_with_the_class_methods() -> None:
    assert located(CLASS_BUILT_LISTS) == {
        # `Crud` takes every method in its own `dispatch`, as a function view
        "ANY /desk/shelves/": "site/urls.py:6",
        "ANY /desk/shelves/new/": "site/urls.py:6",
        "ANY /desk/shelves/{pk}/remove/": "site/urls.py:6",
        # a subclass's own options and handlers
        "POST /desk/labels/": "site/urls.py:7",
        "POST /desk/labels/{slug}/remove/": "site/urls.py:7",
        # a staticmethod over a module constant given as its default
        "GET /boards/list/": "desk/views.py:52",
        "GET /boards/show/": "desk/views.py:52",
    }
    assert finding_places(CLASS_BUILT_LISTS) == {}


def test_a_module_list_changed_after_it_is_bound_is_not_read_as_written() -> None:
    files = dict(CLASS_BUILT_LISTS)
    files["desk/views.py"] = CRUD_VIEWS + "PLAIN.append(compute())\n"
    names = set(located(files))
    assert "GET /boards/list/" not in names
    assert "site/urls.py:11" in finding_places(files)["UNRESOLVED_ROUTER"]


def test_actions_the_pack_cannot_list_are_a_finding_at_the_call() -> None:
    files = dict(CLASS_BUILT_LISTS)
    files["site/urls.py"] = files["site/urls.py"].replace(
        "url_name='shelves'", "url_name='shelves', actions=load_actions()"
    )
    names = set(located(files))
    assert not any(n.startswith("ANY /desk/shelves/") for n in names)
    assert "site/urls.py:6" in finding_places(files)["UNRESOLVED_ROUTER"]


FACTORY_VIEWS: dict[str, str] = {
    **SETTINGS,
    "site/urls.py": (
        "from django.urls import path\n"
        "from desk.pages import status_page, api_status\n"
        "\n"
        "urlpatterns = [\n"
        "    path('410', status_page(410)),\n"
        "    path('503', status_page(code=503)),\n"
        "    path('api/410', api_status(410)),\n"
        "]\n"
    ),
    "desk/__init__.py": "",
    "desk/pages.py": (
        "from django.views.decorators.http import require_GET, require_POST\n"
        "\n"
        "def gone(request, *args, **kwargs):\n"
        "    return None\n"
        "\n"
        "def status_page(code):\n"
        "    if code == 410:\n"
        "        return gone\n"
        "    def render(request, *args, **kwargs):\n"
        "        return code\n"
        "    return render\n"
        "\n"
        "def api_status(code):\n"
        "    if code > 500:\n"
        "        @require_POST\n"
        "        def other(request):\n"
        "            return code\n"
        "        return other\n"
        "    @require_GET\n"
        "    def render(request):\n"
        "        return code\n"
        "    return render\n"
    ),
}


def test_a_view_a_project_function_makes_answers_what_the_defs_it_returns_answer() -> None:
    assert located(FACTORY_VIEWS) == {"ANY /410": "site/urls.py:5", "ANY /503": "site/urls.py:6"}
    # `api_status` returns either of two defs answering different methods: not listed, said
    assert finding_places(FACTORY_VIEWS) == {"UNRESOLVED_ROUTE": ["site/urls.py:7"]}


def test_a_view_factory_returning_what_the_pack_cannot_follow_is_a_finding() -> None:
    files = dict(FACTORY_VIEWS)
    files["desk/pages.py"] = files["desk/pages.py"].replace("return gone", "return make(gone)")
    assert "ANY /410" not in located(files)
    assert "site/urls.py:5" in finding_places(files)["UNRESOLVED_ROUTER"]


WIZARDS: dict[str, str] = {
    **SETTINGS,
    "site/urls.py": (
        "from django.urls import path\n"
        "from desk import views\n"
        "\n"
        "urlpatterns = [\n"
        "    path('signup/', views.Signup.as_view()),\n"
        "    path('order/<step>/', views.Order.as_view()),\n"
        "]\n"
    ),
    "desk/__init__.py": "",
    "desk/views.py": (
        "from formtools.wizard.views import SessionWizardView\n"
        "from formtools.wizard import views as wizard\n"
        "\n"
        "class Signup(SessionWizardView):\n"
        "    def done(self, form_list, **kwargs):\n"
        "        return None\n"
        "\n"
        "class Order(wizard.NamedUrlCookieWizardView):\n"
        "    def done(self, form_list, **kwargs):\n"
        "        return None\n"
    ),
}


def test_a_view_below_a_formtools_wizard_answers_get_and_post() -> None:
    assert sorted(located(WIZARDS)) == [
        "GET /order/{step}/",
        "GET /signup/",
        "POST /order/{step}/",
        "POST /signup/",
    ]
    assert document(WIZARDS)["findings"] == []


def test_a_classmethod_extending_its_bases_list_through_super_reads_the_subclass() -> None:
    files = {
        **SETTINGS,
        "site/urls.py": (
            "from django.urls import path\n"
            "from desk import views\n"
            "\n"
            "urlpatterns = [*views.Extra.get_urls('extras', 'extras', ('list',))]\n"
        ),
        "desk/__init__.py": "",
        "desk/views.py": CRUD_VIEWS
        + (
            "\n"
            "class Extra(Crud):\n"
            "    lookup = 'code'\n"
            "\n"
            "    @classmethod\n"
            "    def get_urls(cls, url_base, url_name, actions=None):\n"
            "        return super().get_urls(url_base, url_name, actions) + [\n"
            "            path(cls.pattern(url_base, 'export'), cls.as_view(action='export'))\n"
            "        ]\n"
        ),
    }
    assert located(files) == {
        "ANY /extras/": "site/urls.py:4",
        "ANY /extras/{code}/export/": "site/urls.py:4",
    }
    assert finding_places(files) == {}


@pytest.mark.parametrize("files", [CLASS_BUILT_LISTS, FACTORY_VIEWS, WIZARDS])
def test_the_pre_filter_reads_the_same(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"resources": []' not in documents[0]
