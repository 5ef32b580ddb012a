"""pack-http-routes: JavaScript routes registered under an `if` that reads the configuration
(`if (process.env.X)`, `if (!spa)` of a name bound to one, `if (flags.beta)` of an object with
a visible default, `X === 'true'`), at module level or inside a function: where the visible
defaults turn the branch off (an unset variable is falsy) the route is an `UNRESOLVED_ROUTE`
at its line, not a route, fallbacks (`app.all('*')`, `router.get('*')`) included; a branch the
defaults turn on stays a route, and a test that reads no configuration (or `NODE_ENV`, which
every deployment sets) leaves the route listed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, finding_places, scanned_both_ways  # noqa: E402

SERVER: dict[str, str] = {
    "lib/flags.js": (
        "module.exports = {\n"
        "  beta: process.env.BETA_UI || '',\n"
        "  docs: process.env.SHOW_DOCS ?? 'yes',\n"
        "};\n"
    ),
    "lib/app.js": (
        "const express = require('express');\n"
        "const flags = require('./flags');\n"
        "const web = express();\n"
        "const pages = express.Router();\n"
        "if (process.env.LEGACY_API) {\n"
        "  web.get('/legacy/items', (req, res) => res.end());\n"
        "}\n"
        "if (flags.beta) {\n"
        "  pages.get('/beta', (req, res) => res.end());\n"
        "}\n"
        "if (flags.docs) {\n"
        "  pages.get('/docs', (req, res) => res.end());\n"
        "}\n"
        "if (process.env.NODE_ENV === 'production') {\n"
        "  pages.get('/robots.txt', (req, res) => res.end());\n"
        "}\n"
        "if (web.enabled('trust proxy')) {\n"
        "  pages.get('/proxied', (req, res) => res.end());\n"
        "}\n"
        "web.use('/site', pages);\n"
        "async function boot() {\n"
        "  const clientDir = process.env.CLIENT_DIR;\n"
        "  if (!clientDir) {\n"
        "    ['/a', '/b'].forEach((p) => pages.get(p, (req, res) => res.end()));\n"
        "  } else {\n"
        "    pages.all('*', (req, res) => res.end());\n"
        "  }\n"
        "  if (process.env.EXPERIMENTS === 'true') {\n"
        "    web.get('*', (req, res) => res.end());\n"
        "  }\n"
        "  if (process.env.METRICS !== 'off') {\n"
        "    web.get('/metrics', (req, res) => res.end());\n"
        "  }\n"
        "  web.listen(8080);\n"
        "}\n"
        "boot();\n"
    ),
}


def test_branches_the_defaults_turn_off_are_findings_not_routes() -> None:
    names = sorted(str(r["name"]) for r in document(SERVER)["resources"])
    assert names == [
        "GET /metrics",
        "GET /site/a",
        "GET /site/b",
        "GET /site/docs",
        "GET /site/proxied",
        "GET /site/robots.txt",
    ]
    places = finding_places(SERVER)["UNRESOLVED_ROUTE"]
    # LEGACY_API unset; `flags.beta` '' by default; `pages.all('*')` in the `else` of an unset
    # CLIENT_DIR; `web.get('*')` under EXPERIMENTS === 'true'
    assert sorted(places) == ["lib/app.js:26", "lib/app.js:29", "lib/app.js:6", "lib/app.js:9"]


def test_the_finding_names_the_test_and_the_default() -> None:
    details = [
        str(f["detail"]) for f in document(SERVER)["findings"] if f["code"] == "UNRESOLVED_ROUTE"
    ]
    assert any("`else` branch of `if (!clientDir)`" in d and "CLIENT_DIR" in d for d in details)


def test_a_default_that_turns_the_branch_on_keeps_the_route() -> None:
    files = dict(SERVER)
    files["lib/app.js"] = files["lib/app.js"].replace(
        "process.env.LEGACY_API", "(process.env.LEGACY_API ?? 'on')"
    )
    assert "GET /legacy/items" in {str(r["name"]) for r in document(files)["resources"]}


def test_pre_filtered_equals_parse_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents, _ = scanned_both_ways(tmp_path, SERVER, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /site/docs"' in documents[1]


def test_a_variable_a_sample_environment_file_sets_runs_its_branch() -> None:
    files = dict(SERVER)
    files["lib/.env.example"] = "LEGACY_API=1\n"
    names = {str(r["name"]) for r in document(files)["resources"]}
    assert "GET /legacy/items" in names
    assert "lib/app.js:6" not in finding_places(files)["UNRESOLVED_ROUTE"]
