"""The routes `@envage/hapi-pg-rest-api` makes for a PostgreSQL table (issue 34: items a known
library generates at run time): `const api = new HAPIRestAPI({ table, endpoint, … })`, then
`api.getRoutes()`, a list of hapi route options the project registers (`server.route(…)`, or
spread into a larger table). No route options object of the project's holds them: the
library's `route-factory.js` writes one route per operation under the `endpoint` option.

The library is an `option_routes.OptionRoutes` record, read from its own source (`src/rest-api.
js`, `src/route-factory.js`) at 4.1.0, 4.2.0, 5.0.0, 6.0.0, 7.0.0 and 7.0.1 (every release the
registry holds from 4.1.0): the same nine routes in each, `GET`, `POST`, `PATCH` and `DELETE`
at the endpoint, `GET`, `PUT`, `PATCH` and `DELETE` at `<endpoint>/{id*}` and `GET
<endpoint>/schema`. `getRoutes()` reads into a table of one `RouteDecl` naming the record
(`generated_by`) with the endpoint as written, which the linker expands where the table is
registered (`Linker._library_routes`): listed at the `new HAPIRestAPI(…)` with
`attrs.library` for the versions the nearest `package.json` declares; an endpoint computed out
of sight, or versions outside those read, a finding there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import js_nodes, nest
from .model import Bound, Expr, ImportRef, Opaque, RouteDecl, StarletteRoutes
from .option_routes import OptionRoutes, Options, Served, _text

if TYPE_CHECKING:
    import tree_sitter

    from .js_facts import _Reader

    _Node = tree_sitter.Node

LIBRARY = "@envage/hapi-pg-rest-api"
_TAKEN_BY = "getRoutes"
# `route-factory.js`: (method, what follows the endpoint), in the order `getRoutes` gives them
_ROUTES = (
    ("GET", ""),
    ("GET", "/{id*}"),
    ("POST", ""),
    ("PATCH", "/{id*}"),
    ("PUT", "/{id*}"),
    ("DELETE", "/{id*}"),
    ("PATCH", ""),
    ("GET", "/schema"),
    ("DELETE", ""),
)


def _served(options: Options, era: int) -> Served:
    """The nine routes under the endpoint; none, and why, where it is not read."""
    if "endpoint" not in options:  # the library's constructor throws without one
        return (), "it is given no `endpoint` here"
    endpoint = _text(options, "endpoint", default="")
    if endpoint is None:
        return (), "the `endpoint` it is given is computed out of sight"
    return tuple((method, endpoint + tail) for method, tail in _ROUTES), ""


RECORD = OptionRoutes(LIBRARY, ("endpoint",), ((4, 1, 0),), _served, ((4, 1, 0), (7, 0, 2)))
OPTION_ROUTES = {LIBRARY: RECORD}


def table(reader: _Reader, call: _Node) -> StarletteRoutes | None:
    """`api.getRoutes()` (or `new HAPIRestAPI(config).getRoutes()`) of an `api` the file makes
    with the library's class: a table of the record's one declaration, placed at the `new`;
    None for any other call."""
    callee = call.child_by_field_id(reader.fields.function)
    if callee is None or callee.type != "member_expression":
        return None
    if reader._text(callee.child_by_field_id(reader.fields.property)) != _TAKEN_BY:
        return None
    made = js_nodes.unwrap(callee.child_by_field_id(reader.fields.object))
    if made is not None and made.type == "identifier":
        made = js_nodes.unwrap(nest._local_value(reader, made))
    if made is None or made.type != "new_expression" or not _the_class(reader, made):
        return None
    args = reader._arguments(made)
    config = js_nodes.unwrap(args[0]) if args else None
    if config is not None and config.type == "identifier":
        config = js_nodes.unwrap(nest._local_value(reader, config)) or config
    given: tuple[tuple[str, Expr | bool], ...] = (("endpoint", Opaque()),)
    if config is not None and config.type == "object":
        field = reader._field(config, "endpoint")
        value = reader._value(field) if field is not None else None
        given = () if field is None else (("endpoint", Bound(reader.path, value or Opaque())),)
    line = js_nodes.line_of(made)
    route = RouteDecl(
        None, Opaque(), None, line, methods_unknown=True, from_options=True,
        generated_by=LIBRARY, documented=given,
    )  # fmt: skip
    return StarletteRoutes((route,), lines=(line,))


def _the_class(reader: _Reader, made: _Node) -> bool:
    """Whether a `new` makes the library's class: a name the file imports from it whole."""
    constructor = js_nodes.unwrap(made.child_by_field_id(reader.fields.constructor))
    if constructor is None or constructor.type != "identifier":
        return False
    bound = reader.bindings.get(reader._text(constructor))
    return (
        isinstance(bound, ImportRef) and bound.module == LIBRARY and bound.attr in {None, "default"}
    )
