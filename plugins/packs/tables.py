"""Tables found by the ORM packs, rendered as resources, `pii` signals and findings.

Findings, besides `DUPLICATE_TABLE_NAME`, say what a pack recognised but could not name exactly
(DESIGN §8, "never silent"), one finding per distinct fact with a location for every class or
call it affects — so a base class that computes the names of 74 models gives 74 locations:

- `COMPUTED_TABLENAME`: a `__tablename__` (a `declared_attr`, an expression) the pack cannot
  evaluate; at each model whose table it names.
- `UNKNOWN_MODEL_BASE`: a class that declares a table (SQLAlchemy: `__tablename__` or columns;
  Django: model fields or table options) below a base that leads outside the scanned files and
  that the pack does not know; at each such class.
- `UNRESOLVED_TABLE_NAME`: SQLAlchemy's `Table(...)` named by something other than a literal;
  at the call (pack-js-tables: a JS/TS ORM's computed name, at its call or decorator).
- `VERSION_DEPENDENT_NAME`: a name the ORM gives by a rule that changed between versions, where
  the versions the repository declares (`packs.declared_versions`) admit both rules, or none is
  declared, and the rules give different names: the newer rule's name is listed, the finding at
  the class or call names both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .builders import DUPLICATE_TABLE_NAME, duplicate_findings, location, pii_value, signal
from .scan_document import DocumentPieces, JSONObject, at

COMPUTED_TABLENAME = "COMPUTED_TABLENAME"
UNKNOWN_MODEL_BASE = "UNKNOWN_MODEL_BASE"
UNRESOLVED_TABLE_NAME = "UNRESOLVED_TABLE_NAME"
UNRESOLVED_INSTALLED_APPS = "UNRESOLVED_INSTALLED_APPS"
VERSION_DEPENDENT_NAME = "VERSION_DEPENDENT_NAME"


@dataclass(frozen=True)
class TableClaim:
    """One definition that claims a table: where, under which model, with which columns."""

    name: str
    path: str
    line: int
    model: str | None  # the class name; None for a `Table(...)` call
    columns: tuple[str, ...]
    extra_attrs: tuple[tuple[str, str | int | bool], ...] = ()
    extends: bool = False  # SQLAlchemy's `extend_existing`: adds columns to a table declared too


@dataclass(frozen=True)
class Gap:
    """One place where a table may be that the pack cannot name: `detail` says what was not
    known (places with the same code and detail become one finding)."""

    code: str
    detail: str
    path: str
    line: int


def gap_findings(gaps: Iterable[Gap]) -> list[JSONObject]:
    grouped: dict[tuple[str, str], list[JSONObject]] = {}
    for gap in gaps:
        grouped.setdefault((gap.code, gap.detail), []).append(location(gap.path, gap.line))
    return [
        {"code": code, "detail": detail, "locations": sorted(places, key=at)}
        for (code, detail), places in grouped.items()
    ]


def _merge_extensions(claims: Iterable[TableClaim]) -> list[TableClaim]:
    """The claims with each `extends` claim folded into the first claim of its table name that
    does not extend (its columns added there): `extend_existing` redeclares one table, so it
    is one resource and no `DUPLICATE_TABLE_NAME`. A table only ever extended stays as its
    first claim, the others folded into it."""
    claims = list(claims)
    home: dict[str, int] = {}  # a table name -> the index of the claim the others fold into
    for index, claim in enumerate(claims):
        if claim.name not in home or (claims[home[claim.name]].extends and not claim.extends):
            home[claim.name] = index
    merged: list[TableClaim | None] = list(claims)
    for index, claim in enumerate(claims):
        target = home[claim.name]
        if claim.extends and index != target:
            kept = merged[target]
            assert kept is not None
            columns = tuple(dict.fromkeys((*kept.columns, *claim.columns)))
            merged[target] = replace(kept, columns=columns)
            merged[index] = None
    return [claim for claim in merged if claim is not None]


def link_tables(claims: Iterable[TableClaim], gaps: Iterable[Gap] = ()) -> DocumentPieces:
    linked = DocumentPieces()
    seen: dict[str, list[JSONObject]] = {}
    for claim in _merge_extensions(claims):
        where = location(claim.path, claim.line)
        attrs: JSONObject = {"columns": len(claim.columns)}
        if claim.model is not None:
            attrs["model"] = claim.model
        attrs.update(claim.extra_attrs)
        linked.resources.append(
            {"kind": "table", "name": claim.name, "location": where, "attrs": attrs}
        )
        pii = pii_value(claim.columns)
        if pii:
            linked.signals.append(signal("table", claim.name, "pii", pii, where))
        seen.setdefault(claim.name, []).append(where)
    linked.findings = duplicate_findings(DUPLICATE_TABLE_NAME, "table", seen) + gap_findings(gaps)
    return linked
