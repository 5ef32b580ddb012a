"""The scan's read stage: each file's bytes opened safely, and its facts from the pack's
`extract` through the per-file memo, spread over every usable CPU.

Files are opened through `gpp.plugin.repo_files` (an `openat` chain with `O_NOFOLLOW`, confirmed
by `fstat`), so a symlink swapped in after the walk's check is never read. A file's outcome is
its facts, or why it gave none: over `MAX_FILE_BYTES` → `too-large`; not UTF-8, unreadable, not
a regular file or a symlink out of the root → `unreadable`; a minified bundle → `unsupported`;
`SyntaxError` or `ParseFailure` → `parse-error`; anything else a reader raises → a
`READER_ERROR` finding at the file. Outcomes are memoized per file under the stat the walk saw
(`gpp.plugin.FileMemo`), so a repeat opens only what changed.
"""

from __future__ import annotations

import errno
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from gpp.plugin import FileMemo, Missing, repo_files

from .fan_out import fan_out
from .scan_deadline import Pace
from .scan_document import ReaderError, Unresolved, reader_error
from .scan_walk import MINIFIED_BUNDLE, Found

F = TypeVar("F")

Extract = Callable[[str, str], F]

MAX_FILE_BYTES = 2 * 1024 * 1024
MINIFIED_LINE = 1000
"""A line with this many characters of code (outside string and template literals and comments),
starting within the first `MINIFIED_HEAD` bytes of a JavaScript or TypeScript file, marks a
minified bundle (11.5 MB of theme bundles cost one repository 3.7 s for 0 routes); a long string
alone (an embedded document, a data URI) does not."""
MINIFIED_HEAD = 4096
STASH_BYTES = 64 * 1024 * 1024
"""The most bytes of judged files one discover keeps for its read stage (`ByteStash`)."""

# the repository reads, by name: the tests put stand-ins here (a counting open)
NotRegularFile = repo_files.NotRegularFile
open_dir_in_root = repo_files.open_dir_in_root
open_file_in_dir = repo_files.open_file_in_dir
open_file_in_root = repo_files.open_file_in_root


class ParseFailure(Exception):
    """An `extract` cannot make sense of a file: reported as `parse-error` at `line`."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class ByteStash:
    """The bytes the select stage read to judge files, kept for this discover's read stage: a
    file judged and then parsed is opened and read once, not twice (a cold scan of a route pack
    judges every file, then parses a quarter of them, and its on-demand rounds look again at
    the files left for the link's words). Only bytes `judge_bytes` gave are kept (read through
    the same safe opens, regular, UTF-8, within `MAX_FILE_BYTES`), by the walk's target, up to
    `STASH_BYTES` in all; a file not kept is opened again as before."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = STASH_BYTES if limit is None else limit
        self.size = 0
        self._kept: dict[str, bytes] = {}

    def keep(self, target: str, data: bytes) -> None:
        if target not in self._kept and self.size + len(data) <= self.limit:
            self._kept[target] = data
            self.size += len(data)

    def get(self, target: str) -> bytes | None:
        return self._kept.get(target)

    def only(self, targets: set[str]) -> None:
        """Keep the bytes of `targets` alone (the others will not be read)."""
        for target in [t for t in self._kept if t not in targets]:
            self.size -= len(self._kept.pop(target))

    def take(self, target: str) -> bytes | None:
        """The kept bytes, no longer kept (the read stage parses a file once)."""
        data = self._kept.pop(target, None)
        if data is not None:
            self.size -= len(data)
        return data


class FileReader(Generic[F]):
    """Reads files into outcomes for one discover: through `memo` (the scanner's), the misses
    extracted by `extract` on `workers` CPUs (`fan_out`), paced by the soft deadline."""

    def __init__(
        self,
        memo: FileMemo[F | Unresolved | ReaderError],
        extract: Extract[F],
        pace: Pace,
        *,
        workers: int | None,
        min_files_per_worker: int,
    ) -> None:
        self.memo = memo
        self.extract = extract
        self.pace = pace
        self.workers = workers
        self.min_files_per_worker = min_files_per_worker
        self.volatile = False  # a file read gave an outcome a repeat must try again
        self.stash = ByteStash()  # the bytes the select stage judged, read once (`ByteStash`)

    def read_all(
        self,
        root_fd: int,
        rels: list[str],
        files: dict[str, Found],
        not_reached: list[str],
        linked_too: int = 0,
    ) -> list[tuple[str, F | Unresolved | ReaderError]]:
        """Each file's outcome, in order: from the memo while its stamp at the walk is unchanged
        (a hit opens nothing: what is returned was read, safely, when the file had this stamp),
        else read and extracted, the misses spread over the CPUs (`fan_out`). With a deadline,
        the misses are read in batches sized to the time left (`Pace.batch_size`; `linked_too`:
        files read before, linked with these) and those left when it passes go to
        `not_reached` (and are left out of the outcomes)."""
        outcomes: dict[str, F | Unresolved | ReaderError] = {}
        misses: list[tuple[str, Found]] = []
        for rel in rels:
            found = files[rel]
            if found.stat.st_size > MAX_FILE_BYTES:
                outcomes[rel] = too_large(rel)
                continue
            value = self.memo.lookup(rel, found.stat)
            if isinstance(value, Missing):
                misses.append((rel, found))
            else:
                outcomes[rel] = value
        start = 0
        while start < len(misses):
            size = self.pace.batch_size(len(misses) - start, linked_too + len(outcomes))
            if size == 0:
                not_reached += [rel for rel, _ in misses[start:]]
                break
            part = misses[start : start + size]
            began = self.pace.clock()
            read = fan_out(
                lambda miss: self.read_missing(root_fd, *miss),
                part,
                workers=self.workers,
                min_items_per_worker=self.min_files_per_worker,
            )
            self.pace.read_s_per_file = (self.pace.clock() - began) / len(part)
            for (rel, found), (outcome, remember) in zip(part, read, strict=True):
                if remember:
                    self.memo.store(rel, found.stat, outcome)
                else:
                    self.volatile = True  # a repeat tries this file again
                outcomes[rel] = outcome
            start += size
        return [(rel, outcomes[rel]) for rel in rels if rel in outcomes]

    def read_missing(
        self, root_fd: int, rel: str, found: Found
    ) -> tuple[F | Unresolved | ReaderError, bool]:
        """A file's outcome and whether to remember it: a read error is not remembered, so the
        next discover tries again. Bytes the select stage judged are not read again."""
        data = self.stash.take(found.target)
        if data is not None:
            return self._extract(rel, data), True
        try:
            return self._open_and_extract(root_fd, rel, found), True
        except OSError:
            return Unresolved(rel, "unreadable", "cannot be read"), False

    def _open_and_extract(
        self, root_fd: int, rel: str, found: Found
    ) -> F | Unresolved | ReaderError:
        try:
            fd, info = open_file_in_root(root_fd, found.target)
        except NotRegularFile:
            return Unresolved(rel, "unreadable", "not a regular file")
        except OSError as exc:  # ELOOP/ENOTDIR: a symlink appeared in the path after the check
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            return Unresolved(rel, "unreadable", "symlink not followed")
        try:
            data = read_capped(fd, info.st_size)
        finally:
            os.close(fd)
        return self._extract(rel, data)

    def _extract(self, rel: str, data: bytes) -> F | Unresolved | ReaderError:
        if len(data) > MAX_FILE_BYTES:  # grew after the walk's stat
            return too_large(rel)
        if is_bundle(rel, data):
            return Unresolved(rel, "unsupported", MINIFIED_BUNDLE)
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


class Directories:
    """The selection's opens: each file as `open_file_in_root` opens it (every directory of
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

    def __enter__(self) -> Directories:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def judge_bytes(
    directories: Directories, found: Found, stash: ByteStash | None = None
) -> bytes | None:
    """A file's bytes for the selection to judge, or None when they cannot be judged (reading
    the file then reports it as without a selection). With a `stash`, from it when judged
    before in this discover, else kept in it for the read stage."""
    if stash is not None:
        kept = stash.get(found.target)
        if kept is not None:
            return kept
    try:
        fd, info = directories.open_file(found.target)
    except OSError:
        return None
    try:
        data = read_capped(fd, info.st_size)
        if not data.isascii():  # most source is: no decoding to tell it is UTF-8
            data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        return None
    if stash is not None:
        stash.keep(found.target, data)
    return data


def read_capped(fd: int, size: int) -> bytes:
    """A regular file's bytes, `MAX_FILE_BYTES + 1` at most (that many: too large). One read of
    the `size` its `fstat` gave and a byte more: fewer bytes than asked is the end of a regular
    file; a file that grew since reads on, to the cap."""
    data = os.read(fd, min(size + 1, MAX_FILE_BYTES + 1))
    while size < len(data) <= MAX_FILE_BYTES:
        chunk = os.read(fd, MAX_FILE_BYTES + 1 - len(data))
        if not chunk:
            break
        data += chunk
    return data


def too_large(rel: str) -> Unresolved:
    return Unresolved(rel, "too-large", f"larger than {MAX_FILE_BYTES} bytes")


def is_bundle(rel: str, data: bytes) -> bool:
    """Whether a script's bytes are a minified bundle (`minified`); Python never is one."""
    return not rel.endswith(".py") and minified(data)


def minified(data: bytes) -> bool:
    """Whether a line starting in the first `MINIFIED_HEAD` bytes holds `MINIFIED_LINE` or more
    characters of code: outside string literals, template literals and comments, lexed from the
    file's start (a template literal may open lines above). A hand-written module with one long
    string (an embedded document, a data URI) has a long line but little code on it; a bundle's
    long lines are all code. One pass over the tokens, stopped at the answer: linear in the file;
    a file with no long line starting in the head is not lexed."""
    if not long_line_in_head(data):
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


def long_line_in_head(data: bytes) -> bool:
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
