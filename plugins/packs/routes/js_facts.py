"""Route facts of one JavaScript or TypeScript file (Express), read with tree-sitter.

tree-sitter parses every file into a tree even when it is broken; a file whose tree holds an
ERROR or MISSING node is reported as a parse error at that node's line, like a Python
SyntaxError, and contributes nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import NoReturn

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

from ..scan_read import ParseFailure
from . import (
    dotenv_loads,
    flow,
    grammar_gaps,
    hapi_rest_tables,
    js_dirload,
    js_dynimport,
    js_hooks,
    js_library_tables,
    js_loops,
    js_method_keys,
    js_pushed,
    js_rebound,
    js_scopes,
    koa_decorators,
    nest,
    nest_docs,
    nextjs,
)
from .auth import JS_EVIDENCE
from .frameworks import JAVASCRIPT, Framework, unread_uses
from .js_nodes import (
    ALL_METHODS,
    FUNCTION_VALUES,
    FUNCTIONS,
    ROUTER_VERBS,
    TRANSPARENT,
    env_read,
    line_of,
    site_of,
    unwrap,
)
from .model import (
    CALL,
    DECORATED,
    EVERY,
    EXPRESS,
    HTTP_METHODS,
    NEXTJS,
    NO_AUTH,
    SHARED,
    Apply,
    Auth,
    Call,
    Choice,
    ComposeDecl,
    Concat,
    Condition,
    Each,
    EnvLoad,
    Evidence,
    Expr,
    Fallback,
    Function,
    GlobalPrefix,
    HookCall,
    ImportRef,
    Invocation,
    Items,
    Keyed,
    Lit,
    LoadDecl,
    LoopKey,
    Mapped,
    Member,
    ModuleFacts,
    Namespace,
    NestFacts,
    NextHandler,
    NoGuard,
    Opaque,
    PageExtensions,
    Param,
    PathCall,
    Pattern,
    PluginOf,
    PrefixDecl,
    Registered,
    RouteDecl,
    RouterDecl,
    RouterRef,
    Schema,
    StarletteRoutes,
    Store,
    Stored,
    Sym,
    Unmerged,
    UseDecl,
)
from .option_routes import OptionRoutes

_Node = tree_sitter.Node

JS_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx")
LANGUAGES = {
    "javascript": tree_sitter.Language(tree_sitter_javascript.language()),  # JSX included
    "typescript": tree_sitter.Language(tree_sitter_typescript.language_typescript()),
    "tsx": tree_sitter.Language(tree_sitter_typescript.language_tsx()),
}
_PARSERS: dict[str, tree_sitter.Parser] = {}
_VERBS = set(ROUTER_VERBS)
# From the framework records (`frameworks.JAVASCRIPT`): method aliases (koa-router's `del`),
# the calls that set a router's prefix after it is made, the calls that give the router itself
# as middleware (`router.routes()`) and those that give middleware neither route nor guard
_ALIASES = {alias: method for f in JAVASCRIPT for alias, method in f.verbs.items()}
_PREFIX_METHODS = frozenset(f.prefix_method for f in JAVASCRIPT if f.prefix_method)
_APP_WRAPPERS = frozenset(name for f in JAVASCRIPT for name in f.app_wrappers)
# the app's members where a library's folder loader keeps the router it mounts at the root
# (`app.context.loader.mainRouter`): a route on one is the app's
_LOADER_MEMBERS = tuple(
    tuple(loader[3].split(".")) for f in JAVASCRIPT for loader in f.folder_loaders.values()
)
_UNWRAP = frozenset(name for f in JAVASCRIPT for name in f.unwrap)
_NO_ROUTES = frozenset(name for f in JAVASCRIPT for name in f.no_routes)
# Fastify's calls from its record: `route({ method, url })`, `register(plugin, { prefix })`,
# `addHook('onRequest', guard)`, and the route options whose values guard (`preHandler`)
_ROUTE_CALLS = {
    name: tuple(f for f in JAVASCRIPT if f.route_call == name)
    for name in {f.route_call for f in JAVASCRIPT if f.route_call}
}
_REGISTER_CALLS = {
    name: tuple(f for f in JAVASCRIPT if f.register_call == name)
    for name in {f.register_call for f in JAVASCRIPT if f.register_call}
}
_HOOK_CALLS = {f.hook_call: f for f in JAVASCRIPT if f.hook_call}
# calls that return the router they are called on (`Framework.chained`), with every register
# call (`server.register(a).register(b)`): a chained call's owner is its chain's first
_CHAINED = frozenset(
    {name for f in JAVASCRIPT for name in f.chained}
    | {f.register_call for f in JAVASCRIPT if f.register_call}
)
_DECORATE_CALLS = {f.decorate_call: f for f in JAVASCRIPT if f.decorate_call}
# `server.dependency(deps, after)`: the method -> the index of the function it calls with the
# router it is called on (`Framework.callbacks`)
_CALLBACK_CALLS = {name: index for f in JAVASCRIPT for name, index in f.callbacks.items()}
# `Glue.compose(manifest, options)`: the packages that compose an app from a manifest
_COMPOSERS = {module: f for f in JAVASCRIPT for module in f.composers}
_COMPOSE = "compose"
# Configuration whose source the scan shows (`Schema`, `Fallback`): libraries that build it
# from a schema (the call's result, `kind`, and which argument holds the schema: an index, or
# the option of the first argument), JSON-schema builders read as the schema they build, and
# stores whose `get('/a/b')` reads a document (`$filter` nodes taken at their `$default`)
_SCHEMA_CALLS: dict[str, tuple[str, str | int]] = {
    "env-schema": ("json", "schema"),
    "convict": ("convict", 0),
}
_FLUENT_SCHEMAS = frozenset({"fluent-json-schema"})
_STORES = frozenset({"confidence", "@hapi/confidence"})
_METHODS_CALLS = {f.methods_call: f for f in JAVASCRIPT if f.methods_call}  # koa's `register`
# A route table (`[{ method, path, handler }, ...]`) is read as the options of every record
# with a route call: which framework registers it, only the call that does knows.
_TABLE_FRAMEWORKS = tuple(f for f in JAVASCRIPT if f.route_call)
_TABLE_PATH_KEYS = tuple(dict.fromkeys(key for f in _TABLE_FRAMEWORKS for key in f.path_keys))
_TABLE_NAMES = {"identifier", "member_expression", "call_expression", "subscript_expression"}
_HOOK_OPTIONS = tuple(dict.fromkeys(name for f in JAVASCRIPT for name in f.hook_options))
_SHARED_PLUGIN = "fastify-plugin"  # `fp(plugin)`: run on the registering router itself
_CALLED = _VERBS | {"use", "all"} | set(_ALIASES)
# Where the reader looks: every `=` (a declarator's or an assignment's; `==` and `=>` are never
# one) and every word that may be a route or `use` call's property. A superset: each hit is then
# confirmed, or dropped, by the tree (a `get` in a string or a comment is no call, nor is `$get`,
# whose identifier spans more than the hit). Finding the few interesting nodes this way costs a
# fraction of a tree-sitter query over the whole tree; `\b` rather than lookarounds for `$`
# halves the regex's own time.
_LOOK_AT = re.compile(
    rb"=(?![=>])|\b(?:"
    + "|".join(
        sorted(
            _CALLED
            | _PREFIX_METHODS
            | {*_ROUTE_CALLS, *_REGISTER_CALLS, *_HOOK_CALLS, *_METHODS_CALLS, *_DECORATE_CALLS}
            | set(_CALLBACK_CALLS)
            | ({_COMPOSE} if _COMPOSERS else set())
        )
    ).encode()
    + rb")\b"
)
_TOP_LEVEL = {"program", "export_statement"}
# array methods that build a list from another (`Mapped`), and the tests a `Choice` reads
_ARRAY_METHODS = frozenset({"map", "flatMap", "filter", "flat"})
_EQUALITY = frozenset({"===", "==", "!==", "!="})
# what a function's return value is read from (a call: a list an array method builds, a helper)
_SIMPLE_ARGUMENTS = frozenset({"string", "number", "template_string", "object", "array", "regex"})
_CALLS = frozenset({"call_expression", "new_expression"})
# what `_flag` reads as a truthy test: a name, a member (`r?.options?.app?.hidden`), a call
_TRUTHY_TESTS = frozenset({"identifier", "member_expression", "call_expression"})
_RETURNED = frozenset({"identifier", "member_expression", "object", "ternary_expression",
                       "template_string", "string", "array"})  # fmt: skip
# a class body's field, TypeScript's and JavaScript's, and the field naming it
_CLASS_FIELDS = {"public_field_definition": "name", "field_definition": "property"}
_ASSIGNMENTS = frozenset({"assignment_expression", "augmented_assignment_expression"})
_TYPES = frozenset({"string", "object", "function", "number", "boolean", "undefined"})
_FOR_EACH, _FOR_EACH_MAP = frozenset({"forEach"}), frozenset({"forEach", "map"})
_CLASSES = frozenset({"class_declaration", "abstract_class_declaration"})
_ENUM = "enum_declaration"  # TypeScript's `enum`, read as the object it compiles to
_EQUALITIES = frozenset({"===", "==", "!==", "!="})
_NEW = re.compile(rb"\bnew\s+[A-Za-z_$]")  # `new Gateway(...)`: a constructor called
_GLOBAL_OBJECTS = ("global", "globalThis")  # Node's object of globals, under either name
_ROUTERISH = (Sym, Param, RouterRef, ImportRef)
# what `_creates` reads itself: a `new` of another import may reach one (`_maybe_router`)
_JOINS = frozenset({"&&", "||"})
_REDUCE_CALL = re.compile(rb"\.\s*reduce\s*\(")
_UNKNOWN_TEST = Condition(Opaque(), None, False, "")  # a side of `&&` the linker cannot tell
_ITEM = "\0item"  # the parameter of `x => f(x)`, which `list.map(f)` stands for
_NAMED_CALLBACK = re.compile(
    rb"\.\s*(?:forEach|map)\s*\(\s*[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*\)"
)
_CALLBACK_NAMES = frozenset({"identifier", "member_expression"})  # `f`, `routes.add`
_FRAMEWORK_MODULES = frozenset(m for f in JAVASCRIPT for m in (*f.app_modules, *f.router_modules))
_HOOK_APPS = frozenset({"app", "router"})  # what a plugin hook is given to register routes on
_PASSED = (
    *_ROUTERISH,
    Lit,
    Pattern,  # `reg(app, /^\/x/)`: a regular expression as a path
    Concat,
    StarletteRoutes,
    LoopKey,
    Namespace,
    Member,
    Fallback,
    Apply,  # `launch(app, routing('/till'))`: a helper's result, its options or prefix
)  # what a call passes a route is made of
# what a call passes a function that may register it as a route table: a project function's
# call (`Routes.api(deps)`), a list written there or joined (`a(x).concat(b(x))`, `[...a, r]`)
_TABLES_PASSED = (*_PASSED, Call, Items, Mapped)
_BLANKS = frozenset(b" \t\r\n")


# a `for (… of/in …)` loop or an array method run per item (`MODELS.forEach(m => …)`)
_LOOP_OVER = re.compile(rb"\bfor\s*\(|\.\s*(?:forEach|map|reduce)\s*\(")


def _in_callback_or_loop(node: _Node) -> bool:
    """Whether `node` is inside a `for` loop or a function passed as an argument (a `forEach`
    callback): where `_loop_envs` may find literal loops; read by node types alone."""
    scope = node.parent
    while scope is not None:
        kind = scope.type
        if kind == "for_in_statement":
            return True
        if (
            kind in FUNCTION_VALUES
            and scope.parent is not None
            and scope.parent.type == "arguments"
        ):
            return True
        scope = scope.parent
    return False


_DECLARATION = re.compile(rb"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?![=>])")
_ASSIGNMENT = re.compile(rb"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?:[-+*/%|&?]{1,2})?=(?![=>])")


def _in_code(root: _Node, offset: int) -> bool:
    """Whether the byte at `offset` is code, not inside a comment or a string."""
    node = root.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node != root:
        if node.type in {"comment", "string", "template_string"}:
            return False
        node = node.parent
    return True


def _param_site_in(expr: Expr | None) -> bool:
    """Whether `expr` holds a parameter of an enclosing function (a `Concat` of one)."""
    if isinstance(expr, Param):
        return True
    if isinstance(expr, Each):
        return isinstance(expr.source, Param)
    if isinstance(expr, Member | Fallback):  # `options.prefix`, `options.prefix || '/'`
        return _param_site_in(expr.base if isinstance(expr, Member) else expr.value)
    return isinstance(expr, Concat) and any(_param_site_in(p) for p in expr.parts)


def _holds_param(expr: Expr | None) -> bool:
    """Whether `expr` holds a parameter of an enclosing function anywhere: in a field of an
    object too (`{ method: spec.method }`), unlike `_param_site_in`."""
    if isinstance(expr, Namespace):
        return any(_holds_param(v) for _, v in expr.fields)
    return _param_site_in(expr)


_CALL_TAIL = re.compile(rb"\s*+(?:\.\s*+[A-Za-z_$][\w$]*+\s*+)?\(")
"""What makes a name a call: `(`, or `.member(`, after it."""
_ASCII_NAME = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*")
_PASSED_NAME = re.compile(rb"[(,]\s*([A-Za-z_$][A-Za-z0-9_$]*+)\s*[,)]")  # a name as an argument
# a whole name (no name byte before it) with `_CALL_TAIL` after it
_CALLED_NAME = re.compile(
    rb"(?<![A-Za-z0-9_$])[A-Za-z_$][A-Za-z0-9_$]*+(?=" + _CALL_TAIL.pattern + rb")"
)
_NAME_BYTES_OR_DOT = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")
_PUSH = re.compile(rb"(?<=[.\s])push\b(?=\s*\()")
_STRING_ARGUMENT = re.compile(rb"\(\s*['\"`]")  # a call with a string first (a literal first)
# a member call whose first or second argument is a string starting with `/` (`_path_calls`;
# the pre-filter admits a file on it: `seeds.PATH_CALL`)
PATH_CALL = re.compile(
    rb"\.[ \t\r\n]*(?P<method>[A-Za-z_$][\w$]*)[ \t\r\n]*\([ \t\r\n]*"
    rb"(?P<first>(?:'[^'\n]{0,120}'|\"[^\"\n]{0,120}\"|[\w$.]{1,80})[ \t\r\n]*,[ \t\r\n]*)?"
    rb"['\"`]/"
)
# a route-shaped method: an HTTP verb (the path first), or a name holding one or `route` as a
# word of its camelCase (`linGet`, `addRoute`, `register_post`; the path first or second)
_PATH_VERBS = frozenset({*(m.encode() for m in HTTP_METHODS), b"del", b"all"})
_VERB_WORD = re.compile(
    rb"(?:^|[a-z0-9_$])(?:Get|Post|Put|Patch|Delete|Del|All|Head|Options|Route)(?![a-z])"
    rb"|^route(?![a-z])|_(?:get|post|put|patch|delete|route)(?![a-z])"
)
_IMPORTED_FROM_PROJECT = rb"""from\s*['"](?:\.|@/|~/|#)"""


def route_shaped_calls(source: bytes) -> Iterator[re.Match[bytes]]:
    """The `PATH_CALL`s that can be route calls on an object a package made (`_path_calls`;
    the pre-filter admits a file by the same test, so both modes read the same calls): a
    route-shaped method, on a receiver whose last name the file binds to `new …`, to a call's
    result (`kit.make()`, `require('./r')`) or imports from the project (`from './r'`). A
    script's `$.get('/x', f)`, `loader.load('/x', f)`, a parameter's calls are none."""
    if b"/" not in source or (b"import" not in source and b"require" not in source):
        return
    judged: dict[bytes, bool] = {}
    for match in PATH_CALL.finditer(source):
        method = match.group("method")
        if method in _PATH_VERBS:
            if match.group("first") is not None:
                continue
        elif _VERB_WORD.search(method) is None:
            continue
        start, end = js_scopes.name_before(source, match.start())
        name = source[start:end]
        if name == b"this" and (start == 0 or source[start - 1] != 0x2E):
            if b"extends" in source:  # `this.get('/x', h)` in a subclass: judged by its base
                yield match
            continue
        if not name or name[:1].isdigit() or name == b"this":
            continue
        made = judged.get(name)
        if made is None:
            escaped = re.escape(name)
            made = judged[name] = (
                re.search(
                    rb"(?<![\w$])" + escaped + rb"(?:\s*:[^=\n]{1,80})?\s*=\s*"
                    rb"(?:new\b|await\b|[\w$.]+\s*\()",
                    source,
                )
                is not None
                or re.search(
                    rb"import\b[^;'\"]*(?<![\w$])"
                    + escaped
                    + rb"(?![\w$])[^;'\"]*"
                    + _IMPORTED_FROM_PROJECT,
                    source,
                )
                is not None
            )
        if made:
            yield match


# `app[verb](`, `app[VERBS[k]](` (one level of brackets inside), `app[verb].call(`
_COMPUTED_CALL = re.compile(rb"\[(?:[^\[\]\n]|\[[^\[\]\n]{0,80}\]){1,80}\]\s*(?:\.\s*call\s*)?\(")
_MAX_ITERATIONS = 256  # a literal loop longer than this is not expanded
_CASES: dict[str, Callable[[str], str]] = {"toLowerCase": str.lower, "toUpperCase": str.upper}
# what a path read through a local may be written as (`_Reader._path_like`)
_PATH_LIKE = frozenset({"identifier", "member_expression", "binary_expression",
                        "template_string", "ternary_expression", "subscript_expression",
                        "call_expression"})  # fmt: skip


def js_facts(source: bytes, path: str) -> ModuleFacts:
    """The facts of the file at repo-relative `path`; raises `ParseFailure` at the line of the
    first ERROR or MISSING node when the tree has one."""
    root, language = parsed(source, path)
    reader = _Reader(path, source, _FIELDS[language])
    reader.read(root)
    next_handlers = reader.next_handlers() if nextjs.candidate(path) else None
    page_extensions = None
    if nextjs.config_file(path, source):
        if b"basePath" in source:
            reader.base_path()
        if b"pageExtensions" in source:
            page_extensions = reader.page_extensions()
    return ModuleFacts(
        language="javascript",
        bindings=reader.bindings,
        exports=reader.exports,
        star_exports=tuple(reader.star_exports),
        routers=tuple(reader.scoped_routers(root)),
        routes=tuple(reader.routes),
        uses=tuple(reader.uses),
        invocations=tuple(reader.invocations),
        unread=js_library_tables.still_unread(unread_uses(source, "javascript"), reader),
        stores=tuple(reader.stores),
        prefixes=tuple(reader.prefixes),
        global_prefixes=tuple(reader.global_prefixes),
        nest=reader.nest,
        loads=tuple(reader.loads),
        composes=tuple(reader.composes),
        path_calls=tuple(reader.path_calls),
        globals=tuple(reader.globals.items()),
        hook_calls=reader.hook_calls,
        param_calls=reader.param_calls,
        env_loads=tuple(reader.env_loads),
        env_paths=tuple(reader.env_paths),
        registered=tuple(reader.registered),
        next_handlers=next_handlers,
        page_extensions=page_extensions,
        loaded_globs=reader.loaded_globs,
        list_pushes=tuple(reader.list_pushes),
        route_keys=js_method_keys.route_keys(reader),
    )


def language_of(path: str) -> str:
    """The grammar for a file: TypeScript's for `.ts`, its TSX dialect for `.tsx`, else
    JavaScript's (which parses JSX, so `.jsx` too)."""
    if path.endswith(".ts"):
        return "typescript"
    return "tsx" if path.endswith(".tsx") else "javascript"


def parse_tree(source: bytes, path: str) -> _Node:
    """The syntax tree of the JavaScript or TypeScript file at `path` (`parsed`)."""
    return parsed(source, path)[0]


def parsed(source: bytes, path: str) -> tuple[_Node, str]:
    """The syntax tree of the JavaScript or TypeScript file at `path` and the grammar that
    read it (by suffix, one parser per grammar kept for the process; a JavaScript file with
    Flow's types by TSX's, `flow`); `ParseFailure` at the line of the first ERROR or MISSING
    node when the tree has one."""
    language = language_of(path)
    parser = _parser(language)
    tree = parser.parse(source)
    root = tree.root_node
    if root.has_error and language == "javascript":
        typed, read = _flow_tree(source)
        if read:
            return typed, "tsx"
        if flow.is_flow(source):
            return _failed(typed)  # its first error, not the first type JavaScript rejects
    if root.has_error and language != "javascript":  # TypeScript the grammar does not know
        plain = grammar_gaps.blanked(source)
        if plain != source:
            tree = parser.parse(plain)
            if not tree.root_node.has_error:
                return tree.root_node, language
        source = plain
    if root.has_error and b"&" in source:  # a bare `&` in JSX
        read_through = grammar_gaps.ampersands_read(parser, source, tree)
        if read_through is not None:
            return read_through, language
    if root.has_error:
        return _failed(root)
    return root, language


def _failed(root: _Node) -> NoReturn:
    """`ParseFailure` at the first error of `root`."""
    bad = grammar_gaps.first_error(root)
    what = f"missing {bad.type}" if bad.is_missing else "syntax error"
    raise ParseFailure(bad.start_point.row + 1, what)


def _parser(language: str) -> tree_sitter.Parser:
    parser = _PARSERS.get(language)
    if parser is None:
        parser = _PARSERS[language] = tree_sitter.Parser(LANGUAGES[language])
    return parser


def _flow_tree(source: bytes) -> tuple[_Node, bool]:
    """A JavaScript file JavaScript's grammar rejects, read as typed JavaScript by TSX's: the
    tree, and whether it is read (it has no error, or errors only inside types of a file that
    says `@flow`)."""
    flow_file = flow.is_flow(source)
    root = _parser("tsx").parse(flow.blanked(source) if flow_file else source).root_node
    return root, not root.has_error or (flow_file and flow.errors_only_in_types(root))


class _Fields:
    """A grammar's ids of the fields the reader follows (they differ between the JavaScript
    and TypeScript grammars): `child_by_field_id` costs a quarter of `child_by_field_name`,
    which looks the name up on every call, and the reader makes tens of thousands of them."""

    __slots__ = ("alias", "alternative", "argument", "arguments", "body", "condition", "consequence",
                 "constructor", "declaration", "function", "index", "key", "left",
                 "name", "object", "operator", "parameter", "parameters", "pattern", "property",
                 "right", "source", "value")  # fmt: skip

    def __init__(self, language: tree_sitter.Language) -> None:
        for name in self.__slots__:
            field_id = language.field_id_for_name(name)
            if field_id is None:
                raise LookupError(f"the grammar has no field {name!r}")
            setattr(self, name, field_id)

    alias: int
    alternative: int
    argument: int
    arguments: int
    body: int
    condition: int
    consequence: int
    constructor: int
    declaration: int
    function: int
    index: int
    key: int
    left: int
    name: int
    object: int
    operator: int
    parameter: int
    parameters: int
    pattern: int
    property: int
    right: int
    source: int
    value: int


_FIELDS = {name: _Fields(language) for name, language in LANGUAGES.items()}


class _Reader:
    """Reads one file's tree. Node text is sliced from the source bytes (`node.text` costs
    twice as much) and fields are followed by id."""

    def __init__(self, path: str, source: bytes, fields: _Fields) -> None:
        self.path = path
        self.source = source
        self.fields = fields
        self.bindings: dict[str, Expr] = {}
        self.exports: dict[str, Expr] = {}
        self.export_lines: dict[str, int] = {}  # where each export is written
        self.star_exports: list[ImportRef] = []
        self.routers: dict[str, RouterDecl] = {}  # by creation site
        self.routes: list[RouteDecl] = []
        self.uses: list[UseDecl] = []
        self.invocations: list[Invocation] = []
        self._made_passed: set[int] = set()  # calls given a router made in their arguments
        self.stores: list[Store] = []
        self.prefixes: list[PrefixDecl] = []
        self.global_prefixes: list[GlobalPrefix] = []
        self.nest: NestFacts | None = None  # NestJS's module wiring (`nest.read`)
        self.env_loads: list[EnvLoad] = []  # environment files loaded (`dotenv_loads`)
        self.env_paths: list[tuple[str, tuple[tuple[str, str], ...]]] = []  # and paths exported
        self.loaded_globs: tuple[str, ...] = ()  # script globs loaded by computed specifiers
        self.loads: list[LoadDecl] = []
        self.hook_calls: tuple[HookCall, ...] = ()
        self._locals_seen: set[str] = set()  # locals being read (`_local`): no recursion
        # (function body start, name) -> its one declarator, or None (`_declared_once`)
        self._local_values: dict[tuple[int, str], _Node | None] = {}
        # function body start -> where each name its `const`/`let`/`var` declare ends, and
        # where each name is assigned (`_declared_once`)
        self._body_assignments: dict[
            int, tuple[dict[str, list[int]], dict[str, list[int]] | None]
        ] = {}
        self.param_calls: tuple[Invocation, ...] = ()
        self.composes: list[ComposeDecl] = []
        self.path_calls: list[PathCall] = []
        self.param_names: set[str] = set()  # parameters seen used as routers
        self.arrays: dict[str, _Node] = {}  # top-level `const routes = [...]`
        self.pushed: set[str] = set()  # top-level lists filled by `push` (`js_pushed`)
        # pushes onto a top-level list a loop unrolls from its initializer (`js_loops`)
        self.list_pushes: list[tuple[str, int, str]] = []
        self.objects: dict[str, _Node] = {}  # top-level `const TABLE = {...}`
        self._route_keys: dict[str, int] | None = None  # `js_method_keys`, read when asked
        self.loop_budget = js_loops.FILE_BUDGET  # loop iterations this file may still unroll
        # each block's locals, by node id (`js_loops._locals`: read once, not per loop)
        self.block_locals: dict[int, list[tuple[int, str, js_loops.Local, bool]]] = {}
        self.this_fields: dict[str, Expr] = {}  # `this.app = express()` outside a class
        # `this.app = express()` in `class Server`: its instances' fields, by class name
        self.class_fields: dict[str, dict[str, Expr]] = {}
        self.class_bases: dict[str, tuple[Expr, ...]] = {}  # `class X extends Base`
        self._env: js_loops.Env = {}  # a literal loop's variables, one iteration
        # reading a function's return value or an array method's callback: a parameter of an
        # enclosing function is a `Param` (its callers bind it), a ternary a `Choice`
        self._scoped = False
        # reading a route table's entry as a value: `true`/`false` as the flags the linker
        # tests (`'true'`, `''`), for a `filter` over the table (`_entry_value`)
        self._booleans = False
        self.globals: dict[str, Expr] = {}  # `global.base = v`, `globalThis.base = v`
        self._root: _Node | None = None
        self._spells_tables: bool | None = None  # `_tables`' test of the text, made once
        self._rebound: js_rebound.Rebound | None = None  # names bound more than once
        self._scopes: js_scopes.Scopes | None = None  # which declaration a name read reaches
        self._reading: set[int] = set()  # declarators whose value is being read (`_scoped_read`)
        self._imports = False  # whether the file calls `import(…)` (`js_dynimport`)
        # the parameters of callbacks given to `import(…).then(…)`, by the callback's node id
        self._then_params: dict[int, dict[str, Expr]] = {}
        self._then_names: frozenset[str] = frozenset()
        # a library's adapter taken here (`js_library_tables`): the router's site -> package
        self.library_takes: dict[str, str] = {}
        self._library_seeds = js_library_tables.seeded(source)
        self.registered: list[Registered] = []  # values register calls run as plugins

    def read(self, root: _Node) -> None:
        """Imports first (router creation is recognised through them), then declarations,
        then what uses them, each kind in source order."""
        self._root = root
        rebound = self._rebound = js_rebound.Rebound(self, root)
        scopes = self._scopes = js_scopes.Scopes(self, root)
        declarators: list[tuple[int, _Node, bool]] = []
        assignments: list[tuple[int, _Node]] = []
        calls: list[tuple[int, int, _Node, _Node, _Node]] = []
        function_field = self.fields.function
        left_field = self.fields.left
        for match in _LOOK_AT.finditer(self.source):
            start, end = match.span()
            node = root.descendant_for_byte_range(start, end)
            if node is None or node.start_byte != start or node.end_byte != end:
                if node is not None and end - start == 1:  # `+=`, `??=`: a binding
                    parent = node.parent
                    rebound.note(parent)
                    if parent is not None and _defaulted_field(node):  # `Hub.x ??= new Hub()`
                        assignments.append((parent.start_byte, parent))
                continue
            parent = node.parent
            if parent is None:
                continue
            if end - start == 1:  # `=`
                if node.type != "=":
                    continue
                kind = parent.type
                if kind == "variable_declarator":
                    outer = parent.parent.parent if parent.parent else None
                    top = outer is not None and outer.type in _TOP_LEVEL
                    declarators.append((parent.start_byte, parent, top))
                    scopes.note(parent, rebound.note(parent))
                elif kind == "assignment_expression":
                    rebound.note(parent)
                    left = parent.child_by_field_id(left_field)
                    if left is not None and (
                        left.type == "member_expression"
                        or (left.type == "identifier" and self._constructor_of(parent))
                    ):
                        assignments.append((parent.start_byte, parent))
            elif node.type == "property_identifier" and parent.type == "member_expression":
                call = parent.parent
                if (
                    call is not None
                    and call.type == "call_expression"
                    and call.child_by_field_id(function_field) == parent
                ):
                    calls.append((call.start_byte, start, call, parent, node))
                elif (bound := self._bound_call(parent, node)) is not None:
                    calls.append((bound.start_byte, start, bound, parent, node))
        rebound.updates()
        rebound.uninitialised(scopes.unvalued_declarations() if rebound.assigns() else [])
        if js_dynimport.CALLS.search(self.source):  # `await import('./routes.js')`
            self._imports = True
            self._then_params = js_dynimport.then_params(self, root)
            self._then_names = frozenset(n for p in self._then_params.values() for n in p)
        statements = root.named_children  # import and export statements are top-level only
        for node in statements:
            if node.type == "import_statement":
                self._import(node)
            self._declare_function(node)
        declarators.sort(key=lambda d: d[0])
        for _, node, top in declarators:
            self._declare(node, override=top)
        for name in rebound.assigned_later():  # `let app; app = express()`: what it holds
            final = rebound.at_end(name, self._expr)
            if final is not None:
                self.bindings.setdefault(name, final)
        for node in statements:
            if node.type == "export_statement":
                self._export(node)
        assignments.sort(key=lambda a: a[0])
        for _, node in assignments:
            self._assign(node)
        if self.this_fields and "this" not in self.bindings:
            self.bindings["this"] = Namespace(tuple(self.this_fields.items()))
        if self.globals:  # `global.base = base`: read back as `global.base`, `globalThis.base`
            held = Namespace(tuple(self.globals.items()))
            for name in _GLOBAL_OBJECTS:
                self.bindings.setdefault(name, held)
        for node in statements:  # a class's methods: what `instance.method(...)` calls
            declaration = node.child_by_field_id(self.fields.declaration) or node
            if declaration.type in {"class_declaration", "abstract_class_declaration"}:
                self._methods(declaration)
        for name, fields in self.class_fields.items():
            bases = self.class_bases.get(name, ())
            self.bindings.setdefault(name, Namespace(tuple(fields.items()), bases=bases))
        calls.sort(
            key=lambda c: (c[0], c[1])
        )  # a chain's calls share a start: then by their verbs' order
        for _, _, node, callee, prop in calls:
            self._call(node, callee, prop)
        if b"push" in self.source and self.class_fields:
            self._stores(root)
        if b"](" in self.source or b"] (" in self.source or b"].call" in self.source:
            self._computed_calls(root)
        self._find_invocations(root)
        if any(seed in self.source for seed in nest.SEEDS):  # NestJS and its kind
            self.nest = nest.read(self, root)
        if nest_docs.seeded(self.source):  # `SwaggerModule.setup(...)`: the docs it serves
            nest_docs.read(self, root)
        if koa_decorators.MODULE.encode() in self.source:
            koa_decorators.read(self, root)
        if js_dirload.seeded(self.source):
            js_dirload.read(self, root)
            self.loaded_globs = js_dirload.loaded_globs(self)
        self.hook_calls, self.param_calls = js_hooks.read(self, root)
        if dotenv_loads.seeded(self.source):
            self.env_loads = dotenv_loads.read(self, root)
        if dotenv_loads.exports_paths(self.source):
            self.env_paths = dotenv_loads.exported_paths(self, root)
        if b"__exportStar(" in self.source:  # `tsc`'s CommonJS for `export * from './env'`
            self.star_exports += dotenv_loads.compiled_star_exports(self, root)
        if any(decl.subclass is not None for decl in self.routers.values()):
            self._unused_candidates()

    def _unused_candidates(self) -> None:
        """Drop the `_maybe_router` candidates held by a name the file never uses as a
        router (no route, mount, prefix or registration on it, not passed to `use` or a
        function, not exported): `new Service(db)` stays what calling it gives, so the linker
        does not parse each service's file to ask whether it is a router."""
        used: set[str] = set()

        def note(expr: object) -> None:
            if isinstance(expr, Sym) and expr.path:
                used.add(expr.path[0])
            elif isinstance(expr, Param):
                used.add(expr.name)

        for route in self.routes:
            note(route.owner)
        for use in self.uses:
            note(use.owner)
            for value, _ in use.args:
                note(value)
        for prefix in self.prefixes:
            note(prefix.owner)
        for call in self.invocations:
            note(call.receiver)
            if isinstance(call.callee, Sym) and call.callee.path[-1:] == ("constructor",):
                continue  # `new Routes(controller)`: services handed to classes, as a rule
            for arg in call.args:
                note(arg)
            if isinstance(call.callee, Sym) and len(call.callee.path) > 1:
                note(call.callee)  # `router.register(...)`: a wrapper may register on it
        for value in self.exports.values():
            note(value)
        for path_call in self.path_calls:
            note(path_call.receiver)
        kept = {
            value.router_id
            for name, value in self.bindings.items()
            if isinstance(value, RouterRef) and name in used
        }
        for name, value in list(self.bindings.items()):
            if not isinstance(value, RouterRef) or value.router_id in kept:
                continue
            decl = self.routers.get(value.router_id)
            if decl is not None and decl.subclass is not None:
                del self.routers[value.router_id]
                self.bindings[name] = Sym((*decl.subclass.path, CALL))

    def next_handlers(self) -> tuple[NextHandler, ...]:
        """What a file that may be a Next.js route file answers with: its default export (a
        Pages Router file's handler) and the methods it exports (an App Router file's), each
        at its export's line. Which it is, and its path, the project's settings decide
        (`next_projects`)."""
        return tuple(
            NextHandler(name, self.exports[name], self.export_lines.get(name, 1))
            for name in ("default", *nextjs.APP_METHODS)
            if name in self.exports
        )

    def base_path(self) -> None:
        """`basePath` of a Next.js config (`module.exports = { basePath: '/docs' }`, a named
        config object exported, `export default`): the prefix of every route of its project
        (`next_projects`). A config that names `basePath` in a way not read (wrapped by a
        plugin call, computed, spread from another object) is a prefix not known: the linker
        says so at this file."""
        prefix = self._config_setting("basePath")
        if prefix is not None:
            line = self.export_lines.get("default", 1)
            self.global_prefixes.append(GlobalPrefix(NEXTJS, prefix, line))

    def page_extensions(self) -> PageExtensions | None:
        """`pageExtensions` of a Next.js config, exported as `basePath` is: a literal list of
        strings (or a name the file binds to one); one named in a way not read (a wrapped
        config, a computed list) is `PageExtensions(None, …)`, a finding at the config."""
        value = self._config_setting("pageExtensions")
        if value is None:
            return None
        if isinstance(value, Sym) and len(value.path) == 1:
            value = self.bindings.get(value.path[0], value)
        line = self.export_lines.get("default", 1)
        if isinstance(value, Items) and all(isinstance(v, Lit) for v in value.values):
            return PageExtensions(tuple(v.value for v in value.values if isinstance(v, Lit)), line)
        return PageExtensions(None, line)

    def _config_setting(self, name: str) -> Expr | None:
        """The value of `name` in a Next.js config's default export (through the name it is
        bound to): None where the config does not set it, `Opaque()` where that is not read
        (no object literal, or one spreading others that may set it)."""
        config = self.exports.get("default")
        if isinstance(config, Sym) and len(config.path) == 1:
            config = self.bindings.get(config.path[0], config)
        if not isinstance(config, Namespace):
            return Opaque()
        fields = dict(config.fields)
        if name in fields:
            return fields[name]
        return Opaque() if config.bases else None

    # -- imports, declarations, exports ----------------------------------------------------

    def _import(self, node: _Node) -> None:
        source = self._string(node.child_by_field_id(self.fields.source))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        required = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if required is not None:  # TypeScript's `import x = require('./x')`: what require gives
            name = next((c for c in required.named_children if c.type == "identifier"), None)
            module = self._string(required.child_by_field_id(self.fields.source))
            if name is not None and module is not None:
                self.bindings[self._text(name)] = self._ref(module, "default")
            return
        if source is None or clause is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.bindings[self._text(part)] = self._ref(source, "default")
            elif part.type == "namespace_import":
                for local in part.named_children:
                    self.bindings[self._text(local)] = self._ref(source, None)
            elif part.type == "named_imports":
                for spec in part.named_children:
                    imported = spec.child_by_field_id(self.fields.name)
                    alias = spec.child_by_field_id(self.fields.alias) or imported
                    if imported is not None and alias is not None:
                        self.bindings[self._text(alias)] = self._ref(source, self._text(imported))

    def _declare_function(self, statement: _Node) -> None:
        """A top-level `function setup(app) {...}` (exported or not) binds its name."""
        node = statement
        if node.type == "export_statement":
            node = node.child_by_field_id(self.fields.declaration) or node
        if node.type in {"function_declaration", "generator_function_declaration"}:
            name = node.child_by_field_id(self.fields.name)
            if name is not None:
                self.bindings[self._text(name)] = self._function(node, self._text(name))
        elif node.type == _ENUM:
            self._declare_enum(node)

    def _declare_enum(self, node: _Node) -> None:
        """`enum ApiVersion { V1 = '1', V2 = '2' }` (TypeScript, `const enum` too): an object
        of its members, as TypeScript compiles it: a string member its string, a numeric one
        its number, written or counted on from the member before (0 for the first); a member
        computed otherwise is there, never visible."""
        name = node.child_by_field_id(self.fields.name)
        body = node.child_by_field_id(self.fields.body)
        if name is None or body is None:
            return
        fields: list[tuple[str, Expr]] = []
        counted: int | None = 0  # the value a member with no initializer takes
        for member in body.named_children:
            key = member.named_children[0] if member.type == "enum_assignment" else member
            if key is None or key.type not in {"property_identifier", "string"}:
                continue
            spelled = self._string(key) if key.type == "string" else self._text(key)
            value = member.named_children[-1] if member.type == "enum_assignment" else None
            found: Expr = Opaque()
            if value is None:
                found = Lit(str(counted)) if counted is not None else Opaque()
            elif value.type == "number" and self._text(value).isdigit():
                counted = int(self._text(value))
                found = Lit(str(counted))
            elif value.type == "string":
                counted = None  # a member after a string one must be initialised
                found = self._expr(value) or Opaque()
            else:
                counted = None
            counted = counted + 1 if counted is not None else None
            if spelled:
                fields.append((spelled, found))
        self.bindings[self._text(name)] = Namespace(tuple(fields))

    def _declare(self, node: _Node, *, override: bool) -> None:
        target = node.child_by_field_id(self.fields.name)
        value_node = unwrap(node.child_by_field_id(self.fields.value))
        if (
            override
            and target is not None
            and value_node is not None
            and target.type == "identifier"
            and (value_node.type == "array" or self._collection(value_node) is not None)
        ):
            self.arrays[self._text(target)] = self._collection(value_node) or value_node
        elif (
            override
            and target is not None
            and target.type == "identifier"
            and value_node is not None
            and self._mapping(value_node)
        ):
            self.arrays[self._text(target)] = value_node  # `NAMES.map(...)`: `js_loops` builds it
        elif (
            override
            and target is not None
            and target.type == "identifier"
            and (value_node is not None and value_node.type == "object")
        ):
            self.objects[self._text(target)] = value_node
        value = self._expr(value_node)
        if (
            value is None
            and value_node is not None
            and value_node.type == "array"
            and target is not None
            and (self._listed_name(self._text(target)) or _exported(node))
        ):  # a list that is no route table, which an array method or a spread may read
            value = self._list_value(value_node)
        if override and target is not None and (pushed := js_pushed.built(self, node)):
            # `const list = []` filled by `list.push(...)`: what the pushes add (`js_pushed`)
            value = pushed
            self.arrays.pop(self._text(target), None)
            self.pushed.add(self._text(target))
        if target is None or value is None:
            return
        found: list[tuple[str, Expr]] = []
        if target.type == "identifier":
            found.append((self._text(target), value))
        elif target.type == "object_pattern":  # const { Router, prefix: p } = require(...)
            for prop in target.named_children:
                key = alias = None
                if prop.type == "shorthand_property_identifier_pattern":
                    key = alias = self._text(prop)
                elif prop.type == "pair_pattern":
                    key_node, value_node = (
                        prop.child_by_field_id(self.fields.key),
                        prop.child_by_field_id(self.fields.value),
                    )
                    if (
                        key_node is not None
                        and value_node is not None
                        and value_node.type == "identifier"
                    ):
                        key, alias = self._text(key_node), self._text(value_node)
                member = _member(value, key) if key else None
                if override and alias and isinstance(member, ImportRef):
                    # `const { list } = require(…)` and `list.push(…)` in this module
                    filled = js_pushed.pushed_into(self, prop, member)
                    if filled is not None:
                        member = filled
                        self.pushed.add(alias)
                if alias and member is not None:
                    found.append((alias, member))
        for name, expr in found:
            if override or name not in self.bindings:
                self.bindings[name] = expr
            if not override and (scoped := self._scoped_name(node, name)) != name:
                self.bindings.setdefault(scoped, expr)  # one of several declarations of it

    def _export(self, node: _Node) -> None:
        source = self._string(node.child_by_field_id(self.fields.source))
        declaration = node.child_by_field_id(self.fields.declaration)
        if any(c.type == "=" for c in node.children):  # TypeScript's `export = router`
            value = self._expr(node.named_children[0] if node.named_children else None)
            if value is not None:
                self.export_lines["default"] = line_of(node)
                self.exports["default"] = value  # what `require` and `import x = require` give
        elif any(c.type == "default" for c in node.children):
            named = declaration.child_by_field_id(self.fields.name) if declaration else None
            value = (
                Sym((self._text(named),))
                if named
                else self._expr(node.child_by_field_id(self.fields.value))
            )
            # a default export not read (`export default flag ? handler : notFound`) is still
            # one: a Next.js Pages Router file answers at its path whatever the value is
            self.exports["default"] = Opaque() if value is None else value
            self.export_lines["default"] = line_of(node)
            self._mark_shared(node.child_by_field_id(self.fields.value))
        elif declaration is not None and declaration.type in FUNCTIONS | _CLASSES | {_ENUM}:
            name = declaration.child_by_field_id(self.fields.name)
            if name is not None:  # a class too: a NestJS guard class (`@UseGuards(JwtGuard)`)
                self.exports[self._text(name)] = Sym((self._text(name),))
                self.export_lines[self._text(name)] = line_of(node)
        elif declaration is not None:
            for declarator in declaration.named_children:
                name = declarator.child_by_field_id(self.fields.name)
                if declarator.type == "variable_declarator" and name and name.type == "identifier":
                    self.exports[self._text(name)] = Sym((self._text(name),))
                    self.export_lines[self._text(name)] = line_of(declarator)
                elif declarator.type == "variable_declarator" and name is not None:
                    self._export_pattern(declarator, name)
        elif source is not None and _star_export(node):
            self.star_exports.append(self._ref(source, None))
        elif source is not None and (spaced := _namespace_export(node)) is not None:
            # `export * as routes from './routes'`: the module's namespace under one name, as
            # `import * as routes` then `export { routes }` gives it (`routes.bucket` its member)
            spelled = self._string(spaced) or self._text(spaced)
            self.exports[spelled] = self._ref(source, None)
            self.export_lines[spelled] = line_of(node)
        for clause in (c for c in node.named_children if c.type == "export_clause"):
            for spec in clause.named_children:
                name = spec.child_by_field_id(self.fields.name)
                alias = spec.child_by_field_id(self.fields.alias) or name
                if name is None or alias is None:
                    continue
                local = self._text(name)
                value = self._ref(source, local) if source else Sym((local,))
                self.exports[self._text(alias)] = value
                self.export_lines[self._text(alias)] = line_of(spec)

    def _export_pattern(self, declarator: _Node, pattern: _Node) -> None:
        """`export const { GET, POST: post } = handlers` (Auth.js's route handlers): each name
        it binds is exported as that member of the value (not visible: `Opaque`)."""
        if pattern.type != "object_pattern":
            return
        whole = self._expr(declarator.child_by_field_id(self.fields.value))
        for item in pattern.named_children:
            if item.type == "shorthand_property_identifier_pattern":
                key = local = self._text(item)
            elif item.type == "pair_pattern":
                key = self._text(item.child_by_field_id(self.fields.key))
                bound = item.child_by_field_id(self.fields.value)
                if bound is None or bound.type != "identifier":
                    continue
                local = self._text(bound)
            else:
                continue
            member = _member(whole, key) if whole is not None else None
            self.exports[local] = member if member is not None else Opaque()
            self.export_lines[local] = line_of(declarator)

    def _assign(self, node: _Node) -> None:
        """`module.exports = x`, `module.exports.name = x` and `exports.name = x`; in a
        constructor (a class's, or a function's that sets `this.x`), what it stores on the
        instance, on `global`/`globalThis` or in a module-level variable, its parameters read
        as what the visible `new` sites pass (`Param`)."""
        target = node.child_by_field_id(self.fields.left)
        left = self._path(target)
        right = node.child_by_field_id(self.fields.right)
        made = self._constructor_of(node)
        value = self._value(right) if made and right is not None else self._expr(right)
        if left is None or value is None:
            return
        if made and target is not None and target.type == "identifier":
            if self._module_variable(left[0]):  # `let base; ... base = mountAt` in the constructor
                self.bindings.setdefault(left[0], value)
            return
        if len(left) == 2 and left[0] in _GLOBAL_OBJECTS:
            self.globals.setdefault(left[1], value)
            return
        if left == ("module", "exports"):
            self.exports["default"] = value
            self.export_lines["default"] = line_of(node)
            self._mark_shared(node.child_by_field_id(self.fields.right))
        elif left[:-1] in {("module", "exports"), ("exports",)}:
            self.exports[left[-1]] = value
            self.export_lines[left[-1]] = line_of(node)
        elif len(left) == 2 and _top_level_statement(node):
            # `internals.build = (x) => ...` after `const internals = {...}`: a field of it
            bound = self.bindings.get(left[0])
            if isinstance(bound, Namespace) and not bound.verbs:
                fields = tuple((k, v) for k, v in bound.fields if k != left[1])
                self.bindings[left[0]] = replace(bound, fields=(*fields, (left[1], value)))
        elif len(left) == 2 and left[0] == "this":  # `this.app = express()` in a function
            self.this_fields.setdefault(left[1], value)
        elif len(left) == 3 and left[1] == CALL and self._class_of(node) == left[0]:
            self.class_fields.setdefault(left[0], {}).setdefault(left[2], value)
        elif len(left) == 2 and self._class_of(node) == left[0]:
            # `Hub.instance = new Hub()` in a static method of `Hub`: its singleton, which an
            # accessor (`static getInstance() { ...; return Hub.instance }`) gives back
            self.class_fields.setdefault(left[0], {}).setdefault(left[1], value)

    # -- calls -----------------------------------------------------------------------------

    def _call(self, node: _Node, callee: _Node, prop: _Node) -> None:
        """The call `node` of the member `callee` (`owner.verb`), `prop` being `verb`; once per
        iteration inside loops over literal arrays (`routes.forEach(r => app.use(r.path,
        r.route))`, `for (const r of routes)`)."""
        envs = self._loop_envs(node) if self._tables() else None
        written, used = len(self.routes), len(self.uses)
        for env in envs if envs is not None else ({},):
            self._env = env
            self._call_once(node, callee, prop)
        self._env = {}
        if (len(self.routes) > written or len(self.uses) > used) and (
            condition := self._branch(node)
        ) is not None:
            self.routes[written:] = [replace(r, only_if=condition) for r in self.routes[written:]]
            self.uses[used:] = [replace(u, only_if=condition) for u in self.uses[used:]]

    def _computed_calls(self, root: _Node) -> None:
        """`app[verb](path, handler)`: a registration whose method is computed, once per
        iteration of a literal loop around it; the linker names the method when it can
        (a loop item, a wrapper's argument) and reports it when it cannot."""
        for match in _COMPUTED_CALL.finditer(self.source):
            bracket = root.descendant_for_byte_range(match.start(), match.start() + 1)
            member = bracket.parent if bracket is not None else None
            call = member.parent if member is not None else None
            called = call if call is not None and call.type == "member_expression" else None
            if called is not None:  # `app[verb].call(app, path, h)`: `this`, then the arguments
                prop = self._text(called.child_by_field_id(self.fields.property))
                call = called.parent if prop == "call" else None
            function = called if called is not None else member
            if (
                member is None
                or call is None
                or member.type != "subscript_expression"
                or call.type != "call_expression"
                or call.child_by_field_id(self.fields.function) != function
            ):
                continue
            owner = member.child_by_field_id(self.fields.object)
            index = member.child_by_field_id(self.fields.index)
            args = self._arguments(call)[1 if called is not None else 0 :]
            if owner is None or index is None or len(args) < 2:
                continue
            envs = self._loop_envs(call) if self._tables() else None
            for env in envs if envs is not None else ({},):
                self._env = env
                written = len(self.routes)
                self._computed_call(call, owner, index, args)
                key = self._route_key(env)
                if key is not None:  # `'get /x'` of a table the file spells: written there
                    self.routes[written:] = [
                        replace(r, called_at=(self.path, key), via=(self.path, line_of(call)))
                        for r in self.routes[written:]
                    ]
            self._env = {}

    def _route_key(self, env: js_loops.Env) -> int | None:
        """The line of the one key spelled `'<verb> /path'` of this file an iteration binds a
        loop variable to (`for (const k in TABLE)`), where the route it registers is written;
        None when it binds none or several."""
        if self._route_keys is None:
            self._route_keys = dict(js_method_keys.route_keys(self))  # the last written wins
        lines = {
            self._route_keys[bound.value]
            for bound in env.values()
            if isinstance(bound, Lit) and bound.value in self._route_keys
        }
        return lines.pop() if len(lines) == 1 else None

    def _computed_call(self, call: _Node, owner: _Node, index: _Node, args: list[_Node]) -> None:
        """`app[verb](path, handler)` read under the current iteration's variables."""
        verb = self._string(index)
        if verb is not None and verb not in _CALLED:
            return  # `cache['x'](...)`, a literal that is no verb
        if verb is not None:
            self._route(call, index, verb, owner, args)
            return
        method = self._value(self._uncased(index))
        path = self._value(args[0]) or Opaque()
        # `...chain` last: the handler and what guards it, in a list (`_spread_guard`)
        guarded = args[1:] if args[-1].type == "spread_element" else args[1:-1]
        guards = tuple(g for a in guarded for g in self._guards_in(a))
        auth = Auth(guards) if guards else NO_AUTH
        owner_expr = self._owner(owner)
        self.routes.append(
            RouteDecl(
                owner_expr,
                path,
                None,
                line_of(call),
                self._handler(args[-1]) if args[-1].type != "spread_element" else None,
                auth=auth,
                methods_unknown=method is None,
                method_exprs=(method,) if method is not None else (),
            )
        )

    def _stores(self, root: _Node) -> None:
        """`this.entries.push({ method, path, handler })` in a class's method: what its
        instances keep, each field as the method's callers pass it."""
        for match in _PUSH.finditer(self.source):
            prop = root.descendant_for_byte_range(match.start(), match.end())
            member = prop.parent if prop is not None else None
            call = member.parent if member is not None else None
            if member is None or call is None or call.type != "call_expression":
                continue
            target = self._path(member.child_by_field_id(self.fields.object))
            args = self._arguments(call)
            owner_class = self._class_of(call)
            if not (target and len(target) == 3 and target[1] == CALL and owner_class and args):
                continue
            item = unwrap(args[0]) or args[0]
            value: Expr
            if item.type == "object":
                fields = [
                    (name, self._value(node) or Opaque())
                    for name, node in self._object_fields(item)
                ]
                value = Namespace(tuple(fields))
            else:
                value = self._value(item) or Opaque()
            self.stores.append(Store(owner_class, target[2], value, line_of(call)))

    def _object_fields(self, node: _Node) -> list[tuple[str, _Node]]:
        found: list[tuple[str, _Node]] = []
        for prop in node.named_children:
            if prop.type == "shorthand_property_identifier":
                found.append((self._text(prop), prop))
            elif prop.type == "pair":
                key = prop.child_by_field_id(self.fields.key)
                value = prop.child_by_field_id(self.fields.value)
                if key is not None and value is not None:
                    name = self._string(key) if key.type == "string" else self._text(key)
                    found.append((name or "", value))
        return found

    def _loop(
        self, scope: _Node, methods: frozenset[str], of_only: bool = True
    ) -> tuple[_Node | None, _Node | None]:
        """For a scope that is a loop: what it iterates and the pattern each item is bound to,
        a `for...of` statement's (a `for...in`'s too unless `of_only`) or the array before
        `.forEach(callback)` (or another of `methods`) and the callback's first parameter;
        (None, None) for any other scope."""
        if scope.type == "for_in_statement" and (
            not of_only or any(c.type == "of" for c in scope.children)
        ):
            return scope.child_by_field_id(self.fields.right), scope.child_by_field_id(
                self.fields.left
            )
        if scope.type in FUNCTION_VALUES:
            args = scope.parent
            call = args.parent if args is not None and args.type == "arguments" else None
            looped = call.child_by_field_id(self.fields.function) if call else None
            if (
                looped is not None
                and looped.type == "member_expression"
                and self._text(looped.child_by_field_id(self.fields.property)) in methods
            ):
                return looped.child_by_field_id(self.fields.object), self._first_parameter(scope)
        return None, None

    def _item_field(self, target: _Node, name: str, field: str) -> str | None:
        """Which field of each item `name` (`.field` of it, if any) stands for where the loop
        binds items to `target`: `field` for the item itself (`r`), `name` for `{ name }`
        destructured; None when `target` does not bind `name`."""
        if target.type == "identifier" and self._text(target) == name:
            return field
        if (
            target.type == "object_pattern"
            and not field
            and any(
                c.type == "shorthand_property_identifier_pattern" and self._text(c) == name
                for c in target.named_children
            )
        ):
            return name
        return None

    def _item_reference(self, node: _Node) -> tuple[_Node, str] | None:
        """`r.path` as (`r`, "path"), `r` as (`r`, ""): the name a loop may bind and the field
        taken of it; None for any other expression."""
        field = ""
        if node.type == "member_expression":
            field = self._text(node.child_by_field_id(self.fields.property))
            node = unwrap(node.child_by_field_id(self.fields.object)) or node
        return (node, field) if node.type == "identifier" else None

    def _stored(self, node: _Node) -> Stored | None:
        """`r.path` or `path` where `r` (or `{ path }`) is the variable of a loop over a list
        the instance keeps (`for (const r of this.entries)`, `this.entries.forEach(...)`)."""
        referred = self._item_reference(node)
        if referred is None:
            return None
        node, field = referred
        name = self._text(node)
        scope = node.parent
        while scope is not None:
            source, target = self._loop(scope, _FOR_EACH, of_only=False)
            path = self._path(source) if source is not None else None
            if target is not None and path and len(path) == 3 and path[1] == CALL:
                taken = self._item_field(target, name, field)
                if taken is not None:
                    return Stored(path[0], path[2], -1, taken)
            if scope.type in FUNCTIONS and source is None:
                return None
            scope = scope.parent
        return None

    def _value(self, node: _Node) -> Expr | None:
        """A path or a method: a loop item, else a parameter of the enclosing function (what
        its callers pass), else as `_expr` reads it."""
        if node.type == "string":  # most paths
            return self._expr(node)
        node = unwrap(node) or node
        if self.class_fields and node.type in {"identifier", "member_expression"}:
            stored = self._stored(node)
            if stored is not None:
                return stored
        if node.type in {"identifier", "member_expression"} and not self._env:
            each = self._each_of_param(node)
            if each is not None:
                return each
            member = self._param_member(node) if node.type == "member_expression" else None
            if member is not None:
                return member
        if node.type == "binary_expression" or node.type == "ternary_expression":
            fallback = self._fallback(node, self._value)
            if fallback is not None:
                return fallback
        if node.type == "identifier" or node.type == "shorthand_property_identifier":
            name = self._text(node)
            if not (self._env and name in self._env):
                again = self._again(node, name, self._value)
                if again is not None:  # bound more than once (`js_rebound`)
                    return again
                scoped = self._scoped_read(node, name, self._value)
                if scoped is not None:  # one of several declarations of the name
                    return scoped
                # a parameter shadows the module's name: `(router, base, path) => router.get(
                # base + path)` in a file that has `const path = require('path')`
                param = self._param(node, name)
                if param is not None:
                    return param
                local = self._local(node, name)
                if local is not None:
                    return local
        elif (
            node.type == "binary_expression"
            and self._text(node.child_by_field_id(self.fields.operator)) == "+"
        ):  # `base + path` of a wrapper's parameters: each part as its callers pass it
            left, right = (node.child_by_field_id(f) for f in (self.fields.left, self.fields.right))
            parts = [self._value(p) if p is not None else None for p in (left, right)]
            if all(p is not None for p in parts) and any(_param_site_in(p) for p in parts):
                return Concat(tuple(p for p in parts if p is not None))
        elif node.type == "template_string" and node.named_children:
            values: list[Expr] = []
            for part in node.named_children:
                if part.type == "string_fragment":
                    values.append(Lit(self._text(part)))
                elif part.type == "template_substitution" and part.named_children:
                    value = self._value(part.named_children[0])
                    if value is None:
                        return self._expr(node)
                    values.append(value)
                else:
                    return self._expr(node)
            if any(_param_site_in(v) for v in values):
                return Concat(tuple(values))
        return self._expr(node)

    def _again(self, node: _Node, name: str, read: Callable[[_Node], Expr | None]) -> Expr | None:
        """`name` read at `node` when the file binds it more than once (`js_rebound`): its
        value in statement order, or `Opaque`; None when the usual rules read it."""
        if self._rebound is None or not self._rebound.bound_again(name):
            return None
        return self._rebound.read(node, name, read)

    def _scoped_read(
        self, node: _Node, name: str, read: Callable[[_Node], Expr | None]
    ) -> Expr | None:
        """`name` read at `node` as ECMAScript scopes it (`js_scopes`), where the file's one
        binding per name would read another declaration: a local that is one of several
        declarations of the name, the binding `_declare` made of it under its own name
        (`_scoped_name`), or, read as a path (`_value`), its initializer where that holds a
        parameter of its function (as `_local` reads one); a parameter that shadows a
        declaration, the parameter (`Param`). None where the usual rules read it: the
        module's own name, the one declaration of it."""
        scopes = self._scopes
        if scopes is None or not scopes.declares(name):
            return None
        reached = scopes.reached(node, name)
        if reached is None:
            return None
        how, declaring, scope = reached
        if how == js_scopes.PARAM:
            return self._param_of(declaring, name) if name in self.bindings else None
        if scope == self._root or not scopes.shadows(reached, name):
            return None
        if how != js_scopes.DECL:  # a loop's variable, a local function or class
            return Opaque() if name in self.bindings else None
        if read == self._value and self._path_like(declaring):
            value = self._declared_value(declaring, name, read)
            if _param_site_in(value):
                return value
        return Sym((js_scopes.scoped_name(name, declaring),))

    def _path_like(self, declarator: _Node) -> bool:
        """Whether a declarator's value may be a path made of parameters (`base + '/x'`,
        `` `${base}/x` ``, `opts.prefix || '/'`), not a function, an object or a list."""
        value = unwrap(declarator.child_by_field_id(self.fields.value))
        return value is not None and value.type in _PATH_LIKE

    def _scoped_name(self, declarator: _Node, name: str) -> str:
        """The name a declarator binds `name` under: `name`, or for a local that is one of
        several declarations of it, a name of its own (`js_scopes.scoped_name`)."""
        scopes = self._scopes
        if scopes is None or not scopes.declares(name):
            return name
        reached = scopes.declared_by(declarator, name)
        if reached is None or reached[2] == self._root or not scopes.shadows(reached, name):
            return name
        return js_scopes.scoped_name(name, declarator)

    def _declared_value(
        self, declarator: _Node, name: str, read: Callable[[_Node], Expr | None]
    ) -> Expr:
        """The value the declarator gives `name`, read by `read`: its initializer, or the
        member a destructuring pattern takes of it (`const { prefix } = options`); `Opaque`
        when it has none (`let r;`: `js_rebound` reads one assigned later) or it is not
        read."""
        value_node = unwrap(declarator.child_by_field_id(self.fields.value))
        target = declarator.child_by_field_id(self.fields.name)
        if value_node is None or target is None or declarator.id in self._reading:
            return Opaque()
        self._reading.add(declarator.id)
        try:
            value = read(value_node)
            if value is None and value_node.type == "array":
                value = self._list_value(value_node)
        finally:
            self._reading.discard(declarator.id)
        if value is None or target.type == "identifier":
            return value if value is not None else Opaque()
        key = self._pattern_key(target, name)
        member = _member(value, key) if key is not None else None
        return member if member is not None else Opaque()

    def _pattern_key(self, pattern: _Node, name: str) -> str | None:
        """The key an object pattern reads into `name` (`{ a }`: `a`, `{ a: name }`: `a`)."""
        if pattern.type != "object_pattern":
            return None
        for prop in pattern.named_children:
            if prop.type == "shorthand_property_identifier_pattern" and self._text(prop) == name:
                return name
            if prop.type == "pair_pattern":
                value = prop.child_by_field_id(self.fields.value)
                if value is not None and value.type == "identifier" and self._text(value) == name:
                    return self._text(prop.child_by_field_id(self.fields.key))
        return None

    def _local(self, node: _Node, name: str) -> Expr | None:
        """`name` as a local of the enclosing function declared once before `node` and never
        assigned again (`const verb = spec.verb || 'get'`): its initializer as `_value` reads
        it, when that holds a parameter (what the function's callers pass); else None."""
        if name in self._locals_seen:
            return None
        body = self._function_block(node)
        if body is None:
            return None
        key = (body.start_byte, name)
        if key not in self._local_values:
            self._local_values[key] = self._declared_once(body, name)
        found = self._local_values[key]
        value = found.child_by_field_id(self.fields.value) if found is not None else None
        if value is None or found is None or found.end_byte > node.start_byte:
            return None
        self._locals_seen.add(name)
        try:
            read = self._value(value)
        finally:
            self._locals_seen.discard(name)
        return read if _param_site_in(read) else None

    def _const_local(self, node: _Node, name: str) -> Expr | None:
        """`name` as a `const` of a function around `node`, declared before it, read where a
        value is read for its callers (`_scoped`: a return value, a callback's item): the
        initializer (`const route = { method, path, handler }`) or the field of a parameter it
        is destructured from (`const { method, path } = spec`: `spec.method`), when that holds
        a parameter of the function (what each call passes: `_holds_param`); else None. A
        factory's route record is so read with its parameters, which the linker binds."""
        if name in self._locals_seen:
            return None
        scope = _function_of(node)
        while scope is not None:
            body = scope.child_by_field_id(self.fields.body)
            found = self._const_in(body, name, node) if body is not None else None
            if found is not None:
                self._locals_seen.add(name)
                try:
                    read = self._const_value(*found)
                finally:
                    self._locals_seen.discard(name)
                return read if _holds_param(read) else None
            scope = _function_of(scope)
        return None

    def _spread_value(self, node: _Node) -> Expr | None:
        """What `...node` spreads into an object: in a value read for callers (`_scoped`: a
        function's return value), a `const` object of the function is read as written (`return
        { ...core, ...routes }`); anything else as `_expr` reads it."""
        node = unwrap(node) or node
        if self._scoped and node.type == "identifier":
            merged = self._merged_local(node, self._text(node), assigned_only=False)
            if merged is not None:
                return merged
        return self._expr(node)

    def _merged_local(self, node: _Node, name: str, *, assigned_only: bool) -> Namespace | None:
        """`name` as a `const` object literal of a function around `node`, declared before it,
        with what `Object.assign(name, a, b)` statements before `node` merge into it: a later
        source's keys win, as in JavaScript (`Namespace.bases`, last writer first). A merge
        made in a nested block or callback (a loop over plugins loaded at run time) is
        `Unmerged`: keys not known. `assigned_only`: None unless something is merged into it
        (a plain `const` record is read as `_const_local` reads it). None for anything else."""
        if name in self._locals_seen:
            return None
        scope = _function_of(node)
        body = scope.child_by_field_id(self.fields.body) if scope is not None else None
        found = self._const_in(body, name, node) if body is not None else None
        literal = unwrap(found[0].child_by_field_id(self.fields.value)) if found else None
        if body is None or found is None or found[1] or literal is None or literal.type != "object":
            return None
        merges = self._assigns_into(body, name, node)
        if assigned_only and not merges:
            return None
        self._locals_seen.add(name)
        booleans, self._booleans = self._booleans, True  # its entries' flags: tests' values
        try:
            own = self._object(literal)
            bases: list[Expr] = []
            for call, direct in merges:
                for source in self._arguments(call)[1:]:
                    read = self._spread_value(source) if direct else None
                    bases.insert(0, read if read is not None else Unmerged(
                        self._text(source), line_of(call)))  # fmt: skip
        finally:
            self._locals_seen.discard(name)
            self._booleans = booleans
        return Namespace((), bases=(*bases, own)) if bases else own

    def _assigns_into(self, body: _Node, name: str, before: _Node) -> list[tuple[_Node, bool]]:
        """Each `Object.assign(name, ...)` call in the block `body` before `before`, and whether
        it is a statement of `body` itself (run once, in order) rather than of a nested block
        or callback."""
        pattern = re.compile(
            rb"\bObject\s*\.\s*assign\s*\(\s*" + re.escape(name.encode()) + rb"\s*,"
        )
        found: list[tuple[_Node, bool]] = []
        for match in pattern.finditer(self.source, body.start_byte, before.start_byte):
            call = body.descendant_for_byte_range(match.start(), match.start() + 1)
            while call is not None and call.type != "call_expression":
                call = call.parent
            if call is None or call.start_byte != match.start():
                continue  # in a comment or a string
            statement = call.parent
            found.append((call, statement is not None and statement.parent == body))
        return found

    def _const_in(self, body: _Node, name: str, before: _Node) -> tuple[_Node, str] | None:
        """The declarator of `name` among the `const` statements of the block `body` written
        before `before`, and the field it takes when destructured (`""`: the whole value)."""
        if body.type != "statement_block":
            return None
        for statement in body.named_children:
            if statement.start_byte >= before.start_byte:
                return None
            if statement.type != "lexical_declaration" or self._text(statement.children[0]) != (
                "const"
            ):
                continue
            for declarator in statement.named_children:
                target = declarator.child_by_field_id(self.fields.name)
                if target is None or declarator.type != "variable_declarator":
                    continue
                if target.type == "identifier" and self._text(target) == name:
                    return declarator, ""
                if target.type == "object_pattern":
                    field = self._destructured_field(target, name)
                    if field is not None:
                        return declarator, field
        return None

    def _destructured_field(self, pattern: _Node, name: str) -> str | None:
        """The key `{ name }` or `{ key: name }` of an object pattern binds `name` from."""
        for part in pattern.named_children:
            if part.type == "shorthand_property_identifier_pattern" and self._text(part) == name:
                return name
            if part.type == "pair_pattern":
                value = part.child_by_field_id(self.fields.value)
                key = part.child_by_field_id(self.fields.key)
                if value is not None and key is not None and self._text(value) == name:
                    return self._text(key)
        return None

    def _const_value(self, declarator: _Node, field: str) -> Expr | None:
        value = unwrap(declarator.child_by_field_id(self.fields.value))
        if value is None or value.type not in {"object", "identifier", "member_expression"}:
            return None
        read = self._expr(value)
        if not field or read is None:
            return read
        return _member(read, field)

    def _declared_once(self, body: _Node, name: str) -> _Node | None:
        """The declarator of `name` in the function body `body` when it is its only
        assignment in code (`_local`), else None. The body's declarations and assignments are
        listed by one search each, kept per body: most names read are declared nowhere in it."""
        text = self.source[body.start_byte : body.end_byte]
        listed = self._body_assignments.get(body.start_byte)
        if listed is None:
            declared: dict[str, list[int]] = {}
            for m in _DECLARATION.finditer(text):
                declared.setdefault(m.group(1).decode(), []).append(m.end())
            listed = self._body_assignments[body.start_byte] = (declared, None)
        declared, assigned = listed
        ends = [e for e in declared.get(name, ()) if _in_code(body, body.start_byte + e - 1)]
        if len(ends) != 1:
            return None
        if assigned is None:  # listed once a name looked up is declared here
            assigned = {}
            for m in _ASSIGNMENT.finditer(text):
                assigned.setdefault(m.group(1).decode(), []).append(m.start())
            self._body_assignments[body.start_byte] = (declared, assigned)
        # in code: a comment may spell an old assignment
        starts = [a for a in assigned.get(name, ()) if _in_code(body, body.start_byte + a)]
        if len(starts) != 1:
            return None
        start = body.start_byte + ends[0] - 1
        found = body.descendant_for_byte_range(start, start + 1)
        while found is not None and found.type != "variable_declarator":
            found = found.parent if found != body else None
        return found

    def _each_of_param(self, node: _Node) -> Each | None:
        """`r.path` (or `r`, or `path` destructured) where `r` is the variable of a loop over a
        parameter of the enclosing function (`for (const r of routes)`, `routes.forEach(r =>
        …)`): that field of each item the function's callers pass (`Each`)."""
        referred = self._item_reference(node)
        if referred is None:
            return None
        node, field = referred
        name = self._text(node)
        scope = node.parent
        while scope is not None:
            source, target = self._loop(scope, _FOR_EACH_MAP)
            source = unwrap(source) if source is not None else None
            if source is not None and target is not None and source.type == "identifier":
                taken = self._item_field(target, name, field)
                index = -1
                if taken is None and not field:  # `var [method, url] = conf` in the body
                    index, taken = self._item_destructured(scope, target, name)
                if taken is not None:
                    iterated = self._text(source)
                    param = None if iterated in self.bindings else self._param(source, iterated)
                    if param is None:
                        return None
                    return Each(param, index, taken)
            scope = scope.parent
        return None

    def _item_destructured(self, loop: _Node, target: _Node, name: str) -> tuple[int, str | None]:
        """Where a declaration directly in the body of `loop` destructures its item (`target`,
        a name) and binds `name`: (index, "") for `[method, url] = conf`, (-1, field) for `{
        method, path } = item`; (-1, None) when none does."""
        body = loop.child_by_field_id(self.fields.body)
        if target.type != "identifier" or body is None or body.type != "statement_block":
            return -1, None
        item = self._text(target)
        for declaration in body.named_children:
            if declaration.type not in {"lexical_declaration", "variable_declaration"}:
                continue
            for declarator in declaration.named_children:
                pattern = declarator.child_by_field_id(self.fields.name)
                value = unwrap(declarator.child_by_field_id(self.fields.value))
                if pattern is None or value is None or value.type != "identifier":
                    continue
                if self._text(value) != item:
                    continue
                if pattern.type == "object_pattern":
                    taken = self._item_field(pattern, name, "")
                    if taken is not None:
                        return -1, taken
                elif pattern.type == "array_pattern":
                    index = 0  # a hole (`[, url]`) is a comma with no name before it
                    for element in pattern.children:
                        if element.type == ",":
                            index += 1
                        elif element.type == "identifier" and self._text(element) == name:
                            return index, ""
        return -1, None

    def _pushed_local(self, node: _Node) -> Expr | None:
        """The list a function fills by `push` that `node` names (`js_pushed.local_list`)."""
        return js_pushed.local_list(self, node)

    def _loop_envs(self, node: _Node) -> list[js_loops.Env] | None:
        """The loop variables' values per iteration, for a call inside loops over tables the file
        spells (`js_loops`); None when it is in none."""
        return js_loops.loop_envs(self, node)

    def _tables(self) -> bool:
        """Whether the file may hold a loop over a table it spells (a cheap test on its text,
        made once: asked at every call with a path, a file of 10,000 `@Get('x')` and no `[`
        was scanned whole 10,000 times)."""
        if self._spells_tables is None:
            source = self.source
            self._spells_tables = (
                b"[" in source or b"Object." in source or _LOOP_OVER.search(source) is not None
            )  # a loop over an imported list or object spells no `[` here (`for (m of MODELS)`)
        return bool(self.arrays or self.objects) or self._spells_tables

    def _collection(self, node: _Node | None) -> _Node | None:
        """The literal array a `new Map([...])` or `new Set([...])` is made of (iterating the
        Map gives its `[key, value]` pairs, the Set its items, as the array's); None else."""
        if node is None or node.type != "new_expression":
            return None
        made = self._text(node.child_by_field_id(self.fields.constructor))
        args = self._arguments(node)
        inner = unwrap(args[0]) if len(args) == 1 else None
        if made not in {"Map", "Set"} or inner is None or inner.type != "array":
            return None
        return inner

    def _array_items(self, node: _Node | None) -> list[_Node] | None:
        node = unwrap(node)
        node = self._collection(node) or node
        if node is not None and node.type == "identifier":
            node = self.arrays.get(self._text(node))
        if node is None or node.type != "array":
            return None
        items = [c for c in node.named_children if c.type != "comment"]
        return None if any(c.type == "spread_element" for c in items) else items

    def _first_parameter(self, function: _Node) -> _Node | None:
        return self._parameter(function, 0)

    def _parameter(self, function: _Node, index: int) -> _Node | None:
        """The pattern of `function`'s parameter at `index` (`x` of `x => …` for 0)."""
        single = function.child_by_field_id(self.fields.parameter)
        if single is not None:
            return single if index == 0 else None
        params = function.child_by_field_id(self.fields.parameters)
        listed = [p for p in params.named_children if p.type != "comment"] if params else []
        found = listed[index] if index < len(listed) else None
        if found is not None and found.type in {"required_parameter", "optional_parameter"}:
            found = found.child_by_field_id(self.fields.pattern)
        return found

    def _field(self, obj: _Node, name: str) -> _Node | None:
        for prop in obj.named_children:
            if prop.type == "shorthand_property_identifier" and self._text(prop) == name:
                return prop
            if prop.type == "pair":
                key = prop.child_by_field_id(self.fields.key)
                spelled = self._string(key) if key is not None and key.type == "string" else None
                if (spelled or self._text(key)) == name:
                    return prop.child_by_field_id(self.fields.value)
        return None

    def _bound_call(self, member: _Node, prop: _Node) -> _Node | None:
        """`Glue.compose.bind(Glue, manifest, options)`: the call binding a composer's
        `compose` (its arguments, after `this`, are the compose's), else None."""
        if _COMPOSERS and self._text(prop) == _COMPOSE:
            outer = member.parent
            call = outer.parent if outer is not None else None
            if (
                outer is not None
                and call is not None
                and outer.type == "member_expression"
                and call.type == "call_expression"
                and call.child_by_field_id(self.fields.function) == outer
                and self._text(outer.child_by_field_id(self.fields.property)) == "bind"
            ):
                return call
        return None

    def _call_once(self, node: _Node, callee: _Node, prop: _Node) -> None:
        owner_node = callee.child_by_field_id(self.fields.object)
        if owner_node is None:
            return
        verb = self._text(prop)
        args = self._arguments(node)
        if node.child_by_field_id(self.fields.function) != callee:  # `f.bind(this, ...args)`
            args = args[1:]
        if verb == "use":
            if args and (owner := self._owner(owner_node)) is not None:
                arguments = tuple(
                    (e, Auth((e if isinstance(e, Param) else self._guard(a),)))
                    for a in args
                    for e in (self._use_arg(a),)
                )
                self.uses.append(UseDecl(owner, arguments, line_of(node)))
        elif verb in _CALLED:
            self._route(node, prop, verb, owner_node, args)
        elif verb in _PREFIX_METHODS and len(args) == 1:
            self._set_prefix(owner_node, args[0])
        elif verb in _ROUTE_CALLS and len(args) == 1:
            options = unwrap(args[0])
            items = self._array_items(options) if options is not None else None
            if options is not None and items is None and options.type in _TABLE_NAMES | {"array"}:
                self._table_route(node, owner_node, options)  # a name, a call, `[...a, b]`
            for item in items if items is not None else [options] if options else []:
                item = unwrap(item) or item  # hapi's `server.route([{...}, {...}])`
                if item.type == "object":
                    self._options_route(prop, owner_node, item, _ROUTE_CALLS[verb])
                elif items is not None and item.type in _TABLE_NAMES:
                    self._table_route(node, owner_node, item)  # `[getRoute(), listRoute()]`
        elif (
            verb in _METHODS_CALLS
            and len(args) >= 3
            and (self._uses(_METHODS_CALLS[verb]) or (unwrap(args[1]) or args[1]).type == "array")
        ):  # koa-router's `register(path, methods, middleware)`, also in a helper's own file
            self._methods_route(node, prop, owner_node, args)
        elif verb in _REGISTER_CALLS and args:
            used = [f for f in _REGISTER_CALLS[verb] if self._uses(f)]
            framework = used[0] if used else self._plugin_shaped(owner_node, args[0], verb)
            if framework is not None:
                self._registers(node, owner_node, args, framework)
        elif verb == _COMPOSE and args and _COMPOSERS:
            self._compose(node, owner_node, args)
        elif verb in _DECORATE_CALLS and len(args) >= 2 and self._uses(_DECORATE_CALLS[verb]):
            # `fastify.decorate('apiBase', '/v2')`: every instance's `apiBase` from then on
            name = self._spelled(args[0])
            value = self._field_value(args[1])
            if name and value is not None:
                self.bindings.setdefault(DECORATED + name, value)
        elif verb in _CALLBACK_CALLS and len(args) > _CALLBACK_CALLS[verb]:
            # `server.dependency(['auth'], after)`: `after(server)`, the router it is called on
            called = self._expr(args[_CALLBACK_CALLS[verb]])
            owner = self._owner(owner_node)
            if called is not None and owner is not None:
                self.invocations.append(
                    Invocation(called, (owner,), (), line_of(node), scope=self._enclosing(node))
                )
        elif verb in _HOOK_CALLS and len(args) == 2 and self._uses(_HOOK_CALLS[verb]):
            hook = self._string(args[0])
            owner = self._owner(owner_node)
            if hook in _HOOK_CALLS[verb].hook_options and owner is not None:
                guard = self._guard(args[1])
                self.uses.append(UseDecl(owner, ((guard, Auth((guard,))),), line_of(node)))

    def _listed_name(self, name: str) -> bool:
        """Whether the file's text names `name` again after declaring it (a list read there,
        exported or passed on), so its items are worth reading: a cheap test on the text."""
        return self.source.count(name.encode()) > 1

    def _builds(self, call: _Node, function: _Node) -> bool:
        """Whether a function's returned call may be a list or a helper's value read with its
        parameters (`list.map(...)`, `[].concat(...)`, `toEntry(item)`): an array method, or a
        call passing one of the function's parameters; most returned calls are neither
        (`res.json(x)`), and reading them would cost every arrow function."""
        callee = unwrap(call.child_by_field_id(self.fields.function))
        if callee is not None and callee.type == "member_expression":
            method = self._text(callee.child_by_field_id(self.fields.property))
            if method in _ARRAY_METHODS or method in {"concat", "from"}:
                return True
        return any(
            a.type == "identifier" and self._param_index(function, self._text(a)) is not None
            for a in (unwrap(x) or x for x in self._arguments(call))
        )

    def _mapping(self, node: _Node) -> bool:
        """Whether `node` is `X.map(...)` or `X.reduce(...)` (a list `js_loops` may build
        item by item)."""
        callee = unwrap(node.child_by_field_id(self.fields.function))
        return (
            node.type == "call_expression"
            and callee is not None
            and callee.type == "member_expression"
            and self._text(callee.child_by_field_id(self.fields.property)) in {"map", "reduce"}
        )

    def _spelled(self, node: _Node | None) -> str | None:
        """The string `node` is: a literal, or a name a block around it binds to one (`const
        KEY = 'apiBase'`), or a member of a table the file spells."""
        node = unwrap(node)
        if node is not None and node.type == "identifier" and not self._env:
            node = self._declared(node)
        found = js_loops.resolve(self, node) if node is not None else None
        return self._string(found) if found is not None and found.type == "string" else None

    def _plugin_shaped(self, owner: _Node, first: _Node, verb: str) -> Framework | None:
        """The framework whose plugins are objects (hapi's `{ name, register }`) that a register
        call in a file naming no framework is made with: on a parameter of the function it is
        written in (the server a plugin's code is handed), given a list or an object with the
        record's plugin key or member (`server.register([users, teams])`, `server.register({
        plugin: wizard, options })`), or written in such a plugin's own register function. A
        hapi plugin's module need import nothing of hapi's; Fastify's plugins are functions."""
        name = unwrap(owner)
        if name is None or name.type != "identifier":
            return None
        function = self._declaring(name, self._text(name))
        if function is None:
            return None
        given = unwrap(first) or first
        for framework in _REGISTER_CALLS[verb]:
            member = framework.plugin_member
            if not member or not framework.plugin_key:
                continue
            keys = (framework.plugin_key, member, *framework.item_keys)
            if given.type == "array" or (
                given.type == "object" and any(self._field(given, k) is not None for k in keys)
            ):
                return framework
            if self._member_function(function) == member:
                return framework
        return None

    def _declaring(self, node: _Node, name: str) -> _Node | None:
        """The nearest function around `node` that declares a parameter `name`."""
        scope = node.parent
        while scope is not None:
            if scope.type in FUNCTIONS and self._param_index(scope, name) is not None:
                return scope
            scope = scope.parent
        return None

    def _member_function(self, function: _Node) -> str:
        """The key an object literal holds `function` under (`register: async (server) =>
        …`, `register(server) {…}`), "" for a function held otherwise."""
        if function.type == "method_definition":
            holder = function.parent
            named = function.child_by_field_id(self.fields.name)
            return self._text(named) if holder is not None and holder.type == "object" else ""
        pair = function.parent
        if (
            pair is None
            or pair.type != "pair"
            or pair.child_by_field_id(self.fields.value) != function
        ):
            return ""
        return self._text(pair.child_by_field_id(self.fields.key))

    def _uses(self, framework: Framework) -> bool:
        """Whether this file names `framework` (a call as common as `register` is read as its
        only then)."""
        return any(seed in self.source for seed in framework.seeds)

    def _table_route(self, node: _Node, owner: _Node, table: _Node) -> None:
        """`server.route(endpoints)`, `fastify.route(routes.list)`: route options held by a
        name, a member or a call, read where they are written (`_route_table`) when the linker
        finds them there; otherwise one route whose path is not known, a finding at this call
        (on a router the linker knows: a plugin's parameter is one). Express's `app.route(path)`
        takes a path, and is chained: not a table."""
        parent = node.parent
        if parent is not None and parent.type == "member_expression":
            return  # `app.route(p).get(h)`: a chain, not a table
        table = unwrap(table) or table
        listed = self._list_value(table) if table.type == "array" else None
        # `server.route(options.routes)` in a plugin, `server.route(routes)` in
        # `createServer(port, routes)`: what the calls of the function give it
        given = self._param_table(table)
        expr = given or self._expr(table) or listed or Opaque()  # `[...built, { method, path }]`
        owner_expr = self._owner(owner)
        self.routes.append(RouteDecl(owner_expr, expr, None, line_of(node), table=True))

    def _param_table(self, table: _Node) -> Param | Member | None:
        """The route table `server.route(…)` is given when it is a parameter of the function
        the call is written in, or a member of one (`options.routes`): the linker binds it to
        what each scanned call of that function passes (`_attach_passed_table`); None for any
        other table, read as it is written."""
        if table.type == "member_expression":
            return self._param_member(table)
        if table.type != "identifier":
            return None
        read = self._value(table)  # a local or another declaration shadowing it: not one
        return read if isinstance(read, Param) else None

    def _route_table(self, node: _Node) -> StarletteRoutes | None:
        """An array whose every item is route options (an object with a `method` and one of the
        records' path keys: `{ method: 'GET', path: '/x', handler }`): the routes it declares,
        with no router yet (the call that registers the array gives it). None for any other
        array, which stays a value the reader does not model."""
        items = self._array_items(node)
        if items is None and _named_value(node):
            return self._spread_table(node)
        if not items or len(items) > _MAX_ITERATIONS:
            return None
        options = [unwrap(item) or item for item in items]
        if any(o.type != "object" or self._field(o, "method") is None for o in options):
            return None
        if any(all(self._field(o, key) is None for key in _TABLE_PATH_KEYS) for o in options):
            return None
        return StarletteRoutes(
            tuple(self._options_decl(None, o, _TABLE_FRAMEWORKS) for o in options)
        )

    def _spread_table(self, node: _Node) -> StarletteRoutes | None:
        """`[...userRoutes, ...Object.values(require('./x')), { method, path, handler }]` named
        as a value (bound, exported): route options and the tables it spreads, each a name, a
        call or an object's values the linker follows to a table (in this file or another);
        one it cannot follow is a finding at its line, the others still listed. None when an
        item is neither, or when only calls are spread (a list of anything else)."""
        parts: list[RouteDecl | Expr] = []
        lines: list[int] = []
        tabled = False  # route options, or a name, an object's values or a table spread
        for item in (c for c in node.named_children if c.type != "comment"):
            item = unwrap(item) or item
            if item.type == "spread_element" and item.named_children:
                spread = self._spread_part(item.named_children[0])
                tabled = tabled or isinstance(spread, Sym | ImportRef | Mapped | StarletteRoutes)
                parts.append(spread)
            elif item.type == "object" and self._route_options(item):
                parts.append(self._options_decl(None, item, _TABLE_FRAMEWORKS))
                tabled = True
            else:
                return None
            lines.append(line_of(item))
        if not tabled or not parts or len(parts) > _MAX_ITERATIONS:
            return None
        return StarletteRoutes(tuple(parts), lines=tuple(lines))

    def _spread_part(self, node: _Node) -> Expr:
        """What a table spreads: `Object.values(x)` the values of the object `x` is (a `Mapped`
        "values" the linker lists), anything else as `_expr` reads it (`Opaque` if not)."""
        node = unwrap(node) or node
        callee = (
            node.child_by_field_id(self.fields.function) if node.type == "call_expression" else None
        )
        args = self._arguments(node) if callee is not None else []
        if callee is not None and self._text(callee) == "Object.values" and len(args) == 1:
            return Mapped(self._expr(args[0]) or Opaque(), "values")
        return self._expr(node) or Opaque()

    def _route_options(self, item: _Node) -> bool:
        """Whether an object is route options: a `method` and one of the records' path keys."""
        return self._field(item, "method") is not None and any(
            self._field(item, key) is not None for key in _TABLE_PATH_KEYS
        )

    def _joined_table(self, node: _Node) -> StarletteRoutes | None:
        """`[].concat(a, b)`, `a.concat(b, c)` and `Object.values({ x: { method, path }, … })`
        named as a value: the tables joined (names the linker follows), the object's values
        as route options; None for any other call."""
        callee = node.child_by_field_id(self.fields.function)
        if callee is None or callee.type != "member_expression" or not _named_value(node):
            return None
        member = self._text(callee.child_by_field_id(self.fields.property))
        head = unwrap(callee.child_by_field_id(self.fields.object))
        args = self._arguments(node)
        if member == "values" and head is not None and self._text(head) == "Object":
            table = js_loops.resolve(self, args[0]) if len(args) == 1 else None
            entries = js_loops.object_entries(self, table) if table is not None else None
            options = [unwrap(v) or v for v in entries.values()] if entries else []
            if not options or any(
                o.type != "object" or not self._route_options(o) for o in options
            ):
                return None
            decls = (self._options_decl(None, o, _TABLE_FRAMEWORKS) for o in options)
            return StarletteRoutes(tuple(decls))
        if member != "concat" or head is None:
            return None
        joined = [] if head.type == "array" and not head.named_children else [head]
        parts = [self._expr(a) for a in (*joined, *args)]
        if not parts or not all(isinstance(p, Sym | ImportRef) for p in parts):
            return None
        return StarletteRoutes(tuple(p for p in parts if p is not None))

    def _options_route(
        self, prop: _Node, owner: _Node, options: _Node, frameworks: tuple[Framework, ...]
    ) -> None:
        decl = self._options_decl(self._owner(owner), options, frameworks)
        self.routes.append(replace(decl, chain_root=self._chain_root(owner)))

    def _options_decl(
        self, owner: Expr | None, options: _Node, frameworks: tuple[Framework, ...]
    ) -> RouteDecl:
        """`fastify.route({ method: ['GET', 'HEAD'], url: '/x', preHandler: auth, handler })`,
        hapi's `server.route({ method: '*', path: '/x', options: { auth: false }, handler })`
        (which of them the owner is only the linker knows: each record's keys are read):
        methods computed out of sight make an `UNRESOLVED_ROUTE` (`methods_unknown`)."""
        method = unwrap(self._field(options, "method"))
        spelled = [self._string(m) for m in (_path_list(method) if method is not None else [])]
        if self._env and method is not None and not all(m is not None for m in spelled):
            looked = self._expr(method)  # `method: spec.method` in a loop over a table
            spelled = [looked.value] if isinstance(looked, Lit) else spelled
        known = bool(spelled) and all(m is not None for m in spelled)
        every = {f.all_method for f in frameworks if f.all_method}
        methods: tuple[str, ...] | None = None
        if known:
            methods = tuple(
                dict.fromkeys(
                    m for s in spelled if s is not None
                    for m in (ALL_METHODS if s in every else (s.upper(),))
                )
            )  # fmt: skip
        keys = dict.fromkeys(key for f in frameworks for key in f.path_keys)
        path_node = next(
            (v for key in keys if (v := self._field(options, key)) is not None),
            None,
        )
        path = (self._value(path_node) if path_node is not None else None) or Opaque()
        handler_node = self._field(options, "handler")
        handler = self._handler(handler_node) if handler_node is not None else None
        if handler_node is None:  # hapi: `options: { handler }`
            inner = self._dotted(options, ("options", "handler")) or self._dotted(
                options, ("config", "handler")
            )
            handler = self._handler(inner) if inner is not None else None
        guards = self._guards([options])
        # a framework's route auth options count in a file that does not name another's
        # (a Fastify file's `route({ path })` has no `options.auth`, and is not unknown for it)
        named = [f for f in frameworks if self._uses(f)]
        auth_paths = [p.split(".") for f in named or frameworks for p in f.auth_options]
        if auth_paths:
            guards += (self._route_auth(options, auth_paths),)
        value = self._entry_value(options) if owner is None else None  # a table's entry
        return RouteDecl(owner, path, methods, line_of(options), handler, auth=Auth(guards),
                         methods_unknown=not known, from_options=True,
                         options=value)  # fmt: skip

    def _dotted(self, node: _Node | None, keys: tuple[str, ...] | list[str]) -> _Node | None:
        """The value at `a.b` of an object literal (`{ options: { auth: false } }`)."""
        for key in keys:
            node = unwrap(node)
            if node is None or node.type != "object":
                return None
            node = self._field(node, key)
        return node

    def _route_auth(self, options: _Node, paths: list[list[str]]) -> Expr:
        """hapi's route `auth`: `false`, or `mode: 'try'`/`'optional'`, lets anyone through
        (`NoGuard`); a strategy name or `{ strategy }` is a guard (`Evidence`); none given,
        the server's default strategy decides, which is not read (`Opaque`)."""
        for path in paths:
            value = unwrap(self._dotted(options, path))
            if value is None:
                continue
            if value.type == "false":
                return NoGuard("auth: false")
            if value.type == "object":
                mode = self._string(self._field(value, "mode"))
                if mode in {"try", "optional"}:
                    return NoGuard(f"auth mode {mode}")
                return Evidence("auth strategy")
            if value.type in {"string", "template_string", "identifier", "member_expression"}:
                return Evidence("auth strategy")
            return Opaque()
        return Opaque()

    def _registers(
        self, node: _Node, owner: _Node, args: list[_Node], framework: Framework
    ) -> None:
        """hapi's `server.register(plugins, options)`: a plugin, `{ plugin, routes: { prefix }
        }`, or a list of them, each read as Fastify's `register(plugin, options)`; Fastify's
        is one plugin and its options."""
        first = unwrap(args[0]) or args[0]
        items = self._array_items(first) if framework.plugin_key else None
        common = args[1] if len(args) > 1 else None  # the register options: every item's
        keys = (framework.plugin_key, *framework.item_keys) if framework.plugin_key else ()
        for index, item in enumerate(items if items is not None else [first]):
            item = unwrap(item) or item
            plugin = None
            for key in keys if item.type == "object" else ():
                plugin = self._field(item, key)
                if plugin is not None:
                    break
            if plugin is not None:  # `{ plugin: p, routes: { prefix } }`, hapi 16's `register`
                self._register(node, owner, [plugin, item], framework, index, common)
            else:
                self._register(node, owner, [item, *args[1:2]], framework, index)

    def _register(
        self,
        node: _Node,
        owner: _Node,
        args: list[_Node],
        framework: Framework,
        index: int = 0,
        common: _Node | None = None,
    ) -> None:
        """`fastify.register(plugin, { prefix: '/v1' })`: Fastify runs `plugin(child, opts)`
        with a child of `owner` under that prefix (a router made at the call, mounted on
        `owner`, passed to the plugin as its first parameter). A plugin wrapped by
        `fastify-plugin` is given `owner` itself, prefix ignored, as Fastify does. hapi's
        item naming no prefix of its own (`args[1]`) is under the register options' one
        (`common`); its plugin may be the register function itself (hapi 16)."""
        parent = self._owner(owner)
        plugin_node = unwrap(args[0]) or args[0]
        if parent is None:
            return
        line = line_of(node)
        shared = False
        factory = self._factory(plugin_node)  # `register(make(db))`: what `make` returns
        imported = self._imports and js_dynimport.is_import(self, plugin_node)
        if (
            plugin_node.type == "call_expression"
            and self._require(plugin_node) is None
            and not imported
        ):
            # `fp(plugin)`, `wrap(plugin)`: the plugin is the wrapped function
            wrapper = unwrap(plugin_node.child_by_field_id(self.fields.function))
            shared = self._default_of(wrapper) == _SHARED_PLUGIN
            inner = self._arguments(plugin_node)
            plugin_node = (unwrap(inner[0]) or inner[0]) if inner else plugin_node
            if shared:  # `fp(make(db))`
                factory = self._factory(plugin_node)
        if not framework.plugin_key:  # Fastify's: `fastify-plugin` ones, sharing `parent`
            self._generated(
                node, parent, plugin_node, framework, args[1] if len(args) > 1 else None
            )
        if self._default_of(plugin_node) in framework.config_plugins and len(args) > 1:
            self._config_plugin(
                args[1], framework.config_plugins[self._default_of(plugin_node) or ""]
            )
        if self._default_of(plugin_node) in framework.loaders:
            self._load(node, parent, args[1] if len(args) > 1 else None)
            return
        plugin = self._expr(plugin_node)
        if imported and not framework.plugin_key and isinstance(plugin, ImportRef):
            plugin = _member(plugin, "default")  # avvio registers a namespace's `default`
        callees: list[Expr] = [plugin] if plugin is not None else []
        if factory is not None and not framework.plugin_member:  # hapi's: its `register`
            # what `make(db)` returns; the first argument is still read as a wrapped plugin
            callees.append(PluginOf(factory))
        if framework.plugin_member and plugin is not None:  # hapi: `{ name, register }`
            # one name per item of a list: each item's plugin is its own
            callees = self._plugin_functions(plugin, framework, f"{site_of(node)}:{index}")
            if framework.item_keys:  # hapi 16: the plugin may be its register function
                callees.append(plugin)
        if framework.plugin_member and factory is not None:  # `register(make(conf))`
            if isinstance(factory, ImportRef):  # `require('./x')(conf)`: named, for a member
                named = f"{site_of(node)}:{index}:factory"
                self.bindings[named] = factory
                factory = Sym((named,))
            made = self._plugin_functions(Call(factory, ()), framework, f"{site_of(node)}:{index}")
            callees += made  # the object it returns: its `register` (ignored unless linked)
        if shared:
            child: Expr = parent
        else:
            options = unwrap(args[1]) if len(args) > 1 else None
            prefix: Expr | None = None
            for holder in (options, unwrap(common) if common is not None else None):
                if holder is not None and holder.type == "object":
                    value = self._dotted(holder, framework.register_prefix.split("."))
                    prefix = (self._value(value) or Opaque()) if value is not None else None
                elif holder is not None:
                    prefix = Opaque()  # options computed out of sight: the prefix may be there
                if prefix is not None:
                    break
            site = f"{site_of(node)}:{framework.register_call}:{index}"
            self.routers[site] = RouterDecl(site, framework.key, line, prefix=prefix)
            child = RouterRef(site)
            self.uses.append(UseDecl(parent, ((child, Auth((child,))),), line))
        if framework.plugin_key:  # hapi's: under the register's `routes.prefix`, as any plugin's
            self._generated(node, child, plugin_node, framework, args[1] if len(args) > 1 else None)
        if isinstance(plugin, RouterRef) and plugin.router_id in self.library_takes:
            # `register(board.registerPlugin(), { prefix })`: a library's table on the child,
            # listed at the register call
            self.uses.append(UseDecl(child, ((plugin, Auth()),), line))
            js_library_tables.registered_at(self, plugin, line)
        elif isinstance(plugin, Sym | ImportRef | Member | Param):  # a library's value?
            ran = self._value(plugin_node) or plugin
            self.registered.append(Registered(parent, child, ran, line, self._enclosing(node)))
        given = self._plugin_options(args[1] if len(args) > 1 else None, framework)
        for callee in callees:
            self.invocations.append(
                Invocation(callee, (child, given) if given is not None else (child,), (), line,
                           scope=self._enclosing(node))
            )  # fmt: skip

    def _factory(self, node: _Node) -> Expr | None:
        """The callee of the call that makes a registered plugin (`make` of `make(db)`,
        `require('./x')(db)`, or of `const p = make(db)` declared before `register(p)`), whose
        returned function the linker registers when it is the project's; None for any other
        plugin (a function, a module, a router)."""
        node = unwrap(node) or node
        if node.type == "identifier":
            declared = self._declared(node)
            node = declared if declared is not None else node
        if node.type != "call_expression" or self._require(node) is not None:
            return None
        if self._creates(node) is not None:
            return None
        callee = unwrap(node.child_by_field_id(self.fields.function))
        if callee is None or self._default_of(callee) == _SHARED_PLUGIN:
            return None
        path = self._path(callee)
        if path is not None and path[:2] == ("require", CALL):
            return self._expr(callee)  # `require('./x')(db)`, `require('./x').make(db)`
        return Sym(path) if path is not None and CALL not in path else None

    def _generated(
        self,
        node: _Node,
        parent: Expr,
        plugin: _Node,
        framework: Framework,
        options: _Node | None = None,
    ) -> None:
        """A plugin library that serves routes of its own (the record's `generates`): those
        it always serves, on the registering router (they are all `fastify-plugin` plugins,
        sharing it); those that hang on its options, one route whose path is not known (an
        `UNRESOLVED_ROUTE` here naming the library), unless its record (`documented`) says
        which routes its options fix: then its options as given, for the linker to list."""
        module = self._default_of(plugin)
        if module is None and plugin.type == "identifier":  # a named export (`plugin_exports`)
            bound = self.bindings.get(self._text(plugin))
            if isinstance(bound, ImportRef) and (
                framework.plugin_exports.get(bound.module) == bound.attr
            ):
                module = bound.module
        if module is None or module not in framework.generates:
            return
        record = framework.documented.get(module)
        if record is not None:
            if framework.plugin_key:  # hapi: `{ plugin, options }`, else no options given
                held = unwrap(options)
                options = self._field(held, "options") if held and held.type == "object" else None
            self.routes.append(
                RouteDecl(parent, Opaque(), None, line_of(node), methods_unknown=True,
                          generated_by=module, documented=self._documented(options, record))
            )  # fmt: skip
            return
        served = framework.generates[module]
        files = self._static_files(node, framework.static_plugins.get(module))
        if files is not None:
            self.routes.append(RouteDecl(parent, files, ("GET",), line_of(node)))
            return
        for method, path in served:
            self.routes.append(RouteDecl(parent, Lit(path), (method,), line_of(node)))
        if not served:
            self.routes.append(
                RouteDecl(parent, Opaque(), None, line_of(node), methods_unknown=True,
                          generated_by=module)
            )  # fmt: skip

    def _documented(
        self, node: _Node | None, record: OptionRoutes
    ) -> tuple[tuple[str, Expr | bool], ...] | None:
        """The options of a documentation plugin's record as given (`{ routePrefix: '/docs' }`,
        or a `const` of the file holding the object): a boolean literal as it is, any other
        value as `_value` reads it; none given: `()`. None when the object is computed or
        spreads another (an option may hide there)."""
        if node is None:
            return ()
        node = unwrap(node) or node
        if node.type in {"identifier", "shorthand_property_identifier"}:
            declared = self._declared(node)
            if declared is None:
                return None
            node = declared
        if node.type != "object":
            return None
        found: list[tuple[str, Expr | bool]] = []
        for prop in node.named_children:
            if prop.type not in {"pair", "shorthand_property_identifier", "comment"}:
                return None  # a spread, a method: options out of sight
        for name in record.options:
            value = self._field(node, name)
            if value is None:
                continue
            bare = unwrap(value) or value
            if bare.type in {"true", "false"}:
                found.append((name, bare.type == "true"))
            else:
                found.append((name, self._value(value) or Opaque()))
        return tuple(found)

    def _static_files(self, register: _Node, option: str | None) -> Expr | None:
        """`register(fastifyStatic, { root, prefix: '/assets/' })`: the path a static-file
        plugin serves every file under, `<prefix>/*` (its default prefix `/`); None when it is
        no such plugin or its options are not read (computed; `wildcard: false` or `serve:
        false`, where its routes hang on the files found at start-up, or there are none)."""
        args = self._arguments(register)
        options = unwrap(args[1]) if option is not None and len(args) > 1 else None
        if option is None or (options is not None and options.type != "object"):
            return None
        if options is not None:
            for flag in ("wildcard", "serve"):
                value = unwrap(self._field(options, flag))
                if value is not None and value.type != "true":
                    return None
        given = self._field(options, option) if options is not None else None
        prefix = self._value(given) if given is not None else Lit("/")
        if isinstance(prefix, Lit):
            return Lit(prefix.value.rstrip("/") + "/*")
        return Concat((prefix, Lit("/*"))) if prefix is not None else None

    def _load(self, node: _Node, parent: Expr, options: _Node | None) -> None:
        """`fastify.register(autoLoad, { dir: path.join(__dirname, 'routes'), options: {
        prefix } })`: every script of that folder is a plugin registered on `parent` (the
        loader shares its router), listed by the linker; a folder not known (computed) is a
        finding here, as a library's own routes are."""
        options = unwrap(options)
        folder_node = self._field(options, "dir") if options and options.type == "object" else None
        folder = self._folder(folder_node)
        if options is None or options.type != "object" or folder is None:
            loader = "@fastify/autoload"
            self.routes.append(
                RouteDecl(parent, Opaque(), None, line_of(node), methods_unknown=True,
                          generated_by=loader)
            )  # fmt: skip
            return
        passed = unwrap(self._field(options, "options"))
        passed = self._copied(passed) or passed
        prefix: Expr | None = None
        if passed is not None and passed.type == "object":
            value = self._field(passed, "prefix")
            prefix = (self._value(value) or Opaque()) if value is not None else None
        elif passed is not None:  # options computed out of sight: the prefix may be in them
            given = self._value(passed)
            # what the caller passes: no `prefix` in it is none (the loader's `prefix || ''`)
            prefix = (
                Fallback(Member(given, ("prefix",)), Lit(""), "")
                if isinstance(given, Param)
                else Opaque()
            )
        dir_prefix = unwrap(self._field(options, "dirNameRoutePrefix"))
        ignore = unwrap(self._field(options, "ignorePattern"))
        pattern = ignore.child_by_field_id(self.fields.pattern) if ignore is not None else None
        self.loads.append(
            LoadDecl(parent, folder, prefix, dir_prefix is None or dir_prefix.type != "false",
                     line_of(node), self._enclosing(node),
                     self._text(pattern) if pattern is not None else None,
                     self._value(passed) if passed is not None else None)
        )  # fmt: skip

    def _copied(self, node: _Node | None) -> _Node | None:
        """The one object a shallow copy copies (`Object.assign({}, opts)`, `{ ...opts }`):
        its fields are that object's; None for anything else."""
        if node is None:
            return None
        if node.type == "object":
            items = [c for c in node.named_children if c.type != "comment"]
            if len(items) == 1 and items[0].type == "spread_element" and items[0].named_children:
                return unwrap(items[0].named_children[0])
            return None
        if node.type != "call_expression":
            return None
        callee = unwrap(node.child_by_field_id(self.fields.function))
        args = self._arguments(node)
        if callee is None or self._text(callee) != "Object.assign" or len(args) != 2:
            return None
        target = unwrap(args[0])
        if target is None or target.type != "object" or target.named_children:
            return None
        return unwrap(args[1])

    def _folder(self, node: _Node | None) -> str | None:
        """The repository folder `path.join(__dirname, 'routes')` names (also `resolve`, and
        desm's `join(import.meta.url, 'routes')`), from this file's own; None for any other."""
        node = unwrap(node)
        if node is None or node.type != "call_expression":
            return None
        callee = self._text(node.child_by_field_id(self.fields.function))
        if callee.rpartition(".")[2] not in {"join", "resolve"}:
            return None
        args = [unwrap(a) or a for a in self._arguments(node)]
        if not args or self._text(args[0]) not in {"__dirname", "import.meta.url",
                                                   "import.meta.dirname"}:  # fmt: skip
            return None
        parts = [self._string(a) for a in args[1:]]
        if any(p is None for p in parts):
            return None
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), *parts))  # type: ignore[arg-type]
        return None if joined.startswith("..") else joined

    def _plugin_functions(self, plugin: Expr, framework: Framework, site: str) -> list[Expr]:
        """hapi's plugin object's function (`plugin.register`), or that of the `plugin` its
        module exports (`exports.plugin = { register }`): each a call the linker follows when
        it links to a function, ignores otherwise."""
        member, key = framework.plugin_member or "", framework.plugin_key
        if isinstance(plugin, Namespace):
            fields = dict(plugin.fields)
            inner = fields.get(key) if key else None
            found = fields.get(member) or (
                dict(inner.fields).get(member) if isinstance(inner, Namespace) else None
            )
            return [found] if found is not None else []
        callees = [m for m in (_member(plugin, member),) if m is not None]
        if key:
            holder: Expr | None = _member(plugin, key)
            if isinstance(holder, ImportRef):  # named, to reach a member of the export
                name = f"{site}:{key}"
                self.bindings[name] = holder
                holder = Sym((name,))
            nested = _member(holder, member) if holder is not None else None
            if nested is not None:
                callees.append(nested)
        return callees

    def _guards(self, args: list[_Node]) -> tuple[Expr, ...]:
        """Each middleware argument as a guard to judge; an options object (Fastify's) gives
        the values of its guarding options (`{ preHandler: [a, b] }`), nothing else."""
        guards: list[Expr] = []
        for arg in args:
            inner = unwrap(arg) or arg
            if inner.type != "object" or not _HOOK_OPTIONS:
                guards += self._guards_in(arg)  # `...chain`: what the list holds
                continue
            for name in _HOOK_OPTIONS:
                value = self._field(inner, name)
                items = self._array_items(value) if value is not None else None
                for item in items if items is not None else ([value] if value else []):
                    guards.append(self._guard(item))
        return tuple(guards)

    def _set_prefix(self, owner: _Node, prefix: _Node) -> None:
        """`router.prefix('/api')`: the router's own prefix from then on; on a router made
        elsewhere (or not known yet) the linker applies it (`PrefixDecl`)."""
        expr = self._owner(owner)
        ref = expr
        if isinstance(ref, Sym) and len(ref.path) == 1:
            ref = self.bindings.get(ref.path[0])
        decl = self.routers.get(ref.router_id) if isinstance(ref, RouterRef) else None
        value = self._value(prefix) or Opaque()
        if decl is not None:
            self.routers[decl.router_id] = replace(decl, prefix=value)
        elif expr is not None:
            self.prefixes.append(PrefixDecl(expr, value, line_of(owner)))

    def _route(self, node: _Node, prop: _Node, verb: str, owner: _Node, args: list[_Node]) -> None:
        chained = self._route_chain(owner)
        if chained is not None:  # router.route('/x').get(...).post(...)
            owner, paths = chained
        elif len(args) >= 3 and self._named_route(args):  # router.get('user', '/u/:id', h)
            paths, args = args[1:2], args[2:]
        elif len(args) >= 2:  # app.get('/x', handler); app.get('env') reads a setting
            paths, args = args[:1], args[1:]
        else:
            return
        if not args:
            return
        last = unwrap(args[-1]) or args[-1]
        options_last = last.type == "object"  # `fastify.get('/x', { preHandler, handler })`
        # `...chain` last: the handler and what guards it, in a list (`_spread_guard`)
        guarded = args if options_last or last.type == "spread_element" else args[:-1]
        auth = Auth(self._guards(guarded)) if guarded else NO_AUTH
        owner_expr = self._owner(owner)
        methods = (EVERY,) if verb == "all" else (_ALIASES.get(verb, verb.upper()),)
        line = line_of(prop)
        handler_node = self._field(last, "handler") if options_last else args[-1]
        handler = self._handler(handler_node) if handler_node is not None else None
        chain_root = self._chain_root(owner)
        for target in _path_list(paths[0]):
            path = self._value(target) or Opaque()
            self.routes.append(
                RouteDecl(owner_expr, path, methods, line, handler, auth=auth,
                          chain_root=chain_root)
            )  # fmt: skip

    def _methods_route(self, node: _Node, prop: _Node, owner: _Node, args: list[_Node]) -> None:
        """`router.register('/x', ['GET', 'POST'], [auth, handler])` (koa-router): its methods a
        list of strings, or values a loop or a helper's callers give (`[verb]`, `methods`); the
        last middleware is the handler, those before it guard."""
        listed = unwrap(args[1]) or args[1]
        elements = [c for c in listed.named_children if c.type != "comment"]
        method_nodes = elements if listed.type == "array" else [listed]
        spelled = [self._string(m) for m in method_nodes]
        methods: tuple[str, ...] | None = None
        method_exprs: tuple[Expr, ...] = ()
        if spelled and all(m is not None for m in spelled):
            methods = tuple(
                dict.fromkeys(
                    m for s in spelled if s is not None
                    for m in ((EVERY,) if s.lower() == "all" else (_ALIASES.get(s, s.upper()),))
                )
            )  # fmt: skip
        else:
            values = [self._value(m) for m in method_nodes]
            method_exprs = tuple(v for v in values if v is not None)
        middleware = unwrap(args[2]) or args[2]
        chain = (
            [c for c in middleware.named_children if c.type != "comment"]
            if middleware.type == "array"
            else args[2:3]
        )
        auth = Auth(self._guards(chain[:-1])) if len(chain) > 1 else NO_AUTH
        handler = self._handler(chain[-1]) if chain else None
        unknown = methods is None and (not method_exprs or len(method_exprs) < len(method_nodes))
        for target in _path_list(args[0]):
            self.routes.append(
                RouteDecl(self._owner(owner), self._value(target) or Opaque(), methods,
                          line_of(prop), handler, auth=auth, methods_unknown=unknown,
                          method_exprs=() if unknown else method_exprs)
            )  # fmt: skip

    def _named_route(self, args: list[_Node]) -> bool:
        """koa-router's named route: a name, then a path (`'user', '/users/:id'`)."""
        first, second = (unwrap(a) or a for a in args[:2])
        if first.type != "string" or second.type not in {"string", "template_string"}:
            return False
        return self._text(second)[1:2] == "/"

    def _table_router(self, node: _Node) -> RouterRef | None:
        """`mapRoutes(table, folder)` of a library a record names (`table_routers`): a router
        made here, serving each `'VERB /path'` key of the table (which the linker reads where
        the table is written, in this file or another); None for any other call."""
        if node.type != "call_expression":
            return None
        module = self._default_of(unwrap(node.child_by_field_id(self.fields.function)))
        framework = next((f for f in JAVASCRIPT if module in f.table_routers), None)
        if framework is None or module is None:
            return None
        site = site_of(node)
        if site not in self.routers:
            line = line_of(node)
            self.routers[site] = RouterDecl(site, framework.key, line)
            args = self._arguments(node)
            table = (self._value(args[0]) or Opaque()) if args else Opaque()
            self.routes.append(RouteDecl(RouterRef(site), table, None, line, keyed_by=module))
        return RouterRef(site)

    def _creates(self, node: _Node) -> tuple[Framework, bool] | None:
        """(framework, whether an app) for a call or `new` that makes an app or a router of a
        framework record: `express()`, `express.Router()`, `Router()` from 'express',
        `new Koa()`, `new Router()` from '@koa/router'; None for any other."""
        if node.type not in {"call_expression", "new_expression"}:
            return None
        callee = node.child_by_field_id(self.fields.function) or node.child_by_field_id(
            self.fields.constructor
        )
        callee = unwrap(callee)
        if callee is None:
            return None
        module = self._default_of(callee)
        if module in _APP_WRAPPERS and node.type == "call_expression":
            arguments = self._arguments(node)  # `websockify(new Koa())`: the app it is given
            wrapped = self._creates(unwrap(arguments[0]) or arguments[0]) if arguments else None
            return wrapped if wrapped is not None and wrapped[1] else None
        if module is not None:
            for framework in JAVASCRIPT:
                if module in framework.app_modules:
                    return framework, True
                if module in framework.router_modules:
                    return framework, False
        if callee.type == "identifier":
            bound = self.bindings.get(self._text(callee))
            if isinstance(bound, ImportRef):
                for framework in JAVASCRIPT:
                    modules = (*framework.app_modules, *framework.router_modules)
                    if bound.module in modules and bound.attr in framework.app_members:
                        return framework, True  # `import { fastify } from 'fastify'`
                    if bound.module in modules and bound.attr in framework.router_members:
                        return framework, False
        if callee.type == "member_expression":
            member = self._text(callee.child_by_field_id(self.fields.property))
            owner = self._default_of(unwrap(callee.child_by_field_id(self.fields.object)))
            if member == _COMPOSE and owner in _COMPOSERS:
                return _COMPOSERS[owner], True  # `Glue.compose(manifest)`: a hapi server
            for framework in JAVASCRIPT:
                modules = (*framework.app_modules, *framework.router_modules)
                if owner in modules and member in framework.app_members:
                    return framework, True  # `Hapi.server({ port })`
                if owner in modules and member in framework.router_members:
                    return framework, False
        return None

    def _default_of(self, node: _Node | None) -> str | None:
        """The package whose default export `node` is (`express` bound by `import express from
        'express'` or `require('express')`, or the `require(...)` itself)."""
        if node is None:
            return None
        if node.type == "identifier":
            bound = self.bindings.get(self._text(node))
            if isinstance(bound, ImportRef) and bound.attr in {None, "default"}:
                return bound.module
            return None
        if (
            node.type == "member_expression"
            and self._text(node.child_by_field_name("property")) == "default"
        ):
            return self._default_of(node.child_by_field_name("object"))  # CommonJS interop
        if self._imports and js_dynimport.is_import(self, node):  # `import('@fastify/cors')`
            loaded = js_dynimport.namespace(self, unwrap(node) or node)
            return loaded.module if isinstance(loaded, ImportRef) else None
        return self._require(node)

    # -- expressions -----------------------------------------------------------------------

    def _expr(self, node: _Node | None) -> Expr | None:
        if node is None:
            return None
        kind = node.type
        while kind in TRANSPARENT and node.named_children:
            node = node.named_children[0]
            kind = node.type
        if kind == "identifier" or kind == "shorthand_property_identifier":  # the commonest
            name = self._text(node)
            if self._env and name in self._env:
                return self._bound(self._env[name])
            loaded = self._loaded(node, name)
            if loaded is not None:  # `import('./x').then((m) => …)`: the module's namespace
                return loaded
            again = self._again(node, name, self._expr)
            if again is not None:  # bound more than once: in statement order, or unknown
                return again
            scoped = self._scoped_read(node, name, self._expr)
            if scoped is not None:  # one of several declarations of the name
                return scoped
            if self._scoped:
                param = self._param(node, name)
                if param is not None:
                    return param
                merged = self._merged_local(node, name, assigned_only=True)
                if merged is not None:  # `const routes = {}; Object.assign(routes, core)`
                    return merged
                local = self._const_local(node, name)
                if local is not None:  # `const route = { method, path }` of a factory
                    return local
            return Sym((name,))
        if kind == "string":
            value = self._string(node)
            return Lit(value) if value is not None else None
        if kind == "template_string":
            parts: list[Expr] = []
            for part in node.named_children:
                if part.type == "string_fragment":
                    parts.append(Lit(self._text(part)))
                elif part.type == "template_substitution":
                    inner = self._expr(part.named_children[0] if part.named_children else None)
                    if inner is None:
                        return None
                    parts.append(inner)
                else:
                    return None
            return Concat(tuple(parts))
        if (
            kind == "binary_expression"
            and self._text(node.child_by_field_id(self.fields.operator)) == "+"
        ):
            left = self._expr(node.child_by_field_id(self.fields.left))
            right = self._expr(node.child_by_field_id(self.fields.right))
            return Concat((left, right)) if left is not None and right is not None else None
        if kind == "binary_expression" or kind == "ternary_expression":
            fallback = self._fallback(node, self._expr)
            if fallback is None and self._scoped and kind == "ternary_expression":
                return self._choice(node)
            if fallback is None and kind == "binary_expression":
                return self._equality(node)
            return fallback
        if kind == "regex":  # `app.get(/^\/x/i, h)`: a path only some frameworks route
            return _pattern(self._text(node))
        if kind in {"call_expression", "new_expression"} and (made := self._regexp(node)):
            return made
        if self._imports and kind == "call_expression":
            imported = js_dynimport.value(self, node)
            if imported is not None:  # `import('./x')`: the module's namespace
                return imported
        if kind == "call_expression" and self._library_seeds:
            took = js_library_tables.taken(self, node)  # `board.getRouter()`
            if took is not None:
                return took
        if kind in {"call_expression", "new_expression"}:
            created = self._creates(node)
            if created is not None:
                framework, app = created
                site = site_of(node)
                prefix = self._prefix_option(node, framework)
                decl = RouterDecl(site, framework.key, line_of(node), prefix=prefix, app=app)
                self.routers.setdefault(site, decl)
                return RouterRef(site)
            tabled = self._table_router(node)
            if tabled is not None:
                return tabled
            listed = js_dirload.listing(self, node) if node.type == "call_expression" else None
            if listed is not None:  # `globSync('models/*.js')`: the linker lists the files
                return listed
            module = self._require(node)
            if module is not None:
                return self._ref(module, "default")
            configured = self._configured(node)
            if configured is not None:
                return configured
            if self._optional_guard(node):
                return NoGuard("credentialsRequired: false")
            callee = node.child_by_field_id(self.fields.function)
            if (
                callee is not None
                and callee.type == "member_expression"
                and self._text(callee.child_by_field_id(self.fields.property)) in _CALLED | _CHAINED
            ):  # `Router().use(...)`, `router.get(...)`: Express returns the router itself
                target = callee.child_by_field_id(self.fields.object)
                # on a function's parameter (`server.select('api')` in a plugin): what its
                # callers pass
                return self._owner(target) if target is not None else None
            if callee is not None and callee.type == "member_expression":
                member = self._text(callee.child_by_field_id(self.fields.property))
                if member in _UNWRAP and not self._arguments(node):  # `router.routes()`
                    return self._expr(callee.child_by_field_id(self.fields.object))
                if member in _NO_ROUTES:  # `router.allowedMethods()`
                    return NoGuard(f"{member}()")
            if self._default_of(unwrap(callee)) == _SHARED_PLUGIN and self._arguments(node):
                # `module.exports = fp(plugin)`: the plugin itself, to be called by a register
                return self._expr(self._arguments(node)[0])
            cased = self._cased(node) or self._split(node)
            if cased is not None:
                return cased
            joined = self._joined_table(node) if kind == "call_expression" else None
            if joined is None and kind == "call_expression":  # `api.getRoutes()` of a library's
                joined = hapi_rest_tables.table(self, node)
            if joined is not None:
                return joined
            mapped = self._mapped(node) if kind == "call_expression" else None
            if mapped is not None:
                return mapped
            reduced = self._reduced(node) if kind == "call_expression" else None
            if reduced is not None:
                return reduced
            gathered = self._gathered(node) if kind == "call_expression" else None
            if gathered is not None:
                return gathered
            wrapped = self._wrapped(node)
            if wrapped is not None:
                return wrapped
            applied = self._applied(node) if kind == "call_expression" else None
            if (
                applied is not None
                and applied.args
                and all(isinstance(a, Lit) for a in applied.args)
            ):
                # `setting('API_BASE', '/api')`: a function of the project's given constants,
                # its return value with them bound (a guard factory is judged by its definition)
                return applied
            aliased = self._maybe_router(node)
            if aliased is not None:
                return aliased
        if self._env and kind in {"member_expression", "subscript_expression"}:
            return self._looked_up(node)
        if kind == "subscript_expression":  # `T['x']`, `T[0]` of a table the file spells
            found = js_loops.resolve(self, node)
            if found is not None:
                return self._looped(found)
            key = self._spelled(node.child_by_field_id(self.fields.index))
            obj = unwrap(node.child_by_field_id(self.fields.object))
            base = self._value(obj) if key and obj is not None else None
            return _member(base, key) if base is not None and key else None  # `fastify['x']`
        if kind == "member_expression":
            prop = self._text(node.child_by_field_id(self.fields.property))
            base = self._expr(node.child_by_field_id(self.fields.object))
            if isinstance(base, ImportRef) and base.attr == "default":  # require('./x').router
                return self._ref(base.module, prop)
            if isinstance(base, ImportRef) and base.attr is None:  # (await import('./x')).default
                return ImportRef(base.module, prop, base.origin)
            if isinstance(base, Param | ImportRef):  # `item.plugin` of a callback's item,
                return Member(base, (prop,))  # `require('pkg').Util.Hapi` of an export's
            if isinstance(base, Member) and isinstance(base.base, Param | ImportRef):
                return Member(base.base, (*base.path, prop))
            if isinstance(base, Sym) and self._path(node) is None:
                return Sym((*base.path, prop))  # `app['layout'].mounts`
            if (
                isinstance(base, Sym)
                and base.path
                and js_scopes.spelled(base.path[0]) != base.path[0]
            ):
                return Sym((*base.path, prop))  # `r.stack` of one of several locals named `r`
        if kind == "object":
            return self._object(node)
        if kind == "array" and self._scoped:  # a callback's or helper's list: its items
            return self._list_value(node)
        if kind == "array":  # `exports.endpoints = [{ method, path, handler }, ...]`
            return self._route_table(node) or self._rows(node)
        if kind in FUNCTION_VALUES:  # `module.exports = (app) => {...}`: callers pass routers
            return self._function(node, "")
        path = self._path(node)
        return Sym(path) if path else None

    def _regexp(self, node: _Node) -> Pattern | None:
        """`new RegExp('^/x', 'i')` (or `RegExp(...)`, or of a literal `/x/`) of literal
        arguments: the expression it makes, its source escaped as JavaScript escapes it."""
        field = self.fields.constructor if node.type == "new_expression" else self.fields.function
        callee = node.child_by_field_id(field)
        if callee is None or callee.type != "identifier" or self._text(callee) != "RegExp":
            return None
        args = [unwrap(a) for a in self._arguments(node)]
        if not 1 <= len(args) <= 2 or any(a is None for a in args):
            return None
        first = args[0]
        flags = self._string(args[1]) if len(args) == 2 and args[1] is not None else ""
        if first is None or flags is None:
            return None
        if first.type == "regex":
            made = _pattern(self._text(first))
            return Pattern(made.source, flags) if len(args) == 2 else made
        source = self._string(first) if first.type == "string" else None
        return Pattern(_regexp_source(source), flags) if source is not None else None

    def _maybe_router(self, node: _Node) -> RouterRef | None:
        """`new Srv()` (or a capitalised `Srv()`) of a name the file imports from anywhere but
        a framework's own module, whose import may land on a framework's app or router class
        through the project's aliases and re-exports (`export { default as Srv } from
        './srv'`, `const { KRouter: Q } = require('./re')`): a router only if the linker
        follows the name to one (`RouterDecl.subclass`), else what calling it gives, as
        before. Its options' `prefix` is kept for the frameworks that read one."""
        callee = unwrap(node.child_by_field_id(self.fields.function)) or unwrap(
            node.child_by_field_id(self.fields.constructor)
        )
        path = self._path(callee) if callee is not None else None
        if path is None or CALL in path:
            return None
        if node.type != "new_expression" and not path[-1][:1].isupper():
            return None
        bound = self.bindings.get(path[0])
        if not isinstance(bound, ImportRef) or bound.module in _FRAMEWORK_MODULES:
            return None
        site = site_of(node)
        prefix = next(
            (p for f in JAVASCRIPT if f.prefix_option and (p := self._prefix_option(node, f))),
            None,
        )
        decl = RouterDecl(site, "", line_of(node), prefix=prefix, subclass=Sym(path))
        self.routers.setdefault(site, decl)
        return RouterRef(site)

    def _prefix_option(self, node: _Node, framework: Framework) -> Expr | None:
        """`new Router({ prefix: '/api' })`: the router's own prefix, from its options."""
        if framework.prefix_option is None:
            return None
        args = self._arguments(node)
        options = unwrap(args[0]) if args else None
        if options is None or options.type != "object":
            return None
        value = self._field(options, framework.prefix_option)
        return self._value(value) if value is not None else None

    def _branch(self, node: _Node) -> Condition | None:
        """The nearest `if` around `node` whose test the linker may decide under the
        configuration's defaults (`_test`): a route there is served only when it holds."""
        child, scope = node, node.parent
        own_function = True  # an early `return` leaves the function `node` is written in only
        while scope is not None:
            test: _Node | None = None
            in_else: bool | None = None
            if own_function and scope.type == "statement_block":
                guard = self._early_return(scope, child)
                if guard is not None:
                    return guard
            own_function = own_function and scope.type not in FUNCTIONS
            if scope.type == "if_statement" and child != scope.child_by_field_id(
                self.fields.condition
            ):
                in_else = child.type == "else_clause"
                test = unwrap(scope.child_by_field_id(self.fields.condition))
            elif scope.type == "ternary_expression" and child != scope.child_by_field_id(
                self.fields.condition
            ):  # `test ? app.get(...) : app.get(...)` as a statement
                in_else = child == scope.child_by_field_id(self.fields.alternative)
                test = unwrap(scope.child_by_field_id(self.fields.condition))
            elif (
                scope.type == "binary_expression"
                and child == scope.child_by_field_id(self.fields.right)
                and (operator := self._text(scope.child_by_field_id(self.fields.operator)))
                in _JOINS
            ):  # `test && app.get(...)`: run when the test holds (`||`: when it fails)
                in_else = operator == "||"
                test = unwrap(scope.child_by_field_id(self.fields.left))
            read = self._test(test, in_else) if test is not None and in_else is not None else None
            if read is not None:
                return replace(read, text=self._text(test), in_else=bool(in_else))
            child, scope = scope, scope.parent
        return None

    def _early_return(self, block: _Node, child: _Node) -> Condition | None:
        """The nearest `if (test) return` written before `child` in `block` (no `else`, its
        body a bare `return` or a block holding only one) whose test `_test` reads: what
        follows runs only when the test fails, as if written in that `if`'s `else` branch
        (`if (!config.enabled) return` at the top of a plugin before its routes)."""
        earlier = []
        for statement in block.named_children:
            if statement == child:
                break
            earlier.append(statement)
        else:
            return None
        for statement in reversed(earlier):
            if statement.type != "if_statement" or not self._returns_only(statement):
                continue
            test = unwrap(statement.child_by_field_id(self.fields.condition))
            read = self._test(test, True) if test is not None else None
            if read is not None:
                return replace(read, text=self._text(test), in_else=True, returned=True)
        return None

    def _returns_only(self, statement: _Node) -> bool:
        """Whether an `if` has no `else` and its body is only a `return` (a value or none)."""
        if statement.child_by_field_id(self.fields.alternative) is not None:
            return False
        body = statement.child_by_field_id(self.fields.consequence)
        if body is not None and body.type == "statement_block":
            body = body.named_children[0] if len(body.named_children) == 1 else None
        return body is not None and body.type == "return_statement"

    def _test(self, test: _Node, negate: bool) -> Condition | None:
        """`x`, `!x`, `x === 'lit'`, `x !== 'lit'` (`==`, `!=`; either side), `x` a name or a
        member: `process.env.X` (or a name bound to it) with no default is unset, "" (falsy);
        None for any other test."""
        test = unwrap(test) or test
        if test.type == "unary_expression":
            operator = self._text(test.child_by_field_id(self.fields.operator))
            operand = test.child_by_field_id(self.fields.argument)
            return self._test(operand, not negate) if operator == "!" and operand else None
        if test.type == "binary_expression":
            operator = self._text(test.child_by_field_id(self.fields.operator))
            if operator in _JOINS:  # `a && !b`, `a || b === 'x'`: each side read alone
                sides = [
                    self._test(side, False) if side is not None else None
                    for side in (
                        test.child_by_field_id(self.fields.left),
                        test.child_by_field_id(self.fields.right),
                    )
                ]
                if all(side is None for side in sides):
                    return None
                parts = tuple(side or _UNKNOWN_TEST for side in sides)
                return Condition(Opaque(), None, negate, "", op=operator, parts=parts)
            if operator not in _EQUALITIES:
                return None
            left = test.child_by_field_id(self.fields.left)
            right = test.child_by_field_id(self.fields.right)
            if left is not None and left.type == "string":
                left, right = right, left
            literal = self._string(right)
            value = self._tested(left) if left is not None else None
            if literal is None or value is None:
                return None
            return Condition(value, Lit(literal), negate != operator.startswith("!"), "")
        value = self._tested(test)
        return Condition(value, None, negate, "") if value is not None else None

    def _equality(self, node: _Node) -> Choice | None:
        """`x === 'lit'` (`==`, `!==`, `!=`; either side) read as a value, the flag a module
        binds and another tests (`export const IS_PAID = process.env.TIER === 'paid'`, then
        `if (IS_PAID)` where it is imported): `'true'` when it holds, `''` when not (the truth
        of a flag as the linker tells it), `x` read as an `if` test reads it (`_tested`: an
        environment variable no sample file sets is unset); None for any other comparison."""
        operator = self._text(node.child_by_field_id(self.fields.operator))
        if operator not in _EQUALITIES:
            return None
        left = unwrap(node.child_by_field_id(self.fields.left))
        right = unwrap(node.child_by_field_id(self.fields.right))
        if left is not None and left.type == "string":
            left, right = right, left
        if left is None or right is None or right.type != "string":
            return None
        literal = self._string(right)
        tested = self._tested(left)
        if literal is None or tested is None:
            return None
        negated = operator.startswith("!")
        return Choice(tested, "in", Lit("true"), Lit(""), negated, against=(Lit(literal),))

    def _tested(self, node: _Node) -> Expr | None:
        """What an `if` test reads: an environment variable with no default as a sample
        environment file documents it, else unset (""), else a name or member as the
        evaluator reads it. `NODE_ENV`, which a deployment sets to `production` where it
        sets anything, is one of both (`NODE_ENV_DEFAULTS`): a branch neither runs is off.
        A configuration library's read (`config.get('isProduction')` of a `convict` schema:
        `_configured`) is what the evaluator reads there, the schema's default."""
        if node.type == "call_expression":
            return self._configured(node)
        if node.type not in {"identifier", "member_expression"}:
            return None
        path = self._path(node)
        if path is None:
            return None
        bound = self.bindings.get(path[0]) if len(path) == 1 else None
        if isinstance(bound, Sym):
            path = bound.path
        if len(path) == 3 and path[:2] == ("process", "env"):
            return env_read(path[2])
        if len(path) == 1 and (param := self._param(node, path[0])) is not None:
            return param  # `if (kind === 'x')` in a helper: what each call passes
        value = self._expr(node)
        return None if value is None or isinstance(value, Opaque) else value

    def _function_block(self, node: _Node) -> _Node | None:
        """The block body of the function `node` is written in; None at the top level or in
        an arrow function's expression body."""
        scope = _function_of(node)
        body = scope.child_by_field_id(self.fields.body) if scope is not None else None
        return body if body is not None and body.type == "statement_block" else None

    def _constructor_of(self, node: _Node) -> _Node | None:
        """The constructor `node` is written in (directly, not in a callback): a class's
        `constructor(...)`, or a function named as a class (`function Gateway(port, base)`),
        which `new` calls; None elsewhere."""
        scope = _function_of(node)
        if scope is None:
            return None
        name = self._text(scope.child_by_field_id(self.fields.name))
        if scope.type == "method_definition":
            return scope if name == "constructor" else None
        if scope.type in {"function_declaration", "function_expression", "function"}:
            return scope if name[:1].isupper() else None
        return None

    def _module_variable(self, name: str) -> bool:
        """Whether the module declares `name` at its top level (`let base;`)."""
        for statement in self._root.named_children if self._root is not None else ():
            if statement.type not in {"lexical_declaration", "variable_declaration"}:
                continue
            for declarator in statement.named_children:
                target = declarator.child_by_field_id(self.fields.name)
                if declarator.type == "variable_declarator" and self._text(target) == name:
                    return True
        return False

    def _class_of(self, node: _Node) -> str | None:
        """The name of the class declaration `node` is in, if any."""
        scope = node.parent
        while scope is not None:
            if scope.type in {"class_declaration", "class"}:
                name = scope.child_by_field_id(self.fields.name)
                return self._text(name) if name is not None else None
            scope = scope.parent
        return None

    def _in_static(self, node: _Node) -> bool:
        """Whether `node` is in a class's `static` method (outside any nested `function`),
        where `this` is the class itself (`static go(r) { return this._kept(r) }`)."""
        scope = node.parent
        while scope is not None and scope.type not in {"method_definition", "function_expression",
                                                        "function_declaration"}:  # fmt: skip
            scope = scope.parent
        if scope is None or scope.type != "method_definition":
            return False
        return any(c.type == "static" for c in scope.children)

    def _optional_guard(self, call: _Node) -> bool:
        """`expressjwt({ credentialsRequired: false, ... })`: lets anonymous callers through."""
        for arg in self._arguments(call):
            arg = unwrap(arg) or arg
            if arg.type == "object":
                value = self._field(arg, "credentialsRequired")
                if value is not None and value.type == "false":
                    return True
        return False

    def _bound(self, bound: js_loops.Bind) -> Expr | None:
        """What a loop variable or loop-body local stands for in this iteration."""
        if isinstance(bound, Lit):
            return bound
        if isinstance(bound, js_loops.Closure):  # a built list's item: read where it was built
            env, self._env = self._env, bound.env
            try:
                return self._expr(bound.node)
            finally:
                self._env = env
        if isinstance(bound, js_loops.Pair):
            return None  # `e` of `for (const e of Object.entries(T))`: read as `e[0]`, `e[1]`
        if isinstance(bound, js_loops.Deferred):  # a key (a value) of an imported object
            return LoopKey(bound.source, bound.source if bound.value else None, bound.members)
        if isinstance(bound, js_loops.Local):
            found = js_loops.resolve(self, bound.node)
            if found is not None and bound.field:
                found = js_loops.member_node(self, found, bound.field)
            if found is not None:
                return self._looped(found)
            whole = self._expr(bound.node)  # `const full = base + r.path`: read in the loop
            if not bound.field:
                return whole
            return _member(whole, bound.field) if whole is not None else None
        return self._looped(bound)

    def _looked_up(self, node: _Node) -> Expr | None:
        """`T[k].field`, `r.path`, `e[1]` inside an unrolled loop: the literal the file spells
        there, else the lookup kept symbolic with this iteration's key (`CONFIG.users.prefix`
        of an imported `CONFIG`, which the linker reads), else not known (None)."""
        obj = unwrap(node.child_by_field_id(self.fields.object))
        built = (
            self._env.get(self._text(obj)) if obj is not None and obj.type == "identifier" else None
        )
        if isinstance(built, js_loops.Closure) and node.type == "member_expression":
            whole = self._bound(built)  # `entry.url` of a built item: its field as built
            field = self._text(node.child_by_field_id(self.fields.property))
            return _member(whole, field) if whole is not None else None
        found = js_loops.resolve(self, node)
        if found is not None:
            return self._looped(found)
        if obj is None:
            return None
        if node.type == "member_expression":
            key: str | None = self._text(node.child_by_field_id(self.fields.property))
        else:
            key = js_loops.key_of(self, node.child_by_field_id(self.fields.index))
        index = unwrap(node.child_by_field_id(self.fields.index))
        if index is not None and index.type == "identifier":  # `TABLE[k]`, `k` an imported key
            keyed = self._env.get(self._text(index))
            if isinstance(keyed, js_loops.Deferred) and not keyed.value:
                table = self._expr(obj)
                return LoopKey(keyed.source, table) if table is not None else None
        if obj.type == "identifier":
            bound = self._env.get(self._text(obj))
            if isinstance(bound, js_loops.Pair) and key in {"0", "1"}:
                return bound.key if key == "0" else self._looped(bound.value)
            if bound is not None and not isinstance(bound, js_loops.Local | js_loops.Deferred):
                return None  # a field the item does not have
        base = self._expr(obj)
        if key is None or base is None:
            return None
        if isinstance(base, LoopKey) and base.split is None:  # `v.path`, `TABLE[k].path`
            return replace(base, members=(*base.members, key)) if base.table is not None else None
        if isinstance(base, ImportRef) and base.attr == "default":  # require('./x').router
            return self._ref(base.module, key)
        return _member(base, key)

    def _looped(self, node: _Node) -> Expr | None:
        """A loop item's value, read outside the loop's variables."""
        env, self._env = self._env, {}
        try:
            return self._expr(node)
        finally:
            self._env = env

    def _function(self, node: _Node, name: str) -> Function:
        """A function, with whether its text answers 401/403 (a guard, used as middleware)."""
        text = self.source[node.start_byte : node.end_byte]
        returns = self._returns(node)
        evidence = JS_EVIDENCE.search(text) is not None
        plugin = self._returned_function(node)
        return Function(name, returns, NO_AUTH, site_of(node), evidence, plugin=plugin)

    def _returned_function(self, function: _Node) -> Expr | None:
        """The function `function` returns, for a register call that is given what a call of
        it makes (`(deps) => async (app) => {...}`, `return fp(async (f) => ...)`, `return
        routes` of a function or `const` declared in its body); `Opaque` where it returns one
        among several (`if (x) return a; return b`: the run time chooses); None otherwise."""
        body = unwrap(function.child_by_field_id(self.fields.body))
        if body is None:
            return None
        if body.type != "statement_block":
            return self._function_value(body, None)
        returned = [c for c in body.named_children if c.type == "return_statement"]
        last = body.named_children[-1] if body.named_children else None
        if not returned and last is not None and last.type == "if_statement":
            # `if (x) { return a } else { return b }`: a function among them is chosen
            chosen = [n for n in _returns_in(last) if n.named_children]
            if any(self._function_value(n.named_children[0], None) for n in chosen):
                return Opaque()
            return None
        if len(returned) != 1 or not returned[0].named_children:
            return None
        value = self._function_value(returned[0].named_children[0], body)
        if value is not None and _valued_returns(body) > 1:
            return Opaque()
        return value

    def _function_value(self, node: _Node, block: _Node | None) -> Function | None:
        """`node` as a function value: written there, wrapped by `fastify-plugin`, or a name
        the function's own `block` declares as one."""
        node = unwrap(node) or node
        if node.type in FUNCTION_VALUES:
            return self._function(node, "")
        if node.type == "call_expression":
            wrapper = unwrap(node.child_by_field_id(self.fields.function))
            inner = self._arguments(node)
            if inner and self._default_of(wrapper) == _SHARED_PLUGIN:  # `fp(async (f) => ...)`
                wrapped = self._function_value(inner[0], block)
                return replace(wrapped, shared=True) if wrapped is not None else None
            return None
        if node.type != "identifier" or block is None:
            return None
        name = self._text(node)
        for statement in block.named_children:
            if statement.type == "function_declaration":
                declared = statement.child_by_field_id(self.fields.name)
                if declared is not None and self._text(declared) == name:
                    return self._function(statement, name)
            elif statement.type in {"lexical_declaration", "variable_declaration"}:
                for declarator in statement.named_children:
                    target = declarator.child_by_field_id(self.fields.name)
                    value = unwrap(declarator.child_by_field_id(self.fields.value))
                    if target is not None and self._text(target) == name and value is not None:
                        return self._function_value(value, None)
        return None

    def _uncased(self, node: _Node) -> _Node:
        """A method without its case change (`r.method.toLowerCase()` → `r.method`): methods
        are named in upper case whatever their spelling."""
        node = unwrap(node) or node
        callee = (
            node.child_by_field_id(self.fields.function) if node.type == "call_expression" else None
        )
        if (
            callee is not None
            and callee.type == "member_expression"
            and self._text(callee.child_by_field_id(self.fields.property)) in _CASES
            and not self._arguments(node)
        ):
            return callee.child_by_field_id(self.fields.object) or node
        return node

    def _split(self, node: _Node) -> Items | LoopKey | None:
        """`'get /x'.split(' ')` of a string the file spells: its parts (`Items`); of a loop's
        key or item (`LoopKey`), that value split as the linker gives it (a route table keyed
        `'<verb> <path>'`, each key split into the method and path it registers)."""
        callee = node.child_by_field_id(self.fields.function)
        args = self._arguments(node)
        if (
            callee is None
            or callee.type != "member_expression"
            or self._text(callee.child_by_field_id(self.fields.property)) != "split"
            or len(args) != 1
        ):
            return None
        separator = self._expr(args[0])
        inner = self._expr(callee.child_by_field_id(self.fields.object))
        if not isinstance(separator, Lit) or not separator.value:
            return None
        if isinstance(inner, LoopKey) and inner.split is None:
            return replace(inner, split=separator.value)
        if isinstance(inner, Lit):
            return Items(tuple(Lit(part) for part in inner.value.split(separator.value)))
        return None

    def _cased(self, node: _Node) -> Lit | LoopKey | None:
        """`'Get'.toLowerCase()`, `T[k].toUpperCase()` of a string the file spells (a method
        from a table, `app[verb.toLowerCase()](…)`): that string in that case; of an imported
        table's key or item (`LoopKey`), that value with the case the linker gives it."""
        callee = node.child_by_field_id(self.fields.function)
        if callee is None or callee.type != "member_expression" or self._arguments(node):
            return None
        case = self._text(callee.child_by_field_id(self.fields.property))
        change = _CASES.get(case)
        inner = self._expr(callee.child_by_field_id(self.fields.object)) if change else None
        if isinstance(inner, LoopKey):  # of an imported table's item: the linker changes it
            return replace(inner, case="lower" if case == "toLowerCase" else "upper")
        return Lit(change(inner.value)) if change and isinstance(inner, Lit) else None

    def _wrapped(self, node: _Node) -> Call | None:
        """`asyncHandler(auth.jwt)`: a call whose arguments name functions, kept whole so a
        guard among them is found; None for other calls (`rateLimit({...})`). A module's
        export called where it is required (`require('./routes/shop')(passport)`, a factory
        whose return value is mounted) is read like `make(passport)` of `const make =
        require('./routes/shop')`, arguments or none: its return value with them bound."""
        function = unwrap(node.child_by_field_id(self.fields.function))
        path = self._path(function)
        required = (
            self._expr(function) if path is not None and path[:2] == ("require", CALL) else None
        )
        module = required.module if isinstance(required, ImportRef) else None
        callee: Expr
        if isinstance(required, ImportRef):  # `require('./x')(a)`, `require('./x').make(a)`
            callee = required
        elif (
            function is not None
            and function.type == "call_expression"
            and (curried := self._applied(function))
        ):  # `makeHandler(spec)(handler)`: what the first call returns, its arguments kept
            callee = curried
        elif path is not None:
            callee = Sym(path)
        else:
            return None
        arguments = self._arguments(node)
        read: dict[int, Expr] = {}  # each function or name argument, read once
        for index, a in enumerate(arguments):
            kind = (unwrap(a) or a).type
            if (
                kind in FUNCTION_VALUES
                or kind in {"identifier", "member_expression"}
                or (kind in {"call_expression", "new_expression"} and self._creates(unwrap(a) or a))
            ):  # `attach(express.Router())`: the router made there, passed in
                value = self._expr(a)
                if value is not None:
                    read[index] = value
        if not read and module is None:
            return None
        args = list(read.values())
        passed: list[Expr] = []  # every argument in its place (a helper's call)
        for index, a in enumerate(arguments):
            kind = (unwrap(a) or a).type
            bare = unwrap(a) or a
            if kind == "identifier" and not (self._env and self._text(bare) in self._env):
                # a parameter of the function it is written in, else as read above
                given = self._param(bare, self._text(bare)) or read.get(index)
            elif kind == "member_expression" and not self._env:
                given = self._param_member(bare) or read.get(index)
            elif kind in {"identifier", "member_expression"} or kind in FUNCTION_VALUES:
                given = read.get(index)
            elif index in read:
                given = read[index]
            else:
                given = self._expr(a) if kind in _SIMPLE_ARGUMENTS else None
            if given is None:
                return Call(callee, tuple(args))
            passed.append(given)
        made = [index for index, value in read.items() if isinstance(value, RouterRef)]
        if (
            any(arguments[i].type != "identifier" for i in made)
            and node.start_byte not in self._made_passed
        ):
            # `attach(express.Router())`: what `attach` registers on its parameter is on it
            self._made_passed.add(node.start_byte)
            kept = tuple(value if isinstance(value, _PASSED) else None for value in passed)
            scope = self._enclosing(node)
            self.invocations.append(Invocation(callee, kept, (), line_of(node), None, scope))
        return Call(callee, tuple(args), tuple(passed), line_of(node))

    def _mapped(self, node: _Node) -> Mapped | None:
        """`items.map(item => value)` (`flatMap`, `filter` too, `filter(Boolean)`, `flat()`,
        `Array.from(items, item => value)`): the list built from `items`, the callback's
        value read with its item as a parameter (`Mapped`); None for any other call."""
        callee = unwrap(node.child_by_field_id(self.fields.function))
        if callee is None or callee.type != "member_expression":
            return None
        method = self._text(callee.child_by_field_id(self.fields.property))
        head = unwrap(callee.child_by_field_id(self.fields.object))
        args = self._arguments(node)
        if method == "from" and head is not None and self._text(head) == "Array" and args:
            head, args, method = unwrap(args[0]), args[1:], "map" if len(args) > 1 else "flat"
        if head is not None and method == "concat":  # `a.concat(b, [c])`: the lists joined
            joined = [self._field_value(part) for part in (head, *args)]
            if any(part is None for part in joined):
                return None
            return Mapped(Items(tuple(p for p in joined if p is not None)), "concat")
        if head is None or method not in _ARRAY_METHODS:
            return None
        if method == "flat":
            source = self._value(head)
            return Mapped(source, "flat") if source is not None and not args else None
        callback = unwrap(args[0]) if args else None
        if callback is None:
            return None
        # `['a', 'b'].map(...)`: a list written there (no route table: its items as read)
        source = self._list_value(head) if head.type == "array" else self._value(head)
        if source is None:
            return None
        if method == "filter" and self._text(callback) == "Boolean":
            return Mapped(source, method, "", None)
        named = self._path(callback) if callback.type in _CALLBACK_NAMES else None
        made = self._made_callback(callback)
        if (named and self._named_function(callback) is not None) or made is not None:
            # `items.map(toRoute)`: as `items.map(x => toRoute(x))`, the function the file
            # declares or imports called with each item; `items.map(scoped(['admin']))`: the
            # function that call returns, called with each item
            site = site_of(callback)
            item = Param(site, 0, _ITEM, Sym((_ITEM,)))
            return Mapped(source, method, site, Apply(made or Sym(named or ()), (item,)))
        if callback.type not in FUNCTION_VALUES:
            return None
        value = self._returns(callback)
        return Mapped(source, method, site_of(callback), value or Opaque())

    def _made_callback(self, callback: _Node) -> Apply | None:
        """A callback that is what a call of a function the module binds returns (its own or
        imported): `scoped(['admin'])` written there, or a name the nearest block declares as
        such a call (`const adminOnly = scoped(['admin'])`), as `Apply` of that function with
        the call's arguments, for the linker to call what it returns with each item; None
        for any other callback."""
        if callback.type == "identifier":
            declared = self._declared(callback)
            callback = declared if declared is not None else callback
        return self._applied(callback) if callback.type == "call_expression" else None

    def _reduce_call(self, node: _Node) -> tuple[_Node, list[_Node]] | None:
        """`x.reduce(callback, initial)`: its callee and its two arguments; None otherwise."""
        callee = unwrap(node.child_by_field_id(self.fields.function))
        args = self._arguments(node)
        if (
            callee is None
            or callee.type != "member_expression"
            or self._text(callee.child_by_field_id(self.fields.property)) != "reduce"
            or len(args) != 2
        ):
            return None
        return callee, args

    def _reduced(self, node: _Node) -> Expr | None:
        """`table.reduce((router, r) => router.get(r.path, h), Router())`: a reduce whose
        callback gives back its accumulator (`return router`, or a registration on it, which
        Express's and koa-router's verbs return) is its initial value, registered on per item
        (`js_loops`); None for any other call."""
        reduce = self._reduce_call(node)
        if reduce is None:
            return None
        _, args = reduce
        callback = unwrap(args[0])
        accumulator = self._first_parameter(callback) if callback is not None else None
        if callback is None or callback.type not in FUNCTION_VALUES or accumulator is None:
            return None
        given = js_loops.returned(self, callback)
        while given is not None and given.type == "call_expression":  # `router.get(...)`
            function = unwrap(given.child_by_field_id(self.fields.function))
            if function is None or function.type not in {
                "member_expression",
                "subscript_expression",
            }:
                return None
            verb = function.child_by_field_id(self.fields.property)
            if function.type == "member_expression" and self._text(verb) not in _CALLED:
                return None
            given = unwrap(function.child_by_field_id(self.fields.object))
        if given is None or self._text(given) != self._text(accumulator):
            return None
        return self._expr(args[1])

    def _gathered(self, node: _Node) -> Mapped | None:
        """`table.reduce((all, x) => all.concat(v), [])` or `(all, x) => [...all, v, w]`: the
        list built, as `table.flatMap(x => v)` builds it (`Mapped`, the item the callback's
        second parameter); None for any other call."""
        reduce = self._reduce_call(node)
        if reduce is None:
            return None
        callee, args = reduce
        callback, init = unwrap(args[0]), unwrap(args[1])
        head = unwrap(callee.child_by_field_id(self.fields.object))
        if (
            callback is None
            or callback.type not in FUNCTION_VALUES
            or init is None
            or init.type != "array"
            or init.named_children
            or head is None
        ):
            return None
        accumulator = self._first_parameter(callback)
        given = js_loops.returned(self, callback)
        if accumulator is None or given is None:
            return None
        name = self._text(accumulator)
        added: _Node | None = None
        if given.type == "call_expression":  # `all.concat(v)`
            function = unwrap(given.child_by_field_id(self.fields.function))
            parts = self._arguments(given)
            if (
                function is not None
                and function.type == "member_expression"
                and self._text(function.child_by_field_id(self.fields.object)) == name
                and self._text(function.child_by_field_id(self.fields.property)) == "concat"
                and len(parts) == 1
            ):
                added = parts[0]
        elif given.type == "array" and given.named_children:  # `[...all, v]`
            first = given.named_children[0]
            if first.type == "spread_element" and self._text(first.named_children[0]) == name:
                added = given
        source = self._list_value(head) if head.type == "array" else self._value(head)
        if added is None or source is None:
            return None
        rest = [c for c in added.named_children[1:] if c.type != "comment"]
        if added is given and any(c.type == "spread_element" for c in rest):
            return None
        scoped, self._scoped = self._scoped, True  # the item: what each iteration passes
        try:
            value: Expr | None = (
                Items(tuple(self._expr(c) or Opaque() for c in rest))
                if added is given  # `[...all, v, w]`: what each item adds
                else self._expr(added)
            )
        finally:
            self._scoped = scoped
        return Mapped(source, "reduce", site_of(callback), value or Opaque())

    def _named_function(self, name: _Node) -> _Node | None:
        """What a callback given by name (`list.forEach(register)`) runs: the function the
        file declares under it (`function register`, `const register = (x) => ...`, in the
        nearest block declaring it), or the name itself when it is imported (the linker finds
        the function); None for any other name."""
        if name.type == "member_expression":  # `list.forEach(routes.add)` of an import
            path = self._path(name)
            head = self.bindings.get(path[0]) if path and CALL not in path else None
            return name if isinstance(head, ImportRef | Namespace) else None
        text = self._text(name)
        value = self._declared(name)
        if value is not None:
            return value if value.type in FUNCTION_VALUES else None
        scope = name.parent
        while scope is not None:
            if scope.type in {"statement_block", "program"}:
                for statement in scope.named_children:
                    node = statement.child_by_field_id(self.fields.declaration) or statement
                    named = node.child_by_field_id(self.fields.name)
                    if node.type in FUNCTIONS and named is not None and self._text(named) == text:
                        return node
            scope = scope.parent
        bound = self.bindings.get(text)
        if isinstance(bound, Sym) and CALL not in bound.path:  # `const { add } = routes`
            bound = self.bindings.get(bound.path[0])
        return name if isinstance(bound, ImportRef) else None

    def _choice(self, node: _Node) -> Choice | None:
        """`test ? a : b` read while reading a value (`_scoped`): the test as a `Choice` reads
        it (`x`, `!x`, `typeof x === 'string'`, `Array.isArray(x)`), else None."""
        condition = unwrap(node.child_by_field_id(self.fields.condition))
        then = self._field_value(node.child_by_field_id(self.fields.consequence))
        otherwise = self._field_value(node.child_by_field_id(self.fields.alternative))
        if condition is None or then is None or otherwise is None:
            return None
        negated = False
        while (
            condition.type == "unary_expression"
            and self._text(condition.child_by_field_id(self.fields.operator)) == "!"
        ):
            negated = not negated
            condition = unwrap(condition.child_by_field_id(self.fields.argument)) or condition
        test, tested = "truthy", condition
        if condition.type == "binary_expression":
            operator = self._text(condition.child_by_field_id(self.fields.operator))
            sides = [unwrap(condition.child_by_field_id(f)) for f in (self.fields.left,
                     self.fields.right)]  # fmt: skip
            typeof = next((x for x in sides if x is not None and x.type == "unary_expression"
                           and self._text(x.child_by_field_id(self.fields.operator)) == "typeof"),
                          None)  # fmt: skip
            named = next((self._string(x) for x in sides if x is not None and x.type == "string"),
                         None)  # fmt: skip
            if operator not in _EQUALITY or typeof is None or named not in _TYPES:
                return None
            test = named
            tested = unwrap(typeof.child_by_field_id(self.fields.argument)) or typeof
            negated = negated != operator.startswith("!")
        elif condition.type == "call_expression":
            callee = self._text(condition.child_by_field_id(self.fields.function))
            args = self._arguments(condition)
            if callee != "Array.isArray" or len(args) != 1:
                return None
            test, tested = "array", args[0]
        value = self._expr(tested)
        return Choice(value, test, then, otherwise, negated) if value is not None else None

    def _object(self, node: _Node) -> Namespace:
        fields: list[tuple[str, Expr]] = []
        # `{ a, ...x, b, ...y }`: a name is looked up in its last writer first (own `b`, then
        # `y`, then `x`, then `{ a }`): the fields before a spread are a base after it
        spread: list[Expr] = []
        for prop in node.named_children:
            if prop.type == "spread_element" and prop.named_children:
                value = self._spread_value(prop.named_children[0])
                if fields:
                    spread.insert(0, Namespace(tuple(fields)))
                    fields = []
                spread.insert(0, value if value is not None else Opaque())
            if prop.type == "shorthand_property_identifier":
                spelled = self._text(prop)
                again = self._again(prop, spelled, self._expr)
                if again is None and self._scoped:  # `{ method, path }` of a factory's own
                    again = self._param(prop, spelled) or self._const_local(prop, spelled)
                fields.append((spelled, again if again is not None else Sym((spelled,))))
            elif prop.type == "pair":
                key = prop.child_by_field_id(self.fields.key)
                value = self._field_value(prop.child_by_field_id(self.fields.value))
                name = (
                    self._string(key)
                    if key is not None and key.type == "string"
                    else self._text(key)
                )
                if name:  # a value not read (`prefix: false`) is there, never visible
                    fields.append((name, value if value is not None else Opaque()))
            elif prop.type == "method_definition":  # `{ async register(server) {...} }`
                name = self._text(prop.child_by_field_id(self.fields.name))
                if name:
                    fields.append((name, self._function(prop, name)))
        # route options carry their reading, but not once more while a table's entry is read as
        # a value (`_entry_value`, called from that reading)
        routed = self._route_options(node) and not self._booleans
        route = self._options_decl(None, node, _TABLE_FRAMEWORKS) if routed else None
        return Namespace(tuple(fields), bases=tuple(spread), route=route)

    def _owner(self, node: _Node) -> Expr | None:
        """What a router-position expression stands for: a name no binding of the module gives
        but a parameter of an enclosing function is a `Param` (its callers say which router
        it is), anything else as `_expr` reads it."""
        node = self._unchained(unwrap(node) or node)
        if node.type == "identifier":
            name = self._text(node)
            bound = self.bindings.get(name)
            scopes = self._scopes
            reached = scopes.reached(node, name) if scopes and scopes.declares(name) else None
            shadowed = reached is not None and reached[0] == js_scopes.PARAM
            if (
                reached is not None
                and not shadowed
                and reached[2] != self._root
                and scopes is not None
                and scopes.shadows(reached, name)
            ):
                return self._scoped_owner(node, reached[1])
            if isinstance(bound, Param) and self._within(node, bound.function):
                return bound  # `const api = server.select('api')`: the parameter, narrowed
            if name not in self.bindings or shadowed:
                param = self._param(node, name)
                if param is not None:
                    self.param_names.add(name)
                    return param
                if name in _HOOK_APPS and (hook := self._hook(node, name)) is not None:
                    return hook
        elif node.type == "member_expression":
            app = self._loader_app(node)
            if app is not None:  # `app.context.loader.mainRouter.get('/')`
                return self._owner(app)
            base = unwrap(node.child_by_field_id(self.fields.object))
            name = self._text(node.child_by_field_id(self.fields.property))
            if (
                name in _HOOK_APPS
                and base is not None
                and base.type == "identifier"
                and self._text(base) not in self.bindings
                and (param := self._param(base, self._text(base))) is not None
            ):  # `(hook, ctx) => ctx.app.get(...)`
                return self._hook_app(param.function, name, node)
        return self._expr(node)

    def _loaded(self, node: _Node, name: str) -> Expr | None:
        """What `name` read at `node` holds as a parameter of a callback given to
        `import(…).then(…)` (`js_dynimport`), else None."""
        if name not in self._then_names:
            return None
        return js_dynimport.loaded(self, node, name, self._then_params)

    def _scoped_owner(self, node: _Node, declarator: _Node) -> Expr | None:
        """A router-position local that is one of several locals so named (`_scoped_read`),
        declared by `declarator`: the parameter of its function it holds (`const app =
        root.withTypeProvider<T>()` or `const app = root` while a caller declares an `app` of
        its own), as for a local declared once; else the local under its own name."""
        scoped = self._expr(node)
        held = self.bindings.get(scoped.path[0]) if isinstance(scoped, Sym) else None
        value = unwrap(declarator.child_by_field_id(self.fields.value))
        if not isinstance(held, Param) and value is not None and value.type == "identifier":
            held = self._owner(value)  # `const app = root`: the parameter itself
        if isinstance(held, Param) and self._within(node, held.function):
            return held
        return scoped

    def _within(self, node: _Node, function: str) -> bool:
        """Whether `node` is inside the function whose site is `function`."""
        scope = node.parent
        while scope is not None:
            if scope.type in FUNCTIONS and site_of(scope) == function:
                return True
            scope = scope.parent
        return False

    def _loader_app(self, node: _Node) -> _Node | None:
        """The app of `app.context.loader.mainRouter` (`_LOADER_MEMBERS`), else None."""
        if not _LOADER_MEMBERS:
            return None
        props: list[str] = []
        while node.type == "member_expression" and len(props) < 8:
            props.insert(0, self._text(node.child_by_field_id(self.fields.property)))
            node = unwrap(node.child_by_field_id(self.fields.object)) or node
            if tuple(props) in _LOADER_MEMBERS:
                return node
        return None

    def _hook(self, node: _Node, name: str) -> RouterRef | None:
        """`app` destructured from a parameter (`(hook, { app }) => app.get(...)`): a plugin
        hook, which the framework's loader calls with its application."""
        scope = node.parent
        while scope is not None:
            if scope.type in FUNCTIONS:
                params = scope.child_by_field_id(self.fields.parameters)
                for param in params.named_children if params is not None else ():
                    pattern = param
                    if param.type in {"required_parameter", "optional_parameter"}:
                        pattern = param.child_by_field_id(self.fields.pattern) or param
                    if pattern.type == "object_pattern" and any(
                        c.type == "shorthand_property_identifier_pattern" and self._text(c) == name
                        for c in pattern.named_children
                    ):
                        return self._hook_app(site_of(scope), name, scope)
            scope = scope.parent
        return None

    def _hook_app(self, function: str, name: str, node: _Node) -> RouterRef:
        """The application a hook function at `function` is given as `name`: served at the
        root, what guards it (the host's middleware) not known."""
        site = f"{function}:{name}"
        if site not in self.routers:
            self.routers[site] = RouterDecl(
                site, EXPRESS, line_of(node), auth=Auth((Opaque(),)), app=True
            )
        return RouterRef(site)

    def _use_arg(self, node: _Node) -> Expr | None:
        """An argument of `use()`: a parameter of the function it is written in as that
        parameter (`attach(path, router) { this.app.use(path, router) }`: each call's
        arguments, `linker._use_called`), else as read: only a name read as no more than itself
        (not a loop's item, `rows.forEach((r) => app.use(base, r))`, nor a module's name)."""
        read = self._expr(node)
        name = self._text(node) if node.type == "identifier" else ""
        if name and read == Sym((name,)) and name not in self.bindings:
            return self._param(node, name) or read
        return read

    def _param_of(self, function: _Node, name: str) -> Param | None:
        """`name` as a parameter of `function` (`js_scopes` found which one)."""
        index = self._param_index(function, name)
        return Param(site_of(function), index, name, Sym((name,))) if index is not None else None

    def _param(self, node: _Node, name: str) -> Param | None:
        """`name` as a parameter of the nearest enclosing function that declares it."""
        scope = node.parent
        while scope is not None:
            if scope.type in FUNCTIONS:
                index = self._param_index(scope, name)
                if index is not None:
                    return Param(site_of(scope), index, name, Sym((name,)))
            scope = scope.parent
        return None

    def _param_index(self, function: _Node, name: str) -> int | None:
        single = function.child_by_field_id(self.fields.parameter)  # `app => ...`
        if single is not None:
            return 0 if self._text(single) == name else None
        params = function.child_by_field_id(self.fields.parameters)
        if params is None:
            return None
        for index, param in enumerate(p for p in params.named_children if p.type != "comment"):
            target: _Node | None = param
            if param.type in {"required_parameter", "optional_parameter"}:  # TypeScript
                target = param.child_by_field_id(self.fields.pattern)
            elif param.type == "assignment_pattern":  # `app = express()`
                target = param.child_by_field_id(self.fields.left)
            if target is not None and target.type == "identifier" and self._text(target) == name:
                return index
        return None

    def _methods(self, declaration: _Node) -> None:
        name = declaration.child_by_field_id(self.fields.name)
        body = declaration.child_by_field_id(self.fields.body)
        if name is None or body is None:
            return
        fields = self.class_fields.setdefault(self._text(name), {})
        heritage = next((c for c in declaration.named_children if c.type == "class_heritage"), None)
        if heritage is not None:  # `extends Base` (TypeScript: inside an `extends_clause`)
            clause = next((c for c in heritage.named_children if c.type == "extends_clause"), None)
            parts = (clause or heritage).named_children
            base = self._expr(parts[0]) if parts else None
            if base is not None:
                self.class_bases[self._text(name)] = (base,)
        for member in body.named_children:
            if member.type == "method_definition":
                method = self._text(member.child_by_field_id(self.fields.name))
                if method:  # the constructor too: what a `new` site calls
                    fields.setdefault(method, self._method_value(member, method))
            elif member.type in _CLASS_FIELDS:  # `static up = (app) => ...`
                value = unwrap(member.child_by_field_id(self.fields.value))
                named = member.child_by_field_name(_CLASS_FIELDS[member.type])
                field = self._text(named)
                if field and value is not None and value.type in FUNCTION_VALUES:
                    fields.setdefault(field, self._function(value, field))
                elif field and value is not None and value.type == "new_expression":
                    made = self._expr(value)  # `static shared = new Hub()`: an instance
                    if made is not None:
                        fields.setdefault(field, made)

    def _method_value(self, member: _Node, name: str) -> Expr:
        """A method as `instance.name` reads it: a function to call, but a getter
        (`static get current() { ...; return Hub.#hub }`) gives what it returns, read as a
        field (None-valued getters stay functions: nothing to read)."""
        method = self._function(member, name)
        getter = any(child.type == "get" for child in member.children)
        return method.returns if getter and method.returns is not None else method

    def _find_invocations(self, root: _Node) -> None:
        """Calls that pass a router to a function, `require('./routes')(app)` or
        `register(app, auth)`: looked for only where a name this file binds to a router, a
        parameter used as one, or a parameter passed on to a function of the project's, is an
        argument (a call of every other kind is left unread). A local bound under a name of
        its own (one of several declarations of its name, `js_scopes`) is looked for as the
        source spells it: `const app = fastify(); await wire(app)` in one function while
        `wire` declares an `app` of its own."""
        names = sorted(
            {
                js_scopes.spelled(name).encode()
                for name, value in self.bindings.items()
                if isinstance(value, RouterRef | ImportRef)
            }
        )
        names += sorted(name.encode() for name in self.param_names)
        self._path_invocations(root)
        self._path_calls(root)
        if b"new " in self.source:
            self._new_invocations(root)
        seen: set[int] = set()
        if names:
            self._router_invocations(root, names, seen)
        self._passed_on_invocations(root, seen)
        if b"forEach" in self.source or b"map" in self.source:
            self._named_callback_invocations(root)
        if b".reduce" in self.source:
            self._reduce_invocations(root)

    def _reduce_invocations(self, root: _Node) -> None:
        """`table.reduce((router, r) => …, init)`: its callback called with `init` as the
        accumulator, so what it registers on its first parameter is registered on `init` (the
        items are bound where the callback is read, `js_loops`); a reduce that does not give
        back its accumulator is read no further."""
        for match in _REDUCE_CALL.finditer(self.source):
            prop = root.descendant_for_byte_range(match.start() + 1, match.end() - 1)
            member = prop.parent if prop is not None else None
            call = member.parent if member is not None else None
            if call is None or call.type != "call_expression" or self._reduced(call) is None:
                continue
            callback, init = (unwrap(a) for a in self._arguments(call))
            value = self._expr(init)
            if callback is None or value is None:
                continue
            target = self._function(callback, "")
            self.invocations.append(
                Invocation(target, (value,), (), line_of(call), None, self._enclosing(call))
            )

    def _named_callback_invocations(self, root: _Node) -> None:
        """`list.forEach(register)` (`.map` too) with `register` a function the file declares
        or imports: a call of it per item of a list the file spells, the item its first
        argument and the index its second, as `list.forEach((x, i) => register(x, i))`; a
        list the file does not spell gives one call whose arguments are unknown, so what the
        function registers is reported where it is written, never silently dropped."""
        for match in _NAMED_CALLBACK.finditer(self.source):
            start = match.end() - 1
            while self.source[start - 1 : start] in {b" ", b"\t", b"\n", b"\r"}:
                start -= 1
            name = root.descendant_for_byte_range(start - 1, start)
            while (
                name is not None
                and name.parent is not None
                and name.parent.type in (_CALLBACK_NAMES)
            ):
                name = name.parent  # `one.mountOne`: the whole member
            if name is not None and name.type == "property_identifier":
                name = name.parent
            args = name.parent if name is not None else None
            call = args.parent if args is not None else None
            callee = call.child_by_field_id(self.fields.function) if call is not None else None
            if (
                name is None
                or name.type not in _CALLBACK_NAMES
                or args is None
                or args.type != "arguments"
                or call is None
                or call.type != "call_expression"
                or callee is None
                or callee.type != "member_expression"
                or self._named_function(name) is None
            ):
                continue
            items = js_loops.iterated(self, callee.child_by_field_id(self.fields.object))
            path = self._path(name)
            if not path:
                continue
            target = Sym(path)
            line, scope = line_of(call), self._enclosing(call)
            if items is None or len(items) > js_loops.MAX_ITERATIONS:
                self.invocations.append(Invocation(target, (None,), (), line, None, scope))
                continue
            for index, item in enumerate(items):
                value = self._bound(item)
                passed = None if isinstance(value, Opaque) else value
                self.invocations.append(
                    Invocation(target, (passed, Lit(str(index))), (), line, None, scope)
                )

    def _new_invocations(self, root: _Node) -> None:
        """`new Gateway(port, BASE)` of a class or function of the project's (one the file
        declares or imports from a relative path), given arguments: a call of its constructor,
        whose parameters the constructor may store on the instance, on `global` or in a module
        variable (`_assign`)."""
        for match in _NEW.finditer(self.source):
            node = root.descendant_for_byte_range(match.start(), match.start() + 3)
            call = node.parent if node is not None else None
            if call is None or call.type != "new_expression" or call.start_byte != match.start():
                continue
            made = self._path(call.child_by_field_id(self.fields.constructor))
            arguments = self._arguments(call)
            if not made or not arguments or not self._own_class(made[0]):
                continue
            passed = tuple(
                None if value is None or isinstance(value, Opaque) else value
                for value in map(self._value, arguments)
            )
            callee = Sym((*made, "constructor"))
            self.invocations.append(
                Invocation(callee, passed, (), line_of(call), None, self._enclosing(call))
            )

    def _own_class(self, name: str) -> bool:
        """Whether `name` is a class or function this file declares, or an import of a file
        of the project's (a relative path): what a `new` of it calls may be read."""
        bound = self.bindings.get(name)
        if name in self.class_fields or isinstance(bound, Function):
            return True
        return isinstance(bound, ImportRef) and bound.module.startswith(".")

    def _router_invocations(self, root: _Node, names: list[bytes], seen: set[int]) -> None:
        """The calls `_find_invocations` looks for that name a router or a parameter used as
        one (`names`) as an argument; `seen` gets the start of each."""
        for start, end in passed_spans(self.source, names):
            node = root.descendant_for_byte_range(start, end)
            if node is None or node.type != "identifier":
                continue
            call = _call_passing(node, seen)
            if call is None:
                continue
            callee = call.child_by_field_id(self.fields.function)
            if callee is None or (
                callee.type == "member_expression"
                and self._text(callee.child_by_field_id(self.fields.property)) in _CALLED
            ):
                continue  # a route or `use` call: read as one already
            target = self._expr(callee)
            if target is not None:
                self._invoke(call, target, self._passed_value, _ROUTERISH)

    def _passed_value(self, node: _Node) -> Expr | None:
        """An argument of a call that passes a router: the router as `_owner` reads it, any
        other as `_value` does (`spec.verb || 'get'`: what the callers of the enclosing
        function pass)."""
        if node.type == "identifier" and self._text(node) in self._env:
            looped = self._value(node)  # a loop's variable: this iteration's item
            if looped is not None:
                return looped
        owner = self._owner(node)
        if isinstance(owner, _ROUTERISH) and not isinstance(owner, Sym):
            return owner
        value = self._value(node)
        return value if value is not None and not isinstance(value, Sym) else owner

    def _passed_on_invocations(self, root: _Node, seen: set[int]) -> None:
        """Calls of a function of the project's that pass on a parameter of the function they
        are written in (`function registerRoutes(server) { userRoutes(server) }`): that
        parameter may be the router the outer function is given, so the chain of calls from
        the app to the function declaring routes is followed (`_owners`), not cut here. Only
        calls spelled with a name the file binds to a function or an import are looked at."""
        callees = {
            name.encode()
            for name, value in self.bindings.items()
            if isinstance(value, Function | ImportRef)
        }
        if not callees:
            return
        spans = called_spans(self.source, callees)
        for span in spans:
            node = root.descendant_for_byte_range(*span)
            parent = node.parent if node is not None else None
            callee: _Node | None = node
            if parent is not None and parent.type == "member_expression":
                owner = parent.child_by_field_id(self.fields.object)
                callee = parent if owner is not None and owner == node else None
            call = callee.parent if callee is not None else None
            if (
                call is None
                or call.type != "call_expression"
                or call.child_by_field_id(self.fields.function) != callee
                or call.start_byte in seen
            ):
                continue
            arguments = self._arguments(call)
            table = any(self._table_name(a) or self._made_table(a) for a in arguments)
            # `SPECS.forEach((s) => register(s))`: each item of a list the file spells
            looped = (
                not table
                and any(self._unbound_name(a) for a in arguments)
                and _in_callback_or_loop(call)
                and self._loop_envs(call) is not None
            )
            if not table and not looped and not any(self._passed_on(a) for a in arguments):
                continue
            target = self._expr(callee)
            read, needed = (
                (self._table_value if table else self._value, ())
                if table or looped
                else (self._owner, (Param,))
            )
            kept = (*_PASSED, Namespace) if looped else _TABLES_PASSED if table else _PASSED
            if target is not None and self._invoke(call, target, read, needed, kept):
                seen.add(call.start_byte)

    def _unbound_name(self, argument: _Node) -> bool:
        """Whether `argument` is a name (`e`, `e.url`) the module does not bind: perhaps a loop
        variable, the only arguments literal loops give values to."""
        while argument.type == "member_expression":
            argument = argument.child_by_field_id(self.fields.object) or argument
            if argument.type not in {"member_expression", "identifier"}:
                return False
        return argument.type == "identifier" and self._text(argument) not in self.bindings

    def _table_name(self, argument: _Node) -> bool:
        """Whether `argument` names an object or list the module binds (`internals.plugins`):
        a function of the project's it is passed to may build what it registers from it."""
        while argument.type == "member_expression":
            argument = argument.child_by_field_id(self.fields.object) or argument
        if argument.type != "identifier":
            return False
        bound = self.bindings.get(self._text(argument))
        return isinstance(bound, Namespace | Items)

    def _table_value(self, node: _Node) -> Expr | None:
        """An argument of a call that may pass a route table, as `_value` reads it (a literal
        table of route options: each entry where it is written), else a list literal as
        `_list_value` reads it (`[...Routes.api(deps), extra]`: the parts joined)."""
        bare = unwrap(node) or node
        if bare.type == "identifier":
            held = self._local_initializer(bare)  # `const table = Routes.api(x)` before it
            if held is not None and held.end_byte < bare.start_byte and self._made_table(held):
                bare = held  # a router or any other local: read as `_value` reads it
        value = self._value(bare)
        return value if value is not None or bare.type != "array" else self._list_value(bare)

    def _made_table(self, argument: _Node, packages: bool = True) -> bool:
        """Whether `argument` is what the project gives a function as a table it may register
        (`createServer(port, Routes.apiRoutes(api))`, `start(routes)`): a list literal, a call
        of a function the module declares or imports, or a name or member of an import
        (`Routes.admin`); not an app or router a framework makes (`_creates`: the router code
        reads those). The call passing it is recorded, so a `server.route(routes)` on the
        parameter that receives it is bound to it (`linker._attach_passed_table`). A choice
        (`flag ? Routes.admin(x) : []`, `a || b`) or a local holding one (`const t =
        Routes.api(x)`) is one where a side or the value is the project's own (a list, a
        function the file declares, a relative import's): where the linker cannot read it, it
        is a finding at the call, not a table silently dropped. `packages`: a package's
        function or value counts (only for the argument itself)."""
        argument = unwrap(argument) or argument
        if argument.type == "array":
            return True  # `boot(port, [{ method, path, handler }])`
        if argument.type in {"ternary_expression", "binary_expression"}:
            sides = (
                self.fields.consequence,
                self.fields.alternative,
                self.fields.left,
                self.fields.right,
            )
            return any(
                (side := argument.child_by_field_id(field)) is not None
                and self._made_table(side, packages=False)
                for field in sides
            )
        held = self._local_initializer(argument) if argument.type == "identifier" else None
        if held is not None and held.end_byte < argument.start_byte:
            return self._made_table(held, packages=False)
        if self._creates(argument) is not None:
            return False
        while argument.type in {"call_expression", "member_expression"}:
            head = argument.child_by_field_id(
                self.fields.function if argument.type == "call_expression" else self.fields.object
            )
            if head is None:
                return False
            argument = unwrap(head) or head
        if argument.type != "identifier":
            return False
        name = self._text(argument)  # `require('kit').table()`: a package's, a finding there
        bound = self.bindings.get(name)
        if not packages:
            return isinstance(bound, Function) or (
                isinstance(bound, ImportRef) and bound.module.startswith(".")
            )
        return name == "require" or isinstance(bound, Function | ImportRef)

    def _local_initializer(self, node: _Node) -> _Node | None:
        """The value the local `node` names is declared with in the function it is read in,
        when declared there once (`_declared_once`); None for any other name."""
        body = self._function_block(node)
        if body is None:
            return None
        found = self._declared_once(body, self._text(node))
        value = found.child_by_field_id(self.fields.value) if found is not None else None
        return unwrap(value) or value if value is not None else None

    def _passed_on(self, argument: _Node) -> bool:
        """Whether `argument` is a parameter of a function the call is written in."""
        if argument.type != "identifier":
            return False
        name = self._text(argument)
        return name not in self.bindings and self._param(argument, name) is not None

    def _invoke(
        self,
        call: _Node,
        target: Expr,
        read: Callable[[_Node], Expr | None],
        needed: tuple[type, ...],
        kept: tuple[type, ...] = _PASSED,
    ) -> bool:
        """Record `call` of `target`, its arguments as `read` gives them, once per iteration of
        the literal loops around it (`RECORDS.forEach(r => wrap(app, r.path, r.method))`), when
        an argument is one of `needed` (any call when empty); whether one was recorded."""
        arguments = self._arguments(call)
        looped = (
            self._tables()
            and any(self._unbound_name(a) or a.type == "identifier" for a in arguments)
            and _in_callback_or_loop(call)
        )
        envs = self._loop_envs(call) if looped else None
        scope = self._enclosing(call)
        recorded = False
        for env in envs if envs is not None else ({},):
            self._env = env
            passed = tuple(value if isinstance(value := read(a), kept) else None for a in arguments)
            if not needed or any(isinstance(a, needed) for a in passed):
                self.invocations.append(Invocation(target, passed, (), line_of(call), None, scope))
                recorded = True
        self._env = {}
        return recorded

    def _path_invocations(self, root: _Node) -> None:
        """Calls whose first argument is a string (`api.add('/users', list)`, `users.get(
        '/x', h)` on an instance of a class of the project's): a wrapper of a registration may
        be what they call. A route or `use` call on a router this file makes is left out."""
        seen: set[int] = set()
        for match in _STRING_ARGUMENT.finditer(self.source):
            if self._known_callee(match.start()):
                continue
            node = root.descendant_for_byte_range(match.end() - 1, match.end())
            while node is not None and node.type not in {"string", "template_string"}:
                node = node.parent if node.type in {"'", '"', "`", "string_fragment"} else None
            args = node.parent if node is not None else None
            call = args.parent if args is not None else None
            if (
                args is None
                or args.type != "arguments"
                or call is None
                or call.type != "call_expression"
                or call.start_byte in seen
                or args.named_children[0] != node
            ):
                continue
            seen.add(call.start_byte)
            callee = call.child_by_field_id(self.fields.function)
            if callee is None or callee.type not in {"identifier", "member_expression"}:
                continue
            if callee.type == "member_expression":
                owner = unwrap(callee.child_by_field_id(self.fields.object))
                if owner is not None and owner.type == "identifier":
                    bound = self.bindings.get(self._text(owner))
                    if isinstance(bound, RouterRef | ImportRef) and not self._may_be(bound):
                        continue  # `router.get('/x', h)`, `express.static('x')`
            elif self._text(callee) == "require":
                continue
            target = self._expr(callee)
            if target is not None:
                self._invoke(call, target, self._value, ())

    def _path_calls(self, root: _Node) -> None:
        """Route-shaped member calls (`route_shaped_calls`): a string starting with `/` as
        the first or second argument and, after it, a handler — a function written there, a
        call wrapping one, or a name of the project's code (a function of the file, an import
        of a relative module, a member of either). The linker judges their receivers."""
        seen: set[int] = set()
        for match in route_shaped_calls(self.source):
            node = root.descendant_for_byte_range(match.end() - 2, match.end() - 1)
            while node is not None and node.type not in {"string", "template_string"}:
                node = node.parent if node.type in {"'", '"', "`", "string_fragment"} else None
            call = _call_passing(node, seen) if node is not None else None
            if node is None or node.parent is None or call is None:
                continue
            arguments = [a for a in node.parent.named_children if a.type != "comment"]
            at = next((i for i, a in enumerate(arguments[:2]) if a == node), None)
            callee = call.child_by_field_id(self.fields.function)
            path = self._string(node) if node.type == "string" else self._text(node)[1:-1]
            if (
                at is None
                or callee is None
                or callee.type != "member_expression"
                or path is None
                or not any(self._handler_like(a) for a in arguments[at + 1 :])
            ):
                continue
            owner = unwrap(callee.child_by_field_id(self.fields.object))
            receiver = self._expr(owner) if owner is not None and owner.type != "this" else None
            if owner is not None and owner.type == "this":  # an instance of its class
                cls = self._class_of(call)
                receiver = Sym((cls, CALL)) if cls is not None else None
            method = self._text(callee.child_by_field_id(self.fields.property))
            if receiver is not None:
                self.path_calls.append(PathCall(receiver, method, path, line_of(call)))

    def _handler_like(self, node: _Node) -> bool:
        """Whether an argument is a handler: a function written there, a call wrapping one
        (`asyncHandler(async (req) => …)`), or a name of the project's code."""
        node = unwrap(node) or node
        if node.type in FUNCTION_VALUES:
            return True
        if node.type == "call_expression":
            args = node.child_by_field_id(self.fields.arguments)
            return args is not None and any(a.type in FUNCTION_VALUES for a in args.named_children)
        while node.type == "member_expression":
            node = unwrap(node.child_by_field_id(self.fields.object)) or node
            if node.type == "this":
                return True  # `this.handler`, `this.ctrl.list`
        if node.type != "identifier":
            return False
        bound = self.bindings.get(self._text(node))
        if isinstance(bound, Sym):  # `ctrl.list` where `const ctrl = new Ctrl()`
            bound = self.bindings.get(bound.path[0])
        if isinstance(bound, ImportRef):
            return bound.module.startswith((".", "@/", "~/", "#"))
        return isinstance(bound, Function | Namespace)

    def _known_callee(self, at: int) -> bool:
        """Whether the call whose `(` is at `at` is, on its text, `require(...)` or a member of
        a router or an import this file binds (`router.get(`, `express.static(`)."""
        source = self.source
        start, end = js_scopes.name_before(source, at)
        dot = start
        while dot > 0 and source[dot - 1] in _BLANKS:
            dot -= 1
        if dot == 0 or source[dot - 1] != 0x2E:  # no `.`: a plain call
            return source[start:end] == b"require"
        head, head_end = js_scopes.name_before(source, dot - 1)
        bound = self.bindings.get(source[head:head_end].decode("utf-8", "replace"))
        return isinstance(bound, RouterRef | ImportRef) and not self._may_be(bound)

    def _may_be(self, bound: Expr) -> bool:
        """Whether `bound` is a router only if the linker says so (`_maybe_router`): an
        instance of the project's class otherwise, whose methods' calls are read as calls."""
        decl = self.routers.get(bound.router_id) if isinstance(bound, RouterRef) else None
        return decl is not None and decl.subclass is not None

    def scoped_routers(self, root: _Node) -> Iterator[RouterDecl]:
        """Each router read, with the site of the function whose body makes it (`scope`): a
        router a function makes is another one at each of its calls (the linker's `_fresh`)."""
        for decl in self.routers.values():
            row, _, column = decl.router_id.partition(":")
            if not (row.isdigit() and column.isdigit()):
                yield decl  # a router the reader names otherwise (a parameter, a load)
                continue
            point = (int(row) - 1, int(column))
            made = root.descendant_for_point_range(point, point)
            scope = self._enclosing(made) if made is not None else ""
            yield replace(decl, scope=scope) if scope else decl

    def _enclosing(self, node: _Node) -> str:
        """The site of the function `node` is written in ("" at the top level)."""
        scope = _function_of(node)
        return site_of(scope) if scope is not None else ""

    def _ref(self, module: str, attr: str | None) -> ImportRef:
        return ImportRef(module, attr, self.path)

    # -- configuration values and composed apps ---------------------------------------------

    def _fallback(self, node: _Node, read: Callable[[_Node], Expr | None]) -> Fallback | None:
        """`process.env.PREFIX || '/api'` (`??` too) and `env.X ? env.X : '/api'`: the value
        where the scan shows it, else the default written here (`Fallback`); None for any
        other binary or conditional expression."""
        if node.type == "ternary_expression":
            condition = unwrap(node.child_by_field_id(self.fields.condition))
            chosen = unwrap(node.child_by_field_id(self.fields.consequence))
            default = node.child_by_field_id(self.fields.alternative)
            if condition is None or chosen is None or default is None:
                return None
            if self._text(condition) != self._text(chosen):
                return None
        else:
            operator = self._text(node.child_by_field_id(self.fields.operator))
            if operator not in {"||", "??"}:
                return None
            chosen = node.child_by_field_id(self.fields.left)
            default = node.child_by_field_id(self.fields.right)
            if chosen is None or default is None:
                return None
        fallback = read(default)
        if fallback is None:
            return None
        source = " ".join(self._text(chosen).split())
        return Fallback(read(chosen) or Opaque(), fallback, source[:80])

    def _configured(self, node: _Node) -> Expr | None:
        """Configuration whose source the scan shows: `envSchema({ schema })` and `convict({
        ... })` (`Schema`), a JSON schema built with fluent-json-schema (read as the schema it
        builds), `new Confidence.Store(document)` (the document), and `config.get('a.b')` or
        `store.get('/a/b')` (that member); None for any other call."""
        callee = unwrap(
            node.child_by_field_id(self.fields.function)
            or node.child_by_field_id(self.fields.constructor)
        )
        if callee is None:
            return None
        args = self._arguments(node)
        module = self._default_of(callee)
        if module in _SCHEMA_CALLS and args:
            kind, where = _SCHEMA_CALLS[module]
            if isinstance(where, int):
                schema = self._expr(args[where]) if where < len(args) else None
            else:
                options = unwrap(args[0])
                value = (
                    self._field(options, where) if options and options.type == "object" else None
                )
                schema = self._expr(value) if value is not None else None
            return Schema(schema or Opaque(), kind)
        if node.type == "new_expression":
            return self._expr(args[0]) if args and self._store_class(callee) else None
        if callee.type != "member_expression":
            return None
        if self._fluent_root(node):
            return self._fluent(node)
        member = self._text(callee.child_by_field_id(self.fields.property))
        key = self._string(args[0]) if member == "get" and len(args) == 1 else None
        owner = unwrap(callee.child_by_field_id(self.fields.object))
        base = self._path(owner) if key is not None and owner is not None else None
        if key is None or owner is None or base is None or self._creates(owner) is not None:
            return None
        if isinstance(self.bindings.get(base[0]), RouterRef):
            return None  # `router.get('env')`: a router's setting, no configuration
        return Keyed(Sym(base), Lit(key))

    def _store_class(self, callee: _Node) -> bool:
        """Whether `callee` is a confidence store's class: `Confidence.Store` on the package's
        default export, or `Store` imported from it (`require('confidence').Store`)."""
        if callee.type == "member_expression":
            owner = unwrap(callee.child_by_field_id(self.fields.object))
            made = self._text(callee.child_by_field_id(self.fields.property))
            return made == "Store" and self._default_of(owner) in _STORES
        bound = self.bindings.get(self._text(callee)) if callee.type == "identifier" else None
        return isinstance(bound, ImportRef) and bound.module in _STORES and bound.attr == "Store"

    def _entry_value(self, options: _Node) -> Namespace:
        """A route table's entry (`{ method, path, options: { app: { hidden: true } } }`) as a
        value, its boolean fields the flags the linker tells the truth of."""
        booleans, self._booleans = self._booleans, True
        try:
            return self._object(options)
        finally:
            self._booleans = booleans

    def _field_value(self, node: _Node | None) -> Expr | None:
        """An object's field as `_expr` reads it, and a list that is no route table as its
        items (`register: { plugins: ['./a', { plugin: './b' }] }`, a manifest's)."""
        bare = unwrap(node) if self._booleans else None
        if bare is not None and bare.type in {"true", "false"}:
            return Lit("true" if bare.type == "true" else "")
        value = self._expr(node)
        node = unwrap(node)
        if value is not None or node is None or node.type != "array":
            return value
        return self._list_value(node)

    def _list_value(self, node: _Node) -> Items | Mapped | None:
        """An array literal as a value: its items, or, spreading lists (`[...base, x]`), those
        lists joined (`Mapped` "join": each spread a list the linker must find)."""
        items = [c for c in node.named_children if c.type != "comment"]
        if len(items) > _MAX_ITERATIONS:
            return None
        if not any(c.type == "spread_element" for c in items):
            return Items(tuple(self._item_value(item) for item in items))
        parts: list[Expr] = []
        for item in items:
            if item.type == "spread_element":
                spread = self._value(item.named_children[0]) if item.named_children else None
                parts.append(spread or Opaque())
            else:
                parts.append(Items((self._expr(item) or Opaque(),)))
        return Mapped(Items(tuple(parts)), "join")

    def _rows(self, node: _Node) -> Items | None:
        """A table of rows (`[['get', '/a', h], ['post', '/b', h]]`, each item a list) as its
        items, each row as its own; None for any other array."""
        items = [c for c in node.named_children if c.type != "comment"]
        if not items or any(c.type != "array" for c in items):
            return None
        listed = self._list_value(node)
        return listed if isinstance(listed, Items) else None

    def _item_value(self, item: _Node) -> Expr:
        """An item of a list literal; a list in it (a row of a table of lists: `['get', '/a',
        h]`) as its own items, where `_expr` does not model it otherwise."""
        found = self._expr(item)
        if found is None and item.type == "array":
            found = self._list_value(item)
        return found or Opaque()

    def _fluent_root(self, node: _Node) -> bool:
        """Whether `node` is a chain of calls on fluent-json-schema's default export."""
        while node.type == "call_expression":
            callee = unwrap(node.child_by_field_id(self.fields.function))
            if callee is None or callee.type != "member_expression":
                return False
            node = unwrap(callee.child_by_field_id(self.fields.object)) or node
        return self._default_of(node) in _FLUENT_SCHEMAS

    def _fluent(self, node: _Node) -> Namespace:
        """`S.object().prop('PREFIX', S.string().default('/api'))`: the JSON schema it builds,
        as an object (`{ properties: { PREFIX: { default: '/api' } } }`), what a `Schema`
        reads; a step it does not know leaves the rest as built."""
        properties: list[tuple[str, Expr]] = []
        fields: list[tuple[str, Expr]] = []
        while node.type == "call_expression":
            callee = unwrap(node.child_by_field_id(self.fields.function))
            if callee is None or callee.type != "member_expression":
                break
            step = self._text(callee.child_by_field_id(self.fields.property))
            args = self._arguments(node)
            if step == "prop" and args:
                name = self._string(args[0])
                value = self._fluent(unwrap(args[1]) or args[1]) if len(args) > 1 else Namespace(())
                if name is not None:
                    properties.insert(0, (name, value))
            elif step == "default" and args:
                fields.append(("default", self._expr(args[0]) or Opaque()))
            node = unwrap(callee.child_by_field_id(self.fields.object)) or node
        if properties:
            fields.append(("properties", Namespace(tuple(properties))))
        return Namespace(tuple(fields))

    def _config_plugin(self, options: _Node, name: str) -> None:
        """`fastify.register(fastifyEnv, { schema, confKey })`: the instance is decorated with
        the configuration its JSON schema validates (`fastify.config.PREFIX`): bound under a
        name no code spells, which the linker reads for a member of an instance."""
        options = unwrap(options) or options
        schema: Expr = Opaque()
        if options.type == "object":
            key = self._string(self._field(options, "confKey"))
            name = key or name
            value = self._field(options, "schema")
            schema = (self._expr(value) if value is not None else None) or Opaque()
        else:
            given = self._value(options)
            schema = Member(given, ("schema",)) if given is not None else Opaque()
        self.bindings[DECORATED + name] = Schema(schema, "json")

    def _plugin_options(self, node: _Node | None, framework: Framework) -> Expr | None:
        """What a registered plugin function is given as its options (its second parameter):
        Fastify's register options, hapi's `{ plugin, options }` entry's `options`."""
        node = unwrap(node)
        if node is None:
            return None
        if framework.plugin_key:
            value = self._field(node, "options") if node.type == "object" else None
            return self._value(value) if value is not None else None
        return self._value(node)

    def _param_member(self, node: _Node) -> Member | None:
        """`options.prefix` where `options` is a parameter of the enclosing function (what its
        callers pass), as a `Member` of that `Param`; None for any other member."""
        props: list[str] = []
        while node.type == "member_expression":
            prop = node.child_by_field_id(self.fields.property)
            if prop is None or prop.type != "property_identifier":
                return None
            props.insert(0, self._text(prop))
            node = unwrap(node.child_by_field_id(self.fields.object)) or node
        if node.type != "identifier" or not props:
            return None
        name = self._text(node)
        if name in self.bindings or (self._env and name in self._env):
            return None
        param = self._param(node, name)
        return Member(param, tuple(props)) if param is not None else None

    def _unchained(self, node: _Node) -> _Node:
        """`server.register(a).register(b)`, `app.withTypeProvider<T>().get(...)`: calls that
        return the instance (`_CHAINED`), so the owner of a chained call is the first one's
        (TypeScript's type arguments, `as`, `!` and `satisfies` on a link change nothing)."""
        while node.type == "call_expression":
            callee = unwrap(node.child_by_field_id(self.fields.function))
            if callee is None or callee.type != "member_expression":
                break
            if self._text(callee.child_by_field_id(self.fields.property)) not in _CHAINED:
                break
            node = unwrap(callee.child_by_field_id(self.fields.object)) or node
        return node

    def _chain_root(self, owner: _Node) -> tuple[Expr, str] | None:
        """`app.withTypeProvider().unknown()` as a route's owner: (what the chain's first
        object stands for, `unknown`), the link no record says returns the instance; None for
        a chain of known links, a call that makes a router, or no chain at all."""
        node = self._unchained(unwrap(owner) or owner)
        if node.type != "call_expression" or self._creates(node) is not None:
            return None
        callee = unwrap(node.child_by_field_id(self.fields.function))
        if callee is None or callee.type != "member_expression":
            return None
        base = unwrap(callee.child_by_field_id(self.fields.object))
        root = self._owner(base) if base is not None else None
        link = self._text(callee.child_by_field_id(self.fields.property))
        return (root, link) if root is not None and link else None

    def _returns(self, function: _Node) -> Expr | None:
        """What a function returns, when that is one value spelled as a name, a member or an
        object (`return config`, `() => ({ prefix })`): a configuration factory's result; an
        environment reader's default (`process.env[key] ?? fallback`, or the value returned
        early when the variable is unset: `if (value === undefined) return fallback`); a call
        of another function of the project's with the parameters passed on (`Apply`). Other
        calls and several returns are not read."""
        body = unwrap(function.child_by_field_id(self.fields.body))
        if body is None:
            return None
        if body.type == "statement_block":
            unset = self._unset_return(body)
            if unset is not None:
                return unset
            returned = [c for c in body.named_children if c.type == "return_statement"]
            if len(returned) != 1 or not returned[0].named_children:
                return None
            if _valued_returns(body) > 1:  # `if (x) return a; return b`: a test it can read
                return self._branched_return(function, body)
            body = unwrap(returned[0].named_children[0])
        if body is not None and (flag := self._flag(body)) is not None:
            return flag  # `return ['pre', 'prd'].includes(env)`: a test read as a value
        if body is not None and (listed := js_pushed.local_list(self, body)) is not None:
            return listed  # `return out` of a list the function fills by `push`
        if body is not None and body.type in _CALLS and self._made_router(body):
            return self._expr(body)  # `return express.Router().get('/a', h)`, `new Router()`
        if body is not None and body.type == "call_expression":
            forwarded = self._forwarded(body) or self._applied(body)
            if forwarded is not None or not self._builds(body, function):
                return forwarded
        elif body is not None and body.type == "binary_expression":
            operator = self._text(body.child_by_field_id(self.fields.operator))
            left = self._text(body.child_by_field_id(self.fields.left))
            if operator in {"??", "||"} and left.startswith("process.env"):
                return self._fallback(body, self._value)  # the default: a parameter, bound
            return None
        elif body is not None and body.type in _ASSIGNMENTS:
            # `return Hub.instance ??= new Hub()`: the field, once the assignment ran
            body = unwrap(body.child_by_field_id(self.fields.left))
            if body is None or body.type != "member_expression":
                return None
        elif body is None or body.type not in _RETURNED:
            return None
        scoped, self._scoped = self._scoped, True  # its parameters: what each call passes
        try:
            value = self._expr(body)
        finally:
            self._scoped = scoped
        if body.type == "call_expression" and not isinstance(value, Mapped | Call):
            return None  # a call read as a value only where it builds a list or calls a helper
        return value

    def _branched_return(self, function: _Node, body: _Node) -> Choice | None:
        """`if (test) { return a } return b` (the whole body): `a` or `b` as the test the
        linker can decide picks (`Choice`), each read as a one-return function's value; a test
        on the configuration is decided under its defaults (`linker._choice`). None for any
        other shape of several returns (the runtime decides)."""
        statements = [c for c in body.named_children if c.type != "comment"]
        if len(statements) != 2 or statements[0].type != "if_statement":
            return None
        branch, last = statements
        if branch.child_by_field_id(self.fields.alternative) is not None:
            return None
        taken = branch.child_by_field_id(self.fields.consequence)
        if taken is not None and taken.type == "statement_block":
            inner = [c for c in taken.named_children if c.type != "comment"]
            taken = inner[0] if len(inner) == 1 else None
        condition = unwrap(branch.child_by_field_id(self.fields.condition))
        if condition is None or taken is None:
            return None
        parts = [taken, last]
        if any(p.type != "return_statement" or not p.named_children for p in parts):
            return None
        then, otherwise = (self._return_value(function, p.named_children[0]) for p in parts)
        test = self._flag(condition, truthy=True)
        if then is None or otherwise is None or test is None:
            return None
        return replace(test, then=then, otherwise=otherwise)

    def _return_value(self, function: _Node, value: _Node) -> Expr | None:
        """What `return value` gives, read as the value of a function whose one return it is
        (`_returns`): its parameters bound by each call."""
        scoped, self._scoped = self._scoped, True
        try:
            read = self._flag(value) or self._expr(value)
        finally:
            self._scoped = scoped
        if value.type == "call_expression" and not isinstance(read, Mapped | Call | Choice):
            return None
        return None if read is None or isinstance(read, Opaque) else read

    def _flag(self, node: _Node, *, truthy: bool = False) -> Choice | None:
        """A test read as a value, `'true'` when it holds and `''` when not (the truth of a
        flag as the linker tells it): `list.includes(x)` of a literal list of strings,
        `x === 'lit'`, `!test`; with `truthy`, any other name, member or call too (the truth
        of what it gives: a helper's flag, `this._protected(env)`). None otherwise."""
        node = unwrap(node) or node
        negated = False
        while (
            node.type == "unary_expression"
            and self._text(node.child_by_field_id(self.fields.operator)) == "!"
        ):
            negated = not negated
            node = unwrap(node.child_by_field_id(self.fields.argument)) or node
        scoped, self._scoped = self._scoped, True
        try:
            read = self._included(node) or (
                self._equality(node) if node.type == "binary_expression" else None
            )
            if read is None and (truthy or negated) and node.type in _TRUTHY_TESTS:
                tested = self._expr(node)
                read = Choice(tested, "truthy", Lit("true"), Lit("")) if tested else None
        finally:
            self._scoped = scoped
        return replace(read, negated=read.negated != negated) if read is not None else None

    def _included(self, node: _Node) -> Choice | None:
        """`['pre', 'prd'].includes(x)`: whether `x` is one of the literal strings."""
        if node.type != "call_expression":
            return None
        callee = unwrap(node.child_by_field_id(self.fields.function))
        args = self._arguments(node)
        if callee is None or callee.type != "member_expression" or len(args) != 1:
            return None
        if self._text(callee.child_by_field_id(self.fields.property)) != "includes":
            return None
        listed = self._array_items(unwrap(callee.child_by_field_id(self.fields.object)))
        against = [self._string(unwrap(item)) for item in listed or ()]
        tested = self._tested(unwrap(args[0]) or args[0])
        if not against or None in against or tested is None:
            return None
        literals = tuple(Lit(a) for a in against if a is not None)
        return Choice(tested, "in", Lit("true"), Lit(""), against=literals)

    def _made_router(self, call: _Node) -> bool:
        """Whether `call` makes a router or app, or calls a chain of its registrations
        (`Router().get('/a', h).use(auth)`), which give back the router they are called on."""
        node: _Node | None = call
        while node is not None and node.type == "call_expression":
            callee = unwrap(node.child_by_field_id(self.fields.function))
            if callee is None or callee.type != "member_expression":
                break
            if self._text(callee.child_by_field_id(self.fields.property)) not in _CALLED | _CHAINED:
                break
            node = unwrap(callee.child_by_field_id(self.fields.object))
        return node is not None and self._creates(node) is not None

    def _applied(self, call: _Node) -> Apply | None:
        """`return readSetting(key, fallback)`: a call of a function the module binds (its own
        or imported), with what this function's parameters pass, for the linker to follow."""
        callee = unwrap(call.child_by_field_id(self.fields.function))
        if callee is None or callee.type != "identifier":
            return None
        if not isinstance(self.bindings.get(self._text(callee)), Function | ImportRef):
            return None
        args = tuple(self._value(a) or Opaque() for a in self._arguments(call))
        return Apply(Sym((self._text(callee),)), args, ())

    def _unset_return(self, body: _Node) -> Fallback | None:
        """`const value = process.env[key]; if (value === undefined) return fallback; ...`: with
        the variable unset (the configuration's default) the function returns `fallback`; the
        environment may say otherwise (`Fallback`)."""
        read: set[str] = set()
        for statement in body.named_children:
            if statement.type in {"lexical_declaration", "variable_declaration"}:
                for declarator in statement.named_children:
                    target = declarator.child_by_field_id(self.fields.name)
                    value = unwrap(declarator.child_by_field_id(self.fields.value))
                    environ = value is not None and self._text(value).startswith("process.env")
                    if target is not None and environ:
                        read.add(self._text(target))
                continue
            if statement.type != "if_statement" or not read:
                return None
            condition = unwrap(statement.child_by_field_id(self.fields.condition))
            taken = statement.child_by_field_id(self.fields.consequence)
            if taken is not None and taken.type == "statement_block" and taken.named_children:
                taken = taken.named_children[0] if len(taken.named_children) == 1 else None
            if condition is None or taken is None or taken.type != "return_statement":
                return None
            if (
                " ".join(self._text(condition).split())
                not in {form.format(name) for name in read for form in _UNSET_TESTS}
                or not taken.named_children
            ):
                return None
            default = self._value(taken.named_children[0])
            if default is None:
                return None
            return Fallback(Opaque(), default, "process.env")
        return None

    def _forwarded(self, call: _Node) -> Keyed | None:
        """`return store.get(key, criteria)` in a `get(key)` of the project's: what the store
        gives for the key the caller passes (a parameter, bound once linked)."""
        callee = unwrap(call.child_by_field_id(self.fields.function))
        args = self._arguments(call)
        if callee is None or callee.type != "member_expression" or not args:
            return None
        if self._text(callee.child_by_field_id(self.fields.property)) != "get":
            return None
        base = self._path(callee.child_by_field_id(self.fields.object))
        key = self._value(args[0])
        return Keyed(Sym(base), key) if base is not None and key is not None else None

    def _declared(self, name: _Node) -> _Node | None:
        """The value `const name = ...` gives in the nearest block around `name` that declares
        it (`const options = { relativeTo: __dirname }` before the call that passes it)."""
        text = self._text(name)
        scope = name.parent
        while scope is not None:
            if scope.type in {"statement_block", "program"}:
                for statement in scope.named_children:
                    if statement.type not in {"lexical_declaration", "variable_declaration"}:
                        continue
                    for declarator in statement.named_children:
                        target = declarator.child_by_field_id(self.fields.name)
                        if target is not None and self._text(target) == text:
                            return unwrap(declarator.child_by_field_id(self.fields.value))
            scope = scope.parent
        return None

    def _mark_shared(self, value: _Node | None) -> None:
        """`module.exports = fp(plugin)`: a plugin loader runs it on its parent itself."""
        value = unwrap(value)
        if value is None or value.type != "call_expression":
            return
        if (
            self._default_of(unwrap(value.child_by_field_id(self.fields.function)))
            == _SHARED_PLUGIN
        ):
            self.bindings[SHARED] = Lit("default")

    def _compose(self, node: _Node, owner: _Node, args: list[_Node]) -> None:
        """`Glue.compose(manifest, { relativeTo: __dirname })`: the app made here, its plugins
        listed by the manifest (read by the linker, which follows the manifest where it is
        written: a literal, a module, a confidence store's document)."""
        framework = _COMPOSERS.get(self._default_of(unwrap(owner)) or "")
        if framework is None:
            return
        site = site_of(node)
        self.routers.setdefault(site, RouterDecl(site, framework.key, line_of(node), app=True))
        relative: str | None = None
        options = unwrap(args[1]) if len(args) > 1 else None
        if options is not None and options.type == "identifier":
            options = self._declared(options)
        where = (
            unwrap(self._field(options, "relativeTo"))
            if options and options.type == "object"
            else None
        )
        module = False
        if where is not None and self._text(where) == "__dirname":
            relative = posixpath.dirname(self.path)
        elif where is not None:
            relative = self._folder(where)
            named = js_loops.resolve(self, where) if relative is None else None
            spelled = self._string(named) if named is not None else None
            if spelled and not spelled.startswith(("/", ".")):  # `relativeTo: 'plugins'`
                relative, module = posixpath.normpath(spelled), True
        manifest = self._value(args[0]) or Opaque()
        self.composes.append(
            ComposeDecl(site, manifest, relative, line_of(node), self._enclosing(node), module)
        )

    # -- nodes -----------------------------------------------------------------------------

    def _route_chain(self, owner: _Node) -> tuple[_Node, list[_Node]] | None:
        """For `.get` in `router.route('/x').get(a).post(b)`: (`router`, ['/x'])."""
        node: _Node | None = unwrap(owner)
        while node is not None and node.type == "call_expression":
            callee = node.child_by_field_id(self.fields.function)
            if callee is None or callee.type != "member_expression":
                return None
            prop = self._text(callee.child_by_field_id(self.fields.property))
            target = callee.child_by_field_id(self.fields.object)
            if prop == "route" and target is not None:
                args = self._arguments(node)
                return (target, args[:1]) if args else None
            if prop not in _CALLED or prop == "use":
                return None
            node = unwrap(target)
        return None

    def _guard(self, node: _Node) -> Expr:
        """A middleware argument as the linker judges it: a name, a call (`passport.authenticate
        ('jwt')`, `asyncHandler(auth.jwt)`) or an inline function; `Opaque` for anything else."""
        if node.type == "spread_element":
            return Opaque()  # the middleware a list holds may guard: not known, never none
        return self._expr(node) or Opaque()

    def _guards_in(self, node: _Node) -> list[Expr]:
        """The guards a middleware argument stands for: itself, or for `...chain` of a list
        the block around the call fills by pushes (`_chain`), what they push but the last
        (the handler), each pushed under a test a `Choice` the linker decides per route."""
        if node.type != "spread_element":
            return [self._guard(node)]
        chain = self._chain(node)
        return chain if chain is not None else [Opaque()]

    def _chain(self, spread: _Node) -> list[Expr] | None:
        """`...chain` of `const chain = []` declared in the block around the registration,
        filled before it by statements of that block: `chain.push(a)`, or `if (test)
        chain.push(a)` (also `!test`, a block of pushes, no `else`): a guard per push but the
        last, which is the handler's; a pushed guard is `Choice(test, guard, NoGuard)`, so a
        table's entry decides it (`if (routes[key].auth) chain.push(auth)`). None for a
        list used any other way before the call."""
        name_node = unwrap(spread.named_children[0]) if spread.named_children else None
        if name_node is None or name_node.type != "identifier":
            return None
        name = self._text(name_node)
        statement = spread
        while statement.parent is not None and statement.parent.type != "statement_block":
            statement = statement.parent
        block = statement.parent
        if block is None:
            return None
        pushed: list[tuple[_Node | None, _Node]] = []  # (test, value)
        declared = False
        for child in block.named_children:
            if child.start_byte >= statement.start_byte:
                break
            if not declared:
                declared = self._declares_empty(child, name)
                continue
            found = self._pushes_of(child, name)
            if found is None:
                return None
            pushed += found
        if not declared or not pushed or pushed[-1][0] is not None:
            return None
        return [self._pushed_guard(test, value) for test, value in pushed[:-1]]

    def _declares_empty(self, statement: _Node, name: str) -> bool:
        """Whether `statement` is `const name = []` (`let` too)."""
        if statement.type != "lexical_declaration":
            return False
        for declarator in statement.named_children:
            target = declarator.child_by_field_id(self.fields.name)
            value = unwrap(declarator.child_by_field_id(self.fields.value))
            if target is not None and self._text(target) == name:
                return value is not None and value.type == "array" and not value.named_children
        return False

    def _pushes_of(self, statement: _Node, name: str) -> list[tuple[_Node | None, _Node]] | None:
        """What `statement` pushes onto `name`: `name.push(a, b)`, under `if (test)` each with
        its test; [] for a statement that does not name the list; None for any other use."""
        if not re.search(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", self._text(statement)):
            return []
        if statement.type == "if_statement":
            test = statement.child_by_field_id(self.fields.condition)
            body = statement.child_by_field_id(self.fields.consequence)
            if statement.child_by_field_id(self.fields.alternative) is not None or body is None:
                return None
            inner = body.named_children if body.type == "statement_block" else [body]
            found: list[tuple[_Node | None, _Node]] = []
            for one in inner:
                pushed = self._pushes_of(one, name)
                if pushed is None or any(t is not None for t, _ in pushed):
                    return None
                found += [(test, value) for _, value in pushed]
            return found
        call = unwrap(statement.named_children[0]) if statement.named_children else None
        callee = call.child_by_field_id(self.fields.function) if call is not None else None
        if (
            statement.type != "expression_statement"
            or call is None
            or call.type != "call_expression"
            or callee is None
            or self._text(callee).replace(" ", "") != f"{name}.push"
        ):
            return None
        args = self._arguments(call)
        if any(a.type == "spread_element" for a in args):
            return None
        return [(None, a) for a in args]

    def _pushed_guard(self, test: _Node | None, value: _Node) -> Expr:
        """A pushed middleware as a guard; pushed under `test`, the guard when the test holds
        and none otherwise, a loop's table entry read as a test (`LoopKey.tested`)."""
        guard = self._guard(value)
        if test is None:
            return guard
        not_pushed = NoGuard(f"not pushed unless {self._text(test)}")
        for term in reversed(self._conjuncts(test)):  # `a && !b`: a choice in a choice
            inner: _Node | None = unwrap(term)
            negated = False
            while (
                inner is not None
                and inner.type == "unary_expression"
                and self._text(inner.child_by_field_id(self.fields.operator)) == "!"
            ):
                negated = not negated
                inner = unwrap(inner.child_by_field_id(self.fields.argument))
            tested = self._expr(inner) if inner is not None else None
            if isinstance(tested, LoopKey):
                tested = replace(tested, tested=True)
            guard = Choice(tested or Opaque(), "truthy", guard, not_pushed, negated=negated)
        return guard

    def _conjuncts(self, test: _Node) -> list[_Node]:
        """The terms `a && b && c` joins, in order; the test itself when it joins none."""
        node = unwrap(test) or test
        operator = node.child_by_field_id(self.fields.operator)
        if node.type == "binary_expression" and self._text(operator) == "&&":
            left = node.child_by_field_id(self.fields.left)
            right = node.child_by_field_id(self.fields.right)
            if left is not None and right is not None:
                return [*self._conjuncts(left), *self._conjuncts(right)]
        return [node]

    def _handler(self, node: _Node) -> str | None:
        """The handler's name as written (`listUsers`, `users.list`, `asyncHandler(listUsers)` →
        `listUsers`); None for an inline function."""
        node = unwrap(node) or node
        if node.type in {"identifier", "member_expression"}:
            return self._text(node)
        if node.type == "call_expression":
            args = self._arguments(node)
            return self._handler(args[0]) if args else None
        return None

    def _arguments(self, node: _Node) -> list[_Node]:
        args = node.child_by_field_id(self.fields.arguments)
        if args is None:
            return []
        return [a for a in args.named_children if a.type != "comment"]

    def _require(self, node: _Node) -> str | None:
        """'x' for `require('x')`."""
        if node.type != "call_expression":
            return None
        callee = node.child_by_field_id(self.fields.function)
        if callee is None or callee.type != "identifier" or self._text(callee) != "require":
            return None
        args = self._arguments(node)
        if len(args) != 1:
            return None
        spelled = self._string(args[0])
        if spelled is None and self._env:  # `require(`./p/${name}`)` over a list's items
            spelled = _literal_text(self._expr(args[0]))
        return spelled

    def _path(self, node: _Node | None) -> tuple[str, ...] | None:
        """`a.b().c` → ("a", "b", "()", "c"); None for anything but names, members and calls."""
        node = unwrap(node)
        if node is None:
            return None
        if node.type in {"identifier", "property_identifier", "shorthand_property_identifier"}:
            return (self._text(node),)
        if node.type == "this":  # in a class: an instance of it, the class in a static method
            name = self._class_of(node)
            return ((name,) if self._in_static(node) else (name, CALL)) if name else ("this",)
        if node.type == "new_expression":  # `new Server()`: an instance, as a call
            ctor = self._path(node.child_by_field_id(self.fields.constructor))
            return (*ctor, CALL) if ctor else None
        if node.type == "member_expression":
            base = self._path(node.child_by_field_id(self.fields.object))
            prop = node.child_by_field_id(self.fields.property)
            return (*base, self._text(prop)) if base and prop is not None else None
        if node.type == "call_expression":
            base = self._path(node.child_by_field_id(self.fields.function))
            return (*base, CALL) if base else None
        return None

    def _string(self, node: _Node | None) -> str | None:
        if node is None or node.type != "string":
            return None
        inner = self.source[node.start_byte + 1 : node.end_byte - 1]
        text = inner.decode("utf-8", "replace")
        return _unescaped(text) if "\\" in text else text

    def _text(self, node: _Node | None) -> str:
        if node is None:
            return ""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _template_text(self, node: _Node, spell: Callable[[_Node], str | None]) -> str | None:
        """A template literal's text, each `${…}` spelled by `spell` and each escape read as
        JavaScript reads it; None when a part cannot be spelled."""
        parts: list[str] = []
        for part in node.named_children:
            if part.type == "string_fragment":
                parts.append(self._text(part))
            elif part.type == "escape_sequence":
                text = _unescaped(self._text(part))
                if text is None:
                    return None
                parts.append(text)
            elif part.type == "template_substitution" and part.named_children:
                inner = spell(part.named_children[0])
                if inner is None:
                    return None
                parts.append(inner)
            else:
                return None
        return "".join(parts)


# a JavaScript string literal's escapes: `\\`, `\'`, `\n`..., `\xHH`, `\uHHHH`, `\u{H…}`, a
# line continuation; any other escaped character is that character (`'\\d'` is `\d`,
# `'\d'` is `d`), as JavaScript reads it
_ESCAPE = re.compile(
    r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|(\r\n|[\s\S]))"
)
_SINGLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0",
           "\n": "", "\r\n": "", "\r": "", "\u2028": "", "\u2029": ""}  # fmt: skip


def _unescaped(text: str) -> str | None:
    """A string literal's text as JavaScript reads it; None for a code point out of range."""
    try:
        return _ESCAPE.sub(_escape, text)
    except ValueError:
        return None


def _escape(match: re.Match[str]) -> str:
    hexa = match.group(1) or match.group(2) or match.group(3)
    if hexa is not None:
        return chr(int(hexa, 16))
    char = match.group(4)
    return _SINGLE.get(char, char)


def _returns_in(node: _Node) -> list[_Node]:
    """The `return` statements under `node`, its nested functions' and classes' aside."""
    found: list[_Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "return_statement":
            found.append(current)
        elif current.type in FUNCTIONS or current.type in _CLASSES:
            continue
        else:
            stack.extend(current.named_children)
    return found


def _valued_returns(body: _Node) -> int:
    """How many `return value` statements a function's body holds, its nested functions' and
    classes' aside (a bare `return` gives nothing a caller could mount or read)."""
    count = 0
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type == "return_statement":
            count += bool(node.named_children)
        elif node.type in FUNCTIONS or node.type in _CLASSES:
            continue
        stack.extend(node.named_children)
    return count


def _defaulted_field(operator: _Node) -> bool:
    """Whether `operator` is the `??=` or `||=` of `owner.field ??= value`: a field given a
    value when it has none (a singleton's `Hub.instance ??= new Hub()`), read as assigned."""
    parent = operator.parent
    if parent is None or parent.type != "augmented_assignment_expression":
        return False
    left = unwrap(parent.child_by_field_name("left"))
    return operator.type in {"??=", "||="} and left is not None and left.type == "member_expression"


def _star_export(node: _Node) -> bool:
    """`export * from './x'` (not `export * as ns from './x'`)."""
    return any(c.type == "*" for c in node.children) and not any(
        c.type == "namespace_export" for c in node.named_children
    )


def _namespace_export(node: _Node) -> _Node | None:
    """The name of `export * as name from './x'` (an identifier, or a string in ES2022's
    `export * as 'odd name' from`); None for any other export."""
    for child in node.named_children:
        if child.type == "namespace_export" and child.named_children:
            return child.named_children[0]
    return None


def _member(value: Expr, key: str) -> Expr | None:
    if isinstance(value, LoopKey) and value.split is not None:  # `parts[0]` of `k.split(' ')`
        return replace(value, part=int(key)) if value.part < 0 and key.isdigit() else None
    if isinstance(value, Items) and key.isdigit():  # `parts[1]` of `'get /x'.split(' ')`
        return value.values[int(key)] if int(key) < len(value.values) else None
    if isinstance(value, LoopKey):  # `const { path } = r`, `r` an item of an imported table
        return replace(value, members=(*value.members, key)) if value.table is not None else None
    if isinstance(value, ImportRef) and value.attr in {"default", None}:
        return ImportRef(value.module, key, value.origin)  # a namespace's too: `import()`'s
    if isinstance(value, ImportRef) and value.attr is not None:  # `{ A } = require('m').Util`
        return Member(value, (key,))
    if isinstance(value, Sym):
        return Sym((*value.path, key))
    if isinstance(value, Call) and isinstance(value.callee, Sym):
        return Sym((*value.callee.path, CALL, key))
    if isinstance(value, Param):  # `instance['apiBase']` of a plugin's parameter
        return Member(value, (key,))
    if isinstance(value, Namespace):  # a field of an object read as a value
        return dict(value.fields).get(key)
    if isinstance(value, Member):
        return Member(value.base, (*value.path, key))
    return None


def _exported(declarator: _Node) -> bool:
    """Whether a declarator is written in `export const …`."""
    declaration = declarator.parent
    return declaration is not None and (
        declaration.parent is not None and declaration.parent.type == "export_statement"
    )


def _top_level_statement(node: _Node) -> bool:
    """Whether `node` is a statement of the module's own body (run once, in order)."""
    statement = node.parent
    return (
        statement is not None
        and statement.type == "expression_statement"
        and statement.parent is not None
        and statement.parent.type == "program"
    )


def _named_value(node: _Node) -> bool:
    """Whether `node` is a value being named (declared, assigned, exported), not an argument:
    where a list assembled from tables is read as one (`_spread_table`, `_joined_table`)."""
    parent = node.parent
    while parent is not None and parent.type in TRANSPARENT:
        parent = parent.parent
    return parent is not None and parent.type in {
        "variable_declarator", "assignment_expression", "export_statement",
    }  # fmt: skip


def _path_list(node: _Node) -> list[_Node]:
    """A path argument, or each string of an array of paths."""
    node = unwrap(node) or node
    return list(node.named_children) if node.type == "array" else [node]


def _call_passing(node: _Node, seen: set[int]) -> _Node | None:
    """The call `node` is an argument of, unless it is not one or the call is `seen` (which
    then gets it): each call is read once, whichever of its arguments led to it."""
    args = node.parent
    call = args.parent if args is not None else None
    if (
        args is None
        or args.type != "arguments"
        or call is None
        or call.type != "call_expression"
        or call.start_byte in seen
    ):
        return None
    seen.add(call.start_byte)
    return call


# How an environment reader tests that its variable is unset before returning its default
_UNSET_TESTS = (
    "typeof {0} === 'undefined'", 'typeof {0} === "undefined"', "{0} === undefined",
    "{0} == undefined", "{0} == null", "{0} === null", "!{0}",
    "typeof {0} == 'undefined'", 'typeof {0} == "undefined"',
)  # fmt: skip


def _pattern(literal: str) -> Pattern:
    """`/^\\/x/i` as written: its source (between the slashes) and its flags."""
    source, _, flags = literal[1:].rpartition("/")
    return Pattern(source, flags)


def _regexp_source(pattern: str) -> str:
    """The `source` JavaScript gives `new RegExp(pattern)`: a `/` outside a class and not
    escaped is escaped, line breaks are written as escapes, none is `(?:)`."""
    if not pattern:
        return "(?:)"
    out: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            out.append(char)
            escaped = False
            continue
        if char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            out.append("\\")
        elif char in _LINE_ESCAPES:
            out.append(_LINE_ESCAPES[char])
            continue
        out.append(char)
    return "".join(out)


_LINE_ESCAPES = {"\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _function_of(node: _Node) -> _Node | None:
    """The function `node` is written in (the nearest one around it); None at the top level."""
    scope = node.parent
    while scope is not None and scope.type not in FUNCTIONS:
        scope = scope.parent
    return scope


def passed_spans(source: bytes, names: list[bytes]) -> Iterator[tuple[int, int]]:
    """Where one of `names` is an argument on its own (`f(app)`, `g(x, router)`), as a search
    for `[(,]\\s*(name|name…)\\s*[,)]` finds them (each match takes its closing `,`). One
    pattern for every file when all are ASCII names, the name checked at each match (a pattern
    of each file's names was compiled for each file: a sixth of a TypeScript repository's
    scan); else that pattern."""
    if not all(_ASCII_NAME.fullmatch(name) for name in names):
        pattern = rb"[(,]\s*(" + b"|".join(map(re.escape, names)) + rb")\s*[,)]"
        for match in re.finditer(pattern, source):
            yield match.span(1)
        return
    wanted = set(names)
    at = 0
    while (passed := _PASSED_NAME.search(source, at)) is not None:
        if passed.group(1) in wanted:
            yield passed.span(1)
            at = passed.end()
        else:  # no match here for the names' pattern: it would go on from the next byte
            at = passed.start() + 1


def called_spans(source: bytes, names: set[bytes]) -> list[tuple[int, int]]:
    """Where one of `names` is called (`name(`, `name.member(`), as a whole name that is no
    member itself (no name byte nor `.` before it), in order. One search for every call of a
    name when all are ASCII names (a `find` loop per name took a fifth of a TypeScript
    file's reading, its imports named again and again as types); else each name found."""
    if all(_ASCII_NAME.fullmatch(name) for name in names):
        return [
            match.span()
            for match in _CALLED_NAME.finditer(source)
            if match.group() in names and (match.start() == 0 or source[match.start() - 1] != 0x2E)
        ]
    spans: list[tuple[int, int]] = []
    for name in names:  # each name found by `find` (fast), its call checked at the place
        start = source.find(name)
        while start >= 0:
            end = start + len(name)
            if (start == 0 or source[start - 1] not in _NAME_BYTES_OR_DOT) and (
                _CALL_TAIL.match(source, end) is not None
            ):
                spans.append((start, end))
            start = source.find(name, end)
    return sorted(spans)


def _literal_text(expr: Expr | None) -> str | None:
    """The text a concatenation of literals spells (`'./p/' + 'users'` once a loop binds its
    variable), else None."""
    if isinstance(expr, Lit):
        return expr.value
    if isinstance(expr, Concat):
        parts = [_literal_text(part) for part in expr.parts]
        return "".join(p for p in parts if p is not None) if None not in parts else None
    return None
