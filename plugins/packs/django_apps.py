"""Which Django apps a project's settings install, read from the settings modules with `ast`.

Django's app registry (`apps.get_models()`) holds the models of the apps `INSTALLED_APPS`
names only: a package the settings leave out (commented out, or never added) makes no table,
however many model classes it holds. This module reads, per settings file, what
`INSTALLED_APPS` ends as, statement by statement at module level: a list or tuple of strings,
`+=`, `.append`/`.extend`/`.insert`/`.remove`, concatenations of lists named earlier in the
file (`DJANGO_APPS + LOCAL_APPS`, `[*BASE, "x"]`), `list(...)`/`tuple(...)`, and an
environment-driven part where its default is written (`env.list("EXTRA_APPS", default=[...])`,
`os.environ.get("APPS", "a,b").split(",")`: the default). Statements under `if`/`try`/`with`
count too (some configuration runs them: their additions are kept, a removal is not applied).
A name bound in another module (`from .base import *`, `from .apps import LOCAL_APPS`) is kept
as a reference the link resolves (`InstalledApps`). Anything else makes the value computed: as
a whole, or, as a part of a list otherwise written (`[*BASE, *discover()]`, `BASE + found()`),
an `Open` item that says others may be installed.

A file's facts exist only where it binds `INSTALLED_APPS` or sets `DJANGO_SETTINGS_MODULE`:
the words pack-django's pre-filter admits a file by, so a pre-filtered scan and a parse-all one
read the same settings.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bounded_values import MAX_LENGTH
from .pymodules import ModuleFacts, absolute, attribute_path, class_base, package_of

SETTING = "INSTALLED_APPS"
SETTINGS_MODULE = "DJANGO_SETTINGS_MODULE"


@dataclass(frozen=True)
class Ref:
    """A name bound outside the file (an import, a star import), resolved when linking."""

    name: str


@dataclass(frozen=True)
class Prefix:
    """Apps whose names are computed after a literal head (`f"allauth.providers.{p}"` in a
    comprehension or a list): which ones is not known, only that each starts so."""

    head: str


@dataclass(frozen=True)
class Open:
    """A computed part of a list otherwise written (`[*BASE, *discover_plugins()]`,
    `BASE + found()`): which apps it adds is not known, only that others may be installed.
    `text` is the part as written, `line` the statement's, `path` the file's (set on linking)."""

    text: str
    line: int
    path: str = ""


Item = str | Ref | Prefix | Open
# a list's value: its items in order, or None where it is computed (the line that computes it)
Value = tuple[Item, ...] | None


@dataclass(frozen=True)
class SettingsFacts:
    """`lists`: every module-level name bound to a list of app names, as the file leaves it
    (`INSTALLED_APPS` among them); `computed`: the line where `INSTALLED_APPS` became
    computed, if it did; `line`: its first binding; `settings_modules`: what the file sets
    `DJANGO_SETTINGS_MODULE` to; `imported`: name -> module of `from module import name`."""

    lists: dict[str, Value]
    line: int
    computed: int | None
    settings_modules: tuple[str, ...]
    imported: dict[str, str]

    @property
    def installs(self) -> bool:
        return SETTING in self.lists


@dataclass(frozen=True)
class AppConfigFacts:
    """A class body's literal `name`, `label` and `default` (an `AppConfig` subclass's), and
    the names its body binds (attributes, methods, inner classes: the markers a project's
    plugin loader tests with `hasattr`)."""

    name: str | None
    label: str | None
    default: bool | None
    members: tuple[str, ...] = ()


def settings_facts(
    path: str, tree: ast.Module, source: str, lists: bool = False
) -> SettingsFacts | None:
    """`lists`: a file's lists of names also where it binds no `INSTALLED_APPS` (a module of
    plugin apps the settings import and add), None where it binds none."""
    return package_settings(package_of(path), tree, source, lists)


def package_settings(
    package: str, tree: ast.Module, source: str, lists: bool = False
) -> SettingsFacts | None:
    """`settings_facts` of a module of `package`."""
    if SETTING not in source and SETTINGS_MODULE not in source and not lists:
        return None
    reader = _Reader(package)
    for stmt in _flat(tree.body, False):
        reader.statement(*stmt)
    modules: list[str] = []
    if SETTINGS_MODULE in source:
        modules = [m for m in _settings_modules(tree) if m]
    written = lists and any(v for v in reader.lists.values())
    if SETTING not in reader.lists and not modules and not written:
        return None
    return SettingsFacts(
        reader.lists, reader.line, reader.computed, tuple(modules), reader.imported
    )


def app_config(node: ast.ClassDef, any_base: bool = False) -> AppConfigFacts | None:
    """The literal options of a class below something named `...AppConfig` (`any_base`: of
    any class with a base, a project's own `PluginConfig` among them), else None."""
    written = (attribute_path(class_base(b)) or "" for b in node.bases)
    if not any(name.endswith("AppConfig") or any_base for name in written):
        return None
    options: dict[str, object] = {}
    members: list[str] = []
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    options[target.id] = stmt.value.value
        if isinstance(stmt, ast.Assign):
            members += [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            members.append(stmt.target.id)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            members.append(stmt.name)
    name, label, default = options.get("name"), options.get("label"), options.get("default")
    return AppConfigFacts(
        name if isinstance(name, str) else None,
        label if isinstance(label, str) else None,
        default if isinstance(default, bool) else None,
        tuple(dict.fromkeys(members)),
    )


def _flat(body: Sequence[ast.stmt], conditional: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Module-level statements, those of `if`/`try`/`with` blocks too (marked conditional)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from _flat(stmt.body, True)
            yield from _flat(stmt.orelse, True)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            yield from _flat(stmt.body, True)
            for handler in stmt.handlers:
                yield from _flat(handler.body, True)
            yield from _flat(stmt.orelse, True)
            yield from _flat(stmt.finalbody, conditional)
        elif isinstance(stmt, ast.With):
            yield from _flat(stmt.body, conditional)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            # each pass may add (`for ep in entry_points(...): PLUGINS.append(ep.value)`): what
            # it adds is computed, an `Open` part of the list
            yield stmt, conditional
        else:
            yield stmt, conditional


def _settings_modules(tree: ast.Module) -> Iterator[str]:
    """`os.environ.setdefault("DJANGO_SETTINGS_MODULE", "x")`, `os.environ[...] = "x"`."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"setdefault", "__setitem__"}
            and len(node.args) == 2
            and _text(node.args[0]) == SETTINGS_MODULE
        ):
            yield _text(node.args[1]) or ""
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and _text(target.slice) == SETTINGS_MODULE:
                    yield _text(node.value) or ""


class _Reader:
    def __init__(self, package: str) -> None:
        self.package = package
        self.lists: dict[str, Value] = {}
        self.line = 1
        self.computed: int | None = None
        self.imported: dict[str, str] = {}
        self.stmt_line = 1

    def statement(self, stmt: ast.stmt, conditional: bool) -> None:
        self.stmt_line = stmt.lineno
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            self.loop(stmt)
            return
        if isinstance(stmt, ast.ImportFrom):
            module = absolute(stmt.module, stmt.level, self.package)
            for alias in stmt.names:
                if alias.name != "*":
                    self.imported[alias.asname or alias.name] = module
                    self.lists.pop(alias.asname or alias.name, None)
            return
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    self.bind(target.id, self.value(stmt.value), stmt, conditional)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            if isinstance(stmt.op, ast.Add) and (name in self.lists or name == SETTING):
                before = self.current(name)
                added = self.part(stmt.value) if before is not None else None
                self.bind(name, _join(before, added), stmt, False)
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and isinstance(stmt.value.func.value, ast.Name)
        ):
            self.mutate(stmt.value.func.value.id, stmt.value, conditional)

    def loop(self, stmt: ast.For | ast.AsyncFor | ast.While) -> None:
        """A loop adding to a list (`.append`, `.extend`, `+=` in its body): the list gains
        an `Open` part (which names, how many, is computed); a removal is not applied."""
        for node in ast.walk(stmt):
            name: str | None = None
            if not isinstance(node, ast.Call | ast.AugAssign):
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"append", "extend", "insert"}
                and isinstance(node.func.value, ast.Name)
            ):
                name = node.func.value.id
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                name = node.target.id
            if name is None or (name not in self.lists and name != SETTING):
                continue
            before = self.current(name)
            if before is not None and not any(
                isinstance(i, Open) and i.line == node.lineno for i in before
            ):
                self.stmt_line = node.lineno
                self.lists[name] = (*before, self.open(node))

    def current(self, name: str) -> Value:
        if name in self.lists:
            return self.lists[name]
        return (Ref(name),)  # bound by an import or a star import, else a NameError

    def bind(self, name: str, value: Value, stmt: ast.stmt, conditional: bool) -> None:
        self.imported.pop(name, None)
        if name != SETTING:
            # None: not a list of names (a later use is computed); in a branch, either
            # binding may hold: both lists are kept
            joined = conditional and name in self.lists
            self.lists[name] = _join(self.lists[name], value) if joined else value
            return
        if SETTING not in self.lists:
            self.line = stmt.lineno
        if value is None:
            self.computed = self.computed or stmt.lineno
        if conditional and SETTING in self.lists:  # either binding may hold: both are kept
            value = _join(self.lists[SETTING], value)
        self.lists[SETTING] = value

    def mutate(self, name: str, call: ast.Call, conditional: bool) -> None:
        method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if name not in self.lists and name != SETTING:
            return
        before = self.current(name)
        if method == "append" and len(call.args) == 1:
            after = _join(before, self.value(ast.List([call.args[0]])))
        elif method == "insert" and len(call.args) == 2:
            after = _join(before, self.value(ast.List([call.args[1]])))
        elif method == "extend" and len(call.args) == 1:
            after = _join(before, self.part(call.args[0]) if before is not None else None)
        elif method == "remove" and len(call.args) == 1 and _text(call.args[0]) is not None:
            gone = _text(call.args[0])
            after = (
                before if conditional or before is None else tuple(i for i in before if i != gone)
            )
        else:
            return
        if name == SETTING and after is None:
            self.computed = self.computed or call.lineno
        self.lists[name] = after

    def value(self, node: ast.expr) -> Value:
        """The app names `node` evaluates to, or None where it is computed."""
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            # an element not written is kept as its node, its text made (`open`) only where
            # something of the list is written: a literal table (`(("a", "A"), ...)`) is none
            items: list[Item | ast.expr] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    items.extend(self.part(element.value))
                elif (text := _text(element)) is not None:
                    items.append(text)
                elif (head := _head(element)) is not None:
                    items.append(Prefix(head))
                else:
                    items.append(element)
            if items and all(isinstance(i, Open | ast.expr) for i in items):
                return None  # nothing of it is written: computed as a whole
            return tuple(self.open(i) if isinstance(i, ast.expr) else i for i in items)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            head = _head(node.elt)  # `[f"pkg.providers.{p}" for p in PROVIDERS]`
            return (Prefix(head),) if head is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left), self.value(node.right)
            if left is None and right is None:
                return None
            return _join(left or (self.open(node.left),), right or (self.open(node.right),))
        if isinstance(node, ast.Name):
            return self.current(node.id)
        if isinstance(node, ast.Call):
            return self.call(node)
        return None

    def part(self, node: ast.expr) -> tuple[Item, ...]:
        """`node`'s names as a part of a written list: a computed part stays as an `Open`."""
        found = self.value(node)
        return found if found is not None else (self.open(node),)

    def open(self, node: ast.AST) -> Open:
        text = ast.unparse(node)
        return Open(text if len(text) <= 60 else text[:57] + "...", self.stmt_line)

    def call(self, node: ast.Call) -> Value:
        func = node.func
        if isinstance(func, ast.Name) and func.id in {"list", "tuple"} and len(node.args) == 1:
            return self.value(node.args[0])
        if attribute_path(func) in {"copy", "copy.copy", "copy.deepcopy"} and len(node.args) == 1:
            return self.value(node.args[0])  # `copy.copy(CORE_APPS)`: the same names
        if isinstance(func, ast.Attribute) and func.attr == "copy" and not node.args:
            return self.value(func.value)  # `BASE.copy()`
        if isinstance(func, ast.Attribute) and func.attr == "split" and len(node.args) <= 1:
            # `os.environ.get("APPS", "a,b").split(",")`: the default's names
            separator = _text(node.args[0]) if node.args else None
            default = _env_default(func.value)
            if isinstance(default, ast.Constant) and isinstance(default.value, str):
                parts = default.value.split(separator) if separator else default.value.split()
                return tuple(p.strip() for p in parts if p.strip())
            return None
        default = _env_default(node)
        return self.value(default) if default is not None else None


def _env_default(node: ast.expr) -> ast.expr | None:
    """The default an environment read writes: `env.list("X", default=[...])`,
    `os.environ.get("X", "a")`, `os.getenv("X", "a")`, `config("X", default=...)`."""
    if not isinstance(node, ast.Call):
        return None
    for keyword in node.keywords:
        if keyword.arg == "default":
            return keyword.value
    name = attribute_path(node.func) or ""
    if name.rpartition(".")[2] in {"get", "getenv"} and len(node.args) == 2:
        return node.args[1]
    return None


def _head(node: ast.expr) -> str | None:
    """The literal head of a computed app name: `f"pkg.sub.{x}"`, `"pkg.sub." + x` (a dotted
    head, up to its last dot: the name's module part), else None."""
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        text = first.value if isinstance(first, ast.Constant) else None
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        text = _text(node.left)
    else:
        return None
    if not isinstance(text, str) or "." not in text:
        return None
    return text[: text.rindex(".") + 1]


def _join(left: Value, right: Value) -> Value:
    """Both lists, or None (computed) where either is, or where together they pass the table
    packs' cap: `INSTALLED_APPS += INSTALLED_APPS` sixty times would ask for 2^60 names."""
    if left is None or right is None or len(left) + len(right) > MAX_LENGTH:
        return None
    return left + right


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


# -- linking ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Installed:
    """The apps the project's settings install, by module name, each with its label; or,
    where the settings compute `INSTALLED_APPS`, the places that say so (`computed`)."""

    apps: dict[str, str]  # app module (dotted) -> label
    computed: tuple[tuple[str, int], ...] = ()
    # apps computed after a literal head, and where the settings add them
    prefixes: tuple[tuple[str, str, int], ...] = ()  # (head, path, line)
    # computed parts of a list otherwise written: others may be installed (path, line, text)
    partial: tuple[tuple[str, int, str], ...] = ()


class InstalledApps:
    """`INSTALLED_APPS` across the settings files: those `DJANGO_SETTINGS_MODULE` names where
    they bind it (their star imports followed), else every file that binds it (whichever the
    project runs with, its apps' models are listed)."""

    def __init__(
        self,
        settings: Mapping[str, SettingsFacts],
        find: Callable[[str], str | None],
        configs: Mapping[str, dict[str, AppConfigFacts]],
        stars: Mapping[str, tuple[str, ...]],
    ) -> None:
        self.settings = settings  # path -> facts
        self.find = find  # dotted module -> its path, among the modules a link knows
        self.configs = configs  # path -> class name -> its AppConfig options
        self.stars = stars  # path -> modules it star-imports

    def installed(self, chosen: Sequence[str] = ()) -> Installed | None:
        """None where no settings file binds `INSTALLED_APPS` (a reusable app, a library);
        `chosen`: the settings modules the project runs with, their star imports followed."""
        named = [
            path
            for facts in self.settings.values()
            for module in facts.settings_modules
            if (path := self.find(module)) is not None
            and path in self.settings
            and self.settings[path].installs
        ]
        files = list(chosen) or sorted(set(named))
        files = files or sorted(p for p, f in self.settings.items() if f.installs)
        if not files:
            return None
        apps: dict[str, str] = {}
        computed: list[tuple[str, int]] = []
        prefixes: list[tuple[str, str, int]] = []
        partial: list[tuple[str, int, str]] = []
        for path in files:
            value = self.resolve(path, SETTING, 0)
            if value is None:
                facts = self.settings[path]
                computed.append((path, facts.computed or facts.line))
                continue
            for entry in value:
                if isinstance(entry, Prefix):
                    prefixes.append((entry.head, path, self.settings[path].line))
                    continue
                if isinstance(entry, Open):
                    partial.append((entry.path, entry.line, entry.text))
                    continue
                module, label = self.app(entry)
                apps.setdefault(module, label)
        return Installed(
            apps,
            tuple(computed),
            tuple(dict.fromkeys(prefixes)),
            tuple(dict.fromkeys(partial)),
        )

    def resolve(self, path: str, name: str, depth: int) -> tuple[str | Prefix | Open, ...] | None:
        facts = self.settings.get(path)
        if facts is None or depth > 8:
            return None
        if name in facts.lists:
            value = facts.lists[name]
            if value is None:
                return None
            out: list[str | Prefix | Open] = []
            for item in value:
                if isinstance(item, Open):
                    out.append(item if item.path else Open(item.text, item.line, path))
                    continue
                if not isinstance(item, Ref):
                    out.append(item)
                    continue
                found = self.outside(path, facts, item.name, depth)
                if found is None:
                    return None
                out.extend(found)
            return tuple(out)
        return self.outside(path, facts, name, depth)

    def outside(
        self, path: str, facts: SettingsFacts, name: str, depth: int
    ) -> tuple[str | Prefix | Open, ...] | None:
        """`name` as an import or a star import binds it in `path` (the last star that does)."""
        if name in facts.imported:
            source = self.find(facts.imported[name])
            return self.resolve(source, name, depth + 1) if source is not None else None
        for module in reversed(self.stars.get(path, ())):
            source = self.find(module)
            if source is not None and self.binds(source, name, depth + 1):
                return self.resolve(source, name, depth + 1)
        return None

    def binds(self, path: str, name: str, depth: int) -> bool:
        facts = self.settings.get(path)
        if facts is None or depth > 8:
            return False
        if name in facts.lists or name in facts.imported:
            return True
        return any(
            (source := self.find(m)) is not None and self.binds(source, name, depth + 1)
            for m in self.stars.get(path, ())
        )

    def app(self, entry: str) -> tuple[str, str]:
        """An `INSTALLED_APPS` entry's app module and label: an `AppConfig`'s dotted path
        (`billing.apps.BillingConfig`) gives its `name` and `label`; a module, the one
        `AppConfig` of its `apps` submodule Django picks (the one with `default = True`, else
        the only one), else its last part."""
        module, _, cls = entry.rpartition(".")
        config = self.configs.get(self.find(module) or "", {}).get(cls) if module else None
        if config is not None or (module and cls[:1].isupper() and self.find(entry) is None):
            # an `AppConfig` the files do not show (`x.apps.XConfig`): its app is `x`
            name = (config.name if config else None) or module.removesuffix(".apps")
            return name, (config.label if config else None) or name.rpartition(".")[2]
        chosen = default_config(self.configs.get(self.find(f"{entry}.apps") or "", {}))
        if chosen is not None and chosen.name in (None, entry):
            return entry, chosen.label or entry.rpartition(".")[2]
        return entry, entry.rpartition(".")[2]


def default_config(found: dict[str, AppConfigFacts]) -> AppConfigFacts | None:
    """The `AppConfig` Django 3.2+ picks from an app's `apps` submodule: the only one not
    saying `default = False`, else the one saying `default = True`; None where neither is one
    (Django then uses its base `AppConfig`, the default label)."""
    candidates = [c for c in found.values() if c.default is not False]
    if len(candidates) == 1:
        return candidates[0]
    marked = [c for c in candidates if c.default is True]
    return marked[0] if len(marked) == 1 else None


def own_label(package: str, config: AppConfigFacts) -> str:
    """The label an app's own `AppConfig` gives it: `label`, else the last part of `name`."""
    return config.label or (config.name or package).rpartition(".")[2]


def containing_app(module: str, apps: dict[str, str]) -> str | None:
    """The installed app a module belongs to: the longest app name it is, or is below (as
    Django's `apps.get_containing_app_config` picks it)."""
    best: str | None = None
    for app in apps:
        if (module == app or module.startswith(app + ".")) and (
            best is None or len(app) > len(best)
        ):
            best = app
    return best


def module_names(facts: ModuleFacts[Any], packages: Collection[str] | None) -> list[str]:
    """Every dotted name a module may be imported under: from the repository's root, and from
    each folder above it that is no package (a `sys.path` root: `src/`, `backend/server/`);
    `packages` None: from every folder above it."""
    parts = facts.module.split(".")
    names = [facts.module]
    folder = ""
    for cut in range(1, len(parts)):
        folder = f"{folder}/{parts[cut - 1]}" if folder else parts[0]
        if packages is None or folder not in packages:
            names.append(".".join(parts[cut:]))
    return names
