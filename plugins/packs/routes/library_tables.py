"""Routes a library serves from a fixed table of its own, under a base path the project
chooses (issue 34: items a known library generates at run time). Such a library's routes are
data: one record per value of it that serves them (`LibraryTable`), naming the package whose
declared version picks the table, the framework whose router serves it, how the project
reaches that value, how the base path is chosen, and each route template with the releases
that serve it. Adding a library is adding a record; each is read from the library's own
source, release by release, and says which releases were read (`read`): a version the
repository may install outside them is a finding, never a guess.

Two ways reach a record:

- an adapter object the project makes (`new ExpressAdapter()` of `@bull-board/express`) and
  whose router or plugin it takes (`adapter.getRouter()`, `adapter.registerPlugin()`): read
  in the file that makes it (`js_library_tables`), with the options the record reads there
  (bull-board's `setBasePath(...)`, `createBullBoard({ options })`);
- a value the package exports that the project mounts or registers (`plugin` of
  `@mojaloop/central-services-metrics`, or the adapter's router reached through another
  module): matched by the linker on the value the scan evaluates (`_External`), its options
  then out of sight.

Either way the routes become one `RouteDecl` of the record (`key`), which the linker expands
as it expands `option_routes`' records (`OPTION_ROUTES`): listed where the value is taken or
registered with `attrs.library`, what the versions or options leave open a finding there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..version_ranges import Version
from .model import EXPRESS, FASTIFY, HAPI, KOA
from .option_routes import OptionRoutes, Options, Served


@dataclass(frozen=True, slots=True)
class TableRoute:
    """A route of a library's table: its method, its template as the library writes it
    (`:name` parameters), the first release that serves it (`()`: every release read) and the
    first that no longer does (None: still served). `needs`: an option without which it is not
    served (present: served; absent: not; computed: not known); `maybe`: served only where the
    value given as that option can do something (bull-board's history provider's methods),
    which reading cannot tell: a finding where the option is given."""

    method: str
    path: str
    since: Version = ()
    until: Version | None = None
    needs: str = ""
    maybe: str = ""  # what decides it, for the finding

    def served_in(self, version: Version) -> bool:
        """Whether the release `version` (an era's first) serves it."""
        return self.since <= version and (self.until is None or version < self.until)


@dataclass(frozen=True, slots=True)
class LibraryTable:
    """A value of `library` that serves `routes` on a router of `framework`. `values`: how the
    value is reached below the package's export, as the linker spells a member of a package
    (`("plugin",)`; an adapter's `("FastifyAdapter", "()", "registerPlugin", "()")`); `made_by`
    and `taken_by`: the adapter class the project makes with `new` and the method giving the
    router or plugin (read in the file that makes it), "" for a value the package exports.
    `base`: "mount" (served under the prefix of whatever mounts or registers it), or "own" (the
    value mounts itself: under the `base_option` of the taking call's options, else what the
    adapter's `base_setter` was given, else `/`: koa-mount's). `read`: the first release read
    and the first not read. `options`: the options the record reads, each (name, dotted path
    in the first argument of a call of `configured_by` that passes the adapter under
    `adapter_key`): bull-board's `createBullBoard({ serverAdapter, options: {
    historyProvider } })`."""

    library: str
    framework: str
    values: tuple[tuple[str, ...], ...]
    routes: tuple[TableRoute, ...]
    read: tuple[Version, Version]
    made_by: str = ""
    taken_by: str = ""
    base: str = "mount"
    base_option: str = ""
    base_setter: str = ""
    configured_by: str = ""
    adapter_key: str = ""
    options: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """The record's name in `RouteDecl.generated_by` (a package may have several)."""
        return f"{self.library}#{'.'.join(self.values[0])}"


# -- bull-board ------------------------------------------------------------------------------
# The route table of `@bull-board/api` (`packages/api/src/routes.ts`: `appRoutes.entryPoint`
# and `appRoutes.api`, every adapter serving each entry of both), read at every tag from 3.0.0
# (the monorepo's first) to 9.4.0, the last before 9.5 moved routes into option-built lists;
# `createBullBoard` (`packages/api/src/index.ts`) adds the history routes from 8.2 when its
# `options.historyProvider` is given, those beyond `/api/metrics/history` only where the
# provider has the method (`getUsage`, `purge` on a board not read-only, `getLatency`).
_BULL_BOARD_READ: tuple[Version, Version] = ((3, 0, 0), (9, 5, 0))
_Q = "/api/queues/:queueName"
_HISTORY = "historyProvider"
_BULL_BOARD_API = (
    TableRoute("GET", "/"),
    TableRoute("GET", "/queue/:queueName"),
    TableRoute("GET", "/queue/:queueName/:jobId", (5, 8)),
    TableRoute("GET", "/metrics-history", (8, 2)),
    TableRoute("GET", "/job-schedulers", (8, 4)),
    TableRoute("GET", "/api/redis/stats", (4, 2)),
    TableRoute("GET", "/api/queues"),
    TableRoute("GET", "/api/job-schedulers", (8, 4)),
    TableRoute("GET", "/api/job-schedulers/count", (8, 4), (8, 5)),
    TableRoute("PUT", "/api/queues/pause", (6, 7)),
    TableRoute("PUT", "/api/queues/resume", (6, 7)),
    TableRoute("GET", f"{_Q}/metrics", (7, 2)),
    TableRoute("GET", f"{_Q}/default-job-options", (8, 1)),
    TableRoute("GET", f"{_Q}/workers", (8, 5)),
    TableRoute("GET", f"{_Q}/job-data-schema", (8, 2)),
    TableRoute("PUT", f"{_Q}/retry", (), (4, 10)),
    TableRoute("PUT", f"{_Q}/retry/:queueStatus", (4, 10)),
    TableRoute("PUT", f"{_Q}/promote", (5, 6)),
    TableRoute("PUT", f"{_Q}/clean/:queueStatus"),
    TableRoute("PUT", f"{_Q}/pause", (3, 4)),
    TableRoute("PUT", f"{_Q}/resume", (3, 4)),
    TableRoute("PUT", f"{_Q}/concurrency", (6, 17)),
    TableRoute("PUT", f"{_Q}/empty", (4, 7)),
    TableRoute("PUT", f"{_Q}/obliterate", (6, 15)),
    TableRoute("PUT", f"{_Q}/job-schedulers/:schedulerId/remove", (8, 3, 1)),
    TableRoute("PATCH", f"{_Q}/job-schedulers/:schedulerId", (8, 4)),
    TableRoute("POST", f"{_Q}/add", (5, 18)),
    TableRoute("GET", f"{_Q}/:jobId/logs"),
    TableRoute("GET", f"{_Q}/:jobId/flow", (6, 20)),
    TableRoute("GET", f"{_Q}/:jobId", (5, 8)),
    TableRoute("PUT", f"{_Q}/:jobId/retry", (), (4, 10)),
    TableRoute("PUT", f"{_Q}/:jobId/retry/:queueStatus", (4, 10), (6, 18, 3)),
    TableRoute("PUT", f"{_Q}/:jobId/retry", (6, 18, 3)),
    TableRoute("PUT", f"{_Q}/:jobId/clean"),
    TableRoute("PUT", f"{_Q}/:jobId/promote"),
    TableRoute("PATCH", f"{_Q}/:jobId/update-data", (5, 22)),
    TableRoute("GET", "/api/metrics/history", (8, 2), needs=_HISTORY),
    TableRoute("GET", "/api/metrics/history/usage", (8, 2), needs=_HISTORY, maybe="its `getUsage`"),
    TableRoute(
        "POST",
        "/api/metrics/history/purge",
        (8, 2),
        needs=_HISTORY,
        maybe="its `purge` (and a board not read-only)",
    ),
    TableRoute("GET", "/api/metrics/latency", (8, 5), needs=_HISTORY, maybe="its `getLatency`"),
)
# the UI's files: Express's and Koa's adapters serve them through static middleware (no
# route); Fastify's registers `@fastify/static` under `/static` in its plugin, hapi's a
# `/static/{param*}` directory route
_BULL_BOARD_STATIC = {
    FASTIFY: TableRoute("GET", "/static/*"),
    HAPI: TableRoute("GET", "/static/{param*}"),
}


def _bull_board(adapter: str, framework: str, taken_by: str, base: str = "mount") -> LibraryTable:
    """bull-board's server adapter `@bull-board/<adapter>`: `new <Adapter>Adapter()`, then
    `getRouter()` (Express: an app mounted by `use`) or `registerPlugin()` (a Fastify or hapi
    plugin registered under the register's prefix; a Koa middleware mounting itself)."""
    cls = adapter.capitalize()
    own = (_BULL_BOARD_STATIC[framework],) if framework in _BULL_BOARD_STATIC else ()
    return LibraryTable(
        f"@bull-board/{adapter}",
        framework,
        ((f"{cls}Adapter", "()", taken_by, "()"),),
        (*_BULL_BOARD_API, *own),
        _BULL_BOARD_READ,
        made_by=f"{cls}Adapter",
        taken_by=taken_by,
        base=base,
        base_option="mount" if base == "own" else "",
        base_setter="setBasePath" if base == "own" else "",
        configured_by="createBullBoard",
        adapter_key="serverAdapter",
        options=((_HISTORY, f"options.{_HISTORY}"),),
    )


# -- Mojaloop's shared hapi plugins ------------------------------------------------------------
# `@mojaloop/central-services-shared`'s `Util.Hapi.APIDocumentation` (`src/util/hapi/plugins/
# apiDocumentation.js`, `{ plugin }`): GET `/swagger.json` and `/documentation`, the same from
# 11.5.1 (where it is added) to 18.38.2. `@mojaloop/central-services-metrics`' default export's
# `plugin` (`src/metrics.ts`): GET `/metrics`, from 12.2.0 (where it is added) to 12.8.8.
RECORDS = (
    _bull_board("express", EXPRESS, "getRouter"),
    _bull_board("fastify", FASTIFY, "registerPlugin"),
    _bull_board("hapi", HAPI, "registerPlugin"),
    _bull_board("koa", KOA, "registerPlugin", base="own"),
    LibraryTable(
        "@mojaloop/central-services-shared",
        HAPI,
        (("Util", "Hapi", "APIDocumentation"), ("Util", "Hapi", "APIDocumentation", "plugin")),
        (TableRoute("GET", "/swagger.json"), TableRoute("GET", "/documentation")),
        ((11, 5, 1), (18, 38, 3)),
    ),
    LibraryTable(
        "@mojaloop/central-services-metrics",
        HAPI,
        (("plugin",),),
        (TableRoute("GET", "/metrics"),),
        ((12, 2, 0), (12, 8, 9)),
    ),
)
ADAPTERS = {(r.library, r.made_by): r for r in RECORDS if r.made_by}
TAKEN_BY = frozenset(r.taken_by for r in RECORDS if r.taken_by)


def by_value(module: str, path: tuple[str, ...]) -> LibraryTable | None:
    """The record whose value a package's member is (`_External(module, path)`), if any."""
    for record in RECORDS:
        if record.library == module and path in record.values:
            return record
    return None


def _spelled(path: str, framework: str) -> str:
    """A template as the framework's router is given it (hapi's adapter: `{name}`)."""
    if framework != HAPI:
        return path
    return "/".join("{" + s[1:] + "}" if s.startswith(":") else s for s in path.split("/"))


def option_routes(record: LibraryTable) -> OptionRoutes:
    """The record as `option_routes` lists such routes: an era from each release where the
    table changes, each serving what its first release serves."""
    bounds = {record.read[0]}
    for route in record.routes:
        bounds.add(route.since)
        if route.until is not None:
            bounds.add(route.until)
    starts = tuple(sorted(b for b in bounds if record.read[0] <= b < record.read[1]))

    def routes(options: Options, era: int) -> Served:
        version = starts[era]
        served: list[tuple[str, str]] = []
        open_: list[str] = []
        for route in (r for r in record.routes if r.served_in(version)):
            if route.needs and not _needed(route, options, open_):
                continue
            served.append((route.method, _spelled(route.path, record.framework)))
        return tuple(served), "; ".join(dict.fromkeys(open_))

    names = tuple(name for name, _ in record.options)
    return OptionRoutes(record.library, names, starts, routes, record.read)


def _needed(route: TableRoute, options: Options, open_: list[str]) -> bool:
    """Whether a route that `needs` an option is listed; why it is left open, in `open_`."""
    if route.needs not in options or options[route.needs] is False:
        return False  # the option not given: not served
    if options[route.needs] is None:
        open_.append(f"the routes a `{route.needs}` adds are served only where one is given, "
                     "which is not read here")  # fmt: skip
        return False
    if route.maybe:
        told = f"`{route.method} {route.path}`"
        open_.append(f"{told} is served only where the `{route.needs}` given has {route.maybe}")
        return False
    return True


OPTION_ROUTES = {record.key: option_routes(record) for record in RECORDS}
