"""Flask's configuration as data the app loads: the writes a file makes to `app.config`, and the
value a read of one key (`app.config["AUTH_PREFIX"]` as a blueprint's `url_prefix`) has once
they have run.

Flask's `Config` is a dict the app fills as it starts: `from_object(obj)` copies the upper-case
attributes of a class or module (or of what a dotted string names, as werkzeug's
`import_string` finds it: `pkg.settings.Default`, or the module `pkg.settings`);
`from_pyfile(name)` those of a Python file, relative to the app's root folder or, with
`instance_relative_config=True`, to its instance folder; `from_mapping`, `update` and
`config["K"] = v` set keys; `setdefault` sets an unset one. Those are read here as they are
written, in each file's statement order (`config_writes`), and folded per key (`fold`). What
only the running app knows — `from_envvar`, `from_prefixed_env`, `from_file`, a file or object
the scan does not show — may set any key: the value read before it (or `get`'s default) is
kept, and the route it names says what may override it (`attrs.configDefault`), never silently.

Which writes run is the code's to decide, as the repository's defaults have it: a write under
an `if` runs where its test holds (an environment variable read with a default, a constant:
the linker decides it, `Reader.holds`); one in a `try` runs as Python runs it, each statement
of the body until one raises, an `except` where the body raised what it catches (a
`from_pyfile` of a file the repository does not hold raises `FileNotFoundError` unless
`silent=True`; `from_envvar` of an unset variable `RuntimeError`; `from_object` of a dotted
name the repository's package does not hold `ImportError`: `Reader.raises`). A write the
defaults do not run sets nothing, said where it might have; one nothing decides may run, as
before (`set only where … runs`).

The app is not told apart from another: a repository's writes to any `x.config` in a file that
names Flask or a loader (`may_write`) are taken as one app's (an app factory writes them through a parameter, `def
configure_app(app): app.config.from_object(...)`). Where files set a key differently, the
value is one of them, not known (an `UNRESOLVED_PREFIX` where it is a prefix).
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import posixpath
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from .model import (
    Condition,
    Expr,
    FlaskApp,
    FlaskConfigRead,
    FlaskConfigWrite,
    Lit,
    Param,
    Tried,
    TryBlock,
)

# what may set any key, as only the running app knows (`from_pyfile`: unless its file is read)
LOADERS = frozenset({"from_envvar", "from_pyfile", "from_prefixed_env", "from_file"})
# a pre-filtering scan parses the files spelling one of these before it trusts a read
# (`.config.update(`: a project's extension filling the app it is given, `init_app(app)`)
WORDS = frozenset({"from_object", "from_mapping", ".config.update(", *LOADERS})
_SETTERS = frozenset({"update", "from_mapping"})
_SOURCE_CHARS = 80  # of a write's text, in a route's `configDefault`
# each loader's `silent` as a positional argument: `from_file(filename, load, silent)`
_SILENT_AT = {"from_pyfile": 1, "from_envvar": 1, "from_file": 2}
_KINDS = {"from_pyfile": "pyfile", "from_envvar": "envvar", "from_file": "file"}


def may_write(source: str) -> bool:
    """Whether a file's `x.config` may be a Flask app's: it names Flask, or one of `Config`'s
    own loaders (a helper given the app, `def setup(app): app.config.from_object(...)`)."""
    return "flask" in source or any(word in source for word in WORDS)


ValueOf = Callable[[ast.expr | None], Expr | None]
AppOf = Callable[[ast.expr], FlaskApp | None]
Pairs = list[tuple[str, "ast.expr | Expr | None"]]
"""A mapping's keys and values as the file spells them, in the order they are set: a value of
None is one not shown; a key of "" is any key (one computed at run time)."""
SpelledOf = Callable[[ast.expr], Pairs | None]


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
    stmt: ast.stmt, value: ValueOf, scope: str, app_of: AppOf, spelled: SpelledOf = lambda _: None
) -> list[FlaskConfigWrite]:
    """The writes one statement makes to `x.config`, in order (`update(A=1, B=2)`: two), as if
    it ran unconditionally (`placements` says where it may not). `app_of(x)`: the app `x` is,
    made in this file (a loader of files reads relative to its folders); `spelled(m)`: the
    pairs a mapping not written out at the call holds where the file shows them (a module's
    dict, a comprehension over one, a dict the def fills before it copies it in)."""
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
        return found
    call = _config_call(stmt)
    if call is None:
        return []
    assert isinstance(call.func, ast.Attribute)
    method, args = call.func.attr, call.args
    source = _text(call)

    def write(kind: str, key: str = "", written: Expr | None = None) -> FlaskConfigWrite:
        return FlaskConfigWrite(line, kind, key, written, source, scope)

    if method == "from_object" and len(args) == 1 and not call.keywords:
        dotted = _string(args[0])  # a dotted name, resolved by the linker
        return [write("object", written=Lit(dotted) if dotted is not None else value(args[0]))]
    if method in _SETTERS:
        found = []
        for arg in args:
            if type(arg) is not ast.Dict:
                pairs = spelled(arg)
                if pairs is None:
                    return [*found, write("runtime")]  # a mapping not spelled here: any key
                found += (
                    write("set", k, value(v) if isinstance(v, ast.expr) else v)
                    if k
                    else write("runtime")
                    for k, v in pairs
                )
                continue
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
    if method in _KINDS:
        return [_loader(write(_KINDS[method]), call, value, app_of)]
    if method in LOADERS:
        return [write("runtime")]
    return []


def _config_call(stmt: ast.stmt) -> ast.Call | None:
    """The call of a method of `x.config` a statement is (`app.config.from_pyfile(...)`)."""
    call = stmt.value if type(stmt) is ast.Expr else None
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute:
        return None
    return call if _config(call.func.value) else None


def _loader(
    found: FlaskConfigWrite, call: ast.Call, value: ValueOf, app_of: AppOf
) -> FlaskConfigWrite:
    """`from_pyfile(name, silent)`, `from_envvar(variable, silent)`, `from_file(name, load,
    silent)`: what it names, its `silent`, and (a file name) the app whose folders it is
    relative to."""
    assert isinstance(call.func, ast.Attribute)
    method, args = call.func.attr, call.args
    silent: ast.expr | None = next((k.value for k in call.keywords if k.arg == "silent"), None)
    if silent is None and len(args) > _SILENT_AT[method]:
        silent = args[_SILENT_AT[method]]
    first = args[0] if args and type(args[0]) is not ast.Starred else None
    if first is None and (named := next((k for k in call.keywords if k.arg != "silent"), None)):
        first = named.value  # `from_pyfile(filename=...)`
    flag = silent.value if type(silent) is ast.Constant else None
    found = dataclasses.replace(
        found,
        silent=False if silent is None else flag if type(flag) is bool else None,
        value=value(first) if first is not None else None,
    )
    if found.kind == "envvar":
        return dataclasses.replace(found, key=_string(first) or "")
    receiver = call.func.value
    assert isinstance(receiver, ast.Attribute)  # `x.config`
    return dataclasses.replace(found, app=app_of(receiver.value))


def app_made(call: ast.Call) -> FlaskApp:
    """What a call making an app (`Flask(__name__, instance_relative_config=True)`) says of its
    folders: the import name (`__name__`, `__name__.split(".")[0]`, a string), whether files
    load relative to the instance folder; not `placed` where it names its folders itself or
    computes what it says."""
    keywords = {k.arg: k.value for k in call.keywords}
    if "root_path" in keywords or "instance_path" in keywords or None in keywords:
        return FlaskApp(placed=False)
    named = call.args[0] if call.args else keywords.get("import_name")
    relative = keywords.get("instance_relative_config")
    instance: bool | None = False
    if relative is not None:
        flag = relative.value if type(relative) is ast.Constant else None
        instance = flag if type(flag) is bool else None
    if type(named) is ast.Name and named.id == "__name__":
        return FlaskApp("", False, instance)
    if _top_of_name(named):
        return FlaskApp("", True, instance)
    text = _string(named)
    return FlaskApp(text, False, instance) if text else FlaskApp(placed=False)


def _top_of_name(node: ast.expr | None) -> bool:
    """`__name__.split(".")[0]`: the top-level package of the module making the app."""
    if not (type(node) is ast.Subscript and _string_index(node.slice) == 0):
        return False
    call = node.value
    return (
        type(call) is ast.Call
        and type(call.func) is ast.Attribute
        and call.func.attr == "split"
        and type(call.func.value) is ast.Name
        and call.func.value.id == "__name__"
        and [_string(a) for a in call.args] == ["."]
    )


def _string_index(node: ast.expr) -> int | None:
    return node.value if type(node) is ast.Constant and type(node.value) is int else None


def _text(node: ast.AST) -> str:
    """A write as written, cut short for a route's `configDefault`."""
    text = ast.unparse(node)
    return text if len(text) <= _SOURCE_CHARS else text[: _SOURCE_CHARS - 1] + "…"


def _string(node: ast.expr | None) -> str | None:
    return node.value if type(node) is ast.Constant and type(node.value) is str else None


# -- where a write is written: the `if`s and `try`s around it ------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a statement of a body is: the `if` tests around it, outermost first, each with
    whether it is in the `else` branch; its place in each `try` around it; `looped`: in a loop,
    a `with` or a `match` case, which may not run it."""

    tests: tuple[tuple[ast.expr, bool], ...] = ()
    tried: tuple[Tried, ...] = ()
    looped: bool = False


_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)
_QUIET = (ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal)  # they raise nothing


def placements(body: Sequence[ast.stmt]) -> dict[int, Placement]:
    """Every statement of a module's or a def's body (at any depth, defs excepted) that is
    written inside a compound statement, by id, with its `Placement`."""
    found: dict[int, Placement] = {}
    _place(body, Placement(), found)
    return found


def _place(body: Sequence[ast.stmt], around: Placement, found: dict[int, Placement]) -> None:
    for stmt in body:
        if around != _TOP:
            found[id(stmt)] = around
        if type(stmt) is ast.If:
            _place(stmt.body, _within(around, tests=(stmt.test, False)), found)
            _place(stmt.orelse, _within(around, tests=(stmt.test, True)), found)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            block = try_block(stmt)
            for index, inner in enumerate(stmt.body):
                _place((inner,), _within(around, tried=Tried(block, "body", index)), found)
            for index, handler in enumerate(stmt.handlers):
                _place(handler.body, _within(around, tried=Tried(block, "handler", index)), found)
            _place(stmt.orelse, _within(around, tried=Tried(block, "else")), found)
            _place(stmt.finalbody, _within(around, tried=Tried(block, "finally")), found)
        elif isinstance(stmt, _LOOPS):
            _place(stmt.body, dataclasses.replace(around, looped=True), found)
            _place(getattr(stmt, "orelse", ()), dataclasses.replace(around, looped=True), found)
        elif type(stmt) is ast.Match:
            for case in stmt.cases:
                _place(case.body, dataclasses.replace(around, looped=True), found)


_TOP = Placement()


def _within(
    around: Placement,
    tests: tuple[ast.expr, bool] | None = None,
    tried: Tried | None = None,
) -> Placement:
    return Placement(
        (*around.tests, *((tests,) if tests else ())),
        (*around.tried, *((tried,) if tried else ())),
        around.looped,
    )


def try_block(stmt: ast.Try | ast.TryStar) -> TryBlock:
    """A `try` as `TryBlock`: each body statement's line where it writes the configuration (its
    loaders may raise: the linker tells), -1 where it cannot raise (`pass`, a constant
    assigned), 0 where it may (any other statement); each handler's exception names."""
    steps = tuple(
        s.lineno if _config_call(s) is not None else -1 if _quiet(s) else 0 for s in stmt.body
    )
    handlers = tuple(_caught_names(h.type) for h in stmt.handlers)
    return TryBlock(stmt.lineno, steps, handlers)


def _quiet(stmt: ast.stmt) -> bool:
    if isinstance(stmt, _QUIET):
        return True
    if type(stmt) is ast.Expr:
        return type(stmt.value) is ast.Constant  # a docstring
    if type(stmt) is ast.Assign:
        return type(stmt.value) is ast.Constant and all(type(t) is ast.Name for t in stmt.targets)
    return False


def _caught_names(node: ast.expr | None) -> tuple[str, ...]:
    """The names an `except` names: () for a bare one; a dotted name's last part; "?" for
    anything else (not known)."""
    if node is None:
        return ()
    items = node.elts if type(node) is ast.Tuple else [node]
    return tuple(
        i.id if type(i) is ast.Name else i.attr if type(i) is ast.Attribute else "?" for i in items
    )


# -- what runs, and what a key holds once it has ----------------------------------------------


class Raise(NamedTuple):
    """Whether a write raises under the repository's defaults: `how` "no", "yes" (`kind`: the
    builtin exception class it raises) or "maybe"; `why`: what that is read from."""

    how: str
    kind: str = ""
    why: tuple[str, ...] = ()


NO = Raise("no")
MAYBE = Raise("maybe")
# names that catch what a loader raises beside the builtin classes (werkzeug's
# `ImportStringError`, which `import_string` raises, subclasses `ImportError`)
_ALSO_CATCH = {"ImportError": frozenset({"ImportStringError"})}

V = TypeVar("V")

Ran = tuple[bool | None, tuple[str, ...]]  # runs (None: not known) and what decides it


@dataclass(frozen=True, slots=True)
class Reader(Generic[V]):
    """How the linker reads what `fold` needs: `evaluate(file, expr)` a written value;
    `loaded(file, write, key)` what a `from_object` or `from_pyfile` sets `key` to (`ABSENT`,
    `UNKNOWN`, a value, None: one not shown) and what that is read from; `one_of` values that
    differ; `holds(file, condition)` whether an `if` test holds under the defaults (None: not
    known) and the defaults read; `raises(file, write)` whether a write raises."""

    evaluate: Callable[[str, Expr], V | None]
    loaded: Callable[[str, FlaskConfigWrite, str], tuple[V | str | None, tuple[str, ...]]]
    one_of: Callable[[list[V | None]], V | None]
    holds: Callable[[str, Condition], Ran]
    raises: Callable[[str, FlaskConfigWrite], Raise]


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


def fold(writes: Sequence[tuple[str, FlaskConfigWrite]], key: str, reader: Reader[V]) -> Held[V]:
    """The value `key` holds once `writes` ((file, write), each file's in statement order)
    have run as the defaults run them: per file in order, then the files agreeing (else
    `reader.one_of` their values)."""
    by_file: dict[str, list[FlaskConfigWrite]] = {}
    for file, write in writes:
        by_file.setdefault(file, []).append(write)
    results: list[Held[V]] = []
    for file, own in by_file.items():
        ordered = sorted(own, key=lambda w: w.line)
        ran = _Runs(file, ordered, reader)
        held: Held[V] = Held(False, None)
        for write in ordered:
            held = _after(held, file, write, key, reader, ran.of(write))
        if held.set or held.assumed:
            results.append(held)
    every = tuple(dict.fromkeys(a for h in results for a in h.assumed))
    values = [h.value for h in results if h.set]
    if not values:
        return Held(False, None, every)
    agreed = values[0] if all(v == values[0] for v in values) else reader.one_of(values)
    return Held(True, agreed, every)


def _after(
    held: Held[V], file: str, write: FlaskConfigWrite, key: str, reader: Reader[V], ran: Ran
) -> Held[V]:
    """What `key` holds once `write` has run (or not: `ran`) after `held`."""
    where = f"{write.source} ({file}:{write.line})"
    runs, why = ran
    if runs is False:  # the defaults do not run it: said where it might have set the key
        if why and _may_set(write, key):
            return _noted(held, f"not set by {where}, which the defaults do not run ({_and(why)})")
        return held
    raised = reader.raises(file, write)
    if raised.how == "yes" and _caught(write, raised):
        return held  # it sets nothing: what runs instead says why
    found = _got(held, file, write, key, reader)
    # uncaught, the app would not start: where it runs, it loads what the repository lacks
    got, read_from = (UNKNOWN, ()) if raised.how == "yes" else found
    if got is _SKIP:
        return held
    if got is ABSENT:
        return _noted(held, f"not set by {where}: {_and(read_from)}") if read_from else held
    if got is UNKNOWN:  # whatever it was, the running app may set another
        return _noted(held, f"may be set by {where}")
    value: V | None = got  # type: ignore[assignment]
    assumed: tuple[str, ...] = ()
    if type(write.value) is Param:  # `def create_app(config=Default)`
        assumed = (f"{write.value.name}'s default, a caller may pass another: {where}",)
    if why or read_from:
        decided = f", which the defaults run ({_and(why)})" if why else ""
        read = f": {_and(read_from)}" if read_from else ""
        assumed = (*assumed, f"set by {where}{decided}{read}")
    if runs is None:  # it may not run: what was held before, or nothing
        if not held.set:
            assumed = (*assumed, f"set only where {where} runs")
        elif held.value != value:
            value = reader.one_of([held.value, value])
        assumed = (*held.assumed, *assumed)
    elif write.kind == "setdefault":  # a loader before it may have set the key
        assumed = (*held.assumed, *assumed)
    return Held(True, value, assumed)


_SKIP = "skip"  # a write of another key


def _got(
    held: Held[V], file: str, write: FlaskConfigWrite, key: str, reader: Reader[V]
) -> tuple[V | str | None, tuple[str, ...]]:
    """What `write` sets `key` to: a value, `ABSENT`, `UNKNOWN` or `_SKIP`, and what a loaded
    value is read from."""
    if write.kind in ("runtime", "envvar", "file"):
        return UNKNOWN, ()
    if write.kind in ("object", "pyfile"):  # Flask copies upper-case attributes only
        if not key.isupper():
            return ABSENT, ()
        if write.value is None:
            return UNKNOWN, ()
        return reader.loaded(file, write, key)
    if write.key != key or (write.kind == "setdefault" and held.set):
        return _SKIP, ()
    return (reader.evaluate(file, write.value) if write.value is not None else None), ()


def _caught(write: FlaskConfigWrite, raised: Raise) -> bool:
    """Whether the `try` whose body `write` is in (the innermost) catches what it raises."""
    body = next((t for t in reversed(write.tried) if t.part == "body"), None)
    if body is None:
        return False
    kind = getattr(builtins, raised.kind)
    return any(_catches(names, kind) for names in body.block.handlers)


def _may_set(write: FlaskConfigWrite, key: str) -> bool:
    if write.kind in ("set", "setdefault"):
        return write.key == key
    return key.isupper() or write.kind not in ("object", "pyfile")


def _noted(held: Held[V], note: str) -> Held[V]:
    return Held(held.set, held.value, (*held.assumed, note))


def _and(parts: Sequence[str]) -> str:
    return "; ".join(dict.fromkeys(parts))


class _Runs(Generic[V]):
    """Whether each write of one file runs under the repository's defaults, and what decides
    it: the `if`s around it hold, and each `try` around it reaches it (`_tried`)."""

    def __init__(self, file: str, writes: Sequence[FlaskConfigWrite], reader: Reader[V]) -> None:
        self.file, self.reader = file, reader
        self.at_line: dict[int, list[FlaskConfigWrite]] = {}
        for write in writes:
            self.at_line.setdefault(write.line, []).append(write)

    def of(self, write: FlaskConfigWrite) -> Ran:
        runs: bool | None = not write.conditional or None
        why: list[str] = []
        guards: list[Ran] = []
        if write.only_if is not None:
            guards.append(self.reader.holds(self.file, write.only_if))
        guards += (self._tried(t) for t in write.tried)
        for holds, decided in guards:
            if holds is False:
                return False, decided
            if holds is None:
                runs = None
            why += decided
        return runs, tuple(why)

    def _step(self, line: int) -> Raise:
        """Whether the body statement at `line` (0: no write, may raise; -1: cannot) raises."""
        if line <= 0:
            return NO if line < 0 else MAYBE
        raised = [self.reader.raises(self.file, w) for w in self.at_line.get(line, ())]
        return next((r for r in raised if r.how != "no"), raised[0] if raised else MAYBE)

    def _tried(self, tried: Tried) -> Ran:
        """Whether a `try` reaches the part `tried` names: a body statement where none before it
        raises, `else` where none does, a handler where the body raises what it catches first."""
        block = tried.block
        if tried.part == "finally":
            return True, ()
        steps = [self._step(line) for line in block.steps]
        if tried.part in ("body", "else"):
            before = steps[: tried.index] if tried.part == "body" else steps
            raising = [s for s in before if s.how != "no"]
            if any(s.how == "yes" for s in raising):
                return False, next(s.why for s in raising if s.how == "yes")
            return (None, ()) if raising else (True, tuple(w for s in before for w in s.why))
        first = next((s for s in steps if s.how != "no"), None)
        if first is None:  # the body raises nothing: no handler runs
            return False, tuple(w for s in steps for w in s.why)
        if first.how == "maybe":
            return None, ()
        raised = getattr(builtins, first.kind)
        for index, names in enumerate(block.handlers[: tried.index + 1]):
            caught = _catches(names, raised)
            if caught is None:
                return None, ()
            if caught:
                return index == tried.index, first.why
        return False, first.why


def _catches(names: tuple[str, ...], raised: type[BaseException]) -> bool | None:
    """Whether an `except` naming `names` catches `raised` (None: a name not known, such as a
    class of the project's)."""
    if not names:
        return True
    known = True
    for name in names:
        builtin = getattr(builtins, name, None)
        if isinstance(builtin, type) and issubclass(builtin, BaseException):
            if issubclass(raised, builtin):
                return True
        elif name in _ALSO_CATCH.get(raised.__name__, ()):
            return True
        else:
            known = False
    return False if known else None


def joined(folder: str, name: str) -> str | None:
    """`os.path.join(folder, name)` inside the repository, normalized; None for an absolute
    name or one that leaves the repository."""
    if not name or name.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join(folder, name))
    return None if path == ".." or path.startswith("../") or path == "." else path


def folders_up(folder: str) -> Iterator[str]:
    """`folder` and each folder above it, up to the repository's root ("")."""
    while True:
        yield folder
        if not folder:
            return
        folder = posixpath.dirname(folder)
