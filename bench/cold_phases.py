"""Where one pack's cold discover of a real checkout spends its CPU, phase by phase, each as a
share of `ast.parse` of every `.py` file (issue 34: cold ≤ 0.25 × that), in one process.

    bench/cold_phases.py /work/realrepos/zou [PACK] [--rounds=N]

PACK is `http_routes` (default), `django` or `sqlalchemy` (`bench/cold_cost.py` makes the
scanner). Printed as one JSON line, the median of N rounds (each a baseline, then a new
scanner's cold discover): the baseline; the cold discover; and the phases inside it, timed by
wrapping the functions that run them: `select` (judging every walked file's bytes: the
on-demand admission or the byte pre-filter), `words` (the on-demand rounds' looks for the
link's words), `extract` (reading and extracting the chosen files; of it `ast.parse`, and for
pack-http-routes `django facts`), `link` (every link, `links` the on-demand rounds' count) and
`rest` (the walk, the render and what no wrapper covers); of `link`, for pack-http-routes,
`django link` (the Django URLconfs' walk) and of it `registries` (running the decorators that
fill a registry a URL builder reads, `django_registries.fill_registry`, once a link); `extract
admitted` is the first round's (the files the pre-filter admits), `extract asked` the later
rounds' (the files the links asked for). `needed parse` is `ast.parse` of just the files the
cold discover parsed: no reader that parses whole files can go below it. One
worker, the cyclic collector off, as the scanner has it. Figures, not a test.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "bench":
    sys.path.pop(0)
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from packs import pyparse, scan_document, scan_select  # noqa: E402

from bench.cold_cost import baselines, command_line, counted  # noqa: E402
from bench.cpu_clock import Stopwatch, collector_off  # noqa: E402


class Phases:
    """CPU seconds spent inside wrapped functions, by phase; an inner phase is counted in its
    outer one too (`ast.parse` inside `extract`)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = collections.defaultdict(float)
        self.calls: dict[str, int] = collections.defaultdict(int)

    def wrap(self, owner: Any, name: str, phase: str) -> Callable[[], None]:
        """Time `owner.name` under `phase` from now on; returns what puts it back. The first
        call of `extract` (the first round's files) is also counted as `extract admitted`,
        the others as `extract asked` (the files a link asked for)."""
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.process_time() - began
                self.seconds[phase] += spent
                if phase == "extract":
                    round_ = "extract admitted" if not self.calls[phase] else "extract asked"
                    self.seconds[round_] += spent
                self.calls[phase] += 1

        setattr(owner, name, timed)
        return lambda: setattr(owner, name, original)


@contextlib.contextmanager
def wrapped(phases: Phases, pack: str) -> Iterator[None]:
    """The phases' functions timed while the block runs (the scanner is made inside it)."""
    targets: list[tuple[Any, str, str]] = [
        (scan_select.OnDemandSelection, "_admitted", "select"),
        (scan_select.PreFilter, "kept", "select"),
        (scan_select, "_holds_word", "words"),
        (scan_select.FileReader, "read_all", "extract"),
        (scan_document.GuardedLink, "__call__", "link"),
    ]
    if pack == "http_routes":
        facts = importlib.import_module("packs.routes.python_facts")
        targets += [(facts, "parse_python", "ast.parse"), (facts, "django_facts", "django facts")]
        django = importlib.import_module("packs.routes.django_linker")
        collect = importlib.import_module("packs.routes.django_collect")
        targets += [
            (django.DjangoRouteResolver, "routes", "django link"),
            (collect, "fill_registry", "registries"),
        ]
    else:
        module = importlib.import_module(f"packs.{pack}_models")
        targets.append((module, "parse_python", "ast.parse"))
    restore = [phases.wrap(owner, name, phase) for owner, name, phase in targets]
    try:
        yield
    finally:
        for undo in reversed(restore):
            undo()


def needed_parse(root: Path, parsed: list[str]) -> float:
    """CPU of `ast.parse` of just the files a cold discover parsed."""
    sources = []
    for rel in parsed:
        with contextlib.suppress(OSError):
            sources.append((rel, (root / rel).read_text(encoding="utf-8")))
    with collector_off(), Stopwatch() as clock:
        for rel, source in sources:
            with contextlib.suppress(SyntaxError, ValueError):
                pyparse.parse_python(source, rel)
    return clock.cpu


def measure(root: Path, pack: str, rounds: int) -> dict[str, Any]:
    figures: dict[str, list[float]] = collections.defaultdict(list)
    old = Path.cwd()
    links = 0
    try:
        for _ in range(rounds):
            parse = baselines(root)[0]
            phases = Phases()
            parsed: list[str] = []
            os.chdir(root)
            with wrapped(phases, pack):
                scan = counted(pack, parsed, parse_all=False)
                with Stopwatch() as cold:
                    scan.discover(["."])
            os.chdir(old)
            links = phases.calls["link"]
            figures["ast.parse of every file s"].append(parse)
            figures["cold s"].append(cold.cpu)
            shares = {
                name: phases.seconds[name]
                for name in (
                    "select",
                    "words",
                    "extract",
                    "extract admitted",
                    "extract asked",
                    "ast.parse",
                    "django facts",
                    "link",
                    "django link",
                    "registries",
                )
                if name in phases.seconds
            }
            outer = ("select", "words", "extract", "link")
            shares["rest"] = cold.cpu - sum(shares.get(name, 0.0) for name in outer)
            shares["needed parse"] = needed_parse(root, parsed)
            shares["cold"] = cold.cpu
            for name, seconds in shares.items():
                figures[f"{name} ÷ parse"].append(seconds / parse)
            figures["parsed"].append(len(parsed))
    finally:
        os.chdir(old)
    out: dict[str, Any] = {"repo": root.name, "pack": pack, "rounds": rounds, "links": links}
    for name, values in figures.items():
        out[name] = round(statistics.median(values), 3)
    return out


if __name__ == "__main__":
    root, pack, rounds = command_line(sys.argv, __doc__)
    print(json.dumps(measure(root, pack, rounds), ensure_ascii=False))
