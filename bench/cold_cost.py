"""One pack's cold and warm discover of a real checkout against parsing its every file, in ONE
process (issue 34: cold ≤ 0.25 × `ast.parse` of every file, warm ≤ 2 % of cold).

    bench/cold_cost.py /work/realrepos/WebODM [PACK] [--parse-all] [--rounds=N]

PACK is `http_routes` (default), `django`, `sqlalchemy` or `js_tables`. Printed as one JSON
line: CPU of `ast.parse` of every `.py` file (`bench/prefilter.py`'s walk) and of the routes
reader's tree-sitter parse of every script (`.js`… `.tsx`, minified bundles aside), the cold
discover's CPU, its ratio to the first (`ratio`) and to both (`ratio_all`, the one that means
something for a JavaScript repository), the files it parsed by suffix, the warm (repeated)
discover's CPU (the median of `WARM_REPEATS`) and its share of cold; `--parse-all` adds whether
the filtered document equals the parse-all one; `--rounds=N` measures N rounds (a new scanner
each) and prints the median of each figure, ratios taken within a round. One worker, the
cyclic collector off as the scanner has it.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import importlib
import json
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "bench":
    sys.path.pop(0)
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from packs.routes.js_facts import JS_SUFFIXES, parse_tree  # noqa: E402

from bench.cpu_clock import Stopwatch, collector_off  # noqa: E402
from bench.prefilter import python_files, scanner  # noqa: E402

WARM_REPEATS = 5
"""Repeats of the discover after each cold one; their median is the round's warm figure."""
SKIPPED = {"venv", "node_modules", "__pycache__", "site-packages", "dist", "build"}


def scripts(root: Path) -> list[tuple[str, bytes]]:
    found = []
    for here, directories, names in os.walk(root):
        directories[:] = sorted(d for d in directories if d[0] != "." and d not in SKIPPED)
        for name in sorted(names):
            if name.endswith(JS_SUFFIXES) and not name.endswith(".min.js"):
                with contextlib.suppress(OSError):
                    found.append((f"{here}/{name}", Path(here, name).read_bytes()))
    return found


def baselines(root: Path) -> tuple[float, float, int, int]:
    """CPU of `ast.parse` of every `.py` file, of tree-sitter of every script, and counts."""
    sources = []
    for path in python_files(root):
        with contextlib.suppress(OSError):
            sources.append((str(path), path.read_bytes()))
    code = scripts(root)
    with collector_off(), Stopwatch() as parse:
        for name, data in sources:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(data, filename=name)
    with collector_off(), Stopwatch() as trees:
        for name, data in code:
            with contextlib.suppress(Exception):
                parse_tree(data, name)
    return parse.cpu, trees.cpu, len(sources), len(code)


def counted(pack: str, parsed: list[str], *, parse_all: bool) -> Any:
    """`pack`'s scanner as its entry script makes it, its extract counting into `parsed`."""
    if pack in {"http_routes", "js_tables"}:
        entry = importlib.import_module(f"pack_{pack}")
        reader = entry if pack == "http_routes" else importlib.import_module("packs.js_tables")
        # the readers the scanner is made with (pack-http-routes: its lean one too)
        names = [n for n in ("extract", "extract_lean") if hasattr(reader, n)]
        originals = {name: getattr(reader, name) for name in names}

        def counting(read: Callable[[str, str], Any]) -> Callable[[str, str], Any]:
            def counted_read(path: str, source: str) -> Any:
                parsed.append(path)
                return read(path, source)

            return counted_read

        for name, read in originals.items():
            setattr(reader, name, counting(read))  # read when the scanner is made
        try:
            made = entry.make_scanner(parse_all=parse_all)
        finally:
            for name, read in originals.items():
                setattr(reader, name, read)
        made.workers = 1
        return made
    analyzer = importlib.import_module(f"packs.{pack}_models")

    def counting_models(path: str, source: str) -> Any:
        parsed.append(path)
        return analyzer.extract(path, source)

    return scanner(pack, counting_models, parse_all=parse_all)


def measure(root: Path, pack: str, *, parse_all: bool, rounds: int = 1) -> dict[str, Any]:
    """The figures of `rounds` rounds, each a baseline next to a new scanner's cold discover
    and its repeats (`WARM_REPEATS`, their median): per-round ratios, their median printed."""
    figures: dict[str, list[float]] = collections.defaultdict(list)
    old = Path.cwd()
    try:
        for _ in range(rounds):
            parse, trees, files, code = baselines(root)
            parsed: list[str] = []
            os.chdir(root)
            scan = counted(pack, parsed, parse_all=False)
            with Stopwatch() as cold:
                document = scan.discover(["."])
            cold_parsed = list(parsed)
            repeats = []
            for _ in range(WARM_REPEATS):
                with Stopwatch() as warm:
                    scan.discover(["."])
                repeats.append(warm.cpu)
            os.chdir(old)
            warm_s = statistics.median(repeats)
            figures["ast.parse s"].append(parse)
            figures["tree-sitter s"].append(trees)
            figures["cold s"].append(cold.cpu)
            figures["warm s"].append(warm_s)
            if files:  # no `.py` file: no baseline (a clock's noise is no parse)
                figures["ratio"].append(cold.cpu / parse)
            if parse + trees:
                figures["ratio_all"].append(cold.cpu / (parse + trees))
            figures["warm/cold"].append(warm_s / cold.cpu)
        median = {name: statistics.median(values) for name, values in figures.items()}
        out: dict[str, Any] = {
            "repo": root.name, "pack": pack, "rounds": rounds, "py files": files, "scripts": code,
            "ast.parse s": round(median["ast.parse s"], 3),
            "tree-sitter s": round(median["tree-sitter s"], 3),
            "cold s": round(median["cold s"], 3),
            "ratio": round(median["ratio"], 3) if "ratio" in median else None,
            "ratio_all": round(median["ratio_all"], 3) if "ratio_all" in median else None,
            "parsed": len(cold_parsed),
            "by suffix": dict(collections.Counter(Path(p).suffix for p in cold_parsed)),
            "warm s": round(median["warm s"], 5), "warm/cold": round(median["warm/cold"], 4),
            "resources": len(document["resources"]), "findings": len(document["findings"]),
        }  # fmt: skip
        if parse_all:
            os.chdir(root)
            reference = counted(pack, [], parse_all=True).discover(["."])
            out["identical"] = json.dumps(reference, sort_keys=True) == json.dumps(
                document, sort_keys=True
            )
    finally:
        os.chdir(old)
    return out


def command_line(argv: list[str], usage: str | None) -> tuple[Path, str, int]:
    """`REPO [PACK] [--rounds=N]` of this script and `bench/cold_phases.py`: the repository,
    the pack (`http_routes` by default) and the rounds (1); the usage text when no repository."""
    arguments = [a for a in argv[1:] if not a.startswith("--")]
    if not arguments:
        sys.exit(usage)
    pack = arguments[1] if len(arguments) > 1 else "http_routes"
    rounds = next((int(a.partition("=")[2]) for a in argv if a.startswith("--rounds=")), 1)
    return Path(arguments[0]), pack, rounds


if __name__ == "__main__":
    root, pack, rounds = command_line(sys.argv, __doc__)
    parse_all = "--parse-all" in sys.argv
    print(json.dumps(measure(root, pack, parse_all=parse_all, rounds=rounds)))
