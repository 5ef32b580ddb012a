"""The built wheel, not the editable install: every module of gpp and app imports from it.

`make install` is editable, so it reads the source tree and hides a wheel that lacks a
subpackage (gpp.jsonrpc once was missing: `pip install .` and the image failed at start).
This builds the wheel from a copy of the sources, installs it alone into a fresh venv that
borrows this venv's pinned dependencies (no network: no build isolation, no index), and
imports every module from there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from conftest import REPO

PACKAGES = ("gpp", "app")


def source_modules() -> list[str]:
    modules = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    result = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result


def test_the_wheel_holds_and_imports_every_module(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--disable-pip-version-check",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("gate_forge-*.whl")
    with zipfile.ZipFile(wheel) as archive:  # package data: GPP/3 as data ships with gpp
        assert "gpp/contract/gpp3.json" in archive.namelist()

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            "-q",
            str(wheel),
        ],
        cwd=tmp_path,
    )
    # the pinned dependencies come from this venv; its .pth files (the editable install's
    # finder among them) are not processed from a path added this way
    venv_site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            cwd=tmp_path,
        ).stdout.strip()
    )
    (venv_site / "borrowed-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")

    modules = source_modules()
    assert "gpp.jsonrpc" in modules and "gpp.jsonrpc.demo" in modules
    check = (  # a __main__ module runs its program when imported: found, not imported
        "import importlib, importlib.util\n"
        f"for name in {modules!r}:\n"
        "    spec = importlib.util.find_spec(name)\n"
        "    assert spec is not None, f'{name} is not in the wheel'\n"
        f"    assert spec.origin.startswith({str(venv_site)!r}), (name, spec.origin)\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "print('imported all')\n"
    )
    assert run([str(python), "-c", check], cwd=tmp_path).stdout.strip() == "imported all"
    usage = run([str(venv / "bin" / "gpp"), "--help"], cwd=tmp_path).stdout
    assert usage.startswith("usage: gpp") and "serve" in usage
