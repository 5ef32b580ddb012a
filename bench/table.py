"""The bench row (see bench/__init__ and COMMON's interface) checked and printed as one table.

A row is a dict: group, case, figure, value, unit, target, met, and any extra keys ("detail").
Rows are checked, not trusted: a malformed row from one group is reported and kept, so one
group's slip does not hide every other group's figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Row = dict[str, object]

UNITS = frozenset({"ratio", "MiB/s", "req/s", "ms", "s", "KiB", "MiB", "count"})
COLUMNS = ("group", "case", "figure", "value", "unit", "target", "met")


def row(
    group: str,
    case: str,
    figure: str,
    value: float,
    unit: str,
    target: str | None = None,
    met: bool | None = None,
    detail: Mapping[str, object] | None = None,
) -> Row:
    """One figure as the interface's row: every group builds its rows here."""
    return {
        "group": group,
        "case": case,
        "figure": figure,
        "value": value,
        "unit": unit,
        "target": target,
        "met": met,
        "detail": dict(detail or {}),
    }


def row_problems(row: object) -> list[str]:
    """What is wrong with a row, one phrase each; empty when it follows the interface."""
    if not isinstance(row, Mapping):
        return [f"not a dict: {type(row).__name__}"]
    problems = [f"missing key {key!r}" for key in COLUMNS if key not in row]
    for key in ("group", "case", "figure"):
        if key in row and not isinstance(row[key], str):
            problems.append(f"{key} is not a string")
    value = row.get("value")
    if "value" in row and (isinstance(value, bool) or not isinstance(value, int | float | None)):
        problems.append("value is not a number or None")
    if "unit" in row and row["unit"] not in UNITS:
        problems.append(f"unit {row['unit']!r} is not one of {sorted(UNITS)}")
    if "target" in row and not isinstance(row["target"], str | None):
        problems.append("target is not a string or None")
    if "met" in row and not isinstance(row["met"], bool | None):
        problems.append("met is not True, False or None")
    return problems


def format_value(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if value == 0:
            return "0"
        if abs(value) >= 1e6 or abs(value) < 1e-3:
            return f"{value:.3g}"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def format_met(met: object) -> str:
    if met is True:
        return "yes"
    if met is False:
        return "NO"
    return "-" if met is None else str(met)


def cells(row: Mapping[str, object]) -> list[str]:
    return [
        str(row.get("group", "")),
        str(row.get("case", "")),
        str(row.get("figure", "")),
        format_value(row.get("value")),
        str(row.get("unit", "")),
        "-" if row.get("target") is None else str(row.get("target")),
        format_met(row.get("met")),
    ]


def render(rows: Sequence[Mapping[str, object]]) -> str:
    """The rows as one plain-text table, columns padded to their widest cell."""
    body = [cells(row) for row in rows]
    widths = [max(len(line[i]) for line in [list(COLUMNS), *body]) for i in range(len(COLUMNS))]
    numeric = {COLUMNS.index("value")}

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            v.rjust(w) if i in numeric else v.ljust(w)
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(COLUMNS), rule, *(line(values) for values in body)])
