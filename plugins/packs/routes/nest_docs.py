"""The API documentation a NestJS app serves once its bootstrap calls a library's setup
(issue 34: items a known library generates at run time): `SwaggerModule.setup('/docs', app,
document, options)` of `@nestjs/swagger` and `RedocModule.setup('/redocs', app, document,
options)` of `nestjs-redoc`. Neither is a controller, so Nest's scanner never sees their
routes; each library registers them on the app's HTTP adapter itself, at paths its release
computes from the path and options it is given.

Each library is an `option_routes.OptionRoutes` record (its releases' eras, the options it
reads), read from the packages' own `dist` release by release; the call is read here into one
`RouteDecl` naming the record (`generated_by`) with the options as written, which the linker
expands as it expands the Fastify and hapi documentation plugins (`Linker._library_routes`):
listed at the call with `attrs.library` for the versions the nearest `package.json` declares,
what a computed option, versions outside those read, or routes of some eras only leave open
a finding there. The path may be a constant, a configuration value or an environment
default (`nest._setting`, as `setGlobalPrefix` is read).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from . import js_nodes, nest
from .model import EXPRESS, FASTIFY, Expr, ImportRef, Lit, Opaque, RouteDecl, RouterDecl, RouterRef
from .option_routes import OptionRoutes, Options, Served, _flag, _text

if TYPE_CHECKING:
    import tree_sitter

    from .js_facts import _Reader

    _Node = tree_sitter.Node

SWAGGER = "@nestjs/swagger"
REDOC = "nestjs-redoc"
_CLASSES = {(SWAGGER, "SwaggerModule"): SWAGGER, (REDOC, "RedocModule"): REDOC}
_FASTIFY_PLATFORM = "@nestjs/platform-fastify"
_EXPRESS_PLATFORM = "@nestjs/platform-express"
_ADAPTERS = ((_FASTIFY_PLATFORM, FASTIFY), (_EXPRESS_PLATFORM, EXPRESS))
_SETUP = re.compile(rb"\.\s*(setup)\s*\(")
_PLATFORM = "platform"  # not an option of the library: the adapter the app runs on
_GLOBAL = "globalPrefix"  # nor this: the app's `setGlobalPrefix`, for `useGlobalPrefix`


def seeded(source: bytes) -> bool:
    """Whether a file's text can hold such a setup call (it imports a library's module)."""
    return (SWAGGER.encode() in source or REDOC.encode() in source) and b"setup" in source


def _valid_path(path: str) -> str:
    """Both libraries' `validatePath`/`normalizePath`: a leading `/` added where missing."""
    return path if path.startswith("/") else "/" + path


def _platform(options: Options) -> str | None:
    """The adapter the app runs on: the one the setup's file imports, else the one the
    nearest `package.json` declares (Express, Nest's default, where it declares neither);
    None where it declares both."""
    given = options.get(_PLATFORM)
    if isinstance(given, str):
        return given
    declared = [name for package, name in _ADAPTERS if options.get(f"declares {package}")]
    return declared[0] if len(declared) == 1 else None if declared else EXPRESS


def _rel(path: str) -> str:
    """`@nestjs/swagger`'s `normalizeRelPath`: runs of `/` as one."""
    return re.sub(r"//+", "/", path)


# @nestjs/swagger's `SwaggerModule.setup` (dist/swagger-module.js), read at 6.0.0, 6.0.5, 6.1.0,
# 6.1.4, 6.2.0, 6.2.1, 6.3.0, 7.0-7.4, 8.0.0, 8.0.7, 8.1.0, 8.1.1, 11.0-11.4 and 11.4.8: the page
# at the path (with `useGlobalPrefix` the app's global prefix first), `<path>/swagger-ui-init.js`
# and `<path>/<its last segment>/swagger-ui-init.js`, `<path>-json` and `<path>-yaml`; 6.2.1 reads
# `jsonDocumentUrl`/`yamlDocumentUrl`, 7.4 `swaggerUiEnabled: false` (the UI's routes off), 8.0
# adds `<path>/index.html`, 8.1 `ui` and `raw` (`false`, or the documents listed), 11.2.1
# `<path>/LICENSE`. The UI's files are static assets (`useStaticAssets`): express's static
# middleware (no route), or `@fastify/static`'s `<path>/*` route on Fastify's adapter (and
# under the second path too). `<path>/` is the page again: express's non-strict routing, and
# named without its slash on Fastify, as the pack names a plugin's `/`.
_SWAGGER_ERAS = ((6, 1, 0), (6, 2, 1), (7, 4, 0), (8, 0, 0), (8, 1, 0), (11, 2, 1))
_SWAGGER_OPTIONS = (
    "path", _PLATFORM, _GLOBAL, "useGlobalPrefix", "jsonDocumentUrl", "yamlDocumentUrl",
    "swaggerUiEnabled", "ui", "raw",
)  # fmt: skip


def _swagger_path(options: Options) -> tuple[str, str] | str:
    """(the page's path, the global prefix the documents' own urls take), or why not known."""
    path = _text(options, "path", default="")
    use = _flag(options, "useGlobalPrefix", default=False)
    prefix = _text(options, _GLOBAL, default="") if use else ""
    if path is None:
        return "the path it is given is computed out of sight"
    if use is None:
        return "its `useGlobalPrefix` is computed out of sight"
    if prefix is None:
        return "it serves under the app's global prefix (`useGlobalPrefix`), not read in this file"
    if prefix and not re.fullmatch(r"/?", prefix):  # `validateGlobalPrefix`
        return _valid_path(f"{prefix}{_valid_path(path)}"), _valid_path(prefix)
    return _valid_path(path), ""


def _swagger_switches(options: Options, era: int) -> tuple[bool, str] | str:
    """(whether the UI is served, the documents served: "json,yaml" or a part), or why not."""
    ui: bool | None = True
    if era >= 4 and "ui" in options:
        ui = _flag(options, "ui", default=True)
    elif era >= 2:
        ui = _flag(options, "swaggerUiEnabled", default=True)
    raw: str | bool | None = options.get("raw", True) if era >= 4 else True
    if ui is None or raw is None:
        return "its `ui`, `swaggerUiEnabled` or `raw` is computed out of sight"
    documents = "json,yaml" if raw is True else "" if raw is False else str(raw)
    return ui, documents


def _nest_swagger(options: Options, era: int) -> Served:
    placed = _swagger_path(options)
    switches = _swagger_switches(options, era)
    if isinstance(placed, str) or isinstance(switches, str):
        return (), placed if isinstance(placed, str) else str(switches)
    (page, prefix), (ui, documents) = placed, switches
    json = _text(options, "jsonDocumentUrl", default="") if era >= 1 else ""
    yaml = _text(options, "yamlDocumentUrl", default="") if era >= 1 else ""
    if json is None or yaml is None:
        return (), "its `jsonDocumentUrl` or `yamlDocumentUrl` is computed out of sight"
    last = page.split("/")[-1]
    served: list[str] = []
    platform, unsure = _platform(options), ""
    if ui:
        served += [_rel(f"{page}/swagger-ui-init.js"), _rel(f"{page}/{last}/swagger-ui-init.js")]
        served += [page] + ([f"{page}/index.html"] if era >= 3 else [])
        served += [f"{page}/LICENSE"] if era >= 5 else []
        static = [_rel(f"{p}/*") for p in dict.fromkeys((page, f"{page}/{last}"))]
        if platform == FASTIFY:  # `@fastify/static` under each static prefix
            served += static
        elif platform is None:
            unsure = (f"on Fastify's adapter it serves {', '.join(f'`GET {p}`' for p in static)}"
                      " too, and the app's adapter is not read (both are declared)")  # fmt: skip
    if "json" in documents.split(","):
        served.append(_rel(f"{prefix}{_valid_path(json)}" if json else f"{page}-json"))
    if "yaml" in documents.split(","):
        served.append(_rel(f"{prefix}{_valid_path(yaml)}" if yaml else f"{page}-yaml"))
    return tuple(("GET", p) for p in dict.fromkeys(served)), unsure


# nestjs-redoc's `RedocModule.setup` (dist/redoc-module.js), read at 1.3.2, 2.0.0, 2.1.1 and
# 2.2.2: on express the page at the path and the document at `url.resolve(path + '/',
# docName + '.json')` (`docName` 'swagger' by default); on Fastify's adapter it throws.
_REDOC_OPTIONS = ("path", _PLATFORM, "docName")


def _nest_redoc(options: Options, era: int) -> Served:
    path = _text(options, "path", default="")
    name = _text(options, "docName", default="swagger")
    if path is None or name is None:
        return (), "the path it is given or its `docName` is computed out of sight"
    platform = _platform(options)
    if platform == FASTIFY:
        return (), ""  # 'Fastify is not implemented yet': no route
    if platform is None:
        return (), "it serves none on Fastify's adapter, and the app's adapter is not read"
    page = _valid_path(path)
    return (("GET", page), ("GET", urljoin(page.rstrip("/") + "/", f"{name}.json"))), ""


_PLATFORMS = tuple(package for package, _ in _ADAPTERS)
RECORDS = (
    OptionRoutes(
        SWAGGER, _SWAGGER_OPTIONS, _SWAGGER_ERAS, _nest_swagger, ((6, 1, 0), (12, 0, 0)), _PLATFORMS
    ),
    OptionRoutes(
        REDOC, _REDOC_OPTIONS, ((1, 3, 2),), _nest_redoc, ((1, 3, 2), (2, 2, 3)), _PLATFORMS
    ),
)
OPTION_ROUTES = {record.library: record for record in RECORDS}


def read(reader: _Reader, root: _Node) -> None:
    """Each `SwaggerModule.setup(path, app, document, options)` (and Redoc's) whose class the
    file imports from its library (under any alias): a router of the app's adapter made there,
    serving the record's routes (the linker lists them at the call)."""
    imported = [name for package, name in _ADAPTERS if _imports(reader, package)]
    platform = imported[0] if len(imported) == 1 else None  # else: as the manifest declares
    for match in _SETUP.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        member = node.parent if node is not None else None
        call = member.parent if member is not None else None
        if member is None or call is None or call.type != "call_expression":
            continue
        library = _library(reader, member)
        args = reader._arguments(call)
        if library is None or not args:
            continue
        line = js_nodes.line_of(call)
        site = f"{line}:{call.start_point[1]}:docs"
        reader.routers[site] = RouterDecl(site, platform or EXPRESS, line, app=True)
        written = _options(reader, args[3] if len(args) > 3 else None, OPTION_ROUTES[library])
        given = (("path", nest._setting(reader, args[0])), *written)
        if platform is not None:
            given += ((_PLATFORM, Lit(platform)),)
        if library == SWAGGER and dict(written).get("useGlobalPrefix", False) is not False:
            given += ((_GLOBAL, _global_prefix(reader)),)
        reader.routes.append(
            RouteDecl(RouterRef(site), Opaque(), None, line, methods_unknown=True,
                      generated_by=library, documented=given, only_if=reader._branch(call))
        )  # fmt: skip  # a setup under `if (NODE_ENV === 'development')`: decided as a route


def _library(reader: _Reader, member: _Node) -> str | None:
    """The library whose setup class `member`'s object is (`SwaggerModule`, imported)."""
    owner = js_nodes.unwrap(member.child_by_field_id(reader.fields.object))
    if owner is None or owner.type != "identifier":
        return None
    bound = reader.bindings.get(reader._text(owner))
    if not isinstance(bound, ImportRef) or bound.attr is None:
        return None
    return _CLASSES.get((bound.module, bound.attr))


def _imports(reader: _Reader, module: str) -> bool:
    """Whether the file imports anything of `module`."""
    return any(isinstance(b, ImportRef) and b.module == module for b in reader.bindings.values())


def _global_prefix(reader: _Reader) -> Expr:
    """The global prefix the file's one `setGlobalPrefix` gives; computed (a finding where
    `useGlobalPrefix` asks for it) where the file sets none or several."""
    prefixes = reader.global_prefixes
    return prefixes[0].prefix if len(prefixes) == 1 else Opaque()


def _options(
    reader: _Reader, node: _Node | None, record: OptionRoutes
) -> tuple[tuple[str, Expr | bool], ...]:
    """The record's options the setup's options object gives (an object literal, or a local
    `const` holding one): a boolean as it is, a list of strings as `"json,yaml"`, anything
    else as the value it reads as; every option computed where the object is not read."""
    found = js_nodes.unwrap(node) if node is not None else None
    if found is not None and found.type == "identifier":
        value = nest._local_value(reader, found)
        found = js_nodes.unwrap(value) if value is not None else found
    names = [n for n in record.options if n not in {"path", _PLATFORM, _GLOBAL}]
    if found is None:
        return ()
    if found.type != "object":
        return tuple((n, Opaque()) for n in names)
    given: list[tuple[str, Expr | bool]] = []
    for name in names:
        held = reader._field(found, name)
        value = js_nodes.unwrap(held) if held is not None else None
        if value is None:
            continue
        if value.type in {"true", "false"}:
            given.append((name, value.type == "true"))
        elif value.type == "array":
            items = [reader._string(i) for i in value.named_children if i.type != "comment"]
            strings = [i for i in items if i is not None]
            given.append((name, Lit(",".join(strings)) if len(strings) == len(items) else Opaque()))
        else:
            given.append((name, nest._setting(reader, value)))
    return tuple(given)
