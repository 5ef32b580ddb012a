"""What one source file says about HTTP routes, before any other file is read.

A file's facts are plain frozen values, computed once per file version (the per-file memo keeps
them) and linked with the other files' facts on every discover. Everything that may name
something in another module stays symbolic here (`Sym`, `ImportRef`): only the linker, which sees
every scanned file, can tell what `users.router` or `settings.API_V1_STR` is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .django_facts import Action, DjangoClass, DjangoFacts, DjangoFunction, Registration, UrlEntry

if TYPE_CHECKING:
    from .flask_admin import AdminFacts
    from .flask_classful import ViewClass, ViewRegister
    from .py_marks import Collector, Mark, MarkFactory

FASTAPI = "fastapi"
FLASK = "flask"
STARLETTE = "starlette"
EXPRESS = "express"
KOA = "koa"
DJANGO = "django"
NEXTJS = "nextjs"
FASTIFY = "fastify"
NESTJS = "nestjs"
HAPI = "hapi"
# controller-decorator libraries, read by the one decorator reader (`nest`)
FASTIFY_DECORATORS = "fastify-decorators"
ROUTING_CONTROLLERS = "routing-controllers"
INVERSIFY = "inversify-express-utils"
TSED = "tsed"

# bindings no JavaScript name can spell: the configuration an instance is decorated with
# (`fastify.config`, under "decorated config"), and that a file's default export is a plugin
# wrapped by `fastify-plugin` (run on its parent itself)
DECORATED = "decorated "
SHARED = "shared plugin"

HTTP_METHODS = ("get", "post", "put", "patch", "delete", "options", "head", "trace")
# `app.all(path, h)`: a route for every method, as a reader notes it; the linker names it so
# where the framework's record says its own table keeps one route (`every_method`), else lists
# one route per method
EVERY = "ALL"
CALL = "()"  # a `Sym` path segment meaning "the result of calling what came before"
ITEM = "[]"  # a `Sym` path segment: "one of the values of the mapping before" (`envs[env]`)
# what `process.env.NODE_ENV` is where no sample environment file sets it: unset, or what a
# deployment sets (Express and Fastify's guides, every platform's Node image), each with the
# default a value read under it names (`attrs.configDefault`); a test is decided off only where
# neither runs its branch (`linker._holds`, one world per default)
NODE_ENV_DEFAULTS = (
    ("", "process.env.NODE_ENV unset"),
    ("production", "process.env.NODE_ENV=production where a deployment sets it"),
)
# `Sym` path segments: the list a Python dict's `.items()` (its `(key, value)` pairs) and
# `.values()` give, fields of a module-level dict with string keys (`for at, app in T.items():`)
DICT_VIEWS = {"items": "[]items", "values": "[]values"}


@dataclass(frozen=True, slots=True)
class Lit:
    """A string the source spells out."""

    value: str


@dataclass(frozen=True, slots=True)
class Sym:
    """A dotted name as written, `CALL` segments for calls: `get_settings().api_prefix` is
    `("get_settings", "()", "api_prefix")`."""

    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Concat:
    """`a + b`, an f-string or a template literal: visible when every part is."""

    parts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class ImportRef:
    """A name bound by an import: `attr` of the module `module`, or the module itself when
    `attr` is None. Python modules are absolute dotted names (relative imports already applied);
    JavaScript modules are the file's own specifier with the importing file's path in `origin`."""

    module: str
    attr: str | None
    origin: str = ""


@dataclass(frozen=True, slots=True)
class RouterRef:
    """The router (app, APIRouter, Blueprint, express.Router()) created at that site."""

    router_id: str


@dataclass(frozen=True, slots=True)
class Namespace:
    """A class body or an object literal: fields with values, and for a class-based view
    (Starlette `HTTPEndpoint`, Flask `MethodView`) the HTTP-verb methods it defines and the auth
    its `decorators = [...]` show."""

    fields: tuple[tuple[str, Expr], ...]
    verbs: tuple[str, ...] = ()
    auth: Auth = field(default_factory=lambda: Auth())
    verb_auth: tuple[Auth, ...] = ()  # what each verb method's own decorators put before it
    bases: tuple[Expr, ...] = ()  # a class's bases: fields not its own are looked up there
    # a router subclass's `super().__init__(prefix=..., dependencies=[...])`
    init_prefix: Expr | None = None
    init_auth: Auth = field(default_factory=lambda: Auth())
    # `self.router = router or APIRouter(...)` in `__init__`: a router each instance makes,
    # `router_id` the attribute's name (`linker` makes one per `x = Cls(...)` that uses it)
    instance_routers: tuple[RouterDecl, ...] = ()
    # of each, the `__init__` parameter that, when passed, is the router instead ("" if none)
    instance_params: tuple[str, ...] = ()
    init_params: tuple[str, ...] | None = None  # `__init__`'s positional ones after `self`
    # Python: what Flask-Classful reads of the class statement (`flask_classful`)
    view: ViewClass | None = None
    # Python: its methods' decorator calls that may mark them as routes, and its loops over its
    # members that register what such marks record (`py_marks`)
    marks: tuple[Mark, ...] = ()
    collectors: tuple[Collector, ...] = ()
    # `super().__init__(...)` in its `__init__`: what it passes by position and by name
    super_args: tuple[Expr | None, ...] = ()
    super_keywords: tuple[tuple[str, Expr | None], ...] = ()
    # its `__init__`'s parameters with a default of `None` (passing none passes nothing)
    none_defaults: tuple[str, ...] = ()
    # Python: its own definitions of a method every route passes through (`api_route`,
    # `add_url_rule`...): (name, the def's text), run per route by `py_overrides`
    overrides: tuple[tuple[str, str], ...] = ()
    # Python: `self.app = app` in `__init__`: (attribute, parameter), each instance's attribute
    # what its constructor call passes there (`Service(app).app` is that `app`)
    instance_given: tuple[tuple[str, str], ...] = ()
    # JavaScript: an object literal that is route options (`{ method, path, handler }`), read
    # as such where it is written, so a table gathering such objects from other places
    # (`Object.values(require('./x'))`, an object of them) lists each at its own object
    route: RouteDecl | None = None


@dataclass(frozen=True, slots=True)
class Each:
    """Each item of what callers pass as the parameter `source`: the loop variable of `for
    rule in routes:` in `def register_view(bp, routes, view_func)`."""

    # or a list built from one (`[scoped(u) for u in urls]`, `map(scoped, urls)`): `Mapped`;
    # or a module's own name (`for entry in ROUTES:`, `ROUTES` imported): `Sym`, which the
    # linker reads in the file the loop is written in
    source: Param | Bound | Mapped | Sym
    index: int = -1  # `for path, view in routes:`: element `index` of each item (-1: the item)
    field: str = ""  # `for (const r of routes) … r.path`: that property of each item
    rest: bool = False  # `add_resource(*entry)`: each element from `index` on, one value each


@dataclass(frozen=True, slots=True)
class Items:
    """A literal list or tuple passed in a call (`routes=["/a", "/b"]`)."""

    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of several values, which one decided when the code runs (`environments[env]()`):
    known where every option agrees."""

    options: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Function:
    """A function: what it returns (for settings factories), what it depends on (`auth`: its
    decorators and dependency parameters, each judged once linked) and whether its own body
    shows a guard (`evidence`: it answers 401/403 or checks the user), read from its text."""

    name: str
    returns: Expr | None
    auth: Auth
    site: str = ""  # where it is defined in its file: what a `Param` of it names
    evidence: bool = False
    checks_user: bool = False  # its body turns away an anonymous caller (`g.user is None`)
    method: bool = False  # a method: a call through an instance passes it as parameter 0
    # JavaScript: the one function it returns (`(deps) => async (app) => {...}`), read only
    # where a call of it is registered as a plugin (`PluginOf`): a middleware factory given
    # to `use()` reads as before; `Opaque` when it returns one of several at run time
    plugin: Expr | None = None
    shared: bool = False  # JavaScript: returned wrapped by `fastify-plugin` (`return fp(f)`)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A guard identified where it is written (`Security(...)`): no lookup needed."""

    what: str


@dataclass(frozen=True, slots=True)
class NoGuard:
    """A guard made optional where it is written (`HTTPBearer(auto_error=False)`,
    `jwt_required(optional=True)`, `expressjwt({credentialsRequired: false})`): it lets an
    anonymous caller through, so it is known not to guard."""

    what: str


@dataclass(frozen=True, slots=True)
class Call:
    """`callee(*args)` kept whole where a guard may hide in an argument:
    `asyncHandler(auth.jwt)` guards when `auth.jwt` does."""

    callee: Expr
    args: tuple[Expr, ...]
    # JavaScript: every argument in its place, as a helper's parameters are bound to them (the
    # linker reads a call of the project's function as its return value: `build(plugins)`);
    # None when one is not read
    passed: tuple[Expr, ...] | None = None
    # JavaScript: the line of a call of the project's function with every argument read
    # (`makeHandler(spec)(h)`): where a route record it makes is written (0: not recorded)
    line: int = 0


VARARGS = -2  # a `Param.index` at or below: `*rest` at position VARARGS - index


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of the function defined at `function` (a site in the same file) used as a
    router: `def register(app): app.include_router(...)`. It stands for what each scanned call
    of that function passes at `index` (-1: keyword-only) or as `name=`; when no scanned call
    passes anything, for `fallback`, the name looked up in the module as if it were global."""

    function: str
    index: int
    name: str
    fallback: Sym
    default: Expr | None = None  # `verb="GET"`: what a call that passes nothing gives
    # an option of the function's `**kwargs` (`name` its key): none where a call passes none
    keyed: bool = False


@dataclass(frozen=True, slots=True)
class Invocation:
    """A call made as a statement, `register(app)` or `routes.init_app(app, prefix=P)`: how a
    router reaches a function that declares routes on its parameter."""

    callee: Expr
    args: tuple[Expr | None, ...]
    keywords: tuple[tuple[str, Expr], ...]
    line: int = 0
    receiver: Expr | None = None  # `api` in `api.add(...)`: a method's parameter 0
    scope: str = ""  # the site of the function the call is written in ("" at module level)
    # a decorator's call (`@guarded(router.get, "/x")`): the def it decorates, the handler of
    # a route the called helper registers with what it is handed
    decorates: str = ""
    # Python: the `if`s the call is written under (what a wrapper it calls registers runs only
    # where they hold), as a route's `only_if`
    only_if: Condition | None = None


@dataclass(frozen=True, slots=True)
class HookCall:
    """A call that names a hook by a string first and passes functions after it (JavaScript,
    `js_hooks`): `hooks.on('extra', listener)` keeps a listener, `hooks.emit('extra', addRoute)`
    calls each listener with `addRoute`; which is which the linker tells by what the functions
    do. `args`: what is passed after the name, by position (a function written there as a
    `Function` of its site, else as read; None: neither)."""

    name: str
    args: tuple[Expr | None, ...]
    line: int
    scope: str = ""  # the site of the function the call is written in ("" at module level)


@dataclass(frozen=True, slots=True)
class PathCall:
    """A route-shaped member call, `recv.get('/x', h)` or `recv.linGet('name', '/x', meta, h)`:
    a path string first or second, a handler after it (`js_facts._path_calls`). The linker
    flags it where `receiver` is an object of a package's class it cannot read
    (`UNRESOLVED_ROUTER`), never lists it as a route."""

    receiver: Expr
    method: str
    path: str
    line: int


@dataclass(frozen=True, slots=True)
class EnvLoad:
    """Environment files a JavaScript app loads into `process.env` (`dotenv.config({ path })`,
    `import 'dotenv/config'`, NestJS's `ConfigModule.forRoot({ envFilePath })`), in the order
    the loader reads them (`envfiles.loaded_value`): each (base, path), the path relative to
    the process's working folder (base "") or to the loading file's folder (base "file": a
    `path.join(__dirname, ...)`), a `*` where a part is computed (`.env.${NODE_ENV}`:
    `.env.*`), "" for an entry not read at all. `override`: a later file wins (dotenv's
    `override: true`); `expand`: `${VAR}` is expanded (`dotenv-expand`, `expandVariables`)."""

    line: int
    files: tuple[tuple[str, str], ...]
    override: bool = False
    expand: bool = False
    # entries that are a name imported from another module (`envFilePath: [envFile]`, from a
    # workspace package too): (index in `files`, the import), the path that module exports
    # read by the linker (`ModuleFacts.env_paths`); the entry itself stays a computed one
    imports: tuple[tuple[int, ImportRef], ...] = ()


@dataclass(frozen=True, slots=True)
class LoadDecl:
    """A plugin loader registered on `owner` (Fastify's `@fastify/autoload`): every script of
    `folder` (repo-relative) is a plugin registered on it under `prefix` plus the folder's own
    path below `folder` (with `dir_prefix`), as the loader's documented rules pick them; the
    linker lists the folder (`Linker._loaded`)."""

    owner: Expr
    folder: str
    prefix: Expr | None
    dir_prefix: bool
    line: int
    scope: str = ""  # the site of the function the register call is written in
    ignore: str | None = None  # a file name pattern the loader skips (`ignorePattern`)
    options: Expr | None = None  # the options each plugin is given (`options: config`)
    # the loader: `@fastify/autoload` (""), or koa-swagger-decorator's `mapDir` (each file's
    # default export served on `owner`; `dir_prefix` then means recursive), or a folder
    # loader of the project's (`js_dirload.EACH_MODULE`: `require-directory`, `readdirSync`)
    loader: str = ""
    # `js_dirload`: the filter on the entries' names per level walked (`js_dirload.Pred`),
    # the export of each module mounted on `owner` under `prefix`, or the arguments each
    # module's export is called with (`require(file)(app)`) when it is called instead
    levels: tuple[tuple[object, ...], ...] = ()
    export: str = ""
    call_args: tuple[Expr, ...] | None = None
    # a folder given as a parameter of the project's helper around the loader: the helper's
    # name, the parameter's index, and what a relative folder is read from ("cwd", or "file":
    # the helper's own file, as `require-directory` does); the linker reads its callers' values
    helper: tuple[str, int, str] | None = None
    # a mount path spelled from each entry's name (`/${f.split('.')[0]}`): its parts, each
    # `("lit", s)` or `("name", *ops)` (`js_dirload.spelled`), read per module by the linker
    name_prefix: tuple[tuple[str, ...], ...] | None = None
    # `js_dirload`: each module's export is a route table given to `owner.route(...)`
    table: bool = False


@dataclass(frozen=True, slots=True)
class Registered:
    """A value a register call on `owner` runs as a plugin on the child router `router` it
    makes (Fastify's `register(plugin, opts)`, hapi's `register({ plugin })`), as read where it
    is written (a parameter of the function `scope` as a `Param`): the linker lists the routes
    of a library's value a record names (`library_tables`: `plugin` of
    `@mojaloop/central-services-metrics`), through the calls that pass it in."""

    owner: Expr
    router: Expr
    plugin: Expr
    line: int
    scope: str = ""


@dataclass(frozen=True, slots=True)
class Bound:
    """`expr` as written in the file `file`: what a parameter stands for once a call of its
    function, in another file, is followed (the linker substitutes it for the `Param`)."""

    file: str
    expr: Expr


@dataclass(frozen=True, slots=True)
class Stored:
    """An item a class's instances keep in a list attribute (`for method, path, h in
    self.entries:`), or its element `index` (-1: the item itself): what the class's methods
    append there (`self.entries.append((method, path, h))`), each with its calls bound."""

    owner_class: str
    attr: str
    index: int
    field: str = ""  # JavaScript: the item's property of this name (`r.path`, `{ path }`)


@dataclass(frozen=True, slots=True)
class Store:
    """`self.attr.append(value)` in a method of `owner_class`, at `line`."""

    owner_class: str
    attr: str
    value: Expr
    line: int


@dataclass(frozen=True, slots=True)
class Apply:
    """`helper(*args)` where a path is expected (`scoped("/login")`): the helper's return
    value with its parameters bound to these arguments, when the helper is the project's."""

    callee: Expr
    args: tuple[Expr | None, ...]
    keywords: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True)
class Format:
    """`template.format(*args, **keywords)` (`percent`: `template % args`): a string when the
    template and every argument are."""

    template: Expr
    args: tuple[Expr, ...]
    keywords: tuple[tuple[str, Expr], ...] = ()
    percent: bool = False


@dataclass(frozen=True, slots=True)
class DependencyAlias:
    """`CurrentUser = Annotated[User, Depends(get_current_user)]`: the dependencies it hides."""

    dependencies: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class StarletteRoutes:
    """A list of Starlette `Route`/`Mount` entries (a `routes=[...]` argument or variable)."""

    items: tuple[RouteDecl | MountDecl | Expr, ...]
    # JavaScript: the line each item is written on, for a finding at an item not read
    lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ConfigKey:
    """`configService.get('app.apiPrefix')` (NestJS's `@nestjs/config`): the value that
    `registerAs('app', () => ({ apiPrefix: ... }))` gives that key, where the scan shows it;
    a key `@Class.getter.member` is what a configuration service of the project's gives there
    (`nest_config_service`). `newlines`: escaped newlines made real (`.replace(/\\n/g, '\n')`).
    `default`: the second argument of `get(key, default)`, what Nest gives where neither the
    configuration nor `process.env` holds the key."""

    key: str
    newlines: bool = False
    default: Expr | None = None
    token: str = ""  # the service fetched by a string (`app.get('ConfigService')`): its name


@dataclass(frozen=True, slots=True)
class FlaskConfigRead:
    """`app.config["K"]`, `app.config.get("K", default)` (`current_app.config` too): the value
    the app's configuration holds under `key` once the writes the scan shows have run
    (`FlaskConfigWrite`, `flask_config`), else `default` (`get`'s; None: no default, the key
    unset is a `KeyError`)."""

    key: str
    default: Expr | None = None


@dataclass(frozen=True, slots=True)
class FlaskApp:
    """The Flask app whose configuration a write fills, as the call making it is written in the
    same file (`app = Flask(__name__, instance_relative_config=True)`): what Flask finds its
    folders from. `named`: the import name, "" for the module itself (`__name__`); `top`: only
    its first part (`__name__.split(".")[0]`, the top-level package); `instance_relative`:
    `from_pyfile` reads below the instance folder, not the app's root (None: computed);
    `placed`: False where `root_path=` or `instance_path=` is given or the name is computed
    (the folders are not followed)."""

    named: str = ""
    top: bool = False
    instance_relative: bool | None = False
    placed: bool = True


@dataclass(frozen=True, slots=True)
class TryBlock:
    """A `try` statement some configuration write is written in: its line, what each statement
    of its body is (the line of a configuration write; 0 for any other statement, which may
    raise), and the exception names each `except` names (() for a bare `except:`; a name as
    written, its last part for a dotted one)."""

    line: int
    steps: tuple[int, ...]
    handlers: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Tried:
    """Where in `block` a write is: `part` "body" (below its `index`-th statement), "handler"
    (the `index`-th `except`), "else" or "finally"."""

    block: TryBlock
    part: str
    index: int = 0


@dataclass(frozen=True, slots=True)
class FlaskConfigWrite:
    """One write to a Flask app's configuration, at `line` in the def `scope` ("" at module
    level): `kind` "object" (`from_object(value)`: the upper-case attributes of a class or
    module, or of what a dotted string names), "set" (`config["K"] = v`, `update(K=v)`,
    `from_mapping({"K": v})`: `key` gets `value`), "setdefault" (`key` gets `value` where it
    is unset), "pyfile" (`from_pyfile(value)`: the upper-case names of a Python file, relative
    to the folder `app` gives), "envvar" (`from_envvar(key)`: the file a variable names),
    "file" (`from_file`), or "runtime" (`from_prefixed_env`, a key or mapping computed: what
    it sets is known only where the app runs); `source` names it. `silent`: the loader's
    `silent=` (None: computed). Where it runs: under the `if`s `only_if` holds, at `tried` in
    each `try` around it (outermost first); `conditional`: inside a loop or a `with`, so it
    may not run."""

    line: int
    kind: str
    key: str
    value: Expr | None
    source: str
    scope: str = ""
    conditional: bool = False
    only_if: Condition | None = None
    tried: tuple[Tried, ...] = ()
    silent: bool | None = False
    app: FlaskApp | None = None


@dataclass(frozen=True, slots=True)
class Fallback:
    """`process.env.X || '/api'` (also `??`, `env.X ? env.X : '/api'`, a JSON schema's or a
    convict schema's `default`): `value` where the scanned files show it, else `default`,
    taken as the value the configuration gives when nothing overrides it (`source` names what
    may: the routes it names say so in `attrs.configDefault`)."""

    value: Expr
    default: Expr
    source: str


# A bound method's object and name, as Python spells them (`router.get.__self__` is `router`,
# `.__name__` is "get"): a `Member` of a parameter a helper is handed a router's method in
BOUND_SELF = "__self__"
BOUND_NAME = "__name__"


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a value known only once linked: `options.prefix` where `options` is a
    parameter (what each call passes), or of a plugin loader's options."""

    base: Expr
    path: tuple[str, ...]
    # `cls.DOCS_URL`, `self.PREFIX` in a method: an attribute of the class, written with the
    # class, so a route whose path it is stays where the method registers it
    of_class: bool = False


@dataclass(frozen=True, slots=True)
class Keyed:
    """`config.get('a.b')`, `store.get('/a/b')`: the member the key names (split at `.` or
    `/`), or what the object's own `get` function returns for it (a module exporting `get(key)`
    that reads a store)."""

    base: Expr
    key: Expr


@dataclass(frozen=True, slots=True)
class Trimmed:
    """`value` without one trailing `suffix` (`@fastify/autoload` drops a prefix's last `/`
    before it adds the folder's)."""

    value: Expr
    suffix: str


@dataclass(frozen=True, slots=True)
class Schema:
    """A configuration built from a schema at runtime: `envSchema({ schema })`, `@fastify/env`'s
    decorated `fastify.config` (`kind` "json": each member is the `default` of that property
    of `properties`), `convict({ a: { b: { default, env } } })` (`kind` "convict": members
    nest, a leaf is an object with a `default`)."""

    schema: Expr
    kind: str


@dataclass(frozen=True, slots=True)
class ComposeDecl:
    """`Glue.compose(manifest, { relativeTo })` (hapi's composer): the application made at
    `router_id` from `manifest`, whose `register.plugins` entries (a module path relative to
    `relative_to`, a plugin object, or `{ plugin, routes: { prefix }, options }`) are
    registered on it."""

    router_id: str
    manifest: Expr
    relative_to: str | None  # the repository folder plugin paths are relative to
    line: int
    scope: str = ""
    # `relativeTo: 'plugins'` (no `__dirname`): glue requires `plugins/<entry>`, a module
    # name resolved as a `require` of this file resolves one (`NODE_PATH`, `baseUrl`)
    relative_module: bool = False


@dataclass(frozen=True, slots=True)
class LoopKey:
    """A variable of a JavaScript loop over the keys of an object the file does not spell
    (`for (const k in TABLE)`, `Object.entries(TABLE)` with `TABLE` imported): per key of
    `source`, the key itself when `table` is None, else `table[key]` and then its `members`
    (`TABLE[k].path`, `PREFIXES[k].root`). The linker unrolls it, once per key of the object
    `source` stands for (`Linker._unkeyed`); a source it cannot list leaves it not known."""

    source: Expr
    table: Expr | None = None
    members: tuple[str, ...] = ()
    case: str = ""  # "lower" or "upper": the value's `.toLowerCase()`/`.toUpperCase()`
    # `key.split(' ')` (`split`: the separator) and its part `part` (`[method, path] = …`,
    # `parts[1]`): a Sails-style `'get /x'` key read as its method and path; -1: the whole list
    split: str | None = None
    part: int = -1
    # read as a test (`if (routes[key].auth)`): a field the entry lacks is `undefined`, falsy
    tested: bool = False


@dataclass(frozen=True, slots=True)
class Mapped:
    """A list built by an array method from another (`items.map(item => ({ ...item }))`,
    `flatMap`, `filter`, `flat`): `source`'s items, each given as parameter 0 of the callback
    defined at `site`, which returns `value` (a `Param` of `site` where it uses the item). The
    linker builds the list when it knows `source`'s items and can read `value` for each.
    Python's `[f(u) for u in urls]`, `(... for ...)` and `map(f, urls)` are a "map" whose
    `site` is the comprehension's or the `map` call's."""

    source: Expr
    # "map", "flatMap", "filter" (keep the items whose `value` is truthy), "flat"; "concat"
    # (`a.concat(b, x)`) and "join" (`[...a, x]`, each part a one-item list) of `source`'s parts
    method: str
    site: str = ""
    value: Expr | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """`tested ? then : otherwise` (a ternary of a callback or a helper's return value): which
    branch the linker takes when it can tell `test` of `tested`: "truthy", or a type the
    value has ("string", "object", "array", "function": `typeof x === 'string'`,
    `Array.isArray(x)`); `negated` for `!x`, `!==`.

    Python: a function whose value depends on a test (`if T: return A` / `return B`,
    `A if T else B`, `T and A or B`) and a test read as a value (`s.lower() in ("true", "1")`,
    then `Lit("True")` and otherwise `Lit("")`, a flag's truth as the readers spell a bool).
    There `test` may also be "in": the string `tested` is, after the str methods `fold`
    (`lower`, `strip`...), one of `against`; "startswith" or "endswith": it starts (ends) with
    one of them; or "nonzero": `int(tested)` is not 0 (`bool(int(x))`)."""

    tested: Expr
    test: str
    then: Expr
    otherwise: Expr
    negated: bool = False
    against: tuple[Expr, ...] = ()
    fold: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PluginOf:
    """The plugin a `register` call is given where it is what a call of `factory` makes (`make`
    of `register(make(db))` or of `const p = make(db); register(p)`): the function `factory`
    returns (`Function.plugin`) when it is a function of the project's that returns one;
    nothing otherwise (the value itself is registered as any plugin is, beside this)."""

    factory: Expr


@dataclass(frozen=True, slots=True)
class Listing:
    """A folder listing held as a value (`globSync('src/models/*.js')`, glob's, fast-glob's
    and globby's `sync`), and what a `.map(f => path.basename(f, '.js'))` makes of each path
    (`spelling`: `js_dirload.spelled_for`'s operations; empty, the path as listed). The linker
    lists the walked script files the pattern matches from the working directory (the folder
    of the nearest `package.json` above `origin`, where `npm start` runs) as the list's items,
    so a loop over the list is unrolled per file (`for (const m of models) crud(router, m)`)."""

    pattern: str  # the pattern as written, `./` dropped: relative to the working directory
    regex: str  # what `/` + a path below the working directory matches (`_pattern_text`)
    spelling: tuple[tuple[str, ...], ...]
    origin: str  # the file the listing is written in


@dataclass(frozen=True, slots=True)
class Pattern:
    """A regular expression given as a path (`app.get(/^\\/x/i, h)`, `new RegExp('^/x')`):
    its `source` as JavaScript's `RegExp.prototype.source` spells it, and its `flags`. Visible,
    but a path only where the framework routes one (`Framework.regex_paths`)."""

    source: str
    flags: str


@dataclass(frozen=True, slots=True)
class Number:
    """A number a module binds (`VERSION = 1.0`), or a number or None a configuration default
    gives (`os.environ.get("TOKEN", None)`): in a string only where Python formats it
    (`f"/v{VERSION}"`, `f"/v{int(VERSION)}"`, `str(VERSION)`), never a path alone; a test
    reads it as Python does (`None != ""`) only where it is a configuration default."""

    value: int | float | None


@dataclass(frozen=True, slots=True)
class Unmerged:
    """JavaScript: what `Object.assign(table, what)` merges into an object where reading cannot
    list it (in a loop over things loaded at run time: `plugins.forEach((p) =>
    Object.assign(routes, p.controllers))`), written at `line`: keys the object has that are
    not known, a finding where a loop over its keys registers routes."""

    what: str
    line: int


@dataclass(frozen=True, slots=True)
class Opaque:
    """A value the source computes in a way reading cannot follow (`os.environ["PREFIX"]`):
    present, but never visible."""


Expr = (
    Opaque
    | Unmerged
    | Number
    | FlaskConfigRead
    | Pattern
    | ConfigKey
    | Lit
    | Sym
    | Concat
    | ImportRef
    | RouterRef
    | Namespace
    | Function
    | DependencyAlias
    | StarletteRoutes
    | Param
    | Evidence
    | NoGuard
    | Call
    | OneOf
    | Each
    | Items
    | Bound
    | Apply
    | Format
    | Stored
    | Fallback
    | Schema
    | Member
    | Trimmed
    | LoopKey
    | Keyed
    | Mapped
    | Choice
    | PluginOf
    | Listing
)


@dataclass(frozen=True, slots=True)
class Auth:
    """What stands between a caller and a handler, as written: dependencies, decorators and
    middleware (`guards`, each judged once linked: a guard, no guard, or not known), and
    parameter annotations that are dependencies only if they link to a dependency alias
    (`aliases`)."""

    guards: tuple[Expr, ...] = ()
    aliases: tuple[Expr, ...] = ()


NO_AUTH = Auth()


@dataclass(frozen=True, slots=True)
class RouterDecl:
    """A router created at `line`: its own prefix and the dependencies it puts on every route.
    `routes` is a Starlette `routes=` argument; `Mount(..., routes=[...])` makes an inline one."""

    router_id: str
    framework: str
    line: int
    prefix: Expr | None = None
    auth: Auth = NO_AUTH
    routes: Expr | None = None
    app: bool = False  # an application (FastAPI(), Flask(), express()): served at the root
    # `UserAPIRouter()`: a router only if this class links to a subclass of one
    subclass: Sym | None = None
    # for such a call, what it passes (keyword, or position as digits), for a class that
    # stores a router it is given on `self` (`Namespace.instance_routers`)
    passed: tuple[tuple[str, Expr], ...] = ()
    # for such a call, the prefix it gives should its class link to a framework class (by
    # name) whose prefix is no `prefix=` keyword: flask-restx's `Namespace('users')`, `/users`
    class_prefixes: tuple[tuple[str, Expr], ...] = ()
    # for such a call, its arguments as a call of the class's `__init__` (a `None` for
    # `self`): a prefix the constructor makes of its parameters (`kwargs.setdefault(
    # "url_prefix", "/" + name)`) is what this call passes
    arguments: Invocation | None = None
    # `api.namespace('users')` (`Framework.router_methods`): a router only if the value the
    # method is called on links to a router (the linker decides, across modules, whatever the
    # calling file imports); where that value is not known, a router no scanned file mounts
    made_on: Expr | None = None
    # the site of the function whose body makes it ("" at module level): a router a project
    # function makes is a fresh one per call of it (the linker's `_fresh`), as a constructor's
    scope: str = ""
    # flask-restx's and flask-restful's `Api`/`Namespace`: a rule is appended to the prefix as
    # written (`ns_urls`: `ns.path + url`; `_complete_url`: `"".join(parts)`), so `'user/<e>'`
    # on the namespace `token` is served at `/tokenuser/<e>`; Flask's own join adds the `/`
    concatenates: bool = False


@dataclass(frozen=True, slots=True)
class Condition:
    """An `if` a declaration is written under: `test` is true (a non-empty
    string), or equals `equals` when given; `negate` for its `else` branch, `if not x:` or
    `!=`. `text` is the test as written, for a finding."""

    test: Expr
    equals: Expr | None
    negate: bool
    text: str
    in_else: bool = False  # written in the `else` branch
    # JavaScript's `a && !b`, `a || b`: `parts` joined by `op` ("&&" or "||"), then `negate`;
    # `test` and `equals` unused
    op: str = ""
    parts: tuple[Condition, ...] = ()
    returned: bool = False  # written after `if (test) return` (JavaScript): run when it fails


@dataclass(frozen=True, slots=True)
class RouteDecl:
    """One route declaration on the router `owner`. `methods` None means the framework's
    default (GET, or the verbs a class-based `endpoint` defines); `methods_unknown` that the
    methods are given but computed out of sight. `path` is `Opaque` when the same holds
    for the path."""

    owner: Expr | None
    path: Expr
    methods: tuple[str, ...] | None
    line: int
    handler: str | None = None
    endpoint: Expr | None = None
    auth: Auth = NO_AUTH
    methods_unknown: bool = False
    # methods computed from values the linker may know (`methods=[method]`, `app[method](...)`)
    method_exprs: tuple[Expr, ...] = ()
    # Python: the router method that made it (`get`, `route`, `add_api_route`...), for a router
    # subclass's override of one it passes through (`py_overrides`)
    registered_with: str = ""
    # where the user wrote it, when that is a call of a wrapper: (file, line) of that call
    called_at: tuple[str, int] | None = None
    # the call of its function that this declaration was reached through (for findings)
    via: tuple[str, int] | None = None
    # why a segment the reader saw is not in its path: a gap
    unread_segment: str = ""
    # NestJS's `@Version('2')` (or its controller's `version`): each version it is served
    # under, `Lit("")` for VERSION_NEUTRAL; None: none declared (the default version's)
    versions: tuple[Expr, ...] | None = None
    # `server.route(table)`: `path` is the table, a list of route options the linker expands
    # (each entry a route where it is written), or one route whose path is not known
    table: bool = False
    # a table of `'VERB /path': handler` entries a library makes a router of (`option_routes.
    # TableRouter`, named here): each key a route at this call
    keyed_by: str = ""
    # a plugin library that adds routes of its own (`hapi-swagger`): they are not listed
    generated_by: str = ""
    # of such a library with a record (`option_routes`): its options as the register call
    # gives them (a boolean literal, else what the value reads as), whose routes the linker
    # lists; None when the options are computed out of sight
    documented: tuple[tuple[str, Expr | bool], ...] | None = None
    # a route such a library serves, listed: the library (`attrs.library`)
    library: str = ""
    # declared by route options (`server.route({ method, path })`): a route, whatever its path
    # looks like (`path: 'issues'` under a prefix that ends in `/`)
    from_options: bool = False
    # written under an `if` (or its `else`; Python: in a def too): served only where it holds
    only_if: Condition | None = None
    # `app.withTypeProvider().unknown().get(...)`: (the router the chain starts from, the link
    # not known to return it); when `owner` is no router but this one is, the route is an
    # `UNRESOLVED_ROUTE` here, never silence
    chain_root: tuple[Expr, str] | None = None
    # Flask's `view_func=X.as_view(...)`: `endpoint` is the class `X`, not a function view
    class_view: bool = False
    # an entry of a route table (`[{ method, path, options: { app } }]`): the object as a value,
    # whose fields an array method over the table reads (`table.filter(r => !r.options?.app)`)
    options: Expr | None = None


@dataclass(frozen=True, slots=True)
class MountDecl:
    """`parent` serves `child` under `prefix`. With `replaces_prefix` (Flask's
    `register_blueprint(url_prefix=)`) a given prefix replaces the child's own; otherwise the
    child's own prefix follows it (FastAPI `include_router`, Express `use`, Starlette `Mount`)."""

    parent: Expr | None
    child: Expr
    prefix: Expr | None
    line: int
    auth: Auth = NO_AUTH
    replaces_prefix: bool = False
    quiet: bool = False  # `ext.init_app(app)`: only a router if it links to one, no finding else
    via: tuple[str, int] | None = None  # the call of its function it was reached through
    # set by the linker on a mount it assumes (`include_router(m.router)` in a loop over a
    # list it cannot enumerate): why what is served under it is flagged
    assumed: str = ""
    # written under an `if` (Python: anywhere, a def's own included): served only where it holds
    only_if: Condition | None = None


@dataclass(frozen=True, slots=True)
class Middleware:
    """A guard on what `owner` serves after `line`: Flask's `before_request` (line 0, all of
    it). Express middleware arrives as `UseDecl`, since only linking tells it from a router."""

    owner: Expr
    line: int
    auth: Auth


@dataclass(frozen=True, slots=True)
class UseDecl:
    """Express `owner.use(*args)`: whether the first is a mount path and which are routers is
    known only once linked. Each arg comes with itself as a guard to judge (as middleware)."""

    owner: Expr
    args: tuple[tuple[Expr | None, Auth], ...]
    line: int
    # written under an `if` (as `RouteDecl.only_if`): what it mounts is served only where it
    # holds (a Fastify `register`, an Express `use` of a router)
    only_if: Condition | None = None


@dataclass(frozen=True, slots=True)
class PrefixDecl:
    """`owner.prefix('/x')` (koa-router) on a router this file does not make: its own prefix
    from then on, once the linker knows which router `owner` is."""

    owner: Expr
    prefix: Expr
    line: int


@dataclass(frozen=True, slots=True)
class GlobalPrefix:
    """`app.setGlobalPrefix('api', { exclude: [...] })` (NestJS): a prefix before every route
    of `framework` in the scan, but those whose path `exclude` names (strings; None: an
    exclude list not read)."""

    framework: str
    prefix: Expr
    line: int
    exclude: tuple[str, ...] | None = ()
    exclude_partly: bool = False  # `exclude` holds the strings read; more entries were not
    when: Condition | None = None  # set under an `if` the linker may decide (`_branch`)


@dataclass(frozen=True, slots=True)
class NextHandler:
    """An export a Next.js route file answers with (`next_projects`): `default` (a Pages Router
    file's) or a method's name (an App Router file's `export async function GET`), its value as
    the file binds it and the line it is exported at."""

    export: str
    value: Expr
    line: int


@dataclass(frozen=True, slots=True)
class PageExtensions:
    """`pageExtensions` of a Next.js config (`next_projects`): the endings that make a file
    below its project's `pages/` or `app/` a route file, the route named without it; None:
    named in a way not read (a config a plugin call wraps, a computed list)."""

    extensions: tuple[str, ...] | None
    line: int


@dataclass(frozen=True, slots=True)
class Versioning:
    """`app.enableVersioning({ type, defaultVersion, prefix })` (NestJS): under URI versioning
    a route's version is a path segment (`/v1`) after the global prefix. `kind` is the
    `VersioningType` member (`Lit("URI")`; `Lit("")`: none given, which is no URI versioning),
    `default` the default versions (`()`: none, None: computed), `prefix` the segment's prefix
    (`Lit("v")` unless given, `Lit("")` for `false`). Options the call does not spell out (a
    constant of another file, an object spreading one) are `options`, the value the linker
    reads them from; the other fields are then unused. `only_if`: the `if` the call is written
    under, when its test may read the configuration (versioning is on only where it holds)."""

    framework: str
    line: int
    kind: Expr
    default: tuple[Expr, ...] | None = ()
    prefix: Expr = Lit("v")
    options: Expr | None = None
    only_if: Condition | None = None


@dataclass(frozen=True, slots=True)
class BootstrapDecl:
    """A call that serves a controller library's classes (`frameworks.Bootstrap`), as read:
    the prefix before each (None: none given), the controllers it lists by class name, by file
    glob (`./`-led: from its file's folder, else from the app's folder), or by a folder
    searched for files `mask` matches; `every`: each controller of the library (no list);
    `unread`: what of its options is not read (every controller may be served, its prefix
    not known: a finding at the bootstrap). Options not spelled at the call (a parameter of
    the function it is written in, a helper's result, a constant of another file) are
    `options`, the value the linker follows per call of the function at `scope` ("" at the
    top level); `callee` names the record's `Bootstrap` that reads them."""

    framework: str
    line: int
    prefix: Expr | None = None
    classes: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    directory: str | None = None
    mask: str = ""
    every: bool = False
    unread: str = ""
    options: Expr | None = None
    scope: str = ""
    callee: str = ""


@dataclass(frozen=True, slots=True)
class NestFacts:
    """NestJS's module wiring in one file: its controller classes (router id, class name),
    its `@Module({ controllers })` classes, the module paths `RouterModule.register` gives
    (module class name, its path's parts from the outermost, line), `enableVersioning`, and
    the configuration namespaces `registerAs` declares."""

    controllers: tuple[tuple[str, str], ...] = ()
    modules: tuple[tuple[str, tuple[str, ...], int], ...] = ()  # (class, its controllers, line)
    module_paths: tuple[tuple[str, tuple[Expr, ...], int], ...] = ()
    versioning: tuple[Versioning, ...] = ()
    # `registerAs('app', () => ({ apiPrefix: 'api' }))`: ("app.apiPrefix", its value)
    config: tuple[tuple[str, Expr], ...] = ()
    # classes that declare routes but are no controller: (router id, class name)
    bases: tuple[tuple[str, str], ...] = ()
    # `class A extends B`: (A, B by its exported name, B's module or "" for this file, line)
    extends: tuple[tuple[str, str, str, int], ...] = ()
    # `function ListAt(path) { return applyDecorators(Get(path), ...) }`: (its name, each
    # route decorator it applies: (`Get`, its path: an `Expr`, the index of the parameter
    # passed on, or None for none)); a `Version(v)` it applies is there as (`Version`, v)
    composed: tuple[tuple[str, tuple[tuple[str, Expr | int | None], ...]], ...] = ()
    # a controller method's decorator that is no Nest export: (router id, its name, its
    # arguments, line, handler, the versions the method is served under)
    decorated: tuple[tuple[str, str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None], ...] = ()
    # the controller methods (`Class.method`) with a `@Version` of their own, which a version
    # a composed decorator applies does not override
    versioned: tuple[str, ...] = ()
    bootstraps: tuple[BootstrapDecl, ...] = ()  # controller libraries' (`BootstrapDecl`)
    # `@Module({ controllers })` whose list is no list the file spells: (module class, line)
    unread_modules: tuple[tuple[str, int], ...] = ()
    # modules an `imports:` list names under a condition or in a `@Module` (`nest_imports`):
    # (module class, the condition or None, line, the importing `@Module` class or "": a read
    # of it no `@Module` list makes)
    module_imports: tuple[tuple[str, Condition | None, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ModuleFacts:
    """Everything one file says. `bindings` are its top-level names (Python also folds in names
    bound inside functions, so app factories link); `exports` are a JavaScript module's."""

    language: str  # "python" | "javascript"
    bindings: dict[str, Expr] = field(default_factory=dict)
    exports: dict[str, Expr] = field(default_factory=dict)
    # JavaScript: `export * from`; Python: its module-level `from X import *`, in order
    star_exports: tuple[ImportRef, ...] = ()
    # Python: a literal `__all__` (what `import *` takes from it; None: it has none), and the
    # names its module-level statements bind (`bindings` also holds functions' own names)
    all_names: tuple[str, ...] | None = None
    module_names: frozenset[str] = frozenset()
    routers: tuple[RouterDecl, ...] = ()
    routes: tuple[RouteDecl, ...] = ()
    mounts: tuple[MountDecl, ...] = ()
    uses: tuple[UseDecl, ...] = ()
    middleware: tuple[Middleware, ...] = ()
    invocations: tuple[Invocation, ...] = ()
    # Python: a name bound to a call's result (`X = make(kind="x")`) -> the line of that call,
    # one of `invocations`: a router a project function makes is then the one that call makes
    bound_calls: dict[str, int] = field(default_factory=dict)
    unread: tuple[tuple[str, int], ...] = ()  # (framework, line): used here, not read
    stores: tuple[Store, ...] = ()  # what methods append to their instance's lists
    prefixes: tuple[PrefixDecl, ...] = ()  # `router.prefix('/x')` on a router made elsewhere
    django: DjangoFacts | None = None  # URLconf, DRF routers, views, settings (`django_facts`)
    global_prefixes: tuple[GlobalPrefix, ...] = ()  # NestJS's `app.setGlobalPrefix('api')`
    # a file that may be a Next.js route file (`nextjs.candidate`): the exports it may answer
    # with, placed where its project's settings are known (`next_projects`); None: no such file
    next_handlers: tuple[NextHandler, ...] | None = None
    page_extensions: PageExtensions | None = None  # a Next.js config's `pageExtensions`
    nest: NestFacts | None = None  # NestJS's modules, RouterModule paths, versioning (`nest`)
    loads: tuple[LoadDecl, ...] = ()  # plugin loaders over a folder (`@fastify/autoload`)
    composes: tuple[ComposeDecl, ...] = ()  # hapi apps composed from a manifest (`@hapi/glue`)
    path_calls: tuple[PathCall, ...] = ()  # route-shaped calls on any receiver (JavaScript)
    # JavaScript: what the file stores on Node's object of globals (`global.base = v`,
    # `globalThis.app = express()`), which any file reads as `global.base` or a free `base`
    globals: tuple[tuple[str, Expr], ...] = ()
    # Python: its source spells a framework's router base (`seeds.ROUTER_BASE_WORDS`), which
    # every chain of classes that makes a router passes through (`linker._subclassed`)
    router_bases: bool = False
    # a distribution's setuptools entry points, (group, lines), and its name (`setup.py`,
    # `pyproject.toml`, `setup.cfg`); Python: the entry-point groups it loads, (group, line)
    # (`entry_points`)
    entry_points: tuple[tuple[str, tuple[str, ...]], ...] = ()
    distribution: str = ""
    plugin_loads: tuple[tuple[str, int], ...] = ()
    # JavaScript: the calls naming a hook (`js_hooks`), and the calls a function makes of its
    # own parameter with a literal argument (`add({ path: 'x' })`: `callee` is the `Param`)
    hook_calls: tuple[HookCall, ...] = ()
    param_calls: tuple[Invocation, ...] = ()
    # JavaScript: the environment files it loads into `process.env` (`EnvLoad`)
    env_loads: tuple[EnvLoad, ...] = ()
    # JavaScript: the values its register calls run as plugins (`Registered`)
    registered: tuple[Registered, ...] = ()
    # JavaScript: the environment-file paths it exports (`export const envFile =
    # path.join(__dirname, '..', '.env')`), each name with its possible paths (`EnvLoad` entries:
    # base "file" relative to this file's folder), for a loader importing one (`dotenv_loads`)
    env_paths: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # JavaScript: the script globs it loads each match of by a computed specifier (a file-system
    # router's `'**/route.js'`, `js_dirload.loaded_globs`): the files named where a route it
    # computes is a finding
    loaded_globs: tuple[str, ...] = ()
    # JavaScript: `name.push(...)` onto a module-level list a loop unrolls from its initializer
    # (`js_loops`): (name, line, what makes the pushed items), each a finding where the loop is
    list_pushes: tuple[tuple[str, int, str], ...] = ()
    # JavaScript: object keys spelled `'<verb> /path'` and their lines (`js_method_keys`): where
    # a route a loop registers per key is written
    route_keys: tuple[tuple[str, int], ...] = ()
    # Python: the packages it loads modules from by a computed name (`importlib.import_module(
    # f"plugins.{n}.main")`: `plugins`), any module below which it may import (`py_sub_apps`)
    dynamic_imports: tuple[str, ...] = ()
    # Python: a top-level `if __name__ == "__main__":`, a script run as a program (an entry point)
    runs_as_main: bool = False
    admin: AdminFacts | None = None  # Python: Flask-Admin's views and admins (`flask_admin`)
    # Python: writes to a Flask app's `config` (`from_object`, `update`, `config["K"] = v`), in
    # the file's statement order (`FlaskConfigWrite`)
    flask_config: tuple[FlaskConfigWrite, ...] = ()
    # Python: `View.register(app, ...)` calls, Flask-Classful's views if the class is one
    view_registers: tuple[ViewRegister, ...] = ()
    # Python: its decorator factories that store a record on the function (`py_marks`)
    mark_factories: tuple[MarkFactory, ...] = ()


def _pickled_by_fields(*classes: type) -> None:
    """Pickle each of these as `cls(*its fields)`. A frozen slotted dataclass otherwise pickles
    through a Python-level `__getstate__`/`__setstate__` per object, and the facts of a cold
    discover cross from `fan_out`'s workers as hundreds of thousands of objects: this halves
    the cost of pickling and of unpickling them."""
    for cls in classes:
        setattr(cls, "__reduce__", _reduce_by_fields(cls))  # noqa: B010 (mypy rejects assigning a method)


def _reduce_by_fields(cls: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    names = [f.name for f in fields(cls)]
    if not names:
        return lambda self: (cls, ())
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda self: (cls, (get(self),))
    return lambda self: (cls, get(self))


_pickled_by_fields(
    Lit,
    Number,
    Pattern,
    Listing,
    BootstrapDecl,
    Sym,
    Concat,
    ImportRef,
    RouterRef,
    Namespace,
    Function,
    Param,
    Invocation,
    HookCall,
    PathCall,
    LoadDecl,
    EnvLoad,
    Registered,
    DependencyAlias,
    StarletteRoutes,
    Opaque,
    Evidence,
    NoGuard,
    Call,
    OneOf,
    Each,
    Items,
    Bound,
    Apply,
    Format,
    Stored,
    Store,
    PrefixDecl,
    GlobalPrefix,
    NextHandler,
    PageExtensions,
    ConfigKey,
    FlaskConfigRead,
    FlaskConfigWrite,
    FlaskApp,
    TryBlock,
    Tried,
    Fallback,
    Schema,
    Member,
    Trimmed,
    Keyed,
    LoopKey,
    Unmerged,
    Condition,
    Mapped,
    Choice,
    PluginOf,
    ComposeDecl,
    Versioning,
    NestFacts,
    Auth,
    RouterDecl,
    RouteDecl,
    MountDecl,
    Middleware,
    UseDecl,
    ModuleFacts,
    DjangoFacts,
    UrlEntry,
    Registration,
    Action,
    DjangoClass,
    DjangoFunction,
)
