"""`packs.scan_select`: which walked files a cold scan parses: a Python pack's byte pre-filter
(keywords, then the files linked to those), and a linker-driven selection that parses what the
bytes admit, then what linking asks for, until it asks for nothing new."""

from __future__ import annotations

import os
import sys
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs import scan_read, scan_select
from packs.scan_deadline import Pace
from packs.scan_document import DocumentPieces, GuardedLink, ReaderError, Unresolved
from packs.scan_read import FileReader
from packs.scan_select import Admission, OnDemand, OnDemandSelection, PreFilter
from packs.scan_walk import Found

from gpp.plugin import FileMemo, repo_files


@pytest.fixture
def root_fd(tmp_path: Path) -> Iterator[int]:
    fd = repo_files.open_root(str(tmp_path))
    yield fd
    os.close(fd)


def tree(root: Path, texts: dict[str, str]) -> dict[str, Found]:
    for rel, text in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return {rel: Found(rel, os.stat(root / rel)) for rel in sorted(texts)}


def test_admission_reads_as_a_bool_of_whether_the_file_may_be_parsed() -> None:
    assert [bool(a) for a in Admission] == [False, True, True, True]


# ------------------------------------------------------------------------- the byte pre-filter


def pre_filter(pace: Pace | None = None, named: Any = None) -> PreFilter:
    keywords = (b"Column(",)
    return PreFilter(keywords, (), "imports", None, named, pace or Pace(None, lambda: 0.0))


MODELS = {
    "app/__init__.py": "",
    "app/models.py": "from app.helpers import prefix\nname = Column(1)\n",
    "app/helpers.py": "def prefix():\n    return 'p_'\n",
    "app/views.py": "def index():\n    return 'hello'\n",
    "setup.py": "setup()\n",
    "README.md": "Column(\n",
}


def test_the_pre_filter_keeps_keyword_files_what_they_import_and_what_it_cannot_judge(
    tmp_path: Path, root_fd: int
) -> None:
    files = tree(tmp_path, MODELS)
    rels = list(files)
    kept = pre_filter(named=lambda path: path == "setup.py").kept(
        root_fd, rels, files, frozenset({"app"})
    )
    # views.py neither mentions a keyword nor is imported by a file that does
    assert kept == ["README.md", "app/helpers.py", "app/models.py", "setup.py"]


def test_the_pre_filter_judges_an_unchanged_repository_from_its_memo(
    tmp_path: Path, root_fd: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = tree(tmp_path, MODELS)
    selection = pre_filter()
    first = selection.kept(root_fd, list(files), files, frozenset({"app"}))
    judged: list[str] = []
    judge = scan_read.judge_bytes

    def counting(directories: Any, found: Found, stash: Any = None) -> bytes | None:
        judged.append(found.target)
        return judge(directories, found, stash)

    monkeypatch.setattr(scan_select, "judge_bytes", counting)
    assert selection.kept(root_fd, list(files), files, frozenset({"app"})) == first
    assert judged == []


def test_past_the_deadline_the_pre_filter_keeps_every_file_it_could_not_rule_out(
    tmp_path: Path, root_fd: int
) -> None:
    files = tree(tmp_path, MODELS)
    late = Pace(1_000, lambda: 5.0)  # started at 0: five seconds ago
    assert pre_filter(late).kept(root_fd, list(files), files, frozenset()) == list(files)


# ---------------------------------------------------------------------- the linker's selection


class Link:
    """A linker over files whose facts are their text: `uses other.js` asks for that file's
    facts (`touched`), `calls helper` asks for every file that spells `helper` (`words`)."""

    def __init__(self) -> None:
        self.rounds: list[list[str]] = []

    def __call__(
        self, files: Sequence[tuple[str, str]], paths: Collection[str], failed: Collection[str]
    ) -> DocumentPieces:
        self.rounds.append([path for path, _ in files])
        linked = DocumentPieces()
        touched: set[str] = set()
        words: set[str] = set()
        for path, text in files:
            for line in text.splitlines():
                verb, _, what = line.partition(" ")
                if verb == "uses":
                    touched.add(what)
                elif verb == "calls":
                    words.add(what)
                elif verb == "route":
                    linked.resources.append({"name": what, "location": {"path": path, "line": 1}})
        linked.touched, linked.words = frozenset(touched), frozenset(words)
        return linked


def admits(path: str, data: bytes) -> Admission:
    if b"import server" in data:
        return Admission.SEED
    if b"route" in data and path.startswith("client/"):
        return Admission.GATED  # a front-end's call: a route only where a server is in use
    return Admission.YES if b"route" in data else Admission.NO


def extract(path: str, source: str) -> str:
    if "syntax error" in source:
        raise SyntaxError("bad", ("x", 2, 1, ""))
    return source


def select(
    root: Path,
    root_fd: int,
    texts: dict[str, str],
    *,
    parse_all: bool = False,
    selection: OnDemandSelection[str] | None = None,
    link: Link | None = None,
) -> tuple[DocumentPieces, int, list[Unresolved], list[ReaderError], Link]:
    files = tree(root, texts)
    pace = Pace(None, lambda: 0.0, parse_all=parse_all)
    link = link or Link()
    memo: FileMemo[str | Unresolved | ReaderError] = FileMemo()
    reader = FileReader(memo, extract, pace, workers=1, min_files_per_worker=1)
    selection = selection or OnDemandSelection(
        OnDemand(admits, link), GuardedLink(pace.timed), pace
    )
    unresolved: list[Unresolved] = []
    failed: list[ReaderError] = []
    linked, parsed = selection.linked(
        root_fd, list(files), files, reader, frozenset(), [], unresolved, failed
    )
    return linked, parsed, unresolved, failed, link


APP = {
    "app.js": "route /a\nuses lib/mount.js\n",
    "lib/mount.js": "calls register\n",
    "lib/plugins.js": "register x\n",
    "lib/other.js": "nothing here\n",
    "lib/broken.js": "syntax error\n",
}


def test_linking_asks_for_files_and_words_until_nothing_new(tmp_path: Path, root_fd: int) -> None:
    linked, parsed, unresolved, failed, link = select(tmp_path, root_fd, APP)
    assert [r["name"] for r in linked.resources] == ["/a"]
    assert link.rounds == [
        ["app.js"],  # admitted by its bytes
        ["app.js", "lib/mount.js"],  # asked for by the link (`touched`)
        ["app.js", "lib/mount.js", "lib/plugins.js"],  # spells a word the link needs
    ]
    assert parsed == 3
    assert unresolved == [] and failed == []  # broken.js was never needed: not reported


def test_parse_all_reads_every_file_but_reports_only_what_matters(
    tmp_path: Path, root_fd: int
) -> None:
    linked, parsed, unresolved, _, link = select(tmp_path, root_fd, APP, parse_all=True)
    assert [r["name"] for r in linked.resources] == ["/a"]
    assert parsed == len(APP)
    assert link.rounds[0] == sorted(set(APP) - {"lib/broken.js"})  # one link of every file
    assert unresolved == []  # broken.js is neither admitted nor asked for, in both modes


def test_parse_all_reports_a_parse_error_only_where_the_filtered_scan_asks_for_the_file(
    tmp_path: Path, root_fd: int
) -> None:
    """A file the bytes do not admit (a front end's script) makes the link of every file need
    a word a broken file spells; the filtered scan never reads that script, so never asks for
    the broken file: the reference reports what the filtered scan does."""
    texts = {**APP, "web/widgets.js": "calls render\n", "web/broken.js": "render\nsyntax error\n"}
    reference = select(tmp_path, root_fd, texts, parse_all=True)
    filtered = select(tmp_path, root_fd, texts)
    assert "web/widgets.js" in reference[4].rounds[0]  # its facts were linked, its word needed
    assert reference[2] == filtered[2] == []


def test_a_parse_error_is_reported_where_the_link_asks_for_the_file(
    tmp_path: Path, root_fd: int
) -> None:
    texts = {"app.js": "route /a\nuses lib/broken.js\n", "lib/broken.js": "syntax error\n"}
    _, _, unresolved, _, link = select(tmp_path, root_fd, texts)
    assert unresolved == [Unresolved("lib/broken.js", "parse-error", "line 2: bad")]
    assert link.rounds == [["app.js"], ["app.js"]]


def test_gated_files_are_admitted_only_where_a_seed_shows_the_framework(
    tmp_path: Path, root_fd: int
) -> None:
    front_end = {"client/api.js": "route /client\n"}
    linked, *_ = select(tmp_path, root_fd, front_end)
    assert linked.resources == []
    linked, *_ = select(tmp_path, root_fd, {**front_end, "server.js": "import server\n"})
    assert [r["name"] for r in linked.resources] == ["/client"]


def test_a_repeat_links_the_files_the_last_discover_asked_for_at_once(
    tmp_path: Path, root_fd: int
) -> None:
    link = Link()
    pace = Pace(None, lambda: 0.0)
    selection = OnDemandSelection(OnDemand(admits, link), GuardedLink[str](pace.timed), pace)
    select(tmp_path, root_fd, APP, selection=selection, link=link)
    link.rounds.clear()
    select(tmp_path, root_fd, APP, selection=selection, link=link)
    assert link.rounds == [["app.js", "lib/mount.js", "lib/plugins.js"]]  # one round


def test_a_file_s_bytes_are_looked_at_for_words_only_while_they_can_ask_for_something(
    tmp_path: Path, root_fd: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each round's words are looked for in the walk's files (a file spelling one may call what
    the link needs). A file read already asks for nothing more by them, so it is not looked at;
    when the words grow, a file that held none of the last ones is looked at for the new ones
    only; the rounds and the document are what they were."""
    texts = {
        "app.js": "route /a\nuses lib/mount.js\ncalls alpha\n",
        "lib/mount.js": "calls beta\n",
        "lib/a.js": "alpha x\n",
        "lib/b.js": "beta y\n",
        "lib/c.js": "nothing\n",
    }
    looked: dict[str, int] = {}
    judge = scan_read.judge_bytes

    def counting(directories: Any, found: Found, stash: Any = None) -> bytes | None:
        looked[found.target] = looked.get(found.target, 0) + 1
        return judge(directories, found, stash)

    words_sought: list[frozenset[str]] = []
    holds = scan_select._holds_word

    def seeking(
        directories: Any, found: Found, words: frozenset[str], judged: Any, stash: Any = None
    ) -> bool:
        before = judged.get(found.target)
        words_sought.append(words - before[0] if before is not None else words)
        return holds(directories, found, words, judged, stash)

    monkeypatch.setattr(scan_select, "judge_bytes", counting)
    monkeypatch.setattr(scan_select, "_holds_word", seeking)
    linked, parsed, unresolved, _, link = select(tmp_path, root_fd, texts)
    assert [r["name"] for r in linked.resources] == ["/a"]
    assert link.rounds == [
        ["app.js"],
        ["app.js", "lib/a.js", "lib/mount.js"],  # asked for, and spelling `alpha`
        ["app.js", "lib/a.js", "lib/b.js", "lib/mount.js"],  # spelling `beta`, added
    ]
    assert parsed == 4 and unresolved == []
    # admission reads each file once; the words: lib/mount.js and lib/a.js looked at once
    # (round 1, before they were read), lib/b.js and lib/c.js twice (rounds 1 and 2), app.js
    # never (read in round 1)
    assert looked == {"app.js": 1, "lib/mount.js": 2, "lib/a.js": 2, "lib/b.js": 3, "lib/c.js": 3}
    assert frozenset({"alpha", "beta"}) not in words_sought  # the grown words: `beta` alone
    assert words_sought == [frozenset({"alpha"})] * 4 + [frozenset({"beta"})] * 2


def test_a_file_judged_then_parsed_is_read_once_and_a_full_stash_reads_again(
    tmp_path: Path, root_fd: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34 (cold cost): the selection judged every file's bytes, looked at the unread ones
    again for each round's words, then the read stage opened and read the chosen ones once
    more. The bytes judged are kept for the discover (`ByteStash`): a file is opened once,
    whatever asks for it; past the stash's limit a file is opened again, to the same end."""
    opened: list[str] = []
    open_in_dir = scan_read.open_file_in_dir
    open_in_root = scan_read.open_file_in_root

    def counting_in_dir(fd: int, name: str, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)
        return open_in_dir(fd, name, rel)

    def counting_in_root(fd: int, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)
        return open_in_root(fd, rel)

    monkeypatch.setattr(scan_read, "open_file_in_dir", counting_in_dir)
    monkeypatch.setattr(scan_read, "open_file_in_root", counting_in_root)
    once = select(tmp_path, root_fd, APP)
    assert once[4].rounds[-1] == ["app.js", "lib/mount.js", "lib/plugins.js"]
    assert sorted(opened) == sorted(APP)  # each file once: judged, looked at, parsed
    opened.clear()
    monkeypatch.setattr(scan_read, "STASH_BYTES", 0)
    again = select(tmp_path, root_fd, APP)
    assert again[:4] == once[:4] and again[4].rounds == once[4].rounds
    assert len(opened) > len(APP)  # nothing kept: judged, looked at and parsed each read


def test_the_stash_keeps_up_to_its_limit_and_gives_a_file_to_the_read_stage_once() -> None:
    stash = scan_read.ByteStash(limit=5)
    stash.keep("a.py", b"abc")
    stash.keep("b.py", b"def")  # past the limit: not kept
    stash.keep("a.py", b"xyz")  # kept already: the first bytes stay
    assert (stash.get("a.py"), stash.get("b.py"), stash.size) == (b"abc", None, 3)
    assert stash.take("a.py") == b"abc" and stash.take("a.py") is None and stash.size == 0
    stash.keep("b.py", b"def")
    stash.keep("c.py", b"g")
    stash.only({"c.py"})
    assert (stash.get("b.py"), stash.get("c.py"), stash.size) == (None, b"g", 1)
