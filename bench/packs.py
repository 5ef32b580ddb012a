"""pack-sqlalchemy on a generated 5,000-file repository: cold discover against `ast.parse` alone,
a repeated discover of the unchanged repository, and one after a single file changed.

Figures through the real host session (GPP/3 frames, canonical JSON, one pinned plugin process;
CPU of plugin and host), and the in-process scanner for the breakdown. Measured in rounds
(`bench/cpu_clock.py`): each round parses alone, then discovers in process and through a fresh
session, so a ratio compares neighbours in time; medians over the rounds are printed with their
range. Usage: `bench/packs.py [FILES [ROUNDS]]`. Prints figures and ratios; asserts nothing.
`run(quick)` gives the same figures as rows for `python -m bench` (quick: 500 files, one round).
Targets (issue 11): cold ≥ 0.5 of ast.parse's throughput; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import asyncio
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
from bench.cpu_clock import Rounds, Stopwatch  # noqa: E402
from gpp.host import PluginSession, Timeouts  # noqa: E402

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


def parse_alone(sources: list[tuple[str, str]]) -> float:
    with Stopwatch() as watch:
        for name, text in sources:
            ast.parse(text, filename=name)
    return watch.cpu


def in_process(root: Path) -> tuple[float, float]:
    """CPU seconds of a fresh scanner's cold discover and of its repeat."""
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
    return cold.cpu, repeat.cpu


async def through_session(root: Path, changed: Path | None) -> dict[str, Any]:
    """Cold and repeated discover through a fresh pinned session (CPU of plugin and host: the
    host's share, frames and digests, counts too); with `changed`, one more after editing it."""
    command = [sys.executable, str(REPO / "plugins" / "pack_sqlalchemy.py")]
    timeouts = Timeouts(handshake_ms=30_000, request_ms=600_000, shutdown_ms=10_000)
    figures: dict[str, Any] = {}
    session = PluginSession(command, "pack-sqlalchemy", "1.0.0", cwd=str(root), timeouts=timeouts)
    async with session:
        assert session.pid is not None
        pids = (os.getpid(), session.pid)
        with Stopwatch(session.pid) as plugin, Stopwatch(*pids) as cold:
            document = await session.discover(["."])
        with Stopwatch(*pids) as repeat:
            await session.discover(["."])
        figures.update(cold=cold.cpu, cold_plugin=plugin.cpu, repeat=repeat.cpu)
        figures["tables"] = len(document["resources"])
        if changed is not None:
            changed.write_text(changed.read_text().replace('"account_7"', '"account_seven"'))
            with Stopwatch(*pids) as after_change:
                after = await session.discover(["."])
            names = {r["name"] for r in after["resources"]}
            figures["one_changed"] = after_change.cpu
            figures["correct"] = "account_seven" in names and "account_7" not in names
    return figures


def measure(count: int, rounds: int) -> tuple[Rounds, dict[str, Any], int]:
    """`rounds` rounds over a generated repository of `count` files: the rounds, the last
    session's figures (with the changed file's) and the repository's size in bytes."""
    with tempfile.TemporaryDirectory(prefix="gpp-bench-packs-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        files = generate(root, count)
        size = sum(p.stat().st_size for p in files)
        sources = [(str(p), p.read_text("utf-8")) for p in files]
        rows = Rounds()
        session: dict[str, Any] = {}
        for round_ in range(rounds):  # each round: the baseline next to what it is compared with
            parse = parse_alone(sources)
            cold_in, repeat_in = in_process(root)
            last = round_ == rounds - 1
            changed = root / "app" / "pkg07" / "models_0007.py" if last else None
            session = asyncio.run(through_session(root, changed))
            rows.add(
                {
                    "ast.parse alone": parse,
                    "in-process cold discover": cold_in,
                    "in-process repeated discover": repeat_in,
                    "session cold discover": session["cold"],
                    "  of which the plugin process": session["cold_plugin"],
                    "session repeated discover": session["repeat"],
                    COLD_RATIO: parse / session["cold"],
                    "cold throughput / parse, plugin alone": parse / session["cold_plugin"],
                    IN_PROCESS_RATIO: parse / cold_in,
                    REPEAT_RATIO: session["repeat"] / session["cold"],
                    "repeated / cold, in-process": repeat_in / cold_in,
                }
            )
    return rows, session, size


def run(quick: bool) -> list[dict[str, Any]]:
    """The figures as rows for `python -m bench` (COMMON bench interface)."""
    count, rounds = (QUICK_FILES, 1) if quick else (FILES, ROUNDS)
    rows, session, size = measure(count, rounds)
    detail: dict[str, Any] = {
        "files": count,
        "tables": session["tables"],
        "rounds": rounds,
        "bytes": size,
    }
    if quick:  # targets are set on 5,000 files; a small repo's CPU ticks only show the figure
        detail["note"] = f"quick run; the ratio targets are judged on {FILES} files"
    case = f"pack-sqlalchemy, {count} generated files"

    def row(figure: str, value: float, unit: str, target: str | None, met: bool | None) -> Any:
        return table.row("packs", case, figure, round(value, 3), unit, target, met, detail)

    cold, cold_in = rows.median(COLD_RATIO), rows.median(IN_PROCESS_RATIO)
    repeat = rows.median(REPEAT_RATIO)
    correct = bool(session["correct"])
    return [
        row(
            "cold throughput vs ast.parse, session",
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
            "repeated / cold, session",
            repeat,
            "ratio",
            "<= 0.15",
            None if quick else repeat <= 0.15,
        ),
        row(
            "session cold discover, CPU of plugin and host",
            rows.median("session cold discover"),
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
        f"repository: {count} files, {size / 1e6:.1f} MB, {session['tables']} tables; "
        f"CPU seconds and ratios, median (min-max) of {rounds} rounds"
    )
    print(rows.table(40))
    print(
        f"{'session after one file changed':40} {session['one_changed']:.3f}  "
        f"correct: {session['correct']}"
    )
    print(
        f"cold throughput / ast.parse throughput: session {rows.median(COLD_RATIO):.2f} "
        f"(target >= 0.5); repeated / cold: session {rows.median(REPEAT_RATIO):.3f} "
        f"(target <= 0.15)"
    )


COLD_RATIO = "cold throughput / parse, session"
IN_PROCESS_RATIO = "cold throughput / parse, in-process"
REPEAT_RATIO = "repeated / cold, session"

if __name__ == "__main__":
    main()
