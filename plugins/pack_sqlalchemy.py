#!/usr/bin/env python3
"""`pack-sqlalchemy` 1.0.0: the tables of SQLAlchemy, Flask-SQLAlchemy and SQLModel code.

Reads `.py` files with `ast` (the scanned code is never imported or run), and the dependency
files that say which Flask-SQLAlchemy is installed (`packs/declared_versions.py`); the rules are
in `packs/sqlalchemy_models.py`, the walk, safe opens, memo and ordering in `packs/scan.py`.
"""

import os
import re
import sys
from dataclasses import dataclass
from typing import Final

PLUGINS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [PLUGINS, os.path.dirname(PLUGINS)]  # packs/, and the repo's gpp/ when not installed

from packs import sqlalchemy_models, unread_orms  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402
from packs.prefilter import Keyword, Word  # noqa: E402

_ALEMBIC_IMPORT = re.compile(rb"(?:from|import)[ \t]+alembic(?![\w])")


def imports_alembic(data: bytes) -> bool:
    """Whether the bytes hold a top-level `from alembic ...` / `import alembic` (at the start of
    a line, outside a triple-quoted string by a count of the quotes before it): an Alembic
    script, which the reader reads as history (`SqlalchemyFacts.migration`). Where bytes and the
    reader could disagree (an import in a string the count misjudges), the file is still parsed
    when a declaration links to it; an import the bytes miss only costs its parse."""
    start = data.find(b"alembic")
    while start >= 0:
        line = data.rfind(b"\n", 0, start) + 1
        match = _ALEMBIC_IMPORT.match(data, line)
        if match is not None and match.end() > start:
            head = data[:line]
            if head.count(b'"""') % 2 == 0 and head.count(b"'''") % 2 == 0:
                return True
        start = data.find(b"alembic", start + 1)
    return False


@dataclass(frozen=True)
class Declares(Word):
    """A keyword that counts outside Alembic scripts only: their `Table(`s and `Column(`s are
    history, and each script parsed would drag the models it imports in."""

    def found_in(self, data: bytes) -> bool:
        return super().found_in(data) and not imports_alembic(data)


@dataclass(frozen=True)
class Inside(Declares):
    """A `Declares` keyword found inside a longer word too (no word boundary before it)."""

    def __post_init__(self) -> None:
        pattern = re.compile(re.escape(self.word) + rb"(?:" + self.after + rb")")
        object.__setattr__(self, "pattern", pattern)


OTHER_TABLES = (b"rich", b"terminaltables", b"prettytable", b"texttable", b"docx", b"reportlab")
"""Libraries whose `Table` a module may import: a call of theirs declares no database table."""
_TABLE_REBOUND = re.compile(rb"\bTable\b[ \t]*(?::[^=\n]*)?=(?!=)|\bas[ \t]+Table\b")
_TABLE_IMPORT = re.compile(rb"from[ \t]+([\w.]+)[ \t]+import[ \t]*\(?[^)\n]*\bTable\b")


@dataclass(frozen=True)
class TableCall(Declares):
    """`Table(`, unless each `Table(` is a bare call and the module's only binding of `Table`
    is an import from another library (`from rich.table import Table`): the reader resolves
    such a call to that library and reads no table from it (`_table_kind`). An assignment to
    `Table`, a star import or an import from anywhere else keeps the file a candidate."""

    def found_in(self, data: bytes) -> bool:
        if not super().found_in(data):
            return False
        start = data.find(b"Table")
        while start >= 0:
            if self.pattern.match(data, start) and data[start - 1 : start] == b".":
                return True  # `sa.Table(`, `db.Table(`
            start = data.find(b"Table", start + 1)
        sources = _TABLE_IMPORT.findall(data)
        if not sources or b"import *" in data or b"import*" in data:
            return True
        if any(s.split(b".")[0] not in OTHER_TABLES for s in sources):
            return True
        return _TABLE_REBOUND.search(data) is not None


@dataclass(frozen=True)
class ImportsUnreadOrm(Word):
    """An import of an ORM the packs do not read (`packs/unread_orms.py`): the reader names it
    in a finding, found on bytes by the same function, so a pre-filtered scan says it too."""

    def found_in(self, data: bytes) -> bool:
        return bool(unread_orms.python_uses(data))


KEYWORDS: Final[tuple[Keyword, ...]] = (
    Declares(b"__table", rb"(?:name)?__"),  # `__tablename__`; `__table__ = Table(...)`
    TableCall(b"Table", rb"[ \t]*\("),  # `Table(`, `sa.Table(`, `db.Table(` (not `DataTable(`)
    Declares(b"Column", rb"[ \t]*\("),  # `Column(`, `db.Column(`: a class below an unknown base
    # `mapped_column(`, `@reg.mapped`, `@reg.mapped_as_dataclass` (not "mapped to" in a comment)
    Declares(b"mapped", rb"_column|_as_dataclass|[ \t]*[\n(#]"),
    Declares(b"Mapped", rb"[ \t]*\["),  # `name: Mapped[str]` with no `mapped_column`
    # `declarative_base`, and inside a word: `make_declarative_base`, `_make_declarative_base`
    # (an override that builds Flask-SQLAlchemy's `db.Model`, `packs/model_bases.py`)
    Inside(b"declarative_base"),
    Declares(b"as_declarative"),
    Declares(b"generate_base"),
    Declares(b"automap_base"),
    Declares(b"registry", rb"[ \t]*\("),  # `registry()`, `orm.registry(metadata=...)`
    Declares(b"map", rb"_imperatively|per[ \t]*\("),  # `reg.map_imperatively(`, `mapper(`
    Declares(b"table", rb"[ \t]*=[ \t]*True"),  # SQLModel's `class Hero(SQLModel, table=True)`
    Declares(b"make_versioned"),  # a library that makes tables at runtime (`TABLE_GENERATORS`)
    # a loader of entry-point plugins: a folder of the repository that is such a plugin's
    # distribution declares no table of the app's (`packs/plugin_distributions.py`)
    # (one keyword: `entry_points(`, `iter_entry_points(`, `load_setuptools_entrypoints(`)
    Inside(b"entry", rb"_?points[ \t]*\("),
    ImportsUnreadOrm(b"import"),  # `import peewee`, `from tortoise.models import Model`
)
BASE_KEYWORDS: Final = (
    "Model",
    "SQLModel",
    *sqlalchemy_models.SQLALCHEMY_ROOT_CLASSES,
    "SQLAlchemy",  # a project subclass of the extension: what builds its `db.Model`
    "!django.",  # Django's `models.Model` is no declarative base: its files are pack-django's
)
FOLLOW: Final = "declarations"
"""The cold-scan pre-filter (`packs/prefilter.py`). A file is parsed when it holds one of
`KEYWORDS`: what declares a table or a declarative base (`__tablename__`, `Table(`, a column, a
base factory, also inside `make_declarative_base`, a registry and its decorators, SQLModel's
`table=True`), or imports an ORM the packs do not read (`packs/unread_orms.py`: named in a
finding), or when a class of it has a base named like a model root (`BASE_KEYWORDS`:
`db.Model`, `SQLModel`, `DeclarativeBase`; not one its imports bind to Django alone, `from
django.db import models`: a Django model's file declares no table here unless a keyword says
so, and the reader needs none of it) or is a subclass of Flask-SQLAlchemy's `SQLAlchemy` (its
`__init__` and `_make_declarative_base` build `db.Model`: their imports are followed); and
then every file linked to those (`FOLLOW = "imports"`: the modules they import, whose helpers
and constants a computed `__tablename__` may call; the files whose classes subclass theirs).
The bare names `sqlalchemy`, `Model` or `registry` are no keywords: a service importing a
`Session`, a pydantic `BaseModel` or a plugin registry declares nothing, and each such file
parsed drags its imports in. Keep in step with the reader."""

if __name__ == "__main__":
    sys.exit(
        serve_python_pack(
            "pack-sqlalchemy",
            "1.0.0",
            sqlalchemy_models,
            KEYWORDS,
            BASE_KEYWORDS,
            FOLLOW,
            named=sqlalchemy_models.NAMED,
        )
    )
