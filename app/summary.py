"""A result document as a person reads it in a terminal (`gpp discover --format table`).

Per kind, the count; then each resource, unresolved path and finding on one line with its place
(`path:line`), so "nothing found" reads differently from "files it could not read". Every string
came from a plugin, so every one is escaped for the terminal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .logs import escaped


def place(location: dict[str, Any]) -> str:
    return escaped(f"{location['path']}:{location['line']}")


def table(document: dict[str, Any]) -> str:
    """The document's summary: counts first, then one line per entry."""
    resources = document["resources"]
    unresolved = document["unresolved"]
    findings = document["findings"]
    kinds = Counter(resource["kind"] for resource in resources)
    counts = ", ".join(f"{count} {escaped(kind)}" for kind, count in sorted(kinds.items()))
    lines = [
        f"{len(resources)} resources ({counts or 'none'}), {len(unresolved)} unresolved, "
        f"{len(findings)} findings"
    ]
    width = max((len(escaped(r["kind"])) for r in resources), default=0)
    lines += [
        f"  {escaped(r['kind']):<{width}}  {escaped(r['name'])}  {place(r['location'])}"
        for r in resources
    ]
    lines += [
        f"  unresolved  {escaped(u['path'])}  {escaped(u['reason'])}: {escaped(u['detail'])}"
        for u in unresolved
    ]
    lines += [
        f"  finding  {escaped(f['code'])}  {escaped(f['detail'])}  "
        + " ".join(place(location) for location in f["locations"])
        for f in findings
    ]
    return "\n".join(lines)
