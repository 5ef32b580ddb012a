"""The checkout shows what the wheel shows: docs/architecture.md opens with the table of which
folder ships under which import name, and that table is `pyproject.toml`'s mapping, whole."""

from __future__ import annotations

import re
import tomllib

from conftest import REPO

ROW = re.compile(r"^\| `([^`]+)/` \| `([^`]+)` \|$", re.M)


def documented_mapping() -> dict[str, str]:
    """The import name of each folder, as the architecture page's table says."""
    page = (REPO / "docs" / "architecture.md").read_text("utf-8")
    return {folder: name for folder, name in ROW.findall(page)}


def packaged_mapping() -> dict[str, str]:
    """The same, as the wheel is built: `gpp` by its own folder, the rest by `package-dir`."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    mapping = {"gpp": "gpp"}
    mapping.update({folder: name for name, folder in setuptools["package-dir"].items()})
    return mapping


def test_the_architecture_table_is_the_wheels_mapping() -> None:
    assert documented_mapping() == packaged_mapping()


def test_every_packaged_name_lives_in_a_folder_the_table_names() -> None:
    """A package added to `packages` (say `gpp.gateway.routes`) has a folder the table leads to:
    its nearest mapped parent's folder plus the rest of its name."""
    packages = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    by_name = {name: folder for folder, name in documented_mapping().items()}
    for package in packages["packages"]:
        parent = max((n for n in by_name if package == n or package.startswith(n + ".")), key=len)
        rest = package[len(parent) :].lstrip(".").replace(".", "/")
        folder = REPO / by_name[parent] / rest
        assert folder.is_dir() and any(folder.glob("*.py")), package


def test_the_readme_points_to_the_mapping() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    assert "`app/` ships as `gpp.gateway`, `plugins/` as `gpp.plugins`" in readme
