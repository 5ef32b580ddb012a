"""`gpp scan REPO`: every bundled pack over one repository, as a person reads it.

Each pack runs as `gpp discover` runs one (its registered session, in its sandbox, no HTTP),
one after the other: a machine of two cores gains nothing from three sandboxes at once, and a
progress line per pack says where the scan is. A pack that fails is that pack's outcome (its
diagnostic lines); the others still print. Running is the IO part (`run_packs`); what is printed
is built from outcomes alone (`summary_text`, `json_text`, and app.scan_page for the HTML page),
so the builders are tested with documents, not processes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpp.core import canonical_trusted, codes
from gpp.host import PluginSession

from . import summary
from .config import Config
from .logs import escaped
from .plugin_words import failure_lines

BUNDLED_PACKS = ("pack-http-routes", "pack-sqlalchemy", "pack-django", "pack-js-tables")
"""The packs plugins/registry.toml registers; `--packs` chooses among any GPP/3 plugin."""
DEADLINE_REACHED = "DEADLINE_REACHED"
"""The packs' finding for a discover that answered before reading everything (docs/detectors.md)."""
REPEATS_AT_MOST = 20
"""Discovers asked again in one session after a `DEADLINE_REACHED` answer: a bound, since each
repeat must also change what is left unread (a folder walked turns into its files, so the count
may grow) or the scan keeps what it has."""


@dataclass(frozen=True)
class PackOutcome:
    """One pack's answer: its result document, or the `E_*` code and diagnostic lines (already
    escaped for the terminal) of its failure."""

    pack: str
    document: dict[str, Any] | None = None
    code: str | None = None
    failure: list[str] = field(default_factory=list)


async def run_packs(
    config: Config, packs: Sequence[str], progress: Callable[[str], None]
) -> list[PackOutcome]:
    """Each pack over its root (`.`, the whole repository), in order; `progress` hears a line as
    each starts."""
    outcomes = []
    for number, pack in enumerate(packs, 1):
        progress(f"gpp scan: {pack} ({number}/{len(packs)})")
        plugin = config.plugins[pack]
        session = plugin.session()
        try:
            async with session:
                document = await _discover_whole(session, pack, progress)
        except codes.ProtocolError as exc:
            outcomes.append(
                PackOutcome(pack, code=exc.code, failure=failure_lines(exc, plugin.command))
            )
            continue
        outcomes.append(PackOutcome(pack, document=document))
    return outcomes


async def _discover_whole(
    session: PluginSession, pack: str, progress: Callable[[str], None]
) -> dict[str, Any]:
    """A pack that runs out of time answers what it has read with a `DEADLINE_REACHED` finding and
    keeps its work in the session's memo, so the same request in the same session goes further.
    A person running `gpp scan` wants the whole repository, not the first `request_ms` of it:
    ask again while each answer leaves other places unread than the one before."""
    document: dict[str, Any] = json.loads(canonical_trusted(await session.discover(["."])))
    left = _not_read(document)
    for _ in range(REPEATS_AT_MOST):
        if not left:
            break
        progress(f"gpp scan: {pack}: {len(left)} files or folders not read in time; asking again")
        document = json.loads(canonical_trusted(await session.discover(["."])))
        before, left = left, _not_read(document)
        if left == before:
            break
    return document


def _not_read(document: dict[str, Any]) -> list[Any]:
    """The places a `DEADLINE_REACHED` finding names (none when the pack read everything)."""
    return [
        place
        for finding in document.get("findings", [])
        if finding.get("code") == DEADLINE_REACHED
        for place in finding.get("locations", [])
    ]


def framework(resource: dict[str, Any], pack: str) -> str:
    """The framework a resource came from: its `attrs.framework` where the pack names one
    (pack-http-routes does), else the pack's own (`pack-django` → `django`)."""
    named = resource["attrs"].get("framework")
    return named if isinstance(named, str) and named else pack.removeprefix("pack-")


def summary_text(repo: str, outcomes: Sequence[PackOutcome]) -> str:
    """Totals, per kind and per framework; then each pack's table (app.summary, as
    `gpp discover --format table` prints it) or its failure."""
    documents = [(o.pack, o.document) for o in outcomes if o.document is not None]
    resources = [(pack, r) for pack, document in documents for r in document["resources"]]
    kinds = Counter(r["kind"] for _, r in resources)
    by_framework = Counter((framework(r, pack), r["kind"]) for pack, r in resources)
    failed = len(outcomes) - len(documents)
    lines = [
        f"gpp scan {escaped(repo)}: {len(outcomes)} packs"
        + (f" ({failed} failed)" if failed else "")
        + f", {len(resources)} resources",
        "per kind: " + (_counts(kinds) or "nothing found"),
        "per framework: "
        + (
            "; ".join(
                f"{escaped(name)} {count} {escaped(kind)}"
                for (name, kind), count in sorted(by_framework.items())
            )
            or "nothing found"
        ),
    ]
    for outcome in outcomes:
        lines.append("")
        if outcome.document is None:
            lines.append(f"{outcome.pack}: FAIL {outcome.code}")
            lines += [f"  {line}" for line in outcome.failure]
        else:
            lines.append(f"{outcome.pack}: {summary.table(outcome.document)}")
    return "\n".join(lines)


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{escaped(kind)} {count}" for kind, count in sorted(counter.items()))


def json_text(outcomes: Sequence[PackOutcome]) -> str:
    """One JSON object keyed by pack id: its result document, or `{"error": {code, lines}}`."""
    return json.dumps(
        {
            o.pack: o.document
            if o.document is not None
            else {"error": {"code": o.code, "lines": o.failure}}
            for o in outcomes
        },
        indent=2,
        sort_keys=True,
    )
