"""The scan's first stage: which files a request names, by the walk rules every pack shares.

A requested path is a file or a directory (`.` = the root). Directories are walked with names in
UTF-8 byte order, skipping hidden names (but `.well-known`, and a file the pack reads by its very
name, its `named`: `.env.example`), virtualenvs (`venv`, or any directory holding `pyvenv.cfg`),
`node_modules`, `__pycache__`, `site-packages`, test code (`TEST_DIRECTORIES`, `is_test_file`)
and every symlink; `dist` and `build` directories and `*.min.js` files are generated code:
skipped, each an `unsupported` entry. A named path may be a symlink that stays inside the root.
The walk is iterative with a bounded number of open descriptors
(`gpp.plugin.repo_files.walk_in_root`): no depth drops a file. An entry no document could name
(not UTF-8, a backslash, a leading drive letter) is an `unsupported` entry at its directory, a
directory that cannot be listed `unreadable`. Each directory's verdicts are kept
(`packs.repeat.Listings`), so a repeat lists only what changed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from gpp.plugin import repo_files

from .repeat import Listings, Seen, file_stamp
from .scan_document import Unresolved

SKIPPED_DIRECTORIES = frozenset({"venv", "node_modules", "__pycache__", "site-packages"})
SERVED_HIDDEN = frozenset({".well-known"})
"""The one hidden name the walk enters: a URL path segment (RFC 8615) that file-system routers
serve (Next.js's `app/.well-known/…/route.ts`)."""
GENERATED_DIRECTORIES = frozenset({"dist", "build"})
"""Build output: skipped like the others, but said (`unsupported`, generated): routes or tables
written there would be copies of the source's, or bundles no reader can follow."""
GENERATED = "generated code is not read"
MINIFIED_BUNDLE = f"{GENERATED} (a minified bundle)"
TEST_DIRECTORIES = frozenset({"tests", "test", "spec", "__tests__"})
"""Test code: its tables, models and servers are fixtures of the tests, not the app's (a test
server under `spec/` listed as the app's routes; a test model's table a false duplicate of the
app's). Every pack leaves out these folders, and the test files `is_test_file` names, below a
walked directory; a file named in the request is read whatever its name. One exception
(`route_segment`): below a Next.js router folder, a folder so named that holds a route file is
a URL segment (`app/api/jobs/[id]/test/route.ts` serves `/api/jobs/{id}/test`)."""
ROUTER_FOLDERS = frozenset({"app", "pages"})
"""Next.js's file-system routers: below them a folder is a URL segment whatever its name."""
ROUTE_FILES = ("route.", "page.")
SCRIPT_SUFFIXES = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs")
MINIFIED_SUFFIXES = (".min.js", ".min.mjs", ".min.cjs")
VIRTUALENV_MARKER = "pyvenv.cfg"

# the repository reads, by name: the tests put stand-ins here (a slow walk)
name_problem = repo_files.name_problem
resolve_in_root = repo_files.resolve_in_root
walk_in_root = repo_files.walk_in_root


class Found(NamedTuple):
    """A file to read: where it lies inside the root, and its stat when it was found (the
    memo's key; the open that follows re-checks every component). A tuple: a walk makes one
    per file, a repeat too."""

    target: str
    stat: os.stat_result


@dataclass(frozen=True)
class Listed:
    """What a walk decided about one directory's entries (`Walk`): the files the pack takes
    (their names, and their paths from the root), the subdirectories it enters, what it
    reports as skipped, in walk order."""

    files: tuple[str, ...]
    paths: tuple[str, ...]
    subdirectories: tuple[str, ...]
    skipped: tuple[Unresolved, ...]


@dataclass(frozen=True)
class Takes:
    """Which files a pack reads: those ending in one of `suffixes`, and those whose
    repo-relative path `named` accepts (`tsconfig.base.json`, `requirements.txt`)."""

    suffixes: tuple[str, ...]
    named: Callable[[str], bool] | None
    language: str

    def by_name(self, path: str) -> bool:
        """Whether the pack reads the file at this repo-relative path by its name (a hidden one
        too: `.env.example`; `requirements/base.txt` is named by its folder)."""
        return self.named is not None and self.named(path)

    def __call__(self, path: str) -> bool:
        """Whether the file at this repo-relative path is one the pack reads: by its suffix, or
        by `named`."""
        return path.endswith(self.suffixes) or self.by_name(path)


def is_test_file(name: str) -> bool:
    """A test module by its name (`test_*.py`, `conftest.py`, `*.test.*`, `*.spec.*`): left out
    of a walk with the `TEST_DIRECTORIES`."""
    if name.endswith(".py") and (name.startswith("test_") or name == "conftest.py"):
        return True
    return ".test." in name or ".spec." in name


def walk_lists(path: str) -> bool:
    """Whether a walk of the repository's root lists a file at this repo-relative path, by its
    folders and its name (one the pack takes by its suffix): so a file it did not list is not
    in the repository. No folder hidden, skipped, generated or test code; no test file."""
    *folders, name = path.split("/")
    for folder in folders:
        hidden = folder.startswith(".") and folder not in SERVED_HIDDEN
        if hidden or folder in SKIPPED_DIRECTORIES or folder in GENERATED_DIRECTORIES:
            return False
        if folder in TEST_DIRECTORIES:
            return False
    return bool(name) and not name.startswith(".") and not is_test_file(name)


def route_segment(fd: int, here: str, name: str) -> bool:
    """Whether the test-named folder `name` of `here` (open as `fd`) is a Next.js URL segment:
    below an `app/` or `pages/` folder, holding a route file (`route.ts`, `page.tsx`; below
    `pages/`, any script not named as a test). Looked at only for such a name in such a place,
    so a walk opens no folder it did not open before anywhere else."""
    parts = here.split("/")
    if not ROUTER_FOLDERS.intersection(parts):
        return False
    try:
        child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
    except OSError:
        return False
    try:
        names = os.listdir(child)
    except OSError:
        return False
    finally:
        os.close(child)
    scripts = [n for n in names if n.endswith(SCRIPT_SUFFIXES) and not is_test_file(n)]
    return any(n.startswith(ROUTE_FILES) for n in scripts) or ("pages" in parts and bool(scripts))


class Walk:
    """One discover's walk: the files its paths name (`files`, by the path reported), the
    directories walked in order (`walked`), and those left unentered at the soft deadline
    (`not_walked`, once `stop()` says so). `listings` are the scanner's, kept across walks."""

    def __init__(
        self, root: str, takes: Takes, listings: Listings[Listed], stop: Callable[[], bool]
    ) -> None:
        self.root = root
        self.takes = takes
        self.listings = listings
        self.stop = stop
        self.files: dict[str, Found] = {}
        self.walked: list[str] = []
        self.not_walked: list[str] = []
        self._skipped: list[Unresolved] = []  # where the walk under way says what it skipped

    def locate(self, root_fd: int, path: str) -> Unresolved | list[Unresolved] | None:
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
            self._walk(root_fd, target, skipped)
            return skipped or None
        if not self.takes(path):
            return Unresolved(path, "unsupported", f"not a {self.takes.language} file")
        self.files[path] = Found(target, info)
        return None

    def _walk(self, root_fd: int, directory: str, skipped: list[Unresolved]) -> None:
        """Add the files below the in-root `directory` to `files`, and to `skipped` what a
        reader would have looked at but no document can name: an entry whose name is not
        UTF-8, or is no repo-relative path (a backslash, a leading drive letter), and a
        directory that cannot be listed. Iterative with bounded descriptors (`walk_in_root`),
        so neither depth nor a low descriptor limit drops a file."""
        self._skipped = skipped
        for failed in walk_in_root(root_fd, directory, self._visit, recall=self._recall):
            skipped.append(Unresolved(failed, "unreadable", "directory cannot be listed"))

    def _visit(self, fd: int, here: str, entries: list[os.DirEntry[str]]) -> list[str]:
        """`walk_in_root`'s visit of a listed directory: its verdicts, kept for a repeat."""
        if any(e.name == VIRTUALENV_MARKER for e in entries):
            listed = Listed((), (), (), ())
        else:
            listed = self._judged(fd, here, entries)
        self.listings.remember(here, listed)
        self.walked.append(here)
        self._skipped.extend(listed.skipped)
        return self._entered(here, listed.subdirectories)

    def _judged(self, fd: int, here: str, entries: list[os.DirEntry[str]]) -> Listed:
        """The verdicts on a directory's entries, in walk order; the files taken are added to
        `files` with the stat their entry gives."""
        prefix = "" if here == "." else f"{here}/"
        taken: list[str] = []
        paths: list[str] = []
        subdirectories: list[str] = []
        said: list[Unresolved] = []
        for entry in entries:
            name = entry.name
            if (
                name.startswith(".")
                and name not in SERVED_HIDDEN
                and not self.takes.by_name(prefix + name)
            ):
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir:
                if name in SKIPPED_DIRECTORIES:
                    continue
                if name in TEST_DIRECTORIES and not route_segment(fd, here, name):
                    continue
                if name in GENERATED_DIRECTORIES:
                    detail = f"{GENERATED} (a {name}/ directory)"
                    said.append(Unresolved(prefix + name, "unsupported", detail))
                    continue
            elif not (
                entry.is_file(follow_symlinks=False) and self.takes(prefix + name)
            ) or is_test_file(name):
                continue
            problem = name_problem(name, prefix + name)
            if problem is not None:
                said.append(Unresolved(here, "unsupported", problem))
            elif is_dir:
                subdirectories.append(name)
            elif name.endswith(MINIFIED_SUFFIXES):
                said.append(Unresolved(prefix + name, "unsupported", MINIFIED_BUNDLE))
            else:
                path = prefix + name
                self.files[path] = Found(path, entry.stat(follow_symlinks=False))
                taken.append(name)
                paths.append(path)
        return Listed(tuple(taken), tuple(paths), tuple(subdirectories), tuple(said))

    def _recall(self, fd: int, here: str) -> list[str] | None:
        """The verdicts on `here` kept from an earlier walk while its entries are the same
        (`packs.repeat.Listings`), its files `stat`ed afresh; None: list it (`_visit`)."""
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
        self.files.update(zip(listed.paths, map(Found, listed.paths, stats), strict=True))
        self._skipped.extend(listed.skipped)
        self.walked.append(here)
        return self._entered(here, listed.subdirectories)

    def _entered(self, here: str, subdirectories: Sequence[str]) -> list[str]:
        """The subdirectories to walk: none past the deadline (this directory's files are
        found, those below it are not: each is said not walked)."""
        if self.stop():
            prefix = "" if here == "." else f"{here}/"
            self.not_walked += [prefix + name for name in subdirectories]
            return []
        return list(subdirectories)

    def whole_tree(self) -> list[Seen] | None:
        """What `packs.repeat.unchanged` checks of this walk when it was made from the root:
        every directory it walked, in order, with the stamp its verdicts are kept under and its
        files' stamps; None when some directory's verdicts are not kept (changed too recently)
        or some directory was not walked (it could not be listed)."""
        tree: list[Seen] = []
        below = 0
        for directory in self.walked:
            kept = self.listings.kept(directory)
            if kept is None:
                return None
            stamp, listed = kept
            stamps = tuple(file_stamp(self.files[path].stat) for path in listed.paths)
            tree.append(Seen(directory, stamp, listed.files, stamps, bool(listed.subdirectories)))
            below += len(listed.subdirectories)
        if not tree or tree[0].directory != "." or below + 1 != len(tree):
            return None
        return tree
