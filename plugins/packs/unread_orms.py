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
_STATEMENT = re.compile(rb"[ \t]*(?:(import)[ \t]+([^\n#;]+)|from[ \t]+([A-Za-z_]\w*))")
"""A line's `import a.b as c, d` (its names) or `from m(.sub) import` (its top module), read
from the line's start: a guarded or nested import too (leading blanks allowed)."""


def python_uses(data: bytes) -> tuple[tuple[str, int], ...]:
    """(ORM, line) of the first import of each unread ORM in a Python file's bytes: the lines
    holding `import` (`import x`, `import a, x as y`, `from x.sub import …`), each looked at
    from its start. One pass over the file: a search per ORM would read it a dozen times."""
    found: dict[str, int] = {}
    at = data.find(b"import")
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        statement = _STATEMENT.match(data, start)
        if statement is not None:
            if statement.group(1) is not None:
                names = [part.split()[0] for part in statement.group(2).split(b",") if part.split()]
            else:
                names = [statement.group(3)]
            for name in names:
                orm = _BY_MODULE.get(name.partition(b".")[0].decode("ascii", "replace"))
                if orm is not None and orm not in found:
                    found[orm] = data.count(b"\n", 0, start) + 1
        at = data.find(b"import", at + 6)  # a line holding it twice is looked at twice
    return tuple(sorted(found.items(), key=lambda item: item[1]))


def foreign_base(name: str) -> bool:
    """Whether a dotted base (`tortoise.models.Model`) comes from an unread ORM's package: a
    class below it is that ORM's model, not Django's or SQLAlchemy's."""
    return name.partition(".")[0] in _BY_MODULE
