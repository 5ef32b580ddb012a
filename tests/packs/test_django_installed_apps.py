"""pack-django lists the models of the apps the settings install, as Django's app registry does
(`apps.get_models()`): a package left out of `INSTALLED_APPS` makes no table (issue 34,
precision). Fixtures under tests/fixtures/exactness/django-installed-*, each scanned with the
pre-filter and without it; the expected tables are what Django 5.1.4's `apps.get_models()`
lists for each fixture's settings."""

from __future__ import annotations

import sys
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_django
from packs import django_apps, django_models
from packs.pyparse import parse_python
from packs.scan import Scanner

FIXTURES = REPO / "tests" / "fixtures" / "exactness"


def _discover(folder: str) -> dict[str, Any]:
    """The document of a pre-filtered scan, held to a parse-all one's."""

    def scan(parse_all: bool) -> dict[str, Any]:
        return Scanner((".py",), django_models.extract, django_models.link, language="Python",
                       root=str(FIXTURES / folder), workers=1, keywords=pack_django.KEYWORDS,
                       base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                       fields=pack_django.FIELDS, parse_all=parse_all).discover(["."])  # fmt: skip

    document = scan(False)
    assert document == scan(True)
    return document


def _tables(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["name"], r["location"]["path"]) for r in document["resources"]]


def test_split_settings_install_only_the_apps_they_name() -> None:
    """Settings over two modules (`from .common import *`, the one `manage.py` names), lists
    joined by name (`FRAMEWORK_APPS + list(OWN_APPS)`), an app commented out, an env-driven
    addition with its default written, an `.append` under `if DEBUG:`, an `AppConfig` path
    with a label of its own: a package no entry names is no table, a model of it with an
    installed `Meta.app_label` is."""
    document = _discover("django-installed-split")
    assert _tables(document) == [
        ("audit_trail", "web/apps/audit/models.py"),
        ("books_entry", "web/apps/ledger/models.py"),  # LedgerConfig.label = "books"
        ("tickets_adopted", "web/orphans/extra.py"),  # Meta.app_label = "tickets"
        ("shared_setting", "web/shared/models.py"),  # env.list(..., default=["shared"])
        ("tickets_ticket", "web/tickets/models.py"),
        ("tickets_ticket_watchers", "web/tickets/models.py"),
    ]  # not retired_relic (commented out), not orphans_stray (never installed)
    assert document["findings"] == []


def test_a_src_layout_with_star_lists_extend_remove_and_a_default_app_config() -> None:
    """No `manage.py` and no `DJANGO_SETTINGS_MODULE`: the one settings file that binds
    `INSTALLED_APPS`, read through `[*BASE, ...]`, `.extend`, `.remove` and
    `os.environ.get(..., "cellar").split(",")`; `garden`'s only `AppConfig` is Django's
    default for it (its label names the table); a dotted app (`kitchen.pantry`) holds its
    `models/` package but not its parent's `kitchen/models.py`."""
    document = _discover("django-installed-flat")
    assert _tables(document) == [
        ("cellar_barrel", "src/cellar/models.py"),
        ("plots_plant", "src/garden/models.py"),
        ("pantry_jar", "src/kitchen/pantry/models/jar.py"),
    ]  # not attic_box (removed), not kitchen_stove (`kitchen` is not installed)
    assert document["findings"] == []


def test_computed_installed_apps_keep_every_model_and_say_so_at_the_settings() -> None:
    """`INSTALLED_APPS += discover_apps()`: which apps it adds is not known, so every model
    is listed as before, with a finding where the value becomes partly computed."""
    document = _discover("django-installed-computed")
    assert _tables(document) == [
        ("alpha_ant", "alpha/models.py"),
        ("beta_bee", "beta/models.py"),
        # a plugin whose `AppConfig` its package's `__init__` defines (its entry point names
        # it): that config's label, not the package's last name (blind25m's pulpcore)
        ("gamma_gnat", "gamma/app/models.py"),
    ]
    assert document["findings"] == [
        {
            "code": "UNRESOLVED_INSTALLED_APPS",
            "detail": "INSTALLED_APPS is partly computed here (`discover_apps()`): the apps it "
            "adds are not known, so the models of packages the written part does not name are "
            "listed too",
            "locations": [{"path": "proj/settings.py", "line": 5}],
        }
    ]


def test_a_partly_computed_list_labels_the_written_apps_and_keeps_the_others() -> None:
    """`[*find_extensions(), *CORE_APPS, "x.apps.XConfig"]`: the written part's apps take
    their configs' labels (`shop_billing`, the named `CatalogSetup`'s `cat` over the
    `default = True` one); a package it does not name keeps its models, labelled by its own
    `apps.py` as Django picks it (the `default = True` config's `gadget_x`, the only config's
    `name` ending `widgets`). Django 5.1.4, `find_extensions()` returning gadgets and widgets,
    lists cat_item, gadget_x_gizmo, shop_billing_invoice, widgets_knob; `spare_part` is kept
    as one the computed part may install."""
    document = _discover("django-installed-partial")
    assert _tables(document) == [
        ("gadget_x_gizmo", "extensions/gadgets/models.py"),
        ("spare_part", "extensions/unused/models.py"),
        ("widgets_knob", "extensions/widgets/models.py"),
        ("shop_billing_invoice", "shop/billing/models.py"),
        ("cat_item", "shop/catalog/models.py"),
    ]
    assert document["findings"] == [
        {
            "code": "UNRESOLVED_INSTALLED_APPS",
            "detail": "INSTALLED_APPS is partly computed here (`find_extensions()`): the apps "
            "it adds are not known, so the models of packages the written part does not name "
            "are listed too",
            "locations": [{"path": "conf/settings.py", "line": 5}],
        }
    ]


def test_a_wholly_computed_list_still_labels_each_app_by_its_own_config() -> None:
    """`INSTALLED_APPS = load_apps()`: every model is listed, each under the label its
    package's `apps.py` gives (`apiary`, as Django 5.1.4 names the table)."""
    document = _discover("django-installed-opaque")
    assert _tables(document) == [("apiary_hive", "hives/models.py")]
    assert [f["locations"] for f in document["findings"]] == [
        [{"path": "cfg/settings.py", "line": 4}]
    ]


def test_a_branch_adds_apps_but_removes_none_and_a_rebinding_from_an_import_is_followed() -> None:
    """Either branch may run: its additions are kept, a removal under it is not applied; a
    list imported by name from another settings module is a reference the link resolves."""
    source = (
        "from .shared import LOCAL_APPS\n"
        "INSTALLED_APPS = ['a'] + LOCAL_APPS\n"
        "try:\n    import debug_toolbar\n    INSTALLED_APPS += ('debug_toolbar',)\n"
        "except ImportError:\n    INSTALLED_APPS.remove('a')\n"
    )
    facts = django_apps.settings_facts("conf/dev.py", parse_python(source, "conf/dev.py"), source)
    assert facts is not None
    assert facts.lists["INSTALLED_APPS"] == (
        "a",
        django_apps.Ref("LOCAL_APPS"),
        "debug_toolbar",
    )
    shared_source = "LOCAL_APPS = ['b']\nINSTALLED_APPS = []\n"
    shared = django_apps.settings_facts(
        "conf/shared.py", parse_python(shared_source, "conf/shared.py"), shared_source
    )
    assert shared is not None
    files = {"conf.dev": "conf/dev.py", "conf.shared": "conf/shared.py"}
    installed = django_apps.InstalledApps(
        {"conf/dev.py": facts, "conf/shared.py": shared}, files.get, {}, {}
    ).resolve("conf/dev.py", "INSTALLED_APPS", 0)
    assert installed == ("a", "b", "debug_toolbar")


def test_an_app_config_the_files_do_not_show_names_its_app_and_a_plain_entry_its_own() -> None:
    """`billing.apps.BillingConfig` whose `apps.py` is not read: the app is `billing` (Django
    requires the config's `name` to be the app); a plain module is its own app, labelled by
    its last part."""
    apps = django_apps.InstalledApps({}, lambda name: None, {}, {})
    assert apps.app("billing.apps.BillingConfig") == ("billing", "billing")
    assert apps.app("django.contrib.auth") == ("django.contrib.auth", "auth")
    assert apps.app("Solo") == ("Solo", "Solo")


def test_apps_computed_after_a_literal_head_keep_only_the_packages_below_it() -> None:
    """`[f"extensions.{name}" for name in ENABLED]`: which extensions is not known, but each is
    below `extensions.`; a package elsewhere that no entry names is still no table."""
    model = "from django.db import models\n\n\nclass {0}(models.Model):\n    n = models.IntegerField()\n"
    files = {
        "site/settings.py": (
            "ENABLED = load_enabled()\n"
            "INSTALLED_APPS = ['core'] + [f'extensions.{name}' for name in ENABLED]\n"
        ),
        "core/models.py": model.format("Node"),
        "extensions/maps/models.py": model.format("Pin"),
        "legacy/models.py": model.format("Old"),
    }
    linked = django_models.link(
        [(path, django_models.extract(path, source)) for path, source in files.items()]
    )
    assert [(r["name"], r["location"]["path"]) for r in linked.resources] == [
        ("core_node", "core/models.py"),
        ("maps_pin", "extensions/maps/models.py"),
    ]
    [finding] = linked.findings
    assert finding["code"] == "UNRESOLVED_INSTALLED_APPS"
    assert finding["locations"] == [{"path": "site/settings.py", "line": 2}]
    assert "extensions/maps/models.py" in finding["detail"]
