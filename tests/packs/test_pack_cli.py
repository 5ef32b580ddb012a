"""`gpp discover --repo PATH` and `gpp serve --repo PATH`: every bundled plugin reads PATH."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import REPO
from gateway_harness import uds_client

GPP = [sys.executable, "-m", "gpp.gateway"]
MODELS = """from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Visitor(Base):
    __tablename__ = "visitors"

    id: Mapped[int] = mapped_column(primary_key=True)
    ip_address: Mapped[str]
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository of the user's own, unknown to the registry."""
    root = tmp_path / "my-repo"
    (root / "db").mkdir(parents=True)
    (root / "db" / "models.py").write_text(MODELS)
    (root / "tables.gfx").write_text("table visitors pii=ip_address\n")
    return root


def _tables(document: dict[str, object]) -> list[tuple[str, str]]:
    resources = document["resources"]
    assert isinstance(resources, list)
    return [(r["name"], r["location"]["path"]) for r in resources]


def test_discover_with_repo_points_the_registered_plugin_at_it(repo: Path) -> None:
    done = subprocess.run(
        [*GPP, "discover", "--repo", str(repo), "pack-sqlalchemy", "."],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert _tables(document) == [("visitors", "db/models.py")]
    assert document["classificationSignals"][0]["value"] == "ip_address"


def test_discover_with_repo_refuses_a_missing_directory(tmp_path: Path) -> None:
    done = subprocess.run(
        [*GPP, "discover", "--repo", str(tmp_path / "nope"), "pack-django", "."],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 1
    assert "--repo:" in done.stderr and "is not a directory" in done.stderr


@contextmanager
def _serve(*args: str, uds: Path) -> Iterator[None]:
    log = uds.with_suffix(".log")
    with log.open("wb") as sink:  # a file, not a pipe: a pipe nobody reads can stall the gateway
        proc = subprocess.Popen(
            [*GPP, "serve", "--uds", str(uds), *args],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    try:
        deadline = time.monotonic() + 30
        while not uds.exists():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "gateway did not start"
            time.sleep(0.05)
        yield
    finally:
        proc.send_signal(signal.SIGTERM)  # drains and shuts every plugin down
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_serve_with_repo_points_every_bundled_plugin_at_it(repo: Path, tmp_path: Path) -> None:
    with (
        _serve("--repo", str(repo), uds=tmp_path / "gw.sock"),
        uds_client(tmp_path / "gw.sock") as client,
    ):
        answers = {
            plugin: client.post(f"/plugins/{plugin}/discover", json={"paths": ["."]})
            for plugin in ("pack-sqlalchemy", "reference-detector", "pack-django")
        }
    assert {plugin: a.status_code for plugin, a in answers.items()} == dict.fromkeys(answers, 200)
    assert _tables(answers["pack-sqlalchemy"].json()) == [("visitors", "db/models.py")]
    assert _tables(answers["reference-detector"].json()) == [("visitors", "tables.gfx")]
    assert _tables(answers["pack-django"].json()) == []
