"""Python read as it runs, for every reader that follows a module's or a function's branches
(which value a name is given, which routes a branch registers, which base a model has):

- a `match` statement (Python 3.10) is the `if`/`elif`/`else` chain it behaves as, instead of
  each reader learning a statement of its own or losing what is written in its cases (`match
  environment: case Env.DEV: config = DevConfig()`). A case of literal values,
  `None`/`True`/`False`, dotted names (`Env.DEV`) and their `|` is the comparison Python makes
  (`==`, `is`); an irrefutable case (`_`, a bare capture) is the `else`, a capture binding the
  subject first; a guard is `and`ed. Any other pattern (a class, a sequence, a mapping pattern,
  `as`) becomes a test no reader can decide, spelled as the pattern is written.
- an `if TYPE_CHECKING:` block (`typing.TYPE_CHECKING`, False when the code runs) is what its
  `else` holds: `Model = db.Model` then `if TYPE_CHECKING: Model = DeclarativeBase` makes
  models of `db.Model`, as at run time (a type checker's stand-in read last was taken instead).

Only files that can hold either are walked."""

from __future__ import annotations

import ast
import re

# a line that may open a `match` statement (a soft keyword: also a common name, so a file
# with such a line is only a candidate), or test `TYPE_CHECKING`
_MAY_CHANGE = re.compile(
    r"^[ \t]*match\b[^\n]*:[ \t]*(?:#[^\n]*)?$|\bTYPE_CHECKING\b", re.MULTILINE
)


def may_change(source: str) -> bool:
    """Whether `as_run` may change the tree of `source`."""
    return _MAY_CHANGE.search(source) is not None


def as_run(tree: ast.Module) -> ast.Module:
    """`tree` with each `match` statement replaced by its `if` chain and each `if
    TYPE_CHECKING:` by its `else`, in place. Statements only, never every node: both are
    statements, and a walk of every expression would cost a good part of the parse."""
    tree.body = _block(tree.body, pad=False)
    return tree


_BLOCKS = ("body", "orelse", "finalbody")


def _block(stmts: list[ast.stmt], pad: bool = True) -> list[ast.stmt]:
    """`stmts` as run; an inner block left empty holds a `pass` (a block cannot be empty)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        for field in _BLOCKS:
            inner = getattr(stmt, field, None)
            if inner:
                setattr(stmt, field, _block(inner))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _block(handler.body)
        kind = type(stmt)
        if kind is ast.If and _type_checking(stmt.test):  # type: ignore[attr-defined]
            out.extend(stmt.orelse)  # type: ignore[attr-defined]
        elif kind is ast.Match:
            assert isinstance(stmt, ast.Match)
            for case in stmt.cases:
                case.body = _block(case.body)
            out.append(_as_ifs(stmt))
        else:
            out.append(stmt)
    return out or ([ast.Pass()] if pad else [])


def _type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING` (False when the code runs)."""
    if type(test) is ast.Name:
        return test.id == "TYPE_CHECKING"
    return type(test) is ast.Attribute and test.attr == "TYPE_CHECKING"


def _as_ifs(node: ast.Match) -> ast.stmt:
    """A `match` as the `if`/`elif`/`else` chain it behaves as."""
    chain: list[ast.stmt] = []
    for case in reversed(node.cases):
        body = list(case.body)
        capture = _capture(case.pattern)
        if capture is not None:
            bound = ast.Assign([ast.Name(capture, ast.Store())], node.subject)
            body.insert(0, ast.copy_location(bound, case.pattern))
        test = _test(node.subject, case.pattern)
        if case.guard is not None:
            test = ast.BoolOp(ast.And(), [test, case.guard]) if test else case.guard
        if test is None:
            chain = body  # irrefutable: what runs when no case before it matched
            continue
        branch = ast.If(test, body, chain)
        chain = [ast.copy_location(branch, case.pattern)]
    made = (
        chain[0]
        if len(chain) == 1 and type(chain[0]) is ast.If
        else ast.If(ast.Constant(True), chain or [ast.Pass()], [])
    )
    return ast.fix_missing_locations(ast.copy_location(made, node))


def _capture(pattern: ast.pattern) -> str | None:
    """The name an irrefutable `case name:` binds."""
    return pattern.name if type(pattern) is ast.MatchAs and pattern.pattern is None else None


def _test(subject: ast.expr, pattern: ast.pattern) -> ast.expr | None:
    """The condition under which `pattern` matches `subject`; None: always."""
    if type(pattern) is ast.MatchAs and pattern.pattern is None:
        return None
    if type(pattern) is ast.MatchValue:
        return ast.Compare(subject, [ast.Eq()], [pattern.value])
    if type(pattern) is ast.MatchSingleton:
        return ast.Compare(subject, [ast.Is()], [ast.Constant(pattern.value)])
    if type(pattern) is ast.MatchOr:
        tests = [_test(subject, p) for p in pattern.patterns]
        if any(t is None for t in tests):
            return None
        return ast.BoolOp(ast.Or(), [t for t in tests if t is not None])
    # a pattern no reader decides: a name spelled as the pattern is, bound nowhere
    return ast.Name(f"case {ast.unparse(pattern)}", ast.Load())
