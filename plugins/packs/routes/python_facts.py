"""Route facts of one Python file (FastAPI, Flask, Starlette), read with `ast`, never imported.

Names are kept as written (`users.router`, `settings.API_V1_STR`) and resolved by the linker.
Bindings made inside functions are folded into the module's names (module-level ones win), so
an app factory (`def create_app(): app = Flask(...); app.register_blueprint(...)`) and imports
done inside it link like top-level code.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence

from .. import computed_names
from ..bounded_values import MAX_LENGTH, NotEvaluated, Refused, capped
from ..pymodules import absolute, class_base, names_listed, package_of
from ..pyparse import parse_python
from ..scan_read import ParseFailure
from . import flask_mappings, py_marks, py_overrides
from .auth import (
    PYTHON_EVIDENCE,
    PYTHON_EVIDENCE_HEADS,
    PYTHON_USER_CHECK,
    PYTHON_USER_CHECK_HEADS,
)
from .django_facts import django_facts
from .flask_admin import admin_facts
from .flask_classful import ViewRegister, register_call, registering, view_class
from .flask_config import (
    Pairs,
    Placement,
    app_made,
    config_read,
    config_writes,
    may_write,
    placements,
)
from .frameworks import FLASK_ADMIN, PYTHON, ViewDecorator, unread_uses
from .frameworks import FLASK_CLASSFUL as CLASS_VIEWS
from .heads import search_gated
from .model import (
    BOUND_NAME,
    BOUND_SELF,
    CALL,
    DICT_VIEWS,
    FLASK,
    HTTP_METHODS,
    ITEM,
    NO_AUTH,
    STARLETTE,
    VARARGS,
    Apply,
    Auth,
    Choice,
    Concat,
    Condition,
    DependencyAlias,
    Each,
    Evidence,
    Expr,
    Fallback,
    FlaskApp,
    FlaskConfigRead,
    FlaskConfigWrite,
    Format,
    Function,
    ImportRef,
    Invocation,
    Items,
    Lit,
    Mapped,
    Member,
    Middleware,
    ModuleFacts,
    MountDecl,
    Namespace,
    NoGuard,
    Number,
    OneOf,
    Opaque,
    Param,
    RouteDecl,
    RouterDecl,
    RouterRef,
    StarletteRoutes,
    Store,
    Stored,
    Sym,
)
from .py_branches import FALSE, TRUE, and_or, branched_return, constant_flag, decision, flag

# Read from the framework records (`frameworks.PYTHON`): the calls that make a router or app
ROUTER_FRAMEWORKS = {
    name: f.key for f in PYTHON if not f.from_modules for name in (*f.apps, *f.routers)
}
_APPS = frozenset(name for f in PYTHON for name in f.apps)
# A call of a class named with one of these (`UserAPIRouter`, `CTFdFlask`) may make a router of a
# subclass: the linker checks the class's bases, the name only picks the calls worth checking.
_ROUTER_WORDS = tuple(ROUTER_FRAMEWORKS)
# the frameworks' own classes a router may subclass, and the packages that export them
_BASES = frozenset(base for f in PYTHON for base in f.bases)
_FRAMEWORK_PACKAGES = frozenset(package for package, _ in _BASES)
_OWN_PREFIX = {name: key for f in PYTHON for name, key in f.prefix_keywords.items()}
_FIXED_METHODS = {name: verb for f in PYTHON for name, verb in f.decorator_methods.items()}
_ROUTE_DECORATORS = {*HTTP_METHODS, *(name for f in PYTHON for name in f.decorators)}
_STATEMENT_CALLS = {call for f in PYTHON for call in f.mount_calls}
# library view decorators that add methods to a route (flask-cors's `@cross_origin()`)
_VIEW_DECORATORS = {(d.module, d.name): d for f in PYTHON for d in f.view_decorators}
# flask-restx, flask-restful and flask-restplus: `Api` and `Namespace` are routers there.
_RESTFUL_MODULES = tuple(m for f in PYTHON for m in f.from_modules)
_RESTFUL_ROUTERS = frozenset(name for f in PYTHON if f.from_modules for name in f.routers)
# a router's methods that make a child router (`api.namespace('users')`), to the child's class
_ROUTER_METHODS = {name: made for f in PYTHON for name, made in f.router_methods.items()}
_NAMESPACE = "Namespace"  # flask-restx's: its prefix is its `path`, else `/` + its name

_Def = ast.FunctionDef | ast.AsyncFunctionDef
# registration calls whose `*args`/`**kwargs` are not bound (never a route of their own)
_UNBOUND_SPREAD_OK = frozenset({"init_app", "before_request"})
# a file naming an admin library's package or its add call may hold its admins or views
_ADMIN_WORDS = re.compile(f"{FLASK_ADMIN.module}|{FLASK_ADMIN.add_calls[0]}")
_SPREAD_WIDTH = 4  # the elements of a table's item a spread binds (`add_url_rule`'s four)
# the options a registration call reads that a wrapper's `**kwargs` may pass on to it
_SPREAD_KEYS = {"add_url_rule": ("view_func", "methods")}
_PASSED_KEYS = tuple(dict.fromkeys(key for keys in _SPREAD_KEYS.values() for key in keys))
_DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})
_DYNAMIC_WORDS = re.compile(r"\bimport_module\b|\b__import__\b")


def _call_line(node: ast.expr, value: Expr) -> int:
    """The line of the call `node` is when its binding reads as that call's result (`X =
    make(kind="x")`, `Sym(make, CALL)`); 0 for any other binding."""
    if type(node) is ast.Call and type(value) is Sym and value.path[-1:] == (CALL,):
        return node.lineno
    return 0


def _scoped_routers(tree: ast.Module, routers: Iterable[RouterDecl]) -> tuple[RouterDecl, ...]:
    """Each router, with the site of the innermost def or lambda whose body makes it
    (`RouterDecl.scope`): a router a function makes is another one at each of its calls (the
    linker's `_fresh`), as `make_bp("users")` and `make_bp("posts")` are two blueprints."""
    decls = tuple(routers)
    if not decls:
        return decls
    spans = [
        ((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0), _site(n))
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]
    out: list[RouterDecl] = []
    for decl in decls:
        row, _, column = decl.router_id.partition(":")
        if not (row.isdigit() and column.isdigit()) or not spans:
            out.append(decl)
            continue
        at = (int(row), int(column))
        inside = [(start, site) for start, end, site in spans if start < at <= end]
        out.append(dataclasses.replace(decl, scope=max(inside)[1]) if inside else decl)
    return tuple(out)


def _bound_names(stmt: ast.stmt) -> Iterable[str]:
    """The names a binding statement (`_BINDERS`) binds in its scope: its targets, its
    imports' local names, its def's or class's name."""
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        for alias in stmt.names:
            if alias.name != "*":
                yield alias.asname or alias.name.partition(".")[0]
    elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield stmt.name
    elif isinstance(stmt, ast.Assign | ast.AnnAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        yield from (t.id for t in targets if isinstance(t, ast.Name))


def _defers_annotations(tree: ast.Module) -> bool:
    """`from __future__ import annotations`: every annotation of the module is a string."""
    return any(
        type(node) is ast.ImportFrom
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in tree.body
    )


def _runs_as_main(tree: ast.Module) -> bool:
    """Whether the module has a top-level `if __name__ == "__main__":` (either side): a script
    run as a program, whose app is served by it (`app.run()`), an entry point."""
    for node in tree.body:
        test = node.test if type(node) is ast.If else None
        if not (isinstance(test, ast.Compare) and len(test.comparators) == 1):
            continue
        if not isinstance(test.ops[0], ast.Eq):
            continue
        sides = {ast.unparse(test.left), ast.unparse(test.comparators[0])}
        if "__name__" in sides and sides & {"'__main__'", '"__main__"'}:
            return True
    return False


def _dynamic_imports(tree: ast.Module) -> tuple[str, ...]:
    """The packages the file loads modules from by a computed name, anywhere in it (a loop,
    a helper's return value, `import_module(...).app`): walked only in a file that spells
    one of the calls, which few do."""
    found: dict[str, None] = {}
    for node in ast.walk(tree):
        if type(node) is ast.Call and node.args and _callee_name(node) in _DYNAMIC_IMPORTS:
            package = _loaded_package(node.args[0])
            if package:
                found[package] = None
    return tuple(found)


def _loaded_package(arg: ast.expr) -> str:
    """The package a module loaded by a computed name is under: the dotted package its
    literal head spells (`f"plugins.{n}.main"`, `"app.ext." + name`: `plugins`, `app.ext`);
    "" for a name spelled whole, or with no package before its computed part."""
    head = arg
    while isinstance(head, ast.BinOp) and isinstance(head.op, ast.Add):
        head = head.left
    if isinstance(head, ast.JoinedStr) and head.values:
        head = head.values[0]
    elif head is arg:
        return ""
    if not (isinstance(head, ast.Constant) and isinstance(head.value, str)):
        return ""
    package = head.value.rpartition(".")[0]
    return package if package and not package.startswith(".") else ""


def python_facts(source: str, path: str, *, django: bool = True) -> ModuleFacts:
    """The facts of the file at repo-relative `path`; raises SyntaxError (or ValueError for a
    NUL byte) when it does not parse, `ParseFailure` at the statement whose expressions nest
    past what the reader follows. `django=False`: without its Django facts (a repository
    none of whose files spells a Django seed: `seeds.widens`)."""
    tree = parse_python(source, path)
    reader = _Reader(package_of(path))
    reader._reads_left += len(source)
    reader.evidence_lines = _evidence_lines(source, PYTHON_EVIDENCE, PYTHON_EVIDENCE_HEADS)
    if reader.evidence_lines:
        reader.user_check_lines = _evidence_lines(
            source, PYTHON_USER_CHECK, PYTHON_USER_CHECK_HEADS
        )
    reader.names_flask = may_write(source)  # `app.config` read as a Flask app's
    reader.deferred = "annotations" in source and _defers_annotations(tree)
    reader.names_class_views = CLASS_VIEWS.module in source
    try:
        reader.read(tree)
    except RecursionError:  # an expression nested past what the reader follows: a finding
        raise ParseFailure(reader.line, "RecursionError") from None  # at its statement
    collected = {
        line
        for value in reader.bindings.values()
        if isinstance(value, Namespace)
        for collector in value.collectors
        if not collector.reason
        for line in collector.lines
    }  # a collector's own registration call is the marks' routes (`py_marks`), none itself
    return ModuleFacts(
        language="python",
        bindings=reader.bindings,
        star_exports=tuple(reader.stars),
        all_names=reader.all_names,
        module_names=frozenset(reader.module_names),
        routers=_scoped_routers(tree, reader.routers.values()),
        routes=tuple(r for r in reader.routes if r.line not in collected),
        mounts=tuple(reader.mounts),
        middleware=tuple(reader.middleware),
        invocations=tuple(reader.invocations),
        bound_calls=reader.bound_calls,
        stores=tuple(reader.stores),
        dynamic_imports=_dynamic_imports(tree) if _DYNAMIC_WORDS.search(source) else (),
        runs_as_main=_runs_as_main(tree) if "__main__" in source else False,
        unread=unread_uses(source.encode("utf-8", "surrogatepass"), "python"),
        django=django_facts(tree, source, reader.package) if django else None,
        admin=admin_facts(tree) if _ADMIN_WORDS.search(source) else None,
        flask_config=tuple(reader.flask_config),
        view_registers=tuple(reader.view_registers),
        mark_factories=py_marks.mark_factories(tree) if "def " in source else (),
    )


class _Reader:
    def __init__(self, package: str) -> None:
        self.package = package  # where relative imports start (`pymodules.package_of`)
        self.bindings: dict[str, Expr] = {}
        # a name bound to a call's result (`X = make(kind="x")`) -> the call's line: the linker
        # finds that call's arguments there (`ModuleFacts.bound_calls`)
        self.bound_calls: dict[str, int] = {}
        # module level: its `from X import *` sources, a literal `__all__`, the names bound
        self.stars: list[ImportRef] = []
        self.all_names: tuple[str, ...] | None = None
        self.module_names: set[str] = set()
        self.routers: dict[str, RouterDecl] = {}  # by creation site
        self.routes: list[RouteDecl] = []
        self.mounts: list[MountDecl] = []
        self.middleware: list[Middleware] = []
        self.invocations: list[Invocation] = []
        self.stores: list[Store] = []
        self._module_body: list[ast.stmt] = []
        self._module_tree: ast.AST = ast.Module([], [])
        # `_placed_writes`: where a body's statements are written, by id of the def (the module)
        self._placements_of: dict[int, dict[int, Placement]] = {}
        self._module_made: dict[str, ast.Call] | None = None  # `_module_calls`
        self.names_flask = False  # the file names Flask: `x.config` is an app's (`flask_config`)
        self.flask_config: list[FlaskConfigWrite] = []
        self.view_registers: list[ViewRegister] = []  # `View.register(app)` (`flask_classful`)
        self.deferred = False  # `from __future__ import annotations`: no type object in a hint
        self.names_class_views = False  # the file names Flask-Classful (`registering`)
        self._config_written: set[int] = set()  # statements read for them (once per loop)
        self._class_node_of: dict[int, ast.ClassDef] = {}  # a method's def -> its class
        self._dicts: dict[str, ast.Dict] | None = None  # `flask_mappings.module_dicts`
        self._dict_loops_of: dict[int, dict[int, tuple[ast.For, list[dict[str, ast.expr]]]]] = {}
        self._writing: ast.stmt | None = None  # the statement whose config writes are read
        self._function_auth: dict[int, Auth] = {}  # by id of the def node, read once
        self._scope: dict[str, tuple[str, int]] = {}  # the enclosing def's parameters
        self._function_site = ""  # the enclosing def's site ("" at module level)
        self._def: _Def | None = None  # the enclosing def (its locals and defaults, read lazily)
        self._class_name = ""  # the enclosing method's class
        self.evidence_lines: list[int] = []  # lines whose text shows a guard, ascending
        self.user_check_lines: list[int] = []  # those that turn away an anonymous caller
        self._env: dict[str, ast.expr] = {}  # a literal loop's variables, one iteration
        self._literals: dict[str, ast.expr] = {}  # module-level names bound to literals
        # the enclosing def's names assigned once in its body (a factory's own `app`), by def
        self._locals_of: dict[int, dict[str, ast.expr]] = {}
        self._expanding: set[str] = set()  # locals being read (`x = x + 1` ends)
        # syntax nodes of locals still to be read in (`_expands`), and each local's count
        self._reads_left = computed_names.MAX_STEPS
        self._sizes: dict[int, int] = {}
        self._class_of: dict[int, str] = {}  # a method's def -> its class's name
        # a class statement -> its value as read where it is written: a decorated class is its
        # own definition's, whatever later class rebinds its name (`_decorated_class`)
        self._class_read: dict[int, Namespace] = {}
        self._function_read: dict[int, Function] = {}  # a def -> its value, as `_class_read`
        # a classmethod's or instance method's def -> its first parameter (`cls`, `self`): the
        # class (or instance) each call passes, whose attributes its paths read
        self._bound_of: dict[int, str] = {}
        self._bound = ""  # the enclosing method's first parameter ("" outside one)
        self._first_base: dict[str, ast.expr] = {}  # a class's name -> its first base
        self._methods: list[ast.stmt] = []  # methods, whose bodies are read like functions
        # a def's parameters and site, by id of the def node (`_enter`; never changed in place)
        self._entered: dict[int, tuple[dict[str, tuple[str, int]], str]] = {}
        self._defaults_of: dict[int, dict[str, ast.expr]] = {}  # a def's defaults, by id
        # a nested def -> the def it is written in, whose scope its defaults are evaluated in
        # (absent: a def at module level, a method, or one not met yet: the module's scope)
        self._enclosing: dict[int, _Def] = {}
        # a def's body as `read` flattened it, by id of the def node (`_locals_in` reuses it)
        self._flat_of: dict[int, list[ast.stmt]] = {}
        self._reassigned_of: dict[int, frozenset[str]] = {}  # `_reassigned`, by id of the def
        # names bound to a configuration library's reader (`env = environ.Env()`): its library
        self._config_objects: dict[str, str] = {}
        self.line = 1  # the statement being read: where a failure to read the file is reported

    def read(self, tree: ast.Module) -> None:
        """Statements only, never every node: routes, mounts and guards are statements (a
        decorated def, a call on its own line) and routers are values that `_expr` meets, so
        the reader stays near the cost of `ast.parse` itself."""
        functions: list[ast.stmt] = []
        classes: list[ast.stmt] = []
        statements: list[ast.stmt] = []
        _flatten(tree.body, statements, functions, classes)
        self._literals = _module_literals(tree.body)
        self._module_body = tree.body
        self._module_tree = tree
        scopes: list[_Def | None] = [None] * len(statements)  # the def each statement is in
        branched = _branch_assigning(tree.body)  # an `if`'s last statement -> the `if`, names
        earlier: dict[str, Expr | None] = {}
        for stmt in statements:
            if id(stmt) in branched.first:
                earlier = {n: self.bindings.get(n) for n in branched.first[id(stmt)]}
            if type(stmt) in _BINDERS:
                self.line = stmt.lineno
                self._bind(stmt, override=True)
                self._module_level(stmt)
            if id(stmt) in branched.last:
                self._bind_branched(branched.last[id(stmt)], earlier)
        done = 0
        while done < len(functions):  # function bodies: their names fill only what is left free
            function = functions[done]
            assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            done += 1
            start, nested = len(statements), len(functions)
            _flatten(function.body, statements, functions, classes)
            for inner_def in functions[nested:]:
                self._enclosing[id(inner_def)] = function
            scopes += [function] * (len(statements) - start)
            self._flat_of[id(function)] = statements[start:]
            for stmt in statements[start:]:
                if type(stmt) in _BINDERS:
                    self.line = stmt.lineno
                    self._bind(stmt, override=False)
        done = 0
        while done < len(classes):  # class bodies: decorated methods and calls, no module names
            start = len(statements)
            _flatten((classes[done],), statements, [], classes)
            scopes += [None] * (len(statements) - start)
            done += 1
        for method in self._methods:  # method bodies: a wrapper's registration calls
            assert isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
            start = len(statements)
            inner: list[ast.stmt] = []
            _flatten(method.body, statements, inner, classes)
            for inner_def in inner:
                self._enclosing[id(inner_def)] = method
            scopes += [method] * (len(statements) - start)
            self._flat_of[id(method)] = statements[start:]
            functions += inner
        loops: dict[int, list[dict[str, ast.expr]]] = {}
        if any(type(stmt) is ast.For for stmt in statements):  # routes made in literal loops
            literals = self._literals
            _index_loops(tree.body, [{}], loops, literals, set())
            for function in (*functions, *self._methods):
                assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                params = set(_parameters(function))
                owner = self._class_of.get(id(function), "")
                own = {  # `urls = [...]`, `urls = [a] if flag else [a, b]` in the def
                    name: value
                    for name, value in self._locals_in(function).items()
                    if type(value) in _LOCAL_TABLES
                }
                tables = {**literals, **own} if own else literals
                _index_loops(function.body, [{}], loops, tables, params, owner, function)
        tests = {0: _enclosing_tests(tree.body) if _has_if(tree.body) else {}}
        for stmt, scope in zip(statements, scopes, strict=True):
            for env in loops.get(id(stmt), ({},)):
                self._env = env
                written, mounted = len(self.routes), len(self.mounts)
                registered, invoked = len(self.view_registers), len(self.invocations)
                self.line = stmt.lineno
                self._statement(stmt, scope)
                if (
                    len(self.routes) == written
                    and len(self.mounts) == mounted
                    and len(self.view_registers) == registered
                    and len(self.invocations) == invoked
                ):
                    continue
                # what the statement registered runs only where the `if`s around it hold
                key = 0 if scope is None else id(scope)
                if key not in tests:  # a def's tests, read once it registers something
                    assert scope is not None
                    tests[key] = _enclosing_tests(scope.body) if _has_if(scope.body) else {}
                self._enter(scope)
                around = [self._condition_or_unknown(t, e) for t, e in tests[key].get(id(stmt), ())]
                chosen = env.get(_CHOSEN)
                if type(chosen) is _ChosenBy:
                    assert isinstance(chosen, _ChosenBy)
                    around.append(self._condition_or_unknown(chosen.test, chosen.in_else))
                condition = _all_of(around)
                if condition is None:
                    continue
                self.routes[written:] = [
                    dataclasses.replace(r, only_if=condition) for r in self.routes[written:]
                ]
                self.mounts[mounted:] = [
                    dataclasses.replace(m, only_if=condition) for m in self.mounts[mounted:]
                ]
                self.view_registers[registered:] = [
                    dataclasses.replace(v, only_if=condition)
                    for v in self.view_registers[registered:]
                ]
                self.invocations[invoked:] = [  # a wrapper's call: what it registers likewise
                    dataclasses.replace(c, only_if=condition) for c in self.invocations[invoked:]
                ]
        self._scope = {}
        self._def = None
        self._env = {}

    def _enter(self, scope: _Def | None) -> None:
        """Read what follows as written in `scope`: its parameters and its own locals (read
        once per def: every call statement of its body enters it)."""
        if scope is None:
            self._scope, self._function_site, self._class_name = {}, "", ""
            self._bound = ""
        else:
            entered = self._entered.get(id(scope))
            if entered is None:
                entered = self._entered[id(scope)] = (self._visible(scope), _site(scope))
            self._scope, self._function_site = entered
            self._class_name = self._class_of.get(id(scope), "")
            self._bound = self._bound_of.get(id(scope), "")
        self._def = scope

    def _visible(self, scope: _Def) -> dict[str, tuple[str, int]]:
        """The parameters `scope` reads: its own, and those of the defs it is nested in that
        it neither declares nor assigns (a closure: `def guarded(verb, path): def wrap(fn):
        return verb(path)(fn)` registers with what each call of `guarded` passes)."""
        own = _parameters(scope)
        outer = self._enclosing.get(id(scope))
        if outer is None:
            return own
        assigned = {
            node.id
            for node in ast.walk(scope)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        }
        inherited = {n: p for n, p in self._visible(outer).items() if n not in assigned}
        return {**inherited, **own}

    def _default_value(self, default: ast.expr) -> Expr | None:
        """A parameter's default of the enclosing def, read where Python evaluates it: in
        the scope that encloses the def, never the def's own (`def helper(mode=mode)` inside
        a view reads the view's `mode`, not the parameter it binds)."""
        assert self._def is not None
        outer = self._enclosing.get(id(self._def))
        saved = (self._scope, self._function_site, self._class_name, self._bound, self._def)
        self._enter(outer)
        try:
            return self._binding_value(default)
        finally:
            self._scope, self._function_site, self._class_name, self._bound, self._def = saved

    def _locals_in(self, function: _Def) -> dict[str, ast.expr]:
        """The names `function` assigns exactly once in its own body (not a parameter): a
        factory's `app = Flask(...)` is that app there, whatever the module calls `app`."""
        known = self._locals_of.get(id(function))
        if known is None:
            flat = self._flat_of.get(id(function))
            if flat is None:  # a def read before `read` reached its body (a return value)
                flat = []
                _flatten(function.body, flat, [], [])
            counts: dict[str, int] = {}
            values: dict[str, ast.expr] = {}
            for stmt in flat:
                targets: list[ast.expr] = []
                if isinstance(stmt, ast.Assign):
                    targets = stmt.targets
                elif isinstance(stmt, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
                    targets = [stmt.target]
                elif isinstance(stmt, ast.With | ast.AsyncWith):
                    targets = [i.optional_vars for i in stmt.items if i.optional_vars]
                for target in targets:
                    # a name, mostly: its walk would yield it and its context alone
                    names = (target,) if type(target) is ast.Name else ast.walk(target)
                    for name in names:  # `app.config["k"] = v` assigns no `app`
                        if isinstance(name, ast.Name) and not isinstance(name.ctx, ast.Load):
                            counts[name.id] = counts.get(name.id, 0) + 1
                            assigned = (  # `urls: list[str] = [...]` too
                                stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
                            )
                            if target is name and assigned is not None:
                                values[name.id] = assigned
            params = _parameters(function)
            known = {
                name: value
                for name, value in values.items()
                if counts.get(name) == 1 and name not in params
            }
            self._locals_of[id(function)] = known
        return known

    def _statement(self, stmt: ast.stmt, scope: _Def | None) -> None:
        kind = type(stmt)
        if kind is ast.Expr or kind is ast.Return or kind is ast.Assign:
            value = stmt.value  # type: ignore[attr-defined]  # `return api.add_resource(...)`,
            if type(value) is ast.Call:  # `api = configure(bp, routes)` are calls too
                self._enter(scope)
                self._call(value)
            if self.names_flask and kind is not ast.Return and id(stmt) not in self._config_written:
                self._config_written.add(id(stmt))
                self._enter(scope)
                self.flask_config += self._config_of(stmt, scope)
        elif (kind is ast.FunctionDef or kind is ast.AsyncFunctionDef) and (
            stmt.decorator_list  # type: ignore[attr-defined]
        ):
            self._enter(scope)
            self._decorated(stmt)  # type: ignore[arg-type]
            self._helper_decorators(stmt)  # type: ignore[arg-type]
        elif kind is ast.ClassDef and stmt.decorator_list:  # type: ignore[attr-defined]
            self._enter(scope)
            self._decorated_class(stmt)  # type: ignore[arg-type]

    def _config_of(self, stmt: ast.stmt, scope: _Def | None) -> list[FlaskConfigWrite]:
        """The writes `stmt` makes to an app's `config`, placed: none where `x.config` is an
        instance's own attribute (`self.config = dict()` in its class); one set per key where
        it is written in a loop over a module dict's items (`for k, v in DEFAULTS.items():
        app.config.setdefault(k, v)`), placed where the loop is (it runs every pass)."""
        receivers = [r for r in _config_receivers(stmt) if type(r) is ast.Attribute]
        if not any(r.attr == "config" for r in receivers) or any(self._own(r) for r in receivers):
            return []
        self._writing = stmt
        loop = self._dict_loops(scope).get(id(stmt))
        try:
            if loop is not None:
                around, passes = loop
                found = [
                    write
                    for names in passes
                    for write in self._writes(flask_mappings.substituted(stmt, names))
                ]
                return self._placed_writes(around, scope, found) if found else []
            found = self._writes(stmt)
            return self._placed_writes(stmt, scope, found) if found else []
        finally:
            self._writing = None

    def _writes(self, stmt: ast.stmt) -> list[FlaskConfigWrite]:
        return config_writes(
            stmt, self._value, self._function_site, self._flask_app, self._spelled_mapping
        )

    def _spelled_mapping(self, node: ast.expr) -> Pairs | None:
        """The pairs a mapping copied into `config` holds where this file shows them
        (`flask_mappings.spelled`): a module dict, a comprehension over one, a dict the
        enclosing def fills before the statement being read."""
        if self._dicts is None:
            self._dicts = flask_mappings.module_dicts(self._module_body)
        dicts, function, writing = self._dicts, self._def, self._writing

        def filled(receiver: ast.expr) -> Pairs | None:
            if function is None or writing is None:
                return None
            return flask_mappings.filled_before(
                function.body, receiver, writing.lineno, dicts, self._app_config
            )

        pairs = flask_mappings.spelled(node, dicts, filled)
        if pairs is None:
            return None
        return [
            (k, self._computed_by_own_methods(v) if isinstance(v, ast.expr) else v)
            for k, v in pairs
        ]

    def _app_config(self, node: ast.expr) -> bool:
        return type(node) is ast.Attribute and node.attr == "config" and not self._own(node)

    def _own(self, node: ast.expr) -> bool:
        """`self.config` where the enclosing method's class assigns `self.config` itself."""
        if not (
            type(node) is ast.Attribute
            and type(node.value) is ast.Name
            and self._bound
            and node.value.id == self._bound
            and self._def is not None
        ):
            return False
        cls = self._class_node_of.get(id(self._def))
        return cls is not None and node.attr in flask_mappings.own_attributes(cls)

    def _dict_loops(
        self, scope: _Def | None
    ) -> dict[int, tuple[ast.For, list[dict[str, ast.expr]]]]:
        """The statements of a body written directly in a loop over a module dict's items,
        by id, with the loop and what each pass binds (`flask_mappings.item_bindings`)."""
        found = self._dict_loops_of.get(id(scope))
        if found is not None:
            return found
        found = self._dict_loops_of[id(scope)] = {}
        if self._dicts is None:
            self._dicts = flask_mappings.module_dicts(self._module_body)
        body = scope.body if scope is not None else self._module_body
        for node in (n for stmt in body for n in ast.walk(stmt)):
            if type(node) is ast.For and not node.orelse:
                passes = flask_mappings.item_bindings(node.target, node.iter, self._dicts)
                if passes:
                    found.update((id(inner), (node, passes)) for inner in node.body)
        return found

    def _placed_writes(
        self, stmt: ast.stmt, scope: _Def | None, found: list[FlaskConfigWrite]
    ) -> list[FlaskConfigWrite]:
        """`found`, the writes `stmt` makes, with where it is written: the `if`s around it (read
        as a route's are, for the linker to decide), the `try`s, a loop or `with`."""
        placed = self._placements_of.get(id(scope))
        if placed is None:  # the def's (the module's) compound statements, read once
            body = scope.body if scope is not None else self._module_body
            placed = self._placements_of[id(scope)] = placements(body)
        where = placed.get(id(stmt))
        if where is None:  # run whenever its def (the module) runs
            return found
        only_if = _all_of([self._condition_or_unknown(t, e) for t, e in where.tests])
        return [
            dataclasses.replace(w, only_if=only_if, tried=where.tried, conditional=where.looped)
            for w in found
        ]

    def _flask_app(self, node: ast.expr) -> FlaskApp | None:
        """The app `node` (the `app` of `app.config.from_pyfile(...)`) is where this file makes
        it: a name the enclosing def assigns once, else one the module does, to a call
        (`Flask(__name__, instance_relative_config=True)`); None for anything else (an app
        given as a parameter, `current_app`: its folders are not known here)."""
        if type(node) is not ast.Name:
            return None
        made: ast.expr | None
        if self._def is None:
            made = self._module_calls().get(node.id)
        elif node.id in _parameters(self._def):
            made = None
        elif node.id in self._reassigned(self._def):  # its own local: assigned once, or not known
            made = self._locals_in(self._def).get(node.id)
        else:  # the module's
            made = self._module_calls().get(node.id)
        return app_made(made) if type(made) is ast.Call else None

    def _module_calls(self) -> dict[str, ast.Call]:
        """The module-level names assigned once, to a call (an `if`'s or `try`'s too)."""
        if self._module_made is None:
            statements: list[ast.stmt] = []
            _flatten(self._module_body, statements, [], [])
            counts: dict[str, int] = {}
            calls: dict[str, ast.Call] = {}
            for stmt in statements:
                if not isinstance(stmt, ast.Assign):
                    continue
                for target in stmt.targets:
                    if type(target) is ast.Name:
                        counts[target.id] = counts.get(target.id, 0) + 1
                        if isinstance(stmt.value, ast.Call):
                            calls[target.id] = stmt.value
            self._module_made = {n: c for n, c in calls.items() if counts[n] == 1}
        return self._module_made

    # -- bindings --------------------------------------------------------------------------

    def _bind(self, stmt: ast.stmt, *, override: bool) -> None:
        """Bind the names `stmt` makes. Exact types, tested commonest first (imports and
        defs): this runs for every binding statement of every file."""
        kind = type(stmt)
        if kind is ast.ImportFrom:
            assert isinstance(stmt, ast.ImportFrom)
            base = self._import_base(stmt)
            for alias in stmt.names:
                if alias.name != "*":
                    self._set(alias.asname or alias.name, ImportRef(base, alias.name), override)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            assert isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
            function = self._function_read[id(stmt)] = self._function(stmt)
            self._set(stmt.name, function, override)  # read even if shadowed:
            # a router its `return` makes is declared by reading it
        elif kind is ast.Assign:
            assert isinstance(stmt, ast.Assign)
            value = self._binding_value(stmt.value) or _number(stmt.value)
            if value is not None:
                line = _call_line(stmt.value, value)
                for target in stmt.targets:
                    if type(target) is ast.Name:
                        self._set(target.id, value, override, line)
            if type(stmt.value) is ast.Call:
                self._config_object(stmt.targets, stmt.value)
        elif kind is ast.Import:
            assert isinstance(stmt, ast.Import)
            for alias in stmt.names:
                if alias.asname:
                    self._set(alias.asname, ImportRef(alias.name, None), override)
                else:
                    head = alias.name.split(".")[0]
                    self._set(head, ImportRef(head, None), override)
        elif kind is ast.AnnAssign:
            assert isinstance(stmt, ast.AnnAssign)
            if stmt.value is not None and type(stmt.target) is ast.Name:
                value = self._binding_value(stmt.value) or _number(stmt.value)
                if value is not None:
                    line = _call_line(stmt.value, value)
                    self._set(stmt.target.id, value, override, line)
        elif kind is ast.ClassDef:
            assert isinstance(stmt, ast.ClassDef)
            made = self._class_read[id(stmt)] = self._class(stmt)
            self._set(stmt.name, made, override)

    def _module_level(self, stmt: ast.stmt) -> None:
        """What `from this import *` reads of a module-level statement (`pymodules.star_brings`):
        the names it binds, its own star imports (whose names it passes on), `__all__`."""
        if type(stmt) is ast.ImportFrom:
            assert isinstance(stmt, ast.ImportFrom)
            if any(alias.name == "*" for alias in stmt.names):
                self.stars.append(ImportRef(self._import_base(stmt), None))
        elif type(stmt) is ast.Assign:
            assert isinstance(stmt, ast.Assign)
            if any(type(t) is ast.Name and t.id == "__all__" for t in stmt.targets):
                self.all_names = names_listed(stmt.value)
        self.module_names.update(_bound_names(stmt))

    def _bind_branched(self, stmt: ast.If, earlier: dict[str, Expr | None]) -> None:
        """Each module-level name the branches of `stmt` assign, bound to what it holds after
        it: a `Choice` over the tests (`py_branches`), the value before the `if` where no
        branch assigns it, for the linker to decide by the configuration's defaults. Left as
        the last assignment read when a branch is written in a shape not followed."""
        for name, before in earlier.items():
            last = self.bindings.pop(name, None)
            self.bound_calls.pop(name, None)
            if before is not None:
                self.bindings[name] = before
            tail: ast.stmt = ast.Return(ast.Name(name, ast.Load())) if before else ast.Raise()
            body = [_returning(stmt, name), tail]
            value = branched_return(
                body, lambda n: self._chosen(n) or self._value(n), self.bindings
            )
            value = value if value is not None else last
            if value is not None:
                self.bindings[name] = value

    def _config_object(self, targets: list[ast.expr], call: ast.Call) -> None:
        """`env = environ.Env()`, `env = Env()` (environs), `config = AutoConfig(...)`
        (python-decouple): the names that hold a configuration library's reader, whose calls
        `_config_read` reads."""
        func = call.func
        while isinstance(func, ast.Attribute):
            func = func.value
        head = self.bindings.get(func.id) if isinstance(func, ast.Name) else None
        if not isinstance(head, ImportRef) or head.module.split(".")[0] not in _CONFIG_LIBRARIES:
            return
        path = _dotted_path(call.func)
        if path is None:
            return
        full = (head.module, *((head.attr,) if head.attr else ()), *path[1:])
        library = _CONFIG_CLASS_LIBRARY.get(full)
        if library is not None:
            for target in targets:
                if type(target) is ast.Name:
                    self._config_objects[target.id] = library

    def _set(self, name: str, value: Expr, override: bool, call_line: int = 0) -> None:
        if override or name not in self.bindings:
            self.bindings[name] = value
            if call_line:
                self.bound_calls[name] = call_line
            else:
                self.bound_calls.pop(name, None)

    def _import_base(self, stmt: ast.ImportFrom) -> str:
        return absolute(stmt.module, stmt.level, self.package)

    def _binding_value(self, node: ast.expr) -> Expr | None:
        dependencies = self._annotated_dependencies(node)
        if dependencies is not None:
            return DependencyAlias(dependencies)
        kind = type(node)
        # `config = environments[env]()`, `config = environments.get(env, Default)()`
        value: Expr | None = self._chosen(node) if kind is ast.Call else None
        if kind is ast.Call and value is None:  # `PATH = getattr(config, "PATH", "")`
            value = self._getattr_default(node)  # type: ignore[arg-type]  # `kind` says so
        if (kind is ast.BinOp or kind is ast.JoinedStr) and any(
            type(n) is ast.Call and self._getattr_default(n) is not None for n in ast.walk(node)
        ):  # `f"{getattr(config, 'PATH', 'api')}/"`: read as a value, the default in it
            return self._value(node)
        if kind is ast.Call and value is None:  # `MULTI = parse_flag(os.environ.get(...))`
            flagged = self._configured_call(node)  # type: ignore[arg-type]  # `kind` says so
            if flagged is not None:
                return flagged
        if value is None:
            value = self._expr(node) or constant_flag(node)
        if value is None and kind is ast.Dict:
            value = self._table(node)  # type: ignore[arg-type]  # a Dict: `kind` says so
        if (
            kind is ast.Call
            and isinstance(value, Sym)
            and value.path[-1] == CALL
            and self._own_class_call(node)
        ):  # `gateway = VersionedApi(app)`, `app = Shop()`: a router if the class links to a
            return self._maybe_router(node)  # type: ignore[arg-type]  # subclass of one
        if value is None and (kind is ast.List or kind is ast.Tuple):
            return self._items(node)
        if value is None and kind is ast.Compare:
            return self._compared_default(node) or flag(node, self._value, self.bindings)  # type: ignore[arg-type]
        return value

    def _configured_call(self, call: ast.Call) -> Expr | None:
        """A flag parsed from the configuration: `strtobool(...)`, `bool(...)`, decouple's
        `config(..., cast=bool)` (`py_branches.flag`), or a call of a function passed an
        environment variable with a default (`parse_boolean(os.environ.get("X", "false"))`):
        the function's value for it, which the linker works out (`Apply`)."""
        flagged = flag(call, self._value, self.bindings)
        if flagged is not None:
            return flagged
        if not any(
            isinstance(a, ast.Call)
            and (self._environ_default(a) is not None or self._getattr_default(a) is not None)
            for a in call.args
        ):
            return None
        applied = self._value(call)
        return applied if isinstance(applied, Apply) else None

    def _compared_default(self, node: ast.Compare) -> Fallback | None:
        """`FLAG = os.environ.get("X", "0") == "1"` (or `!=`, either side): the comparison's
        truth under the configuration's default, `"True"` or `""`, marked with the default's
        source: a settings flag a module-level `if` tests."""
        if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq | ast.NotEq):
            return None
        left, right = node.left, node.comparators[0]
        if isinstance(left, ast.Constant):
            left, right = right, left
        if not (isinstance(right, ast.Constant) and isinstance(right.value, str)):
            return None
        value = self._value(left)
        if not (isinstance(value, Fallback) and isinstance(value.default, Lit)):
            return None
        holds = (value.default.value == right.value) != isinstance(node.ops[0], ast.NotEq)
        return Fallback(Opaque(), Lit("True" if holds else ""), value.source)

    def _items(self, node: ast.expr) -> Items | None:
        """A literal list or tuple of paths, routers, views or such lists (`routes = [("/a",
        A), ("/b", B)]`): what a function looping over it may register."""
        values: list[Expr | None] = []
        for element in node.elts:  # type: ignore[attr-defined]
            if type(element) is ast.List or type(element) is ast.Tuple:
                values.append(self._items(element))
            elif type(element) is ast.Dict and (record := self._record(element)) is not None:
                values.append(record)
            else:
                values.append(self._value(element))
        if values and all(isinstance(v, _ITEM_VALUES) for v in values):
            return Items(tuple(v for v in values if v is not None))
        return None

    def _record(self, node: ast.Dict) -> Namespace | None:
        """A table's item written as a dict with string keys (`{"router": r, "prefix": "/x"}`):
        its fields, which `entry["prefix"]` in a loop over the table reads (a value the scan
        cannot read is not known)."""
        keys = [k.value if type(k) is ast.Constant else None for k in node.keys]
        if not keys or not all(type(k) is str for k in keys):
            return None
        values = (self._value(v) or Opaque() for v in node.values)
        return Namespace(tuple((str(k), v) for k, v in zip(keys, values, strict=True)))

    def _listed(self, value: ast.expr | None) -> Items | None:
        """`return [AboutModule, HelpModule]`: a literal list or tuple of names (the routers,
        blueprints or modules a loop over the call registers), each as `_expr` reads it."""
        if not isinstance(value, ast.List | ast.Tuple) or not value.elts:
            return None
        if not all(type(e) in (ast.Name, ast.Attribute) for e in value.elts):
            return None
        items = [self._expr(e) for e in value.elts]
        found = tuple(i for i in items if i is not None)
        return Items(found) if len(found) == len(items) else None

    def _function(self, node: _Def, *, method: bool = False) -> Function:
        returns: Expr | None = None
        options: list[Expr] = []
        for statement in _value_returns(node.body):
            value = statement.value
            if type(value) in _NAMELESS:  # most returns: nothing a parameter could be in
                option = self._value(value) or constant_flag(value)  # `return True`
            else:
                saved = (self._scope, self._def, self._env)
                self._scope, self._def, self._env = _parameters(node), node, {}
                try:
                    option = self._chosen(value) or self._value(value) or self._listed(value)
                finally:
                    self._scope, self._def, self._env = saved
            options.append(option or Opaque())
        if options:  # `if settings.MULTI: return "/<org>" + rule` then `return rule`: the
            returns = options[0] if len(set(options)) == 1 else OneOf(tuple(options))
            if len(set(options)) > 1 or _branch_assigned(node) or _guarded(node):  # the branch
                returns = self._branched(node) or returns  # the tests pick (`py_branches`)
            if returns == Opaque():
                returns = None
            if isinstance(returns, OneOf | Choice | None) and _no_parameters(node):
                returns = self._configured_return(node) or returns
        if returns is None and node.returns is not None:
            annotation = _dotted_path(node.returns)
            returns = Sym((*annotation, CALL)) if annotation else None
        last = node.end_lineno or node.lineno
        evidence = self._evidence(self.evidence_lines, node.lineno, last)
        checks_user = evidence and self._evidence(self.user_check_lines, node.lineno, last)
        return Function(
            node.name, returns, self._auth_of(node), _site(node), evidence, checks_user, method
        )

    def _branched(self, node: _Def) -> Expr | None:
        """What `node`'s body returns as `Choice`s over its tests, read in its own scope."""
        saved = (self._scope, self._def, self._env)
        self._scope, self._def, self._env = _parameters(node), node, {}
        try:
            return branched_return(
                node.body, lambda n: self._chosen(n) or self._value(n), self.bindings
            )
        finally:
            self._scope, self._def, self._env = saved

    def _expands(self, local: ast.expr) -> bool:
        """Whether a local's value may be read in once more. Locals made of each other (`p1 =
        p0 + p0` ... `p40 = p39 + p39`) would be read 2^40 times into a tree as large: the
        file's reads share one budget (the table packs' step count, plus the file's own size),
        past which a local stays a name the linker does not find, a finding at its route."""
        size = self._sizes.get(id(local))
        if size is None:
            size = self._sizes[id(local)] = sum(1 for _ in ast.walk(local))
        self._reads_left -= size
        return self._reads_left >= 0

    def _through_local(self, path: tuple[str, ...]) -> Expr:
        """`settings.api_prefix` or `config()` where the head is a name the enclosing def
        assigns once: the rest read on what it is assigned (`settings = get_settings()`,
        `config = environments[env]`)."""
        head = path[0]
        local = None if head in self._scope else self._locals_in(self._def).get(head)  # type: ignore[arg-type]
        if local is None or head in self._expanding or not self._expands(local):
            return Sym(path)
        self._expanding.add(head)
        try:
            value = self._chosen(local) or self._value(local)  # `environments[env]()` first
        finally:
            self._expanding.discard(head)
        if isinstance(value, Sym):
            return Sym((*value.path, *path[1:]))
        if isinstance(value, ImportRef) and value.attr is None and len(path) == 2:
            return ImportRef(value.module, path[1])  # `module.blueprint` of an imported module
        if isinstance(value, OneOf) and all(isinstance(o, Sym) for o in value.options):
            return OneOf(
                tuple(Sym((*o.path, *path[1:])) for o in value.options if isinstance(o, Sym))
            )
        return Sym(path)

    def _table(self, node: ast.Dict) -> Namespace | None:
        """A module-level dict whose values are all names (`{'dev': Dev, 'prod': Prod}`): one
        of them under `ITEM`, what `environments[env]()` in another module chooses from; with
        string keys, also the lists its `.items()` and `.values()` give (`DICT_VIEWS`), which a
        loop in another module iterates (`for at, app in plugins.APPS.items():`)."""
        options = [self._expr(value) for value in node.values]
        fields: list[tuple[str, Expr]] = []
        if options and all(isinstance(option, Sym) for option in options):
            fields.append((ITEM, OneOf(tuple(o for o in options if o is not None))))
        keys = [k.value if type(k) is ast.Constant else None for k in node.keys]
        if keys and all(type(k) is str for k in keys) and len(keys) <= _MAX_ITERATIONS:
            values = [self._value(v) or Opaque() for v in node.values]
            pairs = (Items((Lit(str(k)), v)) for k, v in zip(keys, values, strict=True))
            fields.append((DICT_VIEWS["items"], Items(tuple(pairs))))
            fields.append((DICT_VIEWS["values"], Items(tuple(values))))
        return Namespace(tuple(fields)) if fields else None

    def _chosen_value(self, node: ast.Subscript) -> OneOf | None:
        """`table[key]` with `table` a module-level dict literal of names: one of them."""
        table = node.value
        literal = self._literals.get(table.id) if isinstance(table, ast.Name) else None
        if not isinstance(literal, ast.Dict) or not literal.values:
            return None
        options = [self._expr(value) for value in literal.values]
        if any(not isinstance(option, Sym) for option in options):
            return None
        return OneOf(tuple(o for o in options if o is not None))

    def _chosen(self, node: ast.expr | None) -> OneOf | Sym | None:
        """`environments[env]()` with `environments` a module-level dict literal: one of its
        values, called; a table of another module (`profiles.PROFILES[env]()`, imported) is
        one of what its module binds under `ITEM` (`_table`), called. `table.get(env,
        Default)()` is one of those or `Default()`."""
        if not isinstance(node, ast.Call):
            return None
        fallback = _got_with_default(node.func)
        if fallback is not None:
            default = _dotted_path(fallback[1])
            chosen = self._chosen(ast.Call(ast.Subscript(fallback[0], ast.Constant(None)), [], []))
            if default is None or CALL in default or chosen is None:
                return None
            either = chosen.options if isinstance(chosen, OneOf) else (chosen,)
            return OneOf((*either, Sym((*default, CALL))))
        if not isinstance(node.func, ast.Subscript):
            return None
        table = node.func.value
        literal = self._literals.get(table.id) if isinstance(table, ast.Name) else None
        if literal is None:
            path = _dotted_path(table)
            return Sym((*path, ITEM, CALL)) if path and CALL not in path else None
        if not isinstance(literal, ast.Dict) or not literal.values:
            return None
        options = [self._expr(value) for value in literal.values]
        if any(not isinstance(option, Sym) for option in options):
            return None
        return OneOf(tuple(Sym((*o.path, CALL)) for o in options if isinstance(o, Sym)))

    @staticmethod
    def _evidence(lines: list[int], first: int, last: int) -> bool:
        """Whether one of `lines` (ascending) falls in the definition `first`..`last`."""
        at = bisect.bisect_left(lines, first)
        return at < len(lines) and lines[at] <= last

    def _auth_of(self, node: _Def) -> Auth:
        auth = self._function_auth.get(id(node))
        if auth is None:
            auth = self._function_auth[id(node)] = self._function_guards(node)
        return auth

    def _function_guards(self, node: _Def) -> Auth:
        """What stands before a function's body: its non-route decorators (`@login_required`,
        `@requires("authenticated")`) and its dependency parameters (`Depends(get_db)`,
        `Annotated[User, Depends(...)]`, or an annotation that may be such an alias)."""
        guards: list[Expr] = []
        aliases: list[Expr] = []
        for decorator in node.decorator_list:
            if not _route_decorator(decorator) and not _registration(decorator):
                guards.append(self._present(decorator) or Opaque())
        arguments = node.args
        params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        defaults = [None] * (
            len(arguments.posonlyargs) + len(arguments.args) - len(arguments.defaults)
        )
        for param, default in zip(
            params, [*defaults, *arguments.defaults, *arguments.kw_defaults], strict=True
        ):
            if type(default) is ast.Call:  # `= Depends(x)`; most defaults are constants or none
                guards += self._dependencies(default, param.annotation)
            annotation = param.annotation
            if annotation is None:
                continue
            hidden = (
                self._annotated_dependencies(annotation)
                if type(annotation) is ast.Subscript
                else None
            )
            if hidden is not None:
                guards += hidden
            elif path := _dotted_path(annotation):
                aliases.append(Sym(path))
        if not guards and not aliases:
            return NO_AUTH
        return Auth(tuple(guards), tuple(aliases))

    def _dependencies_auth(self, node: ast.expr | None) -> Auth:
        """`dependencies=[Depends(verify_token), ...]` on a route, router or include."""
        if not isinstance(node, ast.List | ast.Tuple):
            return NO_AUTH if node is None else Auth((Opaque(),))
        guards = [guard for element in node.elts for guard in self._dependencies(element, None)]
        return Auth(tuple(guards)) if guards else NO_AUTH

    def _dependencies(self, node: ast.expr | None, annotation: ast.expr | None) -> list[Expr]:
        """The dependency `Depends(x)` names (`x`, or the annotated class for `Depends()`);
        `Security(...)` is a guard as written."""
        if not isinstance(node, ast.Call):
            return []
        callee = _callee_name(node)
        if callee == "Security":
            return [Evidence("Security")]
        if callee != "Depends":
            return []
        dependency = _argument(node, 0, "dependency")
        if dependency is None:
            dependency = annotation
        if dependency is None:
            return []
        return [self._present(dependency) or Opaque()]

    def _annotated_dependencies(self, node: ast.expr | None) -> tuple[Expr, ...] | None:
        """The dependencies inside `Annotated[T, Depends(x), ...]`, or None when `node` is not
        an `Annotated` with a dependency."""
        if not (
            isinstance(node, ast.Subscript)
            and _dotted(node.value)
            in {"Annotated", "typing.Annotated", "typing_extensions.Annotated"}
        ):
            return None
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        annotation = elements[0] if elements else None
        found = [d for element in elements[1:] for d in self._dependencies(element, annotation)]
        return tuple(found) if found else None

    def _class(self, node: ast.ClassDef) -> Namespace:
        fields: list[tuple[str, Expr]] = []
        flags: list[tuple[str, Expr]] = []  # `DEBUG: bool = False`
        verbs: list[str] = []
        verb_auth: list[Auth] = []
        guards: list[Expr] = []
        init_prefix: Expr | None = None
        init_auth = NO_AUTH
        instance_routers: tuple[RouterDecl, ...] = ()
        instance_params: tuple[str, ...] = ()
        init_params: tuple[str, ...] | None = None
        instance_given: tuple[tuple[str, str], ...] = ()
        super_call: ast.Call | None = None
        none_defaults: tuple[str, ...] = ()
        for stmt in node.body:
            target: ast.expr | None = None
            value: ast.expr | None = None
            if isinstance(stmt, ast.AnnAssign):
                target, value = stmt.target, stmt.value
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif (
                isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
                and stmt.name in HTTP_METHODS
            ):
                verbs.append(stmt.name.upper())
                verb_auth.append(self._auth_of(stmt))
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                # a classmethod is passed its class as parameter 0 like a method its instance
                static = any(_dotted(d) == "staticmethod" for d in stmt.decorator_list)
                fields.append((stmt.name, self._function(stmt, method=not static)))
                if id(stmt) not in self._class_of:  # its body may register routes on a
                    self._class_of[id(stmt)] = node.name  # parameter (`Docs.install(app)`)
                    self._class_node_of[id(stmt)] = node
                    self._methods.append(stmt)
                    positional = [*stmt.args.posonlyargs, *stmt.args.args]
                    if not static and positional:
                        self._bound_of[id(stmt)] = positional[0].arg
                if stmt.name == "__init__":
                    instance_routers, instance_params = self._instance_routers(stmt)
                    instance_given = _instance_given(stmt)
                    init_params = tuple(
                        a.arg for a in [*stmt.args.posonlyargs, *stmt.args.args][1:]
                    )
                if stmt.name == "__init__" and (call := _super_init(stmt)) is not None:
                    init_prefix = self._present(
                        _keyword(call, "prefix") or _keyword(call, "url_prefix")
                    )
                    if init_prefix is None and (given := _kwargs_prefix(stmt, call)):
                        # `kwargs.setdefault("url_prefix", "/" + name)`: of its parameters,
                        # what each call of the class passes (`RouterDecl.arguments`)
                        saved = (self._scope, self._def, self._env)
                        self._scope, self._def, self._env = _parameters(stmt), stmt, {}
                        try:
                            init_prefix = self._value(given) or Opaque()
                        finally:
                            self._scope, self._def, self._env = saved
                    super_call = call
                    none_defaults = _none_defaults(stmt)
                    init_auth = self._dependencies_auth(_keyword(call, "dependencies"))
            if (
                isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
                and stmt.name in HTTP_METHODS
                and id(stmt) not in self._class_of
            ):
                self._class_of[id(stmt)] = node.name
                self._methods.append(stmt)
            if isinstance(target, ast.Name) and target.id in {"decorators", "method_decorators"}:
                if isinstance(value, ast.List | ast.Tuple):
                    guards += [self._present(d) or Opaque() for d in value.elts]
                elif value is not None:
                    guards.append(Opaque())
            elif isinstance(target, ast.Name) and target.id == "methods" and value is not None:
                fields.append(("methods", self._listed_methods(value)))  # Flask's `View.methods`
            elif (
                isinstance(target, ast.Name)
                and isinstance(value, ast.Call)
                and (configured := self._configured_call(value)) is not None
            ):  # `MULTI = parse_flag(os.environ.get("X", "0"))` in a settings class
                fields.append((target.id, configured))
            elif isinstance(target, ast.Name) and (expr := self._expr(value)) is not None:
                fields.append((target.id, expr))
            elif isinstance(target, ast.Name) and (truth := constant_flag(value)) is not None:
                flags.append((target.id, truth))
        bases = tuple(base for b in node.bases if (base := self._expr(class_base(b))) is not None)
        if node.bases:
            self._first_base.setdefault(node.name, class_base(node.bases[0]))
        if flags and any(
            _settings_base(base, self.bindings) for base in bases
        ):  # the environment may
            flags = [  # set each field: its default marked as the configuration's
                (name, Fallback(Opaque(), truth, f"{node.name}.{name} (BaseSettings)"))
                for name, truth in flags
            ]
        fields += flags
        view = view_class(
            node, self._expr, self._value, self._present, self._auth_of, self.deferred
        )
        return Namespace(
            tuple(fields),
            tuple(verbs),
            Auth(tuple(guards)),
            tuple(verb_auth),
            bases,
            init_prefix,
            init_auth,
            instance_routers,
            instance_params,
            init_params,
            view,
            py_marks.marks(node, self._mark_value, self._auth_of),
            py_marks.collectors(node, self._present),
            tuple(None if isinstance(a, ast.Starred) else self._present(a) for a in super_call.args)
            if super_call
            else (),
            tuple((k.arg, self._present(k.value)) for k in super_call.keywords if k.arg)
            if super_call
            else (),
            none_defaults,
            py_overrides.overrides(node),
            instance_given=instance_given,
        )

    def _mark_value(self, node: ast.expr) -> Expr | None:
        """What a decorator's argument is: a list or tuple item by item (`methods=["GET"]`)."""
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return self._listed_methods(node)
        return self._present(node)

    def _instance_routers(self, init: _Def) -> tuple[tuple[RouterDecl, ...], tuple[str, ...]]:
        """The routers a constructor stores on `self` as it runs (`self.router = router or
        APIRouter(tags=[tag])`, `... if router else APIRouter()`, a parameter defaulting to
        `APIRouter()`, or the call itself): one per instance, so never declared here; the
        linker makes one for each `x = Cls(...)` whose `x.router` routes are registered on.
        With each, the parameter whose value, when one is passed, is stored instead."""
        defaults = _defaults(init)
        found: list[RouterDecl] = []
        params: list[str] = []
        for stmt in init.body:
            target: ast.expr | None = None
            value: ast.expr | None = None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign):
                target, value = stmt.target, stmt.value
            if not (
                isinstance(target, ast.Attribute)
                and type(target.value) is ast.Name
                and target.value.id == "self"
                and value is not None
            ):
                continue
            call, param = _made_router(value, defaults)
            name = _callee_name(call) if call is not None else None
            imported = self.bindings.get(name) if name is not None else None
            if isinstance(imported, ImportRef) and imported.attr in ROUTER_FRAMEWORKS:
                name = imported.attr  # `from fastapi import APIRouter as Maker`
            if call is None or name not in ROUTER_FRAMEWORKS:
                continue
            assert name is not None
            prefix_key = _OWN_PREFIX.get(name)
            found.append(
                RouterDecl(
                    router_id=target.attr,
                    framework=ROUTER_FRAMEWORKS[name],
                    line=call.lineno,
                    prefix=self._present(_keyword(call, prefix_key)) if prefix_key else None,
                    auth=self._dependencies_auth(_keyword(call, "dependencies")),
                    app=name in _APPS,
                )
            )
            params.append(param)
        return tuple(found), tuple(params)

    # -- expressions -----------------------------------------------------------------------

    def _expr(self, node: ast.expr | None) -> Expr | None:
        kind = type(node)
        if kind is _EachOf:  # an element of a table's item a spread bound (`*entry`)
            return self._each_of(node)  # type: ignore[arg-type]
        if kind is _KeyOf:  # an option a wrapper's `**kwargs` passes on
            assert isinstance(node, _KeyOf)
            return Param(node.site, -1, node.key, Sym((node.spread, node.key)), keyed=True)
        if kind is ast.Name:  # the commonest: a router, a handler, a constant
            item = self._env.get(node.id) if self._env else None  # type: ignore[union-attr]
            if isinstance(item, _EachOf) and item.table and item.index < 0:
                item = None  # a table's item used whole (`for bp in BPS:`): the name as written
            if item is not None:
                if type(item) is _EachOf:  # `for rule in routes`, `routes` a parameter
                    assert isinstance(item, _EachOf)
                    return self._each_of(item)
                if type(item) is _StoredOf:
                    assert isinstance(item, _StoredOf)
                    return Stored(item.owner_class, item.attr, item.index)
                env, self._env = self._env, {}
                try:
                    return self._expr(env[node.id])  # type: ignore[union-attr]
                finally:
                    self._env = env
            name = node.id  # type: ignore[union-attr]
            if self._def is not None:
                declared = self._scope.get(name)
                if declared is not None:  # what each call passes; unbound, the global name
                    defaults = self._defaults_of.get(id(self._def))
                    if defaults is None:
                        defaults = self._defaults_of[id(self._def)] = _defaults(self._def)
                    default = defaults.get(name)
                    return Param(
                        declared[0],
                        declared[1],
                        name,
                        Sym((name,)),
                        self._default_value(default) if default is not None else None,
                    )
                local = self._locals_in(self._def).get(name)
                if local is not None and name not in self._expanding and self._expands(local):
                    self._expanding.add(name)
                    try:
                        if self._own_class_call(local):  # a factory's `app = Shop()`
                            return self._maybe_router(local)  # type: ignore[arg-type]
                        return self._value(local)
                    finally:
                        self._expanding.discard(name)
            return Sym((name,))
        if kind is ast.Constant:
            value = node.value  # type: ignore[union-attr]
            return Lit(value) if type(value) is str else None
        if node is None:
            return None
        if kind is ast.Call:
            assert isinstance(node, ast.Call)
            name = _callee_name(node)
            if name == "get" and self.names_flask:  # `app.config.get("PREFIX", "/x")`
                read = config_read(node, self._value)
                if read is not None:
                    return read
            if type(node.func) is ast.Name and name not in ROUTER_FRAMEWORKS:
                name = self._framework_class(name)  # `from flask import Blueprint as Section`
            if name in ROUTER_FRAMEWORKS and self._project_class(node.func):
                return self._maybe_router(node)  # `from utils.router import APIRouter`
            if name in ROUTER_FRAMEWORKS:
                assert name is not None
                return self._router(node, name)
            if name is not None and any(word in name for word in _ROUTER_WORDS):
                return self._maybe_router(node)
            if name in _RESTFUL_ROUTERS and self._restful(node.func):
                assert name is not None
                return self._restful_router(node, name)
            if name in _ROUTER_METHODS and type(node.func) is ast.Attribute:
                made = _ROUTER_METHODS[name]  # a router where its value links to one (linker)
                return self._restful_router(node, made, parent=node.func.value, made_on=True)
            if name == "import_module" and node.args and not node.keywords:
                module = self._literal(node.args[0])  # `importlib.import_module(f"app.{x}")`
                if module is not None and not module.startswith("."):
                    return ImportRef(module, None)
            if name in _STR_METHODS and type(node.func) is ast.Attribute:
                changed = self._str_method(node)
                if changed is not None:
                    return changed
            if (name in _ENVIRON_READERS or type(node.func) is ast.Name) and (
                from_env := self._environ_default(node)
            ) is not None:
                return from_env
            if _optional_guard(node):
                return NoGuard(name or "")
            if name == "Field":  # pydantic default
                default = node.args[0] if node.args else _keyword(node, "default")
                return self._expr(default)
        path = _dotted_path(node)
        if path:
            if len(path) > 1 and self._def is not None:
                if path[0] == self._bound and CALL not in path:
                    return self._class_attribute(path)
                return self._through_local(path)
            return Sym(path)
        if kind is ast.Subscript:  # `environments[env]`: one of a module-level dict's values
            assert isinstance(node, ast.Subscript)
            if self.names_flask and (read := config_read(node, self._value)) is not None:
                return read  # `app.config["PREFIX"]`
            return self._table_element(node) or self._chosen_value(node)
        if isinstance(node, ast.JoinedStr):
            return self._concat(
                v.value if isinstance(v, ast.FormattedValue) and _plain(v) else v
                for v in node.values
            )
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._concat((node.left, node.right))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
            return self._environ_or(node)
        if isinstance(node, ast.List | ast.Tuple):
            return self._starlette_routes(node.elts)
        return None

    def _table_element(self, node: ast.Subscript) -> Expr | None:
        """`entry["router"]` or `entry[1]` with `entry` each item of a module's table (`for
        entry in urls.PATTERNS:`) or of a parameter (`for entry in specs:`): that key's
        (element's) value in each item, which the linker reads where the table is bound or
        what each call passes; any other key is not known (a finding where used)."""
        item = self._env.get(node.value.id) if self._env and type(node.value) is ast.Name else None
        key = node.slice.value if type(node.slice) is ast.Constant else None
        if isinstance(item, ast.Dict | ast.Tuple | ast.List):  # `for u in [{...}, ...]`
            literal = _element(item, key)
            if literal is None:
                return Opaque()
            env, self._env = self._env, {}
            try:
                return self._expr(literal) or Opaque()
            finally:
                self._env = env
        if not (type(item) is _EachOf and item.index < 0 and not item.rest):
            return None
        source: Expr | None = Sym(tuple(item.name.split(".")))
        if not item.table:  # `for spec in specs:`, `specs` a parameter: what callers pass
            source = self._owner(ast.Name(id=item.name, ctx=ast.Load()))
            if not isinstance(source, Param):
                return Opaque()
        assert isinstance(source, Sym | Param)
        if type(key) is str:
            return Each(source, field=key)
        if type(key) is int and key >= 0:
            return Each(source, key)
        return Opaque()

    def _each_of(self, item: _EachOf) -> Expr | None:
        if item.table:  # `for path, view in ROUTES:`, `ROUTES` read where it is bound
            return Each(Sym(tuple(item.name.split("."))), item.index, rest=item.rest)
        param = self._owner(ast.Name(id=item.name, ctx=ast.Load()))
        return Each(param, item.index, rest=item.rest) if isinstance(param, Param) else None

    def _value(self, node: ast.expr | None) -> Expr | None:
        """`node` where a string is expected (a path, a prefix, what a function returns): as
        `_expr` reads it, and also `.format(...)`, `%` and a call of a function whose return
        value the linker works out with the arguments bound (`scoped("/login")`); a test written
        as a value and `a if test else b` (`py_branches`)."""
        kind = type(node)
        if kind is ast.IfExp:
            assert isinstance(node, ast.IfExp)
            then = self._value(node.body) or Opaque()
            otherwise = self._value(node.orelse) or Opaque()
            if then == otherwise:
                return then
            test = decision(node.test, self._test_value, self.bindings)
            return dataclasses.replace(test, then=then, otherwise=otherwise)
        if kind is ast.Compare or kind is ast.UnaryOp:
            return flag(node, self._value, self.bindings)  # type: ignore[arg-type]
        if kind is ast.BoolOp and (chosen := and_or(node, self._value, self.bindings)):  # type: ignore[arg-type]
            return chosen  # `url.endswith("/") and "%s/" % x or "/%s" % x`
        if kind is ast.Call:
            assert isinstance(node, ast.Call)
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "format"
                and not any(isinstance(a, ast.Starred) for a in node.args)
            ):
                template = self._value(func.value)
                args = [self._value(a) for a in node.args]
                keywords = [(k.arg, self._value(k.value)) for k in node.keywords]
                if template is None or any(a is None for a in args):
                    return Opaque()
                if any(k is None or v is None for k, v in keywords):
                    return Opaque()
                return Format(
                    template,
                    tuple(a for a in args if a is not None),
                    tuple((k, v) for k, v in keywords if k is not None and v is not None),
                )
            read = self._getattr_default(node) or self._trimmed(node)
            if read is not None:
                return read
            plain = self._expr(node)  # a router, a guard...: as `_expr` reads it
            if not (isinstance(plain, Sym) and plain.path[-1] == CALL):
                return plain
            flagged = flag(node, self._value, self.bindings)  # `strtobool(x)`, `bool(x)`
            if flagged is not None:
                return flagged
            callee = _dotted_path(func)
            if (
                callee is not None
                and (node.args or node.keywords)
                and not any(isinstance(a, ast.Starred) for a in node.args)
            ):
                return Apply(
                    Sym(callee),
                    tuple(self._value(a) for a in node.args),
                    tuple(
                        (k.arg, v)
                        for k in node.keywords
                        if k.arg is not None and (v := self._value(k.value)) is not None
                    ),
                )
        elif kind is ast.BinOp:
            assert isinstance(node, ast.BinOp)
            if isinstance(node.op, ast.Mod):
                template = self._value(node.left)
                right = node.right
                items = right.elts if isinstance(right, ast.Tuple) else [right]
                args = [self._value(a) for a in items]
                if template is None or any(a is None for a in args):
                    return Opaque()
                return Format(template, tuple(a for a in args if a is not None), percent=True)
            if isinstance(node.op, ast.Add):
                return self._concat((node.left, node.right), self._value)
        elif kind is ast.JoinedStr:
            assert isinstance(node, ast.JoinedStr)
            return self._concat(
                (
                    v.value if isinstance(v, ast.FormattedValue) and _plain(v) else v
                    for v in node.values
                ),
                self._value,
            )
        return self._expr(node)

    def _test_value(self, node: ast.expr) -> Expr | None:
        """A value an `a if test else b` tests, as `_value` reads it; a parameter whose
        default is `None` or a number reads as that default's truth where no call binds it
        (`'/_api' if not testing else ''` in `def create_app(testing=None)`), marked as the
        default a call may override (a `False` default already reads as a flag)."""
        value = self._value(node)
        if type(node) is not ast.Name or not isinstance(value, Param) or value.default is not None:
            return value
        if self._def is None:
            return value
        default = self._defaults_of.get(id(self._def), {}).get(node.id)
        if type(default) is not ast.Constant or not (
            default.value is None or type(default.value) in (int, float)
        ):
            return value
        truth = TRUE if default.value else FALSE
        source = (
            f"`{node.id}={default.value!r}`, the default of `{self._def.name}`'s parameter "
            "(a call may pass another)"
        )
        return dataclasses.replace(value, default=Fallback(Opaque(), truth, source))

    def _class_attribute(self, path: tuple[str, ...]) -> Expr:
        """`cls.PREFIX`, `self.DOCS_URL` in a method: the attribute of what each call passes
        as parameter 0 (`Docs.install(app)` passes `Docs`, a subclass its own class), read on
        the enclosing class where no scanned call binds it. An attribute set only as the
        method runs (`self.url = url` in `__init__`) is found on neither: unresolved."""
        site, index = self._scope[path[0]]
        receiver = Param(site, index, path[0], Sym((self._class_name,)))
        return Member(receiver, path[1:], of_class=True)

    def _owner(self, node: ast.expr | None) -> Expr | None:
        """What a router-position name stands for: a parameter of the enclosing function is a
        `Param` (the callers say which router it is), anything else as `_expr` reads it."""
        if type(node) is ast.Name:
            param = self._scope.get(node.id)
            if param is not None:
                name = node.id
                return Param(param[0], param[1], name, Sym((name,)))
        elif self._bound and type(node) is ast.Attribute:
            path = _dotted_path(node)  # `self.router`: an instance's own, never a class field
            if path is not None and path[0] == self._bound and CALL not in path:
                return self._instance_attribute(path)
            if path is not None and path[0] == self._bound:
                return Sym(path)
        return self._expr(node)

    def _instance_attribute(self, path: tuple[str, ...]) -> Expr:
        """`self.blueprint` in a method: the attribute of the instance each call passes as
        parameter 0 (`api.add(...)` passes `api`, whose `blueprint` its `__init__` made), so
        a method registering on it is followed to each call like any function; no call:
        read as the name written, as before."""
        site, index = self._scope[path[0]]
        receiver = Param(site, index, path[0], Sym((path[0],)))
        return Member(receiver, path[1:])

    def _path_expr(self, node: ast.expr | None) -> Expr | None:
        """A route's path: a parameter of the enclosing function stays one (its callers say
        which path), anything else as `_present` reads it."""
        if type(node) is ast.Name and node.id in self._scope and node.id not in self._env:
            return self._owner(node)
        if node is None:
            return None
        if type(node) is ast.Constant:  # most paths
            return self._expr(node) or Opaque()
        return self._value(node) or Opaque()

    def _present(self, node: ast.expr | None) -> Expr | None:
        """`node` as an expression, `Opaque` when it is there but cannot be followed."""
        if node is None:
            return None
        return self._expr(node) or Opaque()

    def _concat(
        self, nodes: Iterable[ast.expr], read: Callable[[ast.expr], Expr | None] | None = None
    ) -> Expr | None:
        parts = []
        for node in nodes:
            part = (read or self._expr)(node)
            if part is None:
                return None
            parts.append(part)
        return Concat(tuple(parts))

    def _starlette_routes(self, elements: list[ast.expr]) -> StarletteRoutes | None:
        items: list[RouteDecl | MountDecl | Expr] = []
        for element in elements:
            value = element.value if isinstance(element, ast.Starred) else element
            if isinstance(value, ast.Call) and _callee_name(value) == "Route":
                route = self._route_call(value, None, _argument(value, 1, "endpoint"))
                if route is not None:
                    items.append(route)
            elif isinstance(value, ast.Call) and _callee_name(value) == "Mount":
                mount = self._starlette_mount(value)
                if mount is not None:
                    items.append(mount)
            elif isinstance(element, ast.Starred) and (spread := self._expr(value)) is not None:
                items.append(spread)
        return StarletteRoutes(tuple(items)) if items else None

    def _starlette_mount(self, call: ast.Call) -> MountDecl | None:
        prefix = self._expr(_argument(call, 0, "path"))
        routes = _keyword(call, "routes")
        if routes is not None:
            site = _site(call)
            self.routers[site] = RouterDecl(site, STARLETTE, call.lineno, routes=self._expr(routes))
            child: Expr | None = RouterRef(site)
        else:
            child = self._expr(_argument(call, 1, "app"))
        if prefix is None or child is None:
            return None
        return MountDecl(parent=None, child=child, prefix=prefix, line=call.lineno)

    # -- calls and decorators --------------------------------------------------------------

    def _call(self, call: ast.Call) -> None:
        if type(call.func) is ast.Call and call.args and _getattr_call(call.func.func):
            view = call.args[0]  # `getattr(router, verb)(path)(view)`: a decorator applied
            self._computed_member(call.func, _dotted(view), self._expr(view))
            return
        if type(call.func) is ast.Call and len(call.args) == 1 and _route_decorator(call.func):
            self._decorator_call(call.func, call.args[0])  # `app.route(rule)(view)`
            return
        if type(call.func) is ast.Call and len(call.args) == 1 and self._passed_method(call.func):
            self._passed_method_route(call.func, call.args[0])  # `verb(path)(view)`
            return
        if (
            type(call.func) is ast.Attribute
            and call.func.attr == CLASS_VIEWS.register
            and registering(call.func.value, self.names_class_views)
        ):
            registered = register_call(call, self._expr, self._owner, self._value)
            if registered is not None:
                self.view_registers.append(registered)
        if not isinstance(call.func, ast.Attribute) or call.func.attr not in _STATEMENT_CALLS:
            self._invocation(call)
            self._store(call)
            return
        name = call.func.attr
        owner = self._owner(call.func.value)
        if name != "init_app":  # `api.add_resource(R, "/x")` may be a project class's method
            self._invocation(call)  # of that name, followed with its arguments bound
        if name not in _UNBOUND_SPREAD_OK and _spreads(call):
            call = self._unspread(call, name)
            if _unplaced(call, name):  # `api.add_resource(*entry)` over what is not read
                if owner is not None:
                    self.routes.append(RouteDecl(owner, Opaque(), None, call.lineno))
                return
        if name == "include_router":
            self._mount(call, owner, 0, "router", "prefix")
        elif name == "register_blueprint":
            self._mount(call, owner, 0, "blueprint", "url_prefix", replaces_prefix=True)
        elif name == "mount":
            self._mount(call, owner, 1, "app", "path", prefix_index=0)
        elif name in {"add_api_route", "add_route"}:
            self._added_route(call, owner, _argument(call, 1, "endpoint"))
        elif name == "add_url_rule":
            self._added_route(call, owner, _argument(call, 2, "view_func"))
        elif name == "before_request" and call.args and owner is not None:
            self._guard(owner, self._present(call.args[0]))
        elif name == "add_namespace":  # flask-restx: `path=` replaces the namespace's own
            self._mount(call, owner, 0, "ns", "path", prefix_index=1, replaces_prefix=True)
        elif name == "add_resource":  # flask-restful/restx: a Resource class at each URL
            self._resource(call, owner)
        elif name == "init_app" and call.args and owner is not None:
            app = self._owner(call.args[0])
            if app is not None:
                self.mounts.append(MountDecl(app, owner, None, call.lineno, quiet=True))
            self._invocation(call)  # or a module's own hook: `views.init_app(app)`

    def _decorator_call(self, decorator: ast.Call, view: ast.expr) -> None:
        """A route decorator called as a function on a view: the route `@` would give, its
        spread arguments bound as a registration call's (a finding where they cannot be)."""
        func = decorator.func
        assert isinstance(func, ast.Attribute)
        name = func.attr
        if _spreads(decorator):
            decorator = self._unspread(decorator, name)
            if _unplaced(decorator, name):
                owner = self._owner(func.value)
                if owner is not None:
                    self.routes.append(RouteDecl(owner, Opaque(), None, decorator.lineno))
                return
        endpoint = self._expr(view)
        self._decorator_route(decorator, _dotted(view), NO_AUTH, endpoint)

    def _passed_method(self, call: ast.Call) -> bool:
        """`verb(path, ...)` with `verb` a parameter: a registration helper handed the router's
        method (`guarded(router.get, "/x")`); what it is, each call of the helper says."""
        return type(call.func) is ast.Name and call.func.id in self._scope and bool(call.args)

    def _passed_method_route(self, decorator: ast.Call, view: ast.expr) -> None:
        """`verb(path, dependencies=[...])(view)` where `verb` is a parameter: a route on the
        object of the bound method each call passes (`verb.__self__`), its method the bound
        method's name (`verb.__name__`: `get` is GET); the linker binds both per call and
        places the route where the helper is called (the decorator on the user's def). A
        call passing something that is no router's method is no route."""
        func = decorator.func
        assert isinstance(func, ast.Name)
        path = self._path_expr(_argument(decorator, 0, "path"))
        verb = self._owner(func)
        if path is None or verb is None:
            return
        methods = _keyword(decorator, "methods") or self._spread_key(decorator, "methods")
        computed = self._method_exprs(methods)
        listed = None if computed else _methods(methods, self.bindings)
        self.routes.append(
            RouteDecl(
                owner=Member(verb, (BOUND_SELF,)),
                path=path,
                methods=listed,
                methods_unknown=methods is not None and listed is None and not computed,
                line=decorator.lineno,
                handler=_dotted(view),
                auth=self._dependencies_auth(_keyword(decorator, "dependencies")),
                method_exprs=(Member(verb, (BOUND_NAME,)), *computed),
                registered_with=py_overrides.PASSED_METHOD,
            )
        )

    def _spread_key(self, call: ast.Call, key: str) -> ast.expr | None:
        """`**kw` passed on whole where `kw` is the `**` parameter of the def the call is in
        or of one enclosing it (a closure): the option `key` as each call of that def passes
        it (`_KeyOf`); None when the call spreads no such parameter."""
        spread = next((k.value for k in call.keywords if k.arg is None), None)
        if type(spread) is not ast.Name:
            return None
        assert isinstance(spread, ast.Name)
        function = self._def
        while function is not None:
            kwarg = function.args.kwarg
            if kwarg is not None and kwarg.arg == spread.id:
                return _KeyOf(_site(function), spread.id, key)
            function = self._enclosing.get(id(function))
        return None

    def _unspread(self, call: ast.Call, name: str) -> ast.Call:
        """`call` with its `*args` and `**kwargs` bound to the call's parameters, as if
        written out: a literal tuple, list or dict written in place, bound by a loop over a
        literal table, or a module's literal; an item of a table read elsewhere (imported, a
        parameter) element by element (`add_resource`'s URLs: each element after the view).
        One that cannot be bound stays (`_unplaced` says whether the call is then a finding;
        `add_resource(view, *urls)` over a wrapper's parameter is `_resource`'s)."""
        args: list[ast.expr] = []
        for arg in call.args:
            if not isinstance(arg, ast.Starred):
                args.append(arg)
                continue
            value = self._spelled(arg.value)
            if isinstance(value, ast.Tuple | ast.List) and not any(
                isinstance(e, ast.Starred) for e in value.elts
            ):
                args += value.elts
            elif type(value) is _EachOf and value.index < 0 and not value.rest:
                assert isinstance(value, _EachOf)
                item = value.name, -1, value.table
                if name == "add_resource":  # `(resource, *urls)`: the URLs, however many
                    first = [_EachOf(item[0], 0, item[2])] if not args else []
                    tail = _EachOf(item[0], len(first), item[2], rest=True)
                    args += [*first, tail]
                else:
                    args += [_EachOf(item[0], n, item[2]) for n in range(_SPREAD_WIDTH)]
            else:
                args.append(arg)
        keywords: list[ast.keyword] = []
        for keyword in call.keywords:
            if keyword.arg is not None:
                keywords.append(keyword)
                continue
            value = self._spelled(keyword.value)
            passed_on = self._keywords_passed_on(keyword.value, _SPREAD_KEYS.get(name, ()), call)
            if passed_on:
                keywords += passed_on
                continue
            if not isinstance(value, ast.Dict) or not all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys
            ):
                keywords.append(keyword)
                continue
            keywords += [
                ast.keyword(arg=k.value, value=v)  # type: ignore[union-attr]
                for k, v in zip(value.keys, value.values, strict=True)
            ]
        return ast.Call(
            func=call.func,
            args=args,
            keywords=keywords,
            lineno=call.lineno,
            col_offset=call.col_offset,
            end_lineno=call.end_lineno,
            end_col_offset=call.end_col_offset,
        )

    def _keywords_passed_on(
        self, node: ast.expr, keys: tuple[str, ...], call: ast.Call
    ) -> list[ast.keyword]:
        """`add_url_rule(rule, **kwargs)` in a wrapper whose own `**kwargs` it is: each option
        of `keys` the call does not write itself, as what the wrapper's callers pass under
        that name (`_KeyOf`; absent where a call passes none). [] for anything else."""
        function = self._def
        if not keys or function is None or type(node) is not ast.Name:
            return []
        spread = function.args.kwarg
        if spread is None or spread.arg != node.id or _assigns(function, node.id):
            return []
        own = {*_parameters(function)}
        written = {k.arg for k in call.keywords}
        site = _site(function)
        return [
            ast.keyword(arg=key, value=_KeyOf(site, node.id, key))
            for key in keys
            if key not in written and key not in own
        ]

    def _spelled(self, node: ast.expr) -> ast.expr | None:
        """What a spread's operand is written as: itself when a literal, what a loop binds
        its name to (a literal item, or a table's item: `_EachOf`), or a module literal."""
        if isinstance(node, ast.Tuple | ast.List | ast.Dict):
            return node
        if type(node) is not ast.Name:
            return None
        bound = self._env.get(node.id) if self._env else None
        if bound is not None:
            return bound if type(bound) is not ast.Name else self._spelled(bound)
        if self._def is not None and _assigns(self._def, node.id):
            return None
        return self._literals.get(node.id)

    def _store(self, call: ast.Call) -> None:
        """`self.entries.append((method, path, view))` in a method: what the instance keeps."""
        func = call.func
        if not (
            self._class_name
            and isinstance(func, ast.Attribute)
            and func.attr == "append"
            and len(call.args) == 1
            and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "self"
        ):
            return
        item = call.args[0]
        if isinstance(item, ast.Tuple | ast.List):
            value: Expr = Items(tuple(self._value(e) or Opaque() for e in item.elts))
        else:
            value = self._value(item) or Opaque()
        self.stores.append(Store(self._class_name, func.value.attr, value, call.lineno))

    def _invocation(self, call: ast.Call) -> None:
        """Remember `f(app)`, `f(app=app)`: a router may be what `f` declares routes on. Only
        arguments that can be routers are kept (a name, an attribute, a router made here)."""
        callee = _dotted_path(call.func)
        if callee is None:
            return
        receiver: Expr | None = None
        if isinstance(call.func, ast.Attribute):
            receiver = _routerish(self._owner(call.func.value))
        if not (call.args or call.keywords or receiver):
            return  # `api.register()` passes its object: a method may mount what it holds
        if isinstance(call.func, ast.Attribute):
            if callee[0] in {"self", self._bound} and self._class_name:
                if isinstance(receiver, Param):  # `self.add(...)`, `cls._more(app)`
                    callee = (self._class_name, CALL, *callee[1:])
            elif callee[:2] == ("super", CALL) and self._bound and len(callee) == 3:
                base = _dotted_path(self._first_base.get(self._class_name))
                if base is not None:  # `super().setup(app)`: the base's, passed our own
                    callee = (*base, CALL, callee[2])  # class (or instance) as parameter 0
                    receiver = self._owner(ast.Name(id=self._bound, ctx=ast.Load()))
            elif self._def is not None and len(callee) > 1 and CALL not in callee[:1]:
                local = self._through_local(callee)  # `docs = Docs()` then `docs.add(app)`
                if isinstance(local, Sym):
                    callee = local.path
        args = tuple(
            self._passed_on(a, last=n == len(call.args) - 1)
            if isinstance(a, ast.Starred)
            else self._passable(a)
            for n, a in enumerate(call.args)
        )
        keywords = tuple(
            (k.arg, value)
            for k in call.keywords
            if k.arg is not None and (value := self._passable(k.value)) is not None
        )
        if receiver is not None or any(a is not None for a in (*args, *(v for _, v in keywords))):
            keywords += self._spread_options(call)
            self.invocations.append(
                Invocation(Sym(callee), args, keywords, call.lineno, receiver, self._function_site)
            )

    def _spread_options(self, call: ast.Call) -> tuple[tuple[str, Expr], ...]:
        """What `f(..., **options)` passes by name, for the linker to bind a wrapper's
        parameters: a literal dict's items (written here, a loop's item or a module's
        literal); of the enclosing function's own `**kwargs`, the options of `_SPREAD_KEYS`
        its callers pass on (`_keywords_passed_on`); of any other, those options as not known
        (`Opaque`: a wrapper's `methods` from it is a finding, never its view's own)."""
        found: list[tuple[str, Expr]] = []
        for keyword in call.keywords:
            if keyword.arg is not None:
                continue
            value = self._spelled(keyword.value)
            if isinstance(value, ast.Dict) and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys
            ):
                found += [
                    (str(k.value), passed)  # type: ignore[union-attr]
                    for k, v in zip(value.keys, value.values, strict=True)
                    if (passed := self._passable(v)) is not None
                ]
                continue
            passed_on = self._keywords_passed_on(keyword.value, _PASSED_KEYS, call)
            written = {k.arg for k in call.keywords}
            found += [
                (k.arg, self._expr(k.value) or Opaque()) for k in passed_on if k.arg is not None
            ] or [(key, Opaque()) for key in _PASSED_KEYS if key not in written]
        return tuple(found)

    def _passed_on(self, starred: ast.Starred, *, last: bool) -> Expr | None:
        """`f(view, *rules)` as the last argument, `rules` the enclosing function's own `*rules`
        (or a list parameter) not assigned anew: each item its callers pass, passed on
        (`Each`); None for any other spread (the arguments after it are not placed)."""
        node = starred.value
        if not last or type(node) is not ast.Name or self._def is None:
            return None
        value = self._owner(node)
        if not isinstance(value, Param) or node.id in self._reassigned(self._def):
            return None
        return Each(value)

    def _passable(self, node: ast.expr) -> Expr | None:
        """An argument worth keeping: one that may be a router, or a path, a string, or a
        literal list of them a function may register (`register_view(bp, routes=["/a"])`)."""
        if isinstance(node, ast.List | ast.Tuple):
            return self._items(node)
        value = self._owner(node) if type(node) is ast.Name else self._value(node)
        if type(value) is Each and isinstance(value.source, Param) and value.index < 0:
            return value  # `for rule in rules: inner(bp, rule)`: each item the caller passes
        return value if isinstance(value, _PASSABLE) else None

    def _literal(self, node: ast.expr) -> str | None:
        """A string `node` spells here, loop variables bound (`f"pkg.{name}"` in a loop over
        a literal list): a constant, or an f-string or `+` of them; None otherwise."""
        value = self._expr(node)
        if isinstance(value, Lit):
            return value.value
        if isinstance(value, Concat) and all(isinstance(p, Lit) for p in value.parts):
            return "".join(p.value for p in value.parts if isinstance(p, Lit))
        return None

    def _condition(self, test: ast.expr, in_else: bool) -> Condition | None:
        read = self._test(test, in_else)
        if read is None:
            return None
        return dataclasses.replace(read, text=ast.unparse(test), in_else=in_else)

    def _condition_or_unknown(self, test: ast.expr, in_else: bool) -> Condition:
        """`_condition`, or a test the linker can never decide (`Opaque`): what is registered
        under it is listed as if it ran, flagged, never silently."""
        found = self._condition(test, in_else)
        if found is not None:
            return found
        return Condition(Opaque(), None, in_else, ast.unparse(test), in_else=in_else)

    def _test(self, test: ast.expr, negate: bool) -> Condition | None:
        """A module-level `if` test the linker may decide under the configuration's defaults:
        `x`, `not x`, `x == "lit"`, `x != "lit"` (either side), `x` a name or a call the
        evaluator reads as a string; None for any other test."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._test(test.operand, not negate)
        text = ast.unparse(test)
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            if not isinstance(test.ops[0], ast.Eq | ast.NotEq):
                return None
            left, right = test.left, test.comparators[0]
            if isinstance(left, ast.Constant):
                left, right = right, left
            if not (isinstance(right, ast.Constant) and isinstance(right.value, str)):
                return None
            value = self._tested(left)
            if value is None:
                return None
            flipped = isinstance(test.ops[0], ast.NotEq)
            return Condition(value, Lit(right.value), negate != flipped, text)
        value = self._tested(test)
        return None if value is None else Condition(value, None, negate, text)

    def _tested(self, node: ast.expr) -> Expr | None:
        """What an `if` test reads: a name, a member, a Flask app's `config["K"]`, or a call
        of the environment or of a function (never a router's class: reading a call of one
        declares a router)."""
        if isinstance(node, ast.Subscript):
            return config_read(node, self._value) if self.names_flask else None
        if isinstance(node, ast.Call):
            name = _callee_name(node)
            if name is None or name in ROUTER_FRAMEWORKS or name in _RESTFUL_ROUTERS:
                return None
            if any(word in name for word in _ROUTER_WORDS):
                return None
        elif not isinstance(node, ast.Name | ast.Attribute):
            return None
        value = self._value(node)
        return None if value is None or value == Opaque() else value

    def _getattr_default(self, call: ast.Call) -> Fallback | None:
        """`getattr(config, "BASE_PATH", "")` (the builtin, not rebound): the member where the
        scanned files show it, else the default, taken as the configuration's (`config` is
        often a module imported by a name the environment gives, or an object made at run
        time), which the routes it names carry in `attrs.configDefault`."""
        if not (
            isinstance(call.func, ast.Name)
            and call.func.id == "getattr"
            and "getattr" not in self.bindings
            and len(call.args) == 3
            and not call.keywords
        ):
            return None
        owner = _dotted_path(call.args[0])
        key = self._literal(call.args[1])
        if owner is None or CALL in owner or key is None:
            return None
        default = self._value(call.args[2])
        if default is None or default == Opaque():
            return None
        source = f"getattr({'.'.join(owner)}, {key!r})"
        return Fallback(Member(Sym(owner), (key,)), default, source)

    def _trimmed(self, call: ast.Call) -> Apply | None:
        """`value.strip("/")` (a str method of `_HELPER_STR_METHODS`, literal arguments) on a value a
        helper is passed or a configuration default: the linker applies it to the string
        (`with_slash(getattr(config, "BASE", "/app/"))` returns `value.strip("/") + "/"`)."""
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr in _HELPER_STR_METHODS
            and len(call.args) <= 1
            and not call.keywords
        ):
            return None
        args = [self._literal(a) for a in call.args]
        receiver = self._value(func.value)
        chained = (
            isinstance(receiver, Apply)
            and isinstance(receiver.callee, Member)
            and receiver.callee.path[0] in _HELPER_STR_METHODS
        )  # `value.strip("/").lower()`
        if receiver is None or any(a is None for a in args):
            return None
        if not (chained or isinstance(receiver, Param | Fallback)):
            return None
        return Apply(Member(receiver, (func.attr,)), tuple(Lit(a) for a in args if a is not None))

    def _environ_default(self, call: ast.Call) -> Fallback | None:
        """`os.environ.get("X", "/api")`, `os.getenv("X", "/api")` (`environ`, `getenv` also
        imported from `os`, under any name), and a configuration library's reader with a
        default (`_config_read`: python-decouple's `config("X", default="sub")`, django-environ's
        `env("X", default=...)` / `env.str(...)`, environs' `env.str("X", "d")`): the
        environment's value, unknown to a reader, else the default, which the routes it names
        carry in `attrs.configDefault`. A default of `False` is a flag's false (`FALSE`: false
        in a test, equal to no string: `if os.environ.get("MODE", False) == "ci":` is decided).
        Without a default (or with one that is not a string, or cast in a way not followed)
        the value stays unknown."""
        read = self._config_read(call)
        if read is None or read.default is None:
            return None
        if read.cast == "int":  # `cast=int`, `env.int(...)`: the default cast as well
            written = read.default
            number = written.value if isinstance(written, ast.Constant) else None
            try:  # `"²"` is a digit `int` refuses; 5000 digits pass Python's conversion limit
                if type(number) is str and number.strip().lstrip("+-").isdigit():
                    number = int(number)
                if type(number) is not int:
                    return None
                return Fallback(Opaque(), Lit(capped(str(number))), read.source)
            except (ValueError, NotEvaluated):
                return None
        if read.cast != "str":
            return None  # `cast=bool` is a flag (`py_branches`); other casts are not followed
        if type(read.default) is ast.Constant and read.default.value is False:
            return Fallback(Opaque(), FALSE, read.source)  # a flag's false: no string equals it
        value = self._value(read.default)
        if value is None or value == Opaque():
            return None
        return Fallback(Opaque(), value, read.source)

    def _config_read(self, call: ast.Call) -> _ConfigRead | None:
        """What a call reading one environment variable reads: `os.getenv("X", d)`,
        `os.environ.get("X", d)`; python-decouple's `config("X", default=d, cast=c)` (also of
        an `AutoConfig()`/`Config(...)` instance: the default is its second argument);
        django-environ's `env("X", default=d)` (its second argument is the cast) and
        `env.str("X", d)`, `env.int(...)`, `env.bool(...)`; environs' `env("X", d)`,
        `env.str("X", d)`. None for any other call, or one of a variable the file does not
        spell."""
        path = _dotted_path(call.func)
        if path is None or not call.args or isinstance(call.args[0], ast.Starred):
            return None
        key = None
        head = self.bindings.get(path[0])
        if _environ_path(head, path) is not None:
            if len(call.args) > 2:
                return None
            default = call.args[1] if len(call.args) == 2 else _keyword(call, "default")
            key = self._literal(call.args[0])
            return None if key is None else _ConfigRead(f"os.environ.{key}", key, default, "str")
        library = self._config_objects.get(path[0])
        if library is None and type(head) is ImportRef:
            assert isinstance(head, ImportRef)
            full = (head.module, *((head.attr,) if head.attr else ()), *path[1:])
            library = "decouple" if full == ("decouple", "config") else None
            path = (path[0],)
        if library is None or len(path) > 2 or (len(path) == 2 and path[1] not in _CASTS):
            return None
        key = self._literal(call.args[0])
        if key is None:
            return None
        # where the default and the cast are passed: decouple's `config(option, default,
        # cast)`, django-environ's `Env.__call__(var, cast, default)`, each typed reader's
        # `str(var, default)` (django-environ's and environs'), environs' `env(var, default)`
        called = library == "django-environ" and len(path) == 1
        default = _keyword(call, "default")
        cast = _keyword(call, "cast")
        at = 2 if called else 1
        if default is None and len(call.args) > at:
            default = call.args[at]
        if called and cast is None and len(call.args) > 1:
            cast = call.args[1]
        elif library == "decouple" and cast is None and len(call.args) > 2:
            cast = call.args[2]
        if len(path) == 2:
            kind: str | None = _CASTS[path[1]]
        elif cast is None or (isinstance(cast, ast.Constant) and cast.value is None):
            kind = "str"
        else:
            kind = cast.id if isinstance(cast, ast.Name) and cast.id in _CASTS else None
        if default is not None and isinstance(default, ast.Constant) and default.value is None:
            default = None  # `default=None`: no value to read
        return _ConfigRead(f"{library} {key}", key, default, kind)

    def _str_method(self, call: ast.Call) -> Expr | None:
        """`config("X", default="/sub/").strip("/")`, `os.getenv("X", "A").lower()`, a str
        method with literal arguments called on a literal or on a configuration's default:
        its result (the default's, still marked as the configuration's). None for anything
        else, read as before."""
        func = call.func
        assert isinstance(func, ast.Attribute)
        if call.keywords or len(call.args) > 2:
            return None
        args = [a.value for a in call.args if type(a) is ast.Constant and type(a.value) is str]
        if len(args) != len(call.args):
            return None
        receiver = func.value
        base: Expr | None = None
        if type(receiver) is ast.Constant and type(receiver.value) is str:
            base = Lit(receiver.value)
        elif type(receiver) is ast.Call:
            inner = _callee_name(receiver)
            if inner in _STR_METHODS and type(receiver.func) is ast.Attribute:
                base = self._str_method(receiver)
            else:
                base = self._environ_default(receiver)
        text = base.default if isinstance(base, Fallback) else base
        if not isinstance(text, Lit) or type(text.value) is not str:
            return None
        # `.replace` puts at most one `new` a character, and one more: a thousand "a"s each
        # replaced by a thousand, four times over, would ask for 10^15 characters
        grown = (len(text.value) + 1) * len(args[1]) if len(args) == 2 else 0
        if func.attr == "replace" and grown > MAX_LENGTH:
            return None
        try:
            changed = Lit(capped(getattr(text.value, func.attr)(*args)))
        except (TypeError, Refused):  # arguments the method does not take; past the cap
            return None
        if isinstance(base, Fallback):
            return Fallback(base.value, changed, base.source)
        return changed

    def _environ_or(self, node: ast.BoolOp) -> Fallback | None:
        """`os.environ.get("X") or "/api"` (`os.getenv("X", "") or "/api"`): the variable's
        default when that is a non-empty string, else the right side, marked like a default."""
        left, right = node.values
        read = self._config_read(left) if isinstance(left, ast.Call) else None
        if read is None or read.cast != "str":
            return None
        default = read.default
        if isinstance(default, ast.Constant) and isinstance(default.value, str) and default.value:
            return Fallback(Opaque(), Lit(default.value), read.source)
        if default is not None and not (isinstance(default, ast.Constant) and not default.value):
            return None  # a default computed out of sight: which side wins is not known
        value = self._value(right)
        if value is None or value == Opaque():
            return None
        return Fallback(Opaque(), value, read.source)

    def _configured_return(self, node: _Def) -> Fallback | None:
        """What a function of no parameters returns when the environment it reads sets
        nothing (`raw = os.getenv("BASE", ""); if not raw: return ""; return "/" + raw`): its
        body run by the table-name interpreter (`computed_names`: str methods, `if`, locals,
        helpers of this module, every step counted), each variable taken as unset, its default
        marked as assumed. None where the body reads no environment variable or does anything
        that interpreter does not know: the returns stay one of several, as before."""
        if not any(
            isinstance(n, ast.Name | ast.Attribute) and _ENVIRON_NAME.fullmatch(_last(n))
            for n in ast.walk(node)
        ):
            return None
        scope = self._interpreter_scope(node)
        try:
            done = computed_names.evaluate_marked(computed_names.from_function(node), "", scope)
        except computed_names.NotEvaluated:
            return None
        if done.name is None or not done.assumed:
            return None
        return Fallback(Opaque(), Lit(done.name), "; ".join(done.assumed))

    def _interpreter_scope(
        self, within: ast.AST, methods: Sequence[ast.stmt] = ()
    ) -> computed_names.Scope:
        """What the table-name interpreter sees of this module: its literal constants and
        imports, the defs written in `within`, and `methods` (a class body's) as the methods
        of the instance a computation runs on."""
        imports: dict[str, str] = {}
        constants: dict[str, ast.expr] = {}
        for name, value in self.bindings.items():
            if type(value) is ImportRef:
                imports[name] = f"{value.module}.{value.attr}" if value.attr else value.module
            elif type(value) is Lit:
                constants[name] = ast.Constant(value.value)
        defs = {d.name: d for d in ast.iter_child_nodes(within) if isinstance(d, _Def)}
        own = {d.name: computed_names.from_function(d) for d in methods if isinstance(d, _Def)}

        def helper(name: str) -> tuple[computed_names.Computation, computed_names.Scope] | None:
            found = defs.get(name)
            return None if found is None else (computed_names.from_function(found), scope)

        scope = computed_names.Scope(constants, imports, helper, method=own.get)
        return scope

    def _computed_by_own_methods(self, node: ast.expr | None) -> ast.expr | Expr | None:
        """A value a method computes with the instance's own methods
        (`self.__coerce(self.__env("X", "/x"))` in a configuration manager), run by the
        table-name interpreter with every environment variable unset: a string (marked with
        the defaults read), a flag; `node` unchanged where it cannot be run."""
        if node is None or not self._bound or self._def is None:
            return node
        if not any(
            type(n) is ast.Call
            and type(n.func) is ast.Attribute
            and type(n.func.value) is ast.Name
            and n.func.value.id == self._bound
            for n in ast.walk(node)
        ):
            return node
        cls = self._class_node_of.get(id(self._def))
        if cls is None:
            return node
        scope = self._interpreter_scope(self._module_tree, cls.body)
        try:
            got, assumed = computed_names.evaluate_on_instance(node, self._bound, scope)
        except computed_names.NotEvaluated:
            return node
        if type(got) is bool:
            return TRUE if got else FALSE
        made: Expr = Lit(got) if type(got) is str else Number(got)
        return Fallback(Opaque(), made, "; ".join(assumed)) if assumed else made

    def _own_class_call(self, node: ast.expr) -> bool:
        """`Shop()`, `api.VersionedApi(app)`: a call of a capitalised name that a framework's
        own module does not export (`HTTPBearer()` is fastapi's, never a subclass of a router
        class), so it may make an instance of the project's subclass of an app or router class
        (the linker checks the bases; the case only picks the calls worth checking)."""
        if type(node) is not ast.Call:
            return False
        name = _callee_name(node)
        if name is None or not name[:1].isupper() or name.isupper():
            return False
        head = node.func
        while isinstance(head, ast.Attribute | ast.Call):
            head = head.value if isinstance(head, ast.Attribute) else head.func
        bound = self.bindings.get(head.id) if isinstance(head, ast.Name) else None
        return not (
            isinstance(bound, ImportRef)
            and bound.module.partition(".")[0] in _FRAMEWORK_PACKAGES
            and (bound.module.partition(".")[0], name) not in _BASES
        )

    def _maybe_router(self, call: ast.Call, *, quiet: bool = False) -> Expr | None:
        """`UserAPIRouter(...)`: a router if the class links to a subclass of `APIRouter` or
        `Blueprint` (the linker checks; the name only says which calls are worth checking).
        `quiet`: any class called and bound to a name (`gateway = VersionedApi(app)`), whose
        first argument, if it is a router, then serves it (as `Api(app)` does)."""
        callee = _dotted_path(call.func)
        if callee is None:
            return self._expr(call) if quiet else None
        site = _site(call)
        first = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else None
        if site not in self.routers and first is not None:
            parent = _routerish(self._owner(first))
            if parent is not None:
                self.mounts.append(
                    MountDecl(parent, RouterRef(site), None, call.lineno, quiet=True)
                )
        if site not in self.routers:
            self.routers[site] = RouterDecl(
                router_id=site,
                framework="",
                line=call.lineno,
                prefix=self._present(_keyword(call, "prefix") or _keyword(call, "url_prefix")),
                auth=self._dependencies_auth(_keyword(call, "dependencies")),
                subclass=Sym(callee),
                passed=self._passed_to_class(call),
                class_prefixes=self._class_prefixes(call),
                arguments=self._arguments_of(call),
            )
        return RouterRef(site)

    def _class_prefixes(self, call: ast.Call) -> tuple[tuple[str, Expr], ...]:
        """The prefix a call of a class of the project's (or of a name it imports from the
        project: a re-export) gives, should that class link to flask-restx's `Namespace`,
        whose prefix is its `path` or its name: which class it is the linker tells, not the
        file's imports. Read only where the name it would be is no call (`Form(make())`)."""
        title = _argument(call, 0, "name")
        if title is None or any(type(n) is ast.Call for n in ast.walk(title)):
            return ()
        path = self._namespace_path(call)
        return ((_NAMESPACE, path),) if path is not None else ()

    def _arguments_of(self, call: ast.Call) -> Invocation | None:
        """A project class's call as a call of its `__init__`: `self` first (passed nothing)."""
        if not call.args and not call.keywords:
            return None
        args = tuple(None if isinstance(a, ast.Starred) else self._present(a) for a in call.args)
        keywords = tuple(
            (k.arg, value)
            for k in call.keywords
            if k.arg is not None and (value := self._present(k.value)) is not None
        )
        return Invocation(Opaque(), (None, *args), keywords, call.lineno)

    def _passed_to_class(self, call: ast.Call) -> tuple[tuple[str, Expr], ...]:
        """What a project class's call passes, for a router its `__init__` may store: a name
        as `_owner` reads it, a router made in place, anything else `Opaque`; a `None` is
        as good as not passed (the class makes its own)."""
        given = [(str(i), a) for i, a in enumerate(call.args)]
        given += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        passed: list[tuple[str, Expr]] = []
        for key, node in given:
            if isinstance(node, ast.Starred) or _is_none(node):
                continue
            if type(node) is ast.Call and _callee_name(node) in ROUTER_FRAMEWORKS:
                value = self._expr(node)
            elif type(node) in (ast.Name, ast.Attribute):
                value = self._owner(node)
            else:
                value = None
            passed.append((key, value or Opaque()))
        return tuple(passed)

    def _project_class(self, func: ast.expr) -> bool:
        """Whether a call named as a framework's class (`APIRouter(...)`) calls the project's
        own class of that name, defined in the file or imported from the project (a subclass
        overriding how routes are registered, say): the linker follows it."""
        if type(func) is not ast.Name:
            return False
        assert isinstance(func, ast.Name)
        bound = self.bindings.get(func.id)
        if isinstance(bound, ImportRef):
            return bound.module.partition(".")[0] not in _FRAMEWORK_PACKAGES
        return isinstance(bound, Namespace)

    def _framework_class(self, name: str | None) -> str | None:
        """The framework's router class a name is imported as (`from flask import Blueprint as
        Section`, `from flask_restful import Api as RestApi`): what the import binds, not how
        the file spells it, says what a call of it makes; any other name as it is."""
        bound = self.bindings.get(name) if name is not None else None
        if not (isinstance(bound, ImportRef) and bound.attr is not None):
            return name
        if bound.module.partition(".")[0] not in _FRAMEWORK_PACKAGES:
            return name
        known = bound.attr in ROUTER_FRAMEWORKS or bound.attr in _RESTFUL_ROUTERS
        return bound.attr if known else name

    def _restful(self, func: ast.expr) -> bool:
        """Whether `Api`/`Namespace` here is flask-restx's (or flask-restful's)."""
        head = func
        while isinstance(head, ast.Attribute):
            head = head.value
        bound = self.bindings.get(head.id) if isinstance(head, ast.Name) else None
        return isinstance(bound, ImportRef) and bound.module.startswith(_RESTFUL_MODULES)

    def _restful_router(
        self, call: ast.Call, name: str, parent: ast.expr | None = None, *, made_on: bool = False
    ) -> RouterRef:
        """`Api(app, prefix=...)` (mounted on its app or blueprint), `Namespace('users',
        path=...)` (its path defaults to `/` + its name) or `api.namespace(...)` (made and added
        to `api` at once). `made_on`: the method's call, a router only if `parent`'s value
        links to one, which the file's own imports do not tell (`api` imported from the
        project's module): the linker decides (`RouterDecl.made_on`)."""
        site = _site(call)
        if site in self.routers:
            if parent is not None and self._def is not None:
                self._in_scope(site, self._owner(parent))
            return RouterRef(site)
        prefix: Expr | None
        if name == _NAMESPACE:
            prefix = self._namespace_path(call)
        else:
            prefix = self._present(_keyword(call, "prefix"))
            parent = _argument(call, 0, "app")
        self.routers[site] = RouterDecl(site, FLASK, call.lineno, prefix=prefix, concatenates=True)
        owner = self._owner(parent) if parent is not None else None
        if made_on:
            on = owner or Opaque()
            self.routers[site] = dataclasses.replace(self.routers[site], made_on=on)
        if owner is not None:
            self.mounts.append(MountDecl(owner, RouterRef(site), None, call.lineno))
        return RouterRef(site)

    def _in_scope(self, site: str, owner: Expr | None) -> None:
        """A router made in a def on its parameter (`def install(api): api.namespace(...)`)
        is first read with the def's other names, out of its scope (`read`'s binding pass),
        where the parameter is a global name; read again in the def, the parameter is what it
        is made on and mounted under."""
        if not isinstance(owner, Param):
            return
        child = RouterRef(site)
        for index, mount in enumerate(self.mounts):
            if mount.child == child and mount.parent != owner:
                self.mounts[index] = dataclasses.replace(mount, parent=owner)
        decl = self.routers[site]
        if decl.made_on is not None:
            self.routers[site] = dataclasses.replace(decl, made_on=owner)

    def _namespace_path(self, call: ast.Call) -> Expr | None:
        """A `Namespace(name, description, path)`'s own prefix as flask-restx computes it,
        `(path or "/" + name).rstrip("/")`: an empty `path=""` is its name's."""
        path = _argument(call, 2, "path")
        if type(path) is ast.Constant and type(path.value) is str and path.value:
            return Lit(path.value.rstrip("/"))
        if path is not None and not (type(path) is ast.Constant and not path.value):
            return self._present(path)
        title = _argument(call, 0, "name")
        if title is None:
            return None
        named = self._expr(title)
        return Concat((Lit("/"), named)) if named is not None else Opaque()

    def _resource(self, call: ast.Call, owner: Expr | None) -> None:
        if owner is None or not call.args:
            return
        view = call.args[0]
        for url in call.args[1:]:
            path = self._path_expr(url.value if isinstance(url, ast.Starred) else url)
            if isinstance(url, ast.Starred):  # `*rules`: each rule a call passes
                path = self._spread(url.value, path)
            if path is not None:
                self.routes.append(
                    RouteDecl(owner, path, None, call.lineno, _dotted(view), self._expr(view))
                )

    def _spread(self, node: ast.expr, value: Expr | None) -> Expr:
        """`*rules` in a call: each item of the parameter `rules` the callers pass, or of a
        list built from it, written in place (`*[scoped(r) for r in rules]`, `*map(scoped,
        rules)`) or assigned once (`rules = [scoped(r) for r in rules]`); anything else is
        not known (a finding at each call that reaches it)."""
        if self._def is None:
            return Opaque()
        if type(node) is ast.Name:
            assigned = self._assigned_once(self._def, node.id)
            if assigned is None and isinstance(value, Param):
                if node.id not in self._reassigned(self._def):
                    return Each(value)
                return Opaque()
            node = assigned or node
        mapped = self._mapped(node)
        return Each(mapped) if mapped is not None else Opaque()

    def _assigned_once(self, function: _Def, name: str) -> ast.expr | None:
        """What `name = value` assigns, when `function` assigns `name` that once (a parameter
        too: `urls = [scoped(u) for u in urls]`)."""
        found = [
            stmt.value
            for stmt in ast.walk(function)
            if isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
        ]
        if len(found) != 1 or name in self._reassigned_otherwise(function):
            return None
        return found[0]

    def _reassigned_otherwise(self, function: _Def) -> set[str]:
        return {
            target.id
            for stmt in ast.walk(function)
            if isinstance(stmt, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor)
            for target in ast.walk(stmt.target)
            if isinstance(target, ast.Name)
        }

    def _mapped(self, node: ast.expr) -> Mapped | None:
        """A list built from a parameter (or a literal list) item by item: `[f(u) for u in
        urls]`, `(... for ...)`, `map(f, urls)`, each under `list(...)`/`tuple(...)`; the item
        a `Param` of the comprehension's (or the `map` call's) site. None for anything else
        (a filter, nested loops, a callee that is no name)."""
        while (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"list", "tuple"}
            and len(node.args) == 1
            and not node.keywords
        ):
            node = node.args[0]
        site = _site(node)
        if isinstance(node, ast.ListComp | ast.GeneratorExp) and len(node.generators) == 1:
            loop = node.generators[0]
            if loop.ifs or loop.is_async or not isinstance(loop.target, ast.Name):
                return None
            source, item, element = loop.iter, loop.target.id, node.elt
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "map"
            and len(node.args) == 2
            and not node.keywords
        ):
            function, source = node.args
            if isinstance(function, ast.Lambda):  # `map(lambda u: scoped(u), urls)`
                arguments = function.args
                if len(arguments.args) != 1 or arguments.vararg or arguments.kwonlyargs:
                    return None
                item, element = arguments.args[0].arg, function.body
            elif _dotted_path(function) is not None:  # `map(scoped, urls)`
                item = "\0item"
                element = ast.Call(function, [ast.Name(item)], [])
            else:
                return None
        else:
            return None
        listed = self._owner(source) if type(source) is ast.Name else self._passable(source)
        if not isinstance(listed, Param | Items):
            return None
        saved = self._scope
        self._scope = {**self._scope, item: (site, 0)}
        try:
            value = self._value(element) or Opaque()
        finally:
            self._scope = saved
        return Mapped(listed, "map", site, value)

    def _reassigned(self, function: _Def) -> frozenset[str]:
        """The names `function` (nested defs too) assigns: walked once per def, not once per
        spread argument of every call in it."""
        known = self._reassigned_of.get(id(function))
        if known is None:
            known = self._reassigned_of[id(function)] = frozenset(
                target.id
                for stmt in ast.walk(function)
                if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign)
                for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                if isinstance(target, ast.Name)
            )
        return known

    def _decorated_class(self, node: ast.ClassDef) -> None:
        """flask-restx `@ns.route('/x')` on a `Resource`: its verb methods are the routes. The
        decorator registers the class it is written on, so the route's endpoint is that
        definition, not its name: two `class Domain(Resource)` in one module, each under its
        own `@ns.route`, serve each its own methods (the name ends bound to the last)."""
        endpoint: Expr = self._class_read.get(id(node)) or Sym((node.name,))
        for decorator in node.decorator_list:
            if not (
                isinstance(decorator, ast.Call)
                and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "route"
            ):
                continue
            urls: list[ast.expr | None] = [*decorator.args] or [_keyword(decorator, "rule")]
            for url in urls:
                path = self._path_expr(url)
                if path is not None:
                    self.routes.append(
                        RouteDecl(
                            self._owner(decorator.func.value),
                            path,
                            None,
                            decorator.lineno,
                            node.name,
                            endpoint,
                        )
                    )

    def _router(self, call: ast.Call, name: str) -> RouterRef:
        """The router created by `call`, declared once however often the call is read."""
        site = _site(call)
        if site in self.routers:
            return RouterRef(site)
        prefix_key = _OWN_PREFIX.get(name)
        self.routers[site] = RouterDecl(
            router_id=site,
            framework=ROUTER_FRAMEWORKS[name],
            line=call.lineno,
            prefix=self._path_expr(_keyword(call, prefix_key)) if prefix_key else None,
            auth=self._dependencies_auth(_keyword(call, "dependencies")),
            routes=self._expr(_keyword(call, "routes")),
            app=name in _APPS,
        )
        return RouterRef(site)

    def _mount(
        self,
        call: ast.Call,
        owner: Expr | None,
        child_index: int,
        child_key: str,
        prefix_key: str,
        *,
        prefix_index: int | None = None,
        replaces_prefix: bool = False,
    ) -> None:
        node = _argument(call, child_index, child_key)
        child = self._whole_item(node) or self._made_child(node) or self._expr(node)
        if child is None:
            return
        prefix_node = (
            _argument(call, prefix_index, prefix_key)
            if prefix_index is not None
            else _keyword(call, prefix_key)
        )
        self.mounts.append(
            MountDecl(
                parent=owner,
                child=child,
                prefix=self._path_expr(prefix_node),
                line=call.lineno,
                auth=self._dependencies_auth(_keyword(call, "dependencies")),
                replaces_prefix=replaces_prefix,
            )
        )

    def _made_child(self, node: ast.expr | None) -> Expr | None:
        """`app.register_blueprint(pages.PagesModule(db))`: an instance of the project's class
        made in the mount itself is a router when the class links to a router class (the
        linker checks its bases), as the same call bound to a name first is."""
        if node is None or not self._own_class_call(node):
            return None
        return self._maybe_router(node)  # type: ignore[arg-type]  # a call: checked above

    def _whole_item(self, node: ast.expr | None) -> Each | None:
        """A mounted child that is each item of a module's table used whole (`for bp in
        views.BLUEPRINTS: app.register_blueprint(bp)`, `for sub in APPS.values():`), which
        the linker reads where the table is bound; None for any other child."""
        item = self._env.get(node.id) if self._env and type(node) is ast.Name else None
        if not (type(item) is _EachOf and item.table and item.index < 0 and not item.rest):
            return None
        assert isinstance(item, _EachOf)
        return Each(Sym(tuple(item.name.split("."))))

    def _added_route(self, call: ast.Call, owner: Expr | None, view: ast.expr | None) -> None:
        route = self._route_call(call, owner, view) if owner is not None else None
        if route is not None:
            self.routes.append(route)

    def _route_call(
        self, call: ast.Call, owner: Expr | None, view: ast.expr | None
    ) -> RouteDecl | None:
        """`add_api_route`, `add_route`, `add_url_rule` or Starlette's `Route(...)`: a path,
        then the view (whose class, for a class-based view, says the methods)."""
        path = self._path_expr(_argument(call, 0, "rule") or _keyword(call, "path"))
        if path is None:
            return None
        if type(view) is ast.Name and self._def is not None:
            view = self._class_view(self._def, view.id) or view
        class_view = _is_method_call(view, "as_view")
        if class_view:  # Flask MethodView
            assert isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute)
            view = view.func.value
        methods = _keyword(call, "methods")
        computed = self._method_exprs(methods)
        return RouteDecl(
            owner=owner,
            path=path,
            methods=_methods(methods, self.bindings),
            line=call.lineno,
            handler=_dotted(view),
            endpoint=self._expr(view),
            auth=self._dependencies_auth(_keyword(call, "dependencies")),
            methods_unknown=methods is not None
            and _methods(methods, self.bindings) is None
            and not computed,
            method_exprs=computed,
            class_view=class_view,
            registered_with=_callee_name(call) or "",
        )

    def _class_view(self, function: _Def, name: str) -> ast.expr | None:
        """The `X.as_view(...)` a view variable is made from when the function assigns it more
        than once (a cache lookup, decorators wrapping it): wrapped or cached, it serves the
        methods of the class `X`. None when no assignment, or more than one, is `as_view`."""
        made = [
            stmt.value
            for stmt in ast.walk(function)
            if isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            and _is_method_call(stmt.value, "as_view")
        ]
        return made[0] if len(made) == 1 else None

    def _listed_methods(self, node: ast.expr) -> Expr:
        """A view class's `methods = [...]` (a list, tuple or set, maybe in `list(...)`): each
        element as an expression, so the linker reads constants and names; `Opaque` (methods
        not known: a finding where the view is registered) for anything else."""
        if isinstance(node, ast.Call) and _callee_name(node) in {"list", "tuple", "set"}:
            node = node.args[0] if len(node.args) == 1 else node
        if not isinstance(node, ast.List | ast.Tuple | ast.Set):
            return self._expr(node) or Opaque()
        return Items(tuple(self._value(e) or Opaque() for e in node.elts))

    def _method_exprs(self, node: ast.expr | None) -> tuple[Expr, ...]:
        """`methods=[verb]` or `methods=list(verbs)` with names the linker may bind (a
        wrapper's parameter): each as an expression; () when literal or not followable."""
        if type(node) is _KeyOf:  # `**kwargs` passed on: what its callers pass, if they do
            return (self._expr(node) or Opaque(),)
        if isinstance(node, ast.Call) and _callee_name(node) in {"list", "tuple"} and node.args:
            node = node.args[0]
        if not isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Name):
            return ()
        if _methods(node, self.bindings) is not None:
            return ()
        elements = node.elts if not isinstance(node, ast.Name) else [node]
        found = tuple(self._value(e) or Opaque() for e in elements)
        return found if any(not isinstance(e, Opaque) for e in found) else ()

    def _computed_member(self, call: ast.Call, handler: str | None, view: Expr | None) -> None:
        """`getattr(router, verb)(path)`: a route decorator chosen by name, the verb a value
        the linker binds (a literal loop's, a wrapper's argument); a literal that is no HTTP
        verb (`getattr(r, "include_router")`) is no route."""
        member = call.func
        assert isinstance(member, ast.Call)
        router, verb = member.args[0], member.args[1]
        if isinstance(verb, ast.Constant) and str(verb.value).lower() not in HTTP_METHODS:
            return
        path = self._path_expr(_argument(call, 0, "path"))
        chosen = self._value(verb)
        if path is None:
            return
        literal = chosen.value.upper() if isinstance(chosen, Lit) else None
        if isinstance(chosen, Lit) and chosen.value.lower() not in HTTP_METHODS:
            return
        self.routes.append(
            RouteDecl(
                owner=self._owner(router),
                path=path,
                methods=(literal,) if literal else None,
                line=call.lineno,
                handler=handler,
                endpoint=view,
                methods_unknown=chosen is None,
                method_exprs=() if literal or chosen is None else (chosen,),
            )
        )

    def _decorated(self, node: _Def) -> None:
        for at, decorator in enumerate(node.decorator_list):
            if (
                type(decorator) is ast.Call
                and type(decorator.func) is ast.Call
                and _getattr_call(decorator.func)
            ):
                self._computed_member(decorator, node.name, None)
                continue
            if isinstance(decorator, ast.Attribute) and decorator.attr == "before_request":
                owner = self._owner(decorator.value)
                if owner is not None:  # this def, whatever later def rebinds its name
                    self._guard(owner, self._function_read.get(id(node)) or Sym((node.name,)))
            if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
                continue
            if decorator.func.attr in _ROUTE_DECORATORS:
                added = self._added_methods(node.decorator_list[at + 1 :])
                self._decorator_route(decorator, node.name, self._auth_of(node), added=added)

    def _helper_decorators(self, node: _Def) -> None:
        """`@guarded(router.get, "/x")`: a decorator made by a call of a function of the
        project's is a call the linker follows like any other (the helper may register the
        def on what it is given; its route is placed at this decorator)."""
        for decorator in node.decorator_list:
            if type(decorator) is ast.Call and not _route_decorator(decorator):
                assert isinstance(decorator, ast.Call)
                made = len(self.invocations)
                self._invocation(decorator)
                if len(self.invocations) > made:
                    self.invocations[-1] = dataclasses.replace(
                        self.invocations[-1], decorates=node.name
                    )

    def _added_methods(self, below: Sequence[ast.expr]) -> tuple[str, ...] | None:
        """The methods the library view decorators written below a route decorator (applied
        to the view before the route is made) add to it (`_VIEW_DECORATORS`); None when one's
        switch is computed, which leaves the route's methods not known."""
        added: list[str] = []
        for decorator in below:
            if type(decorator) is not ast.Call:
                continue
            assert isinstance(decorator, ast.Call)
            record = self._view_decorator(decorator.func)
            if record is None:
                continue
            switch = _keyword(decorator, record.unless) if record.unless else None
            if switch is not None and type(switch) is not ast.Constant:
                return None
            if switch is None or (type(switch) is ast.Constant and switch.value):
                added += [m for m in record.methods if m not in added]
        return tuple(added)

    def _view_decorator(self, func: ast.expr) -> ViewDecorator | None:
        """The record of the library decorator `func` names (`cross_origin` imported from
        `flask_cors`, or `flask_cors.cross_origin`), if any."""
        head: Expr | None = None
        if type(func) is ast.Name:
            assert isinstance(func, ast.Name)
            head = self.bindings.get(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            module = self.bindings.get(func.value.id)
            if isinstance(module, ImportRef) and module.attr is None:
                head = ImportRef(module.module, func.attr)
        if not (isinstance(head, ImportRef) and head.attr):
            return None
        package = head.module.split(".")[0]
        return _VIEW_DECORATORS.get((package, head.attr))

    def _decorator_route(
        self,
        decorator: ast.Call,
        handler: str | None,
        function: Auth,
        view: Expr | None = None,
        added: tuple[str, ...] | None = (),
    ) -> None:
        """`@app.route(path, ...)` on a def, or called as a function on a view
        (`app.route(rule)(view)`: `view` its endpoint); `added`: the methods library view
        decorators below it add (None: computed, so the methods are not known)."""
        assert isinstance(decorator.func, ast.Attribute)
        verb = decorator.func.attr
        path = self._path_expr(_argument(decorator, 0, "path") or _keyword(decorator, "rule"))
        if path is None:
            return
        own = self._dependencies_auth(_keyword(decorator, "dependencies"))
        fixed = (verb.upper(),) if verb in HTTP_METHODS else None
        if verb in _FIXED_METHODS:  # `@router.websocket(path)`: `WEBSOCKET /path`
            fixed = (_FIXED_METHODS[verb],)
        methods = None if fixed else _keyword(decorator, "methods")
        listed = fixed or _methods(methods, self.bindings)
        unknown = methods is not None and _methods(methods, self.bindings) is None
        # `methods=[verb]` of a factory's (or a wrapper's) parameter: bound per call
        computed = self._method_exprs(methods) if unknown else ()
        if not any(isinstance(e, Param) for e in computed):
            computed = ()  # another name (a class's constant): a finding, as before
        unknown = unknown and not computed
        if added and not unknown:  # `@cross_origin()` below: OPTIONS is the view's own
            written = listed or ("GET",)
            listed = (*written, *(m for m in added if m not in written))
        self.routes.append(
            RouteDecl(
                owner=self._owner(decorator.func.value),
                path=path,
                methods=listed,
                line=decorator.lineno,
                handler=handler,
                endpoint=view,
                auth=Auth(own.guards + function.guards, function.aliases),
                methods_unknown=unknown or added is None,
                method_exprs=computed,
                registered_with=verb,
            )
        )

    def _guard(self, owner: Expr, function: Expr | None) -> None:
        """A `before_request` function: judged like any guard once linked."""
        if function is not None:
            self.middleware.append(Middleware(owner, 0, Auth((function,))))


# returned values in which no name is read as a parameter or a local
# (a comparison or `not`, read as a flag, may test a parameter: `py_branches.flag`; so may
# `test and a or b`: `py_branches.and_or`)
_NAMELESS = frozenset({ast.Constant, ast.Dict, ast.Set,
                       ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp, ast.Lambda})  # fmt: skip
_BINDERS = frozenset({ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.FunctionDef,
                      ast.AsyncFunctionDef, ast.ClassDef})  # fmt: skip
_BLOCKS = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith})
_TRIES = frozenset({ast.Try, ast.TryStar})


@dataclasses.dataclass(slots=True)
class _Branched:
    """The module-level `if`s that assign names: by id of the `if`, the names; by id of the
    last statement written in it (as `_flatten` orders them), the `if`."""

    first: dict[int, list[str]] = dataclasses.field(default_factory=dict)
    last: dict[int, ast.If] = dataclasses.field(default_factory=dict)


def _branch_assigning(body: Sequence[ast.stmt]) -> _Branched:
    found = _Branched()
    for stmt in body:
        if type(stmt) is not ast.If:
            continue
        assert isinstance(stmt, ast.If)
        inner: list[ast.stmt] = []
        _flatten([stmt], inner, [], [])
        names = {
            target.id
            for each in inner
            for target in (
                each.targets if type(each) is ast.Assign else [getattr(each, "target", None)]
            )
            if type(each) in (ast.Assign, ast.AnnAssign) and type(target) is ast.Name
        }
        if names:
            found.first[id(stmt)] = sorted(names)
            found.last[id(inner[-1])] = stmt
    return found


def _returning(stmt: ast.If, name: str) -> ast.If:
    """`stmt` with each assignment of `name` in its branches made a `return` of the value."""

    def block(stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for each in stmts:
            if type(each) is ast.If:
                assert isinstance(each, ast.If)
                out.append(_returning(each, name))
            elif _assigns_name(each, name):
                out.append(ast.Return(each.value))  # type: ignore[attr-defined]
            else:
                out.append(each)
        return out

    return ast.If(stmt.test, block(stmt.body), block(stmt.orelse))


def _assigns_name(stmt: ast.stmt, name: str) -> bool:
    if type(stmt) is ast.Assign:
        assert isinstance(stmt, ast.Assign)
        return any(type(t) is ast.Name and t.id == name for t in stmt.targets)
    if type(stmt) is ast.AnnAssign:
        assert isinstance(stmt, ast.AnnAssign)
        target = stmt.target
        return stmt.value is not None and type(target) is ast.Name and target.id == name
    return False


def _number(node: ast.expr) -> Number | None:
    """`VERSION = 1.0`: a number a module binds (`Number`)."""
    if type(node) is ast.Constant and type(node.value) in (int, float):
        return Number(node.value)  # type: ignore[arg-type]
    return None


def _config_receivers(stmt: ast.stmt) -> list[ast.expr]:
    """The `x.config` a statement writes through: `x.config[k] = v`, `x.config.update(...)`."""
    if type(stmt) is ast.Assign:
        return [t.value for t in stmt.targets if type(t) is ast.Subscript]
    call = stmt.value if type(stmt) is ast.Expr else None
    if type(call) is ast.Call and type(call.func) is ast.Attribute:
        return [call.func.value]
    return []


def _flatten(
    body: Sequence[ast.stmt],
    out: list[ast.stmt],
    nested: list[ast.stmt],
    classes: list[ast.stmt],
) -> None:
    """Append the statements of a block to `out`, compound ones (`if`, `try`, `with`, `for`)
    opened; function definitions are put aside in `nested`, class bodies in `classes` (a
    conditional include or import still counts). Exact types, not isinstance: the reader
    calls this for every statement of every file, and `ast` node classes are never
    subclassed by the parser."""
    for stmt in body:
        out.append(stmt)
        kind = type(stmt)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            nested.append(stmt)  # its body is read later, as the function's scope
        elif kind is ast.ClassDef:
            classes.extend(stmt.body)  # type: ignore[attr-defined]
        elif kind in _BLOCKS:
            _flatten(stmt.body, out, nested, classes)  # type: ignore[attr-defined]
            orelse = getattr(stmt, "orelse", None)
            if orelse:
                _flatten(orelse, out, nested, classes)
        elif kind in _TRIES:
            assert isinstance(stmt, ast.Try | ast.TryStar)
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                _flatten(block, out, nested, classes)
            for handler in stmt.handlers:
                _flatten(handler.body, out, nested, classes)


_LITERAL_SEQUENCES = (ast.List, ast.Tuple, ast.Set, ast.Dict)
_MAX_ITERATIONS = 256  # a literal loop longer than this is not expanded (its routes unresolved)


def _module_literals(body: Sequence[ast.stmt]) -> dict[str, ast.expr]:
    """Module-level names bound once to a literal list, tuple, set or dict."""
    found: dict[str, ast.expr] = {}
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, _LITERAL_SEQUENCES)
        ):
            found[stmt.targets[0].id] = stmt.value
        elif (  # `MODES: dict[str, type[Base]] = {...}`
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(stmt.value, _LITERAL_SEQUENCES)
        ):
            found[stmt.target.id] = stmt.value
    return found


def _element(literal: ast.Dict | ast.Tuple | ast.List, key: object) -> ast.expr | None:
    """The value a literal dict has under the string `key`, or a literal tuple's element at
    the index `key`; None when it has none."""
    if isinstance(literal, ast.Dict):
        for k, v in zip(literal.keys, literal.values, strict=True):
            if type(key) is str and type(k) is ast.Constant and k.value == key:
                return v
        return None
    if type(key) is int and 0 <= key < len(literal.elts):
        element = literal.elts[key]
        return None if isinstance(element, ast.Starred) else element
    return None


class _EachOf(ast.expr):
    """A loop variable over the parameter `name`: each item its callers pass. `table`: over
    a module's own (or imported) name the file does not spell as a literal, dotted
    (`for entry in ROUTES:`, `for e in routes.API:`), which the linker reads across files;
    `rest`: each element from `index` on (`add_resource(*entry)`: the URLs after the view)."""

    _fields = ("name", "index", "table", "rest")

    def __init__(self, name: str, index: int = -1, table: bool = False, rest: bool = False) -> None:
        super().__init__()
        self.name, self.index, self.table, self.rest = name, index, table, rest


class _KeyOf(ast.expr):
    """The option `key` of a wrapper's `**spread` (the function at `site`): what each call
    passes by that name, or nothing (`Param.keyed`)."""

    _fields = ("site", "spread", "key")

    def __init__(self, site: str, spread: str, key: str) -> None:
        super().__init__()
        self.site, self.spread, self.key = site, spread, key


def _index_loops(
    body: Sequence[ast.stmt],
    envs: list[dict[str, ast.expr]],
    into: dict[int, list[dict[str, ast.expr]]],
    literals: dict[str, ast.expr],
    params: set[str],
    owner_class: str = "",
    function: _Def | None = None,
) -> None:
    """For each statement inside `for` loops over literals (`for p in ["/a", "/b"]`, `for k, v
    in {...}.items()`, or a module-level name bound to one), the values its loop variables take,
    one dict per iteration (nested loops multiply). Defs and classes start afresh."""
    for stmt in body:
        if envs != [{}]:  # inside a literal loop (an empty one runs no statement)
            into[id(stmt)] = envs
        if isinstance(stmt, ast.For):
            items = _iterations(stmt.iter, literals)
            inner = envs
            chosen = _chosen_iterations(stmt.iter, literals)
            if chosen is not None:  # `for u in ([a] if flag else [a, b])`: each branch's
                inner = []  # items, routes of each only where the test picks its branch
                for env in envs:
                    for item, mark in chosen:
                        bound = _bind_target(stmt.target, item)
                        if bound is None:
                            inner = envs
                            break
                        inner.append({**env, **bound, _CHOSEN: mark})
                    if inner is envs:
                        break
                if len(inner) > _MAX_ITERATIONS:
                    inner = envs
            elif (
                isinstance(stmt.iter, ast.Name)
                and stmt.iter.id in params
                and isinstance(stmt.target, ast.Name)
            ):
                each = _EachOf(stmt.iter.id)
                inner = [{**env, stmt.target.id: each} for env in envs]
            elif (
                isinstance(stmt.iter, ast.Name)
                and stmt.iter.id in params
                and isinstance(stmt.target, ast.Tuple)
                and all(isinstance(e, ast.Name) for e in stmt.target.elts)
            ):  # `for path, view in routes:`: each element of each item
                names = [e.id for e in stmt.target.elts]  # type: ignore[attr-defined]
                parts = {n: _EachOf(stmt.iter.id, i) for i, n in enumerate(names)}
                inner = [{**env, **parts} for env in envs]
            elif (stored := _stored_loop(stmt, owner_class)) is not None:
                inner = [{**env, **stored} for env in envs]
            elif items is not None:
                inner = []
                for env in envs:
                    for item in items:
                        bound = _bind_target(stmt.target, item)
                        if bound is None:
                            inner = envs
                            break
                        inner.append({**env, **bound})
                    if inner is envs:
                        break
                if len(inner) > _MAX_ITERATIONS:
                    inner = envs
            elif (table := _table_loop(stmt, function)) is not None:
                inner = [{**env, **table} for env in envs]
            more = (literals, params, owner_class, function)
            _index_loops(stmt.body, inner, into, *more)
            _index_loops(stmt.orelse, envs, into, *more)
        elif type(stmt) in _BLOCKS:
            more = (literals, params, owner_class, function)
            _index_loops(stmt.body, envs, into, *more)  # type: ignore[attr-defined]
            _index_loops(getattr(stmt, "orelse", None) or [], envs, into, *more)
        elif type(stmt) in _TRIES:
            assert isinstance(stmt, ast.Try | ast.TryStar)
            more = (literals, params, owner_class, function)
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                _index_loops(block, envs, into, *more)
            for handler in stmt.handlers:
                _index_loops(handler.body, envs, into, *more)


def _table_loop(stmt: ast.For, function: _Def | None) -> dict[str, ast.expr] | None:
    """`for entry in ROUTES:` (or `for path, view in routes.TABLE:`) over a module's name
    that is neither a literal here nor a parameter nor a local of `function`: each loop
    name, the item (or its element) of that table, which the linker reads where the name is
    bound (in another file for an import). None for any other loop."""
    source, view = stmt.iter, ""
    if (
        isinstance(source, ast.Call)
        and isinstance(source.func, ast.Attribute)
        and source.func.attr in DICT_VIEWS
        and not source.args
        and not source.keywords
    ):  # `for at, app in plugins.APPS.items():` a dict's pairs (values), read where bound
        view = DICT_VIEWS[source.func.attr]
        source = source.func.value
    path = _dotted_path(source)
    if (  # `for module in get_submodules():` what a project function returns, read there
        path
        and path[-1] == CALL
        and CALL not in path[:-1]
        and isinstance(source, ast.Call)
        and not source.args
        and not source.keywords
    ):
        path = path[:-1]
        view = f"{view}()" if view else "()"
    dotted = ".".join(path) if path and CALL not in path else None
    if dotted is not None and view:
        dotted = f"{dotted}.{view}"
    if dotted is None or (function is not None and _assigns(function, dotted.split(".")[0])):
        return None
    target = stmt.target
    if isinstance(target, ast.Name):
        return {target.id: _EachOf(dotted, table=True)}
    if isinstance(target, ast.Tuple | ast.List) and all(
        isinstance(e, ast.Name | ast.Starred) for e in target.elts
    ):
        bound: dict[str, ast.expr] = {}
        for n, e in enumerate(target.elts):  # `for rule, view, *_ in T:` the names before `*`
            if not isinstance(e, ast.Name):
                break
            bound[e.id] = _EachOf(dotted, n, table=True)
        return bound
    return None


def _unplaced(call: ast.Call, name: str) -> bool:
    """Whether a spread left unbound hides what the call registers: one in the path's place
    (`add_resource`'s view's), or `**kwargs` where the path is not passed otherwise. One after
    the path (`add_url_rule(rule, view_func=v, *args, **kwargs)`, options passed on) and
    `add_resource(view, *urls)` are read as before."""
    star = next((n for n, a in enumerate(call.args) if type(a) is ast.Starred), None)
    if star == 0:  # the path (the view for `add_resource`) itself spread
        return name == "add_resource" or not any(k.arg in {"rule", "path"} for k in call.keywords)
    if not any(k.arg is None for k in call.keywords):
        return False
    if name == "add_resource":  # `add_resource(**spec)`: the view and URLs out of sight
        return not call.args
    keyword = _MOUNT_KEYWORDS.get(name, "path")
    return not call.args and all(k.arg not in {keyword, "rule", "path"} for k in call.keywords)


_MOUNT_KEYWORDS = {"include_router": "router", "register_blueprint": "blueprint", "mount": "app"}


def _spreads(call: ast.Call) -> bool:
    return any(type(a) is ast.Starred for a in call.args) or any(
        k.arg is None for k in call.keywords
    )


def _assigns(function: _Def, name: str) -> bool:
    """Whether `function` binds `name` itself (a parameter, an assignment, a loop, an
    import; nested defs count too): then a loop over it is not over the module's name."""
    if name in _parameters(function):
        return True
    return any(
        (isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load))
        or (isinstance(n, ast.alias) and (n.asname or n.name).split(".")[0] == name)
        for n in ast.walk(function)
    )


class _StoredOf(ast.expr):
    """A loop variable over a list the instance keeps (`for m, p, h in self.entries`)."""

    _fields = ("owner_class", "attr", "index")

    def __init__(self, owner_class: str, attr: str, index: int) -> None:
        super().__init__()
        self.owner_class, self.attr, self.index = owner_class, attr, index


def _stored_loop(stmt: ast.For, owner_class: str) -> dict[str, ast.expr] | None:
    """`for method, path, view in self.entries:` in a method: each name, the element it takes
    of what the class's methods append to `entries`."""
    source = stmt.iter
    if not (
        owner_class
        and isinstance(source, ast.Attribute)
        and isinstance(source.value, ast.Name)
        and source.value.id == "self"
    ):
        return None
    target = stmt.target
    if isinstance(target, ast.Name):
        return {target.id: _StoredOf(owner_class, source.attr, -1)}
    if isinstance(target, ast.Tuple | ast.List) and all(
        isinstance(e, ast.Name) for e in target.elts
    ):
        return {
            e.id: _StoredOf(owner_class, source.attr, n)
            for n, e in enumerate(target.elts)
            if isinstance(e, ast.Name)
        }
    return None


_CHOSEN = " chosen"  # a loop environment's key (no name) for the branch its items come from
_LOCAL_TABLES = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.IfExp)


class _ChosenBy(ast.expr):
    """The items of one branch of `A if test else B` a loop runs over: what is registered
    with them is served only where `test` picks that branch (`in_else`: B)."""

    _fields = ("test", "in_else")

    def __init__(self, test: ast.expr, in_else: bool) -> None:
        super().__init__()
        self.test, self.in_else = test, in_else


def _chosen_iterations(
    node: ast.expr, literals: dict[str, ast.expr]
) -> list[tuple[ast.expr, _ChosenBy]] | None:
    """The items of a loop over `A if test else B` (or a name bound to one), both literal
    sequences, each with the branch it belongs to; None for any other loop."""
    if isinstance(node, ast.Name):
        node = literals.get(node.id, node)
    if not isinstance(node, ast.IfExp):
        return None
    then = _iterations(node.body, {})
    otherwise = _iterations(node.orelse, {})
    if then is None or otherwise is None:
        return None
    return [(item, _ChosenBy(node.test, False)) for item in then] + [
        (item, _ChosenBy(node.test, True)) for item in otherwise
    ]


def _iterations(node: ast.expr, literals: dict[str, ast.expr]) -> list[ast.expr] | None:
    """The items a loop over `node` takes, when `node` is a literal (or names one)."""
    method = None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and not node.args
        and node.func.attr in {"items", "keys", "values"}
    ):
        method, node = node.func.attr, node.func.value
    if isinstance(node, ast.Name):
        node = literals.get(node.id, node)
    if isinstance(node, ast.Dict):
        if None in node.keys:
            return None
        keys = [k for k in node.keys if k is not None]
        if method == "values":
            items: list[ast.expr] = list(node.values)
        elif method == "items":
            items = [
                ast.Tuple(elts=[k, v], ctx=ast.Load())
                for k, v in zip(keys, node.values, strict=True)
            ]
        else:
            items = keys
    elif isinstance(node, ast.List | ast.Tuple | ast.Set) and method is None:
        items = list(node.elts)
    else:
        return None
    if len(items) > _MAX_ITERATIONS or any(isinstance(i, ast.Starred) for i in items):
        return None
    return items


def _bind_target(target: ast.expr, item: ast.expr) -> dict[str, ast.expr] | None:
    if isinstance(target, ast.Name):
        return {target.id: item}
    if (
        isinstance(target, ast.Tuple | ast.List)
        and isinstance(item, ast.Tuple | ast.List)
        and len(target.elts) == len(item.elts)
    ):
        bound: dict[str, ast.expr] = {}
        for sub, value in zip(target.elts, item.elts, strict=True):
            inner = _bind_target(sub, value)
            if inner is None:
                return None
            bound.update(inner)
        return bound
    return None


def _optional_guard(call: ast.Call) -> bool:
    """`HTTPBearer(auto_error=False)`, `jwt_required(optional=True)`: lets anonymous through."""
    if not call.keywords:  # most calls: neither keyword to look for
        return False
    auto_error = _keyword(call, "auto_error")
    optional = _keyword(call, "optional")
    return (isinstance(auto_error, ast.Constant) and auto_error.value is False) or (
        isinstance(optional, ast.Constant) and optional.value is True
    )


def _made_router(value: ast.expr, defaults: dict[str, ast.expr]) -> tuple[ast.Call | None, str]:
    """The call that makes what `value` stores when no router is passed in, and the name
    that, passed, is stored instead ("" if none): `router or APIRouter()`, `router if router
    else APIRouter()`, `APIRouter() if router is None else router`, a parameter whose
    default is the call, or the call itself."""
    given: ast.expr | None = None
    if type(value) is ast.BoolOp and isinstance(value.op, ast.Or) and len(value.values) == 2:
        given, value = value.values
    elif type(value) is ast.IfExp:
        test = value.test
        if type(test) is ast.Compare and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is):
            given, value = value.orelse, value.body  # `APIRouter() if r is None else r`
        else:
            given, value = value.body, value.orelse
    elif type(value) is ast.Name and value.id in defaults:
        given, value = value, defaults[value.id]
    param = given.id if type(given) is ast.Name else ""
    return (value if type(value) is ast.Call else None), param


def _none_defaults(function: _Def) -> tuple[str, ...]:
    """The parameters of `function` whose default is `None`."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
    ]
    return tuple(a.arg for a, d in pairs if isinstance(d, ast.Constant) and d.value is None)


def _kwargs_prefix(function: _Def, call: ast.Call) -> ast.expr | None:
    """The prefix a constructor puts in the `**kwargs` it passes on to `super().__init__`
    (`kwargs.setdefault("url_prefix", ...)`, `kwargs["prefix"] = ...`), if it does."""
    spread = next(
        (k.value.id for k in call.keywords if k.arg is None and isinstance(k.value, ast.Name)),
        None,
    )
    if spread is None:
        return None
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "setdefault"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == spread
            and len(node.args) == 2
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in ("prefix", "url_prefix")
        ):
            return node.args[1]
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(target := node.targets[0], ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == spread
            and isinstance(target.slice, ast.Constant)
            and target.slice.value in ("prefix", "url_prefix")
        ):
            return node.value
    return None


def _super_init(function: _Def) -> ast.Call | None:
    """The `super().__init__(...)` call a constructor makes as a statement."""
    for stmt in function.body:
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr == "__init__"
            and isinstance(stmt.value.func.value, ast.Call)
            and _callee_name(stmt.value.func.value) == "super"
        ):
            return stmt.value
    return None


def _value_returns(body: list[ast.stmt]) -> list[ast.Return]:
    """Every `return <value>` of a function body but `return None`, nested functions and
    classes aside, in the order `_flatten` reads statements: a function whose returns differ
    returns one of them, which one decided when it runs. Most bodies end in a plain `return`
    before any compound statement, so that case costs no flattening."""
    for stmt in body:
        kind = type(stmt)
        if kind is ast.Return and stmt.value is not None:  # type: ignore[attr-defined]
            return [] if _is_none(stmt.value) else [stmt]  # type: ignore[attr-defined,list-item]
        if kind in _BLOCKS or kind in _TRIES:
            flat: list[ast.stmt] = []
            _flatten(body, flat, [], [])
            return [
                s
                for s in flat
                if isinstance(s, ast.Return) and s.value is not None and not _is_none(s.value)
            ][:_MAX_RETURNS]
    return []


_MAX_RETURNS = 16  # the returns of one function read as its options


def _is_none(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value is None


def _methods(
    node: ast.expr | None, bindings: dict[str, Expr] | None = None
) -> tuple[str, ...] | None:
    """The verbs of a literal `methods=[...]`: strings, or members of the standard library's
    `http.HTTPMethod` (a StrEnum whose values are its members' names) where `bindings` (the
    module's) show it imported."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    methods = []
    for e in node.elts:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            methods.append(e.value.upper())
        elif bindings is not None and (verb := _http_method_member(e, bindings)):
            methods.append(verb)
    return tuple(methods) if methods else None


_HTTP_METHOD_ENUM = ImportRef("http", "HTTPMethod")


def _http_method_member(node: ast.expr, bindings: dict[str, Expr]) -> str | None:
    """`HTTPMethod.GET` (`from http import HTTPMethod`, under any name) or `http.HTTPMethod.GET`
    (`import http`): the verb, when it is one."""
    if not isinstance(node, ast.Attribute) or node.attr.lower() not in HTTP_METHODS:
        return None
    enum = node.value
    if isinstance(enum, ast.Name):
        named = bindings.get(enum.id) == _HTTP_METHOD_ENUM
    else:
        named = (
            isinstance(enum, ast.Attribute)
            and enum.attr == "HTTPMethod"
            and isinstance(enum.value, ast.Name)
            and bindings.get(enum.value.id) == ImportRef("http", None)
        )
    return node.attr if named and node.attr.isupper() else None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return _keyword(call, keyword)


def _keyword(call: ast.Call, name: str | None) -> ast.expr | None:
    for keyword in call.keywords:  # a loop, not `next(...)` of a generator: called per call
        if keyword.arg == name:
            return keyword.value
    return None


def _route_decorator(node: ast.expr) -> bool:
    """`@app.get(...)`, `@bp.route(...)`, `@router.api_route(...)`: not auth evidence."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _ROUTE_DECORATORS
    )


# Decorators that register a function with an app rather than wrap it (`@app.before_request`).
_REGISTRATIONS = frozenset({"before_request", "before_app_request", "after_request",
                            "teardown_request", "errorhandler", "app_errorhandler",
                            "context_processor", "on_event", "middleware",
                            "exception_handler"})  # fmt: skip


def _registration(node: ast.expr) -> bool:
    while isinstance(node, ast.Call):
        node = node.func
    return isinstance(node, ast.Attribute) and node.attr in _REGISTRATIONS


def _is_method_call(node: ast.expr | None, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    )


def _getattr_call(node: ast.expr) -> bool:
    """`getattr(router, verb)` with exactly those two arguments."""
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and node.func.id == "getattr"
        and len(node.args) == 2
        and not node.keywords
    )


def _has_if(body: Sequence[ast.stmt]) -> bool:
    """Whether a block holds an `if` (at any depth of its statements, never its defs)."""
    for stmt in body:
        kind = type(stmt)
        if kind is ast.If:
            return True
        if (kind in _BLOCKS or kind in _TRIES) and _has_if(_inner_blocks(stmt)):
            return True
    return False


def _inner_blocks(stmt: ast.stmt) -> list[ast.stmt]:
    """The statements a compound statement (not a def) holds, every branch of it."""
    inner: list[ast.stmt] = []
    for block in ("body", "orelse", "finalbody"):
        inner += getattr(stmt, block, None) or []
    for handler in getattr(stmt, "handlers", None) or []:
        inner += handler.body
    return inner


def _enclosing_tests(
    body: Sequence[ast.stmt],
    around: tuple[tuple[ast.expr, bool], ...] = (),
    found: dict[int, tuple[tuple[ast.expr, bool], ...]] | None = None,
) -> dict[int, tuple[tuple[ast.expr, bool], ...]]:
    """The statements of a block (a module's, a def's; at any depth, defs excepted: their
    bodies are their own) written under an `if`, by id, with every test they depend on,
    outermost first, each with whether they are in its `else`: a route or mount there is
    registered only when all hold. Statements only, never every node."""
    found = {} if found is None else found
    for stmt in body:
        if around:
            found[id(stmt)] = around
        kind = type(stmt)
        if kind is ast.If:
            assert isinstance(stmt, ast.If)
            _enclosing_tests(stmt.body, (*around, (stmt.test, False)), found)
            _enclosing_tests(stmt.orelse, (*around, (stmt.test, True)), found)
        elif kind in _BLOCKS or kind in _TRIES:
            _enclosing_tests(_inner_blocks(stmt), around, found)
    return found


def _all_of(conditions: list[Condition]) -> Condition | None:
    """One condition holding where all of `conditions` do (JavaScript's `&&`, as the linker
    reads `Condition.parts`); None for none."""
    if len(conditions) < 2:
        return conditions[0] if conditions else None
    text = " and ".join(f"not ({c.text})" if c.in_else else c.text for c in conditions)
    return Condition(Opaque(), None, False, text, op="&&", parts=tuple(conditions))


_ENVIRON_READERS = frozenset({"getenv", "get", "config", "str", "int", "bool"})
# a configuration library's reader classes, by the dotted name they are imported as
_CONFIG_CLASS_LIBRARY = {
    ("decouple", "AutoConfig"): "decouple",
    ("decouple", "Config"): "decouple",
    ("environ", "Env"): "django-environ",
    ("environ", "environ", "Env"): "django-environ",
    ("environs", "Env"): "environs",
}
_CONFIG_LIBRARIES = frozenset(path[0] for path in _CONFIG_CLASS_LIBRARY)
_CASTS = {"str": "str", "int": "int", "bool": "bool"}  # a typed reader (`env.str`) or a cast
# str methods whose result on a literal (a configuration's default) is worked out
_STR_METHODS = frozenset(
    {
        "strip",
        "lstrip",
        "rstrip",
        "lower",
        "upper",
        "casefold",
        "removeprefix",
        "removesuffix",
        "replace",
    }
)


@dataclasses.dataclass(frozen=True, slots=True)
class _ConfigRead:
    """One environment variable a call reads: `source` names it in `attrs.configDefault`,
    `default` as written (None: none), `cast` how the default is converted (`"str"`: kept,
    `"int"`, `"bool"`; None: a cast not followed)."""

    source: str
    key: str
    default: ast.expr | None
    cast: str | None


_ENVIRON_NAME = re.compile(r"getenv|environ")


def _environ_path(head: Expr | None, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """`path` spelled from the module `os` (`os.getenv`, `environ.get` with `environ` imported
    from `os`) when it is one of the standard library's environment readers; else None."""
    if type(head) is not ImportRef:
        return None
    assert isinstance(head, ImportRef)
    full = (head.module, *((head.attr,) if head.attr else ()), *path[1:])
    return full if full in (("os", "getenv"), ("os", "environ", "get")) else None


def _no_parameters(node: _Def) -> bool:
    arguments = node.args
    return not (
        arguments.args
        or arguments.posonlyargs
        or arguments.kwonlyargs
        or arguments.vararg
        or arguments.kwarg
    )


def _last(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def _callee_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _got_with_default(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """`table.get(key, default)`: the table and the default."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and len(node.args) == 2
        and not node.keywords
    ):
        return node.func.value, node.args[1]
    return None


# str methods a prefix is normalised with in a helper (`value.strip("/")`)
_HELPER_STR_METHODS = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "removeprefix", "removesuffix"}
)


def _dotted_path(node: ast.expr | None) -> tuple[str, ...] | None:
    """`a.b().c` → ("a", "b", "()", "c"); None for anything but names, attributes and calls.
    Read from the outside in, the segments gathered backwards: one tuple made, not one per
    segment (it runs for most expressions of every file)."""
    segments: list[str] = []
    while True:
        kind = type(node)
        if kind is ast.Name:
            segments.append(node.id)  # type: ignore[union-attr]
            break
        if kind is ast.Attribute:
            segments.append(node.attr)  # type: ignore[union-attr]
            node = node.value  # type: ignore[union-attr]
        elif kind is ast.Call:
            segments.append(CALL)
            node = node.func  # type: ignore[union-attr]
        else:
            return None
    segments.reverse()
    return tuple(segments)


def _dotted(node: ast.expr | None) -> str | None:
    """The name a handler or dependency is written as: `users.list_users`, `get_current_user`
    (a call stands for its callee: `Depends(RoleChecker(...))` names `RoleChecker`)."""
    while isinstance(node, ast.Call):
        node = node.func
    path = _dotted_path(node)
    return ".".join(path) if path else None


def _evidence_lines(source: str, pattern: re.Pattern[str], heads: tuple[str, ...]) -> list[int]:
    """The lines (ascending) where the source matches `pattern` (401/403, `is_authenticated`),
    each match starting with one of `heads` (`heads.literal_heads`)."""
    lines: list[int] = []
    if not search_gated(pattern, heads, source):  # most files: a few scans, no line counting
        return lines
    line, counted = 1, 0
    for match in pattern.finditer(source):
        line += source.count("\n", counted, match.start())
        counted = match.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _plain(value: ast.FormattedValue) -> bool:
    return value.conversion == -1 and value.format_spec is None


def _site(node: ast.expr | ast.stmt) -> str:
    return f"{node.lineno}:{node.col_offset}"


def _defaults(function: _Def) -> dict[str, ast.expr]:
    """A def's parameters that have a default -> that default."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    found = {
        a.arg: d
        for a, d in zip(
            positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True
        )
    }
    found.update(
        (a.arg, d)
        for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
        if d is not None
    )
    return found


def _parameters(function: _Def) -> dict[str, tuple[str, int]]:
    """A def's parameter names -> (its site, the position a call passes it at; -1 for a
    keyword-only one)."""
    arguments = function.args
    site = _site(function)
    positional = (*arguments.posonlyargs, *arguments.args)
    found = {a.arg: (site, n) for n, a in enumerate(positional)}
    found.update((a.arg, (site, -1)) for a in arguments.kwonlyargs)
    if arguments.vararg is not None:  # `*rules`: what a call passes from its position on
        found[arguments.vararg.arg] = (site, VARARGS - len(positional))
    return found


_PASSABLE = (Lit, Concat, Format, Apply, Sym, Param, RouterRef, ImportRef, Items, FlaskConfigRead)
_ITEM_VALUES = (*_PASSABLE, Namespace)  # a table's items: also records (`{"prefix": ...}`)


def _settings_base(base: Expr, bindings: dict[str, Expr]) -> bool:
    """pydantic's `BaseSettings` (v1's `pydantic`, v2's `pydantic_settings`), imported."""
    if isinstance(base, Sym) and len(base.path) == 1:
        base = bindings.get(base.path[0], base)
    elif isinstance(base, Sym) and len(base.path) == 2:
        module = bindings.get(base.path[0])
        if isinstance(module, ImportRef) and module.attr is None:
            base = ImportRef(module.module, base.path[1])
    return (
        isinstance(base, ImportRef)
        and base.attr == "BaseSettings"
        and base.module in {"pydantic", "pydantic_settings"}
    )


def _guarded(function: _Def) -> bool:
    """Whether a top-level `if` of `function` returns None or raises (`if not FLAG: return
    None`): its test still decides whether the value is the one returned after it."""
    return any(
        type(stmt) is ast.If
        and any(
            type(inner) is ast.Raise
            or (type(inner) is ast.Return and (inner.value is None or _is_none(inner.value)))
            for inner in stmt.body
        )
        for stmt in function.body
    )


def _branch_assigned(function: _Def) -> bool:
    """Whether a top-level `if` of `function` assigns a name its last statement returns
    (`if not X: prefix = "/v2"` / `else: prefix = "/v1"` / `return prefix + rule`): its one
    `return` then has a value per branch."""
    last = function.body[-1]
    if type(last) is not ast.Return or last.value is None:
        return False
    ifs = [stmt for stmt in function.body if type(stmt) is ast.If]
    if not ifs:
        return False
    read = {n.id for n in ast.walk(last.value) if isinstance(n, ast.Name)}
    pending: list[ast.stmt] = list(ifs)
    while pending:  # statements only: an expression assigns nothing here
        stmt = pending.pop()
        kind = type(stmt)
        if kind is ast.Assign:
            targets = stmt.targets  # type: ignore[attr-defined]
            if any(type(t) is ast.Name and t.id in read for t in targets):
                return True
        elif kind is ast.AugAssign or kind is ast.AnnAssign:
            target = stmt.target  # type: ignore[attr-defined]
            if type(target) is ast.Name and target.id in read:
                return True
        elif kind is ast.If:
            pending += stmt.body + stmt.orelse  # type: ignore[attr-defined]
    return False


def _instance_given(init: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, str], ...]:
    """`self.app = app` at the top of `__init__`: (attribute, parameter) for each attribute
    the constructor stores a parameter of its own in as it is given, so a method reading
    `self.app` reads what each `Cls(app)` passes (an attribute assigned twice: neither)."""
    params = {a.arg for a in [*init.args.posonlyargs, *init.args.args][1:]}
    params |= {a.arg for a in init.args.kwonlyargs}
    found: dict[str, str | None] = {}
    for stmt in init.body:
        if not isinstance(stmt, ast.Assign):
            continue
        value = stmt.value
        for target in stmt.targets:
            if not (
                isinstance(target, ast.Attribute)
                and type(target.value) is ast.Name
                and target.value.id == "self"
            ):
                continue
            given = value.id if type(value) is ast.Name and value.id in params else None
            found[target.attr] = None if target.attr in found else given
    return tuple((attr, param) for attr, param in found.items() if param is not None)


def _routerish(value: Expr | None) -> Expr | None:
    """`value` when it may turn out to be a router once linked, else None."""
    return value if isinstance(value, Sym | Param | RouterRef | ImportRef) else None
