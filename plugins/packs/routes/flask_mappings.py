"""The mappings a project's configuration code copies into a Flask app's `config`, read from
the file that writes them (`flask_config.config_writes`' `spelled`).

An app's configuration is often filled by the project's own code from a dict of defaults
rather than written out at the call: `app.config.from_mapping(DEFAULTS)`, `update({k:
os.environ.get(k, v) for k, v in DEFAULTS.items()})`, `for k, v in DEFAULTS.items():
app.config.setdefault(k, v)`, or a configuration manager that fills a dict of its own
(`self.values.update({...}); self.values["X"] = ...`) and copies it in at the end
(`app.config.update(self.values)`). Here each of those becomes the keys and values the file
shows, in the order they are set, so the linker folds them as it folds written-out keys:

- a module-level name bound once to a dict literal with string keys is that dict;
- a comprehension `{k: E for k, v in D.items()}` over such a dict is one pair per key, `E`
  with `k` and `v` replaced by the key and its value as written (`os.environ.get(k, v)` reads
  as the variable's default, as any environment read does);
- a name or `self.attr` the enclosing def fills before the copy is what its statements put
  there, in order: `R.update(m)` (any of the above), `R["K"] = v`; one written inside an `if`,
  a loop or a `try` sets its key to a value not known, one with a computed key any key;
  `R.update(app.config)` copies the app's own keys back (nothing changes); a loop over
  `os.environ` runs no pass (the environment is taken as unset, as its reads are); a value
  reading a key set before (`R["K"] + "/x"`) reads what was set there. Anything else done
  to it (`pop`, `clear`, passing it on) leaves it a mapping not shown (any key).

A dict the def does not show (a parameter, a call's result) is not read: the write it makes
stays one that may set any key, named in the routes' `attrs.configDefault`.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Sequence

from .flask_config import Pairs
from .model import Expr
from .py_branches import _substituted

_MAX_KEYS = 256  # a dict of more keys is not expanded: a mapping not shown
_COPIES = frozenset({"update"})
_READS = frozenset({"get", "items", "keys", "values", "copy", "__contains__"})


def module_dicts(body: Sequence[ast.stmt]) -> dict[str, ast.Dict]:
    """The module-level names bound once, to a dict literal whose keys are all strings."""
    counts: dict[str, int] = {}
    found: dict[str, ast.Dict] = {}
    for stmt in body:
        if not isinstance(stmt, ast.Assign):
            continue
        for target in stmt.targets:
            if type(target) is ast.Name:
                counts[target.id] = counts.get(target.id, 0) + 1
                if isinstance(stmt.value, ast.Dict) and _keys(stmt.value) is not None:
                    found[target.id] = stmt.value
    return {name: d for name, d in found.items() if counts[name] == 1}


def _keys(node: ast.Dict) -> list[str] | None:
    keys = [k.value if type(k) is ast.Constant else None for k in node.keys]
    if len(keys) > _MAX_KEYS or not all(type(k) is str for k in keys):
        return None
    return [str(k) for k in keys]


def dict_pairs(node: ast.Dict) -> list[tuple[str, ast.expr]]:
    """A dict literal's string-keyed pairs (the caller checked its keys)."""
    return [
        (k.value, v)
        for k, v in zip(node.keys, node.values, strict=True)
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    ]


def substituted(stmt: ast.stmt, names: dict[str, ast.expr]) -> ast.stmt:
    """`stmt` with each name in `names` replaced by its value (a loop's pass)."""
    replaced = _substituted(stmt, names)
    assert isinstance(replaced, ast.stmt)
    return replaced


def item_bindings(
    target: ast.expr, over: ast.expr, dicts: dict[str, ast.Dict]
) -> list[dict[str, ast.expr]] | None:
    """What `for k, v in D.items()` (a loop or a comprehension) binds on each pass, `D` a
    module dict: `k` to the key as a string, `v` to its value as written; None for any other
    loop."""
    if not (
        type(target) is ast.Tuple
        and len(target.elts) == 2
        and all(type(e) is ast.Name for e in target.elts)
        and type(over) is ast.Call
        and not over.args
        and not over.keywords
        and type(over.func) is ast.Attribute
        and over.func.attr == "items"
        and type(over.func.value) is ast.Name
        and over.func.value.id in dicts
    ):
        return None
    key, value = (e.id for e in target.elts)  # type: ignore[attr-defined]
    pairs = dict_pairs(dicts[over.func.value.id])
    return [{key: ast.Constant(k), value: v} for k, v in pairs]


def comprehension_pairs(node: ast.DictComp, dicts: dict[str, ast.Dict]) -> Pairs | None:
    """`{k: E for k, v in D.items()}`: `E` per key of `D`, `k` and `v` replaced."""
    if len(node.generators) != 1 or type(node.key) is not ast.Name:
        return None
    gen = node.generators[0]
    if gen.ifs or gen.is_async:
        return None
    bound = item_bindings(gen.target, gen.iter, dicts)
    if bound is None or any(node.key.id not in b for b in bound):
        return None
    pairs: Pairs = []
    for names in bound:
        key = names[node.key.id]
        assert isinstance(key, ast.Constant)
        replaced = _substituted(node.value, names)
        assert isinstance(replaced, ast.expr)
        pairs.append((str(key.value), replaced))
    return pairs


Filled = Callable[[ast.expr], "Pairs | None"]


def spelled(node: ast.expr, dicts: dict[str, ast.Dict], filled: Filled) -> Pairs | None:
    """The pairs a mapping argument holds where the file shows them (see the module's text)."""
    if isinstance(node, ast.Dict):
        return [*dict_pairs(node)] if _keys(node) is not None else None
    if type(node) is ast.DictComp:
        return comprehension_pairs(node, dicts)
    if isinstance(node, ast.Name) and node.id in dicts:
        return [*dict_pairs(dicts[node.id])]
    if type(node) is ast.Name or (type(node) is ast.Attribute and type(node.value) is ast.Name):
        return filled(node)
    return None


def filled_before(
    body: Sequence[ast.stmt],
    receiver: ast.expr,
    line: int,
    dicts: dict[str, ast.Dict],
    is_config: Callable[[ast.expr], bool],
) -> Pairs | None:
    """What a def's statements before `line` put in `receiver` (a name or `self.attr`), in
    order; None where something else is done to it (it may hold any key)."""
    spelling = ast.dump(receiver)
    pairs: Pairs = []
    for stmt in body:
        if stmt.lineno >= line:
            break
        if not any(_is(n, spelling) for n in ast.walk(stmt)):
            continue
        found = _filled_by(stmt, spelling, dicts, is_config)
        if found is None:
            return None
        if type(stmt) in (ast.Expr, ast.Assign):
            pairs += [(k, _read_back(v, spelling, pairs)) for k, v in found]
        else:  # in an `if`, a loop, a `try`: its keys may or may not be set
            pairs += [(k, None) for k, _ in found]
    return pairs


def _filled_by(
    stmt: ast.stmt, spelling: str, dicts: dict[str, ast.Dict], is_config: Callable[[ast.expr], bool]
) -> Pairs | None:
    """The pairs one statement (at any depth) puts in the receiver spelled `spelling`."""
    if type(stmt) is ast.Assign and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if _is(target, spelling):  # `self.values = dict()`: filled from nothing again
            return [] if _empty(stmt.value) else None
        if type(target) is ast.Subscript and _is(target.value, spelling):
            key = target.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                return [(key.value, stmt.value)]
            return [("", None)]
        return None if _passed_on(stmt, spelling) else []
    if type(stmt) is ast.Expr and type(stmt.value) is ast.Call:
        call = stmt.value
        func = call.func
        if type(func) is ast.Attribute and _is(func.value, spelling):
            if func.attr in _READS:
                return []
            if func.attr in _COPIES and len(call.args) == 1 and not call.keywords:
                if is_config(call.args[0]):  # the app's own keys, copied back later
                    return []
                return spelled(call.args[0], dicts, lambda _: None)
            return None
    if type(stmt) is ast.For and _environ(stmt.iter):
        return []  # the environment taken as unset, as its reads are: no pass
    if type(stmt) in (ast.If, ast.For, ast.While, ast.With, ast.Try):
        nested: Pairs = []
        for inner in _children(stmt):
            if not any(_is(n, spelling) for n in ast.walk(inner)):
                continue
            found = _filled_by(inner, spelling, dicts, is_config)
            if found is None:
                return None
            nested += found
        return nested
    return None if _passed_on(stmt, spelling) else []


def _read_back(
    value: ast.expr | Expr | None, spelling: str, pairs: Pairs
) -> ast.expr | Expr | None:
    """A value as written with each read of a key set before (`R["K"]`) replaced by what was
    set there; None where it reads the receiver otherwise, or a key not known."""
    if not isinstance(value, ast.expr) or not _reads(value, spelling):
        return value
    known = {k: v for k, v in pairs if k}
    unknown = any(not k for k, _ in pairs)

    class Reads(ast.NodeTransformer):
        failed = False

        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
            key = node.slice
            if _is(node.value, spelling) and isinstance(key, ast.Constant):
                held = known.get(str(key.value)) if not unknown else None
                if isinstance(held, ast.expr):
                    return held
            self.failed = self.failed or _is(node.value, spelling)
            return self.generic_visit(node)

    reads = Reads()
    replaced = reads.visit(copy.deepcopy(value))
    return None if reads.failed or _reads(replaced, spelling) else replaced


def _empty(node: ast.expr) -> bool:
    """`{}` or `dict()`."""
    if isinstance(node, ast.Dict):
        return not node.keys
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "dict"
        and not node.args
        and not node.keywords
    )


def _environ(node: ast.expr) -> bool:
    """`os.environ` (or `environ` imported from `os`)."""
    if type(node) is ast.Attribute:
        return node.attr == "environ" and type(node.value) is ast.Name and node.value.id == "os"
    return type(node) is ast.Name and node.id == "environ"


def _children(stmt: ast.stmt) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for name in ("body", "orelse", "finalbody"):
        out += getattr(stmt, name, [])
    for handler in getattr(stmt, "handlers", []):
        out += handler.body
    return out


def _is(node: ast.AST, spelling: str) -> bool:
    return isinstance(node, ast.Name | ast.Attribute) and ast.dump(node) == spelling


def _reads(node: ast.AST, spelling: str) -> bool:
    return any(_is(n, spelling) for n in ast.walk(node))


def _passed_on(node: ast.AST, spelling: str) -> bool:
    """The receiver given whole to a call (`helper(self.values)`) or a method of it called
    that is not a read: it may change there."""
    for inner in ast.walk(node):
        if type(inner) is not ast.Call:
            continue
        if any(_is(a, spelling) for a in inner.args) or any(
            _is(k.value, spelling) for k in inner.keywords
        ):
            return True
        func = inner.func
        if type(func) is ast.Attribute and _is(func.value, spelling) and func.attr not in _READS:
            return True
    return False


def own_attributes(cls: ast.ClassDef) -> frozenset[str]:
    """The attributes a class's methods assign on their first parameter (`self.config =
    dict()`): an instance's own, never a Flask app's `config`."""
    found: set[str] = set()
    for stmt in cls.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) or not stmt.args.args:
            continue
        first = stmt.args.args[0].arg
        for node in ast.walk(stmt):
            if (
                type(node) is ast.Attribute
                and type(node.ctx) is ast.Store
                and type(node.value) is ast.Name
                and node.value.id == first
            ):
                found.add(node.attr)
    return frozenset(found)
