"""pack-sqlalchemy on a generated 5,000-file repository: cold discover against `ast.parse` alone,
a repeated discover of the unchanged repository, and one after a single file changed.

Figures through the real host session (GPP/3 frames, canonical JSON, one pinned plugin process),
and the in-process scanner for the breakdown. Prints figures and ratios; asserts nothing.
Targets (issue 11): cold ≥ 0.5 of ast.parse's throughput; repeat ≤ 0.15 of cold.
"""

from __future__ import annotations

import ast
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# sys.path[0] is bench/, where this file would shadow the `packs` package: replace it.
sys.path[0:1] = [str(REPO), str(REPO / "plugins")]

from packs import sqlalchemy_models  # noqa: E402
from packs.scan import Scanner  # noqa: E402

from gpp.host import PluginSession, Timeouts  # noqa: E402

FILES = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
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


def generate(root: Path) -> list[Path]:
    (root / "app").mkdir()
    (root / "app" / "base.py").write_text(BASE)
    files = [root / "app" / "base.py"]
    for n in range(FILES - 1):
        package = root / "app" / f"pkg{n % PACKAGES:02d}"
        package.mkdir(exist_ok=True)
        path = package / f"models_{n:04d}.py"
        path.write_text(MODEL.format(n=n))
        files.append(path)
    return files


def timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def parse_alone(files: list[Path]) -> float:
    sources = [(str(p), p.read_text("utf-8")) for p in files]
    seconds, _ = timed(lambda: [ast.parse(text, filename=name) for name, text in sources])
    return seconds


async def through_session(root: Path, changed: Path) -> dict[str, float]:
    command = [sys.executable, str(REPO / "plugins" / "pack_sqlalchemy.py")]
    timeouts = Timeouts(handshake_ms=30_000, request_ms=300_000, shutdown_ms=10_000)
    figures: dict[str, float] = {}
    async with PluginSession(
        command, "pack-sqlalchemy", "1.0.0", cwd=str(root), timeouts=timeouts
    ) as s:
        start = time.perf_counter()
        cold = await s.discover(["."])
        figures["cold"] = time.perf_counter() - start
        start = time.perf_counter()
        await s.discover(["."])
        figures["repeat"] = time.perf_counter() - start
        changed.write_text(changed.read_text().replace('"account_7"', '"account_seven"'))
        start = time.perf_counter()
        after = await s.discover(["."])
        figures["one_changed"] = time.perf_counter() - start
    names = {r["name"] for r in after["resources"]}
    figures["tables"] = len(cold["resources"])
    figures["correct_after_change"] = float("account_seven" in names and "account_7" not in names)
    return figures


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="gpp-bench-packs-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        files = generate(root)
        size = sum(p.stat().st_size for p in files)
        parse = min(parse_alone(files) for _ in range(3))

        scanner = Scanner(
            (".py",), sqlalchemy_models.extract, sqlalchemy_models.link, language="Python"
        )
        old = Path.cwd()
        import os

        os.chdir(root)
        try:
            cold_in, _ = timed(lambda: scanner.discover(["."]))
            repeat_in, _ = timed(lambda: scanner.discover(["."]))
        finally:
            os.chdir(old)
        session = asyncio.run(through_session(root, root / "app" / "pkg07" / "models_0007.py"))
        shutil.rmtree(root)

    print(f"repository: {FILES} files, {size / 1e6:.1f} MB, {int(session['tables'])} tables")
    print(f"ast.parse alone:                {parse:7.3f} s  ({FILES / parse:,.0f} files/s)")
    print(f"in-process cold discover:       {cold_in:7.3f} s  ({FILES / cold_in:,.0f} files/s)")
    print(f"in-process repeated discover:   {repeat_in:7.3f} s")
    print(
        f"session cold discover:          {session['cold']:7.3f} s  ({FILES / session['cold']:,.0f} files/s)"
    )
    print(f"session repeated discover:      {session['repeat']:7.3f} s")
    print(f"session after one file changed: {session['one_changed']:7.3f} s  "
          f"(correct for that file: {bool(session['correct_after_change'])})")  # fmt: skip
    print(f"ratio cold throughput / ast.parse throughput: session {parse / session['cold']:.2f}, "
          f"in-process {parse / cold_in:.2f}  (target >= 0.5)")  # fmt: skip
    print(f"ratio repeated / cold: session {session['repeat'] / session['cold']:.3f}, "
          f"in-process {repeat_in / cold_in:.3f}  (target <= 0.15)")  # fmt: skip


if __name__ == "__main__":
    main()
