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
- `link(files) -> DocumentPieces` runs across every file of the request, given as `(path, facts)`
  pairs in UTF-8 byte order of path, so it can follow imports, inheritance and mixins between
  files. It returns resources, findings and classification signals in any order: the scanner
  sorts them as DESIGN §3 orders the reference detector's output (resources and signals by
  (path, line), findings by their first location, unresolved by path; paths compare by UTF-8
  bytes; sorts are stable, so a pack's own order breaks ties).

What the scanner does for every pack, so packs never touch the filesystem, one stage a module
(this one only runs them in order and keeps what a repeat reuses):

- walk (`scan_walk`): the files a request names. A requested path is a file or a directory
  (`.` = the root); directories are walked in UTF-8 byte order of names, skipping hidden names
  (but `.well-known`, and a file the pack reads by its very name, its `named`: `.env.example`),
  virtualenvs (`venv`, or any directory holding `pyvenv.cfg`), `node_modules`, `__pycache__`,
  `site-packages`, test code (`tests/`, `test/`, `spec/`, `__tests__/`, `test_*.py`,
  `conftest.py`, `*.test.*`, `*.spec.*`: not the app's resources) and every symlink; `dist` and
  `build` directories, `*.min.js` files and JavaScript/TypeScript with a line of 1,000+
  characters of code (outside strings and comments) starting in its first 4 KB are generated
  code: skipped, each an `unsupported` entry. A named path may be a symlink that stays inside
  the root. The walk is iterative with a bounded number of open descriptors
  (`gpp.plugin.repo_files.walk_in_root`): no depth drops a file. An entry no document could
  name (not UTF-8, a backslash, a leading drive letter) is an `unsupported` entry at its
  directory, a directory that cannot be listed `unreadable`.
- select (`scan_select`): a pack may parse fewer files on a cold scan: a Python pack's byte
  pre-filter (`keywords=`, `packs.prefilter`), or one driven by its linker (`on_demand=`,
  `OnDemand`: pack-http-routes); `parse_all=True` is the reference both are held to, byte for
  byte. The bytes it judged are kept for the read stage (`scan_read.ByteStash`): a file judged
  and then parsed is opened and read once.
- read (`scan_read`): every file is looked up in the memo first; the misses are opened, read
  and extracted on every usable CPU (`packs.fan_out`: forked workers, results put back in
  order, a failed worker's files read again here), so a cold discover of a large repository is
  not bound to one core. Files are opened through `gpp.plugin.repo_files` (an `openat` chain
  with `O_NOFOLLOW`, confirmed by `fstat`), so a symlink swapped in after the check is never
  read.
- document (`scan_document`): the pack's link, guarded, and the document in DESIGN §3's order.
- Unresolved reasons: a named path missing → `not-found`; a named file without one of the
  pack's suffixes (or a name it takes, `named`) → `unsupported`; over `MAX_FILE_BYTES` →
  `too-large`; not UTF-8, unreadable, not a regular file or a symlink out of the root →
  `unreadable`; a syntax error → `parse-error`.
- Anything else a reader raises on one file (in `extract`, here or in a worker, or in `link` on
  that file's facts) is a `READER_ERROR` finding at the file, its detail naming the exception's
  type and the reader's line: one file a reader cannot handle never fails the document.
- Every stage looks at one soft deadline (`scan_deadline.Pace`): a scan too big for
  `request_ms` answers what it has with `DEADLINE_REACHED`, and what it computed stays in the
  memos, so a repeat goes further.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from gpp.plugin import FileMemo, repo_files

from .fan_out import MIN_ITEMS_PER_WORKER
from .prefilter import Fields, Follow, Keyword
from .pymodules import packages_of
from .repeat import DocumentMemo, Listings, Seen, unchanged
from .scan_deadline import DEADLINE_BATCH, Pace, soft_deadline_ms
from .scan_document import (
    DEADLINE_REACHED,
    READER_ERROR,
    DocumentPieces,
    GuardedLink,
    JSONObject,
    Link,
    ReaderError,
    Unresolved,
    at,
    render,
    utf8,
)
from .scan_read import MAX_FILE_BYTES, Extract, FileReader, ParseFailure
from .scan_select import Admission, OnDemand, OnDemandSelection, PreFilter
from .scan_walk import TEST_DIRECTORIES, Found, Listed, Takes, Walk, is_test_file

__all__ = [
    "DEADLINE_REACHED",
    "MAX_FILE_BYTES",
    "READER_ERROR",
    "TEST_DIRECTORIES",
    "Admission",
    "DocumentPieces",
    "Extract",
    "Found",
    "JSONObject",
    "Link",
    "OnDemand",
    "ParseFailure",
    "ReaderError",
    "Scanner",
    "Unresolved",
    "at",
    "is_test_file",
    "utf8",
]

F = TypeVar("F")


class Scanner(Generic[F]):
    """One pack's discover: walk, select, read through the memo, link, render.

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
        # Past this many ms of reading, a discover answers with what it has and a
        # DEADLINE_REACHED finding; what it read stays in the memo, so a repeated request
        # goes on from there instead of starting cold (and timing out) again.
        self.pace = Pace(
            deadline_ms if deadline_ms is not None else soft_deadline_ms(),
            clock,
            deadline_batch,
            parse_all=parse_all,
        )
        # A Python pack's pre-filter (`packs.prefilter`): only files that mention one of these,
        # or are linked to one that does, are parsed. None: every file is.
        self.keywords = tuple(keywords) if keywords is not None else None
        self.base_keywords = tuple(base_keywords)
        self.follow: Follow = follow
        self.fields = fields
        # The reference a filtered scan is held to (tests, `make bench`): every file parsed and
        # linked, and still `parse-error` only where the pre-filter admits the file.
        self.parse_all = parse_all
        self.on_demand = on_demand
        self._link = GuardedLink[F](self.pace.timed)
        self._prefilter = (
            None
            if self.keywords is None
            else PreFilter(self.keywords, base_keywords, follow, fields, named, self.pace)
        )
        self._on_demand = (
            None if on_demand is None else OnDemandSelection(on_demand, self._link, self.pace)
        )
        # files read and extracted (or taken from the memo) by the last discover; a document
        # taken whole from `documents` counts those of the discover that made it
        self.parsed = 0
        # a repeat of an unchanged repository (`packs.repeat`): each unchanged directory's
        # verdicts, and the last document under the fingerprint of its inputs
        self.listings: Listings[Listed] = Listings()
        self.documents = DocumentMemo()
        # the last document's whole tree (a request of `.`), checked first by a repeat of it,
        # with the readers and options it was made with
        self._tree: tuple[list[Seen], tuple[object, ...]] | None = None
        self._listed_by: tuple[object, ...] | None = None  # the readers the listings judged for

    @property
    def deadline_ms(self) -> float | None:
        """The soft deadline of a discover, in ms from its start (None: none)."""
        return self.pace.deadline_ms

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
        self.pace.start()
        unresolved: list[Unresolved] = []
        takes = Takes(self.suffixes, self.named, self.language)
        walk = Walk(self.root, takes, self.listings, self.pace.passed)
        reader = FileReader(
            self.memo,
            self.extract,
            self.pace,
            workers=self.workers,
            min_files_per_worker=self.min_files_per_worker,
        )
        root_fd = repo_files.open_root(self.root)
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
                problem = walk.locate(root_fd, path)
                if isinstance(problem, list):
                    unresolved += problem
                elif problem is not None:
                    unresolved.append(problem)
            fingerprint = None if walk.not_walked else self._fingerprint(paths, walk, unresolved)
            if fingerprint is not None:
                document = self.documents.recall(fingerprint)
                if document is not None:
                    return document
            not_reached: list[str] = []
            document = self._discover_walked(root_fd, walk, reader, unresolved, not_reached)
        finally:
            os.close(root_fd)
        if fingerprint is not None and not not_reached and not reader.volatile:
            self.documents.remember(fingerprint, document)
            if paths == ["."]:
                whole = walk.whole_tree()
                self._tree = None if whole is None else (whole, self._readers())
        else:
            self.documents.forget()
        return document

    def _readers(self) -> tuple[object, ...]:
        """The scanner's readers (the objects themselves, compared as they compare: a test may
        swap one in, and an id could be a collected one's) and options."""
        readers = (self.extract, self.link, self.on_demand, self.named, self.fields)
        options = (self.suffixes, self.language, self.parse_all, self.keywords, self.follow)
        return (*readers, options, self.base_keywords)

    def _fingerprint(
        self, paths: list[str], walk: Walk, unresolved: list[Unresolved]
    ) -> tuple[object, ...]:
        """What the document is a function of: the request, every file walked with its memo
        stamp (size, mtime, inode), what the walk reported, and the scanner's readers and
        options (the same objects: a test may swap one in)."""
        stamps = tuple(
            (rel, found.target, found.stat.st_size, found.stat.st_mtime_ns, found.stat.st_ino)
            for rel, found in walk.files.items()
        )
        return tuple(paths), stamps, tuple(unresolved), self._readers()

    def _discover_walked(
        self,
        root_fd: int,
        walk: Walk,
        reader: FileReader[F],
        unresolved: list[Unresolved],
        not_reached: list[str],
    ) -> JSONObject:
        """Select and read what the walk found, link and render (adds to `not_reached`)."""
        files: dict[str, Found] = walk.files
        facts: list[tuple[str, F]] = []
        failed: list[ReaderError] = []
        rels = sorted(files, key=utf8)
        packages = packages_of(rels)
        if self._on_demand is not None:
            linked, self.parsed = self._on_demand.linked(
                root_fd, rels, files, reader, packages, not_reached, unresolved, failed
            )
            return self._render(linked, failed, unresolved, walk, not_reached)
        admitted: set[str] | None = None
        if self._prefilter is not None:
            admitted = set(self._prefilter.kept(root_fd, rels, files, packages, reader.stash))
            if self.pace.passed():
                # judged in part, or the links between files not followed to the end: no
                # file is known to be needed or not, so none is read this time
                not_reached += rels
                rels = []
            elif not self.parse_all:
                rels = [rel for rel in rels if rel in admitted]
        read = reader.read_all(root_fd, rels, files, not_reached)
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
        linked = self._link(facts, failed, packages, self.link)
        return self._render(linked, failed, unresolved, walk, not_reached)

    def _render(
        self,
        linked: DocumentPieces,
        failed: list[ReaderError],
        unresolved: list[Unresolved],
        walk: Walk,
        not_reached: list[str],
    ) -> JSONObject:
        everything_not_reached = [*walk.not_walked, *not_reached]
        return render(linked, failed, unresolved, everything_not_reached, self.deadline_ms)
