"""NestJS routes of one TypeScript or JavaScript file: its decorated controllers, the
`@Module` classes that declare them, the module paths `RouterModule.register` gives, and the
global prefix and versioning `main.ts` sets. The libraries of the same shape (fastify-decorators,
routing-controllers, inversify-express-utils, Ts.ED) are read by the same code through their
records (`frameworks.Controllers`): their controller and route decorators, how they spell a
path, and the bootstraps that serve their controllers (`BootstrapDecl`).

Nest declares routes with decorators rather than calls, so its reading is its own: `js_facts`
reads a file's bindings and calls, then hands the tree here when the file names `@nestjs/`.
The functions take that file's reader and add to its routers, routes and global prefixes, and
return the module wiring (`NestFacts`) that `nest_link` joins across files.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from . import js_nodes, nest_config_service, nest_imports
from .frameworks import CONTROLLERS, Bootstrap, Framework
from .model import (
    NESTJS,
    Apply,
    Auth,
    BootstrapDecl,
    ConfigKey,
    Expr,
    GlobalPrefix,
    ImportRef,
    Lit,
    Namespace,
    NestFacts,
    Opaque,
    RouteDecl,
    RouterDecl,
    RouterRef,
    Sym,
    Versioning,
)

if TYPE_CHECKING:
    import tree_sitter

    from .js_facts import _Reader

    _Node = tree_sitter.Node

# NestJS: the package its decorators come from, its route decorators (`All`: every method)
_COMMON = "@nestjs/common"
_CORE = "@nestjs/core"
_CONFIG = "@nestjs/config"
_REGISTER_AS = re.compile(rb"\b(registerAs)\b")
_APPLY = re.compile(rb"\b(applyDecorators)\s*\(")
_CONFIG_GETS = frozenset({"get", "getOrThrow"})  # `ConfigService`'s readers of a key
_FALLBACKS = frozenset({"||", "??"})  # `process.env.X || 'api'`: the default when unset
_MAX_SETTING_DEPTH = 8
_GLOBAL_PREFIX = re.compile(rb"\.\s*(setGlobalPrefix)\s*\(")
_ENABLE_VERSIONING = re.compile(rb"\.\s*(enableVersioning)\s*\(")
_REGISTER = re.compile(rb"\.\s*(register)\s*\(")
_NEUTRAL = ImportRef(_COMMON, "VERSION_NEUTRAL")  # served with no version segment
_URI = "URI"  # `VersioningType.URI`, what `enableVersioning()` with no options is
_VERSION = "Version"
_MAX_CHILDREN_DEPTH = 16
_NEST = next(f for f in CONTROLLERS if f.key == NESTJS)
_VERBS = _NEST.controllers.verbs if _NEST.controllers is not None else {}
SEEDS = tuple(seed for f in CONTROLLERS for seed in f.seeds)  # a file `read` looks at holds one
_BOOT_WORDS = re.compile(
    rb"\b("
    + b"|".join(
        sorted({b.callee.encode() for f in CONTROLLERS if f.controllers
                for b in f.controllers.bootstraps})
    )
    + rb")\b"
)  # fmt: skip
_PATH_JOINS = frozenset({"join", "resolve"})  # `path.join(__dirname, 'x')`


def read(reader: _Reader, root: _Node) -> NestFacts | None:
    """The file's controllers, global prefixes and module wiring (the caller has seen
    `@nestjs/` in it); None when it has no wiring."""
    controllers: list[tuple[str, str]] = []
    templates: list[tuple[str, str]] = []
    bases: list[tuple[str, str, str, int]] = []
    decorated: list[tuple[str, str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None]] = []
    versioned: list[str] = []
    if any(seed in reader.source for seed in SEEDS) or b"extends" in reader.source:
        controllers, templates, bases, decorated, versioned = _controllers(reader, root)
    boots = _bootstraps(reader, root) if _BOOT_WORDS.search(reader.source) else []
    composed = _composed(reader, root) if b"applyDecorators" in reader.source else []
    if b"setGlobalPrefix" in reader.source:
        _global_prefix(reader, root)
    modules, unread = _modules(reader, root) if b"Module" in reader.source else ([], [])
    paths = _module_paths(reader, root) if b"RouterModule" in reader.source else []
    versioning = _versioning(reader, root) if b"enableVersioning" in reader.source else []
    config = _config(reader, root) if b"registerAs" in reader.source else []
    if nest_config_service.seeded(reader.source):
        config += nest_config_service.read(reader, root)
    imported = nest_imports.read(reader, root) if b"imports" in reader.source else ()
    if not (
        controllers
        or modules
        or paths
        or versioning
        or config
        or templates
        or bases
        or composed
        or boots
        or unread
        or imported
    ):
        return None
    return NestFacts(
        tuple(controllers),
        tuple(modules),
        tuple(paths),
        tuple(versioning),
        tuple(config),
        tuple(templates),
        tuple(bases),
        tuple(composed),
        tuple(decorated),
        tuple(versioned),
        tuple(boots),
        tuple(unread),
        imported,
    )


def _controllers(
    reader: _Reader, root: _Node
) -> tuple[
    list[tuple[str, str]],
    list[tuple[str, str]],
    list[tuple[str, str, str, int]],
    list[tuple[str, str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None]],
    list[str],
]:
    """Each `@Controller(prefix)` class: one application per prefix it is served under
    (a string, `{ path }`, a list), its `@Get(path)`/`@Post`/.../`@All` methods the routes.
    `@UseGuards(...)` on the class or a method is what guards; guards set elsewhere (a
    global `APP_GUARD`, `useGlobalGuards`) are not read, so an `Opaque` step on every
    controller keeps a route without its own guard `unknown`, never `none`. A method's
    `@Version` or else the controller's `version` are the versions it is served under.
    A class that is no controller but declares routes (a base class controllers extend) is a
    router of its own that no prefix serves: `nest_link` mounts it on each controller that
    extends it, as Nest serves inherited handlers under the subclass's prefix.
    Returns (router id, class name) of each application and of each such base, (class,
    base class, the module a base is imported from, line) of each class that extends one, the
    other decorators of each route method, and the methods with a `@Version` of their own."""
    found_controllers: list[tuple[str, str]] = []
    templates: list[tuple[str, str]] = []
    bases: list[tuple[str, str, str, int]] = []
    decorated: list[tuple[str, str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None]] = []
    versioned: list[str] = []
    for cls, decorators in _top_level_classes(reader, root):
        library, controller = _controller(reader, decorators)
        body = cls.child_by_field_id(reader.fields.body)
        name = reader._text(cls.child_by_field_id(reader.fields.name)) or "controller"
        base = _base(reader, cls)
        if base is not None:
            bases.append((name, *base, js_nodes.line_of(cls)))
        _guard_class(reader, cls, name)
        if body is None:
            continue
        guards = _guards(reader, decorators)
        options = js_nodes.unwrap(controller[1][0]) if controller and controller[1] else None
        declared = reader._field(options, "version") if options is not None else None
        if options is None or options.type != "object":
            declared = None
        versions = _versions(reader, declared) if declared is not None else None
        routes: list[RouteDecl] = []
        others: list[tuple[str, tuple[Expr, ...], int, str, tuple[Expr, ...] | None]] = []
        pending: list[_Node] = []
        for member in body.named_children:
            if member.type == "decorator":
                pending.append(member)
                continue
            if member.type == "comment":  # a decorator commented out between the others
                continue
            if member.type == "method_definition":
                # TypeScript's decorators precede the method; JavaScript's are inside it
                pending += (c for c in member.named_children if c.type == "decorator")
                method = reader._text(member.child_by_field_id(reader.fields.name))
                found, spelled_by = _routes(reader, pending, f"{name}.{method}")
                library = library or spelled_by
                own = _decorator(reader, pending, {"Version"})
                served = _versions(reader, own[1][0]) if own and own[1] else versions
                if own and own[1]:
                    versioned.append(f"{name}.{method}")
                if served is not None:
                    found = [replace(r, versions=served) for r in found]
                routes += found
                others += (
                    (*use, f"{name}.{method}", served) for use in _other_decorators(reader, pending)
                )
            pending = []
        key = library.key if library is not None else NESTJS
        if controller is None:
            if routes or others:
                site = f"{js_nodes.site_of(cls)}:base"
                reader.routers[site] = RouterDecl(site, key, js_nodes.line_of(cls))
                reader.routes += (replace(r, owner=RouterRef(site)) for r in routes)
                templates.append((site, name))
                decorated += ((site, *use) for use in others)
            continue
        for index, prefix in enumerate(_paths(reader, controller[1], library)):
            site = f"{js_nodes.site_of(cls)}:controller:{index}"
            reader.routers[site] = RouterDecl(
                site, key, js_nodes.line_of(controller[0]), prefix=_rooted(prefix, library),
                auth=Auth((*guards, Opaque())), app=True,
            )  # fmt: skip
            reader.routes += (replace(r, owner=RouterRef(site)) for r in routes)
            found_controllers.append((site, name))
            decorated += ((site, *use) for use in others)
    return found_controllers, templates, bases, decorated, versioned


def _other_decorators(
    reader: _Reader, decorators: list[_Node]
) -> list[tuple[str, tuple[Expr, ...], int]]:
    """The calls among a method's decorators that are no `@nestjs/` export (`@ListAt('x')`):
    (the name it is exported under, its arguments, line), for `nest_link` to match with the
    decorators the project composes with `applyDecorators`."""
    found: list[tuple[str, tuple[Expr, ...], int]] = []
    for decorator in decorators:
        call = decorator.named_children[0] if decorator.named_children else None
        if call is None or call.type != "call_expression":
            continue
        callee = js_nodes.unwrap(call.child_by_field_id(reader.fields.function))
        if callee is None or callee.type != "identifier":
            continue
        bound = reader.bindings.get(reader._text(callee))
        if isinstance(bound, ImportRef) and (
            bound.module.startswith("@nestjs/") or _library(bound.module) is not None
        ):
            continue
        name = _class_name(reader, callee)
        if name:
            args = tuple(reader._value(a) or Opaque() for a in reader._arguments(call))
            found.append((name, args, js_nodes.line_of(decorator)))
    return found


def _composed(
    reader: _Reader, root: _Node
) -> list[tuple[str, tuple[tuple[str, Expr | int | None], ...]]]:
    """Functions of the file that return `applyDecorators(Get(path), ...)` (from
    `@nestjs/common`): each with the route decorators it applies, a path given as a
    parameter kept as that parameter's index (the caller's argument is the path), and the
    `Version(v)` it applies (the version of the method it decorates), kept the same way."""
    found: list[tuple[str, tuple[tuple[str, Expr | int | None], ...]]] = []
    for match in _APPLY.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        call = node.parent if node is not None else None
        if node is None or call is None or call.type != "call_expression":
            continue
        bound = reader.bindings.get(reader._text(node))
        if not _common(bound):
            continue
        function = call.parent
        while function is not None and function.type not in js_nodes.FUNCTIONS:
            function = function.parent
        if function is None:
            continue
        named = function.child_by_field_id(reader.fields.name)
        if named is None and function.parent is not None:
            named = function.parent.child_by_field_id(reader.fields.name)  # `const X = () =>`
        parameters = function.child_by_field_id(reader.fields.parameters)
        params = [
            reader._text(p).split(":")[0].split("=")[0].strip("?. ")
            for p in (parameters.named_children if parameters is not None else [])
        ]
        verbs: list[tuple[str, Expr | int | None]] = []
        for arg in reader._arguments(call):
            arg = js_nodes.unwrap(arg) or arg
            if arg.type != "call_expression":
                continue
            callee = js_nodes.unwrap(arg.child_by_field_id(reader.fields.function))
            spelled = reader.bindings.get(reader._text(callee)) if callee is not None else None
            if not (
                isinstance(spelled, ImportRef)
                and _common(spelled)
                and (spelled.attr in _VERBS or spelled.attr == _VERSION)
            ):
                continue
            given = reader._arguments(arg)
            if spelled.attr == _VERSION:  # `Version(v)`: the version of the methods it decorates
                first = (js_nodes.unwrap(given[0]) or given[0]) if given else None
                if first is not None:
                    text = reader._text(first)
                    passed = first.type == "identifier" and text in params
                    version = params.index(text) if passed else _version(reader, first)
                    verbs.append((_VERSION, version))
                continue
            path: Expr | int | None = None
            if given:
                first = js_nodes.unwrap(given[0]) or given[0]
                text = reader._text(first)
                path = (
                    params.index(text)
                    if first.type == "identifier" and text in params
                    else _rooted(reader._value(first) or Opaque()) or Lit("")
                )
            verbs.append((spelled.attr or "", path))
        if named is not None and verbs:
            found.append((reader._text(named), tuple(verbs)))
    return found


def _bootstraps(reader: _Reader, root: _Node) -> list[BootstrapDecl]:
    """Each call (or class decorator) that serves a controller library's classes, as its
    record's `Bootstrap`s spell them: `useExpressServer(app, { routePrefix, controllers })`,
    `new InversifyExpressServer(c, null, { rootPath })`, `app.register(bootstrap, { prefix,
    directory, mask })`, `@Configuration({ mount: { '/rest': [...] } })`; the callee must be
    the library's own export (aliases followed)."""
    found: list[BootstrapDecl] = []
    direct: dict[str, tuple[Framework, Bootstrap]] = {}  # local name -> what it calls
    spaces: dict[str, Framework] = {}  # `import * as rc from 'routing-controllers'`
    for local, bound in reader.bindings.items():
        library = _library(bound.module) if isinstance(bound, ImportRef) else None
        if library is None or library.controllers is None or not isinstance(bound, ImportRef):
            continue
        for spec in library.controllers.bootstraps:
            if bound.attr == spec.callee:
                direct[local] = (library, spec)
        if bound.attr in {None, "default"}:
            spaces[local] = library
    if not direct and not spaces:
        return found
    words = re.compile(
        rb"\b(" + b"|".join(re.escape(w.encode()) for w in (*direct, *spaces)) + rb")\b"
    )
    for match in words.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        if node is None or node.type != "identifier":
            continue
        text = reader._text(node)
        if text in direct:
            framework, spec = direct[text]
        else:  # `rc.useExpressServer(...)`: the member of the namespace
            member = node.parent
            if member is None or member.type != "member_expression":
                continue
            prop = reader._text(member.child_by_field_id(reader.fields.property))
            specs = spaces[text].controllers
            chosen = [b for b in (specs.bootstraps if specs else ()) if b.callee == prop]
            if not chosen or member.child_by_field_id(reader.fields.object) != node:
                continue
            framework, spec, node = spaces[text], chosen[0], member
        call = node.parent
        if spec.kind == "register":  # `app.register(bootstrap, {...})`: the plugin argument
            call = call.parent if call is not None and call.type == "arguments" else None
            callee = call.child_by_field_id(reader.fields.function) if call is not None else None
            if callee is None or callee.type != "member_expression":
                continue
            if reader._text(callee.child_by_field_id(reader.fields.property)) != "register":
                continue
        elif spec.kind == "new":
            if call is None or call.type != "new_expression":
                continue
        elif call is None or call.type != "call_expression":
            continue
        if call is None:
            continue
        if spec.kind == "decorator" and (call.parent is None or call.parent.type != "decorator"):
            continue
        listed = call.child_by_field_id(reader.fields.arguments)
        if spec.kind == "new":
            args = [c for c in listed.named_children if c.type != "comment"] if listed else []
        else:
            args = reader._arguments(call)
        line = js_nodes.line_of(call)
        given = args[spec.options] if len(args) > spec.options else None
        boots = _bootstrap(reader, framework, spec, given, line)
        if given is not None and len(boots) == 1 and _spelled_options(reader, given) is None:
            # options the call does not spell: the value the linker follows, per caller
            value = reader._value(js_nodes.unwrap(given) or given)
            value = value if value is not None else _setting(reader, given)
            scope = reader._enclosing(call)
            boots = [replace(boots[0], options=value, scope=scope, callee=spec.callee)]
        found += boots
    return found


def _bootstrap(
    reader: _Reader, framework: Framework, spec: Bootstrap, given: _Node | None, line: int
) -> list[BootstrapDecl]:
    key = framework.key
    if given is None:  # no options: no prefix, every controller where the library says so
        every = spec.unlisted or (
            spec.controllers is None and spec.directory is None and spec.mount is None
        )
        unread = "" if every else f"the {framework.name} bootstrap here lists no controllers"
        return [BootstrapDecl(key, line, every=every, unread=unread)]
    options = _spelled_options(reader, given)
    if options is None:
        detail = f"the options of the {framework.name} bootstrap here are not read"
        return [BootstrapDecl(key, line, unread=detail)]
    if spec.mount is not None:  # `mount: { '/rest': [...], '/v2': '${rootDir}/v2/*.ts' }`
        mount = js_nodes.unwrap(reader._field(options, spec.mount))
        if mount is None:
            return []
        if mount.type != "object" or any(c.type != "pair" for c in mount.named_children
                                         if c.type != "comment"):  # fmt: skip
            detail = f"the `{spec.mount}` of the {framework.name} configuration here is not read"
            return [BootstrapDecl(key, line, unread=detail)]
        found: list[BootstrapDecl] = []
        for pair in mount.named_children:
            if pair.type != "pair":
                continue
            name = pair.child_by_field_id(reader.fields.key)
            prefix = reader._value(name) if name is not None and name.type != "property_identifier" \
                else Lit(reader._text(name))  # fmt: skip
            value = pair.child_by_field_id(reader.fields.value)
            if value is None:
                continue
            found.append(_listing(reader, key, line, prefix or Opaque(), value, framework.name))
        return found
    prefix_node = reader._field(options, spec.prefix) if spec.prefix else None
    prefix = _setting(reader, prefix_node) if prefix_node is not None else None
    if spec.directory is not None:
        folder = reader._field(options, spec.directory)
        if folder is not None:
            where = _glob(reader, folder)
            mask_node = js_nodes.unwrap(reader._field(options, spec.mask or ""))
            mask: str | None = spec.default_mask
            if mask_node is not None:
                mask = _pattern(reader, mask_node)
            if where is None or mask is None:
                detail = (
                    f"the folder or mask of the {framework.name} bootstrap here is computed: "
                    "the controllers it serves are not known"
                )
                return [BootstrapDecl(key, line, prefix, unread=detail)]
            return [BootstrapDecl(key, line, prefix, directory=where, mask=mask)]
    listed = reader._field(options, spec.controllers) if spec.controllers else None
    if listed is None:
        every = spec.unlisted or spec.controllers is None
        unread = "" if every else f"the {framework.name} bootstrap here lists no controllers"
        return [BootstrapDecl(key, line, prefix, every=every, unread=unread)]
    return [_listing(reader, key, line, prefix, listed, framework.name)]


def _listing(
    reader: _Reader, key: str, line: int, prefix: Expr | None, listed: _Node, name: str
) -> BootstrapDecl:
    """The controllers a bootstrap lists: classes, file globs, or a list of both."""
    node = js_nodes.unwrap(listed) or listed
    items = _listed(reader, node) if node.type in {"array", "identifier"} else [node]
    classes: list[str] = []
    globs: list[str] = []
    for item in items or []:
        item = js_nodes.unwrap(item) or item
        if item.type == "identifier" and _glob(reader, item) is None:
            classes.append(_class_name(reader, item) or reader._text(item))
            continue
        glob = _glob(reader, item)
        if glob is None:
            detail = f"a controller the {name} bootstrap here lists is computed: not read"
            return BootstrapDecl(key, line, prefix, unread=detail)
        globs.append(glob)
    if items is None:
        detail = f"the controllers the {name} bootstrap here lists are not read"
        return BootstrapDecl(key, line, prefix, unread=detail)
    return BootstrapDecl(key, line, prefix, tuple(classes), tuple(globs))


def _glob(reader: _Reader, node: _Node, depth: int = 0) -> str | None:
    """A file path or glob as written: `'src/**/*.ts'` (from the app's folder),
    `__dirname + '/c/*.ts'`, `` `${__dirname}/c/*.ts` ``, `path.join(__dirname, 'c', '*.ts')`,
    `new URL('c', import.meta.url)` (`./`-led: from the file's folder); a `const` of the file
    holding one followed. None for anything else."""
    node = js_nodes.unwrap(node) or node
    if depth > _MAX_SETTING_DEPTH:
        return None
    kind = node.type
    if kind == "string":
        return reader._string(node)
    if kind == "identifier":
        text = reader._text(node)
        if text == "__dirname":
            return "."
        value = _local_value(reader, node)
        return _glob(reader, value, depth + 1) if value is not None else None
    if kind == "member_expression" and reader._text(node) == "import.meta.dirname":
        return "."
    if kind == "template_string":
        return reader._template_text(node, lambda inner: _glob(reader, inner, depth + 1))
    if kind == "binary_expression":
        if reader._text(node.child_by_field_id(reader.fields.operator)) != "+":
            return None
        left = node.child_by_field_id(reader.fields.left)
        right = node.child_by_field_id(reader.fields.right)
        a = _glob(reader, left, depth + 1) if left is not None else None
        b = _glob(reader, right, depth + 1) if right is not None else None
        return a + b if a is not None and b is not None else None
    if kind == "call_expression":
        callee = node.child_by_field_id(reader.fields.function)
        name = reader._text(callee).rpartition(".")[2] if callee is not None else ""
        if name not in _PATH_JOINS:
            return None
        pieces = [_glob(reader, a, depth + 1) for a in reader._arguments(node)]
        if not pieces or any(p is None for p in pieces):
            return None
        return "/".join(p.strip("/") if i else p.rstrip("/") for i, p in enumerate(pieces) if p)
    if kind == "new_expression":  # `new URL('controllers', import.meta.url)`
        callee = node.child_by_field_id(reader.fields.constructor)
        args = node.child_by_field_id(reader.fields.arguments)
        given = [a for a in args.named_children if a.type != "comment"] if args else []
        if reader._text(callee) != "URL" or len(given) != 2:
            return None
        if reader._text(given[1]) != "import.meta.url":
            return None
        first = _glob(reader, given[0], depth + 1)
        return None if first is None else "./" + first.removeprefix("./")
    return None


def _pattern(reader: _Reader, node: _Node) -> str | None:
    """A mask as a Python regex: a regex literal's pattern (no flags but `i`), a string's text."""
    if node.type == "string":
        value = reader._string(node)
        return re.escape(value) if value is not None else None
    if node.type != "regex":
        return None
    pattern = next((c for c in node.named_children if c.type == "regex_pattern"), None)
    flags = next((reader._text(c) for c in node.named_children if c.type == "regex_flags"), "")
    if pattern is None or set(flags) - {"i", "g"}:
        return None
    return ("(?i)" if "i" in flags else "") + reader._text(pattern)


def _guard_class(reader: _Reader, cls: _Node, name: str) -> None:
    """`class JwtGuard extends AuthGuard('jwt') {}`: a guard class with no method of its own
    guards as what it extends does, so its name is bound to that (`@UseGuards(JwtGuard)`)."""
    heritage = next((c for c in cls.named_children if c.type == "class_heritage"), None)
    bound = reader.bindings.get(name)
    if heritage is None or not heritage.named_children:
        return
    if bound is not None and not (isinstance(bound, Namespace) and not bound.fields):
        return  # a class with methods of its own: judged by them
    clause = heritage.named_children[0]
    value = (
        clause.child_by_field_id(reader.fields.value) if clause.type == "extends_clause" else clause
    )
    if value is not None and value.type == "call_expression":
        reader.bindings[name] = reader._guard(value)


def _base(reader: _Reader, cls: _Node) -> tuple[str, str] | None:
    """(the class `cls` extends, by the name it is exported under; the module it is imported
    from, "" for one of this file) when it extends a named class."""
    heritage = next((c for c in cls.named_children if c.type == "class_heritage"), None)
    if heritage is None or not heritage.named_children:
        return None
    clause = heritage.named_children[0]
    value = (
        clause.child_by_field_id(reader.fields.value) if clause.type == "extends_clause" else clause
    )
    if value is None or value.type != "identifier":
        return None
    text = reader._text(value)
    bound = reader.bindings.get(text)
    if isinstance(bound, ImportRef):
        return (bound.attr if bound.attr not in {None, "default"} else text) or text, bound.module
    return text, ""


def _global_prefix(reader: _Reader, root: _Node) -> None:
    """`app.setGlobalPrefix('api', { exclude: ['health'] })`: the prefix every controller
    is served under, but the paths `exclude` names (its strings; an entry of another kind, a
    `{ path, method }` object, a computed string, a spread, is not read: the linker says so)."""
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
        options = js_nodes.unwrap(args[1]) if len(args) > 1 else None
        listed = reader._field(options, "exclude") if options is not None else None
        if options is not None and options.type != "object":
            exclude = None
        partly = False
        if options is not None and options.type != "object":
            exclude = None
        elif listed is not None:
            array = js_nodes.unwrap(listed)
            if array is not None and array.type == "identifier":
                array = reader.arrays.get(reader._text(array))
            if array is None or array.type != "array":
                exclude = None
            else:  # the strings it lists are read; anything else is a part not read
                items = [c for c in array.named_children if c.type != "comment"]
                spelled = [reader._string(i) if i.type == "string" else None for i in items]
                exclude = tuple(s for s in spelled if s is not None)
                partly = None in spelled
        prefix = _setting(reader, args[0])
        reader.global_prefixes.append(
            GlobalPrefix(
                NESTJS, prefix, js_nodes.line_of(call), exclude, partly, reader._branch(call)
            )
        )


def _versions(reader: _Reader, node: _Node) -> tuple[Expr, ...]:
    """`'1'`, `['1', '2']`, `VERSION_NEUTRAL` (no segment): each version, as the linker will
    evaluate it (a constant, or a gap)."""
    node = js_nodes.unwrap(node) or node
    items = node.named_children if node.type == "array" else [node]
    return tuple(_version(reader, item) for item in items)


def _version(reader: _Reader, node: _Node) -> Expr:
    bound = reader.bindings.get(reader._text(node)) if node.type == "identifier" else None
    if isinstance(bound, ImportRef) and _common(bound):
        return _NEUTRAL if bound.attr == "VERSION_NEUTRAL" else Opaque()
    return _setting(reader, node)


def _setting(reader: _Reader, node: _Node, depth: int = 0) -> Expr:
    """A value `main.ts` passes Nest: a constant as the linker evaluates it, a
    `configService.get('app.apiPrefix')` as that configuration key (`ConfigKey`), a local
    `const prefix = configService.get(...)` followed to its value."""
    node = js_nodes.unwrap(node) or node
    if depth < _MAX_SETTING_DEPTH and node.type == "identifier":
        value = _local_value(reader, node)
        if value is not None:
            return _setting(reader, value, depth + 1)
        taken = _destructured(reader, node)
        if taken is not None:  # `const { prefix } = configService.get('app')`: key `app.prefix`
            whole = _setting(reader, taken[0], depth + 1)
            if isinstance(whole, ConfigKey):
                return ConfigKey(f"{whole.key}.{taken[1]}")
    if node.type == "member_expression" and depth < _MAX_SETTING_DEPTH:
        served = _service_member(reader, node, depth)
        if served is not None:  # `app.get(AppConfig).http.prefix`: the service's getter
            return served
    fallback = _env_default(reader, node)
    if fallback is not None and depth < _MAX_SETTING_DEPTH:
        return _setting(reader, fallback, depth + 1)
    if node.type == "call_expression":
        callee = node.child_by_field_id(reader.fields.function)
        args = reader._arguments(node)
        if (
            callee is not None
            and callee.type == "member_expression"
            and reader._text(callee.child_by_field_id(reader.fields.property)) in _CONFIG_GETS
            and args
        ):
            key = reader._string(js_nodes.unwrap(args[0]))
            if key is not None:  # `get('API_PREFIX', '/api')`: the default Nest falls back to
                default = _setting(reader, args[1], depth + 1) if len(args) > 1 else None
                owner = callee.child_by_field_id(reader.fields.object)
                token = _string_token(reader, owner) if owner is not None else ""
                return ConfigKey(key, default=default, token=token)
        if (
            callee is not None
            and callee.type == "identifier"
            and reader._text(callee) in reader.bindings
        ):
            # `env('API_PREFIX', 'api')`: a reader of the project's, followed once linked
            return Apply(
                Sym((reader._text(callee),)), tuple(reader._value(a) or Opaque() for a in args), ()
            )
    return reader._value(node) or Opaque()


def _string_token(reader: _Reader, node: _Node) -> str:
    """`app.get('ConfigService')` (or a local `const` holding it): the string token the
    provider is fetched by; "" for anything else."""
    node = js_nodes.unwrap(node) or node
    if node.type == "identifier":
        value = _local_value(reader, node)
        node = (js_nodes.unwrap(value) or value) if value is not None else node
    argument = _get_argument(reader, node)
    return reader._string(js_nodes.unwrap(argument)) or "" if argument is not None else ""


def _get_argument(reader: _Reader, node: _Node) -> _Node | None:
    """The one argument of `x.get(arg)` (a provider fetched from the app: `app.get(Cls)`,
    `app.get('Cls')`); None for any other node."""
    if node.type != "call_expression":
        return None
    callee = node.child_by_field_id(reader.fields.function)
    args = reader._arguments(node)
    if (
        callee is None
        or callee.type != "member_expression"
        or reader._text(callee.child_by_field_id(reader.fields.property)) != "get"
        or len(args) != 1
    ):
        return None
    return args[0]


def _service_member(reader: _Reader, node: _Node, depth: int) -> ConfigKey | None:
    """`service.getter.member`, `service` a local `const` holding `app.get(Class)` (the class
    imported or the file's): the key `@Class.getter.member` a configuration service of the
    project's records (`nest_config_service`)."""
    members: list[str] = []
    while node.type == "member_expression":
        members.append(reader._text(node.child_by_field_id(reader.fields.property)))
        inner = js_nodes.unwrap(node.child_by_field_id(reader.fields.object))
        if inner is None:
            return None
        node = inner
    if node.type != "identifier" or not members:
        return None
    value = _local_value(reader, node)
    value = js_nodes.unwrap(value) if value is not None else None
    if value is None or depth >= _MAX_SETTING_DEPTH:
        return None
    argument = _get_argument(reader, value)
    if argument is None or argument.type not in {"identifier", "string"}:
        return None
    token = reader._string(argument) or "" if argument.type == "string" else ""
    name = token or reader._text(argument)  # `app.get('AppSettings')`: the class of that name
    bound = reader.bindings.get(name) if not token else None
    if isinstance(bound, ImportRef) and bound.attr not in {None, "default"}:
        name = bound.attr or name
    key = ".".join((f"{nest_config_service.SERVICE_KEY}{name}", *reversed(members)))
    return ConfigKey(key, token=token)


def _env_default(reader: _Reader, node: _Node) -> _Node | None:
    """`process.env.PREFIX || 'api'` (or `??`): the default, what Nest is given when the
    variable is unset."""
    if node.type != "binary_expression":
        return None
    if reader._text(node.child_by_field_id(reader.fields.operator)) not in _FALLBACKS:
        return None
    left = node.child_by_field_id(reader.fields.left)
    if left is None or not reader._text(left).startswith("process.env"):
        return None
    return node.child_by_field_id(reader.fields.right)


def _declarators_before(reader: _Reader, name: _Node) -> Iterator[_Node]:
    """The `const`/`let`/`var` declarators of the blocks around `name` declared before it,
    innermost block first (`export const` too)."""
    scope = name.parent
    while scope is not None:
        if scope.type in {"statement_block", "program"}:
            for statement in scope.named_children:
                if statement.start_byte >= name.start_byte:
                    break
                if statement.type == "export_statement":  # `export const token = 'app'`
                    statement = statement.child_by_field_id(reader.fields.declaration) or statement
                if statement.type in {"lexical_declaration", "variable_declaration"}:
                    yield from statement.named_children
        scope = scope.parent


def _local_value(reader: _Reader, name: _Node) -> _Node | None:
    """The value of the `const` that `name` refers to in a block around it (a function's
    local: `const globalPrefix = configService.get(...)`), declared before it."""
    text = reader._text(name)
    for declarator in _declarators_before(reader, name):
        target = declarator.child_by_field_id(reader.fields.name)
        if target is not None and reader._text(target) == text:
            return declarator.child_by_field_id(reader.fields.value)
    return None


def _destructured(reader: _Reader, name: _Node) -> tuple[_Node, str] | None:
    """`const { port, prefix: base } = value` in a block around `name`, declared before it:
    (value, the property `name` takes: `prefix` for `base`)."""
    text = reader._text(name)
    for declarator in _declarators_before(reader, name):
        target = declarator.child_by_field_id(reader.fields.name)
        value = declarator.child_by_field_id(reader.fields.value)
        if target is None or value is None or target.type != "object_pattern":
            continue
        for part in target.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                if reader._text(part) == text:
                    return value, text
            elif part.type == "pair_pattern":
                key = part.child_by_field_id(reader.fields.key)
                bound = part.child_by_field_id(reader.fields.value)
                if bound is not None and reader._text(bound) == text and key:
                    return value, reader._text(key)
    return None


def _config(reader: _Reader, root: _Node) -> list[tuple[str, Expr]]:
    """`registerAs('app', () => ({ apiPrefix: 'api', version: { prefix: 'v' } }))` (from
    `@nestjs/config`, an arrow returning an object, or a function body's `return {...}`):
    each key as `ConfigService.get` names it (`app.version.prefix`) with its value;
    `process.env.X || 'api'` is its default, what Nest is given when X is unset."""
    found: list[tuple[str, Expr]] = []
    for match in _REGISTER_AS.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        call = node.parent if node is not None else None
        if call is None or call.type != "call_expression" or node is None:
            continue
        bound = reader.bindings.get(reader._text(node))
        if not (isinstance(bound, ImportRef) and bound.module == _CONFIG):
            continue
        args = reader._arguments(call)
        namespace = _namespace(reader, args[0]) if len(args) > 1 else None
        factory = js_nodes.unwrap(args[1]) if namespace is not None else None
        if namespace is None or factory is None or factory.type not in js_nodes.FUNCTION_VALUES:
            continue
        body = js_nodes.unwrap(factory.child_by_field_id(reader.fields.body))
        if body is not None and body.type == "statement_block":
            returned = [c for c in body.named_children if c.type == "return_statement"]
            body = (
                returned[-1].named_children[0] if returned and returned[-1].named_children else None
            )
            body = js_nodes.unwrap(body)
        if body is not None and body.type == "object":
            _flatten(reader, body, namespace, found, 0)
    return found


def _namespace(reader: _Reader, node: _Node) -> str | None:
    """`registerAs`'s namespace: a string, or a constant of the file that holds one
    (`const appToken = 'app'`)."""
    found: _Node | None = js_nodes.unwrap(node) or node
    if found is not None and found.type == "identifier":
        value = _local_value(reader, found)
        found = js_nodes.unwrap(value) if value is not None else found
    return reader._string(found) if found is not None and found.type == "string" else None


def _flatten(
    reader: _Reader, obj: _Node, prefix: str, found: list[tuple[str, Expr]], depth: int
) -> None:
    if depth > _MAX_SETTING_DEPTH:
        return
    for pair in obj.named_children:
        if pair.type == "shorthand_property_identifier":  # `{ prefix }`: the local's value
            value = _local_value(reader, pair)
            if value is not None:
                found.append((f"{prefix}.{reader._text(pair)}", _setting(reader, value)))
            continue
        if pair.type != "pair":
            continue
        key_node = pair.child_by_field_id(reader.fields.key)
        value = js_nodes.unwrap(pair.child_by_field_id(reader.fields.value))
        key = (
            reader._string(key_node) if key_node is not None and key_node.type == "string" else None
        )
        key = key if key is not None else reader._text(key_node)
        if value is None or not key:
            continue
        if value.type == "object":
            _flatten(reader, value, f"{prefix}.{key}", found, depth + 1)
            continue
        found.append((f"{prefix}.{key}", _setting(reader, value)))


def _versioning(reader: _Reader, root: _Node) -> list[Versioning]:
    """`app.enableVersioning({ type: VersioningType.URI, defaultVersion, prefix })`, as Nest
    reads its `VersioningOptions`: no options at all is `{ type: VersioningType.URI }` (the
    default of `NestApplication.enableVersioning`); no `type` is no URI versioning, so nothing
    in the path; the segment's prefix is `v` unless given (`false` none). Options kept in a
    `const` of the file are read as if written in the call; any others (a constant of another
    file, an object spreading one, a helper's result) are the value the linker follows."""
    found: list[Versioning] = []
    for match in _ENABLE_VERSIONING.finditer(reader.source):
        call = _call_at(root, match.start(1), match.end(1))
        if call is None:
            continue
        line = js_nodes.line_of(call)
        args = reader._arguments(call)
        only_if = reader._branch(call)  # `if (process.env.VERSIONED) app.enableVersioning()`
        if not args:
            found.append(Versioning(NESTJS, line, Lit(_URI), only_if=only_if))
            continue
        options = _spelled_options(reader, args[0])
        if options is None:
            given = _setting(reader, args[0])
            found.append(Versioning(NESTJS, line, Opaque(), None, Opaque(), given, only_if))
            continue
        kind_node = reader._field(options, "type")
        kind = _setting(reader, kind_node) if kind_node is not None else Lit("")
        default = reader._field(options, "defaultVersion")
        prefix_node = js_nodes.unwrap(reader._field(options, "prefix"))
        prefix: Expr = Lit("v")
        if prefix_node is not None:
            prefix = Lit("") if prefix_node.type == "false" else _setting(reader, prefix_node)
        versions = _versions(reader, default) if default is not None else ()
        found.append(Versioning(NESTJS, line, kind, versions, prefix, only_if=only_if))
    return found


def _spelled_options(reader: _Reader, node: _Node) -> _Node | None:
    """The object literal of a call's options: written there, or the value of a `const` of the
    file it names (`const options = { ... } as const`); None when it is neither or spreads
    another object (the linker then follows the value)."""
    found = js_nodes.unwrap(node) or node
    if found.type == "identifier":
        value = _local_value(reader, found)
        found = (js_nodes.unwrap(value) or value) if value is not None else found
    if found.type != "object" or any(c.type == "spread_element" for c in found.named_children):
        return None
    return found


def _top_level_classes(reader: _Reader, root: _Node) -> Iterator[tuple[_Node, list[_Node]]]:
    """Each class declared at the top of the file (exported or not), with its decorators
    (written before `export` or after it)."""
    for statement in root.named_children:
        decorators = [c for c in statement.named_children if c.type == "decorator"]
        cls = statement
        if statement.type == "export_statement":
            cls = statement.child_by_field_id(reader.fields.declaration) or statement
        if cls.type not in {"class_declaration", "abstract_class_declaration", "class"}:
            continue
        decorators += [c for c in cls.named_children if c.type == "decorator"]
        yield cls, decorators


def _modules(
    reader: _Reader, root: _Node
) -> tuple[list[tuple[str, tuple[str, ...], int]], list[tuple[str, int]]]:
    """Each `@Module({ controllers: [A, B] })` class: its name and its controllers' class
    names (an imported one by the name it is exported under; a list of the file spread in)
    and its line; and, apart, each whose `controllers` is no list the file spells (an imported array), with
    its line: a RouterModule path given to it cannot be put on the controllers it serves."""
    found: list[tuple[str, tuple[str, ...], int]] = []
    unread: list[tuple[str, int]] = []
    for cls, decorators in _top_level_classes(reader, root):
        module = _decorator(reader, decorators, {"Module"})
        options = js_nodes.unwrap(module[1][0]) if module and module[1] else None
        if options is None or options.type != "object":
            continue
        name = reader._text(cls.child_by_field_id(reader.fields.name))
        given = reader._field(options, "controllers")
        listed = _listed(reader, given)
        if given is not None and listed is None:
            unread.append((name, js_nodes.line_of(cls)))
        names = tuple(n for n in (_class_name(reader, i) for i in listed or ()) if n)
        found.append((name, names, js_nodes.line_of(cls)))
    return found, unread


def _module_paths(reader: _Reader, root: _Node) -> list[tuple[str, tuple[Expr, ...], int]]:
    """`RouterModule.register([{ path, module, children }])` (from `@nestjs/core`, aliases
    followed; the list written there or a constant of the file): each module's path parts,
    its parents' first. A child given as a bare module class is served at its parent's path."""
    found: list[tuple[str, tuple[Expr, ...], int]] = []
    for match in _REGISTER.finditer(reader.source):
        call = _call_at(root, match.start(1), match.end(1))
        if call is None:
            continue
        member = call.child_by_field_id(reader.fields.function)
        holder = member.child_by_field_id(reader.fields.object) if member is not None else None
        bound = reader.bindings.get(reader._text(holder)) if holder is not None else None
        if not (isinstance(bound, ImportRef) and bound.module == _CORE):
            continue
        if bound.attr != "RouterModule":
            continue
        args = reader._arguments(call)
        items = _listed(reader, args[0]) if args else None
        _route_entries(reader, items or [], (), js_nodes.line_of(call), found, 0)
    return found


def _route_entries(
    reader: _Reader,
    items: list[_Node],
    parents: tuple[Expr, ...],
    line: int,
    found: list[tuple[str, tuple[Expr, ...], int]],
    depth: int,
) -> None:
    if depth > _MAX_CHILDREN_DEPTH:
        return
    for item in items:
        item = js_nodes.unwrap(item) or item
        if item.type != "object":
            name = _class_name(reader, item)
            if name:
                found.append((name, parents, line))
            continue
        given = reader._field(item, "path")
        parts = (*parents, (reader._value(given) or Opaque()) if given is not None else Lit(""))
        module = reader._field(item, "module")
        name = _class_name(reader, module) if module is not None else None
        if name:
            found.append((name, parts, js_nodes.line_of(item)))
        children = _listed(reader, reader._field(item, "children"))
        _route_entries(reader, children or [], parts, js_nodes.line_of(item), found, depth + 1)


def _listed(reader: _Reader, node: _Node | None, depth: int = 0) -> list[_Node] | None:
    """A list's items (the list written there or a top-level `const` of the file) with each
    `...members` spread in place when `members` is such a list too (`children: [...modules]`);
    None when it is no list the file spells or a spread is not."""
    node = js_nodes.unwrap(node)
    if node is not None and node.type in _NAMES:  # `controllers: list` or `{ controllers }`
        node = reader.arrays.get(reader._text(node))
    if node is None or node.type != "array" or depth > _MAX_CHILDREN_DEPTH:
        return None
    found: list[_Node] = []
    for item in node.named_children:
        if item.type == "comment":
            continue
        if item.type != "spread_element":
            found.append(item)
            continue
        inner = _listed(reader, item.named_children[0], depth + 1) if item.named_children else None
        if inner is None:
            return None
        found += inner
    return found


_NAMES = frozenset({"identifier", "shorthand_property_identifier"})


def _class_name(reader: _Reader, node: _Node) -> str | None:
    """The class an identifier names: an imported one by its exported name."""
    node = js_nodes.unwrap(node) or node
    if node.type != "identifier":
        return None
    text = reader._text(node)
    bound = reader.bindings.get(text)
    if isinstance(bound, ImportRef) and bound.attr not in {None, "default"}:
        return bound.attr
    return text


def _call_at(root: _Node, start: int, end: int) -> _Node | None:
    """The call whose callee's property spans `start:end` (`app.enableVersioning(`)."""
    node = root.descendant_for_byte_range(start, end)
    member = node.parent if node is not None else None
    call = member.parent if member is not None else None
    return call if call is not None and call.type == "call_expression" else None


def _routes(
    reader: _Reader, decorators: list[_Node], handler: str
) -> tuple[list[RouteDecl], Framework | None]:
    """The routes one controller method's decorators declare (owner set by the caller), and
    the library of the last decorator that declares one. A method given as an argument
    (`@httpMethod('get', '/x')`) that is no string is a route whose methods are not known."""
    found: list[RouteDecl] = []
    auth = Auth(_guards(reader, decorators))
    library: Framework | None = None
    for decorator in decorators:
        spelled = _spelled(reader, decorator)
        spec = spelled[0].controllers if spelled is not None else None
        if spelled is None or spec is None:
            continue
        framework, name = spelled
        verbs = spec.verbs
        if name not in verbs:
            continue
        library = framework
        args = reader._arguments(decorator.named_children[0])
        methods: tuple[str, ...] | None = None
        if name in spec.method_verbs:  # `@httpMethod('get', path)`
            given = js_nodes.unwrap(args[0]) if args else None
            method = reader._string(given) if given is not None and given.type == "string" else None
            args = args[1:]
            if method is not None:
                methods = js_nodes.ALL_METHODS if method.lower() == "all" else (method.upper(),)
        else:
            methods = js_nodes.ALL_METHODS if verbs[name] == "*" else (verbs[name],)
        for path in _paths(reader, args, framework):
            found.append(
                RouteDecl(None, _rooted(path, framework) or Lit(""), methods,
                          js_nodes.line_of(decorator), handler, auth=auth,
                          methods_unknown=methods is None)
            )  # fmt: skip
    return found, library


def _spelled(reader: _Reader, decorator: _Node) -> tuple[Framework, str] | None:
    """(the controller library, its export) a decorator calls (`@Get(...)`, aliases
    followed), for the libraries the records name."""
    call = decorator.named_children[0] if decorator.named_children else None
    if call is None or call.type != "call_expression":
        return None
    callee = js_nodes.unwrap(call.child_by_field_id(reader.fields.function))
    if callee is None or callee.type != "identifier":
        return None
    bound = reader.bindings.get(reader._text(callee))
    if not isinstance(bound, ImportRef) or bound.attr in {None, "default"}:
        return None
    library = _library(bound.module)
    return (library, bound.attr or "") if library is not None else None


def _library(module: str) -> Framework | None:
    """The controller library whose decorators `module` exports (`@nestjs/common`, or one of
    its own modules as an editor may import it)."""
    for framework in CONTROLLERS:
        spec = framework.controllers
        if spec is not None and any(
            module == m or (m.endswith("/") and module.startswith(m)) for m in spec.modules
        ):
            return framework
    return None


def _name(reader: _Reader, decorator: _Node) -> str | None:
    """The `@nestjs/common` export a decorator calls (`@Get(...)`, aliases followed)."""
    spelled = _spelled(reader, decorator)
    return spelled[1] if spelled is not None and spelled[0].key == NESTJS else None


def _controller(
    reader: _Reader, decorators: list[_Node]
) -> tuple[Framework | None, tuple[_Node, list[_Node]] | None]:
    """(its library, (the decorator, its call's arguments)) of a class's first decorator
    that makes a controller of one of the libraries (`@Controller`, `@JsonController`)."""
    for decorator in decorators:
        spelled = _spelled(reader, decorator)
        if spelled is None or spelled[0].controllers is None:
            continue
        if spelled[1] in spelled[0].controllers.classes:
            return spelled[0], (decorator, reader._arguments(decorator.named_children[0]))
    return None, None


def _decorator(
    reader: _Reader, decorators: list[_Node], names: set[str]
) -> tuple[_Node, list[_Node]] | None:
    """(the decorator, its call's arguments) of the first of `decorators` calling one of
    `names` from `@nestjs/common`."""
    for decorator in decorators:
        if _name(reader, decorator) in names:
            return decorator, reader._arguments(decorator.named_children[0])
    return None


def _paths(
    reader: _Reader, args: list[_Node], library: Framework | None = None
) -> list[Expr | None]:
    """A controller's or route's paths: none given is its parent's own (None), a string,
    each string of a list, the path of an options object (`path`; `route`, `url` as the
    library names it); else as the linker evaluates it (a constant, or an `UNRESOLVED_*`
    finding)."""
    if not args:
        return [None]
    node = js_nodes.unwrap(args[0]) or args[0]
    if node.type == "object":
        keys = library.controllers.path_keys if library and library.controllers else ("path",)
        field = next((f for f in (reader._field(node, k) for k in keys) if f is not None), None)
        return _paths(reader, [field], library) if field is not None else [None]
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


def _common(bound: Expr | None) -> bool:
    """Whether a name is imported from `@nestjs/common`, or one of its own modules (`from
    '@nestjs/common/decorators/http/request-mapping.decorator'`, as an editor may write it)."""
    return isinstance(bound, ImportRef) and (
        bound.module == _COMMON or bound.module.startswith(_COMMON + "/")
    )


def _rooted(path: Expr | None, library: Framework | None = None) -> Expr | None:
    """A NestJS path as Nest serves it: `users` is `/users` (Nest adds the slash), `''` none;
    a library that joins paths as written (routing-controllers, fastify-decorators) keeps it,
    `''` none."""
    spec = library.controllers if library is not None else None
    if spec is not None and not spec.rooted:
        return path if not (isinstance(path, Lit) and not path.value) else None
    if isinstance(path, Lit):
        return Lit("/" + path.value.strip("/")) if path.value.strip("/") else None
    return path
