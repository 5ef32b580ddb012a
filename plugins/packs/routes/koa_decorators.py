"""koa-swagger-decorator: Koa routes declared by decorators on class methods.

The library's `SwaggerRouter` is a koa-router subclass (its record: `frameworks.KOA`), so its
own `get`/`post`/… calls are read as any Koa router's. What it adds, read here:

- a class whose methods (static or not) carry `@request(method, path)` is a router of its
  routes (`@prefix('/p')` on the class puts `/p` before each; `{id}` in a path is `:id`, as
  the library's `convertPath` rewrites it), bound to the class's name, so its exports and
  imports lead to it;
- `router.map(Class)` serves that class's routes on `router` (koa-router's own prefix first);
- `router.mapDir(dir)` serves every class that a `.js`/`.ts` file under `dir` exports by
  default (`{ recursive: false }`: the folder's own files only): a `LoadDecl` the linker lists
  (`linker._mapped`), the folder as `path.join`/`path.resolve` of `__dirname` names it;
- `router.swagger(opts)` serves `GET /swagger-json` and `GET /swagger-html` (or the
  `swaggerJsonEndpoint`/`swaggerHtmlEndpoint` it is given).

Version 2 (`koa-swagger-decorator@2`, its `SwaggerRouter` a `@koa/router` subclass too) is read
the same way: `@routeConfig({ method, path, ... })` on a method (instance methods only: its
`applyRoute` walks the class's prototype, so a static method is not served, nor one of the
names it reserves, `prefix`, `middlewares`...), `router.applyRoute(Class)` (chained too) as
`map`, and `router.swagger()` taking its endpoints from the options the router was made with
(`new SwaggerRouter({ swaggerJsonEndpoint })`).

A method or path that is not a literal goes to the linker as an expression (a constant of
another module is followed there; else its usual finding). Checked against the library itself
(koa-swagger-decorator 1.7: `router.stack` after `map`/`mapDir`/`swagger`).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

import tree_sitter

from .model import (
    KOA,
    Auth,
    Expr,
    ImportRef,
    Lit,
    LoadDecl,
    Opaque,
    RouteDecl,
    RouterDecl,
    RouterRef,
    UseDecl,
)

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node

MODULE = "koa-swagger-decorator"
MAP_DIR = MODULE  # `LoadDecl.loader` of a `mapDir`
CLASS_ROUTER = "koa-class:"  # the router id of a decorated class
_CLASSES = {"class_declaration", "class", "abstract_class_declaration"}
_SWAGGER = (("GET", "/swagger-json", "swaggerJsonEndpoint"),
            ("GET", "/swagger-html", "swaggerHtmlEndpoint"))  # fmt: skip
_ROUTER_CALL = re.compile(rb"\.(swagger|map|mapDir|applyRoute)\s*\(")
# the method names version 2's `applyRoute` never serves (`reservedMethodNames`)
_RESERVED = frozenset({"middlewares", "name", "constructor", "length", "prototype",
                       "parameters", "prefix"})  # fmt: skip
_BRACED = re.compile(r"\{(.*?)\}")


def read(reader: _Reader, root: _Node) -> None:
    """Decorated classes and the router calls of a file that imports the library."""
    names = {
        local: ref.attr
        for local, ref in reader.bindings.items()
        if isinstance(ref, ImportRef) and ref.module == MODULE
    }
    for statement in root.named_children:
        outer: list[_Node] = []
        node = statement
        if node.type == "export_statement":
            outer = [c for c in node.children if c.type == "decorator"]
            node = node.child_by_field_id(reader.fields.declaration) or node
        if node.type in _CLASSES:
            _class(reader, node, outer, names)
    for match in _ROUTER_CALL.finditer(reader.source):
        prop = root.descendant_for_byte_range(match.start(1), match.end(1))
        member = prop.parent if prop is not None else None
        call = member.parent if member is not None else None
        if call is None or call.type != "call_expression" or member is None:
            continue
        owner_node = member.child_by_field_id(reader.fields.object)
        while owner_node is not None and owner_node.type == "call_expression":  # a chain
            chained = owner_node.child_by_field_id(reader.fields.function)
            if chained is None or chained.type != "member_expression":
                break
            if reader._text(chained.child_by_field_id(reader.fields.property)) != "applyRoute":
                break
            owner_node = chained.child_by_field_id(reader.fields.object)
        owner = reader._owner(owner_node) if owner_node is not None else None
        if owner is not None:
            _router_call(reader, call, match.group(1).decode(), owner)


def _class(reader: _Reader, node: _Node, outer: list[_Node], names: dict[str, str | None]) -> None:
    name_node = node.child_by_field_id(reader.fields.name)
    body = node.child_by_field_id(reader.fields.body)
    if name_node is None or body is None:
        return
    decorators = outer + [c for c in node.children if c.type == "decorator"]
    prefix = None
    for decorator in decorators:
        called, args = _decorator(reader, decorator, names)
        if called == "prefix" and args:
            prefix = reader._expr(args[0]) or Opaque()
    router_id = f"{CLASS_ROUTER}{reader._text(name_node)}:{node.start_point.row + 1}"
    owner = RouterRef(router_id)
    routes: list[RouteDecl] = []
    pending: list[_Node] = []
    for member in body.named_children:
        if member.type == "decorator":
            pending.append(member)
            continue
        if member.type == "method_definition":
            method = member.child_by_field_id(reader.fields.name)
            handler = f"{reader._text(name_node)}.{reader._text(method)}" if method else None
            static = any(c.type == "static" for c in member.children)
            for decorator in pending:
                called, args = _decorator(reader, decorator, names)
                if called == "request" and len(args) >= 2:
                    routes.append(_route(reader, owner, args, decorator, handler))
                elif (
                    called == "routeConfig"
                    and args
                    and not static
                    and (reader._text(method) not in _RESERVED)
                ):
                    config = _object(args[0])
                    found = _configured(reader, owner, config, decorator, handler)
                    routes += [found] if found is not None else []
        pending = []
    if not routes:
        return
    reader.routers[router_id] = RouterDecl(router_id, KOA, node.start_point.row + 1, prefix)
    reader.routes.extend(routes)
    reader.bindings[reader._text(name_node)] = owner


def _decorator(
    reader: _Reader, decorator: _Node, names: dict[str, str | None]
) -> tuple[str | None, list[_Node]]:
    """The library's decorator a `@x(…)` calls (`request`, `prefix`, …) and its arguments."""
    call = decorator.named_children[0] if decorator.named_children else None
    if call is None or call.type != "call_expression":
        return None, []
    callee = call.child_by_field_id(reader.fields.function)
    if callee is None or callee.type != "identifier":
        return None, []
    return names.get(reader._text(callee)), reader._arguments(call)


def _route(
    reader: _Reader, owner: RouterRef, args: list[_Node], at: _Node, handler: str | None
) -> RouteDecl:
    verb = reader._string(args[0])
    written = reader._string(args[1])
    path = Lit(_BRACED.sub(r":\1", written)) if written is not None else reader._expr(args[1])
    line = at.start_point.row + 1
    if verb is None:
        method = reader._expr(args[0]) or Opaque()
        return RouteDecl(owner, path or Opaque(), None, line, handler, method_exprs=(method,))
    return RouteDecl(owner, path or Opaque(), (verb.upper(),), line, handler)


def _configured(
    reader: _Reader, owner: RouterRef, config: _Node | None, at: _Node, handler: str | None
) -> RouteDecl | None:
    """`@routeConfig({ method: 'get', path: '/x/{id}' })` (version 2): a route as `@request`
    gives one; options not written there are a route whose path and method are not known."""
    line = at.start_point.row + 1
    if config is None:
        return RouteDecl(owner, Opaque(), None, line, handler, methods_unknown=True)
    method = reader._field(config, "method")
    path = reader._field(config, "path")
    if method is None or path is None:
        return None  # the library throws: no route
    return _route(reader, owner, [method, path], at, handler)


def _router_call(reader: _Reader, call: _Node, verb: str, owner: Expr) -> None:
    args = reader._arguments(call)
    line = call.start_point.row + 1
    options = _object(args[1] if verb == "mapDir" and len(args) > 1 else args[0] if args else None)
    if verb == "swagger" and not args:  # version 2: the options the router was made with
        options = _made_with(reader, call)
    if verb == "swagger":
        for method, default, key in _SWAGGER:
            field = reader._field(options, key) if options is not None else None
            path = reader._expr(field) if field is not None else Lit(default)
            reader.routes.append(RouteDecl(owner, path or Opaque(), (method,), line))
    elif verb in {"map", "applyRoute"} and args:
        child = reader._expr(args[0])
        if child is not None:
            reader.uses.append(UseDecl(owner, ((child, Auth((child,))),), line))
    elif verb == "mapDir" and args:
        folder = _folder(reader, args[0])
        recursive = reader._field(options, "recursive") if options is not None else None
        if folder is None:  # a folder out of sight: the classes it maps are not known
            unread = RouteDecl(owner, Opaque(), None, line, methods_unknown=True,
                               generated_by=MODULE)  # fmt: skip
            reader.routes.append(unread)
            return
        reader.loads.append(
            LoadDecl(owner, folder, None, recursive is None or recursive.type != "false",
                     line, reader._enclosing(call), loader=MAP_DIR)
        )  # fmt: skip


def _made_with(reader: _Reader, call: _Node) -> _Node | None:
    """The options object `new SwaggerRouter({...})` was given, for `router.swagger()` on a name
    a block around the call binds to it; None when not written there."""
    callee = call.child_by_field_id(reader.fields.function)
    owner = callee.child_by_field_id(reader.fields.object) if callee is not None else None
    made = reader._declared(owner) if owner is not None and owner.type == "identifier" else None
    if made is None or made.type != "new_expression":
        return None
    args = reader._arguments(made)
    return _object(args[0]) if args else None


def _object(node: _Node | None) -> _Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node if node is not None and node.type == "object" else None


def _folder(reader: _Reader, node: _Node) -> str | None:
    """`__dirname` itself, or the folder `path.join`/`path.resolve` of it names."""
    if reader._text(node) == "__dirname":
        return posixpath.dirname(reader.path)
    return reader._folder(node)
