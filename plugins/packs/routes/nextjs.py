"""Next.js file-system routes: which files are route files and the path each serves.

Next.js has no call that declares a route: the file's place does. A file under `pages/api/`
(the Pages Router) is an API route whose default export answers every method; a `route.js`/
`route.ts` file under `app/` (the App Router) answers the methods it exports as functions
(`export async function GET`). Either tree may sit under `src/`. Segments become the path:
`index` is its folder's path, `[id]` is `{id}`, a catch-all `[...slug]` is `{slug}`, an
optional catch-all `[[...slug]]` serves its folder's path as well (two paths), a route group
`(admin)` and a parallel-route slot `@modal` add nothing, and a private folder `_lib` (App
Router) or a `_`-named file (Pages Router's `_middleware`) routes nothing.

Which names are pages is the project's `pageExtensions` (`next.config.*`): a file is one only
when its name ends in `.` and one of them, and the route's name drops that whole ending
(`index.page.ts` under `["page.ts"]` is `index`). A project is the folder Next runs in, the one
holding `pages/` or `app/`, or `src/` holding them (`project_of`); its config governs its files
only, so two projects of one repository keep their own settings (`next_projects`). Pure: a path
in, paths out; `js_facts` reads the exports.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from .model import HTTP_METHODS

# Next's default `pageExtensions`, and .mjs: the endings of a route file where no config says
DEFAULT_EXTENSIONS: tuple[str, ...] = ("js", "mjs", "jsx", "ts", "tsx")
SUFFIXES = tuple("." + e for e in DEFAULT_EXTENSIONS)  # the scripts the readers parse
# the methods an App Router route file may export (Next.js answers 405 to the others)
APP_METHODS = tuple(m.upper() for m in HTTP_METHODS if m != "trace")
PAGES = "pages"
APP = "app"
CONFIG = "next.config."  # `next.config.js`, `.mjs`, `.ts`: a project's settings
# a dynamic segment's name is whatever its brackets hold (Next keys the parameter by it, as
# written: `[...not-found-404]` is the parameter `not-found-404`)
_NAME = r"([^\[\]/.][^\[\]/]*)"
_DYNAMIC = re.compile(r"\[" + _NAME + r"\]")
_CATCH_ALL = re.compile(r"\[\.\.\." + _NAME + r"\]")
_OPTIONAL_CATCH_ALL = re.compile(r"\[\[\.\.\." + _NAME + r"\]\]")


def is_config(path: str) -> bool:
    """Whether the file is a Next.js config by its name, in any folder."""
    name = path.rpartition("/")[2]
    return name.startswith(CONFIG) and name.endswith(SUFFIXES)


def config_file(path: str, data: bytes) -> bool:
    """Whether the file is a Next.js config that may set what its project's routes are:
    `basePath` (the prefix they are served under) or `pageExtensions` (which files are
    route files, and their names)."""
    return is_config(path) and (b"basePath" in data or b"pageExtensions" in data)


def candidate(path: str) -> bool:
    """Whether the file may be a route file under some project's `pageExtensions`: a script
    below a `pages/api` folder, or one named `route.…` below an `app` folder. Its exports are
    read; which of them is a route file is decided where the configs are known."""
    if not path.endswith(SUFFIXES) or path.endswith(".d.ts"):
        return False
    found = _router(path.split("/"))
    return found is not None and (found[0] == PAGES or path.rpartition("/")[2].startswith("route."))


def route_file(
    path: str, extensions: Sequence[str] = DEFAULT_EXTENSIONS
) -> tuple[str, tuple[str, ...]] | None:
    """(`PAGES` or `APP`, the paths it serves) for a Next.js route file at repo-relative
    `path` in a project whose `pageExtensions` are `extensions`, else None. The first
    `pages/api` (or `app`) folder on the path is the router's: a repository holding one
    Next.js project in a subfolder (`web/pages/api/x.ts`) is read the same as one at its
    root."""
    if not path.endswith(SUFFIXES) or path.endswith(".d.ts"):
        return None
    parts = path.split("/")
    found = _router(parts)
    stem = _page_name(parts[-1], extensions)
    if found is None or stem is None:
        return None
    kind, at = found
    if kind == PAGES:
        if stem == "_middleware":
            return None  # Next 12's middleware, the one special name under `pages/api`
        return PAGES, _paths([*parts[at + 1 : -1], *(() if stem == "index" else (stem,))])
    if stem != "route":
        return None
    segments = parts[at + 1 : -1]
    if any(s.startswith("_") for s in segments):
        return None  # a private folder and everything in it
    return APP, _paths(segments)


def project_of(path: str, configs: Collection[str]) -> str | None:
    """The project folder of the route file at `path`: of the folders Next looks for its
    `pages/` and `app/` in (the one holding the router folder, and its parent when that is a
    `src/` folder), the closest that holds a config (`configs`: folders holding one); None
    where neither does (Next's defaults)."""
    found = _router(path.split("/"))
    if found is None:
        return None
    folders = path.split("/")[: found[1]]
    nearest = ["/".join(folders)]
    if folders and folders[-1] == "src":
        nearest.append("/".join(folders[:-1]))
    return next((folder for folder in nearest if folder in configs), None)


def _router(parts: list[str]) -> tuple[str, int] | None:
    """(`PAGES` or `APP`, the index of its `pages` or `app` folder): the first router folder
    on the path (`pages/api`, `app`), a file's own name aside."""
    for at, part in enumerate(parts[:-1]):
        if part == PAGES and at + 1 < len(parts) - 1 and parts[at + 1] == "api":
            return PAGES, at
        if part == APP:
            return APP, at
    return None


def _page_name(name: str, extensions: Sequence[str]) -> str | None:
    """The file name without its page extension, the longest of `extensions` it ends in
    after a `.` (Next's `getPageFromPath`: `index.page.ts` is `index` under `page.ts`, and
    under `ts` alone `index.page`); None when it ends in none: no page."""
    endings = sorted((e for e in extensions if name.endswith("." + e)), key=len, reverse=True)
    if not endings or len(name) == len(endings[0]) + 1:
        return None
    return name[: -len(endings[0]) - 1]


def _paths(segments: list[str]) -> tuple[str, ...]:
    """The paths served by these folder (and file) names, in order: one, or two when the
    last is an optional catch-all (with and without it)."""
    kept: list[str] = []
    optional = False
    for index, segment in enumerate(segments):
        if segment.startswith("(") and segment.endswith(")"):
            continue  # a route group
        if segment.startswith("@"):
            continue  # a parallel route's slot
        match = _OPTIONAL_CATCH_ALL.fullmatch(segment)
        if match is not None:
            optional = index == len(segments) - 1
            kept.append("{" + match.group(1) + "}")
            continue
        segment = _CATCH_ALL.sub(r"{\1}", segment)
        kept.append(_DYNAMIC.sub(r"{\1}", segment))
    full = "/" + "/".join(kept)
    if optional:
        return ("/" + "/".join(kept[:-1]), full)
    return (full,)
