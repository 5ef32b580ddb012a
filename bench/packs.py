"""pack-sqlalchemy on a generated 5,000-file repository: cold discover against `ast.parse` alone,
a repeated discover of the unchanged repository, and one after a single file changed.

Figures from the plugin process (GPP/3 frames over its pipes, one pinned process, timed as
`bench/pipe_host.py` says) and from the scanner in this process. Throughput is wall-clock (the
scanner reads files on every usable CPU, `packs.fan_out`; `ast.parse` alone runs in one
process, with the cyclic collector off as the scanner has it), with the CPU spent beside it.
Measured in rounds (`bench/cpu_clock.py`): each round parses alone, then discovers in process
and through a fresh plugin process, so a ratio compares neighbours in time; medians over the
rounds are printed with their range. Usage: `bench/packs.py [FILES [ROUNDS]]`. Prints figures and ratios; asserts nothing.
`run(quick)` gives the same figures as rows for `python -m bench` (quick: 500 files, one round).
Targets (issue 11): cold ≥ 0.5 of ast.parse's throughput; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# Run as a script, sys.path[0] is bench/, where this file would shadow the `packs` package:
# replace it. Imported (`python -m bench`), put the repo and plugins/ first.
if sys.path and Path(sys.path[0] or ".").resolve() == REPO / "bench":
    sys.path.pop(0)
sys.path[:0] = [str(REPO), str(REPO / "plugins")]

from packs import sqlalchemy_models  # noqa: E402
from packs.scan import Scanner  # noqa: E402

from bench import table  # noqa: E402
from bench.cpu_clock import Rounds, Stopwatch, collector_off  # noqa: E402
from bench.pipe_host import PipeHost, cold_repeat_changed  # noqa: E402

FILES = 5_000
ROUNDS = 5
QUICK_FILES = 500
PACKAGES = 50
MODEL = '''"""Generated model module {n}."""

from datetime import datetime

from sqlalchemy import ForeignKey, String, func
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..base import Base, TimestampMixin


class Account{n}(TimestampMixin, Base):
    __tablename__ = "account_{n}"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(255), unique=True)
    display_name: Mapped[str] = mapped_column(String(120))
    phone: Mapped[str | None]
    orders: Mapped[list["Order{n}"]] = relationship(back_populates="account")

    def greeting(self) -> str:
        if self.display_name:
            return f"Hello, {{self.display_name}}"
        return "Hello"


class Order{n}(Base):
    __tablename__ = "order_{n}"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account_{n}.id"))
    total: Mapped[int]
    placed_at: Mapped[datetime] = mapped_column(server_default=func.now())
    account: Mapped["Account{n}"] = relationship(back_populates="orders")

    def is_large(self, threshold: int = 1000) -> bool:
        return self.total > threshold and self.account is not None
'''
BASE = """from datetime import datetime

from sqlalchemy import func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TimestampMixin:
    created_at: Mapped[datetime] = mapped_column(server_default=func.now())
"""


def generate(root: Path, count: int = FILES) -> list[Path]:
    (root / "app").mkdir()
    (root / "app" / "base.py").write_text(BASE)
    files = [root / "app" / "base.py"]
    for n in range(count - 1):
        package = root / "app" / f"pkg{n % PACKAGES:02d}"
        package.mkdir(exist_ok=True)
        path = package / f"models_{n:04d}.py"
        path.write_text(MODEL.format(n=n))
        files.append(path)
    return files


def parse_alone(sources: list[tuple[str, str]]) -> Stopwatch:
    with collector_off(), Stopwatch() as watch:
        for name, text in sources:
            ast.parse(text, filename=name)
    return watch


def in_process(root: Path) -> tuple[Stopwatch, Stopwatch]:
    """A fresh scanner's cold discover and its repeat."""
    old = Path.cwd()
    os.chdir(root)
    try:
        scanner = Scanner(
            (".py",), sqlalchemy_models.extract, sqlalchemy_models.link, language="Python"
        )
        with Stopwatch() as cold:
            scanner.discover(["."])
        with Stopwatch() as repeat:
            scanner.discover(["."])
    finally:
        os.chdir(old)
    return cold, repeat


def through_pipes(root: Path, changed: Path | None) -> dict[str, Any]:
    """Cold and repeated discover by a fresh plugin process (`PipeHost`); with `changed`, one
    more after renaming a table in it, and whether the document follows."""
    command = [sys.executable, str(REPO / "plugins" / "pack_sqlalchemy.py")]
    return cold_repeat_changed(
        PipeHost(command, root, "pack-sqlalchemy", "1.0.0"),
        changed,
        ('"account_7"', '"account_seven"'),
        lambda names: "account_seven" in names and "account_7" not in names,
    )


def measure(count: int, rounds: int) -> tuple[Rounds, dict[str, Any], int]:
    """`rounds` rounds over a generated repository of `count` files: the rounds, the last
    plugin process's figures (with the changed file's) and the repository's size in bytes."""
    with tempfile.TemporaryDirectory(prefix="gpp-bench-packs-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        files = generate(root, count)
        size = sum(p.stat().st_size for p in files)
        sources = [(str(p), p.read_text("utf-8")) for p in files]
        rows = Rounds()
        plugin: dict[str, Any] = {}
        for round_ in range(rounds):  # each round: the baseline next to what it is compared with
            parse = parse_alone(sources)
            cold_in, repeat_in = in_process(root)
            last = round_ == rounds - 1
            changed = root / "app" / "pkg07" / "models_0007.py" if last else None
            plugin = through_pipes(root, changed)
            rows.add(
                {
                    "ast.parse alone, wall": parse.wall,
                    "in-process cold discover, wall": cold_in.wall,
                    "  its CPU, forked workers included": cold_in.cpu,
                    "in-process repeated discover, wall": repeat_in.wall,
                    "plugin process cold discover, wall": plugin["cold"],
                    "  the plugin's CPU, workers included": plugin["cold cpu"],
                    "plugin process repeated discover, wall": plugin["repeat"],
                    COLD_RATIO: parse.wall / plugin["cold"],
                    IN_PROCESS_RATIO: parse.wall / cold_in.wall,
                    "parse CPU / cold discover CPU, in-process": parse.cpu / cold_in.cpu,
                    REPEAT_RATIO: plugin["repeat"] / plugin["cold"],
                    "repeated / cold, in-process": repeat_in.wall / cold_in.wall,
                }
            )
    return rows, plugin, size


def run(quick: bool) -> list[dict[str, Any]]:
    """The figures as rows for `python -m bench` (COMMON bench interface)."""
    count, rounds = (QUICK_FILES, 1) if quick else (FILES, ROUNDS)
    rows, session, size = measure(count, rounds)
    detail: dict[str, Any] = {
        "files": count,
        "tables": session["resources"],
        "rounds": rounds,
        "bytes": size,
    }
    if quick:  # targets are set on 5,000 files; a small repo's timings only show the figure
        detail["note"] = f"quick run; the ratio targets are judged on {FILES} files"
    case = f"pack-sqlalchemy, {count} generated files"

    def row(figure: str, value: float, unit: str, target: str | None, met: bool | None) -> Any:
        return table.row("packs", case, figure, round(value, 3), unit, target, met, detail)

    cold, cold_in = rows.median(COLD_RATIO), rows.median(IN_PROCESS_RATIO)
    repeat = rows.median(REPEAT_RATIO)
    correct = bool(session["change seen"])
    return [
        row(
            "cold throughput vs ast.parse, plugin",
            cold,
            "ratio",
            ">= 0.5",
            None if quick else cold >= 0.5,
        ),
        row(
            "cold throughput vs ast.parse, in-process",
            cold_in,
            "ratio",
            ">= 0.5",
            None if quick else cold_in >= 0.5,
        ),
        row(
            "repeated / cold, plugin",
            repeat,
            "ratio",
            "<= 0.15",
            None if quick else repeat <= 0.15,
        ),
        row(
            "plugin cold discover, wall",
            rows.median("plugin process cold discover, wall"),
            "s",
            None,
            None,
        ),
        row("after one file changed: its tables follow", float(correct), "count", "== 1", correct),
    ]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else FILES
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    rows, session, size = measure(count, rounds)
    print(
        f"repository: {count} files, {size / 1e6:.1f} MB, {session['resources']} tables; "
        f"seconds and ratios, median (min-max) of {rounds} rounds"
    )
    print(rows.table(40))
    print(
        f"{'plugin after one file changed, wall':40} {session['one changed']:.3f}  "
        f"correct: {session['change seen']}"
    )
    print(
        f"cold throughput / ast.parse throughput: plugin {rows.median(COLD_RATIO):.2f} "
        f"(target >= 0.5); repeated / cold: plugin {rows.median(REPEAT_RATIO):.3f} "
        f"(target <= 0.15)"
    )


COLD_RATIO = "cold throughput / parse, plugin process"
IN_PROCESS_RATIO = "cold throughput / parse, in-process"
REPEAT_RATIO = "repeated / cold, plugin process"

if __name__ == "__main__":
    main()
