"""pack-django's cold discover with its pre-filter on a generated 4,000-file repository against
`ast.parse` of every file (issue 24 item 5: ≤ 0.2 × on a repository where few files declare
models), and against the same scan parsing every file; the documents are compared too.

The repository is shaped like a large Django project: 10 % `models.py` modules (keywords), 20 %
class-based views that import them (reached by the pre-filter's import-and-subclass rule, so
parsed), and 70 % helpers, services and tests that name no model. In process, one scanner per
figure, the cyclic collector off as the scanner has it. Usage: `bench/prefilter.py [FILES]`.
`run(quick)` gives the rows for `python -m bench` (quick: 400 files).
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "bench":
    sys.path.pop(0)
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

import pack_django  # noqa: E402
from packs import django_models  # noqa: E402
from packs.scan import Scanner  # noqa: E402

from bench import table  # noqa: E402
from bench.cpu_clock import Stopwatch, collector_off  # noqa: E402

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


def cold(root: Path, keywords: Any) -> tuple[Stopwatch, dict[str, Any], int]:
    old = Path.cwd()
    os.chdir(root)
    parsed = [0]

    def counting(path: str, source: str) -> Any:
        parsed[0] += 1
        return django_models.extract(path, source)

    try:
        scanner: Scanner[Any] = Scanner(
            (".py",),
            counting,
            django_models.link,
            language="Python",
            keywords=keywords,
            base_keywords=pack_django.BASE_KEYWORDS,
            workers=1,
        )
        with Stopwatch() as watch:
            document = scanner.discover(["."])
    finally:
        os.chdir(old)
    return watch, document, parsed[0]


def measure(count: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="gpp-bench-prefilter-") as tmp:
        root = Path(tmp)
        files = generate(root, count)
        sources = [(str(p), p.read_text("utf-8")) for p in files]
        with collector_off(), Stopwatch() as parse:
            for name, text in sources:
                ast.parse(text, filename=name)
        filtered, document, parsed = cold(root, pack_django.KEYWORDS)
        unfiltered, reference, _ = cold(root, None)
    return {
        "parse": parse.wall,
        "filtered": filtered.wall,
        "unfiltered": unfiltered.wall,
        "parsed": parsed,
        "tables": len(document["resources"]),
        "identical": document == reference,
    }


def run(quick: bool) -> list[dict[str, Any]]:
    count = QUICK_FILES if quick else FILES
    figures = measure(count)
    ratio = figures["filtered"] / figures["parse"]
    detail = {"files": count, "parsed": figures["parsed"], "tables": figures["tables"],
              "one process": True}  # fmt: skip
    if quick:
        detail["note"] = f"quick run; the target is judged on {FILES} files"
    case = f"pack-django pre-filter, {count} generated files"

    def row(figure: str, value: Any, unit: str, target: str | None, met: bool | None) -> Any:
        return table.row("prefilter", case, figure, value, unit, target, met, detail)

    return [
        row("ast.parse of every file, wall", round(figures["parse"], 3), "s", None, None),
        row("cold discover with pre-filter, wall", round(figures["filtered"], 3), "s", None, None),
        row(
            "cold discover parsing every file, wall",
            round(figures["unfiltered"], 3),
            "s",
            None,
            None,
        ),
        row(
            "filtered cold / ast.parse of every file",
            round(ratio, 3),
            "ratio",
            f"<= {TARGET}",
            None if quick else ratio <= TARGET,
        ),
        row(
            "documents identical with and without",
            figures["identical"],
            "bool",
            "true",
            figures["identical"],
        ),
    ]


if __name__ == "__main__":
    if len(sys.argv) >= 2:
        FILES = int(sys.argv[1])
    print(table.render(run(False)))
