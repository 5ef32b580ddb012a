"""A computed `__tablename__`, evaluated from source for one class name, never run.

Real code names tables with a `@declared_attr` (or a class-body expression) that turns the class
name into the table name: `cls.__name__.lower()`, a snake_case conversion by `re.sub` or by a
loop, a plural suffix, a helper function of the same or another scanned module. This module is
a tiny interpreter for exactly that: strings, ints, bools, lists and tuples; str methods that
only compute (`lower`, `replace`, `join`, …); `re.sub`/`split`/`findall` (and a module-level
`re.compile`) with literal patterns that cannot backtrack without bound; comprehensions, `if`,
`for`, assignments, f-strings and calls to visible helpers. Anything else — another library, an
attribute of `cls` other than its name, a `while` — stops the evaluation with `NotEvaluated`
saying what was not known, which the pack reports as a `COMPUTED_TABLENAME` finding.

Every step is counted and every string and list capped, so no input can make the pack spin.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MAX_STEPS = 20_000
MAX_LENGTH = 4_096  # characters of a string, items of a list
MAX_CALL_DEPTH = 8
MAX_PATTERN = 200
# A quantified group — `(a+)+`, `(?:x|y)*` — is what makes a regex backtrack without bound;
# class names are short, so any pattern without one runs in bounded time.
_QUANTIFIED_GROUP = re.compile(r"\)[*+?{]")

STR_METHODS = frozenset(
    {
        "lower", "upper", "casefold", "capitalize", "title", "swapcase", "strip", "lstrip",
        "rstrip", "replace", "split", "rsplit", "join", "startswith", "endswith",
        "removeprefix", "removesuffix", "isupper", "islower", "isdigit", "isalpha", "isalnum",
        "istitle", "find", "count",
    }
)  # fmt: skip
HELPER_NAME = re.compile(r"(?i)snake|case|table|plural|underscore|camel|name")
"""A module-level function is kept as a possible table-name helper when its name says so (or
its module computes a `__tablename__`); a call to any other is reported, never guessed. The
pre-filter follows a helper's imports by the same rule (`prefilter.needed`)."""
REGEX_FUNCTIONS = frozenset({"sub", "split", "findall", "compile"})
HAS_INHERITED_TABLE = frozenset(
    {
        "sqlalchemy.orm.has_inherited_table",
        "sqlalchemy.ext.declarative.has_inherited_table",
        "sqlalchemy.ext.declarative.api.has_inherited_table",
    }
)


class NotEvaluated(Exception):
    """The computation uses something this interpreter does not know; `reason` says what."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Computation:
    """What computes a table name: a function of `cls` (a `declared_attr`, a lambda) or a plain
    class-body expression. `line` is where it is written."""

    line: int
    params: tuple[str, ...]  # () for a class-body expression
    body: tuple[ast.stmt, ...]  # a lambda or an expression becomes one `return`

    @property
    def text(self) -> str:
        """Short source of what computes the name, for a finding's detail."""
        if len(self.body) == 1 and isinstance(self.body[0], ast.Return) and self.body[0].value:
            return f"`{_short(ast.unparse(self.body[0].value))}`"
        return "a function body"


def from_function(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Computation:
    return Computation(func.lineno, tuple(a.arg for a in func.args.args), tuple(func.body))


def from_expression(value: ast.expr) -> Computation:
    if isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Lambda):
        lam = value.args[0]  # `declared_attr(lambda cls: ...)`
        return Computation(
            value.lineno,
            tuple(a.arg for a in lam.args.args),
            (ast.Return(lam.body, lineno=lam.lineno, col_offset=0),),
        )
    return Computation(value.lineno, (), (ast.Return(value, lineno=value.lineno, col_offset=0),))


@dataclass(frozen=True)
class Scope:
    """What a computation may see from its module: literal constants and `re.compile`s
    (`constants`), its imports (to know `re`), and helper functions (`function`, which also
    follows imports into other scanned modules)."""

    constants: Mapping[str, ast.expr]
    imports: Mapping[str, str]
    function: Callable[[str], tuple[Computation, Scope] | None]
    # an imported constant (`from .names import CAMEL = re.compile(...)`): its value and the
    # scope of the module that assigns it
    constant: Callable[[str], tuple[ast.expr, Scope] | None] = lambda name: None


def evaluate(
    computation: Computation, class_name: str, scope: Scope, *, inherited_table: bool = False
) -> str | None:
    """The table name the computation gives for `class_name` (None: it returns None).

    `inherited_table` is what SQLAlchemy's `has_inherited_table(cls)` answers for the class (a
    mapped class above it), so the documented recipe for single-table subclasses evaluates."""
    run = _Run(scope)
    args = [_Class(class_name, inherited_table)] if computation.params else []
    try:
        value = run.call(computation, args, scope, 0)
    except NotEvaluated:
        raise
    except (RecursionError, TypeError, ValueError, LookupError, AttributeError) as exc:
        # A shape the checks above did not foresee (a constant defined by itself, ...): the
        # link runs over every file at once, so it must turn into a finding, never escape.
        raise NotEvaluated(f"evaluation stopped: {type(exc).__name__}") from exc
    if value is not None and not isinstance(value, str):
        raise NotEvaluated(f"it returns a {type(value).__name__}, not a str")
    return value


class _Class:
    """The `cls` argument: only its name is known, and whether a mapped class is above it."""

    def __init__(self, name: str, inherited_table: bool) -> None:
        self.name = name
        self.inherited_table = inherited_table


@dataclass(frozen=True)
class _Pattern:
    pattern: str


@dataclass(frozen=True)
class _Builtin:
    name: str  # "re.sub", "str", "len", "enumerate", "list", "reversed"


@dataclass(frozen=True)
class _Method:
    owner: Any
    name: str


@dataclass(frozen=True)
class _Helper:
    computation: Computation
    scope: Scope
    name: str


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


_BUILTINS = frozenset({"str", "len", "enumerate", "list", "reversed", "tuple"})


class _Run:
    def __init__(self, scope: Scope) -> None:
        self.steps = 0
        self.root = scope

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise NotEvaluated(f"more than {MAX_STEPS} steps")

    def call(self, computation: Computation, args: list[Any], scope: Scope, depth: int) -> Any:
        if depth > MAX_CALL_DEPTH:
            raise NotEvaluated("calls nest too deep")
        if len(args) > len(computation.params):
            raise NotEvaluated("a helper is called with more arguments than it takes")
        if len(args) < len(computation.params) and computation.params:
            raise NotEvaluated("a helper is called with fewer arguments than it takes")
        env: dict[str, Any] = dict(zip(computation.params, args, strict=True))
        try:
            self.block(computation.body, env, scope, depth)
        except _Return as done:
            return done.value
        return None

    def block(
        self, body: Iterable[ast.stmt], env: dict[str, Any], scope: Scope, depth: int
    ) -> None:
        for stmt in body:
            self.tick()
            self.statement(stmt, env, scope, depth)

    def statement(self, stmt: ast.stmt, env: dict[str, Any], scope: Scope, depth: int) -> None:
        if isinstance(stmt, ast.Return):
            value = None if stmt.value is None else self.expr(stmt.value, env, scope, depth)
            raise _Return(value)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            self.assign(stmt.targets[0], self.expr(stmt.value, env, scope, depth), env)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.assign(stmt.target, self.expr(stmt.value, env, scope, depth), env)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            current = self.name(stmt.target.id, env, scope)
            value = self.expr(stmt.value, env, scope, depth)
            env[stmt.target.id] = self.binop(stmt.op, current, value)
        elif isinstance(stmt, ast.If):
            branch = stmt.body if self.truth(stmt.test, env, scope, depth) else stmt.orelse
            self.block(branch, env, scope, depth)
        elif isinstance(stmt, ast.For) and not stmt.orelse:
            for item in self.iterate(self.expr(stmt.iter, env, scope, depth)):
                self.assign(stmt.target, item, env)
                self.block(stmt.body, env, scope, depth)
        elif isinstance(stmt, ast.Expr):
            if not (isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
                self.expr(stmt.value, env, scope, depth)  # a docstring is skipped
        elif not isinstance(stmt, ast.Pass):
            raise NotEvaluated(f"`{type(stmt).__name__.lower()}` statement at line {stmt.lineno}")

    def assign(self, target: ast.expr, value: Any, env: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, ast.Tuple | ast.List) and all(
            isinstance(t, ast.Name) for t in target.elts
        ):
            items = self.iterate(value)
            if len(items) != len(target.elts):
                raise NotEvaluated("an unpacking of the wrong length")
            for name, item in zip(target.elts, items, strict=True):
                assert isinstance(name, ast.Name)
                env[name.id] = item
        else:
            raise NotEvaluated(f"assigns to `{_short(ast.unparse(target))}`")

    def iterate(self, value: Any) -> list[Any]:
        if isinstance(value, str | list | tuple):
            return list(value)
        raise NotEvaluated(f"iterates over a {type(value).__name__}")

    def truth(self, test: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> bool:
        value = self.expr(test, env, scope, depth)
        if not isinstance(value, str | int | bool | list | tuple) and value is not None:
            raise NotEvaluated(f"tests `{_short(ast.unparse(test))}`")
        return bool(value)

    def name(self, name: str, env: Mapping[str, Any], scope: Scope) -> Any:
        if name in env:
            return env[name]
        if name in scope.constants:
            return self.expr(scope.constants[name], {}, scope, MAX_CALL_DEPTH)
        target = scope.imports.get(name, "")
        if target and (imported := scope.constant(name)) is not None:
            return self.expr(imported[0], {}, imported[1], MAX_CALL_DEPTH)
        if target == "re" or (target.startswith("re.") and target[3:] in REGEX_FUNCTIONS):
            return _Builtin(target)
        if target in HAS_INHERITED_TABLE:
            return _Builtin("has_inherited_table")
        if name in _BUILTINS and name not in scope.imports:
            return _Builtin(name)
        helper = scope.function(name)
        if helper is not None:
            return _Helper(helper[0], helper[1], name)
        raise NotEvaluated(f"`{name}` is not visible" if not target else f"uses `{target}`")

    def expr(self, node: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        self.tick()
        value = self._expr(node, env, scope, depth)
        if isinstance(value, str | list | tuple) and len(value) > MAX_LENGTH:
            raise NotEvaluated(f"a value longer than {MAX_LENGTH}")
        return value

    def _expr(self, node: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str | int | bool) or node.value is None:
                return node.value
            raise NotEvaluated(f"a {type(node.value).__name__} constant")
        if isinstance(node, ast.Name):
            return self.name(node.id, env, scope)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, env, scope, depth)
        if isinstance(node, ast.JoinedStr):
            return "".join(self.formatted(part, env, scope, depth) for part in node.values)
        if isinstance(node, ast.BinOp):
            left = self.expr(node.left, env, scope, depth)
            return self.binop(node.op, left, self.expr(node.right, env, scope, depth))
        if isinstance(node, ast.BoolOp):
            result: Any = None
            for operand in node.values:
                result = self.expr(operand, env, scope, depth)
                if bool(result) == isinstance(node.op, ast.Or):
                    return result
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.truth(node.operand, env, scope, depth)
        if isinstance(node, ast.Compare):
            return self.compare(node, env, scope, depth)
        if isinstance(node, ast.IfExp):
            branch = node.body if self.truth(node.test, env, scope, depth) else node.orelse
            return self.expr(branch, env, scope, depth)
        if isinstance(node, ast.List | ast.Tuple):
            items = [self.expr(e, env, scope, depth) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return self.comprehension(node, env, scope, depth)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, env, scope, depth)
        if isinstance(node, ast.Call):
            return self.call_expr(node, env, scope, depth)
        raise NotEvaluated(f"`{_short(ast.unparse(node))}`")

    def attribute(self, node: ast.Attribute, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        owner = self.expr(node.value, env, scope, depth)
        if isinstance(owner, _Class):
            if node.attr in ("__name__", "__qualname__"):
                return owner.name
            raise NotEvaluated(f"reads `cls.{node.attr}`")
        if isinstance(owner, str) and node.attr in STR_METHODS:
            return _Method(owner, node.attr)
        if isinstance(owner, list) and node.attr == "append":
            return _Method(owner, "append")
        if isinstance(owner, _Pattern) and node.attr in ("sub", "split", "findall"):
            return _Method(owner, node.attr)
        if isinstance(owner, _Builtin) and owner.name == "re" and node.attr in REGEX_FUNCTIONS:
            return _Builtin(f"re.{node.attr}")
        raise NotEvaluated(f"`{_short(ast.unparse(node))}`")

    def formatted(self, part: ast.expr, env: dict[str, Any], scope: Scope, depth: int) -> str:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            return part.value
        if isinstance(part, ast.FormattedValue) and part.format_spec is None:
            value = self.expr(part.value, env, scope, depth)
            if isinstance(value, str | int) and part.conversion in (-1, ord("s")):
                return str(value)
        raise NotEvaluated("an f-string with a format")

    def binop(self, op: ast.operator, left: Any, right: Any) -> Any:
        if (
            isinstance(op, ast.Add)
            and type(left) is type(right)
            and isinstance(left, str | int | list | tuple)
        ):
            return left + right
        if isinstance(op, ast.Sub) and type(left) is int and type(right) is int:
            return left - right
        if isinstance(op, ast.Mod) and isinstance(left, str) and isinstance(right, str | tuple):
            try:
                return left % right
            except (TypeError, ValueError) as exc:
                raise NotEvaluated("a % format that fails") from exc
        raise NotEvaluated(f"`{type(op).__name__}` of {type(left).__name__}")

    def compare(self, node: ast.Compare, env: dict[str, Any], scope: Scope, depth: int) -> bool:
        left = self.expr(node.left, env, scope, depth)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.expr(right_node, env, scope, depth)
            if not all(isinstance(v, str | int | list | tuple) for v in (left, right)):
                raise NotEvaluated(f"compares `{_short(ast.unparse(node))}`")
            try:
                ok = _COMPARE[type(op)](left, right)
            except (KeyError, TypeError) as exc:
                raise NotEvaluated(f"compares `{_short(ast.unparse(node))}`") from exc
            if not ok:
                return False
            left = right
        return True

    def comprehension(
        self, node: ast.ListComp | ast.GeneratorExp, env: dict[str, Any], scope: Scope, depth: int
    ) -> list[Any]:
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise NotEvaluated("a comprehension of more than one `for`")
        gen = node.generators[0]
        inner = dict(env)
        out: list[Any] = []
        for item in self.iterate(self.expr(gen.iter, env, scope, depth)):
            self.assign(gen.target, item, inner)
            if all(self.truth(test, inner, scope, depth) for test in gen.ifs):
                out.append(self.expr(node.elt, inner, scope, depth))
        return out

    def subscript(self, node: ast.Subscript, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        owner = self.expr(node.value, env, scope, depth)
        if not isinstance(owner, str | list | tuple):
            raise NotEvaluated(f"indexes a {type(owner).__name__}")
        index = node.slice
        try:
            if isinstance(index, ast.Slice):
                if index.step is not None:
                    raise NotEvaluated("a slice with a step")
                lower = self.expr(index.lower, env, scope, depth) if index.lower else None
                upper = self.expr(index.upper, env, scope, depth) if index.upper else None
                if not all(v is None or type(v) is int for v in (lower, upper)):
                    raise NotEvaluated("a slice by a non-int")
                return owner[lower:upper]
            position = self.expr(index, env, scope, depth)
            if type(position) is not int:
                raise NotEvaluated("an index by a non-int")
            return owner[position]
        except IndexError as exc:
            raise NotEvaluated("an index out of range") from exc

    def call_expr(self, node: ast.Call, env: dict[str, Any], scope: Scope, depth: int) -> Any:
        func = self.expr(node.func, env, scope, depth)
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise NotEvaluated("a call with *args")
        args = [self.expr(a, env, scope, depth) for a in node.args]
        keywords = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise NotEvaluated("a call with **kwargs")
            keywords[kw.arg] = self.expr(kw.value, env, scope, depth)
        if isinstance(func, _Helper):
            if keywords:
                raise NotEvaluated(f"`{func.name}` called with keywords")
            return self.call(func.computation, args, func.scope, depth + 1)
        if isinstance(func, _Method):
            return self.method(func, args, keywords)
        if isinstance(func, _Builtin):
            return self.builtin(func.name, args, keywords)
        raise NotEvaluated(f"calls `{_short(ast.unparse(node.func))}`")

    def method(self, method: _Method, args: list[Any], keywords: dict[str, Any]) -> Any:
        owner = method.owner
        if isinstance(owner, list):
            if len(args) != 1 or keywords:
                raise NotEvaluated("`append` with other than one argument")
            if len(owner) >= MAX_LENGTH:
                raise NotEvaluated(f"a list longer than {MAX_LENGTH}")
            owner.append(args[0])
            return None
        if isinstance(owner, _Pattern):
            return self.regex(method.name, owner.pattern, args, keywords)
        is_join = method.name == "join" and len(args) == 1 and not keywords
        if not is_join and (keywords or not all(isinstance(a, str | int) for a in args)):
            raise NotEvaluated(f"`str.{method.name}` with these arguments")
        if method.name == "join":
            parts = self.iterate(args[0]) if len(args) == 1 else None
            if parts is None or not all(isinstance(p, str) for p in parts):
                raise NotEvaluated("`str.join` of other than strings")
            args = [parts]
        try:
            return getattr(owner, method.name)(*args)
        except (TypeError, ValueError) as exc:
            raise NotEvaluated(f"`str.{method.name}` fails here") from exc

    def builtin(self, name: str, args: list[Any], keywords: dict[str, Any]) -> Any:
        if name.startswith("re."):
            if name == "re.compile":
                if keywords or len(args) != 1 or not isinstance(args[0], str):
                    raise NotEvaluated("`re.compile` with flags or a non-literal pattern")
                return _Pattern(_safe_pattern(args[0]))
            if not args or not isinstance(args[0], str | _Pattern):
                raise NotEvaluated(f"`{name}` without a pattern")
            pattern = args[0].pattern if isinstance(args[0], _Pattern) else args[0]
            return self.regex(name[3:], pattern, args[1:], keywords)
        if keywords or len(args) != 1:
            raise NotEvaluated(f"`{name}` with these arguments")
        (value,) = args
        if name == "has_inherited_table" and isinstance(value, _Class):
            return value.inherited_table
        if name == "str" and isinstance(value, str | int):
            return str(value)
        if name == "len" and isinstance(value, str | list | tuple):
            return len(value)
        if name in ("list", "tuple", "reversed", "enumerate"):
            items = self.iterate(value)
            if name == "enumerate":
                return [(i, item) for i, item in enumerate(items)]
            return items[::-1] if name == "reversed" else items
        raise NotEvaluated(f"`{name}` of a {type(value).__name__}")

    def regex(self, name: str, pattern: str, args: list[Any], keywords: dict[str, Any]) -> Any:
        if keywords:
            raise NotEvaluated(f"`re.{name}` with keywords")
        pattern = _safe_pattern(pattern)
        try:
            compiled = re.compile(pattern)
            if name == "sub" and len(args) == 2 and all(isinstance(a, str) for a in args):
                if len(args[1]) > MAX_LENGTH:
                    raise NotEvaluated("a string too long for a regex")
                return compiled.sub(args[0], args[1])
            if name in ("split", "findall") and len(args) == 1 and isinstance(args[0], str):
                result = getattr(compiled, name)(args[0])
                if not all(isinstance(r, str) for r in result):
                    raise NotEvaluated(f"`re.{name}` with groups")
                return result
        except re.error as exc:
            raise NotEvaluated(f"a pattern that does not compile: {pattern!r}") from exc
        raise NotEvaluated(f"`re.{name}` with these arguments")


def _safe_pattern(pattern: str) -> str:
    if len(pattern) > MAX_PATTERN or _QUANTIFIED_GROUP.search(pattern):
        raise NotEvaluated(f"a regex that may backtrack without bound: {_short(pattern)!r}")
    return pattern


_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
