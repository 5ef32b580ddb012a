"""pack-django's exactness on constructs real code uses (issue 34 items 7 and 10), on fixtures
under tests/fixtures/exactness/, scanned with the pre-filter and without it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_django
from packs import django_models
from packs.scan import Scanner

FIXTURES = REPO / "tests" / "fixtures" / "exactness"


def _scanner(parse_all: bool) -> Scanner[Any]:
    return Scanner((".py",), django_models.extract, django_models.link, language="Python",
                   root=str(FIXTURES / "django-factory"), workers=1,
                   keywords=pack_django.KEYWORDS, base_keywords=pack_django.BASE_KEYWORDS,
                   follow="names", fields=pack_django.FIELDS, parse_all=parse_all)  # fmt: skip


def test_a_factory_model_is_found_and_a_test_apps_model_is_not_the_apps() -> None:
    """A model class a factory function defines is a table (its `Meta` read, a class body's
    `Meta` not taken for a model); the test folder's model of the same table is left out,
    so no false `DUPLICATE_TABLE_NAME`."""
    document = _scanner(False).discover(["."])
    assert document == _scanner(True).discover(["."])
    tables = [(r["name"], r["location"]["line"]) for r in document["resources"]]
    assert tables == [("library_book", 4), ("library_loans", 11), ("library_shelf", 21)]
    assert document["findings"] == []


def test_a_subclass_of_django_guardians_permission_bases_is_a_table_of_its_app() -> None:
    """django-guardian's `UserObjectPermissionBase`/`GroupObjectPermissionBase` are abstract:
    a project's direct-foreign-key permission model is a table of its own app (was an
    `UNKNOWN_MODEL_BASE` with no table)."""
    source = (
        "from django.db import models\n"
        "from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase\n\n\n"
        "class Boat(models.Model):\n    name = models.CharField(max_length=9)\n\n\n"
        "class BoatUserGrant(UserObjectPermissionBase):\n"
        "    content_object = models.ForeignKey(Boat, on_delete=models.CASCADE)\n\n\n"
        "class BoatTeamGrant(GroupObjectPermissionBase):\n"
        "    content_object = models.ForeignKey(Boat, on_delete=models.CASCADE)\n"
    )
    linked = django_models.link(
        [("harbour/models.py", django_models.extract("harbour/models.py", source))]
    )
    assert [(r["name"], r["attrs"]["columns"]) for r in linked.resources] == [
        ("harbour_boat", 2),
        ("harbour_boatusergrant", 4),  # id, permission_id, user_id, content_object_id
        ("harbour_boatteamgrant", 4),
    ]
    assert linked.findings == []


def test_django_polymorphic_and_simple_history_tables() -> None:
    """django-polymorphic's `PolymorphicModel` is an abstract base (a subclass is a table of its
    app); django-simple-history's `HistoricalRecords()` makes a `historical<model>` table at
    run time (`table_name=` names it): was an `UNKNOWN_MODEL_BASE` and a silent miss."""
    source = (
        "from django.db import models\n"
        "from polymorphic.models import PolymorphicModel\n"
        "from simple_history.models import HistoricalRecords\n\n\n"
        "class Crate(PolymorphicModel):\n    label = models.CharField(max_length=9)\n"
        "    history = HistoricalRecords()\n\n\n"
        "class Barrel(Crate):\n    litres = models.IntegerField()\n\n\n"
        "class Pallet(models.Model):\n    audit = HistoricalRecords(table_name='pallet_audit')\n"
    )
    path = "depot/models.py"
    linked = django_models.link([(path, django_models.extract(path, source))])
    assert sorted(r["name"] for r in linked.resources) == [
        "depot_barrel",
        "depot_crate",
        "depot_historicalcrate",
        "depot_pallet",
        "pallet_audit",
    ]
    assert linked.findings == []


def test_django_soft_deletes_abstract_model_is_a_recorded_base() -> None:
    """django-soft-delete's `SoftDeleteModel` is an abstract base (three columns, read in its
    1.0.23 source): a subclass, direct, aliased or through a project's own abstract model, is a
    table of its app (blind16p: was an `UNKNOWN_MODEL_BASE` and no table)."""
    source = (
        "from django.db import models\n"
        "import django_softdelete.models as sd\n"
        "from django_softdelete.models import SoftDeleteModel\n\n\n"
        "class Memo(SoftDeleteModel):\n    body = models.TextField()\n\n\n"
        "class Trashable(sd.SoftDeleteModel):\n"
        "    class Meta:\n        abstract = True\n\n\n"
        "class Receipt(Trashable):\n    total = models.IntegerField()\n"
    )
    path = "ledger/models.py"
    linked = django_models.link([(path, django_models.extract(path, source))])
    assert {(r["name"], r["attrs"]["columns"]) for r in linked.resources} == {
        ("ledger_memo", 5),
        ("ledger_receipt", 5),
    }
    assert linked.findings == []


def test_django_ordered_models_abstract_bases_are_recorded_bases() -> None:
    """django-ordered-model's `OrderedModel` (an `order` column) and `OrderedModelBase` (none)
    are abstract (read in its 3.7.4 source): each subclass is a table of its app, its
    many-to-many fields' tables too (was an `UNKNOWN_MODEL_BASE` and no table)."""
    source = (
        "from django.db import models\n"
        "from ordered_model.models import OrderedModel, OrderedModelBase\n\n\n"
        "class Step(OrderedModel):\n    title = models.CharField(max_length=9)\n"
        "    tags = models.ManyToManyField('Tag')\n\n\n"
        "class Tag(OrderedModelBase):\n    rank = models.IntegerField()\n"
        "    order_field_name = 'rank'\n"
    )
    path = "plans/models.py"
    linked = django_models.link([(path, django_models.extract(path, source))])
    assert {(r["name"], r["attrs"]["columns"]) for r in linked.resources} == {
        ("plans_step", 3),
        ("plans_tag", 2),
        ("plans_step_tags", 3),
    }
    assert linked.findings == []


def test_models_on_djangos_own_contrib_session_and_log_models_are_tables(tmp_path: Path) -> None:
    """A custom session store's model on Django's abstract `AbstractBaseSession` (imported
    from `base_session`, or re-exported by `sessions.models` under another name) and a subclass
    of a concrete contrib model (`LogEntry`: multi-table inheritance) are tables of their app
    (blind5py: was an `UNKNOWN_MODEL_BASE` with no table), the same with the pre-filter."""
    source = (
        "from django.db import models\n"
        "from django.contrib.sessions import base_session\n"
        "from django.contrib.sessions.models import AbstractBaseSession as StoredSession\n"
        "from django.contrib.admin.models import LogEntry\n\n\n"
        "class KioskSession(base_session.AbstractBaseSession):\n"
        "    kiosk = models.CharField(max_length=9)\n\n"
        "    class Meta:\n        db_table = 'kiosk_sessions'\n\n\n"
        "class TillSession(StoredSession):\n"
        "    till = models.IntegerField()\n\n\n"
        "class TillAudit(LogEntry):\n    reviewed = models.BooleanField()\n"
    )
    path = "till/models.py"
    linked = django_models.link([(path, django_models.extract(path, source))])
    assert [(r["name"], r["attrs"]["columns"]) for r in linked.resources] == [
        ("kiosk_sessions", 4),  # session_key, session_data, expire_date, kiosk
        ("till_tillsession", 4),
        ("till_tillaudit", 2),  # logentry_ptr_id, reviewed
    ]
    assert linked.findings == []
    (tmp_path / "till").mkdir()
    (tmp_path / "till" / "models.py").write_text(source)
    (tmp_path / "till" / "views.py").write_text("def index(request): ...\n")
    documents = []
    for parse_all in (True, False):
        scanner = Scanner((".py",), django_models.extract, django_models.link, language="Python",
                          root=str(tmp_path), workers=1, keywords=pack_django.KEYWORDS,
                          base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                          fields=pack_django.FIELDS, parse_all=parse_all)  # fmt: skip
        documents.append(scanner.discover(["."]))
    assert documents[0] == documents[1]
    assert len(documents[1]["resources"]) == 3


def test_manage_pys_folder_is_an_import_root_in_both_modes(tmp_path: Path) -> None:
    """`backend/manage.py` beside `backend/__init__.py`: Python runs the script with `backend/`
    on `sys.path`, so `from shop.models import Item` is `backend/shop/models.py`; the pre-filter,
    which does not parse `manage.py`, must see that too (it did not: the proxy's base was an
    `UNKNOWN_MODEL_BASE` only when filtered)."""
    files = {
        "backend/__init__.py": "",
        "backend/manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'x')\n",
        "backend/shop/__init__.py": "",
        "backend/shop/models.py": (
            "from django.db import models\n\n\n"
            "class Item(models.Model):\n    name = models.CharField(max_length=9)\n"
        ),
        "backend/export/__init__.py": "",
        "backend/export/models.py": (
            "from shop.models import Item\n\n\n"
            "class ExportedItem(Item):\n    class Meta:\n        proxy = True\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    documents = []
    for parse_all in (True, False):
        scanner = Scanner((".py",), django_models.extract, django_models.link, language="Python",
                          root=str(tmp_path), workers=1, keywords=pack_django.KEYWORDS,
                          base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                          fields=pack_django.FIELDS, parse_all=parse_all)  # fmt: skip
        documents.append(scanner.discover(["."]))
    assert documents[0] == documents[1]
    assert [r["name"] for r in documents[1]["resources"]] == ["shop_item"]
    assert documents[1]["findings"] == []


def _scan_at(root: Path) -> dict[str, Any]:
    """pack-django's document of `root`, held to the scan that parses every file."""

    def scanner(parse_all: bool) -> Scanner[Any]:
        return Scanner((".py",), django_models.extract, django_models.link, language="Python",
                       root=str(root), workers=1, keywords=pack_django.KEYWORDS,
                       base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                       fields=pack_django.FIELDS, parse_all=parse_all)  # fmt: skip

    document = scanner(False).discover(["."])
    assert document == scanner(True).discover(["."])
    return document


def test_library_model_bases_are_tables_by_each_library_s_rules() -> None:
    """Issue 34 class 5 (`model_bases.LIBRARY_BASES`): subclasses of Wagtail's concrete `Page`
    (imported as a name and through `from wagtail import models as ...`, empty or not) and
    of its abstract form bases below `Page` are multi-table inheritance (`page_ptr_id`); its
    `Orderable`, settings bases, draft/revision mixins, custom image, rendition and document
    bases, modelcluster's `ClusterableModel`,
    treebeard's `MP_Node`, django-mptt's `MPTTModel`, django-polymorphic's and
    django-model-utils' abstract models give their columns; modelcluster's
    `ParentalManyToManyField` makes a link table like `ManyToManyField`, its `ParentalKey` a
    column. A base no record names (`vendor_cms.models.VendorPage`) stays flagged at the class.

    Expected: Django 6.0.10 with Wagtail 7.4.4, django-modelcluster 6.5, django-treebeard 5.3.1,
    django-mptt 0.20.0, django-polymorphic 4.11.7, django-model-utils 5.0.0: the two apps
    installed, `apps.get_app_config(label).get_models(include_auto_created=True)`, db_table
    and the number of local fields (`VendorPage` stubbed as an abstract model: `catalog_promo`
    is the table the pack cannot know)."""
    document = _scan_at(FIXTURES / "django-library-bases")
    tables = {r["name"]: r["attrs"]["columns"] for r in document["resources"]}
    assert tables == {
        "cms_topic": 2, "cms_article_topics": 3, "cms_article": 1, "cms_landing": 1,
        "cms_articlelink": 4, "cms_enquiry": 4, "cms_enquiryfield": 10, "cms_branding": 3,
        "cms_footer": 1, "cms_snippet": 11, "cms_picture": 16, "cms_picturerendition": 7,
        "cms_leaflet": 8, "catalog_shelf": 5, "catalog_category": 6,
        "catalog_product": 5, "catalog_book": 2, "catalog_review": 3,
    }  # fmt: skip
    flagged = [
        (f["code"], location["path"], location["line"])
        for f in document["findings"]
        for location in f["locations"]
    ]
    assert flagged == [("UNKNOWN_MODEL_BASE", "catalog/models.py", 29)]


HIERARKEY_FILES = {
    "core/__init__.py": "",
    "core/config.py": (
        "from hierarkey.models import GlobalSettingsBase, Hierarkey\n\n"
        "store = Hierarkey(attribute_name='prefs')\n"
        "unnamed = Hierarkey(NAME)\n\n\n"
        "@store.set_global()\n"
        "class SiteWide(GlobalSettingsBase):\n"
        "    pass\n"
    ),
    "shop/__init__.py": "",
    "shop/models.py": (
        "from django.db import models\n\n"
        "from core.config import store, unnamed\n\n\n"
        "@store.add()\n"
        "class Shop(models.Model):\n"
        "    name = models.CharField(max_length=9)\n\n\n"
        "@unnamed.add()\n"
        "class Branch(models.Model):\n"
        "    city = models.CharField(max_length=9)\n"
    ),
}


def test_django_hierarkeys_decorators_make_a_settings_store_table_each(
    tmp_path: Path,
) -> None:
    """django-hierarkey's `@store.add()` on a model and `@store.set_global()` on a plain class
    each make a model `<Class>_<Attribute>Store` in the class's module: a table of its app,
    placed at the decorator; a store named after an option the pack cannot read is a finding
    there (was silent). Read alike through the pre-filter."""
    for name, text in HIERARKEY_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")

    def scanned(parse_all: bool) -> dict[str, Any]:
        return Scanner((".py",), django_models.extract, django_models.link, language="Python",
                       root=str(tmp_path), workers=1, keywords=pack_django.KEYWORDS,
                       base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                       fields=pack_django.FIELDS, parse_all=parse_all).discover(["."])  # fmt: skip

    document = scanned(False)
    assert document == scanned(True)
    tables = {
        r["name"]: (r["location"]["path"], r["location"]["line"], r["attrs"]["columns"])
        for r in document["resources"]
    }
    assert tables == {
        "core_sitewide_prefsstore": ("core/config.py", 7, 3),
        "shop_shop": ("shop/models.py", 7, 2),
        "shop_shop_prefsstore": ("shop/models.py", 6, 4),
        "shop_branch": ("shop/models.py", 12, 2),
    }
    assert [(f["code"], f["locations"]) for f in document["findings"]] == [
        ("COMPUTED_TABLENAME", [{"path": "shop/models.py", "line": 11}])
    ]
    assert "django-hierarkey" in document["findings"][0]["detail"]


def test_a_project_subclass_of_the_many_to_many_field_makes_its_join_table(tmp_path: Path) -> None:
    """`tags = fields.TagField("Tag")` where the project's `TagField` subclasses its own
    `ManyToManyField(Mixin, models.ManyToManyField)`, two levels down and in another module:
    Django's join table, and no column (was a column `tags`, and the table lost in silence);
    with `through=` no table of its own; a project field of another kind stays a column."""
    fields_py = (
        "from django.db import models\n\n\n"
        "class Marked:\n    pass\n\n\n"
        "class ManyToManyField(Marked, models.ManyToManyField):\n    pass\n\n\n"
        "class TagField(ManyToManyField):\n    pass\n\n\n"
        "class SlugField(Marked, models.CharField):\n    pass\n"
    )
    models_py = (
        "from django.db import models\n"
        "from notes import fields\n\n\n"
        "class Tag(models.Model):\n    name = fields.SlugField(max_length=9)\n\n\n"
        "class Note(models.Model):\n"
        "    tags = fields.TagField('Tag')\n"
        "    pins = fields.TagField('Tag', through='Pin')\n"
        "    body = models.TextField()\n"
    )
    files = [("notes/fields.py", fields_py), ("notes/models.py", models_py)]
    linked = django_models.link([(p, django_models.extract(p, s)) for p, s in files])
    assert {(r["name"], r["attrs"]["columns"]) for r in linked.resources} == {
        ("notes_tag", 2),
        ("notes_note", 2),
        ("notes_note_tags", 3),
    }
    for rel, text in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    documents = [
        Scanner((".py",), django_models.extract, django_models.link, language="Python",
                root=str(tmp_path), workers=1, keywords=pack_django.KEYWORDS,
                base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                fields=pack_django.FIELDS, parse_all=parse_all).discover(["."])
        for parse_all in (True, False)
    ]  # fmt: skip
    assert documents[1] == documents[0]
    assert "notes_note_tags" in str(documents[1])


def test_model_bases_a_project_function_makes_and_the_histories_they_carry() -> None:
    """A base written as a call of a project function (`class Product(audited(["sku"]))`,
    `bases.audited()`) is the class the function defines and returns, so the class below it
    is a model with that class's fields. django-simple-history's records, made by a project
    subclass of `HistoricalRecords` too, give a history table to each concrete subclass when
    `inherit=True` (at that class), to none below an abstract model without it. A function
    of an outside package stays an unknown base (blind23m flagsmith: 12 silent tables)."""
    root = FIXTURES / "django-history-factory"
    documents = [
        Scanner((".py",), django_models.extract, django_models.link, language="Python",
                root=str(root), workers=1, keywords=pack_django.KEYWORDS,
                base_keywords=pack_django.BASE_KEYWORDS, follow="names",
                fields=pack_django.FIELDS, parse_all=parse_all).discover(["."])
        for parse_all in (False, True)
    ]  # fmt: skip
    assert documents[0] == documents[1]
    resources = documents[0]["resources"]
    assert {r["name"]: r["location"]["line"] for r in resources} == {
        **{"shop_product": 9, "shop_historicalproduct": 9, "shop_gift": 13},
        **{"shop_historicalgift": 13, "shop_basket": 17, "shop_historicalbasket": 17},
        **{"shop_coupon": 21, "shop_ledger": 25, "shop_historicalledger": 26},
        **{"shop_subledger": 29, "shop_historicalsubledger": 29},
    }
    columns = {r["name"]: r["attrs"]["columns"] for r in resources}
    assert (columns["shop_product"], columns["shop_basket"], columns["shop_gift"]) == (3, 3, 2)
    [finding] = documents[0]["findings"]
    assert (finding["code"], finding["locations"]) == (
        "UNKNOWN_MODEL_BASE",
        [{"path": "shop/models.py", "line": 33}],
    )
    assert "vendor.make_base()" in finding["detail"]


def test_library_model_bases_softdelete_lifecycle_and_api_keys() -> None:
    """django-softdelete's `SoftDeleteObject`, django-lifecycle's `LifecycleModel` (imported
    from its package) and djangorestframework-api-key's `AbstractAPIKey` are abstract models
    (records read in each library's source): a subclass is a table of its app with their
    columns, no `UNKNOWN_MODEL_BASE`."""
    source = (
        "from django.db import models\n"
        "from django_lifecycle import LifecycleModel\n"
        "from rest_framework_api_key.models import AbstractAPIKey\n"
        "from softdelete.models import SoftDeleteObject\n\n\n"
        "class Audit(LifecycleModel):\n    note = models.TextField()\n\n\n"
        "class Trust(SoftDeleteObject):\n    name = models.TextField()\n\n\n"
        "class MasterKey(AbstractAPIKey, SoftDeleteObject):\n    admin = models.BooleanField()\n"
    )
    linked = django_models.link(
        [("keys/models.py", django_models.extract("keys/models.py", source))]
    )
    assert [(r["name"], r["attrs"]["columns"]) for r in linked.resources] == [
        ("keys_audit", 2),
        ("keys_trust", 3),  # id, name, deleted_at
        ("keys_masterkey", 9),  # the key's 7 (its own primary key), deleted_at, admin
    ]
    assert linked.findings == []
