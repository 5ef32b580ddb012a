"""Next.js file-system routes: which files are route files and the path each serves.

Next.js has no call that declares a route: the file's place does. A file under `pages/api/`
(the Pages Router) is an API route whose default export answers every method; a `route.js`/
`route.ts` file under `app/` (the App Router) answers the methods it exports as functions
(`export async function GET`). Either tree may sit under `src/`. Segments become the path:
`index` is its folder's path, `[id]` is `{id}`, a catch-all `[...slug]` is `{slug}`, an
optional catch-all `[[...slug]]` serves its folder's path as well (two paths), a route group
`(admin)` and a parallel-route slot `@modal` add nothing, and a private folder `_lib` (App
Router) or a `_`-named file (Pages Router's `_middleware`) routes nothing. Pure: a path in,
paths out; `js_facts` reads the exports.
"""

from __future__ import annotations

import re

from .model import HTTP_METHODS

SUFFIXES = (".js", ".mjs", ".jsx", ".ts", ".tsx")  # Next's default `pageExtensions`, and .mjs
# the methods an App Router route file may export (Next.js answers 405 to the others)
APP_METHODS = tuple(m.upper() for m in HTTP_METHODS if m != "trace")
PAGES = "pages"
APP = "app"
_DYNAMIC = re.compile(r"\[([A-Za-z_$][A-Za-z0-9_$]*)\]")
_CATCH_ALL = re.compile(r"\[\.\.\.([A-Za-z_$][A-Za-z0-9_$]*)\]")
_OPTIONAL_CATCH_ALL = re.compile(r"\[\[\.\.\.([A-Za-z_$][A-Za-z0-9_$]*)\]\]")


def config_file(path: str, data: bytes) -> bool:
    """Whether the file is a Next.js config that may set `basePath` (`next.config.js`,
    `.mjs`, `.ts`, in any folder): the prefix every route of the project is served under."""
    name = path.rpartition("/")[2]
    return name.startswith("next.config.") and name.endswith(SUFFIXES) and b"basePath" in data


def route_file(path: str) -> tuple[str, tuple[str, ...]] | None:
    """(`PAGES` or `APP`, the paths it serves) for a Next.js route file at repo-relative
    `path`, else None. The first `pages/api` (or `app`) folder on the path is the router's:
    a repository holding one Next.js project in a subfolder (`web/pages/api/x.ts`) is read
    the same as one at its root."""
    if not path.endswith(SUFFIXES) or path.endswith(".d.ts"):
        return None
    parts = path.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    for at, part in enumerate(parts[:-1]):
        if part == PAGES and at + 1 < len(parts) - 1 and parts[at + 1] == "api":
            if stem == "_middleware":
                return None  # Next 12's middleware, the one special name under `pages/api`
            segments = [*parts[at + 1 : -1], *(() if stem == "index" else (stem,))]
            return PAGES, _paths(segments)
        if part == APP:
            if stem != "route":
                return None
            segments = parts[at + 1 : -1]
            if any(s.startswith("_") for s in segments):
                return None  # a private folder and everything in it
            return APP, _paths(segments)
    return None


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
