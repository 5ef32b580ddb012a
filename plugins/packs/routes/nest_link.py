"""Where NestJS serves a controller's routes beyond its own decorators, joined across files.

Nest builds each path as global prefix, version, module path, controller path, method path
(its `RoutePathFactory`). The controller and method paths are the reader's (`nest`); this adds
the two that are set elsewhere: the path `RouterModule.register` gives the `@Module` that
declares the controller (matched by class name; a name that several files declare is told
apart by the module's import of it, `declared_in`: the linker's module resolution, path aliases
and re-exports included), and under URI versioning
(`app.enableVersioning`) the version segment, from the method's `@Version`, else the
controller's `version`, else the default version. A value computed out of sight is a gap: the
route is named without that part and a finding says where.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ..scan_walk import TEST_DIRECTORIES
from .frameworks import BY_KEY, Bootstrap
from .model import (
    HTTP_METHODS,
    Apply,
    Auth,
    BootstrapDecl,
    Bound,
    Call,
    Concat,
    Condition,
    Expr,
    ImportRef,
    Lit,
    ModuleFacts,
    Opaque,
    RouteDecl,
    RouterRef,
    Sym,
    Versioning,
)
from .nest_guarded import GuardedImports
from .paths import join_prefix

_SCRIPT_SUFFIXES = frozenset({".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx"})

Gap = tuple[str, int, str]  # as the linker's: (file, line, what was not known)
_T = TypeVar("_T")
NEST_COMMON = "@nestjs/common"
_URI = "URI"  # what the reader writes for `enableVersioning()`, Nest's `VersioningType.URI`
_URI_MEMBER = ("VersioningType", "URI")
_NEUTRAL = ("VERSION_NEUTRAL",)
_DIRNAMES = (("__dirname",), ("import", "meta", "dirname"))  # the file's own folder
_PATH_JOINS = frozenset({"join", "resolve"})  # `path.join(__dirname, 'c', '*.ts')`
_MAX_GLOB_DEPTH = 8
_VERSION = "Version"  # a composed decorator's `Version(v)`, among its route decorators


@dataclass(frozen=True, slots=True)
class Export:
    """A member of `@nestjs/common` a value stands for (`VersioningType.URI`,
    `VERSION_NEUTRAL`), reached through the project's constants, aliases or re-exports."""

    path: tuple[str, ...]


# what a setting written in a file stands for: each string, or `@nestjs/common` export, of
# it (a list gives several); None when the scan does not show it
Values = Callable[[str, Expr], list[str | Export] | None]
# the fields of an options object a value stands for, each as written where it is (a spread
# object's too, the later writer first); None when it, or an object it spreads, is not known
Options = Callable[[str, Expr], dict[str, Expr] | None]
# `expr`, written in the function at a site of a file, once per call chain that reaches it with
# its parameters bound to what the callers pass (itself when nothing calls it)
PerCall = Callable[[str, str, Expr], list[Expr]]
# the items of the list a value stands for, each with the file it is written in; None: not known
Listed = Callable[[str, Expr], list[tuple[str, Expr]] | None]
# whether the configuration's defaults run the branch of an `if` written in a file, with the
# defaults that decide it; None when its test is not known or reads no configuration
Decided = Callable[[str, Condition], tuple[bool, tuple[str, ...]] | None]
ALL_METHODS = tuple(m.upper() for m in HTTP_METHODS if m != "trace")  # `@All`, as the reader
_NO_VERSION: tuple[list[str], Gap | None] = ([""], None)


@dataclass(frozen=True, slots=True)
class _Settings:
    """Versioning as the scan sets it: `uri` whether versions are path segments; `default`
    the default versions (None: computed); `prefix` the segment's prefix (None: computed)."""

    file: str
    line: int
    uri: bool
    default: tuple[str, ...] | None
    prefix: str | None
    gap: Gap | None = None
    assumed: tuple[str, ...] = ()  # the configuration defaults that put it in force (or not)


class NestLink:
    """The module paths and version segments of the NestJS controllers of one scan."""

    def __init__(
        self,
        modules: Mapping[str, ModuleFacts],
        string: Callable[[str, Expr], str | None],
        declared_in: Callable[[str, str, frozenset[str]], str | None] | None = None,
        values: Values | None = None,
        options: Options | None = None,
        decided: Decided | None = None,
        per_call: PerCall | None = None,
        listed: Listed | None = None,
    ) -> None:
        self._modules = modules
        self._string = string
        self._per_call = per_call
        self._listed = listed
        self._followed: dict[str, list[tuple[str, BootstrapDecl]]] = {}  # by framework
        self._decided = decided
        self._values = values if values is not None else self._strings
        self._options = options
        # (file, class name, the files declaring a class of that name) -> which of them the
        # file's binding of that name (an import, a re-export) leads to; None: not known
        self._declared_in = declared_in
        self._controllers: dict[tuple[str, str], str] = {}  # (file, router id) -> class
        # controller class -> its modules (the module's file, its class)
        self._modules_of: dict[str, list[tuple[str, str]]] = {}
        self._controller_files: dict[str, set[str]] = {}  # controller class -> its files
        self._module_files: dict[str, set[str]] = {}  # module class -> its files
        self._paths: dict[str, list[tuple[str, tuple[Expr, ...], int]]] = {}  # by module
        self._unread_modules: dict[str, tuple[str, int]] = {}  # module class -> (file, line)
        # controller class -> where a module first lists it (the module's file, line, class)
        self._listed_at: dict[str, tuple[str, int, str]] = {}
        self._versioning: list[tuple[str, Versioning]] = []
        self._config: dict[str, list[tuple[str, Expr]]] = {}  # "app.prefix" -> (file, value)
        self._bases: dict[str, list[tuple[str, str]]] = {}  # class -> its (file, router id)
        # (file, class) -> its base: (name, the module it is imported from or "", line)
        self._extends: dict[tuple[str, str], tuple[str, str, int]] = {}
        self._routed: list[tuple[str, str, str]] = []  # (file, router id, class)
        # `applyDecorators` functions by name: (file, the route decorators they apply)
        self._composed: dict[str, list[tuple[str, tuple[tuple[str, Expr | int | None], ...]]]] = {}
        self._decorated: list[
            tuple[str, tuple[str, str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None]]
        ] = []
        self._versioned: set[tuple[str, str]] = set()  # (file, method) with its own `@Version`
        self._bootstraps: dict[str, list[tuple[str, BootstrapDecl]]] = {}  # by framework
        for file, facts in modules.items():
            nest = facts.nest
            if nest is None:
                continue
            for router_id, name in nest.controllers:
                self._controllers[(file, router_id)] = name
                self._controller_files.setdefault(name, set()).add(file)
                self._routed.append((file, router_id, name))
            for router_id, name in nest.bases:
                self._bases.setdefault(name, []).append((file, router_id))
                self._routed.append((file, router_id, name))
            for name, base, origin, line in nest.extends:
                self._extends[(file, name)] = (base, origin, line)
            for name, verbs in nest.composed:
                self._composed.setdefault(name, []).append((file, verbs))
            self._versioned.update((file, handler) for handler in nest.versioned)
            for boot in nest.bootstraps:
                self._bootstraps.setdefault(boot.framework, []).append((file, boot))
            self._decorated += ((file, use) for use in nest.decorated)
            for module, names, line in nest.modules:
                self._module_files.setdefault(module, set()).add(file)
                for name in names:
                    self._modules_of.setdefault(name, []).append((file, module))
                    self._listed_at.setdefault(name, (file, line, module))
            for module, parts, line in nest.module_paths:
                self._paths.setdefault(module, []).append((file, parts, line))
            for module, line in nest.unread_modules:
                self._unread_modules.setdefault(module, (file, line))
            self._versioning += ((file, v) for v in nest.versioning)
            for key, value in nest.config:
                self._config.setdefault(key, []).append((file, value))
        self._guarded = GuardedImports(modules, self._module_files, decided)
        # each `enableVersioning`, read: (in force, not run under the configuration's defaults)
        self._all: tuple[list[_Settings], list[_Settings]] | None = None
        # (file, `Class.method`) -> the version a composed decorator's `Version(v)` gives it
        self._applied: dict[tuple[str, str], Expr] | None = None

    def inherited(self) -> list[tuple[tuple[str, str], tuple[str, str], int]]:
        """(a controller's or base's router, the router of the base class it extends, the
        line of the class): Nest serves the handlers a class inherits under its own prefix,
        so the base's routes are mounted on it (matched by class name, as modules are, and
        told apart by the import where several files declare a base of that name)."""
        found: list[tuple[tuple[str, str], tuple[str, str], int]] = []
        for file, router_id, name in self._routed:
            extended = self._extends.get((file, name))
            if extended is None:
                continue
            base, origin, line = extended
            keys = self._bases.get(base, [])
            files = frozenset(key[0] for key in keys)
            if len(files) > 1 and self._declared_in is not None:
                target = file if not origin else self._declared_in(file, base, files)
                keys = [key for key in keys if key[0] == target] or keys
            for key in keys:
                if key != (file, router_id):
                    found.append(((file, router_id), key, line))
        return found

    def composed(self) -> list[tuple[str, RouteDecl]]:
        """The routes a controller method declares through a decorator of the project's that
        composes Nest's (`@ListAt('mine')` where `ListAt(path)` returns
        `applyDecorators(Get(path), ...)`): (the controller's file, the route). A path passed
        on from a parameter is the caller's argument; one written in the composing function
        is taken as a literal there (a constant of its file is a gap)."""
        found: list[tuple[str, RouteDecl]] = []
        for file, (router_id, name, args, line, handler, versions) in self._decorated:
            for _, verbs in self._composed.get(name, ()):
                for verb, given in verbs:
                    if verb == _VERSION:  # no route: the version of the method's (`segments`)
                        continue
                    path: Expr = Lit("")
                    if isinstance(given, int):
                        passed = args[given] if given < len(args) else None
                        path = _rooted(passed) if passed is not None else Lit("")
                    elif given is not None:
                        path = given if isinstance(given, Lit) else Opaque()
                    methods = ALL_METHODS if verb == "All" else (verb.upper(),)
                    route = RouteDecl(
                        RouterRef(router_id), path, methods, line, handler,
                        auth=Auth((Opaque(),)), versions=versions,
                    )  # fmt: skip
                    found.append((file, route))
        return found

    def bootstrap(
        self, file: str, router_id: str, framework: str, line: int
    ) -> tuple[list[str], tuple[Gap, ...]]:
        """The prefixes a controller of a decorator library (fastify-decorators,
        routing-controllers, inversify-express-utils, Ts.ED) is served under: those of the
        bootstraps that serve it (its class listed by name, its file matched by a listed glob
        or found in a listed folder by the mask, or every controller), one per prefix. None
        serving it is a gap at the controller; a bootstrap whose options are not read, or whose
        prefix is computed, a gap at the bootstrap (the route is listed without its prefix)."""
        name = self._controllers.get((file, router_id), "")
        noun = BY_KEY[framework].name
        boots = self._followed.get(framework)
        if boots is None:
            boots = self._followed[framework] = [
                (where, one)
                for where, boot in self._bootstraps.get(framework, [])
                for one in self._through_callers(where, boot)
            ]
        gaps: list[Gap] = []
        prefixes: list[str] = []
        for where, boot in boots:
            if not (
                boot.unread or boot.every or name in boot.classes or _serves(where, boot, file)
            ):
                continue
            if boot.unread:
                gaps.append((where, boot.line, boot.unread))
            value = self._string(where, boot.prefix) if boot.prefix is not None else ""
            if value is None:
                detail = (
                    f"the prefix the {noun} bootstrap here serves controllers under is computed"
                )
                gaps.append((where, boot.line, detail))
                value = ""
            served = "/" + value.strip("/") if value.strip("/") else ""
            if served not in prefixes:
                prefixes.append(served)
        if not prefixes:
            what = f"no {noun} bootstrap" if not boots else f"none of the {noun} bootstraps"
            detail = (
                f"{what} the scanned files show (a list of its controllers, "
                "a glob or folder of their files) serves the controller here: the prefix it is "
                "served under, if any, is not known"
            )
            return [""], ((file, line, detail),)
        return prefixes, tuple(gaps)

    def _through_callers(self, where: str, boot: BootstrapDecl) -> list[BootstrapDecl]:
        """A bootstrap whose options are not spelled at the call, once per call of the
        function it is written in (each caller's options: its own prefix and controllers),
        the options followed through the project's functions, constants and spreads; one whose
        options are not known stays as read (a finding at the bootstrap)."""
        record = BY_KEY[boot.framework].controllers
        spec = next(
            (b for b in (record.bootstraps if record else ()) if b.callee == boot.callee), None
        )
        if boot.options is None or self._options is None or spec is None or spec.mount:
            return [boot]
        given = [boot.options]
        if self._per_call is not None and boot.scope:
            given = self._per_call(where, boot.scope, boot.options)
        found: list[BootstrapDecl] = []
        for options in given:
            fields = self._options(where, options)
            one = boot if fields is None else self._given(where, boot, spec, fields)
            if one not in found:
                found.append(one)
        return found

    def _given(
        self, where: str, boot: BootstrapDecl, spec: Bootstrap, fields: Mapping[str, Expr]
    ) -> BootstrapDecl:
        """The bootstrap at `where` as the options `fields` (each bound to its file) say."""
        noun = BY_KEY[boot.framework].name
        prefix = fields.get(spec.prefix) if spec.prefix else None
        read = BootstrapDecl(boot.framework, boot.line, prefix)
        folder = fields.get(spec.directory) if spec.directory else None
        if folder is not None:
            found = self._glob(where, where, folder)
            mask: str | None = spec.default_mask
            if spec.mask and spec.mask in fields:
                written = self._string(where, fields[spec.mask])
                mask = re.escape(written) if written is not None else None
            if found is None or mask is None:
                detail = (
                    f"the folder or mask of the {noun} bootstrap here is computed: the "
                    "controllers it serves are not known"
                )
                return replace(read, unread=detail)
            return replace(read, directory=found, mask=mask)
        listed = fields.get(spec.controllers) if spec.controllers else None
        if listed is None:
            every = spec.unlisted or spec.controllers is None
            unread = "" if every else f"the {noun} bootstrap here lists no controllers"
            return replace(read, every=every, unread=unread)
        items = self._listed(where, listed) if self._listed is not None else None
        if items is None:
            detail = f"the controllers the {noun} bootstrap here lists are not read"
            return replace(read, unread=detail)
        classes: list[str] = []
        globs: list[str] = []
        for at, item in items:
            while isinstance(item, Bound):
                at, item = item.file, item.expr
            named = isinstance(item, Sym | ImportRef) and self._string(at, item) is None
            glob = None if named else self._glob(where, at, item)
            if glob is not None:
                globs.append(glob)
            elif isinstance(item, Sym) and len(item.path) == 1:
                classes.append(item.path[0])
            elif isinstance(item, ImportRef) and item.attr not in {None, "default"}:
                classes.append(str(item.attr))
            else:
                detail = f"a controller the {noun} bootstrap here lists is computed: not read"
                return replace(read, unread=detail)
        return replace(read, classes=tuple(classes), globs=tuple(globs))

    def _glob(self, where: str, at: str, expr: Expr) -> str | None:
        """A file glob written in `at` (`path.join(__dirname, 'c/*.ts')`, a string, a
        concatenation) as the bootstrap in `where` reads it: `./`-led from its folder."""
        while isinstance(expr, Bound):
            at, expr = expr.file, expr.expr
        written = self._written_glob(at, expr, 0)
        if written is None:
            return None
        base = posixpath.dirname(at) if written.startswith(".") else app_root(where)
        full = posixpath.normpath(posixpath.join(base, written))
        return "./" + posixpath.relpath(full, posixpath.dirname(where) or ".")

    def _written_glob(self, at: str, expr: Expr, depth: int) -> str | None:
        """A glob as written in `at` (`.` for its folder, `__dirname`); None for any other."""
        if depth > _MAX_GLOB_DEPTH:
            return None
        if isinstance(expr, Bound):
            inner = self._written_glob(expr.file, expr.expr, depth + 1)
            return inner if expr.file == at or (inner and not inner.startswith(".")) else None
        if isinstance(expr, Sym) and expr.path in _DIRNAMES:
            return "."
        if isinstance(expr, Concat):
            parts = [self._written_glob(at, part, depth + 1) for part in expr.parts]
            return "".join(p for p in parts if p is not None) if None not in parts else None
        if isinstance(expr, Call | Apply):
            callee = expr.callee
            args = expr.passed if isinstance(expr, Call) else expr.args
            if not (isinstance(callee, Sym) and callee.path[-1] in _PATH_JOINS) or args is None:
                return None
            pieces = [self._written_glob(at, a, depth + 1) if a is not None else None for a in args]
            if not pieces or None in pieces:
                return None
            kept = [p for p in pieces if p]
            return "/".join(p.strip("/") if i else p.rstrip("/") for i, p in enumerate(kept))
        return self._string(at, expr)

    def config_values(self, key: str) -> list[tuple[str, Expr]]:
        """Each (file, value) the scanned files give the configuration key `key`."""
        return list(self._config.get(key, ()))

    def config(self, key: str) -> str | None:
        """The string `registerAs` gives the configuration key `key` (`app.apiPrefix`); None
        when no scanned namespace gives it one, or several give different ones."""
        values = {self._string(file, value) for file, value in self._config.get(key, ())}
        return values.pop() if len(values) == 1 else None

    def module_path(self, file: str, router_id: str) -> tuple[str, Gap | None]:
        """The RouterModule path of the module declaring the controller `router_id` of
        `file` ("" when none is given)."""
        name = self._controllers.get((file, router_id))
        if name is None:
            return "", None
        found: dict[str, None] = {}
        where: tuple[str, int] = (file, 0)
        uses = [(module, module[0]) for module in self._modules_of.get(name, ())]
        if not uses:
            return "", self._maybe_under_unread_module()
        modules = self._told_apart(uses, name, file, self._controller_files)
        for module_file, module in dict.fromkeys(modules):
            paths = [((at, parts, line), at) for at, parts, line in self._paths.get(module, ())]
            for at, parts, line in self._told_apart(paths, module, module_file, self._module_files):
                values = [self._string(at, part) for part in parts]
                where = (at, line)
                if any(v is None for v in values):
                    detail = (
                        f"the RouterModule path of `{module}` is computed out of sight: the "
                        "routes of its controllers are named without it"
                    )
                    return "", (at, line, detail)
                path = ""
                for value in values:
                    path = join_prefix(path, "/" + str(value).strip("/") if value else "")
                found[path] = None
        if len(found) > 1:
            detail = (
                f"the controller `{name}` is served under several RouterModule paths: its "
                "routes are named without one"
            )
            return "", (*where, detail)
        return next(iter(found), ""), None

    def left_out(
        self, file: str, router_id: str
    ) -> tuple[tuple[Gap, ...], tuple[Gap, ...], tuple[str, ...]]:
        """Whether a controller's modules are all imported only under conditions
        (`nest_guarded`): the findings at the conditions when the configuration's defaults run
        none of them (its routes not served); else the gaps its routes carry when one cannot
        be decided, or the defaults that import it (`attrs.configDefault`) when only a
        condition does; all empty when a module of it is imported otherwise, or none lists
        it."""
        name = self._controllers.get((file, router_id))
        homes = self._modules_of.get(name, []) if name is not None else []
        verdicts = [self._guarded.verdict(module) for _, module in homes]
        if verdicts and all(v.off for v in verdicts):
            return tuple(g for v in verdicts for g in v.off), (), ()
        imported = [v for v in verdicts if not v.off and not v.unsure]
        if any(not v.assumed for v in imported):
            return (), (), ()
        if imported:
            return (), (), tuple(dict.fromkeys(a for v in imported for a in v.assumed))
        return (), tuple(g for v in verdicts for g in v.unsure), ()

    def guarded_words(self) -> set[str]:
        """The module names a file must be parsed for before their routes are left out
        (`nest_guarded.GuardedImports.words`)."""
        return self._guarded.words()

    def unread_controllers(self) -> list[Gap]:
        """Each class a `@Module` lists as a controller that no scanned file declares as one
        (kept in a folder the walk leaves out, such as a business module named `test/`, or
        a library's): its routes are not listed, so a finding at the module, never silence."""
        declared = set(self._controllers.values())
        found: list[Gap] = []
        for name, (file, line, module) in sorted(self._listed_at.items()):
            if name not in declared:
                detail = (
                    f"`{module}` lists the controller `{name}`, whose declaration the scanned "
                    "files do not show: the routes it serves are not listed"
                )
                found.append((file, line, detail))
                kept = self._test_folder_file(file, name)
                if kept is not None:  # where the user's routes are written, too
                    found.append((kept, 1, detail))
        return found

    def test_folder_modules(self) -> list[Gap]:
        """Each module an `imports:` list names that no scanned file declares, imported by a
        relative path into a folder the walk leaves out as test code (a business module named
        `tests/`, its controllers the app's): a finding at the import and at that file, never
        silence (blind24j's laudspeaker: 13 routes of `src/api/tests/`)."""
        found: list[Gap] = []
        for file, facts in sorted(self._modules.items()):
            for name, _, line, _ in facts.nest.module_imports if facts.nest else ():
                if self._module_files.get(name):
                    continue
                kept = self._test_folder_file(file, name)
                if kept is None:
                    continue
                detail = (
                    f"the module `{name}` imported here is kept in a folder the scan leaves out "
                    f"as test code ({kept}): the routes of the controllers it lists are not "
                    "listed"
                )
                found += [(file, line, detail), (kept, 1, detail)]
        return found

    def _test_folder_file(self, file: str, name: str) -> str | None:
        """The file a module imports the controller `name` from by a relative path, when a
        folder of that path is one the walk leaves out as test code (`src/orders/test/…`),
        with the module's own suffix where the import spells none; None otherwise."""
        bindings = self._modules[file].bindings if file in self._modules else {}
        bound = bindings.get(name)
        if not isinstance(bound, ImportRef):  # imported under another name: listed by its own
            bound = next(
                (b for b in bindings.values() if isinstance(b, ImportRef) and b.attr == name), None
            )
        if bound is None or not bound.module.startswith("."):
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(file), bound.module))
        if target.startswith("..") or not TEST_DIRECTORIES & set(target.split("/")[:-1]):
            return None
        suffix = posixpath.splitext(file)[1]
        return target if posixpath.splitext(target)[1] in _SCRIPT_SUFFIXES else target + suffix

    def _maybe_under_unread_module(self) -> Gap | None:
        """A controller no module is seen to list, where a module RouterModule gives a path
        lists controllers the reader cannot read: it may be served under that path."""
        for module, (at, line) in sorted(self._unread_modules.items()):
            if module in self._paths:
                detail = (
                    f"the controllers `{module}` lists are not read, and RouterModule serves "
                    "them under a path of their own: routes of controllers no module is seen "
                    "to list are named without it"
                )
                return (at, line, detail)
        return None

    def _told_apart(
        self,
        uses: Sequence[tuple[_T, str]],
        name: str,
        declaring: str,
        files_of: Mapping[str, set[str]],
    ) -> list[_T]:
        """Of `uses` (each with the file that names the class `name`), those whose name leads
        to the class declared in `declaring`, when several files declare a class of that name
        and the imports tell; else every use, as matched by name."""
        files = files_of.get(name, set())
        if len(files) < 2 or self._declared_in is None:
            return [use for use, _ in uses]
        candidates = frozenset(files)
        kept = [
            use
            for use, at in uses
            if at == declaring or self._declared_in(at, name, candidates) == declaring
        ]
        return kept or [use for use, _ in uses]

    def segments(
        self, file: str, route: RouteDecl
    ) -> tuple[list[str], Gap | None, tuple[str, ...]]:
        """The version segments (`/v1`; "" for none) a route is served under, one path each,
        and the configuration defaults they depend on (an `enableVersioning` under an `if`
        whose test reads the configuration: on where the defaults run it, else off; a route
        whose name would change either way is named as the defaults have it, marked so)."""
        settings = self._settings_for(file, self._all_read()[0])
        if settings is None:  # no enableVersioning in force: Nest ignores `@Version`
            skipped = self._settings_for(file, self._all_read()[1])
            if skipped is not None and self._segments(skipped, file, route)[0] != [""]:
                return [""], None, skipped.assumed
            return [""], None, ()
        versions, gap = self._segments(settings, file, route)
        return versions, gap, settings.assumed if versions != [""] else ()

    def _segments(
        self, settings: _Settings, file: str, route: RouteDecl
    ) -> tuple[list[str], Gap | None]:
        if settings.gap is not None:
            return [""], settings.gap
        if not settings.uri:
            return _NO_VERSION  # header or media-type versioning: the path has none
        declared = route.versions
        applied = self._applied_version(file, route.handler) if route.handler else None
        if applied is not None and self._values(file, applied) != [""]:
            declared = (applied,)  # Nest takes a version `''` for none of the method's own
        if declared is not None:
            versions = self._versions(file, declared)
            if versions is None:
                detail = (
                    "the version of this route is computed out of sight: it is named without it"
                )
                return [""], (file, route.line, detail)
            chosen: tuple[str, ...] = versions
        elif settings.default is None:
            detail = (
                "the default version set here is computed out of sight: routes without a "
                "version of their own are named without it"
            )
            return [""], (settings.file, settings.line, detail)
        else:
            chosen = settings.default
        if not chosen:
            return _NO_VERSION
        if settings.prefix is None and any(chosen):
            detail = (
                "the version prefix set here is computed out of sight: versioned routes are "
                "named without their version"
            )
            return [""], (settings.file, settings.line, detail)
        return [f"/{settings.prefix}{v}" if v else "" for v in dict.fromkeys(chosen)], None

    def _applied_version(self, file: str, handler: str) -> Expr | None:
        """The version a decorator of the project's that composes Nest's `Version` gives the
        method `handler` of `file` (`@Pinned('2')` where `Pinned(v)` returns
        `applyDecorators(Version(v), ...)`): the caller's argument for a parameter passed on
        (none passed: none), else the value written in the composing function; None when no
        such decorator is on it, or the method has a `@Version` of its own."""
        if self._applied is None:
            self._applied = {}
            for at, (_, name, args, _, method, _) in self._decorated:
                if (at, method) in self._versioned:
                    continue
                for origin, verbs in self._composed.get(name, ()):
                    for verb, given in verbs:
                        if verb != _VERSION or given is None:
                            continue
                        if isinstance(given, int):
                            if given < len(args):
                                self._applied[(at, method)] = args[given]
                        else:
                            self._applied[(at, method)] = Bound(origin, given)
        return self._applied.get((file, handler))

    def _all_read(self) -> tuple[list[_Settings], list[_Settings]]:
        """Each `enableVersioning` read: those in force, and those under an `if` that the
        configuration's defaults do not run."""
        if self._all is None:
            self._all = ([], [])
            for file, versioning in self._versioning:
                one = self._one(file, versioning)
                if versioning.only_if is not None and self._decided is not None:
                    decided = self._decided(file, versioning.only_if)
                    if decided is not None:
                        one = replace(one, assumed=decided[1])
                        if not decided[0]:
                            self._all[1].append(one)
                            continue
                self._all[0].append(one)
        return self._all

    def _settings_for(self, file: str, read: list[_Settings]) -> _Settings | None:
        """The versioning of `read` that serves `file`: the scan's, unless several `main.ts`
        enable it differently (a repository of several apps); then that of the app whose
        folder holds `file` most closely, as for global prefixes."""
        if not read:
            return None
        if len({(s.uri, s.default, s.prefix, s.gap is None) for s in read}) > 1:
            owning = [s for s in read if holds(app_root(s.file), file)]
            if owning:
                closest = max(len(app_root(s.file)) for s in owning)
                read = [s for s in owning if len(app_root(s.file)) == closest]
        first = min(read, key=lambda s: (s.file, s.line))
        if len({(s.uri, s.default, s.prefix, s.gap is None) for s in read}) > 1:
            detail = "versioning is enabled several ways: routes are named without a version"
            return _Settings(first.file, first.line, True, (), "", (first.file, first.line, detail))
        return first

    def _one(self, file: str, versioning: Versioning) -> _Settings:
        if versioning.options is not None:  # options the call does not spell: followed
            fields = self._options(file, versioning.options) if self._options else None
            if fields is None:
                detail = (
                    "the versioning options given here are computed out of sight: routes are "
                    "named without a version"
                )
                return _Settings(
                    file, versioning.line, True, (), "", (file, versioning.line, detail)
                )
            given = fields.get("defaultVersion")
            versioning = Versioning(
                versioning.framework,
                versioning.line,
                fields.get("type", Lit("")),
                (given,) if given is not None else (),
                fields.get("prefix", Lit("v")),
            )
        kinds = self._values(file, versioning.kind)
        if kinds is None or len(kinds) != 1:
            detail = (
                "the versioning type set here is computed out of sight: routes are named "
                "without a version"
            )
            return _Settings(file, versioning.line, True, (), "", (file, versioning.line, detail))
        uri = kinds[0] == _URI or kinds[0] == Export(_URI_MEMBER)
        default: tuple[str, ...] | None = None
        if versioning.default is not None:
            default = self._versions(file, versioning.default)
        prefix = self._string(file, versioning.prefix)
        return _Settings(file, versioning.line, uri, default, prefix)

    def _versions(self, file: str, given: tuple[Expr, ...]) -> tuple[str, ...] | None:
        """The versions `given` (written in `file`) stand for, a list's each, as Nest serves
        them ("" for VERSION_NEUTRAL: no segment); None when one is not known."""
        found: list[str] = []
        for expr in given:
            values = self._values(file, expr)
            if values is None:
                return None
            for value in values:
                if isinstance(value, Export) and value.path != _NEUTRAL:
                    return None  # another export of Nest's: no version Nest serves
                found.append(value if isinstance(value, str) else "")
        return tuple(found)

    def _strings(self, file: str, expr: Expr) -> list[str | Export] | None:
        value = self._string(file, expr)
        return [value] if value is not None else None


def _rooted(path: Expr) -> Expr:
    """A path passed to a composed decorator as Nest serves it (`items` is `/items`)."""
    if isinstance(path, Lit):
        return Lit("/" + path.value.strip("/")) if path.value.strip("/") else Lit("")
    return path


def _serves(where: str, boot: BootstrapDecl, file: str) -> bool:
    """Whether the bootstrap written in `where` lists `file` by a glob, or finds it in its
    folder by its mask. A glob naming `.js` files (the compiled output) matches the sources."""
    for glob in boot.globs:
        base = posixpath.dirname(where) if glob.startswith(".") else app_root(where)
        if _glob_regex(posixpath.normpath(posixpath.join(base, glob))).fullmatch(file):
            return True
    if boot.directory is not None:
        folder = posixpath.normpath(posixpath.join(posixpath.dirname(where), boot.directory))
        if file.startswith(folder + "/") or folder == ".":
            try:
                return re.search(boot.mask, posixpath.basename(file)) is not None
            except re.error:
                return True  # a mask Python does not read: counted as matching
    return False


def _glob_regex(glob: str) -> re.Pattern[str]:
    """A glob as fast-glob reads it: `**/` any folders, `*` and `?` within a name, `{a,b}`."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        char = glob[i]
        if char == "*":
            out.append(".*" if glob.startswith("**", i) else "[^/]*")
            i += 2 if glob.startswith("**", i) else 1
            continue
        if char == "?":
            out.append("[^/]")
        elif char == "{" and "}" in glob[i:]:
            end = glob.index("}", i)
            out.append("(?:" + "|".join(re.escape(p) for p in glob[i + 1 : end].split(",")) + ")")
            i = end + 1
            continue
        else:
            out.append(re.escape(char))
        i += 1
    pattern = "".join(out)
    pattern = re.sub(r"\\\.(?:js|ts)$", r"\\.[cm]?[jt]sx?", pattern)  # compiled or source
    return re.compile(pattern.removeprefix(r"\./"))


def app_root(path: str) -> str:
    """The folder of the app a `main.ts` starts: the one holding its `src/`, else its own."""
    folders = path.split("/")[:-1]
    if "src" in folders:
        folders = folders[: len(folders) - 1 - folders[::-1].index("src")]
    return "/".join(folders)


def holds(root: str, file: str) -> bool:
    """Whether the app folder `root` holds `file` ("" holds every file)."""
    return not root or file.startswith(root + "/")
