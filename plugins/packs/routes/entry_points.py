"""Setuptools entry points, for the routes linker: the readers live in `packs.entry_points`,
importable by the table packs without the routes package (which needs tree-sitter)."""

from ..entry_points import (
    DISTRIBUTION_FILES,
    SCRIPT_GROUPS,
    WORDS,
    EntryPoints,
    Loads,
    cfg_entry_points,
    is_distribution_file,
    python_entry_points,
    spells_entry_points,
    toml_entry_points,
)

__all__ = [
    "DISTRIBUTION_FILES",
    "SCRIPT_GROUPS",
    "WORDS",
    "EntryPoints",
    "Loads",
    "cfg_entry_points",
    "is_distribution_file",
    "python_entry_points",
    "spells_entry_points",
    "toml_entry_points",
]
