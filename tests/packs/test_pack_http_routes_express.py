"""pack-http-routes: Express registrations written in loops over collections the reader
expands: a `Map` of `[url, file]` pairs destructured by `for...of`, a `Set` iterated by
`forEach`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, placed, scanned_both_ways  # noqa: E402

# Files served each under its own URL from a Map, with an explicit HEAD (a comment among the
# pairs), and probes from a Set literal iterated in place.
COLLECTION_LOOPS: dict[str, str] = {
    "site/server.js": (
        "const express = require('express');\n"
        "const site = express();\n"
        "const assets = new Map([\n"
        "  // served from the vendor folder\n"
        "  ['/vendor/a.js', 'lib/a.js'],\n"
        "  ['/vendor/b.css', 'lib/b.css'],\n"
        "]);\n"
        "for (const [url, file] of assets) {\n"
        "  const send = (req, res) => res.sendFile(file);\n"
        "  site.head(url, send);\n"
        "  site.get(url, send);\n"
        "}\n"
        "new Set(['/healthz', '/livez']).forEach((probe) => site.get(probe, (q, r) => r.end()));\n"
    ),
}


def test_routes_in_loops_over_a_map_s_pairs_and_a_set_are_listed_per_item() -> None:
    assert placed(COLLECTION_LOOPS) == {
        "HEAD /vendor/a.js": "site/server.js:10 express",
        "HEAD /vendor/b.css": "site/server.js:10 express",
        "GET /vendor/a.js": "site/server.js:11 express",
        "GET /vendor/b.css": "site/server.js:11 express",
        "GET /healthz": "site/server.js:13 express",
        "GET /livez": "site/server.js:13 express",
    }
    assert document(COLLECTION_LOOPS)["findings"] == []


def test_a_collection_loop_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _parsed = scanned_both_ways(tmp_path, COLLECTION_LOOPS, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /vendor/b.css"' in documents[1]
