"""The bench runner: every group's `run(quick)`, one at a time, one table, one JSON file.

Groups are modules `bench/<group>.py` exposing `run(quick: bool) -> list[dict]`. A group whose
module has no `run` yet is skipped with a printed line rather than failing the run, so the
groups can land in any order. A group that raises is recorded (its error, its time) and the
run goes on; the exit status is 1 when any group failed, 0 otherwise (a target not met is a
figure, not a failure: the table says it).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from bench import machine
from bench.table import Row, render, row_problems

GROUPS = ("core", "gateway", "routes", "packs", "scale", "sandbox", "front_door")
"""The default run, in this order: the cheap in-process groups first, the servers after."""

DEFAULT_OUT = Path("bench-results.json")

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


def results_document(
    outcomes: Sequence[GroupOutcome],
    quick: bool,
    load_before: list[float],
    started: datetime.datetime,
    seconds: float,
) -> dict[str, object]:
    return {
        "timestamp": started.isoformat(timespec="seconds"),
        "quick": quick,
        "seconds": round(seconds, 3),
        "machine": {
            **machine.machine(),
            "load_average_before": load_before,
            "load_average_after": machine.load_average(),
        },
        "versions": machine.versions(),
        "groups": [outcome.summary() for outcome in outcomes],
        "rows": [row for outcome in outcomes for row in outcome.rows],
    }


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, one or two rounds: the whole run under a minute")  # fmt: skip
    parser.add_argument("--only", metavar="GROUP,...",
                        help=f"run only these groups (default: {','.join(GROUPS)})")  # fmt: skip
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"where the JSON goes (default: {DEFAULT_OUT})")  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    groups = [g.strip() for g in args.only.split(",") if g.strip()] if args.only else GROUPS
    started = datetime.datetime.now(datetime.UTC)
    clock = time.monotonic()
    load_before = machine.load_average()
    print(f"bench: {'quick' if args.quick else 'full'} run of {', '.join(groups)}; "
          f"load average {load_before}", flush=True)  # fmt: skip
    outcomes = []
    for group in groups:
        print(f"bench: {group} …", flush=True)
        outcome = run_group(group, args.quick)
        outcomes.append(outcome)
        if outcome.status == "skipped":
            print(f"bench: skipped {group}: {outcome.error}", flush=True)
        elif outcome.status == "error":
            print(f"bench: {group} failed after {outcome.seconds:.1f} s: {outcome.error}",
                  flush=True)  # fmt: skip
        else:
            print(f"bench: {group} done in {outcome.seconds:.1f} s, {len(outcome.rows)} rows",
                  flush=True)  # fmt: skip
        for problem in outcome.problems:
            print(f"bench: {group}: malformed {problem}", flush=True)
    document = results_document(outcomes, args.quick, load_before, started,
                                time.monotonic() - clock)  # fmt: skip
    print()
    print(render([row for outcome in outcomes for row in outcome.rows]))
    print()
    print(f"bench: {document['seconds']} s; load average before {load_before}, "
          f"after {machine.load_average()}")  # fmt: skip
    args.out.write_text(json.dumps(document, indent=2, default=str) + "\n")
    print(f"bench: wrote {args.out}")
    return 1 if any(outcome.status == "error" for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
