"""pack-http-routes on a generated 5,000-file repository (half FastAPI routers, half Express
routers in JavaScript and TypeScript, wired through package aggregators): a cold discover
against parsing alone (`ast.parse` for the Python files, tree-sitter for the others), a repeated
discover of the unchanged repository, and one after a single file changed.

Figures through the real host session (one pinned plugin process, GPP/3 frames) and the
in-process scanner, measured in rounds (`bench/cpu_clock.py`): each round parses alone, then
discovers in process and through a fresh session, so a ratio compares neighbours in time;
medians over the rounds are printed with their range. Usage: `bench/routes.py [FILES [ROUNDS]]`.
Prints figures and ratios; asserts nothing. `run(quick)` gives the same figures as rows for
`python -m bench` (quick: 600 files, one round). `bench/routes.py --stages [FILES [ROUNDS]]`
prints instead where a cold discover's CPU goes, stage by stage (parsing, reading the trees,
linking, rendering, walking and opening), each as a share of parsing alone.
Targets (issue 11): cold ≥ 0.5 of parsing alone; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from pack_http_routes import PLUGIN_ID, PLUGIN_VERSION, make_scanner  # noqa: E402
from packs.routes.document import link_routes  # noqa: E402
from packs.routes.js_facts import LANGUAGES, js_facts  # noqa: E402
from packs.routes.linker import link  # noqa: E402
from packs.routes.model import ModuleFacts  # noqa: E402
from packs.routes.python_facts import python_facts  # noqa: E402
from packs.scan import Linked  # noqa: E402
from tree_sitter import Parser  # noqa: E402

from bench import table  # noqa: E402
from bench.cpu_clock import Rounds, Stopwatch  # noqa: E402
from gpp.host import PluginSession, Timeouts  # noqa: E402

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


def parse_alone(sources: list[tuple[Path, bytes]]) -> float:
    """CPU seconds of parsing only, the floor any reader of these files pays: ast for Python,
    tree-sitter for JavaScript/TypeScript (the parsers made once, as the plugin makes them)."""
    parsers = {name: Parser(language) for name, language in LANGUAGES.items()}
    with Stopwatch() as watch:
        for path, data in sources:
            if path.suffix == ".py":
                ast.parse(data, filename=str(path))
            else:
                parsers["typescript" if path.suffix == ".ts" else "javascript"].parse(data)
    return watch.cpu


def in_process(root: Path, paths: list[str]) -> tuple[float, float, int]:
    """CPU seconds of a fresh scanner's cold discover of `paths` and of its repeat; routes."""
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
    return cold.cpu, repeat.cpu, len(document["resources"])


async def through_session(root: Path, changed: Path | None) -> dict[str, float]:
    """Cold and repeated discover through a fresh pinned session (plugin CPU); with `changed`,
    one more after editing it, and whether the edit shows."""
    command = [sys.executable, str(REPO / "plugins" / "pack_http_routes.py")]
    timeouts = Timeouts(handshake_ms=30_000, request_ms=300_000, shutdown_ms=10_000)
    figures: dict[str, float] = {}
    async with PluginSession(
        command, PLUGIN_ID, PLUGIN_VERSION, cwd=str(root), timeouts=timeouts
    ) as session:
        assert session.pid is not None
        with Stopwatch(session.pid) as cold:
            document = await session.discover(["."])
        with Stopwatch(session.pid) as repeat:
            await session.discover(["."])
        figures.update(cold=cold.cpu, repeat=repeat.cpu, routes=len(document["resources"]))
        if changed is not None:
            changed.write_text(changed.read_text().replace('prefix="/res7"', 'prefix="/seven"'))
            with Stopwatch(session.pid) as after_change:
                after = await session.discover(["."])
            names = {r["name"] for r in after["resources"]}
            figures["one changed"] = after_change.cpu
            figures["change seen"] = float(
                "GET /api/p07/seven/" in names and "GET /api/p07/res7/" not in names
            )
    return figures


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
        "ast.parse": parse_alone([(p, d) for p, d in sources if p.suffix == ".py"]),
        "tree-sitter parse": parse_alone([(p, d) for p, d in sources if p.suffix != ".py"]),
    }
    with Stopwatch() as watch:
        facts: list[tuple[str, ModuleFacts]] = [(p, python_facts(d.decode(), p)) for p, d in python]
    figures["Python reader (parse included)"] = watch.cpu
    with Stopwatch() as watch:
        facts += [(p, js_facts(d, p)) for p, d in script]
    figures["JS/TS reader (parse included)"] = watch.cpu
    facts.sort(key=lambda item: item[0].encode())
    with Stopwatch() as watch:
        link(dict(facts))
    figures["link"] = watch.cpu
    with Stopwatch() as watch:
        link_routes(facts)
    figures["render (link + render - link)"] = watch.cpu - figures["link"]
    scanner = make_scanner()
    scanner.extract = lambda path, source: ModuleFacts(language="python")
    scanner.link = lambda files: Linked()
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


def measure(count: int, rounds: int) -> tuple[Rounds, dict[str, float], int, int]:
    """The figures of `rounds` rounds over a generated repository of `count` files: the rounds,
    the last session's figures (with the changed file's), the files and the routes."""
    rows = Rounds()
    session: dict[str, float] = {}
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
            session = asyncio.run(through_session(root, changed))
            rows.add(
                {
                    "parse alone (ast + tree-sitter)": parse,
                    "in-process cold discover": cold,
                    "in-process repeated discover": repeat,
                    "the Python files alone: ast.parse": python_parse,
                    "  their in-process cold discover": python_cold,
                    "session cold discover, plugin CPU": session["cold"],
                    "session repeated discover, plugin CPU": session["repeat"],
                    COLD_RATIO: parse / cold,
                    "  the Python files alone": python_parse / python_cold,
                    SESSION_COLD_RATIO: parse / session["cold"],
                    "repeated / cold, in-process": repeat / cold,
                    REPEAT_RATIO: session["repeat"] / session["cold"],
                }
            )
    return rows, session, len(files), routes


def run(quick: bool) -> list[dict[str, Any]]:
    """The figures as rows for `python -m bench` (COMMON bench interface)."""
    count, rounds = (QUICK_FILES, 1) if quick else (FILES, ROUNDS)
    rows, session, files, routes = measure(count, rounds)
    detail: dict[str, Any] = {"files": files, "routes": routes, "rounds": rounds}
    if quick:  # targets are set on 5,000 files; a small repo's CPU ticks only show the figure
        detail["note"] = f"quick run; the ratio targets are judged on {FILES} files"
    case = f"pack-http-routes, {files} generated files"

    def row(figure: str, value: float, unit: str, target: str | None, met: bool | None) -> Any:
        return table.row("routes", case, figure, round(value, 3), unit, target, met, detail)

    cold_in, cold_session = rows.median(COLD_RATIO), rows.median(SESSION_COLD_RATIO)
    repeat_in = rows.median("repeated / cold, in-process")
    repeat_session = rows.median(REPEAT_RATIO)
    correct = bool(session["change seen"])
    return [
        row(
            "cold throughput vs parse alone, in-process",
            cold_in,
            "ratio",
            ">= 0.5",
            None if quick else cold_in >= 0.5,
        ),
        row(
            "cold throughput vs parse alone, session",
            cold_session,
            "ratio",
            ">= 0.5",
            None if quick else cold_session >= 0.5,
        ),
        row(
            "repeated / cold, in-process",
            repeat_in,
            "ratio",
            "<= 0.15",
            None if quick else repeat_in <= 0.15,
        ),
        row(
            "repeated / cold, session",
            repeat_session,
            "ratio",
            "<= 0.15",
            None if quick else repeat_session <= 0.15,
        ),
        row(
            "in-process cold discover, CPU",
            rows.median("in-process cold discover"),
            "s",
            None,
            None,
        ),
        row(
            "session cold discover, plugin CPU",
            rows.median("session cold discover, plugin CPU"),
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
    rows, session, files, routes = measure(count, rounds)
    print(
        f"pack-http-routes on {files} generated files, {routes} routes; CPU seconds and "
        f"ratios, median (min-max) of {rounds} rounds"
    )
    print(rows.table(44))
    print(
        f"{'session after one file changed':44} {session['one changed']:.3f}  the changed "
        f"file's routes follow: {'yes' if session['change seen'] else 'NO'}; same routes as "
        f"in process: {'yes' if session['routes'] == routes else 'NO'}"
    )
    print(
        f"cold throughput / parse alone: in-process {rows.median(COLD_RATIO):.2f}, session "
        f"{rows.median(SESSION_COLD_RATIO):.2f} (target >= 0.5); repeated / cold: session "
        f"{rows.median(REPEAT_RATIO):.3f} (target <= 0.15)"
    )


COLD_RATIO = "cold throughput / parse, in-process"
SESSION_COLD_RATIO = "cold throughput / parse, session"
REPEAT_RATIO = "repeated / cold, session"

if __name__ == "__main__":
    main()
