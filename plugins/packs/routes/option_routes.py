"""Routes a plugin library serves of its own, fixed by its documented options (issue 34:
items a known library generates at run time): the swagger UIs a Fastify or hapi app
registers; and libraries that make a router from a table the project writes (`TableRouter`:
express-routes-mapper's `mapRoutes({ 'GET /users': 'UserController.list' }, folder)`). Each library is a record (`OptionRoutes`): the options it reads, the versions
from which the routes it serves change (`starts`, its eras), and per era the routes its
options give. Read from each library's own source, release by release.

The linker lists a route where every era the repository may install serves it (the
`package.json` nearest the registering file declares the range: `declared_versions`'s
reading); a route only some of those eras serve, or one hanging on an option the scan does
not show, is a finding at the register call naming the library, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..version_ranges import Interval, Range, Version, normal
from .model import EVERY

Options = Mapping[str, str | bool | None]
"""An option as written: a string, a boolean literal, None when present but computed."""
Served = tuple[tuple[tuple[str, str], ...], str]
"""An era's routes, (method, path) relative to the registering router, and why routes it
may serve beside them are not known ("" when none is)."""


@dataclass(frozen=True, slots=True)
class OptionRoutes:
    """A library that serves routes fixed by its options. `options` are the names read
    (the reader keeps those only: strings, boolean literals, else computed); `starts` the
    first version of each era (`()` the first); `routes(options, era)` what an era serves.
    `read`: the first release read and the first not read, where the record says (its first
    era starts at the first); None: every release, the last era open-ended. `declared`:
    packages whose declaration in the nearest `package.json` the routes hang on, each given
    to `routes` as the option `declares <package>` (True or False): NestJS's platform
    adapter, which decides how `@nestjs/swagger` serves its UI's files."""

    library: str
    options: tuple[str, ...]
    starts: tuple[Version, ...]
    routes: Callable[[Options, int], Served]
    read: tuple[Version, Version] | None = None
    declared: tuple[str, ...] = ()


def _text(options: Options, *names: str, default: str) -> str | None:
    """The first of `names` given (a string), else `default`; None when it is computed."""
    for name in names:
        if name in options:
            value = options[name]
            return value if isinstance(value, str) else None
    return default


def _flag(options: Options, name: str, *, default: bool) -> bool | None:
    """A boolean option as the library's schema reads it; None when it is computed."""
    if name not in options:
        return default
    value = options[name]
    return value if isinstance(value, bool) else None


def _join(base: str, tail: str) -> str:
    return base.rstrip("/") + tail if tail.startswith("/") else base + tail


# @fastify/swagger-ui: `register(lib/routes, { prefix: opts.routePrefix || '/documentation' })`;
# before 1.4 its UI is `/uiConfig` and `/initOAuth`, 1.4 adds the initializer script, 1.5 the
# index page; `/*` (files of `baseDir`) always before 2.0, from 2.0 only with `baseDir`; a
# `theme` adds a route per theme file (not listed: named after the files)
_SWAGGER_UI_FILES: tuple[tuple[str, ...], ...] = (
    ("/uiConfig", "/initOAuth"),
    ("/static/swagger-initializer.js",),
    ("/static/index.html", "/static/swagger-initializer.js"),
    ("/static/index.html", "/static/swagger-initializer.js"),
)


def _fastify_swagger_ui(options: Options, era: int) -> Served:
    prefix = _text(options, "routePrefix", default="/documentation")
    if prefix is None:
        return (), "its `routePrefix` is computed out of sight"
    tails = ["/", *_SWAGGER_UI_FILES[era], "/json", "/yaml", "/static/*"]
    if era < 3 or "baseDir" in options:
        tails.append("/*")
    theme = (
        "its `theme` adds a route per theme file, named after the file"
        if "theme" in options
        else ""
    )
    return tuple(("GET", _join(prefix, t) if t != "/" else prefix) for t in tails), theme


# hapi-swagger: its JSON at `jsonRoutePath` (13+, else `jsonPath`; from 17.0, with `OAS:
# 'v3.0'` and neither given, `/openapi.json`: lib/index.js's register), the page at
# `documentationPath` unless `documentationPage: false`, the UI's files under `routesBasePath`
# (13+, else `swaggerUIPath`) unless both the page and `swaggerUI` are off: before 10 one
# `{path*}` route, from 10 each file of swagger-ui-dist it serves; `debug: true` a debug page
_HAPI_SWAGGER_FILES = (
    "favicon-16x16.png", "favicon-32x32.png", "index.html", "oauth2-redirect.html",
    "swagger-ui-bundle.js", "swagger-ui-bundle.js.map", "swagger-ui-standalone-preset.js",
    "swagger-ui-standalone-preset.js.map", "swagger-ui.css", "swagger-ui.css.map",
    "swagger-ui.js", "swagger-ui.js.map",
)  # fmt: skip


def _hapi_swagger(options: Options, era: int) -> Served:
    oas = _text(options, "OAS", default="v2") if era >= 2 else "v2"
    document = "/openapi.json" if oas == "v3.0" else "/swagger.json"
    json = _text(options, "jsonRoutePath", "jsonPath", default=document)
    if oas is None and "jsonRoutePath" not in options and "jsonPath" not in options:
        json = None  # `OAS` computed: `/swagger.json` or `/openapi.json`
    page = _text(options, "documentationPath", default="/documentation")
    ui = _text(options, "routesBasePath", "swaggerUIPath", default="/swaggerui/")
    shown = _flag(options, "documentationPage", default=True)
    swagger_ui = _flag(options, "swaggerUI", default=True)
    debug = _flag(options, "debug", default=False)
    if None in (json, page, ui, shown, swagger_ui, debug):
        return (), "a path or a switch among its options is computed out of sight"
    assert json is not None and page is not None and ui is not None  # for mypy
    served = [("GET", json)]
    if shown:
        served.append(("GET", page))
    if shown or swagger_ui:
        files = ("{path*}",) if era == 0 else _HAPI_SWAGGER_FILES
        served += [("GET", ui + f) for f in (*files, "extend.js")]
        if debug:
            served.append(("GET", _join(page, "/debug")))
    return tuple(served), ""


# @fastify/oauth2 (fastify-oauth2 before its rename): `fastify.get(startRedirectPath, ...)`
# when that option is given (the redirect to the provider); its `callbackUri` is the app's own
def _fastify_oauth2(options: Options, era: int) -> Served:
    if "startRedirectPath" not in options:
        return (), ""
    start = options["startRedirectPath"]
    if not isinstance(start, str):
        return (), "its `startRedirectPath` is computed out of sight"
    return (("GET", start),), ""


# mercurius (its `lib/routes.js`, registered by its `index.js` under its own `prefix` option,
# the plugin itself being a `fastify-plugin` one): GET and POST at `path` ('/graphql') unless
# `routes: false`; an IDE where `graphiql` (or `ide`) is `true` or 'graphiql': the page and its
# three scripts, not under `path`; 'playground' before 8.0 that UI's page and script (8.0 drops
# it; any other name, none); `onlyPersisted: true` turns the IDE off; an IDE given as an
# object (11+: `{ enabled, plugins }`) or computed is not known
_GRAPHIQL = ("/graphiql", "/graphiql/main.js", "/graphiql/sw.js", "/graphiql/config.js")
_PLAYGROUND = ("/playground", "/playground/init.js")


def _mercurius(options: Options, era: int) -> Served:
    prefix = _text(options, "prefix", default="")
    path = _text(options, "path", default="/graphql")
    routes = _flag(options, "routes", default=True)
    persisted = _flag(options, "onlyPersisted", default=False)
    if prefix is None or path is None or routes is None:
        return (), "its `prefix`, `path` or `routes` is computed out of sight"
    if not routes:
        return (), ""
    served = [("GET", _join(prefix, path)), ("POST", _join(prefix, path))]
    ide: str | bool | None = False
    for name in ("graphiql", "ide"):  # `opts.graphiql || opts.ide`
        if name in options:
            ide = options[name]
            if ide is not False and ide != "":
                break
    if ide is None or persisted is None:
        return tuple(served), "its IDE switch (`graphiql`, `ide`) is computed out of sight"
    if persisted:
        return tuple(served), ""
    if ide is True or ide == "graphiql":
        served += [("GET", _join(prefix, t)) for t in _GRAPHIQL]
    elif ide == "playground" and era == 0:
        served += [("GET", _join(prefix, t)) for t in _PLAYGROUND]
    return tuple(served), ""  # any other name: an IDE it serves no page for


# tRPC's Fastify plugin (`@trpc/server/adapters/fastify`'s `fastifyTRPCPlugin`, read in
# 9.27.0, 10.0.0, 11.0.0 and the newest): `fastify.all(prefix + '/:path', ...)`, a procedure per
# `path`; the plugin is no `fastify-plugin` one, so Fastify applies the register's `prefix`
# itself; `useWSS: true` adds a websocket GET at the prefix
def _trpc_fastify(options: Options, era: int) -> Served:
    prefix = _text(options, "prefix", default="")
    wss = _flag(options, "useWSS", default=False)
    if prefix is None or wss is None:
        return (), "its `prefix` or `useWSS` is computed out of sight"
    served = [(EVERY, _join(prefix, "/:path"))]
    if wss:
        served.append(("GET", prefix or "/"))
    return tuple(served), ""


# fastify-metrics (a `fastify-plugin` one: its route is the registering router's), read in
# 2.1.3, 4.0.9 … 8.0.0, 9.0.0, 10.0.0 … 14.1.0: before 9 `GET endpoint` only when `endpoint`
# is given; from 9 `endpoint` defaults to '/metrics' (`null` turns the route off); from 10 it
# may be a route's options object (its `url`)
def _fastify_metrics(options: Options, era: int) -> Served:
    if era == 0 and "endpoint" not in options:
        return (), ""
    endpoint = _text(options, "endpoint", default="/metrics")
    if endpoint is None:
        return (
            (),
            "its `endpoint` is not a path the scan reads (computed, `null`, or a route's options)",
        )
    return (("GET", endpoint),), ""


RECORDS = (
    OptionRoutes(
        "fastify-metrics", ("endpoint",), ((), (9,), (10,)), _fastify_metrics, read=((2,), (15,))
    ),
    OptionRoutes(
        "mercurius",
        ("prefix", "path", "routes", "graphiql", "ide", "onlyPersisted"),
        ((), (8,)),
        _mercurius,
    ),
    OptionRoutes(
        "@fastify/swagger-ui",
        ("routePrefix", "theme", "baseDir"),
        ((), (1, 4), (1, 5), (2,)),
        _fastify_swagger_ui,
    ),
    OptionRoutes("@trpc/server/adapters/fastify", ("prefix", "useWSS"), ((),), _trpc_fastify),
    OptionRoutes("@fastify/oauth2", ("startRedirectPath",), ((),), _fastify_oauth2),
    OptionRoutes("fastify-oauth2", ("startRedirectPath",), ((),), _fastify_oauth2),
    OptionRoutes(
        "hapi-swagger",
        (
            "jsonRoutePath",
            "jsonPath",
            "documentationPath",
            "routesBasePath",
            "swaggerUIPath",
            "documentationPage",
            "swaggerUI",
            "debug",
            "OAS",
        ),
        ((), (10,), (17,)),
        _hapi_swagger,
    ),
)
BY_LIBRARY = {r.library: r for r in RECORDS}


def eras(record: OptionRoutes, admits: Range | None) -> tuple[int, ...]:
    """The eras of `record`'s library a declared range admits (every era when none is)."""
    return admitted(record.starts, admits)


def unread(record: OptionRoutes, admits: Range | None) -> tuple[tuple[int, ...], str]:
    """The eras a declared range admits among the releases `record` was read from, and why
    the others are not known ("" when it admits none outside them): none admitted at all
    when every version it admits is outside. Every era, "", when no range is declared."""
    if record.read is None or admits is None:
        return eras(record, admits), ""
    first, after = record.read
    inside = Range((Interval(normal(first), True, normal(after), False),))
    outside = not admits.intersect(_outside(first, after)).is_empty()
    if admits.intersect(inside).is_empty():
        found: tuple[int, ...] = ()
    else:
        found = eras(record, admits.intersect(inside))
    if not outside:
        return found, ""
    return found, (
        f"the repository may install a version of `{record.library}` outside those its "
        f"routes were read from ({era_label((first, after), 0)}), whose routes are not known"
    )


def _outside(first: Version, after: Version) -> Range:
    """Every version below `first` or from `after` on."""
    return Range(
        (Interval(None, False, normal(first), False), Interval(normal(after), True, None, False))
    )


def admitted(starts: tuple[Version, ...], admits: Range | None) -> tuple[int, ...]:
    """The eras (`starts`: the first version of each, `()` the first) a declared range
    admits; every era when none is declared, or when the range admits none of them."""
    if admits is None:
        return tuple(range(len(starts)))
    found = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else None
        era = Range(
            (Interval(normal(start) if start else None, True, normal(end) if end else None, False),)
        )
        if not admits.intersect(era).is_empty():
            found.append(index)
    return tuple(found) or tuple(range(len(starts)))


def era_label(starts: tuple[Version, ...], index: int) -> str:
    """Era `index` of `starts` as versions ("before 4.4", "4.4 to before 5.0", "from 5.0")."""
    start = starts[index]
    end = starts[index + 1] if index + 1 < len(starts) else None
    low = ".".join(map(str, (*start, 0)[: max(2, len(start))])) if start else ""
    high = ".".join(map(str, (*end, 0)[: max(2, len(end))])) if end else ""
    if low and high:
        return f"{low} to before {high}"
    return f"before {high}" if high else f"from {low}"


def served(
    record: OptionRoutes, options: Options, admitted: tuple[int, ...]
) -> tuple[list[tuple[str, str]], str]:
    """The routes every admitted era serves, in the first era's order, and why others are
    left out ("" when none is): an option out of sight, or routes of some eras only. No era
    admitted: none."""
    if not admitted:
        return [], ""
    answers = [record.routes(options, era) for era in admitted]
    reasons = list(dict.fromkeys(note for _, note in answers if note))
    sets = [routes for routes, _ in answers]
    common = [r for r in sets[0] if all(r in s for s in sets[1:])]
    some = sorted({r for s in sets for r in s} - set(common))
    if some:
        told = ", ".join(f"`{m} {p}`" for m, p in some)
        versions = _eras_label(record, admitted)
        reasons.append(
            f"it serves {told} in some of the versions the repository may install ({versions})"
        )
    return common, "; ".join(reasons)


def _eras_label(record: OptionRoutes, admitted: tuple[int, ...]) -> str:
    """The admitted eras as versions: each ("before 4.4 and from 5.0"), or past four in a row
    their span ("3.0.0 to before 9.5.0": a table changing at many of the releases read)."""
    if len(admitted) > 4 and admitted == tuple(range(admitted[0], admitted[-1] + 1)):
        first = _era_label(record, admitted[0]).split(" to before ")[0]
        last = _era_label(record, admitted[-1])
        end = last.split(" to before ")[1] if " to before " in last else ""
        if first.startswith("before "):  # the first era open below
            return f"before {end}" if end else "every version"
        return f"{first} to before {end}" if end else f"from {first.removeprefix('from ')}"
    return " and ".join(_era_label(record, i) for i in admitted)


def _era_label(record: OptionRoutes, index: int) -> str:
    """Era `index` of `record`, its last one ending where the releases read end."""
    starts = record.starts if record.read is None else (*record.starts, record.read[1])
    return era_label(starts, index)


@dataclass(frozen=True, slots=True)
class TableRouter:
    """A library whose function, given a table `{ 'VERB /path': 'Controller.method' }`, returns
    an Express router serving each entry (`mapRoutes(table, folder)`). `verbs` the methods
    every version routes (lower case; before `every_verb_from` it ignores any other), and
    `shared_before` the version from which each call makes its own router (before it, one
    module-level router collects the tables of every call, each returned router serving
    them all)."""

    library: str
    verbs: frozenset[str]
    every_verb_from: Version
    shared_before: Version


# express-routes-mapper: 1.0.1 keeps one `express.Router()` for the module, 1.0.2 makes one
# per call; before 1.1 only get/post/put/delete entries are routed, from 1.1 any verb
EXPRESS_ROUTES_MAPPER = TableRouter(
    "express-routes-mapper", frozenset({"get", "post", "put", "delete"}), (1, 1), (1, 0, 2)
)
TABLE_ROUTERS = {r.library: r for r in (EXPRESS_ROUTES_MAPPER,)}


def admits_before(admits: Range | None, version: Version) -> bool:
    """Whether a declared range (None: none declared) admits a version below `version`."""
    return admits is None or admits.admits_below(version)


def table_entry(key: str) -> tuple[str, str] | None:
    """A table key as the library splits it (`'POST  /login'`: runs of blanks as one, then
    the verb before the first blank, the path after it), (verb lower-cased, path); None
    when it has no path."""
    parts = re.sub(r"\s\s+", " ", key).split(" ")
    if len(parts) < 2 or not parts[1]:
        return None
    return parts[0].lower(), parts[1]
