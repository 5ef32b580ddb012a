"""Silent mistakes a hostile round found (attack-16), each now a finding at the place the
user's code is written: a route reached through more calls than the linker follows, a router
that mounts itself or a router mounting it, a Django model whose abstract bases run past the
walk's cap, a JavaScript name bound again after its declaration."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

import pack_django
from packs import django_models
from packs.scan import Scanner
from routes_harness import finding_places, names, scanned_both_ways

_EXPRESS = "const express = require('express');\nconst server = express();\n"


def _deep_chain(calls: int) -> dict[str, str]:
    """`route(server)` passed on through `calls` functions, split over two files."""
    outer = [f"function hop{i}(x) {{ hop{i + 1}(x); }}" for i in range(calls // 2)]
    inner = [f"function hop{i}(x) {{ hop{i + 1}(x); }}" for i in range(calls // 2, calls)]
    return {
        "server.js": _EXPRESS
        + "const { hop"
        + str(calls // 2)
        + " } = require('./inner');\n"
        + "\n".join(outer)
        + "\nhop0(server);\n",
        "inner.js": "\n".join(inner)
        + f"\nfunction hop{calls}(x) {{ x.post('/far', (q, s) => s.end()); }}\n"
        + f"module.exports = {{ hop{calls // 2} }};\n",
    }


def test_a_route_past_the_call_chain_cap_is_a_finding_where_the_chain_is_cut() -> None:
    files = _deep_chain(80)
    assert names(files) == set()
    assert finding_places(files).get("UNRESOLVED_ROUTE"), "dropped silently"


def test_a_route_within_the_call_chain_cap_is_listed() -> None:
    files = _deep_chain(12)
    assert names(files) == {"POST /far"}
    assert "UNRESOLVED_ROUTE" not in finding_places(files)


_SELF_MOUNT = {
    "app.js": _EXPRESS + "const inner = require('./inner');\nserver.use('/v', inner);\n",
    "inner.js": "const { Router } = require('express');\nconst hub = Router();\n"
    "hub.get('/ping', (q, s) => s.end());\nhub.use('/again', hub);\nmodule.exports = hub;\n",
}
_CYCLE = {
    "app.js": _EXPRESS + "const a = require('./a');\nserver.use(a);\n",
    "a.js": "const express = require('express');\nconst left = express.Router();\n"
    "left.get('/l', (q, s) => s.end());\nmodule.exports = left;\n"
    "const right = require('./b');\nleft.use('/b', right);\n",
    "b.js": "const express = require('express');\nconst right = express.Router();\n"
    "right.get('/r', (q, s) => s.end());\nmodule.exports = right;\n"
    "right.use('/a', require('./a'));\n",
}


@pytest.mark.parametrize(
    ("files", "listed", "where"),
    [
        (_SELF_MOUNT, {"GET /v/ping"}, ["inner.js:4"]),
        (_CYCLE, {"GET /l", "GET /b/r"}, ["b.js:5"]),
    ],
    ids=["itself", "through-another"],
)
def test_a_router_mounting_itself_is_a_finding_at_the_mount_closing_the_cycle(
    files: dict[str, str], listed: set[str], where: list[str]
) -> None:
    assert names(files) == listed
    assert finding_places(files).get("UNRESOLVED_ROUTE") == where


@pytest.mark.parametrize(
    "files", [_deep_chain(80), _SELF_MOUNT, _CYCLE], ids=["deep", "self", "cycle"]
)
def test_the_silent_cases_prefiltered_equal_parse_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]


def _django_scan(tmp_path: Path, models: str) -> dict[str, Any]:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "settings.py").write_text("INSTALLED_APPS = ['store']\n")
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "__init__.py").write_text("")
    (tmp_path / "store" / "models.py").write_text(models)
    scanner: Scanner[Any] = Scanner(
        (".py",),
        django_models.extract,
        django_models.link,
        language="Python",
        root=str(tmp_path),
        workers=1,
        keywords=pack_django.KEYWORDS,
        base_keywords=pack_django.BASE_KEYWORDS,
        follow="names",
        fields=pack_django.FIELDS,
    )
    document: dict[str, Any] = scanner.discover(["."])
    return document


def _abstract_chain(levels: int) -> str:
    lines = [
        "from django.db import models as m\n",
        "class Stamp0(m.Model):\n    at = m.DateTimeField()\n"
        "    class Meta:\n        abstract = True\n",
    ]
    lines += [
        f"class Stamp{i}(Stamp{i - 1}):\n    class Meta:\n        abstract = True\n"
        for i in range(1, levels)
    ]
    lines.append(f"class Ledger(Stamp{levels - 1}):\n    pass\n")
    return "\n".join(lines)


def test_a_model_past_the_ancestor_cap_with_no_fields_is_a_finding(tmp_path: Path) -> None:
    models = _abstract_chain(90)
    document = _django_scan(tmp_path, models)
    line = models.splitlines().index("class Ledger(Stamp89):") + 1
    assert document["resources"] == []
    assert [(f["code"], f["locations"]) for f in document["findings"]] == [
        ("UNKNOWN_MODEL_BASE", [{"path": "store/models.py", "line": line}])
    ]


def test_a_model_within_the_ancestor_cap_is_listed(tmp_path: Path) -> None:
    document = _django_scan(tmp_path, _abstract_chain(20))
    assert [r["name"] for r in document["resources"]] == ["store_ledger"]
    assert document["findings"] == []


_ROUTER = "const express = require('express');\nconst web = express();\n"


@pytest.mark.parametrize(
    ("body", "listed"),
    [
        ("let at = '/shop';\nat = at + '/cart';\nweb.get(at, h);\n", {"GET /shop/cart"}),
        ("var at = '/shop';\nat += '/items';\nweb.put(at, h);\n", {"PUT /shop/items"}),
        (
            "let at = '/shop';\nweb.get(at, h);\nat = '/later';\nweb.head(at, h);\n",
            {"GET /shop", "HEAD /later"},
        ),
        (
            "function wire(r) {\n  let sub = '/in';\n  sub = `${sub}/fn`;\n  r.get(sub, h);\n}\n"
            "wire(web);\n",
            {"GET /in/fn"},
        ),
        (
            "function wire(r, base) {\n  base += '/v2';\n  r.get(base, h);\n}\nwire(web, '/p');\n",
            {"GET /p/v2"},
        ),
        (
            "function wire(r, base) {\n  r.get(base, h);\n}\nwire(web, '/own');\n"
            "let base = '/x';\nbase = '/y';\n",
            {"GET /own"},
        ),
    ],
    ids=["reassigned", "appended", "before-and-after", "in-a-function", "a-parameter", "shadowed"],
)
def test_a_name_bound_again_in_straight_line_code_is_read_in_statement_order(
    body: str, listed: set[str]
) -> None:
    files = {"web.js": _ROUTER + "const h = (q, s) => s.end();\n" + body}
    assert names(files) == listed
    assert "UNRESOLVED_ROUTE" not in finding_places(files)


@pytest.mark.parametrize(
    "body",
    [
        "let at = '/shop';\nif (process.env.OLD) { at = '/store'; }\nweb.get(at, h);\n",
        "let at = '/shop';\nfor (const part of ['a', 'b']) at += '/' + part;\nweb.get(at, h);\n",
        "let at = '/shop';\nfunction move() { at = '/moved'; }\nmove();\nweb.get(at, h);\n",
        "let at = '/shop';\nat = '/two';\nfunction wire() { web.get(at, h); }\nwire();\n",
        "let n = 1;\nn++;\nweb.get('/v' + n, h);\n",
        "let at = '/shop';\n[at] = ['/swapped'];\nweb.get(at, h);\n",
        "let at = '/shop';\n({ at } = { at: '/picked' });\nweb.get(at, h);\n",
    ],
    ids=[
        "if",
        "loop",
        "another-function",
        "closure",
        "increment",
        "array-pattern",
        "object-pattern",
    ],
)
def test_a_name_bound_again_out_of_straight_line_is_a_finding_never_its_first_value(
    body: str,
) -> None:
    files = {"web.js": _ROUTER + "const h = (q, s) => s.end();\n" + body}
    assert names(files) == set()
    line = (_ROUTER + "const h = 0;\n" + body).splitlines().index(
        next(x for x in body.splitlines() if "web.get" in x)
    ) + 1
    assert line in [int(p.split(":")[1]) for p in finding_places(files)["UNRESOLVED_ROUTE"]]


def test_a_prefix_bound_again_in_a_branch_is_unresolved_at_the_mount() -> None:
    files = {
        "web.js": _ROUTER
        + "const api = require('./api');\nlet mountAt = '/api';\n"
        + "if (process.env.NEXT) mountAt = '/next';\nweb.use(mountAt, api);\n",
        "api.js": "const { Router } = require('express');\nconst api = Router();\n"
        "api.delete('/item', (q, s) => s.end());\nmodule.exports = api;\n",
    }
    assert names(files) == {"DELETE /item"}
    assert "web.js:6" in finding_places(files)["UNRESOLVED_PREFIX"]


def test_an_exported_name_bound_again_is_exported_in_statement_order() -> None:
    files = {
        "paths.js": "let base = '/a';\nbase = base + '/b';\nmodule.exports = { base };\n",
        "web.js": _ROUTER
        + "const { base } = require('./paths');\nweb.get(base, (q, s) => s.end());\n",
    }
    assert names(files) == {"GET /a/b"}


@pytest.mark.parametrize(
    "body",
    [
        "let at = '/shop';\nat = at + '/cart';\nweb.get(at, h);\n",
        "let at = '/shop';\nif (process.env.OLD) at = '/store';\nweb.get(at, h);\n",
    ],
    ids=["straight", "branch"],
)
def test_names_bound_again_prefiltered_equal_parse_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    files = {
        "package.json": '{"dependencies": {"express": "^4.19.2"}}',
        "web.js": _ROUTER + "const h = (q, s) => s.end();\n" + body,
        "other.js": "let at = 1;\nat++;\nmodule.exports = at;\n",
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
