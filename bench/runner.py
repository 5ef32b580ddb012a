"""The bench runner: every group's `run(quick)`, one at a time, one table, one JSON file.

Groups are modules `bench/<group>.py` exposing `run(quick: bool) -> list[dict]`, each run in a
process of its own (bench/group.py), bounded in time. A group whose module has no `run` yet is
skipped with a printed line rather than failing the run, so the groups can land in any order. A
group that raises or overruns its bound is recorded (its error, its time) and the run goes on;
the exit status is 1 when any group failed, 0 otherwise (a target not met is a figure, not a
failure: the table says it).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench import machine
from bench.group import GroupOutcome, outcome_from_json
from bench.table import render

REPO = Path(__file__).resolve().parent.parent

GROUPS = ("core", "gateway", "routes", "packs", "prefilter", "scale", "sandbox", "front_door")
"""The default run, in this order: the cheap in-process groups first, the servers after."""

DEFAULT_OUT = Path("bench-results.json")
QUICK_BUDGET_S = 60.0
"""What `--quick` is for: every group run in under a minute (each group ~10 s)."""
GROUP_BOUND_S = {True: 180.0, False: 1800.0}
"""How long one group may run, quick and full, before it is stopped (SIGTERM, then SIGKILL)."""
STOP_GRACE_S = 30.0


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the group's process group (the group unwinds and stops its servers), then
    SIGKILL to what is left after STOP_GRACE_S."""
    _signal_group(process, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(STOP_GRACE_S)
    _signal_group(process, signal.SIGKILL)
    process.wait(STOP_GRACE_S)


def run_group(group: str, quick: bool, bound_s: float) -> GroupOutcome:
    """The group's outcome from a child `python -m bench.group`, stopped after `bound_s`."""
    started = time.monotonic()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    with tempfile.TemporaryDirectory(prefix="gpp-bench-group-") as folder:
        out = Path(folder) / "outcome.json"
        mode = "quick" if quick else "full"
        child = subprocess.Popen(
            [sys.executable, "-m", "bench.group", group, mode, str(out)],
            env=env,
            start_new_session=True,
        )
        try:
            child.wait(bound_s)
        except subprocess.TimeoutExpired:
            stop(child)
            return GroupOutcome(
                group,
                "error",
                time.monotonic() - started,
                error=f"stopped after its bound of {bound_s:g} s",
            )
        finally:
            if child.poll() is None:  # the runner itself was interrupted
                stop(child)
        if not out.exists():
            return GroupOutcome(
                group,
                "error",
                time.monotonic() - started,
                error=f"its process exited {child.returncode} without an outcome",
            )
        return outcome_from_json(json.loads(out.read_text("utf-8")))


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
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes, one or two rounds: the whole run under a minute",
    )
    parser.add_argument(
        "--only", metavar="GROUP,...", help=f"run only these groups (default: {','.join(GROUPS)})"
    )
    parser.add_argument(
        "--bound",
        type=float,
        metavar="SECONDS",
        help="how long one group may run before it is stopped (default: "
        f"{GROUP_BOUND_S[True]:g} quick, {GROUP_BOUND_S[False]:g} full)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where the JSON goes (default: {DEFAULT_OUT})",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    groups = [g.strip() for g in args.only.split(",") if g.strip()] if args.only else GROUPS
    started = datetime.datetime.now(datetime.UTC)
    clock = time.monotonic()
    load_before = machine.load_average()
    print(
        f"bench: {'quick' if args.quick else 'full'} run of {', '.join(groups)}; "
        f"load average {load_before}",
        flush=True,
    )
    outcomes = []
    for group in groups:
        print(f"bench: {group} …", flush=True)
        outcome = run_group(group, args.quick, args.bound or GROUP_BOUND_S[args.quick])
        outcomes.append(outcome)
        if outcome.status == "skipped":
            print(f"bench: skipped {group}: {outcome.error}", flush=True)
        elif outcome.status == "error":
            print(
                f"bench: {group} failed after {outcome.seconds:.1f} s: {outcome.error}", flush=True
            )
        else:
            print(
                f"bench: {group} done in {outcome.seconds:.1f} s, {len(outcome.rows)} rows",
                flush=True,
            )
        for problem in outcome.problems:
            print(f"bench: {group}: malformed {problem}", flush=True)
    elapsed = time.monotonic() - clock
    document = results_document(outcomes, args.quick, load_before, started, elapsed)
    print()
    print(render([row for outcome in outcomes for row in outcome.rows]))
    print()
    print(
        f"bench: {elapsed:.1f} s; load average before {load_before}, after {machine.load_average()}"
    )
    if args.quick and elapsed > QUICK_BUDGET_S:
        slowest = max(outcomes, key=lambda outcome: outcome.seconds)
        print(
            f"bench: over the quick budget of {QUICK_BUDGET_S:g} s; slowest group "
            f"{slowest.name} ({slowest.seconds:.1f} s)"
        )
    args.out.write_text(json.dumps(document, indent=2, default=str) + "\n")
    print(f"bench: wrote {args.out}")
    return 1 if any(outcome.status == "error" for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
