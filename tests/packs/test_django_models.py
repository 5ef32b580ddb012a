"""`packs.django_models`: the tables Django creates for the models of some sources, extracted
and linked in memory (no scan): Django's naming, Meta options, inheritance, auto-created join
tables, known third-party bases, and the finding for a base no one knows."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs import django_models
from packs.scan_document import DocumentPieces

SHOP = """\
from django.db import models
from django.contrib.auth.models import AbstractUser

class Stamped(models.Model):
    created = models.DateTimeField()
    class Meta:
        abstract = True

class Item(Stamped):
    name = models.CharField(max_length=9)
    tags = models.ManyToManyField('Tag')

class Tag(models.Model):
    code = models.CharField(primary_key=True, max_length=5)
    class Meta:
        db_table = 'labels'

class Legacy(models.Model):
    class Meta:
        managed = False
        app_label = 'old'

class ItemProxy(Item):
    class Meta:
        proxy = True

class Special(Item):
    extra = models.IntegerField()

class Member(AbstractUser):
    pass
"""

BLOG = """\
from django.db import models
from cmsvendor.models import Page
from cms import Thing

class Post(models.Model):
    title = models.CharField()
    tags = models.ManyToManyField('shop.Tag', through='Tagging')

class Home(Page):
    pass

class Odd(Thing):
    name = models.CharField()

class Helper(Thing):
    pass
"""


def linked(sources: dict[str, str]) -> DocumentPieces:
    files = sorted((path, django_models.extract(path, text)) for path, text in sources.items())
    return django_models.link(files)


@pytest.fixture(scope="module")
def document() -> DocumentPieces:
    return linked(
        {
            "shop/models.py": SHOP,
            "blog/models/__init__.py": "from .post import Post\n",
            "blog/models/post.py": BLOG,
        }
    )


def tables(document: DocumentPieces) -> dict[str, dict[str, Any]]:
    return {r["name"]: {**r["attrs"], "line": r["location"]["line"]} for r in document.resources}


def test_each_concrete_model_is_a_table_named_as_djangos_options_name_it(
    document: DocumentPieces,
) -> None:
    found = tables(document)
    assert found["shop_item"] == {"columns": 3, "model": "Item", "line": 9}  # id, created, name
    assert found["labels"] == {"columns": 1, "model": "Tag", "line": 13}  # db_table; its own pk
    assert found["old_legacy"] == {"columns": 1, "model": "Legacy", "managed": False, "line": 18}
    assert found["blog_post"]["model"] == "Post"  # the app is the package of `models/`
    assert "shop_stamped" not in found and "shop_itemproxy" not in found  # abstract, proxy


def test_multi_table_inheritance_links_to_its_parent(document: DocumentPieces) -> None:
    assert tables(document)["shop_special"] == {"columns": 2, "model": "Special", "line": 27}


def test_many_to_many_fields_make_join_tables_unless_they_name_one(
    document: DocumentPieces,
) -> None:
    found = tables(document)
    assert found["shop_item_tags"] == {"columns": 3, "model": "Item_tags", "line": 11}
    assert not any(name.startswith("blog_post_") for name in found)  # `through=` its own model


def test_a_known_abstract_base_gives_its_fields_and_join_tables(document: DocumentPieces) -> None:
    found = tables(document)
    assert found["shop_member"]["columns"] == 11  # AbstractUser's fields and the id
    assert found["shop_member_groups"]["model"] == "Member_groups"
    assert found["shop_member_user_permissions"]["model"] == "Member_user_permissions"
    (pii,) = document.signals
    assert pii["resource"] == "table:shop_member" and pii["signal"] == "pii"


def test_a_model_shaped_class_below_an_unknown_base_is_a_finding_not_a_table(
    document: DocumentPieces,
) -> None:
    """`Home(Page)` is below another app's `models` module, `Odd(Thing)` has model fields; a
    plain `Helper(Thing)` looks like nothing and is left alone."""
    at = {(f["code"], f["locations"][0]["line"]): f["detail"] for f in document.findings}
    assert set(at) == {("UNKNOWN_MODEL_BASE", 9), ("UNKNOWN_MODEL_BASE", 12)}
    assert at[("UNKNOWN_MODEL_BASE", 9)].startswith(
        "base `cmsvendor.models.Page` is no Django model"
    )
    assert at[("UNKNOWN_MODEL_BASE", 12)].startswith("base `cms.Thing` is no Django model")
    assert not any(r["attrs"]["model"] in {"Home", "Odd", "Helper"} for r in document.resources)


def test_a_model_reached_through_another_modules_import_keeps_its_own_app() -> None:
    found = tables(
        linked(
            {
                "core/models.py": "from django.db import models\n\nclass Base(models.Model):\n"
                "    class Meta:\n        abstract = True\n        app_label = 'core'\n",
                "zoo/models.py": "from core.models import Base\n\nclass Dog(Base):\n    pass\n",
            }
        )
    )
    # an abstract parent's Meta is inherited: its app_label names the child's table too
    assert list(found) == ["core_dog"]


@pytest.mark.parametrize(
    ("path", "label"),
    [
        ("shop/models.py", "shop"),
        ("blog/models/post.py", "blog"),
        ("apps/blog/models.py", "blog"),
        ("shop/views.py", "shop"),
    ],
)
def test_app_label_of_a_module(path: str, label: str) -> None:
    assert django_models.app_label_of(path) == label


def test_a_class_below_django_s_own_non_model_classes_is_no_finding() -> None:
    """Django's own models are all known (`models.Model`, the contrib records of
    `model_bases.LIBRARY_BASES`), so a database function, an aggregate or a custom field with a
    Django field attribute (`output_field = IntegerField()`) is no unknown model base; a
    third-party base beside the same body still is."""
    document = linked(
        {
            "metrics/models.py": (
                "from django.db import models\n"
                "from django.db.models import Func, IntegerField\n"
                "from django.db.models.functions import Cast as Converted\n"
                "from vendor_orm.base import Entity\n\n"
                "class ArrayCount(Func):\n    output_field = IntegerField()\n\n"
                "class Spread(models.Aggregate):\n    output_field = models.FloatField()\n\n"
                "class AsInt(Converted):\n    output_field = models.IntegerField()\n\n"
                "class Gauge(Entity):\n    reading = models.FloatField()\n"
            )
        }
    )
    assert tables(document) == {}
    flagged = [(f["code"], f["locations"][0]["line"]) for f in document.findings]
    assert flagged == [("UNKNOWN_MODEL_BASE", 15)]
