#!/usr/bin/env python3
"""`pack-sqlalchemy` 1.0.0: the tables of SQLAlchemy, Flask-SQLAlchemy and SQLModel code.

Reads `.py` files with `ast` (the scanned code is never imported or run); the rules are in
`packs/sqlalchemy_models.py`, the walk, safe opens, memo and ordering in `packs/scan.py`.
"""

import os
import sys

PLUGINS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [PLUGINS, os.path.dirname(PLUGINS)]  # packs/, and the repo's gpp/ when not installed

from packs import sqlalchemy_models  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402

KEYWORDS = (
    b"sqlalchemy",
    b"sqlmodel",
    b"SQLModel",
    b"Column",
    b"Table",
    b"declarative",  # declarative_base, as_declarative, declarative_mixin
    b"Declarative",  # DeclarativeBase, DeclarativeBaseNoMeta
    b"Model",
    b"__tablename__",
    b"__table__",
    b"__abstract__",
    b"mapped",  # mapped_column, registry.mapped, mapped_as_dataclass
    b"Mapped",  # Mapped[...], MappedAsDataclass, WriteOnlyMapped
    b"registry",
    b"declared_attr",
)
"""The cold-scan pre-filter (`packs/prefilter.py`): a file naming none of these cannot declare
a table, unless the linker reaches it through an import (then it is parsed too). Keep in step
with the reader. Each is a plain substring, case-sensitive, so a name spelled with either case
(`declarative_base` and `DeclarativeBase`) is listed once per spelling."""

if __name__ == "__main__":
    sys.exit(serve_python_pack("pack-sqlalchemy", "1.0.0", sqlalchemy_models, KEYWORDS))
