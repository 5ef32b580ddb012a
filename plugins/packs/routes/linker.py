"""Link every scanned file's facts into routes with their full paths.

The files say, each for itself, which routers exist, which routes sit on them and which router
serves which other under what prefix, naming things as the source names them. Resolving follows
those names across modules (Python imports by dotted name, JavaScript `import`/`require` by
relative specifier), builds the mount graph, and walks it from each router that nothing mounts
(an app, or a router whose including file was not scanned), joining prefixes on the way and
carrying the auth that a router, an include or a middleware puts on what it serves.
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple, TypeGuard

from ..bounded_values import MAX_LENGTH, NotEvaluated, format_text, percent_text
from ..entry_points import is_distribution_file
from ..pymodules import (
    MAX_ANCESTORS,
    REPOSITORY_PACKAGES,
    ModuleIndex,
    module_name,
    packages_of,
    star_brings,
)
from ..scan_document import JSONObject, at
from ..scan_walk import walk_lists
from ..version_ranges import Range, semver
from . import (
    flask_config,
    hapi_rest_tables,
    js_dirload,
    js_strings,
    library_tables,
    nest_docs,
    next_projects,
    nextjs,
    option_routes,
    py_marks,
    py_overrides,
)
from .auth import NONE, REQUIRED, UNKNOWN, external_verdict
from .django_linker import DjangoRouteResolver
from .envfiles import ENV_FILES, ROOTED, ROOTED_MAYBE, Unknown, loaded_value
from .flask_admin import COMPUTED, AddView, AdminMake, Exposed, ViewCall, view_url
from .flask_admin import join as blueprint_join
from .flask_classful import (
    METHODLESS,
    Settings,
    Table,
    Value,
    ViewClass,
    ViewMethod,
    ViewRegister,
    build_rule,
    linearized,
    named_rule,
    route_base,
)
from .frameworks import (
    BY_KEY,
    CONTROLLERS,
    FLASK_ADMIN,
    GENERATORS,
    JAVASCRIPT,
    NOT_ROUTER_PACKAGES,
    PYTHON,
    READ,
    UNREAD_PACKAGES,
)
from .frameworks import FLASK_CLASSFUL as LIBRARY
from .js_classes import MAX_BASES as _MAX_BASES
from .js_classes import (
    ClassInfo,
    Inherited,
    class_name,
    class_router,
    constructor_line,
    own_routers,
    this_rooted,
)
from .js_modules import JsModules, package_name
from .js_scopes import spelled
from .koa_decorators import CLASS_ROUTER, MAP_DIR
from .manifests import LOCKS, MANIFEST, declared_range
from .model import (
    BOUND_NAME,
    BOUND_SELF,
    CALL,
    DECORATED,
    DJANGO,
    EVERY,
    EXPRESS,
    FASTAPI,
    FASTIFY,
    FLASK,
    HAPI,
    HTTP_METHODS,
    KOA,
    NESTJS,
    NEXTJS,
    NODE_ENV_DEFAULTS,
    SHARED,
    STARLETTE,
    VARARGS,
    Apply,
    Auth,
    Bound,
    Call,
    Choice,
    ComposeDecl,
    Concat,
    Condition,
    ConfigKey,
    DependencyAlias,
    Each,
    EnvLoad,
    Evidence,
    Expr,
    Fallback,
    FlaskApp,
    FlaskConfigRead,
    FlaskConfigWrite,
    Format,
    Function,
    GlobalPrefix,
    HookCall,
    ImportRef,
    Invocation,
    Items,
    Keyed,
    Listing,
    Lit,
    LoadDecl,
    LoopKey,
    Mapped,
    Member,
    ModuleFacts,
    MountDecl,
    Namespace,
    NoGuard,
    Number,
    OneOf,
    Opaque,
    Param,
    PathCall,
    Pattern,
    PluginOf,
    PrefixDecl,
    Registered,
    RouteDecl,
    RouterDecl,
    RouterRef,
    Schema,
    StarletteRoutes,
    Stored,
    Sym,
    Trimmed,
    Unmerged,
    UseDecl,
)
from .nest_config_service import SERVICE_KEY
from .nest_link import NEST_COMMON, Export, NestLink, app_root, holds
from .option_routes import BY_LIBRARY
from .paths import (
    brace_path,
    flask_path,
    flask_shape,
    has_regex,
    join,
    join_prefix,
    regex_literals,
    regex_named,
    regex_token,
)
from .py_sub_apps import SERVER_CALLS, import_closure, unread_mount_detail

# `Choice` tests on a string the configuration or the scan gives (`_compared`)
_COMPARED_TESTS = frozenset({"in", "nonzero", "startswith", "endswith"})
# the records of routes a library serves of its own: those its options fix (`option_routes`)
# and those of a fixed table under a base the project chooses (`library_tables`)
OPTION_ROUTES = {
    **BY_LIBRARY,
    **library_tables.OPTION_ROUTES,
    **nest_docs.OPTION_ROUTES,
    **hapi_rest_tables.OPTION_ROUTES,
}
_MAX_DEPTH = 64  # names that resolve through more hops than this are taken as not visible
# flask-restx's and flask-restful's router classes (the Flask record's `routers`): a project
# class subclassing one joins its routes' rules as they do (`RouterDecl.concatenates`)
_RESTFUL_CLASSES = frozenset({"Api", "Namespace"})
_AS_VIEW = "as_view"  # Flask's `View.as_view(name)`: the function a class-based view is served by
_MAX_FORKS = 1_024
# array methods whose callback may drop or change a route table's entries (`_unread_built`)
_UNREAD_BUILT = frozenset({"filter", "map", "flatMap"})
_MAX_REEXPORTS = 8  # `export *` chains followed to an exported environment-file path
_NEST_CORE = "@nestjs/core"
_NAMED_TOKENS_BEFORE = (8,)  # Nest 6/7 key a class provider by its name; 8+ by the class
"""Tests `_choice` cannot decide, both branches evaluated, in one link: a helper choosing
between two calls of the one before (`f(x) if FLAG else f(x + '')`, forty deep in 3 KB) was
2^40 evaluations; past the cap the value is not known (the route a finding)."""
LINK_BUDGET = 25_000
"""Routes produced plus mounts followed in one link. Mounting a router twice in each of 40
routers is 2^40 paths from a 3.6 KB file: past the budget the expansion stops, and each mount
it did not follow is a `LINK_BUDGET_EXCEEDED` finding (never a silent cut, never a timeout)."""
LINK_TEXT_BUDGET = 1_500_000
"""Characters of the routes one link lists: each route's path is capped (`MAX_LENGTH`), but a
4,000-character constant in a table of 3,000 mounts (40 KB) listed 12 MB of paths, a document
past the host's 8 MiB line cap (`E_FRAME_JSON`). Past it the rest is cut as `LINK_BUDGET`
cuts it; below `scan_document.DOCUMENT_NAME_BUDGET`, so a route's name (`GET ` and its path)
is cut here first."""
LINK_BUDGET_EXCEEDED = "LINK_BUDGET_EXCEEDED"
_MAX_PREFIX = 4_096  # characters of a mount's prefix, with the prefixes above it
_MAX_HOOKED = 4_096  # listeners' calls written out for the functions hooks give them, a link


UNRESOLVED_PREFIX = "UNRESOLVED_PREFIX"
UNRESOLVED_ROUTE = "UNRESOLVED_ROUTE"
UNRESOLVED_ROUTER = "UNRESOLVED_ROUTER"
# a route or a mount called on a name whose value the reader does not know (`js_rebound`: bound
# again in a branch, a loop or another function; `js_scopes`: a loop's variable)
_UNKNOWN_OWNER = (
    "the router this is called on is a name bound more than once out of straight-line code "
    "(in a branch, a loop or another function), or a value not read: which router is not "
    "known, and what is registered here is not listed"
)
_RECURSIVE_FACTORY = (
    "this call makes a router with a function whose body makes it again, each call's own "
    "(the call is written in that function, or in one it calls): the routers these calls "
    "make in turn are not listed"
)
_DEEP_CALLS = (
    f"this call is reached through more than {_MAX_DEPTH} calls each passing on the one before's "
    "parameter: what it passes is not followed, so the routes declared through it are not listed"
)
_CYCLE = (
    "this mount closes a cycle: the router it mounts already holds this one (or is it), so "
    "its routes repeat under ever longer prefixes without end; they are listed once, without it"
)
_DEEP_MOUNTS = f"routers mounted more than {_MAX_DEPTH} deep: what this mount adds is not listed"
UNREAD_FRAMEWORK = "UNREAD_FRAMEWORK"

# Where a prefix went out of sight: (file, line, what was not known). Each route under it
# carries it, and the finding it makes lists that place and every such route.
Gap = tuple[str, int, str]
# how a gap that leaves the route's name whole begins: registered under an `if` nothing decides
# (`_undecided`); the route is flagged, but names what the app serves when the test holds
UNDECIDED_TEST = "this is registered under `if "
# ... or after a JavaScript function's early `if (test) return` nothing decides
UNDECIDED_RETURN = "this is registered after `if ("


def names_whole(gaps: tuple[Gap, ...]) -> bool:
    """Whether no gap on a route's way took a prefix out of its name (only undecided tests)."""
    return all(detail.startswith((UNDECIDED_TEST, UNDECIDED_RETURN)) for _, _, detail in gaps)


class FoundRoute(NamedTuple):
    """One `METHOD /path` served by a handler at `path`:`line`. `gaps` are the places on the
    way whose prefix the scanned files do not show (its path lacks those prefixes); `auth` is
    a verdict of `auth` (`NONE`, `UNKNOWN`, `REQUIRED`).

    A named tuple, not a frozen dataclass: as immutable, and made one per route found, where a
    frozen dataclass's `__init__` (a Python-level `object.__setattr__` per field) costs about
    five times a tuple's. Never compared or hashed, so tuple equality does not matter."""

    method: str
    route: str
    path: str
    line: int
    framework: str
    handler: str | None
    auth: int
    gaps: tuple[Gap, ...]
    shape: str = ""  # the path as the framework matches it (Flask: converters kept), for duplicates
    assumed: tuple[str, ...] = ()  # configuration defaults its name was read with
    library: str = ""  # a plugin library that serves it (`option_routes`): `attrs.library`
    regex: str = ""  # the regular expressions in its path, as literals: `attrs.pathRegex`

    @property
    def name(self) -> str:
        return f"{self.method} {self.route}"

    @property
    def prefix_unresolved(self) -> bool:
        return bool(self.gaps)


class Asked(NamedTuple):
    """What a link looked at beyond the files it was given: the files whose facts it asked
    for (parsed or not), and the names a call must spell to pass a router or a path to a
    function that declares routes on its parameter (a file holding one may be such a call).
    What a pre-filter must have parsed for the link to be the one of every file."""

    touched: frozenset[str]
    words: frozenset[str]


class ResolvedRoutes(NamedTuple):
    """What linking finds: the routes, and the `UNRESOLVED_*` findings of what it could not
    follow (each at the place it is written, with the routes it hides or shortens)."""

    routes: list[FoundRoute]
    findings: list[JSONObject]


@dataclass(frozen=True, slots=True)
class _PyModule:
    name: str


@dataclass(frozen=True, slots=True)
class _JsModule:
    path: str


@dataclass(frozen=True, slots=True)
class _Str:
    value: str
    # where the configuration's default was taken (`process.env.PREFIX`): a route whose name
    # holds it says so in `attrs.configDefault`
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Schema:
    """A configuration a schema builds at runtime (`Schema`), its schema written in `file`."""

    file: str
    schema: Expr
    kind: str


@dataclass(frozen=True, slots=True)
class _Router:
    key: tuple[str, str]


_ScopedValue = Namespace | Function | DependencyAlias | StarletteRoutes | Items
"""What `evaluate` makes a `_Scoped` of, looking nothing up (`_scoped`)."""


@dataclass(frozen=True, slots=True)
class _Scoped:
    """A class, function, alias or route list, with the file its names are looked up in."""

    file: str
    value: _ScopedValue


@dataclass(frozen=True, slots=True)
class _External:
    """A member (`path`) of a module the scanned files do not hold (`passport`,
    `fastapi.security`): nothing more is known of it than its import."""

    module: str
    path: tuple[str, ...]


# Flask's `current_app` (`from flask import current_app`, `flask.current_app`): the app that
# serves the request, which the linker reads as the one Flask app the scanned files create
_CURRENT_APP = _External(FLASK, ("current_app",))
_CURRENT_APP_ID = "flask.current_app"  # the node of `current_app` when several apps may be it


def _node_path(callee: _External, args: list[_Entity | None]) -> _Str | None:
    """Node's `path.basename(p, ext)`, `path.extname(p)`, `path.dirname(p)` (POSIX rules) of
    strings the linker knows (a listed file's path); None for anything else."""
    if callee.module not in {"path", "node:path", "path/posix"} or len(callee.path) != 1:
        return None
    if not args or not all(isinstance(a, _Str) for a in args) or len(args) > 2:
        return None
    texts = [a.value for a in args if isinstance(a, _Str)]
    function, value = callee.path[0], texts[0].rstrip("/") or texts[0]
    if function == "basename":
        name = posixpath.basename(value)
        ext = texts[1] if len(texts) == 2 else ""
        return _Str(name[: -len(ext)] if ext and name.endswith(ext) and name != ext else name)
    if function == "extname" and len(texts) == 1:
        name = posixpath.basename(value)
        dot = name.rfind(".")
        return _Str(name[dot:] if dot > 0 else "")  # `.env`: none
    if function == "dirname" and len(texts) == 1:
        return _Str(posixpath.dirname(value) or ".")
    return None


_MANIFEST_LISTS = ("register", "registrations", "plugins")  # where glue's versions list plugins


@dataclass(frozen=True, slots=True)
class _Manifest:
    """The plugins a composed manifest lists, (file, entry) each; `legacy` for glue 3/4's
    `registrations` (an entry's `options` are its register options); `shared` the prefix of
    glue 5+'s `register.options` for entries naming none."""

    entries: list[tuple[str, Expr]]
    legacy: bool
    shared: Expr | None


@dataclass(frozen=True, slots=True)
class _OneOf:
    """Options that do not agree (yet): a member of each may."""

    options: list[_Entity | None]

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True, slots=True)
class _Judged:
    """A guard, or a guard made optional, as written where it is bound."""

    verdict: int


@dataclass(frozen=True, slots=True)
class _Instance:
    """What `x = Cls(...)` binds when `Cls` (or a base) stores a router on `self` in its
    `__init__` (`Namespace.instance_routers`): those attributes are this instance's routers,
    anything else is read from the class."""

    key: tuple[str, str]


@dataclass(frozen=True, slots=True)
class _Number:
    """A number a module binds (`model.Number`): a string only where it is formatted; with
    the configuration defaults it was read with (`assumed`), one an `if` may test."""

    value: int | float | None
    assumed: tuple[str, ...] = ()


_Entity = (
    _PyModule | _JsModule | _Str | _Router | _Scoped | _External | _OneOf | _Judged | _Schema
    | _Instance | _Number
)  # fmt: skip


class _Unseen:
    """The cache's answer for a key it does not hold (None is a remembered answer)."""


_UNSEEN = _Unseen()
_JS_KEYS = frozenset(f.key for f in JAVASCRIPT)
_PY_APPS = frozenset({FASTAPI, FLASK, STARLETTE})  # apps a Python mount may serve
_DECORATED = frozenset(f.key for f in CONTROLLERS)  # controllers by decorators (`nest`)
_BOOTSTRAPPED = frozenset(
    f.key for f in CONTROLLERS if f.controllers is not None and f.controllers.bootstraps
)
_SHAPE = {key: f.shape for key, f in BY_KEY.items() if f.shape is not None}
_NORMALISE = {key: f.normalise for key, f in BY_KEY.items()}  # a path as `{name}` spells it


@dataclass
class _Node:
    """A router with what hangs on it, gathered from every file."""

    file: str
    decl: RouterDecl
    routes: list[tuple[str, RouteDecl]] = field(default_factory=list)
    mounts: list[tuple[str, MountDecl, tuple[str, str]]] = field(default_factory=list)
    # middleware that guards or may: (file, line, the path it covers under the router, ""
    # for all of it; its verdict)
    guards: list[tuple[str, int, str, int]] = field(default_factory=list)


def resolve_routes(
    modules: Mapping[str, ModuleFacts],
    budget: int = LINK_BUDGET,
    paths: Collection[str] | None = None,
) -> ResolvedRoutes:
    """`resolve_routes_and_asked`, without what it asked for."""
    return resolve_routes_and_asked(modules, budget, paths)[0]


class _Index(NamedTuple):
    """The module index of a walk's files (`_RouteResolver._module_index`)."""

    python_files: dict[str, str]
    failed_files: dict[str, str]
    packages: set[str]
    modules: ModuleIndex[str]


class LinkMemo:
    """What a link keeps for the next link of the same discover: an on-demand scan links every
    file again each round (`packs.scan.OnDemand`, 4 rounds on zou and lemur), its facts the
    same objects and the walk's files the same, and indexing the calls of every file and the
    modules of every path anew each time was a fifth of the link. Kept: each file's calls with
    the name each spells (`_RouteResolver._calls_of`), by the very facts object they were read
    from (not a call a loop over an imported table's keys repeats: that looks the table up),
    and the module index under the files, failed files and packages it was made for."""

    def __init__(self) -> None:
        self.calls: dict[int, tuple[str, ModuleFacts, list[tuple[str | None, Invocation]]]] = {}
        self.index: tuple[tuple[object, ...], _Index] | None = None
        self.next_files = next_projects.PlacedMemo()  # each Next.js route file's placed facts

    def spelled(self, file: str, facts: ModuleFacts) -> list[tuple[str | None, Invocation]] | None:
        kept = self.calls.get(id(facts))
        return kept[2] if kept is not None and kept[1] is facts and kept[0] == file else None

    def keep(
        self, file: str, facts: ModuleFacts, calls: list[tuple[str | None, Invocation]]
    ) -> None:
        self.calls[id(facts)] = (file, facts, calls)  # the facts held: the id stays theirs

    def only(self, modules: Mapping[str, ModuleFacts]) -> None:
        """Forget the calls of facts no longer linked (a file changed, or left the request)."""
        linked = {id(facts) for facts in modules.values()}
        for gone in [key for key in self.calls if key not in linked]:
            del self.calls[gone]
        self.next_files.only(linked)


def resolve_routes_and_asked(
    modules: Mapping[str, ModuleFacts],
    budget: int = LINK_BUDGET,
    paths: Collection[str] | None = None,
    failed: Collection[str] = (),
    memo: LinkMemo | None = None,
) -> tuple[ResolvedRoutes, Asked]:
    """Every route the scanned files show and the findings of what they do not, in no
    particular order (callers sort); past `budget` routes and mounts, the mounts not followed
    are a `LINK_BUDGET_EXCEEDED` finding.

    `paths`: every file of the walk that may hold facts (parsed or not; None: the keys of
    `modules`). Which imports are the repository's and which file a name lands in are decided
    on these names alone, so the answer does not depend on which files were parsed; a file of
    `paths` whose facts the linker asks for but `modules` lacks reads as empty and is listed in
    `Asked.touched`, for a pre-filtering scanner to parse and link again (`packs.scan`).
    `failed`: files of the walk that could not be read or parsed; they resolve nothing (as
    absent), but an import that would have landed in one touches it (its `parse-error` is
    then worth reporting: what it hides may be a guard or a router).
    `memo`: what the last link of the same discover kept for this one (`LinkMemo`), updated."""
    resolver = _RouteResolver(modules, paths, failed, memo)
    resolver.budget = resolver.limit = budget
    routes = resolver.routes()
    resolver.memo.only(resolver.modules)
    asked = Asked(frozenset(resolver.touched), frozenset(resolver.words))
    return ResolvedRoutes(routes, resolver.findings()), asked


class _RouteResolver:
    def __init__(
        self,
        modules: Mapping[str, ModuleFacts],
        paths: Collection[str] | None = None,
        failed: Collection[str] = (),
        memo: LinkMemo | None = None,
    ) -> None:
        self.memo = memo if memo is not None else LinkMemo()
        self.failed = frozenset(failed)
        # every file that may hold facts, parsed or not: module resolution reads these names
        self.files: frozenset[str] = frozenset(modules if paths is None else paths)
        # folder listings read (`_listing`: once each) and the steps left to read more
        self.listings: dict[Listing, Items | None] = {}
        self.pushes_said: set[tuple[str, int]] = set()  # `_later_pushes` said once each
        self.glob_steps = js_dirload.GLOB_STEPS
        self.sorted_files: list[str] | None = None
        self.touched: set[str] = set()
        self.next_configs = next_projects.configs(self.files)  # each Next.js project's folder
        placed, self.next_gaps = next_projects.placed(
            modules, self.next_configs, self.memo.next_files
        )
        self.modules = self._loaded(placed)
        self._uses_of: dict[str, tuple[dict[str, set[str]], frozenset[str]]] = {}
        self.words: set[str] = set()
        self._words_of: dict[tuple[str, str], None] = {}
        self._owners_memo: dict[tuple[str, Param, int], list[_Node]] = {}
        self._verdicts_memo: dict[tuple[str, Param, int], bool | None] = {}
        self.indexing = False  # `_index_calls` is running: the calls are not all indexed
        index = self._module_index()
        self.python_files = index.python_files  # dotted module name -> file
        self.failed_files = index.failed_files  # dotted module name -> a failed file
        self.packages = index.packages  # every module and folder holding one, by dotted name
        self.modules_index = index.modules
        self.js_modules = JsModules(
            self.files, self._facts, failed=self.failed, touch=self.touched.add
        )
        self.cache: dict[tuple[str, Expr], _Entity | None] = {}
        # reading a JavaScript test's value with `process.env` variables nothing sets as unset
        self.env_unset = False
        self.unset_readings: dict[tuple[str, Expr], _Str | None] = {}  # `_unset_reading`'s
        # the classes, functions and route lists evaluated since `cache` was last cleared, by
        # (file, id) (`_scoped`)
        self.scoped: dict[tuple[str, int], _ScopedValue] = {}
        self.decorations: dict[str, tuple[str, Expr]] | None = None  # `_decorated`
        self.global_stores: dict[str, list[tuple[str, Expr]]] | None = None  # `_stored_global`
        self.env_loads: list[tuple[str, str, EnvLoad]] | None = None  # `_loaded_env`
        self.flask_writes: list[tuple[str, FlaskConfigWrite]] | None = None  # `_flask_config`
        self.resolving: set[tuple[str, Expr]] = set()
        # Python mounts of a child not known: (file, line, the child, the app mounted on)
        self.unread_mounts: list[tuple[str, int, str, _Node]] = []
        self.closures: dict[str, frozenset[str]] = {}  # file -> what it imports (`_closure`)
        self.inheriting: set[tuple[str, int]] = set()  # classes whose bases `_member` walks
        # (class, member) `_member` looked for along the bases since its outermost walk began
        self.searched: set[tuple[str, int, str]] = set()
        self.forks = 0  # `_choice`s that evaluated both branches (`_MAX_FORKS`)
        # (file, def site) -> (program order, file, call) of each call indexed (`_calls_of`)
        self.calls: dict[tuple[str, str], list[tuple[int, str, Invocation]]] | None = None
        self.pending: dict[str | None, list[tuple[int, str, Invocation]]] = {}  # not indexed yet
        # how many `words` the last `_index_calls` started with (-1: none since `pending` was
        # filled): `words` only grows, so with as many no call left pending can reach one
        self.indexed_words = -1
        self.verdicts: dict[tuple[str, Expr], int] = {}
        self.global_frameworks = frozenset(
            g.framework for facts in self.modules.values() for g in facts.global_prefixes
        )
        # (framework, the places of the global prefixes in force) -> (prefix, excluded, gap)
        self.globals: dict[tuple[str, str], tuple[str, frozenset[str], Gap | None]] = {}
        self.nest = NestLink(
            modules,
            self._string,
            self._js_declared_in,
            self._nest_values,
            self._nest_options,
            self._decided,
            self._per_call,
            self._nest_items,
        )
        self.judging: set[tuple[str, Expr]] = set()
        # (code, file, line, detail) -> the further places it concerns
        self.unresolved: dict[tuple[str, str, int, str], list[JSONObject]] = {}
        for file, line, detail in self.next_gaps:  # a Next.js config's `pageExtensions` unread
            self._unresolved(UNRESOLVED_ROUTE, file, line, detail)
        self.admin_read = False  # Flask-Admin's admins were read (`_flask_admin`)
        # what Flask's `current_app` stands for (`_current_app`), and the finding its routes
        # carry when several apps may be it
        self.current_app: _Entity | None = None
        self.current_app_gap: Gap | None = None
        self.nodes: dict[tuple[str, str], _Node] = {
            (path, decl.router_id): _Node(path, decl)
            for path, facts in self.modules.items()
            for decl in facts.routers
            if decl.subclass is None and decl.made_on is None
        }
        # `UserAPIRouter()` calls whose class is no router subclass: what calling it gives
        self.not_routers: dict[tuple[str, str], Expr] = {}
        # `x.namespace('users')` on a value the scan does not show (`_made_on`): a router
        # where a route or mount names it, mounted by nothing
        self.made_on_unknown: dict[tuple[str, str], RouterDecl] = {}
        # those whose instance keeps routers as attributes: attribute -> that router's key
        self.instance_routers: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
        # an instance's attributes its `__init__` stores a parameter in: what the call passed
        self.instance_given: dict[tuple[str, str], dict[str, Expr]] = {}
        # mounts of `item.attr` the scan cannot resolve, `attr` an instance router's name
        self.loop_mounts: list[tuple[_Node, str, MountDecl, str]] = []
        self._importing_index: dict[str, set[str]] = {}
        self._importing_for = -1  # the number of modules the index was built over
        # those whose class is one: where the instance is made, to look its methods up
        self.router_classes: dict[tuple[str, str], tuple[str, Expr]] = {}
        # a router a call of a project function makes (`const auth = createAuthRouter()`) ->
        # the router the function's body makes, whose routes and mounts every such one has
        self.made_by: dict[tuple[str, str], tuple[str, str]] = {}
        # Python: such a router made by one chain of calls (`X = make(kind="x")`, or a factory
        # another one calls with its own parameters) -> that chain, innermost call first: the
        # function's parameters bound to what the chain passes (`_fresh_made`)
        self.made_chain: dict[tuple[str, str], _Chain] = {}
        # Python: the router a function makes -> the routes and mounts its body puts on it
        # with the function's parameters (`_deferred`), bound per router a call makes
        self.deferred: dict[tuple[str, str], list[tuple[str, RouteDecl | MountDecl, str]]] = {}
        self._invocations_by_line: dict[str, dict[int, list[Invocation]]] = {}
        self._invocation_memo: dict[tuple[str, Invocation], Invocation | None] = {}
        # (file, def site) -> the chains of calls that reach that function (`_chains`)
        self.chains: dict[tuple[str, str], list[_Chain]] = {}
        # (JS file, method site) -> the name of the class it is a method of (`_method_this`)
        self.method_classes: dict[tuple[str, str], str | None] = {}
        # JS file -> the (line, owner) of each `use()` the reader read in it (`_read_as_use`)
        self.uses_read: dict[str, set[tuple[int, Expr]]] = {}
        self.routes_read: dict[str, set[tuple[int, Expr]]] = {}  # the same of routes
        # a gap inside a function -> the calls of it that reached it (listed in its finding)
        self.gap_places: dict[Gap, dict[tuple[str, int], None]] = {}
        # no parsed file spells a framework's router base: no class is a router, and looking
        # (a view's `form = SignupForm(request.POST)`) would parse forms and models for nothing
        subclassing = any(facts.router_bases for facts in self.modules.values())
        for path, facts in self.modules.items():
            for decl in facts.routers:
                if decl.subclass is not None and facts.language != "python":
                    self._aliased(path, decl, decl.subclass)
                elif decl.subclass is not None:
                    self._subclassed(path, decl, decl.subclass, subclassing)
        # JS classes whose base makes a router in its constructor: a router of their own each
        # (`js_classes`): class -> its `_Instance` key, that key -> attribute -> router's key
        self.class_infos: dict[tuple[str, int], ClassInfo | None] = {}
        self.class_keys: dict[tuple[str, int], tuple[str, str]] = {}
        self.class_instances: dict[tuple[str, str], tuple[dict[str, tuple[str, str]], _Scoped]] = {}
        self._class_routers()
        self.cache.clear()  # the routers a router method is called on are all known now
        self.unset_readings.clear()
        for path, facts in self.modules.items():
            for decl in facts.routers:
                if decl.made_on is not None:
                    self._made_on(path, decl, decl.made_on)
        self.cache.clear()  # answers given before every router was known
        self.unset_readings.clear()
        self.scoped.clear()
        self.verdicts.clear()
        self.limit = self.budget = LINK_BUDGET  # routes produced plus mounts followed, allowed
        self.text_budget = LINK_TEXT_BUDGET  # characters of the routes listed, allowed
        self.cut: dict[tuple[str, int], None] = {}  # mounts not followed for want of budget

    def _loaded(self, modules: Mapping[str, ModuleFacts]) -> Mapping[str, ModuleFacts]:
        """`modules`, each plugin loader (`LoadDecl`) written out as the registers it makes:
        per plugin file a child router under the loader's prefix and the file's own (its
        `autoPrefix` export, else its folder's path), used by the loader's router, and a call
        of the file's default export with it, as `register(require(file), { prefix })`."""
        if not any(facts.loads for facts in modules.values()):
            return modules
        out = dict(modules)
        for path, facts in modules.items():
            routers, uses, invocations = [], [], []
            gap_routes: list[RouteDecl] = []
            for load in facts.loads:
                if load.loader == MAP_DIR:
                    uses += self._mapped(path, load, modules)
                    continue
                if load.loader == js_dirload.EACH_MODULE:
                    uses_, invocations_, gaps = self._each_module(path, load, modules)
                    uses += uses_
                    invocations += invocations_
                    gap_routes += gaps
                    continue
                for file, crumb in _autoloaded(load, self.files):
                    self.touched.add(file)
                    spec = posixpath.relpath(file, posixpath.dirname(path) or ".")
                    spec = spec if spec.startswith(".") else f"./{spec}"
                    plugin = modules.get(file)
                    own: Expr | None = Lit(crumb) if crumb else None
                    if plugin is not None and "autoPrefix" in plugin.exports:
                        own = ImportRef(spec, "autoPrefix", path)
                    given = Trimmed(load.prefix, "/") if load.prefix is not None else None
                    prefix = (  # autoload drops the given prefix's last `/`, as its options'
                        own if given is None
                        else given if own is None
                        else Concat((given, own))
                    )  # fmt: skip
                    if plugin is not None and SHARED in plugin.bindings:
                        prefix = None  # `fp(plugin)` runs on the loader's router, unprefixed
                    site = f"load:{load.line}:{file}"
                    child = RouterRef(site)
                    routers.append(RouterDecl(site, FASTIFY, load.line, prefix=prefix))
                    uses.append(UseDecl(load.owner, ((child, Auth((child,))),), load.line))
                    args: tuple[Expr, ...] = (child,)
                    if load.options is not None:
                        folder = posixpath.dirname(file) != load.folder.rstrip("/")
                        args = (child, _plugin_options(load.options, own, folder))
                    invocations.append(
                        Invocation(ImportRef(spec, "default", path), args, (), load.line,
                                   scope=load.scope)
                    )  # fmt: skip
            if routers or uses or invocations or gap_routes:
                out[path] = replace(
                    facts,
                    routes=(*facts.routes, *gap_routes),
                    routers=(*facts.routers, *routers),
                    uses=(*facts.uses, *uses),
                    invocations=(*facts.invocations, *invocations),
                )
        return out

    def _each_module(
        self, path: str, load: LoadDecl, modules: Mapping[str, ModuleFacts]
    ) -> tuple[list[UseDecl], list[Invocation], list[RouteDecl]]:
        """A folder loader of the project's (`js_dirload`) written out per module it loads;
        its folder, when a parameter of a helper, is each one the helper's callers pass."""
        loads = [load]
        if load.helper is not None:
            folders = js_dirload.helper_folders(path, load, modules)
            if folders is None:
                return [], [], [js_dirload.helper_gap(load)]
            loads = [replace(load, folder=folder, helper=None) for folder in folders]
        uses: list[UseDecl] = []
        invocations: list[Invocation] = []
        tables: list[RouteDecl] = []
        for one in loads:
            if one.export == js_dirload.EVERY_ROUTER:  # a library's loader: routers by value
                uses += self._every_router(path, one, modules)
                continue
            mounted, called, loaded = js_dirload.written_out(path, one, self.files)
            self.touched.update(loaded)
            uses += mounted
            invocations += [c for c in called if isinstance(c, Invocation)]
            tables += [c for c in called if isinstance(c, RouteDecl)]
        return uses, invocations, tables

    def _every_router(
        self, path: str, load: LoadDecl, modules: Mapping[str, ModuleFacts]
    ) -> list[UseDecl]:
        """A library's folder loader (`Framework.folder_loaders`) written out: each router a
        script of its folder exports (by any name, or as the module itself), mounted on the
        loader's app as `app.use(require(file).name)` at the loader's line."""
        uses: list[UseDecl] = []
        for file, _ in js_dirload.walked(load, self.files):
            facts = modules.get(file)
            if facts is None:
                continue
            self.touched.add(file)
            spec = posixpath.relpath(file, posixpath.dirname(path) or ".")
            spec = spec if spec.startswith(".") else f"./{spec}"
            for name in _exported_routers(facts):
                child = ImportRef(spec, name, path)
                uses.append(UseDecl(load.owner, ((child, Auth((child,))),), load.line))
        return uses

    def _hooked(self) -> None:
        """Hook registries (`js_hooks`): a listener's call of its own parameter (`add({ path
        })` in `hooks.on('extra', (add) => ...)`) is written out as a call of each function
        an emit of the same hook passes in that position (`hooks.emit('extra', addRoute)`),
        at the listener's line, so a wrapper's routes reach their call sites. A function that
        adds routes given to a hook no scanned listener calls is an `UNRESOLVED_ROUTE` at the
        emit; the hook's name is a word, so a pre-filtering scan parses the files naming it."""
        by_name: dict[str, list[tuple[str, HookCall]]] = {}
        param_calls: dict[tuple[str, str], list[Invocation]] = {}
        for path, facts in self.modules.items():
            for hook in facts.hook_calls:
                by_name.setdefault(hook.name, []).append((path, hook))
            for call in facts.param_calls:
                assert isinstance(call.callee, Param)
                param_calls.setdefault((path, call.callee.function), []).append(call)
        if not by_name:
            return
        added: dict[str, list[Invocation]] = {}
        for name, hooks in by_name.items():
            given = [  # (file, emit, position, the function's expression) of route adders
                (path, hook, index, arg)
                for path, hook in hooks
                for index, arg in enumerate(hook.args)
                if arg is not None and self._adds_routes(path, arg)
            ]
            if not given:
                continue
            self.words.add(name)
            heard = self._heard(hooks, given, param_calls, added)
            if not heard:
                for file, emit, _, passed in given:
                    detail = (
                        f"`{describe(passed)}`, given to the hook `{name}` here, adds routes "
                        "for each listener of the hook, and no scanned file binds one that "
                        "calls it: the routes they add are not listed"
                    )
                    self._unresolved(UNRESOLVED_ROUTE, file, emit.line, detail)
        if not added:
            return
        modules = dict(self.modules)
        for path, calls in added.items():
            facts = modules[path]
            modules[path] = replace(facts, invocations=(*facts.invocations, *calls))
        self.modules = modules
        self.calls, self.pending = None, {}
        self.indexed_words = -1
        self.chains.clear()
        self.cache.clear()
        self.unset_readings.clear()
        self.scoped.clear()

    def _heard(
        self,
        hooks: list[tuple[str, HookCall]],
        given: list[tuple[str, HookCall, int, Expr]],
        param_calls: dict[tuple[str, str], list[Invocation]],
        added: dict[str, list[Invocation]],
    ) -> bool:
        """Whether a listener of the hook calls a function an emit of it gives: each such call
        written into `added`, at most `_MAX_HOOKED` in a link. Every listener's call times
        every emit's function (400 of each in a 50 KB file, ten calls a listener: 1.6 million)
        spent the whole `request_ms`; past the cap the hook's emits are a
        `LINK_BUDGET_EXCEEDED` finding and the rest is not looked at."""
        heard = False
        held = sum(map(len, added.values()))
        for path, hook in hooks:
            for arg in hook.args:
                site = self._function_site(path, arg) if arg is not None else None
                if site is None:
                    continue
                for call in param_calls.get(site, []):
                    assert isinstance(call.callee, Param)
                    for file, emit, index, passed in given:
                        if emit is hook or index != call.callee.index:
                            continue
                        if held >= _MAX_HOOKED:
                            self.cut.update(((f, e.line), None) for f, e, _, _ in given)
                            return True
                        heard, held = True, held + 1
                        added.setdefault(site[0], []).append(
                            replace(call, callee=Bound(file, passed), receiver=None)
                        )
        return heard

    def _function_site(self, path: str, expr: Expr) -> tuple[str, str] | None:
        """(file, site) of the function of the project's `expr` written in `path` is."""
        if isinstance(expr, Function):
            return (path, expr.site) if expr.site else None
        value = self.evaluate(path, expr)
        if isinstance(value, _Scoped) and isinstance(value.value, Function):
            return (value.file, value.value.site) if value.value.site else None
        return None

    def _adds_routes(self, path: str, expr: Expr) -> bool:
        """Whether the function `expr` names declares a route on or with its parameters, or
        calls (with them) a function of the project's that does: one a hook is given to add
        routes with (`hooks.emit('extra', addRoute)`)."""
        site = self._function_site(path, expr)
        if site is None:
            return False
        if self._declares_with(*site):
            return True
        for call in self._facts(site[0]).invocations:
            if call.scope != site[1]:
                continue
            inner = self._function_site(site[0], call.callee)
            if inner is not None and self._declares_with(*inner):
                return True
        return False

    def _declares_with(self, file: str, site: str) -> bool:
        """Whether a route of `file` takes its router, path or methods from the parameters of
        the function at `site`."""
        for route in self._facts(file).routes:
            exprs = (route.owner, route.path, *route.method_exprs)
            if any(e is not None and _param_site(e) == site for e in exprs):
                return True
        return False

    def _composed(self) -> None:
        """Each app composed from a manifest (`ComposeDecl`, `@hapi/glue`) written out as the
        registers it makes: per plugin the manifest lists, a child router of the app under
        the entry's `routes.prefix` and a call of the plugin's `register` with it (and the
        entry's `options`), as `server.register({ plugin, routes: { prefix } })` in code.
        A manifest, entry or plugin the scan does not show is a finding at the compose call;
        a library plugin that serves routes of its own (the record's `generates`) too."""
        composing = [(p, c) for p, f in self.modules.items() for c in f.composes]
        if not composing:
            return
        modules = dict(self.modules)
        for path, compose in composing:
            routers: list[RouterDecl] = []
            routes: list[RouteDecl] = []
            invocations: list[Invocation] = []
            app = RouterRef(compose.router_id)
            plugins = self._manifest_plugins(path, compose)
            if plugins is None:
                detail = (
                    f"the manifest `{describe(compose.manifest)}` composed here is computed out "
                    "of sight: the plugins it registers and their routes are not listed"
                )
                self._unresolved(UNRESOLVED_ROUTE, path, compose.line, detail)
                continue
            for index, (file, entry) in enumerate(plugins.entries):
                found = self._manifest_entry(path, compose, file, entry, plugins)
                if isinstance(found, str):
                    generates = BY_KEY[HAPI].generates
                    if found in generates:  # `hapi-swagger`: routes made from its options
                        routes.append(
                            RouteDecl(app, Opaque(), None, compose.line, methods_unknown=True,
                                      generated_by=found, documented=_entry_options(found, entry))
                        )  # fmt: skip
                    continue
                if found is None:
                    named = (
                        dict(entry.fields).get("plugin") if isinstance(entry, Namespace) else entry
                    )
                    detail = (
                        f"a plugin the manifest composed here lists ({describe(named)}) is "
                        "not a module the scanned files show: its routes are not listed"
                    )
                    self._unresolved(UNRESOLVED_ROUTE, path, compose.line, detail)
                    continue
                function, prefix, options = found
                site = f"{compose.router_id}:compose:{index}"
                routers.append(RouterDecl(site, HAPI, compose.line, prefix=prefix))
                child = RouterRef(site)
                self.nodes[(path, site)] = _Node(path, routers[-1])
                mount = MountDecl(None, Lit(""), None, compose.line)
                if (path, compose.router_id) in self.nodes:
                    self.nodes[(path, compose.router_id)].mounts.append((path, mount, (path, site)))
                args: tuple[Expr, ...] = (child, options) if options is not None else (child,)
                invocations.append(
                    Invocation(function, args, (), compose.line, scope=compose.scope)
                )
            facts = modules[path]
            modules[path] = replace(
                facts,
                routes=(*facts.routes, *routes),
                invocations=(*facts.invocations, *invocations),
            )
        self.modules = modules
        self._uses_of.clear()  # the routes a file's facts hold changed
        self.calls, self.pending = None, {}
        self.indexed_words = -1
        self.chains.clear()
        self.cache.clear()
        self.unset_readings.clear()
        self.scoped.clear()

    def _shared(self) -> None:
        """A plugin registered with options (`register(plugin, { prefix })`) whose module
        exports it wrapped by `fastify-plugin` runs on the registering router itself, so the
        prefix the reader gave the register's child router does not apply (the reader sees
        the wrapping only in its own file); so does one a factory returns wrapped."""
        for path, facts in self.modules.items():
            for call in facts.invocations:
                child = call.args[0] if call.args else None
                if not isinstance(child, RouterRef) or ":register:" not in child.router_id:
                    continue
                node = self.nodes.get((path, child.router_id))
                if node is None or node.decl.prefix is None:
                    continue
                callee = self.evaluate(path, call.callee)
                if not (isinstance(callee, _Scoped) and isinstance(callee.value, Function)):
                    continue
                if callee.value.shared or (
                    SHARED in self._facts(callee.file).bindings
                    and self._default_export(callee.file) == callee
                ):  # `fp` on the export, or on what a factory returns (`return fp(f)`)
                    node.decl = replace(node.decl, prefix=None)

    def _methods_passed(self) -> None:
        """A call handing a router's route method to a function (`guarded(router.get, "/x")`,
        a decorator helper) looks the function up, so that its module is read: the helper
        registers with `verb(path)(view)` on its parameter, which no byte of its file names
        as a route (the route is bound per call: `_bound_method_part`)."""
        for path, facts in self.modules.items():
            for call in facts.invocations:
                if any(self._router_method(path, a) for a in _call_values(call)):
                    self.evaluate(path, call.callee)

    def _router_method(self, path: str, value: Expr | None) -> bool:
        """Whether `value` is written as a router's route method (`router.get`, `bp.route`)."""
        if not (isinstance(value, Sym) and len(value.path) > 1):
            return False
        if value.path[-1] not in _ROUTE_METHODS:
            return False
        return isinstance(self.evaluate(path, Sym(value.path[:-1])), _Router)

    def _manifest_plugins(self, path: str, compose: ComposeDecl) -> _Manifest | None:
        """Each plugin a composed manifest lists, as (file, entry): glue 5+'s
        `register.plugins` (a single entry too), with `register.options.routes.prefix` for
        entries naming no prefix of their own, or glue 3/4's `registrations` (`legacy`); None
        when the manifest or its list is not visible."""
        manifest = self._settled(self.evaluate(path, compose.manifest))
        if not self._listed(self._plugins_of(manifest)) and _param_site(compose.manifest):
            # built from what the composing function is given (`start(plugins)`): as each
            # scanned call of it passes
            for chain in self._chains(path, compose.scope) if compose.scope else []:
                bound = self._through(compose.manifest, path, compose.scope, chain)
                found = self._settled(self.evaluate(path, bound))
                if self._listed(self._plugins_of(found)):
                    manifest = found
                    break
        register = self._member(manifest, "register") if manifest is not None else None
        plugins = self._settled(self._member(register, "plugins")) if register else None
        legacy = plugins is None and manifest is not None and register is None
        if legacy and manifest is not None:
            plugins = self._settled(self._member(manifest, "registrations"))
        if plugins is None and (
            # glue 1/2's top-level `plugins` (an object keyed by module) is not read: a finding
            (legacy and all(_fields_of(manifest, k) is False for k in _MANIFEST_LISTS))
            or _fields_of(register, "plugins") is False
        ):
            return _Manifest([], legacy, None)  # written out without plugins: none
        if not isinstance(plugins, _Scoped):
            return None
        shared = None
        if isinstance(register, _Scoped):  # `register.options`: every entry's register options
            shared = self._option_at(register.file, register.value, ("options", "routes", "prefix"))
        if isinstance(plugins.value, Items):
            entries = [(plugins.file, value) for value in plugins.value.values]
        else:
            entries = [(plugins.file, plugins.value)]
        return _Manifest(entries, legacy, shared)

    def _plugins_of(self, manifest: _Entity | None) -> _Entity | None:
        """A manifest's list of plugins: glue 5+'s `register.plugins`, glue 3/4's
        `registrations`."""
        register = self._member(manifest, "register") if manifest is not None else None
        if register is None:
            listed = self._member(manifest, "registrations") if manifest is not None else None
            return self._settled(listed) if listed is not None else None
        return self._settled(self._member(register, "plugins"))

    def _option_at(self, file: str, written: Expr, steps: tuple[str, ...]) -> Expr | None:
        """The option `steps` below `written` (`routes.prefix`) as an expression read again
        where it is written (a confidence `$filter`'s default kept); `Opaque` when it is there
        but not a string the scan shows; None when it is not given."""
        holder: _Entity | None = self._settled(self.evaluate(file, written))
        for step in steps[:-1]:
            holder = self._settled(self._member(holder, step)) if holder is not None else None
        given = self._member(holder, steps[-1]) if holder is not None else None
        if given is None:  # absent, or a `$filter` no `$default` decides: not known
            if isinstance(holder, _Scoped) and isinstance(holder.value, Namespace):
                return Opaque() if steps[-1] in dict(holder.value.fields) else None
            return None
        return Bound(file, Member(written, steps)) if isinstance(given, _Str) else Opaque()

    def _manifest_entry(
        self, path: str, compose: ComposeDecl, file: str, entry: Expr, glue: _Manifest
    ) -> tuple[Expr, Expr | None, Expr | None] | str | None:
        """A manifest entry as (the plugin's `register` function, the entry's `routes.prefix`,
        its `options`), each an expression to evaluate where the compose call is written; a
        package's name for a library plugin; None when the plugin is not found.

        glue 5+: `{ plugin, routes: { prefix }, options }`, `options` the plugin's. glue 3/4:
        `{ plugin, options: { routes: { prefix } } }`, `options` the register options, the
        plugin a module path or `{ register, options }` (hapi 16's plugin item: `register`
        a path or the plugin, `options` the plugin's)."""
        item = self._settled(self.evaluate(file, entry))
        prefix: Expr | None = None
        options: Expr | None = None
        plugin: _Entity | None = item
        if isinstance(item, _Scoped) and isinstance(item.value, Namespace):
            fields = dict(item.value.fields)
            named = self._member(item, "plugin")  # its own, or a spread object's
            if "plugin" in fields or named is not None:
                plugin = self._settled(named)
                at = ("options", "routes", "prefix") if glue.legacy else ("routes", "prefix")
                prefix = self._option_at(file, entry, at)
                if glue.legacy:
                    inner = self._member(plugin, "register") if plugin is not None else None
                    if plugin is not None and inner is not None:  # `{ register, options }`
                        given = self._settled(self._member(plugin, "options"))
                        if isinstance(given, _Scoped):
                            options = Bound(given.file, given.value)
                        plugin = self._settled(inner)
                elif "options" in fields:
                    options = Bound(item.file, fields["options"])
                elif self._member(item, "options") is not None:
                    options = Bound(file, Member(entry, ("options",)))
        if prefix is None:
            prefix = glue.shared
        if isinstance(plugin, _Str):  # a module path, relative to `relativeTo`, or a package
            spec = plugin.value
            if not spec.startswith("."):
                return spec
            if compose.relative_to is None:
                return None
            joined = posixpath.normpath(posixpath.join(compose.relative_to, spec))
            if compose.relative_module:  # `require('plugins/api')` as the app resolves it
                target = self._js_file(path, joined)
            else:
                target = self._js_path(joined)
            plugin = self._default_export(target) if target is not None else None
        if isinstance(plugin, _External):
            return plugin.module
        # hapi 17+'s `{ name, register }` (or `exports.plugin`), hapi 16's `exports.register`
        # or the register function itself
        shapes = (("plugin", "register"), ("register",), *(((),) if glue.legacy else ()))
        for steps in shapes:
            function: _Entity | None = plugin
            for step in steps:
                function = self._member(function, step) if function is not None else None
            if isinstance(function, _Scoped) and isinstance(function.value, Function):
                return Bound(function.file, function.value), prefix, options
        return None

    def _mapped(
        self, path: str, load: LoadDecl, modules: Mapping[str, ModuleFacts]
    ) -> list[UseDecl]:
        """koa-swagger-decorator's `mapDir`: each `.js`/`.ts` file under the folder (its own
        files only unless recursive; dot-folders and declaration files aside, as its glob
        has them) whose default export is a decorated class (`koa_decorators`) serves that
        class's routes on the router, as `router.map(require(file).default)`."""
        uses: list[UseDecl] = []
        root = load.folder.rstrip("/")
        for file in sorted(self.files):
            rest = file[len(root) + 1 :] if root else file
            if root and not file.startswith(f"{root}/"):
                continue
            parts = rest.split("/")
            if (not load.dir_prefix and len(parts) > 1) or any(p.startswith(".") for p in parts):
                continue
            if not file.endswith((".js", ".ts")) or file.endswith(".d.ts"):
                continue
            self.touched.add(file)
            facts = modules.get(file)
            if facts is None or not any(
                r.router_id.startswith(CLASS_ROUTER) for r in facts.routers
            ):
                continue
            spec = posixpath.relpath(file, posixpath.dirname(path) or ".")
            child = ImportRef(spec if spec.startswith(".") else f"./{spec}", "default", path)
            uses.append(UseDecl(load.owner, ((child, Auth((child,))),), load.line))
        return uses

    def _facts(self, path: str) -> ModuleFacts:
        """A file's facts, remembering that they were asked for; a file not parsed (a
        pre-filtering scanner left it out) reads as empty until it is."""
        self.touched.add(path)
        facts = self.modules.get(path)
        if facts is None:
            return _EMPTY_PYTHON if path.endswith(".py") else _EMPTY_JS
        return facts

    def _module_index(self) -> _Index:
        """Absolute imports to dotted module names by the one resolver of the Python packs
        (`pymodules.ModuleIndex`: the import system's rules over `sys.path` roots, packages and
        plain folders). A folder holding modules is a module too (a namespace package), after
        any file of its name; a failed file is indexed so an import that lands in it touches it.
        The last link's when made for the same files (`LinkMemo`): it reads nothing else."""
        key = (self.files, self.failed, REPOSITORY_PACKAGES.get())
        kept = self.memo.index
        if kept is not None and kept[0] == key:
            return kept[1]
        python = sorted(
            (p for p in self.files | self.failed if p.endswith(".py")),
            key=lambda p: p.encode("utf-8", "surrogatepass"),
        )
        python_files: dict[str, str] = {}
        failed_files: dict[str, str] = {}
        names: set[str] = set()
        folders: dict[str, None] = {}
        for path in python:
            name = module_name(path)
            if path in self.failed and path not in self.files:
                failed_files.setdefault(name, path)
                continue
            python_files[name] = path
            parts = name.split(".")
            for end in range(1, len(parts) + 1):
                names.add(".".join(parts[:end]))
            for end in range(1, len(parts)):
                folders["/".join(parts[:end])] = None
        packages = key[2]
        if packages is None:
            packages = packages_of(python)
        entries = [(path, module_name(path)) for path in python]
        entries += [(f"{folder}/__init__.py", folder.replace("/", ".")) for folder in folders]
        index = _Index(python_files, failed_files, names, ModuleIndex(entries, packages))
        self.memo.index = (key, index)
        return index

    def _subclassed(self, path: str, decl: RouterDecl, subclass: Sym, subclassing: bool) -> None:
        """Make `decl` a router when its class links to a subclass of `APIRouter` or
        `Blueprint` (or to the framework's class itself, re-exported by the project): framework
        from the base, prefix and dependencies from the call (as that framework class reads its
        prefix: `RouterDecl.class_prefixes`) or else from the class's `super().__init__(...)`.
        Not looked for unless `subclassing`."""
        found = self._router_class(path, subclass, 0) if subclassing else None
        key = (path, decl.router_id)
        if found is None:
            self.not_routers[key] = Sym((*subclass.path, CALL))
            if self._attribute_used(path, decl):
                self._instance(path, decl, subclass)
            return
        self.router_classes[key] = (path, Sym((*subclass.path, CALL)))
        framework, prefix, guards, app, base = found
        given = dict(decl.class_prefixes).get(base, decl.prefix)
        if given is None and isinstance(prefix, Bound) and (site := _param_site(prefix.expr)):
            # the constructor's prefix of its parameters: what this call passes for them
            call = decl.arguments or Invocation(Opaque(), (), ())
            prefix = _subst(prefix, path, prefix.file, site, call, path)
        routed = replace(
            decl,
            app=app,
            framework=framework,
            prefix=given if given is not None else prefix,
            auth=Auth(decl.auth.guards + guards, decl.auth.aliases),
            subclass=None,
            concatenates=framework == FLASK and base in _RESTFUL_CLASSES,
        )
        self.nodes[key] = _Node(path, routed)

    def _made_on(self, path: str, decl: RouterDecl, made_on: Expr) -> None:
        """Make `decl` (`api.namespace('users')`) a router when the value the method is called
        on links to a router (the project's `api = ShopApi(bp)`, imported, re-exported or
        aliased; or each router the calls of a function pass as its parameter), or to a value
        the scanned files do not show (then mounted by nothing: its routes are flagged). A
        value they show that is no router (an object or module of the project's) has a method
        of its own: what calling it gives, as it was read before. Made on a value not shown,
        it is made a router only where a route or a mount names it: a method of that name on
        some library's object (`client.namespace(name)`) costs the link nothing."""
        key = (path, decl.router_id)
        verdict = self._router_verdict(path, made_on, 0)
        if verdict:
            self.nodes[key] = _Node(path, decl)
        elif verdict is None:  # a router once something is declared on it (`_evaluate`)
            self.made_on_unknown[key] = decl
        elif isinstance(made_on, Sym):
            self.not_routers[key] = Sym((*made_on.path, CALL))

    def _router_verdict(self, path: str, expr: Expr, depth: int) -> bool | None:
        """Whether `expr` links to a router: True, False (a value the scanned files show that
        is none), None (not known: a library's object, a value computed out of sight). A
        parameter is each value the scanned calls pass (a router among them: True), or where
        none passes one, the name it spells."""
        if isinstance(expr, Param) and depth <= _MAX_DEPTH:
            key = (path, expr, depth)  # asked once each, as `_owners` (exponential otherwise)
            if key in self._verdicts_memo:
                return self._verdicts_memo[key]
            verdicts = {
                self._router_verdict(file, passed, depth + 1)
                for file, call in self._calls_of(path, expr.function)
                if (passed := _passed(call, expr)) is not None
            }
            if not verdicts:
                verdict = self._router_verdict(path, expr.fallback, depth + 1)
            else:
                verdict = True if True in verdicts else None if None in verdicts else False
            if not self.indexing:
                self._verdicts_memo[key] = verdict
            return verdict
        entity = self.evaluate(path, expr)
        if isinstance(entity, _OneOf):
            verdicts = {self._entity_verdict(option) for option in entity.options}
            return True if True in verdicts else None if None in verdicts else False
        return self._entity_verdict(entity)

    @staticmethod
    def _entity_verdict(entity: _Entity | None) -> bool | None:
        if isinstance(entity, _Router):
            return True
        if entity is None or isinstance(entity, _External | _OneOf):
            return None
        return False

    def _loop_mounted(self) -> None:
        """An include of `item.router` the scan cannot resolve (`item` from a list built at
        runtime: `Path.glob` and `importlib`) is taken to reach each instance's `router`
        attribute nothing else mounts, under the include's own prefix (none for FastAPI's
        `include_router(m.router)`), every route so served flagged at the include: which
        instances the list holds is not known. The include stays an `UNRESOLVED_ROUTER`."""
        mounted = {child for node in self.nodes.values() for _, _, child in node.mounts}
        free: dict[str, list[tuple[str, str]]] = {}
        for attrs in self.instance_routers.values():
            for attr, key in attrs.items():
                if key not in mounted and key not in free.get(attr, ()):  # made or given
                    free.setdefault(attr, []).append(key)
        detail = (
            "the routers this include reaches are items of a list the scanned files do not "
            "enumerate: each object's router is listed as if it were one of them"
        )
        for node, path, mount, attr in self.loop_mounts:
            assumed = replace(mount, assumed=detail)
            for key in free.get(attr, ()):
                if key != (node.file, node.decl.router_id):
                    node.mounts.append((path, assumed, key))

    def _router_uses(
        self, path: str, facts: ModuleFacts
    ) -> tuple[dict[str, set[str]], frozenset[str]]:
        """The file's names bound to each router it makes (by router id), and the heads of
        the dotted owners its routes and mounts are written on (`module` of `module.router`):
        once per file, not once per router subclass call in it."""
        known = self._uses_of.get(path)
        if known is None:
            refs: dict[str, set[str]] = {}
            for name, value in facts.bindings.items():
                if type(value) is RouterRef:
                    refs.setdefault(value.router_id, set()).add(name)
            owners = [r.owner for r in facts.routes] + [m.child for m in facts.mounts]
            heads = frozenset(
                owner.path[0] for owner in owners if isinstance(owner, Sym) and len(owner.path) > 1
            )
            known = self._uses_of[path] = (refs, heads)
        return known

    def _attribute_used(self, path: str, decl: RouterDecl) -> bool:
        """Whether this file registers routes on, or mounts, a member of the name `decl` is
        bound to (`module.router.get(...)`), or passes the call a router it makes: only then
        is its class looked into."""
        facts = self.modules[path]
        refs, heads = self._router_uses(path, facts)
        if not heads.isdisjoint(refs.get(decl.router_id, ())):
            return True
        for _, value in decl.passed:  # `Cls(..., router=made_here)`: it may be the attribute
            if isinstance(value, Sym) and len(value.path) == 1:
                value = facts.bindings.get(value.path[0], value)
            if isinstance(value, RouterRef) and (path, value.router_id) in self.nodes:
                return True
        return False

    def _instance(self, path: str, decl: RouterDecl, subclass: Sym) -> None:
        """One router per attribute the class (or a base) stores on `self` in `__init__`,
        declared where the instance is made: what it is mounted under is whatever the scanned
        files show mounting `x.router`, else "mounted by nothing" (a flagged prefix)."""
        made: dict[str, tuple[str, str]] = {}
        entity = self.evaluate(path, subclass)
        called: tuple[str, ...] | None = None  # the `__init__` the call runs: its parameters
        passed = dict(decl.passed)
        for _ in range(_MAX_DEPTH):
            if not (isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)):
                break
            if called is None:
                called = entity.value.init_params
                given_attrs = self._given_attributes(path, entity.value, passed)
                self.instance_given[(path, decl.router_id)] = given_attrs
            for template, param in zip(
                entity.value.instance_routers, entity.value.instance_params, strict=True
            ):
                if template.router_id in made:
                    continue  # a subclass's own wins
                given = passed.get(param) if param else None
                if given is None and param and called is not None and param in called:
                    given = passed.get(str(called.index(param)))
                child = self.evaluate(path, given) if given is not None else None
                if isinstance(child, _Router):  # `Cls(router=made_elsewhere)`: that one
                    made[template.router_id] = child.key
                    continue
                key = (path, f"{decl.router_id}.{template.router_id}")
                made[template.router_id] = key
                prefix: Expr | None = template.prefix
                if prefix is not None:
                    prefix = Bound(entity.file, prefix)
                if given is not None:  # something passed that the scan cannot follow
                    prefix = Opaque()
                self.nodes[key] = _Node(path, replace(
                    template,
                    router_id=key[1],
                    line=decl.line,
                    prefix=prefix,
                    auth=Auth(
                        tuple(Bound(entity.file, g) for g in template.auth.guards),
                        template.auth.aliases,
                    ),
                ))  # fmt: skip
            bases = entity.value.bases
            entity = self.evaluate(entity.file, bases[0]) if bases else None
        if made:
            self.instance_routers[(path, decl.router_id)] = made

    @staticmethod
    def _given_attributes(
        path: str, value: Namespace, passed: Mapping[str, Expr | None]
    ) -> dict[str, Expr]:
        """What the constructor call passes for each attribute its `__init__` stores a
        parameter in (`self.app = app` of `Service(app)`), read where the call is written."""
        params = value.init_params or ()
        found: dict[str, Expr] = {}
        for attr, param in value.instance_given:
            given = passed.get(param)
            if given is None and param in params:
                given = passed.get(str(params.index(param)))
            if given is not None:
                found[attr] = Bound(path, given)
        return found

    def _class_routers(self) -> None:
        """Each JS class that inherits a router its base's constructor makes gets one of its
        own per such attribute (`js_classes`), declared where the class is: looked for only
        where some scanned class's constructor makes a router."""
        if not any(
            isinstance(value, Namespace) and own_routers(value, self._routers_by_id(path))
            for path, facts in self.modules.items()
            if facts.language != "python" and facts.routers
            for value in facts.bindings.values()
        ):
            return
        for path, facts in list(self.modules.items()):
            if facts.language == "python":
                continue
            for value in list(facts.bindings.values()):
                if not (isinstance(value, Namespace) and value.bases):
                    continue
                info = self._class_info(path, value, 0)
                if info is None or not info.inherited:
                    continue
                key = (path, f"class {info.name}")
                if key in self.class_instances:
                    continue
                made: dict[str, tuple[str, str]] = {}
                for inherited in info.inherited:
                    if inherited.attr in info.own:  # its own constructor makes it anew
                        made[inherited.attr] = (path, info.own[inherited.attr])
                        continue
                    router = (path, f"class {info.name}.{inherited.attr}")
                    self.nodes[router] = _Node(
                        path, class_router(inherited.template, inherited.file, router[1], info.line)
                    )
                    made[inherited.attr] = router
                self.class_keys[(path, id(value))] = key
                self.class_instances[key] = (made, _Scoped(path, value))

    def _routers_by_id(self, path: str) -> dict[str, RouterDecl]:
        return {decl.router_id: decl for decl in self.modules[path].routers}

    def _class_info(self, path: str, value: Namespace, depth: int) -> ClassInfo | None:
        """The class `value` of the JS file `path`: its name and the router attributes it
        inherits from a base whose constructor makes them (nearest base first, its own
        constructor's winning), remembered per class; None past `_MAX_BASES`."""
        key = (path, id(value))
        if key in self.class_infos:
            return self.class_infos[key]
        self.class_infos[key] = None  # a class met again below itself: a cycle ends here
        facts = self.modules.get(path)
        name = class_name(facts.bindings, value) if facts is not None else None
        if name is None or depth > _MAX_BASES:
            return None
        own = own_routers(value, self._routers_by_id(path))
        inherited: dict[str, Inherited] = {}
        base = self.evaluate(path, value.bases[0]) if value.bases else None
        if (
            isinstance(base, _Scoped)
            and isinstance(base.value, Namespace)
            and not base.file.endswith(".py")
        ):
            made = own_routers(base.value, self._routers_by_id(base.file))
            for attr, decl in made.items():
                if (base.file, decl.router_id) in self.nodes:
                    inherited[attr] = Inherited(attr, base.file, decl)
            above = self._class_info(base.file, base.value, depth + 1)
            for one in above.inherited if above is not None else ():
                inherited.setdefault(one.attr, one)
        line = constructor_line(value) or min(
            (int(f.site.partition(":")[0]) for _, f in value.fields
             if isinstance(f, Function) and f.site.partition(":")[0].isdigit()),
            default=1,
        )  # fmt: skip
        info = ClassInfo(name, tuple(inherited.values()), line)
        info.own = {attr: decl.router_id for attr, decl in own.items() if attr in inherited}
        self.class_infos[key] = info
        return info

    def _class_member(self, entity: _Instance, segment: str) -> _Entity | None:
        """A member of an instance of a class with routers of its own (`js_classes`): one
        of them, else the class's member (its own, then its bases'), a member that reads
        `this.x` (`get router() { return this.app }`) read on this instance."""
        routers, cls = self.class_instances[entity.key]
        if segment in routers:
            return _Router(routers[segment])
        if not isinstance(cls.value, Namespace):
            return None
        found = self._class_field(cls.file, cls.value, segment)
        if found is None:
            return None
        file, owner, expr = found
        rooted = this_rooted(self.class_infos.get((file, id(owner))), expr)
        if rooted is None:
            return self._settled(self.evaluate(file, expr))
        result: _Entity | None = entity
        for part in rooted:
            if result is None or part == CALL:
                return None
            result = self._member(result, part)
        return result

    def _class_field(
        self, path: str, value: Namespace, segment: str
    ) -> tuple[str, Namespace, Expr] | None:
        """The class's own field `segment`, else its nearest base's (at most `_MAX_BASES`
        up): the file and class it is written in, and its value there."""
        for _ in range(_MAX_BASES):
            fields = dict(value.fields)
            if segment in fields:
                self._class_info(path, value, 0)  # its name, for `this` in what it holds
                return path, value, fields[segment]
            base = self.evaluate(path, value.bases[0]) if value.bases else None
            if not (isinstance(base, _Scoped) and isinstance(base.value, Namespace)):
                return None
            path, value = base.file, base.value
        return None

    def _aliased(self, path: str, decl: RouterDecl, made_by: Sym) -> None:
        """Make `decl` (JS: `new Srv()` of an imported name) a router when the name leads,
        through the project's imports and re-exports, to a framework's app or router maker
        (`@koa/router`'s default export, `express`'s `Router`); else it stays what calling
        the name gives, as it was read before."""
        key = (path, decl.router_id)
        entity = self.evaluate(path, made_by)
        found = (
            _JS_MAKERS.get((entity.module, entity.path)) if isinstance(entity, _External) else None
        )
        if found is None:
            self.not_routers[key] = Sym((*made_by.path, CALL))
            return
        framework, app = found
        prefix = decl.prefix if BY_KEY[framework].prefix_option else None
        self.nodes[key] = _Node(path, replace(
            decl, framework=framework, app=app, prefix=prefix, subclass=None
        ))  # fmt: skip

    def _router_class(
        self, path: str, expr: Expr, depth: int
    ) -> tuple[str, Expr | None, tuple[Expr, ...], bool, str] | None:
        """(framework, own prefix, guards, whether an app, the framework's class it is or
        subclasses) of a router class, or None if it is not one."""
        entity = self.evaluate(path, expr)
        if isinstance(entity, _External) and len(entity.path) == 1:
            known = _ROUTER_BASES.get((entity.module.partition(".")[0], entity.path[0]))
            if known is not None:
                return (known[0], None, (), known[1], entity.path[0])
        if depth > _MAX_DEPTH or not isinstance(entity, _Scoped):
            return None
        value = entity.value
        if not isinstance(value, Namespace):
            return None
        for base in value.bases:
            found = self._router_class(entity.file, base, depth + 1)
            if found is None:
                continue
            framework, prefix, guards, app, made = found
            if value.init_prefix is None:  # what its `super().__init__` passes its base's
                prefix = self._passed_prefix(entity.file, value, base, prefix)
            if value.init_prefix is not None:
                text = self._string(entity.file, value.init_prefix)
                prefix = Lit(text) if text is not None else value.init_prefix
                if text is None and _param_site(value.init_prefix):  # bound per call
                    prefix = Bound(entity.file, value.init_prefix)
            verdict = self._auth(entity.file, value.init_auth)
            if verdict == REQUIRED:
                guards += (Evidence("router class"),)
            elif verdict == UNKNOWN:
                guards += (Opaque(),)
            return (framework, prefix, guards, app, made)
        return None

    def _passed_prefix(
        self, file: str, value: Namespace, base: Expr, prefix: Expr | None
    ) -> Expr | None:
        """The prefix of a class whose base takes it from a parameter of its `__init__`
        (`super().__init__(name, import_name, url_prefix=url_prefix)`): what the class's own
        `super().__init__(...)` passes there, by name or position; passing nothing where the
        parameter defaults to `None` gives none. Any other prefix is the base's."""
        inherited = self.evaluate(file, base)
        for _ in range(MAX_ANCESTORS):  # the nearest base that defines `__init__`
            if not (
                isinstance(inherited, _Scoped)
                and isinstance(inherited.value, Namespace)
                and inherited.value.init_params is None
                and inherited.value.bases
            ):
                break
            inherited = self.evaluate(inherited.file, inherited.value.bases[0])
        if not (
            isinstance(prefix, Sym)
            and len(prefix.path) == 1
            and isinstance(inherited, _Scoped)
            and isinstance(inherited.value, Namespace)
            and inherited.value.init_params is not None
            and prefix.path[0] in inherited.value.init_params
            and (value.super_args or value.super_keywords)
        ):
            return prefix
        name = prefix.path[0]
        index = inherited.value.init_params.index(name)
        given = dict(value.super_keywords).get(name)
        if given is None and index < len(value.super_args):
            given = value.super_args[index]
        if given is not None:
            text = self._string(file, given)
            return Lit(text) if text is not None else given
        has_name = name in dict(value.super_keywords) or index < len(value.super_args)
        return None if not has_name and name in inherited.value.none_defaults else prefix

    # -- the graph -------------------------------------------------------------------------

    def routes(self) -> list[FoundRoute]:
        self._hooked()
        self._composed()
        self._shared()
        self._methods_passed()
        for path, facts in self.modules.items():
            self._attach(path, facts)
            self._chosen_plugins(path, facts)
            self._library_values(path, facts)
            self._class_views(path, facts)
        self._marked_routes()
        for file, composed in self.nest.composed():  # NestJS: `applyDecorators(Get(...))`
            self._attach_route(file, composed)
        for parent, base, line in self.nest.inherited():  # NestJS: a controller's base class
            if parent in self.nodes and base in self.nodes:
                inherit = MountDecl(None, Lit(""), None, line)
                self.nodes[parent].mounts.append((parent[0], inherit, base))
        self._loop_mounted()
        templates = self._fresh_filled()
        mounted = {child for node in self.nodes.values() for _, _, child in node.mounts}
        found: list[FoundRoute] = []
        for key in sorted(self.nodes, key=lambda k: (k[0].encode(), self.nodes[k].decl.line)):
            if key not in mounted and key not in templates:
                if self.nodes[key].decl.framework in _DECORATED and not self.nodes[key].decl.app:
                    continue  # a base class no controller extends: its library serves none
                prefix, gap = self._own_prefix(key)
                gaps: tuple[Gap, ...] = (gap,) if gap is not None else ()
                auth = NONE
                decl = self.nodes[key].decl
                imported_by: tuple[str, ...] = ()  # NestJS: the defaults importing its module
                if decl.framework == NESTJS:  # a module the defaults leave out (`nest_guarded`)
                    off, unsure, imported_by = self.nest.left_out(key[0], decl.router_id)
                    for file, line, detail in off:
                        self._unresolved(UNRESOLVED_ROUTE, file, line, detail)
                    if off:
                        continue
                    gaps += unsure
                if decl.framework == NESTJS:  # its module's RouterModule path (`nest_link`)
                    module_path, module_gap = self.nest.module_path(key[0], decl.router_id)
                    prefix = join_prefix(module_path, prefix)
                    gaps += (module_gap,) if module_gap is not None else ()
                prefixes = [prefix]
                if decl.framework in _BOOTSTRAPPED:  # the bootstraps that serve it
                    served, boot_gaps = self.nest.bootstrap(
                        key[0], decl.router_id, decl.framework, decl.line
                    )
                    prefixes = [join_prefix(p, prefix) for p in served]
                    gaps += boot_gaps
                if not decl.app:  # served by something the scanned files do not show
                    what = f"the {_ROUTER_NOUN.get(decl.framework, 'router')} created here"
                    detail = (
                        f"{what} is mounted by nothing the scanned files show: the prefix it "
                        "is served under is not known"
                    )
                    if decl.made_on is not None:  # what it is made on links to no router
                        detail = (
                            f"the namespace created here is made on `{describe(decl.made_on)}`,"
                            " which is no router the scanned files show (a value computed out "
                            "of sight, or a library's): the prefix its routes are served under "
                            "is not known"
                        )
                    if decl.router_id.startswith("param:"):
                        name = decl.router_id.rpartition(":")[2]
                        detail = (
                            f"no call the scanned files show passes a router as `{name}` to "
                            "the function defined here: the prefix its routes are served "
                            "under is not known"
                        )
                    gaps += ((key[0], decl.line, detail),)
                    auth = UNKNOWN
                elif decl.framework in _PY_APPS and (sub := self._unread_sub_app(key)):
                    gaps += (sub,)  # a sub-app of a mount not read (`py_sub_apps`)
                    auth = UNKNOWN
                if key[1] == _CURRENT_APP_ID and self.current_app_gap is not None:
                    gaps += (self.current_app_gap,)  # several apps: which one is not known
                    auth = UNKNOWN
                assumed = self._assumed(key[0], decl.prefix)
                assumed = (*assumed, *imported_by)
                for prefix in prefixes:
                    self._walk(found, key, prefix, auth, gaps, (key,), assumed)
        found = self._without_plugin_distributions(found)
        for route in found:
            where = {"path": route.path, "line": route.line}
            for file, line, detail in route.gaps:
                self.unresolved.setdefault((UNRESOLVED_PREFIX, file, line, detail), []).append(
                    where
                )
        found += DjangoRouteResolver(self).routes()
        for route in found:
            if route.framework == DJANGO:
                where = {"path": route.path, "line": route.line}
                for file, line, detail in route.gaps:
                    self.unresolved.setdefault((UNRESOLVED_PREFIX, file, line, detail), []).append(
                        where
                    )
        found += self._flask_admin()
        self._unread(found)
        self._foreign_routers()
        for file, line, detail in (
            *self.nest.unread_controllers(),
            *self.nest.test_folder_modules(),
        ):
            self._unresolved(UNRESOLVED_ROUTER, file, line, detail)
        self.words |= self.nest.guarded_words()  # the files that may import them, read too
        for (file, line, detail), places in self.gap_places.items():
            more = self.unresolved.get((UNRESOLVED_PREFIX, file, line, detail))
            if more is not None:
                more += ({"path": p, "line": n} for p, n in places)
        return found

    def _unread_sub_app(self, key: tuple[str, str]) -> Gap | None:
        """Where an app no scanned file mounts may be mounted by a Python mount the pack
        cannot read (`py_sub_apps`): a finding at the app naming those mounts, or None for a
        root."""
        file = key[0]
        unread = [
            (where, line, what)
            for where, line, what, owner in self.unread_mounts
            if where != file and owner is not self.nodes[key] and file in self._closure(where)
        ]
        unread = [u for u in unread if u[0] not in self._closure(file)]
        if not unread or self._facts(file).runs_as_main or self._served(key):
            return None
        return (file, self.nodes[key].decl.line, unread_mount_detail(unread))

    def _closure(self, file: str) -> frozenset[str]:
        known = self.closures.get(file)
        if known is None:
            known = self.closures[file] = import_closure(file, self._python_imports)
        return known

    def _python_imports(self, file: str) -> list[str]:
        """The scanned files a Python file's imports name (a module, or a submodule imported
        from a package), and every module below a package it loads modules from by a computed
        name (`ModuleFacts.dynamic_imports`), each asked for (`_facts`)."""
        found: list[str] = []
        facts = self._facts(file)
        for value in (*facts.bindings.values(), *facts.star_exports):
            if not isinstance(value, ImportRef) or value.origin:
                continue
            names = [value.module] if value.attr is None else [f"{value.module}.{value.attr}"]
            names += [value.module] if value.attr is not None else []
            for name in names:
                module = self.modules_index.find(name, file)
                path = self.python_files.get(module) if module is not None else None
                if path is not None and path != file:
                    found.append(path)
        for package in facts.dynamic_imports:  # any module below it may be loaded
            named = self.modules_index.find(package, file)
            if named is not None:
                below = f"{named}."
                found += (p for n, p in self.python_files.items() if n.startswith(below))
        return found

    def _served(self, key: tuple[str, str]) -> bool:
        """Whether a scanned call hands the app to a server (`uvicorn.run(app)`); the names the
        app is bound to are asked for (`words`), as any file passing it must spell one."""
        for name, value in self._facts(key[0]).bindings.items():
            if isinstance(value, RouterRef):
                self.words.add(name)
        for file, facts in self.modules.items():
            for call in facts.invocations:
                callee = call.callee
                if not (
                    isinstance(callee, Sym) and callee.path and callee.path[-1] in SERVER_CALLS
                ):
                    continue
                for arg in (*call.args, *(v for _, v in call.keywords)):
                    entity = self.evaluate(file, arg) if arg is not None else None
                    if isinstance(entity, _Router) and entity.key == key:
                        return True
        return False

    def _flask_admin(self) -> list[FoundRoute]:
        """Flask-Admin's views (`flask_admin`): the project's `@expose` methods of each view
        an admin adds, at its url; the routes the library's own view classes serve
        (`ModelView`'s list, create, edit, delete, export..., `AdminIndexView`'s index when the
        project does not re-define it) an `UNRESOLVED_ROUTE` at the `add_view` call naming
        Flask-Admin and the class, as is a view whose class or url the scanned files do not
        show."""
        found: list[FoundRoute] = []
        admins: dict[tuple[str, str], list[AdminMake]] = {}
        adds: list[tuple[str, AddView]] = []
        for path, facts in sorted(self.modules.items()):
            if facts.admin is None:
                continue
            for made in facts.admin.admins:
                admins.setdefault((path, made.name), []).append(made)
            adds += ((path, add) for add in facts.admin.add_views)
        made_here = {key for key, makes in admins.items() if any(m.made for m in makes)}
        for key in [k for k in admins if k not in made_here]:  # `init_app` on an imported one
            where = self._admin_of(*key, made_here)
            if where is not None and where != key:
                admins.setdefault(where, []).extend(admins.pop(key))
        if not made_here and not adds:
            return found
        self.admin_read = True
        urls: dict[tuple[str, str], str] = {}
        for key, makes in sorted(admins.items()):
            given: str | None = None  # `Admin(url=)`, `init_app(index_view=, url=)`
            index: ViewCall | None = None
            for one in sorted(makes, key=lambda m: not m.made):  # `Admin(...)`, then `init_app`
                given = one.url if one.url is not None else given
                index = one.index_view or index
            # `AdminIndexView(url=None)` is at `/admin`, the admin's own index at the admin's
            # url; the admin at its `url`, else its index view's (`Admin.__init__`)
            own = given if index is None else index.url
            urls[key] = given or own or FLASK_ADMIN.url
            line = index.line if index is not None else makes[0].line
            found += self._admin_view(key[0], line, index, urls[key], own or FLASK_ADMIN.url,
                                      FLASK_ADMIN.index_endpoint, index=True)  # fmt: skip
        for path, add in adds:
            where = self._admin_of(path, add.receiver, made_here)
            admin = self.modules[path].admin
            if where is None and not (admin is not None and admin.imports):
                continue  # another library's `add_view` (the project's own admin class)
            url = urls.get(where) if where is not None else None
            found += self._admin_view(path, add.line, add.view, url, None, "", index=False)
        return found

    def _admin_of(self, path: str, name: str, made: set[tuple[str, str]]) -> tuple[str, str] | None:
        """The Flask-Admin `Admin` (file, name where it is made) `name` in `path` is, following
        `from m import name` across files."""
        for _ in range(_MAX_DEPTH):
            if (path, name) in made:
                return (path, name)
            binding = self._facts(path).bindings.get(name)
            if not isinstance(binding, ImportRef) or binding.attr is None:
                return None
            file = self.python_files.get(binding.module)
            if file is None:
                return None
            path, name = file, binding.attr
        return None

    def _admin_view(
        self,
        path: str,
        line: int,
        view: ViewCall | None,
        admin_url: str | None,
        own_url: str | None,
        default_endpoint: str,
        *,
        index: bool,
    ) -> list[FoundRoute]:
        """The routes of one Flask-Admin view added at `path`:`line` (`view` None: the
        library's `AdminIndexView`)."""
        library: list[str] = []
        exposed: dict[str, tuple[str, Exposed]] = {}
        defined: set[str] = set()
        name = _INDEX_VIEW if view is None else view.callee
        if view is None:
            library.append(f"{FLASK_ADMIN.module}.{_INDEX_VIEW}")
        else:
            head, *rest = view.callee.split(".")
            entity = self._lookup(path, head)
            for segment in rest:
                entity = self._member(entity, segment) if entity is not None else None
            self._admin_walk(entity, library, exposed, defined, 0)
            # another package's class beside a Flask-Admin one is a mixin (`LoginMixin`)
            reached = any(not lib.startswith("?") for lib in library)
            library = [lib.lstrip("?") for lib in library if not lib.startswith("=")
                       and not (reached and lib.startswith("?"))]  # fmt: skip
        if admin_url == COMPUTED or (view is not None and COMPUTED in (view.url, view.endpoint)):
            admin_url = None
        if library:
            self._unresolved(UNRESOLVED_ROUTE, path, line, (
                f"{FLASK_ADMIN.name} is configured here: the routes its "
                f"{', '.join(dict.fromkeys(library))} generates at run time for the view "
                f"`{name}` are not listed"))  # fmt: skip
        endpoint: str | None = default_endpoint
        if view is not None and not index:
            endpoint = view.endpoint or name.rpartition(".")[2].lower()
            if not view.endpoint and any(
                lib.rpartition(".")[2] in FLASK_ADMIN.modelled for lib in library
            ):
                endpoint = self._model_name(path, view.model)  # `BaseModelView._get_endpoint`
        if endpoint is None:  # a model the scanned files do not name (a loop's variable)
            for file, item in exposed.values():
                self._unresolved(UNRESOLVED_ROUTE, file, item.line, (
                    f"the view `{name}` is added at {path}:{line} with a model whose name "
                    f"(its endpoint) is not known: the route of `{item.method}` is not listed"))  # fmt: skip
            return []
        gaps: tuple[Gap, ...] = ()
        if admin_url is None:
            gaps = ((path, line, "the Flask-Admin admin this view is added to, or its url, is "
                     "not shown by the scanned files: the prefix its routes are under is not "
                     "known"),)  # fmt: skip
            admin_url = FLASK_ADMIN.url
        own_url = None if own_url == COMPUTED else own_url
        if view is not None and view.url not in (None, COMPUTED):
            base = view_url(admin_url, endpoint, view.url, index)
        else:
            base = own_url if own_url is not None else view_url(admin_url, endpoint, None, index)
        routes: list[FoundRoute] = []
        for file, item in sorted(exposed.values(), key=lambda v: (v[0], v[1].line)):
            if item.url is None or item.methods is None:
                self._unresolved(UNRESOLVED_ROUTE, file, item.line,
                                 f"the url or methods of this Flask-Admin `@expose` are "
                                 f"computed: the route of `{name}.{item.method}` is not listed")  # fmt: skip
                continue
            rule = blueprint_join(base, item.url)
            route = flask_path(rule)
            for method in item.methods:
                if method in ("HEAD", "OPTIONS"):
                    continue
                routes.append(FoundRoute(method, route, file, item.line, FLASK, item.method,
                                         UNKNOWN, gaps, shape=flask_shape(rule)))  # fmt: skip
        return routes

    def _model_name(self, path: str, model: str | None) -> str | None:
        """A ModelView's endpoint: its model class's name lower-cased, where `model` (as
        written in `path`) names a class (imported or defined); None otherwise."""
        if model is None:
            return None
        head, _, last = model.rpartition(".")
        binding = self._facts(path).bindings.get(model) if not head else None
        if isinstance(binding, ImportRef) and binding.attr:
            return binding.attr.lower()
        if head or isinstance(binding, Namespace):  # `models.User`: a module's class
            return last.lower()
        return None

    def _admin_walk(
        self,
        entity: _Entity | None,
        library: list[str],
        exposed: dict[str, tuple[str, Exposed]],
        defined: set[str],
        depth: int,
    ) -> None:
        """Along a view class's bases, first base first (as Python's MRO is for the single and
        simple multiple inheritance admin views use): the project's exposed methods a class
        nearer the view does not re-define, and the library's view classes reached."""
        if depth > _MAX_DEPTH:
            return
        if isinstance(entity, _External):
            name = ".".join((entity.module, *entity.path))
            if entity.module.split(".")[0] != FLASK_ADMIN.module:
                library.append(f"?{name}")  # a mixin, unless no Flask-Admin class is reached
                return
            serving = FLASK_ADMIN.views.get(entity.path[-1] if entity.path else "")
            if serving is not None and defined.issuperset(serving):  # none of its own left
                library.append(f"={name}")
                return
            library.append(name)
            return
        if not isinstance(entity, _Scoped) or not isinstance(entity.value, Namespace):
            library.append("a class the scanned files do not show")
            return
        facts = self._facts(entity.file)
        names = {id(v): n for n, v in facts.bindings.items()}
        cls = facts.admin.classes.get(names.get(id(entity.value), "")) if facts.admin else None
        if cls is not None:
            for item in cls.exposed:
                if item.method not in defined:
                    exposed.setdefault(item.method, (entity.file, item))
            for plug in cls.plugviews:
                self._unresolved(UNRESOLVED_ROUTE, entity.file, plug,
                                 "a Flask view class exposed by Flask-Admin's `expose_plugview` "
                                 "is not read: its routes are not listed")  # fmt: skip
            defined |= cls.defines
        for base in entity.value.bases:
            self._admin_walk(self.evaluate(entity.file, base), library, exposed, defined,
                             depth + 1)  # fmt: skip

    # -- Flask-Classful's views (`flask_classful`) ---------------------------------------------

    def _class_views(self, path: str, facts: ModuleFacts) -> None:
        """Each `View.register(app, ...)` of a class below Flask-Classful's `FlaskView`: the
        routes the library makes of the class's members, each on the app or blueprint as its
        `add_url_rule` there is (a blueprint's prefix, a wrapper's callers and an `if` around
        the call apply as to any route). A class of another library registered so on a Flask
        app or blueprint is named (`UNREAD_FRAMEWORK`), never silence."""
        for register in facts.view_registers:
            view = self.evaluate(path, register.view)
            if isinstance(view, _Scoped) and isinstance(view.value, Namespace) and view.value.view:
                self._register_view(path, register, view)
            else:
                self._unknown_view(path, register, view)

    def _marked_routes(self) -> None:
        """Each instance of a router class of the project (`UserModule(db)` registered on an
        app) whose methods carry marks of the project's decorator factories (`py_marks`): a
        route per mark the class's collector registers, on that instance, at the decorated
        method. Marks no collector the pack reads registers, where the class's bases show one
        that is not read (or bases out of sight), are an `UNRESOLVED_ROUTE` at each method."""
        mounted = {child for node in self.nodes.values() for _, _, child in node.mounts}
        made: dict[tuple[str, int], list[tuple[tuple[str, str], _Scoped]]] = {}
        for key, (file, call) in sorted(self.router_classes.items()):
            if key in self.nodes and isinstance(call, Sym) and call.path[-1:] == (CALL,):
                scoped = self.evaluate(file, Sym(call.path[:-1]))
                if isinstance(scoped, _Scoped) and isinstance(scoped.value, Namespace):
                    made.setdefault((scoped.file, id(scoped.value)), []).append((key, scoped))
        collected: set[int] = set()  # the classes whose collectors an instance ran
        for instances in made.values():  # an instance kept as an object (`teachers =
            served = [i for i in instances if i[0] in mounted]  # Mod(db)`) serves nothing
            for key, scoped in served or instances:  # where another of its class is mounted
                collected.update(self._mark_routes(self.nodes[key], scoped))
        self._uncollected(collected)

    def _uncollected(self, collected: set[int]) -> None:
        """A collector read (its registration no route of its own) that no instance the
        scanned files register runs: its marks' routes are not known, a finding at it."""
        for path, facts in self.modules.items():
            for value in facts.bindings.values():
                if not isinstance(value, Namespace) or id(value) in collected:
                    continue
                for collector in (c for c in value.collectors if not c.reason):
                    for line in collector.lines:
                        self._unresolved(UNRESOLVED_ROUTE, path, line,
                                         "the routes this loop registers from its class's marked "
                                         "methods are of instances no scanned file registers on "
                                         "an app: they are not listed")  # fmt: skip

    def _mark_routes(self, node: _Node, scoped: _Scoped) -> set[int]:
        """The marks' routes of one instance; the classes of its order (by `id`)."""
        order = self._view_order(scoped)
        if order is None:
            return set()
        classes = [(c.file, c.value) for c in order
                   if isinstance(c, _Scoped) and isinstance(c.value, Namespace)]  # fmt: skip
        hidden = any(isinstance(c, str) for c in order)
        nearest: dict[str, tuple[str, Namespace]] = {}  # each name's nearest definition
        for file, cls in classes:
            for name in (*(n for n, _ in cls.fields), *(m.method for m in cls.marks)):
                nearest.setdefault(name, (file, cls))
        for name in sorted(nearest):  # `dir()` order
            file, cls = nearest[name]
            for mark in (m for m in cls.marks if m.method == name):
                factory = self._mark_factory(file, mark)
                if factory is not None:
                    self._mark_route(node, classes, hidden, scoped, (file, cls), mark, factory)
        return {id(cls) for _, cls in classes}

    def _mark_factory(self, file: str, mark: py_marks.Mark) -> py_marks.MarkFactory | None:
        """The project's decorator factory the mark's callee names, if it stores a record."""
        entity = self.evaluate(file, mark.factory)
        if not (isinstance(entity, _Scoped) and isinstance(entity.value, Function)):
            return None
        facts = self.modules.get(entity.file)
        found = facts.mark_factories if facts is not None else ()
        return next((f for f in found if f.name == entity.value.name), None)

    def _mark_route(
        self,
        node: _Node,
        classes: list[tuple[str, Namespace]],
        hidden: bool,
        scoped: _Scoped,
        owner: tuple[str, Namespace],
        mark: py_marks.Mark,
        factory: py_marks.MarkFactory,
    ) -> None:
        file, cls = owner
        collectors = [c for _, k in classes for c in k.collectors if c.key == factory.key]
        collector = next((c for c in collectors if not c.reason), None)
        own = scoped.value
        assert isinstance(own, Namespace) and own.view is not None
        if collector is None:
            if collectors or hidden:
                why = collectors[0].reason if collectors else "a base of its class is out of sight"
                self._unresolved(UNRESOLVED_ROUTE, file, mark.line,
                                 f"the method `{mark.method}` is marked as a route here, but the "
                                 f"loop of `{own.view.name}` that registers its marks is not read "
                                 f"({why}): it is not listed")  # fmt: skip
            return
        if collector.own_only and cls is not own:
            return
        if collector.starts is not None:
            prefix, negated = collector.starts
            if mark.method.startswith(prefix) == negated:
                return
        made = py_marks.registration(mark, factory, collector)
        if isinstance(made, str):
            self._unresolved(UNRESOLVED_ROUTE, file, mark.line,
                             f"the method `{mark.method}` is marked as a route here, but {made}: "
                             "it is not listed")  # fmt: skip
            return
        marked = Sym((*mark.factory.path, CALL)) if isinstance(mark.factory, Sym) else None
        guards = tuple(g for g in mark.auth.guards if g != marked)
        methods: tuple[str, ...] | None = (made.verb,) if made.verb else None
        unknown = False
        if made.methods is not None and made.verb is None:
            listed = self._strings(file, made.methods)
            unknown = listed is None
            methods = tuple(m.upper() for m in listed) if listed is not None else None
        handler = f"{own.view.name}.{mark.method}"
        if cls is not own and cls.view is not None:
            handler = f"{own.view.name}({cls.view.name}.{mark.method})"
        route = RouteDecl(RouterRef(node.decl.router_id), made.path, methods, mark.line, handler,
                          auth=Auth(guards), methods_unknown=unknown)  # fmt: skip
        node.routes.append((file, route))

    def _register_view(self, path: str, register: ViewRegister, view: _Scoped) -> None:
        assert isinstance(view.value, Namespace) and view.value.view is not None
        own = view.value.view
        order = self._view_order(view)
        if order is not None and not any(_library_view(base) for base in order):
            self._unread_view_library(path, register, own.name, order)
            return
        settings = self._view_reading(path, register, order)
        if isinstance(settings, str):
            self._unresolved(UNRESOLVED_ROUTE, path, register.line,
                             f"the Flask-Classful view `{own.name}` is registered here, but "
                             f"{settings}: its routes are not listed")  # fmt: skip
        elif not isinstance(register.target, Param) and not self._owners(path, register.target):
            self._unresolved(UNRESOLVED_ROUTER, path, register.line,
                             f"the Flask-Classful view `{own.name}` is registered here on "
                             f"`{describe(register.target)}`, which is no Flask app or blueprint "
                             "the scanned files show: its routes are not listed")  # fmt: skip
        else:
            assert order is not None
            for route in self._view_routes(path, register, view, order, settings):
                self._attach_route(path, route)

    def _view_reading(
        self, path: str, register: ViewRegister, order: list[_Scoped | _External | str] | None
    ) -> Settings | str:
        """The settings `register` builds the view's rules with; what keeps them from being
        read, said as a finding's reason: bases past `MAX_ANCESTORS` (or in no order Python
        accepts), options spread from a value, a `register` of the project's that does not
        hand its app on to the library's (its own keywords are read: `super().register(app,
        route_prefix='/x', **kwargs)`)."""
        if order is None:
            return f"its bases are more than {MAX_ANCESTORS} classes, or in no order Python accepts"
        if register.unread:
            return register.unread
        options = dict(register.options)
        override = next(((f, c.register) for f, c in _view_classes(order) if c.register), None)
        if override is not None and not override[1].passes_on:
            return (f"the `register` of its class at {override[0]}:{override[1].line} overrides "
                    "the library's in a way not read (it does not hand its app on to "
                    "`super().register(app, *args, **kwargs)`)")  # fmt: skip
        if override is not None:
            options.update((k, v) for k, v in override[1].keywords if k not in options)
        return self._view_settings(path, register, order, options)

    def _view_order(self, view: _Scoped) -> list[_Scoped | _External | str] | None:
        """The view class's method resolution order (C3, as Python makes it): the project's
        classes, the libraries' (`_External`) and, as their text, bases the scanned files do
        not show; `object`, `abc.ABC` and `typing.Generic` add nothing and are left out."""
        entities: dict[Hashable, _Scoped | _External | str] = {}

        def key(entity: _Scoped | _External | str) -> Hashable:
            found = (entity.file, id(entity.value)) if isinstance(entity, _Scoped) else entity
            entities.setdefault(found, entity)
            return found

        def bases(at: Hashable) -> list[Hashable]:
            entity = entities[at]
            if not isinstance(entity, _Scoped) or not isinstance(entity.value, Namespace):
                return []
            found: list[Hashable] = []
            for base in entity.value.bases:
                inherited = self.evaluate(entity.file, base)
                if isinstance(inherited, _Scoped) and isinstance(inherited.value, Namespace):
                    found.append(key(inherited))
                elif isinstance(inherited, _External):
                    if ".".join((inherited.module, *inherited.path)) not in METHODLESS:
                        found.append(key(inherited))
                elif inherited is not None or describe(base) != "object":
                    found.append(key(describe(base)))
            return found

        order = linearized(key(view), bases, MAX_ANCESTORS)
        return [entities[k] for k in order] if order is not None else None

    def _view_settings(
        self,
        path: str,
        register: ViewRegister,
        order: list[_Scoped | _External | str],
        options: dict[str, Value],
    ) -> Settings | str:
        """What `register` reads: its own keywords over the class attributes (the nearest
        class assigning each); what cannot be read, said as a finding's reason."""
        written: dict[str, tuple[str, Value, int]] = {}
        for file, cls in _view_classes(order):
            for name, value, line in cls.settings:
                written.setdefault(name, (file, value, line))
        texts: dict[str, str | None] = {}
        for name in ("route_base", "route_prefix"):
            given = options.get(name)
            text = self._setting_text(path, given) if given is not None else None
            if given is not None and text is None:
                return f"its `{name}` given to `register` is computed out of sight"
            if text:  # `register` overrides the class's only with a truthy one
                texts[name] = text
                continue
            file, value, line = written.get(name, (path, None, 0))
            texts[name] = self._setting_text(file, value) if value is not None else None
            if value is not None and texts[name] is None:
                return f"its `{name}` ({file}:{line}) is computed out of sight"
        flags: dict[str, bool] = {}
        for name, default in (("trailing_slash", True), ("method_dashified", False),
                              ("inspect_args", True)):  # fmt: skip
            given = options.get(name)
            file, value, line = written.get(name, (path, default, 0))
            chosen = given if given is not None else value
            if not isinstance(chosen, bool):
                return f"its `{name}` ({file}:{line or register.line}) is computed out of sight"
            flags[name] = chosen
        lists: dict[str, tuple[str, ...]] = {}
        for name in ("excluded_methods", "default_methods", "base_args"):
            file, value, line = written.get(name, (path, None, 0))
            if value is None:
                continue
            if not isinstance(value, tuple):
                return f"its `{name}` ({file}:{line}) is computed out of sight"
            lists[name] = value
        special: dict[str, tuple[str, ...]] | None = None
        if "special_methods" in written:
            file, value, line = written["special_methods"]
            if not isinstance(value, Table):
                return f"its `special_methods` ({file}:{line}) is computed out of sight"
            special = dict(value.entries)
        return Settings(
            texts["route_base"],
            texts["route_prefix"],
            flags["trailing_slash"],
            flags["method_dashified"],
            flags["inspect_args"],
            frozenset(lists.get("excluded_methods", ())),
            tuple(m.upper() for m in lists.get("default_methods", LIBRARY.default_methods)),
            lists.get("base_args", ()),
            special,
        )

    def _setting_text(self, path: str, value: Value) -> str | None:
        """A `route_base`/`route_prefix` setting as a string; None when it is not known."""
        if isinstance(value, bool | tuple | Table) or value is None:
            return None
        return self._string(path, value)

    def _view_routes(
        self,
        path: str,
        register: ViewRegister,
        view: _Scoped,
        order: list[_Scoped | _External | str],
        settings: Settings,
    ) -> list[RouteDecl]:
        """A route per rule the library makes of the view's members, placed at the method
        when the view's own class defines it, else at the view's class (the member's class
        named in its handler); what cannot be read is a finding where it is written."""
        assert isinstance(view.value, Namespace) and view.value.view is not None
        own = view.value.view
        members: dict[str, tuple[str, ViewMethod, ViewClass] | None] = {}
        for file, cls in _view_classes(order):  # the nearest binding of each name
            for member in cls.members:
                members.setdefault(member.name, (file, member, cls))
            for name in cls.hidden:
                members.setdefault(name, None)
        for base in order:
            if isinstance(base, str) or (isinstance(base, _External) and not _library_view(base)):
                shown = base if isinstance(base, str) else ".".join((base.module, *base.path))
                self._unresolved(UNRESOLVED_ROUTE, path, register.line, (
                    f"the view `{own.name}` registered here has the base `{shown}`, which the "
                    "scanned files do not show: the routes its methods may add are not listed"))  # fmt: skip
        left_out = set(LIBRARY.members) | settings.excluded | self._base_class_names(path, register)
        base, base_args = route_base(settings, own.name)
        ignored = frozenset(("self", *settings.base_args, *base_args))
        special = settings.special if settings.special is not None else LIBRARY.special
        hooks = self._view_hooks(order)
        before = hooks.get("before_request", ())
        for file, cls in _view_classes(order):  # the nearest `decorators = [...]`: every route's
            if cls.decorators is not None:
                before = (*(Bound(file, g) for g in cls.decorators.guards), *before)
                break
        routes: list[RouteDecl] = []
        for name in sorted(members):
            found = members[name]
            if found is None or name in left_out:
                continue
            file, member, cls = found
            own_guards = tuple(Bound(file, g) for g in member.auth.guards)
            guards = (*before, *hooks.get(f"before_{name}", ()), *own_guards)
            mine = cls is own
            handler = f"{own.name}.{name}" if mine else f"{own.name}({cls.name}.{name})"
            place = (file, member.line) if mine else (view.file, own.line)
            for rule, methods in self._member_rules(file, member, settings, base, ignored,
                                                    special):  # fmt: skip
                routes.append(RouteDecl(register.target, Lit(rule), methods, register.line,
                                        handler, auth=Auth(guards), called_at=place,
                                        only_if=register.only_if))  # fmt: skip
        return routes

    def _view_hooks(self, order: list[_Scoped | _External | str]) -> dict[str, tuple[Expr, ...]]:
        """What each of the view's `before_request` and `before_<name>` methods (the nearest
        of each name), which the library runs before a method, puts before it: a guard where
        its body turns anonymous callers away, not known where it answers 401/403 to some
        requests only (as a Flask `before_request` hook is judged), and its own decorators."""
        hooks: dict[str, tuple[Expr, ...]] = {}
        for base in order:
            if not (isinstance(base, _Scoped) and isinstance(base.value, Namespace)):
                continue
            for name, function in base.value.fields:
                if not name.startswith("before_") or not isinstance(function, Function):
                    continue
                guards: list[Expr] = [Bound(base.file, g) for g in function.auth.guards]
                if function.evidence:
                    guards.append(Evidence(name) if function.checks_user else Opaque())
                hooks.setdefault(name, tuple(guards))
        return hooks

    def _member_rules(
        self,
        file: str,
        member: ViewMethod,
        settings: Settings,
        base: str,
        ignored: frozenset[str],
        special: Mapping[str, tuple[str, ...]],
    ) -> list[tuple[str, tuple[str, ...]]]:
        """(rule, methods) of one routed member, `@route` rules first (the library's only:
        another's `route` decorator is none), else the rule its name gives."""
        found: list[tuple[str, tuple[str, ...]]] = []
        for rule in member.rules:
            if not _library_member(self.evaluate(file, rule.callee), LIBRARY.route):
                continue
            text = self._string(file, rule.rule) if rule.rule is not None else None
            if text is None or rule.methods is None:
                what = "rule" if text is None else "methods"
                self._unresolved(UNRESOLVED_ROUTE, file, rule.line,
                                 f"the {what} of this Flask-Classful `@route` on `{member.name}` "
                                 "is computed out of sight: it is not listed")  # fmt: skip
                continue
            found.append((build_rule(settings.route_prefix, base, text), rule.methods or ("GET",)))
        if found or any(_library_member(self.evaluate(file, r.callee), LIBRARY.route)
                        for r in member.rules):  # fmt: skip
            return found
        if settings.inspect_args and member.params[:1] != ("self",):
            self._unresolved(UNRESOLVED_ROUTE, file, member.line, (
                f"Flask-Classful's `register` raises on `{member.name}` (its first parameter is "
                "not `self`, so the library cannot read its arguments): it is not listed"))  # fmt: skip
            return found
        if member.name in special:
            named = named_rule(member, settings, base, ignored, special=True)
            return [(named, tuple(m.upper() for m in special[member.name]))]
        marked = [m for c, m in member.marks
                  if _library_member(self.evaluate(file, c), LIBRARY.method)]  # fmt: skip
        if None in marked:
            self._unresolved(UNRESOLVED_ROUTE, file, member.line,
                             f"the method given to Flask-Classful's `@method` on `{member.name}` "
                             "is computed out of sight: it is not listed")  # fmt: skip
            return found
        methods = tuple(str(m) for m in marked) or settings.default_methods
        return [(named_rule(member, settings, base, ignored, special=False), methods)]

    def _base_class_names(self, path: str, register: ViewRegister) -> set[str]:
        """The names `register(base_class=B)` leaves out besides `FlaskView`'s: every member
        the class `B` holds, its own or its bases'."""
        given = dict(register.options).get("base_class")
        if given is None or isinstance(given, bool | tuple | Table):
            return set()
        cls = self.evaluate(path, given)
        if not (isinstance(cls, _Scoped) and isinstance(cls.value, Namespace)):
            return set()
        order = self._view_order(cls) or []
        return {
            n for _, c in _view_classes(order) for n in (*(m.name for m in c.members), *c.hidden)
        }

    def _unknown_view(self, path: str, register: ViewRegister, view: _Entity | None) -> None:
        """A `register` call on what is no class of the project's: when it is given a Flask
        app or blueprint, a library's object (named: `UNREAD_FRAMEWORK`) or one the scanned
        files do not show (`UNRESOLVED_ROUTE`: a view class's routes may be missing)."""
        module = view.module.split(".")[0] if isinstance(view, _External) else ""
        if (view is not None and not module) or module in sys.stdlib_module_names:
            return  # the project's own object (read as code), `atexit.register(...)`
        if not any(n.decl.framework == FLASK for n in self._owners(path, register.target)):
            return
        if module:
            detail = (f"`{describe(register.view)}.register(...)` of the library `{module}` is "
                      "given a Flask app or blueprint here: pack-http-routes does not read "
                      f"{module}, so the routes it may register are not listed")  # fmt: skip
            self._unresolved(UNREAD_FRAMEWORK, path, register.line, detail)
        elif view is None:
            detail = (f"`{describe(register.view)}.register(...)` is given a Flask app or "
                      f"blueprint here, and `{describe(register.view)}` is nothing the scanned "
                      "files show: the routes a view class registered so serves are not listed")  # fmt: skip
            self._unresolved(UNRESOLVED_ROUTE, path, register.line, detail)

    def _unread_view_library(
        self, path: str, register: ViewRegister, named: str, order: list[_Scoped | _External | str]
    ) -> None:
        """A class of the project's below another library's classes, registered on a Flask app
        or blueprint (`Flask-Classy`'s `FlaskView`, a look-alike): named, its routes not read."""
        libraries = [b for b in order if isinstance(b, _External)]
        if not libraries:
            return
        if not any(n.decl.framework == FLASK for n in self._owners(path, register.target)):
            return
        shown = ", ".join(dict.fromkeys(".".join((b.module, *b.path)) for b in libraries))
        detail = (f"the view class `{named}` (below {shown}) is registered on a Flask app or "
                  f"blueprint here: pack-http-routes does not read "
                  f"{libraries[0].module.split('.')[0]}, so the routes it serves are not listed")  # fmt: skip
        self._unresolved(UNREAD_FRAMEWORK, path, register.line, detail)

    def _unread(self, found: list[FoundRoute]) -> None:
        """Never an empty document that says nothing: a framework the pack does not read is
        named where it is used; an app or router of one it reads, when no route is listed at
        all, is named where it is created (its routes are registered in ways not followed)."""
        places: dict[str, list[JSONObject]] = {}
        listed = {route.library for route in found if route.library}  # `library_tables`' too
        for path, facts in self.modules.items():
            for framework, line in facts.unread:
                if framework == FLASK_ADMIN.name and self.admin_read:  # `_flask_admin` named it
                    continue
                if UNREAD_PACKAGES.get(framework, frozenset({""})) <= listed:
                    continue  # a library whose routes its record lists: said there
                places.setdefault(framework, []).append({"path": path, "line": line})
        for framework, where in sorted(places.items()):
            code, detail = UNRESOLVED_ROUTE, _generated(framework)
            if framework not in GENERATORS:
                code = UNREAD_FRAMEWORK
                detail = (
                    f"{framework} is used here: pack-http-routes reads {_READ} only, so the "
                    f"routes {framework} serves are not listed"
                )
            first, *more = sorted(where, key=at)
            self.unresolved[(code, first["path"], first["line"], detail)] = more
        if found:
            return
        for (path, _), node in sorted(
            self.nodes.items(), key=lambda i: (i[0][0].encode(), i[1].decl.line)
        ):
            decl = node.decl
            noun = "application" if decl.app else _ROUTER_NOUN.get(decl.framework, "router")
            detail = (
                f"a {_FRAMEWORK_NAMES.get(decl.framework, decl.framework)} {noun} is created "
                "here, but no route the pack reads is registered on it or on anything it "
                "mounts: routes registered in ways it does not follow are not listed"
            )
            self._unresolved(UNREAD_FRAMEWORK, path, decl.line, detail)

    def _foreign_routers(self) -> None:
        """Never silent on a router of a class the scanned files do not show: route-shaped
        calls (`ModuleFacts.path_calls`) on an object made by `new X(…)` or a factory call of
        a package that is no framework the records know (`lin-mizar`'s `LinRouter`), or of a
        class of the repository extending one, are an `UNRESOLVED_ROUTER` at the first such
        call on it in each file, naming the class, its package and how many calls were seen;
        never listed, no prefix guessed. A receiver that is a router the pack reads, a
        function's parameter or an object of `NOT_ROUTER_PACKAGES` (HTTP clients, caches) is
        not one."""
        seen: dict[tuple[str, Expr], tuple[PathCall, tuple[str, str], int]] = {}
        for path, facts in self.modules.items():
            for call in facts.path_calls:
                key = (path, call.receiver)
                if key in seen:
                    first, made, count = seen[key]
                    seen[key] = (first, made, count + 1)
                    continue
                entity = self.evaluate(path, call.receiver)
                made_of = self._foreign_class(entity) if entity is not None else None
                if made_of is not None:
                    seen[key] = (call, made_of, 1)
        for (path, receiver), (first, (cls, package), count) in seen.items():
            name = "the object"
            if isinstance(receiver, Sym):
                name = ".".join(p for p in receiver.path if p != CALL)
                name = f"this` in `{name}" if receiver.path[-1:] == (CALL,) else name
            calls = "call" if count == 1 else "calls"
            detail = (
                f"`{name}` is made by {cls} of the package `{package}`, which the scanned files "
                f"do not show: its {count} route-shaped {calls} (`.{first.method}('{first.path}'"
                ", …)` first) may register routes that are not listed"
            )
            self._unresolved(UNRESOLVED_ROUTER, path, first.line, detail)

    def _foreign_class(self, entity: _Entity, depth: int = 0) -> tuple[str, str] | None:
        """(how the object is made, its package) for an object of a package's class or
        factory that may be a router the pack cannot read; None for anything else."""
        if isinstance(entity, _External):
            package = package_name(entity.module)[0]
            if (
                not entity.path
                or entity.path[-1] != CALL
                or entity.module.startswith(("node:", "."))
                or package in NOT_ROUTER_PACKAGES
                or any(
                    package in (*f.app_modules, *f.router_modules)
                    or entity.module in (*f.app_modules, *f.router_modules)
                    for f in JAVASCRIPT
                )
            ):
                return None
            made = ".".join(p for p in entity.path[:-1] if p != CALL) or "its default export"
            return f"`{made}`", package
        if isinstance(entity, _Scoped) and isinstance(entity.value, Namespace) and depth < 4:
            for base in entity.value.bases:  # a class of the repository extending one
                inherited = self.evaluate(entity.file, base)
                if isinstance(inherited, _External):
                    found = self._foreign_class(
                        _External(inherited.module, (*inherited.path, CALL)), depth + 1
                    )
                elif inherited is not None:
                    found = self._foreign_class(inherited, depth + 1)
                else:
                    found = None
                if found is not None:
                    return f"a class of {entity.file} extending {found[0]}", found[1]
        return None

    def spend_text(self, path: str, line: int, route: str) -> bool:
        """Whether `route` (written at `path:line`) is within `LINK_TEXT_BUDGET`; past it the
        place is cut, a `LINK_BUDGET_EXCEEDED` place like a mount past `LINK_BUDGET`."""
        self.text_budget -= len(route)
        if self.text_budget < 0:
            self.cut[path, line] = None
            return False
        return True

    def findings(self) -> list[JSONObject]:
        """The `UNRESOLVED_*` findings, locations sorted and repeated ones dropped, and the
        `LINK_BUDGET_EXCEEDED` one, after `routes()`."""
        out: list[JSONObject] = []
        for (code, file, line, detail), more in self.unresolved.items():
            places = {(p["path"], p["line"]): p for p in [{"path": file, "line": line}, *more]}
            locations = sorted(places.values(), key=at)
            out.append({"code": code, "detail": detail, "locations": locations})
        if self.cut:
            detail = (
                f"route expansion stopped after {self.limit} routes and mounts (or "
                f"{LINK_TEXT_BUDGET} characters of routes): the routes below these mounts are "
                "not all listed"
            )
            locations = sorted(({"path": p, "line": n} for p, n in self.cut), key=at)
            out.append({"code": LINK_BUDGET_EXCEEDED, "detail": detail, "locations": locations})
        return out

    def _without_plugin_distributions(self, found: list[FoundRoute]) -> list[FoundRoute]:
        """`found` less the routes of a distribution of the repository that reaches the app
        only through setuptools entry points (`entry_points`): one whose folder holds its own
        `setup.py`/`pyproject.toml`/`setup.cfg` (not the root project's) and declares a
        group the app loads (`load_setuptools_entrypoints("g")`, `entry_points(group="g")`)
        from outside that folder. Its routes are served only once it is installed: each
        loader gets an `UNRESOLVED_ROUTE` naming the group and the distributions providing it
        whose routes are left out (one with no route, a plugin of other things, is not named)."""
        loads = sorted(
            (path, group, line)
            for path, facts in self.modules.items()
            for group, line in facts.plugin_loads
        )
        if not loads:
            return found
        provided: dict[str, tuple[str, str, frozenset[str]]] = {}  # folder -> marker, name, groups
        for marker in sorted(p for p in self.files if is_distribution_file(p)):
            folder = marker.rpartition("/")[0]
            facts = self._facts(marker)  # parsed on demand: only where the app loads a group
            if folder and facts.entry_points and folder not in provided:
                groups = frozenset(group for group, _ in facts.entry_points)
                provided[folder] = (marker, facts.distribution or folder, groups)

        def served_by(folder: str) -> bool:
            return any(r.path.startswith(folder + "/") for r in found)

        plugins: set[str] = set()
        for path, group, line in loads:
            providers = [
                (folder, marker, name)
                for folder, (marker, name, groups) in sorted(provided.items())
                if group in groups and not path.startswith(folder + "/") and served_by(folder)
            ]
            if not providers:  # no distribution of the group's holds a route: nothing to say
                continue
            plugins.update(folder for folder, _, _ in providers)
            named = ", ".join(f"`{name}` ({marker})" for _, marker, name in providers)
            self._unresolved(
                UNRESOLVED_ROUTE,
                path,
                line,
                f"plugins of the entry-point group `{group}` are loaded here from the installed "
                f"distributions, which the repository's {named} provides: the routes a plugin "
                "registers are served only once it is installed, and are not listed",
            )
        if not plugins:
            return found
        return [r for r in found if not any(r.path.startswith(f + "/") for f in plugins)]

    def _unresolved(self, code: str, file: str, line: int, detail: str) -> None:
        self.unresolved.setdefault((code, file, line, detail), [])

    def _attach(self, path: str, facts: ModuleFacts) -> None:
        for decl in facts.routers:
            if decl.routes is not None:
                self._attach_list(path, decl.routes, (path, decl.router_id), 0)
        for declared in facts.routes:
            routes = [declared] if not facts.stores else self._unstored(path, facts, declared)
            for route in (t for r in routes for t in self._table_items(path, r)):
                for unkeyed in self._unkeyed_route(path, route):
                    self._attach_route(path, unkeyed)
        for mount in (m for d in facts.mounts for m in self._table_mounts(path, d)):
            called = self._mount_call(path, mount)  # `include_router(make(kind))` in a def
            mount = called if _param_site(called.child) is not None else mount
            site = _param_site(mount.child) or _param_site(mount.prefix)
            if site is not None:
                if not self._deferred(path, mount.parent, mount, site):
                    self._attach_mount_called(path, mount, site)
                continue
            for node in self._owners(path, mount.parent):
                self._add_mount(node, path, mount)
        for guard in facts.middleware:
            for node in self._owners(path, guard.owner):
                verdict = self._hook_verdict(path, guard.auth)
                if verdict != NONE:
                    node.guards.append((path, guard.line, "", verdict))
        for use in facts.uses:
            if type(use.owner) is Opaque:
                self._unresolved(UNRESOLVED_ROUTER, path, use.line, _UNKNOWN_OWNER)
            if self._use_called(path, use):
                continue
            for node in self._owners(path, use.owner):
                self._attach_use(node, path, use)
        for prefix in facts.prefixes:
            self._attach_prefix(path, prefix)

    def _table_items(self, path: str, route: RouteDecl) -> list[RouteDecl]:
        """`route`, or when its path is an element of each item of a module's table (`for
        entry in ROUTES: api.add_resource(*entry)`, `ROUTES` imported), one route per item
        (per URL of an item for `add_resource`), its view the same item's element; a table
        the scan does not show is one route whose path is not known (a finding here)."""
        each = route.path
        if not (isinstance(each, Each) and isinstance(each.source, Sym)):
            return [route]
        source = Bound(path, each.source)
        view = route.endpoint
        if isinstance(view, Each) and view.source == each.source:
            view = replace(view, source=source)
        return [
            replace(route, path=item, endpoint=v)
            for item, v in self._alternatives_with(replace(each, source=source), view)
        ]

    def _table_mounts(self, path: str, mount: MountDecl) -> list[MountDecl]:
        """`mount`, or when its child or prefix is an element or a key of each item of a
        module's table (`for prefix, r in ROUTERS: app.include_router(r, prefix=prefix)`,
        `for u in urls.PATTERNS: app.include_router(u["router"], prefix=u["prefix"])`), one
        mount per item; a table the scan does not show is one mount of a child not known, an
        element an item has not is not known: findings at the call, never dropped."""
        each = _table_element(mount.child) or _table_element(mount.prefix)
        if each is None or not path.endswith(".py"):  # JS loops: `js_loops`, `_per_record`
            return [mount]
        table = self.evaluate(path, each.source)
        if not (isinstance(table, _Scoped) and isinstance(table.value, Items)):
            return [replace(mount, child=Opaque())]
        found: list[MountDecl] = []
        for value in table.value.values:
            item = self.evaluate(table.file, value)
            whole = Bound(table.file, value)
            child = _element_of(mount.child, each.source, item, whole)
            prefix = _element_of(mount.prefix, each.source, item, whole) if mount.prefix else None
            found.append(replace(mount, child=child, prefix=prefix))
        return found

    def _attach_prefix(self, path: str, prefix: PrefixDecl) -> None:
        """`router.prefix('/x')` on a router made in another file: that router's own prefix,
        written here (a finding where the router or the prefix cannot be known)."""
        owners = self._owners(path, prefix.owner)
        if not owners:
            detail = (
                f"`{describe(prefix.owner)}` given a prefix here is not a router the scanned "
                "files show: the routes it serves are not listed under it"
            )
            self._unresolved(UNRESOLVED_ROUTER, path, prefix.line, detail)
            return
        value = self._string(path, prefix.prefix)
        for node in owners:
            node.decl = replace(node.decl, prefix=Lit(value) if value is not None else Opaque())
            if value is None:
                detail = (
                    f"the prefix `{describe(prefix.prefix)}` given here is computed out of sight"
                )
                self._unresolved(UNRESOLVED_PREFIX, path, prefix.line, detail)

    def _attach_route(self, path: str, route: RouteDecl) -> None:
        if route.keyed_by:
            self._attach_keyed(path, route)
            return
        if route.table and not route.methods_unknown:
            self._attach_table(path, route)
            return
        site = (
            None
            if type(route.path) is Lit and not route.method_exprs and type(route.owner) is not Param
            else _param_site(route.path)
            or next((s for m in route.method_exprs if (s := _param_site(m))), None)
            or _param_site(route.owner)
        )
        if site is not None:
            if not self._deferred(path, route.owner, route, site):
                self._attach_called(path, route, site)
            return
        owners = self._owners(path, route.owner)
        if type(route.owner) is Opaque:  # `var app; if (…) app = express()`
            self._unresolved(UNRESOLVED_ROUTER, path, route.line, _UNKNOWN_OWNER)
        if not owners and route.chain_root is not None:
            root, link = route.chain_root
            owners = self._owners(path, root)  # a chain through a link not known: a finding
            route = replace(
                route,
                methods_unknown=True,
                generated_by=f"{js_dirload.UNREAD}the route is called on what `.{link}()` "
                "returns, which no framework record says is the instance it is called on: "
                "it is not listed",
            )
        for node in owners:
            node.routes.append((path, route))

    def _attach_keyed(self, path: str, route: RouteDecl) -> None:
        """`mapRoutes(table, folder)` (`option_routes.TableRouter`): each `'VERB /path'` key of
        the table a route of the router made at the call, placed there; a verb the versions
        the nearest `package.json` admits may not route, or a table not found: an
        `UNRESOLVED_ROUTE` at the call naming the library. Where every version the repository
        installs (its lock's pins) keeps one router for every call, the router serves each
        table given to the library under that manifest too, each route placed at the call
        given its table; where only some do, a finding at the call."""
        record = option_routes.TABLE_ROUTERS[route.keyed_by]
        declaring = self._declaring(path, record.library)
        admits = None if declaring is None else declaring[1]
        shared = declaring is not None and not declaring[1].admits_from(record.shared_before)
        calls = self._keyed_calls(record.library, declaring) if shared else [(path, route)]
        for file, call in calls:
            self._attach_keyed_table(path, route, file, call, record, admits)
        if not shared and option_routes.admits_before(admits, record.shared_before):
            detail = (
                f"`{record.library}` before "
                f"{'.'.join(map(str, record.shared_before))} (which the repository may install) "
                "serves the tables of every call on each router it returns: routes of other "
                "tables under this router are not listed"
            )
            self._unresolved(UNRESOLVED_ROUTE, path, route.line, detail)

    def _keyed_calls(
        self, library: str, declaring: tuple[str, Range] | None
    ) -> list[tuple[str, RouteDecl]]:
        """Every call giving `library` a table in the files `declaring`'s manifest installs
        for (the one module-level router they share), in file and line order."""
        return [
            (file, decl)
            for file, facts in sorted(self.modules.items())
            for decl in facts.routes
            if decl.keyed_by == library and self._declaring(file, library) == declaring
        ]

    def _attach_keyed_table(
        self,
        path: str,
        route: RouteDecl,
        file: str,
        call: RouteDecl,
        record: option_routes.TableRouter,
        admits: Range | None,
    ) -> None:
        """The routes of the table `call` (in `file`) gives the library, on `route`'s router;
        a table not read, or entries a version admitted does not route: a finding at `call`,
        reported once however many routers serve it."""
        bare = replace(route, keyed_by="")
        here = file == path
        table = self._settled(self.evaluate(file, call.path))
        if not (isinstance(table, _Scoped) and isinstance(table.value, Namespace)):
            detail = (
                f"the route table `{describe(call.path)}` given to `{record.library}` here is "
                "computed out of sight: its routes are not listed"
            )
            self._unresolved(UNRESOLVED_ROUTE, file, call.line, detail)
            return
        left: list[str] = []
        for key, _ in table.value.fields:
            entry = option_routes.table_entry(key)
            if entry is None:
                left.append(f"`{key}`")
                continue
            verb, served = entry
            if verb not in record.verbs and (
                verb not in _VERBS or option_routes.admits_before(admits, record.every_verb_from)
            ):
                left.append(f"`{key}`")
                continue
            one = replace(bare, path=Lit(served), methods=(verb.upper(),))
            if not here:
                one = replace(one, called_at=(file, call.line), via=(path, route.line))
            elif call.line != route.line:
                one = replace(one, line=call.line)
            self._attach_route(path, one)
        if left:
            detail = (
                f"`{record.library}` is given entries here that some of the versions the "
                f"repository may install do not route ({', '.join(left)}): not listed"
            )
            self._unresolved(UNRESOLVED_ROUTE, file, call.line, detail)

    def _attach_table(
        self, path: str, route: RouteDecl, *, joined: bool = True, passed: bool = True
    ) -> None:
        """`server.route(endpoints)`: each route of the table the argument names (`_route_table`,
        in this file or another) on the call's router, its path read where the entry is
        written and the route placed there; a table not found is one route of this call whose
        path is not known (an `UNRESOLVED_ROUTE` here, never silence). A table joined from
        parts (`login(server).concat([logout(), key(opts)])`) is read part by part
        (`_table_parts`): a part not read is that finding, the others are listed."""
        if passed and self._attach_passed_table(path, route):
            return
        parts = self._table_parts(path, route.path, [0]) if joined else []
        if len(parts) > 1:
            for file, part in parts:
                self._attach_table(
                    path,
                    replace(route, path=part if file == path else Bound(file, part)),
                    joined=False,
                )
            return
        table = self.evaluate(path, route.path)
        if isinstance(table, _Scoped) and isinstance(table.value, StarletteRoutes):
            entries = self._records(table.file, table.value, partial=True) or [
                (table.file, item) for item in table.value.items if isinstance(item, RouteDecl)
            ]  # a table spreading lists the scanned files do not show: its own entries
            for file, entry in entries:
                here = file == path
                self._attach_route(
                    path,
                    replace(
                        entry,
                        owner=route.owner,
                        path=entry.path if here else Bound(file, entry.path),
                        endpoint=None,
                        called_at=(file, entry.line),
                        via=(path, route.line),
                    ),
                )
            if entries:
                return
        settled = self._settled(table)
        listed = self._listed(settled)
        if isinstance(settled, _Scoped) and isinstance(settled.value, Namespace):
            listed = [(path, route.path)]  # `routes.forEach(r => fastify.route(r))`: one item
        if listed and self._option_routes(path, route, listed):
            return
        if self._unread_built(path, route):
            return
        self._attach_route(path, replace(route, methods_unknown=True))  # not found: a finding

    def _unread_built(self, path: str, route: RouteDecl) -> bool:
        """`server.route(table.filter(keep))`, also returned by a function of the project's
        (`Routes.go(table, env)` → `return table.filter(r => allowed(r))`, on the branch the
        configuration's defaults take): where the callback
        is not read but the table it is given is, each of its routes as written, each with a
        finding (it may be dropped or changed), never silence; False for any other table."""
        file, expr = path, route.path
        for _ in range(_MAX_DEPTH):
            if isinstance(expr, Bound):
                file, expr = expr.file, expr.expr
            elif type(expr) is Sym and len(expr.path) == 1:
                bound = self._facts(file).bindings.get(expr.path[0])
                if bound is None:
                    return False
                expr = bound
            elif (returned := self._returned(file, expr)) is not None:
                file, expr = returned
            elif isinstance(expr, Choice) and (picked := self._test(file, expr)[0]) is not None:
                expr = expr.then if picked else expr.otherwise  # the branch the defaults take
            else:
                break
        if isinstance(expr, Mapped) and expr.method in _UNREAD_BUILT:
            given, why = (
                expr.source,
                (
                    f"this route is in a route table given to `{expr.method}` with a callback the "
                    "scan does not read: it is listed as written, though the callback may drop or "
                    "change it"
                ),
            )
        elif (library := self._library_call(file, expr)) is not None:
            given, why = library
        else:
            return False
        source = self._settled(self.evaluate(file, given))
        if not (isinstance(source, _Scoped) and isinstance(source.value, StarletteRoutes)):
            return False
        records = self._records(source.file, source.value)
        if not records:
            return False
        for written, entry in records:
            self._attach_route(
                path,
                replace(
                    entry,
                    owner=route.owner,
                    path=entry.path if written == path else Bound(written, entry.path),
                    endpoint=None,
                    called_at=(written, entry.line),
                    via=(path, route.line),
                ),
            )
            self._unresolved(UNRESOLVED_ROUTE, written, entry.line, why)
            places = self.unresolved[(UNRESOLVED_ROUTE, written, entry.line, why)]
            if {"path": path, "line": route.line} not in places:  # the call registering it
                places.append({"path": path, "line": route.line})
        return True

    def _library_call(self, file: str, expr: Expr) -> tuple[Expr, str] | None:
        """`filter(routes, env)` where `filter` is a function of a package the scanned files do
        not hold (the project's own engine, a dependency): its first argument, the table it
        is given, and why each route of that table is then listed as written, flagged."""
        if not (isinstance(expr, Call) and expr.args):
            return None
        callee = self._settled(self.evaluate(file, expr.callee))
        if not isinstance(callee, _External):
            return None
        name = ".".join((callee.module, *callee.path))
        return expr.args[0], (
            f"this route is in a route table given to `{name}`, a function of a package the "
            "scan does not read: it is listed as written, though that function may drop or "
            "change it"
        )

    def _attach_passed_table(self, path: str, route: RouteDecl) -> bool:
        """`server.route(options.routes)` in a plugin's register function: the table each call
        reaching the function passes (hapi's `{ plugin, options: { routes: [...] } }`), bound
        with the router the same call passes, so each registration's routes are on its own
        router only; False where the table holds no parameter or no scanned call passes one
        (then it is read as any table: not found, a finding here). Only a parameter or its
        member: a table a call computes from one (`build(server)`) is read as it is written."""
        given = route.path.base if isinstance(route.path, Member) else route.path
        site = given.function if isinstance(given, Param) else None
        chains = self._chains(path, site) if site is not None else []
        for chain in chains:
            self.budget -= 1
            if self.budget < 0:
                self.cut[chain[-1][0], chain[-1][1].line] = None
                return True
            bound = self._through(route.path, path, site or "", chain)
            owner = self._through_some(route.owner, path, site or "", chain)
            given_at = (chain[0][0], chain[0][1].line)  # the call giving the table: a finding's
            self._attach_table(
                path, replace(route, path=bound, owner=owner, via=given_at), passed=False
            )
        return bool(chains)

    def _table_parts(self, path: str, expr: Expr, count: list[int]) -> list[tuple[str, Expr]]:
        """The parts of a route table that is a list joined from others (`a.concat(b, [c()])`,
        `[...a, c()]`), each with the file it is written in: the items of a list written in
        place, and the other parts followed into what a project function's call returns
        where that is joined in turn (`(_, cfg) => [].concat(guest(cfg), oauth(cfg))`);
        `[(path, expr)]` for any other table. `count` bounds the parts of one table."""
        count[0] += 1
        if count[0] > _MAX_KEYS or len(self.resolving) > _MAX_DEPTH:
            return [(path, expr)]
        if isinstance(expr, Bound):
            return self._table_parts(expr.file, expr.expr, count)
        if isinstance(expr, Mapped) and expr.method in {"concat", "join"}:
            if not isinstance(expr.source, Items):
                return [(path, expr)]
            found: list[tuple[str, Expr]] = []
            for part in expr.source.values:
                for each in part.values if isinstance(part, Items) else (part,):
                    found += self._table_parts(path, each, count)
            return found
        returned = self._returned(path, expr)
        if returned is not None and isinstance(returned[1], Mapped | Bound):
            key = (path, expr)
            if key in self.resolving:
                return [(path, expr)]
            self.resolving.add(key)
            try:
                inner = self._table_parts(*returned, count)
            finally:
                self.resolving.discard(key)
            if inner != [returned]:
                return inner
        return [(path, expr)]

    def _returned(self, path: str, expr: Expr) -> tuple[str, Expr] | None:
        """What a call of a project function (`Call`, `Apply`, `f()` as a name) returns, its
        parameters bound to the call's arguments, and the file it is written in; None for
        anything else."""
        if isinstance(expr, Call) and expr.passed is not None:
            callee_expr, args = expr.callee, expr.passed
        elif isinstance(expr, Apply) and not expr.keywords:
            callee_expr, args = expr.callee, tuple(a or Opaque() for a in expr.args)
        elif type(expr) is Sym and len(expr.path) > 1 and expr.path[-1] == CALL:
            callee_expr, args = Sym(expr.path[:-1]), ()
        else:
            return None
        callee = self.evaluate(path, callee_expr)
        if not (isinstance(callee, _Scoped) and isinstance(callee.value, Function)):
            return None
        function = callee.value
        if function.returns is None:
            return None
        call = Invocation(callee_expr, args, ())
        return callee.file, _subst(
            function.returns, callee.file, callee.file, function.site, call, path
        )

    def _option_routes(self, path: str, route: RouteDecl, listed: list[tuple[str, Expr]]) -> bool:
        """`server.route(kinds.map(kind => ({ method, path })))`: each item of a list an array
        method builds (or a literal one), when every item is route options (an object with a
        `method` and a path key), a route at the registering call; False when one is not."""
        routes: list[RouteDecl] = []
        for file, item in listed:
            entity = self._settled(self.evaluate(file, item))
            if not (isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)):
                return False
            key = next((k for k in _PATH_KEYS if self._member(entity, k) is not None), None)
            if key is None or self._member(entity, "method") is None:
                return False
            routes.append(
                replace(
                    route,
                    path=Bound(file, Member(item, (key,))),
                    method_exprs=(Bound(file, Member(item, ("method",))),),
                    table=False,
                    from_options=True,
                    via=(path, route.line),
                )
            )
        for each in routes:
            self._attach_route(path, each)
        return bool(routes)

    def _parameter_router(self, path: str, param: Param, route: RouteDecl) -> _Node:
        """The router a function's parameter stands for when no scanned call passes one
        (`module.exports = (app) => { app.get('/x', h) }`, a hook the host calls): its routes
        are listed, the prefix it is served under an `UNRESOLVED_PREFIX` at the function."""
        key = (path, f"param:{param.function}:{param.name}")
        node = self.nodes.get(key)
        if node is None:
            if not path.endswith(".py"):
                framework = _PLUGIN_PARAMS.get(param.name, EXPRESS)
            else:  # `@app.get` is FastAPI's or Flask's; a `route`/`<x>` spelling is Flask's
                text = route.path.value if isinstance(route.path, Lit) else ""
                framework = FLASK if route.methods is None or "<" in text else FASTAPI
            line = int(param.function.partition(":")[0] or 0)
            node = self.nodes[key] = _Node(path, RouterDecl(key[1], framework, line))
        return node

    def _unstored(self, path: str, facts: ModuleFacts, route: RouteDecl) -> list[RouteDecl]:
        """`route`, or when its path, methods or view are items a class keeps (`for method,
        path, view in self.entries: app.add_url_rule(path, ...)`), one per item each call of
        the appending method stores, placed at that call (`table.route('GET', '/ping', f)`)."""
        fields = (route.path, *route.method_exprs, route.endpoint)
        stored = next((f for f in fields if isinstance(f, Stored)), None)
        if stored is None:
            return [route]
        found: list[RouteDecl] = []
        for store in facts.stores:
            if (store.owner_class, store.attr) != (stored.owner_class, stored.attr):
                continue
            site = _param_site(store.value)
            chains = self._chains(path, site) if site is not None else []
            if site is not None and chains:
                values = [self._through(store.value, path, site, c) for c in chains]
                places = [(c[-1][0], c[-1][1].line) for c in chains]
            else:
                values, places = [store.value], [(path, store.line)]
            for value, place in zip(values, places, strict=True):
                found.append(
                    replace(
                        route,
                        path=_element(route.path, stored, value, path) or Opaque(),
                        method_exprs=tuple(
                            _element(m, stored, value, path) or Opaque() for m in route.method_exprs
                        ),
                        endpoint=_element(route.endpoint, stored, value, path),
                        called_at=place,
                        via=place,
                    )
                )
        return found or [replace(route, path=Opaque())]

    def _attach_called(
        self,
        path: str,
        route: RouteDecl,
        site: str,
        into: _Node | None = None,
        given: list[_Chain] | None = None,
    ) -> None:
        """A route declared in the function defined at `site` with its parameters in it (its
        router, path or methods): one route per chain of calls that reaches the function,
        each parameter bound to what that chain passes, placed where the outermost call is
        written when its path or methods come from the calls (a wrapper's call site is the
        user's route). No scanned call: the path is not known (a finding at the wrapper).
        `into`: the router the function makes, as the chains `given` made it (`_deferred`)."""
        moved = _moves(route.path) or any(_param_site(m) is not None for m in route.method_exprs)
        chains = self._chains(path, site) if given is None else given
        if not chains:
            unbound = Opaque() if _param_site(route.path) is not None else route.path
            nodes = self._owners(path, route.owner)
            if not nodes and isinstance(route.owner, Param) and _route_like(path, route):
                nodes = [self._parameter_router(path, route.owner, route)]
            for node in nodes:
                node.routes.append((path, replace(route, path=unbound)))
            return
        for chain in chains:
            self.budget -= 1
            if self.budget < 0:
                self.cut[chain[-1][0], chain[-1][1].line] = None
                return
            if not self._chain_runs(chain):
                continue
            place = (chain[-1][0], chain[-1][1].line)
            handler = chain[-1][1].decorates or route.handler  # `@guarded(...)` on a def
            only_if = route.only_if
            if only_if is not None and not path.endswith(".py"):
                # `if (kind === 'x')` on a parameter: decided by what this chain passes
                only_if = self._condition_through(only_if, path, site, chain)
                holds, assumed = self._holds(path, only_if, False)
                if holds is False and not assumed:  # a configuration's: `_off_by_default`
                    continue
            if self._method_this(path, site, chain[0][1]) and self._read_as_route(*chain[0]):
                continue  # `this.get('/x', h)` the reader read as a route where it is written
            owner = self._through_some(route.owner, path, site, chain)
            if self._router_unread(path, route.owner, owner, site, chain):
                continue
            methods = tuple(
                through
                for m in route.method_exprs
                if not _not_passed(through := self._through(m, path, site, chain))
                and not _verbless(through)
            )  # `methods` of a wrapper's `**kwargs` its caller does not pass: the view's own
            bound = self._through(route.path, path, site, chain)
            endpoint = self._through_some(route.endpoint, path, site, chain)
            for record, verbs in self._per_record(bound, methods):
                for each, view in self._alternatives_with(record, endpoint):
                    declared = replace(
                        route,
                        only_if=only_if,
                        owner=owner,
                        endpoint=view,
                        path=each,
                        method_exprs=verbs,
                        called_at=place if moved else route.called_at,
                        via=place,
                        handler=handler,
                    )
                    if into is not None:
                        into.routes.append((path, declared))
                        continue
                    for node in self._owners(path, owner) or self._unpassed(owner, declared):
                        node.routes.append((path, declared))

    def _chain_runs(self, chain: _Chain) -> bool:
        """Whether the Python calls of `chain` run under the configuration's defaults: a call
        written under an `if` they make false (`if config.enable_x: api.add(R, "/x")`)
        registers nothing, an `UNRESOLVED_ROUTE` at it; one under an `if` nothing decides
        runs, an `UNRESOLVED_PREFIX` at it saying so (never silent either way)."""
        for caller, call in chain:
            if call.only_if is None or not caller.endswith(".py"):
                continue
            if off := self._off_by_default(caller, call.only_if, "registering call"):
                self._unresolved(UNRESOLVED_ROUTE, caller, call.line, off)
                return False
            if unsure := self._undecided(caller, call.line, call.only_if):
                self._unresolved(UNRESOLVED_PREFIX, *unsure)
        return True

    def _router_unread(
        self, path: str, written: Expr | None, owner: Expr | None, site: str, chain: _Chain
    ) -> bool:
        """Whether the call that reaches the function at `site` passes its router parameter
        as something the reader does not model (`helper(made, table)`, `made` a router made
        under a condition) while other calls pass routers: a finding at that call, instead of
        those routers (a parameter no call gives a router stays as it was)."""
        if not (isinstance(written, Param) and written.function == site and owner == written):
            return False
        caller, call = chain[0]
        if not (0 <= written.index < len(call.args) and call.args[written.index] is None):
            return False
        if not self._owners(path, written):
            return False
        self._unresolved(
            UNRESOLVED_ROUTER,
            caller,
            call.line,
            f"the router passed here as `{written.name}` is made in a way not read: the routes "
            "the function registers on it are not listed",
        )
        return True

    def _unpassed(self, owner: Expr | None, route: RouteDecl) -> list[_Node]:
        """The router a chain of calls ends at when its outermost caller passes its own
        parameter, which no scanned call passes in turn (`module.exports = (app) =>
        require('./inner')(app)`, that function loaded by paths computed at run time): the
        outer function's parameter router, so the inner routes are listed with its unknown
        prefix (a finding) instead of being dropped."""
        while isinstance(owner, Bound) and isinstance(owner.expr, Bound):
            owner = owner.expr  # passed on through several functions' parameters
        if not (isinstance(owner, Bound) and isinstance(owner.expr, Param)):
            return []
        param = owner.expr
        if self._calls_of(owner.file, param.function):
            return []  # passed on by calls past the chains' depth: not followed further
        found = self._owners(owner.file, param.fallback)  # the global name it spells
        if found or not _route_like(owner.file, replace(route, owner=param)):
            return found
        return [self._parameter_router(owner.file, param, route)]

    def _per_record(
        self, path: Expr, methods: tuple[Expr, ...]
    ) -> list[tuple[Expr, tuple[Expr, ...]]]:
        """`path` and `methods` once per record of the table a wrapper loops over (`for (const
        r of routes) router[r.method](base + r.path, h)` called with a literal array of route
        records): each `r.<field>` the record's path or method. A table not known leaves the
        fields as they are: a finding at the call."""
        fields = (*_parts(path), *(p for m in methods for p in _parts(m)))
        row = next((e for m in methods for e in _parts(m) if _is_cell(e)), None)
        if row is not None and isinstance(row.source, Bound):
            return self._per_row(row.source, path, methods)
        each = next((e for e in fields if isinstance(e, Each) and e.field), None)
        if each is None or not isinstance(each.source, Bound):
            return [(path, methods)]
        table = self.evaluate(each.source.file, each.source.expr)
        if not (isinstance(table, _Scoped) and isinstance(table.value, StarletteRoutes)):
            return [(path, methods)]
        found: list[tuple[Expr, tuple[Expr, ...]]] = []
        for record in table.value.items:
            if not isinstance(record, RouteDecl):
                continue
            values: dict[str, Expr] = {key: Bound(table.file, record.path) for key in _PATH_KEYS}
            if record.methods and not record.methods_unknown:
                verbs = Items(tuple(Lit(m) for m in record.methods))
                values.update({key: verbs for key in _METHOD_KEYS})
            found.append(
                (
                    _filled(path, each.source, values),
                    tuple(_filled(m, each.source, values) for m in methods),
                )
            )
        return found or [(path, methods)]

    def _per_row(
        self, source: Bound, path: Expr, methods: tuple[Expr, ...]
    ) -> list[tuple[Expr, tuple[Expr, ...]]]:
        """`path` and `methods` once per row of the table of lists a wrapper loops over, its
        method an element of each row (`var [method, url] = conf; router[method](url, h)`
        called with `[['get', '/a', h], …]`): each element the row's cell at that index. A
        table not known, or a row that is no list, leaves the row not known: a finding."""
        table = self.evaluate(source.file, source.expr)
        if not (isinstance(table, _Scoped) and isinstance(table.value, Items)):
            return [(Opaque(), methods)]
        found: list[tuple[Expr, tuple[Expr, ...]]] = []
        for value in table.value.values:
            row = self.evaluate(table.file, value)
            if not (isinstance(row, _Scoped) and isinstance(row.value, Items)):
                found.append((Opaque(), tuple(Opaque() for _ in methods)))
                continue
            cells = (row.file, row.value.values)
            found.append(
                (
                    _celled(path, source, cells),
                    tuple(_celled(m, source, cells) for m in methods),
                )
            )
        return found

    def _unkeyed_route(self, path: str, route: RouteDecl) -> list[RouteDecl]:
        """`route` once per key of the imported object a loop around it iterates (`LoopKey` in
        its path or methods: `for (const k in TABLE) app[TABLE[k].verb](TABLE[k].path, h)`)."""
        exprs = (route.path, *route.method_exprs)
        if not any(_keyed_in(e) for e in exprs):
            return [route]
        count, guards = len(exprs), route.auth.guards  # guards pushed per entry: decided too
        unrolled = [
            replace(
                route,
                path=filled[0],
                method_exprs=tuple(filled[1:count]),
                auth=replace(route.auth, guards=tuple(filled[count:])),
            )
            for filled in self._per_key(path, (*exprs, *guards))
        ]
        sources = {k.source for e in exprs for k in _keyed_parts(e)}
        for source in sources:
            self._later_pushes(path, source, route.line)
            self._unread_parts(path, source, route.line)
        places = self._item_places(path, next(iter(sources))) if len(sources) == 1 else None
        if places is None or len(places) != len(unrolled) or route.called_at is not None:
            return unrolled
        return [  # a record a project function made: where that call is written
            replace(one, called_at=place, via=(path, route.line)) if place else one
            for one, place in zip(unrolled, places, strict=True)
        ]

    def _later_pushes(self, path: str, source: Expr, line: int) -> None:
        """An `UNRESOLVED_ROUTE` at each push onto the module's list a loop at `line` was
        unrolled from as its initializer holds it (`ModuleFacts.list_pushes`): the items the
        pushes add at run time are not read, so the routes the loop registers for them are
        not listed; the finding names what makes them."""
        if type(source) is not Sym or len(source.path) != 1:
            return
        for name, pushed_at, maker in self._facts(path).list_pushes:
            if name == source.path[0] and (path, pushed_at) not in self.pushes_said:
                self.pushes_said.add((path, pushed_at))
                self._unresolved(UNRESOLVED_ROUTE, path, pushed_at, (
                    f"the items pushed onto `{name}` here, made by `{maker}` at run time, are "
                    f"not read: the routes the loop over `{name}` at {path}:{line} (and any "
                    "other) registers for them are not listed"))  # fmt: skip

    def _unread_parts(self, path: str, source: Expr, line: int) -> None:
        """An `UNRESOLVED_ROUTE` for each part of the object a loop at `line` iterates the keys
        of that is not read: at a merge of things loaded at run time (`Unmerged`: `plugins
        .forEach((p) => Object.assign(routes, p.controllers))`), naming what it merges; at the
        loop for a spread the scan does not show. The keys the loop sees are still listed."""
        table = self._settled(self.evaluate(path, source))
        if not (isinstance(table, _Scoped) and isinstance(table.value, Namespace)):
            return
        for name, value in self._object_fields(table) or []:
            if name[:1] != "\0":
                continue
            merged = value.expr if isinstance(value, Bound) else None
            if isinstance(value, Bound) and isinstance(merged, Unmerged):
                where, detail = (value.file, merged.line), (
                    f"the keys `{merged.what}` merges into this table at run time are not "
                    f"read: the loop at {path}:{line} registers a route per key; those listed "
                    "for it are the keys spelled '<verb> /path' in this package's modules, "
                    "where each is written, which may not be all, nor all served")  # fmt: skip
            else:
                where, detail = (path, line), (
                    f"a part of `{describe(source)}` is not read: the routes this loop "
                    "registers for its keys are not listed")  # fmt: skip
            if where not in self.pushes_said:
                self.pushes_said.add(where)
                self._unresolved(UNRESOLVED_ROUTE, *where, detail)

    def _item_places(self, path: str, source: Expr) -> list[tuple[str, int] | None] | None:
        """Per item of the list `source` a loop iterates, the call of a project function that
        made it (`makeHandler(spec)(h)`, a name bound to it here or exported by another
        module), or None for an item written otherwise; None when the list is not one
        `_object_keys` lists item by item."""
        table = self._settled(self.evaluate(path, source))
        items: list[tuple[str, RouteDecl | Expr]] | None = None
        if isinstance(table, _Scoped) and isinstance(table.value, Namespace):
            return self._key_places(table)
        if isinstance(table, _Scoped) and isinstance(table.value, StarletteRoutes):
            items = None if self._records(table.file, table.value) else self._joined(table)
        elif isinstance(table, _Scoped) and isinstance(table.value, Items):
            items = [(table.file, v) for v in table.value.values]
        if items is None:
            return None
        return [
            None if isinstance(item, RouteDecl) else self._written_at(file, item, 0)
            for file, item in items
        ]

    def _key_places(self, table: _Scoped) -> list[tuple[str, int] | None]:
        """Per key of the object `table` (as `_object_keys` lists them), where it is written."""
        return [place for _, place in self._placed_keys(table)]

    def _placed_keys(self, table: _Scoped) -> list[tuple[str, tuple[str, int] | None]]:
        """The keys of the object `table`, the objects it spreads or merges too, each with
        where it is written when spelled `'<verb> /path'` (`ModuleFacts.route_keys`, in the
        file of the object that gives its value; None for a key of any other spelling). A
        merge not read (`Unmerged`: plugins loaded at run time) may add any such key written
        in a module of the merge's package (`_reachable_keys`): those follow, each once."""
        found: dict[str, tuple[str, int] | None] = {}
        unmerged: list[str] = []
        for name, value in self._object_fields(table) or []:
            file = value.file if isinstance(value, Bound) else table.file
            if name[:1] == "\0":
                if isinstance(value, Bound) and isinstance(value.expr, Unmerged):
                    unmerged.append(file)
                continue
            lines = [n for key, n in self._facts(file).route_keys if key == name]
            found[name] = (file, lines[-1]) if lines else None  # the last one written wins
        for file in dict.fromkeys(unmerged):
            for key, place in self._reachable_keys(file):
                found.setdefault(key, place)
        return list(found.items())

    def _reachable_keys(self, merged_in: str) -> list[tuple[str, tuple[str, int]]]:
        """Each object key spelled `'<verb> /path'` in the parsed modules under the folder of
        the package the file `merged_in` belongs to (its nearest `package.json`; plugins in
        packages of their own below it included), in path order: what a merge of things
        loaded at run time may bring into a table written there."""
        root = posixpath.dirname(merged_in)
        while root and f"{root}/{MANIFEST}" not in self.files:
            root = posixpath.dirname(root)
        under = f"{root}/" if root else ""
        return [
            (key, (file, line))
            for file in sorted(self.modules)
            if file.startswith(under) and not file.endswith(".py")
            for key, line in self.modules[file].route_keys
        ]

    def _written_at(self, file: str, expr: Expr, depth: int) -> tuple[str, int] | None:
        """Where the call of a project function that `expr` names is written (`Call.line`),
        following a module's names and imports to it; None for anything else."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expr, Call):
            return (file, expr.line) if expr.line else None
        if type(expr) is Sym and len(expr.path) == 1:
            bound = self._facts(file).bindings.get(expr.path[0])
            return self._written_at(file, bound, depth + 1) if bound is not None else None
        if isinstance(expr, ImportRef) and expr.attr not in {None, "default"}:
            target = self._js_file(expr.origin or file, expr.module)
            exported = self._facts(target).exports.get(expr.attr or "") if target else None
            if target is None or exported is None:
                return None
            return self._written_at(target, exported, depth + 1)
        return None

    def _unkeyed_call(self, path: str, call: Invocation) -> list[Invocation]:
        """`call` once per key of the imported object a loop around it iterates (`LoopKey` among
        its arguments: `Object.entries(AREAS).forEach(([k, a]) => wire(app, a.root, k))`)."""
        if not any(a is not None and _keyed_in(a) for a in call.args):
            return [call]
        present = [a for a in call.args if a is not None]
        calls = []
        for values in self._per_key(path, tuple(present)):
            filled = iter(values)
            args = tuple(None if a is None else next(filled) for a in call.args)
            calls.append(replace(call, args=args))
        return calls

    def _per_key(self, path: str, exprs: tuple[Expr, ...]) -> list[tuple[Expr, ...]]:
        """`exprs` with every `LoopKey` of one object replaced, once per key of that object as the
        linker finds it (an object literal exported by a scanned file, `module.exports = {...}`
        or `export const T = {...}`), by the key or by the value looked up with it (written in
        the table's file, `Bound`); a second object, an object not found or one of more keys
        than `_MAX_KEYS` leaves each `LoopKey` not known (`Opaque`): a finding at the route."""
        sources = {k.source for e in exprs for k in _keyed_parts(e)}
        keys = self._object_keys(path, next(iter(sources))) if len(sources) == 1 else None
        if keys is None:
            return [tuple(_keyed_filled(e, _not_known) for e in exprs)]
        self.budget -= len(keys)
        found: list[tuple[Expr, ...]] = []
        for key in keys:

            def value(keyed: LoopKey, key: str = key) -> Expr:
                return self._keyed_value(path, keyed, key)

            found.append(tuple(_keyed_filled(e, value) for e in exprs))
        return found

    def _object_keys(self, path: str, source: Expr) -> list[str] | None:
        """An object's keys; a list of route records' indexes (`module.exports = [{ method,
        path, handler }, …]`, which a loop over it iterates item by item)."""
        table = self.evaluate(path, source)
        keys: list[str] | None = None
        if isinstance(table, _Scoped) and isinstance(table.value, Namespace):
            # the objects it spreads or merges too (`{ ...core, ...plugins }`); a part not read
            # is said where the loop is (`_unread_parts`); none at all: filled at run time
            keys = [name for name, _ in self._placed_keys(table)] or None
        elif isinstance(table, _Scoped) and isinstance(table.value, StarletteRoutes):
            records = self._records(table.file, table.value) or self._joined(table)
            keys = [str(index) for index in range(len(records))] if records is not None else None
        elif isinstance(table, _Scoped) and isinstance(table.value, Items) and table.value.values:
            # a list's indexes; an empty one is filled at run time (`L.push(x)`): not known
            keys = [str(index) for index in range(len(table.value.values))]
        return keys if keys is not None and len(keys) <= _MAX_KEYS else None

    def _records(
        self, file: str, table: StarletteRoutes, depth: int = 0, *, partial: bool = False
    ) -> list[tuple[str, RouteDecl]] | None:
        """A list of route records with the lists it spreads or joins flattened in (`[...a,
        ...b]`, `[].concat(a, b)`, `[...Object.values(require('./x'))]`: the route options
        objects an object holds), each with the file it is written in; None when a part is
        no list of route records the scanned files show. `partial`: such a part is instead
        one record whose path is not known at the line it is written on (a finding there,
        never silence), the other parts still listed."""
        found: list[tuple[str, RouteDecl]] = []
        for index, item in enumerate(table.items):
            if isinstance(item, RouteDecl):
                found.append((file, item))
                continue
            if isinstance(item, MountDecl):
                return None
            part = self.evaluate(file, item) if depth < _MAX_DEPTH else None
            if isinstance(part, _Scoped) and isinstance(part.value, StarletteRoutes):
                inner = self._records(part.file, part.value, depth + 1, partial=partial)
            else:
                inner = self._option_records(part, partial=partial)
            if inner is None and not partial:
                return None
            line = table.lines[index] if index < len(table.lines) else 0
            unread = [(file, _unread_record(line, item))]
            found += [
                (f, r if r.line else _unread_record(line, item))
                for f, r in (unread if inner is None else inner)
            ]
            if len(found) > _MAX_KEYS:
                return None
        return found

    def _option_records(
        self, entity: _Entity | None, *, partial: bool
    ) -> list[tuple[str, RouteDecl]] | None:
        """A list of route options objects (`Object.values` of an object of them): each the
        route its object literal reads as where it is written (`Namespace.route`); None when
        the entity is no list or an item is no such object (`partial`: that item a record
        whose path is not known, line 0 for the caller to place)."""
        listed = self._listed(self._settled(entity))
        if listed is None:
            return None
        found: list[tuple[str, RouteDecl]] = []
        for file, value in listed:
            if self._written_at(file, value, 0) is not None:  # a project function made it:
                return None  # read with the call's arguments bound (`_joined`)
            item = self._settled(self.evaluate(file, value))
            if isinstance(item, _Scoped) and isinstance(item.value, Namespace) and item.value.route:
                found.append((item.file, item.value.route))
            elif not partial:
                return None
            else:
                found.append((file, _unread_record(0)))
        return found

    def _joined(self, table: _Scoped, depth: int = 0) -> list[tuple[str, RouteDecl | Expr]] | None:
        """A list joined from the lists it spreads (`[...thingRoutes, ...otherRoutes]`, each
        a list the scan shows: a literal, exported by another module), its items in order with
        the file each is written in, whatever they are (route records, names of values a
        project function makes: `makeHandler(spec)(h)`); None when a part is not shown, or
        past `_MAX_KEYS` items."""
        found: list[tuple[str, RouteDecl | Expr]] = []
        parts = table.value.items if isinstance(table.value, StarletteRoutes) else ()
        whole = deep = depth < _MAX_DEPTH
        for part in parts:  # every part looked up, the pre-filter asking for all at once
            if isinstance(part, RouteDecl):
                found.append((table.file, part))
                continue
            if isinstance(part, MountDecl):
                whole = False
                continue
            entity = self._settled(self.evaluate(table.file, part)) if deep else None
            inner: list[tuple[str, RouteDecl | Expr]] | None = None
            if isinstance(entity, _Scoped) and isinstance(entity.value, StarletteRoutes):
                inner = self._joined(entity, depth + 1)
            elif isinstance(entity, _Scoped) and isinstance(entity.value, Items):
                inner = [(entity.file, v) for v in entity.value.values]
            whole = whole and inner is not None
            found += inner or []
        return found if whole and len(found) <= _MAX_KEYS else None

    def _listing(self, listing: Listing) -> Items | None:
        """A folder listing as the list of its items the walked files give (`js_dirload.
        listed`, from the folder of the nearest `package.json` above the file it is written in,
        where `npm start` runs); None past `_MAX_KEYS` items or where a spelling does not apply."""
        if listing in self.listings:
            return self.listings[listing]
        cwd = posixpath.dirname(listing.origin)
        while cwd and f"{cwd}/{MANIFEST}" not in self.files:
            cwd = posixpath.dirname(cwd)
        if self.sorted_files is None:
            self.sorted_files = sorted(self.files)
        items, self.glob_steps = js_dirload.listed(listing, self.sorted_files, cwd, self.glob_steps)
        found = None
        if items is not None and len(items) <= _MAX_KEYS:
            found = Items(tuple(Lit(item) for item in items))
        self.listings[listing] = found
        return found

    def _loaded_files(self, path: str) -> list[str]:
        """The walked scripts the globs a module loads by computed specifiers match, joined
        to a folder the scan does not know (`ModuleFacts.loaded_globs`: a file-system
        router's `'**/route.js'`), in path order, at most `_MAX_KEYS`: what a route it
        computes from their names is read from."""
        globs = () if path.endswith(".py") else self._facts(path).loaded_globs
        if not globs:
            return []
        if self.sorted_files is None:
            self.sorted_files = sorted(self.files)
        tails = [js_dirload.glob_tail(g) for g in globs]
        found = [f for f in self.sorted_files if any(t.search(f) for t in tails)]
        return found[:_MAX_KEYS]

    def _keyed_value(self, path: str, keyed: LoopKey, key: str) -> Expr:
        """The key, or `table[key]` and its `members` (written in the table's file), in the
        case `keyed.case` asks for."""
        if keyed.tested:  # `if (routes[key].auth)`: the entry's field as a test, absent falsy
            truth = self._truth(path, self._keyed_as_written(path, keyed, key, absent=Lit("")))
            return Opaque() if truth is None else Lit("true" if truth else "")
        value = self._keyed_as_written(path, keyed, key)
        if keyed.split is not None and not isinstance(value, Opaque):
            value = self._split_part(path, value, keyed.split, keyed.part)
        if not keyed.case or isinstance(value, Opaque):
            return value
        change = str.lower if keyed.case == "lower" else str.upper
        if isinstance(value, Items):
            strings = [self._string(path, v) for v in value.values]
            return Items(tuple(Lit(change(s)) for s in strings if s is not None))
        found = self._string(path, value)
        return Lit(change(found)) if found is not None else Opaque()

    def _split_part(self, path: str, value: Expr, separator: str, part: int) -> Expr:
        """Part `part` of the string `value` split at `separator` (`'get /x'.split(' ')[0]`),
        as JavaScript gives it; not known (`Opaque`) for a value not a string, a part it does
        not have, or the whole list of parts."""
        text = self._string(path, value)
        parts = text.split(separator) if text is not None else []
        return Lit(parts[part]) if 0 <= part < len(parts) else Opaque()

    def _keyed_as_written(
        self, path: str, keyed: LoopKey, key: str, absent: Expr | None = None
    ) -> Expr:
        """`absent`: what a field an object of the table lacks gives, when every part of that
        object is read (`undefined`, for a test); else not known (`Opaque`)."""
        if keyed.table is None:
            return Lit(key)
        entity = self.evaluate(path, keyed.table)
        names = (key, *keyed.members)
        for place, name in enumerate(names):
            if isinstance(entity, _Scoped) and isinstance(entity.value, StarletteRoutes):
                records = self._records(entity.file, entity.value)
                if records is not None:
                    index = int(name) if name.isdigit() else len(records)
                    if index >= len(records):
                        return Opaque()
                    return _record_member(*records[index], names[place + 1 :])
                joined = self._joined(entity) or []  # lists joined by spreads: item by item
                index = int(name) if name.isdigit() else len(joined)
                if index >= len(joined):
                    return Opaque()
                written, item = joined[index]
                if isinstance(item, RouteDecl):
                    return _record_member(written, item, names[place + 1 :])
                entity, name = _Scoped(written, Items((item,))), "0"  # read as the list holds it
            if isinstance(entity, _Scoped) and isinstance(entity.value, Items):
                items = entity.value.values  # `for (const m of MODELS)`: item `name` of a list
                at = int(name) if name.isdigit() else len(items)
                value = items[at] if at < len(items) else None
            elif isinstance(entity, _Scoped) and isinstance(entity.value, Namespace):
                fields = dict(self._object_fields(entity) or [])  # spreads' too
                value = fields.get(name)
                if value is None and absent is not None and not any(k[:1] == "\0" for k in fields):
                    return absent
            else:
                return Opaque()
            if value is None:
                return Opaque()
            found, file = value, entity.file
            if isinstance(value, Bound):  # written in the file of the object it spreads
                found, file = value.expr, value.file
            entity = self.evaluate(file, found)
        return Bound(file, found)

    def _use_called(self, path: str, use: UseDecl) -> bool:
        """A JS `use()` given a parameter of the function it is written in (`attach(path,
        router, mw) { this.app.use(path, mw, router) }`): attached once per chain of calls of
        that function, its owner and arguments bound to what each passes (`this` to the
        instance a method is called on: `_method_this`); False when no scanned call reaches
        it (read as written then: what it is given is a finding there)."""
        site = next((e.function for e, _ in use.args if isinstance(e, Param) and e.function), None)
        if site is None or path.endswith(".py"):
            return False
        chains = self._chains(path, site)
        if not chains:
            return False
        for chain in chains:
            self.budget -= 1
            if self.budget < 0:
                self.cut[chain[-1][0], chain[-1][1].line] = None
                return True
            if not self._chain_runs(chain) or self._read_as_use(*chain[0]):
                continue
            args = tuple(
                (
                    self._through(e, path, site, chain) if e is not None else None,
                    replace(a, guards=tuple(self._through(g, path, site, chain) for g in a.guards)),
                )
                for e, a in use.args
            )
            passed = replace(use, owner=self._through(use.owner, path, site, chain), args=args)
            for node in self._owners(path, passed.owner):
                self._attach_use(node, path, passed)
        return True

    def _read_as_use(self, path: str, call: Invocation) -> bool:
        """Whether the reader already read `call` as a `use()` of its own (`this.use('/x', r)`
        in a subclass of a base whose `use(path, router)` wraps its router's): followed into
        the wrapper too, it would mount the same child twice."""
        callee = call.callee
        if not (isinstance(callee, Sym) and len(callee.path) > 1 and callee.path[-1] == "use"):
            return False
        read = self.uses_read.get(path)
        if read is None:
            read = self.uses_read[path] = {(u.line, u.owner) for u in self._facts(path).uses}
        return (call.line, Sym(callee.path[:-1])) in read

    def _read_as_route(self, path: str, call: Invocation) -> bool:
        """Whether the reader already read `call` on an instance as a route of its own
        (`this.get('/x', h)` in a subclass of a base whose `get(path, h)` wraps its router's
        `route()`): followed into the base method too, it would list the route twice."""
        callee = call.callee
        if not (isinstance(callee, Sym) and len(callee.path) > 1):
            return False
        read = self.routes_read.get(path)
        if read is None:
            read = self.routes_read[path] = {
                (r.line, r.owner) for r in self._facts(path).routes if r.owner is not None
            }
        return (call.line, Sym(callee.path[:-1])) in read

    def _attach_mount_called(
        self,
        path: str,
        mount: MountDecl,
        site: str,
        into: _Node | None = None,
        given: list[_Chain] | None = None,
    ) -> None:
        """A mount in the function at `site` whose child or prefix is a parameter
        (`configure_blueprints(app, blueprints)`): one per chain of calls, per child passed.
        `into`: the router the function makes, as the chains `given` made it (`_deferred`);
        a child another factory's call makes is then the router that call makes in turn."""
        chains = self._chains(path, site) if given is None else given
        if not chains:
            for node in self._owners(path, mount.parent):
                self._add_mount(node, path, mount)
            return
        for chain in chains:
            self.budget -= 1
            if self.budget < 0:
                self.cut[chain[-1][0], chain[-1][1].line] = None
                return
            if not self._chain_runs(chain):
                continue
            parent = self._through_some(mount.parent, path, site, chain)
            prefix = self._through_some(mount.prefix, path, site, chain)
            child = self._through(mount.child, path, site, chain)
            passed = replace(mount, parent=parent, child=child, prefix=prefix)
            if into is not None and isinstance(mount.child, Apply):
                self._mount_made(into, path, mount, passed, site, chain)
                continue
            for each in self._table_mounts(path, passed):  # `for at, r in pairs:` per item
                for one in self._alternatives(each.child):
                    for node in [into] if into is not None else self._owners(path, parent):
                        bound = replace(each, child=one, via=(chain[-1][0], chain[-1][1].line))
                        self._add_mount(node, path, bound)

    def _deferred(
        self, path: str, owner: Expr | None, decl: RouteDecl | MountDecl, site: str
    ) -> bool:
        """Whether `decl` (a route, or a mount) takes its path, methods, child or prefix from
        the parameters of the Python function at `site` whose own body makes the router it is
        put on (`router = APIRouter(prefix=f"/{kind}")` ... `return router`): kept for each
        router a call of the function makes (`_fresh_made`), bound to what that call passes,
        instead of every call's on the one router the body spells (`_fresh_filled`)."""
        if not path.endswith(".py") or isinstance(owner, Param) or owner is None:
            return False
        node = self._owner(path, owner)
        if node is None or node.file != path or node.decl.scope != site or node.decl.app:
            return False
        self.deferred.setdefault((path, node.decl.router_id), []).append((path, decl, site))
        return True

    def _mount_made(
        self, into: _Node, path: str, mount: MountDecl, passed: MountDecl, site: str, chain: _Chain
    ) -> None:
        """A mount the factory at `site` puts on the router it makes, its child a call of a
        project function (`outer.include_router(make_sub(kind=kind))`), for the router
        `chain` made: the child the router that call makes in turn, under this chain."""
        assert isinstance(mount.child, Apply)
        made = self.evaluate(path, mount.child)
        call = Invocation(mount.child.callee, mount.child.args, mount.child.keywords, mount.line)
        call = replace(self._invocation_at(path, call) or call, scope=site)
        label = f"{into.decl.router_id}>{mount.line}"
        if (into.file, into.decl.router_id) not in self.made_chain:  # one per chain
            label += f"<{chain[-1][0]}:{chain[-1][1].line}"
        child = (
            self._fresh_made(made, path, call, chain, label) if isinstance(made, _Router) else None
        )
        if child is None and isinstance(made, _Router):
            template = made.key
            while template in self.made_by:
                template = self.made_by[template]
            if template == self.made_by.get((into.file, into.decl.router_id)):
                return  # the factory calling itself: a finding at the call (`_fresh_made`)
        if child is None:
            self._add_mount(into, path, passed)
            return
        into.mounts.append(
            (path, replace(passed, via=(chain[-1][0], chain[-1][1].line)), child.key)
        )

    def _invocation_at(self, path: str, call: Invocation) -> Invocation | None:
        """The call of `path` at `call.line` (or, read inlined through a local name, the
        nearest one above it) calling what `call` calls with its arguments."""
        found = next(
            (c for c in self._line_invocations(path).get(call.line, ()) if c.callee == call.callee),
            None,
        )
        if found is not None:
            return found
        key = (path, call)
        if key in self._invocation_memo:
            return self._invocation_memo[key]
        best: Invocation | None = None
        for each in self._facts(path).invocations:
            if (
                each.callee == call.callee
                and each.line <= call.line
                and (each.args, each.keywords) == (call.args, call.keywords)
                and (best is None or each.line > best.line)
            ):
                best = each
        self._invocation_memo[key] = best
        return best

    def _returned_call(self, file: str, function: Function) -> Invocation | None:
        """The call of a project function whose result `function` returns (`return
        make(kind)`), as written in its body; None for any other return."""
        returns = function.returns
        if isinstance(returns, Apply):
            callee = returns.callee
        elif type(returns) is Sym and len(returns.path) > 1 and returns.path[-1] == CALL:
            callee = Sym(returns.path[:-1])
        else:
            return None
        calls = [
            c
            for c in self._facts(file).invocations
            if c.scope == function.site and c.callee == callee
        ]
        return calls[0] if len(calls) == 1 else None

    def _bound_call(self, path: str, name: str, binding: Expr) -> _Router | None:
        """`X = make(kind="x")` (Python): where `make` is a project function whose body makes
        the router it returns, the router that call makes (`_fresh_made`); None otherwise."""
        line = self._facts(path).bound_calls.get(name)
        callee = _callee(binding) if line else None
        if callee is None or line is None:
            return None
        function = self.evaluate(path, callee)
        if not (
            isinstance(function, _Scoped)
            and isinstance(function.value, Function)
            and function.value.returns is not None
        ):
            return None  # not a project function's call: read as it is
        call = self._invocation_at(path, Invocation(callee, (), (), line))
        if call is None or call.line != line:
            return None
        made = self.evaluate(path, Apply(callee, call.args, call.keywords))
        if not isinstance(made, _Router):
            return None
        return self._fresh_made(made, path, call, (), f"{path}:{line}")

    def _fresh_made(
        self, made: _Router, caller: str, call: Invocation, outer: _Chain, label: str
    ) -> _Router | None:
        """The router `call` (written in `caller`, reached by the chain `outer`) of a project
        function makes, where the function's own body makes the router it returns
        (`RouterDecl.scope`): one of its own per chain of calls, its prefix, routes and mounts
        bound to what the chain passes (`_fresh_filled`); None for any other call. A chain
        longer than the calls followed (`_MAX_DEPTH`) or past the budget is not followed."""
        template_key = made.key
        while template_key in self.made_by:
            template_key = self.made_by[template_key]
        template = self.nodes.get(template_key)
        if template is None or not template.decl.scope or template.decl.app:
            return None
        function = self.evaluate(caller, call.callee)
        if not (isinstance(function, _Scoped) and isinstance(function.value, Function)):
            return None
        chain: _Chain = ((caller, call), *outer)
        if function.file != template_key[0] or function.value.site != template.decl.scope:
            # `return make(kind)`: a function returning what its call of the factory makes
            inner = self._returned_call(function.file, function.value)
            if inner is None or len(chain) > _MAX_DEPTH:
                return None
            return self._fresh_made(made, function.file, inner, chain, label)
        key = (template_key[0], f"{template_key[1]}@{label}")
        if key in self.nodes:
            return _Router(key)
        if any(f == template_key[0] and c.scope == template.decl.scope for f, c in chain):
            # a factory whose call (or a call of one it calls) calls it again: run without
            # end, or ended by a test the reader does not decide
            self._unresolved(UNRESOLVED_ROUTE, caller, call.line, _RECURSIVE_FACTORY)
            return None
        if len(chain) > _MAX_DEPTH:
            self._unresolved(UNRESOLVED_ROUTE, caller, call.line, _DEEP_CALLS)
            return None
        self.budget -= 1
        if self.budget < 0:
            self.cut[chain[-1][0], chain[-1][1].line] = None
            return None
        decl = replace(template.decl, router_id=key[1])
        if decl.prefix is not None:
            prefix = self._through(decl.prefix, template.file, decl.scope, chain)
            decl = replace(decl, prefix=prefix)
        self.nodes[key] = _Node(template.file, decl)
        self.made_by[key] = template_key
        self.made_chain[key] = chain
        if template_key in self.router_classes:
            self.router_classes[key] = self.router_classes[template_key]
        return _Router(key)

    def _alternatives(self, expr: Expr) -> list[Expr]:
        """`expr`, or for each item of a sequence a call passed (`for bp in blueprints`), that
        item; a sequence that is not visible is one value not known. An item passed to a
        helper or joined into a path (`for r in rules: add(scoped(r))`) is that value per item."""
        if not isinstance(expr, Each):
            inner = _nested_each(expr)
            if inner is None:
                return [expr]
            return [_with_item(expr, inner, item) for item in self._alternatives(inner)]
        source = expr.source
        if not isinstance(source, Bound):
            return [Opaque()]
        listed = self._listed(self.evaluate(source.file, source.expr))
        if listed is not None:
            return [Bound(file, value) for file, value in listed]
        return [Opaque()]

    def _alternatives_with(
        self, expr: Expr, companion: Expr | None
    ) -> list[tuple[Expr, Expr | None]]:
        """`_alternatives` of a path, each with what `companion` (the view) is in the same
        item: `for path, view in routes:` takes both from one tuple of the list passed."""
        if not isinstance(expr, Each) or expr.index < 0:
            return [(each, companion) for each in self._alternatives(expr)]
        source = expr.source
        entity = self.evaluate(source.file, source.expr) if isinstance(source, Bound) else None
        if not (isinstance(entity, _Scoped) and isinstance(entity.value, Items)):
            return [(Opaque(), companion)]
        paired = isinstance(companion, Each) and companion.source == source
        found: list[tuple[Expr, Expr | None]] = []
        for value in entity.value.values:
            item = self.evaluate(entity.file, value)
            values = (
                item.value.values
                if isinstance(item, _Scoped) and isinstance(item.value, Items)
                else ()
            )
            if expr.index >= len(values) and not expr.rest:
                found.append((Opaque(), companion))
                continue
            view = companion
            if paired:
                assert isinstance(companion, Each)
                view = (
                    Bound(item.file, values[companion.index])  # type: ignore[union-attr]
                    if 0 <= companion.index < len(values)
                    else None
                )
            for value in values[expr.index : None if expr.rest else expr.index + 1]:
                found.append((Bound(item.file, value), view))  # type: ignore[union-attr]
        return found

    def _chains(self, path: str, site: str, depth: int = 0) -> list[_Chain]:
        """The chains of calls that reach the function defined at `site` in `path`, innermost
        first: a call written inside another function whose parameters it passes on is
        followed out to each call of that one (memoized; a recursion ends)."""
        key = (path, site)
        known = self.chains.get(key)
        if known is not None:
            return known
        self.chains[key] = []
        found: list[_Chain] = []
        if depth <= _MAX_DEPTH:
            for file, call in self._calls_of(path, site):
                if call.scope and _mentions(call, call.scope):
                    outer = self._chains(file, call.scope, depth + 1)
                    found += [((file, call), *chain) for chain in outer]
                    if outer:
                        continue
                found.append(((file, call),))
                if len(found) > _MAX_CHAINS:
                    break
        else:
            for file, call in self._calls_of(path, site):
                self._unresolved(UNRESOLVED_ROUTE, file, call.line, _DEEP_CALLS)
        self.chains[key] = found
        return found

    def _through_some(self, expr: Expr | None, path: str, site: str, chain: _Chain) -> Expr | None:
        return None if expr is None else self._through(expr, path, site, chain)

    def _condition_through(
        self, condition: Condition, path: str, site: str, chain: _Chain
    ) -> Condition:
        """`condition` with the parameters it tests bound to what `chain` passes."""
        if condition.op:
            parts = tuple(self._condition_through(p, path, site, chain) for p in condition.parts)
            return replace(condition, parts=parts)
        test = self._through(condition.test, path, site, chain)
        equals = condition.equals
        return replace(
            condition,
            test=test,
            equals=self._through(equals, path, site, chain) if equals is not None else None,
        )

    def _through(self, expr: Expr, path: str, site: str, chain: _Chain) -> Expr:
        """`expr`, written in the function at `site` in `path`, with the parameters bound to
        what each call of `chain` passes, innermost first."""
        file, function = path, site
        for caller, call in chain:
            this = self._method_this(file, function, call)
            expr = _subst(expr, path, file, function, call, caller, this)
            file, function = caller, call.scope
        return expr

    def _method_this(self, path: str, site: str, call: Invocation) -> tuple[str, Sym] | None:
        """For `call` of the JS method defined at `site` in `path` through an instance
        (`this.attach(...)` in a subclass, `ctrl.attach(...)`): the method's class name (its
        `this` spelled `C()`) and the receiver the call names, so what the method does on
        `this` is done on the caller's instance (`js_classes`); else None. Remembered per
        method."""
        callee = call.callee
        if (
            path.endswith(".py")
            or not (isinstance(callee, Sym) and len(callee.path) > 1)
            or callee.path[-1] == _CONSTRUCTOR  # `new C(...)`, `super(...)`: `this` is `C()`
            or callee.path[0] == "super"
        ):
            return None
        key = (path, site)
        if key not in self.method_classes:
            self.method_classes[key] = next(
                (
                    name
                    for name, value in self._facts(path).bindings.items()
                    if isinstance(value, Namespace)
                    and any(isinstance(f, Function) and f.site == site for _, f in value.fields)
                ),
                None,
            )
        name = self.method_classes[key]
        return (name, Sym(callee.path[:-1])) if name is not None else None

    def _chosen_plugins(self, path: str, facts: ModuleFacts) -> None:
        """A register call given what a project function returns, when that is one of several
        functions the run time chooses (`_plugin`): a finding where the call is written."""
        for call in facts.invocations:
            if not isinstance(call.callee, PluginOf):
                continue
            chosen = self.evaluate(path, call.callee)
            if isinstance(chosen, _OneOf) and not chosen.options:
                self._unresolved(
                    UNRESOLVED_ROUTER,
                    path,
                    call.line,
                    f"the plugin registered here is one of several functions "
                    f"`{describe(call.callee.factory)}` returns, chosen at run time: the routes "
                    "they register are not listed",
                )

    def _library_values(self, path: str, facts: ModuleFacts) -> None:
        """The values the file's register calls run as plugins (`Registered`) that are a
        library's value a record names (`library_tables`: `@mojaloop/central-services-
        metrics`' `plugin`, an adapter's `registerPlugin()` made in another module): the
        record's routes on the register's child router, its options out of sight. A value
        given by the callers of the function the call is written in is each value a chain of
        calls passes (an item of a list of plugins too), placed where the outermost call is;
        one no scanned chain of calls shows is an `UNRESOLVED_ROUTER` at the register call
        (the project's own plugins among them are read where they are written)."""
        for registered in facts.registered:
            node = self._owner(path, registered.router)
            if node is None:
                continue
            site = _param_site(registered.plugin)
            if site is None:
                self._library_value(path, node, registered, registered.plugin, None)
                continue
            chains = self._chains(path, site)
            seen = bool(chains)
            for chain in chains:
                place = (chain[-1][0], chain[-1][1].line)
                bound = self._through(registered.plugin, path, site, chain)
                seen = self._library_value(path, node, registered, bound, place) and seen
            if not seen and self._owners(path, registered.owner):  # a router's register
                detail = (
                    f"the plugin registered here is `{describe(registered.plugin)}`, what the "
                    "callers of the function it is written in pass, which the scanned calls do "
                    "not show: routes a library's plugin among it serves are not listed"
                )
                self._unresolved(UNRESOLVED_ROUTER, path, registered.line, detail)

    def _library_value(
        self,
        path: str,
        node: _Node,
        registered: Registered,
        value: Expr,
        place: tuple[str, int] | None,
    ) -> bool:
        """`_library_values` for one value (a list: each item) a register call runs; whether
        the scan shows what it is (each item of a list)."""
        entity = self._settled(self.evaluate(path, value))
        items = self._listed(entity)
        shown = entity is not None
        for file, item in items if items is not None else [(path, None)]:
            one = entity if item is None else self._settled(self.evaluate(file, item))
            shown = shown and one is not None
            if not isinstance(one, _External):
                continue
            record = library_tables.by_value(one.module, one.path)
            if record is None or record.framework != node.decl.framework:
                continue
            unknown = tuple((name, Opaque()) for name, _ in record.options)
            routes = RouteDecl(
                registered.router, Opaque(), None, registered.line, methods_unknown=True,
                generated_by=record.key, documented=unknown, called_at=place,
            )  # fmt: skip
            node.routes.append((path, routes))
        return shown

    def _plugin(self, path: str, expr: PluginOf) -> _Entity | None:
        """A registered plugin that a call of `expr.factory` makes: the function it returns
        when the factory is a project function that returns one (its `plugin`); `_OneOf` of
        nothing where it returns one of several (which no call reaches); None otherwise."""
        factory = self.evaluate(path, expr.factory)
        if isinstance(factory, _Scoped) and isinstance(factory.value, Function):
            returned = factory.value.plugin
            if isinstance(returned, Function):
                return self.evaluate(factory.file, returned)
            if returned is not None:
                return _OneOf([])
        return None

    def _number_cast(self, path: str, name: str, expr: Apply) -> _Entity | None:
        """`int(VERSION)`, `str(VERSION)` of a number a module binds, `int` and `str` the
        builtins (not a name the file binds)."""
        if len(expr.args) != 1 or expr.keywords or expr.args[0] is None:
            return None
        if self._lookup(path, name) is not None:
            return None
        number = self.evaluate(path, expr.args[0])
        if not isinstance(number, _Number) or number.value is None:
            return None
        return _Number(int(number.value)) if name == "int" else _formatted(number)

    def _apply(self, path: str, expr: Apply) -> _Entity | None:
        """A call of a function of the project's, its return value with its parameters bound
        to the arguments (`scoped("/login")`); a class or a library's function as if called;
        a str method of `python_facts._HELPER_STR_METHODS` on a string (`value.strip("/")`)."""
        callee_expr = expr.callee
        if type(callee_expr) is Sym and callee_expr.path in _NUMBER_CASTS and path.endswith(".py"):
            cast = self._number_cast(path, callee_expr.path[0], expr)
            if cast is not None:
                return cast
        if (
            type(callee_expr) is Member
            and not path.endswith(".py")
            and js_strings.is_method(callee_expr.path)
            and not expr.keywords
        ):  # `stem.replace(head, head.toLowerCase())`: JavaScript's own rules (`js_strings`)
            base = self._settled(self.evaluate(path, callee_expr.base))
            strings = [self._string(path, a) if a is not None else None for a in expr.args]
            if not isinstance(base, _Str) or any(a is None for a in strings):
                return None
            made = js_strings.applied(callee_expr.path, base.value, [a or "" for a in strings])
            return _Str(made, base.assumed) if made is not None else None
        if (
            type(callee_expr) is Member
            and len(callee_expr.path) == 1
            and callee_expr.path[0] in _STR_METHODS
            and not expr.keywords
        ):
            base = self._settled(self.evaluate(path, callee_expr.base))
            args = [self.evaluate(path, a) if a is not None else None for a in expr.args]
            if not isinstance(base, _Str) or not all(isinstance(a, _Str) for a in args):
                return None
            method = getattr(base.value, callee_expr.path[0])
            try:  # `x.lower("/")`, `x.removeprefix()`: what Python refuses
                text = method(*(a.value for a in args if isinstance(a, _Str)))
            except TypeError:
                return None
            return _Str(text, base.assumed) if isinstance(text, str) else None
        callee = self.evaluate(path, expr.callee)
        if callee is None and path.endswith(".py"):
            return self._class_view(path, callee_expr)
        if callee is None:  # `scoped(['admin'])(route)`, a name bound to such a call
            callee = self._made(path, callee_expr, 0)
        if callee is None:
            return None
        if isinstance(callee, _External) and not expr.keywords and None not in expr.args:
            # `basename(file)` of Node's `path`, the file a listing's item
            named = _node_path(callee, [self.evaluate(path, a) for a in expr.args if a])
            if named is not None and len(named.value) <= MAX_LENGTH:
                return named
        if isinstance(callee, _Scoped) and isinstance(callee.value, Function):
            function = callee.value
            if function.returns is None:
                return None
            call = Invocation(expr.callee, expr.args, expr.keywords)
            returns = _subst(function.returns, callee.file, callee.file, function.site, call, path)
            return self.evaluate(callee.file, returns)
        return self._member(callee, CALL)

    def _made(self, path: str, expr: Expr, depth: int) -> _Scoped | None:
        """The function a call of a JavaScript function of the project's returns, its body's
        reads of the outer parameters bound to the call's arguments: `scoped(['admin'])` of
        `scoped = (scope) => (route) => ({ ...route, options: { scope } })`, written as a call
        or named (`const adminOnly = scoped([...])`, here or exported by another module: a
        binding that drops the arguments leaves them unbound). Only a call of the value reads
        it so (`_apply`): a middleware factory given to `use()` is judged as it is written.
        None for anything else."""
        if depth > _MAX_DEPTH:
            return None
        if type(expr) is Sym and len(expr.path) == 1:  # a name: what it is bound to
            bound = self._facts(path).bindings.get(expr.path[0])
            return self._made(path, bound, depth + 1) if bound is not None else None
        if isinstance(expr, ImportRef) and expr.attr is not None:
            target = self._js_file(expr.origin or path, expr.module)
            exported = self._facts(target).exports.get(expr.attr) if target else None
            if target is None or exported is None:
                return None
            return self._made(target, exported, depth + 1)
        if isinstance(expr, Apply) and not expr.keywords:
            factory, args = expr.callee, expr.args
        elif type(expr) is Sym and len(expr.path) > 1 and expr.path[-1] == CALL:
            factory, args = Sym(expr.path[:-1]), ()
        else:
            return None
        called = self.evaluate(path, factory)
        if not (isinstance(called, _Scoped) and isinstance(called.value, Function)):
            return None
        outer, inner = called.value, called.value.plugin
        if outer.returns is not None or not isinstance(inner, Function) or inner.returns is None:
            return None
        call = Invocation(factory, args, ())
        returns = _subst(inner.returns, called.file, called.file, outer.site, call, path)
        return _Scoped(called.file, replace(inner, returns=returns))

    def _class_view(self, path: str, callee: Expr) -> _Entity | None:
        """`Lock.as_view("lock")` (Flask's `View`, flask-restful's `Resource`), the class not
        defining `as_view` itself: the view function it makes serves the class's methods, so
        it stands for the class wherever it is passed (a wrapper's parameter, a loop's item, a
        module's name)."""
        if type(callee) is Sym and len(callee.path) > 1 and callee.path[-1] == _AS_VIEW:
            made = self.evaluate(path, Sym(callee.path[:-1]))
        elif type(callee) is Member and callee.path == (_AS_VIEW,):
            made = self.evaluate(path, callee.base)
        else:
            return None
        return made if isinstance(made, _Scoped) and isinstance(made.value, Namespace) else None

    def _array_built(self, path: str, expr: Mapped) -> _Entity | None:
        """The list an array method builds (`items.map(item => value)`): per item of the source
        list the scan shows, the callback's value with its parameter bound to the item (`flat`:
        the items of each list item; `filter`: the items whose value is truthy); None when the
        source is no list the scan shows, or a `filter` value cannot be told."""
        source = self._settled(self.evaluate(path, expr.source))
        if expr.method == "values":  # `Object.values(x)`: a list's own items, an object's values
            source = self._module_value(source)
            if isinstance(source, _Scoped) and isinstance(source.value, StarletteRoutes | Items):
                return source
            values = self._object_values(source)
            return _Scoped(path, Items(tuple(values))) if values is not None else None
        items = self._listed(source)
        if items is None or len(items) > _MAX_KEYS:
            return None
        if expr.method in {"concat", "join"}:  # each part a list (joined), or one item
            joined: list[Expr] = []
            for file, part in items:
                entity = self._settled(self.evaluate(file, part))
                inner = self._listed(entity)
                if inner is not None:
                    joined += [Bound(f, i) for f, i in inner]
                elif expr.method == "concat" and (
                    isinstance(entity, _Str)
                    or (isinstance(entity, _Scoped) and isinstance(entity.value, Namespace))
                ):  # `a.concat(x)`: an argument that is no list is one item (a spread: none)
                    joined.append(Bound(file, part))
                else:
                    return None
            return _Scoped(path, Items(tuple(joined))) if len(joined) <= _MAX_KEYS else None
        self.budget -= len(items)
        if self.budget < 0:
            return None
        built: list[Expr] = []
        for file, item in items:
            if expr.method == "flat" or (expr.method == "filter" and expr.value is None):
                if expr.method == "filter":
                    kept = self._truth(file, item)
                    if kept is None:
                        return None
                    built += [Bound(file, item)] if kept else []
                    continue
                inner = self._listed(self._settled(self.evaluate(file, item)))
                built += (
                    [Bound(f, i) for f, i in inner] if inner is not None else [Bound(file, item)]
                )
                continue
            # `reduce`'s callback is given the accumulator first, then the item
            passed = (None, item) if expr.method == "reduce" else (item,)
            call = Invocation(Opaque(), passed, ())
            value = _subst(expr.value or Opaque(), path, path, expr.site, call, file)
            if expr.method == "filter":
                kept = self._truth(path, value)
                if kept is None:
                    return None
                built += [Bound(file, item)] if kept else []
            elif expr.method in {"flatMap", "reduce"}:
                inner = self._listed(self._settled(self.evaluate(path, value)))
                built += (
                    [Bound(f, i) for f, i in inner] if inner is not None else [Bound(path, value)]
                )
            else:
                built.append(Bound(path, value))
        return _Scoped(path, Items(tuple(built)))

    def _object_values(self, entity: _Entity | None) -> list[Expr] | None:
        """`Object.values(obj)`: the values of the object a module exports or a name holds,
        in JavaScript's order of its keys (`_object_fields`); None for anything but an object
        the scan shows, or one of more than `_MAX_KEYS` values."""
        fields = self._object_fields(entity)
        if fields is None or len(fields) > _MAX_KEYS:
            return None
        return [value for _, value in fields]

    def _module_value(self, entity: _Entity | None) -> _Entity | None:
        """What a JavaScript module is as a value (`require('./x')` whole): its
        `module.exports` (`default`), else an object of its named exports (`exports.a = …`);
        any other entity as it is."""
        if not isinstance(entity, _JsModule):
            return entity
        exports = self._facts(entity.path).exports
        if "default" in exports:
            return self._settled(self.evaluate(entity.path, exports["default"]))
        return _Scoped(entity.path, Namespace(tuple(exports.items())))

    def _object_fields(
        self, entity: _Entity | None, depth: int = 0
    ) -> list[tuple[str, Expr]] | None:
        """The keys and values (`Bound` to the file they are written in) of an object literal
        or of what a module exports, the objects it spreads read in as JavaScript does (`{
        ...a, ...b }`: a later key's value in the place the key first took); a spread the scan
        does not show is one `Opaque` value under a key of its own (a finding where the values
        are read as a table). None for anything but an object."""
        entity = self._module_value(entity)
        if depth > _MAX_DEPTH or not (
            isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)
        ):
            return None
        keyed: dict[str, Expr] = {}
        for base in reversed(entity.value.bases):  # the base written first is the last
            inner = self._object_fields(self._settled(self.evaluate(entity.file, base)), depth + 1)
            unread = Bound(entity.file, base) if isinstance(base, Unmerged) else Opaque()
            for name, value in inner if inner is not None else [("\0", unread)]:
                keyed[f"\0{len(keyed)}" if name.startswith("\0") else name] = value
        keyed.update((name, Bound(entity.file, value)) for name, value in entity.value.fields)
        return list(keyed.items())

    def _listed(self, entity: _Entity | None, depth: int = 0) -> list[tuple[str, Expr]] | None:
        """(file, item) of a list the scan shows (a literal, or one an array method built); a
        Python wrapper's `*rules` passed on to another (`self.register(view, *rules)`) is
        each item its callers pass (None when those are not known). A JavaScript route table
        (`[...a, { method, path }]`) is its entries' objects, the lists it joins flattened in."""
        if isinstance(entity, _Scoped) and isinstance(entity.value, StarletteRoutes):
            records = self._records(entity.file, entity.value)
            if records is None or any(r.options is None for _, r in records):
                return None
            return [(file, r.options) for file, r in records if r.options is not None]
        if not (isinstance(entity, _Scoped) and isinstance(entity.value, Items)):
            return None
        found: list[tuple[str, Expr]] = []
        for value in entity.value.values:
            if not (
                isinstance(value, Each)
                and value.index < 0
                and not value.field
                and entity.file.endswith(".py")
            ):
                found.append((entity.file, value))
                continue
            source = value.source
            passed = self.evaluate(source.file, source.expr) if isinstance(source, Bound) else None
            inner = self._listed(passed, depth + 1) if depth < _MAX_DEPTH else None
            if inner is None:
                return None
            found += inner
        return found

    def _choice(self, path: str, expr: Choice) -> _Entity | None:
        """The branch of `test ? a : b` the test picks, where the scan tells (else both, as
        options that are known where they agree). In Python, a branch picked by a test that
        read the configuration's defaults carries their sources (`attrs.configDefault`)."""
        picked, assumed = self._test(path, expr)
        if picked is None and (per_default := self._choice_per_default(path, expr)) is not None:
            return per_default
        if picked is None:
            self.forks += 1
            if self.forks > _MAX_FORKS:
                return None
            options = [self.evaluate(path, expr.then), self.evaluate(path, expr.otherwise)]
            return options[0] if options[0] == options[1] else _OneOf(options)
        chosen = self.evaluate(path, expr.then if picked else expr.otherwise)
        # a JavaScript comparison read as a flag (`x === 'lit'`: test "in") carries them too
        if assumed and isinstance(chosen, _Str) and (path.endswith(".py") or expr.test == "in"):
            return _Str(chosen.value, _merged(assumed, chosen.assumed))
        return chosen

    def _choice_per_default(self, path: str, expr: Choice) -> _Entity | None:
        """A JavaScript comparison read as a flag (`isDev = process.env.NODE_ENV ===
        'development'`) on a value the defaults give several of (`_readings`): the flag
        under each, one string where they agree; None for any other choice."""
        if expr.test != "in" or path.endswith(".py"):
            return None
        readings = self._readings(path, expr.tested)
        if readings is None or len(readings) < 2:
            return None
        against = [self._string(path, option) for option in expr.against]
        if None in against:
            return None
        chosen: list[_Str] = []
        for value, assumed in readings:
            picked = (value in against) != expr.negated
            branch = self.evaluate(path, expr.then if picked else expr.otherwise)
            if not isinstance(branch, _Str):
                return None
            chosen.append(_Str(branch.value, _merged(assumed, branch.assumed)))
        if all(c.value == chosen[0].value for c in chosen):
            return _Str(chosen[0].value, _merged(*(c.assumed for c in chosen)))
        return _OneOf(list(chosen))

    def _test(self, path: str, expr: Choice) -> tuple[bool | None, tuple[str, ...]]:
        """Whether `expr`'s test holds (None: not known), and the configuration defaults the
        value it tested was read under."""
        if expr.test == "truthy":
            truth = self._truth(path, expr.tested)
            tested = self._settled(self.evaluate(path, expr.tested))
        elif expr.test in _COMPARED_TESTS:
            tested = self._settled(self.evaluate(path, expr.tested))
            if tested is None and expr.test == "in" and not path.endswith(".py"):
                tested = self._unset_reading(path, expr.tested)
            truth = self._compared(path, expr, tested)
        else:
            tested = self._settled(self.evaluate(path, expr.tested))
            truth = _typed(tested, expr.test)
        assumed = tested.assumed if isinstance(tested, _Str) else ()
        return (None if truth is None else truth != expr.negated), assumed

    def _unset_reading(self, path: str, expr: Expr) -> _Str | None:
        """A JavaScript comparison's value (`['pre', 'prd'].includes(Config.environment)`)
        read under the configuration's defaults: a `process.env` variable that no file the
        app loads sets, reached through objects and calls of the project's, is unset
        (`undefined`: equal to no string). Read apart from `cache`, whose answers leave such a
        variable unknown; None where the value is still not a string."""
        if self.env_unset:
            return None
        key = (path, expr)
        if key in self.unset_readings:  # each test's value read so once per link
            return self.unset_readings[key]
        saved, self.cache, self.env_unset = self.cache, {}, True
        try:
            found = self._settled(self.evaluate(path, expr))
        finally:
            self.cache, self.env_unset = saved, False
        read = self.unset_readings[key] = found if isinstance(found, _Str) else None
        return read

    def _compared(self, path: str, expr: Choice, tested: _Entity | None) -> bool | None:
        """A Python test on a string: one of `against` after `fold` ("in"), starting or
        ending with one of them ("startswith", "endswith"), or a number other than 0
        ("nonzero", `bool(int(x))`); None where the string is not known (or `int()` would
        raise)."""
        if not isinstance(tested, _Str):
            return None
        text = tested.value
        for method in expr.fold:
            if method not in _FOLDS:
                return None
            text = getattr(text, method)()
        if expr.test == "nonzero":
            try:
                return int(text) != 0
            except ValueError:
                return None
        against = [self._string(path, option) for option in expr.against]
        if None in against:
            return None
        affixes = tuple(a for a in against if a is not None)
        if expr.test == "startswith":
            return text.startswith(affixes)
        if expr.test == "endswith":
            return text.endswith(affixes)
        return text in affixes

    def _truth(self, path: str, expr: Expr) -> bool | None:
        """Whether a value is truthy, as JavaScript tells: a string when it is not empty, an
        object, list or function always, a field an object the scan shows has not (undefined)
        never; None when not known."""
        entity = self._settled(self.evaluate(path, expr))
        if isinstance(entity, _Str):
            return bool(entity.value)
        if isinstance(entity, _Scoped | _Router | _JsModule):
            return True
        if entity is not None:
            return None
        while isinstance(expr, Bound):
            path, expr = expr.file, expr.expr
        if isinstance(expr, Member) and expr.path:
            # `r?.options?.app?.hidden`: a field absent on the way makes the whole undefined
            for end in range(len(expr.path)):
                base = self.evaluate(path, Member(expr.base, expr.path[:end]) if end else expr.base)
                if _fields_of(self._settled(base), expr.path[end]) is False:
                    return False
        return None

    def _strings(self, path: str, expr: Expr) -> list[str] | None:
        """A string, or each string of a sequence (`methods=list(verbs)`); None if not known."""
        entity = self.evaluate(path, expr)
        if isinstance(entity, _Str):
            return [entity.value]
        if isinstance(entity, _Scoped) and isinstance(entity.value, Items):
            found = [self._string(entity.file, value) for value in entity.value.values]
            return None if None in found else [str(v) for v in found]
        return None

    def _nest_values(self, path: str, expr: Expr) -> list[str | Export] | None:
        """What a NestJS setting written in `path` stands for (a version, a list of them, a
        `VersioningType` member): each string, or the `@nestjs/common` export it names, as the
        project's constants, aliases and re-exports lead to it; None when not known."""
        entity = self.evaluate(path, expr)
        items = [entity]
        if isinstance(entity, _Scoped) and isinstance(entity.value, Items):
            items = [self.evaluate(entity.file, value) for value in entity.value.values]
        found: list[str | Export] = []
        for item in items:
            if isinstance(item, _Str):
                found.append(item.value)
            elif (
                isinstance(item, _External)
                and (item.module == NEST_COMMON or item.module.startswith(NEST_COMMON + "/"))
                and item.path
            ):  # `VersioningType.URI`, `VERSION_NEUTRAL` (from one of its modules too)
                found.append(Export(item.path))
            else:
                return None
        return found

    def _nest_options(self, path: str, expr: Expr, depth: int = 0) -> dict[str, Expr] | None:
        """The fields of the object `expr` (written in `path`) stands for, each bound to the
        file it is written in, those of the objects it spreads under its own (`{ ...base,
        prefix }`); None when it, or one it spreads, is no object the scan shows."""
        entity = self.evaluate(path, expr)
        if depth > _MAX_DEPTH or not (
            isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)
        ):
            return None
        found: dict[str, Expr] = {}
        for base in reversed(entity.value.bases):  # written first, looked up last
            spread = self._nest_options(entity.file, base, depth + 1)
            if spread is None:
                return None
            found.update(spread)
        found.update((key, Bound(entity.file, value)) for key, value in entity.value.fields)
        return found

    def _per_call(self, path: str, site: str, expr: Expr) -> list[Expr]:
        """`expr`, written in the function at `site` in `path`, once per chain of calls that
        reaches it, its parameters bound to what they pass; itself when no call is seen."""
        chains = self._chains(path, site)
        return [self._through(expr, path, site, chain) for chain in chains] or [expr]

    def _nest_items(self, path: str, expr: Expr) -> list[tuple[str, Expr]] | None:
        """The items (each with its file) of the list `expr`, written in `path`, stands for; a
        name the item's file imports as the import (`Till` of `import { TillApi as Till }`)."""
        items = self._listed(self._settled(self.evaluate(path, expr)))
        found: list[tuple[str, Expr]] = []
        for file, item in items or ():
            while isinstance(item, Bound):
                file, item = item.file, item.expr
            if isinstance(item, Sym) and len(item.path) == 1:
                bound = self._facts(file).bindings.get(item.path[0])
                item = bound if isinstance(bound, ImportRef) else item
            found.append((file, item))
        return found if items is not None else None

    def _format(self, path: str, expr: Format) -> _Str | None:
        template = self._string(path, expr.template)
        args = [self._string(path, a) for a in expr.args]
        keywords = {k: self._string(path, v) for k, v in expr.keywords}
        if template is None or None in args or None in keywords.values():
            return None
        try:  # the table packs' guards: no width, precision or spec pads without bound
            if expr.percent:
                text = percent_text(template, tuple(args))
            else:
                text = format_text(template, args, keywords)
        except NotEvaluated:
            return None
        return _Str(text) if len(text) <= MAX_LENGTH else None

    # -- configuration ---------------------------------------------------------------------

    def _configured(
        self, path: str, expr: Fallback | Schema | Member | Trimmed | Keyed
    ) -> _Entity | None:
        """A configuration value: a member of what a parameter is given (`options.prefix`), a
        schema-built configuration (`_Schema`), a value with a default (`Fallback`: the
        default where the scan shows no other, marked as assumed; a value read from a sample
        environment file gives way to a default written in code)."""
        if isinstance(expr, Member):
            entity = self.evaluate(path, expr.base)
            if entity is None and isinstance(expr.base, Param):  # no call binds it: as global
                return self.evaluate(path, Sym((*expr.base.fallback.path, *expr.path)))
            for segment in expr.path:
                if entity is None:
                    return None
                entity = self._member(entity, segment)
            return entity
        if isinstance(expr, Trimmed):
            entity = self.evaluate(path, expr.value)
            if isinstance(entity, _Str) and expr.suffix and entity.value.endswith(expr.suffix):
                return _Str(entity.value[: -len(expr.suffix)], entity.assumed)
            return entity
        if isinstance(expr, Schema):
            return _Schema(path, expr.schema, expr.kind)
        if isinstance(expr, Keyed):
            return self._keyed(path, expr)
        chosen = self.evaluate(path, expr.value)
        if isinstance(chosen, _Str) and chosen.value and not (chosen.assumed and expr.source):
            return chosen
        if type(expr.value) is Member and _unseen(chosen):
            chosen = None  # `getattr(config, "X", d)` of a library's object (`import_module`)
        if chosen is not None and not isinstance(chosen, _Str):
            return chosen
        default = self.evaluate(path, expr.default)
        if isinstance(default, _Number) and expr.source:
            return _Number(default.value, (*default.assumed, expr.source))
        if isinstance(default, _Str) and expr.source:
            return _Str(default.value, (*default.assumed, expr.source))
        if isinstance(default, _Str):
            return default
        return chosen if chosen is not None else default

    def _keyed(self, path: str, expr: Keyed) -> _Entity | None:
        """`x.get('/a/b')`: what `x`'s own `get` function returns for the key (a module that
        reads its store), else the member the key names (a store's document, a convict
        configuration)."""
        key = self.evaluate(path, expr.key)
        base = self.evaluate(path, expr.base)
        if not isinstance(key, _Str) or base is None:
            return None
        getter = self._member(base, "get") if not isinstance(base, _Schema) else None
        if isinstance(getter, _Scoped) and isinstance(getter.value, Function):
            return self._apply(path, Apply(Member(expr.base, ("get",)), (expr.key,)))
        entity: _Entity | None = self._settled(base)
        for part in (p for p in re.split(r"[./]", key.value) if p):
            entity = self._settled(self._member(entity, part)) if entity is not None else None
        return entity

    def _schema_member(self, config: _Schema, name: str) -> _Entity | None:
        """`env.PREFIX` of a configuration a schema builds: a JSON schema's property (its
        `default`, else the environment's variable of that name), a convict schema's member
        (nested, or a leaf's `default`, its `env` variable first)."""
        schema = self._settled(self.evaluate(config.file, config.schema))
        if config.kind == "json":
            properties = self._member(schema, "properties") if schema is not None else None
            found = self._member(properties, name) if properties is not None else None
            default: Expr = Opaque()
            file = config.file
            if isinstance(found, _Scoped) and isinstance(found.value, Namespace):
                default = dict(found.value.fields).get("default", default)
                file = found.file
            env_var = Sym(("process", "env", name))
            return self.evaluate(file, Fallback(env_var, default, f"process.env.{name}"))
        found = self._member(schema, name) if schema is not None else None
        if not (isinstance(found, _Scoped) and isinstance(found.value, Namespace)):
            return None
        fields = dict(found.value.fields)
        if "default" not in fields:
            return _Schema(found.file, found.value, config.kind)
        env = fields.get("env")
        variable = env.value if isinstance(env, Lit) else ""
        value: Expr = Sym(("process", "env", variable)) if variable else Opaque()
        source = f"process.env.{variable}" if variable else f"the default of `{name}`"
        return self.evaluate(found.file, Fallback(value, fields["default"], source))

    def _settled(self, entity: _Entity | None) -> _Entity | None:
        """A confidence store's filter node (`{ $filter: 'env', production: …, $default: … }`)
        as its `$default` branch: the value when no criterion picks another."""
        for _ in range(_MAX_DEPTH):
            if not (isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)):
                return entity
            fields = dict(entity.value.fields)
            if "$filter" not in fields:
                return entity
            default = fields.get("$default")
            entity = self.evaluate(entity.file, default) if default is not None else None
            criterion = fields["$filter"]
            if isinstance(entity, _Str) and isinstance(criterion, Lit):
                source = f"the $default of a confidence $filter on {criterion.value!r}"
                entity = _Str(entity.value, (*entity.assumed, source))
        return entity

    def _env_value(self, path: str, name: str) -> _Str | None:
        """`process.env.NAME` as an environment file the app loads sets it (`_loaded_env`),
        else as a sample file next to `path` (or in a folder above it) documents it
        (`.env.example`...: `ENV_FILES`), marked assumed; None where none does, or where a
        loaded file out of sight may set it."""
        loaded = self._loaded_env(path, name)
        if loaded is not None:
            return loaded if isinstance(loaded, _Str) else None
        folder = posixpath.dirname(path)
        while True:
            for candidate in ENV_FILES:
                file = posixpath.join(folder, candidate) if folder else candidate
                if file not in self.files:
                    continue
                value = self._facts(file).bindings.get(name)
                if isinstance(value, Lit) and value.value:
                    return _Str(value.value, (f"process.env.{name} as {file} sets it",))
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def _loaded_env(self, path: str, name: str) -> _Str | Unknown | None:
        """`process.env.NAME` as the environment files loaded by the app that holds `path`
        set it (`envfiles.loaded_value`: `dotenv.config()`, `ConfigModule.forRoot()`, run
        from the folder of the loader's nearest `package.json`, holding `path`): the value,
        marked with the file; `Unknown` where loads disagree or a file out of sight may set
        it; None where no load applies or none sets it. A pre-filtering scan parses the files
        that spell a loader (`words`) before it trusts the answer."""
        self.words |= {"dotenv", "ConfigModule"}
        if self.env_loads is None:
            self.env_loads = []
            for file in sorted(self.modules, key=lambda p: p.encode()):
                for load in self.modules[file].env_loads:
                    load = self._env_load_followed(file, load)
                    self.env_loads.append((file, self._process_folder(file), load))
        results: list[tuple[str, str, str, int] | Unknown] = []
        for loader, cwd, load in self.env_loads:
            if not holds(cwd, path):
                continue
            found = loaded_value(load, loader, cwd, name, self.files, self._env_bindings)
            if found is None:
                continue
            entry = found if isinstance(found, Unknown) else (*found, loader, load.line)
            if entry not in results:
                results.append(entry)
        if not results:
            return None
        first = results[0]
        if len(results) > 1 or isinstance(first, Unknown):
            return Unknown()
        value, file, loader, line = first
        return _Str(value, (f"process.env.{name} as {file} sets it, loaded at {loader}:{line}",))

    def _env_load_followed(self, loader: str, load: EnvLoad) -> EnvLoad:
        """`load` with each entry that is a name imported from another module (a workspace
        package's too: `js_modules`) replaced by the path that module exports
        (`ModuleFacts.env_paths`, re-exports followed): the repository's path when it holds
        one, the paths it may hold as entries none of which is surely loaded when several; an
        entry whose export is not read stays a computed one."""
        if not load.imports:
            return load
        files = [[entry] for entry in load.files]
        for index, ref in load.imports:
            target = self._js_file(ref.origin or loader, ref.module)
            found = self._env_path_export(target, ref.attr or "", 0) if target else None
            if found is None:
                continue
            base = ROOTED if len(found) == 1 else ROOTED_MAYBE
            files[index] = [(base if b == "file" else b, p) for b, p in found]
        return replace(load, files=tuple(e for entries in files for e in entries), imports=())

    def _env_path_export(
        self, file: str, name: str, depth: int
    ) -> tuple[tuple[str, str], ...] | None:
        """The paths `file` exports as `name` (`env_paths`; a path relative to the file made
        the repository's), following `export { name } from` and `export *`."""
        facts = self._facts(file)
        for exported, paths in facts.env_paths:
            if exported == name:
                folder = posixpath.dirname(file)
                return tuple(
                    (b, posixpath.normpath(posixpath.join(folder, p)) if b == "file" else p)
                    for b, p in paths
                )
        if depth >= _MAX_REEXPORTS:
            return None
        exported_ref = facts.exports.get(name)
        refs = [exported_ref] if isinstance(exported_ref, ImportRef) else []
        refs += [ImportRef(s.module, name, s.origin) for s in facts.star_exports]
        for ref in refs:
            target = self._js_file(ref.origin or file, ref.module)
            found = self._env_path_export(target, ref.attr or name, depth + 1) if target else None
            if found is not None:
                return found
        return None

    def _env_bindings(self, file: str) -> dict[str, Expr]:
        return self._facts(file).bindings

    def _process_folder(self, loader: str) -> str:
        """The working folder of the process a loader runs in: the folder of its nearest
        `package.json` (where `npm start` runs it), else the repository's root."""
        folder = posixpath.dirname(loader)
        while folder:
            if posixpath.join(folder, MANIFEST) in self.files:
                return folder
            folder = posixpath.dirname(folder)
        return ""

    def _decorated(self, name: str) -> _Entity | None:
        """The configuration an instance is decorated with as `name` (`@fastify/env`'s
        `fastify.config`), wherever the scan registers it; None if nowhere."""
        if self.decorations is None:
            self.decorations = {}
            for file in sorted(self.modules, key=lambda p: p.encode()):
                for key, value in self.modules[file].bindings.items():
                    if key.startswith(DECORATED):
                        self.decorations.setdefault(key[len(DECORATED) :], (file, value))
        found = self.decorations.get(name)
        return self.evaluate(*found) if found is not None else None

    def _assumed(self, path: str, expr: Expr | None) -> tuple[str, ...]:
        """The configuration defaults a path or prefix was read with (`_Str.assumed`)."""
        if expr is None or type(expr) is Lit:
            return ()
        entity = self.evaluate(path, expr)
        return entity.assumed if isinstance(entity, _Str) else ()

    def _attach_use(self, node: _Node, path: str, use: UseDecl) -> None:
        """Express `use`: a leading string is the mount path; a router among the arguments is
        mounted, guarded by the middleware before it; middleware guards what the router
        declares after this line under the mount path (all of it without one). A leading
        argument that is neither a string nor a function, before a router, is a mount path
        computed out of sight; an argument the scanned files do not show is a finding."""
        args = list(use.args)
        prefix: str | None = None
        prefix_expr: Expr | None = None
        if len(args) > 1:
            # an argument the reader could not read (`cond ? '/a' : base`) is no middleware
            first = self.evaluate(path, args[0][0]) if args[0][0] is not None else None
            if isinstance(first, _Str):
                prefix = first.value
                prefix_expr = Lit(prefix) if not first.assumed else args[0][0]
                args.pop(0)
            elif not isinstance(first, _Router | _Scoped | _External) and any(
                isinstance(v := self.evaluate(path, e), _Router)
                or (isinstance(v, _External) and library_tables.by_value(v.module, v.path))
                for e, _ in args[1:]
                if e is not None
            ):
                prefix_expr = args.pop(0)[0] or Opaque()
        guards: list[Expr] = []
        for index, (expr, auth) in enumerate(args):
            child = self.evaluate(path, expr) if expr is not None else None
            if isinstance(child, _External) and expr is not None:
                child = self._library_router(node, path, use, index, child) or child
            if isinstance(child, _Router) and expr is not None:
                mount = MountDecl(
                    use.owner, expr, prefix_expr, use.line, Auth(tuple(guards)),
                    only_if=use.only_if,
                )  # fmt: skip
                node.mounts.append((path, mount, child.key))
                continue
            if child is None:
                self._unresolved(
                    UNRESOLVED_ROUTER,
                    path,
                    use.line,
                    f"`{describe(expr)}` given to use() is neither a router nor a middleware "
                    "the scanned files show: routes it may serve are not listed",
                )
            elif isinstance(child, _OneOf) and any(isinstance(o, _Router) for o in child.options):
                self._unresolved(
                    UNRESOLVED_ROUTER,
                    path,
                    use.line,
                    f"`{describe(expr)}` given to use() is one of several values the run time "
                    "chooses, a router among them: its routes are not listed under this mount",
                )
                continue
            verdict = self._auth(path, auth)
            if verdict != NONE:
                guards += auth.guards
                node.guards.append((path, use.line, prefix or "", verdict))

    def _library_router(
        self, node: _Node, path: str, use: UseDecl, index: int, value: _External
    ) -> _Router | None:
        """A library's router a record names (`library_tables`), given to `use()` where the
        scan shows only the package's value (an adapter made in another module:
        `app.use('/queues', board.getRouter())`): a router of the record's framework made
        here, serving its table (its options out of sight; a value that mounts itself, under
        a base not known). None for any other value."""
        record = library_tables.by_value(value.module, value.path)
        if record is None or record.framework != node.decl.framework:
            return None
        key = (path, f"{use.line}:{index}:{record.key}")
        if key not in self.nodes:
            prefix = Opaque() if record.base == "own" else None
            self.nodes[key] = _Node(path, RouterDecl(key[1], record.framework, use.line, prefix))
            unknown = tuple((name, Opaque()) for name, _ in record.options)
            routes = RouteDecl(
                RouterRef(key[1]), Opaque(), None, use.line, methods_unknown=True,
                generated_by=record.key, documented=unknown,
            )  # fmt: skip
            self.nodes[key].routes.append((path, routes))
        return _Router(key)

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
        made = self._mounted_call(path, mount) if path.endswith(".py") else None
        if made is not None:
            node.mounts.append((path, mount, made.key))
            return
        child = self.evaluate(path, mount.child)
        if isinstance(child, _Router):
            node.mounts.append((path, mount, child.key))
            return
        if (
            child is None
            and isinstance(mount.child, Sym)
            and len(mount.child.path) == 2
            and self.instance_routers
        ):  # `for m in modules: r.include_router(m.router)`: perhaps any instance's
            attr = mount.child.path[1]
            self.loop_mounts.append((node, path, mount, attr))
            if any(attr in attrs for attrs in self.instance_routers.values()):
                self._unresolved(
                    UNRESOLVED_ROUTER,
                    path,
                    mount.line,
                    f"`{describe(mount.child)}` is not a router the scanned files show: the "
                    f"routes of objects' `{attr}` routers are listed under it, others it may "
                    "serve are not",
                )
                return
        if not mount.quiet and not (isinstance(child, _External) and "StaticFiles" in child.path):
            if path.endswith(".py"):
                self.unread_mounts.append((path, mount.line, describe(mount.child), node))
            self._unresolved(
                UNRESOLVED_ROUTER,
                path,
                mount.line,
                f"`{describe(mount.child)}` is not a router the scanned files show: "
                "the routes it serves are not listed",
            )

    def _mount_call(self, path: str, mount: MountDecl) -> MountDecl:
        """`mount`, or where its child is read as a call's result without its arguments
        (`app.include_router(make(kind))`, Python), with the child that call, its arguments
        read off the mounting call (as its invocation holds them)."""
        child = mount.child
        if not (
            type(child) is Sym
            and len(child.path) > 1
            and child.path[-1] == CALL
            and path.endswith(".py")
        ):
            return mount
        callee = Sym(child.path[:-1])
        function = self.evaluate(path, callee)
        if not (isinstance(function, _Scoped) and isinstance(function.value, Function)):
            return mount  # a library's call: named in a finding as it is written
        passed = [
            value
            for call in self._line_invocations(path).get(mount.line, ())
            for value in (*call.args, *(v for _, v in call.keywords))
            if isinstance(value, Apply) and value.callee == callee
        ]
        return replace(mount, child=passed[0]) if len(passed) == 1 else mount

    def _line_invocations(self, path: str) -> dict[int, list[Invocation]]:
        """The calls of `path` by the line they are written at."""
        index = self._invocations_by_line.get(path)
        if index is None:
            index = self._invocations_by_line[path] = {}
            for call in self._facts(path).invocations:
                index.setdefault(call.line, []).append(call)
        return index

    def _mounted_call(self, path: str, mount: MountDecl) -> _Router | None:
        """`app.include_router(make(kind="x"))` (Python): where `make` is a project function
        whose body makes the router it returns, the router this call makes (`_fresh_made`);
        None for any other child."""
        child = self._mount_call(path, mount).child
        if type(child) is Sym and len(child.path) > 1 and child.path[-1] == CALL:
            child = Apply(Sym(child.path[:-1]), ())
        elif not isinstance(child, Apply):
            return None
        made = self.evaluate(path, child)
        if not isinstance(made, _Router):
            return None
        call = Invocation(child.callee, child.args, child.keywords, mount.line)
        label = f"{path}:{mount.line}"
        if mount.via is not None:  # one per chain of calls reaching the mount
            label += f"<{mount.via[0]}:{mount.via[1]}"
        return self._fresh_made(made, path, call, (), label)

    def _owner(self, path: str, owner: Expr | None) -> _Node | None:
        entity = self.evaluate(path, owner) if owner is not None else None
        if isinstance(entity, _Instance) and entity.key in self.class_instances:
            routers = self.class_instances[entity.key][0]  # `this.get(...)` in a subclass
            return self.nodes.get(next(iter(routers.values()))) if len(routers) == 1 else None
        return self.nodes.get(entity.key) if isinstance(entity, _Router) else None

    def _owners(self, path: str, owner: Expr | None, depth: int = 0) -> list[_Node]:
        """The routers `owner` stands for: one, or for a function's parameter each router
        the scanned calls of that function pass (through other functions' parameters too);
        a parameter no call passes is read as the global name it spells."""
        if not isinstance(owner, Param):
            node = self._owner(path, owner)
            return [node] if node is not None else []
        key = (path, owner, depth)  # each asked once: functions that pass a router on to
        if key in self._owners_memo:  # many others made the walk exponential (baserow)
            return self._owners_memo[key]
        found: dict[int, _Node] = {}
        if depth <= _MAX_DEPTH:
            for file, call in self._calls_of(path, owner.function):
                if 0 <= owner.index < len(call.args):
                    passed = call.args[owner.index]
                else:
                    passed = dict(call.keywords).get(owner.name)
                for node in self._owners(file, passed, depth + 1):
                    found.setdefault(id(node), node)
        result = list(found.values()) or self._owners(path, owner.fallback)
        if not self.indexing:
            self._owners_memo[key] = result
        return result

    def _calls_of(self, path: str, site: str) -> list[tuple[str, Invocation]]:
        if (path, site) not in self._words_of:
            self._words_of[(path, site)] = None
            self._call_words(path, site)
        if self.calls is None:  # every call, by the name it spells, on the first parameter asked
            self.calls = {}
            number = 0
            for file, facts in self.modules.items():
                for spelled, call in self._spelled_calls(file, facts):
                    self.pending.setdefault(spelled, []).append((number, file, call))
                    number += 1
        self._index_calls()
        return [(file, call) for _, file, call in self.calls.get((path, site), [])]

    def _spelled_calls(self, file: str, facts: ModuleFacts) -> list[tuple[str | None, Invocation]]:
        """The file's calls, each with the name it spells (`_imported_name`), once per key of a
        table a loop around it iterates (`_unkeyed_call`); kept in `memo` unless one is such a
        call (its keys are looked up)."""
        known = self.memo.spelled(file, facts)
        if known is not None:
            return known
        calls: list[tuple[str | None, Invocation]] = []
        looked_up = False
        for written in facts.invocations:
            spelled = self._imported_name(file, facts, written.callee)
            if any(a is not None and _keyed_in(a) for a in written.args):
                looked_up = True
                calls += ((spelled, call) for call in self._unkeyed_call(file, written))
            else:
                calls.append((spelled, written))
        if not looked_up:
            self.memo.keep(file, facts, calls)
        return calls

    @staticmethod
    def _imported_name(file: str, facts: ModuleFacts, callee: Expr) -> str | None:
        """The name a Python call of an imported name spells (`SignupForm` of
        `SignupForm(request.POST)` or `forms.SignupForm(...)`, the head bound by an import):
        such a call reaches a function only under one of the names `_call_words` gives it (its
        own, or one a parsed file binds it to). None for any other call (a local, a parameter,
        a loop's name, `make()(app)`, a hook call, JavaScript), which is always looked at;
        a JavaScript `new X(...)` waits under `_NEW_SITES` + X until X's constructor is asked."""
        if (
            not file.endswith(".py")
            and isinstance(callee, Sym)
            and callee.path[-1:] == (_CONSTRUCTOR,)
        ):
            return _NEW_SITES + callee.path[0]  # `new X(...)`: once X's constructor is asked
        if not file.endswith(".py") or not isinstance(callee, Sym) or _hook_call(callee):
            return None
        if len(callee.path) < 1 or callee.path[-1] == CALL or CALL in callee.path:
            return None
        return (
            callee.path[-1] if isinstance(facts.bindings.get(callee.path[0]), ImportRef) else None
        )

    def _index_calls(self) -> None:
        """Index by the function they reach the calls not yet indexed whose imported name is
        one of `words`, and every call with none (`_imported_name`). Only those can reach a
        function asked about, and evaluating every callee would parse the module of every class
        a view instantiates (`SignupForm(request.POST)`) for nothing; kept in program order."""
        assert self.calls is not None
        words = len(self.words)
        if self.indexed_words == words:  # every call left pending spells none of `words`
            return
        grown: set[tuple[str, str]] = set()
        outer, self.indexing = self.indexing, True
        try:
            for name in [n for n in self.pending if n is None or n in self.words]:
                for number, file, call in self.pending.pop(name, ()):
                    callee = self.evaluate(file, call.callee)
                    if _hook_call(call.callee) and not isinstance(callee, _Scoped):
                        # pluggy's `pm.hook.name(app=app)` calls every `def name(...)`
                        for implementation in self._hook_implementations(call.callee):
                            self.calls.setdefault(implementation, []).append((number, file, call))
                            grown.add(implementation)
                        continue
                    if isinstance(callee, _Scoped) and isinstance(callee.value, Function):
                        key = (callee.file, callee.value.site)
                        if callee.value.method and call.receiver is not None:
                            call = replace(call, args=(call.receiver, *call.args))
                        self.calls.setdefault(key, []).append((number, file, call))
                        grown.add(key)
        finally:
            self.indexing = outer
        for key in grown:
            self.calls[key].sort(key=lambda entry: entry[0])
        self.indexed_words = words  # as many as at the start: one added since is indexed next

    def _hook_implementations(self, callee: Expr) -> list[tuple[str, str]]:
        """The module-level functions a plugin manager's hook call reaches: every one named
        as the hook (pluggy dispatches `pm.hook.name(...)` to each registered `name`)."""
        assert isinstance(callee, Sym)
        name = callee.path[-1]
        return [
            (path, value.site)
            for path, facts in self.modules.items()
            if isinstance(value := facts.bindings.get(name), Function) and value.name == name
        ]

    def _call_words(self, path: str, site: str) -> None:
        """Add to `words` the names a call of the function defined at `site` in `path` may
        spell: its own, and every name a parsed file binds it to by import (`from x import
        register as reg`, `export { register as reg }`), until no new one appears. A call
        elsewhere must name one of them (or a module holding it, which names it in an import)."""
        names = {
            name
            for name, value in self._facts(path).bindings.items()
            if isinstance(value, Function) and value.site == site
        }
        names |= {
            value.name
            for value in self._facts(path).bindings.values()
            if isinstance(value, Function) and value.site == site
        }
        names |= {  # `exports.start = function (...)`: called as `Module.start(...)` (a
            # default export is called by the names its importers give it: `importing`)
            name
            for name, value in self._facts(path).exports.items()
            if isinstance(value, Function) and value.site == site and name != "default"
        }
        names |= {  # a method: called as `instance.name(...)`
            name
            for value in self._facts(path).bindings.values()
            if isinstance(value, Namespace)
            for name, field_value in value.fields
            if isinstance(field_value, Function) and field_value.site == site
        }
        made = {  # a constructor: called as `new Name(...)`, of a class or a function
            name
            for name, value in self._facts(path).bindings.items()
            if (isinstance(value, Function) and value.site == site and name[:1].isupper())
            or (
                isinstance(value, Namespace)
                and any(
                    key == _CONSTRUCTOR and isinstance(v, Function) and v.site == site
                    for key, v in value.fields
                )
            )
        }
        names.discard(_CONSTRUCTOR)  # no `new` spells it: every class's file would
        if made and not path.endswith(".py"):
            # `new` of it spells its name, or an import of its file (`require('./gw')`), which
            # `_importers_of` follows to the name bound there: no aliases of aliases
            stem = posixpath.splitext(posixpath.basename(path))[0]
            if stem == "index":
                stem = posixpath.basename(posixpath.dirname(path))
            self.words |= (made | {stem}) - {""}
            self.words |= {_NEW_SITES + name for name in made | self._importers_of(path, made)}
            return
        importing = self._importing()
        while True:
            more = {name for last in names for name in importing.get(last, ())} - names
            if not more:
                break
            names |= more
        # an anonymous function's own name is empty: no call spells it (and every file holds it)
        self.words |= names - {""}

    def _importers_of(self, path: str, made: set[str]) -> set[str]:
        """The names the modules read so far bind to `path`'s default export or to one of
        `made` exported from it: what a `new` of that class spells elsewhere."""
        names: set[str] = set()
        for file, facts in self.modules.items():
            if file.endswith(".py"):
                continue
            for name, value in facts.bindings.items():
                if (
                    isinstance(value, ImportRef)
                    and (value.attr == "default" or value.attr in made)
                    and self._js_file(value.origin or file, value.module) == path
                ):
                    names.add(name)
        return names

    def _importing(self) -> dict[str, set[str]]:
        """Last segment of an imported or aliased name -> the names bound to it, over every
        module read so far: built once per set of modules, not once per function asked."""
        if self._importing_for != len(self.modules):
            index: dict[str, set[str]] = {}
            for facts in self.modules.values():
                for table in (facts.bindings, facts.exports):
                    for name, value in table.items():
                        if isinstance(value, ImportRef | Sym) and (last := _last(value)):
                            index.setdefault(last, set()).add(name)
            self._importing_index, self._importing_for = index, len(self.modules)
        return self._importing_index

    def _own_prefix(self, key: tuple[str, str]) -> tuple[str, Gap | None]:
        """A router's own prefix: one made from a parameter of a function some call reaches
        is what every chain of calls binds it to (`_agreed`), never the value read as if
        nothing passed it (`given.prefix || ''` in a plugin registered with `{ prefix }` is
        that prefix, not the default); any other, as written."""
        node = self.nodes[key]
        if node.decl.prefix is None:
            return "", None
        site = _param_site(node.decl.prefix)
        if site is not None and self._chains(node.file, site):
            value = self._agreed(node.file, node.decl.prefix)
        else:
            value = self._string(node.file, node.decl.prefix)
        if value is not None:
            return value, None
        detail = (
            f"the prefix `{describe(node.decl.prefix)}` of this router is computed out of sight"
        )
        return "", (node.file, node.decl.line, detail)

    def _agreed(self, path: str, prefix: Expr) -> str | None:
        """A router's prefix made from a parameter of the function it is created in (the
        options a plugin loader is given: `options.prefix`), when every chain of calls that
        reaches that function passes one value for it; None otherwise."""
        site = _param_site(prefix)
        if site is None:
            return None
        values = {
            self._string(path, self._through(prefix, path, site, chain))
            for chain in self._chains(path, site)
        }
        return values.pop() if len(values) == 1 else None

    def _walk(
        self,
        found: list[FoundRoute],
        key: tuple[str, str],
        base: str,
        inherited_auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[tuple[str, str], ...],
        assumed: tuple[str, ...] = (),
    ) -> None:
        """Append to `found` the routes of the router `key` and of all it mounts (appending,
        not yielding: a generator per level would pass every route through each frame);
        `assumed`: the configuration defaults `base` was read with."""
        node = self.nodes[key]
        auth = max(inherited_auth, self._auth(node.file, node.decl.auth))
        self.budget -= len(node.routes)
        for path, route in node.routes:
            for one in self._overridden(node, path, route):
                self._found(found, node, path, one, base, auth, gaps, assumed)
        for path, mount, child in node.mounts:
            if child in stack or len(stack) > _MAX_DEPTH:
                self._unresolved(
                    UNRESOLVED_ROUTE, path, mount.line, _CYCLE if child in stack else _DEEP_MOUNTS
                )
                continue
            self.budget -= 1
            if self.budget < 0:
                self.cut[(path, mount.line)] = None
                continue
            prefix: str | None = None
            child_gaps = gaps
            if mount.only_if is not None:
                if off := self._off_by_default(path, mount.only_if, "router is mounted"):
                    self._unresolved(UNRESOLVED_ROUTE, path, mount.line, off)
                    continue
                if unsure := self._undecided(path, mount.line, mount.only_if):
                    child_gaps += (unsure,)
            if mount.assumed:
                child_gaps += ((path, mount.line, mount.assumed),)
            if mount.prefix is not None:
                prefix = self._string(path, mount.prefix)
                if (
                    prefix is not None
                    and has_regex(prefix)
                    and BY_KEY[node.decl.framework].regex_paths != "any"
                ):
                    record = BY_KEY[node.decl.framework]
                    written = ", ".join(f"`{r}`" for r in regex_literals(prefix))
                    detail = (
                        f"the prefix of this mount is a regular expression ({written}), which "
                        f"{'koa-router' if record.regex_paths == 'unprefixed' else record.name} "
                        "does not take as a mount path"
                    )
                    prefix = None
                    child_gaps += ((path, mount.line, detail),)
                elif prefix is None:
                    detail = (
                        f"the prefix `{describe(mount.prefix)}` of this mount is computed "
                        "out of sight"
                    )
                    child_gaps += ((path, mount.line, detail),)
                    if mount.via is not None:  # also where the user's call is written
                        self.gap_places.setdefault((path, mount.line, detail), {})[mount.via] = None
            if prefix is not None and len(base) + len(prefix) > _MAX_PREFIX:
                # each route below would carry it: a 600 KB literal over 3,000 routes, OOM
                detail = f"the prefix of this mount is longer than {_MAX_PREFIX} characters"
                prefix = None
                child_gaps += ((path, mount.line, detail),)
            own, own_gap = self._own_prefix(child)
            if mount.replaces_prefix and prefix is not None:
                child_base, own_gap = join_prefix(base, prefix), None
            else:
                child_base = join_prefix(join_prefix(base, prefix or ""), own)
            if own_gap is not None:
                child_gaps += (own_gap,)
            child_auth = max(
                auth,
                self._auth(path, mount.auth),
                _guarded_at(node, path, mount.line, prefix or ""),
            )
            child_node = self.nodes[child]
            child_assumed = _merged(
                assumed,
                self._assumed(path, mount.prefix),
                self._assumed(child_node.file, child_node.decl.prefix),
            )
            self._walk(
                found, child, child_base, child_auth, child_gaps, (*stack, child), child_assumed
            )

    def _overridden(self, node: _Node, path: str, route: RouteDecl) -> list[RouteDecl]:
        """`route` once per path its router's class hands the framework's method (a subclass
        overriding `api_route`, `add_api_route`, `route` or `add_url_rule`, which every route
        of that registration passes through: `py_overrides`); a path computed out of sight
        is left to `_found`. An override not evaluated is an `UNRESOLVED_ROUTE` at the route,
        which is listed at its path as written (the override may only wrap the call)."""
        names = py_overrides.chain(node.decl.framework, route.registered_with)
        found = self.router_classes.get((node.file, node.decl.router_id)) if names else None
        if found is None:
            return [route]
        texts = [t for name in names if (t := self._override(found[0], found[1], name))]
        written = self._string(path, route.path) if texts else None
        if written is None:
            return [route]
        paths = [written]
        for text in texts:  # the outer method's override first, then the one it reaches
            each = [py_overrides.rewritten(text, p) for p in paths]
            if any(e is None for e in each):
                detail = (
                    f"the router's class overrides the method its routes are registered "
                    f"through, in a way the scan does not evaluate: route `{written}` is "
                    f"listed at its path as written, which the override may change"
                )
                self._unresolved(UNRESOLVED_ROUTE, path, route.line, detail)
                return [route]
            paths = [p for e in each if e is not None for p in e]
        return [replace(route, path=Lit(p)) for p in dict.fromkeys(paths)]

    def _override(self, file: str, made: Expr, name: str) -> str | None:
        """The text of the nearest definition of `name` along the bases of the class `made`
        calls (`Cls()`), or None when the project's classes define none."""
        assert isinstance(made, Sym)
        entity = self._settled(self.evaluate(file, Sym(made.path[:-1])))
        for _ in range(_MAX_DEPTH):
            if not (isinstance(entity, _Scoped) and isinstance(entity.value, Namespace)):
                return None
            own = dict(entity.value.overrides).get(name)
            if own is not None:
                return own
            bases = entity.value.bases
            if not bases:
                return None
            entity = self._settled(self.evaluate(entity.file, bases[0]))
        return None

    def _found(
        self,
        found: list[FoundRoute],
        node: _Node,
        path: str,
        route: RouteDecl,
        base: str,
        auth: int,
        gaps: tuple[Gap, ...],
        assumed: tuple[str, ...] = (),
    ) -> None:
        if route.only_if is not None and (off := self._off_by_default(path, route.only_if)):
            self._unresolved(UNRESOLVED_ROUTE, path, route.line, off)
            return
        if route.only_if is not None and (
            unsure := self._undecided(path, route.line, route.only_if)
        ):
            gaps += (unsure,)
        if route.documented is not None and route.generated_by in OPTION_ROUTES:
            self._library_routes(found, node, path, route, base, auth, gaps, assumed)
            return
        declared = self._string(path, route.path)
        methods = route.methods
        methods_unknown = route.methods_unknown
        if methods_unknown and node.decl.framework == NEXTJS:  # `export * from './handlers'`
            starred = self._star_methods(path)
            if starred is not None and not starred:
                return  # the files it re-exports hold no handler: no route, as Next serves
            if starred is not None:
                methods, methods_unknown = starred, False
        if route.method_exprs:
            verbs: list[str] = []
            aliases = _VERB_ALIASES.get(node.decl.framework, {})
            for expr in route.method_exprs:
                some = self._strings(path, expr)  # koa-router's `del` is its record's DELETE
                some = [aliases.get(v.lower(), v) for v in some] if some is not None else None
                if some is None or any(v.lower() not in _VERBS for v in some):
                    methods_unknown = True
                    break
                for verb in some:  # `all` is every method it routes
                    verbs += (EVERY,) if verb.lower() == "all" else (verb.upper(),)
            else:
                methods = tuple(verbs)
        endpoint = self.evaluate(path, route.endpoint) if route.endpoint is not None else None
        class_verbs: dict[str, tuple[str, Auth]] = {}
        flask_default = not methods and not methods_unknown and node.decl.framework == FLASK
        if isinstance(endpoint, _Scoped) and isinstance(endpoint.value, Namespace):
            class_verbs = self._class_verbs(endpoint, 0)
            if flask_default:
                listed = self._view_methods(endpoint, class_verbs)  # `View.methods`
                methods, methods_unknown = listed or methods, listed is None
        library_view = (
            flask_default
            and isinstance(endpoint, _External)
            and (route.class_view or endpoint.path[-2:] == (_AS_VIEW, CALL))
        )  # `GraphQLView.as_view(...)`: a library's class, whose methods the scan cannot read
        methods_unknown = methods_unknown or library_view
        if declared is None or methods_unknown:
            handler = f" (handler `{route.handler}`)" if route.handler else ""
            if route.generated_by.startswith(js_dirload.UNREAD):
                detail = route.generated_by.removeprefix(js_dirload.UNREAD)
            elif route.generated_by:
                detail = (
                    f"`{route.generated_by}` serves routes of its own, made at runtime from "
                    "its options: they are not listed"
                )
            elif route.table:
                detail = f"the route table `{describe(route.path)}` given here is computed"
            elif library_view and isinstance(endpoint, _External):
                view = ".".join(p for p in endpoint.path if p not in {_AS_VIEW, CALL})
                detail = (
                    f"the methods of the route `{declared}` are those of `{view}`, a view class "
                    f"of `{endpoint.module}`: they are computed"
                )
            elif declared is None:
                detail = f"the path `{describe(route.path)}` of this route{handler} is computed"
            else:
                detail = f"the methods of the route `{declared}`{handler} are computed"
            if route.table:
                detail += " out of sight: its routes are not listed"
            elif not route.generated_by:
                detail += " out of sight: it is not listed"
            at = (path, route.line)
            if route.called_at and route.generated_by.startswith(js_dirload.UNREAD):
                at = route.called_at  # a table's item not read: where the item is written
            self._unresolved(UNRESOLVED_ROUTE, *at, detail)
            places = self.unresolved[(UNRESOLVED_ROUTE, *at, detail)]
            if route.via is not None:  # where the user's call is written
                places.append({"path": route.via[0], "line": route.via[1]})
            if declared is None:  # a file-system router's: the files its globs would load
                places += ({"path": f, "line": 1} for f in self._loaded_files(path))
            return
        if (has_regex(declared) or has_regex(base)) and (
            off := _regex_not_routed(node.decl.framework, declared, base)
        ):
            self._unresolved(UNRESOLVED_ROUTE, path, route.line, off)
            return
        if _concatenated(node.decl) and not declared.startswith("/") and declared and base:
            local = base + declared  # koa-router's layer, restful's `ns_urls`: as written
        else:
            local = join(base, declared)
        if not self.spend_text(path, route.line, local):
            return
        framework = node.decl.framework
        if route.unread_segment:
            gaps = (*gaps, (path, route.line, route.unread_segment))
        versions = [""]
        if framework == NESTJS:  # `/v1` after the global prefix (`nest_link`)
            versions, version_gap, version_assumed = self.nest.segments(path, route)
            assumed = _merged(assumed, version_assumed)
            if version_gap is not None:
                gaps = (*gaps, version_gap)
        served: list[tuple[str, str]] = []  # (path, shape) for each version
        for version in versions:
            full, full_gaps = local, gaps
            if framework in self.global_frameworks:
                full, full_gaps = self._global(framework, local, gaps, version, path)
                if full != (join_prefix(version, local) if version else local):  # under it
                    assumed = _merged(assumed, self._global_assumed(framework, path))
            elif version:
                full = join_prefix(version, local)
            gaps = full_gaps
            if framework in _JS_KEYS and not full.startswith("/"):
                full = "/" + full  # `app.get('*')`: Express 4 serves it for every path, `/*`
            shaped = _SHAPE.get(framework)
            shape = shaped(full) if shaped is not None else ""
            full = _NORMALISE[framework](full) if framework in _NORMALISE else brace_path(full)
            served.append((full, shape))
        regex = "; ".join(regex_literals(local)) if has_regex(local) else ""
        route_auth = max(
            auth, self._auth(path, route.auth), _guarded_at(node, path, route.line, declared)
        )
        verb_auth: dict[str, int] = {}
        if isinstance(endpoint, _Scoped):
            if isinstance(endpoint.value, Namespace):
                value = endpoint.value
                methods = methods or tuple(class_verbs) or None
                route_auth = max(route_auth, self._auth(endpoint.file, value.auth))
                for verb, (file, own) in class_verbs.items():
                    verb_auth[verb] = self._auth(file, own)
            elif isinstance(endpoint.value, Function):
                route_auth = max(route_auth, self._auth(endpoint.file, endpoint.value.auth))
        if methods and EVERY in methods and BY_KEY[framework].every_method != EVERY:
            every = self._every_methods(path, route.called_at or (path, route.line), framework)
            methods = tuple(
                dict.fromkeys(m for v in methods for m in (every if v == EVERY else (v,)))
            )
        if (
            methods
            and "GET" in methods
            and "HEAD" in methods
            and (framework in _HEAD_WITH_GET or self._head_with_get(path, framework))
        ):
            methods = tuple(m for m in methods if m != "HEAD")  # the HEAD it serves anyway
        file, line = route.called_at or (path, route.line)
        assumed = _merged(assumed, self._assumed(path, route.path))
        for full, shape in served:
            full = regex_named(full) if regex else full
            for method in dict.fromkeys(methods or ("GET",)):
                verdict = max(route_auth, verb_auth.get(method, NONE))
                found.append(
                    FoundRoute(
                        method, full, file, line, framework, route.handler, verdict, gaps, shape,
                        assumed, route.library, regex,
                    )
                )  # fmt: skip

    def _library_routes(
        self,
        found: list[FoundRoute],
        node: _Node,
        path: str,
        route: RouteDecl,
        base: str,
        auth: int,
        gaps: tuple[Gap, ...],
        assumed: tuple[str, ...],
    ) -> None:
        """The routes a documentation plugin serves (`option_routes`), or a library's fixed
        table (`library_tables`), from its options as the register call gives them and the
        versions the `package.json` nearest `path` declares: each listed at the call with
        `attrs.library`, as a route written there would be; what an option out of sight, the
        versions, or versions outside those the record was read from leave open, a finding
        there."""
        record = OPTION_ROUTES[route.generated_by]
        options: dict[str, str | bool | None] = {}
        for name, value in route.documented or ():
            options[name] = value if isinstance(value, bool) else self._string(path, value)
        for package in record.declared:  # `@nestjs/platform-fastify`: the app's adapter
            options[f"declares {package}"] = self._declared_range(path, package) is not None
        admits = self._declared_range(path, record.library)
        admitted, outside = option_routes.unread(record, admits)
        listed, left = option_routes.served(record, options, admitted)
        left = "; ".join(reason for reason in (outside, left) if reason)
        for method, served in listed:
            one = replace(
                route, path=Lit(served), methods=(method,), methods_unknown=False,
                generated_by="", documented=None, library=record.library, from_options=True,
            )  # fmt: skip
            self._found(found, node, path, one, base, auth, gaps, assumed)
        if left:
            detail = f"`{record.library}` is configured here: {left}: those routes are not listed"
            self._unresolved(UNRESOLVED_ROUTE, *(route.called_at or (path, route.line)), detail)

    def _every_methods(self, path: str, place: tuple[str, int], framework: str) -> tuple[str, ...]:
        """The methods an `all` route of `path` registers: those of the framework's record
        (`every_methods`) every version the repository may install registers; the methods
        only some of them do, a finding where the call is written (`place`), not listed."""
        record = BY_KEY[framework]
        if not record.every_methods:
            return _ALL
        starts = tuple(start for start, _ in record.every_methods)
        package = record.app_modules[0]
        admitted = option_routes.admitted(starts, self._declared_range(path, package))
        sets = [record.every_methods[i][1] for i in admitted]
        common = tuple(m for m in sets[0] if all(m in s for s in sets[1:]))
        some = sorted({m for s in sets for m in s} - set(common))
        if some:
            versions = " and ".join(option_routes.era_label(starts, i) for i in admitted)
            detail = (
                f"{record.name}'s `all` registers {', '.join(some)} too in some of the "
                f"versions of `{package}` the repository may install ({versions}): those "
                "methods are not listed"
            )
            self._unresolved(UNRESOLVED_ROUTE, *place, detail)
        return common

    def _head_with_get(self, path: str, framework: str) -> bool:
        """Whether every version of the framework the repository may install serves a HEAD
        beside each GET by itself (`Framework.head_with_get_from`)."""
        record = BY_KEY[framework]
        if record.head_with_get_from is None:
            return False
        admits = self._declared_range(path, record.app_modules[0])
        return not option_routes.admits_before(admits, record.head_with_get_from)

    def _declared_range(self, path: str, package: str) -> Range | None:
        """The range of `package` the `package.json` nearest `path` declares (up to the
        repository's root, as npm and workspaces install it), narrowed to the versions the
        nearest lock file at or above it pins (`package-lock.json`, `yarn.lock`, …: what an
        install takes) where they agree; None when no manifest declares it."""
        found = self._declaring(path, package)
        return None if found is None else found[1]

    def _declaring(self, path: str, package: str) -> tuple[str, Range] | None:
        """`_declared_range` and the manifest that declares it."""
        folder = posixpath.dirname(path)
        while True:
            manifest = f"{folder}/{MANIFEST}" if folder else MANIFEST
            if manifest in self.files:
                spec = declared_range(self._facts(manifest), package)
                if spec is not None:
                    declared = semver(spec)
                    pinned = self._pinned(folder, package)
                    narrowed = declared if pinned is None else declared.intersect(pinned)
                    return manifest, declared if narrowed.is_empty() else narrowed
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def _pinned(self, folder: str, package: str) -> Range | None:
        """The versions of `package` the nearest lock file at or above `folder` pins (one
        folder's locks together: a repository may keep npm's and yarn's); None: none does."""
        while True:
            pinned: Range | None = None
            for name in LOCKS:
                lock = f"{folder}/{name}" if folder else name
                if lock in self.files:
                    spec = declared_range(self._facts(lock), package)
                    if spec is not None:
                        pins = semver(spec)
                        pinned = pins if pinned is None else pinned.union(pins)
            if pinned is not None or not folder:
                return pinned
            folder = posixpath.dirname(folder)

    def _holds(
        self, path: str, condition: Condition, configured: bool = True
    ) -> tuple[bool | None, tuple[str, ...]]:
        """Whether `condition` holds under the configuration's defaults (None: not known) and
        the defaults it was read with: true where it holds under one of them (`NODE_ENV` unset,
        or `production`), read in each such world whole, so `!isProd && x` and its `else` are
        each run in one. A test reading no configuration is not known (unless not
        `configured`: then a value the scanned files fix decides too)."""
        worlds = self._worlds(path, condition, configured)
        if worlds is None:
            return None, ()
        run = [a for holds, a in worlds.values() if holds]
        if not run and any(holds is None for holds, _ in worlds.values()):
            return None, ()
        deciding = run[:1] if run else [a for _, a in worlds.values()]
        return bool(run), tuple(dict.fromkeys(x for a in deciding for x in a))

    def _worlds(
        self, path: str, condition: Condition, configured: bool
    ) -> dict[str, tuple[bool | None, tuple[str, ...]]] | None:
        """Whether `condition` holds in each world of the defaults its readings name (a
        `NODE_ENV_DEFAULTS` default, or "" for a reading that names none, which holds in every
        world), with the defaults read; None when not known in any. `a && b` is false when one
        side is false though the other is not known, `a || b` true when one side is true, as
        JavaScript evaluates them, world by world."""
        if condition.op:
            sides = [self._worlds(path, part, configured) for part in condition.parts]
            named = {w for side in sides if side is not None for w in side if w}
            decisive = condition.op != "&&"  # the value that settles the whole (`||`: true)
            combined: dict[str, tuple[bool | None, tuple[str, ...]]] = {}
            for world in sorted(named) or [""]:
                known = [_in_world(side, world) for side in sides]
                settled = [a for h, a in known if h == decisive]
                if settled:
                    combined[world] = (decisive != condition.negate, settled[0])
                elif all(h is not None for h, _ in known):
                    assumed = tuple(dict.fromkeys(x for _, a in known for x in a))
                    combined[world] = ((not decisive) != condition.negate, assumed)
                else:
                    combined[world] = (None, ())
            return combined if any(h is not None for h, _ in combined.values()) else None
        other: str | None = None
        if condition.equals is not None:
            other = self._string(path, condition.equals)
            if other is None:
                return None
        readings = self._readings(path, condition.test)
        if readings is None or any(configured and not a for _, a in readings):
            return None
        worlds: dict[str, tuple[bool | None, tuple[str, ...]]] = {}
        for value, assumed in readings:  # several in one world: true where one of them is
            holds = ((value == other) if condition.equals is not None else bool(value)) != (
                condition.negate
            )
            world = next((a for a in assumed if a in _NODE_ENV_WORLDS), "")
            if world not in worlds or (holds and not worlds[world][0]):
                worlds[world] = (holds, assumed)
        return worlds

    def _readings(
        self, path: str, expr: Expr
    ) -> list[tuple[str | int | float | None, tuple[str, ...]]] | None:
        """The strings `expr` is under the configuration's defaults, each with the defaults it
        was read with: one, or one per default a value has several of (`process.env.NODE_ENV`
        unset or `production`: `js_facts._NODE_ENV_DEFAULTS`); None when not known."""
        if type(expr) is Lit:
            return [(expr.value, ())]
        entity = self.evaluate(path, expr)
        if isinstance(entity, _Str | _Number):  # a number or None: as Python tests it
            return [(entity.value, entity.assumed)]
        if (
            isinstance(entity, _OneOf)
            and entity.options
            and all(isinstance(o, _Str) and o.assumed for o in entity.options)
        ):
            return [(o.value, o.assumed) for o in entity.options if isinstance(o, _Str)]
        return None

    def _decided(self, path: str, condition: Condition) -> tuple[bool, tuple[str, ...]] | None:
        """Whether the configuration's defaults run the branch `condition` guards, with the
        defaults that decide it; None when its test is not known or reads no configuration."""
        holds, assumed = self._holds(path, condition)
        return None if holds is None or not assumed else (holds, assumed)

    def _off_by_default(
        self, path: str, condition: Condition, what: str = "route is registered"
    ) -> str:
        """Why a route or router written under an `if` (Python: anywhere, a def's own too;
        JavaScript: module-level) is not served, when its test reads the configuration (a
        value with a default, `attrs.configDefault`'s sources) and the defaults make it false;
        "" when it holds, or when the test is not known or reads no configuration (the route
        is listed: `_undecided`)."""
        decided = self._decided(path, condition)
        if decided is None or decided[0]:
            return ""
        assumed = decided[1]
        branch = "`else` branch" if condition.in_else else "body"
        test = f"if {condition.text}:" if path.endswith(".py") else f"if ({condition.text})"
        listed = "its routes are" if what.startswith("router") else "it is"
        if condition.returned:
            return (
                f"this {what} after `{test} return`, which returns early under the "
                f"configuration's defaults ({'; '.join(assumed)}): {listed} not listed"
            )
        return (
            f"this {what} in the {branch} of `{test}`, which the configuration's defaults "
            f"({'; '.join(assumed)}) do not run: {listed} not listed"
        )

    def _undecided(self, path: str, line: int, condition: Condition) -> Gap | None:
        """A Python registration under an `if` that neither the configuration's defaults nor
        the scanned files decide (an object made at run time, a parameter): listed as if it
        ran, flagged where it is written (`UNRESOLVED_PREFIX`, `attrs.prefixUnresolved`),
        never included in silence. None where the test is decided (or the file is not
        Python: JavaScript's undecided tests are listed as before, but for an early `if (test)
        return` before the registration, which a reader of the function easily misses)."""
        python = path.endswith(".py")
        if not (python or condition.returned) or self._holds(path, condition, False)[0] is not None:
            return None
        if not python:
            return (
                path,
                line,
                f"{UNDECIDED_RETURN}{condition.text}) return`, which the pack cannot decide "
                "(nothing in the scanned files or the configuration's defaults tells it): what "
                "it registers is listed as if the function did not return",
            )
        return (
            path,
            line,
            f"{UNDECIDED_TEST}{condition.text}:`, which the pack cannot decide "
            "(nothing in the scanned files or the configuration's defaults tells it): what "
            "it registers is listed as if it ran",
        )

    def _star_methods(self, path: str) -> tuple[str, ...] | None:
        """The methods a Next.js route file's `export * from` re-exports (an App Router file
        answers each exported GET, POST...); None when a re-exported file is not scanned."""
        names: set[str] = set()
        pending = [(path, star) for star in self._facts(path).star_exports]
        seen: set[str] = set()
        while pending:
            importer, star = pending.pop()
            target = self._js_file(star.origin or importer, star.module)
            if target is None:
                return None
            if target in seen or len(seen) > _MAX_DEPTH:
                continue
            seen.add(target)
            facts = self._facts(target)
            names.update(facts.exports)
            pending += ((target, more) for more in facts.star_exports)
        return tuple(m for m in nextjs.APP_METHODS if m in names)

    def _view_methods(self, entity: _Scoped, verbs: Mapping[str, object]) -> tuple[str, ...] | None:
        """The methods Flask serves a view class at when `add_url_rule` names none (the view
        function's `methods`, the class's): its own `methods = [...]` as written; else, as
        `MethodView.__init_subclass__` collects them, those its bases list and its verb
        methods, own or inherited (`verbs`, as `_class_verbs` reads them); () for none (Flask's
        GET). None when a `methods` it reads is not a list of verbs the scan shows: a finding
        where the view is registered, not a guess."""
        listed = self._listed_methods(entity)
        if listed is not None:
            return tuple(dict.fromkeys(listed)) if listed else None
        inherited: list[str] = []
        pending, seen = [(entity, 0)], {id(entity.value)}
        while pending:  # each base path up to the nearest class listing `methods`
            current, depth = pending.pop()
            assert isinstance(current.value, Namespace)
            for base in current.value.bases if depth < _MAX_DEPTH else ():
                found = self.evaluate(current.file, base)
                if not (isinstance(found, _Scoped) and isinstance(found.value, Namespace)):
                    continue
                if id(found.value) in seen:
                    continue
                seen.add(id(found.value))
                own = self._listed_methods(found)
                if own is None:
                    pending.append((found, depth + 1))
                elif not own:
                    return None
                else:
                    inherited += own
        return tuple(dict.fromkeys([*inherited, *verbs]))

    def _listed_methods(self, entity: _Scoped) -> list[str] | None:
        """A class's own `methods = [...]`, upper-cased; None when it has none, [] when it is
        not a list of verbs the scan shows."""
        assert isinstance(entity.value, Namespace)
        listed = dict(entity.value.fields).get("methods")
        if listed is None:
            return None
        named = self._strings(entity.file, listed)
        if not named or any(v.lower() not in HTTP_METHODS for v in named):
            return []
        return [v.upper() for v in named]

    def _class_verbs(
        self, entity: _Scoped, depth: int, seen: set[int] | None = None
    ) -> dict[str, tuple[str, Auth]]:
        """The methods a class-based view serves (`MethodView`, flask-restful's `Resource`):
        its own verb methods and those it inherits from the project's base classes, as the
        framework collects them, each with the file and auth of the class defining it. A
        base already read (`seen`) adds nothing new: bases sharing bases (`class D(L, R)`,
        forty levels in 2.5 KB) were read once per path to each, 2^40 reads."""
        value = entity.value
        assert isinstance(value, Namespace)
        seen = set() if seen is None else seen
        seen.add(id(value))
        served = {
            verb: (entity.file, own)
            for verb, own in zip(value.verbs, value.verb_auth, strict=False)
        }
        if depth < _MAX_DEPTH:
            for base in value.bases:
                found = self.evaluate(entity.file, base)
                if (
                    isinstance(found, _Scoped)
                    and isinstance(found.value, Namespace)
                    and id(found.value) not in seen
                ):
                    for verb, where in self._class_verbs(found, depth + 1, seen).items():
                        served.setdefault(verb, where)
        return served

    def _global(
        self, framework: str, full: str, gaps: tuple[Gap, ...], version: str = "", file: str = ""
    ) -> tuple[str, tuple[Gap, ...]]:
        """`full` under the global prefix of `framework` (NestJS's `setGlobalPrefix`) unless
        its exclude list names it, and its `version` segment (`/v1`) between the two, as Nest
        serves it; one that is computed, or two that differ, or an exclude list not read, is a
        gap (the route is listed without the prefix, or under it)."""
        declared = self._declared_prefixes(framework, file)
        if not declared:  # none serves this file's routes (another Next.js project's)
            return join_prefix(version, full) if version else full, gaps
        key = (framework, "|".join(f"{path}:{g.line}" for path, g in declared))
        if key not in self.globals:
            self.globals[key] = self._global_prefix(declared)
        prefix, excluded, gap = self.globals[key]
        if gap is not None and gap not in gaps:
            gaps = (*gaps, gap)
        versioned = join_prefix(version, full) if version else full
        if full.strip("/") in excluded:
            return versioned, gaps
        return join_prefix(prefix, versioned) if prefix else versioned, gaps

    def _global_assumed(self, framework: str, file: str) -> tuple[str, ...]:
        """The configuration sources the global prefix serving `file` was read from (an
        environment file's value: `attrs.configDefault`)."""
        found: tuple[str, ...] = ()
        for path, g in self._declared_prefixes(framework, file):
            found = _merged(found, self._assumed(path, g.prefix))
        return found

    def _declared_prefixes(self, framework: str, file: str) -> list[tuple[str, GlobalPrefix]]:
        """The global prefixes of `framework` that serve the routes of `file`: all, unless
        they differ, as in a repository of several apps (each `main.ts` its own); then those
        of the app whose folder (the one above its `src/`) holds `file` most closely. A Next.js
        `basePath` serves the routes of its config's project only (`nextjs.project_of`)."""
        declared = [
            (path, g)
            for path, facts in self.modules.items()
            for g in facts.global_prefixes
            if g.framework == framework
        ]
        if framework == NEXTJS:  # a config's `basePath` serves its own project's routes only
            project = nextjs.project_of(file, self.next_configs)
            return [(path, g) for path, g in declared if posixpath.dirname(path) == project]
        if len({self._string(path, g.prefix) for path, g in declared}) < 2:
            return declared
        rooted = [(app_root(path), path, g) for path, g in declared]
        owning = [(root, path, g) for root, path, g in rooted if holds(root, file)]
        if not owning:
            return declared
        closest = max(len(root) for root, _, _ in owning)
        return [(path, g) for root, path, g in owning if len(root) == closest]

    def _global_prefix(
        self, declared: list[tuple[str, GlobalPrefix]]
    ) -> tuple[str, frozenset[str], Gap | None]:
        """The one prefix `declared` set, its exclude list, and what is not known of them. One
        set under an `if` the configuration's defaults do not run is left out, said at its
        call (laudspeaker's `if (process.env.SERVE_CLIENT_FROM_NEST) app.setGlobalPrefix('api')`:
        the routes as served where it is unset)."""
        off: Gap | None = None
        kept: list[tuple[str, GlobalPrefix]] = []
        for path, g in declared:
            decided = self._decided(path, g.when) if g.when is not None else None
            if g.when is None or decided is None or decided[0]:
                kept.append((path, g))
            elif off is None:
                branch = "`else` branch" if g.when.in_else else "body"
                detail = (
                    f"the global prefix set here is in the {branch} of `if ({g.when.text})`, "
                    f"which the configuration's defaults ({'; '.join(decided[1])}) do not run: "
                    "routes are named without it"
                )
                off = (path, g.line, detail)
        declared = kept
        if not declared:
            return "", frozenset(), off
        values = {self._string(path, g.prefix) for path, g in declared}
        path, first = declared[0]
        value = next(iter(values))
        if value is None or len(values) > 1:
            detail = "the global prefix set here is computed out of sight, or set to several"
            return "", frozenset(), (path, first.line, detail)
        prefix = "/" + value.strip("/") if value.strip("/") else ""
        if first.exclude is None:
            detail = "the global prefix's exclude list here is not read: routes are named under it"
            return prefix, frozenset(), (path, first.line, detail)
        excluded = frozenset(e.strip("/") for e in first.exclude)
        if first.exclude_partly:
            detail = (
                "the global prefix's exclude list here is read in part (its strings): routes "
                "its other entries exclude are named under it"
            )
            return prefix, excluded, (path, first.line, detail)
        return prefix, excluded, None

    # -- names -----------------------------------------------------------------------------

    def _auth(self, path: str, auth: Auth) -> int:
        """The verdict on what `auth` (written in `path`) puts before a handler: `REQUIRED`
        when one of its guards is one, else `UNKNOWN` when one is not known, else `NONE`.
        An annotation counts only when it links to a dependency alias."""
        verdict = NONE
        for guard in auth.guards:
            verdict = max(verdict, self._verdict(path, guard))
            if verdict == REQUIRED:
                return verdict
        for alias in auth.aliases:
            entity = self.evaluate(path, alias)
            if isinstance(entity, _Scoped) and isinstance(entity.value, DependencyAlias):
                verdict = max(verdict, self._judged(entity))
            elif (
                entity is None
                and isinstance(alias, Sym)
                and alias.path[0] in self._facts(path).bindings
            ):  # a name of the repository's own that is not visible: it may be an alias
                verdict = max(verdict, UNKNOWN)
        return verdict

    def _hook_verdict(self, path: str, auth: Auth) -> int:
        """A `before_request` hook runs before every route: one that answers 401/403 guards
        them only if it turns away anonymous callers (`g.user is None`), or is a library guard;
        otherwise it answers so to some requests (a banned user, a bad token): `unknown`."""
        verdict = self._auth(path, auth)
        if verdict != REQUIRED:
            return verdict
        for guard in auth.guards:
            entity = self.evaluate(path, guard)
            if isinstance(entity, _External) or (
                isinstance(entity, _Scoped)
                and isinstance(entity.value, Function)
                and entity.value.checks_user
            ):
                return REQUIRED
        return UNKNOWN

    def _verdict(self, path: str, expr: Expr) -> int:
        """Whether `expr`, a dependency, decorator or middleware written in `path`, guards."""
        key = (path, expr)
        known = self.verdicts.get(key)
        if known is not None:
            return known
        if key in self.judging or len(self.judging) > _MAX_DEPTH:
            return UNKNOWN  # it depends on itself: nothing shows a guard
        self.judging.add(key)
        try:
            verdict = self._judge(path, expr)
        finally:
            self.judging.discard(key)
        self.verdicts[key] = verdict
        return verdict

    def _judge(self, path: str, expr: Expr) -> int:
        while isinstance(expr, Bound):  # a guard written in another file (a view's base)
            path, expr = expr.file, expr.expr
        if isinstance(expr, Evidence):
            return REQUIRED
        if isinstance(expr, NoGuard):
            return NONE
        if isinstance(expr, Choice):  # a guard pushed under a test: the branch it picks
            picked = self._test(path, expr)[0]
            if picked is not None:
                return self._verdict(path, expr.then if picked else expr.otherwise)
            both = {self._verdict(path, expr.then), self._verdict(path, expr.otherwise)}
            return both.pop() if len(both) == 1 else UNKNOWN
        if isinstance(expr, Call):  # a wrapper guards when what it wraps does
            wrapped = [self._verdict(path, arg) for arg in expr.args]
            callee = expr.callee
            called = Sym((*callee.path, CALL)) if isinstance(callee, Sym) else callee
            return max([self._verdict(path, called), *wrapped])
        entity = self.evaluate(path, expr)
        if (
            entity is None
            and isinstance(expr, Sym)
            and len(expr.path) > 1
            and isinstance(self._lookup(path, expr.path[0]), _Router)
        ):
            return NONE  # the router's own decorators (`@ns.doc`, `@api.expect`)
        if (
            entity is None
            and isinstance(expr, Sym)
            and len(expr.path) > 1
            and expr.path[-1] == CALL
        ):
            # a factory (`roles_required('admin')`): judged by its definition
            return self._verdict(path, Sym(expr.path[:-1]))
        if entity is None and isinstance(expr, Apply):  # `requireRole('admin')`: the same
            return self._verdict(path, expr.callee)
        return self._judged(entity)

    def _judged(self, entity: _Entity | None) -> int:
        if isinstance(entity, _Judged):
            return entity.verdict
        if isinstance(entity, _External):
            return external_verdict(entity.module, entity.path)
        if not isinstance(entity, _Scoped):
            return UNKNOWN  # not visible, or not a function (a string, a router, a module)
        value = entity.value
        if isinstance(value, Function):
            return REQUIRED if value.evidence else self._auth(entity.file, value.auth)
        if isinstance(value, DependencyAlias):
            return max((self._verdict(entity.file, d) for d in value.dependencies), default=NONE)
        if isinstance(value, Namespace):  # a callable class or an instance as a dependency
            fields = dict(value.fields)
            own = self._auth(entity.file, value.auth)
            # Python's callable or its constructor; a NestJS guard's `canActivate`
            method = fields.get("__call__") or fields.get("__init__") or fields.get("canActivate")
            return max(own, self._verdict(entity.file, method)) if method is not None else own
        return NONE  # a route list

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
        if isinstance(expr, Namespace | Function | DependencyAlias | StarletteRoutes | Items):
            return self._scoped(path, expr)
        key = (path, expr)
        cached = self.cache.get(key, _UNSEEN)  # one hash of the key, not two
        if not isinstance(cached, _Unseen):
            return cached
        if key in self.resolving or len(self.resolving) > _MAX_DEPTH:
            return None
        self.resolving.add(key)
        try:
            entity = self._evaluate(path, expr)
            if entity == _CURRENT_APP:
                entity = self._current_app()
        finally:
            self.resolving.discard(key)
        self.cache[key] = entity
        return entity

    def _current_app(self) -> _Entity:
        """Flask's `current_app`: the one Flask app the scanned files create (at module level
        or in a factory), whose routes and restful `Api`s its uses then add to. Where several
        are created, an app of its own served at the root, its routes carrying a finding at
        the first app's creation that names them all; where none is, the library's name."""
        if self.current_app is not None:
            return self.current_app
        apps = sorted(
            (
                key
                for key, node in self.nodes.items()
                if node.decl.app and node.decl.framework == FLASK
            ),
            key=lambda k: (k[0].encode(), self.nodes[k].decl.line),
        )
        if len(apps) == 1:
            self.current_app = _Router(apps[0])
        elif not apps:
            self.current_app = _CURRENT_APP
        else:
            first = self.nodes[apps[0]]
            key = (first.file, _CURRENT_APP_ID)
            self.nodes[key] = _Node(
                first.file, RouterDecl(_CURRENT_APP_ID, FLASK, first.decl.line, app=True)
            )
            created = ", ".join(f"{k[0]}:{self.nodes[k].decl.line}" for k in apps)
            self.current_app_gap = (
                first.file,
                first.decl.line,
                f"routes are declared on Flask's `current_app`, and the scanned files create "
                f"{len(apps)} Flask apps ({created}): which of them serves these routes is not "
                "known; they are listed at the root",
            )
            self.current_app = _Router(key)
        return self.current_app

    def _scoped(self, path: str, expr: _ScopedValue) -> _Scoped | None:
        """`evaluate` of a class, function or route list: itself where it is written, looked up
        nowhere, so never remembered in `cache` (whose key would hash every field of a class,
        its methods and their guards, on every look-up: a fifth of a link). Past `_MAX_DEPTH`
        it is what `cache` would answer: the one met before, or None."""
        if len(self.resolving) <= _MAX_DEPTH:
            self.scoped.setdefault((path, id(expr)), expr)  # held: its id names no other
            return _Scoped(path, expr)
        met = self.scoped.get((path, id(expr)))
        if met is None:  # an equal one met before (rare: only this deep is it looked for)
            met = next((e for (p, _), e in self.scoped.items() if p == path and e == expr), None)
        return _Scoped(path, met) if met is not None else None

    def _evaluate(self, path: str, expr: Expr) -> _Entity | None:
        if type(expr) is Sym:  # the commonest, and no other kind below is one: its look-up
            return self._symbol(path, expr)  # first, not after a score of type tests
        if isinstance(expr, Lit):
            return _Str(expr.value)
        if isinstance(expr, Pattern):  # a path where the framework routes one (`_found`)
            return _Str(regex_token(expr.source, expr.flags))
        if isinstance(expr, Concat):
            pieces = [_formatted(self.evaluate(path, part)) for part in expr.parts]
            if not all(isinstance(p, _Str) and not has_regex(p.value) for p in pieces):
                return None  # `'/a' + /x/` is a string of the expression's text
            strings = [p for p in pieces if isinstance(p, _Str)]
            if sum(len(p.value) for p in strings) > MAX_LENGTH:  # `p = p + p` many times over
                return None
            assumed = tuple(dict.fromkeys(a for p in strings for a in p.assumed))
            return _Str("".join(p.value for p in strings), assumed)
        if isinstance(expr, Fallback | Schema | Member | Trimmed | Keyed):
            return self._configured(path, expr)
        if isinstance(expr, RouterRef):
            key = (path, expr.router_id)
            if key in self.nodes:
                return _Router(key)
            if key in self.instance_routers:
                return _Instance(key)
            made = self.made_on_unknown.pop(key, None)
            if made is not None:  # `gateway.namespace('x')`, something declared on it
                self.nodes[key] = _Node(path, made)
                return _Router(key)
            instead = self.not_routers.get(key)
            return self.evaluate(path, instead) if instead is not None else None
        if isinstance(expr, OneOf):  # known where every option agrees
            options = [self.evaluate(path, option) for option in expr.options]
            return options[0] if all(o == options[0] for o in options) else _OneOf(options)
        if isinstance(expr, Namespace | Function | DependencyAlias | StarletteRoutes | Items):
            return _Scoped(path, expr)
        if isinstance(expr, Listing):  # `globSync('models/*.js')`: the files it lists
            items = self._listing(expr)
            return _Scoped(path, items) if items is not None else None
        if isinstance(expr, Bound):  # a parameter's value, written where the call is
            return self.evaluate(expr.file, expr.expr)
        if isinstance(expr, Apply):
            return self._apply(path, expr)
        if isinstance(expr, Format):
            return self._format(path, expr)
        if isinstance(expr, ImportRef):
            return self._import(path, expr) or self._outside(path, expr)
        if isinstance(expr, Evidence):
            return _Judged(REQUIRED)
        if isinstance(expr, NoGuard):
            return _Judged(NONE)
        if isinstance(expr, Number):
            return _Number(expr.value)
        if isinstance(expr, Opaque | Unmerged | Each | Stored | LoopKey):
            return None
        if isinstance(expr, ConfigKey):  # NestJS's `configService.get('app.prefix')`
            return _newlines(self._config_key(path, expr), expr.newlines)
        if isinstance(expr, PluginOf):
            return self._plugin(path, expr)
        if isinstance(expr, FlaskConfigRead):  # `app.config["PREFIX"]`
            return self._flask_config(path, expr)
        if isinstance(expr, Call):
            callee = self.evaluate(path, expr.callee)
            if (
                expr.passed is not None
                and isinstance(callee, _Scoped)
                and isinstance(callee.value, Function)
                and callee.value.returns is not None
            ):  # a helper of the project's: its return value for these arguments
                return self._apply(path, Apply(expr.callee, expr.passed))
            if callee is None and expr.passed is not None and not path.endswith(".py"):
                # `adminOnly(route)`: a call of what a call of the project's returns (`_made`)
                return self._apply(path, Apply(expr.callee, expr.passed))
            if isinstance(callee, _External) and expr.passed is not None:
                named = _node_path(callee, [self.evaluate(path, a) for a in expr.passed])
                if named is not None:  # `path.basename(file, '.js')` of a listed file
                    return named
            return self._member(callee, CALL) if callee is not None else None
        if isinstance(expr, Mapped):
            return self._array_built(path, expr)
        if isinstance(expr, Choice):
            return self._choice(path, expr)
        if isinstance(expr, Param):  # as a value (not a router position): the name as global
            found = self.evaluate(path, expr.fallback)
            if found is None and expr.default is not None:
                return self.evaluate(path, expr.default)
            if found is None and not path.endswith(".py"):
                return self._constructed(path, expr)
            return found
        return self._symbol(path, expr)

    def _config_key(self, path: str, expr: ConfigKey) -> _Entity | None:
        """A key `registerAs` gives, else what a configuration service of the project's
        gives (`@Class.getter.member`: the key it reads, evaluated where it is written),
        else a variable of `process.env` (a key with no dot, as `ConfigService.get` reads
        it: an environment file loaded, `_env_value`). A service fetched by a string token
        (`app.get('ConfigService')`) is that class only where the repository may run a Nest
        that keys class providers by their name (before 8: `_NAMED_TOKENS_BEFORE`)."""
        if expr.token and not option_routes.admits_before(
            self._declared_range(path, _NEST_CORE), _NAMED_TOKENS_BEFORE
        ):
            return None  # Nest 8+: `get('ConfigService')` finds no provider (it throws)
        if expr.key.startswith(SERVICE_KEY):
            self.words.add(expr.key[len(SERVICE_KEY) :].split(".")[0])  # the class's file
            given = self.nest.config_values(expr.key)
            return self.evaluate(*given[0]) if len(given) == 1 else None
        value = self.nest.config(expr.key)
        if value is None and "." not in expr.key and expr.default is not None:
            loaded = self._loaded_env(path, expr.key)
            if loaded is not None:  # a loaded file sets it (or may: unknown)
                return loaded if isinstance(loaded, _Str) else None
            default = self._settled(self.evaluate(path, expr.default))
            if not isinstance(default, _Str):
                return None
            source = (
                f"configService.get({expr.key!r}, {default.value!r}): the default, "
                f"no environment file seen loaded setting {expr.key}"
            )
            return _Str(default.value, _merged((source,), default.assumed))
        if value is None and "." not in expr.key:
            return self._env_value(path, expr.key)
        return _Str(value) if value is not None else None

    def _flask_config(self, path: str, expr: FlaskConfigRead) -> _Entity | None:
        """What a Flask app's configuration holds under a key once the writes every scanned
        file makes have run (`flask_config.fold`), else `get`'s default; what the running app
        may set instead (`from_pyfile`, `from_envvar`...) is said in `_Str.assumed`. None where
        no write shows it (a `KeyError` or a value out of sight). A pre-filtering scan parses
        the files that spell a loader (`words`) before it trusts the answer."""
        self.words |= flask_config.WORDS
        if self.flask_writes is None:
            self.flask_writes = [
                (file, write)
                for file in sorted(self.modules, key=lambda p: p.encode())
                for write in self.modules[file].flask_config
            ]
        reader: flask_config.Reader[_Entity] = flask_config.Reader(
            self.evaluate,
            self._config_loaded,
            _one_of_entities,
            self._config_holds,
            self._config_raises,
        )
        held: flask_config.Held[_Entity] = flask_config.fold(self.flask_writes, expr.key, reader)
        if held.set:
            value = held.value
        elif expr.default is not None:
            value = self.evaluate(path, expr.default)
        else:
            return None
        if not isinstance(value, _Str) or not held.assumed:
            return value
        read = f"app.config[{expr.key!r}]"
        return _Str(value.value, _merged(value.assumed, tuple(f"{read} {a}" for a in held.assumed)))

    def _config_holds(self, file: str, condition: Condition) -> tuple[bool | None, tuple[str, ...]]:
        """Whether an `if` a configuration write is under holds: where the configuration's
        defaults decide it (with them), or the scanned files fix its test (a constant); not
        known where it tests a parameter (a caller may pass another value than its default)."""
        holds, assumed = self._holds(file, condition, False)
        if holds is not None and not assumed and _tests_parameter(condition):
            return None, ()
        return holds, assumed

    def _config_loaded(
        self, file: str, write: FlaskConfigWrite, key: str
    ) -> tuple[_Entity | str | None, tuple[str, ...]]:
        """What a `from_object` or `from_pyfile` written in `file` sets `key` to, and what it is
        read from: a file the repository holds is a module whose upper-case names Flask copies
        (`instance/settings.py`, as the repository holds it: said); one it does not hold sets
        nothing (`silent=True`; said); one out of sight (`.cfg`, an app given as a parameter)
        may set anything."""
        assert write.value is not None
        if write.kind == "object":
            return self._config_attribute(file, write.value, key), ()
        target, present, named = self._pyfile(file, write)
        if present is None or target is None:
            return flask_config.UNKNOWN, ()
        if not present:
            return flask_config.ABSENT, (*named, f"{target} is not in the repository")
        found = self._object_key(file, _PyModule(module_name(target)), key)
        return found, (*named, f"read from {target}")

    def _pyfile(
        self, file: str, write: FlaskConfigWrite
    ) -> tuple[str | None, bool | None, tuple[str, ...]]:
        """The file a `from_pyfile` written in `file` loads (None: not known), whether the
        repository holds it (None: not known: a name the walk does not take, such as `.cfg`, or
        a file that failed to parse), and the defaults its name is read with."""
        named = self._settled(self.evaluate(file, write.value)) if write.value else None
        folder = self._flask_folder(file, write.app)
        if not isinstance(named, _Str) or folder is None:
            return None, None, ()
        target = flask_config.joined(folder, named.value)
        if target is None:
            return None, None, ()
        if target in self.files:
            read = (
                target not in self.failed and self.python_files.get(module_name(target)) == target
            )
            return target, True if read else None, named.assumed
        listed = target.endswith(".py") and walk_lists(target)  # else: not read, not known
        return target, False if listed else None, named.assumed

    def _flask_folder(self, file: str, app: FlaskApp | None) -> str | None:
        """The folder an app's `from_pyfile` names are relative to, by Flask's rules: the
        instance folder with `instance_relative_config=True` (`instance/` beside the top-level
        package of the module making the app, or beside that module where it is in no package),
        else the app's root (the folder of that module; of its top-level package for
        `__name__.split(".")[0]`). None where the scan cannot tell (the app made elsewhere or
        naming its folders; a name no scanned module has)."""
        if app is None or not app.placed or app.instance_relative is None:
            return None
        module: str | None = file
        if app.named:  # `Flask("pkg")`: that module's file
            found = self.modules_index.find(app.named, file)
            module = self.python_files.get(found) if found is not None else None
        if module is None:
            return None
        folder = posixpath.dirname(module)
        top = None  # the top-level package's folder: the packages run unbroken from `folder`
        for upper in flask_config.folders_up(folder):
            if not self._is_package(upper):
                break
            top = upper
        if top == "":  # the repository's root is a package: its parent is out of sight
            return None
        if app.instance_relative:
            beside = posixpath.dirname(top) if top is not None else folder
            return posixpath.join(beside, "instance")
        return top if app.top and top is not None else folder

    def _is_package(self, folder: str) -> bool:
        return (f"{folder}/__init__.py" if folder else "__init__.py") in self.files

    def _config_raises(self, file: str, write: FlaskConfigWrite) -> flask_config.Raise:
        """Whether a write raises where the repository's defaults run it (`flask_config.Raise`):
        `from_pyfile` of a file the repository does not hold (`FileNotFoundError`) and
        `from_envvar` of a variable, unset (`RuntimeError`), unless `silent=True`; `from_object`
        of a dotted name the repository's own package does not hold (`ImportError`). A file,
        variable or name out of sight may raise; nothing else does."""
        silent = write.silent
        if write.kind == "envvar":
            if silent:
                return flask_config.NO
            if silent is None or not write.key:
                return flask_config.MAYBE
            return flask_config.Raise("yes", "RuntimeError", (f"os.environ.{write.key} unset",))
        if write.kind == "pyfile":
            target, present, why = self._pyfile(file, write)
            held = f"{target} is {'' if present else 'not '}in the repository"
            if present or silent:
                return flask_config.Raise("no", why=(*why, held) if present is not None else ())
            if present is None or silent is None:
                return flask_config.MAYBE
            return flask_config.Raise("yes", "FileNotFoundError", (*why, held))
        if write.kind == "file":
            return flask_config.NO if silent else flask_config.MAYBE
        if write.kind == "object" and write.value is not None:
            named = write.value if isinstance(write.value, Lit) else None
            return self._import_raises(file, named.value) if named else flask_config.NO
        return flask_config.NO

    def _import_raises(self, file: str, dotted: str) -> flask_config.Raise:
        """`import_string(dotted)` (`from_object("pkg.settings.Local")`): none where it names
        something the scan shows; `ImportError` where its top-level package is the
        repository's and holds no such module or attribute; else it may (a library's, one
        installed where the app runs)."""
        if self._dotted_object(file, dotted) is not None:
            return flask_config.NO
        if dotted.split(".")[0] in self.packages:
            return flask_config.Raise("yes", "ImportError", (f"{dotted} is not in the repository",))
        return flask_config.MAYBE

    def _config_attribute(self, file: str, target: Expr, key: str) -> _Entity | str | None:
        """What `config.from_object(target)`, written in `file`, sets `key` to: the class's or
        module's attribute (`flask_config.ABSENT` where it has none), the attribute of what a
        dotted string names (`"pkg.settings.Default"`, as werkzeug's `import_string` finds it),
        `flask_config.UNKNOWN` for what the scan does not show; None for an attribute whose
        value it does not show."""
        if isinstance(target, Lit):
            return self._object_key(file, self._dotted_object(file, target.value), key)
        return self._object_key(file, self.evaluate(file, target), key)

    def _dotted_object(self, file: str, dotted: str) -> _Entity | None:
        module, _, attr = dotted.rpartition(".")
        found = self.evaluate(file, ImportRef(module, attr)) if module else None
        return found if found is not None else self.evaluate(file, ImportRef(dotted, None))

    def _object_key(
        self, file: str, entity: _Entity | None, key: str, depth: int = 0
    ) -> _Entity | str | None:
        if isinstance(entity, _OneOf) and depth < _MAX_DEPTH:  # `configs[name]`: each option
            got = [self._object_key(file, o, key, depth + 1) for o in entity.options]
            if flask_config.UNKNOWN in got:
                return flask_config.UNKNOWN
            if all(g == flask_config.ABSENT for g in got):
                return flask_config.ABSENT
            values = [None if isinstance(g, str) else g for g in got]  # unset in some: not known
            return values[0] if all(v == values[0] for v in values) else _OneOf(values)
        if isinstance(entity, _Str) and depth < _MAX_DEPTH:  # a dotted name held in a variable
            return self._object_key(file, self._dotted_object(file, entity.value), key, depth + 1)
        if isinstance(entity, _PyModule):
            found = self._member(entity, key)
            module = self.python_files.get(entity.name)
            bound = module is not None and key in self._facts(module).bindings
            return found if found is not None or bound else flask_config.ABSENT
        if isinstance(entity, _Scoped) and isinstance(entity.value, Namespace):
            found = self._member(entity, key)
            own = any(name == key for name, _ in entity.value.fields)
            return found if found is not None or own else flask_config.ABSENT
        return flask_config.UNKNOWN

    def _symbol(self, path: str, expr: Sym) -> _Entity | None:
        """`_evaluate` of a name: its binding in `path`, then each member of the rest."""
        entity = self._lookup(path, expr.path[0])
        rest = expr.path[1:]
        if not path.endswith(".py") and (
            (expr.path[0] in _GLOBAL_OBJECTS and rest)
            or (
                entity is None
                and expr.path[0] not in _BUILT_INS
                and expr.path[0] not in _GLOBAL_OBJECTS  # `global` itself: no store of its
                and expr.path[0] not in self._facts(path).bindings
            )
        ):  # `global.base`, `globalThis.app`, a free `base`: what any file stores there
            name = rest[0] if expr.path[0] in _GLOBAL_OBJECTS else expr.path[0]
            stored = self._stored_global(name)
            if stored is not None:
                entity, rest = stored, rest[1:] if expr.path[0] in _GLOBAL_OBJECTS else rest
        elif expr.path[0] in _GLOBAL_OBJECTS and entity is None and not path.endswith(".py"):
            entity = self._global_object(path)  # `const g = global as …`, then `g.app`
        if entity is None and len(rest) >= 2 and not path.endswith(".py"):
            if expr.path[:2] == ("process", "env") and len(rest) == 2:
                value = self._env_value(path, rest[1])
                if value is None and self.env_unset:  # `undefined`, as a test compares it
                    return _Str("", (f"process.env.{rest[1]} unset",))
                return value
            entity = self._decorated(rest[0])  # `fastify.config.X`: a decorated instance's
            rest = rest[1:]
        view = path.endswith(".py") and rest[-2:] == (_AS_VIEW, CALL)
        for segment in rest[:-2] if view else rest:
            if entity is None:
                return None
            entity = self._member(entity, segment)
        if isinstance(entity, _Router) and rest[-1:] == (CALL,):
            # `makeRouter().get(...)`: a bare call of a factory makes a router of its own
            called = Sym(expr.path[:-1])
            return self._fresh(path, ".".join(expr.path), expr, called, entity)
        if view and entity is not None:  # `lock = Lock.as_view("lock")`: `_class_view`
            made = self._member(entity, _AS_VIEW)
            if made is None and isinstance(entity, _Scoped) and isinstance(entity.value, Namespace):
                return entity
            return self._member(made, CALL) if made is not None else None
        return entity

    def _global_object(self, path: str) -> _Entity | None:
        """Node's object of globals itself (held under another name, `const g = global`):
        what the scanned files store on it, each read in its own file."""
        self._stored_global("")  # the stores indexed, and the files that spell one asked for
        assert self.global_stores is not None
        fields = tuple(
            (name, _one_of([Bound(f, v) for f, v in stores]))
            for name, stores in self.global_stores.items()
        )
        return _Scoped(path, Namespace(fields)) if fields else None

    def _stored_global(self, name: str) -> _Entity | None:
        """What the scanned files store as `name` on Node's object of globals (`global.name =
        v`, `globalThis.name = v`), each evaluated in its file: one value, or where files
        store several, the options (`_OneOf`); None when none does. A pre-filtering scan
        parses the files that spell a store of the name (`words`) before it trusts the answer;
        `name` empty: of any name."""
        # a store spells `global.name` (or `globalThis.name`): only those files are asked for
        self.words |= {f"{o}.{name}" for o in _GLOBAL_OBJECTS} if name else _GLOBAL_STORES
        if self.global_stores is None:
            self.global_stores = {}
            for file, facts in self.modules.items():
                for key, value in facts.globals:
                    self.global_stores.setdefault(key, []).append((file, value))
        values: list[_Entity | None] = []
        for file, value in self.global_stores.get(name, ()):
            found = self.evaluate(file, value)
            if found not in values:
                values.append(found)
        if not values:
            return None
        return values[0] if len(values) == 1 else _OneOf(values)

    def _constructed(self, path: str, param: Param) -> _Entity | None:
        """A constructor's parameter as the instance, `global` or a module variable keeps it:
        what the scanned `new` sites pass (each evaluated where it is written): one value when
        they agree, the options when they do not; None when no site is seen or one passes
        something unknown (the use stays flagged). Only in a file that declares routes or
        mounts (the instance's fields, `global` and module variables are read in the class's
        file): elsewhere the sites' files would be parsed for nothing. Asked while the calls are being indexed
        (`new this.Docker(...)`, a callee read through a constructor's parameter), the sites
        are not all known yet: None, never a value from some of them."""
        facts = self._facts(path)
        if not (facts.routes or facts.uses) or self.indexing:
            return None  # read only where the class's own file registers what it may prefix
        if not self._constructor(path, param.function):
            return None
        values: list[_Entity | None] = []
        for file, call in self._calls_of(path, param.function):
            if not (isinstance(call.callee, Sym) and call.callee.path[-1:] == (_CONSTRUCTOR,)):
                continue
            passed = _passed(call, param)
            value = self.evaluate(file, passed) if passed is not None else None
            if value is None:
                return None
            if value not in values:
                values.append(value)
        if not values:
            return None
        return values[0] if len(values) == 1 else _OneOf(values)

    def _constructor(self, path: str, site: str) -> bool:
        """Whether the function at `site` in `path` is what a `new` calls: a class's
        `constructor`, or a function named as a class (`js_facts._constructor_of`)."""
        for name, value in self._facts(path).bindings.items():
            if isinstance(value, Function) and value.site == site:
                return name[:1].isupper()
            if isinstance(value, Namespace) and any(
                key == _CONSTRUCTOR and isinstance(v, Function) and v.site == site
                for key, v in value.fields
            ):
                return True
        return False

    def _lookup(self, path: str, name: str) -> _Entity | None:
        facts = self._facts(path)
        binding = facts.bindings.get(name)
        if binding is None:
            source = self._star_source(path, name) if facts.star_exports else None
            return self._lookup(source, name) if source is not None else None
        if facts.bound_calls and name in facts.bound_calls:
            made = self._bound_call(path, name, binding)
            if made is not None:
                return made
        entity = self.evaluate(path, binding)
        if isinstance(entity, _Router) and (callee := _callee(binding)) is not None:
            return self._fresh(path, name, binding, callee, entity)
        return entity

    def _star_source(self, path: str, name: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The file whose own module-level binding of `name` the Python module `path` has by
        its `from X import *` statements, as Python binds it: the last star import that brings
        the name wins; a source brings what `pymodules.star_brings` says, its own binding or
        one of its own star imports passes on (a package re-exporting its subpackages'
        names, any number deep). None where no star import brings it (a cycle of star
        imports brings nothing new)."""
        seen = seen | {path}
        for star in reversed(self._facts(path).star_exports):
            module = self._python_module(star.module, path)
            file = self.python_files.get(module.name) if module is not None else None
            if file is None or file in seen:
                continue
            source = self._facts(file)
            if not star_brings(name, source.all_names):
                continue
            if name in source.module_names:
                return file
            deeper = self._star_source(file, name, seen) if source.star_exports else None
            if deeper is not None:
                return deeper
        return None

    def _fresh(self, path: str, name: str, call: Expr, callee: Expr, made: _Router) -> _Router:
        """The router the call `call` of `callee` (bound to `name` in `path`, or written bare,
        `name` then its text) gives: where `callee` is the project function whose own body
        makes the router it returns (`RouterDecl.scope`), a router of its own per call, as
        `new` gives (`sessions = createAuthRouter()` in one module and `auth =
        createAuthRouter()` in another are two routers, one mountable in the other); else (a
        router made outside the function, which every call returns) `made` itself. A bare
        call's router (`makeRouter().get(...)`) is one per file and text, the routers the
        file's names bind made from it. An app is served at the root wherever it is made: the
        app of an app factory (`app = create_app()` in several entry points) stays one."""
        template = self.nodes.get(made.key)
        if template is None or not template.decl.scope or template.decl.app:
            return made
        function = self.evaluate(path, callee)
        if not (
            isinstance(function, _Scoped)
            and isinstance(function.value, Function)
            and function.file == made.key[0]
            and function.value.site == template.decl.scope
        ):
            return made
        key = (made.key[0], f"{made.key[1]}@{path}:{name}")
        if key not in self.nodes:
            decl = replace(template.decl, router_id=key[1])
            if isinstance(call, Apply) and decl.prefix is not None:
                passed = Invocation(call.callee, call.args, call.keywords)
                site = function.value.site  # `mk('/v1')` of `(p) => new Router({ prefix: p })`
                prefix = _subst(decl.prefix, template.file, template.file, site, passed, path)
                decl = replace(decl, prefix=prefix)
            self.nodes[key] = _Node(template.file, decl)
            self.made_by[key] = made.key
            if made.key in self.router_classes:
                self.router_classes[key] = self.router_classes[made.key]
        return _Router(key)

    def _fresh_filled(self) -> set[tuple[str, str]]:
        """Each router a call of a factory made (`_fresh`) given what the factory's body
        registers on the router it makes (its routes, mounts and guards; in the order they
        were made, a bare call's router filled before the names bound to it): the factory's
        router is served only where it is mounted itself. Gives the factories' routers.
        What the body puts on its router with the function's parameters (`_deferred`) is
        bound per chain of calls that made the router (a router the body's own calls of
        other factories make, made in turn); where no call made one the function's own router
        holds it per chain of calls (`_attach_called`), as any function's routes."""
        keys = list(self.made_by)
        done = 0
        unmade: set[tuple[str, str]] = set()
        while True:
            while done < len(keys):  # the routers a fill makes (a factory's calls): filled too
                key = keys[done]
                done += 1
                made = self.made_by[key]
                template, node = self.nodes[made], self.nodes[key]
                node.routes[:0] = template.routes
                node.mounts[:0] = template.mounts
                node.guards[:0] = template.guards
                chain = self.made_chain.get(key)
                for path, decl, site in self.deferred.get(made, ()):
                    given = [chain] if chain is not None else None
                    if isinstance(decl, RouteDecl):
                        self._attach_called(path, decl, site, node, given)
                    else:
                        self._attach_mount_called(path, decl, site, node, given)
                if len(self.made_by) > len(keys):
                    keys = list(self.made_by)
            templates = set(self.made_by.values())
            direct = {c for n in self.nodes.values() for _, _, c in n.mounts if c in self.deferred}
            left = [
                m for m in self.deferred if (m not in templates or m in direct) and m not in unmade
            ]
            for made in left:  # no call made a router of it: the function's own holds them
                unmade.add(made)
                for path, decl, site in self.deferred[made]:
                    if isinstance(decl, RouteDecl):
                        self._attach_called(path, decl, site)
                    else:
                        self._attach_mount_called(path, decl, site)
            if len(self.made_by) == len(keys):
                return templates
            keys = list(self.made_by)

    def _member(self, entity: _Entity, segment: str) -> _Entity | None:
        if isinstance(entity, _OneOf):
            options = [self._member(o, segment) if o is not None else None for o in entity.options]
            return options[0] if all(o == options[0] for o in options) else _OneOf(options)
        if isinstance(entity, _External):
            return _External(entity.module, (*entity.path, segment))
        if isinstance(entity, _PyModule):
            file = self.python_files.get(entity.name)
            bound = self._lookup(file, segment) if file is not None else None
            if bound is not None:
                return bound
            submodule = f"{entity.name}.{segment}"
            if submodule in self.packages:
                return _PyModule(submodule)
            self._touch_failed(submodule)
            return None
        if isinstance(entity, _JsModule):
            return self._export(entity.path, segment)
        if isinstance(entity, _Router):  # `gateway.expose`: a method of the router's class
            made = self.router_classes.get(entity.key)
            if made is None:  # `fastify.config`: what the app's instances are decorated with
                return self._decorated(segment) if not entity.key[0].endswith(".py") else None
            instance = self.evaluate(made[0], made[1])
            return self._member(instance, segment) if instance is not None else None
        if isinstance(entity, _Schema):
            return self._schema_member(entity, segment)
        if isinstance(entity, _Instance) and entity.key in self.class_instances:
            return self._class_member(entity, segment)
        if isinstance(entity, _Instance):
            own = self.instance_routers[entity.key].get(segment)
            if own is not None:
                return _Router(own)
            given = self.instance_given.get(entity.key, {}).get(segment)
            if given is not None:  # `self.app = app` of `Service(app)`: that `app`
                return self.evaluate(entity.key[0], given)
            cls = self.evaluate(entity.key[0], self.not_routers[entity.key])
            return self._member(cls, segment) if cls is not None else None
        if isinstance(entity, _Scoped):
            value = entity.value
            if isinstance(value, Namespace):
                if segment == CALL:  # an instance reads the class's field defaults
                    made_for = self.class_keys.get((entity.file, id(value)))
                    return _Instance(made_for) if made_for is not None else entity
                fields = dict(value.fields)
                if segment in fields:
                    return self._settled(self.evaluate(entity.file, fields[segment]))
                walked = (entity.file, id(value))  # `class A(B)` and `class B(A)`: no end
                searched = (*walked, segment)  # a base reached again: it had none the first time
                if (
                    walked in self.inheriting
                    or len(self.inheriting) > _MAX_DEPTH
                    or searched in self.searched
                ):  # (`class D(L, R)`, `L` and `R` below one class, 33 deep: 2^33 walks)
                    return None
                outermost = not self.inheriting
                self.inheriting.add(walked)
                self.searched.add(searched)
                try:
                    for base in value.bases:  # inherited: the first base that has it
                        inherited = self.evaluate(entity.file, base)
                        found = self._member(inherited, segment) if inherited else None
                        if found is not None and not isinstance(found, _External):
                            return found
                finally:
                    self.inheriting.discard(walked)
                    if outermost:
                        self.searched.clear()
                return None
            if isinstance(value, Function) and segment == CALL and value.returns is not None:
                return self.evaluate(entity.file, value.returns)
            if isinstance(value, Function) and segment == _CONSTRUCTOR:  # `new f()` calls f
                return entity
        return None

    # -- modules ---------------------------------------------------------------------------

    def _import(self, path: str, ref: ImportRef) -> _Entity | None:
        if self._facts(path).language == "python":
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

    def _outside(self, path: str, ref: ImportRef) -> _External | None:
        """An import of a module the scanned files do not hold (a library); None for one of
        theirs whose name is missing."""
        if self._facts(path).language == "python":
            parts = ref.module.split(".")
            for end in range(len(parts), 0, -1):  # a module of a scanned package: ours, unseen
                if self._python_module(".".join(parts[:end]), path) is not None:
                    return None
            return _External(ref.module, (ref.attr,) if ref.attr is not None else ())
        if ref.module.startswith(".") or self._js_file(ref.origin or path, ref.module) is not None:
            return None
        if self.js_modules.workspace(package_name(ref.module)[0]) is not None:
            return None  # a package of the repository whose source is not found: not a library
        return _External(ref.module, () if ref.attr in {None, "default"} else (ref.attr or "",))

    def _python_module(self, name: str, importer: str) -> _PyModule | None:
        """The scanned module an absolute import in `importer` names (`ModuleIndex`); an import
        that lands in a failed file touches it and resolves nothing."""
        found = self.modules_index.find(name, importer)
        if found is None:
            return None
        if found not in self.python_files:
            self._touch_failed(found)  # a package whose `__init__.py` failed, or a failed file
        return _PyModule(found) if found in self.packages else None

    def _touch_failed(self, name: str) -> None:
        """An import of `name` found no module: the failed file it may have meant counts as
        looked at."""
        failed = self.failed_files.get(name)
        if failed is not None:
            self.touched.add(failed)

    def _js_file(self, importer: str, specifier: str) -> str | None:
        """The scanned file an `import`/`require` names (`js_modules.JsModules.file`)."""
        return self.js_modules.file(importer, specifier)

    def _js_path(self, joined: str) -> str | None:
        """The scanned file a repository path names as a module (`JsModules.path`)."""
        return self.js_modules.path(joined)

    def _js_declared_in(
        self, file: str, name: str, candidates: frozenset[str], depth: int = 0
    ) -> str | None:
        """Which of `candidates` (files declaring a class `name`) the binding of `name` in
        `file` leads to: its import (`import { name as alias }` too), then the re-exports of
        the file it lands in (`export { name } from`, `export *`); None when it leads to none."""
        facts = self._facts(file)
        refs = [
            b
            for local, b in facts.bindings.items()
            if isinstance(b, ImportRef) and (b.attr == name or (local == name and b.attr))
        ]
        if depth:  # a file reached on the way: what it re-exports
            exported = facts.exports.get(name)
            refs = [exported] if isinstance(exported, ImportRef) else []
            refs += [ImportRef(s.module, name, s.origin) for s in facts.star_exports]
        for ref in refs:
            target = self._js_file(ref.origin or file, ref.module)
            if target is None or depth >= 8:
                continue
            if target in candidates:
                return target
            found = self._js_declared_in(target, ref.attr or name, candidates, depth + 1)
            if found is not None:
                return found
        return None

    def _default_export(self, path: str) -> _Entity | None:
        """`require()` and a default import give `module.exports` (or `export default`); a
        module that sets neither is its own namespace (`exports.router = ...`)."""
        default = self._facts(path).exports.get("default")
        return self.evaluate(path, default) if default is not None else _JsModule(path)

    def _export(self, path: str, name: str) -> _Entity | None:
        facts = self._facts(path)
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


def _unread_record(line: int, item: Expr | None = None) -> RouteDecl:
    """A record of a route table the scan cannot read (a spread of a call's value, of an
    object's values that are no route options): a route whose path and methods are not known,
    an `UNRESOLVED_ROUTE` at `line` where the table writes it (`called_at`, set where the
    table is registered)."""
    if isinstance(item, Mapped) and item.method == "values":  # an object spread in, not read
        detail = (
            f"the values of `{describe(item.source)}` this route table spreads hold an item "
            "computed out of sight (an object spread into it): its routes are not listed"
        )
    else:
        what = f" `{describe(item)}`" if item is not None else ""
        detail = f"the item{what} of this route table is computed out of sight: its routes are not listed"
    return RouteDecl(
        None, Opaque(), None, line, methods_unknown=True, from_options=True,
        generated_by=js_dirload.UNREAD + detail,
    )  # fmt: skip


# From the framework records (`frameworks.READ`): library classes a router or app subclasses,
# (top module, class) -> (framework, an app?); how findings name a framework and its routers
_ROUTER_BASES = {base: (f.key, app) for f in PYTHON for base, app in f.bases.items()}
# (package, members) a JS app or router is made by, to (framework, whether an app)
_JS_MAKERS: dict[tuple[str, tuple[str, ...]], tuple[str, bool]] = {
    **{(m, (n,)): (f.key, False) for f in JAVASCRIPT for m in (*f.app_modules, *f.router_modules)
       for n in f.router_members},
    **{(m, (n,)): (f.key, True) for f in JAVASCRIPT for m in (*f.app_modules, *f.router_modules)
       for n in f.app_members},
    **{(m, ()): (f.key, True) for f in JAVASCRIPT for m in f.app_modules},
    **{(m, ()): (f.key, False) for f in JAVASCRIPT for m in f.router_modules},
}  # fmt: skip
_ROUTER_NOUN = {key: f.noun for key, f in BY_KEY.items()}
_FRAMEWORK_NAMES = {key: f.name for key, f in BY_KEY.items()}
_READ_NAMES = list(dict.fromkeys(f.name for f in READ))
_READ = ", ".join(_READ_NAMES[:-1]) + " and " + _READ_NAMES[-1]


_EMPTY_PYTHON = ModuleFacts("python")
# the library's index view class, the admin's own when the project gives none
_INDEX_VIEW = next(n for n, served in FLASK_ADMIN.views.items() if served)
_EMPTY_JS = ModuleFacts("javascript")


def _last(value: ImportRef | Sym) -> str | None:
    """The name an import or a dotted alias ends in (`x.register` → `register`)."""
    if isinstance(value, ImportRef):
        return value.attr if value.attr is not None else value.module.rpartition(".")[2]
    return value.path[-1] if value.path else None


def _callee(expr: Expr) -> Expr | None:
    """The function a call written as a value calls (`make` of `make()`, `make(db)`), or
    None for any other value."""
    if isinstance(expr, Sym) and len(expr.path) > 1 and expr.path[-1] == CALL:
        return Sym(expr.path[:-1])
    if isinstance(expr, Call | Apply):
        return expr.callee
    return None


def _keyed_parts(expr: Expr) -> list[LoopKey]:
    """The `LoopKey` values `expr` holds, itself, as parts of a concatenation or as the
    arguments of a call the linker may compute (`path.basename(file, '.js')`)."""
    if isinstance(expr, LoopKey):
        return [expr]
    if isinstance(expr, Concat):
        return [k for part in expr.parts for k in _keyed_parts(part)]
    if isinstance(expr, Call) and expr.passed is not None:
        return [k for part in expr.passed for k in _keyed_parts(part)]
    if isinstance(expr, Fallback):  # `route.version ?? 'v1'`: the item's, else the default
        return _keyed_parts(expr.value)
    if isinstance(expr, Choice):  # a guard pushed under tests of the entry's fields
        return [k for part in (expr.tested, expr.then) for k in _keyed_parts(part)]
    return []


def _record_member(file: str, record: RouteDecl, members: tuple[str, ...]) -> Expr:
    """`record.member` of a route record as the reader keeps it (a `RouteDecl` written in
    `file`): its path under a path key, its methods under a method key; the record itself or
    any other member is not kept (`Opaque`)."""
    if len(members) != 1:
        return Opaque()
    if members[0] in _PATH_KEYS:
        return Bound(file, record.path)
    if members[0] in _METHOD_KEYS and record.methods and not record.methods_unknown:
        return Items(tuple(Lit(m) for m in record.methods))
    return Opaque()


def _not_known(_keyed: LoopKey) -> Expr:
    return Opaque()


def _keyed_in(expr: Expr) -> bool:
    return bool(_keyed_parts(expr))


def _keyed_filled(expr: Expr, value: Callable[[LoopKey], Expr]) -> Expr:
    if isinstance(expr, LoopKey):
        return value(expr)
    if isinstance(expr, Concat) and _keyed_in(expr):
        return Concat(tuple(_keyed_filled(part, value) for part in expr.parts))
    if isinstance(expr, Call) and expr.passed is not None and _keyed_in(expr):
        args = tuple(_keyed_filled(part, value) for part in expr.args)
        return replace(expr, args=args, passed=tuple(_keyed_filled(p, value) for p in expr.passed))
    if isinstance(expr, Fallback) and _keyed_in(expr.value):
        return replace(expr, value=_keyed_filled(expr.value, value))
    if isinstance(expr, Choice) and _keyed_in(expr):
        return replace(
            expr, tested=_keyed_filled(expr.tested, value), then=_keyed_filled(expr.then, value)
        )
    return expr


def _newlines(entity: _Entity | None, newlines: bool) -> _Entity | None:
    """`.replace(/\\n/g, '\n')` applied to a string read (`ConfigKey.newlines`)."""
    if newlines and isinstance(entity, _Str) and "\\n" in entity.value:
        return _Str(entity.value.replace("\\n", "\n"), entity.assumed)
    return entity


def _tests_parameter(condition: Condition) -> bool:
    """Whether an `if` test (or a part of one) reads a def's parameter."""
    if condition.op:
        return any(_tests_parameter(part) for part in condition.parts)
    return isinstance(condition.test, Param) or isinstance(condition.equals, Param)


def _one_of_entities(values: list[_Entity | None]) -> _Entity | None:
    return _OneOf(values)


def _library_view(base: _Scoped | _External | str) -> bool:
    """Flask-Classful's `FlaskView`, whose own members no view routes."""
    return (
        isinstance(base, _External)
        and base.module.split(".")[0] == LIBRARY.module
        and base.path == (LIBRARY.base,)
    )


def _library_member(entity: _Entity | None, name: str) -> bool:
    """Flask-Classful's `route` or `method` decorator (`name`), however imported."""
    return (
        isinstance(entity, _External)
        and entity.module.split(".")[0] == LIBRARY.module
        and entity.path == (name,)
    )


def _view_classes(order: list[_Scoped | _External | str]) -> list[tuple[str, ViewClass]]:
    """The project's classes of a view's method resolution order, as Flask-Classful reads each."""
    return [
        (base.file, base.value.view)
        for base in order
        if isinstance(base, _Scoped) and isinstance(base.value, Namespace) and base.value.view
    ]


def describe(expr: Expr | None) -> str:
    """An expression as a finding's detail shows it: `settings.API_V1_STR`, `get_prefix()`."""
    if isinstance(expr, Lit):
        return repr(expr.value)
    if isinstance(expr, Sym):
        return ".".join(spelled(part) for part in expr.path).replace(".()", "()")
    if isinstance(expr, Call):
        return describe(expr.callee) + "(...)"
    if isinstance(expr, Concat):
        return " + ".join(describe(part) for part in expr.parts)
    if isinstance(expr, ImportRef):
        return f"{expr.module}.{expr.attr}" if expr.attr else expr.module
    if isinstance(expr, Param):
        return expr.name
    if isinstance(expr, Pattern):
        return f"/{expr.source}/{expr.flags}"
    if isinstance(expr, ConfigKey):
        return f"configService.get({expr.key!r})"
    if isinstance(expr, FlaskConfigRead):
        return f"app.config[{expr.key!r}]"
    if isinstance(expr, Member):
        return ".".join((describe(expr.base), *expr.path))
    if isinstance(expr, Fallback):
        return f"{describe(expr.value)} || {describe(expr.default)}"
    if isinstance(expr, Trimmed):
        return describe(expr.value)
    if isinstance(expr, Keyed):
        return f"{describe(expr.base)}.get({describe(expr.key)})"
    if isinstance(expr, LoopKey):  # a loop's key or item of an imported table
        item = (
            f"{describe(expr.table)}[…]"
            if expr.table is not None
            else f"a key of {describe(expr.source)}"
        )
        return ".".join((item, *expr.members))
    return "a computed value"


def _concatenated(decl: RouterDecl) -> bool:
    """Whether the router appends a rule not starting with `/` to its prefix as written:
    koa-router's layers (`prefix + path`), flask-restx's and flask-restful's `Api` and
    `Namespace` (`RouterDecl.concatenates`)."""
    return decl.framework == KOA or decl.concatenates


_NUMBER_CASTS = frozenset({("int",), ("str",)})


def _formatted(entity: _Entity | None) -> _Entity | None:
    """A number formatted into a string (`f"/v{VERSION}"`), as Python's `str` spells it;
    anything else as it is."""
    if isinstance(entity, _Number):
        return _Str(str(entity.value), entity.assumed)
    return entity


def _regex_not_routed(framework: str, declared: str, base: str) -> str:
    """Why a route whose path or prefix holds a regular expression is not served as the
    expression (a finding's detail), by the framework's record (`regex_paths`); "" when it is."""
    record = BY_KEY[framework]
    if record.regex_paths == "any" or (record.regex_paths == "unprefixed" and not base):
        return ""
    where = "path" if has_regex(declared) else "prefix"
    written = ", ".join(f"`{r}`" for r in regex_literals(declared) or regex_literals(base))
    if record.regex_paths == "unprefixed" and has_regex(declared):  # koa-router's
        return (
            f"the path of this route is a regular expression ({written}) under the prefix "
            f"`{regex_named(base)}`, which koa-router does not route as the expression (it "
            "joins the prefix to the expression's text): it is not listed"
        )
    return (
        f"the {where} of this route is a regular expression ({written}), which {record.name} "
        "does not route: it is not listed"
    )


def _unseen(entity: _Entity | None) -> bool:
    """Whether a value is a library's object whichever way it is made (`import_module(...)`,
    `sys.modules.get(...)`): what the scanned files do not show."""
    if isinstance(entity, _OneOf):
        return all(o is None or _unseen(o) for o in entity.options) and any(entity.options)
    return isinstance(entity, _External)


def _merged(*groups: tuple[str, ...]) -> tuple[str, ...]:
    """Sources of configuration defaults, each once, in the order met."""
    return tuple(dict.fromkeys(a for group in groups for a in group))


def _not_passed(expr: Expr) -> bool:
    """An option of a wrapper's `**kwargs` that no call of the chain passes (`Param.keyed`),
    maybe passed on from another's (`Bound`)."""
    while type(expr) is Bound:
        assert isinstance(expr, Bound)
        expr = expr.expr
    return type(expr) is Param and expr.keyed


def _verbless(expr: Expr) -> bool:
    """The name of a route method that names no verb (`route`, `api_route`), handed to a
    helper as `verb` (`guarded(bp.route, "/x", methods=["POST"])`): the route's methods are
    its `methods=`, as the framework reads them, not the name."""
    return type(expr) is Lit and expr.value in _ROUTE_METHODS and expr.value not in _VERBS


def _passed(call: Invocation, param: Param) -> Expr | None:
    """What `call` passes for `param`: at its position, else by its name."""
    if 0 <= param.index < len(call.args):
        return call.args[param.index]
    if param.index <= VARARGS:  # `*rules`: the positional arguments from there on
        rest = call.args[VARARGS - param.index :]
        return Items(tuple(a for a in rest if a is not None)) if None not in rest else None
    return dict(call.keywords).get(param.name)


_LOADED_INDEX = re.compile(r"^index\.(?:ts|js|cjs|mjs)$", re.IGNORECASE)
_LOADED_SCRIPT = re.compile(r"((^.?|\.[^d]|[^.]d|[^.][^d])\.ts|\.js|\.cjs|\.mjs)$", re.IGNORECASE)
_LOADED_HOOKS = re.compile(r"^[_.]?auto_?hooks(\.ts|\.js|\.cjs|\.mjs)$", re.IGNORECASE)


def _autoloaded(load: LoadDecl, files: Collection[str]) -> list[tuple[str, str]]:
    """(file, its folder's route prefix) of each plugin `@fastify/autoload` registers from
    `load.folder`, by its documented rules: a folder holding an `index` script registers that
    one (and its subfolders), else each script (`.d.ts` and `autohooks` files aside); a
    subfolder adds its name to the prefix (with `dirNameRoutePrefix`), `_id` read as `:id`;
    names matching `ignorePattern` are skipped."""
    below: dict[str, tuple[list[str], set[str]]] = {}  # folder -> (scripts, subfolders)
    root = load.folder.rstrip("/")
    for name in files:
        if not name.startswith(f"{root}/"):
            continue
        parts = name[len(root) + 1 :].split("/")
        folder = root
        for part in parts[:-1]:
            below.setdefault(folder, ([], set()))[1].add(part)
            folder = f"{folder}/{part}"
        below.setdefault(folder, ([], set()))[0].append(parts[-1])
    ignore = re.compile(load.ignore) if load.ignore else None
    found: list[tuple[str, str]] = []

    def visit(folder: str, crumb: str) -> None:
        scripts, folders = below.get(folder, ([], set()))
        index = next((n for n in sorted(scripts) if _LOADED_INDEX.match(n)), None)
        if index is not None:
            found.append((f"{folder}/{index}", crumb))
        for sub in sorted(folders):
            if ignore is not None and ignore.search(sub):
                continue
            name = ":" + sub[1:] if sub.startswith("_") else sub
            visit(f"{folder}/{sub}", f"{crumb}/{name}" if load.dir_prefix else crumb)
        if index is not None:
            return
        for script in sorted(scripts):
            if ignore is not None and ignore.search(script):
                continue
            if _LOADED_SCRIPT.search(script) and not _LOADED_HOOKS.match(script):
                found.append((f"{folder}/{script}", crumb))

    visit(root, "")
    return found


def _typed(entity: _Entity | None, kind: str) -> bool | None:
    """Whether a value is of the `typeof` kind (or a list, "array"); None when not known."""
    if isinstance(entity, _Str):
        return kind == "string"
    if isinstance(entity, _Scoped) and isinstance(entity.value, Items):
        return kind in {"object", "array"}
    if isinstance(entity, _Scoped) and isinstance(entity.value, Function):
        return kind == "function"
    if (
        isinstance(entity, _Scoped)
        and isinstance(entity.value, Namespace)
        and not entity.value.verbs
    ):
        return None if kind == "function" else kind == "object"  # a class is a function
    return None


def _entry_options(library: str, entry: Expr) -> tuple[tuple[str, Expr | bool], ...] | None:
    """The options of a library plugin a composed manifest lists (`{ plugin: 'hapi-swagger',
    options: {...} }`) that its record reads, each a string the manifest spells out (any other
    value: `Opaque`); None when the library has no record or the options are out of sight."""
    record = OPTION_ROUTES.get(library)
    if record is None:
        return None
    options = dict(entry.fields).get("options") if isinstance(entry, Namespace) else None
    if options is None:
        return ()
    if not isinstance(options, Namespace) or options.bases:
        return None
    given = dict(options.fields)
    return tuple(
        (name, given[name] if isinstance(given[name], Lit) else Opaque())
        for name in record.options
        if name in given
    )


def _fields_of(entity: _Entity | None, name: str) -> bool | None:
    """Whether an object literal the scan shows has the field `name` (None: not one)."""
    if isinstance(entity, _Scoped) and isinstance(entity.value, Namespace):
        return name in dict(entity.value.fields) or bool(entity.value.bases)
    return None


def _plugin_options(options: Expr, own: Expr | None, below: bool) -> Namespace:
    """The options `@fastify/autoload` gives each plugin it loads: its own `options`, their
    `prefix` (its trailing `/` dropped) followed by the plugin's (its `autoPrefix`, else its
    folder's path: `/` for a folder below the loaded one when folder names are no prefix)."""
    given = Fallback(Trimmed(Member(options, ("prefix",)), "/"), Lit(""), "")
    own = own if own is not None else (Lit("/") if below else None)
    prefix = Concat((given, own)) if own is not None else given
    return Namespace((("prefix", prefix),), bases=(options,))


def _route_like(path: str, route: RouteDecl) -> bool:
    """Whether a declaration on a parameter nothing passes is surely a route: in Python
    (a route decorator or registration call), in JavaScript with a path (`'/x'`, `'*'`) on
    a parameter named as an app or a router is, and so is one whose path is computed
    (`server.route({ method: 'GET', path: opts.prefix + 'x' })` in a plugin a library loads):
    a route whose path is not known, a finding, never dropped; route options too, whatever
    their path (`path: 'issues'`, served under a prefix that ends in `/`) and whatever the
    parameter is called, where a method or a path is read from them."""
    if path.endswith(".py"):
        return True
    owner = route.owner
    if not isinstance(owner, Param):
        return False
    if owner.name not in _APP_NAMES:  # not `api.get('/users', {params})`, an HTTP client; route
        # options are a route on any name (`pluginServer.route({ method, path })`): no HTTP
        # client is given a method and a path to register
        return route.from_options and (route.methods is not None or type(route.path) is not Opaque)
    if isinstance(route.path, Lit):  # route options are a route even as `path: 'issues'`
        return route.path.value.startswith(("/", "*")) or (
            route.from_options and bool(route.path.value)
        )
    return route.methods is not None or route.methods_unknown or route.from_options


# a plugin's router parameter, by the records' names (`fastify`), -> the framework it serves
_PLUGIN_PARAMS = {name: f.key for f in JAVASCRIPT for name in f.plugin_params}
_APP_NAMES = frozenset({"app", "router", "server", "routes", *_PLUGIN_PARAMS})


def _generated(library: str) -> str:
    """The finding's words for a library that makes routes at run time (`GENERATORS`)."""
    return (
        f"{library} is configured here: the routes it generates at run time (from models or "
        "settings) are not listed"
    )


def _hook_call(callee: Expr) -> bool:
    """`pm.hook.name(...)`: a plugin manager's hook call (pluggy's convention)."""
    return isinstance(callee, Sym) and len(callee.path) >= 3 and callee.path[-2] == "hook"


def _element(field: Expr | None, stored: Stored, value: Expr, path: str) -> Expr | None:
    """`field` with the stored item `value` (or its element) for `stored`'s list."""
    if not isinstance(field, Stored) or field.attr != stored.attr:
        return field
    if field.field:  # a JavaScript object's property
        file = path
        if isinstance(value, Bound):
            file, value = value.file, value.expr
        if not isinstance(value, Namespace):
            return Opaque()
        found = dict(value.fields).get(field.field)
        return Bound(file, found) if found is not None else Opaque()
    if field.index < 0:
        return value
    if isinstance(value, Bound) and isinstance(value.expr, Items):
        items, file = value.expr.values, value.file
    elif isinstance(value, Items):
        items, file = value.values, path
    else:
        return Opaque()
    return Bound(file, items[field.index]) if field.index < len(items) else Opaque()


def _parts(expr: Expr) -> tuple[Expr, ...]:
    """`expr`, or the parts of a joined string."""
    return expr.parts if isinstance(expr, Concat) else (expr,)


def _is_cell(expr: Expr) -> TypeGuard[Each]:
    """An element of each row of a table of lists (`Each` with an index, no field)."""
    return isinstance(expr, Each) and expr.index >= 0 and not expr.field and not expr.rest


def _celled(expr: Expr, source: Expr, row: tuple[str, tuple[Expr, ...]]) -> Expr:
    """`expr` with each element of a row of `source` replaced by that row's cell (written in
    the row's file); an element past the row's end is not known."""
    if _is_cell(expr) and expr.source == source:
        file, cells = row
        return Bound(file, cells[expr.index]) if expr.index < len(cells) else Opaque()
    if isinstance(expr, Concat):
        return Concat(tuple(_celled(p, source, row) for p in expr.parts))
    return expr


def _filled(expr: Expr, source: Expr, values: Mapping[str, Expr]) -> Expr:
    """`expr` with each field of an item of `source` (`Each` with a `field`) replaced by that
    field's value in one record (`values`): a field the record has not is not known."""
    if isinstance(expr, Each) and expr.field and expr.source == source:
        return values.get(expr.field, Opaque())
    if isinstance(expr, Concat):
        return Concat(tuple(_filled(p, source, values) for p in expr.parts))
    return expr


# A route record's keys: its path's (the frameworks' records) and its method's
_PATH_KEYS = tuple(dict.fromkeys(k for f in BY_KEY.values() for k in f.path_keys))
_METHOD_KEYS = ("method", "methods", "verb")
# Werkzeug's and Starlette's `Route` add HEAD to every rule that has GET: a HEAD written beside
# GET is that same automatic one, not listed, as it is not for `methods=["GET"]` (FastAPI's
# `APIRoute` adds none, so a HEAD written there is its own route)
_HEAD_WITH_GET = frozenset({FLASK, STARLETTE})

_Chain = tuple[tuple[str, Invocation], ...]
_ALL = tuple(m.upper() for m in HTTP_METHODS if m != "trace")
_VERBS = {*HTTP_METHODS, "all"}
# a Python router's methods that make a route decorator (`router.get`, `bp.route`)
_ROUTE_METHODS = frozenset({*HTTP_METHODS, *(name for f in PYTHON for name in f.decorators)})
_VERB_ALIASES = {key: dict(f.verbs) for key, f in BY_KEY.items() if f.verbs}  # `del` -> DELETE
_CONSTRUCTOR = "constructor"  # what a `new` site calls (`js_facts._new_invocations`)
# The prefix of the word under which a `new X(...)` waits to be indexed (`_index_calls`), X the
# name it spells: asked for only with X's constructor's parameter; no file's bytes spell it, so
# the pre-filter reads nothing for it
_NEW_SITES = "\0new "
_GLOBAL_OBJECTS = frozenset({"global", "globalThis"})  # Node's object of globals


def _one_of(values: list[Expr]) -> Expr:
    return values[0] if len(values) == 1 else OneOf(tuple(values))


_GLOBAL_STORES = frozenset({"global.", "globalThis."})  # what a file storing a global spells
# names every Node module reads that no project stores on `global` (`process.env.X`)
_BUILT_INS = frozenset({
    "process", "require", "module", "exports", "console", "__dirname", "__filename", "Buffer",
    "JSON", "Object", "Array", "String", "Number", "Boolean", "Math", "Date", "Promise",
    "Symbol", "Reflect", "Error", "RegExp", "Map", "Set", "URL", "this", "super", "undefined",
})  # fmt: skip
_MAX_CHAINS = 1024  # calls followed out to one function (past it, the rest are not)
_MAX_KEYS = 1024  # keys of an imported object a loop is unrolled over (as `js_loops`)
_STR_METHODS = frozenset({"strip", "lstrip", "rstrip", "lower", "removeprefix", "removesuffix"})
_FOLDS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip"})  # `Choice.fold`


_NODE_ENV_WORLDS = frozenset(why for _, why in NODE_ENV_DEFAULTS)


def _in_world(
    worlds: dict[str, tuple[bool | None, tuple[str, ...]]] | None, world: str
) -> tuple[bool | None, tuple[str, ...]]:
    """What a test read per world (`Linker._worlds`) gives in `world`: its own reading there,
    else the one that holds in every world; not known (None) where it has neither."""
    if worlds is None:
        return None, ()
    return worlds.get(world) or worlds.get("") or (None, ())


def _param_site(expr: Expr | None) -> str | None:
    """The function a parameter in `expr` belongs to (the innermost def it is read in), or
    None when `expr` holds none."""
    kind = type(expr)
    if kind is Param:
        return expr.function  # type: ignore[union-attr]
    if kind is Each:
        source = expr.source  # type: ignore[union-attr]
        if isinstance(source, Mapped):  # `[scoped(u) for u in urls]`: `urls`'s function
            return _param_site(source)
        return source.function if isinstance(source, Param) else None
    if kind is Concat:
        parts = expr.parts  # type: ignore[union-attr]
    elif kind is Apply or kind is Format:
        assert isinstance(expr, Apply | Format)
        head = expr.callee if isinstance(expr, Apply) else expr.template
        parts = (head, *expr.args, *(v for _, v in expr.keywords))
    elif kind is Items:
        parts = expr.values  # type: ignore[union-attr]
    elif kind is Namespace:
        assert isinstance(expr, Namespace)
        parts = (*(v for _, v in expr.fields), *expr.bases)
    elif kind is Keyed:
        assert isinstance(expr, Keyed)
        parts = (expr.base, expr.key)
    elif kind is Member or kind is Trimmed:
        parts = (expr.base if isinstance(expr, Member) else expr.value,)  # type: ignore[union-attr]
    elif kind is Fallback:
        assert isinstance(expr, Fallback)
        parts = (expr.value, expr.default)
    elif kind is Mapped:
        parts = (expr.source,)  # type: ignore[union-attr]
    elif kind is Choice:
        assert isinstance(expr, Choice)
        parts = (expr.tested, expr.then, expr.otherwise)
    elif kind is Call:
        parts = expr.passed or ()  # type: ignore[union-attr]
    else:
        return None
    return next((s for p in parts if (s := _param_site(p)) is not None), None)


def _nested_each(expr: Expr) -> Each | None:
    """The item of a loop over a sequence a call passes (`Each`, the item itself) that `expr`
    passes to a helper, formats or joins (`scoped(r)`, `"/x" + r`), or to a function of its
    own (`Bound`); None when it holds none."""
    if isinstance(expr, Each):
        return expr if expr.index < 0 and not expr.field else None
    if isinstance(expr, Bound):  # `for r in rules: inner(bp, r)`: the item passed on
        return _nested_each(expr.expr)
    parts = _composed_parts(expr)
    return next((e for p in parts if p is not None and (e := _nested_each(p)) is not None), None)


def _composed_parts(expr: Expr | None) -> tuple[Expr | None, ...]:
    """What `expr` passes to a helper, joins or formats (`scoped(r)`, `"/x" + r`, `"%s" % r`);
    nothing for any other expression."""
    if isinstance(expr, Apply | Format):
        return expr.args
    if isinstance(expr, Concat):
        return expr.parts
    return ()


def _table_element(expr: Expr | None) -> Each | None:
    """An element or a key of each item of a module's table (`Each` over a `Sym`) that `expr`
    is, or joins, formats or passes to a helper; None when it holds none."""
    if isinstance(expr, Each):  # a module's table, or a parameter's bound to what is passed
        table = isinstance(expr.source, Sym | Bound) and (expr.index >= 0 or bool(expr.field))
        whole = isinstance(expr.source, Sym) and expr.index < 0 and not expr.field  # `for bp in T`
        return expr if (table or whole) and not expr.rest else None
    return next((e for p in _composed_parts(expr) if (e := _table_element(p)) is not None), None)


def _element_of(expr: Expr, source: Expr, item: _Entity | None, whole: Bound) -> Expr:
    """`expr` with each element or key of an item of the table `source` replaced by its value
    in `item` (a tuple or a dict literal), the item used whole by `whole` (the item as
    written); one the item has not is not known."""
    if isinstance(expr, Each) and expr.source == source and expr.index < 0 and not expr.field:
        return whole
    if isinstance(expr, Each) and expr.source == source:
        if isinstance(item, _Scoped) and isinstance(item.value, Items) and not expr.field:
            values = item.value.values
            return Bound(item.file, values[expr.index]) if expr.index < len(values) else Opaque()
        if isinstance(item, _Scoped) and isinstance(item.value, Namespace) and expr.field:
            value = dict(item.value.fields).get(expr.field)
            return Bound(item.file, value) if value is not None else Opaque()
        return Opaque()
    if isinstance(expr, Apply):
        args = tuple(
            _element_of(a, source, item, whole) if a is not None else None for a in expr.args
        )
        return replace(expr, args=args)
    if isinstance(expr, Concat):
        return Concat(tuple(_element_of(p, source, item, whole) for p in expr.parts))
    if isinstance(expr, Format):
        return replace(expr, args=tuple(_element_of(a, source, item, whole) for a in expr.args))
    return expr


def _with_item(expr: Expr, each: Each, item: Expr) -> Expr:
    """`expr` with the loop's item `each` replaced by `item`."""
    if expr == each:
        return item
    if isinstance(expr, Bound):
        return Bound(expr.file, _with_item(expr.expr, each, item))
    if isinstance(expr, Apply):
        args = tuple(_with_item(a, each, item) if a is not None else None for a in expr.args)
        return replace(expr, args=args)
    if isinstance(expr, Concat):
        return Concat(tuple(_with_item(p, each, item) for p in expr.parts))
    if isinstance(expr, Format):
        return replace(expr, args=tuple(_with_item(a, each, item) for a in expr.args))
    return expr


def _exported_routers(facts: ModuleFacts) -> list[str]:
    """The names under which a module exports a router it makes (`export { admin }`,
    `module.exports = { books }`, or `module.exports = router`: "default")."""

    def router(value: Expr) -> bool:
        if isinstance(value, Sym) and len(value.path) == 1:
            bound = facts.bindings.get(value.path[0])
            return isinstance(bound, RouterRef)
        return isinstance(value, RouterRef)

    names: list[str] = []
    for name, value in facts.exports.items():
        if name == "default" and isinstance(value, Namespace):
            names += [field for field, inner in value.fields if router(inner)]
        elif router(value):
            names.append(name)
    return names


def _moves(path: Expr) -> bool:
    """Whether a route whose path holds a parameter is the call's (a wrapper's `app.get(path,
    h)`: placed where the call is written) rather than written here with a member of what the
    callers pass before its own literal (`options.prefix + 'users'` in a plugin: it stays)."""
    if isinstance(path, Member) and path.of_class:  # `cls.DOCS_URL`: written with the class
        return False
    parts = _parts(path)
    if any(
        _param_site(p) is not None and not isinstance(p, Member | Trimmed | Fallback) for p in parts
    ):
        return True
    if any(isinstance(p, Lit) and p.value for p in parts):
        return False
    return _param_site(path) is not None


def _mentions(call: Invocation, site: str) -> bool:
    """Whether `call` passes on a parameter of the function at `site`."""
    return any(
        _param_site(value) == site
        for value in (*call.args, call.receiver, *(v for _, v in call.keywords))
        if value is not None
    )


def _call_values(call: Invocation) -> tuple[Expr | None, ...]:
    """What `call` passes, by position and by name."""
    return (*call.args, *(v for _, v in call.keywords))


def _bound_method_part(base: Expr, path: tuple[str, ...]) -> Expr | None:
    """`verb.__self__` or `verb.__name__` once a call binds `verb` to a router's method as
    written (`guarded(router.get, "/x")`): the router (`router`) or the method's name
    (`"get"`), as Python gives them; None for any other member or value."""
    if path not in {(BOUND_SELF,), (BOUND_NAME,)} or not isinstance(base, Bound):
        return None
    written = base.expr
    if not (isinstance(written, Sym) and len(written.path) > 1):
        return None
    if path == (BOUND_SELF,):
        return Bound(base.file, Sym(written.path[:-1]))
    return Lit(written.path[-1])


def _subst(
    expr: Expr,
    here: str,
    file: str,
    site: str,
    call: Invocation,
    caller: str,
    this: tuple[str, Sym] | None = None,
) -> Expr:
    """`expr` (written in `here`) with each parameter of the function at `site` in `file`
    replaced by what `call` (written in `caller`) passes for it, or its default; `this`: the
    class `C` the function is a method of and what `call` calls it on (`js_classes`), `C()...`
    written in `file` read as that receiver's member in `caller`."""
    kind = type(expr)
    if kind is Sym and this is not None and here == file:
        assert isinstance(expr, Sym)
        if expr.path[:2] == (this[0], CALL):
            return Bound(caller, Sym(this[1].path + expr.path[2:]))
        return expr
    if kind is Param:
        assert isinstance(expr, Param)
        if here != file or expr.function != site:
            return expr
        passed = _passed(call, expr)
        if passed is not None:
            return Bound(caller, passed)
        return Bound(here, expr.default) if expr.default is not None else expr
    if kind is Bound:
        assert isinstance(expr, Bound)
        inner = _subst(expr.expr, expr.file, file, site, call, caller, this)
        return expr if inner is expr.expr else Bound(expr.file, inner)
    if kind is Concat:
        assert isinstance(expr, Concat)
        return Concat(tuple(_subst(p, here, file, site, call, caller, this) for p in expr.parts))
    if kind is Each:
        assert isinstance(expr, Each)
        source = _subst(expr.source, here, file, site, call, caller, this)
        if isinstance(source, Mapped | Sym):  # the list it builds (or names), read where
            return Each(Bound(here, source), expr.index, expr.field, expr.rest)  # it is written
        if not isinstance(source, Param | Bound | Mapped):
            return Opaque()
        return Each(source, expr.index, expr.field, expr.rest)
    if kind is Apply:
        assert isinstance(expr, Apply)
        return Apply(
            _subst(expr.callee, here, file, site, call, caller, this),
            tuple(
                _subst(a, here, file, site, call, caller, this) if a is not None else None
                for a in expr.args
            ),
            tuple((k, _subst(v, here, file, site, call, caller, this)) for k, v in expr.keywords),
        )
    if kind is Format:
        assert isinstance(expr, Format)
        return Format(
            _subst(expr.template, here, file, site, call, caller, this),
            tuple(_subst(a, here, file, site, call, caller, this) for a in expr.args),
            tuple((k, _subst(v, here, file, site, call, caller, this)) for k, v in expr.keywords),
            expr.percent,
        )
    if kind is Items:
        assert isinstance(expr, Items)
        return Items(tuple(_subst(v, here, file, site, call, caller, this) for v in expr.values))
    if kind is Namespace:
        assert isinstance(expr, Namespace)
        fields = tuple((k, _subst(v, here, file, site, call, caller, this)) for k, v in expr.fields)
        bases = tuple(_subst(b, here, file, site, call, caller, this) for b in expr.bases)
        return replace(expr, fields=fields, bases=bases)
    if kind is Member:
        assert isinstance(expr, Member)
        base = _subst(expr.base, here, file, site, call, caller, this)
        return _bound_method_part(base, expr.path) or replace(expr, base=base)
    if kind is Keyed:
        assert isinstance(expr, Keyed)
        return Keyed(
            _subst(expr.base, here, file, site, call, caller, this),
            _subst(expr.key, here, file, site, call, caller, this),
        )
    if kind is Trimmed:
        assert isinstance(expr, Trimmed)
        return Trimmed(_subst(expr.value, here, file, site, call, caller, this), expr.suffix)
    if kind is Fallback:
        assert isinstance(expr, Fallback)
        return Fallback(
            _subst(expr.value, here, file, site, call, caller, this),
            _subst(expr.default, here, file, site, call, caller, this),
            expr.source,
        )
    if kind is Mapped:
        assert isinstance(expr, Mapped)
        value = expr.value
        return replace(
            expr,
            source=_subst(expr.source, here, file, site, call, caller, this),
            value=None if value is None else _subst(value, here, file, site, call, caller, this),
        )
    if kind is Choice:
        assert isinstance(expr, Choice)
        return replace(
            expr,
            tested=_subst(expr.tested, here, file, site, call, caller, this),
            then=_subst(expr.then, here, file, site, call, caller, this),
            otherwise=_subst(expr.otherwise, here, file, site, call, caller, this),
        )
    if kind is PluginOf:
        assert isinstance(expr, PluginOf)
        return PluginOf(_subst(expr.factory, here, file, site, call, caller, this))
    if kind is Call:
        assert isinstance(expr, Call)
        if expr.passed is None:
            return expr
        given = tuple(_subst(a, here, file, site, call, caller, this) for a in expr.passed)
        return replace(expr, passed=given)
    return expr


def _guarded_at(node: _Node, path: str, line: int, under: str) -> int:
    """The verdict of the middleware on the router that covers what is declared after it in
    its file (all that other files hang on the router) at or below the path it was given."""
    return max(
        (
            verdict
            for file, at_line, scope, verdict in node.guards
            if (file != path or at_line < line) and (not scope or _within(under, scope))
        ),
        default=NONE,
    )


def _within(path: str, scope: str) -> bool:
    return path == scope or path.startswith(scope.rstrip("/") + "/")
