"""The scan's select stage: which of the walked files a cold scan parses at all.

A pack may parse fewer files than it walks, judged by their bytes: a Python pack's byte
pre-filter (`keywords=`, `packs.prefilter`: `PreFilter`), or one driven by its linker
(`on_demand=`, `OnDemand`: pack-http-routes). `parse_all=True` is the reference both are held
to, byte for byte. A file whose bytes cannot be judged is selected: reading it reports it
exactly as without a selection. What each file's bytes say is memoized under its stamp, so a
selection cut short by the soft deadline goes on from there on a repeat.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from gpp.plugin import FileMemo, Missing

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
from .scan_deadline import DeadlinePassed, Pace
from .scan_document import DocumentPieces, GuardedLink, Link, ReaderError, Unresolved
from .scan_read import (
    MAX_FILE_BYTES,
    ByteStash,
    Directories,
    Extract,
    FileReader,
    is_bundle,
    judge_bytes,
)
from .scan_walk import Found

F = TypeVar("F")


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
    lean: Extract[F] | None = None
    """A reader of less, used instead of the scanner's `extract` on a cold scan whose walk
    holds no file that `widens`: it must give the link the very document the full one gives
    there (pack-http-routes: Python files read without their Django facts, which the Django
    link reads only once some file spells one of Django's seeds). `parse_all` always reads
    with the full one, so the reference checks the lean reader."""
    widens: Callable[[str, bytes], bool] | None = None
    """Whether a file's bytes need the full reader for every file (with `lean`)."""
    data_file: Callable[[str], bool] | None = None
    """Whether a file is data the link reads only where it asks for it (a manifest, a lock
    file, an environment file): no call is written in one, so the link's words (names of
    functions whose every call it needs) never ask for it. A pnpm lock naming 1,500 packages
    spells most of them, and was parsed on every cold scan for nothing."""


class PreFilter:
    """A Python pack's byte pre-filter (`packs.prefilter`): only files that mention one of
    `keywords`, or are linked to one that does (by `follow`), are parsed; files taken by name
    (`setup.py`) are always kept. Holds its memos (each file's byte facts and assignments, and
    the last choice): keep one per scanner."""

    def __init__(
        self,
        keywords: Sequence[Keyword],
        base_keywords: Sequence[str],
        follow: Follow,
        fields: Fields | None,
        named: Callable[[str], bool] | None,
        pace: Pace,
    ) -> None:
        self.keywords = tuple(keywords)
        self.base_keywords = tuple(base_keywords)
        self.follow: Follow = follow
        self.fields = fields
        self.named = named
        self.pace = pace
        self.bytes_memo: FileMemo[ByteFacts] = FileMemo()
        self.assignments_memo: FileMemo[Assignments] = FileMemo()
        self._last_needed: tuple[dict[str, ByteFacts], set[str]] | None = None

    def kept(
        self,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        packages: frozenset[str],
        stash: ByteStash | None = None,
    ) -> list[str]:
        """`rels` less the Python files that cannot matter (`packs.prefilter`). A file whose
        bytes cannot be judged (unreadable, too large, not UTF-8) is kept: reading it reports
        it exactly as without the filter. `packages`: the folders of the walk that are
        packages, which imports resolve by. `stash`: where the bytes judged are kept for the
        read stage (those of files left out are dropped from it)."""
        with Directories(root_fd) as directories:
            try:
                kept = self._kept(directories, rels, files, packages, stash)
            except DeadlinePassed:
                return rels  # not followed to the end: the caller reads nothing this time
        if stash is not None:
            stash.only({files[rel].target for rel in kept})
        return kept

    def _kept(
        self,
        directories: Directories,
        rels: list[str],
        files: dict[str, Found],
        packages: frozenset[str],
        stash: ByteStash | None,
    ) -> list[str]:
        judged, kept, read = self._judged(directories, rels, files, stash)
        last = self._last_needed
        if (
            last is not None
            and len(last[0]) == len(judged)
            and all(judged.get(rel) is value for rel, value in last[0].items())
        ):
            chosen = last[1]  # every file's bytes as the last discover judged them
        else:
            followed = _FollowedFiles(self, directories, files, read)
            chosen = needed(
                judged,
                followed.assigned,
                self.follow,
                self.base_keywords,
                followed.complete,
                self.fields,
                followed.assigns,
                packages,
            )
            self._last_needed = (dict(judged), chosen)
        kept |= chosen
        return [rel for rel in rels if rel in kept]

    def _judged(
        self,
        directories: Directories,
        rels: list[str],
        files: dict[str, Found],
        stash: ByteStash | None,
    ) -> tuple[dict[str, ByteFacts], set[str], dict[str, bytes]]:
        """Each Python file's byte facts (from the memo, else read now), the files kept
        whatever their bytes (not Python, too large, taken by name, not judged), and the bytes
        read this discover."""
        judged: dict[str, ByteFacts] = {}
        kept: set[str] = set()
        read: dict[str, bytes] = {}
        for rel in rels:
            found = files[rel]
            if (
                not rel.endswith(".py")
                or found.stat.st_size > MAX_FILE_BYTES
                or (self.named is not None and self.named(rel))  # taken by name: `setup.py`
            ):
                kept.add(rel)
                continue
            value = self.bytes_memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                self.pace.check()  # what was judged stays in the memo
                data = judge_bytes(directories, found, stash)
                if data is None:
                    kept.add(rel)
                    continue
                read[rel] = data
                value = byte_facts(rel, data, self.keywords, self.base_keywords, self.fields)
                cost = 64 + 32 * (len(value.imports) + len(value.bases))
                self.bytes_memo.store(rel, found.stat, value, cost=cost)
            judged[rel] = value
        return judged, kept, read


class _FollowedFiles:
    """What `needed` asks of a file beyond its byte facts while it follows the links between
    files, for one pre-filter run: its assignments (memoized), whether it may assign a name,
    its complete byte facts; each file's bytes read at most once this discover."""

    def __init__(
        self,
        pre_filter: PreFilter,
        directories: Directories,
        files: dict[str, Found],
        read: dict[str, bytes],
    ) -> None:
        self.pre_filter = pre_filter
        self.directories = directories
        self.files = files
        self.read = read  # this discover's reads
        self.names: dict[str, AssignedNames] = {}  # what each file may assign

    def source(self, rel: str) -> bytes:
        data = self.read.get(rel)
        if data is None:
            data = self.read[rel] = judge_bytes(self.directories, self.files[rel]) or b""
        return data

    def assigned(self, rel: str) -> Assignments:
        found = self.files[rel]
        memo = self.pre_filter.assignments_memo
        value = memo.lookup(rel, found.stat)
        if isinstance(value, Missing):
            self.pre_filter.pace.check()
            value = assignments(self.source(rel))
            memo.store(rel, found.stat, value, cost=64 + 32 * len(value.values))
        return value

    def assigns(self, rel: str, name: str) -> bool:
        value = self.pre_filter.assignments_memo.lookup(rel, self.files[rel].stat)
        if not isinstance(value, Missing):
            return name in value.values
        if rel not in self.names:
            self.names[rel] = AssignedNames(self.source(rel))
        return name in self.names[rel]

    def complete(self, rel: str) -> ByteFacts:
        pre_filter = self.pre_filter
        pre_filter.pace.check()
        value = byte_facts(
            rel,
            self.source(rel),
            pre_filter.keywords,
            pre_filter.base_keywords,
            pre_filter.fields,
            complete=True,
        )
        cost = 64 + 32 * len(value.imports)
        pre_filter.bytes_memo.store(rel, self.files[rel].stat, value, cost=cost)
        return value


class OnDemandSelection(Generic[F]):
    """An `OnDemand` pack's reading and linking, with its memos (what each file's bytes
    admit, and the files the last discover's link asked for): keep one per scanner."""

    def __init__(self, on_demand: OnDemand[F], link: GuardedLink[F], pace: Pace) -> None:
        self.on_demand = on_demand
        self.link = link
        self.pace = pace
        # what each file's bytes admit, and whether they widen the reader (`OnDemand.widens`)
        self._admits_memo: FileMemo[tuple[bool | Admission, bool]] = FileMemo()
        self._last_wanted: set[str] = set()
        # whether the reader's memo holds outcomes of `OnDemand.lean` (None: of neither yet),
        # and the files read into it since: a switch of reader forgets them
        self._lean: bool | None = None
        self._read: set[str] = set()

    def linked(
        self,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        reader: FileReader[F],
        packages: frozenset[str],
        not_reached: list[str],
        unresolved: list[Unresolved],
        failed: list[ReaderError],
    ) -> tuple[DocumentPieces, int]:
        """Read the admitted files, link, read what linking asked for, link again... (see
        `OnDemand`); every file when `parse_all`. Adds to `not_reached`, `unresolved` and
        `failed`; returns the last link and how many files were read."""
        pace = self.pace
        stash = reader.stash
        with Directories(root_fd) as directories:
            admitted, widened = self._admitted(directories, rels, files, stash)
            self._choose_reader(reader, widened)
            if pace.passed():
                not_reached += rels  # not every file judged: none is known to matter or not
                rels = []
            # what the last discover asked for too: parsing a file more changes nothing (it has no
            # facts of its own, and no call named by `words`), and an unchanged repository then
            # links once, with the very facts of last time (`RouteDocumentMemo` answers from its memo)
            chosen = set(rels) if pace.parse_all else admitted | (self._last_wanted & set(rels))
            linked, outcomes, wanted, link_failed = self._rounds(
                directories, root_fd, rels, files, reader, packages, not_reached, chosen
            )
            self._last_wanted = set(chosen)  # every file the last link read, not only those
            # its last round asked for: a repeat then links the very facts of last time, once
            if pace.parse_all:
                # the reference reports a parse error where the filtered scan would: where
                # the link of the admitted files asks for it (a link of every file, the
                # front end's scripts too, asks for files by names no pack reads)
                wanted = self._rounds(
                    directories, root_fd, rels, files, reader, packages, [], set(admitted)
                )[2]
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
            return linked, len(outcomes)

    def _rounds(
        self,
        directories: Directories,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        reader: FileReader[F],
        packages: frozenset[str],
        not_reached: list[str],
        chosen: set[str],
    ) -> tuple[
        DocumentPieces, dict[str, F | Unresolved | ReaderError], set[str], list[ReaderError]
    ]:
        """Read `chosen`, link, read what linking asked for (adding it to `chosen`), link
        again, until it asks for nothing new: the last link, every outcome read, the files
        the last link wanted and the link's own failures."""
        on_demand = self.on_demand
        pace = self.pace
        outcomes: dict[str, F | Unresolved | ReaderError] = {}
        holding: dict[str, bool] = {}  # whether a file's bytes name one of `words`
        words: frozenset[str] = frozenset()
        # the words each file was judged by, and whether it holds one: a later round's
        # words mostly add to them, so only the new ones need looking for
        judged: dict[str, tuple[frozenset[str], bool]] = {}
        while True:
            todo = [rel for rel in rels if rel in chosen and rel not in outcomes]
            outcomes.update(reader.read_all(root_fd, todo, files, not_reached, len(outcomes)))
            self._read.update(todo)
            bad = {rel for rel, o in outcomes.items() if isinstance(o, Unresolved | ReaderError)}
            paths = [rel for rel in rels if rel not in bad]
            facts = [
                (rel, o)
                for rel in rels
                if rel in outcomes and not isinstance(o := outcomes[rel], Unresolved | ReaderError)
            ]
            link_failed: list[ReaderError] = []
            linked = self.link(
                facts,
                link_failed,
                packages,
                _with_paths(on_demand.link, paths, sorted(bad)),
                memoized=False,
            )
            if linked.words != words:
                words = linked.words
                holding.clear()
            # chosen files are judged too (by the last words): a parse error is reported
            # where the last link's words ask for the file, in both modes alike
            data_file = on_demand.data_file
            unjudged = [
                r
                for r in rels
                if words and r not in holding and not (data_file is not None and data_file(r))
            ]
            for number, rel in enumerate(unjudged):
                if pace.passed():
                    not_reached += unjudged[number:]  # may call what linking needs
                    break
                outcome = outcomes.get(rel, _UNREAD)
                if outcome is not _UNREAD and not isinstance(outcome, Unresolved | ReaderError):
                    # read already, its facts linked: holding a word asks for nothing
                    # more (it is chosen) and reports nothing (it did not fail)
                    holding[rel] = False
                    continue
                holding[rel] = _holds_word(directories, files[rel], words, judged, reader.stash)
            wanted = set(linked.touched) | {rel for rel, hit in holding.items() if hit}
            new = {rel for rel in wanted if rel in files} - chosen
            if not new or not_reached:
                break
            chosen |= new
        return linked, outcomes, wanted, link_failed

    def _choose_reader(self, reader: FileReader[F], widened: bool) -> None:
        """Read with `OnDemand.lean` where it applies (not `parse_all`, no file widens); when
        that changes from the last discover, the outcomes the reader's memo holds were read by
        the other reader: forgotten."""
        lean_reader = self.on_demand.lean
        lean = lean_reader is not None and not widened and not self.pace.parse_all
        if self._lean is not None and lean != self._lean:
            for rel in self._read:
                reader.memo.discard(rel)
            self._read.clear()
        self._lean = lean
        if lean and lean_reader is not None:
            reader.extract = lean_reader

    def _admitted(
        self,
        directories: Directories,
        rels: list[str],
        files: dict[str, Found],
        stash: ByteStash | None = None,
    ) -> tuple[set[str], bool]:
        """The files `on_demand.admits` by their bytes (memoized per file stamp); a file whose
        bytes cannot be judged, or a minified bundle, is admitted: reading it reports it as
        without the filter. `GATED` files are admitted when some file of the walk is a `SEED`.
        And whether some file `widens` the reader (one not judged, or too large, does)."""
        admitted: set[str] = set()
        gated: list[str] = []
        seeded = False
        widens = self.on_demand.widens
        widened = False
        for rel in rels:
            found = files[rel]
            if found.stat.st_size > MAX_FILE_BYTES:
                admitted.add(rel)
                widened = True
                continue
            memo = self._admits_memo.lookup(rel, found.stat)
            if isinstance(memo, Missing):
                if self.pace.passed():
                    widened = True  # not every file judged
                    break  # judged so far stays in the memo: a repeat goes on from here
                data = judge_bytes(directories, found, stash)
                value = (
                    data is None  # reported as unreadable, as it would be parsed
                    or is_bundle(rel, data)  # reported as generated
                    or self.on_demand.admits(rel, data)
                )
                wide = data is None or (widens is not None and widens(rel, data))
                memo = (value, wide)
                self._admits_memo.store(rel, found.stat, memo, cost=64)
            value, wide = memo
            widened = widened or wide
            if value is Admission.GATED:
                gated.append(rel)
            elif value is Admission.SEED:
                seeded = True
                admitted.add(rel)
            elif value is True or value is Admission.YES:
                admitted.add(rel)
        if seeded:
            admitted.update(gated)
        return admitted, widened


_UNREAD = object()  # no outcome yet


def _holds_word(
    directories: Directories,
    found: Found,
    words: frozenset[str],
    judged: dict[str, tuple[frozenset[str], bool]],
    stash: ByteStash | None = None,
) -> bool:
    """Whether a file's bytes spell one of `words` (a file that cannot be judged does). As
    `judged` says when it was judged by some of them before (a file holding one of those holds
    one of these; one holding none is looked at for the others only), else looked at and kept
    in `judged`."""
    before = judged.get(found.target)
    if before is not None and before[0] <= words:
        if before[1]:
            return True
        words_left = words - before[0]
    else:
        words_left = words
    data = judge_bytes(directories, found, stash)
    hit = data is None or any(word.encode() in data for word in words_left)
    judged[found.target] = (words, hit)
    return hit


def _with_paths(
    link: Callable[[Sequence[tuple[str, F]], Collection[str], Collection[str]], DocumentPieces],
    paths: Collection[str],
    failed: Collection[str],
) -> Link[F]:
    """`link` given `paths` and `failed` with every file's facts."""
    return lambda files: link(files, paths, failed)
