"""Flask's configuration as data the app loads: the writes a file makes to `app.config`, and the
value a read of one key (`app.config["AUTH_PREFIX"]` as a blueprint's `url_prefix`) has once
they have run.

Flask's `Config` is a dict the app fills as it starts: `from_object(obj)` copies the upper-case
attributes of a class or module (or of what a dotted string names, as werkzeug's
`import_string` finds it: `pkg.settings.Default`, or the module `pkg.settings`);
`from_mapping`, `update` and `config["K"] = v` set keys; `setdefault` sets an unset one. Those
are read here as they are written, in each file's statement order (`config_writes`), and folded
per key (`fold`). What only the running app knows — `from_envvar`, `from_pyfile`,
`from_prefixed_env`, `from_file`, `from_object` of a value no scanned file shows — may set any
key: the value read before it (or `get`'s default) is kept, and the route it names says what
may override it (`attrs.configDefault`), never silently.

The app is not told apart from another: a repository's writes to any `x.config` in a file that
names Flask or a loader (`may_write`) are taken as one app's (an app factory writes them through a parameter, `def
configure_app(app): app.config.from_object(...)`). Where files set a key differently, the
value is one of them, not known (an `UNRESOLVED_PREFIX` where it is a prefix).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .model import Expr, FlaskConfigRead, FlaskConfigWrite, Lit, Param

# what may set any key, as only the running app knows
LOADERS = frozenset({"from_envvar", "from_pyfile", "from_prefixed_env", "from_file"})
# a pre-filtering scan parses the files spelling one of these before it trusts a read
WORDS = frozenset({"from_object", "from_mapping", *LOADERS})
_SETTERS = frozenset({"update", "from_mapping"})
_SOURCE_CHARS = 80  # of a write's text, in a route's `configDefault`


def may_write(source: str) -> bool:
    """Whether a file's `x.config` may be a Flask app's: it names Flask, or one of `Config`'s
    own loaders (a helper given the app, `def setup(app): app.config.from_object(...)`)."""
    return "flask" in source or any(word in source for word in WORDS)


ValueOf = Callable[[ast.expr | None], Expr | None]


def _config(node: ast.expr) -> bool:
    """`x.config`: a Flask app's configuration as a file that names Flask writes it."""
    return type(node) is ast.Attribute and node.attr == "config"


def config_read(node: ast.expr, value: ValueOf) -> FlaskConfigRead | None:
    """`x.config["K"]`, `x.config.get("K")`, `x.config.get("K", default)`: a key spelled as a
    string; None for anything else."""
    if type(node) is ast.Subscript:
        key = node.slice
        if _config(node.value) and type(key) is ast.Constant and type(key.value) is str:
            return FlaskConfigRead(key.value)
        return None
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute:
        return None
    func, args = node.func, node.args
    if func.attr != "get" or not _config(func.value) or node.keywords or not 1 <= len(args) <= 2:
        return None
    if type(args[0]) is not ast.Constant or type(args[0].value) is not str:
        return None
    default = (value(args[1]) or _COMPUTED) if len(args) == 2 else None
    return FlaskConfigRead(args[0].value, default)


_COMPUTED = Lit("\0")  # a default that is no string this reader shows: never a path


def config_writes(
    stmt: ast.stmt, value: ValueOf, scope: str, conditional: bool
) -> list[FlaskConfigWrite]:
    """The writes one statement makes to `x.config`, in order (`update(A=1, B=2)`: two)."""
    line = stmt.lineno
    if type(stmt) is ast.Assign:
        found: list[FlaskConfigWrite] = []
        for target in stmt.targets:
            if type(target) is not ast.Subscript or not _config(target.value):
                continue
            key = _string(target.slice)
            if key is not None:
                found.append(FlaskConfigWrite(line, "set", key, value(stmt.value), "", scope))
            else:  # `app.config[name] = value` (from the environment): any key
                found.append(FlaskConfigWrite(line, "runtime", "", None, _text(stmt), scope))
        return [dataclasses.replace(w, conditional=conditional) for w in found]
    call = stmt.value if type(stmt) is ast.Expr else None
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute:
        return []
    if not _config(call.func.value):
        return []
    method, args = call.func.attr, call.args
    source = _text(call)

    def write(kind: str, key: str = "", written: Expr | None = None) -> FlaskConfigWrite:
        return FlaskConfigWrite(line, kind, key, written, source, scope, conditional)

    if method == "from_object" and len(args) == 1 and not call.keywords:
        dotted = _string(args[0])  # a dotted name, resolved by the linker
        return [write("object", written=Lit(dotted) if dotted is not None else value(args[0]))]
    if method in _SETTERS:
        found = []
        for arg in args:
            if type(arg) is not ast.Dict:
                return [*found, write("runtime")]  # a mapping not spelled here: any key
            for k, v in zip(arg.keys, arg.values, strict=True):
                key = _string(k) if k is not None else None
                if key is None:  # `**other`, a computed key
                    return [*found, write("runtime")]
                found.append(write("set", key, value(v)))
        for keyword in call.keywords:
            if keyword.arg is None:
                return [*found, write("runtime")]
            found.append(write("set", keyword.arg, value(keyword.value)))
        return found
    if method == "setdefault" and args and (key := _string(args[0])) is not None:
        return [write("setdefault", key, value(args[1]) if len(args) > 1 else None)]
    if method in LOADERS:
        return [write("runtime")]
    return []


def _text(node: ast.AST) -> str:
    """A write as written, cut short for a route's `configDefault`."""
    text = ast.unparse(node)
    return text if len(text) <= _SOURCE_CHARS else text[: _SOURCE_CHARS - 1] + "…"


def _string(node: ast.expr | None) -> str | None:
    return node.value if type(node) is ast.Constant and type(node.value) is str else None


V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Held(Generic[V]):
    """What one key holds after some writes: `value` (`set`: whether any write set it; a value
    of None is one the scan does not show), and the writes that may have set another
    (`assumed`: sources for `attrs.configDefault`)."""

    set: bool
    value: V | None
    assumed: tuple[str, ...] = ()


ABSENT = "absent"  # `from_object` of a class or module that has no such attribute
UNKNOWN = "unknown"  # `from_object` of what the scan does not show: it may set any key


def fold(
    writes: Sequence[tuple[str, FlaskConfigWrite]],
    key: str,
    evaluate: Callable[[str, Expr], V | None],
    attribute: Callable[[str, Expr, str], V | str | None],
    one_of: Callable[[list[V | None]], V | None],
) -> Held[V]:
    """The value `key` holds once `writes` ((file, write), each file's in statement order)
    have run: per file in order, then the files agreeing (else `one_of` their values).
    `evaluate(file, expr)` reads a written value; `attribute(file, target, key)` what
    `from_object(target)` sets it to (`ABSENT`, `UNKNOWN`, a value, None: one not shown)."""
    by_file: dict[str, list[FlaskConfigWrite]] = {}
    for file, write in writes:
        by_file.setdefault(file, []).append(write)
    results: list[Held[V]] = []
    for file, own in by_file.items():
        held: Held[V] = Held(False, None)
        for write in sorted(own, key=lambda w: w.line):
            where = f"{write.source} ({file}:{write.line})"
            got: V | str | None
            if write.kind == "runtime":
                got = UNKNOWN
            elif write.kind == "object":  # Flask copies upper-case attributes only
                if not key.isupper():
                    got = ABSENT
                else:
                    got = attribute(file, write.value, key) if write.value else UNKNOWN
            elif write.key != key or (write.kind == "setdefault" and held.set):
                continue
            else:
                got = evaluate(file, write.value) if write.value is not None else None
            if got is ABSENT:
                continue
            if got is UNKNOWN:  # whatever it was, the running app may set another
                held = Held(held.set, held.value, (*held.assumed, f"may be set by {where}"))
                continue
            value: V | None = got  # type: ignore[assignment]
            assumed: tuple[str, ...] = ()
            if type(write.value) is Param:  # `def create_app(config=Default)`
                assumed = (f"{write.value.name}'s default, a caller may pass another: {where}",)
            if write.conditional:  # it may not run: what was held before, or nothing
                if not held.set:
                    assumed = (*assumed, f"set only where {where} runs")
                elif held.value != value:
                    value = one_of([held.value, value])
                assumed = (*held.assumed, *assumed)
            elif write.kind == "setdefault":  # a loader before it may have set the key
                assumed = (*held.assumed, *assumed)
            held = Held(True, value, assumed)
        if held.set or held.assumed:
            results.append(held)
    every = tuple(dict.fromkeys(a for h in results for a in h.assumed))
    values = [h.value for h in results if h.set]
    if not values:
        return Held(False, None, every)
    agreed = values[0] if all(v == values[0] for v in values) else one_of(values)
    return Held(True, agreed, every)
