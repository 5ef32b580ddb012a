"""The scan pipeline shared by the source-reading packs (tables, routes): paths in, document out.

Contract for a pack:

- `extract(path, source) -> facts` is pure: one file's text in, that file's facts out (any value
  the pack's `link` understands). It raises `SyntaxError` (what `ast.parse` raises) or
  `ParseFailure` for a file it cannot parse; the scanner turns either into an `unresolved`
  `parse-error` with the line, and the other files still count. Outcomes are memoized per file
  in a `gpp.plugin.sdk.FileMemo` under the stat the walk saw, so a repeated discover on a pinned
  session stats every file once and opens, reads and parses only those whose (size, mtime,
  inode) changed; one where nothing changed is the last document, and an unchanged directory
  is not listed again (`packs.repeat`).
- `link(files) -> DocumentPieces` runs across every file of the request, given as `(path, facts)` pairs
  in UTF-8 byte order of path, so it can follow imports, inheritance and mixins between files.
  It returns resources, findings and classification signals in any order: the scanner sorts
  them as DESIGN §3 orders the reference detector's output (resources and signals by (path,
  line), findings by their first location, unresolved by path; paths compare by UTF-8 bytes;
  sorts are stable, so a pack's own order breaks ties).

What the scanner does for every pack, so packs never touch the filesystem:

- A requested path is a file or a directory (`.` = the root). Directories are walked with names
  in UTF-8 byte order, skipping hidden names (but `.well-known`, and a file the pack reads
  by its very name, its `named`: `.env.example`), virtualenvs (`venv`, or any directory holding
  `pyvenv.cfg`), `node_modules`, `__pycache__`, `site-packages`, test code (`tests/`, `test/`,
  `spec/`, `__tests__/`, `test_*.py`, `conftest.py`, `*.test.*`, `*.spec.*`: not the app's
  resources) and every symlink; `dist` and
  `build` directories, `*.min.js` files and JavaScript/TypeScript with a line of 1,000+
  characters of code (outside strings and comments) starting in its first 4 KB are generated code: skipped, each an `unsupported` entry. A
  named path may be a symlink that stays inside the root. The walk is iterative with
  a bounded number of open descriptors (`gpp.plugin.repo_files.walk_in_root`): no depth drops a file.
  An entry no document could name (not UTF-8, a backslash, a leading drive letter) is an
  `unsupported` entry at its directory, a directory that cannot be listed `unreadable`.
- Every file is looked up in the memo first; the misses are opened, read and extracted on every
  usable CPU (`packs.fan_out`: forked workers, results put back in order, a failed worker's
  files read again here), so a cold discover of a large repository is not bound to one core.
- Files are opened through `gpp.plugin.repo_files` (an `openat` chain with `O_NOFOLLOW`, confirmed by
  `fstat`), so a symlink swapped in after the check is never read.
- Unresolved reasons: a named path missing → `not-found`; a named file without one of the pack's
  suffixes (or a name it takes, `named`) → `unsupported`; over `MAX_FILE_BYTES` → `too-large`; not UTF-8, unreadable, not a
  regular file or a symlink out of the root → `unreadable`; a syntax error → `parse-error`.
- A pack may parse fewer files on a cold scan: a Python pack's byte pre-filter (`keywords=`,
  `packs.prefilter`), or one driven by its linker (`on_demand=`, `OnDemand`: pack-http-routes);
  `parse_all=True` is the reference both are held to, byte for byte.
- Anything else a reader raises on one file (in `extract`, here or in a worker, or in `link` on
  that file's facts) is a `READER_ERROR` finding at the file, its detail naming the exception's
  type and the reader's line: one file a reader cannot handle never fails the document.
"""

from __future__ import annotations

import errno
import gc
import os
import re
import stat
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, NamedTuple, TypeVar

from gpp.plugin import FileMemo, Missing, repo_files, request_budget_ms

from .fan_out import MIN_ITEMS_PER_WORKER, fan_out
from .prefilter import (
    AssignedNames,
    Assignments,
    ByteFacts,
    Fields,
    Follow,
    Keyword,
    assignments,
    byte_facts,
    needed,
)
from .pymodules import REPOSITORY_PACKAGES, packages_of
from .repeat import DocumentMemo, Listings, Seen, file_stamp, unchanged

# the repository reads, by name: the tests put stand-ins here (a slow walk, a counting open)
NotRegularFile = repo_files.NotRegularFile
name_problem = repo_files.name_problem
open_dir_in_root = repo_files.open_dir_in_root
open_file_in_dir = repo_files.open_file_in_dir
open_file_in_root = repo_files.open_file_in_root
open_root = repo_files.open_root
resolve_in_root = repo_files.resolve_in_root
walk_in_root = repo_files.walk_in_root

F = TypeVar("F")

JSONObject = dict[str, Any]

MAX_FILE_BYTES = 2 * 1024 * 1024
SKIPPED_DIRECTORIES = frozenset({"venv", "node_modules", "__pycache__", "site-packages"})
SERVED_HIDDEN = frozenset({".well-known"})
"""The one hidden name the walk enters: a URL path segment (RFC 8615) that file-system routers
serve (Next.js's `app/.well-known/…/route.ts`)."""
GENERATED_DIRECTORIES = frozenset({"dist", "build"})
"""Build output: skipped like the others, but said (`unsupported`, generated): routes or tables
written there would be copies of the source's, or bundles no reader can follow."""
GENERATED = "generated code is not read"
TEST_DIRECTORIES = frozenset({"tests", "test", "spec", "__tests__"})
"""Test code: its tables, models and servers are fixtures of the tests, not the app's (a test
server under `spec/` listed as the app's routes; a test model's table a false duplicate of the
app's). Every pack leaves out these folders, and the test files `is_test_file` names, below a
walked directory; a file named in the request is read whatever its name."""
MINIFIED_SUFFIXES = (".min.js", ".min.mjs", ".min.cjs")
MINIFIED_LINE = 1000
"""A line with this many characters of code (outside string and template literals and comments),
starting within the first `MINIFIED_HEAD` bytes of a JavaScript or TypeScript file, marks a
minified bundle (11.5 MB of theme bundles cost one repository 3.7 s for 0 routes); a long string
alone (an embedded document, a data URI) does not."""
MINIFIED_HEAD = 4096
VIRTUALENV_MARKER = "pyvenv.cfg"
READER_ERROR = "READER_ERROR"
DEADLINE_REACHED = "DEADLINE_REACHED"
SOFT_DEADLINE_SHARE = 0.5
"""Of `request_ms`, the share by which a discover has walked, judged, read and linked what it
answers (reading stops when the link it would then owe passes it); the other half is for
rendering, sending and checking the document, and for a loaded machine's scheduling: the host
kills the plugin at `request_ms`, so the soft deadline sits well inside the hard one."""
DEADLINE_BATCH = 256
"""At most this many files read between two looks at the clock when a deadline is set (fewer
when the time left at the rate measured so far is shorter)."""
FIRST_BATCH = 4
"""Files read before the first look at the clock, when no read rate has been measured yet."""
LINK_SHARE_GUESS = 0.5
"""Before a link has been timed: linking a file is taken to cost this share of reading it."""


class _DeadlinePassed(Exception):
    """Raised inside a phase that cannot stop part-way (the pre-filter's link-following) when the
    soft deadline passes: what it computed stays in the memos, so a repeat goes further."""


class ParseFailure(Exception):
    """An `extract` cannot make sense of a file: reported as `parse-error` at `line`."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Unresolved:
    """Why a path gave nothing: one `UnresolvedReason` of the result document."""

    path: str
    reason: str
    detail: str

    def as_json(self) -> JSONObject:
        return {"path": self.path, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class ReaderError:
    """A reader (`extract`, or `link` on this file's facts) raised: a `READER_ERROR` finding at
    the file, so one file a reader cannot handle never fails the whole document (DESIGN §8)."""

    path: str
    detail: str

    def as_json(self) -> JSONObject:
        location = {"path": self.path, "line": 1}
        return {"code": READER_ERROR, "detail": self.detail, "locations": [location]}


def reader_error(path: str, exc: BaseException) -> ReaderError:
    """The finding for `exc`, raised by a reader on `path`: its type and message, and the
    reader's own line that raised (the innermost frame), for a bug report."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    message = str(exc).splitlines()[0][:200] if str(exc) else ""
    detail = f"{type(exc).__name__}{where}" + (f": {message}" if message else "")
    return ReaderError(path, f"the reader failed on this file: {detail}")


@dataclass
class DocumentPieces:
    """What `link` found across the request's files, in the document's own shapes."""

    resources: list[JSONObject] = field(default_factory=list)
    findings: list[JSONObject] = field(default_factory=list)
    signals: list[JSONObject] = field(default_factory=list)
    # for an `OnDemand` scan: the files whose facts linking asked for, and names whose files
    # it needs parsed too (`OnDemand`)
    touched: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Listed:
    """What a walk decided about one directory's entries (`Scanner._walk`): the files the
    pack takes (their names, and their paths from the root), the subdirectories it enters,
    what it reports as skipped, in walk order."""

    files: tuple[str, ...]
    paths: tuple[str, ...]
    subdirectories: tuple[str, ...]
    skipped: tuple[Unresolved, ...]


class Found(NamedTuple):
    """A file to read: where it lies inside the root, and its stat when it was found (the
    memo's key; the open that follows re-checks every component). A tuple: a walk makes one
    per file, a repeat too."""

    target: str
    stat: os.stat_result


def soft_deadline_ms() -> float | None:
    """How long a discover may spend reading files before it answers with what it has: a share
    of the host's `request_ms` (the SDK's `request_budget_ms`), None when the host did not say."""
    request_ms = request_budget_ms()
    return None if request_ms is None else request_ms * SOFT_DEADLINE_SHARE


Extract = Callable[[str, str], F]
Link = Callable[[Sequence[tuple[str, F]]], DocumentPieces]


class Admission(Enum):
    """What an `OnDemand` pre-filter says of a file's bytes. A file can add facts of its own
    (`YES`), or only where a framework it could serve is in use (`GATED`: a member call
    `x.get('/x')` of a front-end script is an HTTP client's unless the repository uses a web
    framework of its language); `SEED` shows that framework in use (an import of its package),
    which admits the walk's `GATED` files too. `True` and `False` read as `YES` and `NO`."""

    NO = "no"
    YES = "yes"
    SEED = "seed"
    GATED = "gated"

    def __bool__(self) -> bool:
        """Whether the file may be parsed for its own bytes (`GATED`: where a `SEED` is)."""
        return self is not Admission.NO


@dataclass(frozen=True)
class OnDemand(Generic[F]):
    """A pre-filter driven by the linker itself (pack-http-routes): parse the files whose
    bytes `admits` (those that can declare or register something), link them given the
    names of every file of the walk, then parse what linking asked for (`DocumentPieces.touched`:
    files whose facts it looked up; `DocumentPieces.words`: names whose files may call a function it
    needs every call of) and link again, until it asks for nothing new. The last link saw
    every file it looked at, and every file that can add facts of its own was admitted, so
    it is the link of every file. `parse-error` and a reader's error are reported for the
    admitted and asked-for files only, in both modes (`Scanner(parse_all=True)` too)."""

    admits: Callable[[str, bytes], bool | Admission]
    link: Callable[[Sequence[tuple[str, F]], Collection[str], Collection[str]], DocumentPieces]
    """`link(files, paths, failed)`: `paths` every file of the walk that may hold facts,
    `failed` those read and found unreadable or unparsable."""


class Scanner(Generic[F]):
    """One pack's discover: walk, open safely, extract through the memo, link, sort.

    Keep one per plugin process (the memo lives in it); `discover` is the GPP/3 handler.
    """

    def __init__(
        self,
        suffixes: Iterable[str],
        extract: Extract[F],
        link: Link[F],
        *,
        language: str,
        root: str = ".",
        memo: FileMemo[F | Unresolved | ReaderError] | None = None,
        workers: int | None = None,
        min_files_per_worker: int = MIN_ITEMS_PER_WORKER,
        deadline_ms: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        deadline_batch: int = DEADLINE_BATCH,
        keywords: Sequence[Keyword] | None = None,
        base_keywords: Sequence[str] = (),
        follow: Follow = "imports",
        fields: Fields | None = None,
        parse_all: bool = False,
        on_demand: OnDemand[F] | None = None,
        named: Callable[[str], bool] | None = None,
    ) -> None:
        self.suffixes = tuple(suffixes)
        # files a pack reads by a name no suffix says (`tsconfig.base.json`, `requirements.txt`):
        # the walk takes those whose repo-relative path this accepts, besides those ending in
        # one of `suffixes`
        self.named = named
        self.extract = extract
        self.link = link
        self.language = language
        self.root = root
        self.memo: FileMemo[F | Unresolved | ReaderError] = memo if memo is not None else FileMemo()
        self.workers = workers  # None: one per usable CPU (`fan_out`)
        self.min_files_per_worker = min_files_per_worker
        self._last_link: tuple[list[tuple[str, F]], frozenset[str], DocumentPieces] | None = None
        # Past this many ms of reading, a discover answers with what it has and a
        # DEADLINE_REACHED finding; what it read stays in the memo, so a repeated request
        # goes on from there instead of starting cold (and timing out) again.
        self.deadline_ms = deadline_ms if deadline_ms is not None else soft_deadline_ms()
        self.clock = clock
        self.deadline_batch = deadline_batch
        # A Python pack's pre-filter (`packs.prefilter`): only files that mention one of these,
        # or are linked to one that does, are parsed. None: every file is.
        self.keywords = tuple(keywords) if keywords is not None else None
        self.base_keywords = tuple(base_keywords)
        self.follow: Follow = follow
        self.fields = fields
        # The reference a filtered scan is held to (tests, `make bench`): every file parsed and
        # linked, and still `parse-error` only where the pre-filter admits the file.
        self.parse_all = parse_all
        self._bytes_memo: FileMemo[ByteFacts] = FileMemo()
        self._assignments_memo: FileMemo[Assignments] = FileMemo()
        self._last_needed: tuple[dict[str, ByteFacts], set[str]] | None = None
        self.on_demand = on_demand
        self._admits_memo: FileMemo[bool | Admission] = FileMemo()
        self._last_wanted: set[str] = set()
        self._started = 0.0  # when the discover under way started (`clock`)
        self._not_walked: list[str] = []  # directories its walk did not enter (the deadline)
        self._packages: frozenset[str] = frozenset()  # the folders of its walk that are packages
        self._read_s_per_file: float | None = None  # measured on the batches read so far
        self._link_s_per_file: float | None = None  # measured on the last link
        # files read and extracted (or taken from the memo) by the last discover; a document
        # taken whole from `documents` counts those of the discover that made it
        self.parsed = 0
        # a repeat of an unchanged repository (`packs.repeat`): each unchanged directory's
        # verdicts, and the last document under the fingerprint of its inputs
        self.listings: Listings[_Listed] = Listings()
        self.documents = DocumentMemo()
        self._volatile = False  # the discover under way read a file a repeat must try again
        # the last document's whole tree (a request of `.`), checked first by a repeat of it,
        # with the readers and options it was made with
        self._tree: tuple[list[Seen], tuple[object, ...]] | None = None
        self._walked: list[str] = []  # the directories the discover under way walked, in order
        self._listed_by: tuple[object, ...] | None = None  # the readers the listings judged for

    def discover(self, paths: list[str]) -> JSONObject:
        # A cold discover allocates millions of AST nodes while the memo holds what the files
        # before gave; with the cyclic collector on, each full pass re-walks all of it, a cost
        # that grows with the repository. Trees and facts hold no cycles (reference counting
        # frees them), so the collector waits until the discover is done.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._discover(paths)
        finally:
            if collecting:
                gc.enable()

    def _discover(self, paths: list[str]) -> JSONObject:
        """Walk; then the last document if nothing it was made from changed (`packs.repeat`),
        else read, link and render, and keep that document when it is the whole answer."""
        self._started = self.clock()
        unresolved: list[Unresolved] = []
        files: dict[str, Found] = {}  # by the path reported
        self._not_walked = []
        self._walked = []
        self._volatile = False
        root_fd = open_root(self.root)
        try:
            tree = self._tree if paths == ["."] else None
            # nothing the last document was made from changed: it is the answer
            if tree is not None and tree[1] == self._readers() and unchanged(root_fd, tree[0]):
                document = self.documents.recall(None)
                if document is not None:
                    return document
            self._tree = None
            if self._listed_by != self._readers():  # names judged for other suffixes, say
                self.listings.clear()
                self._listed_by = self._readers()
            for path in paths:
                problem = self._locate(root_fd, path, files)
                if isinstance(problem, list):
                    unresolved += problem
                elif problem is not None:
                    unresolved.append(problem)
            fingerprint = None if self._not_walked else self._fingerprint(paths, files, unresolved)
            if fingerprint is not None:
                document = self.documents.recall(fingerprint)
                if document is not None:
                    return document
            not_reached: list[str] = []
            document = self._discover_walked(root_fd, files, unresolved, not_reached)
        finally:
            os.close(root_fd)
        if fingerprint is not None and not not_reached and not self._volatile:
            self.documents.remember(fingerprint, document)
            if paths == ["."]:
                self._tree = self._whole_tree(files)
        else:
            self.documents.forget()
        return document

    def _whole_tree(self, files: dict[str, Found]) -> tuple[list[Seen], tuple[object, ...]] | None:
        """What `unchanged` checks of the walk just made from the root: every directory it
        walked, in order, with the stamp its verdicts are kept under and its files' stamps;
        None when some directory's verdicts are not kept (changed too recently) or some
        directory was not walked (it could not be listed)."""
        tree: list[Seen] = []
        below = 0
        for directory in self._walked:
            kept = self.listings.kept(directory)
            if kept is None:
                return None
            stamp, listed = kept
            stamps = tuple(file_stamp(files[path].stat) for path in listed.paths)
            tree.append(Seen(directory, stamp, listed.files, stamps, bool(listed.subdirectories)))
            below += len(listed.subdirectories)
        if not tree or tree[0].directory != "." or below + 1 != len(tree):
            return None
        return tree, self._readers()

    def _readers(self) -> tuple[object, ...]:
        """The scanner's readers (the objects themselves, compared as they compare: a test may
        swap one in, and an id could be a collected one's) and options."""
        readers = (self.extract, self.link, self.on_demand, self.named, self.fields)
        options = (self.suffixes, self.language, self.parse_all, self.keywords, self.follow)
        return (*readers, options, self.base_keywords)

    def _fingerprint(
        self, paths: list[str], files: dict[str, Found], unresolved: list[Unresolved]
    ) -> tuple[object, ...]:
        """What the document is a function of: the request, every file walked with its memo
        stamp (size, mtime, inode), what the walk reported, and the scanner's readers and
        options (the same objects: a test may swap one in)."""
        stamps = tuple(
            (rel, found.target, found.stat.st_size, found.stat.st_mtime_ns, found.stat.st_ino)
            for rel, found in files.items()
        )
        return tuple(paths), stamps, tuple(unresolved), self._readers()

    def _discover_walked(
        self,
        root_fd: int,
        files: dict[str, Found],
        unresolved: list[Unresolved],
        not_reached: list[str],
    ) -> JSONObject:
        """Read what the walk found (`files`), link and render (adds to `not_reached`)."""
        started = self._started
        facts: list[tuple[str, F]] = []
        failed: list[ReaderError] = []
        rels = sorted(files, key=utf8)
        self._packages = packages_of(rels)
        if self.on_demand is not None:
            linked = self._on_demand(
                root_fd, rels, files, started, not_reached, unresolved, failed, self.on_demand
            )
            return self._document(linked, failed, not_reached, unresolved)
        admitted: set[str] | None = None
        if self.keywords is not None:
            admitted = set(self._prefilter(root_fd, rels, files, self.keywords))
            if self._past_deadline(started) and not self.parse_all:
                # judged in part, or the links between files not followed to the end: no
                # file is known to be needed or not, so none is read this time
                not_reached += rels
                rels = []
            elif not self.parse_all:
                rels = [rel for rel in rels if rel in admitted]
        read = self._read_all(root_fd, rels, files, started, not_reached)
        self.parsed = len(read)
        for rel, outcome in read:
            if isinstance(outcome, Unresolved):
                if admitted is not None and rel not in admitted and outcome.reason == "parse-error":
                    continue  # what the pre-filter does not admit cannot matter (above)
                unresolved.append(outcome)
            elif isinstance(outcome, ReaderError):
                failed.append(outcome)
            else:
                facts.append((rel, outcome))
        linked = self._link_guarded(facts, failed)
        return self._document(linked, failed, not_reached, unresolved)

    def _document(
        self,
        linked: DocumentPieces,
        failed: list[ReaderError],
        not_reached: list[str],
        unresolved: list[Unresolved],
    ) -> JSONObject:
        findings = linked.findings + [f.as_json() for f in failed]
        not_reached = [*self._not_walked, *not_reached]
        if not_reached:
            findings.append(self._deadline_finding(not_reached))
        return {
            "resources": sorted(linked.resources, key=lambda r: at(r["location"])),
            "unresolved": [u.as_json() for u in sorted(unresolved, key=lambda u: utf8(u.path))],
            "findings": sorted(findings, key=lambda f: at(f["locations"][0])),
            "classificationSignals": sorted(linked.signals, key=lambda s: at(s["source"])),
        }

    def _on_demand(
        self,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        started: float,
        not_reached: list[str],
        unresolved: list[Unresolved],
        failed: list[ReaderError],
        on_demand: OnDemand[F],
    ) -> DocumentPieces:
        """Read the admitted files, link, read what linking asked for, link again... (see
        `OnDemand`); every file when `parse_all`. Adds to `unresolved` and `failed`."""
        directories = _Directories(root_fd)
        try:
            admitted = self._admitted(directories, rels, files, on_demand)
            if self._past_deadline(started) and not self.parse_all:
                not_reached += rels  # not every file judged: none is known to matter or not
                rels = []
            # what the last discover asked for too: parsing a file more changes nothing (it has no
            # facts of its own, and no call named by `words`), and an unchanged repository then
            # links once, with the very facts of last time (`RouteDocumentMemo` answers from its memo)
            chosen = set(rels) if self.parse_all else admitted | (self._last_wanted & set(rels))
            outcomes: dict[str, F | Unresolved | ReaderError] = {}
            holding: dict[str, bool] = {}  # whether a file's bytes name one of `words`
            words: frozenset[str] = frozenset()
            while True:
                todo = [rel for rel in rels if rel in chosen and rel not in outcomes]
                outcomes.update(
                    self._read_all(root_fd, todo, files, started, not_reached, len(outcomes))
                )
                bad = {
                    rel for rel, o in outcomes.items() if isinstance(o, Unresolved | ReaderError)
                }
                paths = [rel for rel in rels if rel not in bad]
                facts = [
                    (rel, o)
                    for rel in rels
                    if rel in outcomes
                    and not isinstance(o := outcomes[rel], Unresolved | ReaderError)
                ]
                link_failed: list[ReaderError] = []
                linked = self._link_guarded(
                    facts, link_failed, _with_paths(on_demand.link, paths, sorted(bad))
                )
                if linked.words != words:
                    words = linked.words
                    holding.clear()
                # chosen files are judged too (by the last words): a parse error is reported
                # where the last link's words ask for the file, in both modes alike
                unjudged = [r for r in rels if words and r not in holding]
                for number, rel in enumerate(unjudged):
                    if self._past_deadline(started) and not self.parse_all:
                        not_reached += unjudged[number:]  # may call what linking needs
                        break
                    holding[rel] = self._holds_word(directories, files[rel], words)
                wanted = set(linked.touched) | {rel for rel, hit in holding.items() if hit}
                new = {rel for rel in wanted if rel in files} - chosen
                if not new or not_reached:
                    break
                chosen |= new
            self.parsed = len(outcomes)
            self._last_wanted = set(chosen)  # every file the last link read, not only those
            # its last round asked for: a repeat then links the very facts of last time, once
            reported = admitted | wanted
            for rel in rels:
                outcome = outcomes.get(rel)
                if isinstance(outcome, Unresolved):
                    if outcome.reason == "parse-error" and rel not in reported:
                        continue  # neither admitted nor asked for: cannot matter, parsed or not
                    unresolved.append(outcome)
                elif isinstance(outcome, ReaderError) and rel in reported:
                    failed.append(outcome)
            failed += link_failed
            return linked
        finally:
            directories.close()

    def _admitted(
        self,
        directories: _Directories,
        rels: list[str],
        files: dict[str, Found],
        on_demand: OnDemand[F],
    ) -> set[str]:
        """The files `on_demand.admits` by their bytes (memoized per file stamp); a file whose
        bytes cannot be judged, or a minified bundle, is admitted: reading it reports it as
        without the filter. `GATED` files are admitted when some file of the walk is a `SEED`."""
        admitted: set[str] = set()
        gated: list[str] = []
        seeded = False
        for rel in rels:
            found = files[rel]
            if found.stat.st_size > MAX_FILE_BYTES:
                admitted.add(rel)
                continue
            value = self._admits_memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                if not self.parse_all and self._past_deadline(self._started):
                    break  # judged so far stays in the memo: a repeat goes on from here
                data = self._judge_bytes(directories, found)
                value = (
                    data is None  # reported as unreadable, as it would be parsed
                    or (not rel.endswith(".py") and _minified(data))  # reported as generated
                    or on_demand.admits(rel, data)
                )
                self._admits_memo.store(rel, found.stat, value, cost=64)
            if value is Admission.GATED:
                gated.append(rel)
            elif value is Admission.SEED:
                seeded = True
                admitted.add(rel)
            elif value is True or value is Admission.YES:
                admitted.add(rel)
        if seeded:
            admitted.update(gated)
        return admitted

    def _holds_word(self, directories: _Directories, found: Found, words: frozenset[str]) -> bool:
        """Whether a file's bytes spell one of `words` (a file that cannot be judged does)."""
        data = self._judge_bytes(directories, found)
        return data is None or any(word.encode() in data for word in words)

    def _link_guarded(
        self,
        facts: list[tuple[str, F]],
        failed: list[ReaderError],
        link: Link[F] | None = None,
    ) -> DocumentPieces:
        """`_link` (or `link`, given), and when it raises, the files whose facts make it raise
        on their own are set aside (each a `READER_ERROR` in `failed`) and the rest linked
        again; should that still raise, every file is linked alone (cross-file resolution
        lost, said in one finding)."""
        # the link resolves imports knowing every folder that is a package (`pymodules`)
        token = REPOSITORY_PACKAGES.set(self._packages)
        try:
            return self._link_guarded_in(facts, failed, link)
        finally:
            REPOSITORY_PACKAGES.reset(token)

    def _link_guarded_in(
        self,
        facts: list[tuple[str, F]],
        failed: list[ReaderError],
        link: Link[F] | None,
    ) -> DocumentPieces:
        whole = self._link if link is None else self._timed(link)
        alone_link = self.link if link is None else link
        try:
            return whole(facts)
        except Exception as exc:  # any reader bug becomes a finding
            first = exc
        kept: list[tuple[str, F]] = []
        for rel, value in facts:
            try:
                alone_link([(rel, value)])
            except Exception as exc:
                failed.append(reader_error(rel, exc))
            else:
                kept.append((rel, value))
        try:
            return whole(kept)
        except Exception as exc:
            first = exc
        merged = DocumentPieces()
        for rel, value in kept:
            alone = alone_link([(rel, value)])
            merged.resources += alone.resources
            merged.findings += alone.findings
            merged.signals += alone.signals
        if kept:
            error = reader_error(kept[0][0], first)
            detail = f"{error.detail} (across files: each file was linked alone)"
            failed.append(ReaderError(error.path, detail))
        return merged

    def _link(self, facts: list[tuple[str, F]]) -> DocumentPieces:
        """`link`, or the last link's result when every file's facts are the very same objects
        (all memo hits, same files) and the walk found the same packages: a repeated discover
        of an unchanged repo skips the link."""
        packages = self._packages  # which imports resolve inside the repository
        if self._last_link is not None:
            last, last_packages, linked = self._last_link
            if (
                last_packages == packages
                and len(last) == len(facts)
                and all(a[0] == b[0] and a[1] is b[1] for a, b in zip(last, facts, strict=True))
            ):
                return linked
        linked = self._timed(self.link)(facts)
        self._last_link = (facts, packages, linked)  # the facts held keep identities meaningful
        return linked

    def _timed(self, link: Link[F]) -> Link[F]:
        """`link`, measuring what linking a file costs (`_batch_size` counts it in)."""

        def timed(facts: Sequence[tuple[str, F]]) -> DocumentPieces:
            began = self.clock()
            linked = link(facts)
            self._link_s_per_file = (self.clock() - began) / max(1, len(facts))
            return linked

        return timed

    def _locate(
        self, root_fd: int, path: str, files: dict[str, Found]
    ) -> Unresolved | list[Unresolved] | None:
        """Add the files `path` names to `files`, or say why it gives none."""
        try:
            info = os.stat(path, dir_fd=root_fd)  # follows links: a dangling one is not found
        except OSError:
            return Unresolved(path, "not-found", "no such file or directory")
        target = resolve_in_root(self.root, path)
        if target is None:
            return Unresolved(path, "unreadable", "symlink leads outside the repository")
        if stat.S_ISDIR(info.st_mode):
            skipped: list[Unresolved] = []
            self._walk(root_fd, target, files, skipped)
            return skipped or None
        if not self._takes(path):
            return Unresolved(path, "unsupported", f"not a {self.language} file")
        files[path] = Found(target, info)
        return None

    def _named(self, path: str) -> bool:
        """Whether the pack reads the file at this repo-relative path by its name (a hidden one
        too: `.env.example`; `requirements/base.txt` is named by its folder)."""
        return self.named is not None and self.named(path)

    def _takes(self, path: str) -> bool:
        """Whether the file at this repo-relative path is one the pack reads: by its suffix, or
        by `named`."""
        return path.endswith(self.suffixes) or self._named(path)

    def _walk(
        self, root_fd: int, directory: str, files: dict[str, Found], skipped: list[Unresolved]
    ) -> None:
        """Add the files below the in-root `directory` to `files`, and to `skipped` what a
        reader would have looked at but no document can name: an entry whose name is not
        UTF-8, or is no repo-relative path (a backslash, a leading drive letter), and a
        directory that cannot be listed. Iterative with bounded descriptors (`walk_in_root`),
        so neither depth nor a low descriptor limit drops a file."""

        def visit(fd: int, here: str, entries: list[os.DirEntry[str]]) -> list[str]:
            prefix = "" if here == "." else f"{here}/"
            if any(e.name == VIRTUALENV_MARKER for e in entries):
                self.listings.remember(here, _Listed((), (), (), ()))
                self._walked.append(here)
                return []
            taken: list[str] = []
            paths: list[str] = []
            subdirectories: list[str] = []
            said: list[Unresolved] = []
            for entry in entries:
                name = entry.name
                if (
                    name.startswith(".")
                    and name not in SERVED_HIDDEN
                    and not self._named(prefix + name)
                ):
                    continue
                is_dir = entry.is_dir(follow_symlinks=False)
                if is_dir:
                    if name in SKIPPED_DIRECTORIES or name in TEST_DIRECTORIES:
                        continue
                    if name in GENERATED_DIRECTORIES:
                        detail = f"{GENERATED} (a {name}/ directory)"
                        said.append(Unresolved(prefix + name, "unsupported", detail))
                        continue
                elif not (
                    entry.is_file(follow_symlinks=False) and self._takes(prefix + name)
                ) or is_test_file(name):
                    continue
                problem = name_problem(name, prefix + name)
                if problem is not None:
                    said.append(Unresolved(here, "unsupported", problem))
                elif is_dir:
                    subdirectories.append(name)
                elif name.endswith(MINIFIED_SUFFIXES):
                    detail = f"{GENERATED} (a minified bundle)"
                    said.append(Unresolved(prefix + name, "unsupported", detail))
                else:
                    path = prefix + name
                    files[path] = Found(path, entry.stat(follow_symlinks=False))
                    taken.append(name)
                    paths.append(path)
            listed = _Listed(tuple(taken), tuple(paths), tuple(subdirectories), tuple(said))
            self.listings.remember(here, listed)
            self._walked.append(here)
            skipped.extend(said)
            return entered(here, subdirectories)

        def recall(fd: int, here: str) -> list[str] | None:
            """The verdicts on `here` kept from an earlier walk while its entries are the same
            (`packs.repeat.Listings`), its files `stat`ed afresh; None: list it (`visit`)."""
            try:
                listed = self.listings.recall(here, os.fstat(fd))
                if listed is None:
                    return None
                stats = [os.stat(name, dir_fd=fd, follow_symlinks=False) for name in listed.files]
            except OSError:  # gone while walked: listing it says what is there now
                self.listings.forget(here)
                return None
            if not all(map(stat.S_ISREG, (info.st_mode for info in stats))):
                self.listings.forget(here)
                return None
            files.update(zip(listed.paths, map(Found, listed.paths, stats), strict=True))
            skipped.extend(listed.skipped)
            self._walked.append(here)
            return entered(here, listed.subdirectories)

        def entered(here: str, subdirectories: Sequence[str]) -> list[str]:
            """The subdirectories to walk: none past the deadline (this directory's files are
            found, those below it are not: each is said not walked)."""
            if not self.parse_all and self._past_deadline(self._started):
                prefix = "" if here == "." else f"{here}/"
                self._not_walked += [prefix + name for name in subdirectories]
                return []
            return list(subdirectories)

        for failed in walk_in_root(root_fd, directory, visit, recall=recall):
            skipped.append(Unresolved(failed, "unreadable", "directory cannot be listed"))

    def _prefilter(
        self, root_fd: int, rels: list[str], files: dict[str, Found], keywords: Sequence[Keyword]
    ) -> list[str]:
        """`rels` less the Python files that cannot matter (`packs.prefilter`). A file whose
        bytes cannot be judged (unreadable, too large, not UTF-8) is kept: reading it reports
        it exactly as without the filter."""
        directories = _Directories(root_fd)
        try:
            return self._prefilter_in(directories, rels, files, keywords)
        except _DeadlinePassed:
            return rels  # not followed to the end: the caller reads nothing this time
        finally:
            directories.close()

    def _prefilter_in(
        self,
        directories: _Directories,
        rels: list[str],
        files: dict[str, Found],
        keywords: Sequence[Keyword],
    ) -> list[str]:
        judged: dict[str, ByteFacts] = {}
        kept: set[str] = set()
        read: dict[str, bytes] = {}  # this discover's reads, for `assigned`
        for rel in rels:
            found = files[rel]
            if (
                not rel.endswith(".py")
                or found.stat.st_size > MAX_FILE_BYTES
                or (self.named is not None and self.named(rel))  # taken by name: `setup.py`
            ):
                kept.add(rel)
                continue
            value = self._bytes_memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                self._check_deadline()  # what was judged stays in the memo
                data = self._judge_bytes(directories, found)
                if data is None:
                    kept.add(rel)
                    continue
                read[rel] = data
                value = byte_facts(rel, data, keywords, self.base_keywords, self.fields)
                cost = 64 + 32 * (len(value.imports) + len(value.bases))
                self._bytes_memo.store(rel, found.stat, value, cost=cost)
            judged[rel] = value

        def source(rel: str) -> bytes:
            data = read.get(rel)
            if data is None:
                data = read[rel] = self._judge_bytes(directories, files[rel]) or b""
            return data

        def assigned(rel: str) -> Assignments:
            found = files[rel]
            value = self._assignments_memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                self._check_deadline()
                value = assignments(source(rel))
                self._assignments_memo.store(
                    rel, found.stat, value, cost=64 + 32 * len(value.values)
                )
            return value

        names: dict[str, AssignedNames] = {}  # what each file may assign

        def assigns(rel: str, name: str) -> bool:
            value = self._assignments_memo.lookup(rel, files[rel].stat)
            if not isinstance(value, Missing):
                return name in value.values
            if rel not in names:
                names[rel] = AssignedNames(source(rel))
            return name in names[rel]

        def complete(rel: str) -> ByteFacts:
            self._check_deadline()
            data = source(rel)
            value = byte_facts(rel, data, keywords, self.base_keywords, self.fields, complete=True)
            self._bytes_memo.store(rel, files[rel].stat, value, cost=64 + 32 * len(value.imports))
            return value

        last = self._last_needed
        if (
            last is not None
            and len(last[0]) == len(judged)
            and all(judged.get(rel) is value for rel, value in last[0].items())
        ):
            chosen = last[1]  # every file's bytes as the last discover judged them
        else:
            chosen = needed(
                judged,
                assigned,
                self.follow,
                self.base_keywords,
                complete,
                self.fields,
                assigns,
                self._packages,
            )
            self._last_needed = (dict(judged), chosen)
        kept |= chosen
        return [rel for rel in rels if rel in kept]

    def _judge_bytes(self, directories: _Directories, found: Found) -> bytes | None:
        """A file's bytes for the pre-filter, or None when they cannot be judged."""
        try:
            fd, info = directories.open_file(found.target)
        except OSError:
            return None
        try:
            # one read: fewer bytes than asked is the end of a regular file; a file that grew
            # since the walk reads on as `read_file_in_root` would
            data = os.read(fd, min(info.st_size + 1, MAX_FILE_BYTES + 1))
            while len(data) > info.st_size and len(data) <= MAX_FILE_BYTES:
                chunk = os.read(fd, MAX_FILE_BYTES + 1 - len(data))
                if not chunk:
                    break
                data += chunk
            if not data.isascii():  # most source is: no decoding to tell it is UTF-8
                data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        finally:
            os.close(fd)
        return data if len(data) <= MAX_FILE_BYTES else None

    def _past_deadline(self, started: float, owed_s: float = 0.0) -> bool:
        """Whether the soft deadline has passed, or would have once `owed_s` more seconds of
        work (the link of what is read) were done."""
        if self.deadline_ms is None:
            return False
        return (self.clock() - started + owed_s) * 1000 >= self.deadline_ms

    def _check_deadline(self) -> None:
        """Raise `_DeadlinePassed` past the soft deadline (a phase that cannot stop part-way)."""
        if not self.parse_all and self._past_deadline(self._started):
            raise _DeadlinePassed

    def _deadline_finding(self, not_reached: list[str]) -> JSONObject:
        detail = (
            f"the scan stopped after {self.deadline_ms:.0f} ms (half of the plugin's request_ms) "
            f"with {len(not_reached)} files or folders not read yet; what was read is kept: "
            "repeat the request to go on, or raise request_ms"
        )
        locations = [{"path": rel, "line": 1} for rel in not_reached]
        return {"code": DEADLINE_REACHED, "detail": detail, "locations": locations}

    def _read_all(
        self,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        started: float,
        not_reached: list[str],
        linked_too: int = 0,
    ) -> list[tuple[str, F | Unresolved | ReaderError]]:
        """Each file's outcome, in order: from the memo while its stamp at the walk is unchanged
        (a hit opens nothing: what is returned was read, safely, when the file had this stamp),
        else read and extracted, the misses spread over the CPUs (`fan_out`). With a deadline,
        the misses are read in batches sized to the time left (`_batch_size`; `linked_too`:
        files read before, linked with these) and those left when it passes go to
        `not_reached` (and are left out of the outcomes)."""
        outcomes: dict[str, F | Unresolved | ReaderError] = {}
        misses: list[tuple[str, Found]] = []
        for rel in rels:
            found = files[rel]
            if found.stat.st_size > MAX_FILE_BYTES:
                outcomes[rel] = Unresolved(rel, "too-large", f"larger than {MAX_FILE_BYTES} bytes")
                continue
            value = self.memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                misses.append((rel, found))
            else:
                outcomes[rel] = value
        start = 0
        while start < len(misses):
            size = self._batch_size(started, len(misses) - start, linked_too + len(outcomes))
            if size == 0:
                not_reached += [rel for rel, _ in misses[start:]]
                break
            part = misses[start : start + size]
            began = self.clock()
            read = fan_out(
                lambda miss: self._read_missing(root_fd, *miss),
                part,
                workers=self.workers,
                min_items_per_worker=self.min_files_per_worker,
            )
            self._read_s_per_file = (self.clock() - began) / len(part)
            for (rel, found), (outcome, remember) in zip(part, read, strict=True):
                if remember:
                    self.memo.store(rel, found.stat, outcome)
                else:
                    self._volatile = True  # a repeat tries this file again
                outcomes[rel] = outcome
            start += size
        return [(rel, outcomes[rel]) for rel in rels if rel in outcomes]

    def _batch_size(self, started: float, left: int, read: int) -> int:
        """How many of the `left` files to read next: all without a deadline; else as many as
        fit in half the time left once the link of the `read` files and of these is counted
        (at the rates measured so far), at most `deadline_batch`; 0 once not one more fits."""
        if self.deadline_ms is None or self.parse_all:
            return left
        read_s = self._read_s_per_file
        link_s = self._link_s_per_file
        if link_s is None:
            link_s = LINK_SHARE_GUESS * (read_s or 0.0)
        owed_s = link_s * read
        if self._past_deadline(started, owed_s):
            return 0
        if read_s is None:  # nothing timed yet: a small batch measures the rate
            return min(left, self.deadline_batch, FIRST_BATCH)
        time_left_s = self.deadline_ms / 1000 - (self.clock() - started) - owed_s
        fits = int(time_left_s / 2 / max(read_s + link_s, 1e-9))
        if fits == 0 and time_left_s >= read_s + link_s:
            fits = 1  # the last one that fits whole
        return min(left, self.deadline_batch, fits)

    def _read_missing(
        self, root_fd: int, rel: str, found: Found
    ) -> tuple[F | Unresolved | ReaderError, bool]:
        """A file's outcome and whether to remember it: a read error is not remembered, so the
        next discover tries again."""
        try:
            return self._open_and_extract(root_fd, rel, found), True
        except OSError:
            return Unresolved(rel, "unreadable", "cannot be read"), False

    def _open_and_extract(
        self, root_fd: int, rel: str, found: Found
    ) -> F | Unresolved | ReaderError:
        try:
            fd, _ = open_file_in_root(root_fd, found.target)
        except NotRegularFile:
            return Unresolved(rel, "unreadable", "not a regular file")
        except OSError as exc:  # ELOOP/ENOTDIR: a symlink appeared in the path after the check
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            return Unresolved(rel, "unreadable", "symlink not followed")
        try:
            return self._extract_fd(fd, rel)
        finally:
            os.close(fd)

    def _extract_fd(self, fd: int, rel: str) -> F | Unresolved | ReaderError:
        data = os.read(fd, MAX_FILE_BYTES + 1)
        while chunk := os.read(fd, MAX_FILE_BYTES + 1 - len(data)):
            data += chunk
        if len(data) > MAX_FILE_BYTES:  # grew after the fstat
            return Unresolved(rel, "too-large", f"larger than {MAX_FILE_BYTES} bytes")
        if not rel.endswith(".py") and _minified(data):
            return Unresolved(rel, "unsupported", f"{GENERATED} (a minified bundle)")
        try:
            source = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return Unresolved(rel, "unreadable", "not valid UTF-8")
        try:
            return self.extract(rel, source)
        except ParseFailure as exc:
            return Unresolved(rel, "parse-error", str(exc))
        except SyntaxError as exc:
            return Unresolved(rel, "parse-error", f"line {exc.lineno or 1}: {exc.msg}")
        except (ValueError, RecursionError, MemoryError) as exc:
            return Unresolved(rel, "parse-error", f"line 1: {type(exc).__name__}")
        except Exception as exc:  # a reader bug on one file: a finding there
            return reader_error(rel, exc)


def _with_paths(
    link: Callable[[Sequence[tuple[str, F]], Collection[str], Collection[str]], DocumentPieces],
    paths: Collection[str],
    failed: Collection[str],
) -> Link[F]:
    """`link` given `paths` and `failed` with every file's facts."""
    return lambda files: link(files, paths, failed)


class _Directories:
    """The pre-filter's opens: each file as `open_file_in_root` opens it (every directory of
    its path with `O_NOFOLLOW` from the root, then the file, confirmed regular), but the
    directory chain opened once for the files of a directory, not once per file (a path five
    directories deep costs six `openat`s and five `close`s; the files of one directory come
    together in path order, so a few descriptors kept, least recently used out, suffice)."""

    KEEP = 8

    def __init__(self, root_fd: int) -> None:
        self.root_fd = root_fd
        self.open: OrderedDict[str, int] = OrderedDict()

    def open_file(self, target: str) -> tuple[int, os.stat_result]:
        head, _, name = target.rpartition("/")
        if not head:
            return open_file_in_dir(self.root_fd, name, target)
        fd = self.open.get(head)
        if fd is None:
            fd = open_dir_in_root(self.root_fd, head)
            self.open[head] = fd
            if len(self.open) > self.KEEP:
                os.close(self.open.popitem(last=False)[1])
        else:
            self.open.move_to_end(head)
        return open_file_in_dir(fd, name, target)

    def close(self) -> None:
        while self.open:
            os.close(self.open.popitem()[1])


def is_test_file(name: str) -> bool:
    """A test module by its name (`test_*.py`, `conftest.py`, `*.test.*`, `*.spec.*`): left out
    of a walk with the `TEST_DIRECTORIES`."""
    if name.endswith(".py") and (name.startswith("test_") or name == "conftest.py"):
        return True
    return ".test." in name or ".spec." in name


def _minified(data: bytes) -> bool:
    """Whether a line starting in the first `MINIFIED_HEAD` bytes holds `MINIFIED_LINE` or more
    characters of code: outside string literals, template literals and comments, lexed from the
    file's start (a template literal may open lines above). A hand-written module with one long
    string (an embedded document, a data URI) has a long line but little code on it; a bundle's
    long lines are all code. One pass over the tokens, stopped at the answer: linear in the file;
    a file with no long line starting in the head is not lexed."""
    if not _long_line_in_head(data):
        return False
    code = 0  # characters of code on the current line, which starts in the head
    position = 0
    for token in _then_none(_NOT_CODE.finditer(data)):
        end = len(data) if token is None else token.start()
        first, *lines = data[position:end].split(b"\n")
        code += len(first)
        if code >= MINIFIED_LINE:
            return True
        offset = position + len(first)
        for line in lines:
            if offset + 1 >= MINIFIED_HEAD:
                return False
            code = len(line)
            if code >= MINIFIED_LINE:
                return True
            offset += 1 + len(line)
        if token is None:
            return False
        newline = data.rfind(b"\n", token.start(), token.end())
        if newline >= 0:  # a template literal or block comment ends on a later line
            if newline + 1 >= MINIFIED_HEAD:
                return False
            code = 0
        position = token.end()
    return False


def _then_none(tokens: Iterator[re.Match[bytes]]) -> Iterator[re.Match[bytes] | None]:
    """`tokens`, then None: the code after the last token is read like the code between."""
    yield from tokens
    yield None


def _long_line_in_head(data: bytes) -> bool:
    """Whether a line of `MINIFIED_LINE` bytes or more starts in the first `MINIFIED_HEAD`: one
    search over the head and the most such a line reaches past it (every script's head is
    looked at, a hundred lines each, which a loop in Python took a tenth of a cold scan to)."""
    found = _LONG_LINE.search(data, 0, MINIFIED_HEAD + MINIFIED_LINE - 1)
    return found is not None and found.start() < MINIFIED_HEAD


_LONG_LINE = re.compile(rb"^[^\n]{%d}" % MINIFIED_LINE, re.MULTILINE)


_NOT_CODE = re.compile(
    rb"'(?:[^'\\\n]|\\.)*'"  # a string on one line
    rb'|"(?:[^"\\\n]|\\.)*"'
    rb"|`(?:[^`\\]|\\.)*`"  # a template literal, on any number of lines
    rb"|//[^\n]*"  # a line comment
    rb"|/\*.*?\*/",  # a block comment
    re.DOTALL,
)
"""What is not code on a line: string and template literals, comments. Regular-expression
literals and `${…}` inside a template are not told apart (a quote inside either can shift the
lexer by a token; the answer is only the generated-code guess)."""


def utf8(path: str) -> bytes:
    return path.encode("utf-8", "surrogatepass")


def at(location: JSONObject) -> tuple[bytes, int]:
    """The sort key of a `Location`: path by UTF-8 bytes, then line."""
    return utf8(location["path"]), location["line"]
