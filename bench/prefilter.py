"""The packs' cold discover with their pre-filter against `ast.parse` of every file (issue 24
item 5: ≤ 0.2 × on a repository where few files declare models), and against the same scan
parsing and linking every file (`parse_all`); the two documents are compared byte for byte.

On a generated 4,000-file repository shaped like a large Django project (10 % `models.py`
modules, 20 % class-based views that import them, 70 % helpers, services and tests that name no
model), and on a real one when there is one: `$GPP_BENCH_PREFILTER_REPO`, else
/work/realrepos/saleor (Django, 4,338 files, commit 723cd4e). Per pack (`pack-django`,
`pack-sqlalchemy`, `pack-http-routes`: its on-demand pre-filter, `packs.routes.seeds`, whose
JavaScript and TypeScript are parsed too and not in the `ast.parse` baseline), in process, one scanner per figure, one worker, the cyclic collector off as
the scanner has it. The target is judged on the real repository, on CPU seconds (the ratio of two CPU times in one
process; wall time on a shared machine is mostly its neighbours'); wall is printed too.
Usage: `bench/prefilter.py [FILES]`. `run(quick)` gives the rows for `python -m bench` (quick:
400 generated files, no real repository).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "bench":
    sys.path.pop(0)
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

import importlib  # noqa: E402

from packs.scan import Scanner  # noqa: E402

from bench import table  # noqa: E402
from bench.cpu_clock import Stopwatch, collector_off  # noqa: E402

PACKS = ("django", "sqlalchemy", "http_routes")
RESOURCES = {"django": "tables", "sqlalchemy": "tables", "http_routes": "routes"}
REAL_REPO_ENV = "GPP_BENCH_PREFILTER_REPO"
REAL_REPO = Path("/work/realrepos/saleor")
FILES = 4_000
QUICK_FILES = 400
TARGET = 0.2
MODELS = '''"""Models of app {n}."""
from django.db import models


class Item{n}(models.Model):
    name = models.CharField(max_length=100)
    owner_email = models.EmailField()

    class Meta:
        db_table = "item_{n}"
'''
VIEW = '''"""Views of app {n}."""
from app{m}.models import Item{m}


class ItemView{n}(object):
    template_name = "items/{n}.html"

    def get(self, request):
        return [item.name for item in Item{m}.objects.all()]
'''
HELPER = '''"""Helpers {n}: no model here."""
import json
from collections import defaultdict

from app{m}.helpers_{k} import summarise_{k}


def summarise_{n}(rows):
    totals = defaultdict(int)
    for row in rows:
        totals[row["kind"]] += row.get("amount", 0)
    return json.dumps(dict(totals), sort_keys=True)


def check_{n}(value):
    if not isinstance(value, (int, float)):
        raise TypeError(value)
    return summarise_{k}([{{"kind": "x", "amount": value}}])
'''


def generate(root: Path, count: int) -> list[Path]:
    files = []
    apps = max(1, count // 10)
    for n in range(count):
        app = root / f"app{n % apps}"
        app.mkdir(exist_ok=True)
        if n < apps:
            path, text = app / "models.py", MODELS.format(n=n)
            (app / "__init__.py").write_text("")
        elif n < 3 * apps:
            path, text = app / f"views_{n}.py", VIEW.format(n=n, m=n % apps)
        else:
            k = max(3 * apps, n - 1)
            text = HELPER.format(n=n, m=k % apps, k=k)
            path = app / f"helpers_{n}.py"
        path.write_text(text)
        files.append(path)
    return files


def scanner(pack: str, extract: Any, *, parse_all: bool) -> Scanner[Any]:
    """`pack`'s scanner with its pre-filter, as its entry script sets it up."""
    entry = importlib.import_module(f"pack_{pack}")
    analyzer = importlib.import_module(f"packs.{pack}_models")
    return Scanner(
        (".py",),
        extract,
        analyzer.link,
        language="Python",
        keywords=entry.KEYWORDS,
        base_keywords=getattr(entry, "BASE_KEYWORDS", ()),
        follow=getattr(entry, "FOLLOW", "imports"),
        fields=getattr(entry, "FIELDS", None),
        parse_all=parse_all,
        workers=1,
    )


def cold(root: Path, pack: str, *, parse_all: bool) -> tuple[Stopwatch, bytes, int, int]:
    """One cold discover of `root`: its time, its document's canonical bytes, the files
    parsed and the resources found."""
    old = Path.cwd()
    os.chdir(root)
    if pack == "http_routes":
        from pack_http_routes import make_scanner

        routes = make_scanner(parse_all=parse_all)
        routes.workers = 1
        try:
            with Stopwatch() as watch:
                found = routes.discover(["."])
        finally:
            os.chdir(old)
        text = json.dumps(found, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return watch, text.encode(), routes.parsed, len(found["resources"])
    parsed = [0]
    analyzer = importlib.import_module(f"packs.{pack}_models")

    def counting(path: str, source: str) -> Any:
        parsed[0] += 1
        return analyzer.extract(path, source)

    try:
        with Stopwatch() as watch:
            document = scanner(pack, counting, parse_all=parse_all).discover(["."])
    finally:
        os.chdir(old)
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return watch, text.encode(), parsed[0], len(document["resources"])


def python_files(root: Path) -> list[Path]:
    """The `.py` files a scan of `root` reads (hidden, virtualenv and build folders aside)."""
    skipped = {"venv", "node_modules", "__pycache__", "site-packages", "dist", "build"}
    found = []
    for here, directories, names in os.walk(root):
        directories[:] = sorted(
            d for d in directories if not d.startswith(".") and d not in skipped
        )
        found += [Path(here) / n for n in sorted(names) if n.endswith(".py") and n[0] != "."]
    return found


def measure(root: Path) -> dict[str, Any]:
    """ast.parse of every file, then per pack the filtered and the parse-all cold discover."""
    sources = []
    for path in python_files(root):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            sources.append((str(path), path.read_bytes()))
    with collector_off(), Stopwatch() as parse:
        for name, data in sources:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(data, filename=name)
    figures: dict[str, Any] = {"parse": parse, "files": len(sources)}
    for pack in PACKS:
        filtered, document, parsed, found = cold(root, pack, parse_all=False)
        unfiltered, reference, _, _ = cold(root, pack, parse_all=True)
        figures[pack] = {
            "filtered": filtered,
            "unfiltered": unfiltered,
            "parsed": parsed,
            "resources": found,
            "identical": document == reference,
        }
    return figures


def real_repo() -> Path | None:
    named = os.environ.get(REAL_REPO_ENV)
    path = Path(named) if named else REAL_REPO
    return path if path.is_dir() else None


def rows(case: str, figures: dict[str, Any], judged: bool, note: str | None) -> list[Any]:
    parse = figures["parse"]
    out = []
    for pack in PACKS:
        mine = figures[pack]
        detail: dict[str, Any] = {"files": figures["files"], "parsed": mine["parsed"],
                                  RESOURCES[pack]: mine["resources"],
                                  "one process": True}  # fmt: skip
        if note:
            detail["note"] = note
        where = f"pack-{pack.replace('_', '-')}, {case}"

        def row(figure: str, value: Any, unit: str, target: str | None, met: bool | None) -> Any:
            return table.row("prefilter", where, figure, value, unit, target, met, detail)  # noqa: B023

        ratio = mine["filtered"].cpu / parse.cpu
        target = f"<= {TARGET}" if pack == "django" else None
        for label, watch in (
            ("ast.parse of every file", parse),
            ("cold discover with pre-filter", mine["filtered"]),
            ("cold discover parsing every file", mine["unfiltered"]),
        ):
            out.append(row(f"{label}, CPU", round(watch.cpu, 3), "s", None, None))
            out.append(row(f"{label}, wall", round(watch.wall, 3), "s", None, None))
        out += [
            row("filtered cold / ast.parse of every file, CPU",
                round(ratio, 3), "ratio", target,
                ratio <= TARGET if judged and target else None),
            row("parse-all cold / ast.parse of every file, CPU",
                round(mine["unfiltered"].cpu / parse.cpu, 3), "ratio", None, None),
            row("documents differing from parse-all", 0 if mine["identical"] else 1, "count",
                "0", mine["identical"]),
        ]  # fmt: skip
    return out


def run(quick: bool) -> list[dict[str, Any]]:
    count = QUICK_FILES if quick else FILES
    with tempfile.TemporaryDirectory(prefix="gpp-bench-prefilter-") as tmp:
        generate(Path(tmp), count)
        figures = measure(Path(tmp))
    note = (
        "the target is judged on a real repository (saleor): a generated file is tiny, so "
        "opening and reading it costs about what parsing it does"
    )
    out = rows(f"{count} generated files", figures, False, note)
    repo = None if quick else real_repo()
    if repo is not None:
        out += rows(f"{repo.name} ({figures_commit(repo)})", measure(repo), True, None)
    return out


def figures_commit(repo: Path) -> str:
    """The checkout's commit, short, so the figures can be repeated: from its `.git`, else
    from `bench/real_repos/truth/` for an exported tree of a repository measured there."""
    head = repo / ".git" / "HEAD"
    try:
        ref = head.read_text().strip()
        if ref.startswith("ref: "):
            ref = (repo / ".git" / ref[5:]).read_text().strip()
    except OSError:
        truth = REPO / "bench" / "real_repos" / "truth" / f"{repo.name}.json"
        try:
            ref = json.loads(truth.read_text(encoding="utf-8"))["commit"]
        except (OSError, ValueError, KeyError):
            return "commit unknown"
    return ref[:7]


if __name__ == "__main__":
    if len(sys.argv) >= 2:
        FILES = int(sys.argv[1])
    print(table.render(run(False)))
