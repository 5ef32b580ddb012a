"""`packs.routes.seeds`: which files pack-http-routes parses first, by their bytes alone: those
that can declare or register a route, a router or an app (the rest are parsed when linking
asks). Each verdict here is one clause of the module's rules; the prefilter and framework test
files hold the packs' documents equal with and without it."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.seeds import ROUTER_BASE_WORDS, admits, spells_router_base
from packs.scan_select import Admission


@pytest.mark.parametrize(
    ("source", "admitted"),
    [
        (b"from fastapi import APIRouter\nrouter = APIRouter()\n", True),  # a framework word
        (b"from flask import Blueprint\nbp = Blueprint('a', __name__)\n", True),
        (b"def setup(app):\n    app.include_router(users)\n", True),  # a statement call
        (b"app.register_blueprint(bp)\n", True),
        (b"@bp.route('/x')\ndef x(): ...\n", True),  # a route decorator
        (b"@router.get('/items')\nasync def items(): ...\n", True),
        (b"total = amount + 1\n", False),  # `mount` inside a longer word is no call
        (b"@property\ndef name(self): ...\n", False),
        (b"PREFIX = '/api/v1'\n", False),
        (b"def home(request):\n    return None\n", False),
    ],
)
def test_python_files(source: bytes, admitted: bool) -> None:
    assert admits("app/module.py", source) is admitted


@pytest.mark.parametrize(
    ("source", "admitted"),
    [
        # `mock` bound once, by `from unittest import mock`: `@mock.patch` is no PATCH route
        (b"from unittest import mock\n\n@mock.patch('x.y')\ndef test(): ...\n", False),
        # bound again (another import): it may be anything, so the file is read
        (b"import mock\nfrom unittest import mock\n\n@mock.patch('x.y')\ndef t(): ...\n", True),
        (b"from unittest import mock\nmock = Router()\n\n@mock.patch('/x')\ndef t(): ...\n", True),
        (b"@mock.patch('x.y')\ndef test(): ...\n", True),  # a `mock` of unknown origin
    ],
)
def test_mock_patch_is_let_through_only_for_unittests_mock(source: bytes, admitted: bool) -> None:
    assert admits("tests/test_views.py", source) is admitted


@pytest.mark.parametrize(
    "path",
    ["package.json", "web/package.json", "tsconfig.json", "jsconfig.base.json", ".env.example"],
)
def test_manifests_configs_and_sample_env_files_declare_nothing(path: str) -> None:
    """Parsed when the linker resolves through them, never first: whatever they spell."""
    assert admits(path, b'{"name": "express", "main": "app.get(\'/x\')"}') is False


@pytest.mark.parametrize(
    ("path", "source", "admission"),
    [
        ("a.js", b"const express = require('express');\n", Admission.SEED),
        ("a.ts", b"import { Router } from 'express';\n", Admission.SEED),
        ("a.js", b"app.get('/x', h);\n", Admission.SEED),  # a route on an app parameter
        ("a.js", b"app[method]('/x', h);\n", Admission.SEED),  # computed, on an app
        ("a.js", b"api.get('/x').then(f);\n", Admission.GATED),  # a client's, unless a server
        ("a.js", b"const r = new Router();\n", Admission.GATED),  # a framework's word only
        ("a.js", b"handlers[name](req);\n", Admission.GATED),
        (
            "a.js",
            b"const { PkgRouter } = require('pkg');\nconst r = new PkgRouter();\n"
            b"r.get('/x', (req, res) => {});\n",
            Admission.YES,  # a route-shaped call on a package's object: flagged if unread
        ),
        ("pages/api/users.ts", b"export default function h(req, res) {}\n", Admission.YES),
        ("a.js", b"const x = [...items];\n", Admission.NO),  # a spread is no `.` call
        ("a.js", b"fetch('/x').then((r) => r.json());\n", Admission.NO),
        ("a.js", b"const total = 1 + 2;\n", Admission.NO),
    ],
)
def test_scripts(path: str, source: bytes, admission: Admission) -> None:
    assert admits(path, source) is admission


def test_a_subclass_of_a_frameworks_router_or_app_is_spelled_by_its_base_words() -> None:
    """The bases the records name (`APIRouter` holds `Route`, `Api` is told by `flask_rest…`):
    a file spelling one gets its classes read as possible router subclasses."""
    assert {b"Flask", b"Blueprint", b"FastAPI", b"Starlette"} <= set(ROUTER_BASE_WORDS)
    assert spells_router_base("class VersionedRouter(APIRouter):\n    pass\n")
    assert spells_router_base("from flask_restful import Api\nclass MyApi(Api): ...\n")
    assert not spells_router_base("class Service:\n    pass\n")
