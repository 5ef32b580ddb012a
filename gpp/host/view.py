"""What of the host a sandboxed plugin sees besides the system dirs: its view, from the registry
alone (issue 32).

The privileged side decides the view from trusted configuration only: the registry's command
words (the interpreter, the entry file), the registry's `view` and `hide`, and the gateway's own
interpreter and SDKs. Nothing is read from the plugin's files or the repository (a shebang
argument, a project marker) to widen it: what a plugin's own files name must already be in it.

- By default: the folder of each file the command names (the entry file's folder, read-only).
- With `view = [...]`: each file the command names, alone, and the listed paths (the registry
  says which folders the plugin needs; nothing else of the entry file's folder, so plugins that
  sit side by side do not see each other).
- Always: the interpreter (its folder; for the gateway's own Python its prefixes: stdlib, venv),
  the `gpp` package and `gateforge_plugin` (so Python plugins import the SDK), and the `hide`
  paths masked wherever they fall inside the view (the gateway adds its registry file, its
  token file and the other plugins' entry files).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Read-only in every sandbox (as symlinks where the host has merged /usr)."""
GPP_PACKAGE = Path(__file__).resolve().parents[1]
"""Bound read-only so Python plugins can `from gpp.sdk import serve` (editable install or not)."""
PYTHON_SDK = GPP_PACKAGE.parent / "plugins" / "sdk" / "python" / "gateforge_plugin"
"""The SDK's original public name, from a checkout (an installed wheel has it in site-packages)."""
GATEWAYS_PREFIXES = tuple(
    sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix})
)
"""The gateway's own Python installation and venv: trusted as the gateway itself is."""
SHARED_BY_EVERY_PLUGIN = (*SYSTEM_DIRS, *GATEWAYS_PREFIXES, str(GPP_PACKAGE), str(PYTHON_SDK))
"""Where a file is every plugin's runtime, never one plugin's own: a registry entry naming one
(`encodings/__init__.py`) does not hide it from the others (`app.config`), whom it would stop."""
KERNEL_FOLDERS = ("/proc", "/sys", "/dev")
"""The kernel's own filesystems: the sandbox has a private `/proc` and `/dev` and no `/sys`; a
file the registry names there (`/proc/version` as a command word) bound its folder, the host's
`/proc`, over the sandbox's (round 6)."""
CODE_OPTIONS = frozenset({"-c", "-e", "-m", "--eval"})
"""Interpreter options whose value is code or a module name, never a file."""
EMPTY_FILE = ".gpp-empty"
"""What a masked file shows: an empty file, made in the plugin's HOME folder on the host (bwrap
binds without devices, so `/dev/null` would be unreadable rather than empty)."""


@dataclass(frozen=True)
class View:
    """Read-only `folders` and single `files`; `masked` paths inside them shown empty."""

    folders: tuple[str, ...]
    files: tuple[str, ...] = ()
    masked: tuple[str, ...] = ()

    def describe(self) -> str:
        seen = sorted({*self.folders, *self.files})
        hidden = f"; masked: {', '.join(self.masked)}" if self.masked else ""
        return ", ".join(seen) + hidden

    def paths(self) -> tuple[str, ...]:
        return (*self.folders, *self.files)


class ViewUnavailable(Exception):
    """A path the registry's `view` names does not exist."""


def entry_files(
    command: Sequence[str], root: str | None, absolute: bool = False, path: str | None = None
) -> list[str]:
    """The files the registry's command words name (after `argv[0]`, relative to the plugin's
    root, its cwd); a word after `-c`/`-m` is code, not a file. An `argv[0]` that is a file,
    run on no other file and no code (alone, or `[".../detector", "--stdio"]`), is the plugin
    itself (so it is masked in the other plugins' views as any entry file is). `absolute`: only the words that are absolute paths (what the registry
    itself placed; a relative word names whatever the repository holds there). `path`: the
    plugin's PATH, where such a lone `argv[0]` given by bare name is found (a compiled plugin
    in a folder the registry's `env.PATH` adds). Only `stat`: nothing is opened."""
    words: list[str] = []
    follows_code_option = False
    for word in command[1:]:
        named = os.path.isabs(word) or not absolute
        if not follows_code_option and not word.startswith("-") and named:
            words.append(word)
        follows_code_option = word in CODE_OPTIONS
    found = [_file(word, root) for word in words]
    files = [path for path in found if path is not None]
    if not files and not any(word in CODE_OPTIONS for word in command[1:]):
        itself = _file(command[0], root)
        if "/" not in command[0] and path is not None:
            looked_up = shutil.which(command[0], path=path)
            itself = os.path.abspath(looked_up) if looked_up else None
        files = [file for file in [itself] if file is not None]
    return files


def own_entry_files(command: Sequence[str], root: str | None, path: str | None = None) -> list[str]:
    """The files the registry names by absolute path that are the plugin's own, which the other
    plugins' views hide: none in a folder every plugin runs from (`SHARED_BY_EVERY_PLUGIN`)."""
    named = entry_files(command, root, absolute=True, path=path)
    return [file for file in named if not under(file, *SHARED_BY_EVERY_PLUGIN)]


def _file(word: str, root: str | None) -> str | None:
    path = os.path.abspath(os.path.join(root or os.getcwd(), word))
    return path if os.path.isfile(path) else None


def runs_itself(
    executable: str, command: Sequence[str], entries: Sequence[str], plugins_folders: Sequence[str]
) -> bool:
    """Whether the registry's `argv[0]` (`executable`, absolute) is the plugin's own file rather
    than an interpreter: the command names no other file (`[".../detector", "--stdio"]`, a
    compiled plugin; `entries` are the files the registry names by absolute path, not ones a
    relative word finds in the repository) and no code (`-c`, `-m`: an interpreter's), or it
    lies in the plugin's folders (the repository, the entry files' folders, the registry's
    `view`); never the gateway's own Python. Such a file is the plugin's to write: the root
    side neither reads it (as a version manager's shim) nor follows it (a symlink into a
    folder only root may search would bring that folder into the view, staged by root)."""
    if under(executable, *GATEWAYS_PREFIXES):  # the gateway's own Python, wherever it lies
        return False
    others = [entry for entry in entries if entry != executable]
    runs_code = any(word in CODE_OPTIONS for word in command[1:])
    alone = not others and not runs_code
    return alone or any(under(executable, folder) for folder in plugins_folders)


def plugin_view(
    interpreter: str,
    entries: Sequence[str],
    listed: Sequence[str] | None,
    hide: Iterable[str] = (),
    root: str | None = None,
    reachable: Callable[[str], bool] | None = None,
    follow: Literal["yes", "reachable", "no"] = "yes",
) -> View:
    """The view of a plugin run by `interpreter` (the resolved binary) on `entries`; `listed`
    is the registry's `view` (None: the entry files' folders). A file the plugin's uid cannot
    reach (`reachable` false: a checkout behind a 0700 folder) is seen through its folder,
    which can be staged, with the same masks. How far the interpreter's symlink is followed:
    "no" (it is the plugin's own file, `runs_itself`): only its folder; "reachable" (a file
    the registry names by path): its target's folders only where the plugin's uid reaches them
    (never staged: root would bring a folder only root may search into view); "yes" (found
    on the registry's PATH): all of them. Raises ViewUnavailable."""
    if follow == "no":
        folders = [os.path.dirname(os.path.abspath(interpreter))]
        _refuse_linked_folder(folders[0], "the command's own executable")
        if root and under(folders[0], root):  # in view with the repository (see `listed`)
            folders = []
    else:
        folders = _interpreter_paths(interpreter)
    if follow == "reachable" and reachable is not None:
        as_named = _interpreter_paths(interpreter, follow_symlinks=False)
        # kept as named, and staged where the uid cannot reach them: never through a link
        # (staging follows root's, which a plugin's are once root installs it: round 6)
        for folder in as_named:
            if not (under(folder, *GATEWAYS_PREFIXES) or reachable(folder)):
                _refuse_linked_folder(folder, f"the command's executable {interpreter}")
        folders = [path for path in folders if path in as_named or reachable(path)]
    folders += [str(GPP_PACKAGE), *([str(PYTHON_SDK)] if PYTHON_SDK.is_dir() else [])]
    for entry in entries:
        _refuse_linked_folder(os.path.dirname(entry), f"{entry}, which the command names,")
    for path in [*entries, *(listed or [])]:
        if under(os.path.abspath(path), *KERNEL_FOLDERS):
            raise ViewUnavailable(
                f"{os.path.abspath(path)}, which the registry names, lies in the host's "
                f"{', '.join(KERNEL_FOLDERS)}: its folder would be bound over the sandbox's own "
                "(the host's /proc shows every process of the host); a plugin reads its own"
            )
    files: list[str] = []
    if listed is None:
        folders += [os.path.dirname(entry) for entry in entries]
        for entry in entries:  # a file it runs on (the executable's links are `follow`'s)
            if entry != interpreter:
                _refuse_link_out(
                    entry,
                    folders,
                    "there the link leads nowhere, and following it would let a plugin's link "
                    "choose a folder of the host",
                )
    else:
        files += [entry for entry in entries if not under(entry, *folders)]
        for path in listed:
            absolute = os.path.abspath(path)
            if not os.path.exists(absolute):
                raise ViewUnavailable(f"sandbox.view: {absolute} does not exist")
            if root and under(absolute, root):
                # in view with the repository: bound again read-only over a writable one, it
                # was the repository's to swap for a link between this check and bwrap's bind
                continue
            if (real := os.path.realpath(absolute)) != absolute and not under(
                absolute, *SYSTEM_DIRS
            ):
                raise ViewUnavailable(
                    f"sandbox.view: {absolute} is a symlink or passes through one (to {real}): "
                    "bwrap would bind what it leads to, and a link among a plugin's files would "
                    "choose what the plugin sees (the host's /, another plugin); name the real "
                    "path in the registry"
                )
            (folders if os.path.isdir(absolute) else files).append(absolute)
        for entry in files:
            _refuse_link_out(
                entry,
                [os.path.dirname(entry), *folders],
                "bwrap would bind that file alone, so a plugin's link would choose which file of "
                "the host it reads",
            )
    if reachable is not None:
        folders += [os.path.dirname(path) for path in files if not reachable(path)]
        files = [path for path in files if reachable(path)]
    folders = [path for path in dict.fromkeys(folders) if os.path.isdir(path)]
    files = list(dict.fromkeys(files))
    # the system dirs are bound whole in every sandbox (`gpp.host.sandbox`): a registry under
    # `/usr/local/etc` is in view there, and is masked there too, whatever its mode (an
    # executable one was not: round 6); another plugin's files there are every plugin's, and
    # never hidden (`SHARED_BY_EVERY_PLUGIN`)
    system = [path for path in SYSTEM_DIRS if os.path.isdir(path) and not os.path.islink(path)]
    seen = [*folders, *files, *([root] if root else []), *system]
    masked = sorted(
        {
            shown
            for path in map(os.path.abspath, hide)
            if os.path.exists(path)
            for shown in _shown_at(path, seen)
        }
    )
    return View(tuple(folders), tuple(files), tuple(masked))


def _refuse_link_out(entry: str, within: Sequence[str], why: str) -> None:
    """Raise ViewUnavailable when `entry`, a file the command names, is a symlink to a place
    outside `within` (its own folder and the view), saying `why` that matters."""
    if (real := os.path.realpath(entry)) != entry and not under(
        real, *map(os.path.realpath, within)
    ):
        raise ViewUnavailable(
            f"{entry}, which the command names, is a symlink to {real}, outside its own folder "
            f"and the view: {why}; name the real path in the registry, or list its folder in "
            "sandbox.view"
        )


def _refuse_linked_folder(folder: str, what: str) -> None:
    """Raise ViewUnavailable when `folder` (of a path the registry names) passes through a
    symlink outside the system dirs (which every sandbox binds whole, never from here): bwrap
    binds what a folder resolves to, and a root gateway stages one its uid cannot reach by a
    walk that follows root's symlinks, which every link a plugin ships is once root installs
    it (`x/sub` → another user's project behind their 0700 home, named as `x/sub/.env`, had
    root bring that project into view: issue 32, round 6)."""
    if (real := os.path.realpath(folder)) != folder and not under(folder, *SYSTEM_DIRS):
        raise ViewUnavailable(
            f"{what} lies in {folder}, which is a symlink or passes through one (to {real}): "
            "bwrap would bind what it leads to, so a link among a plugin's files would choose "
            "what the plugin sees; name the real path in the registry"
        )


def _shown_at(hidden: str, seen: Sequence[str]) -> set[str]:
    """Where the file `hidden` appears inside the view: wherever a bound path's real location
    holds its real location (a view named through a symlink into the registry's folder, or a
    hidden path named through one), since bwrap binds what a path resolves to; never at a
    name that goes through a symlink, which may lead out of the view (a mask bound there
    dangles, and bwrap fails: the plugin never starts), where it is unreadable anyway (issue
    32, round 4). Only `lstat` and `readlink` of the path's components: nothing is opened."""
    real = os.path.realpath(hidden)
    shown: set[str] = set()
    for path in seen:
        inside = os.path.realpath(path)
        if under(real, inside):
            shown.add(os.path.normpath(os.path.join(path, os.path.relpath(real, inside))))
    return shown


def _interpreter_paths(executable: str, follow_symlinks: bool = True) -> list[str]:
    """The interpreter's folder (and its real one's), the whole installation when that is the
    gateway's own Python (stdlib, venv, site-packages), and its prefix (`<prefix>/bin/<name>`)."""
    real = os.path.realpath(executable) if follow_symlinks else executable
    paths = [os.path.dirname(executable), os.path.dirname(real)]
    if any(under(path, *GATEWAYS_PREFIXES) for path in (executable, real)):
        paths += GATEWAYS_PREFIXES  # sorted already
    paths += [p for p in map(_prefix, (executable, real)) if p is not None]
    return paths


def _prefix(executable: str) -> str | None:
    """An interpreter's installation prefix (`<prefix>/bin/<name>`), for its standard library
    and modules; None for the system's own, `/` or a home folder."""
    folder = os.path.dirname(executable)
    if os.path.basename(folder) != "bin":
        return None
    prefix = os.path.dirname(folder)
    if prefix in ("/", "/usr", "/usr/local", os.path.expanduser("~")) or under(
        prefix, *SYSTEM_DIRS
    ):
        return None
    return prefix


def bind_args(
    view: View,
    root: str | None,
    readonly: bool,
    sources: Mapping[str, str] | None = None,
    covered: Iterable[str] = (),
    home: str | None = None,
) -> list[str]:
    """bwrap options for `view` and the repository `root`, outermost first so a deeper bind
    lands on top of a shallower one; a path already visible through a system dir, or through
    its nearest bound ancestor in the same mode, is not bound again; the repository keeps its
    own mode where it is also in the view. A path in `sources` is bound from there (its staging
    folder, `gpp.host.identity`). Each `covered` folder (one the plugin's uid cannot traverse,
    between a bound folder and the repository) becomes an empty read-only tmpfs, so the
    repository bound inside it can be reached; the masks come last (a file shows an empty file
    made in `home`)."""
    modes = {path: "--ro-bind" for path in view.paths() if not under(path, *SYSTEM_DIRS)}
    if root:
        modes[root] = "--ro-bind" if readonly else "--bind"
    tmpfs = list(covered)

    def redundant(path: str) -> bool:
        nearest = max((a for a in modes if a != path and under(path, a)), key=len, default=None)
        if nearest is None or modes[nearest] != modes[path]:
            return False
        return not any(under(folder, nearest) and under(path, folder) for folder in tmpfs)

    kept = sorted((p for p in modes if not redundant(p)), key=lambda p: p.count("/"))
    staged = sources or {}
    depth = {path: path.count("/") for path in [*kept, *tmpfs]}
    argv: list[str] = []
    for path in sorted([*kept, *tmpfs], key=lambda p: (depth[p], p in kept)):
        if path in tmpfs and path not in kept:
            argv += ["--size", "4096", "--perms", "0555", "--tmpfs", path]
        else:
            argv += [modes[path], staged.get(path, path), path]
    empty = _empty_file(home) if any(not os.path.isdir(p) for p in view.masked) else ""
    for path in view.masked:
        argv += (
            ["--size", "4096", "--perms", "0000", "--tmpfs", path]
            if os.path.isdir(path)
            else ["--ro-bind", empty, path]
        )
    for path in [*tmpfs, *(p for p in view.masked if os.path.isdir(p))]:
        argv += ["--remount-ro", path]
    return argv


def _empty_file(home: str | None) -> str:
    """An empty read-only file any uid can reach (`home` is made searchable: 0711)."""
    if home is None:
        return "/dev/null"  # no HOME folder to make one in: masked files read as unreadable
    path = os.path.join(home, EMPTY_FILE)
    if not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444))
        os.chmod(home, os.stat(home).st_mode & 0o777 | 0o111)
    return path


def covering(root: str, view: View, reachable: Callable[[str], bool]) -> list[str]:
    """The outermost folder between a bound view folder and `root` that `reachable(folder)`
    (the plugin's uid may search it) says no to: bwrap could bind the repository there, but the
    plugin could not `chdir` into it (a repository staged from behind a 0700 folder that lies
    inside the plugin's folder)."""
    holders = [folder for folder in view.folders if folder != root and under(root, folder)]
    if not holders:
        return []
    holder = max(holders, key=len)
    parts = Path(root).relative_to(holder).parts[:-1]
    folder = holder
    for part in parts:
        folder = os.path.join(folder, part)
        if not reachable(folder):
            return [folder]
    return []


def under(path: str, *ancestors: str) -> bool:
    """Whether `path` is one of `ancestors` or lies below one (by name: nothing is resolved)."""
    return any(path == a or path.startswith(a.rstrip("/") + "/") for a in ancestors)
