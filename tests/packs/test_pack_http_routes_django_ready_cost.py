"""What the Django reader's evaluation of a project's code costs as a repository grows
(`packs/routes/django_registries.py`, `django_collect.py`), on generated repositories: many
registries (a module-level dict, a decorator function filling it, a URL builder reading it)
with many apps whose `AppConfig.ready()` loops over their models calling those functions
(every registry made used to run every app's `ready()` again: 450 registries x 30 apps,
67,500 runs, past any request's deadline; they now run once a link and each registry reads
what they registered); and many URLconfs each filling a collector object of its own. The
cost is counted, never timed: a scan's clock is the number of statements and expressions the
evaluator has run, a spy counts the runs of each `ready()`, a profile hook the calls made."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import django_collect, django_registries, django_values  # noqa: E402
from packs.scan import JSONObject  # noqa: E402
from routes_harness import write_files  # noqa: E402

MODELS = ("widget", "gadget")


def registries_and_apps(apps: int, per_app: int) -> dict[str, str]:
    """`apps` apps, each with two models and a `ready()` that hands them to a function of its
    own calling `per_app` registries' decorators (`regNNN.page_for(cls, action)(view)`), and a
    URLconf including each registry's URL builder for each model."""
    names = [f"app{k:02}" for k in range(apps)]
    files = {
        "site_cfg/__init__.py": "",
        "site_cfg/settings.py": (f"ROOT_URLCONF = 'site_cfg.urls'\nINSTALLED_APPS = {names!r}\n"),
        "site_cfg/urls.py": (
            "from django.urls import include, path\n\nurlpatterns = [\n"
            + "".join(f"    path('{n}/', include('{n}.urls')),\n" for n in names)
            + "]\n"
        ),
        "core/__init__.py": "",
        "core/models.py": (
            "from django.db import models\n\n\nclass Auditable(models.Model):\n"
            "    class Meta:\n        abstract = True\n"
        ),
        "core/generic.py": (
            "from django.http import HttpResponse\nfrom django.views import View\n\n\n"
            "class AuditView(View):\n    def get(self, request, **kw):\n"
            "        return HttpResponse('')\n"
        ),
    }
    for number in range(apps * per_app):
        files[f"core/reg{number:03}.py"] = (
            "from django.urls import path\n"
            "from django.utils.module_loading import import_string\n"
            "\n"
            "PAGES = {}\n"
            "\n"
            "\n"
            "def page_for(model, action):\n"
            "    def wrap(view):\n"
            "        meta = model._meta\n"
            "        per_app = PAGES.setdefault(meta.app_label, {})\n"
            "        per_app.setdefault(meta.model_name, []).append((action, view))\n"
            "        return view\n"
            "    return wrap\n"
            "\n"
            "\n"
            "def model_urls(app, model):\n"
            "    out = []\n"
            "    for action, view in PAGES.get(app, {}).get(model, []):\n"
            "        if isinstance(view, str):\n"
            "            view = import_string(view)\n"
            "        out.append(path(action + '/', view.as_view()))\n"
            "    return out\n"
        )
    for k, name in enumerate(names):
        used = [f"reg{k * per_app + j:03}" for j in range(per_app)]
        files[f"{name}/__init__.py"] = ""
        files[f"{name}/apps.py"] = (
            "from django.apps import AppConfig\n\n\nclass Config(AppConfig):\n"
            f"    name = '{name}'\n\n    def ready(self):\n        from {name} import traits\n\n"
            "        traits.enable(*self.get_models())\n"
        )
        files[f"{name}/models.py"] = (
            "from core.models import Auditable\n\n\n"
            "class Widget(Auditable):\n    pass\n\n\nclass Gadget(Auditable):\n    pass\n"
        )
        files[f"{name}/traits.py"] = (
            f"from core import {', '.join(used)}\n"
            "from core.models import Auditable\n\n\n"
            "def enable(*models):\n"
            "    for cls in models:\n"
            "        if issubclass(cls, Auditable):\n"
            + "".join(
                f"            {r}.page_for(cls, '{r}')('core.generic.AuditView')\n" for r in used
            )
        )
        files[f"{name}/urls.py"] = (
            f"from django.urls import include, path\n\nfrom core import {', '.join(used)}\n\n"
            "urlpatterns = [\n"
            + "".join(
                f"    path('{m}/', include({r}.model_urls('{name}', '{m}'))),\n"
                for r in used
                for m in MODELS
            )
            + "]\n"
        )
    return files


def expected(apps: int, per_app: int) -> list[str]:
    return sorted(
        f"GET /app{k:02}/{m}/reg{k * per_app + j:03}/"
        for k in range(apps)
        for j in range(per_app)
        for m in MODELS
    )


def counted_scan(
    root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch, deadline_steps: int
) -> tuple[JSONObject, Counter[tuple[int, str]], int]:
    """`files` scanned as the pack scans (the pre-filter) with a soft deadline of
    `deadline_steps` evaluator steps (its clock: one millisecond a step); the document, the
    runs of each app's `ready()` by (link, app), and the steps run."""
    write_files(root, files)
    monkeypatch.chdir(root)
    steps = [0]
    spend = django_collect.Collector.spend

    def counted_spend(collector: django_collect.Collector) -> None:
        steps[0] += 1
        spend(collector)

    runs: Counter[tuple[int, str]] = Counter()
    ready = django_registries._ready

    def counted_ready(collector: django_collect.Collector, config: django_values.Ref) -> bool:
        runs[(id(collector), config.file)] += 1
        return ready(collector, config)

    monkeypatch.setattr(django_collect.Collector, "spend", counted_spend)
    monkeypatch.setattr(django_registries, "_ready", counted_ready)
    scanner = make_scanner()
    scanner.workers = 1
    scanner.pace.deadline_ms = deadline_steps
    scanner.pace.clock = lambda: steps[0] / 1000
    document = scanner.discover(["."])
    return document, runs, steps[0]


def test_each_app_s_ready_runs_once_a_link_whatever_the_number_of_registries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """450 registries and 30 apps: every route the registries give is listed, no deadline is
    reached (1,000,000 evaluator steps; the old per-registry runs of `ready()` took millions),
    and each link runs each app's `ready()` exactly once."""
    apps, per_app = 30, 15
    document, runs, steps = counted_scan(
        tmp_path, registries_and_apps(apps, per_app), monkeypatch, 1_000_000
    )
    assert document["findings"] == []
    assert sorted(str(r["name"]) for r in document["resources"]) == expected(apps, per_app)
    links = {link for link, _ in runs}
    assert links
    every_app = {f"app{k:02}/apps.py" for k in range(apps)}
    for link in links:
        assert {app for (at, app), n in runs.items() if at == link and n == 1} == every_app
    assert set(runs.values()) == {1}
    assert steps < 1_000_000


def test_the_work_grows_with_the_registries_and_apps_not_with_their_product(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four times the apps (and so the registries) cost at most 4.5 times the calls the scan
    makes (3.9 now): the apps' `ready()` run once a link, and a registry finds its fillers,
    decorator sites and runtime calls through indexes made once a link, not by reading every
    module again (every `ready()` run for each registry grew with the product)."""
    small = calls_made(tmp_path / "small", registries_and_apps(3, 5), monkeypatch)
    large = calls_made(tmp_path / "large", registries_and_apps(12, 5), monkeypatch)
    assert small[0]["findings"] == [] and large[0]["findings"] == []
    assert sorted(str(r["name"]) for r in large[0]["resources"]) == expected(12, 5)
    assert large[1] <= 4.5 * small[1]


def collector_objects(count: int) -> dict[str, str]:
    """`count` URLconfs, each filling a module-level collector object of its own name
    (`links007 = Links()`, `links007.add(...)` at import), taking its patterns from it, and
    making forty other module-level calls after (`checks.note(...)`)."""
    files = {
        "site_cfg/__init__.py": "",
        "site_cfg/settings.py": "ROOT_URLCONF = 'site_cfg.urls'\n",
        "site_cfg/urls.py": (
            "from django.urls import include, path\n\nurlpatterns = [\n"
            + "".join(f"    path('m{n:03}/', include('m{n:03}.urls')),\n" for n in range(count))
            + "]\n"
        ),
        "core/__init__.py": "",
        "core/links.py": (
            "from django.urls import path\n"
            "\n"
            "\n"
            "class Links:\n"
            "    def __init__(self):\n"
            "        self.items = []\n"
            "\n"
            "    def add(self, route, view):\n"
            "        self.items.append(path(route, view))\n"
            "\n"
            "    def urls(self):\n"
            "        return self.items\n"
        ),
        "core/checks.py": "def note(*args):\n    return None\n",
        "core/views.py": (
            "from django.http import HttpResponse\nfrom django.views import View\n\n\n"
            "class Page(View):\n    def get(self, request):\n        return HttpResponse('')\n"
        ),
    }
    for n in range(count):
        files[f"m{n:03}/__init__.py"] = ""
        files[f"m{n:03}/urls.py"] = (
            "from core import checks\n"
            "from core.links import Links\n"
            "from core.views import Page\n"
            "\n"
            f"links{n:03} = Links()\n"
            f"links{n:03}.add('a/', Page.as_view())\n"
            f"links{n:03}.add('b/', Page.as_view())\n"
            "\n"
            f"urlpatterns = links{n:03}.urls()\n"
            "\n" + "".join(f"checks.note('m{n:03}', {k})\n" for k in range(40))
        )
    return files


def calls_made(
    root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[JSONObject, int]:
    """`files` scanned as the pack scans them, and the calls (Python and built-in) the scan
    made: the work, counted."""
    write_files(root, files)
    monkeypatch.chdir(root)
    scanner = make_scanner()
    scanner.workers = 1
    made = [0]

    def count(frame: object, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            made[0] += 1

    sys.setprofile(count)
    try:
        document = scanner.discover(["."])
    finally:
        sys.setprofile(None)
    return document, made[0]


def test_each_collector_object_finds_the_calls_naming_it_without_reading_every_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module-level collector object is filled by the module-level calls spelling its name,
    in any module: they are found through an index of the calls by the words they spell, not
    by searching every module's calls for each object made. Four times the URLconfs make at
    most 4.5 times the calls (4.0 now; searching made it 5.8, growing with the square)."""
    small = calls_made(tmp_path / "small", collector_objects(30), monkeypatch)
    large = calls_made(tmp_path / "large", collector_objects(120), monkeypatch)
    for count, (document, _) in ((30, small), (120, large)):
        assert document["findings"] == []
        assert sorted(str(r["name"]) for r in document["resources"]) == sorted(
            f"GET /m{n:03}/{part}/" for n in range(count) for part in "ab"
        )
    assert large[1] <= 4.5 * small[1]
