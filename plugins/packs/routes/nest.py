"""NestJS routes of one TypeScript or JavaScript file: its decorated controllers and the
global prefix `main.ts` sets.

Nest declares routes with decorators rather than calls, so its reading is its own: `js_facts`
reads a file's bindings and calls, then hands the tree here when the file names `@nestjs/`.
The functions take that file's reader and add to its routers, routes and global prefixes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from . import js_facts
from .model import (
    NESTJS,
    Auth,
    Expr,
    GlobalPrefix,
    ImportRef,
    Lit,
    Opaque,
    RouteDecl,
    RouterDecl,
    RouterRef,
)

if TYPE_CHECKING:
    import tree_sitter

    from .js_facts import _Reader

    _Node = tree_sitter.Node

# NestJS: the package its decorators come from, its route decorators (`All`: every method)
_COMMON = "@nestjs/common"
_GLOBAL_PREFIX = re.compile(rb"\.\s*(setGlobalPrefix)\s*\(")
_VERSION = (
    "a version is declared here (`version:`, `@Version`): under URI versioning, which is not "
    "read, it is a path segment (`/v1`), and the route is named without it"
)
_VERBS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
          "Options": "OPTIONS", "Head": "HEAD", "All": "*"}  # fmt: skip


def read(reader: _Reader, root: _Node) -> None:
    """The file's controllers and global prefixes (the caller has seen `@nestjs/` in it)."""
    if b"Controller" in reader.source:
        _controllers(reader, root)
    if b"setGlobalPrefix" in reader.source:
        _global_prefix(reader, root)


def _controllers(reader: _Reader, root: _Node) -> None:
    """Each `@Controller(prefix)` class: one application per prefix it is served under
    (a string, `{ path }`, a list), its `@Get(path)`/`@Post`/.../`@All` methods the routes.
    `@UseGuards(...)` on the class or a method is what guards; guards set elsewhere (a
    global `APP_GUARD`, `useGlobalGuards`) are not read, so an `Opaque` step on every
    controller keeps a route without its own guard `unknown`, never `none`."""
    for statement in root.named_children:
        decorators = [c for c in statement.named_children if c.type == "decorator"]
        cls = statement
        if statement.type == "export_statement":
            cls = statement.child_by_field_id(reader.fields.declaration) or statement
        if cls.type not in {"class_declaration", "abstract_class_declaration", "class"}:
            continue
        decorators += [c for c in cls.named_children if c.type == "decorator"]
        controller = _decorator(reader, decorators, {"Controller"})
        body = cls.child_by_field_id(reader.fields.body)
        if controller is None or body is None:
            continue
        guards = _guards(reader, decorators)
        name = reader._text(cls.child_by_field_id(reader.fields.name)) or "controller"
        options = js_facts._unwrap(controller[1][0]) if controller[1] else None
        versioned = (
            options is not None
            and options.type == "object"
            and (reader._field(options, "version") is not None)
        )
        routes: list[RouteDecl] = []
        pending: list[_Node] = []
        for member in body.named_children:
            if member.type == "decorator":
                pending.append(member)
                continue
            if member.type == "method_definition":
                # TypeScript's decorators precede the method; JavaScript's are inside it
                pending += (c for c in member.named_children if c.type == "decorator")
                method = reader._text(member.child_by_field_id(reader.fields.name))
                found = _routes(reader, pending, f"{name}.{method}")
                if versioned or _decorator(reader, pending, {"Version"}) is not None:
                    found = [replace(r, unread_segment=_VERSION) for r in found]
                routes += found
            pending = []
        for index, prefix in enumerate(_paths(reader, controller[1])):
            site = f"{js_facts._site(cls)}:controller:{index}"
            reader.routers[site] = RouterDecl(
                site, NESTJS, js_facts._line(controller[0]), prefix=_rooted(prefix),
                auth=Auth((*guards, Opaque())), app=True,
            )  # fmt: skip
            reader.routes += (replace(r, owner=RouterRef(site)) for r in routes)


def _global_prefix(reader: _Reader, root: _Node) -> None:
    """`app.setGlobalPrefix('api', { exclude: ['health'] })`: the prefix every controller
    is served under, but the paths `exclude` names (an exclude list other than strings,
    `{ path, method }` objects, is not read: the linker says so)."""
    for match in _GLOBAL_PREFIX.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        member = node.parent if node is not None else None
        call = member.parent if member is not None else None
        if call is None or call.type != "call_expression":
            continue
        args = reader._arguments(call)
        if not args:
            continue
        exclude: tuple[str, ...] | None = ()
        options = js_facts._unwrap(args[1]) if len(args) > 1 else None
        listed = reader._field(options, "exclude") if options is not None else None
        if options is not None and options.type != "object":
            exclude = None
        elif listed is not None:
            items = reader._array_items(listed)
            spelled = [reader._string(i) for i in items] if items is not None else [None]
            exclude = None if None in spelled else tuple(s for s in spelled if s is not None)
        prefix = reader._value(args[0]) or Opaque()
        reader.global_prefixes.append(GlobalPrefix(NESTJS, prefix, js_facts._line(call), exclude))


def _routes(reader: _Reader, decorators: list[_Node], handler: str) -> list[RouteDecl]:
    """The routes one controller method's decorators declare (owner set by the caller)."""
    found: list[RouteDecl] = []
    auth = Auth(_guards(reader, decorators))
    for decorator in decorators:
        verb = _decorator(reader, [decorator], set(_VERBS))
        if verb is None:
            continue
        spelled = _VERBS[_name(reader, decorator) or ""]
        methods = js_facts.ALL_METHODS if spelled == "*" else (spelled,)
        for path in _paths(reader, verb[1]):
            found.append(
                RouteDecl(None, _rooted(path) or Lit(""), methods, js_facts._line(decorator), handler,
                          auth=auth)
            )  # fmt: skip
    return found


def _name(reader: _Reader, decorator: _Node) -> str | None:
    """The `@nestjs/common` export a decorator calls (`@Get(...)`, aliases followed)."""
    call = decorator.named_children[0] if decorator.named_children else None
    if call is None or call.type != "call_expression":
        return None
    callee = js_facts._unwrap(call.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "identifier":
        return None
    bound = reader.bindings.get(reader._text(callee))
    if isinstance(bound, ImportRef) and bound.module == _COMMON:
        return bound.attr
    return None


def _decorator(
    reader: _Reader, decorators: list[_Node], names: set[str]
) -> tuple[_Node, list[_Node]] | None:
    """(the decorator, its call's arguments) of the first of `decorators` calling one of
    `names` from `@nestjs/common`."""
    for decorator in decorators:
        if _name(reader, decorator) in names:
            return decorator, reader._arguments(decorator.named_children[0])
    return None


def _paths(reader: _Reader, args: list[_Node]) -> list[Expr | None]:
    """A controller's or route's paths: none given is its parent's own (None), a string,
    each string of a list, the `path` of an options object; else as the linker evaluates
    it (a constant, or an `UNRESOLVED_*` finding)."""
    if not args:
        return [None]
    node = js_facts._unwrap(args[0]) or args[0]
    if node.type == "object":
        field = reader._field(node, "path")
        return _paths(reader, [field]) if field is not None else [None]
    if node.type == "array":
        return [reader._value(item) or Opaque() for item in node.named_children]
    return [reader._value(node) or Opaque()]


def _guards(reader: _Reader, decorators: list[_Node]) -> tuple[Expr, ...]:
    """What `@UseGuards(A, B)` among `decorators` names, each judged as a guard."""
    guards: list[Expr] = []
    for decorator in decorators:
        found = _decorator(reader, [decorator], {"UseGuards"})
        if found is not None:
            guards += (reader._guard(a) for a in found[1])
    return tuple(guards)


def _rooted(path: Expr | None) -> Expr | None:
    """A NestJS path as Nest serves it: `users` is `/users` (Nest adds the slash), `''` none."""
    if isinstance(path, Lit):
        return Lit("/" + path.value.strip("/")) if path.value.strip("/") else None
    return path
