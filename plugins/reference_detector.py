#!/usr/bin/env python3
"""Reference detector (id `reference-detector`, version 1.0.0): reads `.gfx` files.

The format, one directive a line (`#` starts a comment line):

    table users pii=email,phone
    route GET /users/{id} auth=required

Every rule here is mirrored by `reference_detector.mjs`; the two must give byte-identical
documents, so splitting is on ASCII space and tab only and every message is a fixed text.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any

try:
    from gpp.plugin import repo_files, serve
except ImportError:  # run from a checkout by a bare interpreter: use the repo's gpp/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gpp.plugin import repo_files, serve

PLUGIN_ID = "reference-detector"
PLUGIN_VERSION = "1.0.0"
SUFFIX = ".gfx"
MAX_FILE_BYTES = 16 * 1024 * 1024
_POSITIONAL = {"table": 1, "route": 2}
_TOO_LARGE = f"larger than {MAX_FILE_BYTES} bytes"
_NOT_PLAIN_SEGMENT = frozenset(("", ".", ".."))
"""Segments a repo-relative path never has (the host and the SDK refuse them): a path with one
is left to the by-name path, which handles anything."""


def discover(paths: list[str]) -> dict[str, Any]:
    """The document for `paths` in the current directory's repository."""
    root_fd = repo_files.open_root(".")
    try:
        return _discover(paths, root_fd)
    finally:
        os.close(root_fd)


def main() -> int:
    """Serve one session on the current directory, opened once: the process never changes
    directory, so a descriptor opened now names, for the whole session, the very directory
    that `open(".")` on each request would (even if the repository is moved or replaced
    meanwhile: the working directory follows the directory, not its name)."""
    root_fd = repo_files.open_root(".")
    return serve(PLUGIN_ID, PLUGIN_VERSION, lambda paths: _discover(paths, root_fd))


def _discover(paths: list[str], root_fd: int) -> dict[str, Any]:
    files: dict[str, str] = {}  # repo-relative path reported -> in-root path to open
    unresolved: list[dict[str, Any]] = []
    for path in paths:
        problem = _locate(path, root_fd, files, unresolved)
        if problem:
            unresolved.append({"path": path, "reason": problem[0], "detail": problem[1]})
    resources: list[dict[str, Any]] = []
    signals: list[dict[str, Any]] = []
    tables: dict[str, list[dict[str, Any]]] = {}
    for rel in sorted(files, key=_utf8):
        try:
            # Never by name: a symlink swapped in since _locate checked it is not followed.
            data = repo_files.read_file_in_root(root_fd, files[rel], MAX_FILE_BYTES)
            if len(data) > MAX_FILE_BYTES:  # grew since it was seen
                unresolved.append({"path": rel, "reason": "too-large", "detail": _TOO_LARGE})
                continue
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            unresolved.append({"path": rel, "reason": "unreadable", "detail": "not valid UTF-8"})
            continue
        except OSError:
            unresolved.append({"path": rel, "reason": "unreadable", "detail": "cannot be read"})
            continue
        for number, line in enumerate(text.split("\n"), start=1):
            parsed = _parse(line)
            if parsed is None:
                continue
            if isinstance(parsed, str):
                unresolved.append(
                    {"path": rel, "reason": "parse-error", "detail": f"line {number}: {parsed}"}
                )
                continue
            kind, name, attrs = parsed
            location = {"path": rel, "line": number}
            resources.append({"kind": kind, "name": name, "location": location, "attrs": attrs})
            for key, value in attrs.items():
                signals.append(
                    {
                        "resource": f"{kind}:{name}",
                        "signal": key,
                        "value": value,
                        "source": location,
                    }
                )
            if kind == "table":
                tables.setdefault(name, []).append(location)
    findings: list[dict[str, Any]] = [
        {
            "code": "DUPLICATE_TABLE_NAME",
            "detail": f"table {name} is defined {len(locations)} times",
            "locations": locations,
        }
        for name, locations in tables.items()
        if len(locations) > 1
    ]
    findings.sort(key=lambda f: _at(f["locations"][0]))
    unresolved.sort(key=lambda u: _utf8(u["path"]))  # stable: a file's errors stay in line order
    return {
        "resources": resources,
        "unresolved": unresolved,
        "findings": findings,
        "classificationSignals": signals,
    }


def _locate(
    path: str, root_fd: int, files: dict[str, str], skipped: list[dict[str, Any]]
) -> tuple[str, str] | None:
    """Add the .gfx files `path` names to `files` (and what its walk skips to `skipped`), or
    say why it cannot be read."""
    if path == "." or _NOT_PLAIN_SEGMENT.isdisjoint(path.split("/")):
        try:
            info = repo_files.lstat_plain_path(root_fd, path)
        except FileNotFoundError:
            return "not-found", "no such file or directory"
        if info is not None:  # no symlink on the way: the path is its own real path
            return _classify(path, path, info, root_fd, files, skipped)
    return _locate_by_name(path, root_fd, files, skipped)


def _locate_by_name(
    path: str, root_fd: int, files: dict[str, str], skipped: list[dict[str, Any]]
) -> tuple[str, str] | None:
    """`_locate` for a path with a symlink on the way: what it leads to decides."""
    try:
        info = os.stat(path, dir_fd=root_fd)  # follows links: a dangling one is not found
    except (OSError, ValueError):
        return "not-found", "no such file or directory"
    target = repo_files.resolve_in_root(".", path)
    if target is None:
        return "unreadable", "symlink leads outside the repository"
    return _classify(path, target, info, root_fd, files, skipped)


def _classify(
    path: str,
    target: str,
    info: os.stat_result,
    root_fd: int,
    files: dict[str, str],
    skipped: list[dict[str, Any]],
) -> tuple[str, str] | None:
    """`_locate`'s verdict on `path`, which lies at `target` in the root, `info` its stat."""
    if stat.S_ISDIR(info.st_mode):
        _walk(root_fd, path, target, files, skipped)
        return None
    if not path.endswith(SUFFIX):
        return "unsupported", f"not a {SUFFIX} file"
    if not stat.S_ISREG(info.st_mode):
        return "unreadable", "not a regular file"
    if info.st_size > MAX_FILE_BYTES:
        return "too-large", _TOO_LARGE
    files[path] = target
    return None


def _walk(
    root_fd: int, directory: str, target: str, files: dict[str, str], skipped: list[dict[str, Any]]
) -> None:
    """Add the .gfx files below `directory`, which lies at `target` inside the root, and say in
    `skipped` what the walk passes over that a reader would look for: a name no repo-relative
    path can carry (not UTF-8, a backslash, a leading drive letter) and a file over the size
    cap. Iterative with bounded descriptors (`repo_files.walk_in_root`): no depth makes it fail."""
    cut = len(target) + 1  # in-root path -> reported path: swap the `target` prefix for `directory`

    def reported(inside: str) -> str:
        if inside == target:
            return directory
        tail = inside if target == "." else inside[cut:]
        return tail if directory == "." else f"{directory}/{tail}"

    def visit(fd: int, inside_dir: str, entries: list[os.DirEntry[str]]) -> list[str]:
        here = reported(inside_dir)
        subdirectories = []
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if not is_dir and not (
                entry.is_file(follow_symlinks=False) and entry.name.endswith(SUFFIX)
            ):
                continue
            rel = entry.name if here == "." else f"{here}/{entry.name}"
            problem = repo_files.name_problem(entry.name, rel)
            if problem is not None:
                skipped.append({"path": here, "reason": "unsupported", "detail": problem})
            elif is_dir:
                subdirectories.append(entry.name)
            elif entry.stat(follow_symlinks=False).st_size > MAX_FILE_BYTES:
                skipped.append({"path": rel, "reason": "too-large", "detail": _TOO_LARGE})
            else:
                files[rel] = entry.name if inside_dir == "." else f"{inside_dir}/{entry.name}"
        return subdirectories

    for failed in repo_files.walk_in_root(root_fd, target, visit):
        detail = "directory cannot be listed"
        skipped.append({"path": reported(failed), "reason": "unreadable", "detail": detail})


def _words(line: str) -> list[str]:
    """The runs of anything but ASCII space and tab, as the Node twin's `/[ \t]+/` split gives
    them (str.split() would also cut at other whitespace). Splitting at single spaces and
    dropping the empty pieces gives the same words without a regex."""
    return [w for w in line.rstrip("\r").replace("\t", " ").split(" ") if w]


def _parse(line: str) -> tuple[str, str, dict[str, Any]] | str | None:
    """(kind, name, attrs) for a directive, an error text for a malformed line, None to skip."""
    words = _words(line)
    if not words or words[0].startswith("#"):
        return None
    directive, args = words[0], words[1:]
    positional = _POSITIONAL.get(directive)
    if positional is None:
        return f"unknown directive {directive}"
    names = args[:positional]
    if len(names) < positional or any("=" in w for w in names):
        return "expected table NAME" if directive == "table" else "expected route METHOD PATH"
    attrs: dict[str, Any] = {}
    for word in args[positional:]:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            return f"expected key=value, got {word}"
        attrs[key] = value
    return directive, " ".join(names), attrs


def _utf8(path: str) -> bytes:
    return path.encode("utf-8")


def _at(location: dict[str, Any]) -> tuple[bytes, int]:
    return _utf8(location["path"]), location["line"]


if __name__ == "__main__":
    sys.exit(main())
