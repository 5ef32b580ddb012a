"""Next.js projects: each route file placed by the settings of the project it belongs to.

A repository may hold several Next.js projects (an app and its examples, a monorepo's apps),
each with its own `next.config.*`. What a config says is true of its project only: which files
under its `pages/api/` and `app/` are route files and what they are named (`pageExtensions`),
and the prefix they are served under (`basePath`, a `GlobalPrefix` the linker applies through
`configs`/`nextjs.project_of`). The facts of a file that may be a route file hold its exports
(`ModuleFacts.next_handlers`), read before any config is known; here, with every config at
hand, each becomes the routes it serves, as `next build` would map it. A config naming
`pageExtensions` in a way not read is a finding at the config, its project's files read under
Next's defaults.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from dataclasses import replace

from . import nextjs
from .model import (
    NEXTJS,
    Auth,
    Lit,
    ModuleFacts,
    Opaque,
    RouteDecl,
    RouterDecl,
    RouterRef,
    Sym,
)

# a finding: (file, line, detail)
Gap = tuple[str, int, str]
_UNREAD = (
    "the `pageExtensions` of this Next.js config are computed out of sight: which files of "
    "its project are route files, and their names, are read by Next's default extensions"
)
_DISAGREE = (
    "the `pageExtensions` of the Next.js configs of this folder differ: which files of its "
    "project are route files, and their names, are read by Next's default extensions"
)


class PlacedMemo:
    """The facts `placed` gave each route file at the last link of the same discover: the
    very objects again where the file's facts and its extensions are the same, so the
    linker's memo of each file's calls (kept by facts object) still holds."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[ModuleFacts, tuple[str, ...], ModuleFacts]] = {}

    def get(self, facts: ModuleFacts, extensions: tuple[str, ...]) -> ModuleFacts | None:
        kept = self.kept.get(id(facts))
        return kept[2] if kept is not None and kept[0] is facts and kept[1] == extensions else None

    def keep(self, facts: ModuleFacts, extensions: tuple[str, ...], out: ModuleFacts) -> None:
        self.kept[id(facts)] = (facts, extensions, out)  # the facts held: the id stays theirs

    def only(self, linked: Collection[int]) -> None:
        """Forget the files whose placed facts were not linked (`LinkMemo.only`)."""
        for gone in [key for key, kept in self.kept.items() if id(kept[2]) not in linked]:
            del self.kept[gone]


def configs(files: Collection[str]) -> frozenset[str]:
    """The folders holding a Next.js config among `files`: the projects (a config that sets
    nothing is a project of Next's defaults all the same)."""
    return frozenset(posixpath.dirname(f) for f in files if nextjs.is_config(f))


def placed(
    modules: Mapping[str, ModuleFacts], projects: Collection[str], memo: PlacedMemo
) -> tuple[Mapping[str, ModuleFacts], list[Gap]]:
    """`modules`, each Next.js route file given its router and routes under its project's
    `pageExtensions` (`projects`: the folders holding a config, `configs`), and the findings
    of configs whose extensions are not read."""
    if not any(facts.next_handlers is not None for facts in modules.values()):
        return modules, []
    extensions, gaps = _extensions(modules)
    out = dict(modules)
    for path, facts in modules.items():
        if facts.next_handlers is None:
            continue
        project = nextjs.project_of(path, projects)
        chosen = nextjs.DEFAULT_EXTENSIONS
        if project is not None:
            chosen = extensions.get(project, chosen)
        kept = memo.get(facts, chosen)
        if kept is None:
            kept = _with_routes(path, facts, chosen)
            memo.keep(facts, chosen, kept)
        out[path] = kept
    return out, gaps


def _extensions(
    modules: Mapping[str, ModuleFacts],
) -> tuple[dict[str, tuple[str, ...]], list[Gap]]:
    """Each project folder's `pageExtensions` where a config of it sets them (Next's
    defaults where not read, with a finding), and those findings."""
    found: dict[str, list[tuple[str, tuple[str, ...] | None, int]]] = {}
    for path, facts in sorted(modules.items()):
        if (setting := facts.page_extensions) is not None:
            found.setdefault(posixpath.dirname(path), []).append(
                (path, setting.extensions, setting.line)
            )
    chosen: dict[str, tuple[str, ...]] = {}
    gaps: list[Gap] = []
    for folder, settings in found.items():
        known = {extensions for _, extensions, _ in settings if extensions is not None}
        if len(known) == 1 and all(extensions is not None for _, extensions, _ in settings):
            chosen[folder] = next(iter(known))
            continue
        detail = _DISAGREE if len(known) > 1 else _UNREAD
        gaps += [(path, line, detail) for path, _, line in settings]
    return chosen, gaps


def _with_routes(path: str, facts: ModuleFacts, extensions: tuple[str, ...]) -> ModuleFacts:
    """The facts of a file that may be a route file, with the routes it serves under these
    `extensions`: a Pages Router file's default export answers every method (one route per
    verb, as Express's `all`), an App Router file's exported `GET`, `POST`... functions each
    answer theirs. The handler is all there is between a caller and the route besides the
    project's `middleware.ts`, which is not read (an `Opaque` step): the route is `required`
    when the handler's own text answers 401/403, or a wrapper it is passed to guards (`export
    default withAuth(handler)`), else `unknown`, never `none`."""
    served = nextjs.route_file(path, extensions)
    if served is None:
        return facts
    kind, paths = served
    exported = {h.export: h for h in facts.next_handlers or ()}
    if kind == nextjs.PAGES:
        handlers = [(m, exported["default"]) for m in nextjs.APP_METHODS if "default" in exported]
    else:
        handlers = [(m, exported[m]) for m in nextjs.APP_METHODS if m in exported]
    if not handlers and not (kind == nextjs.APP and facts.star_exports):
        return facts
    site = f"{path}:nextjs"
    routes: list[RouteDecl] = []
    if not handlers:  # `export * from './handlers'`: which methods is not read
        routes += [RouteDecl(RouterRef(site), Lit(p), None, 1, methods_unknown=True) for p in paths]
    for method, handler in handlers:
        value = handler.value
        name = ".".join(value.path) if isinstance(value, Sym) else None
        for p in paths:
            routes.append(
                RouteDecl(RouterRef(site), Lit(p), (method,), handler.line, name,
                          auth=Auth((value, Opaque())))
            )  # fmt: skip
    return replace(
        facts,
        routers=(*facts.routers, RouterDecl(site, NEXTJS, 1, app=True)),
        routes=(*facts.routes, *routes),
    )
