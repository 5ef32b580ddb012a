"""A router subclass that overrides the method every route of the framework passes through
(FastAPI: `get`/`post`/... call `self.api_route(path=...)`, whose decorator calls
`self.add_api_route(path, ...)`; Flask: `get`/`post`/... call `self.route(rule, ...)`, which
calls `self.add_url_rule(rule, ...)`). The override is the project's code, so each route of an
instance of the subclass is registered at the paths its body hands the base method
(`super().api_route(path, ...)`, once or more, the path changed first: `path[:-1]` under
`if path.endswith("/")`, `path + "/"`).

The reader keeps each override's text (`overrides`, in `Namespace.overrides`); the linker
runs it on each route's path (`rewritten`) with a small interpreter over the constructs such
an override uses: string literals, `+`, f-strings, constant slices, `len`, `endswith`,
`startswith`, `strip`/`rstrip`/`lstrip`/`lower`, comparisons, `and`/`or`/`not`, `if`/`else`,
assignments, nested defs (a decorator run once per route); the path handed on to `super()`'s
method or to the next method of the chain on `self` (`route` calling `self.add_url_rule(rule,
...)`). Anything else (a loop, a call it does not know feeding the path, the method calling
itself) leaves the paths not known: None, a finding at each route, listed as written."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .model import FASTAPI, FLASK, HTTP_METHODS

# a route decorator's name, or a router's method handed to a helper (`guarded(router.get, p)`)
PASSED_METHOD = "(a method passed)"
_DECORATED = frozenset({*HTTP_METHODS, "route", "api_route", PASSED_METHOD})

# per framework, the methods a route made by each registration passes through, outermost first
CHAINS: dict[str, dict[str, tuple[str, ...]]] = {
    FASTAPI: {"add_api_route": ("add_api_route",), "": ("api_route", "add_api_route")},
    FLASK: {"add_url_rule": ("add_url_rule",), "": ("route", "add_url_rule")},
}
OVERRIDABLE = frozenset(name for chains in CHAINS.values() for c in chains.values() for name in c)
_MAX_STEPS = 200  # statements run per override and route: an override is a few lines


def overrides(node: ast.ClassDef) -> tuple[tuple[str, str], ...]:
    """The class's own definitions of a registration method: (name, the def's text)."""
    return tuple(
        (stmt.name, ast.unparse(stmt))
        for stmt in node.body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name in OVERRIDABLE
    )


def chain(framework: str, registered_with: str) -> tuple[str, ...]:
    """The overridable methods a route registered with `registered_with` (a decorator's name,
    or `add_api_route`/`add_url_rule`) passes through, outermost first."""
    chains = CHAINS.get(framework, {})
    if registered_with in chains:
        return chains[registered_with]
    return chains.get("", ()) if registered_with in _DECORATED else ()


class _NotRead(Exception):
    """A construct the interpreter does not evaluate: the paths are not known."""


class _Run:
    """One run of an override's body for one path: the paths handed to the base method."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.paths: list[str] = []
        self.steps = 0

    def block(self, body: Sequence[ast.stmt], env: dict[str, object]) -> bool:
        """Run `body`; True once a `return` ends it."""
        for stmt in body:
            self.steps += 1
            if self.steps > _MAX_STEPS:
                raise _NotRead
            if self.statement(stmt, env):
                return True
        return False

    def statement(self, stmt: ast.stmt, env: dict[str, object]) -> bool:
        if isinstance(stmt, ast.If):
            try:
                chosen = stmt.body if self.truth(stmt.test, env) else stmt.orelse
            except _NotRead:  # a test not evaluated (`isinstance(view, ...)`): both branches,
                return self.either(stmt, env)  # which must hand on the same paths
            return self.block(chosen, env)
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self.block(stmt.body, dict(env))  # a decorator it returns: run once per route
            return False
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = self.value(stmt.value, env)
            for target in targets:
                if not isinstance(target, ast.Name):
                    raise _NotRead
                env[target.id] = value
            return False
        if isinstance(stmt, ast.Expr):
            self.value(stmt.value, env)
            return False
        if isinstance(stmt, ast.Return):
            if stmt.value is not None:
                self.value(stmt.value, env)
            return True
        if isinstance(stmt, ast.Pass):
            return False
        raise _NotRead

    def either(self, stmt: ast.If, env: dict[str, object]) -> bool:
        """An `if` whose test is not evaluated: run each branch; the paths they hand on, the
        names they leave and whether they return must agree, else what runs is not known."""
        before = list(self.paths)
        ran: list[tuple[list[str], bool, dict[str, object]]] = []
        for branch in (stmt.body, stmt.orelse):
            self.paths = list(before)
            local = dict(env)
            ended = self.block(branch, local)
            ran.append((self.paths, ended, local))
        (paths, ended, local), (other_paths, other_ended, other_local) = ran
        if paths != other_paths or ended != other_ended or local != other_local:
            raise _NotRead
        self.paths = paths
        env.update(local)
        return ended

    def truth(self, node: ast.expr, env: dict[str, object]) -> bool:
        value = self.value(node, env)
        if not isinstance(value, str | int | bool):
            raise _NotRead
        return bool(value)

    def value(self, node: ast.expr, env: dict[str, object]) -> object:
        """What `node` evaluates to: a string, an int or a bool the path depends on; `None`
        for a value nothing reads as a path (a decorator, a call's result); `_NotRead` raised
        where the path would depend on what is not evaluated."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env.get(node.id)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left, env), self.value(node.right, env)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            if type(left) is int and type(right) is int:
                return left + right
            raise _NotRead
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand, env)
            if type(inner) is not int:
                raise _NotRead
            return -inner
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.truth(node.operand, env)
        if isinstance(node, ast.BoolOp):
            return self.bool_op(node, env)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return _compare(
                node.ops[0], self.value(node.left, env), self.value(node.comparators[0], env)
            )
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.slice(node, env)
        if isinstance(node, ast.JoinedStr):
            parts = [self.value(v, env) for v in node.values]
            if not all(isinstance(p, str) for p in parts):
                raise _NotRead
            return "".join(str(p) for p in parts)
        if isinstance(node, ast.FormattedValue) and node.format_spec is None:
            inner = self.value(node.value, env)
            if not isinstance(inner, str) or node.conversion not in (-1, ord("s")):
                raise _NotRead
            return inner
        if isinstance(node, ast.List | ast.Tuple | ast.Dict | ast.Attribute):
            return None  # options passed on (`dependencies=[...]`): no path
        raise _NotRead

    def bool_op(self, node: ast.BoolOp, env: dict[str, object]) -> bool:
        if isinstance(node.op, ast.And):
            return all(self.truth(v, env) for v in node.values)
        return any(self.truth(v, env) for v in node.values)

    def slice(self, node: ast.Subscript, env: dict[str, object]) -> str:
        text = self.value(node.value, env)
        bounds = node.slice
        assert isinstance(bounds, ast.Slice)
        parts = [None if b is None else self.value(b, env) for b in (bounds.lower, bounds.upper)]
        if not isinstance(text, str) or bounds.step is not None:
            raise _NotRead
        if not all(p is None or type(p) is int for p in parts):
            raise _NotRead
        lower, upper = (p if type(p) is int else None for p in parts)
        return text[lower:upper]

    def call(self, node: ast.Call, env: dict[str, object]) -> object:
        """`super().<registration>(path, ...)`: a path handed to the base method; a string
        method or `len`; a nested def called (`add_path(func)`): nothing more registered."""
        func = node.func
        if isinstance(func, ast.Attribute) and (
            _is_super(func.value) or (_is_self(func.value) and func.attr != self.name)
        ):  # `self.add_url_rule(rule, ...)` from `route`: the next method of the chain
            if func.attr not in OVERRIDABLE:
                raise _NotRead
            given = node.args[0] if node.args else _keyword(node, ("path", "rule"))
            path = self.value(given, env) if given is not None else None
            if not isinstance(path, str):
                raise _NotRead
            self.paths.append(path)
            return None
        if isinstance(func, ast.Name) and func.id == "len" and len(node.args) == 1:
            text = self.value(node.args[0], env)
            if not isinstance(text, str):
                raise _NotRead
            return len(text)
        if isinstance(func, ast.Attribute) and func.attr in _STRING_METHODS:
            return self.string_method(func, node, env)
        if isinstance(func, ast.Name) and env.get(func.id) is None:
            return None  # a decorator the override made (`add_path(func)`), or a helper's
        if isinstance(func, ast.Attribute) and func.attr in OVERRIDABLE:
            raise _NotRead  # `self.add_api_route(...)`: registered around the base
        return None

    def string_method(self, func: ast.Attribute, node: ast.Call, env: dict[str, object]) -> object:
        text = self.value(func.value, env)
        args = [self.value(a, env) for a in node.args]
        if not isinstance(text, str) or node.keywords or not all(isinstance(a, str) for a in args):
            raise _NotRead
        texts = [str(a) for a in args]
        if func.attr in {"endswith", "startswith"} and len(texts) == 1:
            return getattr(text, func.attr)(texts[0])
        if func.attr in {"strip", "rstrip", "lstrip"} and len(texts) <= 1:
            return getattr(text, func.attr)(*texts)
        if func.attr == "lower" and not texts:
            return text.lower()
        raise _NotRead


_STRING_METHODS = frozenset({"endswith", "startswith", "strip", "rstrip", "lstrip", "lower"})


def _compare(op: ast.cmpop, left: object, right: object) -> bool:
    if not (isinstance(left, str | int) and type(left) is type(right)):
        raise _NotRead
    if isinstance(op, ast.Eq):
        return left == right
    if isinstance(op, ast.NotEq):
        return left != right
    if type(left) is not int or type(right) is not int:
        raise _NotRead
    compared = {ast.Gt: left > right, ast.Lt: left < right, ast.GtE: left >= right}
    compared[ast.LtE] = left <= right
    if type(op) not in compared:
        raise _NotRead
    return compared[type(op)]


def _is_super(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _keyword(call: ast.Call, names: tuple[str, ...]) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg in names), None)


def rewritten(source: str, path: str) -> tuple[str, ...] | None:
    """The paths the override (a def's text) hands the base method for a route at `path`,
    in order; None when its body is not evaluated (or hands it none: the route would not be
    served as written, which the scan cannot tell)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    positional = [*function.args.posonlyargs, *function.args.args]
    if len(positional) < 2:
        return None
    run = _Run(function.name)
    try:
        run.block(function.body, {positional[1].arg: path})
    except _NotRead:
        return None
    return tuple(run.paths) or None
