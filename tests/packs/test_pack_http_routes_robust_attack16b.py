"""pack-http-routes on hostile repositories aimed at this session's readers (attack-16b): lock
files read for a library's pins (one package pinned at thousands of versions, a manifest range
of thousands of `||` alternatives: their intersection cost the product), glob listings whose
patterns backtrack or nest, a listing read per use over every walked file. Each costs a bounded
amount of work (an unread range admits every version, as one not understood), never the run."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs import version_ranges
from packs.declared_versions import read as read_declarations
from packs.routes import js_dirload, js_loops
from packs.routes.manifests import declared_range, lock_facts
from packs.routes.model import Listing
from packs.version_ranges import EVERY, semver
from routes_harness import finding_places, names


def _head_app(fastify: str, lock: str) -> dict[str, str]:
    return {
        "package.json": json.dumps({"name": "x", "dependencies": {"fastify": fastify}}),
        "yarn.lock": lock,
        "probe.mjs": (
            "import Fastify from 'fastify';\n"
            "const probe = Fastify();\n"
            "probe.route({ method: ['HEAD', 'GET'], url: '/alive', handler: async () => 'y' });\n"
        ),
    }


def test_a_range_of_thousands_of_alternatives_admits_every_version() -> None:
    assert semver(" || ".join(f"4.{i}.0" for i in range(1000))) == EVERY
    assert len(semver("4.1.0 || 4.2.0 || 5.x").intervals) == 3


def test_a_lock_pinning_one_package_at_many_versions_keeps_each_pin_once() -> None:
    lock = "".join(f'fastify@^{i}.0.0:\n  version "4.{i % 3}.0"\n' for i in range(3000))
    spec = declared_range(lock_facts("yarn.lock", lock), "fastify")
    assert spec == "4.0.0 || 4.1.0 || 4.2.0"


def test_many_pins_against_many_alternatives_cost_no_product(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    count = 2000
    lock = "".join(f'fastify@^{i}.0.0:\n  version "4.{i}.0"\n' for i in range(count))
    declared = " || ".join(f"4.{i}.x" for i in range(count))
    calls = [0]
    tighter = version_ranges._tighter_low

    def counted(*args: object) -> object:
        calls[0] += 1
        return tighter(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(version_ranges, "_tighter_low", counted)
    # too many to read: every version admitted, so some admitted version lists HEAD by itself
    assert names(_head_app(declared, lock)) == {"GET /alive", "HEAD /alive"}
    assert calls[0] < count


def _listing(pattern: str) -> Listing:
    found = js_dirload._pattern_text(pattern)
    assert found is not None
    return Listing(pattern, found[1], (), "server.js")


BENIGN = ["d/**/*.ts", "d/*.js", "d/**/x?.ts", "d/{a,b}/*.{js,ts}", "d/**/**/m*.js", "d/a**.js"]
PATHS = ["d/a/x1.ts", "d/x.js", "d/a/b/m1.js", "d/b/q.ts", "d/ab/c.js", "d/m.js", "d/a/xy.ts"]


@pytest.mark.parametrize("pattern", BENIGN)
def test_a_listing_matches_as_the_patterns_regular_expression_does(pattern: str) -> None:
    regex = re.compile(_listing(pattern).regex)
    expected = sorted(p for p in PATHS if regex.match("/" + p))
    items, _ = js_dirload.listed(_listing(pattern), sorted(PATHS), "", js_dirload.GLOB_STEPS)
    assert items == expected


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        ("d/" + "**/" * 30 + "x*.ts", "d/" + "a/" * 40 + "y.ts"),  # years, backtracking
        ("d/" + "*a" * 30 + "*.ts", "d/" + "a" * 200 + ".js"),
        ("d/" + "**/a/" * 10 + "*.js", "d/" + "a/" * 60 + "b.ts"),
    ],
)
def test_a_pattern_that_backtracks_costs_steps_linear_in_the_path(pattern: str, path: str) -> None:
    listing = _listing(pattern)
    items, left = js_dirload.listed(listing, [path], "", js_dirload.GLOB_STEPS)
    assert items == []
    assert js_dirload.GLOB_STEPS - left <= 2 * len(pattern) * len(path)


def test_a_listing_past_its_steps_is_not_read() -> None:
    files = sorted(f"d/m{i}.js" for i in range(100))
    items, left = js_dirload.listed(_listing("d/*.js"), files, "", 50)
    assert items is None
    assert left < 0


def test_brace_groups_spelling_more_patterns_than_the_cap_are_not_read() -> None:
    items, _ = js_dirload.listed(_listing("d/" + "{a,b}" * 30 + ".js"), ["d/ab.js"], "", 10**6)
    assert items is None


def test_listings_past_the_links_steps_are_findings_at_their_loops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each listing looks at every walked file: many distinct listings over many files share
    one link's steps, the ones past them not read (before: each read, their product spent)."""
    loops = "".join(
        f"for (const f of fg.sync('d/*{i}.ts')) app.get('/g{i}/' + basename(f, '.ts'), h);\n"
        for i in range(10)
    )
    files = {
        "package.json": json.dumps({"name": "s", "dependencies": {"express": "^4.21.0"}}),
        "server.js": (
            "import fg from 'fast-glob';\nimport { basename } from 'path';\n"
            "import express from 'express';\nconst app = express();\nconst h = (q, s) => 1;\n"
            + loops
            + "app.listen(3000);\n"
        ),
    }
    files |= {f"d/m{i}.ts": "" for i in range(10)}
    assert len(names(files)) == 10
    monkeypatch.setattr(js_dirload, "GLOB_STEPS", 150)
    assert 0 < len(names(files)) < 10
    assert len(finding_places(files)["UNRESOLVED_ROUTE"]) >= 1


@pytest.mark.parametrize("written", ["'/a\\x00ff.\\x00'", "'/a\\u0000abc.\\u0000'"])
def test_a_path_spelling_a_regex_token_is_a_path_not_the_documents_loss(written: str) -> None:
    """A regular expression travels joins as `\\x00<hex>.<flags>\\x00`: a literal path spelling
    one that is no hex of UTF-8 text made the whole link raise (every route lost)."""
    files = {
        "package.json": '{"dependencies": {"express": "^4"}}',
        "app.js": (
            "const express = require('express');\nconst app = express();\n"
            f"app.get({written}, (q, s) => s.end());\napp.get('/ok', (q, s) => 1);\n"
        ),
    }
    assert "GET /ok" in names(files)
    assert len(names(files)) == 2


def test_a_blocks_locals_are_read_once_for_all_its_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each loop's call looked through every statement of its block before it: a file of
    thousands of top-level loops cost their square (6,000 loops, 320 KB: E_TIMEOUT)."""
    loops = "".join(f"for (const f of ['a{i}']) app.get('/g{i}/' + f, h);\n" for i in range(50))
    files = {
        "package.json": '{"dependencies": {"express": "^4"}}',
        "server.js": (
            "const express = require('express');\nconst app = express();\n"
            "const h = (q, s) => 1;\nconst T = { a: 1 };\n" + loops
        ),
    }
    calls = [0]
    declared = js_loops._declared

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return declared(*args)

    monkeypatch.setattr(js_loops, "_declared", counted)
    assert len(names(files)) == 50
    assert calls[0] == 1


def test_a_mount_prefix_past_the_cap_is_a_finding_not_in_every_route() -> None:
    """Each route below a mount carried its prefix: a 600 KB literal over 3,000 routes was the
    sandbox's memory (E_EOF, OOM-killed). Past 4,096 characters the prefix is not listed."""
    long = "/" + "a" * 5000
    files = {
        "package.json": '{"dependencies": {"express": "^4"}}',
        "app.js": (
            "const express = require('express');\nconst router = require('./router');\n"
            f"const app = express();\napp.use('{long}', router);\napp.use('/ok', router);\n"
        ),
        "router.js": (
            "const express = require('express');\nconst router = express.Router();\n"
            "router.get('/x', (q, s) => 1);\nmodule.exports = router;\n"
        ),
    }
    assert names(files) == {"GET /ok/x"}
    assert finding_places(files)["UNRESOLVED_PREFIX"] == ["app.js:4", "router.js:3"]


def test_env_values_expanding_each_other_many_times_are_not_known() -> None:
    """dotenv-expand's `${V}` looked each variable up afresh at every depth: eight lines each
    naming the one above 30 times (a 1 KB `.env`) were 30^7 look-ups (E_TIMEOUT)."""
    lines = ["V0=x", *(f"V{i}=" + f"${{V{i - 1}}}" * 30 for i in range(1, 8))]
    express = (
        "const express = require('express');\nconst app = express();\n"
        "const ledger = express.Router();\nledger.get('/balance', (q, s) => s.end());\n"
        "app.use(process.env.LEDGER_ROOT, ledger);\napp.use(process.env.OK_ROOT, ledger);\n"
    )
    files = {
        ".env": "\n".join([*lines, "LEDGER_ROOT=/${V7}", "OK_ROOT=/${V0}${V0}"]) + "\n",
        "index.js": (
            "const { expand } = require('dotenv-expand');\n"
            "expand(require('dotenv').config());\n" + express
        ),
    }
    assert names(files) == {"GET /xx/balance"}
    assert finding_places(files)["UNRESOLVED_PREFIX"] == ["index.js:6", "index.js:7"]


def test_a_yarn_header_listing_packages_many_times_pins_each_once() -> None:
    """A block's header kept its packages in a list, each looked for in it: a 1.8 MB header of
    180,000 names was their square (now a dict, the same pins)."""
    header = ", ".join(f"p{i % 3}@^{i}" for i in range(3000))
    found = read_declarations("yarn.lock", f'{header}:\n  version "1.0.0"\n').requirements
    assert [r.package for r in found] == ["p0", "p1", "p2"]
