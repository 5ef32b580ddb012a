"""ORMs the table packs recognise and do not read are named, never silence (issue 34, "never
silent"): Python's in pack-sqlalchemy's document (`packs/unread_orms.py`), JavaScript's in
pack-js-tables' (`js_tables.UNREAD_ORMS`), at the first import in each importing file; and
another ORM's model is no Django model. Each scan is held to the parse-all one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_django
import pack_sqlalchemy
from packs import django_models, sqlalchemy_models
from packs.scan import Scanner
from tables_harness import js_tables_document as _js

FIXTURES = REPO / "tests" / "fixtures" / "unread-orms"
NOT_READ = "UNRESOLVED_TABLE_NAME"


def _python(pack: str, root: Path) -> dict[str, Any]:
    """pack-sqlalchemy's or pack-django's document, pre-filtered, asserted equal to parse-all."""
    entry, analyzer = {
        "sqlalchemy": (pack_sqlalchemy, sqlalchemy_models),
        "django": (pack_django, django_models),
    }[pack]
    documents = [
        Scanner((".py",), analyzer.extract, analyzer.link, language="Python", root=str(root),
                workers=1, keywords=entry.KEYWORDS, base_keywords=entry.BASE_KEYWORDS,
                follow=entry.FOLLOW, fields=getattr(entry, "FIELDS", None),
                parse_all=parse_all).discover(["."])
        for parse_all in (False, True)
    ]  # fmt: skip
    assert json.dumps(documents[0], sort_keys=True) == json.dumps(documents[1], sort_keys=True)
    return documents[0]


def _named(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(the ORM a not-read finding names, path, line) of every place."""
    return sorted(
        (f["detail"].split(" is imported here")[0], place["path"], place["line"])
        for f in document["findings"]
        if f["code"] == NOT_READ and " is imported here" in f["detail"]
        for place in f["locations"]
    )


def test_python_orms_not_read_are_named_at_each_importing_file() -> None:
    """Every import form (`import X as Y`, `from X.sub import Y`, `from X import sub`, `import a,
    X`, a guarded import): the ORM named at its first import in each file, once per ORM with
    every file a place; a module merely named like one (`peewee_async_shim`, `mytortoise`, a
    comment, a string) is none."""
    document = _python("sqlalchemy", FIXTURES / "python")
    assert document["resources"] == []
    assert _named(document) == [
        ("Beanie", "storefront/api.py", 2),
        ("MongoEngine", "storefront/documents.py", 2),
        ("ODMantic", "archive/odm.py", 1),
        ("Peewee", "shop/catalog.py", 3),
        ("Peewee", "shop/web.py", 1),
        ("Piccolo", "archive/bands.py", 1),
        ("Pony ORM", "storefront/stock.py", 1),
        ("PynamoDB", "archive/dynamo.py", 1),
        ("SQLObject", "archive/classic.py", 1),
        ("Tortoise ORM", "booking/models.py", 1),
        ("ormar", "storefront/api.py", 1),
    ]
    assert len(document["findings"]) == 10  # one finding per ORM


def test_another_orms_model_is_no_django_model() -> None:
    """`tortoise.models.Model` and `pynamodb.models.Model` end in `models.Model` but are not
    Django's: no table and no finding in pack-django (pack-sqlalchemy names them); the Django
    model beside them is still read."""
    document = _python("django", FIXTURES / "python")
    assert [(r["name"], r["location"]["path"]) for r in document["resources"]] == [
        ("booking_guest", "booking/records.py")
    ]
    assert document["findings"] == []


def test_js_orms_not_read_are_named_at_each_importing_file() -> None:
    """`from 'x/sub'`, `require('x')`, a dynamic `import('x')`, a default import, a scoped
    package (`@mikro-orm/core`): each named at its first import; a type-only import beside a
    value import of the same ORM is no place; Sequelize 7's `@sequelize/core` is read as
    Sequelize (its `init` and `define`), its decorators named. Bookshelf is read now (a model
    made on an instance made in the call is a table), so it is named nowhere."""
    document = _js(FIXTURES / "js")
    assert [(r["name"], r["location"]["path"]) for r in document["resources"]] == [
        ("wallets", "accounts/models.ts"),
        ("Ledgers", "accounts/models.ts"),
        ("crates", "legacy/store.js"),
    ]
    assert _named(document) == [
        ("Drizzle ORM", "db/schema.ts", 1),
        ("Kysely", "reports/lazy.mjs", 2),
        ("MikroORM", "inventory/entities.ts", 1),
        ("Objection.js", "people/person.js", 2),
        ("Sequelize 7 decorators", "accounts/decorated.ts", 2),
        ("Waterline", "sails/orm.mjs", 1),
    ]


def test_a_type_only_import_is_named_only_where_it_is_the_only_one(tmp_path: Path) -> None:
    """A type-only import (`import type`, `import { type A }`, `export type … from`) declares
    nothing: no place of its own where a value import of the ORM is in the repository; where
    it is the only kind, the first (in path order) names the ORM, never an empty document."""
    (tmp_path / "a.ts").write_text('import type { Kysely } from "kysely";\n')
    (tmp_path / "b.ts").write_text(
        "import { type Selectable, type Insertable as I } from 'kysely';\n"
    )
    (tmp_path / "c.ts").write_text("export type { Generated } from 'kysely';\n")
    assert _named(_js(tmp_path)) == [("Kysely", "a.ts", 1)]
    (tmp_path / "d.ts").write_text("import { sql, type Sql } from 'kysely';\n")
    assert _named(_js(tmp_path)) == [("Kysely", "d.ts", 1)]
