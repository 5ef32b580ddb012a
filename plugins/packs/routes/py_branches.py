"""Python tests and the values that depend on them, read as `Choice`s for the linker to decide.

A path helper often returns one of two paths, which one decided by a setting
(`if settings.MULTI_ORG: return "/<org>" + rule` / `return rule`), and the setting is a flag
parsed from the environment with a default written in code (`parse_boolean(os.environ.get("X",
"false"))`, `strtobool(...)`, `bool(int(os.getenv("X", "0")))`, python-decouple's `config("X",
default=False, cast=bool)`). Here such a body becomes a tree of `Choice`s over its tests, and
a test read as a value a `Choice` between `TRUE` and `FALSE` (a bool spelled as the readers
spell strings: "True" or ""); the linker takes the branch the configuration's defaults pick,
or both, not known, where it cannot tell. Nothing here knows the reader: `read` is how it reads
an expression where a string is expected.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping

from .model import Choice, Expr, Fallback, ImportRef, Lit, Opaque

TRUE = Lit("True")
FALSE = Lit("")

Read = Callable[[ast.expr], "Expr | None"]

# `distutils.util.strtobool`'s true words, compared after `lower()`
_STRTOBOOL_TRUE = ("y", "yes", "t", "true", "on", "1")
# python-decouple's `cast=bool`: its true words, compared after `lower()`; its default is cast too
_DECOUPLE_TRUE = ("1", "yes", "true", "on")
_FOLDS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip"})
_AFFIX_TESTS = frozenset({"startswith", "endswith"})  # a `Choice.test` of the same name
# a `%` conversion that may format to nothing (`%%` is text: a `%`, so not one of them)
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[a-zA-Z]")
_MAX_STATEMENTS = 256  # statements read along every path of one body (past it: not followed)
_MAX_INLINED = 512  # nodes of what a name is assigned, its earlier names inlined
_PLAIN = (ast.Expr, ast.Pass, ast.Assert, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def constant_flag(node: ast.expr | None) -> Lit | None:
    """`True`/`False` as the readers spell a bool; None for anything else (an int is no
    flag: `VERSION = 2` read as "True" would name a path wrongly)."""
    if type(node) is ast.Constant and type(node.value) is bool:
        assert isinstance(node, ast.Constant)
        return TRUE if node.value else FALSE
    return None


def decision(test: ast.expr, read: Read, bindings: Mapping[str, Expr]) -> Choice:
    """`test` as a `Choice` between `TRUE` and `FALSE`: a comparison, `not`, a flag parser,
    else the truth of the value `read` gives (a tested value not known: `Opaque`)."""
    found = flag(test, read, bindings, in_test=True)
    if found is not None:
        return found
    if isinstance(test, ast.BoolOp):  # `A and not B`: a test per part, in Python's order
        parts = [decision(part, read, bindings) for part in test.values]
        joined: Choice = parts[-1]
        for part in reversed(parts[:-1]):
            if isinstance(test.op, ast.And):
                joined = dataclasses.replace(part, then=joined, otherwise=FALSE)
            else:
                joined = dataclasses.replace(part, then=TRUE, otherwise=joined)
        return Choice(joined, "truthy", TRUE, FALSE)
    tested = constant_flag(test) or read(test) or Opaque()
    return Choice(tested, "truthy", TRUE, FALSE)


def flag(
    node: ast.expr, read: Read, bindings: Mapping[str, Expr], *, in_test: bool = False
) -> Choice | None:
    """`node` when it is a test written as a value (`s.lower() in ("true", "1")`, `x ==
    "yes"`, `not x`, `bool(x)`, `bool(int(x))`, `strtobool(x)`, decouple's `config(...,
    cast=bool)`; `in_test`: also `int(x)`, whose truth an `if` takes); None for any other
    expression."""
    kind = type(node)
    if kind is ast.UnaryOp and isinstance(node.op, ast.Not):  # type: ignore[attr-defined]
        inner = decision(node.operand, read, bindings)  # type: ignore[attr-defined]
        return dataclasses.replace(inner, negated=not inner.negated)
    if kind is ast.Compare:
        assert isinstance(node, ast.Compare)
        return _compared(node, read)
    if kind is not ast.Call:
        return None
    assert isinstance(node, ast.Call)
    affixed = _affixed(node, read)
    if affixed is not None:
        return affixed
    name = _called(node.func, bindings)
    if name is None or (node.keywords and name != "decouple.config"):
        return None
    if name in {"bool", "int"} and len(node.args) == 1:
        inner_node = node.args[0]
        if name == "int" and not in_test:
            return None
        if name == "int" or (type(inner_node) is ast.Call and _int_of(inner_node, bindings)):
            number = inner_node.args[0] if name == "bool" else inner_node  # type: ignore[attr-defined]
            return Choice(read(number) or Opaque(), "nonzero", TRUE, FALSE)
        return decision(inner_node, read, bindings)
    if name.endswith(".strtobool") and len(node.args) == 1:
        words = tuple(Lit(w) for w in _STRTOBOOL_TRUE)
        return Choice(
            read(node.args[0]) or Opaque(), "in", TRUE, FALSE, against=words, fold=("lower",)
        )
    if name == "decouple.config":
        return _decouple(node)
    return None


def _called(func: ast.expr, bindings: Mapping[str, Expr]) -> str | None:
    """The name a call's callee stands for: a builtin (`bool`, `int`) by its name when the
    module does not rebind it, an import by its module's dotted name (`decouple.config`,
    `distutils.util.strtobool`); None for anything else (the project's own functions are read
    through their bodies instead)."""
    path: list[str] = []
    while isinstance(func, ast.Attribute):
        path.insert(0, func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    bound = bindings.get(func.id)
    if bound is None:
        return func.id if not path and func.id in {"bool", "int"} else None
    if not isinstance(bound, ImportRef) or bound.origin:
        return None
    head = f"{bound.module}.{bound.attr}" if bound.attr else bound.module
    return ".".join((head, *path))


def _int_of(call: ast.Call, bindings: Mapping[str, Expr]) -> bool:
    return len(call.args) == 1 and not call.keywords and _called(call.func, bindings) == "int"


def _compared(node: ast.Compare, read: Read) -> Choice | None:
    """`x == "lit"`, `x != "lit"` (either side), `x in ("a", "b")`, `x not in (...)`, with
    `x` folded by str methods (`s.lower().strip()`); None for any other comparison."""
    if len(node.ops) != 1:
        return None
    op, left, right = node.ops[0], node.left, node.comparators[0]
    if isinstance(op, ast.Eq | ast.NotEq):
        if _string(left) is not None:
            left, right = right, left
        text = _string(right)
        if text is None:
            return None
        against: tuple[Expr, ...] = (Lit(text),)
    elif isinstance(op, ast.In | ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        words = [_string(e) for e in right.elts]
        if not words or None in words:
            return None
        against = tuple(Lit(w) for w in words if w is not None)
    else:
        return None
    fold: list[str] = []
    while (
        isinstance(left, ast.Call)
        and isinstance(left.func, ast.Attribute)
        and left.func.attr in _FOLDS
        and not left.args
        and not left.keywords
    ):
        fold.insert(0, left.func.attr)
        left = left.func.value
    negated = isinstance(op, ast.NotEq | ast.NotIn)
    tested = read(left) or Opaque()
    return Choice(tested, "in", TRUE, FALSE, negated, against, tuple(fold))


def _affixed(call: ast.Call, read: Read) -> Choice | None:
    """`x.endswith("/")`, `x.startswith(("http:", "https:"))`, `x` folded by str methods:
    the test named as the method, its affixes `against`; None for any other call."""
    func = call.func
    if not (
        type(func) is ast.Attribute
        and func.attr in _AFFIX_TESTS
        and len(call.args) == 1
        and not call.keywords
    ):
        return None
    given = call.args[0]
    words = [_string(e) for e in given.elts] if isinstance(given, ast.Tuple) else [_string(given)]
    if not words or None in words:
        return None
    fold: list[str] = []
    tested = func.value
    while _folded(tested):
        assert isinstance(tested, ast.Call) and isinstance(tested.func, ast.Attribute)
        fold.insert(0, tested.func.attr)
        tested = tested.func.value
    against = tuple(Lit(w) for w in words if w is not None)
    return Choice(read(tested) or Opaque(), func.attr, TRUE, FALSE, False, against, tuple(fold))


def _folded(node: ast.expr) -> bool:
    """`s.lower()`, `s.strip()`: a str method of no arguments that folds what it is called on."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _FOLDS
        and not node.args
        and not node.keywords
    )


def and_or(node: ast.BoolOp, read: Read, bindings: Mapping[str, Expr]) -> Choice | None:
    """`test and a or b`, the conditional written before `a if test else b`: the same where
    `a` is a string never empty (Python gives `a` whenever `test` holds, since `a` is true);
    None for any other `and`/`or`."""
    if not (isinstance(node.op, ast.Or) and len(node.values) == 2):
        return None
    left, otherwise = node.values
    if not (isinstance(left, ast.BoolOp) and isinstance(left.op, ast.And)):
        return None
    *tests, then = left.values
    if not _never_empty(then):
        return None
    test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
    chosen = decision(test, read, bindings)
    return dataclasses.replace(
        chosen, then=read(then) or Opaque(), otherwise=read(otherwise) or Opaque()
    )


def _never_empty(node: ast.expr) -> bool:
    """Whether a string expression has text of its own, so is never empty whatever it formats:
    a literal, an f-string or a `%` template with a character outside its fields, a `+` with
    such a part."""
    if type(node) is ast.Constant:
        return type(node.value) is str and node.value != ""
    if isinstance(node, ast.JoinedStr):
        return any(type(v) is ast.Constant and v.value for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template = _string(node.left)
        return template is not None and _PERCENT_FIELD.sub("", template) != ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _never_empty(node.left) or _never_empty(node.right)
    return False


def _string(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and type(node.value) is str:
        return node.value
    return None


def _decouple(call: ast.Call) -> Choice | None:
    """python-decouple's `config("X", default=..., cast=bool)`: the variable's value, else the
    default (cast as decouple casts it: `str(default).lower()`), marked as the configuration's
    default; None without `cast=bool` or without a default written as a constant."""
    cast = next((k.value for k in call.keywords if k.arg == "cast"), None)
    default = next((k.value for k in call.keywords if k.arg == "default"), None)
    if not (isinstance(cast, ast.Name) and cast.id == "bool") or not call.args:
        return None
    key = _string(call.args[0])
    if key is None or not isinstance(default, ast.Constant) or default.value is None:
        return None
    value = Fallback(Opaque(), Lit(str(default.value)), f"decouple {key}")
    words = tuple(Lit(w) for w in _DECOUPLE_TRUE)
    return Choice(value, "in", TRUE, FALSE, against=words, fold=("lower",))


class _Unfollowed(Exception):
    """A body this reading does not follow (a loop, a `try`, a `with`, too many statements)."""


_UNKNOWN = ast.Name("\0assigned", ast.Load())  # what a name assigned as `a, b = ...` holds
_NO_VALUE = Opaque()  # a path that returns None, raises or ends: no value, never an option


def branched_return(body: list[ast.stmt], read: Read, bindings: Mapping[str, Expr]) -> Expr | None:
    """What a function body returns, as `Choice`s over the tests of its `if`s (`if T: return
    A` then `return B`, `if/else`, early returns; names it assigns on the way are read as
    assigned); a path that returns None or raises gives no option. None when the body does
    anything else on the way to a return (a loop, `try`, `with`): the caller reads its
    returns as before."""
    reads: dict[int, Expr] = {}  # by id of the node read: a path through `if`s that assign

    def once(node: ast.expr) -> Expr | None:  # nothing it reads meets the same return again
        found = reads.get(id(node))
        if found is None:
            found = reads[id(node)] = read(node) or constant_flag(node) or Opaque()
        return found

    try:
        value = _returned(list(body), {}, once, bindings, [_MAX_STATEMENTS])
    except _Unfollowed:
        return None
    return None if value is _NO_VALUE else value


def _returned(
    stmts: list[ast.stmt],
    assigned: dict[str, ast.expr],
    read: Read,
    bindings: Mapping[str, Expr],
    budget: list[int],
) -> Expr:
    for index, stmt in enumerate(stmts):
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unfollowed
        kind = type(stmt)
        if kind is ast.Return:
            value = stmt.value  # type: ignore[attr-defined]
            if value is None or (type(value) is ast.Constant and value.value is None):
                return _NO_VALUE
            value = _inlined(value, assigned)
            if any(v is _UNKNOWN for v in assigned.values()) and any(
                n is _UNKNOWN for n in ast.walk(value)
            ):
                return Opaque()  # it reads a name assigned in a shape not followed
            return read(value) or Opaque()
        if kind is ast.Raise:
            return _NO_VALUE
        if kind is ast.If:
            assert isinstance(stmt, ast.If)
            rest = stmts[index + 1 :]
            then = _returned([*stmt.body, *rest], dict(assigned), read, bindings, budget)
            otherwise = _returned([*stmt.orelse, *rest], dict(assigned), read, bindings, budget)
            if then == otherwise or (then is _NO_VALUE and otherwise is _NO_VALUE):
                return then
            test = decision(_inlined(stmt.test, assigned), read, bindings)
            if then is _NO_VALUE or otherwise is _NO_VALUE:  # a guard: its one value, as
                value = otherwise if then is _NO_VALUE else then  # before, marked with the
                return dataclasses.replace(test, then=value, otherwise=value)  # test's sources
            return dataclasses.replace(test, then=then, otherwise=otherwise)
        if kind is ast.Assign or kind is ast.AnnAssign or kind is ast.AugAssign:
            _assign(stmt, assigned)
        elif not isinstance(stmt, (*_PLAIN, *_DEFS)):
            raise _Unfollowed
    return _NO_VALUE


def _assign(stmt: ast.stmt, assigned: dict[str, ast.expr]) -> None:
    """Record what a name is assigned on this path (read with what it held before); a name
    assigned in any other shape makes a return that reads it not followed."""
    value: ast.expr | None
    target: ast.expr
    if isinstance(stmt, ast.AugAssign):
        target = stmt.target
        value = None
        if isinstance(target, ast.Name):
            value = ast.BinOp(ast.Name(target.id, ast.Load()), stmt.op, stmt.value)
    elif isinstance(stmt, ast.AnnAssign):
        target, value = stmt.target, stmt.value
    else:
        assert isinstance(stmt, ast.Assign)
        if len(stmt.targets) != 1:
            for target in stmt.targets:
                _forget(target, assigned)
            return
        target, value = stmt.targets[0], stmt.value
    if isinstance(target, ast.Name) and value is not None:
        value = _inlined(value, assigned)
        # `p = p + p` over and over doubles what a return would read: past the cap, not read
        large = next(itertools.islice(ast.walk(value), _MAX_INLINED, None), None) is not None
        assigned[target.id] = _UNKNOWN if large else value
    else:
        _forget(target, assigned)


def _forget(target: ast.expr, assigned: dict[str, ast.expr]) -> None:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            assigned[node.id] = _UNKNOWN


def _inlined(node: ast.expr, assigned: dict[str, ast.expr]) -> ast.expr:
    """`node` with each name assigned on this path replaced by what it was assigned: new
    nodes only where something is replaced (the rest shared, never changed: it is only
    read)."""
    if not assigned:
        return node
    return _substituted(node, assigned)  # type: ignore[return-value]


def _substituted(node: ast.AST, assigned: dict[str, ast.expr]) -> ast.AST:
    if type(node) is ast.Name:
        return assigned.get(node.id, node)
    changed: dict[str, object] = {}
    for name, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            new = _substituted(value, assigned)
            if new is not value:
                changed[name] = new
        elif isinstance(value, list):
            items = [_substituted(v, assigned) if isinstance(v, ast.AST) else v for v in value]
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changed[name] = items
    if not changed:
        return node
    clone = copy.copy(node)
    for name, value in changed.items():
        setattr(clone, name, value)
    return clone
