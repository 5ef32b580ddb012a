"""Dump `pack-http-routes`' cold document of every checkout under a folder, one file each, so
two trees of the packs (main and a branch) can be diffed byte for byte: a cost change must leave
every document identical (issue 34's cold-scan work).

    bench/route_docs.py OUT_DIR [REPOS_DIR] [--packs-root=TREE] [--only=a,b] [--skip=a,b]

`--packs-root` is the checkout whose `plugins/` is imported (default: this one), so one venv
dumps main's documents from a second worktree. Each document is written as its canonical JSON
(`OUT_DIR/<name>.json`; a discover that raises writes `<name>.error`); existing files are kept
(a rerun resumes). Then `diff -r` two OUT_DIRs. Figures, not a test: run it at low priority.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
OPTIONS = dict(a[2:].partition("=")[::2] for a in sys.argv[1:] if a.startswith("--"))
TREE = Path(OPTIONS.get("packs-root") or Path(__file__).resolve().parent.parent).resolve()
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path[:0] = [str(TREE), str(TREE / "plugins")]

from pack_http_routes import make_scanner  # noqa: E402


def dump(root: Path) -> bytes:
    """`root`'s cold document, canonical bytes, from a new scanner in `root`."""
    old = Path.cwd()
    os.chdir(root)
    try:
        scanner = make_scanner()
        scanner.workers = 1
        found = scanner.discover(["."])
    finally:
        os.chdir(old)
    return json.dumps(found, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def main() -> None:
    if not ARGS:
        sys.exit(__doc__)
    out = Path(ARGS[0])
    repos = Path(ARGS[1] if len(ARGS) > 1 else "/work/realrepos")
    only = set(filter(None, OPTIONS.get("only", "").split(",")))
    skip = set(filter(None, OPTIONS.get("skip", "").split(",")))
    out.mkdir(parents=True, exist_ok=True)
    for root in sorted(p for p in repos.iterdir() if p.is_dir()):
        if (only and root.name not in only) or root.name in skip:
            continue
        target = out / f"{root.name}.json"
        if target.exists() or (out / f"{root.name}.error").exists():
            continue
        try:
            target.write_bytes(dump(root))
        except Exception:  # one failing checkout must not stop the dump
            (out / f"{root.name}.error").write_text(traceback.format_exc())
        print(root.name, flush=True)


if __name__ == "__main__":
    main()
