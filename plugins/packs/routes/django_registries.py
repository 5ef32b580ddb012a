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
`self.get_models()` the app's models; a call no `ready()` reaches, or one run where the values
are not known, leaves the store open: what is built from it carries a finding at that call. A store all of whose
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
from . import django_collect as run
from .django_facts import _COLLECTING
from .django_route_hooks import is_record
from .model import ImportRef

if TYPE_CHECKING:
    from .django_collect import Collector

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

    models: tuple[run.Ref, ...]


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
    return dict(first) if isinstance(first, dict) and not keywords else run.Unknown()


def made_store(
    collector: Collector, cls: run.Ref, args: list[object], keywords: dict[str, object]
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
        made: object = run.Unknown()
        if isinstance(factory, run.Builtin) and factory.receiver is None:
            made = {"dict": {}, "list": []}.get(factory.name, made)
            made = Store(None) if factory.name == "defaultdict" else made
        if isinstance(made, run.Unknown):
            return made
        owner[key] = made
        if closed:
            collector.closed_stores.add(id(made))
        return made
    if closed:
        raise run._Raised
    return run.Unknown()


def class_attribute(collector: Collector, cls: run.Ref, name: str, got: object) -> object:
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
        meta = run.Instance(run.Ref("class", "", "django.db.models.options.Options"))
        meta.attrs.update({
            "app_label": label, "model_name": lowered, "object_name": cls.name,
            "label": f"{label}.{cls.name}", "label_lower": f"{label}.{lowered}",
        })  # fmt: skip
        return meta
    if name == "as_view":
        return run.Builtin("as_view", cls)
    if name == "__name__":
        return cls.name
    return got


def kind_test(collector: Collector, name: str, args: list[object]) -> object:
    """`type(x)`, `isinstance(x, type)`, `issubclass(cls, base)` where the values tell."""
    if name == "type" and len(args) == 1:
        return _kind(args[0]) or run.Unknown()
    record = is_record(args[0], args[1]) if name == "isinstance" and len(args) == 2 else None
    if record is not None:  # a DRF `Route` record (`django_route_hooks`)
        return record
    if name == "isinstance" and len(args) == 2 and isinstance(args[1], run.Builtin):
        kind = _kind(args[0])
        if kind is None or args[1].receiver is not None:
            return run.Unknown()
        return kind.name == args[1].name
    if name == "issubclass" and len(args) == 2:
        return _subclass(collector, args[0], args[1])
    return run.Unknown()


def _kind(value: object) -> run.Builtin | None:
    if isinstance(value, run.Ref) and value.kind == "class":
        return run.Builtin("type")
    if isinstance(value, run.Func) or (isinstance(value, run.Ref) and value.kind == "function"):
        return run.Builtin("function")
    for plain in (bool, str, int, float, list, tuple, dict):
        if type(value) is plain:
            return run.Builtin(plain.__name__)
    return None


def _subclass(collector: Collector, cls: object, base: object) -> object:
    """Whether the project class `cls` reaches `base` through its bases. A library class
    reached is taken for one of Django's views when `base` is Django's `View` and that class
    is of Django's or REST framework's views (every one of them is); else not known."""
    if not (isinstance(cls, run.Ref) and cls.kind == "class" and isinstance(base, run.Ref)):
        return run.Unknown()
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
                return run.Unknown()
            kind, file, name = found
            if kind == "external":
                if (kind, "", name) == want:
                    return True
                if view and name.startswith(_LIBRARY_VIEWS):
                    return True
                external = True
            elif kind == "class":
                order.append(run.Ref("class", file, name))
            else:
                return run.Unknown()
    # a library class subclasses no class of the project: only a library base stays unknown
    return run.Unknown() if external and base.kind == "external" else False


def fill_registry(collector: Collector, file: str, name: str, store: dict[object, object]) -> None:
    """Run each decorator of the project that fills `store` (`name` of `file`), as importing
    its module does; then close the store, or leave it open with a gap where another call
    fills it."""
    # a filler stores through an item or a member of it (`store[key]`, `store.setdefault`):
    # the files defining one spell `store[` or `store.` (a narrower word than the name)
    word = re.compile(rf"\b{re.escape(name)}[\[.]")
    collector.linker.resolver.words.update((f"{name}[", f"{name}."))
    fillers: dict[tuple[str, str], None] = {}
    for other, facts in collector.django_modules():
        if other != file and not _imports(collector, other, file):
            continue
        for function, (_, text) in facts.code.items():
            if function in facts.functions and word.search(text) and _COLLECTING.search(text):
                fillers[(other, function)] = None
    if not fillers:
        return
    names = {function for _, function in fillers}
    collector.linker.resolver.words.update(names)  # the files decorating with them spell them
    sites: list[tuple[str, int, str, str]] = []
    opened: list[tuple[str, int, str]] = []
    for other, facts in collector.django_modules():
        if _in_tests(other):
            continue
        decorators = {line for line, _, _ in facts.decorated}
        for line, text, target in facts.decorated:
            if _named(collector, other, text, names, fillers):
                sites.append((other, line, text, target))
        for at, function in facts.applied:  # `filler(args)(view)` at runtime: not run
            if function in names and at not in decorators:
                opened.append((other, at, function))
    # stacked decorators run from the innermost (the last written) out
    sites.sort(key=lambda site: (site[0], -site[1]))
    kept, left = collector.budget, _FILL_BUDGET  # its own budget: a site costs about the same
    try:
        for other, line, text, target in sites:
            collector.budget = min(_SITE_BUDGET, left)
            _run_site(collector, store, other, line, text, target, name)
            left -= min(_SITE_BUDGET, left) - max(collector.budget, 0)
    finally:
        collector.budget = kept
    remaining = _started(collector, opened, left) if opened else []
    if remaining:
        where, line, function, ran = remaining[0]
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
        collector.open_stores[id(store)] = (where, line, why)
        return
    _close(collector, store, 0)


def _started(
    collector: Collector, opened: list[tuple[str, int, str]], left: int
) -> list[tuple[str, int, str, bool]]:
    """Run each installed-looking app's `AppConfig.ready()` (in its `apps` module, as Django
    imports it at start), `self.get_models()` the app's models: the calls of a filler made
    there store what they store. The sites left (not run, or run where what they add is not
    known), each with whether it ran; a site in a def that ran whole but skipped it (a test
    that held false) is done."""
    kept = (collector.budget, collector.gaps, collector.depth, collector.applied)
    collector.applied, collector.spans, collector.gaps = {}, set(), ()
    whole: set[tuple[str, int, int]] = set()
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
    out: list[tuple[str, int, str, bool]] = []
    for where, line, function in opened:
        ran = applied.get((where, line))
        if ran is True:
            continue
        if ran is None and any(f == where and a <= line <= b for f, a, b in whole):
            continue
        out.append((where, line, function, ran is not None))
    return out


def _configs(collector: Collector) -> list[run.Ref]:
    """The project's `AppConfig` subclasses of its apps' `apps` modules (tests left out)."""
    out: list[run.Ref] = []
    files = collector.linker.resolver.files
    for file in sorted(f for f in files if f.rpartition("/")[2] == "apps.py"):
        if _in_tests(file):
            continue
        facts = collector.linker.facts(file)  # a pre-filtering scan parses it, asked
        for name in facts.configs if facts is not None else ():
            cls = run.Ref("class", file, name)
            if _reaches(collector, cls, lambda found: found in _APP_CONFIG):
                out.append(cls)
    return out


def _ready(collector: Collector, config: run.Ref) -> bool:
    """Run `config().ready()`; whether it ran to its end."""
    place = ast.Name("self", ast.Load(), lineno=1, col_offset=0)
    made = run.Instance(config)
    ready = collector.class_member(config, "ready", made, config.file, place)
    if not isinstance(ready, run.Func):
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
    except (run._Stop, RecursionError, Refused, run._Raised, *run._MISREAD):
        return False
    return True


def _models(collector: Collector, importer: str, name: str, label: str) -> list[run.Ref]:
    """The models Django registers under `label`: the model classes of the app's `models`
    module or package (a `Meta.app_label` of another app's left out), in file and line
    order."""
    home = collector.linker.module_file(name, importer)
    if home is None or not home.endswith("/__init__.py"):
        return []
    folder = home.rpartition("/")[0]
    files = sorted(
        f
        for f in collector.linker.resolver.files
        if f == f"{folder}/models.py" or (f.startswith(f"{folder}/models/") and f.endswith(".py"))
    )
    out: list[run.Ref] = []
    for file in files:
        facts = collector.linker.facts(file)
        held = sorted(facts.classes.items(), key=lambda i: i[1].line) if facts is not None else []
        for cls, known in held:
            if known.meta_label not in (None, label):
                continue
            ref = run.Ref("class", file, cls)
            if _reaches(collector, ref, _model_base):
                collector.app_labels[(file, cls)] = label
                out.append(ref)
    return out


def _model_base(name: str) -> bool:
    """A library class a Django model subclasses: Django's `Model`, or a library's model
    base (`MPTTModel`, `PolymorphicModel`)."""
    return name.rpartition(".")[2].endswith("Model")


def _reaches(collector: Collector, cls: run.Ref, wanted: Callable[[str], bool]) -> bool:
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
                order.append(run.Ref("class", found[1], found[2]))
    return False


def imported_string(collector: Collector, args: list[object], file: str, node: ast.expr) -> object:
    """Django's `import_string("pkg.views.Name")`: the project's class or function it names."""
    text = args[0] if len(args) == 1 else None
    if not isinstance(text, str) or "." not in text:
        return run.Unknown((file, node))
    module, _, attr = text.rpartition(".")
    home = collector.linker.module_file(module, file)
    found = collector.linker.resolve(home, attr) if home is not None else None
    if found is None or found[0] not in ("class", "function"):
        return run.Unknown((file, node))
    kind, where, name = found
    facts = collector.linker.facts(where)
    known = facts.classes.get(name) if facts is not None else None
    line = known.line if known is not None else 1
    place = ast.Name(name, ast.Load(), lineno=line, col_offset=0)  # where it is defined
    return run.Ref(kind, where, name, (where, place), collector.gaps)


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
    node = run._parsed(text, line, "eval")
    before = collector.mutations
    why = ""
    if isinstance(node, ast.expr):
        facts = collector.linker.facts(file)
        kind = "class" if facts is not None and target in facts.classes else "function"
        place = ast.Name(target, ast.Load(), lineno=line, col_offset=node.col_offset)
        decorated = run.Ref(kind, file, target, (file, place))
        call = ast.Call(node, [place], [], lineno=line, col_offset=node.col_offset)
        try:
            decorator = collector.expr(node, file, {})  # a call applying it: the whole call
            if target:
                collector.apply(decorator, [decorated], {}, file, call)
        except (run._Stop, RecursionError, Refused, run._Raised, *run._MISREAD):
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


def _named(
    collector: Collector,
    file: str,
    text: str,
    names: set[str],
    fillers: dict[tuple[str, str], None],
) -> bool:
    """Whether the decorator written `text` in `file` is one of `fillers`: named by its last
    name (`marks.attach`) or imported under another (`import attach as hook`), and resolving
    to it."""
    head = text.partition("(")[0].strip()
    binding = collector.linker.resolver._facts(file).bindings.get(head.partition(".")[0])
    spelt = isinstance(binding, ImportRef) and binding.attr in names
    if not (spelt or head.rpartition(".")[2] in names):
        return False
    found = collector.linker.resolve(file, head)
    return found is not None and found[0] == "function" and (found[1], found[2]) in fillers


def _imports(collector: Collector, importer: str, file: str) -> bool:
    """Whether `importer` binds a name imported from the module `file` (or that module)."""
    for binding in collector.linker.resolver._facts(importer).bindings.values():
        if not isinstance(binding, ImportRef):
            continue
        whole = f"{binding.module}.{binding.attr}" if binding.attr else binding.module
        for dotted in (whole, binding.module):
            if collector.linker.module_file(dotted, importer) == file:
                return True
    return False


def _in_tests(path: str) -> bool:
    parts = path.split("/")
    return is_test_file(parts[-1]) or any(part in TEST_DIRECTORIES for part in parts[:-1])
