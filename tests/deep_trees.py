"""Deep directory trees for walk tests, and their removal: `shutil.rmtree` (and so pytest's own
clean-up of `tmp_path`) recurses once per level and fails with RecursionError at ~1,000."""

from __future__ import annotations

import os
from pathlib import Path


def remove_tree(root: Path) -> None:
    """Remove `root` and everything below it, iteratively (no recursion, any depth)."""
    directories = [str(root)]
    pending = [str(root)]
    while pending:
        directory = pending.pop()
        with os.scandir(directory) as listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    directories.append(entry.path)
                    pending.append(entry.path)
                else:
                    os.unlink(entry.path)
    for directory in reversed(directories):
        os.rmdir(directory)
