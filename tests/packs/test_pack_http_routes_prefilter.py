"""pack-http-routes' pre-filter: each case below needs a file the bytes do not admit (no
route, router or registration in it), which only the linker's asking brings in; each holds the
filtered document to the one of parsing every file (`make_scanner(parse_all=True)`), and to
what that file contributes, so a pre-filter that missed it fails here."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.linker import resolve_routes_and_asked
from packs.routes.python_facts import python_facts
from packs.routes.seeds import admits
from routes_harness import pre_filtered, write_files


def _routes(document: dict[str, Any]) -> dict[str, Any]:
    return {r["name"]: r["attrs"] for r in document["resources"]}


def test_a_prefix_and_a_guard_in_files_without_routes_are_parsed_on_demand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, {
        "app/main.py": "from fastapi import FastAPI\nfrom app.settings import PREFIX\n"
                       "from app.users import router\napp = FastAPI()\n"
                       "app.include_router(router, prefix=PREFIX)\n",
        "app/settings.py": "PREFIX = '/api/v1'\n",
        "app/users.py": "from fastapi import APIRouter, Depends\nfrom app.guards import user\n"
                        "router = APIRouter()\n@router.get('/me')\n"
                        "def me(u=Depends(user)):\n    return u\n",
        "app/guards.py": "from fastapi import HTTPException\n"
                         "def user():\n    raise HTTPException(status_code=401)\n",
        "app/unrelated.py": "VALUE = 1\n",
    })  # fmt: skip
    assert not admits("app/settings.py", b"PREFIX = '/api/v1'\n")
    document, everything, filtered = pre_filtered(tmp_path, monkeypatch)
    assert _routes(document) == {"GET /api/v1/me": {"framework": "fastapi", "handler": "me"}}
    [signal] = document["classificationSignals"]
    assert signal["value"] == "required"  # guards.py was read: its 401 is the evidence
    assert (everything, filtered) == (5, 4)  # unrelated.py only is left out


def test_a_call_passing_a_router_to_a_route_helper_is_found_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`views.py` names no route word: it only calls the helper, under another name."""
    write_files(tmp_path, {
        "site/helpers.py": "def register_view(bp, routes, view_func):\n"
                           "    for rule in routes:\n"
                           "        bp.add_url_rule(rule, view_func=view_func)\n",
        "site/blueprints.py": "from flask import Blueprint\nbp = Blueprint('x', __name__)\n",
        "site/views.py": "from site.helpers import register_view as reg\n"
                         "from site.blueprints import bp\n"
                         "def page():\n    return ''\n"
                         "reg(bp, routes=['/a', '/b'], view_func=page)\n",
    })  # fmt: skip
    assert not admits("site/views.py", (tmp_path / "site/views.py").read_bytes())
    document, _, _ = pre_filtered(tmp_path, monkeypatch)
    assert set(_routes(document)) == {"GET /a", "GET /b"}


def test_a_broken_file_counts_where_the_linker_looks_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A syntax error in a file an import lands in is reported in both modes (what it hides
    may be a guard); one in a file nothing links to and that names no route is in neither."""
    write_files(tmp_path, {
        "main.py": "from fastapi import FastAPI, Depends\nfrom deps import current_user\n"
                   "app = FastAPI()\n@app.get('/me')\ndef me(u=Depends(current_user)):\n"
                   "    return u\n",
        "deps.py": "def current_user(:\n    pass\n",
        "scripts/tool.py": "def f(:\n    pass\n",
    })  # fmt: skip
    document, _, _ = pre_filtered(tmp_path, monkeypatch)
    assert [(u["path"], u["reason"]) for u in document["unresolved"]] == [
        ("deps.py", "parse-error")
    ]
    assert document["classificationSignals"][0]["value"] == "unknown"


def test_the_linker_resolves_imports_from_every_path_not_the_parsed_ones() -> None:
    """An import of a module of the repository that was not parsed is the repository's (not a
    library's): the linker asks for it instead of taking its name as evidence."""
    main = python_facts(
        "from fastapi import FastAPI, Depends\nfrom auth.deps import guard\napp = FastAPI()\n"
        "@app.get('/x')\ndef x(g=Depends(guard)):\n    return g\n",
        "main.py",
    )
    resolved, asked = resolve_routes_and_asked({"main.py": main}, paths=["main.py", "auth/deps.py"])
    assert asked.touched >= {"auth/deps.py"}
    alone, asked_alone = resolve_routes_and_asked({"main.py": main})
    assert "auth/deps.py" not in asked_alone.touched
    assert [r.name for r in resolved.routes] == [r.name for r in alone.routes] == ["GET /x"]


def test_mock_patch_decorators_of_a_test_are_no_route_but_a_router_named_mock_is() -> None:
    test = b"from unittest import mock\n\n@mock.patch('app.send')\ndef test_x(send):\n    pass\n"
    assert not admits("tests/test_x.py", test)
    assert admits("tests/test_x.py", test.replace(b"'app.send'", b"'/x'") + b"@app.get('/y')\n")
    routed = b"from app.routers import mock\n\n@mock.patch('/items')\ndef edit():\n    pass\n"
    assert admits("views.py", routed)
    both = b"from unittest import mock\nfrom app.routers import mock\n" + routed.split(b"\n", 1)[1]
    assert admits("views.py", both)
    assert admits("views.py", b"from unittest import mock\nmock = make()\n@mock.patch('/x')\n")
