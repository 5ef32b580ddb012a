"""pack-django's exactness on constructs real code uses (issue 34 items 7 and 10), on fixtures
under tests/fixtures/exactness/, scanned with the pre-filter and without it."""

from __future__ import annotations

import sys
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
