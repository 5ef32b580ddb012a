"""A repeated discover (`packs.repeat`): an unchanged repository is answered with the last
document, each unchanged directory's walk verdicts recalled, and whatever changes between two
discovers (an edit, an added, removed or renamed file or folder, a manifest or config the pack
reads) gives the very document a cold scan gives."""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

import pack_django
import pack_http_routes
import pack_js_tables
import pack_sqlalchemy
from packs import django_models, repeat, sqlalchemy_models
from packs.scan import Scanner

START = {
    "app/__init__.py": (
        "from flask import Flask\n\nfrom app.views import bp\n\napp = Flask(__name__)\n"
        "app.register_blueprint(bp, url_prefix='/api')\n"
    ),
    "app/views.py": (
        "from flask import Blueprint\n\nbp = Blueprint('v', __name__)\n\n\n"
        "@bp.get('/items')\ndef items():\n    return []\n"
    ),
    "app/models.py": (
        "from sqlalchemy import Column, Integer\nfrom sqlalchemy.orm import declarative_base\n\n"
        "Base = declarative_base()\n\n\nclass User(Base):\n    __tablename__ = 'users'\n"
        "    id = Column(Integer, primary_key=True)\n"
    ),
    "shop/models.py": (
        "from django.db import models\n\n\nclass Order(models.Model):\n"
        "    total = models.IntegerField()\n"
    ),
    "web/server.js": (
        "const express = require('express');\nconst items = require('./routes/items');\n"
        "const app = express();\napp.use('/shop', items);\napp.listen(3000);\n"
    ),
    "web/routes/items.js": (
        "const { Router } = require('express');\nconst router = Router();\n"
        "router.get('/list', (req, res) => res.json([]));\nmodule.exports = router;\n"
    ),
    "web/db.js": (
        "const mongoose = require('mongoose');\n"
        "module.exports = mongoose.model('Item', new mongoose.Schema({ name: String }));\n"
    ),
    "web/src/api.ts": (
        "import express from 'express';\nimport { handler } from '@lib/handler';\n"
        "const api = express.Router();\napi.post('/save', handler);\nexport default api;\n"
    ),
    "web/lib/handler.ts": "export const handler = (req: any, res: any) => res.end();\n",
    "package.json": '{"name": "shop", "main": "web/server.js"}\n',
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["web/lib/*"]}}}\n',
    "requirements.txt": "flask\nsqlalchemy\n",
}


def _sqlalchemy() -> Scanner[Any]:
    return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                   language="Python", keywords=pack_sqlalchemy.KEYWORDS)  # fmt: skip


def _django() -> Scanner[Any]:
    return Scanner((".py",), django_models.extract, django_models.link, language="Python",
                   keywords=pack_django.KEYWORDS,
                   base_keywords=getattr(pack_django, "BASE_KEYWORDS", ()),
                   follow=getattr(pack_django, "FOLLOW", "imports"),
                   fields=getattr(pack_django, "FIELDS", None))  # fmt: skip


PACKS: dict[str, Callable[[], Scanner[Any]]] = {
    "http-routes": pack_http_routes.make_scanner,
    "js-tables": pack_js_tables.make_scanner,
    "sqlalchemy": _sqlalchemy,
    "django": _django,
}


def _write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


def _files(root: Path) -> list[str]:
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts
    )


def _change(root: Path, chooser: random.Random, step: int) -> str:
    """One change of the kinds a working copy sees between two discovers; says which."""
    files = _files(root)
    kind = chooser.choice([
        "edit", "edit", "same-size", "add", "add-folder", "remove", "rename", "move",
        "manifest", "tsconfig", "requirements", "nothing", "remove-folder", "test-file",
    ])  # fmt: skip
    if kind == "edit":
        rel = chooser.choice([f for f in files if f.endswith((".py", ".js", ".ts"))] or files)
        text = (root / rel).read_text()
        _write(root, rel, text.replace("'/", f"'/v{step}/", 1).replace("users", f"users{step}"))
    elif kind == "same-size":  # same size, same inode: only the mtime tells
        rel = chooser.choice([f for f in files if "'/" in (root / f).read_text()] or files)
        path = root / rel
        before = path.stat()
        text = path.read_text()
        at = text.find("'/") + 2  # a route's first letter, else the file's
        letter = "q" if text[at : at + 1] != "q" else "r"
        path.write_text(text[:at] + letter + text[at + 1 :])
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    elif kind == "add":
        _write(root, f"app/extra{step}.py", (
            f"from flask import Blueprint\nfrom sqlalchemy import Table, MetaData\n\n"
            f"bp{step} = Blueprint('e{step}', __name__)\nt = Table('extra{step}', MetaData())\n\n\n"
            f"@bp{step}.post('/extra{step}')\ndef extra():\n    return 1\n"
        ))  # fmt: skip
        init = root / "app/__init__.py"
        if init.exists():
            init.write_text(
                init.read_text()
                + f"from app.extra{step} import bp{step}\napp.register_blueprint(bp{step})\n"
            )
    elif kind == "add-folder":
        _write(root, f"pkg{step}/deep/models.py", (
            "from django.db import models\n\n\n"
            f"class Thing{step}(models.Model):\n    name = models.CharField(max_length=3)\n"
        ))  # fmt: skip
        _write(root, f"pkg{step}/routes.js", (
            f"const app = require('express')();\napp.get('/p{step}', (q, s) => s.end());\n"
        ))  # fmt: skip
    elif kind == "remove" and files:
        (root / chooser.choice(files)).unlink()
    elif kind == "remove-folder":
        folders = sorted({f.split("/")[0] for f in files if "/" in f})
        if folders:
            shutil.rmtree(root / chooser.choice(folders))
    elif kind in ("rename", "move") and files:
        rel = chooser.choice(files)
        parent = (root / rel).parent if kind == "rename" else root / "moved"
        parent.mkdir(exist_ok=True)
        os.rename(root / rel, parent / f"r{step}_{Path(rel).name}")
    elif kind == "manifest":
        _write(root, "package.json", json.dumps({"name": f"shop{step}", "main": "web/server.js"}))
    elif kind == "tsconfig":
        target = chooser.choice(["web/lib/*", "web/src/*", "nowhere/*"])
        paths = {"@lib/*": [target]}
        _write(
            root, "tsconfig.json", json.dumps({"compilerOptions": {"baseUrl": ".", "paths": paths}})
        )
    elif kind == "requirements":
        _write(root, "requirements.txt", f"flask=={step}.0\n")
    elif kind == "test-file":
        _write(root, f"tests/test_{step}.py", "from flask import Flask\napp = Flask('t')\n")
    return kind


def _directories(root: Path) -> dict[Path, tuple[tuple[int, int], frozenset[str]]]:
    """Each directory's (mtime, ctime) and entry names."""
    found = {}
    for here, names, files in os.walk(root):
        info = os.stat(here)
        found[Path(here)] = ((info.st_mtime_ns, info.st_ctime_ns), frozenset(names + files))
    return found


def _past_the_tick(before: dict[Path, tuple[tuple[int, int], frozenset[str]]]) -> None:
    """A directory whose entries changed keeps its times when the file system's clock did not
    tick in between (a coarse clock; this kernel's may be finer): the race `Listings` leaves
    alone by trusting only times older than `RACY_NS`. The aged runs below say every time is
    old, so here each such directory is touched again until its ctime moves (bounded)."""
    for directory, (times, names) in before.items():
        if not directory.is_dir() or frozenset(os.listdir(directory)) == names:
            continue
        mode = directory.stat().st_mode
        deadline = time.monotonic() + 5
        while (directory.stat().st_mtime_ns, directory.stat().st_ctime_ns) == times:
            assert time.monotonic() < deadline, "the file system's clock did not move"
            os.chmod(directory, mode)


def _canonical(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True)


@pytest.mark.parametrize("aged", [False, True], ids=["fresh", "aged"])
def test_a_repeat_after_any_change_is_the_cold_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, aged: bool
) -> None:
    """Property: after each of a seeded sequence of changes, a long-lived scanner per pack
    (memo, recalled listings and last document) answers what a new scanner answers. `aged`:
    the scanners' wall clock says every directory was last changed long before its listing,
    so listings are recalled; fresh: the clock says no directory is old enough to be."""
    for rel, text in START.items():
        _write(tmp_path, rel, text)
    monkeypatch.chdir(tmp_path)
    warm = {name: make() for name, make in PACKS.items()}
    for scanner in warm.values():
        scanner.workers = 1
        # aged: every listing is long after its directory's last change; fresh: every listing
        # is at the epoch, so none is old enough to recall, however slow the machine
        scanner.listings.wall_ns = (
            (lambda: time.time_ns() + 10 * repeat.RACY_NS) if aged else (lambda: 0)
        )
    chooser = random.Random(34)
    kinds = []
    for step in range(40):
        before = _directories(tmp_path)
        kinds.append(_change(tmp_path, chooser, step))
        if aged:
            _past_the_tick(before)
        for name, scanner in warm.items():
            cold = PACKS[name]()
            cold.workers = 1
            expected = _canonical(cold.discover(["."]))
            assert _canonical(scanner.discover(["."])) == expected, (name, step, kinds[-1])
            assert _canonical(scanner.discover(["."])) == expected, (name, step, "repeated")
    assert {"edit", "same-size", "add", "remove", "rename", "manifest", "tsconfig"} <= set(kinds)
    for name, scanner in warm.items():
        assert scanner.documents.hits >= 40, name  # every repeat answered whole
        assert (scanner.listings.hits > 0) == aged, name


def test_an_unchanged_repository_is_answered_from_its_last_document_and_listings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listed, opened or linked: a repeat of `.` finds every directory and file of the
    last document's tree with its stamp (`repeat.unchanged`) and answers that document; after
    an edit, the walk recalls each directory's verdicts (its files `stat`ed only, nothing
    listed) and only the edited file is read."""
    for rel, text in START.items():
        _write(tmp_path, rel, text)
    monkeypatch.chdir(tmp_path)
    scanner = pack_http_routes.make_scanner()
    scanner.listings.wall_ns = lambda: time.time_ns() + 10 * repeat.RACY_NS
    first = scanner.discover(["."])
    directories = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_dir()}
    listed: list[int] = []
    scandir = os.scandir

    def counting_scandir(fd: Any) -> Any:
        listed.append(fd)
        return scandir(fd)

    monkeypatch.setattr(os, "scandir", counting_scandir)  # as `repo_files` lists
    misses = scanner.memo.stats.misses
    assert scanner.discover(["."]) == first
    assert listed == [] and scanner.documents.hits == 1 and scanner.listings.hits == 0
    assert scanner.memo.stats.misses == misses and scanner.memo.stats.hits == 0
    handler = tmp_path / "web/lib/handler.ts"
    handler.write_text(handler.read_text() + "export const other = 1;\n")
    edited = scanner.discover(["."])
    assert listed == [] and scanner.listings.hits == len(directories | {"."})
    assert scanner.memo.stats.misses <= misses + 1  # the edited file, if it is read at all
    assert scanner.discover(["."]) == edited and scanner.documents.hits == 2
    cold = pack_http_routes.make_scanner()
    assert _canonical(edited) == _canonical(cold.discover(["."]))


def test_a_tree_checked_again_fails_at_any_difference(tmp_path: Path) -> None:
    """`repeat.unchanged` against the tree a walk recorded: a file's stamp, a directory's
    stamp, a file turned into a directory, a directory gone, an order no walk makes."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "x.py").write_text("x = 1\n")
    (tmp_path / "a" / "b" / "y.py").write_text("y = 2\n")

    def seen(directory: str, files: tuple[str, ...], parent: bool) -> repeat.Seen:
        here = tmp_path / directory
        stamps = tuple(repeat.file_stamp(os.stat(here / name)) for name in files)
        return repeat.Seen(directory, repeat.directory_stamp(os.stat(here)), files, stamps, parent)

    (tmp_path / "c").mkdir()  # nothing the pack takes in it: its own stamp only
    tree = [seen(".", (), True), seen("a", ("x.py",), True), seen("a/b", ("y.py",), False)]
    root = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    open_before = len(os.listdir("/proc/self/fd"))
    try:
        with_c = [*tree, seen("c", (), False)]
        assert repeat.unchanged(root, with_c)
        (tmp_path / "c" / "new.py").write_text("")
        assert not repeat.unchanged(root, with_c)
        assert repeat.unchanged(root, tree)
        assert not repeat.unchanged(root, [tree[0], tree[2]])  # `a/b` before `a`: not a walk
        (tmp_path / "a" / "b" / "y.py").write_text("y = 22\n")
        assert not repeat.unchanged(root, tree)
        tree[2] = seen("a/b", ("y.py",), False)
        assert repeat.unchanged(root, tree)
        (tmp_path / "a" / "b" / "y.py").unlink()
        (tmp_path / "a" / "b" / "y.py").mkdir()
        assert not repeat.unchanged(
            root, [*tree[:2], replace(tree[2], stamp=seen("a/b", (), False).stamp)]
        )
        shutil.rmtree(tmp_path / "a" / "b")
        assert not repeat.unchanged(root, tree)
        assert len(os.listdir("/proc/self/fd")) == open_before  # nothing left open
    finally:
        os.close(root)


def test_a_directory_changed_just_before_its_listing_is_listed_again(tmp_path: Path) -> None:
    """A listing is kept only when the directory's times are `RACY_NS` older than it: an entry
    added within the same tick of a coarse clock would leave them as they were."""
    listings: repeat.Listings[str] = repeat.Listings(wall_ns=time.time_ns)
    info = os.stat(tmp_path)  # just made: too recent to be trusted
    assert listings.recall("d", info) is None
    listings.remember("d", "verdicts")
    assert listings.recall("d", info) is None  # not kept
    listings.wall_ns = lambda: max(info.st_mtime_ns, info.st_ctime_ns) + repeat.RACY_NS + 1
    assert listings.recall("d", info) is None
    listings.remember("d", "verdicts")
    assert listings.recall("d", info) == "verdicts"
    (tmp_path / "new").write_text("")
    assert listings.recall("d", os.stat(tmp_path)) is None  # an entry added: a new stamp
    listings.remember("d", "unremembered: listed too soon after that change")  # ignored: the
    # wall clock above is older than the new times
    assert listings.recall("d", os.stat(tmp_path)) is None


def test_a_read_error_is_not_kept_in_the_last_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that could not be read is tried again by the next discover (it is not in the
    memo), so the document holding its `unreadable` is not kept whole either."""
    from packs import scan
    from packs.scan_read import FileReader

    _write(tmp_path, "app/models.py", START["app/models.py"])
    monkeypatch.chdir(tmp_path)
    scanner = _sqlalchemy()
    failing = [True]
    read_missing = FileReader.read_missing

    def flaky(self: Any, root_fd: int, rel: str, found: Any) -> Any:
        if failing[0]:
            return scan.Unresolved(rel, "unreadable", "cannot be read"), False
        return read_missing(self, root_fd, rel, found)

    monkeypatch.setattr(FileReader, "read_missing", flaky)
    first = scanner.discover(["."])
    assert [u["reason"] for u in first["unresolved"]] == ["unreadable"]
    failing[0] = False
    second = scanner.discover(["."])
    assert second["unresolved"] == [] and [r["name"] for r in second["resources"]] == ["users"]
    assert scanner.documents.hits == 0


def test_listings_are_forgotten_when_the_scanner_takes_other_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk's verdicts say which names the pack takes: a scanner given other suffixes
    lists every directory again rather than recall what it took before."""
    for rel, text in START.items():
        _write(tmp_path, rel, text)
    monkeypatch.chdir(tmp_path)
    scanner = _sqlalchemy()
    scanner.listings.wall_ns = lambda: time.time_ns() + 10 * repeat.RACY_NS
    scanner.discover(["."])
    scanner.suffixes = (".py", ".js")
    other = _sqlalchemy()
    other.suffixes = (".py", ".js")
    assert _canonical(scanner.discover(["."])) == _canonical(other.discover(["."]))
    assert scanner.listings.hits == 0
