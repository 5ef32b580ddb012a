"""pack-http-routes on a generated 5,000-file repository (half FastAPI routers, half Express
routers in JavaScript and TypeScript, wired through package aggregators): a cold discover
against parsing alone (`ast.parse` for the Python files, tree-sitter for the others), a repeated
discover of the unchanged repository, and one after a single file changed.

Figures from the plugin process (one pinned process, GPP/3 frames over its pipes, timed from
the discover frame written to the result frame read, see `PipeHost`) and from the scanner in
this process, measured in rounds (`bench/cpu_clock.py`): each round parses alone, then
discovers in process and through a fresh plugin process, so a ratio compares neighbours in
time; medians over the rounds are printed with their range. Throughput is wall-clock: the
scanner spreads the reading of files over the usable CPUs (`packs.fan_out`), while parsing
alone runs in one process; the CPU both spend is printed beside it (parse CPU / discover CPU,
workers included), so what the CPUs buy shows. Usage: `bench/routes.py [FILES [ROUNDS]]`.
Prints figures and ratios; asserts nothing. `run(quick)` gives the same figures as rows for
`python -m bench` (quick: 600 files, one round). `bench/routes.py --stages [FILES [ROUNDS]]`
prints instead where a cold discover's CPU goes, stage by stage (parsing, reading the trees,
linking, rendering, walking and opening), each as a share of parsing alone.
Targets (issue 11): cold ≥ 0.5 of parsing alone; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import gc
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from pack_http_routes import PLUGIN_ID, PLUGIN_VERSION, make_scanner  # noqa: E402
from packs.fan_out import usable_cpus  # noqa: E402
from packs.routes.document import route_document  # noqa: E402
from packs.routes.js_facts import LANGUAGES, js_facts  # noqa: E402
from packs.routes.linker import resolve_routes  # noqa: E402
from packs.routes.model import ModuleFacts  # noqa: E402
from packs.routes.python_facts import python_facts  # noqa: E402
from packs.scan import DocumentPieces  # noqa: E402
from tree_sitter import Parser  # noqa: E402

from bench import table  # noqa: E402
from bench.cpu_clock import Rounds, Stopwatch, collector_off  # noqa: E402
from bench.pipe_host import PipeHost, cold_repeat_changed  # noqa: E402

FILES = 5_000
ROUNDS = 5
QUICK_FILES = 600
PACKAGES = 50
PY_ROUTER = '''"""Generated router {n}."""

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException

from ..deps import get_current_user, get_db

router = APIRouter(prefix="/res{n}", tags=["res{n}"])


@router.get("/")
def list_res{n}(db: Annotated[object, Depends(get_db)], skip: int = 0) -> list[dict[str, int]]:
    return [{{"id": i}} for i in range(skip, skip + 10)]


@router.get("/{{item_id}}")
def read_res{n}(item_id: int) -> dict[str, int]:
    if item_id < 0:
        raise HTTPException(status_code=404)
    return {{"id": item_id}}


@router.post("/", dependencies=[Depends(get_current_user)])
def create_res{n}(payload: dict[str, object]) -> dict[str, object]:
    return payload


@router.delete("/{{item_id}}")
def delete_res{n}(item_id: int, user: Annotated[object, Depends(get_current_user)]) -> None:
    return None
'''
JS_ROUTER = """const express = require('express');
const {{ requireAuth }} = require('../auth');

const router = express.Router();

function listThings{n}(req, res) {{
  res.json([]);
}}

router.route('/')
  .get(listThings{n})
  .post(requireAuth, (req, res) => res.status(201).json(req.body));

router.get('/:thingId', (req, res) => res.json({{ id: req.params.thingId }}));
router.delete('/:thingId', requireAuth, (req, res) => res.sendStatus(204));

module.exports = router;
"""
TS_ROUTER = """import {{ Request, Response, Router }} from 'express';

import {{ requireAuth }} from '../auth';

const router = Router();

router.get('/', (_req: Request, res: Response) => {{
  res.json([]);
}});
router.get('/:thingId', (req: Request, res: Response) => res.json({{ id: req.params.thingId }}));
router.post('/', requireAuth, (req: Request, res: Response) => res.status(201).json(req.body));
router.delete('/:thingId', requireAuth, (_req: Request, res: Response) => res.sendStatus(204));

export default router;
"""


def generate(root: Path, count: int = FILES) -> list[Path]:
    files: list[Path] = []

    def write(rel: str, text: str) -> Path:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        files.append(path)
        return path

    write("api/__init__.py", "")
    write("api/deps.py", "def get_db(): ...\n\n\ndef get_current_user(): ...\n")
    write("web/auth.js", "exports.requireAuth = (req, res, next) => next();\n")
    routers = (count - len(files) - 2 - 2 * PACKAGES) // 2
    py_packages: dict[int, list[int]] = {}
    js_packages: dict[int, list[tuple[int, str]]] = {}
    for n in range(routers):
        package = n % PACKAGES
        write(f"api/pkg{package:02d}/r{n:04d}.py", PY_ROUTER.format(n=n))
        py_packages.setdefault(package, []).append(n)
        ext = ".ts" if n % 2 else ".js"
        write(
            f"web/pkg{package:02d}/t{n:04d}{ext}", (TS_ROUTER if n % 2 else JS_ROUTER).format(n=n)
        )
        js_packages.setdefault(package, []).append((n, ext))
    for package, numbers in py_packages.items():
        lines = ["from fastapi import APIRouter\n"]
        lines += [f"from .r{n:04d} import router as r{n:04d}\n" for n in numbers]
        lines.append(f"\nrouter = APIRouter(prefix='/p{package:02d}')\n")
        lines += [f"router.include_router(r{n:04d})\n" for n in numbers]
        write(f"api/pkg{package:02d}/__init__.py", "".join(lines))
    for package, entries in js_packages.items():
        lines = ["const { Router } = require('express');\n\nconst router = Router();\n"]
        lines += [f"router.use('/t{n:04d}', require('./t{n:04d}{ext}'));\n" for n, ext in entries]
        write(f"web/pkg{package:02d}/index.js", "".join(lines) + "\nmodule.exports = router;\n")
    main = ["from fastapi import FastAPI\n\n"]
    main += [f"from api import pkg{p:02d}\n" for p in py_packages]
    main.append("\napp = FastAPI()\n")
    main += [f"app.include_router(pkg{p:02d}.router, prefix='/api')\n" for p in py_packages]
    write("api/main.py", "".join(main))
    server = ["const express = require('express');\n\nconst app = express();\n"]
    server += [f"app.use('/web', require('./pkg{p:02d}'));\n" for p in js_packages]
    write("web/server.js", "".join(server) + "\nmodule.exports = app;\n")
    return files


def parse_alone(sources: list[tuple[Path, bytes]]) -> Stopwatch:
    """Parsing only, the floor any reader of these files pays: ast for Python, tree-sitter for
    JavaScript/TypeScript (the parsers made once, as the plugin makes them); one process, with
    the cyclic collector off as `Scanner.discover` has it (on, its passes over what the bench
    holds would slow the baseline, not the parse)."""
    parsers = {name: Parser(language) for name, language in LANGUAGES.items()}
    with collector_off(), Stopwatch() as watch:
        for path, data in sources:
            if path.suffix == ".py":
                ast.parse(data, filename=str(path))
            else:
                parsers["typescript" if path.suffix == ".ts" else "javascript"].parse(data)
    return watch


def in_process(root: Path, paths: list[str]) -> tuple[Stopwatch, Stopwatch, int]:
    """A fresh scanner's cold discover of `paths` and its repeat; the routes."""
    old = os.getcwd()
    os.chdir(root)
    try:
        scanner = make_scanner()
        with Stopwatch() as cold:
            document = scanner.discover(paths)
        with Stopwatch() as repeat:
            scanner.discover(paths)
    finally:
        os.chdir(old)
    return cold, repeat, len(document["resources"])


def through_pipes(root: Path, changed: Path | None) -> dict[str, Any]:
    """Cold and repeated discover by a fresh plugin process; with `changed`, one more after
    changing a router's prefix in it, and whether the document follows."""
    command = [sys.executable, str(REPO / "plugins" / "pack_http_routes.py")]
    return cold_repeat_changed(
        PipeHost(command, root, PLUGIN_ID, PLUGIN_VERSION),
        changed,
        ('prefix="/res7"', 'prefix="/seven"'),
        lambda names: "GET /api/p07/seven/" in names and "GET /api/p07/res7/" not in names,
    )


def stages(root: Path, sources: list[tuple[Path, bytes]]) -> dict[str, float]:
    """CPU seconds of each stage of a cold discover, measured apart over the same files: the
    parsers alone, each reader (parse included), the linker, the rendering of its routes, and
    the scanner's walk, opens and reads with extraction and linking made no-ops. The cyclic
    collector is off throughout, as `Scanner.discover` has it."""
    gc.collect()
    gc.disable()
    try:
        return _stages(root, sources)
    finally:
        gc.enable()


def _stages(root: Path, sources: list[tuple[Path, bytes]]) -> dict[str, float]:
    python = [(p.relative_to(root).as_posix(), d) for p, d in sources if p.suffix == ".py"]
    script = [(p.relative_to(root).as_posix(), d) for p, d in sources if p.suffix != ".py"]
    figures = {
        "ast.parse": parse_alone([(p, d) for p, d in sources if p.suffix == ".py"]).cpu,
        "tree-sitter parse": parse_alone([(p, d) for p, d in sources if p.suffix != ".py"]).cpu,
    }
    with Stopwatch() as watch:
        facts: list[tuple[str, ModuleFacts]] = [(p, python_facts(d.decode(), p)) for p, d in python]
    figures["Python reader (parse included)"] = watch.cpu
    with Stopwatch() as watch:
        facts += [(p, js_facts(d, p)) for p, d in script]
    figures["JS/TS reader (parse included)"] = watch.cpu
    facts.sort(key=lambda item: item[0].encode())
    with Stopwatch() as watch:
        resolve_routes(dict(facts))
    figures["link"] = watch.cpu
    with Stopwatch() as watch:
        route_document(facts)
    figures["render (link + render - link)"] = watch.cpu - figures["link"]
    scanner = make_scanner()
    scanner.workers = 1  # CPU by stage: everything in this process
    scanner.extract = lambda path, source: ModuleFacts(language="python")
    scanner.link = lambda files: DocumentPieces()
    old = os.getcwd()
    os.chdir(root)
    try:
        with Stopwatch() as watch:
            scanner.discover(["."])
    finally:
        os.chdir(old)
    figures["walk, open, read, memo"] = watch.cpu
    parse = figures["ast.parse"] + figures["tree-sitter parse"]
    figures["Python reader beyond its parse / parse"] = (
        figures["Python reader (parse included)"] - figures["ast.parse"]
    ) / parse
    figures["JS/TS reader beyond its parse / parse"] = (
        figures["JS/TS reader (parse included)"] - figures["tree-sitter parse"]
    ) / parse
    figures["link / parse"] = figures["link"] / parse
    figures["render / parse"] = figures["render (link + render - link)"] / parse
    figures["walk, open, read, memo / parse"] = figures["walk, open, read, memo"] / parse
    return figures


def print_stages(count: int, rounds: int) -> None:
    rows = Rounds()
    with tempfile.TemporaryDirectory(prefix="gpp-bench-routes-") as tmp:
        root = Path(tmp)
        files = generate(root, count)
        sources = [(p, p.read_bytes()) for p in files]
        for _ in range(rounds):
            rows.add(stages(root, sources))
    print(
        f"pack-http-routes cold discover on {len(files)} generated files, by stage; CPU "
        f"seconds and shares of parsing alone, median (min-max) of {rounds} rounds"
    )
    print(rows.table(44))


def measure(count: int, rounds: int) -> tuple[Rounds, dict[str, Any], int, int]:
    """The figures of `rounds` rounds over a generated repository of `count` files: the rounds,
    the last plugin process's figures (with the changed file's), the files and the routes."""
    rows = Rounds()
    plugin: dict[str, Any] = {}
    routes = 0
    with tempfile.TemporaryDirectory(prefix="gpp-bench-routes-") as tmp:
        root = Path(tmp)
        files = generate(root, count)
        sources = [(p, p.read_bytes()) for p in files]
        python_sources = [(p, data) for p, data in sources if p.suffix == ".py"]
        for round_ in range(rounds):  # each round: the baseline next to what it is compared with
            parse = parse_alone(sources)
            cold, repeat, routes = in_process(root, ["."])
            python_parse = parse_alone(python_sources)
            python_cold, _, _ = in_process(root, ["api"])
            last = round_ == rounds - 1
            changed = next(p for p in files if p.name == "r0007.py") if last else None
            plugin = through_pipes(root, changed)
            rows.add(
                {
                    "parse alone (ast + tree-sitter), wall": parse.wall,
                    "in-process cold discover, wall": cold.wall,
                    "  its CPU, forked workers included": cold.cpu,
                    "in-process repeated discover, wall": repeat.wall,
                    "the Python files alone: ast.parse, wall": python_parse.wall,
                    "  their in-process cold discover, wall": python_cold.wall,
                    "plugin process cold discover, wall": plugin["cold"],
                    "  the plugin's CPU, workers included": plugin["cold cpu"],
                    "plugin process repeated discover, wall": plugin["repeat"],
                    COLD_RATIO: parse.wall / cold.wall,
                    "  the Python files alone": python_parse.wall / python_cold.wall,
                    SESSION_COLD_RATIO: parse.wall / plugin["cold"],
                    CPU_RATIO: parse.cpu / cold.cpu,
                    "repeated / cold, in-process": repeat.wall / cold.wall,
                    REPEAT_RATIO: plugin["repeat"] / plugin["cold"],
                }
            )
    return rows, plugin, len(files), routes


def run(quick: bool) -> list[dict[str, Any]]:
    """The figures as rows for `python -m bench` (COMMON bench interface)."""
    count, rounds = (QUICK_FILES, 1) if quick else (FILES, ROUNDS)
    rows, plugin, files, routes = measure(count, rounds)
    detail: dict[str, Any] = {"files": files, "routes": routes, "rounds": rounds}
    detail["cpus"] = usable_cpus()
    if quick:  # targets are set on 5,000 files; a small repo's timings only show the figure
        detail["note"] = f"quick run; the ratio targets are judged on {FILES} files"
    case = f"pack-http-routes, {files} generated files"

    def row(figure: str, value: float, unit: str, target: str | None, met: bool | None) -> Any:
        return table.row("routes", case, figure, round(value, 3), unit, target, met, detail)

    def ratio(figure: str, name: str, target: str, meets: Any) -> Any:
        value = rows.median(name)
        return row(figure, value, "ratio", target, None if quick else meets(value))

    correct = bool(plugin["change seen"])
    return [
        ratio(
            "cold throughput vs parse alone, in-process", COLD_RATIO, ">= 0.5", lambda v: v >= 0.5
        ),
        ratio(
            "cold throughput vs parse alone, plugin",
            SESSION_COLD_RATIO,
            ">= 0.5",
            lambda v: v >= 0.5,
        ),
        ratio(
            "repeated / cold, in-process",
            "repeated / cold, in-process",
            "<= 0.15",
            lambda v: v <= 0.15,
        ),
        ratio("repeated / cold, plugin", REPEAT_RATIO, "<= 0.15", lambda v: v <= 0.15),
        row(
            "cold CPU efficiency (parse CPU / discover CPU)",
            rows.median(CPU_RATIO),
            "ratio",
            None,
            None,
        ),
        row(
            "in-process cold discover, wall",
            rows.median("in-process cold discover, wall"),
            "s",
            None,
            None,
        ),
        row(
            "plugin cold discover, wall",
            rows.median("plugin process cold discover, wall"),
            "s",
            None,
            None,
        ),
        row("after one file changed: its routes follow", float(correct), "count", "== 1", correct),
    ]


def main() -> None:
    args = sys.argv[1:]
    split = args[:1] == ["--stages"]
    args = args[1:] if split else args
    count = int(args[0]) if args else FILES
    rounds = int(args[1]) if len(args) > 1 else ROUNDS
    if split:
        print_stages(count, rounds)
        return
    rows, plugin, files, routes = measure(count, rounds)
    print(
        f"pack-http-routes on {files} generated files, {routes} routes, {usable_cpus()} CPUs; "
        f"seconds and ratios, median (min-max) of {rounds} rounds"
    )
    print(rows.table(44))
    print(
        f"{'plugin after one file changed, wall':44} {plugin['one changed']:.3f}  the changed "
        f"file's routes follow: {'yes' if plugin['change seen'] else 'NO'}; same routes as "
        f"in process: {'yes' if plugin['resources'] == routes else 'NO'}"
    )
    print(
        f"cold throughput / parse alone: in-process {rows.median(COLD_RATIO):.2f}, plugin "
        f"{rows.median(SESSION_COLD_RATIO):.2f} (target >= 0.5); repeated / cold: plugin "
        f"{rows.median(REPEAT_RATIO):.3f} (target <= 0.15)"
    )


COLD_RATIO = "cold throughput / parse, in-process"
SESSION_COLD_RATIO = "cold throughput / parse, plugin process"
CPU_RATIO = "parse CPU / cold discover CPU, in-process"
REPEAT_RATIO = "repeated / cold, plugin process"

if __name__ == "__main__":
    main()
