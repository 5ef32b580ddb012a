"""The values the Django evaluator (`django_collect`) holds while it runs a project's code, and
the ways a run stops: shared with the registries and route hooks it calls, which would otherwise
import the evaluator that imports them."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .linker import Gap

# what a value the evaluator holds may raise when it is used as Python would (`[1] in {}`): the
# evaluation stops, as a finding
MISREAD = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError)


class Stop(Exception):
    """The evaluation cannot go on (budget spent, recursion too deep)."""


class Raised(Exception):
    """A `raise` or a lookup that fails (`getattr(settings, "X")` with no `X`): an `except`
    around it runs."""


@dataclass(eq=False)
class Unknown:
    """A value not known; `origin` is where it is written (a view, a list named there)."""

    origin: tuple[str, ast.expr] | None = None
    gaps: tuple[Gap, ...] = ()  # in force where it was written (a view a plugin passes)


@dataclass(eq=False)
class Ref:
    """A module-level name of the project or a library: ("class"|"function"|"module"|
    "external"|other kind, file, name), and where it was written."""

    kind: str
    file: str
    name: str
    origin: tuple[str, ast.expr] | None = None
    gaps: tuple[Gap, ...] = ()


@dataclass(eq=False)
class Instance:
    cls: Ref
    attrs: dict[str, object] = field(default_factory=dict)


@dataclass(eq=False)
class Func:
    file: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    owner: Ref | None = None  # the class whose body defines it (`super()` starts after it)
    bound: object = None  # `self`, for a method read from an instance
    closure: dict[str, object] | None = None  # a nested def: the names of the def around it


@dataclass(eq=False)
class Builtin:
    name: str
    receiver: object = None  # a method of a str, list or dict: that value


@dataclass(eq=False)
class Super:
    obj: object
    after: Ref


@dataclass(eq=False)
class Pattern:
    """`path(route, view)` as made: route (str, or not known), regex, the view's value, where
    the call is written and the gaps in force when it ran."""

    route: object
    regex: bool
    view: object
    file: str
    line: int
    gaps: tuple[Gap, ...]


@dataclass(eq=False)
class Include:
    target: object


@dataclass(frozen=True)
class Why:
    """Why an evaluation stopped: no value of the project's code, the reason a finding says."""

    why: str


@functools.lru_cache(maxsize=4096)
def parsed(code: str, line: int, mode: str) -> ast.AST | None:
    """Code kept by `django_facts`, parsed with its lines where the file has them (an
    expression for "eval", the one statement for "exec"); None if it does not parse. Shared
    by every link of a scan: the trees are read, never changed."""
    try:
        tree = ast.parse("\n" * (line - 1) + code, mode=mode)
    except (SyntaxError, ValueError):
        return None
    if isinstance(tree, ast.Expression):
        return tree.body
    return tree.body[0] if isinstance(tree, ast.Module) and tree.body else None
