"""Web frameworks as data: one record per framework pack-http-routes reads (`READ`: what its
readers, linker, pre-filter and auth rule look for) and one per framework it recognises but does
not read (`UNREAD`: named in an `UNREAD_FRAMEWORK` finding, so a repository built on one is never
an empty document that says nothing). Adding a framework is adding a record here plus fixtures
(docs/detectors.md, "Adding a framework"); the other modules read these tables (only a
framework's own grammar, such as Starlette's `Route`/`Mount` lists, stays in its reader)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..version_ranges import Version

# library Django router classes as records: kept in a module of their own, which `django_facts`
# (imported by `model`, imported here) reads without importing this one's imports
from .django_routers import DJANGO_ROUTERS as DJANGO_ROUTERS
from .django_routers import DjangoRouter as DjangoRouter
from .model import (
    DJANGO,
    EXPRESS,
    FASTAPI,
    FASTIFY,
    FASTIFY_DECORATORS,
    FLASK,
    HAPI,
    HTTP_METHODS,
    INVERSIFY,
    KOA,
    NESTJS,
    NEXTJS,
    ROUTING_CONTROLLERS,
    STARLETTE,
    TSED,
)
from .option_routes import BY_LIBRARY as OPTION_ROUTES
from .option_routes import TABLE_ROUTERS, OptionRoutes, TableRouter
from .paths import brace_path, express_served, flask_path, flask_shape, hapi_path


@dataclass(frozen=True, slots=True)
class Bootstrap:
    """A call that serves a controller library's decorated classes on an app: `callee` a
    function of the library (`useExpressServer(app, { routePrefix, controllers })`), a class it
    `new`s (`new InversifyExpressServer(c, null, { rootPath })`), a plugin registered by a
    `register` call (`app.register(bootstrap, { prefix, directory })`), or a class decorator
    (Ts.ED's `@Configuration({ mount: { '/rest': [...] } })`); `options` its options' argument.
    The option keys: `prefix` the prefix before every controller it serves, `controllers` a
    list of classes or of file globs (absent: every controller of the library), `directory`
    and `mask` a folder searched for controller files (fastify-decorators), `mount` an object
    of prefix -> controllers (Ts.ED); `unlisted` whether one that lists none serves every
    controller the app loads, as routing-controllers does."""

    callee: str
    kind: str  # "call" | "new" | "register" | "decorator"
    options: int
    prefix: str | None = None
    controllers: str | None = None
    directory: str | None = None
    mask: str | None = None
    mount: str | None = None
    default_mask: str = ""  # the library's own mask when none is given (a regex)
    unlisted: bool = False  # no controllers given serves every one loaded (routing-controllers)


@dataclass(frozen=True, slots=True)
class Controllers:
    """How a controller-decorator library spells its routes, read by the one decorator reader
    (`nest`): the modules its decorators are imported from (a `/`-ending one is a prefix), the
    class decorators that make a controller, the method decorators that make a route (name ->
    method, `*` every method), those whose first argument is the method (`@httpMethod('get',
    '/x')`), the keys of an options object that hold a path (`{ route: '/x' }`, `{ url }`),
    whether a path is served with a `/` added before it (Nest's `users` is `/users`), and its
    bootstraps (`Bootstrap`). A controller no bootstrap serves is named in a finding."""

    modules: tuple[str, ...]
    classes: tuple[str, ...]
    verbs: Mapping[str, str]
    method_verbs: tuple[str, ...] = ()
    path_keys: tuple[str, ...] = ("path",)
    rooted: bool = True
    bootstraps: tuple[Bootstrap, ...] = ()


@dataclass(frozen=True, slots=True)
class ViewDecorator:
    """A library's view decorator that makes the view it wraps serve more methods than its
    route declares: `module.name(...)` written below a route decorator (applied first) adds
    `methods` to that route, unless the keyword `unless` is given a false value. flask-cors's
    `@cross_origin()` (read in 3.0.9 and 6.0.2, alike): with `automatic_options` (default
    true) it sets the view's `required_methods` to hold OPTIONS and `provide_automatic_options`
    to False, so Flask routes OPTIONS to the view itself as one of the rule's own methods."""

    module: str
    name: str
    methods: tuple[str, ...]
    unless: str = ""


@dataclass(frozen=True, slots=True)
class Framework:
    """A framework the routes pack reads. Python fields are read by `python_facts` (the calls
    that make routers, the keyword of their own prefix, the calls that mount one on another),
    JavaScript fields by `js_facts`; `seeds` by the pre-filter (`seeds`), `guards`/`not_guards`
    by the auth rule (`auth`), `bases`, `noun` and `normalise` by the linker."""

    key: str  # `attrs.framework` of its routes
    name: str  # as findings spell it
    language: str  # "python" | "javascript"
    noun: str = "router"  # what a finding calls a router of it
    normalise: Callable[[str], str] = brace_path  # a path as the framework matches it -> `{x}`
    shape: Callable[[str], str] | None = None  # the path duplicates are judged on (converters)
    seeds: tuple[bytes, ...] = ()  # bytes a file that creates one of its routers must hold
    # Python: calls that make an app or a router (`Flask(...)`), the keyword holding a router's
    # own prefix (`Blueprint(..., url_prefix=)`), the library classes a router subclasses
    apps: tuple[str, ...] = ()
    routers: tuple[str, ...] = ()
    prefix_keywords: Mapping[str, str] = field(default_factory=dict)
    bases: Mapping[tuple[str, str], bool] = field(default_factory=dict)  # -> an app?
    # statement calls that mount, register or hook onto a router (`register_blueprint`)
    mount_calls: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()  # route decorators besides the HTTP verbs (`@app.route`)
    # those of them that serve one fixed kind of request, named as it (`@r.websocket`)
    decorator_methods: Mapping[str, str] = field(default_factory=dict)
    from_modules: tuple[str, ...] = ()  # `routers` count only when imported from these
    # Python: methods of a router that make a child router mounted on it, to the class of the
    # child (flask-restx's `api.namespace('users')`: a `Namespace`). Read on any value, in any
    # file: the linker makes the child where the value links to a router, whatever the file
    # calling the method imports (the project's own `api` instance, imported from its module)
    router_methods: Mapping[str, str] = field(default_factory=dict)
    # JavaScript: packages whose default export called (or `new`ed) makes an app (`express()`,
    # `new Koa()`) or a router (`new Router()` from `@koa/router`); members that make a router
    # of one of those packages (`express.Router()`, `import { Router } from 'express'`)
    app_modules: tuple[str, ...] = ()
    router_modules: tuple[str, ...] = ()
    router_members: tuple[str, ...] = ()
    app_members: tuple[str, ...] = ()  # members that make an app (`Hapi.server()`)
    # packages whose default export, called with an app, gives that app back (koa-websocket's
    # `websockify(new Koa())`: the app, with a websocket middleware stack on `app.ws`)
    app_wrappers: tuple[str, ...] = ()
    # packages whose default export, called with a table of `'VERB /path': handler` entries,
    # returns a router serving them (express-routes-mapper's `mapRoutes(table, folder)`), each
    # a record of `option_routes` (its verbs, its versions)
    table_routers: Mapping[str, TableRouter] = field(default_factory=dict)
    prefix_option: str | None = None  # `new Router({ prefix: '/api' })`
    prefix_method: str | None = None  # `router.prefix('/api')`
    verbs: Mapping[str, str] = field(default_factory=dict)  # method aliases: `del` -> DELETE
    unwrap: tuple[str, ...] = ()  # `router.routes()`: the router itself, as middleware
    # methods that return the instance they are called on, so a chain of calls goes on on it
    # (`app.withTypeProvider<T>().register(auth).get(...)`: `get` is on `app`); a link not
    # listed leaves the rest of the chain on an unknown object (`linker`: a finding there)
    chained: tuple[str, ...] = ()
    no_routes: tuple[
        str, ...
    ] = ()  # `router.allowedMethods()`: middleware, neither route nor guard
    # `router.register(path, ['GET', 'POST'], middleware)` (koa-router): a route whose methods
    # are a list, its second argument (read with three arguments or more)
    methods_call: str | None = None
    # `fastify.route({ method, url, handler })`: a route from one options object, its path in
    # one of `path_keys`; route options whose values guard (`{ preHandler: [auth] }`), also
    # when added to a router by `hook_call` (`fastify.addHook('onRequest', auth)`);
    # `register_call` runs a plugin function on a child router with `{ prefix }` options
    route_call: str | None = None
    path_keys: tuple[str, ...] = ()
    all_method: str | None = None  # the method spelling for every method (Hapi's `*`)
    # the name of one route for every method (`app.all('/x')`, `router[m]` with m 'all'):
    # `ALL /x` where the framework's own route table keeps it as one route (Express's
    # `route.methods._all`, koa-router's layer of every method); else one route per method
    every_method: str | None = None
    # the methods one `all` route registers where it is one route per method, by the versions
    # of the framework's package (`app_modules[0]`) the `package.json` nearest the route
    # declares: (the first version of an era, `()` the first; its methods), eras in order.
    # Empty: the methods of `HTTP_METHODS` but TRACE. Methods only some admitted eras register
    # are a finding at the call, not listed
    every_methods: tuple[tuple[Version, tuple[str, ...]], ...] = ()
    # the version of the framework's package from which it serves a HEAD beside every GET by
    # itself (Fastify 4's `exposeHeadRoutes`): where the declared range admits none below it,
    # a HEAD written beside a GET (`route({ method: ['GET', 'HEAD'] })`) is that one, not listed
    head_with_get_from: Version | None = None
    # a regular expression as a path (`app.get(/^\/x/, h)`): "any" routes one as a route's
    # path and as a mount path (Express 4 and 5); "unprefixed" as a route's path with no
    # prefix before it (koa-router joins a prefix to the expression's text, which then
    # matches nothing the expression does, or @koa/router 13+ drops the prefix); "" none
    # (Fastify 3+ and hapi reject one): each such route is a finding saying so
    regex_paths: str = ""
    # dotted option paths holding a route's auth (Hapi's `options.auth`: `false` is none, a
    # strategy is a guard, `mode: 'try'`/`'optional'` is none)
    auth_options: tuple[str, ...] = ()
    hook_options: tuple[str, ...] = ()
    hook_call: str | None = None
    register_call: str | None = None
    register_prefix: str = "prefix"  # dotted path of the prefix in its options
    plugin_key: str | None = None  # `register({ plugin: p, routes })`: the plugin's key
    # other keys an item holds its plugin under (hapi 16's `{ register: plugin, options }`,
    # the plugin a module or its register function), read when `plugin_key` is absent
    item_keys: tuple[str, ...] = ()
    plugin_member: str | None = None  # a plugin object's function (`{ name, register }`)
    # what a plugin function's router parameter is called (`async function (fastify, opts)`):
    # routes on one that no scanned call passes are listed, prefix unknown, as this framework's
    plugin_params: tuple[str, ...] = ()
    # plugins that add routes of their own when registered: library -> the (method, path) it
    # always serves on the registering router (@fastify/cors's preflight `OPTIONS *`), or none
    # when the routes hang on its options (swagger UIs, static files): an `UNRESOLVED_ROUTE`
    # at the register call naming the library
    generates: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # static-file plugins among those: library -> the option naming the path they serve files
    # under (`@fastify/static`'s `prefix`, `/` when absent), one `GET <prefix>/*` route on the
    # registering router; options not read (computed, `wildcard: false`, which serves each
    # file found at start-up) keep the `UNRESOLVED_ROUTE`
    static_plugins: Mapping[str, str] = field(default_factory=dict)
    # plugin libraries of `generates` whose plugin is a named export: module -> that name
    # (`import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify'`)
    plugin_exports: Mapping[str, str] = field(default_factory=dict)
    # documentation plugins among those: library -> its record (`option_routes`): the routes
    # its documented options fix (`@fastify/swagger-ui`'s `routePrefix`), listed at the
    # register call with `attrs.library`; what its options or versions leave open a finding
    documented: Mapping[str, OptionRoutes] = field(default_factory=dict)
    # plugin loaders: registered with `{ dir, options: { prefix } }`, they register every
    # script of a folder as a plugin, under the folder's path (`@fastify/autoload`)
    loaders: tuple[str, ...] = ()
    # library folder loaders: package -> (its class, the argument of `new` that is the app,
    # the folder it loads by default, repo-relative, the app's member that holds the router it
    # mounts): `new Loader(config, app)` requires every script under the folder (recursively)
    # and mounts each router a script exports on the app at its root (lin-mizar's `Loader`:
    # koa-router instances under `app/api`); a route on that member (`app.context.loader.
    # mainRouter.get('/')`) is the app's own
    folder_loaders: Mapping[str, tuple[str, int, str, str]] = field(default_factory=dict)
    # configuration plugins: library -> the instance member it decorates with the configuration
    # its options' JSON `schema` validates (`@fastify/env`: `fastify.config`, or `confKey`)
    config_plugins: Mapping[str, str] = field(default_factory=dict)
    # the instance method that decorates every instance with a value under a name, read back
    # as a member of any instance (`fastify.decorate('apiBase', '/v2')`, then `fastify.apiBase`
    # or `fastify['apiBase']` in a prefix or a path)
    decorate_call: str | None = None
    # methods that call a function they are given with the router they are called on, as
    # its first argument: method -> that function's argument index (hapi's
    # `server.dependency(deps, after)` runs `after(server)` with the plugin's server once the
    # plugins it names are registered, so the routes `after` adds are under the plugin's prefix)
    callbacks: Mapping[str, int] = field(default_factory=dict)
    # composers: packages whose `compose(manifest, { relativeTo })` makes an app and registers
    # the plugins a manifest lists (`@hapi/glue`)
    composers: tuple[str, ...] = ()
    # auth: library -> the names that guard when used ("*": any use); libraries that never do
    guards: Mapping[str, frozenset[str]] = field(default_factory=dict)
    not_guards: frozenset[str] = frozenset()
    # regex fragments over a dependency's, decorator's or middleware's own text: `evidence` that
    # it guards, `user_checks` that it turns away an anonymous caller (`not current_user`)
    evidence: tuple[str, ...] = ()
    user_checks: tuple[str, ...] = ()
    # controller classes whose decorators declare routes (NestJS and its kind: `nest`)
    controllers: Controllers | None = None
    # Python: library decorators that add methods to the view a route decorator above wraps
    view_decorators: tuple[ViewDecorator, ...] = ()


@dataclass(frozen=True, slots=True)
class AdminSite:
    """A library whose admin object serves the class-based views it adds, each as a blueprint
    (Flask-Admin; read by `flask_admin` and `linker._flask_admin`): `maker` the class making an
    admin (its `url` and `index_view` at these positional indexes too), `init_call` the method
    that attaches it to an app (its `index_view`/`url` keywords change the admin's),
    `add_calls` the methods adding one view (`add_view`) or several (`add_views`), `expose`
    the method decorator making a route of a view's method (`expose(url='/', methods=('GET',))`),
    `url` an admin's url when none is given (its default index view's), `index_endpoint` that
    view's endpoint; `views` the library's view classes whose own routes are known, by the
    methods serving them (`BaseView`: none; `AdminIndexView`: `index`, none once the project
    re-defines it); any other library class is named in an `UNRESOLVED_ROUTE` where the view
    is added; `modelled` the classes whose endpoint defaults to their model's name (the first
    argument's class name lower-cased), else the view class's name lower-cased."""

    name: str
    module: str
    maker: str = "Admin"
    maker_url: int = 2
    maker_index: int = 4
    init_call: str = "init_app"
    add_calls: tuple[str, str] = ("add_view", "add_views")
    expose: str = "expose"
    plugview: str = "expose_plugview"  # exposes a Flask view class: not read, a finding
    url: str = "/admin"
    index_endpoint: str = "admin"
    views: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    modelled: tuple[str, ...] = ()
    # bytes a file adding a view must hold one of (the pre-filter admits it: the admin may be
    # imported from another module, so the add call may be the file's only word of it)
    seeds: tuple[bytes, ...] = ()


# Flask-Admin, read in 1.5.6 (`flask_admin/base.py`, `model/base.py`) and 2.x, alike here
FLASK_ADMIN = AdminSite(
    "Flask-Admin",
    "flask_admin",
    views={"BaseView": (), "AdminIndexView": ("index",)},
    modelled=("ModelView", "BaseModelView"),
    seeds=(b"flask_admin", b"add_view"),
)


@dataclass(frozen=True, slots=True)
class ClassViews:
    """A library whose view classes route their own methods once a classmethod registers
    them on a Flask app or blueprint (Flask-Classful; read by `flask_classful` and
    `linker._class_views`): `base` the library's view class, `register` the classmethod (the
    app or blueprint first, or as `app=`; `options` the keywords read: the class attributes
    of the same names they override), `route` the method decorator giving a rule (`@route(rule,
    methods=..., endpoint=...)`, several per method), `method` the one giving the methods of a
    method routed by its name; `special` the methods routed at the view's base by their name
    (`special_methods`), `default_methods` the methods of any other, `converters` the type
    hints a rule's `<arg>` takes a converter from, `skipped` the prefixes of a method name
    never routed, `members` the names `FlaskView` itself holds (never routed, as the library
    leaves out what its base class has)."""

    name: str
    module: str
    base: str = "FlaskView"
    register: str = "register"
    options: tuple[str, ...] = (
        "route_base", "route_prefix", "trailing_slash", "method_dashified", "base_class",
    )  # fmt: skip
    route: str = "route"
    method: str = "method"
    special: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    default_methods: tuple[str, ...] = ("GET",)
    converters: Mapping[str, str] = field(default_factory=dict)
    skipped: tuple[str, ...] = ("_", "before_", "after_")
    members: frozenset[str] = frozenset()


# Flask-Classful, read in 0.14.2 and 0.16.0 (`flask_classful.py`: `FlaskView.register`,
# `build_rule`, `get_route_base`, `get_interesting_members`), alike here but for 0.16's
# `@method` decorator, which 0.14 does not have
FLASK_CLASSFUL = ClassViews(
    "Flask-Classful",
    "flask_classful",
    special={
        name: (name.upper() if name != "index" else "GET",)
        for name in ("get", "put", "patch", "post", "delete", "index")
    },
    converters={"str": "string", "int": "int", "float": "float", "UUID": "uuid"},
    members=frozenset(
        {
            "register",
            "parse_options",
            "make_proxy_method",
            "build_rule",
            "get_route_base",
            "default_route_base",
            "build_route_name",
            "decorators",
            "representations",
            "route_base",
            "route_prefix",
            "trailing_slash",
            "base_args",
            "excluded_methods",
            "method_dashified",
            "special_methods",
            "type_hints",
        }
    ),
)


@dataclass(frozen=True, slots=True)
class Unread:  # a framework pack-http-routes recognises but does not read
    """A framework: its name as the finding says it, and how its use is recognised."""

    name: str
    language: str  # "python" | "javascript"
    seeds: tuple[bytes, ...]  # a file whose bytes hold none cannot use it as `pattern` sees
    pattern: re.Pattern[bytes]  # group 0 starts where the use is written
    # a library that serves routes it makes at run time on an app the pack reads (admin
    # sites, REST CRUD generators): the calls that configure it, where its finding is when
    # the file makes one (else at the use `pattern` finds)
    configured: re.Pattern[bytes] | None = None


def _py_import(modules: str) -> re.Pattern[bytes]:
    """`import m`, `import m.x` or `from m(.x) import ...` of one of `modules` (a regex), at the
    start of a line (a guarded or nested import counts too: leading blanks allowed)."""
    return re.compile(
        rb"^[ \t]*(?:import|from)[ \t]+(?:" + modules.encode() + rb")\b", re.MULTILINE
    )


def _py_web(package: str) -> re.Pattern[bytes]:
    """`import p.web`, `from p.web import ...` or `from p import web` (also in a list)."""
    return re.compile(
        rb"^[ \t]*(?:import[ \t]+"
        + package.encode()
        + rb"\.web\b|from[ \t]+"
        + package.encode()
        + rb"(?:\.web\b|[ \t]+import[ \t(][^\n]*\bweb\b))",
        re.MULTILINE,
    )


def _js_import(modules: str) -> re.Pattern[bytes]:
    """`require('m')`, `import ... from 'm'` or `import 'm'` of one of `modules` (a regex)."""
    return re.compile(
        rb"""(?:require\s*\(\s*|from\s*|import\s*)['"](?:""" + modules.encode() + rb""")['"/]"""
    )


_VERB_NAMES = tuple(m for m in HTTP_METHODS if m != "trace")  # route methods of a router

# Fastify's `all()` registers its `supportedMethods` (read from its source, tag by tag): before 4
# `['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS']` (`lib/route.js`), HEAD its own
# route (`exposeHeadRoutes` off by default); from 4.0 the HEAD beside each GET is the one it
# serves by itself (`exposeHeadRoutes` on by default), left out as for every GET; 4.4 moves the
# list to `lib/httpMethods.js` with WebDAV's methods, TRACE and SEARCH; 4.27 adds REPORT and
# MKCALENDAR; 5.0 keeps the standard ones only (`kSupportedHTTPMethods`: GET, HEAD, TRACE and
# DELETE, OPTIONS, PATCH, PUT, POST; more only through `addHttpMethod`)
_FASTIFY_STANDARD = ("DELETE", "GET", "PATCH", "POST", "PUT", "OPTIONS")
_FASTIFY_WEBDAV = (
    "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "TRACE", "SEARCH",
)  # fmt: skip
_FASTIFY_ALL: tuple[tuple[Version, tuple[str, ...]], ...] = (
    ((), (*_FASTIFY_STANDARD, "HEAD")),
    ((4,), _FASTIFY_STANDARD),
    ((4, 4), (*_FASTIFY_STANDARD, *_FASTIFY_WEBDAV)),
    ((4, 27), (*_FASTIFY_STANDARD, *_FASTIFY_WEBDAV, "REPORT", "MKCALENDAR")),
    ((5,), (*_FASTIFY_STANDARD, "TRACE")),
)

READ = (
    Framework(
        FLASK,
        "Flask",
        "python",
        noun="Blueprint",
        normalise=flask_path,
        shape=flask_shape,
        seeds=(b"Flask", b"Blueprint"),
        apps=("Flask",),
        routers=("Blueprint",),
        prefix_keywords={"Blueprint": "url_prefix"},
        bases={("flask", "Flask"): True, ("flask", "Blueprint"): False},
        mount_calls=("register_blueprint", "add_url_rule", "before_request", "init_app"),
        decorators=("route",),
        guards={
            "flask_login": frozenset({"login_required", "fresh_login_required"}),
            "flask_jwt_extended": frozenset({"jwt_required", "fresh_jwt_required",
                                             "verify_jwt_in_request"}),
            "flask_security": frozenset({"login_required", "auth_required", "roles_required",
                                         "roles_accepted", "permissions_required",
                                         "permissions_accepted", "auth_token_required",
                                         "http_auth_required"}),
            "flask_httpauth": frozenset({"login_required"}),
            "flask_praetorian": frozenset({"auth_required", "roles_required", "roles_accepted"}),
        },
        not_guards=frozenset({"flask", "flask_limiter", "flask_caching", "flask_cors",
                              "flask_classful"}),  # `@route(...)` on a view's method
        evidence=(
            r"\bg\.user is None\b", r"\bnot g\.user\b", r"\bnot current_user\b",
            r"\bg\.get\([\"']user[\"']\) is None",
        ),
        user_checks=(
            r"\bg\.user is None\b", r"\bnot g\.user\b", r"\bg\.get\([\"']user[\"']\) is None",
            r"\bnot current_user\b", r"\bcurrent_user is None\b", r"\bnot session\.get\([\"']user",
        ),
        view_decorators=(
            ViewDecorator("flask_cors", "cross_origin", ("OPTIONS",), unless="automatic_options"),
        ),
    ),
    Framework(  # flask-restful, flask-restx, flask-restplus: `Api`/`Namespace` are routers
        FLASK,
        "Flask",
        "python",
        noun="Blueprint",
        normalise=flask_path,
        shape=flask_shape,
        seeds=(b"flask_rest",),
        routers=("Api", "Namespace"),
        bases={
            ("flask_restful", "Api"): False,
            ("flask_restx", "Api"): False,
            ("flask_restx", "Namespace"): False,
            ("flask_restplus", "Api"): False,
            ("flask_restplus", "Namespace"): False,
        },
        mount_calls=("add_namespace", "add_resource"),
        from_modules=("flask_restx", "flask_restful", "flask_restplus"),
        router_methods={"namespace": "Namespace"},
    ),
    Framework(
        FASTAPI,
        "FastAPI",
        "python",
        noun="APIRouter",
        seeds=(b"FastAPI", b"APIRouter"),
        apps=("FastAPI",),
        routers=("APIRouter",),
        prefix_keywords={"APIRouter": "prefix"},
        bases={("fastapi", "FastAPI"): True, ("fastapi", "APIRouter"): False},
        mount_calls=("include_router", "add_api_route", "mount"),
        decorators=("api_route", "websocket"),
        decorator_methods={"websocket": "WEBSOCKET"},
        guards={
            "fastapi.security": frozenset({
                "OAuth2PasswordBearer", "OAuth2AuthorizationCodeBearer", "OAuth2", "HTTPBearer",
                "HTTPBasic", "HTTPDigest", "APIKeyHeader", "APIKeyCookie", "APIKeyQuery",
                "OpenIdConnect", "SecurityScopes",
            }),
            "fastapi": frozenset({"Security"}),
            "fastapi_users": frozenset({"current_user"}),
        },
        not_guards=frozenset({"fastapi", "fastapi_cache"}),
    ),
    Framework(
        STARLETTE,
        "Starlette",
        "python",
        seeds=(b"Starlette", b"Router", b"Route", b"Mount"),
        apps=("Starlette",),
        routers=("Router",),
        bases={("starlette", "Starlette"): True},
        mount_calls=("mount", "add_route"),
        decorators=("websocket_route",),
        decorator_methods={"websocket_route": "WEBSOCKET"},
        guards={"starlette.authentication": frozenset({"requires"})},
        not_guards=frozenset({"starlette", "starlette.requests"}),
    ),
    Framework(  # its URLconf and REST framework routers: `django_facts`, `django_linker`
        DJANGO,
        "Django",
        "python",
        noun="URLconf",
        seeds=(b"urlpatterns", b"ROOT_URLCONF", b"DJANGO_SETTINGS_MODULE", b"REST_FRAMEWORK",
               b"format_suffix_patterns"),
        guards={
            "django.contrib.auth.decorators": frozenset({"login_required",
                                                         "permission_required",
                                                         "user_passes_test"}),
            "django.contrib.auth.mixins": frozenset({"LoginRequiredMixin",
                                                     "PermissionRequiredMixin",
                                                     "UserPassesTestMixin"}),
            "rest_framework.permissions": frozenset({"IsAuthenticated", "IsAdminUser"}),
        },
    ),
    Framework(
        EXPRESS,
        "Express",
        "javascript",
        normalise=express_served,
        seeds=(b"express", b"Router"),
        app_modules=("express",),
        router_members=("Router",),
        table_routers=TABLE_ROUTERS,
        every_method="ALL",
        regex_paths="any",
        # `app.get(name)` reads a setting: only calls that return the app or router always
        chained=("use", "set", "enable", "disable", "engine", "param"),
        guards={
            "passport": frozenset({"authenticate"}),
            "express-jwt": frozenset({"*"}),
            "express-basic-auth": frozenset({"*"}),
            "express-oauth2-jwt-bearer": frozenset({"auth", "requiredScopes", "claimCheck"}),
            "express-openid-connect": frozenset({"requiresAuth"}),
            "connect-ensure-login": frozenset({"ensureLoggedIn"}),
        },
        evidence=(r"\bisAuthenticated\(\)", r"\bisUnauthenticated\(\)"),  # passport's
        not_guards=frozenset({
            "express", "cors", "helmet", "morgan", "compression", "body-parser",
            "cookie-parser", "express-rate-limit", "express-slow-down", "multer",
            "express-session", "serve-static", "express-validator", "express-async-handler",
            "celebrate",
        }),
    ),
    Framework(
        KOA,
        "Koa",
        "javascript",
        normalise=express_served,  # koa-router matches paths with path-to-regexp, as Express
        seeds=(b"koa",),
        app_modules=("koa",),
        app_wrappers=("koa-websocket",),
        # koa-swagger-decorator's `SwaggerRouter` is a koa-router subclass; its decorated
        # classes, `map`, `mapDir` and `swagger` are read by `koa_decorators`; lin-mizar's
        # `LinRouter` is one too (`new LinRouter({ prefix })`), adding a verb per method that
        # takes a permission name before the path (`linGet('name', '/x', meta, ...handlers)`)
        router_modules=("@koa/router", "koa-router", "koa-swagger-decorator", "lin-mizar"),
        router_members=("Router", "SwaggerRouter", "LinRouter"),  # `{ Router }` of the above
        prefix_option="prefix",
        prefix_method="prefix",
        folder_loaders={"lin-mizar": ("Loader", 1, "app/api", "context.loader.mainRouter")},
        verbs={
            "del": "DELETE", "linGet": "GET", "linPost": "POST", "linPut": "PUT",
            "linPatch": "PATCH", "linDelete": "DELETE", "linHead": "HEAD", "linOption": "OPTIONS",
        },
        every_method="ALL",
        regex_paths="unprefixed",
        # Koa's `app.use`; koa-router's `use`, `prefix`, `param` and every route method
        chained=("use", "prefix", "param", "all", "del", *_VERB_NAMES),
        unwrap=("routes", "middleware"),
        no_routes=("allowedMethods",),
        methods_call="register",
        guards={"koa-jwt": frozenset({"*"}), "koa-passport": frozenset({"authenticate"})},
        not_guards=frozenset({
            "koa", "@koa/router", "koa-router", "@koa/cors", "koa-bodyparser", "koa-body",
            "koa-logger", "koa-static", "koa-helmet", "koa-compress",
        }),
    ),
    Framework(
        FASTIFY,
        "Fastify",
        "javascript",
        noun="plugin",
        normalise=express_served,  # a prefixed `/` is served with and without the slash
        seeds=(b"fastify",),
        app_modules=("fastify",),
        app_members=("fastify",),  # `import { fastify } from 'fastify'`, as its default
        route_call="route",
        path_keys=("url", "path"),
        every_methods=_FASTIFY_ALL,
        head_with_get_from=(4,),
        hook_options=("onRequest", "preParsing", "preValidation", "preHandler"),
        hook_call="addHook",
        register_call="register",
        # Fastify 5 returns `this` from each (its `types/instance.d.ts`, checked at run time)
        chained=(
            "withTypeProvider", "register", "addHook", "decorate", "decorateRequest",
            "decorateReply", "setErrorHandler", "setNotFoundHandler", "addSchema",
            "setValidatorCompiler", "setSerializerCompiler", "addContentTypeParser", "route",
            "all", *_VERB_NAMES,
        ),
        plugin_params=("fastify", "instance"),
        generates={
            "@fastify/cors": (("OPTIONS", "*"),),
            "fastify-cors": (("OPTIONS", "*"),),
            "@fastify/swagger-ui": (),
            "fastify-swagger": (),
            "@fastify/static": (),
            "fastify-static": (),
            "@fastify/oauth2": (),
            "fastify-oauth2": (),
            "mercurius": (),  # GraphQL: `/graphql` and its IDE's pages, by its options
            # a proxy: whatever the upstream serves, under the register call's `prefix`
            "@fastify/http-proxy": (),
            "fastify-http-proxy": (),
            "@trpc/server/adapters/fastify": (),  # tRPC: `/:path`, every method
            "fastify-metrics": (),  # Prometheus metrics: `GET /metrics` by its options
        },
        plugin_exports={"@trpc/server/adapters/fastify": "fastifyTRPCPlugin"},
        static_plugins={"@fastify/static": "prefix", "fastify-static": "prefix"},
        documented={
            name: OPTION_ROUTES[name]
            for name in (
                "@fastify/swagger-ui", "@fastify/oauth2", "fastify-oauth2", "mercurius",
                "@trpc/server/adapters/fastify", "fastify-metrics",
            )
        },
        loaders=("@fastify/autoload", "fastify-autoload"),
        config_plugins={"@fastify/env": "config", "fastify-env": "config"},
        decorate_call="decorate",
        guards={
            "@fastify/basic-auth": frozenset({"*"}),
            "@fastify/bearer-auth": frozenset({"*"}),
            "@fastify/auth": frozenset({"*"}),
            "fastify-auth": frozenset({"*"}),
        },
        evidence=(r"\bjwtVerify\(",),  # @fastify/jwt's check, in a hook's own text
        not_guards=frozenset({
            "fastify", "fastify-plugin", "@fastify/cors", "@fastify/helmet",
            "@fastify/rate-limit", "@fastify/compress", "@fastify/static", "@fastify/formbody",
            "@fastify/multipart", "@fastify/swagger", "@fastify/sensible",
        }),
    ),
    Framework(
        HAPI,
        "Hapi",
        "javascript",
        noun="plugin",
        normalise=hapi_path,  # `{path*}`, `{id?}` kept as hapi names them
        seeds=(b"hapi", b"glue"),
        app_modules=("@hapi/hapi", "hapi"),
        app_members=("server", "Server"),
        route_call="route",
        path_keys=("path",),
        all_method="*",
        auth_options=("options.auth", "config.auth"),
        register_call="register",
        register_prefix="routes.prefix",
        plugin_key="plugin",
        item_keys=("register",),
        plugin_member="register",
        plugin_params=("server",),
        # hapi 16 (connections): `server.connection(options)` and `server.select(labels)` give
        # the server again, its connections narrowed (routes and their prefix unchanged)
        chained=("connection", "select"),
        callbacks={"dependency": 1},
        composers=("@hapi/glue", "glue"),
        generates={"hapi-swagger": (), "hapi-swaggered-ui": ()},
        documented={"hapi-swagger": OPTION_ROUTES["hapi-swagger"]},
        guards={"@hapi/basic": frozenset({"*"}), "hapi-auth-jwt2": frozenset({"*"}),
                "@hapi/cookie": frozenset({"*"}), "@hapi/bell": frozenset({"*"})},
        not_guards=frozenset({"@hapi/hapi", "hapi", "@hapi/boom", "@hapi/joi", "joi",
                              "@hapi/inert", "@hapi/vision"}),
    ),
    Framework(  # decorators: `@Controller(prefix)` classes, `@Get(path)` methods (`js_facts`)
        NESTJS,
        "NestJS",
        "javascript",
        noun="controller",
        normalise=express_served,  # Nest serves through Express (or Fastify) path syntax
        seeds=(b"@nestjs/",),
        guards={"@nestjs/passport": frozenset({"AuthGuard"})},
        not_guards=frozenset({"@nestjs/common", "@nestjs/core", "@nestjs/throttler"}),
        # `Sse`: a server-sent events stream, which Nest serves as a GET route; its modules
        # and `RouterModule` serve controllers (`nest_link`), not a bootstrap
        controllers=Controllers(
            ("@nestjs/common", "@nestjs/common/"),
            ("Controller",),
            {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
             "Options": "OPTIONS", "Head": "HEAD", "All": "*", "Sse": "GET"},
        ),
    ),
    Framework(  # `@Controller({ route })` classes, served by `register(bootstrap, {...})`
        FASTIFY_DECORATORS,
        "fastify-decorators",
        "javascript",
        noun="controller",
        normalise=express_served,  # served by Fastify
        seeds=(b"fastify-decorators",),
        controllers=Controllers(
            ("fastify-decorators",),
            ("Controller",),
            {"GET": "GET", "POST": "POST", "PUT": "PUT", "PATCH": "PATCH", "DELETE": "DELETE",
             "OPTIONS": "OPTIONS", "HEAD": "HEAD", "ALL": "*"},
            path_keys=("route", "url"),
            rooted=False,
            # its default mask: files named `*.handler.*` or `*.controller.*`
            bootstraps=(Bootstrap("bootstrap", "register", 1, prefix="prefix",
                                  controllers="controllers", directory="directory",
                                  mask="mask", default_mask=r"\.(handler|controller)\."),),
        ),
    ),
    Framework(  # `@JsonController('/x')` classes, served by `useExpressServer(app, {...})`
        ROUTING_CONTROLLERS,
        "routing-controllers",
        "javascript",
        noun="controller",
        normalise=express_served,  # served by Express (or Koa, the same path syntax)
        seeds=(b"routing-controllers",),
        controllers=Controllers(
            ("routing-controllers",),
            ("Controller", "JsonController"),
            {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
             "Head": "HEAD", "All": "*", "Method": ""},
            method_verbs=("Method",),
            rooted=False,
            bootstraps=tuple(
                Bootstrap(name, "call", index, prefix="routePrefix", controllers="controllers",
                          unlisted=True)
                for name, index in (("useExpressServer", 1), ("createExpressServer", 0),
                                    ("useKoaServer", 1), ("createKoaServer", 0))
            ),
        ),
    ),
    Framework(  # `@controller('/x')` classes, served by `new InversifyExpressServer(...)`
        INVERSIFY,
        "inversify-express-utils",
        "javascript",
        noun="controller",
        normalise=express_served,
        seeds=(b"inversify-express-utils",),
        controllers=Controllers(
            ("inversify-express-utils",),
            ("controller",),
            {"httpGet": "GET", "httpPost": "POST", "httpPut": "PUT", "httpPatch": "PATCH",
             "httpDelete": "DELETE", "httpHead": "HEAD", "all": "*", "httpMethod": ""},
            method_verbs=("httpMethod",),
            # every decorated class the container loads is served (no list)
            bootstraps=(Bootstrap("InversifyExpressServer", "new", 2, prefix="rootPath"),),
        ),
    ),
    Framework(  # `@Controller('/x')` classes, served under `mount` of `@Configuration`
        TSED,
        "Ts.ED",
        "javascript",
        noun="controller",
        normalise=express_served,
        seeds=(b"@tsed/",),
        controllers=Controllers(
            ("@tsed/common", "@tsed/schema", "@tsed/di"),
            ("Controller",),
            {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
             "Options": "OPTIONS", "Head": "HEAD", "All": "*"},
            bootstraps=(Bootstrap("Configuration", "decorator", 0, mount="mount"),
                        Bootstrap("ServerSettings", "decorator", 0, mount="mount")),
        ),
    ),
    Framework(  # file-system routes: no call makes a router; `nextjs` reads a file's place
        NEXTJS,
        "Next.js",
        "javascript",
        noun="route file",
    ),
)  # fmt: skip
BY_KEY = {f.key: f for f in reversed(READ)}  # a key's first record names it
JAVASCRIPT = tuple(f for f in READ if f.language == "javascript")
CONTROLLERS = tuple(f for f in READ if f.controllers is not None)  # read by `nest`
PYTHON = tuple(f for f in READ if f.language == "python")


def _generates(name: str, language: str, module: str, calls: str) -> Unread:
    """A library that serves routes it generates at run time (`Unread.configured`): named
    where `calls` configure it, else where it is imported."""
    importer = _py_import if language == "python" else _js_import
    return Unread(name, language, (module.encode(),), importer(re.escape(module)),
                  re.compile(calls.encode()))  # fmt: skip


_FASTMCP_SERVER = re.compile(
    rb"^[ \t]*from[ \t]+(?:fastmcp|mcp\.server\.fastmcp)[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)"
    rb"\bFastMCP\b|\bfastmcp\.FastMCP[ \t]*\(",
    re.MULTILINE,
)


UNREAD = (
    # aiohttp and Tornado are clients and much else too: only their `web` module is a server
    Unread("aiohttp", "python", (b"aiohttp",), _py_web("aiohttp")),
    Unread("Tornado", "python", (b"tornado",), _py_web("tornado")),
    Unread("Falcon", "python", (b"falcon",), _py_import(r"falcon")),
    Unread("Sanic", "python", (b"sanic",), _py_import(r"sanic")),
    Unread("Bottle", "python", (b"bottle",), _py_import(r"bottle")),
    Unread("Pyramid", "python", (b"pyramid",), _py_import(r"pyramid")),
    Unread("Restify", "javascript", (b"restify",), _js_import(r"restify")),
    Unread("Hono", "javascript", (b"hono",), _js_import(r"hono")),
    Unread("LoopBack", "javascript", (b"@loopback/rest",), _js_import(r"@loopback/rest")),
    # an MCP server (its HTTP transports' endpoints): named where its server class is imported
    # (`from fastmcp import FastMCP`, in a parenthesised list too) or made (`fastmcp.FastMCP(`),
    # not at an import of its client (`from fastmcp import Client`) nor of a helper
    Unread("FastMCP", "python", (b"fastmcp",), _FASTMCP_SERVER),
    # libraries that generate routes at run time from models or settings, configured here
    _generates("Flask-Admin", "python", "flask_admin", r"\b(?:Admin|add_views?)\s*\("),
    _generates("Flask-AppBuilder", "python", "flask_appbuilder",
               r"\b(?:AppBuilder|add_view(?:_no_menu)?|add_api)\s*\("),
    _generates("Flask-Restless", "python", "flask_restless", r"\bcreate_api(?:_blueprint)?\s*\("),
    _generates("SAFRS", "python", "safrs", r"\bexpose_object\s*\("),
    _generates("SQLAdmin", "python", "sqladmin", r"\b(?:Admin|add_view)\s*\("),
    _generates("fastapi-crudrouter", "python", "fastapi_crudrouter", r"\b\w*CRUDRouter\s*\("),
    _generates("FastAPI Users", "python", "fastapi_users", r"\.get_\w+_router\s*\("),
    _generates("express-restify-mongoose", "javascript", "express-restify-mongoose",
               r"\bserve\s*\("),
    _generates("json-server", "javascript", "json-server", r"\.router\s*\("),
    # resourcejs: `Resource(app, route, name, model).rest()` (or `.index()`, `.get()`, …, and
    # subclasses of its `Resource`): CRUD routes per model, named where they are configured
    _generates("resourcejs", "javascript", "resourcejs",
               r"\bResource\w*\s*\([^)]*\)\s*\.\s*(?:rest|index|get|post|put|patch|delete|virtual)\s*\(|\bextends\s+\w+\.Resource\b"),
    _generates("@nestjsx/crud", "javascript", "@nestjsx/crud", r"@Crud\s*\("),
    # Connect RPC: a route per method of the service definitions given to its plugin, adapter
    # or middleware (generated code, often of another package); `@bufbuild/` before 1.0.
    # connect-node is a client's transport too: named only where its adapter is made
    *(
        Unread(f"@connectrpc/connect-{adapter}", "javascript", (f"/connect-{adapter}".encode(),),
               _js_import(rf"@(?:connectrpc|bufbuild)/connect-{adapter}"), re.compile(calls))
        for adapter, calls in (
            ("fastify", rb"\bregister\s*\(\s*fastifyConnectPlugin\b"),
            ("express", rb"\bexpressConnectMiddleware\s*\("),
        )
    ),
    Unread("@connectrpc/connect-node", "javascript", (b"/connect-node",),
           re.compile(rb"\bconnectNodeAdapter\s*\("), re.compile(rb"\bconnectNodeAdapter\s*\(")),
    # tRPC's Express middleware: a procedure of the router it is given at any path below its
    # mount, named where it is made (its Fastify plugin's routes: `option_routes`)
    _generates("tRPC (@trpc/server/adapters/express)", "javascript",
               "@trpc/server/adapters/express", r"\bcreateExpressMiddleware\s*\("),
    # bull-board: its UI and API, served by the router or plugin its server adapter makes,
    # named where that is mounted (`app.use('/', serverAdapter.getRouter())`, Fastify's,
    # Koa's and hapi's `serverAdapter.registerPlugin()`) where its records
    # (`library_tables`) do not list them: an adapter the scan does not follow to its mount.
    # Its NestJS module mounts the adapter under its `route` and Nest's global prefix itself
    _generates("bull-board (@bull-board/nestjs)", "javascript", "@bull-board/nestjs",
               r"\bBullBoardModule\s*\.\s*forRoot(?:Async)?\s*\("),
    *(
        Unread(f"bull-board (@bull-board/{adapter})", "javascript",
               (f"@bull-board/{adapter}".encode(),), _js_import(rf"@bull-board/{adapter}"),
               re.compile(rb"\.(?:getRouter|registerPlugin)\s*\(\s*\)"))
        for adapter in ("express", "fastify", "koa", "hapi")
    ),
)  # fmt: skip
GENERATORS = frozenset(u.name for u in UNREAD if u.configured is not None)
# an unread framework's name -> the packages it is recognised by (its seeds): a library whose
# routes a record lists where they are read (`library_tables`) is named only where they are not
UNREAD_PACKAGES = {u.name: frozenset(s.decode() for s in u.seeds) for u in UNREAD}
# packages whose objects take `x.get('/path', callback)` and are no router: HTTP clients and
# test clients, caches and stores, Node's own modules; an object of any other package the
# scanned files do not show, called route-shaped, is an `UNRESOLVED_ROUTER` (`linker`)
NOT_ROUTER_PACKAGES = frozenset({
    "axios", "redaxios", "got", "superagent", "supertest", "supertest-session", "node-fetch",
    "cross-fetch", "isomorphic-fetch", "undici", "ky", "ofetch", "wretch", "request",
    "request-promise", "needle", "phin", "apisauce", "frisby", "chai-http", "nock", "msw",
    "redis", "ioredis", "memcached", "lru-cache", "node-cache", "keyv", "cache-manager",
    "socket.io", "socket.io-client", "ws", "jquery", "events", "http", "https", "http2", "net",
    "fs", "path", "url", "stream", "child_process", "worker_threads", "cluster", "dgram",
    # front-end frameworks and their client-side routers: no server routes
    "react", "react-dom", "preact", "vue", "vue-router", "react-router", "react-router-dom",
    "@angular/core", "@angular/router", "lit", "backbone", "three",
})  # fmt: skip
SEEDS = {
    language: tuple(sorted({s for u in UNREAD if u.language == language for s in u.seeds}))
    for language in ("python", "javascript")
}
_ANY_SEED = {
    language: tuple(s for s in seeds if not any(o != s and o in s for o in seeds))
    for language, seeds in SEEDS.items()
}
"""The seeds a file must hold one of to use an unread framework, those holding another left out
(`express-restify-mongoose` holds `restify`): a few `in` scans, cheaper than one search of their
alternation, which stops at every character one of them starts with."""


def unread_uses(source: bytes, language: str) -> tuple[tuple[str, int], ...]:
    """(framework, line) of each use of an unread framework in a file of `language`: the first
    per framework (one place is enough to name it)."""
    found: list[tuple[str, int]] = []
    if not any(seed in source for seed in _ANY_SEED.get(language, ())):  # most files
        return ()
    for framework in UNREAD:
        if framework.language != language or not any(s in source for s in framework.seeds):
            continue
        match = framework.pattern.search(source)
        if match is not None and framework.configured is not None:
            match = framework.configured.search(source) or match
        if match is not None:
            found.append((framework.name, source.count(b"\n", 0, match.start()) + 1))
    return tuple(found)
