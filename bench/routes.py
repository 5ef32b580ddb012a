"""pack-http-routes on a generated 5,000-file repository (half FastAPI routers, half Express
routers in JavaScript and TypeScript, wired through package aggregators): a cold discover
against parsing alone (`ast.parse` for the Python files, tree-sitter for the others), a repeated
discover of the unchanged repository, and one after a single file changed.

Figures through the real host session (one pinned plugin process, GPP/3 frames) and the
in-process scanner. Prints figures and ratios; asserts nothing.
Targets (issue 11): cold ≥ 0.5 of parsing alone; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from pack_http_routes import PLUGIN_ID, PLUGIN_VERSION, make_scanner  # noqa: E402
from packs.routes.js_facts import LANGUAGES  # noqa: E402
from tree_sitter import Parser  # noqa: E402

from gpp.host import PluginSession, Timeouts  # noqa: E402

FILES = 5_000
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


def generate(root: Path) -> list[Path]:
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
    routers = (FILES - len(files) - 2 - 2 * PACKAGES) // 2
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


def timed(fn: Any) -> tuple[float, Any]:
    """CPU seconds of this process: on a shared, loaded machine wall time says little."""
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def parse_alone(files: list[Path]) -> float:
    """Parsing only, the floor any reader of these files pays: ast for Python, tree-sitter for
    JavaScript/TypeScript (the parsers made once, as the plugin makes them)."""
    sources = [(p, p.read_bytes()) for p in files]
    parsers = {name: Parser(language) for name, language in LANGUAGES.items()}

    def parse() -> None:
        for path, data in sources:
            if path.suffix == ".py":
                ast.parse(data, filename=str(path))
            else:
                parsers["typescript" if path.suffix == ".ts" else "javascript"].parse(data)

    seconds, _ = timed(parse)
    return seconds


def plugin_cpu(pid: int) -> float:
    """CPU seconds (user + system) the plugin process has used, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def through_session(root: Path, changed: Path) -> tuple[dict[str, float], int]:
    command = [sys.executable, str(REPO / "plugins" / "pack_http_routes.py")]
    timeouts = Timeouts(handshake_ms=30_000, request_ms=300_000, shutdown_ms=10_000)
    figures: dict[str, float] = {}
    async with PluginSession(
        command, PLUGIN_ID, PLUGIN_VERSION, cwd=str(root), timeouts=timeouts
    ) as session:
        assert session.pid is not None

        async def discover(name: str) -> dict[str, Any]:
            start, cpu = time.perf_counter(), plugin_cpu(session.pid or 0)
            result = await session.discover(["."])
            figures[name] = time.perf_counter() - start
            figures[f"{name} cpu"] = plugin_cpu(session.pid or 0) - cpu
            return result

        cold = await discover("cold")
        await discover("repeat")
        changed.write_text(changed.read_text().replace('prefix="/res7"', 'prefix="/seven"'))
        after = await discover("one changed")
    names = {r["name"] for r in after["resources"]}
    correct = "GET /api/p07/seven/" in names and "GET /api/p07/res7/" not in names
    figures["change seen"] = float(correct)
    return figures, len(cold["resources"])


def _both(figures: dict[str, float], name: str) -> str:
    return f"{figures[name]:.2f} ({figures[name + ' cpu']:.2f}) s"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="gpp-bench-routes-") as tmp:
        root = Path(tmp)
        files = generate(root)
        parse = parse_alone(files)
        old = os.getcwd()
        os.chdir(root)
        try:
            scanner = make_scanner()
            cold, document = timed(lambda: scanner.discover(["."]))
            repeat, _ = timed(lambda: scanner.discover(["."]))
            python_files = [p for p in files if p.suffix == ".py"]
            python_parse = parse_alone(python_files)
            python_cold, _ = timed(lambda: make_scanner().discover(["api"]))
        finally:
            os.chdir(old)
        changed = next(p for p in files if p.name == "r0007.py")
        figures, routes = asyncio.run(through_session(root, changed))
    rows = [
        (f"pack-http-routes on {len(files)} generated files", f"{routes} routes"),
        ("in process, CPU seconds: parse alone (ast + tree-sitter)", f"{parse:.3f} s"),
        ("  cold discover", f"{cold:.3f} s"),
        ("  repeated discover", f"{repeat:.3f} s"),
        ("  cold throughput / parse alone (target >= 0.5)", f"{parse / cold:.2f}"),
        ("  repeat / cold (target <= 0.15)", f"{repeat / cold:.2f}"),
        (f"  the {len(python_files)} Python files alone: ast.parse", f"{python_parse:.3f} s"),
        ("  cold discover of them", f"{python_cold:.3f} s"),
        (
            "  cold throughput / ast.parse alone (target >= 0.5)",
            f"{python_parse / python_cold:.2f}",
        ),
        ("through a GPP/3 session, wall (plugin CPU) seconds: cold", _both(figures, "cold")),
        ("  repeated discover", _both(figures, "repeat")),
        ("  discover after one file changed", _both(figures, "one changed")),
        ("  repeat / cold, plugin CPU", f"{figures['repeat cpu'] / figures['cold cpu']:.2f}"),
        ("  the changed file's routes follow", "yes" if figures["change seen"] else "NO"),
        ("  same routes as in process", "yes" if len(document["resources"]) == routes else "NO"),
    ]
    for label, value in rows:
        print(f"{label:58} {value:>12}")


if __name__ == "__main__":
    main()
