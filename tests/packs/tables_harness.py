"""What the pack-js-tables tests share: a scan of a folder held to the parse-all one."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from pack_js_tables import make_scanner


def js_tables_document(root: Path) -> dict[str, Any]:
    """pack-js-tables' pre-filtered document of `root`, asserted equal (as canonical JSON) to
    the one parsing every file: the pre-filter's identity, checked by every scan."""
    documents = []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.root = str(root)
        scanner.workers = 1
        documents.append(scanner.discover(["."]))
    reference, filtered = (json.dumps(d, sort_keys=True) for d in documents)
    assert filtered == reference
    return documents[1]


def scanned(root: Path, files: dict[str, str]) -> dict[str, Any]:
    """`files` written under `root`, then `js_tables_document` of it."""
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return js_tables_document(root)


def table_names(document: dict[str, Any]) -> list[str]:
    return sorted(str(r["name"]) for r in document["resources"])


def unresolved_places(document: dict[str, Any]) -> list[str]:
    """Where each `UNRESOLVED_TABLE_NAME` finding points, `path:line`, sorted."""
    return sorted(
        f"{where['path']}:{where['line']}"
        for f in document["findings"]
        if f["code"] == "UNRESOLVED_TABLE_NAME"
        for where in f["locations"]
    )
