"""Registries a project's decorators fill at import, for `django_collect`'s evaluator: a
module-level store (`VIEWS = defaultdict(dict)`, `{}`, an object of a `dict` subclass) that a
project function's decorator writes to (`@register_view(Model, "edit", path="edit")`), later
read by a URL builder the URLconfs call (`include(views_for("app", "model"))`).

When the evaluator first makes such a store, every decorator call site of the project whose
decorator function (aliased or reached through its module) mentions the store is run, as
Python runs it when the module is imported: `deco(args)(the class or def)`, so the builder's
loop later yields ordinary patterns with the decorated view, written at the decorator. The
values decorators read to build keys are computed as Django does: `Model._meta.app_label`
(the package holding the `models` module) and `Model._meta.model_name` (the class name,
lower-cased). What cannot be computed is a finding at the decorator (its entry is not listed).
A decorator function also called outside decorators (`deco(model, "x")(View)` in a loop over
models) is run where Django runs it at start: each app's `AppConfig.ready()` (`apps.py`), with
`self.get_models()` the app's models, once a link whatever the number of registries
(`Started`); a call no `ready()` reaches, or one run where the values are not known, leaves
the store open: what is built from it carries a finding at that call. A store all of whose
fillers ran is closed: a key it lacks raises `KeyError` there, as in Python (a model with no
view of that kind builds no pattern). Sites in test code (`tests/`, `test_*.py`) are not run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..bounded_values import Refused
from ..django_models import app_label_of
from ..scan_walk import TEST_DIRECTORIES, is_test_file
from .django_facts import _COLLECTING
from .django_route_hooks import is_record
from .django_values import MISREAD, Builtin, Func, Instance, Raised, Ref, Stop, Unknown, parsed
from .model import ImportRef

if TYPE_CHECKING:
    from .django_collect import Collector
    from .django_facts import DjangoFacts

STORE_MAKERS = frozenset({"collections.defaultdict", "collections.OrderedDict"})
IMPORT_STRING = "django.utils.module_loading.import_string"
_APP_CONFIG = frozenset({"django.apps.AppConfig", "django.apps.config.AppConfig"})
KINDS = frozenset({"type", "isinstance", "issubclass"})
_LIBRARY_VIEWS = ("django.views", "django.contrib", "rest_framework")
_SITE_BUDGET = 2_000  # statements and expressions one decorator may run
_FILL_BUDGET = 400_000  # all the decorators filling one store
_START_BUDGET = 40_000  # one app's `ready()`, with the functions it calls


@dataclass(frozen=True, slots=True)
class AppModels:
    """`AppConfig.get_models` of one app: its models, as Django's registry lists them."""

    models: tuple[Ref, ...]


class Store(dict[object, object]):
    """`collections.defaultdict(factory)` as the evaluator holds it."""

    def __init__(self, factory: object) -> None:
        super().__init__()
        self.factory = factory


def made_by(name: str, args: list[object], keywords: dict[str, object]) -> object:
    """A store a library call makes: `defaultdict(dict)`, `OrderedDict()`."""
    if name == "collections.defaultdict":
        return Store(args[0] if args else None)
    first = args[0] if args else {}
    return dict(first) if isinstance(first, dict) and not keywords else Unknown()


def made_store(
    collector: Collector, cls: Ref, args: list[object], keywords: dict[str, object]
) -> dict[object, object] | None:
    """An object of a project class that subclasses `dict` (its overrides left out: they
    guard or warn, the items are the dict's): the dict it is made from; None for another."""
    facts = collector.linker.facts(cls.file)
    known = facts.classes.get(cls.name) if facts is not None else None
    if known is None or "dict" not in known.bases:
        return None
    if "dict" in collector.linker.resolver._facts(cls.file).bindings:
        return None  # a `dict` of the module's own
    first = args[0] if args else {}
    if not isinstance(first, dict):
        return None
    return {**first, **keywords}


def missing_key(collector: Collector, owner: dict[object, object], key: object) -> object:
    """`owner[key]` for a key `owner` lacks: a `defaultdict`'s new default, `KeyError` in a
    closed registry, else a value not known."""
    closed = id(owner) in collector.closed_stores
    if isinstance(owner, Store):
        factory = owner.factory
        made: object = Unknown()
        if isinstance(factory, Builtin) and factory.receiver is None:
            made = {"dict": {}, "list": []}.get(factory.name, made)
            made = Store(None) if factory.name == "defaultdict" else made
        if isinstance(made, Unknown):
            return made
        owner[key] = made
        if closed:
            collector.closed_stores.add(id(made))
        return made
    if closed:
        raise Raised
    return Unknown()


def class_attribute(collector: Collector, cls: Ref, name: str, got: object) -> object:
    """An attribute the class's code does not show that Django or Python gives it."""
    if name == "_meta":
        facts = collector.linker.facts(cls.file)
        known = facts.classes.get(cls.name) if facts is not None else None
        label = known.meta_label if known is not None and known.meta_label else None
        label = label or collector.app_labels.get((cls.file, cls.name))  # its app config's
        label = label or app_label_of(cls.file)  # a `Meta.app_label`, else the package's
        if not label or label == "?":
            return got
        lowered = cls.name.lower()
        meta = Instance(Ref("class", "", "django.db.models.options.Options"))
        meta.attrs.update({
            "app_label": label, "model_name": lowered, "object_name": cls.name,
            "label": f"{label}.{cls.name}", "label_lower": f"{label}.{lowered}",
        })  # fmt: skip
        return meta
    if name == "as_view":
        return Builtin("as_view", cls)
    if name == "__name__":
        return cls.name
    return got


def kind_test(collector: Collector, name: str, args: list[object]) -> object:
    """`type(x)`, `isinstance(x, type)`, `issubclass(cls, base)` where the values tell."""
    if name == "type" and len(args) == 1:
        return _kind(args[0]) or Unknown()
    record = is_record(args[0], args[1]) if name == "isinstance" and len(args) == 2 else None
    if record is not None:  # a DRF `Route` record (`django_route_hooks`)
        return record
    if name == "isinstance" and len(args) == 2 and isinstance(args[1], Builtin):
        kind = _kind(args[0])
        if kind is None or args[1].receiver is not None:
            return Unknown()
        return kind.name == args[1].name
    if name == "issubclass" and len(args) == 2:
        return _subclass(collector, args[0], args[1])
    return Unknown()


def _kind(value: object) -> Builtin | None:
    if isinstance(value, Ref) and value.kind == "class":
        return Builtin("type")
    if isinstance(value, Func) or (isinstance(value, Ref) and value.kind == "function"):
        return Builtin("function")
    for plain in (bool, str, int, float, list, tuple, dict):
        if type(value) is plain:
            return Builtin(plain.__name__)
    return None


def _subclass(collector: Collector, cls: object, base: object) -> object:
    """Whether the project class `cls` reaches `base` through its bases. A library class
    reached is taken for one of Django's views when `base` is Django's `View` and that class
    is of Django's or REST framework's views (every one of them is); else not known."""
    if not (isinstance(cls, Ref) and cls.kind == "class" and isinstance(base, Ref)):
        return Unknown()
    want = (base.kind, base.file, base.name)
    view = (
        base.kind == "external"
        and base.name.startswith("django.views")
        and (base.name.endswith(".View"))
    )
    order, seen, external = [cls], set[tuple[str, str]](), False
    while order and len(seen) < 64:
        here = order.pop()
        if (here.file, here.name) in seen:
            continue
        seen.add((here.file, here.name))
        if (here.kind, here.file, here.name) == want:
            return True
        facts = collector.linker.facts(here.file)
        known = facts.classes.get(here.name) if facts is not None else None
        for written in known.bases if known is not None else ():
            found = collector.linker.resolve(here.file, written)
            if found is None:
                return Unknown()
            kind, file, name = found
            if kind == "external":
                if (kind, "", name) == want:
                    return True
                if view and name.startswith(_LIBRARY_VIEWS):
                    return True
                external = True
            elif kind == "class":
                order.append(Ref("class", file, name))
            else:
                return Unknown()
    # a library class subclasses no class of the project: only a library base stays unknown
    return Unknown() if external and base.kind == "external" else False


class Registries:
    """What the registries of one link share, computed once for the link instead of once per
    registry (hundreds of registries and dozens of apps made that quadratic): which modules
    import each file; the decorator sites and runtime `f(...)(...)` calls by the names that may
    call a filler, and where each decorator resolves; `Started`, every app's `ready()` run
    once; and, by the filler names a registry has (all a registry's runtime fillers depend
    on), its runtime calls and the first of them `Started` did not settle."""

    def __init__(self) -> None:
        self.modules: dict[str, DjangoFacts] = {}  # the link's `django_modules`, by file
        self.importers: dict[str, list[str]] | None = None  # file -> the modules importing it
        # a name a decorator may call a filler by -> the function each of its sites resolves
        # to (file, name) -> the sites (module order, module, line, text, what it decorates)
        self.decorators: dict[str, list[tuple[int, str, int, str, str]]] | None = None
        self.resolved: dict[str, dict[tuple[str, str], list[_Site]]] = {}
        self.calls: dict[str, list[tuple[int, str, int]]] | None = None  # name -> runtime calls
        self.opened: dict[frozenset[str], tuple[tuple[str, int, str], ...]] = {}
        self.unsettled: dict[frozenset[str], tuple[str, int, str, bool] | None] = {}
        self.model_files: dict[str, list[str]] | None = None  # app folder -> its model files
        self.started: Started | None = None
        self.starting = False  # the apps' `ready()` are running: registries made now wait
        self.waiting: list[_Waiting] = []


_Site = tuple[int, str, int, str, str]


@dataclass(frozen=True, slots=True)
class Started:
    """Every installed-looking app's `ready()` run once, as Django runs each at start: each
    `f(...)(...)` call run there, (file, line) -> whether every run of it stored an item under
    no gap; and the defs that ran to their end, by file (first line, last line). It depends
    on the link's files only, so every registry of the link reads the one run."""

    applied: dict[tuple[str, int], bool]
    whole: dict[str, list[tuple[int, int]]]


@dataclass(frozen=True, slots=True)
class _Waiting:
    """A registry whose fillers (named `names`) are also called at runtime, waiting for
    `Started`."""

    store: dict[object, object]
    file: str
    name: str
    names: frozenset[str]


def fill_registry(collector: Collector, file: str, name: str, store: dict[object, object]) -> None:
    """Run each decorator of the project that fills `store` (`name` of `file`), as importing
    its module does; then close the store, or leave it open with a gap where another call
    fills it (once the apps' `ready()` have run, when its fillers are also called at runtime)."""
    # a filler stores through an item or a member of it (`store[key]`, `store.setdefault`):
    # the files defining one spell `store[` or `store.` (a narrower word than the name)
    word = re.compile(rf"\b{re.escape(name)}[\[.]")
    collector.linker.resolver.words.update((f"{name}[", f"{name}."))
    shared = collector.registries
    fillers: dict[tuple[str, str], None] = {}
    importers = _importers(collector)
    for other in sorted({file, *importers.get(file, ())}):
        facts = shared.modules.get(other)
        if facts is None:
            continue
        for function, (_, text) in facts.code.items():
            if function in facts.functions and word.search(text) and _COLLECTING.search(text):
                fillers[(other, function)] = None
    if not fillers:
        return
    names = frozenset(function for _, function in fillers)
    collector.linker.resolver.words.update(names)  # the files decorating with them spell them
    sites = sorted(
        {site for n in names for f in fillers for site in _resolved(collector, n).get(f, ())}
    )
    # stacked decorators run from the innermost (the last written) out
    sites.sort(key=lambda site: (site[1], -site[2]))
    kept, left = collector.budget, _FILL_BUDGET  # its own budget: a site costs about the same
    try:
        for _, other, line, text, target in sites:
            collector.budget = min(_SITE_BUDGET, left)
            _run_site(collector, store, other, line, text, target, name)
            left -= min(_SITE_BUDGET, left) - max(collector.budget, 0)
    finally:
        collector.budget = kept
    if not _opened(collector, names):
        _close(collector, store, 0)
        return
    shared.waiting.append(_Waiting(store, file, name, names))
    if shared.starting:
        return  # made by a `ready()` running: settled when they have all run
    started(collector)
    assert shared.started is not None
    waiting, shared.waiting = shared.waiting, []
    for registry in waiting:
        _settle(collector, registry, shared.started)


def started(collector: Collector) -> None:
    """Every app's `ready()` run once a link (`Started`), unless running now: what they store
    in the objects they reach is then there (a plugin registry's `register(T())`)."""
    shared = collector.registries
    if shared.started is None and not shared.starting:
        shared.starting = True
        try:
            shared.started = _started(collector)
        finally:
            shared.starting = False


def _settle(collector: Collector, registry: _Waiting, started: Started) -> None:
    """Close a registry whose runtime fillers all ran in an app's `ready()`, or leave it open
    with a gap at the first call that did not (not reached, or run where what it adds is not
    known); a call in a def that ran whole but skipped it (a test that held false) is done."""
    shared = collector.registries
    if registry.names not in shared.unsettled:
        shared.unsettled[registry.names] = None
        for where, line, function in _opened(collector, registry.names):
            ran = started.applied.get((where, line))
            if ran is True:
                continue
            spans = started.whole.get(where, ())
            if ran is None and any(a <= line <= b for a, b in spans):
                continue
            shared.unsettled[registry.names] = (where, line, function, ran is not None)
            break
    left = shared.unsettled[registry.names]
    if left is None:
        _close(collector, registry.store, 0)
        return
    where, line, function, ran = left
    name, file = registry.name, registry.file
    why = (
        f"these URL patterns are built from `{name}` ({file}), also filled by calls of "
        f"`{function}` the pack does not run: they may miss what those calls add"
    )
    if ran:
        why = (
            f"these URL patterns are built from `{name}` ({file}), also filled by calls of "
            f"`{function}` that an app's `ready()` makes, where the pack cannot tell what "
            "they add (a test or items it cannot decide): they may miss or add routes"
        )
    collector.open_stores[id(registry.store)] = (where, line, why)


def _importers(collector: Collector) -> dict[str, list[str]]:
    """File -> the modules (Django facts) binding a name imported from it or it (once a link)."""
    shared = collector.registries
    if shared.importers is None:
        shared.importers, shared.modules = {}, dict(collector.django_modules())
        for other in shared.modules:
            for imported in sorted(_imported(collector, other)):
                shared.importers.setdefault(imported, []).append(other)
    return shared.importers


def _resolved(collector: Collector, name: str) -> dict[tuple[str, str], list[_Site]]:
    """The decorator sites of the project that may call a function named `name` (test code
    left out), by the function each resolves to (once a link and name)."""
    shared = collector.registries
    if name not in shared.resolved:
        grouped: dict[tuple[str, str], list[_Site]] = {}
        for site in _sites(collector)[0].get(name, ()):
            _, other, _, text, _ = site
            found = collector.linker.resolve(other, text.partition("(")[0].strip())
            if found is not None and found[0] == "function":
                grouped.setdefault((found[1], found[2]), []).append(site)
        shared.resolved[name] = grouped
    return shared.resolved[name]


def _opened(collector: Collector, names: frozenset[str]) -> tuple[tuple[str, int, str], ...]:
    """The calls `f(...)(view)` made at runtime, not as a decorator, of a function named in
    `names`, in module order (once a link and set of names)."""
    shared = collector.registries
    if names not in shared.opened:
        calls = _sites(collector)[1]
        made = sorted(
            {(order, other, at, n) for n in names for order, other, at in calls.get(n, ())}
        )
        shared.opened[names] = tuple((other, at, n) for _, other, at, n in made)
    return shared.opened[names]


def _sites(
    collector: Collector,
) -> tuple[dict[str, list[_Site]], dict[str, list[tuple[int, str, int]]]]:
    """The decorator sites of the project (test code left out), by each name that may call a
    filler (`marks.attach` by `attach`, `import attach as hook` by `hook` and `attach`); and the
    calls `f(...)(view)` made at runtime (not as a decorator), by `f` (once a link)."""
    shared = collector.registries
    if shared.decorators is None or shared.calls is None:
        shared.decorators, shared.calls = {}, {}
        for order, (other, facts) in enumerate(collector.django_modules()):
            if _in_tests(other):
                continue
            bindings = collector.linker.resolver._facts(other).bindings
            for line, text, target in facts.decorated:
                head = text.partition("(")[0].strip()
                binding = bindings.get(head.partition(".")[0])
                keys = {head.rpartition(".")[2]}
                if isinstance(binding, ImportRef) and binding.attr:
                    keys.add(binding.attr)
                for key in keys:
                    shared.decorators.setdefault(key, []).append((order, other, line, text, target))
            decorators = {line for line, _, _ in facts.decorated}
            for at, function in facts.applied:
                if at not in decorators:
                    shared.calls.setdefault(function, []).append((order, other, at))
    return shared.decorators, shared.calls


def _started(collector: Collector) -> Started:
    """Run each installed-looking app's `AppConfig.ready()` (in its `apps` module, as Django
    imports it at start), `self.get_models()` the app's models: the calls of a filler made
    there store what they store. Run once a link, where no URLconf's code is running (no gap
    in force, at depth 0): what it gives depends on the link's files alone."""
    kept = (collector.budget, collector.gaps, collector.depth, collector.applied)
    collector.applied, collector.spans, collector.gaps, collector.depth = {}, set(), (), 0
    whole: set[tuple[str, int, int]] = set()
    left = _FILL_BUDGET
    try:
        for config in _configs(collector):
            collector.budget = min(_START_BUDGET, max(left, 0))
            spent, collector.spans = collector.budget, set()
            if _ready(collector, config):
                whole |= collector.spans
            left -= spent - max(collector.budget, 0)
        applied = collector.applied
    finally:
        collector.budget, collector.gaps, collector.depth, collector.applied = kept
    spans: dict[str, list[tuple[int, int]]] = {}
    for file, first, last in sorted(whole):
        spans.setdefault(file, []).append((first, last))
    return Started(applied, spans)


def _configs(collector: Collector) -> list[Ref]:
    """The project's `AppConfig` subclasses of its apps' `apps` modules (tests left out)."""
    out: list[Ref] = []
    files = collector.linker.resolver.files
    for file in sorted(f for f in files if f.rpartition("/")[2] == "apps.py"):
        if _in_tests(file) or "{" in file:  # a template's (`{{ cookiecutter.name }}/apps.py`):
            continue  # no module name Python imports
        facts = collector.linker.facts(file)  # a pre-filtering scan parses it, asked
        for name in facts.configs if facts is not None else ():
            cls = Ref("class", file, name)
            if _reaches(collector, cls, lambda found: found in _APP_CONFIG):
                out.append(cls)
    return out


def _ready(collector: Collector, config: Ref) -> bool:
    """Run `config().ready()`; whether it ran to its end."""
    place = ast.Name("self", ast.Load(), lineno=1, col_offset=0)
    made = Instance(config)
    ready = collector.class_member(config, "ready", made, config.file, place)
    if not isinstance(ready, Func):
        return False
    named = collector.class_member(config, "name", None, config.file, place)
    if not isinstance(named, str):
        return False
    label = collector.class_member(config, "label", None, config.file, place)
    label = label if isinstance(label, str) else named.rpartition(".")[2]
    made.attrs.update({"name": named, "label": label})
    made.attrs["get_models"] = AppModels(tuple(_models(collector, config.file, named, label)))
    try:
        collector.invoke(ready, [], {})
    except (Stop, RecursionError, Refused, Raised, *MISREAD):
        return False
    return True


def _models(collector: Collector, importer: str, name: str, label: str) -> list[Ref]:
    """The models Django registers under `label`: the model classes of the app's `models`
    module or package (a `Meta.app_label` of another app's left out), in file and line
    order."""
    home = collector.linker.module_file(name, importer)
    if home is None or not home.endswith("/__init__.py"):
        return []
    out: list[Ref] = []
    for file in _model_files(collector).get(home.rpartition("/")[0], ()):
        facts = collector.linker.facts(file)
        held = sorted(facts.classes.items(), key=lambda i: i[1].line) if facts is not None else []
        for cls, known in held:
            if known.meta_label not in (None, label):
                continue
            ref = Ref("class", file, cls)
            if _reaches(collector, ref, _model_base):
                collector.app_labels[(file, cls)] = label
                out.append(ref)
    return out


def _model_files(collector: Collector) -> dict[str, list[str]]:
    """App folder -> the files of its `models` module or package, in path order: `a/models.py`
    and every `.py` below `a/models/` (once a link, not a walk of every file per app)."""
    shared = collector.registries
    if shared.model_files is None:
        shared.model_files = {}
        for file in sorted(collector.linker.resolver.files):
            parts = file.split("/")
            if parts[-1] == "models.py" and len(parts) > 1:
                shared.model_files.setdefault("/".join(parts[:-1]), []).append(file)
            if not file.endswith(".py"):
                continue
            for at in range(1, len(parts) - 1):  # each `models` folder above it
                if parts[at] == "models":
                    shared.model_files.setdefault("/".join(parts[:at]), []).append(file)
    return shared.model_files


def _model_base(name: str) -> bool:
    """A library class a Django model subclasses: Django's `Model`, or a library's model
    base (`MPTTModel`, `PolymorphicModel`)."""
    return name.rpartition(".")[2].endswith("Model")


def _reaches(collector: Collector, cls: Ref, wanted: Callable[[str], bool]) -> bool:
    """Whether the project class `cls` reaches, through its bases, a library class
    `wanted` accepts."""
    order, seen = [cls], set[tuple[str, str]]()
    while order and len(seen) < 64:
        here = order.pop()
        if (here.file, here.name) in seen:
            continue
        seen.add((here.file, here.name))
        facts = collector.linker.facts(here.file)
        known = facts.classes.get(here.name) if facts is not None else None
        for written in known.bases if known is not None else ():
            found = collector.linker.resolve(here.file, written)
            if found is not None and found[0] == "external" and wanted(found[2]):
                return True
            if found is not None and found[0] == "class":
                order.append(Ref("class", found[1], found[2]))
    return False


def imported_string(collector: Collector, args: list[object], file: str, node: ast.expr) -> object:
    """Django's `import_string("pkg.views.Name")`: the project's class or function it names."""
    text = args[0] if len(args) == 1 else None
    if not isinstance(text, str) or "." not in text:
        return Unknown((file, node))
    module, _, attr = text.rpartition(".")
    home = collector.linker.module_file(module, file)
    found = collector.linker.resolve(home, attr) if home is not None else None
    if found is None or found[0] not in ("class", "function"):
        return Unknown((file, node))
    kind, where, name = found
    facts = collector.linker.facts(where)
    known = facts.classes.get(name) if facts is not None else None
    line = known.line if known is not None else 1
    place = ast.Name(name, ast.Load(), lineno=line, col_offset=0)  # where it is defined
    return Ref(kind, where, name, (where, place), collector.gaps)


def _close(collector: Collector, value: object, depth: int) -> None:
    if isinstance(value, dict) and depth < 8:
        collector.closed_stores.add(id(value))
        for item in value.values():
            _close(collector, item, depth + 1)


def _run_site(
    collector: Collector,
    store: dict[object, object],
    file: str,
    line: int,
    text: str,
    target: str,
    name: str,
) -> None:
    """`decorator(target)` at import: a finding there when it adds nothing to the store."""
    node = parsed(text, line, "eval")
    before = collector.mutations
    why = ""
    if isinstance(node, ast.expr):
        facts = collector.linker.facts(file)
        kind = "class" if facts is not None and target in facts.classes else "function"
        place = ast.Name(target, ast.Load(), lineno=line, col_offset=node.col_offset)
        decorated = Ref(kind, file, target, (file, place))
        call = ast.Call(node, [place], [], lineno=line, col_offset=node.col_offset)
        try:
            decorator = collector.expr(node, file, {})  # a call applying it: the whole call
            if target:
                collector.apply(decorator, [decorated], {}, file, call)
        except (Stop, RecursionError, Refused, Raised, *MISREAD):
            why = "running it went past what the pack can follow"
    if not why and collector.mutations == before:
        why = "what it adds (its key, computed from its arguments) is not known to the pack"
    if why:
        collector.linker.note(
            "UNRESOLVED_ROUTE",
            file,
            line,
            f"this decorator fills `{name}`, read to build URL patterns: {why}; the view it "
            "registers is not listed",
        )


def _imported(collector: Collector, importer: str) -> set[str]:
    """The files of the modules `importer` binds a name from (or binds)."""
    out: set[str] = set()
    for binding in collector.linker.resolver._facts(importer).bindings.values():
        if not isinstance(binding, ImportRef):
            continue
        whole = f"{binding.module}.{binding.attr}" if binding.attr else binding.module
        for dotted in (whole, binding.module):
            found = collector.linker.module_file(dotted, importer)
            if found is not None:
                out.add(found)
    return out


def _in_tests(path: str) -> bool:
    parts = path.split("/")
    return is_test_file(parts[-1]) or any(part in TEST_DIRECTORIES for part in parts[:-1])
