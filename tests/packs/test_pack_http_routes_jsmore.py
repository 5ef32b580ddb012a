"""JavaScript/TypeScript classes an outside evaluation found (issues 34 and 36): a hand-written
module with a long string is not a minified bundle; each case holds the pre-filtered document to
parse-all's."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from pack_http_routes import make_scanner


def _both(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The pre-filtered document, asserted equal (as canonical JSON) to the parse-all one."""
    monkeypatch.chdir(root)
    documents = []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.workers = 1
        documents.append(scanner.discover(["."]))
    reference, filtered = (json.dumps(d, sort_keys=True) for d in documents)
    assert filtered == reference
    return documents[1]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _unresolved(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(u["path"], u["reason"], u["detail"]) for u in document["unresolved"]]


# ------------------------------------------------------------ long strings are not minified

_PROSE = " ".join(f"Paragraph {n}: it's a note, see https://example.test/{n}." for n in range(60))


def test_a_long_string_in_hand_written_code_is_read_and_a_bundle_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line of 1,000+ characters near the top is a bundle only when it is code: an embedded
    document in a template literal (quotes, `//` and `;` inside), a data URI in a string, a long
    licence comment leave the module read; a bundle's line is skipped even when it opens on a
    long string, and a file whose long line starts after the first 4 KB is read."""
    _write(tmp_path, {
        "server/app.js": "const express = require('express');\nconst app = express();\n"
                         "const notes = require('./notes');\nconst logo = require('./logo');\n"
                         "app.use('/notes', notes);\napp.use('/logo', logo);\n"
                         "module.exports = app;\n",
        "server/notes.ts": "import { Router } from 'express';\n"
                           f"const WELCOME = `# Welcome\n\n{_PROSE}\n\n## End; {{done}}\n`;\n"
                           "const router = Router();\n"
                           "router.get('/welcome', (req, res) => res.send(WELCOME));\n"
                           "export = router;\n",
        "server/logo.js": f"/* {_PROSE} */\n"
                          f"const PNG = 'data:image/png;base64,{'iVBORw0KGgo' * 300}';\n"
                          "const router = require('express').Router();\n"
                          "router.get('/png', (req, res) => res.send(PNG));\n"
                          "module.exports = router;\n",
        "public/vendor.js": f"var s=\"{'x' * 300}\";" + "a.get('/hidden',h);b(c,d);" * 80 + "\n",
        "server/late.js": "// padding\n" * 400 + "var q = [" + "1," * 800 + "];\n"
                          "require('./app').get('/late', (req, res) => res.end());\n",
    })  # fmt: skip
    document = _both(tmp_path, monkeypatch)
    assert [r["name"] for r in document["resources"]] == [
        "GET /late",
        "GET /logo/png",
        "GET /notes/welcome",
    ]
    assert _unresolved(document) == [
        ("public/vendor.js", "unsupported", "generated code is not read (a minified bundle)"),
    ]
