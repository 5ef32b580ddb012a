"""Django and Django REST framework facts of one Python file, read with `ast`, never imported:
its URL pattern lists (`urlpatterns` and any list of `path`/`re_path`/`url` entries, with
`+=`, `.extend`, `.append` and the branches of `if`/`try` blocks all counted), its DRF routers
and their `register` calls, the classes and functions a URL may name as a view (their methods,
decorators, `permission_classes`, `@action`s, lookup fields) and its settings (`ROOT_URLCONF`,
`DJANGO_SETTINGS_MODULE`, `REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]`). The linker
(`django_linker`) follows includes, views and routers across files."""

from __future__ import annotations

import ast
import bisect
import re
import textwrap
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from ..django_apps import AppConfigFacts, SettingsFacts, app_config, package_settings
from ..pymodules import absolute, class_base
from ..pymodules import attribute_path as dotted
from .django_loops import AppLoop, TextOf, app_loop, comprehension_loop, function_loop, passes
from .django_routers import DJANGO_REGISTER_METHODS, django_router
from .heads import literal_heads

# The target of a URL entry, as a tag and its operands:
# ("view", dotted) a function or class name; ("cbv", dotted) `X.as_view(...)`;
# ("include", module) `include("app.urls")`; ("name", dotted) `include(name)` or a list spliced
# in by name; ("router", dotted) `router.urls`; ("static", "serve") Django's own file view
# (`static()` without `view=`); ("instance", dotted) `LatestFeed()`, a callable object made
# with no argument, or the view a project function so called returns (`make_view()`);
# ("made", dotted) `error_page(404)`, `view_for(settings.KIND, "x")`, the view a function
# called with arguments returns; ("schema", "GET") a library's API schema view (`get_schema_view`);
# ("computed", call) URL patterns a call returns, added to a list (`urlpatterns += f()`);
# ("opaque", what) anything else.
Target = tuple[str, str]
# A route computed from names: literal text and dotted names, joined (`f"{prefix}admin/"` is
# (("lit", ""), ("sym", "prefix"), ("lit", "admin/"))); the linker evaluates each name
RoutePart = tuple[str, str]
# A string as the file spells it: its parts, every name among them for the linker to evaluate
# (`f"cve"`, `"a" + "b"` and this module's constants are literal text already)
Spelled = tuple[RoutePart, ...]
COMPUTED = ("?",)  # a list of strings given (`http_method_names=`) that the reader cannot read
# Where a route or list is served otherwise in some configuration: (line, why)
Caveat = tuple[int, str]
_URL_CALLS = frozenset({"path", "re_path", "url"})
_ROUTER_CLASSES = {"DefaultRouter": "default", "SimpleRouter": "simple"}
_STATIC = frozenset({"static", "staticfiles_urlpatterns"})  # files served in DEBUG
# where Django defines them: imported under another name, they are still them
_STATIC_MODULES = frozenset({"django.conf.urls.static:static",
                             "django.contrib.staticfiles.urls:staticfiles_urlpatterns"})  # fmt: skip
# a def or class `django_collect` may run: it makes URL patterns, or stores items on `self`
_URL_MAKING = re.compile(r"\b(?:path|re_path|url|include)\(")
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "dataclass"})
_STORE_MAKERS = frozenset({"dict", "defaultdict"})
_COLLECTING = re.compile(r"\.(?:append|extend|insert|setdefault)\(|\+=|\]\s*=[^=]")
# a line of blanks only, which `textwrap.dedent` empties
_BLANK_LINE = re.compile(r"^[ \t]+$", re.MULTILINE)
# a def's or class's text that reads the request's user, or turns a caller away (401/403)
_USER_CHECK_PARTS = (
    r"request\.user", r"is_authenticated", r"PermissionDenied", r"NotAuthenticated",
    r"redirect_to_login", r"HttpResponseForbidden", r"status=40[13]\b", r"HTTP_40[13]_",
)  # fmt: skip
_USER_CHECK = re.compile("|".join(_USER_CHECK_PARTS))
_USER_HEADS = literal_heads(_USER_CHECK_PARTS)
"""What every user check starts with (`request.user`, `status=403`...): most files hold none
and are not searched (words such as `user` or `40`, looked for before, are in most files)."""


@dataclass(frozen=True, slots=True)
class UrlEntry:
    """One URL pattern: its route as written (None: computed), whether it is a regex
    (`re_path`, `url`), what it serves and the views wrappers written around it
    (`login_required(views.x)`)."""

    line: int
    route: str | None
    regex: bool
    target: Target
    methods: tuple[str, ...] | None = None  # `as_view(http_method_names=[...])`
    wrappers: tuple[str, ...] = ()
    # inside `i18n_patterns(...)`: "prefixed", served under `{language}/`; "both", also without
    # it (`prefix_default_language=False`, the default language's)
    i18n: str = ""
    parts: tuple[RoutePart, ...] | None = None  # a computed route, when names make it
    caveats: tuple[Caveat, ...] = ()  # a branch rebinds a name the route or its list uses
    actions: tuple[str, ...] | None = None  # `Viewset.as_view({'get': 'list'})`: its methods
    # added under a module-level `if settings.X:` (`if not settings.X:`, or its `else`)
    only_if: SettingTest | None = None
    # what its view class was read assuming (`registry.get(Cls).as_view()`: that it is `Cls`)
    assumed: tuple[str, ...] = ()
    # `include(app.name + ".urls")`: the module computed from text and names
    module: tuple[RoutePart, ...] | None = None
    # added by each pass of a loop (over the installed apps, or anything else)
    loop: AppLoop | None = None
    included: bool = False  # written `include(x)`: URL patterns, never a view
    # a list spliced in by name (`urlpatterns = base_urlpatterns + extra`): URL patterns too
    spliced: bool = False
    # Django's `static()` ("static") or `staticfiles_urlpatterns()` ("staticfiles"): served
    # only when `settings.DEBUG` is true, at the prefix `parts` (or `route`) names
    static: str = ""
    # the call as written, for `django_collect` to run: of a ("computed", ...) target (the URL
    # patterns it returns), of an ("instance", ...) or ("made", ...) one (the view it returns)
    code: str = ""


@dataclass(frozen=True, slots=True)
class NestedRouter:
    """drf-nested-routers' `NestedSimpleRouter(parent, parent_prefix, lookup=...)`: each
    viewset registered on it is served below the parent's `parent_prefix` item, whose lookup
    is `{lookup}_{parent lookup}` (`{project_pk}` for `lookup="project"` on a `pk` parent)."""

    parent: str  # the parent router, dotted as written
    parent_prefix: Spelled | None  # None: computed
    lookup: str | None  # None: computed; "": not given (drf-nested-routers' `nested_<n>`)
    trailing_slash: bool | None  # None: not given, the parent's


@dataclass(frozen=True, slots=True)
class Registration:
    """`router.register(prefix, ViewSet, basename=...)`; the prefix as the file spells it, for
    the linker to evaluate (None: not a string the reader can spell)."""

    router: str
    prefix: Spelled | None
    viewset: str
    line: int
    # made on what another `register()` returned (drf-extensions' nested registrations)
    chained: bool = False


# the methods `@action`'s `MethodMapper` has a decorator for (DRF 3.8+)
_MAPPED_VERBS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "trace"})


@dataclass(frozen=True, slots=True)
class Action:
    """An `@action(detail=..., methods=[...], url_path=...)` method of a viewset."""

    name: str
    detail: bool | None
    methods: tuple[str, ...]
    url_path: str | None
    permissions: tuple[str, ...] | None
    line: int


@dataclass(frozen=True, slots=True)
class RouterUrls:
    """A router class's override of what DRF's `urls` gives: `get_urls` or the `urls`
    property returning `super()`'s list (`keeps_base`) plus URL entries of its own; one the
    reader cannot follow (any other statement, or DRF's route hooks `routes`, `get_routes`,
    `get_lookup_regex`, `get_method_map` redefined) is not `readable`."""

    name: str  # the method or attribute overridden
    line: int
    readable: bool
    keeps_base: bool = True
    extras: tuple[UrlEntry, ...] = ()
    unread: bool = False
    """It adds entries the reader cannot follow to `super()`'s list (`super().urls +
    [e.route for e in self.extra]`): the base's routes are listed, the rest is a finding."""


@dataclass(frozen=True, slots=True)
class DrfRoute:
    """One entry of a DRF router's `routes`: `Route(url=..., mapping={...}, detail=...)`, or a
    `DynamicRoute(url=..., detail=...)` (`mapping` None) serving the view set's `@action`s of
    that `detail`; `url` a regex template with `{prefix}`, `{lookup}`, `{url_path}`,
    `{trailing_slash}`."""

    url: str
    mapping: tuple[tuple[str, str], ...] | None  # (METHOD, action)
    detail: bool


@dataclass(frozen=True, slots=True)
class RouteChange:
    """A change a router class's `__init__` makes to `self.routes`, in order: a method added
    to the mapping of the route at `index` (`self.routes[0].mapping.update({...})`), or the
    whole table replaced (`table`, `self.routes = [Route(...), ...]`)."""

    index: int = 0
    method: str = ""
    action: str = ""
    table: tuple[DrfRoute, ...] | None = None


@dataclass(frozen=True, slots=True)
class DjangoClass:
    line: int
    bases: tuple[str, ...]  # dotted, as written ("?" for what is not a name)
    methods: tuple[str, ...]  # the names of the methods it defines
    http_method_names: tuple[str, ...] | None
    lookup_field: str | None
    lookup_url_kwarg: str | None
    permissions: tuple[str, ...] | None  # `permission_classes` as written; None: not set here
    actions: tuple[Action, ...]
    decorators: tuple[str, ...]  # `@method_decorator(login_required, ...)`: the inner names
    checks_user: bool  # its text reads the request's user (a custom permission class)
    name: str = ""
    # what its own name was imported as before the class statement rebound it ("module:attr"):
    # `class DetailView(Mixin, DetailView)` subclasses that import
    shadows: str = ""
    # as a router subclass: its overrides of `get_urls` and `urls`, in the order DRF applies
    # them, and its literal class options (`include_root_view = False`)
    urls: tuple[RouterUrls, ...] = ()
    router_options: tuple[tuple[str, bool], ...] = ()
    # its literal `routes = [Route(...), ...]` class attribute, and the changes its `__init__`
    # makes to `self.routes` (`self.routes[0].mapping.update({"put": "bulk_update"})`)
    route_table: tuple[DrfRoute, ...] | None = None
    route_changes: tuple[RouteChange, ...] = ()
    # its `class Meta: app_label = "x"` ("?" written otherwise than as a string): a model's
    # label, which `Model._meta.app_label` reads (`django_registries`)
    meta_label: str | None = None
    # its class attributes bound to a literal (`lookup_field = "slug"`): what a classmethod the
    # project runs reads of a subclass whose code is not kept (`django_collect`)
    # (`...`: bound to something else, which is not read)
    fields: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True, slots=True)
class DjangoFunction:
    line: int
    methods: tuple[str, ...] | None  # `@require_http_methods`, `@require_GET`, `@api_view`
    api_view: bool
    permissions: tuple[str, ...] | None
    decorators: tuple[str, ...]  # every other decorator, dotted
    checks_user: bool  # its text reads the request's user (a decorator of the repository)
    # a function defining a function it returns (a view factory, `error_page(404)`): what each
    # of its `return`s gives, a def of its own (its facts) or a name ("?": anything else)
    returns: tuple[tuple[str, DjangoFunction | None], ...] = ()


@dataclass(frozen=True, slots=True)
class DjangoFacts:
    lists: dict[str, tuple[UrlEntry, ...]] = field(default_factory=dict)
    # name -> (kind: "simple" or "default" with "-no-root", "-suffixes"; trailing slash; line)
    routers: dict[str, tuple[str, bool, int]] = field(default_factory=dict)
    registrations: tuple[Registration, ...] = ()
    nested: dict[str, NestedRouter] = field(default_factory=dict)  # router name -> its parent
    # a router made from a class not known by name (`router = ApiRouter()`, registered or
    # included): name -> the class, dotted as written; its `routers` kind is "?" until linked
    router_classes: dict[str, str] = field(default_factory=dict)
    classes: dict[str, DjangoClass] = field(default_factory=dict)
    functions: dict[str, DjangoFunction] = field(default_factory=dict)
    # a module-level name bound to a class view, `delete = DeleteView.as_view()` (maybe wrapped,
    # `login_required(...)`): what a URL pattern naming it serves, its route empty
    views: dict[str, UrlEntry] = field(default_factory=dict)
    stars: tuple[str, ...] = ()  # modules star-imported (absolute)
    root_urlconf: str | None = None
    root_line: int = 1  # where ROOT_URLCONF is set
    settings_module: str | None = None
    default_permissions: tuple[str, ...] | None = None
    notes: tuple[tuple[int, str], ...] = ()  # (line, detail): constructs recognised, not read
    # the module's lists of names (`INSTALLED_APPS` and the plugin lists it is made of)
    installs: SettingsFacts | None = None
    # every class with a base, as an `AppConfig` would be read (its options and members)
    configs: dict[str, AppConfigFacts] = field(default_factory=dict)
    # a function returning the installed apps it keeps (`get_plugins()`): its loop
    app_loops: dict[str, AppLoop] = field(default_factory=dict)
    # the project code `django_collect` may run, as written (first line, source): module-level
    # defs and classes that build or collect URL patterns (`collects`), objects made at module
    # level from a class (`name = Registry(...)`: the call) and module-level calls (`x.add(...)`)
    code: dict[str, tuple[int, str]] = field(default_factory=dict)
    # module-level names bound once to a literal list, tuple, set or dict (`ACTIONS = ("list",
    # "detail")`), for that code to read; only kept with other facts
    literals: dict[str, object] = field(default_factory=dict)
    # module-level names bound once, unconditionally, to a constant (`USE_SAML = False`):
    # (name, line, the constant as written, whether it is true), a settings module's own
    # default the linker may decide a `SettingTest` by and name; only kept with other facts
    constants: tuple[tuple[str, int, str, bool], ...] = ()
    instances: dict[str, tuple[int, str]] = field(default_factory=dict)
    effects: tuple[tuple[int, str], ...] = ()
    imports: tuple[str, ...] = ()  # the modules its module-level imports load, absolute
    # module-level decorators of defs and classes, (line, decorator as written, what it
    # decorates): a decorator may fill a registry at import (`django_registries`); a
    # decorator applied by a module-level call (`register(Model, "x")(view)`): (line, the
    # call, "")
    decorated: tuple[tuple[int, str, str], ...] = ()
    # calls of a call outside decorators (`register(Model, "x")(view)` in a function), (line,
    # the inner callee's last name): a decorator applied at runtime
    applied: tuple[tuple[int, str], ...] = ()


def django_facts(tree: ast.Module, source: str, package: str) -> DjangoFacts | None:
    """The Django facts of a parsed file (None when it has none). Module-level statements
    only: every def and class is kept, since a URLconf may name any of them as a view."""
    reader = _Reader(package, source)
    tests = _setting_tests(tree.body)
    for stmt, conditional in _flat(tree.body, False):
        reader.conditional = conditional
        only_if = tests.get(id(stmt))
        if only_if is None:
            reader.statement(stmt)
            continue
        # the patterns this statement adds (a rebinding keeps the earlier ones, maybe copied)
        before = {(e.line, e.route, e.target) for es in reader.lists.values() for e in es}
        reader.statement(stmt)
        for entries in reader.lists.values():
            entries[:] = [
                e if (e.line, e.route, e.target) in before else replace(e, only_if=only_if)
                for e in entries
            ]
    if "DJANGO_SETTINGS_MODULE" in source:
        reader.settings_module(tree)
    reader.made_routers()
    facts = DjangoFacts(
        lists={k: tuple(v) for k, v in reader.lists.items()},
        routers=reader.routers,
        registrations=tuple(reader.registrations),
        nested=reader.nested,
        router_classes=reader.router_classes,
        classes=reader.classes,
        functions=reader.functions,
        views=reader.views,
        stars=tuple(reader.stars),
        root_urlconf=reader.root_urlconf,
        root_line=reader.root_line,
        settings_module=reader.settings,
        default_permissions=reader.default_permissions,
        notes=tuple(reader.notes),
        installs=package_settings(package, tree, source, lists=True),
        configs=reader.configs,
        app_loops=reader.app_loops,
        code=reader.code,
        literals={k: v for k, v in reader.literals.items() if v is not ...},
        constants=_constants(tree.body),
        instances=reader.instances,
        effects=tuple(reader.effects),
        imports=tuple(reader.imports) if reader.effects or reader.instances else (),
        decorated=tuple(reader.decorated),
        applied=_applied(tree) if ")(" in source else (),
    )
    empty = DjangoFacts()
    return None if replace(facts, literals={}, constants=()) == empty else facts


def _meta_label(node: ast.ClassDef, text: TextOf) -> str | None:
    """The `app_label` a class's inner `Meta` sets: its string, "?" when not one `text`
    reads."""
    for stmt in node.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == "Meta":
            for inner in stmt.body:
                if isinstance(inner, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "app_label" for t in inner.targets
                ):
                    label = text(inner.value)
                    return label if label is not None else "?"
    return None


def _applied(tree: ast.Module) -> tuple[tuple[int, str], ...]:
    """Every `f(...)(...)` written in the module but in a decorator list, with `f`'s last
    name (the imported one where an import renames it: `import page_for as attach`)."""
    renamed = {
        alias.asname: alias.name.rpartition(".")[2]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
        if alias.asname
    }
    decorators = {
        id(d)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for d in node.decorator_list
    }
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Call)):
            continue
        if id(node.func) in decorators:
            continue
        inner = node.func.func
        name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
        if name:
            out.append((node.lineno, renamed.get(name, name)))
    return tuple(sorted(out))


def _makes_urls(text: str) -> bool:
    """Whether a def's text calls `path`, `re_path`, `url` or `include` (looked for by regex
    only when the text spells one of their endings)."""
    return ("th(" in text or "rl(" in text or "de(" in text) and _URL_MAKING.search(
        text
    ) is not None


@dataclass(frozen=True, slots=True)
class SettingTest:
    """The module-level `if` a URL pattern is added under, read as a flag of the settings:
    `name` as written (`settings.X`); `when_false`, the branch runs when it is false (`not`,
    `else`); `unset`, what the test reads where the settings bind no `X`
    (`hasattr(settings, "X") and settings.X`: false; `getattr(settings, "X", False)`: its
    literal default), None where that is an error or not known (`settings.X` alone)."""

    name: str
    when_false: bool
    unset: bool | None = None


def _setting_tests(body: list[ast.stmt]) -> dict[int, SettingTest]:
    """The statements under a module-level `if` whose test reads a flag (`_flag_test`:
    `settings.X`, `not settings.X`, `hasattr(settings, "X") and settings.X`,
    `getattr(settings, "X", False)`), by id (at any depth), with that test and whether the
    branch runs when it is false: the linker reads the setting's default."""
    found: dict[int, SettingTest] = {}
    for stmt in body:
        if type(stmt) is not ast.If:
            continue
        assert isinstance(stmt, ast.If)
        test, negate = stmt.test, False
        while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negate = test.operand, not negate
        flag = _flag_test(test)
        if flag is None:
            continue
        name, unset = flag
        for block, when in ((stmt.body, negate), (stmt.orelse, not negate)):
            for inner in block:
                for node in ast.walk(inner):
                    if isinstance(node, ast.stmt):
                        found[id(node)] = SettingTest(name, when, unset)
    return found


def _flag_test(test: ast.expr) -> tuple[str, bool | None] | None:
    """The dotted name an `if` test reads as a flag, with what it reads where that name is
    not bound (`SettingTest.unset`); None for any other test."""
    if isinstance(test, ast.Attribute):
        name = dotted(test)
        return (name, None) if name is not None else None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and len(test.values) == 2:
        probe, read = test.values  # `hasattr(settings, "X") and settings.X`
        asked = _named_attribute(probe, "hasattr", 2)
        if asked is not None and isinstance(read, ast.Attribute) and dotted(read) == asked:
            return asked, False
        return None
    asked = _named_attribute(test, "getattr", 3) or _named_attribute(test, "getattr", 2)
    if asked is None or not isinstance(test, ast.Call):
        return None
    default = test.args[2] if len(test.args) == 3 else None
    return asked, bool(default.value) if isinstance(default, ast.Constant) else None


def _named_attribute(node: ast.expr, function: str, count: int) -> str | None:
    """`hasattr(settings, "X")` (`function` of `count` positional arguments, the second a
    literal name): `settings.X`, the attribute it reads; None for anything else."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == function
        and len(node.args) == count
        and not node.keywords
    ):
        return None
    owner, key = dotted(node.args[0]), node.args[1]
    if owner is None or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return None
    return f"{owner}.{key.value}" if key.value.isidentifier() else None


def _constants(body: list[ast.stmt]) -> tuple[tuple[str, int, str, bool], ...]:
    """`DjangoFacts.constants`: a name that any other module-level statement binds too (in an
    `if`, a `try`, an augmented assignment) is left out, its value being chosen there."""
    bound: dict[str, int] = {}
    kept: dict[str, tuple[str, int, str, bool]] = {}
    for stmt, conditional in _flat(body, False):
        for name in _assigned(stmt):
            bound[name] = bound.get(name, 0) + 1
        if (
            not conditional
            and isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Constant)
        ):
            name = stmt.targets[0].id
            value = stmt.value.value
            kept[name] = (name, stmt.lineno, repr(value)[:40], bool(value))
    return tuple(v for k, v in kept.items() if bound.get(k) == 1)


def _assigned(stmt: ast.stmt) -> list[str]:
    """The names a module-level statement binds (assignments and imports of one name)."""
    if isinstance(stmt, ast.Assign):
        return [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, ast.AugAssign | ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    return []


def _flat(body: list[ast.stmt], conditional: bool) -> list[tuple[ast.stmt, bool]]:
    """Module-level statements with every branch of `if`/`try` blocks in (a conditional append
    is counted: the routes it adds are served in some configuration), each with whether it runs
    only in some configuration (inside an `if`, an `except` or an `else`)."""
    out: list[tuple[ast.stmt, bool]] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out += _flat(stmt.body, True) + _flat(stmt.orelse, True)
        elif isinstance(stmt, ast.Try):
            out += _flat(stmt.body, conditional) + _flat(stmt.orelse, True)
            out += _flat(stmt.finalbody, conditional)
            for handler in stmt.handlers:
                out += _flat(handler.body, True)
        elif isinstance(stmt, ast.With | ast.While):  # a `while` pass read once
            out += _flat(stmt.body, conditional)
        else:  # a `for` is read by the reader, pass by pass (`for_loop`)
            out.append((stmt, conditional))
    return out


def _strings(node: ast.expr | None, text: TextOf) -> tuple[str, ...] | None:
    """A list, tuple or set of strings (`http_method_names = ["get", VERB]`), each read by
    `text`; None: anything else."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        out = [text(e) for e in node.elts]
        if all(v is not None for v in out):
            return tuple(v for v in out if v is not None)
    return None


def _given_strings(node: ast.expr | None, text: TextOf) -> tuple[str, ...] | None:
    """`_strings` of an option that may be left out: None when it is, `COMPUTED` when it is
    given and not read (never taken as not given)."""
    if node is None:
        return None
    found = _strings(node, text)
    return found if found is not None else COMPUTED


def _names(node: ast.expr | None) -> tuple[str, ...] | None:
    """`[IsAuthenticated, perms.IsOwner]` -> their dotted names ("?" for anything else)."""
    if isinstance(node, ast.List | ast.Tuple):
        return tuple(dotted(e) or "?" for e in node.elts)
    return ("?",) if node is not None else None


# the parameter a decorator factory takes its list of methods by (Django's, DRF's)
_METHOD_LISTS = {"require_http_methods": "request_method_list", "api_view": "http_method_names"}


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _argument(call: ast.Call, index: int, name: str) -> ast.expr | None:
    """The parameter `name`, passed `index`-th or by keyword (`action(["post"], True)`,
    `api_view(http_method_names=["POST"])`)."""
    return call.args[index] if len(call.args) > index else _keyword(call, name)


def _true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _false(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _last(node: ast.expr) -> str:
    name = dotted(node) or ""
    return name.rpartition(".")[2]


class _Reader:
    def __init__(self, package: str, source: str) -> None:
        self.package = package
        self.source = source
        # whether an `__init__` may set `self.trailing_slash` or touch `self.routes`: the words
        # are spelt (in ASCII text; other text may spell them in letters NFKC folds to them)
        self.may_set_routes = (
            not source.isascii() or "routes" in source or "trailing_slash" in source
        )
        # whether a def may loop over the installed apps (`django_loops.function_loop` reads
        # only a loop over `get_app_configs()` or `INSTALLED_APPS`): the names are spelt
        self.may_loop_apps = (
            not source.isascii() or "get_app_configs" in source or "INSTALLED_APPS" in source
        )
        self.checks: list[int] | None = None  # lines matching `_USER_CHECK`, found when asked
        self.lists: dict[str, list[UrlEntry]] = {}
        self.routers: dict[str, tuple[str, bool, int]] = {}
        self.registrations: list[Registration] = []
        self.nested: dict[str, NestedRouter] = {}
        # `name = Something(...)`: (class dotted, trailing slash, line), a router if registered
        self.made: dict[str, tuple[str, bool, int]] = {}
        self.router_classes: dict[str, str] = {}
        self.conditional = False  # the statement read runs in some configuration only
        # module-level names bound to strings: (value, conditional, line) per binding, in order
        self.constants: dict[str, list[tuple[ast.expr, bool, int]]] = {}
        self.renamed: dict[str, str] = {}  # a list rebound from itself: its earlier value
        self.empty: set[str] = set()  # names bound to an empty list or tuple literal
        self.literals: dict[str, object] = {}  # `DjangoFacts.literals`; `...`: rebound
        self.schema_views: set[str] = set()  # names bound to `get_schema_view(...)`
        self.schema_makers = {"get_schema_view"}  # what it is called here
        self.imported: dict[str, str] = {}  # name -> "module:attr", `from module import attr`
        self.classes: dict[str, DjangoClass] = {}
        self.functions: dict[str, DjangoFunction] = {}
        self.views: dict[str, UrlEntry] = {}
        self.stars: list[str] = []
        self.root_urlconf: str | None = None
        self.root_line = 1
        self.settings: str | None = None
        self.default_permissions: tuple[str, ...] | None = None
        self.notes: list[tuple[int, str]] = []
        self.configs: dict[str, AppConfigFacts] = {}
        self.app_loops: dict[str, AppLoop] = {}
        self.code: dict[str, tuple[int, str]] = {}
        self.instances: dict[str, tuple[int, str]] = {}
        self.effects: list[tuple[int, str]] = []
        self.imports: list[str] = []
        self.decorated: list[tuple[int, str, str]] = []
        self.lines: list[str] | None = None  # the source's lines, split when first asked

    def segment(self, node: ast.expr | ast.stmt) -> str:
        """`node`'s source as written (its lines from the first: a def at column 0 parses)."""
        if not self.source:  # an entry made for `django_collect`: no file behind it
            return ast.unparse(node)
        if self.lines is None:
            self.lines = self.source.splitlines(keepends=True)
        end = node.end_lineno or node.lineno
        if isinstance(node, ast.stmt):
            text = "".join(self.lines[node.lineno - 1 : end])
            if text and text[0] not in " \t\n" and _BLANK_LINE.search(text) is None:
                return text  # as `dedent` leaves it: no margin (line 1 has none), no blank line
            return textwrap.dedent(text)
        first = self.lines[node.lineno - 1].encode("utf-8", "surrogatepass")
        if node.lineno == end:
            return first[node.col_offset : node.end_col_offset].decode("utf-8", "surrogatepass")
        last = self.lines[end - 1].encode("utf-8", "surrogatepass")
        middle = "".join(self.lines[node.lineno : end - 1])
        head = first[node.col_offset :].decode("utf-8", "surrogatepass")
        return head + middle + last[: node.end_col_offset].decode("utf-8", "surrogatepass")

    def keep_code(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        """Keep a def or class `django_collect` may run: one that makes URL patterns or stores
        items on `self` (a collector), or a function taking no request (a helper)."""
        text = self.segment(node)
        if isinstance(node, ast.ClassDef):
            kept = _makes_urls(text) or ("self." in text and _COLLECTING.search(text) is not None)
            kept = kept or "def __getattr__" in text or "def __call__" in text
            kept = kept or "def get_routes" in text  # a DRF router's (`django_route_hooks`)
            # an app's config, whose `ready()` may register views (`django_registries`)
            kept = kept or "def ready(" in text
            kept = kept or any((dotted(class_base(b)) or "").endswith("Config") for b in node.bases)
            if not kept:  # a method calling methods of an object it is given (`reg.add(...)`)
                given = {
                    arg.arg
                    for stmt in node.body
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
                    for arg in (*stmt.args.posonlyargs, *stmt.args.args)[1:]
                } - {"request"}
                given = {name for name in given if f"{name}." in text}  # most hold none
                kept = (
                    bool(given)
                    and re.search(rf"\b(?:{'|'.join(sorted(given))})\.\w+\(", text) is not None
                )
        else:
            first = node.args.posonlyargs + node.args.args
            kept = _makes_urls(text) or not (first and first[0].arg in {"request", "self", "cls"})
        if kept:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            self.code[node.name] = (start, text)

    # -- statements ------------------------------------------------------------------------

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                self.assign(target.id, stmt.value)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if stmt.value is not None:
                self.assign(stmt.target.id, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self.literals[stmt.target.id] = ...  # changed: not the literal any more
            if stmt.target.id in self.lists and isinstance(stmt.op, ast.Add):
                self.lists[stmt.target.id] += self.entries(stmt.value)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            owner = stmt.value.func.value if isinstance(stmt.value.func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id in self.literals:  # `NAMES.append(x)`
                self.literals[owner.id] = ...
            if isinstance(stmt.value.func, ast.Call):  # `register(Model, "x")(view)`
                self.decorated.append((stmt.lineno, self.segment(stmt.value), ""))
            self.call(stmt.value)
            if isinstance(stmt.value.func, ast.Name | ast.Attribute):
                self.effects.append((stmt.lineno, self.segment(stmt.value)))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Tuple):
            # `router.register(...),`: a stray trailing comma makes a tuple of the call,
            # which Python still runs
            for element in stmt.value.elts:
                if isinstance(element, ast.Call):
                    self.call(element)
        elif isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
            self.stars.append(absolute(stmt.module, stmt.level, self.package))
        elif isinstance(stmt, ast.Import):
            self.imports += [alias.name for alias in stmt.names]
        elif isinstance(stmt, ast.ImportFrom):
            module = absolute(stmt.module, stmt.level, self.package)
            self.imports += [module, *(f"{module}.{alias.name}" for alias in stmt.names)]
            for alias in stmt.names:
                if alias.name == "get_schema_view":  # DRF's or drf-yasg's, maybe renamed
                    self.schema_makers.add(alias.asname or alias.name)
                self.imported[alias.asname or alias.name] = f"{module}:{alias.name}"
        elif isinstance(stmt, ast.ClassDef):
            self.decorators(stmt)
            self.classes[stmt.name] = self.klass(stmt)
            if (config := app_config(stmt, any_base=True)) is not None:
                self.configs[stmt.name] = config
            self.keep_code(stmt)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self.decorators(stmt)
            self.functions[stmt.name] = self.function(stmt)
            if self.may_loop_apps and (found := function_loop(stmt, self.text)) is not None:
                self.app_loops[stmt.name] = found
            self.keep_code(stmt)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self.for_loop(stmt)

    def literal(self, name: str, value: ast.expr) -> None:
        """Keep `name = [...]` (a display of literals, not too long) bound once, where no
        branch decides: a name bound twice is not kept."""
        kept: object = ...
        if (
            name not in self.literals
            and not self.conditional
            and isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Dict)
            and (value.end_lineno or value.lineno) - value.lineno < 40
        ):
            try:
                kept = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                kept = ...
        self.literals[name] = kept

    def decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        """Keep the decorators a registry may be filled by: a project's name or a call of one
        (not the builtins every class uses)."""
        for decorator in node.decorator_list:
            callee = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = dotted(callee) if isinstance(callee, ast.Name | ast.Attribute) else None
            if name is not None and name not in _PLAIN_DECORATORS:
                self.decorated.append((decorator.lineno, self.segment(decorator), node.name))

    def for_loop(self, stmt: ast.For | ast.AsyncFor) -> None:
        """A module-level `for`: each statement of its body read once, the URL patterns a
        statement naming the loop variable adds marked with the loop (and the tests it runs
        under), for the linker to list per item or report where it cannot."""
        loop = app_loop(stmt.iter, stmt.target, stmt.lineno)
        names = {n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name)}
        for inner, under in passes(stmt.body, loop, self.text):
            if not any(_mentions(inner, name) for name in names):
                self.statement(inner)
                continue
            before = {id(e) for es in self.lists.values() for e in es}
            self.statement(inner)
            for entries in self.lists.values():
                entries[:] = [e if id(e) in before else replace(e, loop=under) for e in entries]

    def assign(self, name: str, value: ast.expr) -> None:
        self.literal(name, value)
        if isinstance(value, ast.List | ast.Tuple) and not value.elts:
            self.empty.add(name)
        else:
            self.empty.discard(name)
        if isinstance(
            value, ast.Constant | ast.JoinedStr | ast.BinOp | ast.Name | ast.Attribute
        ) or (_joined(value) is not None):
            self.constants.setdefault(name, []).append((value, self.conditional, value.lineno))
        if name in self.lists and _mentions(value, name):
            self.rebind(name, value, _spliced(value, name))
            return
        if name == "ROOT_URLCONF":
            if (conf := self.text(value)) is not None:
                self.root_urlconf, self.root_line = conf, value.lineno
        elif name == "REST_FRAMEWORK" and isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values, strict=True):
                if self.text(key) == "DEFAULT_PERMISSION_CLASSES":
                    found = _strings(item, self.text)
                    self.default_permissions = found if found is not None else ("?",)
        elif isinstance(value, ast.Call) and _last(value.func).removeprefix("Nested") in (
            _ROUTER_CLASSES
        ):
            kind = _ROUTER_CLASSES[_last(value.func).removeprefix("Nested")]
            if kind == "default" and _false(_keyword(value, "include_root_view")):
                kind += "-no-root"
            if kind.startswith("default") and not _false(
                _keyword(value, "include_format_suffixes")
            ):
                kind += "-suffixes"
            slash = not _false(_keyword(value, "trailing_slash"))
            self.routers[name] = (kind, slash, value.lineno)
            if _last(value.func).startswith("Nested"):  # drf-nested-routers
                args = value.args
                parent = args[0] if args else _keyword(value, "parent_router")
                raw_prefix = args[1] if len(args) > 1 else _keyword(value, "parent_prefix")
                lookup = _keyword(value, "lookup")
                given = _keyword(value, "trailing_slash")
                self.nested[name] = NestedRouter(
                    dotted(parent) or "?",
                    self.spelled(raw_prefix),
                    self.text(lookup) if lookup is not None else "",
                    None if given is None else not _false(given),
                )
        elif isinstance(value, ast.Call) and _last(value.func) in self.schema_makers:
            self.schema_views.add(name)  # drf-yasg's: `schema_view.with_ui('swagger')` below
        elif name == "urlpatterns" or self.patterns_like(value):
            self.lists[name] = self.entries(value)
            if isinstance(value, ast.Call) and _last(value.func)[:1].isupper():
                self.instances[name] = (value.lineno, self.segment(value))
        elif (view := self.bound_view(value)) is not None:
            self.views[name] = view
        elif isinstance(value, ast.Dict) and not value.keys:  # an empty store: maybe a registry
            self.instances[name] = (value.lineno, self.segment(value))
        elif isinstance(value, ast.Call) and dotted(value.func) is not None:
            made = dotted(value.func) or ""
            if made.rpartition(".")[2] in _STORE_MAKERS:  # `defaultdict(list)`: maybe a registry
                self.instances[name] = (value.lineno, self.segment(value))
            if made.rpartition(".")[2][:1].isupper():  # an object of a class: maybe a collector
                self.instances[name] = (value.lineno, self.segment(value))
            slash = not _false(_keyword(value, "trailing_slash"))
            self.made[name] = (made, slash, value.lineno)

    def made_routers(self) -> None:
        """Instances of a class not known by name that are registered on or included as a
        router (`router.register(...)`, `router.urls`): routers of a kind the linker finds by
        following the class (a subclass of DRF's routers, or not a router at all)."""
        used = {r.router for r in self.registrations}
        used |= {e.target[1] for es in self.lists.values() for e in es if e.target[0] == "router"}
        for name, (made, _, _) in self.made.items():  # a library router's record names its class
            head, _, rest = made.partition(".")
            imported = self.imported.get(head, "").replace(":", ".")
            if imported and django_router(".".join(p for p in (imported, rest) if p)):
                used.add(name)
        for name in sorted(used & self.made.keys()):
            if name in self.routers:
                continue
            made, slash, line = self.made[name]
            self.routers[name] = ("?", slash, line)
            self.router_classes[name] = made

    def rebind(self, name: str, value: ast.expr, spliced: bool) -> None:
        """`urlpatterns = [path("", include((urlpatterns, "ns")))]`: the list so far, under a
        new route. Run always, the earlier value gets a name of its own that the new value
        refers to; run in some configuration only (`if settings.CONTEXT_PATH:`), the list is
        kept as it was and each of its routes carries a caveat: served under that extra
        prefix when the branch runs."""
        if self.conditional and not spliced:
            why = (
                f"in some configuration `{name}` is rebound here under another prefix: its "
                "routes are listed as served when this branch does not run"
            )
            self.lists[name] = [_with_caveat(e, (value.lineno, why)) for e in self.lists[name]]
            return
        earlier = f"{name}@{value.lineno}"
        self.lists[earlier] = self.lists.pop(name)
        self.renamed[name] = earlier
        try:
            self.lists[name] = self.entries(value)
        finally:
            self.renamed.pop(name, None)

    def patterns_like(self, value: ast.expr) -> bool:
        """A list the URLconf may splice or include by name: one holding a `path(...)`-like
        call, or `router.urls`."""
        if isinstance(value, ast.Attribute) and value.attr == "urls":
            return True
        if isinstance(value, ast.BinOp):
            return self.patterns_like(value.left) or self.patterns_like(value.right)
        if isinstance(value, ast.Call) and _last(value.func) in {
            "i18n_patterns",
            "format_suffix_patterns",
        }:
            return True
        if isinstance(value, ast.List | ast.Tuple):
            return any(isinstance(e, ast.Call) and _last(e.func) in _URL_CALLS for e in value.elts)
        return False  # fmt: skip

    def call(self, call: ast.Call) -> None:
        func = call.func
        if (  # `router.register(...).register(...)`: on what the one before returned
            isinstance(func, ast.Attribute)
            and func.attr in DJANGO_REGISTER_METHODS
            and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Attribute)
            and func.value.func.attr in DJANGO_REGISTER_METHODS
        ):
            self.call(func.value)  # the registration it is made on, read first
            inner: ast.expr = func.value
            while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                inner = inner.func.value
            owner = dotted(inner)
            viewset = dotted(call.args[1]) if len(call.args) > 1 else None
            if owner is not None:
                self.registrations.append(Registration(
                    owner, self.spelled(call.args[0]) if call.args else None, viewset or "?",
                    call.lineno, True))  # fmt: skip
            return
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return
        owner = func.value.id
        if owner in self.lists and func.attr in {"append", "extend", "insert"}:
            args = call.args[1:] if func.attr == "insert" else call.args
            if not args:
                return
            if func.attr == "extend":
                self.lists[owner] += self.entries(args[0])
            else:
                self.lists[owner] += self.entry(args[0])
        elif func.attr in DJANGO_REGISTER_METHODS and call.args:
            prefix = self.spelled(call.args[0]) if call.args else None
            viewset = dotted(call.args[1]) if len(call.args) > 1 else None
            if viewset is None:
                viewset = dotted(_keyword(call, "viewset")) or "?"
            self.registrations.append(Registration(owner, prefix, viewset, call.lineno))

    # -- URL lists -------------------------------------------------------------------------

    def entries(self, node: ast.expr, *, i18n: str = "") -> list[UrlEntry]:
        if isinstance(node, ast.List | ast.Tuple):
            out: list[UrlEntry] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    out += self.entries(element.value, i18n=i18n)
                elif not isinstance(element, ast.Dict):  # a dict is no URL pattern (Django
                    out += self.entry(element, i18n=i18n)  # refuses one): another table
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.entries(node.left, i18n=i18n) + self.entries(node.right, i18n=i18n)
        if isinstance(node, ast.Call):
            name = _last(node.func)
            if name == "i18n_patterns":
                out = []
                default = _keyword(node, "prefix_default_language")
                language = "prefixed" if default is None or _true(default) else "both"
                for arg in node.args:
                    out += (
                        self.entries(arg, i18n=language)
                        if isinstance(arg, ast.Starred)
                        else self.entry(arg, i18n=language)
                    )
                return out
            if name == "format_suffix_patterns" and node.args:
                self.notes.append((node.lineno, "format_suffix_patterns"))
                return self.entries(node.args[0], i18n=i18n)
            if self.is_static(node):
                return [self.static(node)]
        if (
            isinstance(node, ast.ListComp | ast.GeneratorExp)
            and (loop := comprehension_loop(node, self.text)) is not None
            and loop.source
        ):  # `[path("", include(f"{app}.urls")) for app in apps.get_app_configs()]`; over
            # anything else it is the project's code `django_collect` runs (below)
            return [replace(e, loop=loop) for e in self.entry(node.elt, i18n=i18n)]
        if isinstance(node, ast.Name) and node.id in self.renamed:
            return list(self.lists[self.renamed[node.id]])
        if isinstance(node, ast.Name) and node.id == "urlpatterns" and node.id not in self.lists:
            imported = self.imported.get(node.id, "")
            if imported.endswith(":urlpatterns"):
                # `from site.urls import urlpatterns`, then `urlpatterns = extra + urlpatterns`:
                # the right side is the imported module's list (read before it is rebound)
                module = imported.rpartition(":")[0]
                return [UrlEntry(node.lineno, "", False, ("include", module), i18n=i18n)]
        if isinstance(node, ast.Name) and node.id in self.lists:  # a list of this file, so far
            return list(self.lists[node.id])
        if isinstance(node, ast.Name) and node.id in self.empty:  # `extra = []`: adds nothing
            return []
        spliced = self.target(node)
        code = ""
        if spliced[0] == "opaque" and isinstance(node, ast.Call | ast.ListComp):
            code = self.segment(node)  # `hooks.collect_urls()`, `[path(p, v) for ...]`
            spliced = ("computed", ast.unparse(node)[:60])
        elif spliced[0] in ("name", "router") and isinstance(node, ast.Attribute):
            code = self.segment(node)  # `registry.api_urls`: an object's attribute or property
        by_name = spliced[0] == "name"
        return [UrlEntry(node.lineno, "", False, spliced, i18n=i18n, code=code, spliced=by_name)]

    def entry(self, node: ast.expr, *, i18n: str = "") -> list[UrlEntry]:
        if isinstance(node, ast.Call) and _last(node.func) in _URL_CALLS:
            raw = node.args[0] if node.args else _keyword(node, "route")
            route = self.text(raw)
            regex = _last(node.func) != "path"
            view = node.args[1] if len(node.args) > 1 else _keyword(node, "view")
            wrappers: list[str] = []
            written = view
            view = self.unwrapped(view, wrappers)
            methods, actions = _as_view_options(view, self.text, self.literals)
            target = self.target(view)
            if isinstance(view, ast.Call) and self.schema_view(view):
                target = ("schema", "GET")
            if (
                isinstance(view, ast.Call)
                and not view.args
                and not view.keywords
                and not _is_as_view(view)
                and not _is_include(view)
            ):
                # `feeds.LatestFeed()`: an instance is the view, or what a function returns
                made = dotted(view.func)
                target = ("instance", made) if made is not None else target
            elif (
                isinstance(view, ast.Call)
                and target[0] != "schema"
                and (_made_view(view) or (target[0] == "opaque" and _called_view(view)))
            ):  # `error_page(404)`, `view_for(settings.KIND, "list")`: what it returns
                target = ("made", dotted(view.func) or "?")
            # the call, for the linker to run where it names a project function; of a wrapped
            # name, the innermost wrapper's (`view_for(settings.KIND)` makes a view of its own)
            code = self.segment(view) if target[0] in ("instance", "made") and view else ""
            if wrappers and target[0] == "name" and written is not None:
                code = self.segment(_innermost(written, len(wrappers)))
            parts: tuple[RoutePart, ...] | None = None
            caveats: list[Caveat] = []
            if route is None and raw is not None:
                parts = self.route_parts(raw, caveats, 0)
            included = isinstance(view, ast.Call) and _is_include(view)
            module: tuple[RoutePart, ...] | None = None
            if isinstance(view, ast.Call) and included and target[0] == "opaque":
                inner = view.args[0] if view.args else None
                module = self.route_parts(inner, caveats, 0) if inner is not None else None
            return [
                UrlEntry(node.lineno, route, regex, target, methods, tuple(wrappers), i18n, parts,
                         tuple(caveats), actions, assumed=_made_assumption(view), module=module,
                         included=included, code=code)
            ]  # fmt: skip
        if isinstance(node, ast.Call) and self.is_static(node):
            return [self.static(node)]
        return self.entries(node, i18n=i18n)

    def unwrapped(self, view: ast.expr | None, wrappers: list[str]) -> ast.expr | None:
        """The view inside the wrappers written around it, their names added to `wrappers`."""
        while (
            isinstance(view, ast.Call)
            and len(view.args) == 1
            and not _made_view(view)
            and not _is_include(view)
            and not _is_as_view(view)
            and not self.schema_view(view)
        ):  # `login_required(views.x)`, `csrf_exempt(View.as_view())`
            wrappers.append(dotted(view.func) or "?")
            view = view.args[0]
        return view

    def bound_view(self, value: ast.expr) -> UrlEntry | None:
        """`X.as_view(...)`, maybe wrapped, bound to a name: a URL pattern naming it serves
        the class view as if it were written there (None: not a class view)."""
        if not isinstance(value, ast.Call):
            return None
        wrappers: list[str] = []
        view = self.unwrapped(value, wrappers)
        if not (isinstance(view, ast.Call) and _is_as_view(view)):
            return None
        methods, actions = _as_view_options(view, self.text, self.literals)
        target = self.target(view)
        return UrlEntry(value.lineno, "", False, target, methods, tuple(wrappers),
                        actions=actions, assumed=_made_assumption(view))  # fmt: skip

    def route_parts(
        self, node: ast.expr, caveats: list[Caveat], depth: int
    ) -> tuple[RoutePart, ...] | None:
        """A computed route as literal text and names (f-strings, `+`, module constants of this
        file, other names for the linker). A constant a branch rebinds is read as bound where
        no branch runs, with a caveat at each rebinding."""
        if depth > 8:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return (("lit", node.value),)
        if isinstance(node, ast.JoinedStr):
            out: list[RoutePart] = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    if value.conversion != -1 or value.format_spec is not None:
                        return None
                    inner = self.route_parts(value.value, caveats, depth + 1)
                else:
                    inner = self.route_parts(value, caveats, depth + 1)
                if inner is None:
                    return None
                out += inner
            return tuple(out)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.route_parts(node.left, caveats, depth + 1)
            right = self.route_parts(node.right, caveats, depth + 1)
            return left + right if left is not None and right is not None else None
        if isinstance(node, ast.Name) and node.id in self.constants:
            bindings = self.constants[node.id]
            always = [value for value, conditional, _ in bindings if not conditional]
            if always:
                for _, conditional, line in bindings:
                    if conditional:
                        caveats.append((line, f"`{node.id}` is rebound here in some "
                                        "configuration: the routes using it are named with "
                                        "the value it has otherwise"))  # fmt: skip
                return self.route_parts(always[-1], caveats, depth + 1)
            if len(bindings) == 1:  # bound in one branch only: where the route is used too
                return self.route_parts(bindings[0][0], caveats, depth + 1)
        if (joined := _joined(node)) is not None:
            return self.joined(*joined, caveats, depth)
        name = dotted(node)
        return (("sym", name),) if name is not None else None

    def joined(
        self, separator: ast.expr, items: ast.expr, caveats: list[Caveat], depth: int
    ) -> tuple[RoutePart, ...] | None:
        """`"|".join(seq)`, the alternatives of a regex kept in a list: text when the
        separator and every item are (`seq` a display, or a name this module binds once to a
        display of strings)."""
        values: list[object]
        if isinstance(items, ast.List | ast.Tuple | ast.Set):
            values = list(items.elts)
        elif isinstance(items, ast.Name) and isinstance(
            kept := self.literals.get(items.id), list | tuple
        ):
            values = list(kept)
        else:
            return None
        texts = [
            value if isinstance(value, str) else self.text_of(value, caveats, depth)
            for value in values
        ]
        sep = self.text_of(separator, caveats, depth)
        if sep is None or any(text is None for text in texts):
            return None
        return (("lit", sep.join(text for text in texts if text is not None)),)

    def text_of(self, node: object, caveats: list[Caveat], depth: int) -> str | None:
        """The literal text an expression spells here, else None."""
        if not isinstance(node, ast.expr):
            return None
        parts = self.route_parts(node, caveats, depth + 1)
        if parts is None or any(kind != "lit" for kind, _ in parts):
            return None
        return "".join(text for _, text in parts)

    def spelled(self, node: ast.expr | None) -> Spelled | None:
        """The one reading of a string the Django reader takes (a router's prefix, a lookup, an
        action's `url_path`, a method name, a settings value), as `route_parts` reads a route:
        a literal, an f-string with or without placeholders, `+` of such parts and this
        module's constants are text; other names are left for the linker. None: no string it
        can spell, or a constant a branch rebinds (which of its values holds is not known)."""
        caveats: list[Caveat] = []
        parts = self.route_parts(node, caveats, 0) if node is not None else None
        return parts if parts is not None and not caveats else None

    def text(self, node: ast.expr | None, shadowed: Collection[str] = ()) -> str | None:
        """The string `node` spells in this file alone (`spelled` with no name left), None
        otherwise; `shadowed`: names a class body binds, which its own expressions read
        before the module's."""
        parts = self.spelled(node)
        if parts is None or any(kind != "lit" for kind, _ in parts):
            return None
        if (
            node is not None
            and shadowed
            and any(isinstance(n, ast.Name) and n.id in shadowed for n in ast.walk(node))
        ):
            return None
        return "".join(text for _, text in parts)

    def schema_view(self, call: ast.Call) -> bool:
        """An API schema view a library makes, which answers GET: DRF's `get_schema_view(...)`
        used as the view, drf-yasg's `schema_view.with_ui(...)`/`.without_ui(...)` of a
        `schema_view = get_schema_view(...)` of this file, drf-spectacular's views are
        known by name in the linker."""
        if _last(call.func) in self.schema_makers:
            return True
        func = call.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in {"with_ui", "without_ui"}
            and isinstance(func.value, ast.Name)
            and func.value.id in self.schema_views
        )

    def is_static(self, call: ast.Call) -> bool:
        """Django's `static()` or `staticfiles_urlpatterns()`, by name or as imported."""
        name = dotted(call.func)
        return _last(call.func) in _STATIC or self.imported.get(name or "") in _STATIC_MODULES

    def static(self, call: ast.Call) -> UrlEntry:
        """`static(prefix, view=..., document_root=...)`: in `DEBUG`, `<prefix><path>` served
        by the view (Django's `serve` by default); the prefix a literal or computed as routes
        are (`settings.MEDIA_URL`); `staticfiles_urlpatterns(prefix=None)` is `static()` of
        `settings.STATIC_URL` served by staticfiles' own `serve`."""
        name = dotted(call.func) or ""
        files = self.imported.get(name, "").endswith("staticfiles_urlpatterns") or (
            _last(call.func) == "staticfiles_urlpatterns"
        )
        raw = call.args[0] if call.args else _keyword(call, "prefix")
        if raw is None and files:
            raw = ast.Attribute(ast.Name("django.conf.settings"), "STATIC_URL")
        caveats: list[Caveat] = []
        parts = self.route_parts(raw, caveats, 0) if raw is not None else None
        view = _keyword(call, "view")
        target = self.reference(view) if view is not None else ("static", "serve")
        return UrlEntry(call.lineno, None, False, target, parts=parts, caveats=tuple(caveats),
                        static="staticfiles" if files else "static")  # fmt: skip

    def target(self, view: ast.expr | None) -> Target:
        if view is None:
            return ("opaque", "a missing view")
        if isinstance(view, ast.Call) and _is_include(view):
            inner = view.args[0] if view.args else None
            if isinstance(inner, ast.Tuple) and inner.elts:  # `(patterns, app_name)`
                inner = inner.elts[0]
            text = self.text(inner)
            if text is not None:
                return ("include", text)
            if isinstance(inner, ast.List):  # `include([...])`: a list of its own, by site
                name = f"@{inner.lineno}:{inner.col_offset}"
                self.lists[name] = self.entries(inner)
                return ("name", name)
            if isinstance(inner, ast.Call | ast.ListComp):  # `include(registry.urls())`
                name = f"@{inner.lineno}:{inner.col_offset}"
                self.lists[name] = self.entries(inner)
                return ("name", name)
            return self.reference(inner)
        if isinstance(view, ast.Call) and _is_as_view(view):
            assert isinstance(view.func, ast.Attribute)
            cbv = dotted(view.func.value)
            made = _class_made(view)
            if cbv is None and made is not None:
                cbv = made[1]
            return ("cbv", cbv) if cbv is not None else ("opaque", "a computed view class")
        if isinstance(view, ast.List):
            return ("opaque", "an inline list")  # read through `include([...])` below
        return self.reference(view)

    def reference(self, node: ast.expr | None) -> Target:
        if isinstance(node, ast.Attribute) and node.attr == "urls":
            owner = dotted(node.value)
            if owner is not None:
                return ("router", owner)
        name = dotted(node)
        if name is not None:
            return ("name", self.renamed.get(name, name))
        return ("opaque", ast.unparse(node)[:60] if node is not None else "nothing")

    # -- views -----------------------------------------------------------------------------

    def klass(self, node: ast.ClassDef) -> DjangoClass:
        methods: list[str] = []
        decorated: list[str] = []
        actions: list[Action] = []
        fields: dict[str, ast.expr] = {}
        own = _class_names(node)

        def text(value: ast.expr | None) -> str | None:  # read in the class body's scope
            return self.text(value, own)

        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                methods.append(stmt.name)
                for decorator in stmt.decorator_list:  # `@method_decorator(login_required)`
                    if (
                        isinstance(decorator, ast.Call)
                        and _last(decorator.func) == "method_decorator"
                    ):
                        inner = decorator.args[0] if decorator.args else None
                        named = dotted(inner.func if isinstance(inner, ast.Call) else inner)
                        # on `dispatch` it guards every method; on one method only: not known
                        # for the class as a whole
                        decorated.append(named or "?" if stmt.name == "dispatch" else "?")
                action = _action(stmt, text)
                if action is not None:
                    actions.append(action)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        fields[target.id] = stmt.value
        actions = _mapped_methods(node, actions)
        urls = [u for s in node.body if (u := self.router_urls(s)) is not None]
        urls.sort(key=lambda u: u.name != "get_urls")  # `urls` reads `get_urls`: that first
        options = tuple(
            (k, v.value) for k, v in fields.items()
            if k in {"include_root_view", "include_format_suffixes"}
            and isinstance(v, ast.Constant) and isinstance(v.value, bool)
        )  # fmt: skip
        route_changes: tuple[RouteChange, ...] = ()
        table = _route_table(fields["routes"], text) if "routes" in fields else None
        for stmt in node.body:  # `self.trailing_slash = '/?'` in `__init__`, after DRF's own
            if (
                isinstance(stmt, ast.FunctionDef)
                and stmt.name == "__init__"
                and self.may_set_routes  # else every node of every `__init__` walked in vain
            ):
                slash, changes, readable = _init_changes(stmt, self.text)
                if not readable:
                    urls.append(RouterUrls("__init__", stmt.lineno, False))
                elif slash is not None:
                    options += (("trailing_slash", slash),)
                route_changes += changes
        decorators: list[str] = decorated
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and _last(decorator.func) == "method_decorator":
                inner = decorator.args[0] if decorator.args else None
                items = inner.elts if isinstance(inner, ast.List | ast.Tuple) else [inner]
                decorators += [dotted(i.func if isinstance(i, ast.Call) else i) or "?"
                               for i in items if i is not None]  # fmt: skip
        return DjangoClass(
            node.lineno,
            tuple(dotted(class_base(b)) or "?" for b in node.bases),
            tuple(methods),
            _given_strings(fields.get("http_method_names"), text),
            text(fields.get("lookup_field")),
            text(fields.get("lookup_url_kwarg")),
            _names(fields.get("permission_classes")),
            tuple(actions),
            tuple(decorators),
            self.checks_user(node),
            node.name,
            self.imported.get(node.name, ""),
            tuple(urls),
            options,
            table,
            route_changes,
            _meta_label(node, text),
            tuple(
                (k, v.value if isinstance(v, ast.Constant) and _literal(v.value) else ...)
                for k, v in fields.items()
            ),
        )

    def router_urls(self, stmt: ast.stmt) -> RouterUrls | None:
        """What a router class's statement overrides of the URLs DRF builds (None: nothing).
        `get_urls`/`urls` are read as a small evaluation over one local list: `super()`'s list,
        `+`, `+=`, `.append`, `.extend`, `[*base, ...]` and URL entries; anything else makes it
        unreadable, as DRF's route hooks are."""
        hooks = {"routes", "get_routes", "get_lookup_regex", "get_method_map"}
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            hit = sorted(names & hooks)
            if hit == ["routes"] and stmt.value is not None and _route_table(stmt.value, self.text):
                return None  # a literal table: `DjangoClass.route_table`
            return RouterUrls(hit[0], stmt.lineno, False) if hit else None
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        if stmt.name in hooks:
            return RouterUrls(stmt.name, stmt.lineno, False)
        if stmt.name not in {"urls", "get_urls", "get_urlpatterns"}:
            return None
        unreadable = RouterUrls(stmt.name, stmt.lineno, False)
        local: dict[str, list[UrlEntry | None]] = {}  # None stands for the base's list
        body = stmt.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for part in body:
            if isinstance(part, ast.Assign) and len(part.targets) == 1:
                target = part.targets[0]
                value = self.router_list(part.value, local)
                if not isinstance(target, ast.Name) or value is None:
                    return unreadable
                local[target.id] = value
            elif (
                isinstance(part, ast.AugAssign)
                and isinstance(part.target, ast.Name)
                and part.target.id in local
                and isinstance(part.op, ast.Add)
            ):
                more = self.router_list(part.value, local)
                if more is None:
                    return unreadable
                local[part.target.id] += more
            elif isinstance(part, ast.Expr) and isinstance(part.value, ast.Call):
                call = part.value
                func = call.func
                if not (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id in local
                    and func.attr in {"append", "extend"}
                    and len(call.args) == 1
                    and not call.keywords
                ):
                    return unreadable
                added = (
                    self.router_list(call.args[0], local)
                    if func.attr == "extend"
                    else self.router_list(ast.List([call.args[0]], ast.Load()), local)
                )
                if added is None:
                    return unreadable
                local[func.value.id] += added
            elif isinstance(part, ast.Return) and part.value is not None:
                value = self.router_list(part.value, local)
                unread = value is None
                if value is None:
                    value = self.base_plus_unread(part.value, local)
                if value is None or value.count(None) > 1:
                    return unreadable
                extras = tuple(e for e in value if e is not None)
                return RouterUrls(stmt.name, stmt.lineno, True, None in value, extras, unread)
            else:
                return unreadable
        return unreadable

    def base_plus_unread(
        self, node: ast.expr, local: dict[str, list[UrlEntry | None]]
    ) -> list[UrlEntry | None] | None:
        """A sum holding `super()`'s list once and terms `router_list` cannot read (a
        comprehension over what a method of the class collected): the base's list and the
        terms it can read; None without the base, which is then not known to be served."""
        terms: list[ast.expr] = []
        pending = [node]
        while pending:
            term = pending.pop()
            if isinstance(term, ast.BinOp) and isinstance(term.op, ast.Add):
                pending += [term.right, term.left]
            else:
                terms.append(term)
        found: list[UrlEntry | None] = []
        for term in terms:
            found += self.router_list(term, local) or []
        return found if found.count(None) == 1 else None

    def router_list(
        self, node: ast.expr, local: dict[str, list[UrlEntry | None]]
    ) -> list[UrlEntry | None] | None:
        """A list a router's `get_urls`/`urls` builds: None in it is `super()`'s list."""
        if _is_super_urls(node):
            return [None]
        if isinstance(node, ast.Name) and node.id in local:
            return list(local[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.router_list(node.left, local)
            right = self.router_list(node.right, local)
            return left + right if left is not None and right is not None else None
        if isinstance(node, ast.List | ast.Tuple):
            out: list[UrlEntry | None] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self.router_list(element.value, local)
                    if inner is None:
                        return None
                    out += inner
                elif isinstance(element, ast.Call) and _last(element.func) in _URL_CALLS:
                    out += self.entry(element)
                else:
                    return None
            return out
        return None

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> DjangoFunction:
        methods: tuple[str, ...] | None = None
        api_view = False
        permissions: tuple[str, ...] | None = None
        others: list[str] = []
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            name = _last(call.func if call is not None else decorator)
            listing = _argument(call, 0, _METHOD_LISTS.get(name, "")) if call is not None else None
            if name == "require_http_methods" and listing is not None:
                methods = _strings(listing, self.text) or ("?",)
            elif name in _REQUIRE:
                methods = _REQUIRE[name]
            elif name == "api_view":
                api_view = True
                listed = _strings(listing, self.text) if listing is not None else None
                methods = listed if listed is not None else ("GET",)
                if listing is not None and listed is None:
                    methods = ("?",)
            elif name == "permission_classes" and call is not None and call.args:
                permissions = _names(call.args[0])
            else:
                others.append(dotted(call.func if call is not None else decorator) or "?")
        return DjangoFunction(
            node.lineno,
            tuple(m.upper() for m in methods) if methods is not None else None,
            api_view,
            permissions,
            tuple(others),
            self.checks_user(node),
            self.returned(node),
        )

    def returned(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> tuple[tuple[str, DjangoFunction | None], ...]:
        """`DjangoFunction.returns`: read for a def that defines a def in its body only (in a
        branch too), never looking inside the defs, classes and lambdas it holds."""
        if not any(  # most functions: no def, no branch
            isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.If | ast.Try)
            for s in node.body
        ):
            return ()
        inner: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        returns: list[ast.Return] = []
        todo: list[ast.AST] = list(node.body)
        while todo:
            here = todo.pop()
            if isinstance(here, ast.FunctionDef | ast.AsyncFunctionDef):
                inner[here.name] = here
            elif isinstance(here, ast.Return):
                returns.append(here)
            elif not isinstance(here, ast.ClassDef | ast.Lambda | ast.expr):
                todo += ast.iter_child_nodes(here)
        if not inner:
            return ()
        out: list[tuple[str, DjangoFunction | None]] = []
        for returned in returns:
            name = dotted(returned.value) if returned.value is not None else None
            if name is None:
                out.append(("?", None))
            else:
                out.append((name, self.function(inner[name]) if name in inner else None))
        return tuple(sorted(set(out), key=lambda r: r[0]))

    def checks_user(self, node: ast.stmt) -> bool:
        """Whether a line of the def or class reads the request's user (`_USER_CHECK`)."""
        if self.checks is None:  # most files have none of the words: one scan each, no regex
            source = self.source
            self.checks = []
            if any(head in source for head in _USER_HEADS):
                line, counted = 1, 0  # lines counted on from the last match: linear in the file
                for match in _USER_CHECK.finditer(source):
                    line += source.count("\n", counted, match.start())
                    counted = match.start()
                    self.checks.append(line)
        at = bisect.bisect_left(self.checks, node.lineno)
        return at < len(self.checks) and self.checks[at] <= (node.end_lineno or node.lineno)

    def settings_module(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _last(node.func) in {"setdefault", "__setitem__"}
                and len(node.args) == 2
                and self.text(node.args[0]) == "DJANGO_SETTINGS_MODULE"
            ):
                self.settings = self.text(node.args[1]) or self.settings


_REQUIRE = {
    "require_GET": ("GET",),
    "require_POST": ("POST",),
    "require_safe": ("GET", "HEAD"),
}


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _spliced(node: ast.expr, name: str) -> bool:
    """Whether `node` holds the list `name` as it is (`name + [...]`, `[*name, ...]`), not
    under a route of its own."""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _spliced(node.left, name) or _spliced(node.right, name)
    if isinstance(node, ast.List | ast.Tuple):
        return any(isinstance(e, ast.Starred) and _spliced(e.value, name) for e in node.elts)
    return False


def _with_caveat(entry: UrlEntry, caveat: Caveat) -> UrlEntry:
    return replace(entry, caveats=(*entry.caveats, caveat), assumed=())


def _route_table(node: ast.expr, text: TextOf) -> tuple[DrfRoute, ...] | None:
    """A literal list of DRF's `Route(url=..., mapping={...}, name=..., detail=...,
    initkwargs=...)` and `DynamicRoute(url=..., name=..., detail=..., initkwargs=...)` (by
    keyword or position, as DRF's namedtuples take them), its strings read by `text`; None:
    anything else."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return None
    rows: list[DrfRoute] = []
    for item in node.elts:
        if not isinstance(item, ast.Call) or any(k.arg is None for k in item.keywords):
            return None
        kind = _last(item.func)
        fields = ("url", "mapping", "name", "detail", "initkwargs") if kind == "Route" else (
            ("url", "name", "detail", "initkwargs") if kind == "DynamicRoute" else None)  # fmt: skip
        if fields is None or len(item.args) > len(fields):
            return None
        given = dict(zip(fields, item.args, strict=False))
        given.update({str(k.arg): k.value for k in item.keywords})
        url, detail = text(given.get("url")), given.get("detail")
        if url is None or not (isinstance(detail, ast.Constant) and type(detail.value) is bool):
            return None
        mapping: tuple[tuple[str, str], ...] | None = None
        if kind == "Route":
            value = given.get("mapping")
            if not isinstance(value, ast.Dict):
                return None
            pairs = [(text(k), text(v)) for k, v in zip(value.keys, value.values, strict=True)]
            if any(k is None or v is None for k, v in pairs):
                return None
            mapping = tuple((str(k).upper(), str(v)) for k, v in pairs)
        rows.append(DrfRoute(url, mapping, detail.value))
    return tuple(rows)


def _route_mapping(node: ast.expr) -> tuple[int, ast.expr] | None:
    """`self.routes[i].mapping` with `i` a literal index: `i`, and its `self.routes` node;
    None: anything else."""
    if not (
        isinstance(node, ast.Attribute)
        and node.attr == "mapping"
        and isinstance(node.value, ast.Subscript)
        and dotted(node.value.value) == "self.routes"
    ):
        return None
    index = node.value.slice
    sign = 1
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index, sign = index.operand, -1
    if not (isinstance(index, ast.Constant) and type(index.value) is int):
        return None
    return (sign * index.value, node.value.value)


def _init_changes(
    init: ast.FunctionDef, text: TextOf
) -> tuple[bool | None, tuple[RouteChange, ...], bool]:
    """What a router class's `__init__` makes its trailing slash (None: leaves it), the changes
    its own statements make to `self.routes`, in order (`self.routes[0].mapping.update({"put":
    "x"})`, `self.routes[2].mapping["put"] = "x"`, `self.routes = [Route(...), ...]`, literal
    strings), and whether the pack can say: a literal `self.trailing_slash` (`"/"` keeps the
    slash; `""` and `"/?"`, which `reverse()` spells without it, drop it); any other value, or
    any other use of `self.routes` (in a branch too), cannot be read."""
    slash: bool | None = None
    changes: list[RouteChange] = []
    followed: set[int] = set()  # the `self.routes` nodes of the statements read
    for stmt in init.body:
        node = stmt.value if isinstance(stmt, ast.Expr) else None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and (mapping := _route_mapping(node.func.value)) is not None
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Dict)
        ):
            pairs = [(text(k), text(v))
                     for k, v in zip(node.args[0].keys, node.args[0].values, strict=True)]  # fmt: skip
            if all(k is not None and v is not None for k, v in pairs):
                changes += [RouteChange(mapping[0], str(k).upper(), str(v)) for k, v in pairs]
                followed.add(id(mapping[1]))
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if (
                isinstance(target, ast.Subscript)
                and (mapping := _route_mapping(target.value)) is not None
                and (key := text(target.slice)) is not None
                and (value := text(stmt.value)) is not None
            ):
                changes.append(RouteChange(mapping[0], key.upper(), value))
                followed.add(id(mapping[1]))
            elif dotted(target) == "self.routes" and (table := _route_table(stmt.value, text)):
                changes.append(RouteChange(table=table))
                followed.add(id(target))
    for each in ast.walk(init):
        if (
            isinstance(each, ast.Attribute)
            and each.attr == "routes"
            and dotted(each) == ("self.routes")
            and id(each) not in followed
        ):
            return (None, (), False)
        if isinstance(each, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = each.targets if isinstance(each, ast.Assign) else [each.target]
            if any(dotted(t) == "self.trailing_slash" for t in targets):
                value = text(each.value) if isinstance(each, ast.Assign) else None
                if value not in {"/", "", "/?"}:
                    return (None, (), False)
                slash = value == "/"
    return (slash, tuple(changes), True)


def _is_super_urls(node: ast.expr) -> bool:
    """`super().urls`, `super().get_urls()`, `super(Cls, self)...` too; a library router's or
    view set's hook, `super().get_urlpatterns()`."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func
        attrs = {"get_urls", "get_urlpatterns"}
    else:
        attrs = {"urls"}
    return (
        isinstance(node, ast.Attribute)
        and node.attr in attrs
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "super"
    )


def _innermost(view: ast.expr, wrappers: int) -> ast.expr:
    """The innermost of `wrappers` calls written around a view (`a(b(views.x))`: `b(...)`)."""
    for _ in range(wrappers - 1):
        assert isinstance(view, ast.Call)
        view = view.args[0]
    return view


def _is_include(call: ast.Call) -> bool:
    return _last(call.func) == "include"


def _made_view(call: ast.Call) -> bool:
    """`error_page(404)`, `page("about", status=200)`: a named function called with literals
    only, which makes the view (a wrapper is given one)."""
    given = [*call.args, *(k.value for k in call.keywords)]
    return (
        bool(given)
        and dotted(call.func) is not None
        and all(isinstance(g, ast.Constant) for g in given)
        and not _is_as_view(call)
        and not _is_include(call)
    )


def _called_view(call: ast.Call) -> bool:
    """A named callable called with arguments, not one of Django's or DRF's URL or view calls
    (`include(...)`, `X.as_view(...)`): its value may be the view (`view_for(kind, "list")`)."""
    return dotted(call.func) is not None and not _is_include(call) and not _is_as_view(call)


def _is_as_view(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "as_view"


def _class_made(view: ast.Call) -> tuple[str, str] | None:
    """`maker(Cls).as_view(...)`: a class made from the class `Cls` by a call taking it alone
    (a registry returning it or a subclass, `extensions.get(Cls)`), as (maker, Cls) dotted."""
    made = view.func.value if isinstance(view.func, ast.Attribute) else None
    if not (isinstance(made, ast.Call) and len(made.args) == 1 and not made.keywords):
        return None
    maker, cls = dotted(made.func), dotted(made.args[0])
    if maker is None or cls is None or not cls.rpartition(".")[2][:1].isupper():
        return None
    return maker, cls


def _made_assumption(view: ast.expr | None) -> tuple[str, ...]:
    """What a view class read through the call that makes it (`_class_made`) assumes."""
    if not (isinstance(view, ast.Call) and _is_as_view(view)):
        return ()
    made = _class_made(view)
    if made is None:
        return ()
    maker, cls = made
    return (f"the view class `{maker}({cls})` is read as `{cls}`: "
            "what the call may add to it (a subclass) is not seen",)  # fmt: skip


def _as_view_options(
    view: ast.expr | None, text: TextOf, literals: Mapping[str, object]
) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    """`X.as_view(...)`'s `http_method_names` and a DRF viewset's action map (`{'get': 'list'}`,
    written in the call or a module constant holding it: its methods; ("?",) when computed)."""
    if not (isinstance(view, ast.Call) and _is_as_view(view)):
        return None, None
    methods = _given_strings(_keyword(view, "http_method_names"), text)
    actions: tuple[str, ...] | None = None
    mapping = view.args[0] if view.args else _keyword(view, "actions")
    if isinstance(mapping, ast.Dict):  # a DRF viewset bound to `{'get': 'list'}`
        keys = [text(k) for k in mapping.keys]
        actions = tuple(k.upper() for k in keys if k is not None)
        actions = actions if len(actions) == len(keys) else ("?",)
    elif isinstance(mapping, ast.Name) and isinstance(held := literals.get(mapping.id), dict):
        named = [k for k in held if isinstance(k, str)]  # `list_methods = {'get': 'list'}`
        actions = tuple(k.upper() for k in named) if len(named) == len(held) else ("?",)
    return methods, actions


def _mapped_methods(node: ast.ClassDef, actions: list[Action]) -> list[Action]:
    """`actions` with the methods DRF's `MethodMapper` adds (`@delete_version.mapping.patch`
    on another method of the class body: the action's route also answers PATCH, by that
    method). The name is the class body's own, so only an action of this class is mapped."""
    added: dict[str, list[str]] = {}
    for stmt in node.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in stmt.decorator_list:
            if (
                isinstance(decorator, ast.Attribute)
                and decorator.attr in _MAPPED_VERBS
                and isinstance(decorator.value, ast.Attribute)
                and decorator.value.attr == "mapping"
                and isinstance(decorator.value.value, ast.Name)
            ):
                added.setdefault(decorator.value.value.id, []).append(decorator.attr.upper())
    return [
        replace(a, methods=tuple(dict.fromkeys((*a.methods, *added[a.name]))))
        if a.name in added and "?" not in a.methods
        else a
        for a in actions
    ]


_OLD_ACTIONS = {"list_route": False, "detail_route": True}
"""DRF before 3.10's `@list_route(methods=[...])` and `@detail_route(...)` (3.8 made them
`@action(detail=False|True)`, 3.10 removed them): the same action, its `detail` by name."""


def _action(node: ast.FunctionDef | ast.AsyncFunctionDef, text: TextOf) -> Action | None:
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        name = _last(decorator.func)
        if name == "action" or name in _OLD_ACTIONS:
            detail_node = _argument(decorator, 1, "detail") if name == "action" else None
            detail = (
                _OLD_ACTIONS[name]
                if name in _OLD_ACTIONS
                else detail_node.value
                if isinstance(detail_node, ast.Constant)
                else None
            )
            methods_node = _argument(decorator, 0, "methods")
            methods = _strings(methods_node, text) if methods_node is not None else ("get",)
            url_path = _keyword(decorator, "url_path")
            return Action(
                node.name,
                detail if isinstance(detail, bool) else None,
                tuple(m.upper() for m in methods) if methods is not None else ("?",),
                text(url_path) if url_path is not None else node.name,
                _names(_keyword(decorator, "permission_classes")),
                node.lineno,
            )
    return None


def _class_names(node: ast.ClassDef) -> frozenset[str]:
    """The names a class body binds (its attributes and methods): what an expression written
    in the body reads before the module's names."""
    out: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(stmt.name)
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            out.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return frozenset(out)


def _literal(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _joined(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """`sep.join(items)` with one positional argument: (sep, items), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.func.value, ast.Constant | ast.Name)
    ):
        return node.func.value, node.args[0]
    return None
