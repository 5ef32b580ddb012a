"""Python ORMs and ODMs the table packs recognise but do not read, as records (issue 34, "never
silent"): a file that imports one gets an `UNRESOLVED_TABLE_NAME` finding in pack-sqlalchemy's
document naming it, at its first import of it, so a repository built on one is never an empty
document that says nothing. pack-sqlalchemy owns the finding (pack-django does not repeat it);
pack-django reads a class below one of their packages as no Django model (`foreign_base`:
Tortoise's `tortoise.models.Model` is not Django's `models.Model`). The JavaScript ORMs of the
kind are `js_tables.UNREAD_ORMS`, beside the packages that reader does read.

The import is found on bytes, by the same function in the reader and in the pre-filter
(`pack_sqlalchemy.KEYWORDS`), so a pre-filtered scan equals the parse-all one by construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnreadOrm:
    """An ORM: its name as the finding says it, and the top-level modules it is imported as."""

    name: str
    modules: tuple[str, ...]


PYTHON = (
    UnreadOrm("Peewee", ("peewee", "playhouse")),  # playhouse: Peewee's extensions (FlaskDB)
    UnreadOrm("Tortoise ORM", ("tortoise",)),
    UnreadOrm("Pony ORM", ("pony",)),  # `from pony.orm import *`, `from pony import orm`
    UnreadOrm("MongoEngine", ("mongoengine", "flask_mongoengine")),
    UnreadOrm("ormar", ("ormar",)),
    UnreadOrm("Piccolo", ("piccolo",)),
    UnreadOrm("Beanie", ("beanie",)),
    UnreadOrm("ODMantic", ("odmantic",)),
    UnreadOrm("PynamoDB", ("pynamodb",)),
    UnreadOrm("SQLObject", ("sqlobject",)),
)
_BY_MODULE = {module: orm.name for orm in PYTHON for module in orm.modules}
_SEEDS = tuple(module.encode() for module in _BY_MODULE)
_IMPORT = re.compile(
    # `import a, peewee as pw`, `from tortoise.models import Model`, at the start of a line (a
    # guarded or nested import too: leading blanks allowed)
    rb"^[ \t]*(?:import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*|from[ \t]+)("
    + b"|".join(re.escape(seed) for seed in _SEEDS)
    + rb")\b",
    re.MULTILINE,
)


def python_uses(data: bytes) -> tuple[tuple[str, int], ...]:
    """(ORM, line) of the first import of each unread ORM in a Python file's bytes."""
    if not any(seed in data for seed in _SEEDS):  # most files: a few substring scans
        return ()
    found: dict[str, int] = {}
    for match in _IMPORT.finditer(data):
        name = _BY_MODULE[match.group(1).decode()]
        found.setdefault(name, data.count(b"\n", 0, match.start()) + 1)
    return tuple(found.items())


def foreign_base(name: str) -> bool:
    """Whether a dotted base (`tortoise.models.Model`) comes from an unread ORM's package: a
    class below it is that ORM's model, not Django's or SQLAlchemy's."""
    return name.partition(".")[0] in _BY_MODULE
