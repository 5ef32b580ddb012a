"""The scan's last stage: the pack's `link` over every file's facts, guarded so that one file a
reader cannot handle never fails the document, and the document rendered in DESIGN §3's order.

The values every stage reports in (`Unresolved`, `ReaderError`) live here, with the one place
they become JSON, so the walk, the read and the selection say what went wrong in the
document's own shapes.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .pymodules import REPOSITORY_PACKAGES

F = TypeVar("F")

JSONObject = dict[str, Any]

READER_ERROR = "READER_ERROR"
DEADLINE_REACHED = "DEADLINE_REACHED"
DOCUMENT_BUDGET_EXCEEDED = "DOCUMENT_BUDGET_EXCEEDED"
DOCUMENT_NAME_BUDGET = 2_000_000
"""Characters of resource names one document lists. Each name is capped where it is computed
(`bounded_values.MAX_LENGTH`), but 3,000 SQLAlchemy models named `A + str(i)` over a
4,000-character constant (a 240 KB file) made a 12 MB document, past the host's 8 MiB line
cap (`E_FRAME_JSON`: no document at all). Past the budget, resources (in document order) are
left out with their signals, one finding naming where."""


@dataclass(frozen=True)
class Unresolved:
    """Why a path gave nothing: one `UnresolvedReason` of the result document."""

    path: str
    reason: str
    detail: str

    def as_json(self) -> JSONObject:
        return {"path": self.path, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class ReaderError:
    """A reader (`extract`, or `link` on this file's facts) raised: a `READER_ERROR` finding at
    the file, so one file a reader cannot handle never fails the whole document (DESIGN §8)."""

    path: str
    detail: str

    def as_json(self) -> JSONObject:
        location = {"path": self.path, "line": 1}
        return {"code": READER_ERROR, "detail": self.detail, "locations": [location]}


def reader_error(path: str, exc: BaseException) -> ReaderError:
    """The finding for `exc`, raised by a reader on `path`: its type and message, and the
    reader's own line that raised (the innermost frame), for a bug report."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    message = str(exc).splitlines()[0][:200] if str(exc) else ""
    detail = f"{type(exc).__name__}{where}" + (f": {message}" if message else "")
    return ReaderError(path, f"the reader failed on this file: {detail}")


@dataclass
class DocumentPieces:
    """What `link` found across the request's files, in the document's own shapes."""

    resources: list[JSONObject] = field(default_factory=list)
    findings: list[JSONObject] = field(default_factory=list)
    signals: list[JSONObject] = field(default_factory=list)
    # for an `OnDemand` scan: the files whose facts linking asked for, and names whose files
    # it needs parsed too (`OnDemand`)
    touched: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


Link = Callable[[Sequence[tuple[str, F]]], DocumentPieces]


class GuardedLink(Generic[F]):
    """A pack's `link` as the scanner runs it: a reader's exception on some file's facts is a
    `READER_ERROR` there, and a repeat whose facts are the very objects of the last link gets
    the last result. Keep one per scanner (it holds that last link)."""

    def __init__(self, timed: Callable[[Link[F]], Link[F]]) -> None:
        # `timed(link)`: `link`, measuring what linking a file costs (`Pace.timed`)
        self.timed = timed
        self._last: tuple[list[tuple[str, F]], frozenset[str], DocumentPieces] | None = None

    def __call__(
        self,
        facts: list[tuple[str, F]],
        failed: list[ReaderError],
        packages: frozenset[str],
        link: Link[F],
        *,
        memoized: bool = True,
    ) -> DocumentPieces:
        """`link` (through the last link's memo when `memoized`), and when it raises, the files
        whose facts make it raise on their own are set aside (each a `READER_ERROR` in
        `failed`) and the rest linked again; should that still raise, every file is linked
        alone (cross-file resolution lost, said in one finding). `packages`: every folder of
        the walk that is a package, which the link resolves imports by (`pymodules`)."""
        token = REPOSITORY_PACKAGES.set(packages)
        try:
            return self._guarded(facts, failed, packages, link, memoized)
        finally:
            REPOSITORY_PACKAGES.reset(token)

    def _guarded(
        self,
        facts: list[tuple[str, F]],
        failed: list[ReaderError],
        packages: frozenset[str],
        link: Link[F],
        memoized: bool,
    ) -> DocumentPieces:
        timed = self.timed(link)

        def whole(files: list[tuple[str, F]]) -> DocumentPieces:
            return self._memoized(files, packages, timed) if memoized else timed(files)

        try:
            return whole(facts)
        except Exception as exc:  # any reader bug becomes a finding
            first = exc
        kept: list[tuple[str, F]] = []
        for rel, value in facts:
            try:
                link([(rel, value)])
            except Exception as exc:
                failed.append(reader_error(rel, exc))
            else:
                kept.append((rel, value))
        try:
            return whole(kept)
        except Exception as exc:
            first = exc
        merged = DocumentPieces()
        for rel, value in kept:
            alone = link([(rel, value)])
            merged.resources += alone.resources
            merged.findings += alone.findings
            merged.signals += alone.signals
        if kept:
            error = reader_error(kept[0][0], first)
            detail = f"{error.detail} (across files: each file was linked alone)"
            failed.append(ReaderError(error.path, detail))
        return merged

    def _memoized(
        self, facts: list[tuple[str, F]], packages: frozenset[str], link: Link[F]
    ) -> DocumentPieces:
        """`link`, or the last link's result when every file's facts are the very same objects
        (all memo hits, same files) and the walk found the same packages: a repeated discover
        of an unchanged repo skips the link."""
        if self._last is not None:
            last, last_packages, linked = self._last
            if (
                last_packages == packages
                and len(last) == len(facts)
                and all(a[0] == b[0] and a[1] is b[1] for a, b in zip(last, facts, strict=True))
            ):
                return linked
        linked = link(facts)
        self._last = (facts, packages, linked)  # the facts held keep identities meaningful
        return linked


def deadline_finding(deadline_ms: float | None, not_reached: list[str]) -> JSONObject:
    """The `DEADLINE_REACHED` finding at each file not read and each folder not walked."""
    detail = (
        f"the scan stopped after {deadline_ms:.0f} ms (half of the plugin's request_ms) "
        f"with {len(not_reached)} files or folders not read yet; what was read is kept: "
        "repeat the request to go on, or raise request_ms"
    )
    locations = [{"path": rel, "line": 1} for rel in not_reached]
    return {"code": DEADLINE_REACHED, "detail": detail, "locations": locations}


def render(
    linked: DocumentPieces,
    failed: list[ReaderError],
    unresolved: list[Unresolved],
    not_reached: list[str],
    deadline_ms: float | None,
) -> JSONObject:
    """The result document, sorted as DESIGN §3 orders the reference detector's output:
    resources and signals by (path, line), findings by their first location, unresolved by
    path; paths compare by UTF-8 bytes; sorts are stable, so a pack's own order breaks ties."""
    findings = linked.findings + [f.as_json() for f in failed]
    if not_reached:
        findings.append(deadline_finding(deadline_ms, not_reached))
    resources = sorted(linked.resources, key=lambda r: at(r["location"]))
    signals = linked.signals
    resources, left_out = _within_budget(resources)
    if left_out:
        dropped = {f"{r['kind']}:{r['name']}" for r in left_out}
        kept = {f"{r['kind']}:{r['name']}" for r in resources}
        signals = [s for s in signals if s["resource"] in kept or s["resource"] not in dropped]
        findings.append(_budget_finding(left_out))
    findings = _short_details(findings)
    return {
        "resources": resources,
        "unresolved": [u.as_json() for u in sorted(unresolved, key=lambda u: utf8(u.path))],
        "findings": sorted(findings, key=lambda f: at(f["locations"][0])),
        "classificationSignals": sorted(signals, key=lambda s: at(s["source"])),
    }


def _within_budget(
    resources: list[JSONObject],
) -> tuple[list[JSONObject], list[JSONObject]]:
    """The resources whose names fit `DOCUMENT_NAME_BUDGET`, in order, and those left out."""
    spent = 0
    for index, resource in enumerate(resources):
        spent += len(resource["name"])
        if spent > DOCUMENT_NAME_BUDGET:
            return resources[:index], resources[index:]
    return resources, []


MAX_DETAIL = 1_000
"""Characters of one finding's detail: a detail quoting what the repository wrote (a name, an
option) is cut there, so findings grow with their number, never with a name's length times
the number of places it is used."""


def _short_details(findings: list[JSONObject]) -> list[JSONObject]:
    return [
        {**f, "detail": f"{f['detail'][: MAX_DETAIL - 3]}..."}
        if len(f["detail"]) > MAX_DETAIL
        else f
        for f in findings
    ]


def _budget_finding(left_out: list[JSONObject]) -> JSONObject:
    """One `DOCUMENT_BUDGET_EXCEEDED` finding, at the first resource left out of each file."""
    first: dict[str, int] = {}
    for resource in left_out:
        first.setdefault(resource["location"]["path"], resource["location"]["line"])
    detail = (
        f"{len(left_out)} resources are left out: their names pass {DOCUMENT_NAME_BUDGET} "
        "characters in all, more than a document carries"
    )
    locations = [{"path": path, "line": line} for path, line in first.items()]
    return {"code": DOCUMENT_BUDGET_EXCEEDED, "detail": detail, "locations": locations}


def utf8(path: str) -> bytes:
    return path.encode("utf-8", "surrogatepass")


def at(location: JSONObject) -> tuple[bytes, int]:
    """The sort key of a `Location`: path by UTF-8 bytes, then line."""
    return utf8(location["path"]), location["line"]
