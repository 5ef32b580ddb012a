"""A DRF router subclass's own `get_routes(viewset)`, run by `django_collect`'s evaluator for
each view set registered on it: the route table DRF expands for that view set is what the
override hands to `super().get_routes(viewset)` (or returns), as computed by the project's
code over the router's `self.routes` (DRF's table, or the one the class's `routes` attribute
and `__init__` changes give), the view set's class (`issubclass(viewset, Base)`) and DRF's
`Route`/`DynamicRoute` records (`route._replace(mapping={...})`, `isinstance(route, Route)`,
`route.detail`). A test the evaluator cannot decide, or a value it cannot read, leaves that
registration's routes a finding at the override (`django_linker.router`), never a guess.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..bounded_values import Refused
from .django_facts import DrfRoute
from .django_values import MISREAD, Builtin, Func, Instance, Raised, Ref, Stop

if TYPE_CHECKING:
    from .django_collect import Collector

_ROUTE = "rest_framework.routers.Route"
_DYNAMIC = "rest_framework.routers.DynamicRoute"
_EXPAND = "drf:get_routes"
_BUDGET = 5_000  # statements and expressions one view set's `get_routes` may run


class Expanded:
    """What DRF's own `get_routes` was handed: the router's `routes` at that call."""

    def __init__(self, routes: object) -> None:
        self.routes = routes


def super_member(obj: object, name: str, got: object) -> object:
    """`super().<name>` that reaches DRF's router (the project's classes do not define it)."""
    if name == "get_routes" and isinstance(obj, Instance):
        return Builtin(_EXPAND, obj)
    return got


def record_member(value: Instance, name: str) -> object:
    """A member of a DRF route record the evaluator made: `_replace`."""
    if name == "_replace" and value.cls.name in (_ROUTE, _DYNAMIC):
        return Builtin("_replace", value)
    return None


def record_call(func: Builtin, keywords: dict[str, object]) -> object:
    """`route._replace(...)` and DRF's `get_routes` (None: neither)."""
    receiver = func.receiver
    if func.name == "_replace" and isinstance(receiver, Instance):
        return Instance(receiver.cls, {**receiver.attrs, **keywords})
    if func.name == _EXPAND and isinstance(receiver, Instance):
        routes = receiver.attrs.get("routes")
        return Expanded(list(routes) if isinstance(routes, list | tuple) else routes)
    return None


def is_record(value: object, cls: object) -> bool | None:
    """`isinstance(value, cls)` for a record the evaluator made and a library class."""
    if not (isinstance(value, Instance) and value.cls.file == ""):
        return None
    if not (isinstance(cls, Ref) and cls.kind == "external"):
        return None
    return value.cls.name == cls.name


def hooked_table(
    collector: Collector,
    router: tuple[str, str],
    viewset: tuple[str, str],
    table: tuple[DrfRoute, ...],
) -> tuple[DrfRoute, ...] | str:
    """The route table the router class `router` (file, name) expands for the view set class
    `viewset` (file, name) when its `routes` is `table`; a string: why it is not known."""
    cls = Ref("class", *router)
    made = Instance(cls, {"routes": [_record(r) for r in table]})
    at = ast.Constant(None)
    method = collector.class_member(cls, "get_routes", made, router[0], at)
    if not isinstance(method, Func):
        return "its `get_routes` is not code the pack holds"
    kept, undecided = collector.budget, collector.undecided_runs
    collector.budget = _BUDGET
    try:
        got = collector.invoke(method, [Ref("class", *viewset)], {})
    except (Stop, RecursionError, Refused, Raised, *MISREAD):
        return "running it went past what the pack can follow"
    finally:
        collector.budget = kept
    if collector.undecided_runs != undecided:
        return "it takes a branch on a test the pack cannot decide"
    if not isinstance(got, Expanded):
        return "it returns routes other than DRF's expansion of a table"
    out = _table(got.routes)
    return out if out is not None else "the table it hands DRF is not one the pack can read"


def _record(route: DrfRoute) -> Instance:
    attrs: dict[str, object] = {"url": route.url, "detail": route.detail, "initkwargs": {}}
    if route.mapping is not None:
        attrs["mapping"] = {method.lower(): action for method, action in route.mapping}
        return Instance(Ref("class", "", _ROUTE), attrs)
    return Instance(Ref("class", "", _DYNAMIC), attrs)


def _table(routes: object) -> tuple[DrfRoute, ...] | None:
    if not isinstance(routes, list | tuple):
        return None
    out: list[DrfRoute] = []
    for route in routes:
        if not isinstance(route, Instance) or route.cls.name not in (_ROUTE, _DYNAMIC):
            return None
        url, detail = route.attrs.get("url"), route.attrs.get("detail")
        if not isinstance(url, str) or not isinstance(detail, bool):
            return None
        if route.cls.name == _DYNAMIC:
            out.append(DrfRoute(url, None, detail))
            continue
        mapping = route.attrs.get("mapping")
        if not isinstance(mapping, dict):
            return None
        pairs = [(m, a) for m, a in mapping.items() if isinstance(m, str) and isinstance(a, str)]
        if len(pairs) != len(mapping):
            return None
        out.append(DrfRoute(url, tuple((m.upper(), a) for m, a in pairs), detail))
    return tuple(out)
