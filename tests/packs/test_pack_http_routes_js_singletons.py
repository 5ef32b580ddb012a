"""pack-http-routes: an app reached through a class singleton (JavaScript and TypeScript). The
class makes the app in its constructor (`this.app = express()`) and a static accessor gives its
one instance back: `static getInstance() { if (!Hub.instance) Hub.instance = new Hub(); return
Hub.instance; }`, or `this.instance` in the static method, `return Hub.instance ??= new Hub()`,
`Hub.instance ||= new Hub()`, a static field `static shared = new Hub()`, a static getter. The
routes another file registers on `Hub.getInstance().app` (also inside an async IIFE) are listed
there; a class whose accessor returns something else keeps its routes unlisted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import located, names, scanned_both_ways  # noqa: E402

# The class: `%s` is its accessor (static fields and methods); the app made in the constructor.
HUB = (
    "const express = require('express');\n"
    "class Hub {\n"
    "%s\n"
    "  constructor() {\n"
    "    this.port = 3000;\n"
    "    this.app = express();\n"
    "  }\n"
    "}\n"
    "module.exports = { Hub };\n"
)

# The entry file: reaches the app through the accessor (`%s`), registers one route at the top
# level and one in an async IIFE.
MAIN = (
    "const { Hub } = require('./hub');\n"
    "const hub = Hub.%s;\n"
    "const app = hub.app;\n"
    "app.get('/status', (req, res) => res.send('up'));\n"
    "(async () => {\n"
    "  await Promise.resolve();\n"
    "  app.post('/reports/:id', (req, res) => res.json({}));\n"
    "})();\n"
)

ACCESSORS: dict[str, tuple[str, str]] = {
    "static field, assigned when unset": (
        "  static instance = null;\n"
        "  static getInstance() {\n"
        "    if (Hub.instance == null) {\n"
        "      Hub.instance = new Hub();\n"
        "    }\n"
        "    return Hub.instance;\n"
        "  }",
        "getInstance()",
    ),
    "this in the static method": (
        "  static getInstance() {\n"
        "    if (!this.instance) this.instance = new Hub();\n"
        "    return this.instance;\n"
        "  }",
        "getInstance()",
    ),
    "returned ??=": (
        "  static current() {\n    return (Hub.instance ??= new Hub());\n  }",
        "current()",
    ),
    "returned this ??=": (
        "  static current() {\n    return this.instance ??= new Hub();\n  }",
        "current()",
    ),
    "||= then return": (
        "  static current() {\n    Hub.one ||= new Hub();\n    return Hub.one;\n  }",
        "current()",
    ),
    "static field made at once": (
        "  static shared = new Hub();\n  static getInstance() {\n    return Hub.shared;\n  }",
        "getInstance()",
    ),
    "static field read directly": ("  static shared = new Hub();", "shared"),
    "static getter over a private field": (
        "  static #hub;\n"
        "  static get current() {\n"
        "    if (!Hub.#hub) Hub.#hub = new Hub();\n"
        "    return Hub.#hub;\n"
        "  }",
        "current",
    ),
}


@pytest.mark.parametrize("accessor", sorted(ACCESSORS))
def test_routes_on_a_singleton_s_app_are_listed(accessor: str) -> None:
    body, call = ACCESSORS[accessor]
    files = {"src/hub.js": HUB % body, "src/main.js": MAIN % call}
    assert located(files) == {
        "GET /status": "src/main.js:4",
        "POST /reports/{id}": "src/main.js:7",
    }


# TypeScript: a private constructor, a typed private static field, an ES import, the app
# destructured from the instance.
TYPESCRIPT: dict[str, str] = {
    "src/server.ts": (
        "import express, { Express } from 'express';\n"
        "export class AppServer {\n"
        "  private static instance?: AppServer;\n"
        "  public readonly app: Express;\n"
        "  private constructor() {\n"
        "    this.app = express();\n"
        "  }\n"
        "  public static getInstance(): AppServer {\n"
        "    if (!AppServer.instance) {\n"
        "      AppServer.instance = new AppServer();\n"
        "    }\n"
        "    return AppServer.instance;\n"
        "  }\n"
        "}\n"
    ),
    "src/index.ts": (
        "import { AppServer } from './server';\n"
        "const { app } = AppServer.getInstance();\n"
        "app.delete('/sessions/:sid', (req, res) => res.sendStatus(204));\n"
    ),
}


def test_a_typescript_singleton_s_app() -> None:
    assert located(TYPESCRIPT) == {"DELETE /sessions/{sid}": "src/index.ts:3"}


def test_an_accessor_that_returns_another_thing_lists_nothing() -> None:
    """`getInstance` gives back a fresh plain object, not the instance: its `.app` is not the
    app the constructor made, and no route is invented for it."""
    body = "  static getInstance() {\n    return { app: null };\n  }"
    files = {"src/hub.js": HUB % body, "src/main.js": MAIN % "getInstance()"}
    assert names(files) == set()


def test_the_pre_filtered_scan_equals_the_parse_all_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, call = ACCESSORS["static field, assigned when unset"]
    files = {"src/hub.js": HUB % body, "src/main.js": MAIN % call}
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert "/reports/{id}" in documents[0]
