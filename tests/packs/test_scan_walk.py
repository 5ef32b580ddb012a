"""`packs.scan_walk`: which files a request names, by the walk rules every pack shares, on
trees built in a scratch folder; the verdicts a repeat reuses; the deadline's unentered folders."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.repeat import RACY_NS, Listings
from packs.scan_document import Unresolved
from packs.scan_walk import Listed, Takes, Walk, is_test_file

from gpp.plugin import repo_files

PYTHON = Takes((".py",), None, "Python")


def write(root: Path, rel: str, text: str = "") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The repository's root, in a scratch folder that also holds what lies outside it."""
    (tmp_path / "repo").mkdir()
    return tmp_path / "repo"


@pytest.fixture
def root_fd(repo: Path) -> Iterator[int]:
    fd = repo_files.open_root(str(repo))
    yield fd
    os.close(fd)


def walk_of(
    root: Path,
    takes: Takes = PYTHON,
    stop: Callable[[], bool] = lambda: False,
    listings: Listings[Listed] | None = None,
) -> Walk:
    return Walk(str(root), takes, listings if listings is not None else Listings(), stop)


@pytest.mark.parametrize(
    ("name", "test"),
    [
        ("test_models.py", True),
        ("conftest.py", True),
        ("routes.test.ts", True),
        ("users.spec.js", True),
        ("test_data.json", False),  # `test_*` is a Python module's name only
        ("testing.py", False),
        ("contest.py", False),
        ("models.py", False),
    ],
)
def test_is_test_file(name: str, test: bool) -> None:
    assert is_test_file(name) is test


def test_takes_by_suffix_and_by_name() -> None:
    takes = Takes((".py", ".js"), lambda path: path.endswith("tsconfig.base.json"), "x")
    assert takes("a/b.py") and takes("c.js") and takes("cfg/tsconfig.base.json")
    assert not takes("README.md") and not takes("tsconfig.json")
    assert takes.by_name("tsconfig.base.json") and not takes.by_name("a.py")
    assert not PYTHON.by_name("anything.py")


def test_the_walk_takes_the_packs_files_and_leaves_out_what_is_no_apps_code(
    repo: Path, root_fd: int
) -> None:
    for rel in (
        "app/models.py",
        "app/routes.js",
        "app/.hidden.py",
        ".git/hooks/x.py",
        ".well-known/acme/route.py",
        "venv/lib/x.py",
        "env/pyvenv.cfg",
        "env/lib/y.py",
        "node_modules/pkg/index.py",
        "app/__pycache__/m.py",
        "site-packages/p.py",
        "tests/test_api.py",
        "spec/server.py",
        "app/test_views.py",
        "app/conftest.py",
        "dist/bundle.py",
        "build/out.py",
        "static/app.min.js",
    ):
        write(repo, rel)
    (repo / "app" / "link.py").symlink_to(repo / "app" / "models.py")
    takes = Takes((".py", ".js"), None, "Python")
    walk = walk_of(repo, takes)
    skipped = walk.locate(root_fd, ".")
    assert sorted(walk.files) == [".well-known/acme/route.py", "app/models.py", "app/routes.js"]
    assert walk.files["app/models.py"].target == "app/models.py"
    assert skipped == [
        Unresolved("build", "unsupported", "generated code is not read (a build/ directory)"),
        Unresolved("dist", "unsupported", "generated code is not read (a dist/ directory)"),
        Unresolved("static/app.min.js", "unsupported", "generated code is not read (a minified bundle)"),
    ]  # fmt: skip
    assert "env" in walk.walked and not any(d.startswith("env/") for d in walk.walked)
    assert walk.walked[0] == "."


def test_a_next_js_url_segment_named_like_a_test_folder_is_walked(repo: Path, root_fd: int) -> None:
    """Below a Next.js router folder a folder is a URL segment whatever its name: one holding a
    route file (`route.ts`, `page.tsx`; below `pages/`, any script not named as a test) is
    walked; test folders elsewhere, or holding only tests and helpers there, are not."""
    for rel in (
        "web/app/api/jobs/[id]/test/route.ts",  # POST /api/jobs/{id}/test
        "web/app/spec/page.tsx",
        "web/pages/api/tests/index.ts",
        "web/app/api/__tests__/route.test.ts",  # a test of the route next to it
        "web/app/api/tests/helpers.ts",  # no route file: test code
        "web/pages/__tests__/home.test.tsx",
        "lib/test/route.ts",  # not below a router folder
        "app/tests/test_views.py",
    ):
        write(repo, rel)
    takes = Takes((".py", ".ts", ".tsx"), None, "JavaScript or Python")
    walk = walk_of(repo, takes)
    walk.locate(root_fd, ".")
    assert sorted(walk.files) == [
        "web/app/api/jobs/[id]/test/route.ts",
        "web/app/spec/page.tsx",
        "web/pages/api/tests/index.ts",
    ]


def test_a_hidden_file_the_pack_reads_by_name_is_taken(repo: Path, root_fd: int) -> None:
    write(repo, "api/.env.example", "PREFIX=/api\n")
    write(repo, "api/.env", "SECRET=x\n")
    takes = Takes((".py",), lambda path: path.rpartition("/")[2] == ".env.example", "Python")
    walk = walk_of(repo, takes)
    assert walk.locate(root_fd, ".") is None
    assert list(walk.files) == ["api/.env.example"]


def test_directories_are_walked_in_utf8_byte_order(repo: Path, root_fd: int) -> None:
    for name in ("b", "B", "a", "é", "z"):
        write(repo, f"{name}/m.py")
    walk = walk_of(repo)
    walk.locate(root_fd, ".")
    assert walk.walked == [".", "B", "a", "b", "z", "é"]


def test_a_named_path_is_found_or_said_why_not(repo: Path, root_fd: int) -> None:
    write(repo, "app/models.py")
    write(repo, "README.md")
    (repo / "app" / "alias.py").symlink_to("models.py")
    outside = repo.parent / "outside.py"
    outside.write_text("")
    (repo / "escape.py").symlink_to(outside)
    walk = walk_of(repo)
    assert walk.locate(root_fd, "tests/test_x.py") == Unresolved(
        "tests/test_x.py", "not-found", "no such file or directory"
    )
    assert walk.locate(root_fd, "README.md") == Unresolved(
        "README.md", "unsupported", "not a Python file"
    )
    assert walk.locate(root_fd, "escape.py") == Unresolved(
        "escape.py", "unreadable", "symlink leads outside the repository"
    )
    assert walk.locate(root_fd, "app/alias.py") is None  # a symlink inside the root, named
    assert walk.files["app/alias.py"].target == "app/models.py"
    write(repo, "tests/test_named.py")
    assert walk.locate(root_fd, "tests/test_named.py") is None  # named: read whatever its name
    assert "tests/test_named.py" in walk.files


def test_past_the_deadline_the_folders_below_are_left_unentered_and_said(
    repo: Path, root_fd: int
) -> None:
    for rel in ("top.py", "pkg/inner.py", "pkg/deep/x.py", "other/y.py"):
        write(repo, rel)
    walk = walk_of(repo, stop=lambda: True)
    walk.locate(root_fd, ".")
    assert list(walk.files) == ["top.py"]  # the root's own files are found
    assert walk.not_walked == ["other", "pkg"]


def test_a_repeat_recalls_the_verdicts_of_unchanged_directories(repo: Path, root_fd: int) -> None:
    for rel in ("a.py", "pkg/b.py", "pkg/notes.txt"):
        write(repo, rel)
    listings: Listings[Listed] = Listings(wall_ns=lambda: time.time_ns() + 10 * RACY_NS)
    first = walk_of(repo, listings=listings)
    first.locate(root_fd, ".")
    tree = first.whole_tree()
    assert tree is not None
    assert [(seen.directory, seen.files) for seen in tree] == [(".", ("a.py",)), ("pkg", ("b.py",))]
    again = walk_of(repo, listings=listings)
    again.locate(root_fd, ".")
    assert listings.hits == 2 and list(again.files) == list(first.files)
    write(repo, "pkg/c.py")  # the directory changes: listed afresh, the root recalled
    os.utime(repo / "pkg", ns=(1, 1))  # even with its times set back: ctime still moved
    third = walk_of(repo, listings=listings)
    third.locate(root_fd, ".")
    assert sorted(third.files) == ["a.py", "pkg/b.py", "pkg/c.py"]
    assert listings.hits == 3


def test_no_whole_tree_while_a_directory_changed_too_recently(repo: Path, root_fd: int) -> None:
    write(repo, "a.py")
    walk = walk_of(repo)  # listed just now: its verdicts are not kept
    walk.locate(root_fd, ".")
    assert walk.whole_tree() is None
