"""Scanning that never fails whole: strange names, deep trees, low descriptor limits and readers
that raise each cost one `unresolved` entry or one `READER_ERROR` finding, never the document."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from deep_trees import remove_tree
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gpp.core import DOCUMENT
from gpp.host import PluginSession

sys.path.insert(0, str(REPO / "plugins"))

from packs import django_models, scan_read, scan_select, scan_walk, sqlalchemy_models
from packs.builders import location
from packs.routes import SUFFIXES, RouteDocumentMemo
from packs.routes import extract as routes_extract
from packs.routes.seeds import admits
from packs.scan import DocumentPieces, JSONObject, OnDemand, Scanner

PRLIMIT = shutil.which("prlimit") or "prlimit"
MODEL = "from sqlalchemy import Column, Integer\nfrom sqlalchemy.orm import declarative_base\n" \
    "Base = declarative_base()\n\nclass {name}(Base):\n    __tablename__ = '{name}'\n" \
    "    id = Column(Integer, primary_key=True)\n"  # fmt: skip


def _tables(document: JSONObject) -> list[str]:
    return [r["name"] for r in document["resources"] if r["kind"] == "table"]


def _pack_session(pack: str, root: Path, *limits: str) -> PluginSession:
    command = [sys.executable, str(REPO / "plugins" / f"{pack.replace('-', '_')}.py")]
    return PluginSession([PRLIMIT, *limits, *command] if limits else command, pack, "1.0.0",
                         cwd=str(root))  # fmt: skip


async def _discover(session: PluginSession, paths: list[str]) -> JSONObject:
    async with session:
        result = await session.discover(paths, request_id="r")
    result.pop("requestId")
    return result


def test_names_no_repo_path_can_carry_are_skipped_and_reported(tmp_path: Path) -> None:
    """`x\\y.py` or `c:x.py` under a walked directory made the pack's document break the schema
    (E_SCHEMA for the whole discover); now each is an `unsupported` entry at its directory."""
    (tmp_path / "x\\y.py").write_text(MODEL.format(name="backslash"))
    (tmp_path / "c:x.py").write_text(MODEL.format(name="drive"))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "c:fine.py").write_text(MODEL.format(name="fine"))
    (tmp_path / "models.py").write_text(MODEL.format(name="users"))
    document = asyncio.run(_discover(_pack_session("pack-sqlalchemy", tmp_path), ["."]))
    assert _tables(document) == ["users", "fine"]
    assert document["unresolved"] == [
        {"path": ".", "reason": "unsupported",
         "detail": "skipped c:x.py: not a repo-relative path (must not start with a drive letter)"},
        {"path": ".", "reason": "unsupported",
         "detail": "skipped x\\y.py: not a repo-relative path (must not contain a backslash)"},
    ]  # fmt: skip


def test_deep_models_are_found_under_a_low_descriptor_limit(tmp_path: Path) -> None:
    """A model 300 directories down was dropped silently (one descriptor held per level), and
    a tree 1,100 deep would overflow the recursion: both are found with 48 descriptors."""
    directory = tmp_path
    for level in range(1, 1101):
        directory = directory / "d"
        directory.mkdir()
        if level in (300, 1100):
            (directory / f"m{level}.py").write_text(MODEL.format(name=f"deep{level}"))
    try:
        session = _pack_session("pack-sqlalchemy", tmp_path, "--nofile=48")
        document = asyncio.run(_discover(session, ["."]))
    finally:
        remove_tree(tmp_path / "d")  # pytest's clean-up recurses
    assert _tables(document) == ["deep1100", "deep300"]  # by path: "d/d/…" < "m300.py"
    assert document["unresolved"] == []


# ---------------------------------------------------------------------------- reader errors


def _raising_extract(path: str, source: str) -> list[int]:
    if "BOOM" in source:
        return [len(source.split()[99])]  # IndexError, as in the issue
    return [1]


def _raising_link(files: Sequence[tuple[str, list[int]]]) -> DocumentPieces:
    linked = DocumentPieces()
    for path, _ in files:
        if path.endswith("poison.py"):
            raise KeyError("poisoned facts")
        linked.resources.append(
            {"kind": "file", "name": path, "location": location(path, 1), "attrs": {}}
        )
    return linked


@pytest.mark.parametrize("workers", [1, 2], ids=["in-process", "fan-out"])
def test_a_reader_error_is_a_finding_at_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """An exception from `extract` (in this process or in a fan-out worker) or from `link` on
    one file's facts becomes a READER_ERROR at that file; every other file still counts."""
    for n in range(40):
        (tmp_path / f"f{n:02}.py").write_text("BOOM\n" if n == 7 else "ok\n")
    (tmp_path / "poison.py").write_text("ok\n")
    monkeypatch.chdir(tmp_path)
    scanner = Scanner((".py",), _raising_extract, _raising_link, language="Python",
                      workers=workers, min_files_per_worker=1)  # fmt: skip
    document = scanner.discover(["."])
    DOCUMENT.check(document)
    assert [r["name"] for r in document["resources"]] == [
        f"f{n:02}.py" for n in range(40) if n != 7
    ]
    assert [(f["code"], f["locations"]) for f in document["findings"]] == [
        ("READER_ERROR", [{"path": "f07.py", "line": 1}]),
        ("READER_ERROR", [{"path": "poison.py", "line": 1}]),
    ]
    boom, poison = (f["detail"] for f in document["findings"])
    assert boom.startswith("the reader failed on this file: IndexError at test_pack_robust.py:")
    assert poison.startswith("the reader failed on this file: KeyError at test_pack_robust.py:")
    assert document["unresolved"] == []


# ------------------------------------------------------------- generated inputs, every pack

PY_PIECES = [
    "from sqlalchemy import Column, Integer, String, Table, ForeignKey\n",
    "from sqlalchemy.orm import declarative_base, declared_attr, DeclarativeBase\n",
    "from django.db import models\n",
    "from flask import Flask, Blueprint\n",
    "from fastapi import FastAPI, APIRouter, Depends\n",
    "from . import *\n",
    "from .x import y\n",
    "Base = declarative_base()\n",
    "app = FastAPI()\n",
    "router = APIRouter(prefix='/v1')\n",
    "bp = Blueprint('b', __name__, url_prefix=PREFIX)\n",
    "app.include_router(router)\n",
    "app.include_router(router, prefix=f'/x/{v}')\n",
    "app.register_blueprint(bp, **kw)\n",
    "class A(Base):\n    __tablename__ = 'a'\n    id = Column(Integer, primary_key=True)\n",
    "class B(A):\n    __tablename__ = None\n",
    "class C(Base):\n    @declared_attr\n"
    "    def __tablename__(cls):\n        return cls.__name__.lower()\n",
    "class M(models.Model):\n    name = models.CharField()\n    class Meta:\n        db_table = x\n",
    "class N(M, *bases):\n    pass\n",
    "t = Table()\n",
    "t = Table(title='Requests')\n",
    "t = Table('t', Base.metadata, Column('id', Integer))\n",
    "t = Table(*args, **kw)\n",
    "@router.get('/items/{id}')\nasync def item(id: int): ...\n",
    "@app.route()\ndef f(): ...\n",
    "@bp.route(path, methods=m)\ndef g(): ...\n",
    "@app.get(*paths)\ndef h(): ...\n",
    "app.add_url_rule()\n",
    "app.add_url_rule('/r', view_func=v, methods=['GET'])\n",
    "urlpatterns = [path('a/', include('x.urls'))]\n",
    "def f(*, a=Depends()): ...\n",
    "x = (\n",
    "'''\n",
    "    \n\tindent\n",
    "class\n",
    "@\n",
    "lambda: (yield)\n",
    "type X = int\n",
    "def f[T](x: T) -> T: ...\n",
    "f'{a!r:>{w}}'\n",
    "\x00\n",
    "\r",
    "\ufeff",
]
JS_PIECES = [
    "const express = require('express');\n",
    "import { Router } from 'express';\n",
    "const app = express();\n",
    "const router = express.Router();\n",
    "export default router;\n",
    "module.exports = router;\n",
    "app.use('/api', router);\n",
    "app.use(router);\n",
    "app.use(prefix, require('./x'));\n",
    "router.get('/a/:id', auth, (req, res) => {});\n",
    "router.route('/b').get(h).post(h);\n",
    "app.get();\n",
    "app.use('/x', ...mw);\n",
    "routes.forEach(r => router.use(r.path, r.route));\n",
    "export default Router().use('/a', b);\n",
    "router[method]('/c', h);\n",
    "const { a, ...rest } = require('./y');\n",
    "app.use(`/t/${v}`, r);\n",
    "function (\n",
    "/* unterminated\n",
    "`${\n",
    "<div>{x}</div>\n",
    "@Decorator()\nclass X {}\n",
    "import type { T } from './t';\n",
    "let x: Array<string> = [];\n",
    "\x00",
    "\r\n",
]


def _text(pieces: list[str]) -> st.SearchStrategy[bytes]:
    """Pieces glued, cut anywhere, in an encoding a reader may not expect."""
    glued = st.lists(st.sampled_from(pieces), max_size=12).map("".join)
    cut = st.tuples(glued, st.integers(min_value=0, max_value=400)).map(
        lambda t: t[0][: t[1]] if t[1] < len(t[0]) else t[0]
    )
    encoding = st.sampled_from(["utf-8", "utf-8", "utf-8", "latin-1", "utf-16", "utf-8-sig"])
    return st.tuples(cut, encoding).map(lambda t: t[0].encode(t[1], "replace"))


PACKS: dict[str, tuple[tuple[str, ...], Any, Any]] = {
    "pack-sqlalchemy": ((".py",), sqlalchemy_models.extract, sqlalchemy_models.link),
    "pack-django": ((".py",), django_models.extract, django_models.link),
    "pack-http-routes": (SUFFIXES, routes_extract, RouteDocumentMemo()),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    python=st.lists(_text(PY_PIECES), min_size=1, max_size=4),
    javascript=st.lists(_text(JS_PIECES), min_size=1, max_size=3),
)
def test_no_pack_ever_raises_out_of_a_discover(
    python: list[bytes], javascript: list[bytes]
) -> None:
    """Generated Python and JavaScript (glued constructs, truncated, odd encodings) in one
    repository: every pack answers a valid document whatever its readers make of them."""
    with tempfile.TemporaryDirectory() as repo:
        for n, data in enumerate(python):
            Path(repo, "pkg" if n % 2 else ".", f"m{n}.py").parent.mkdir(exist_ok=True)
            Path(repo, "pkg" if n % 2 else ".", f"m{n}.py").write_bytes(data)
        for n, data in enumerate(javascript):
            Path(repo, f"r{n}.{'ts' if n % 2 else 'js'}").write_bytes(data)
        old = os.getcwd()
        os.chdir(repo)
        try:
            for suffixes, extract, link in PACKS.values():
                scanner: Scanner[Any] = Scanner(suffixes, extract, link, language="x", workers=1)
                DOCUMENT.check(scanner.discover(["."]))
        finally:
            os.chdir(old)


# ------------------------------------------------------------------ route-mount expansion


def _doubling_mounts(levels: int) -> str:
    """Each router mounts the one before twice: 2^levels paths to the one route, in ~90 bytes
    a level (39 levels: the issue's 3.6 KB file that timed the pack out)."""
    lines = ["from fastapi import APIRouter, FastAPI", "r0 = APIRouter()", "@r0.get('/x')",
             "def f(): ..."]  # fmt: skip
    for n in range(1, levels + 1):
        lines += [f"r{n} = APIRouter()", f"r{n}.include_router(r{n - 1}, prefix='/a')",
                  f"r{n}.include_router(r{n - 1}, prefix='/b')"]  # fmt: skip
    return "\n".join([*lines, "app = FastAPI()", f"app.include_router(r{levels})", ""])


def test_route_mount_expansion_is_bounded_and_the_cut_reported(tmp_path: Path) -> None:
    """2^39 mount paths: the pack answers (within its request_ms) with what the budget allowed
    and a LINK_BUDGET_EXCEEDED finding at the mounts it did not follow."""
    from packs.routes.linker import LINK_BUDGET

    (tmp_path / "main.py").write_text(_doubling_mounts(39))
    assert (tmp_path / "main.py").stat().st_size < 4096
    document = asyncio.run(_discover(_pack_session("pack-http-routes", tmp_path), ["."]))
    assert 0 < len(document["resources"]) <= LINK_BUDGET
    (finding,) = document["findings"]
    assert finding["code"] == "LINK_BUDGET_EXCEEDED"
    mount_lines = {n for n, text in enumerate(_doubling_mounts(39).splitlines(), 1)
                   if ".include_router(r" in text}  # fmt: skip
    lines = [loc["line"] for loc in finding["locations"]]
    assert lines == sorted(set(lines)) and set(lines) <= mount_lines
    assert {loc["path"] for loc in finding["locations"]} == {"main.py"}


def test_an_expansion_within_the_budget_has_no_finding() -> None:
    """10 levels, 1,024 routes: all listed, nothing said about a budget."""
    from packs.routes import extract as extract_routes
    from packs.routes.linker import resolve_routes

    facts = extract_routes("main.py", _doubling_mounts(10))
    routes, findings = resolve_routes({"main.py": facts})
    assert len({r.name for r in routes}) == 1024 and findings == []
    routes, findings = resolve_routes({"main.py": facts}, budget=100)
    assert len(routes) < 100 and [f["code"] for f in findings] == ["LINK_BUDGET_EXCEEDED"]


# ------------------------------------------------------------- syntax newer than the interpreter

NEWER_MODELS = """from sqlalchemy import Column, Integer
from sqlalchemy.orm import declarative_base
from fastapi import APIRouter

Base = declarative_base()
type UserId = int
router = APIRouter(prefix="/v1")


def first[T](items: list[T]) -> T:
    return items[0]


class Account(Base):
    __tablename__ = "accounts"
    id = Column(Integer, primary_key=True)
    label = f"{__tablename__["x"] if False else 'a'}"


@router.get("/accounts")
def accounts(): ...
"""


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter reads 3.12 itself")
def test_packs_read_python_newer_than_the_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A valid 3.12 module was `parse-error` for every Python pack under 3.11."""
    (tmp_path / "models.py").write_text(NEWER_MODELS)
    monkeypatch.chdir(tmp_path)
    tables = Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                     language="Python", workers=1).discover(["."])  # fmt: skip
    routes = Scanner(
        SUFFIXES, routes_extract, RouteDocumentMemo(), language="x", workers=1
    ).discover(["."])
    assert tables["unresolved"] == routes["unresolved"] == []
    assert [(r["name"], r["location"]["line"]) for r in tables["resources"]] == [("accounts", 14)]
    assert [(r["name"], r["location"]["line"]) for r in routes["resources"]] == [
        ("GET /v1/accounts", 20)  # the decorator's line, as for 3.11 code
    ]


# ------------------------------------------------------------------ a scan too big for request_ms


def _timed_link(now: list[float], seconds_per_file: float) -> Callable[..., DocumentPieces]:
    """A link whose cost (on the fake clock `now`) grows with the files it links."""

    def link(files: Sequence[tuple[str, list[tuple[str, int]]]]) -> DocumentPieces:
        now[0] += seconds_per_file * len(files)
        linked = DocumentPieces()
        for path, _ in files:
            linked.resources.append(
                {"kind": "file", "name": path, "location": location(path, 1), "attrs": {}}
            )
        return linked

    return link


def test_a_scan_past_its_soft_deadline_answers_what_it_read_and_goes_on_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading stops when the deadline would pass once the link of what was read is counted (a
    clock that advances one second per file read and a quarter per file linked, so no timing
    is involved): the document, link included, is made within the soft deadline, holds what
    was read and a DEADLINE_REACHED finding at each file not read; the memo keeps what was
    read, so each repeat goes further, and the last one is the document of an unbounded scan."""
    for n in range(30):
        (tmp_path / f"m{n:02}.py").write_text(f"def f{n}(): ...\n")
    monkeypatch.chdir(tmp_path)
    now = [0.0]

    def slow_extract(path: str, source: str) -> list[tuple[str, int]]:
        now[0] += 1.0
        return [(path, 1)]

    link = _timed_link(now, 0.25)
    bounded = Scanner((".py",), slow_extract, link, language="Python", workers=1,
                      deadline_ms=10_000, clock=lambda: now[0], deadline_batch=4)  # fmt: skip
    reached = [0]
    for _ in range(10):
        began = now[0]
        document = bounded.discover(["."])
        assert now[0] - began <= 10.0  # walked, read and linked within the soft deadline
        DOCUMENT.check(document)
        assert len(document["resources"]) > reached[-1]  # each repeat goes further
        reached.append(len(document["resources"]))
        if not document["findings"]:
            break
        (finding,) = document["findings"]
        assert finding["code"] == "DEADLINE_REACHED"
        assert len(finding["locations"]) == 30 - reached[-1]
        assert "raise request_ms" in finding["detail"]
    assert reached[-1] == 30 and len(reached) > 3
    assert document["findings"] == []
    unbounded = Scanner((".py",), slow_extract, link, language="Python", workers=1)
    assert unbounded.deadline_ms is None  # no GPP_REQUEST_MS in this process
    assert unbounded.discover(["."]) == document


def test_the_pre_filter_and_the_walk_stop_at_the_soft_deadline_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34 item 5: the deadline was looked at only between batches of files read, so a
    large repository's pre-filter (or walk) ran past `request_ms` and the host answered 504.
    Judging a file's bytes costs one second here and every directory entered ten: the walk
    leaves the folders below the root unentered, the pre-filter stops part-way, and each
    repeat goes further from its memos until the document is the unbounded scan's."""
    (tmp_path / "pkg").mkdir()
    for n in range(12):
        (tmp_path / f"m{n:02}.py").write_text(MODEL.format(name=f"t{n:02}"))
    (tmp_path / "pkg" / "deep.py").write_text(MODEL.format(name="deep"))
    monkeypatch.chdir(tmp_path)
    now = [0.0]
    judge = scan_read.judge_bytes

    def slow_judge(directories: Any, found: Any, stash: Any = None) -> bytes | None:
        now[0] += 1.0
        return judge(directories, found, stash)

    from gpp.plugin.repo_files import walk_in_root as walk

    def slow_walk(root_fd: int, top: str, visit: Any, **options: Any) -> list[str]:
        def slow_visit(fd: int, here: str, entries: Any) -> list[str]:
            now[0] += 10.0 if here == "." else 0.0
            return visit(fd, here, entries)  # type: ignore[no-any-return]

        return walk(root_fd, top, slow_visit, **options)

    monkeypatch.setattr(scan_select, "judge_bytes", slow_judge)
    monkeypatch.setattr(scan_walk, "walk_in_root", slow_walk)
    import pack_sqlalchemy

    def tables(**options: Any) -> Scanner[Any]:
        return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                       language="Python", workers=1, keywords=pack_sqlalchemy.KEYWORDS,
                       clock=lambda: now[0], **options)  # fmt: skip

    walked = tables(deadline_ms=5_000).discover(["."])
    (finding,) = walked["findings"]
    assert finding["code"] == "DEADLINE_REACHED" and walked["resources"] == []
    assert finding["locations"][0] == {"path": "pkg", "line": 1}  # a folder not entered
    bounded = tables(deadline_ms=16_000)
    found = []
    for _ in range(6):
        document = bounded.discover(["."])
        DOCUMENT.check(document)
        found.append(len(_tables(document)))
        if not document["findings"]:
            break
        assert [f["code"] for f in document["findings"]] == ["DEADLINE_REACHED"]
    assert found[0] == 0  # 12 s walking and judging: no file known to be needed or not yet
    assert found[-1] == 13 and document == tables(parse_all=True).discover(["."])


def test_a_pack_past_its_soft_deadline_answers_the_host_before_request_ms(tmp_path: Path) -> None:
    """Issue 35 item 10: with a short `request_ms` the packs answered 504 (the pre-filter, the
    first batch of 256 files and the link all ran past it). Through the host's session, a pack
    whose reader takes 50 ms a file (200 files: ten seconds) answers within `request_ms`
    with what it read and DEADLINE_REACHED, and the same session's repeat goes further."""
    from gpp.host import Timeouts

    for n in range(200):
        (tmp_path / f"m{n:03}.py").write_text(f"def f{n}(): ...\n")
    plugin = tmp_path / "slow_pack.py"
    plugin.write_text(
        "import sys, time\n"
        f"sys.path[:0] = [{str(REPO)!r}, {str(REPO / 'plugins')!r}]\n"
        "from gpp.plugin.sdk import serve\n"
        "from packs.builders import location\n"
        "from packs.scan import DocumentPieces, Scanner\n"
        "def extract(path, source):\n"
        "    time.sleep(0.05)  # a slow reader, not a wait for anything\n"
        "    return path\n"
        "def link(files):\n"
        "    return DocumentPieces(resources=[{'kind': 'file', 'name': p, 'location': location(p, 1),\n"
        "                              'attrs': {}} for p, _ in files])\n"
        "scanner = Scanner(('.py',), extract, link, language='Python', workers=1)\n"
        "sys.exit(serve('slow-pack', '1.0.0', scanner.discover))\n"
    )

    async def twice() -> list[JSONObject]:
        session = PluginSession([sys.executable, str(plugin)], "slow-pack", "1.0.0",
                                cwd=str(tmp_path), timeouts=Timeouts(request_ms=3_000))  # fmt: skip
        async with session:
            return [await session.discover(["."], request_id=f"r{n}") for n in range(2)]

    first, second = asyncio.run(twice())
    for document in (first, second):
        assert [f["code"] for f in document["findings"]] == ["DEADLINE_REACHED"]
    assert 0 < len(first["resources"]) < len(second["resources"]) < 201


@pytest.mark.parametrize(("value", "deadline_ms"), [("800", 400.0), (" 800", None), ("8e2", None), ("0", None)])  # fmt: skip
def test_a_pack_reads_its_budget_through_the_sdk(
    monkeypatch: pytest.MonkeyPatch, value: str, deadline_ms: float | None
) -> None:
    """The soft deadline is half of what `gpp.sdk.request_budget_ms()` says, by its rule: a value
    `int()` would forgive (a space) is no budget, as Node's `requestBudgetMs()` also says."""
    from gpp.core import REQUEST_BUDGET_VARIABLE

    monkeypatch.setenv(REQUEST_BUDGET_VARIABLE, value)
    scanner = Scanner((".py",), lambda path, source: [], _timed_link([0.0], 0), language="x")
    assert scanner.deadline_ms == deadline_ms


def test_the_host_tells_the_plugin_its_request_ms(tmp_path: Path) -> None:
    """`GPP_REQUEST_MS` is how a pack learns its budget without a protocol change."""
    from gpp.host import Timeouts

    plugin = tmp_path / "echo_env.py"
    plugin.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from gpp.plugin.sdk import serve\n"
        "def discover(paths):\n"
        "    here = {'path': 'x', 'line': 1}\n"
        "    name = os.environ.get('GPP_REQUEST_MS', 'unset')\n"
        "    return {'resources': [{'kind': 'env', 'name': name, 'location': here, 'attrs': {}}],\n"
        "            'unresolved': [], 'findings': [], 'classificationSignals': []}\n"
        "sys.exit(serve('echo-env', '1.0.0', discover))\n"
    )
    session = PluginSession([sys.executable, str(plugin)], "echo-env", "1.0.0", cwd=str(tmp_path),
                            timeouts=Timeouts(request_ms=4321))  # fmt: skip
    document = asyncio.run(_discover(session, ["."]))
    assert [r["name"] for r in document["resources"]] == ["4321"]


# ------------------------------------------------------------------------ generated code


def test_generated_javascript_is_skipped_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Minified bundles (by name, or by a very long line near the top) and dist/ or build/
    output are not parsed; each is an `unsupported` entry saying it is generated."""
    (tmp_path / "app.js").write_text(
        "const express = require('express');\nconst app = express();\napp.get('/ok', h);\n"
    )
    bundle = "app.get('/hidden', h);" * 200  # one 4,400-character line
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "bundle.js").write_text(f"// built\n{bundle}\n")
    (tmp_path / "public" / "theme.min.js").write_text("app.get('/theme', h);\n")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "server.js").write_text("app.get('/dist', h);\n")
    (tmp_path / "long_python.py").write_text(f"DATA = {'x' * 3000!r}\n")  # Python: read
    monkeypatch.chdir(tmp_path)
    document = Scanner(
        SUFFIXES, routes_extract, RouteDocumentMemo(), language="x", workers=1
    ).discover(["."])
    assert [r["name"] for r in document["resources"]] == ["GET /ok"]
    assert [(u["path"], u["reason"], u["detail"]) for u in document["unresolved"]] == [
        ("dist", "unsupported", "generated code is not read (a dist/ directory)"),
        ("public/bundle.js", "unsupported", "generated code is not read (a minified bundle)"),
        ("public/theme.min.js", "unsupported", "generated code is not read (a minified bundle)"),
    ]


# ------------------------------------------------------------------ the cold-scan pre-filter

ROOTS = [REPO / "plugins/examples/sample-app",
         *sorted(p for p in (REPO / "tests/fixtures/repos").iterdir() if p.is_dir()),
         *sorted(p for p in (REPO / "tests/fixtures/unresolved").iterdir() if p.is_dir()),
         REPO / "tests/fixtures/unread-orms/python"]  # fmt: skip


def canonical_json(document: JSONObject) -> bytes:
    """The document's bytes as a canonical JSON encoder writes them (sorted keys, no spaces)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _pre_filtered(
    pack: str, extract: Any, *, parse_all: bool = False, root: str = "."
) -> Scanner[Any]:
    """A scanner with `pack`'s own pre-filter, as its entry script sets it up (`extract` None:
    the pack's own)."""
    import importlib

    entry = importlib.import_module(f"pack_{pack}")
    analyzer = importlib.import_module(f"packs.{pack}_models")
    return Scanner((".py",), extract or analyzer.extract, analyzer.link, language="Python",
                   workers=1, root=root,
                   keywords=entry.KEYWORDS, base_keywords=getattr(entry, "BASE_KEYWORDS", ()),
                   follow=getattr(entry, "FOLLOW", "imports"),
                   fields=getattr(entry, "FIELDS", None),
                   named=getattr(analyzer, "NAMED", None),  # dependency files, read by name
                   parse_all=parse_all)  # fmt: skip


@pytest.mark.parametrize("pack", ["sqlalchemy", "django"])
def test_the_prefilter_changes_no_document(pack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the sample app and every fixture repository, a pack with its pre-filter gives, byte
    for byte, the document it gives parsing and linking every file (`parse_all`), while parsing
    fewer files. Both report `parse-error` only for files the pre-filter admits."""
    import importlib

    analyzer = importlib.import_module(f"packs.{pack}_models")
    parsed: list[str] = []

    def counting(path: str, source: str) -> Any:
        parsed.append(path)
        return analyzer.extract(path, source)

    counts = {"all": 0, "filtered": 0}
    for root in ROOTS:
        monkeypatch.chdir(root)
        documents = []
        for label, parse_all in (("all", True), ("filtered", False)):
            parsed.clear()
            documents.append(_pre_filtered(pack, counting, parse_all=parse_all).discover(["."]))
            counts[label] += len(parsed)
        unfiltered, filtered = (canonical_json(d) for d in documents)
        assert filtered == unfiltered, root.name
    assert counts["filtered"] < counts["all"]


def test_a_syntax_error_counts_only_where_the_prefilter_admits_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule that keeps the two documents identical: a broken file that names no model
    (it cannot hide one) is not reported, parsed or not; one that names a model is, in both."""
    (tmp_path / "broken_helper.py").write_text("def f(:\n    pass\n")
    (tmp_path / "broken_models.py").write_text(
        "from django.db import models\n\nclass A(models.Model):\n    x = (\n"
    )
    monkeypatch.chdir(tmp_path)
    for parse_all in (True, False):
        document = _pre_filtered("django", django_models.extract, parse_all=parse_all).discover(
            ["."]
        )
        assert [(u["path"], u["reason"]) for u in document["unresolved"]] == [
            ("broken_models.py", "parse-error")
        ]
    plain = Scanner((".py",), django_models.extract, django_models.link, language="Python",
                    workers=1).discover(["."])  # fmt: skip
    assert [u["path"] for u in plain["unresolved"]] == ["broken_helper.py", "broken_models.py"]


def test_only_the_imports_a_model_needs_are_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pack-django follows names, not files: a model file's import of a helper it only calls
    in a method does not get the helper parsed, nor what the helper imports; the module its
    base comes from, through a renaming re-export, is; and so is a class that subclasses the
    re-exported name in a file with no keyword. The documents are those of parsing all."""
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("from core.base import Stamped as Base\n")
    (tmp_path / "core" / "base.py").write_text(
        "from django.db import models\n\nclass Stamped(models.Model):\n"
        "    created = models.DateTimeField()\n\n    class Meta:\n        abstract = True\n"
    )
    (tmp_path / "core" / "helpers.py").write_text(
        "from core.more import deep\n\nclass Formatter(object):\n    pass\n"
    )
    (tmp_path / "core" / "more.py").write_text("def deep():\n    return 1\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "models.py").write_text(
        "from django.db import models\nfrom core.helpers import Formatter\n\n"
        "class Item(models.Model):\n    name = models.CharField(max_length=9)\n\n"
        "    def show(self):\n        return Formatter()\n"
    )
    (tmp_path / "shop" / "orders.py").write_text(
        "from core import Base\n\nclass Order(Base):\n    pass\n"
    )
    monkeypatch.chdir(tmp_path)
    parsed: list[str] = []

    def counting(path: str, source: str) -> Any:
        parsed.append(path)
        return django_models.extract(path, source)

    filtered = _pre_filtered("django", counting).discover(["."])
    assert sorted(parsed) == ["core/__init__.py", "core/base.py", "shop/models.py",
                              "shop/orders.py"]  # fmt: skip
    reference = _pre_filtered("django", django_models.extract, parse_all=True).discover(["."])
    assert canonical_json(filtered) == canonical_json(reference)
    assert sorted(r["name"] for r in filtered["resources"]) == ["shop_item", "shop_order"]


def _django_filtered(root: Path, files: dict[str, str]) -> tuple[JSONObject, list[str]]:
    """pack-django's pre-filtered document of `files` written below `root`, held to parse-all
    byte for byte, and the files it parsed."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    parsed: list[str] = []

    def counting(path: str, source: str) -> Any:
        parsed.append(path)
        return django_models.extract(path, source)

    filtered = _pre_filtered("django", counting, root=str(root)).discover(["."])
    reference = _pre_filtered("django", None, parse_all=True, root=str(root)).discover(["."])
    assert canonical_json(filtered) == canonical_json(reference)
    return filtered, sorted(parsed)


def test_what_makes_a_file_a_django_seed(tmp_path: Path) -> None:
    """Parsed: a class below a `django.db.models` expression with a Django field assigned in its
    body (no finding: Django's own classes are no unknown model base), a model whose base is `models.Model` by an assignment, and a
    class with `Meta.db_table =`. Not parsed: a migration (its fields are keyword arguments, its
    `"db_table":` an option), a form (`django.forms.models.ModelForm` is no model), and a
    GraphQL type whose base's name holds `Model` or whose subscript names `models.X`."""
    files = {
        "core/expressions.py": "from django.db.models import JSONField\n"
        "from django.db.models.expressions import Expression\n\n"
        "class Concat(Expression):\n    output_field = JSONField()\n",
        "core/aliased.py": "from django.db import models\n\nBase = models.Model\n\n"
        "class Thing(Base):\n    pass\n",
        "core/legacy.py": "from vendor import Record\n\nclass Old(Record):\n"
        "    class Meta:\n        db_table = 'old'\n",
        "shop/migrations/0001_initial.py": "from django.db import migrations, models\n\n"
        "class Migration(migrations.Migration):\n    operations = [\n"
        "        migrations.AddField(\n            model_name='item',\n"
        "            field=models.CharField(max_length=3),\n        ),\n"
        "        migrations.AlterModelOptions(name='item', options={'db_table': 'x'}),\n    ]\n",
        "shop/forms.py": "from django.forms.models import ModelForm\n\nclass ItemForm(ModelForm):\n"
        "    pass\n",
        "shop/types.py": "from graphene_django import ModelObjectType\nfrom . import models\n\n"
        "class Item(ModelObjectType[models.Item]):\n    pass\n",
    }
    filtered, parsed = _django_filtered(tmp_path, files)
    assert parsed == ["core/aliased.py", "core/expressions.py", "core/legacy.py"]
    assert [r["name"] for r in filtered["resources"]] == ["core_thing"]
    assert sorted(loc["path"] for f in filtered["findings"] for loc in f["locations"]) == [
        "core/legacy.py",
    ]


def test_a_field_class_of_the_repository_makes_no_seed(tmp_path: Path) -> None:
    """A `...Field(...)` call in a class makes its file a seed only when the field may be
    Django's: imported from `django.db.models`, or from a module of the repository that passes
    one on (an import, a chained assignment). A field the repository defines as its own class
    (a GraphQL `PermissionsField`) is none, so neither its users nor their subclasses are
    parsed; the documents are those of parsing all."""
    files = {
        "core/fields.py": "import graphene\n\nclass PermissionsField(graphene.Field):\n    pass\n",
        "api/types.py": "import graphene\nfrom core.fields import PermissionsField\n\n"
        "class Order(graphene.ObjectType):\n    lines = PermissionsField(graphene.String)\n",
        "api/more.py": "from api.types import Order\n\nclass Draft(Order):\n    pass\n",
        "core/reexport.py": "from django.db.models import CharField\n",
        "core/money.py": "from django.db import models\n\n"
        "MoneyField = AmountField = models.DecimalField\n",
        "legacy/records.py": "from core.reexport import CharField\nfrom vendor import Record\n\n"
        "class Old(Record):\n    name = CharField(max_length=3)\n",
        "legacy/prices.py": "from core.money import AmountField\nfrom vendor import Record\n\n"
        "class Price(Record):\n    amount = AmountField()\n",
        "api/mutations.py": "import graphene\n\nclass CreateToken(graphene.Mutation):\n    pass\n",
        "api/schema.py": "import graphene\nfrom api.mutations import CreateToken\n\n"
        "class Mutations(graphene.ObjectType):\n    token_create = CreateToken.Field()\n",
    }
    filtered, parsed = _django_filtered(tmp_path, files)
    assert parsed == ["core/money.py", "core/reexport.py", "legacy/prices.py", "legacy/records.py"]
    assert sorted(loc["path"] for f in filtered["findings"] for loc in f["locations"]) == [
        "legacy/prices.py",
        "legacy/records.py",
    ]


_MODULES = ("pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/c/__init__.py", "pkg/c/d.py")
_DOTTED = st.sampled_from(("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.c.d"))
_NAME = st.sampled_from(("A", "B", "Fld", "Base", "Mixin"))
_IMPORT = st.one_of(
    st.sampled_from((
        "from django.db import models", "from django.db.models import CharField",
        "from django.db.models import Model as DjModel", "import graphene",
        "from django.contrib.auth.models import AbstractUser", "from vendor import Record",
        "from sqlalchemy import Column, Integer", "from sqlalchemy.orm import declarative_base",
        "from . import a", "from .a import A", "from ..b import Fld",
        "from sqlalchemy import Table", "from rich.table import Table", "from alembic import op",
        "from sqlalchemy.orm import DeclarativeBase, declared_attr",
        "from pkg.a import snake_name", "from .b import SUFFIX",
        "def snake_name(n):\n    return n.lower() + SUFFIX", "SUFFIX = '_s'",
        "t0 = Table('t0', m)", "x = Table('x0')",
        # settings a renaming hook or a table-name helper reads (issue 34 item 2)
        "from .b import settings", "from pkg.c.d import get_settings", "import os",
        "class Settings(BaseSettings):\n    table_prefix: str = 'p_'",
        "def get_settings():\n    return Settings()", "settings = get_settings()",
        "PREFIX = os.environ.get('PFX', settings.table_prefix)",
        "def ns_table(n):\n    return PREFIX + n",
        "from pkg.b import ns_table", "from .a import PREFIX",
        # model bases the project builds (`packs/model_bases.py`)
        "from flask_sqlalchemy import SQLAlchemy", "from .c import db", "from pkg.a import mk_base",
        "from flask_sqlalchemy.model import Model as FsaModel", "from sqlalchemy.orm import registry",
        "db = SQLAlchemy(model_class=Mixin)", "db = A(model_class=B)", "db = B()",
        "def mk_base():\n    return declarative_base(cls=Mixin)", "Base = mk_base()",
        "Base = registry().generate_base()", "Mixin = db.Model",
        "class A(SQLAlchemy):\n    def __init__(self, **kw):\n"
        "        kw.setdefault('model_class', Mixin)\n        super().__init__(**kw)",
        "class B(SQLAlchemy):\n    def _make_declarative_base(self, model_class, **kw):\n"
        "        return declarative_base(cls=model_class, metaclass=Fld)",
        # model bases of libraries (`model_bases.LIBRARY_BASES`), recorded or not
        "from fastapi_users.db import SQLAlchemyBaseUserTableUUID as UserTable",
        "from flask_dance.consumer.storage.sqla import OAuthConsumerMixin",
        "from wagtail.models import Page, Orderable", "from acme_auth import Vendor",
        "from modelcluster.fields import ParentalKey, ParentalManyToManyField",
        # ORMs the packs do not read (`packs/unread_orms.py`): named, and no Django model
        "import peewee as Fld", "from tortoise.models import Model as Record",
        "from pynamodb.models import Model as Base", "import os, sqlobject",
    )),
    st.builds("from {} import {}".format, _DOTTED, _NAME),
    st.builds("from {} import {} as {}".format, _DOTTED, _NAME, _NAME),
    st.builds("from {} import *".format, _DOTTED),
    st.builds("import {}".format, _DOTTED),
)  # fmt: skip
_VALUE = _NAME | st.sampled_from(("models.CharField", "models.Model", "CharField", "DjModel",
                                  "graphene.Field", "Record", "declarative_base()", "pkg.a.A"))  # fmt: skip
_ASSIGNMENT = st.builds("{} = {}".format, _NAME, _VALUE) | st.builds(
    "{} = {} = {}".format, _NAME, _NAME, _VALUE
)
_BASE = _NAME | st.sampled_from(("models.Model", "Record", "graphene.ObjectType", "object",
                                 "DjModel", "AbstractUser", "pkg.a.A", "c.d.B",
                                 "DeclarativeBase", "db.Model", "FsaModel", "UserTable",
                                 "OAuthConsumerMixin", "Page", "Orderable", "Vendor[int]"))  # fmt: skip
_CALLEE = st.one_of(
    st.sampled_from(("models.CharField", "CharField", "graphene.Field", "models.ForeignKey",
                     "Column", "Fld", "ParentalKey", "ParentalManyToManyField")),
    _NAME.map("{}.Field".format),
    _NAME.map("{}Field".format),
)  # fmt: skip
_BODY_LINE = st.builds("    f{} = {}({})".format, st.integers(0, 3), _CALLEE,
                       st.sampled_from(("", "max_length=3", "Integer, primary_key=True")),
                       ) | st.sampled_from((
    "    class Meta:\n        db_table = 'tbl'", "    class Meta:\n        abstract = True",
    "    __tablename__ = 'tt'", "    pass", "    __table__: Table",
    "    @declared_attr\n    def __tablename__(cls):\n        return snake_name(cls.__name__)",
    "    def __init_subclass__(cls, **kw):\n        cls.__tablename__ = PREFIX + cls.__tablename__"
    "\n        super().__init_subclass__(**kw)",
    "    __tablename__ = ns_table('tt')", "    t1 = Table(ns_table('t1'), m)",
))  # fmt: skip
_CLASS = st.builds(
    lambda name, bases, body: f"class {name}({', '.join(bases)}):\n" + "\n".join(body),
    _NAME, st.lists(_BASE, min_size=1, max_size=2), st.lists(_BODY_LINE, min_size=1, max_size=3),
)  # fmt: skip
_DECLARATIONS = {  # dependency files (read by name, never pre-filtered out) and what they hold
    "requirements.txt": st.sampled_from(("", "Flask-SQLAlchemy==2.5.1", "flask_sqlalchemy>=3",
                                         "-r pkg/requirements.in", "Flask-SQLAlchemy>=2")),
    "pkg/requirements.in": st.sampled_from(("", "flask-sqlalchemy<3", "not a requirement ((")),
    "setup.py": st.sampled_from(("", "from setuptools import setup\n\n"
                                 "setup(install_requires=['Flask-SQLAlchemy~=2.4'])")),
}  # fmt: skip
_REPOSITORY = st.fixed_dictionaries({
    **{
        module: st.lists(_IMPORT | _ASSIGNMENT | _CLASS, max_size=6).map("\n\n".join)
        for module in _MODULES
    },
    **_DECLARATIONS,
})  # fmt: skip


def _repository(**modules: str) -> dict[str, str]:
    return {
        module: modules.get(module.removesuffix(".py").replace("/", "_"), "")
        for module in (*_MODULES, *_DECLARATIONS)
    }


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_REPOSITORY)
@example(_repository(pkg___init__="A = models.CharField\n\nclass A(Record):\n    f0 = A.Field()"))
@example(
    _repository(
        pkg_b="A = models.Model",
        pkg___init__="from pkg.b import *\n\nFld = A\n\nclass B(Fld):\n    pass",
    )
)
@example(
    _repository(pkg___init__="from pkg.a import A\n\nA = models.Model\n\nclass B(A):\n    pass")
)
@example(_repository(pkg___init__="import pkg.b\n\nclass A(pkg.a.A):\n    __tablename__ = 'tt'"))
@example(_repository(pkg___init__="A = A = models.Model\n\nclass B(A):\n    pass"))
@example(
    _repository(
        pkg_a="B = models.Model",
        pkg_c_d="from pkg.a import B",
        pkg_c___init__="from pkg.c.d import *\n\nclass A(B):\n    pass",
    )
)
@example(
    _repository(
        pkg_a="B = models.Model",
        pkg_c_d="from pkg.a import B\n\nBase = B",
        pkg_c___init__="from pkg.c.d import *\n\nclass A(Base):\n    pass",
    )
)
@example(_repository(pkg_c_d="Fld = models.Model\n\nB = Fld\n\nclass A(B):\n    pass"))
@example(
    _repository(
        pkg_c_d="from django.db.models import Model as DjModel\n\nB = DjModel\n\n"
        "class A(B):\n    __tablename__ = 'tt'"
    )
)
@example(
    _repository(
        pkg___init__="from pkg.a import A as B",
        pkg_a="from pkg import B as Fld\n\nA = Fld",
        pkg_c___init__="from pkg.a import Fld\n\nB = Fld\n\nclass A(B):\n    f0 = models.CharField()",
        pkg_c_d="from pkg import B\n\nclass A(B):\n    class Meta:\n        db_table = 'tbl'",
    )
)
@example(  # a renaming hook whose prefix is a settings default read through two modules
    _repository(
        pkg_c_d="class Settings(BaseSettings):\n    table_prefix: str = 'p_'\n\n"
        "def get_settings():\n    return Settings()",
        pkg_b="import os\nfrom pkg.c.d import get_settings\n\nsettings = get_settings()\n\n"
        "PREFIX = os.environ.get('PFX', settings.table_prefix)",
        pkg_a="from sqlalchemy.orm import DeclarativeBase\nfrom pkg.b import PREFIX\n\n"
        "class Base(DeclarativeBase):\n    def __init_subclass__(cls, **kw):\n"
        "        cls.__tablename__ = PREFIX + cls.__tablename__\n"
        "        super().__init_subclass__(**kw)",
        pkg___init__="from pkg.a import Base\n\nclass A(Base):\n    __tablename__ = 'tt'",
    )
)
@example(
    _repository(
        pkg_c_d="from pkg import *\n\nclass A(Vendor[int]):\n    class Meta:\n        db_table = 'tbl'"
    )
)
def test_the_prefilter_changes_no_document_of_generated_code(files: dict[str, str]) -> None:
    """The byte-identity of the pre-filtered scan and parse-all, on generated repositories: five
    modules of imports (relative, aliased, star, of the package itself), assignments (chained,
    of calls) and classes whose bases and field calls reach Django, SQLAlchemy, the other
    modules or nothing, beside dependency files that declare Flask-SQLAlchemy's version or not. The examples are cases this property found: a field callee assigned in
    its own file, a base renamed after a star import, an assignment that rebinds an import, a
    dotted base through `import pkg.b`, a chained assignment, re-exports two modules deep,
    library model bases recorded or not (subscripted too),
    a base through two assignments of its own file, an assignment of an aliased import, a cycle of imports and aliases (a base's
    name then depended on which name of the cycle was asked first), a subscripted base
    that a star import may give (the pre-filter skipped subscripts; the reader does not)."""
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            (Path(root) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(root) / name).write_text(text + "\n")
        for pack in ("django", "sqlalchemy"):
            scanners = [_pre_filtered(pack, None, parse_all=p, root=root) for p in (False, True)]
            # no soft deadline (no GPP_REQUEST_MS here): only a deadline reads the clock, and
            # one could stop the pre-filtered scan early on a loaded machine, never parse-all
            assert [scanner.deadline_ms for scanner in scanners] == [None, None]
            filtered, reference = (scanner.discover(["."]) for scanner in scanners)
            assert canonical_json(filtered) == canonical_json(reference), pack


def test_a_warm_prefiltered_discover_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a discover has judged the files, an unchanged repository is judged from the memo
    (no file opened: bytes, assignments and imports of a file with no class are kept), and the
    set of files to parse is the last one (`needed` not run again)."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("from shop.models import Item\n")
    (tmp_path / "shop" / "models.py").write_text(
        "from django.db import models\n\nBase = models.Model\n\nclass Item(Base):\n"
        "    name = models.CharField(max_length=9)\n"
    )
    (tmp_path / "shop" / "orders.py").write_text(
        "from shop import Item\n\nclass Order(Item):\n    pass\n"
    )
    (tmp_path / "util.py").write_text("import json\n\ndef dump(x):\n    return json.dumps(x)\n")
    monkeypatch.chdir(tmp_path)
    scanner = _pre_filtered("django", django_models.extract)
    first = scanner.discover(["."])
    assert [r["name"] for r in first["resources"]] == ["shop_item", "shop_order"]
    scanner.discover(["."])  # facts completed during the first are the memo's now
    opened: list[str] = []
    runs: list[int] = []
    open_file = scan_read.open_file_in_root
    open_in_dir = scan_read.open_file_in_dir
    run_needed: Callable[..., set[str]] = vars(scan_select)["needed"]

    def recording_open(fd: int, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)
        return open_file(fd, rel)

    def recording_open_in_dir(fd: int, name: str, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)  # the pre-filter's opens (a directory's chain opened once)
        return open_in_dir(fd, name, rel)

    def counting_needed(*args: Any) -> set[str]:
        runs.append(1)
        return run_needed(*args)

    monkeypatch.setattr(scan_read, "open_file_in_root", recording_open)
    monkeypatch.setattr(scan_read, "open_file_in_dir", recording_open_in_dir)
    monkeypatch.setattr(scan_select, "needed", counting_needed)
    assert scanner.discover(["."]) == first
    assert opened == [] and runs == []
    (tmp_path / "shop" / "orders.py").write_text("from shop import Item\n\nclass Ord(Item): ...\n")
    assert [r["name"] for r in scanner.discover(["."])["resources"]] == ["shop_item", "shop_ord"]
    assert opened == ["shop/orders.py"]  # judged, then parsed from the bytes judged


def test_a_file_reached_only_through_imports_is_still_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No keyword in `zoo/animals.py` (a model subclassing an abstract base) nor in
    `zoo/dog.py` (a multi-table child of it): both are reached from `core/base.py`, which names
    Django, through their imports and classes, so both tables are still there."""
    import pack_django

    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("")
    (tmp_path / "core" / "base.py").write_text(
        "from django.db import models\n\nclass Stamped(models.Model):\n"
        "    class Meta:\n        abstract = True\n"
    )
    (tmp_path / "zoo").mkdir()
    (tmp_path / "zoo" / "__init__.py").write_text("")
    (tmp_path / "zoo" / "animals.py").write_text(
        "from core.base import Stamped\n\nclass Animal(Stamped):\n    pass\n"
    )
    (tmp_path / "zoo" / "dog.py").write_text(
        "from zoo.animals import Animal\n\nclass Dog(Animal):\n    pass\n"
    )
    (tmp_path / "zoo" / "views.py").write_text("def index():\n    return 'no class, no keyword'\n")
    monkeypatch.chdir(tmp_path)
    documents = []
    for keywords in (None, pack_django.KEYWORDS):
        scanner = Scanner((".py",), django_models.extract, django_models.link,
                          language="Python", workers=1, keywords=keywords,
                          base_keywords=pack_django.BASE_KEYWORDS)  # fmt: skip
        documents.append(scanner.discover(["."]))
    assert documents[0] == documents[1]
    assert sorted(r["name"] for r in documents[1]["resources"]) == ["zoo_animal", "zoo_dog"]


def test_the_routes_prefilter_changes_no_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """pack-http-routes, parsing only the files whose bytes can declare or register a route and
    those its linker asks for, gives byte for byte the document of parsing every file, on the
    sample app, every fixture repository and the unresolved corpus, while parsing fewer."""
    from pack_http_routes import make_scanner

    counts = {"all": 0, "filtered": 0}
    for root in ROOTS:
        monkeypatch.chdir(root)
        documents = []
        for label, parse_all in (("all", True), ("filtered", False)):
            scanner = make_scanner(parse_all=parse_all)
            scanner.workers = 1
            documents.append(scanner.discover(["."]))
            counts[label] += scanner.parsed
        unfiltered, filtered = (canonical_json(d) for d in documents)
        assert filtered == unfiltered, root.name
    assert counts["filtered"] < counts["all"]


_TRICKY_SOURCES = [
    b"x = foo(\n    y = bar,\n    z=baz(1),\n)\nw = q\n",
    b"a = b = c\nclass K(Base):\n    f: int = models.IntegerField()\n    g = h(i(j()))\n",
    b"if a == b: c = d\n\n  e=f  # g = h\nk == l\nm = (n)\n=\n= x\np =\n",
    b"s = '''\nt = u\n'''\nv = w(x=(y), z=[1, (2)])\nlast = call(\n",
    b"a = b = c.D()\ne: int = f = g\nh = i == j\nk = l()\n",
    b"db_table = 'x'\nmydb_table = 1\napp_label== 2\n  proxy\t= True\nproxy_x = 1\n",
    b"Meta.db_table='t'\n_app_label = 1\nclass M(models.Model, metaclass=X, *Y):\n",
    b"\xef\xbb\xbfdb_table=1\nproxy",
]


@pytest.mark.parametrize("data", _TRICKY_SOURCES)
def test_the_fast_byte_judges_find_what_their_patterns_do(data: bytes) -> None:
    """The pre-filter's shortcuts (issue 24 item 5) against the plain patterns they stand for:
    assignments tried only on lines holding `=` as `_ASSIGN.finditer`, a name's assignment
    and a `Word` found by
    `bytes.find` then a match as a `\\b` search, a bases list without brackets split at its
    commas as the bracket-counting cut does."""
    import re

    import pack_django
    from packs import prefilter

    plain_assignments = [m.groups() for m in prefilter._ASSIGN.finditer(data)]
    assert prefilter._assign_findall(data) == plain_assignments
    for name in re.findall(rb"[A-Za-z_]\w*", data):
        plain = re.compile(rb"\b" + name + rb"[ \t]*(?::[^=\n]*)?=(?!=)")
        assert prefilter.assigns_name(data, name) == (plain.search(data) is not None)
    for keyword in pack_django.KEYWORDS:
        assert isinstance(keyword, prefilter.Word)
        plain = re.compile(rb"\b" + keyword.word + rb"[ \t]*=(?!=)")
        assert keyword.found_in(data) == (plain.search(data) is not None)
    for _, listed in prefilter._CLASS.findall(data):
        assert b"(" in listed or prefilter._top_level_items(listed) == listed.split(b",")
    assert prefilter._bases(b"b.C, D(e, f), G[H], k=1, *Y") == ["b.C", "D", "G"]
    assert prefilter._bases(b"models.Model, Mixin , metaclass=X") == ["models.Model", "Mixin"]


def test_the_prefilter_opens_a_directory_chain_once_for_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judging the bytes of every file of a large repository was one `openat` per directory of
    each file's path: the pre-filter now opens a directory's chain once for all its files (the
    file itself still opened with `O_NOFOLLOW` and confirmed regular), and closes every
    descriptor it opened."""
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    for n in range(6):
        (deep / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n")
    (tmp_path / "a" / "b" / "models.py").write_text(
        "from django.db import models\n\nclass Item(models.Model):\n    pass\n"
    )
    (tmp_path / "top.py").write_text("X = 1\n")
    opened_dirs: list[str] = []
    open_dir = scan_read.open_dir_in_root

    def recording_open_dir(fd: int, rel: str) -> int:
        opened_dirs.append(rel)
        return open_dir(fd, rel)

    monkeypatch.setattr(scan_read, "open_dir_in_root", recording_open_dir)
    monkeypatch.chdir(tmp_path)
    before = len(os.listdir("/proc/self/fd"))
    document = _pre_filtered("django", django_models.extract).discover(["."])
    assert [r["name"] for r in document["resources"]] == ["b_item"]
    assert sorted(opened_dirs) == ["a/b", "a/b/c"]  # not one chain per file
    assert len(os.listdir("/proc/self/fd")) == before


def test_the_routes_pack_on_demand_stops_at_the_soft_deadline_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pack-http-routes' on-demand scan (bytes admitted, parsed, linked, asked for more) looks
    at the clock in each of those steps: judging a file's bytes costs one second and parsing
    one another (a fake clock), so a 15-second deadline answers part of the routes with
    DEADLINE_REACHED, and each repeat goes further to the document of the unbounded scan."""
    import pack_http_routes
    from packs.routes import extract as routes_extract

    for n in range(10):
        (tmp_path / f"views{n}.py").write_text(
            f"from flask import Flask\napp = Flask(__name__)\n\n@app.get('/v{n}')\ndef v(): ...\n"
        )
    now = [0.0]
    judge = scan_read.judge_bytes

    def slow_judge(directories: Any, found: Any, stash: Any = None) -> bytes | None:
        now[0] += 1.0
        return judge(directories, found, stash)

    def slow_extract(path: str, source: str) -> Any:
        now[0] += 1.0
        return routes_extract(path, source)

    monkeypatch.setattr(scan_select, "judge_bytes", slow_judge)
    linker = RouteDocumentMemo()
    bounded = Scanner(SUFFIXES, slow_extract, linker, language="x", root=str(tmp_path),
                      workers=1, deadline_ms=15_000, clock=lambda: now[0],
                      on_demand=OnDemand(admits, linker))  # fmt: skip
    counts = []
    for _ in range(8):
        began = now[0]
        document = bounded.discover(["."])
        assert now[0] - began <= 16.0  # at most one look at a file's bytes past the deadline
        DOCUMENT.check(document)
        counts.append(len(document["resources"]))
        if not document["findings"]:
            break
        assert [f["code"] for f in document["findings"]] == ["DEADLINE_REACHED"]
    assert counts[0] < 10 and counts[-1] == 10 and counts == sorted(counts)
    reference = pack_http_routes.make_scanner(parse_all=True)
    reference.root = str(tmp_path)
    assert document == reference.discover(["."])
