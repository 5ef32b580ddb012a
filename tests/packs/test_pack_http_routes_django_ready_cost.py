"""What reading views an app's `AppConfig.ready()` registers costs (`packs/routes/
django_registries.py`): a generated repository of many registries (a module-level dict, a
decorator function filling it, a URL builder reading it) and many apps whose `ready()` loops
over their models calling those functions. Every registry made used to run every app's
`ready()` again (450 registries x 30 apps: 67,500 runs, past any request's deadline); the
registrations `ready()` makes are computed once a link and each registry reads them. The cost
is counted, never timed: the scan's clock is the number of statements and expressions the
evaluator has run, and a spy counts the runs of each app's `ready()`."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import django_collect, django_registries  # noqa: E402
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

    def counted_ready(collector: django_collect.Collector, config: django_collect.Ref) -> bool:
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


def test_the_evaluation_grows_with_the_registries_not_with_their_square(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four times the registries (and the apps) cost at most about four times the evaluator
    steps (the old runs of every `ready()` for each registry grew sixteenfold)."""
    small = counted_scan(tmp_path / "small", registries_and_apps(3, 5), monkeypatch, 10**9)
    large = counted_scan(tmp_path / "large", registries_and_apps(12, 5), monkeypatch, 10**9)
    assert small[0]["findings"] == [] and large[0]["findings"] == []
    assert sorted(str(r["name"]) for r in large[0]["resources"]) == expected(12, 5)
    assert large[2] <= 5 * small[2]
