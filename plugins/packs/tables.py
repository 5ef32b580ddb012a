"""Tables found by the ORM packs, rendered as resources, `pii` signals and duplicate findings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .builders import DUPLICATE_TABLE_NAME, duplicate_findings, location, pii_value, signal
from .scan import JSONObject, Linked


@dataclass(frozen=True)
class TableClaim:
    """One definition that claims a table: where, under which model, with which columns."""

    name: str
    path: str
    line: int
    model: str | None  # the class name; None for a `Table(...)` call
    columns: tuple[str, ...]
    extra_attrs: tuple[tuple[str, str | int | bool], ...] = ()


def link_tables(claims: Iterable[TableClaim]) -> Linked:
    linked = Linked()
    seen: dict[str, list[JSONObject]] = {}
    for claim in claims:
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
    linked.findings = duplicate_findings(DUPLICATE_TABLE_NAME, "table", seen)
    return linked
