"""One bench group, run in a process of its own: `python -m bench.group GROUP quick|full OUT`.

The runner starts one of these per group so that each is bounded in time (a group that hangs is
stopped, its servers with it), a group's memory figures are not another group's leftovers, and a
group's crash is its own. The outcome (rows, or why there are none) is written to OUT as JSON.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, ModuleType

from bench.table import Row, row_problems

GroupRun = Callable[[bool], object]
"""What a group module exposes; what it returns is checked, not trusted."""


@dataclass
class GroupOutcome:
    """What one group did: ok (rows), skipped (no `run` yet) or error (it raised)."""

    name: str
    status: str
    seconds: float = 0.0
    rows: list[Row] = field(default_factory=list)
    error: str | None = None
    problems: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        """Everything but the rows, for bench-results.json's list of groups."""
        return {
            "name": self.name,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "rows": len(self.rows),
            "error": self.error,
            "problems": self.problems,
        }


def module_name(group: str) -> str:
    """`core` is `bench.core`; a dotted name is a module path as given (how the smoke test
    brings a group of its own)."""
    return group if "." in group else f"bench.{group}"


def find_run(group: str) -> tuple[GroupRun | None, str | None]:
    """The group's `run`, or None and why it is missing."""
    try:
        module: ModuleType = importlib.import_module(module_name(group))
    except ImportError as exc:
        if exc.name == module_name(group):
            return None, f"no module {module_name(group)}"
        raise
    run = getattr(module, "run", None)
    if not callable(run):
        return None, f"{module_name(group)} has no run(quick) yet"
    return run, None


@contextlib.contextmanager
def script_argv(group: str) -> Iterator[None]:
    """sys.argv as if the group ran as a script with no arguments: the group modules are
    scripts too, and some read their arguments at import; the runner's are not theirs."""
    saved = sys.argv
    sys.argv = [f"bench/{group}.py"]
    try:
        yield
    finally:
        sys.argv = saved


def run_group(group: str, quick: bool) -> GroupOutcome:
    started = time.monotonic()
    try:
        with script_argv(group):
            run, missing = find_run(group)
            if run is None:
                return GroupOutcome(group, "skipped", time.monotonic() - started, error=missing)
            rows = run(quick)
    except Exception as exc:  # a group's failure is recorded, the others still run
        traceback.print_exc()
        error = f"{type(exc).__name__}: {exc}"
        return GroupOutcome(group, "error", time.monotonic() - started, error=error)
    outcome = GroupOutcome(group, "ok", time.monotonic() - started)
    if not isinstance(rows, list):
        outcome.problems.append(f"run returned {type(rows).__name__}, not a list")
        rows = []
    for index, row in enumerate(rows):
        problems = row_problems(row)
        outcome.problems.extend(f"row {index}: {p}" for p in problems)
        if isinstance(row, dict):
            outcome.rows.append(row)
    return outcome


def outcome_from_json(raw: dict[str, object]) -> GroupOutcome:
    rows = raw.get("rows")
    problems = raw.get("problems")
    return GroupOutcome(
        name=str(raw["name"]),
        status=str(raw["status"]),
        seconds=float(str(raw["seconds"])),
        rows=[row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else [],
        error=None if raw.get("error") is None else str(raw["error"]),
        problems=[str(p) for p in problems] if isinstance(problems, list) else [],
    )


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (the runner's time bound) unwinds the group, so its `finally` blocks and
    context managers stop the servers it started."""
    raise SystemExit(128 + signum)


def main(argv: Sequence[str]) -> int:
    group, mode, out = argv
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    outcome = run_group(group, mode == "quick")
    document = {**outcome.summary(), "rows": outcome.rows}
    Path(out).write_text(json.dumps(document, default=str), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
