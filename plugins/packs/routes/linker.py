"""Link every scanned file's facts into routes with their full paths.

The files say, each for itself, which routers exist, which routes sit on them and which router
serves which other under what prefix, naming things as the source names them. Linking resolves
those names across modules (Python imports by dotted name, JavaScript `import`/`require` by
relative specifier), builds the mount graph, and walks it from each router that nothing mounts
(an app, or a router whose including file was not scanned), joining prefixes on the way and
carrying the auth that a router, an include or a middleware puts on what it serves.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .auth import says_auth
from .model import (
    CALL,
    EXPRESS,
    FLASK,
    Auth,
    Concat,
    DependencyAlias,
    Expr,
    Function,
    ImportRef,
    Invocation,
    Lit,
    ModuleFacts,
    MountDecl,
    Namespace,
    Opaque,
    Param,
    RouteDecl,
    RouterDecl,
    RouterRef,
    StarletteRoutes,
    UseDecl,
)
from .paths import brace_path, express_path, flask_path, join, join_prefix
from .python_facts import module_name

_MAX_DEPTH = 64  # names that resolve through more hops than this are taken as not visible
LINK_BUDGET = 25_000
"""Routes produced plus mounts followed in one link. Mounting a router twice in each of 40
routers is 2^40 paths from a 3.6 KB file: past the budget the expansion stops, and each mount
it did not follow is a `LINK_BUDGET_EXCEEDED` finding (never a silent cut, never a timeout)."""
LINK_BUDGET_EXCEEDED = "LINK_BUDGET_EXCEEDED"
_JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx")


class FoundRoute(NamedTuple):
    """One `METHOD /path` served by a handler at `path`:`line`. `prefix_unresolved` marks a
    route under a prefix the scanned files do not show (its path lacks that prefix).

    A named tuple, not a frozen dataclass: as immutable, and made one per route found, where a
    frozen dataclass's `__init__` (a Python-level `object.__setattr__` per field) costs about
    five times a tuple's. Never compared or hashed, so tuple equality does not matter."""

    method: str
    route: str
    path: str
    line: int
    framework: str
    handler: str | None
    auth: bool
    prefix_unresolved: bool

    @property
    def name(self) -> str:
        return f"{self.method} {self.route}"


@dataclass(frozen=True, slots=True)
class _PyModule:
    name: str


@dataclass(frozen=True, slots=True)
class _JsModule:
    path: str


@dataclass(frozen=True, slots=True)
class _Str:
    value: str


@dataclass(frozen=True, slots=True)
class _Router:
    key: tuple[str, str]


@dataclass(frozen=True, slots=True)
class _Scoped:
    """A class, function, alias or route list, with the file its names are looked up in."""

    file: str
    value: Namespace | Function | DependencyAlias | StarletteRoutes


_Entity = _PyModule | _JsModule | _Str | _Router | _Scoped


class _Unseen:
    """The cache's answer for a key it does not hold (None is a remembered answer)."""


_UNSEEN = _Unseen()
_NORMALISE = {EXPRESS: express_path, FLASK: flask_path}  # others spell parameters `{name}`


@dataclass
class _Node:
    """A router with what hangs on it, gathered from every file."""

    file: str
    decl: RouterDecl
    routes: list[tuple[str, RouteDecl]] = field(default_factory=list)
    mounts: list[tuple[str, MountDecl, tuple[str, str]]] = field(default_factory=list)
    # auth middleware: (file, line, the path it guards under the router; "" for all of it)
    guards: list[tuple[str, int, str]] = field(default_factory=list)


def link(modules: Mapping[str, ModuleFacts]) -> list[FoundRoute]:
    """Every route the scanned files show, in no particular order (callers sort)."""
    return link_budgeted(modules)[0]


def link_budgeted(
    modules: Mapping[str, ModuleFacts], budget: int = LINK_BUDGET
) -> tuple[list[FoundRoute], list[dict[str, Any]]]:
    """`link`, and a `LINK_BUDGET_EXCEEDED` finding when the mount expansion hit `budget`
    (its locations: the mounts not followed)."""
    linker = _Linker(modules)
    linker.budget = budget
    routes = linker.routes()
    if not linker.cut:
        return routes, []
    detail = (
        f"route expansion stopped after {budget} routes and mounts: the routes below these "
        "mounts are not all listed"
    )
    locations = [
        {"path": p, "line": n} for p, n in sorted(linker.cut, key=lambda c: (c[0].encode(), c[1]))
    ]
    return routes, [{"code": LINK_BUDGET_EXCEEDED, "detail": detail, "locations": locations}]


class _Linker:
    def __init__(self, modules: Mapping[str, ModuleFacts]) -> None:
        self.modules = modules
        self.python_files: dict[str, str] = {}  # dotted module name -> file
        self.packages: set[str] = set()
        self.by_suffix: dict[str, list[str]] = {}
        for path, facts in modules.items():
            if facts.language == "python":
                self._index_python(path)
        self.cache: dict[tuple[str, Expr], _Entity | None] = {}
        self.resolving: set[tuple[str, Expr]] = set()
        # (file, def site) -> the calls of that function, found when a `Param` first asks
        self.calls: dict[tuple[str, str], list[tuple[str, Invocation]]] | None = None
        self.nodes: dict[tuple[str, str], _Node] = {
            (path, decl.router_id): _Node(path, decl)
            for path, facts in modules.items()
            for decl in facts.routers
        }
        self.budget = LINK_BUDGET  # routes produced plus mounts followed, still allowed
        self.cut: dict[tuple[str, int], None] = {}  # mounts not followed for want of budget

    def _index_python(self, path: str) -> None:
        name = module_name(path)
        self.python_files[name] = path
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            self.packages.add(".".join(parts[:end]))
        for full in (".".join(parts[:end]) for end in range(1, len(parts) + 1)):
            pieces = full.split(".")
            for start in range(len(pieces)):
                suffixes = self.by_suffix.setdefault(".".join(pieces[start:]), [])
                if full not in suffixes:
                    suffixes.append(full)

    # -- the graph -------------------------------------------------------------------------

    def routes(self) -> list[FoundRoute]:
        for path, facts in self.modules.items():
            self._attach(path, facts)
        mounted = {child for node in self.nodes.values() for _, _, child in node.mounts}
        found: list[FoundRoute] = []
        for key in sorted(self.nodes, key=lambda k: (k[0].encode(), self.nodes[k].decl.line)):
            if key not in mounted:
                prefix, unresolved = self._own_prefix(key)
                self._walk(found, key, prefix, False, unresolved, (key,))
        return found

    def _attach(self, path: str, facts: ModuleFacts) -> None:
        for decl in facts.routers:
            if decl.routes is not None:
                self._attach_list(path, decl.routes, (path, decl.router_id), 0)
        for route in facts.routes:
            for node in self._owners(path, route.owner):
                node.routes.append((path, route))
        for mount in facts.mounts:
            for node in self._owners(path, mount.parent):
                self._add_mount(node, path, mount)
        for guard in facts.middleware:
            for node in self._owners(path, guard.owner):
                if self._auth(path, guard.auth):
                    node.guards.append((path, guard.line, ""))
        for use in facts.uses:
            for node in self._owners(path, use.owner):
                self._attach_use(node, path, use)

    def _attach_use(self, node: _Node, path: str, use: UseDecl) -> None:
        """Express `use`: a leading string is the mount path; a router among the arguments is
        mounted, guarded by the auth middleware before it; auth middleware guards what the
        router declares after this line under the mount path (all of it without one)."""
        args = list(use.args)
        prefix: str | None = None
        if len(args) > 1 and args[0][0] is not None:
            prefix = self._string(path, args[0][0])
            if prefix is not None:
                args.pop(0)
        guards: list[str] = []
        for expr, auth in args:
            child = self.evaluate(path, expr) if expr is not None else None
            if isinstance(child, _Router) and expr is not None:
                mount = MountDecl(use.owner, expr, _literal(prefix), use.line, Auth(tuple(guards)))
                node.mounts.append((path, mount, child.key))
            elif auth.names:
                guards += auth.names
                node.guards.append((path, use.line, prefix or ""))

    def _attach_list(self, path: str, routes: Expr, key: tuple[str, str], depth: int) -> None:
        entity = self.evaluate(path, routes)
        if depth > _MAX_DEPTH or not (
            isinstance(entity, _Scoped) and isinstance(entity.value, StarletteRoutes)
        ):
            return
        node = self.nodes[key]
        for item in entity.value.items:
            if isinstance(item, RouteDecl):
                node.routes.append((entity.file, item))
            elif isinstance(item, MountDecl):
                self._add_mount(node, entity.file, item)
            else:
                self._attach_list(entity.file, item, key, depth + 1)

    def _add_mount(self, node: _Node, path: str, mount: MountDecl) -> None:
        child = self.evaluate(path, mount.child)
        if isinstance(child, _Router):
            node.mounts.append((path, mount, child.key))

    def _owner(self, path: str, owner: Expr | None) -> _Node | None:
        entity = self.evaluate(path, owner) if owner is not None else None
        return self.nodes.get(entity.key) if isinstance(entity, _Router) else None

    def _owners(self, path: str, owner: Expr | None, depth: int = 0) -> list[_Node]:
        """The routers `owner` stands for: one, or for a function's parameter each router
        the scanned calls of that function pass (through other functions' parameters too);
        a parameter no call passes is read as the global name it spells."""
        if not isinstance(owner, Param):
            node = self._owner(path, owner)
            return [node] if node is not None else []
        found: list[_Node] = []
        if depth <= _MAX_DEPTH:
            for file, call in self._calls_of(path, owner.function):
                if 0 <= owner.index < len(call.args):
                    passed = call.args[owner.index]
                else:
                    passed = dict(call.keywords).get(owner.name)
                for node in self._owners(file, passed, depth + 1):
                    if all(node is not other for other in found):
                        found.append(node)
        return found or self._owners(path, owner.fallback)

    def _calls_of(self, path: str, site: str) -> list[tuple[str, Invocation]]:
        if self.calls is None:  # indexed once, on the first parameter asked about
            self.calls = {}
            for file, facts in self.modules.items():
                for call in facts.invocations:
                    callee = self.evaluate(file, call.callee)
                    if isinstance(callee, _Scoped) and isinstance(callee.value, Function):
                        key = (callee.file, callee.value.site)
                        self.calls.setdefault(key, []).append((file, call))
        return self.calls.get((path, site), [])

    def _own_prefix(self, key: tuple[str, str]) -> tuple[str, bool]:
        node = self.nodes[key]
        if node.decl.prefix is None:
            return "", False
        value = self._string(node.file, node.decl.prefix)
        return (value, False) if value is not None else ("", True)

    def _walk(
        self,
        found: list[FoundRoute],
        key: tuple[str, str],
        base: str,
        inherited_auth: bool,
        unresolved: bool,
        stack: tuple[tuple[str, str], ...],
    ) -> None:
        """Append to `found` the routes of the router `key` and of all it mounts (appending,
        not yielding: a generator per level would pass every route through each frame)."""
        node = self.nodes[key]
        auth = inherited_auth or self._auth(node.file, node.decl.auth)
        self.budget -= len(node.routes)
        for path, route in node.routes:
            self._found(found, node, path, route, base, auth, unresolved)
        for path, mount, child in node.mounts:
            if child in stack or len(stack) > _MAX_DEPTH:
                continue
            self.budget -= 1
            if self.budget < 0:
                self.cut[(path, mount.line)] = None
                continue
            prefix, prefix_unresolved = None, False
            if mount.prefix is not None:
                prefix = self._string(path, mount.prefix)
                prefix_unresolved = prefix is None
            own, own_unresolved = self._own_prefix(child)
            if mount.replaces_prefix and prefix is not None:
                child_base, own_unresolved = join_prefix(base, prefix), False
            else:
                child_base = join_prefix(join_prefix(base, prefix or ""), own)
            child_auth = (
                auth
                or self._auth(path, mount.auth)
                or _guarded_at(node, path, mount.line, prefix or "")
            )
            self._walk(
                found,
                child,
                child_base,
                child_auth,
                unresolved or prefix_unresolved or own_unresolved,
                (*stack, child),
            )

    def _found(
        self,
        found: list[FoundRoute],
        node: _Node,
        path: str,
        route: RouteDecl,
        base: str,
        auth: bool,
        unresolved: bool,
    ) -> None:
        declared = self._string(path, route.path)
        if declared is None:
            return
        full = join(base, declared)
        framework = node.decl.framework
        full = _NORMALISE.get(framework, brace_path)(full)
        methods = route.methods
        endpoint = self.evaluate(path, route.endpoint) if route.endpoint is not None else None
        route_auth = (
            auth or self._auth(path, route.auth) or _guarded_at(node, path, route.line, declared)
        )
        if isinstance(endpoint, _Scoped):
            if isinstance(endpoint.value, Namespace):
                methods = methods or endpoint.value.verbs or None
                route_auth = route_auth or self._auth(endpoint.file, endpoint.value.auth)
            elif isinstance(endpoint.value, Function):
                route_auth = route_auth or self._auth(endpoint.file, endpoint.value.auth)
        for method in dict.fromkeys(methods or ("GET",)):
            found.append(
                FoundRoute(
                    method, full, path, route.line, framework, route.handler, route_auth, unresolved
                )
            )

    # -- names -----------------------------------------------------------------------------

    def _auth(self, path: str, auth: Auth) -> bool:
        if auth.names:
            return True
        for alias in auth.aliases:
            entity = self.evaluate(path, alias)
            if (
                isinstance(entity, _Scoped)
                and isinstance(entity.value, DependencyAlias)
                and any(says_auth(name) for name in entity.value.names)
            ):
                return True
        return False

    def _string(self, path: str, expr: Expr) -> str | None:
        if type(expr) is Lit:  # most paths and prefixes: nothing to look up
            return expr.value
        entity = self.evaluate(path, expr)
        return entity.value if isinstance(entity, _Str) else None

    def evaluate(self, path: str, expr: Expr) -> _Entity | None:
        """What `expr`, written in the file `path`, stands for; None when the scanned files do
        not show it (or it names itself in a loop)."""
        if isinstance(expr, Lit):  # most paths: no need to remember them
            return _Str(expr.value)
        key = (path, expr)
        cached = self.cache.get(key, _UNSEEN)  # one hash of the key, not two
        if not isinstance(cached, _Unseen):
            return cached
        if key in self.resolving or len(self.resolving) > _MAX_DEPTH:
            return None
        self.resolving.add(key)
        try:
            entity = self._evaluate(path, expr)
        finally:
            self.resolving.discard(key)
        self.cache[key] = entity
        return entity

    def _evaluate(self, path: str, expr: Expr) -> _Entity | None:
        if isinstance(expr, Lit):
            return _Str(expr.value)
        if isinstance(expr, Concat):
            parts = [self._string(path, part) for part in expr.parts]
            return None if any(p is None for p in parts) else _Str("".join(map(str, parts)))
        if isinstance(expr, RouterRef):
            key = (path, expr.router_id)
            return _Router(key) if key in self.nodes else None
        if isinstance(expr, Namespace | Function | DependencyAlias | StarletteRoutes):
            return _Scoped(path, expr)
        if isinstance(expr, ImportRef):
            return self._import(path, expr)
        if isinstance(expr, Opaque):
            return None
        if isinstance(expr, Param):  # as a value (not a router position): the name as global
            return self.evaluate(path, expr.fallback)
        entity = self._lookup(path, expr.path[0])
        for segment in expr.path[1:]:
            if entity is None:
                return None
            entity = self._member(entity, segment)
        return entity

    def _lookup(self, path: str, name: str) -> _Entity | None:
        facts = self.modules[path]
        binding = facts.bindings.get(name)
        return self.evaluate(path, binding) if binding is not None else None

    def _member(self, entity: _Entity, segment: str) -> _Entity | None:
        if isinstance(entity, _PyModule):
            file = self.python_files.get(entity.name)
            bound = self._lookup(file, segment) if file is not None else None
            if bound is not None:
                return bound
            submodule = f"{entity.name}.{segment}"
            return _PyModule(submodule) if submodule in self.packages else None
        if isinstance(entity, _JsModule):
            return self._export(entity.path, segment)
        if isinstance(entity, _Scoped):
            value = entity.value
            if isinstance(value, Namespace):
                if segment == CALL:  # an instance reads the class's field defaults
                    return entity
                fields = dict(value.fields)
                return self.evaluate(entity.file, fields[segment]) if segment in fields else None
            if isinstance(value, Function) and segment == CALL and value.returns is not None:
                return self.evaluate(entity.file, value.returns)
        return None

    # -- modules ---------------------------------------------------------------------------

    def _import(self, path: str, ref: ImportRef) -> _Entity | None:
        if self.modules[path].language == "python":
            module = self._python_module(ref.module, path)
            if module is None:
                return None
            return self._member(module, ref.attr) if ref.attr is not None else module
        target = self._js_file(ref.origin or path, ref.module)
        if target is None:
            return None
        if ref.attr is None:
            return _JsModule(target)
        if ref.attr == "default":
            return self._default_export(target)
        return self._export(target, ref.attr)

    def _python_module(self, name: str, importer: str) -> _PyModule | None:
        """The scanned module an absolute import names. A repository's import root is not
        known (`backend/app/main.py` imports `app.api`), so any module whose dotted name ends
        with `name` qualifies; the one sharing most of the importer's package wins."""
        if name in self.packages:  # the common case: imported from the repository's root
            return _PyModule(name)
        candidates = self.by_suffix.get(name)
        if not candidates:
            return None
        here = module_name(importer).split(".")

        def closeness(full: str) -> tuple[int, int, str]:
            parts = full.split(".")
            shared = 0
            for a, b in zip(parts, here, strict=False):
                if a != b:
                    break
                shared += 1
            return (-shared, len(parts), full)

        return _PyModule(min(candidates, key=closeness))

    def _js_file(self, importer: str, specifier: str) -> str | None:
        if not specifier.startswith("."):
            return None  # a package (`express`): not part of the scanned files
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        if joined.startswith(".."):
            return None
        stem = joined
        for ext in (".js", ".mjs", ".cjs"):
            if joined.endswith(ext):  # TypeScript imports `./users.js` meaning `./users.ts`
                stem = joined[: -len(ext)]
        candidates = [joined, *(stem + e for e in _JS_EXTENSIONS)]
        candidates += [f"{joined}/index{e}" for e in _JS_EXTENSIONS]
        return next((c for c in candidates if c in self.modules), None)

    def _default_export(self, path: str) -> _Entity | None:
        """`require()` and a default import give `module.exports` (or `export default`); a
        module that sets neither is its own namespace (`exports.router = ...`)."""
        default = self.modules[path].exports.get("default")
        return self.evaluate(path, default) if default is not None else _JsModule(path)

    def _export(self, path: str, name: str) -> _Entity | None:
        facts = self.modules[path]
        if name in facts.exports:
            return self.evaluate(path, facts.exports[name])
        if "default" in facts.exports:  # `module.exports = { usersRouter }`
            default = self.evaluate(path, facts.exports["default"])
            return self._member(default, name) if default is not None else None
        for star in facts.star_exports:
            found = self._import(path, ImportRef(star.module, name, star.origin))
            if found is not None:
                return found
        return None


def _literal(value: str | None) -> Lit | None:
    return Lit(value) if value is not None else None


def _guarded_at(node: _Node, path: str, line: int, under: str) -> bool:
    """An auth middleware on the router covers what is declared after it in its file (all
    that other files hang on the router) at or below the path it was given."""
    return any(
        (file != path or at < line) and (not scope or _within(under, scope))
        for file, at, scope in node.guards
    )


def _within(path: str, scope: str) -> bool:
    return path == scope or path.startswith(scope.rstrip("/") + "/")
