"""pack-http-routes resolves Python imports by the one module resolver of the packs
(`pymodules.ModuleIndex`, issue 34 item 3): the import system's rules, not a dotted suffix
matched anywhere in the repository; JavaScript and TypeScript imports as Node resolves them
(relative files, index files, a folder's or a workspace package's `package.json`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import extract, route_document
from packs.scan import DocumentPieces
from routes_harness import scanned_both_ways


def linked(files: dict[str, str]) -> DocumentPieces:
    return route_document([(path, extract(path, source)) for path, source in sorted(files.items())])


def auth(files: dict[str, str]) -> dict[str, str]:
    return {s["resource"].partition(":")[2]: s["value"] for s in linked(files).signals}


def served(files: dict[str, str]) -> dict[str, str]:
    return {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}"
        for r in linked(files).resources
    }


def test_a_file_inside_a_package_named_like_a_library_does_not_shadow_it() -> None:
    # `shop/flask_login.py` is `shop.flask_login` only: `from flask_login import ...` in
    # shop/app.py is the library's guard (a suffix match took the local file: auth unknown)
    files = {
        "shop/__init__.py": "",
        "shop/flask_login.py": "def remember(user):\n    return user\n",
        "shop/app.py": (
            "from flask import Flask\n"
            "from flask_login import login_required\n"
            "app = Flask(__name__)\n\n"
            "@app.route('/orders')\n"
            "@login_required\n"
            "def orders():\n"
            "    return 'x'\n"
        ),
    }
    assert auth(files) == {"GET /orders": "required"}


SERVICES = {
    "app/__init__.py": "",
    "svc_b/app/__init__.py": "",
    "app/api.py": (
        "from fastapi import APIRouter\nrouter = APIRouter()\n\n"
        "@router.get('/alpha')\ndef alpha():\n    return 1\n"
    ),
    "svc_b/app/api.py": (
        "from fastapi import APIRouter\nrouter = APIRouter()\n\n"
        "@router.get('/beta')\ndef beta():\n    return 1\n"
    ),
    "main.py": (
        "from fastapi import FastAPI\nfrom app.api import router\n"
        "app = FastAPI()\napp.include_router(router, prefix='/a')\n"
    ),
    "svc_b/main.py": (
        "from fastapi import FastAPI\nfrom app.api import router\n"
        "app = FastAPI()\napp.include_router(router, prefix='/b')\n"
    ),
}


def test_each_service_of_a_monorepo_imports_its_own_package() -> None:
    # svc_b/main.py runs with svc_b/ on its sys.path: `app.api` there is svc_b/app/api.py
    assert served(SERVICES) == {"GET /a/alpha": "app/api.py:4", "GET /b/beta": "svc_b/app/api.py:4"}


def test_a_module_inside_a_package_is_no_top_level_import() -> None:
    # `from api import r` at the root: Python finds no top-level `api` (pkg/api.py is
    # `pkg.api`), so the mount is a finding and the router's routes are listed unprefixed
    files = {
        "pkg/__init__.py": "",
        "pkg/api.py": (
            "from fastapi import APIRouter\nr = APIRouter()\n\n"
            "@r.get('/items')\ndef items():\n    return []\n"
        ),
        "main.py": (
            "from fastapi import FastAPI\nfrom api import r\n"
            "app = FastAPI()\napp.include_router(r, prefix='/v1')\n"
        ),
    }
    result = linked(files)
    assert [r["name"] for r in result.resources] == ["GET /items"]
    assert {f["code"] for f in result.findings} == {"UNRESOLVED_ROUTER", "UNRESOLVED_PREFIX"}


def test_a_src_layout_and_a_namespace_folder_resolve() -> None:
    files = {
        "src/shop/__init__.py": "",
        "src/shop/views.py": (
            "from flask import Blueprint\nbp = Blueprint('shop', __name__)\n\n"
            "@bp.route('/cart')\ndef cart():\n    return ''\n"
        ),
        "src/shop/app.py": (
            "from flask import Flask\nfrom shop.views import bp\n"
            "app = Flask(__name__)\napp.register_blueprint(bp, url_prefix='/shop')\n"
        ),
        "plain/api/routes.py": (
            "from fastapi import APIRouter\nrouter = APIRouter()\n\n"
            "@router.get('/ping')\ndef ping():\n    return 1\n"
        ),
        "plain/serve.py": (
            "from fastapi import FastAPI\nfrom api import routes\n"
            "app = FastAPI()\napp.include_router(routes.router, prefix='/p')\n"
        ),
    }
    assert served(files) == {
        "GET /shop/cart": "src/shop/views.py:4",
        "GET /p/ping": "plain/api/routes.py:4",
    }


# -- JavaScript and TypeScript: one resolver, as Node resolves (relative, index, package.json) --

WORKSPACES = {
    "package.json": '{"name": "shop", "private": true, "workspaces": ["packages/*"]}',
    "packages/api/package.json": (
        '{"name": "@shop/api", "exports": {".": {"require": "./lib/index.js"},'
        ' "./admin": "./lib/admin.js"}}'
    ),
    "packages/api/lib/index.js": (
        "const express = require('express');\nconst router = express.Router();\n"
        "router.get('/items', (req, res) => res.json([]));\nmodule.exports = router;\n"
    ),
    "packages/api/lib/admin.js": (
        "const { Router } = require('express');\nconst r = Router();\n"
        "r.delete('/cache', (req, res) => res.end());\nmodule.exports = r;\n"
    ),
    "packages/users/package.json": '{"name": "users", "main": "src/main"}',
    "packages/users/src/main.ts": (
        "import { Router } from 'express';\nconst r = Router();\n"
        "r.get('/me', (req, res) => res.end());\nexport default r;\n"
    ),
    "packages/broken/package.json": "{ not json",
    "server/app.js": (
        "const express = require('express');\n"
        "const api = require('@shop/api');\n"
        "const admin = require('@shop/api/admin');\n"
        "const users = require('../packages/users');\n"
        "const lodash = require('lodash');\n"
        "const app = express();\n"
        "app.use('/api', api);\n"
        "app.use('/admin', admin);\n"
        "app.use('/users', users);\n"
    ),
}


def test_workspace_packages_and_folders_resolve_through_package_json() -> None:
    # `@shop/api` by its manifest's name and `exports` (conditions, a subpath), a folder by
    # its manifest's `main` (extensionless, a .ts file); a malformed manifest says nothing
    result = linked(WORKSPACES)
    assert served(WORKSPACES) == {
        "GET /api/items": "packages/api/lib/index.js:3",
        "DELETE /admin/cache": "packages/api/lib/admin.js:3",
        "GET /users/me": "packages/users/src/main.ts:3",
    }
    assert result.findings == []


def test_a_workspace_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, WORKSPACES, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /users/me"' in documents[1] and '"unresolved": []' in documents[1]
