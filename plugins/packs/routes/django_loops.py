"""Loops over a Django project's installed apps, read with `ast`: a URLconf that includes each
app's (or plugin's) URLconf in a loop (`for app in get_plugins(): urlpatterns.append(path("",
include(app.name + ".urls")))`, or a comprehension), and the project's function it loops
over (`get_plugins()` walking `apps.get_app_configs()`, keeping the configs that carry a
marker). What a pass adds is known only per app: the linker (`django_app_loops`) lists it for
each app the settings install that the loop's filters keep, from the apps' own code."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..pymodules import attribute_path

# Where a loop's items come from: "configs" (`apps.get_app_configs()`), "settings"
# (`settings.INSTALLED_APPS`, its entries as written), "call" (a function of the project that
# returns apps, `name` dotted as written), "" (anything else: `name` as written)
CONFIGS, SETTINGS, CALL = "configs", "settings", "call"
# Filters: ("hasattr", X) the app's `AppConfig` has X; ("module", X) the app's package binds X;
# ("submodule", X) the app has a submodule X; ("imports", "") a failed import is skipped
# (`try`/`except ImportError` around the pass); ("unknown", text) a test not read
Filter = tuple[str, str]


@dataclass(frozen=True, slots=True)
class AppLoop:
    """A loop over apps: its source, the loop variable, the tests a pass must meet, and (for
    a function's loop) what each item it returns is: attribute -> the app's "name", "label",
    "entry" (as `INSTALLED_APPS` spells it) or "config" ("" the item itself)."""

    source: str
    name: str
    var: str
    line: int
    filters: tuple[Filter, ...] = ()
    item: tuple[tuple[str, str], ...] = ()

    def but(self, *filters: Filter) -> AppLoop:
        return replace(self, filters=self.filters + filters)


# What reads a string the file spells (`django_facts._Reader.text`): a literal, an f-string,
# `+`, a module constant, as every string the Django reader takes
TextOf = Callable[[ast.expr | None], str | None]


def app_loop(iterable: ast.expr, target: ast.expr, line: int) -> AppLoop:
    """The loop `for target in iterable`: over the installed apps where `iterable` says so
    (`source` "" otherwise, or where the target is not one name)."""
    var = target.id if isinstance(target, ast.Name) else ""
    text = ast.unparse(iterable)[:60]
    source = ""
    while isinstance(iterable, ast.Call) and attribute_path(iterable.func) in {
        "sorted", "list", "tuple", "reversed", "set",
    } and iterable.args:  # fmt: skip
        iterable = iterable.args[0]
    name = (
        attribute_path(iterable.func)
        if isinstance(iterable, ast.Call)
        else attribute_path(iterable)
    )
    if isinstance(iterable, ast.Call) and (name or "").endswith("get_app_configs"):
        source = CONFIGS
    elif name is not None and name.rpartition(".")[2] == "INSTALLED_APPS":
        source = SETTINGS
    elif isinstance(iterable, ast.Call) and name is not None and not iterable.args:
        source, text = CALL, name
    return AppLoop(source if var else "", text, var, line)


def app_filter(test: ast.expr, var: str, text: TextOf) -> list[Filter]:
    """The filters a pass's test is (`and` splits it): `hasattr(app, "X")`,
    `getattr(app, "X", None)`, the same of `app.module`, `module_has_submodule(app.module,
    "urls")`; any other test is ("unknown", its text)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [f for value in test.values for f in app_filter(value, var, text)]
    if isinstance(test, ast.Call) and len(test.args) >= 2:
        func = (attribute_path(test.func) or "").rpartition(".")[2]
        owner, what = attribute_path(test.args[0]), text(test.args[1])
        if (
            what is not None
            and func in {"hasattr", "getattr"}
            and (func == "hasattr" or len(test.args) == 3)
        ):
            if owner == var:
                return [("hasattr", what)]
            if owner == f"{var}.module":
                return [("module", what)]
        if what is not None and func == "module_has_submodule" and owner == f"{var}.module":
            return [("submodule", what)]
    return [("unknown", ast.unparse(test)[:60])]


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def catches_imports(handler: ast.ExceptHandler) -> bool:
    """`except ImportError:` (or a base of it, or a bare `except`)."""
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return handler.type is None or any(
        (attribute_path(k) or "").rpartition(".")[2] in _IMPORT_ERRORS
        for k in kinds
        if k is not None
    )


def passes(body: list[ast.stmt], loop: AppLoop, text: TextOf) -> list[tuple[ast.stmt, AppLoop]]:
    """The statements of a loop's body, each with the filters it runs under (`if` tests,
    `if not test: continue` before it, a `try` skipping failed imports)."""
    out: list[tuple[ast.stmt, AppLoop]] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            skip = all(isinstance(s, ast.Continue) for s in stmt.body)
            if skip and isinstance(stmt.test, ast.UnaryOp) and isinstance(stmt.test.op, ast.Not):
                loop = loop.but(*app_filter(stmt.test.operand, loop.var, text))  # the rest
                continue
            out += passes(stmt.body, loop.but(*app_filter(stmt.test, loop.var, text)), text)
            otherwise = ("unknown", f"not {ast.unparse(stmt.test)[:56]}")
            out += passes(stmt.orelse, loop.but(otherwise), text)
        elif isinstance(stmt, ast.Try):
            guarded = any(catches_imports(h) for h in stmt.handlers)
            out += passes(stmt.body, loop.but(("imports", "")) if guarded else loop, text)
            for handler in stmt.handlers:
                out += passes(handler.body, loop.but(("unknown", "an `except` block")), text)
            out += passes(stmt.orelse + stmt.finalbody, loop, text)
        elif isinstance(stmt, ast.With):
            out += passes(stmt.body, loop, text)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            out += passes(stmt.body, loop.but(("unknown", "a loop inside the loop")), text)
        else:
            out.append((stmt, loop))
    return out


def function_loop(node: ast.FunctionDef | ast.AsyncFunctionDef, text: TextOf) -> AppLoop | None:
    """A function returning (or yielding) apps: a `for` over the installed apps whose passes
    append (or yield) the app, its name, or an attribute of it the pass annotates
    (`meta = app.Marker; meta.module = app.name; found.append(meta)`); or a comprehension over
    them returned. None: not such a function."""
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Return) and isinstance(
            stmt.value, ast.ListComp | ast.GeneratorExp | ast.SetComp
        ):
            found = comprehension_loop(stmt.value, text)
            if found is not None and found.source in {CONFIGS, SETTINGS}:
                item = _item(stmt.value.elt, found.var, {})
                return replace(found, item=item) if item else None
        if not isinstance(stmt, ast.For | ast.AsyncFor):
            continue
        loop = app_loop(stmt.iter, stmt.target, stmt.lineno)
        if loop.source not in {CONFIGS, SETTINGS}:
            continue
        objects: dict[str, dict[str, str]] = {}  # a name bound to `app.X`: its attributes
        for inner, under in passes(stmt.body, loop, text):
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1:
                target = inner.targets[0]
                if isinstance(target, ast.Name) and attribute_path(inner.value) is not None:
                    objects[target.id] = {}
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    kept = objects.get(target.value.id)
                    what = _item(inner.value, loop.var, {})
                    if kept is not None and len(what) == 1 and what[0][0] == "":
                        kept[target.attr] = what[0][1]
                continue
            added = _added(inner)
            if added is not None:
                item = _item(added, loop.var, objects)
                if item:
                    return replace(under, item=item)
    return None


def comprehension_loop(
    node: ast.ListComp | ast.GeneratorExp | ast.SetComp, text: TextOf
) -> AppLoop | None:
    """`[elt for var in source if test]` (one generator): the loop with its filters."""
    if len(node.generators) != 1:
        return None
    generator = node.generators[0]
    loop = app_loop(generator.iter, generator.target, node.lineno)
    for test in generator.ifs:
        loop = loop.but(*app_filter(test, loop.var, text))
    return loop


def _added(stmt: ast.stmt) -> ast.expr | None:
    """What a statement adds to the result: `x.append(item)`, `yield item`."""
    if isinstance(stmt, ast.Expr):
        value = stmt.value
        if isinstance(value, ast.Yield):
            return value.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "append"
            and len(value.args) == 1
        ):
            return value.args[0]
    return None


def _item(
    node: ast.expr | None, var: str, objects: dict[str, dict[str, str]]
) -> tuple[tuple[str, str], ...]:
    """What an added item is, as attribute -> property of the app ("" the item itself)."""
    if isinstance(node, ast.Name) and node.id == var:
        return (("", "config"),)
    if isinstance(node, ast.Name) and node.id in objects:
        return tuple(objects[node.id].items())
    name = attribute_path(node)
    if name in {f"{var}.name", f"{var}.label"}:
        return (("", name.rpartition(".")[2]),)
    return ()
