"""Folders of the repository that reach the app only as installed plugins (the table packs).

A folder holding its own `setup.py`, `pyproject.toml` or `setup.cfg` (not the repository's
root) is a distribution; when its entry points name a group the app loads from outside that
folder (`load_setuptools_entrypoints("g")`, `entry_points(group="g")`, `iter_entry_points("g")`:
`entry_points` reads both sides), its code runs only once it is installed, as
`pack-http-routes` already reads it for routes: what it declares is not the app's, and each
loader gets a finding naming the group and the distributions whose items are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Distribution:
    marker: str  # its setup.py / pyproject.toml / setup.cfg
    name: str  # its declared name ("" when none)
    groups: frozenset[str]  # the entry-point groups it provides (no console scripts)

    @property
    def folder(self) -> str:
        return self.marker.rpartition("/")[0]


def plugin_folders(
    distributions: Sequence[Distribution],
    loads: Sequence[tuple[str, str, int]],
    holds: Callable[[str], bool],
    what: str,
) -> tuple[frozenset[str], list[tuple[str, int, str]]]:
    """The folders whose items are left out, and a finding (path, line, detail) at each loader
    `(path, group, line)` of a group one of them provides; `holds(folder)`: whether the folder
    declares any item (a distribution of other things is not named); `what` names the items."""
    provided: dict[str, Distribution] = {}
    for found in sorted(distributions, key=lambda d: d.marker):
        if found.folder and found.groups and found.folder not in provided:
            provided[found.folder] = found
    left: set[str] = set()
    findings: list[tuple[str, int, str]] = []
    for path, group, line in sorted(loads):
        providers = [
            d
            for folder, d in sorted(provided.items())
            if group in d.groups and not path.startswith(folder + "/") and holds(folder)
        ]
        if not providers:
            continue
        left.update(d.folder for d in providers)
        named = ", ".join(f"`{d.name or d.folder}` ({d.marker})" for d in providers)
        detail = (
            f"plugins of the entry-point group `{group}` are loaded here from the installed "
            f"distributions, which the repository's {named} provides: the {what} a plugin "
            "declares exist only once it is installed, and are not listed"
        )
        findings.append((path, line, detail))
    return frozenset(left), findings


def under(path: str, folders: frozenset[str]) -> bool:
    return any(path.startswith(folder + "/") for folder in folders)
