"""Routes rendered as the result document's resources, `auth` signals and duplicate findings.

attrs of a `route` resource: `framework` (`fastapi`, `flask`, `starlette`, `django`, `express`,
`koa`: the framework of the router that declares it), `handler` (the handler as the source names it, absent
for an inline function), `prefixUnresolved: true` only when a prefix on the way is not
visible in the scanned files (the name then lacks it; an `UNRESOLVED_PREFIX` finding says
where), and `configDefault` (a string, sources joined by `; `) when a segment of the name is a configuration's default
taken because nothing the scan shows overrides it (`process.env.PREFIX || '/api'`, a schema's
`default`, a sample environment file's value), naming each source (the deployment may set
another), and `pathRegex` (the regular expressions its path holds, as literals with their flags,
`; `-separated: `/^\\/x/i`) when its path or a mount path is one, written in the name as its
source. Signals: `auth` = `required`, `none` or `unknown` (see `auth`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from ..builders import DUPLICATE_ROUTE, duplicate_findings, location, signal
from ..entry_points import (
    cfg_entry_points,
    is_distribution_file,
    python_entry_points,
    spells_entry_points,
    toml_entry_points,
)
from ..scan_document import DocumentPieces, JSONObject
from .auth import VALUES
from .envfiles import env_facts, is_env_file
from .js_facts import JS_SUFFIXES, js_facts
from .linker import FoundRoute, Gap, LinkMemo, names_whole, resolve_routes_and_asked
from .manifests import MANIFEST, is_lock, is_manifest, lock_facts, manifest_facts
from .model import ModuleFacts
from .python_facts import python_facts
from .seeds import spells_router_base
from .tsconfig import config_facts, is_config

SUFFIXES = (".py", *JS_SUFFIXES, MANIFEST)  # manifests: parsed when the linker asks


def NAMED(name: str) -> bool:
    """`tsconfig*.json`/`jsconfig*.json`, sample environment files (`.env.example`), a
    distribution's `pyproject.toml`/`setup.cfg` and npm's, yarn's and pnpm's lock files:
    parsed when the linker asks, too."""
    return is_config(name) or is_env_file(name) or is_distribution_file(name) or is_lock(name)


KIND = "route"
_PARAM = re.compile(r"\{[^}]*\}")


def extract(path: str, source: str) -> ModuleFacts:
    return _extract(path, source, django=True)


def extract_lean(path: str, source: str) -> ModuleFacts:
    """`extract` without the Django facts of Python files: the scanner reads with it when no
    file of the walk spells a Django seed (`seeds.widens`). The Django link starts only from
    a file whose Django facts hold a URLconf, a settings module or REST framework's settings
    (`django_linker._seeded`), which only such a file can, so it reads no file's facts then."""
    return _extract(path, source, django=False)


def _extract(path: str, source: str, *, django: bool) -> ModuleFacts:
    if path.endswith(".py"):
        facts = python_facts(source, path, django=django)
        if spells_entry_points(source):  # a `setup(entry_points=...)`, a plugin loader
            name, groups, loads = python_entry_points(source, path)
            facts = replace(facts, distribution=name, entry_points=groups, plugin_loads=loads)
        return replace(facts, router_bases=True) if spells_router_base(source) else facts
    if is_distribution_file(path):  # `pyproject.toml`, `setup.cfg`
        read = toml_entry_points if path.endswith(".toml") else cfg_entry_points
        name, groups = read(source)
        return ModuleFacts("python", distribution=name, entry_points=groups)
    if is_manifest(path):
        return manifest_facts(source)
    if is_lock(path):
        return lock_facts(path, source)
    if is_config(path):
        return config_facts(source)
    if is_env_file(path):
        return env_facts(source)
    return js_facts(source.encode("utf-8"), path)


def route_document(
    files: Sequence[tuple[str, ModuleFacts]],
    paths: Collection[str] | None = None,
    failed: Collection[str] = (),
    memo: LinkMemo | None = None,
) -> DocumentPieces:
    """Resources and `auth` signals in (path, line, name) order, and `DUPLICATE_ROUTE` for
    each `METHOD /path` two handlers claim. Parameter names do not tell paths apart (a
    framework routes `/orders/{id}` and `/orders/{order_id}` alike, so the second is shadowed);
    the finding names the route as its first claim spells it. `memo`: what the last link of
    the same discover kept for this one (`linker.LinkMemo`)."""
    resolved, asked = resolve_routes_and_asked(dict(files), paths=paths, failed=failed, memo=memo)
    linked = _render(resolved.routes)
    linked.findings += resolved.findings
    linked.touched, linked.words = asked
    return linked


class RouteDocumentMemo:
    """`route_document` that remembers its last answer: when every file's facts are the very
    objects of the last call (the memo handed them back unchanged), linking would give the same
    document, so a repeated discover of an unchanged repository skips it."""

    def __init__(self) -> None:
        self._files: list[tuple[str, ModuleFacts]] = []
        self._paths: frozenset[str] | None = None
        self._failed: frozenset[str] = frozenset()
        self._linked = DocumentPieces()
        self.links = 0  # how many times it really linked; a test reads it
        self._memo = LinkMemo()  # each round of an on-demand scan links the same facts

    def __call__(
        self,
        files: Sequence[tuple[str, ModuleFacts]],
        paths: Collection[str] | None = None,
        failed: Collection[str] = (),
    ) -> DocumentPieces:
        known = frozenset(paths) if paths is not None else None
        bad = frozenset(failed)
        unchanged = (
            known == self._paths
            and bad == self._failed
            and len(files) == len(self._files)
            and all(
                path == old_path and facts is old_facts
                for (path, facts), (old_path, old_facts) in zip(files, self._files, strict=True)
            )
        )
        if not unchanged:
            linked = route_document(files, known, bad, self._memo)
            self._files, self._linked = list(files), linked
            self._paths, self._failed = known, bad
            self.links += 1
        return self._linked


def _render(routes: list[FoundRoute]) -> DocumentPieces:
    # one handler reached twice under one name is one route
    found = {(r.path.encode(), r.line, r.name): r for r in routes}
    _drop_shortened(found)
    linked = DocumentPieces()
    # claims by the path as matched and the unknown prefixes it lacks: routes missing different
    # unknown prefixes are not known to collide; the finding names the first claim's route
    claims: dict[tuple[str, tuple[Gap, ...]], list[JSONObject]] = {}
    first_name: dict[tuple[str, tuple[Gap, ...]], str] = {}
    for key in sorted(found):
        route, name = found[key], key[2]
        where = location(route.path, route.line)
        linked.resources.append(
            {"kind": KIND, "name": name, "location": where, "attrs": _attrs(route)}
        )
        linked.signals.append(signal(KIND, name, "auth", VALUES[route.auth], where))
        matched = f"{route.method} {route.shape}" if route.shape else _PARAM.sub("{}", name)
        first_name.setdefault((matched, route.gaps), name)
        claims.setdefault((matched, route.gaps), []).append(where)
    linked.findings = [
        finding
        for key, places in claims.items()
        for finding in duplicate_findings(DUPLICATE_ROUTE, KIND, {first_name[key]: places})
    ]
    return linked


def _drop_shortened(found: dict[tuple[bytes, int, str], FoundRoute]) -> None:
    """A handler listed under a mount whose prefixes are all known is not listed again under
    one whose prefix is computed (`if flag: mount('/a', r) else: mount(base(), r)`): that name
    lacks the prefix, so it names no route the app serves; the `UNRESOLVED_PREFIX` finding at
    the computed mount still lists the handler's place."""
    known = {(key[0], key[1], r.method) for key, r in found.items() if names_whole(r.gaps)}
    if len(known) == len(found):
        return
    for key, route in list(found.items()):
        if not names_whole(route.gaps) and (key[0], key[1], route.method) in known:
            del found[key]


def _attrs(route: FoundRoute) -> JSONObject:
    attrs: JSONObject = {"framework": route.framework}
    if route.handler is not None:
        attrs["handler"] = route.handler
    if route.prefix_unresolved:
        attrs["prefixUnresolved"] = True
    if route.assumed:
        attrs["configDefault"] = "; ".join(route.assumed)
    if route.library:
        attrs["library"] = route.library
    if route.regex:
        attrs["pathRegex"] = route.regex
    return attrs
