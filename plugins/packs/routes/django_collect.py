"""URL patterns a project's own code builds, found by running that code over the values it can
see: a registry or collector class whose methods store `path(...)`/`include(...)` results (or
tuples later turned into them) on the instance, prefixes held on it, a method that returns the
assembled list, module-level objects that other modules' import-time calls fill
(`registry.add("shop/", views)` in a plugin module) and helpers the URLconf calls first.

A URLconf entry the reader could not name (`urlpatterns += site.build()`, target "computed",
its call kept as `UrlEntry.code`) is evaluated here: names resolve through the Django linker
(`DjangoRouteResolver.resolve`), defs and classes run from the source `django_facts` kept
(`DjangoFacts.code`), module-level objects from their constructor call (`instances`) and the
calls other modules make on them at import (`effects`). What cannot be known is never silent:
a test the evaluator cannot decide runs both ways, a loop over values it cannot list runs once,
and each route added so carries a gap (a finding at the place); an object handed to a method
of something made at runtime (`ext.register(urls)`, `ext` from `import_module`) is handed to
every project class defining that method, each route marked; a module's import-time call whose
order against the URLconf's the pack cannot tell is marked too. The evaluation has a budget;
past it, or on a value it cannot follow, the entry stays a finding where it is written.
"""

from __future__ import annotations

import ast
import copy
import operator
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..bounded_values import NotEvaluated, Refused, binop, capped, format_text, room
from ..pymodules import absolute, package_of
from .django_facts import _COLLECTING, _URL_MAKING, DjangoFacts, UrlEntry, _Reader
from .django_registries import (
    IMPORT_STRING,
    KINDS,
    STORE_MAKERS,
    AppModels,
    Registries,
    class_attribute,
    fill_registry,
    imported_string,
    kind_test,
    made_by,
    made_store,
    missing_key,
    started,
)
from .django_route_hooks import record_call, record_member, super_member
from .django_values import (
    MISREAD,
    Builtin,
    Func,
    Include,
    Instance,
    Pattern,
    Raised,
    Ref,
    Stop,
    Super,
    Unknown,
    Why,
    parsed,
)
from .model import ImportRef, Sym

if TYPE_CHECKING:
    from .django_linker import DjangoRouteResolver
    from .linker import Gap

_BUDGET = 60_000  # statements and expressions evaluated per link
_RUN_BUDGET = 4_000  # and per URLconf entry evaluated (a builder called from many URLconfs)
_CALL_DEPTH = 48
_URL_FUNCTIONS = {
    "django.urls.path": "path",
    "django.urls.re_path": "re_path",
    "django.conf.urls.url": "re_path",
    "django.urls.include": "include",
    "django.conf.urls.include": "include",
}
_BUILTINS = frozenset({
    "len", "list", "tuple", "dict", "str", "sorted", "reversed", "enumerate", "zip", "hasattr",
    "getattr", "super", "isinstance", "set", "bool", "print", "any", "all", "type",
    "issubclass",
})  # fmt: skip
_CLASS_METHODS = frozenset({"classmethod", "classonlymethod"})  # Django's, for `as_view`
_ORDER = (
    "is filled by this module-level call, which runs when the module is imported: the pack "
    "does not follow the order of that import against the URLconf's, its routes are listed as "
    "if it ran first"
)


_WORD = re.compile(r"\w+")  # a name as `\bname\b` finds it


class _Return(Exception):
    def __init__(self, value: object) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


# what a project function may return as a URL pattern's view: a class view (`X.as_view()`), a
# function view, a name bound to a class view, a library's view
_VIEW_KINDS = frozenset({"class", "function", "view", "external"})


Built = list[tuple[str, UrlEntry, tuple["Gap", ...]]]


class Collector:
    """Runs the project's code for the Django linker (one per link; every object it makes,
    module-level ones included, is remembered for the link)."""

    def __init__(self, linker: DjangoRouteResolver) -> None:
        self.linker = linker
        self.budget = _BUDGET
        self.depth = 0
        self.parsed: dict[tuple[str, str], ast.AST | None] = {}
        self.objects: dict[tuple[str, str], object] = {}
        self.ran: set[tuple[str, int]] = set()  # module-level calls run
        self.gaps: tuple[Gap, ...] = ()  # in force while code runs (patterns keep them)
        self.built: dict[str, Built] = {}
        self.imported_by_conf: set[str] = set()  # files the URLconf being run imports
        self.modules: list[tuple[str, DjangoFacts]] | None = None  # `django_modules`
        self.effects_by_word: dict[str, list[tuple[str, int, str]]] | None = None  # `spelling`
        # objects storing items that make no URL pattern themselves: other modules' calls on
        # them are not looked for (their names are often common words); those a build read
        self.unfilled: dict[tuple[str, str], int] = {}
        self.used_unfilled: set[tuple[str, str]] = set()
        self.unfilled_objects: dict[int, tuple[str, str]] = {}  # id of the object -> its key
        self.selves: list[object] = []  # the `self` of each method running
        self.building = ""  # the URLconf whose call `run` evaluates
        self.defining: dict[str, list[Ref]] = {}  # method name -> the classes defining it
        # registries decorators fill (`django_registries`), by id: closed (a key they lack is
        # `KeyError`), or open (filled by calls not run: the gap), and the open ones read
        self.closed_stores: set[int] = set()
        self.open_stores: dict[int, Gap] = {}
        self.read_open: set[int] = set()
        self.read_registry = False  # a closed registry was read: no pattern may be the answer
        self.undecided_runs = 0  # blocks run under a test not decided (`django_route_hooks`)
        self.mutations = 0  # items stored in lists and dicts so far (`django_registries`)
        # while an app's `ready()` runs (`django_registries`): each `f(...)(...)` call run,
        # (file, line) -> whether every run of it stored an item under no gap; and the defs run
        self.applied: dict[tuple[str, int], bool] | None = None
        self.spans: set[tuple[str, int, int]] = set()
        self.app_labels: dict[tuple[str, str], str] = {}  # a model's, from its app's config
        # the configuration defaults the settings read so far were taken with (`setting`)
        self.defaults: list[str] = []
        self.registries = Registries()  # what the registries of the link share, made once

    # -- entry point -----------------------------------------------------------------------

    def run(self, path: str, entry: UrlEntry) -> Built | str:
        """The URL entries `entry`'s call gives, each with its file and gaps; a string: why
        they are not known."""
        read = self.call_value(path, entry, "builds them")
        if isinstance(read, str):
            return read
        node, got = read
        out = self.entries(got, path, node)
        if out is None:
            return "the value the project's code builds is not a list the pack can follow"
        if not out and not self.read_registry:
            return "the project's code builds no URL pattern the pack can see"
        for file, name in sorted(self.used_unfilled):
            why = (
                f"these URL patterns are built from `{name}` ({file}:{self.unfilled[(file, name)]}), "
                "an object whose class stores items but makes no URL pattern itself: calls "
                "other modules make on it at import are not looked for"
            )
            out = [(f, e, (*g, (path, entry.line, why))) for f, e, g in out]
        for store in sorted(self.read_open):  # at the URLconf's call, where its routes go
            where, line, why = self.open_stores[store]
            gap = (path, entry.line, f"{why} ({where}:{line})")
            out = [(f, e, (*g, gap)) for f, e, g in out]
        return out

    def call_value(self, path: str, entry: UrlEntry, verb: str) -> tuple[ast.expr, object] | str:
        """`entry`'s call and the value the project's code gives it; a string: why not."""
        node = parsed(entry.code, entry.line, "eval")
        if not isinstance(node, ast.expr):
            return "its call does not parse"
        got = self.evaluated(path, entry.line, node, verb)
        if isinstance(got, Why):
            return got.why
        return node, got

    def view(self, path: str, entry: UrlEntry) -> tuple[str, UrlEntry, tuple[str, ...]] | str:
        """The view `entry`'s call of a project function returns (`make_view()`, whose code
        returns `X.as_view()`, `import_string(settings.VIEW).as_view()` or a function of the
        project): the URL entry naming it where it is written (its file, the entry read there)
        and the configuration defaults the settings it read were taken with; a string: why it
        is not known."""
        read = self.call_value(path, entry, "makes it")
        if isinstance(read, str):
            return read
        got = read[1]
        if not (isinstance(got, Ref) and got.kind in _VIEW_KINDS and got.origin is not None):
            return (
                "it returns a value the scanned files do not show: a view named at run time, "
                "a library call's result, or no view"
            )
        if self.read_open or self.used_unfilled:
            return "it returns a view read from a registry other code may fill"
        file, written = got.origin
        return (file, self.synthetic(file, "path", "", written, written), tuple(self.defaults))

    def evaluated(self, path: str, line: int, node: ast.expr, what: str) -> object:
        """The value `node`, written in `path` at `line`, has once the module-level calls
        `path` makes before that line have run (`discover()`), as `run` and `view` ask;
        `Why` it is not known where the evaluation cannot go on (`what` the code does, for
        the reason)."""
        facts = self.linker.facts(path)
        self.imported_by_conf = self.imports_of(path)
        self.used_unfilled = set()
        self.read_open = set()
        self.read_registry = False
        self.defaults = []
        self.building = path
        self.budget = max(self.budget, 0) + _RUN_BUDGET  # each call of a URLconf brings its own
        code = f"the project's code that {what}"
        try:
            if facts is not None:  # what the URLconf does first (`discover()`), in order
                for at, effect in facts.effects:
                    if at < line:
                        self.effect(path, at, effect, ())
            return self.expr(node, path, {})
        except Raised:
            return Why(f"{code} raises an exception the pack cannot see past")
        except (Stop, RecursionError):
            return Why(f"running {code} went past the pack's budget")
        except Refused as refused:
            return Why(f"{code} asks for more than the pack holds: {refused.reason}")
        except MISREAD:
            return Why(f"{code} does something the pack cannot follow")

    def value(self, path: str, name: str) -> str | None:
        """The string a dotted name written in `path` holds when reading it runs project code
        (`conf.settings.ADMIN_PATH`, a settings object whose `__getattr__` falls back to a
        defaults module); None when it is not a string the evaluator finds."""
        try:
            node = ast.parse(name, mode="eval").body
            got = self.expr(node, path, {})
        except (SyntaxError, Stop, Raised, _Return, _Break, _Continue, RecursionError,
                NotEvaluated, *MISREAD):  # fmt: skip
            return None
        return got if isinstance(got, str) else None

    def imports_of(self, path: str) -> set[str]:
        """The files the module-level imports of `path` load (what runs before it goes on)."""
        facts = self.linker.facts(path)
        out: set[str] = set()
        for name in facts.imports if facts is not None else ():
            file = self.linker.module_file(name, path)
            if file is not None:
                out.add(file)
        return out

    # -- what the values become ------------------------------------------------------------

    def entries(self, value: object, home: str, at: ast.expr, depth: int = 0) -> Built | None:
        if depth > 16:
            return None
        if isinstance(value, tuple | list):
            out: Built = []
            for item in value:
                got = self.entries(item, home, at, depth + 1)
                if got is None:
                    return None
                out += got
            return out
        if isinstance(value, Pattern):
            return [self.pattern(value, depth)]
        origin = value.origin if isinstance(value, Unknown | Ref) else None
        if origin is not None and isinstance(origin[1], ast.Name | ast.Attribute):
            file, node = origin  # a list named where it is written (`*other.urlpatterns`)
            made = _Reader(package_of(file), "").entries(node)
            return [(file, e, self.gaps) for e in made]
        return None

    def pattern(self, made: Pattern, depth: int) -> tuple[str, UrlEntry, tuple[Gap, ...]]:
        route = made.route if isinstance(made.route, str) else None
        maker = "re_path" if made.regex else "path"
        view = made.view
        if isinstance(view, Include):
            target = view.target
            if isinstance(target, tuple) and target:
                target = target[0]
            if isinstance(target, list):
                key = f"@built{len(self.built)}"
                self.built[key] = []  # its own key before the lists it holds take theirs
                inner = self.entries(target, made.file, ast.Constant(""), depth + 1)
                self.built[key] = inner if inner is not None else []
                entry = UrlEntry(made.line, route, made.regex, ("built", key))
                if inner is None:
                    entry = UrlEntry(made.line, route, made.regex,
                                     ("opaque", "a list the project's code builds"))  # fmt: skip
                return (made.file, entry, made.gaps)
            if isinstance(target, Ref) and target.kind == "module" and target.name:
                target = target.name  # a module the code imported (in a def, too): by its name
            if isinstance(target, str):
                return (made.file, UrlEntry(made.line, route, made.regex, ("include", target)),
                        made.gaps)  # fmt: skip
            origin = target.origin if isinstance(target, Unknown | Ref) else None
            if origin is not None:
                file, node = origin
                call = ast.Call(ast.Name("include"), [node], [])
                return (file, self.synthetic(file, maker, route, call, node), made.gaps)
        origin = view.origin if isinstance(view, Unknown | Ref) else None
        if origin is not None:
            file, node = origin
            return (file, self.synthetic(file, maker, route, node, node), made.gaps)
        opaque = ("opaque", "a view the project's code computes")
        return (made.file, UrlEntry(made.line, route, made.regex, opaque), made.gaps)

    def synthetic(
        self, file: str, maker: str, route: str | None, view: ast.expr, at: ast.expr
    ) -> UrlEntry:
        """The entry `maker(route, view)` would be, written where the view is."""
        first: ast.expr = ast.Constant(route) if route is not None else ast.Name("_")
        call = ast.Call(ast.Name(maker), [first, view], [])
        call.lineno = at.lineno
        call.col_offset = getattr(at, "col_offset", 0)
        first.lineno = call.lineno
        (entry,) = _Reader(package_of(file), "").entry(call)
        return entry

    # -- names -----------------------------------------------------------------------------

    def code(self, file: str, name: str) -> ast.AST | None:
        key = (file, name)
        if key not in self.parsed:
            facts = self.linker.facts(file)
            found = facts.code.get(name) if facts is not None else None
            tree: ast.AST | None = None
            if found is not None:
                tree = parsed(found[1], found[0], "exec")
            self.parsed[key] = tree
        return self.parsed[key]

    def lookup(self, file: str, name: str, node: ast.expr, depth: int = 0) -> object:
        found = self.lookup_in(file, name, node, depth)
        if isinstance(found, Ref | Unknown):
            found.origin = (file, node)  # where it is written, for a view or list it names
            found.gaps = self.gaps
        return found

    def lookup_in(self, file: str, name: str, node: ast.expr, depth: int) -> object:
        read = self.linker.resolver._facts(file)  # `linker.facts` is its `django`
        facts = read.django
        if facts is not None and name in facts.instances:
            return self.instance(file, name)
        binding = read.bindings.get(name)
        if isinstance(binding, ImportRef) and depth < 16:  # an object is imported as a name
            module, attr = binding.module, binding.attr
            whole = f"{module}.{attr}" if attr else module
            if attr and whole in _URL_FUNCTIONS:
                return Builtin(_URL_FUNCTIONS[whole])
            sub = self.linker.module_file(whole, file)
            if sub is not None:
                return Ref("module", sub, whole, (file, node))
            home = self.linker.module_file(module, file) if attr else None
            if home is not None and attr:
                return self.lookup(home, attr, node, depth + 1)
        found = self.linker.resolve(file, name)
        if found is None:
            if name in _BUILTINS:
                return Builtin(name)
            if facts is not None and name in facts.literals:  # a copy: the code may change it
                return copy.deepcopy(facts.literals[name])
            if binding is not None and not isinstance(binding, ImportRef):  # `KEY = "views"`
                text = self.linker.resolver._string(file, Sym((name,)))
                if text is not None:
                    return text
            return Unknown((file, node))
        kind, where, attr = found
        if kind == "external":
            maker = _URL_FUNCTIONS.get(attr)
            return Builtin(maker) if maker else Ref("external", "", attr, (file, node))
        if kind == "module":
            return Ref("module", where, attr, (file, node))
        held = self.linker.facts(where)
        if held is not None and attr in held.instances:
            return self.instance(where, attr)
        return Ref(kind, where, attr, (file, node))

    def member(self, value: object, name: str, file: str, node: ast.expr) -> object:
        if isinstance(value, Instance):
            if name in value.attrs:
                if id(value) in self.unfilled_objects and (
                    not self.selves or self.selves[-1] is not value
                ):  # its items read from outside it
                    self.used_unfilled.add(self.unfilled_objects[id(value)])
                return value.attrs[name]
            record = record_member(value, name) if value.cls.file == "" else None
            if record is not None:  # DRF's `Route` records (`route._replace(...)`)
                return record
            got = self.class_member(value.cls, name, value, file, node)
            if isinstance(got, Unknown) and not name.startswith("__"):
                hook = self.class_member(value.cls, "__getattr__", value, file, node)
                if isinstance(hook, Func):  # a settings object's fallback to its defaults
                    return self.invoke(hook, [name], {})
            return got
        if isinstance(value, Super):
            got = self.class_member(value.after, name, value.obj, file, node, skip=True)
            return super_member(value.obj, name, got) if isinstance(got, Unknown) else got
        if (
            isinstance(value, Ref)
            and value.kind == "external"
            and value.name == ("django.conf.settings")
        ):
            return self.setting(name, strict=False)
        if isinstance(value, Ref) and value.kind == "module":
            facts = self.linker.facts(value.file)
            if facts is not None and name in facts.instances:
                return self.instance(value.file, name)
            found = self.linker.resolve(value.file, name)
            if found is None:
                sub = self.linker.module_file(f"{value.name}.{name}", value.file)
                if sub is not None:
                    return Ref("module", sub, f"{value.name}.{name}", (file, node))
                return self.constant(value.file, name, file, node)
            got = self.lookup(value.file, name, node)
            if isinstance(got, Ref | Unknown):
                got.origin, got.gaps = (file, node), self.gaps
            return got
        if isinstance(value, Ref) and value.kind == "class":
            if name == "as_view":  # the class view, read as a URLconf's `X.as_view()` is,
                return Builtin("as_view", value)  # the project's own `as_view` or Django's
            if name == "_meta":  # Django's, never a class's own
                return class_attribute(self, value, name, Unknown((file, node)))
            got = self.class_member(value, name, None, file, node)
            if isinstance(got, Unknown):  # `Model._meta`, `View.as_view`
                return class_attribute(self, value, name, got)
            return got
        if isinstance(value, Ref) and value.kind == "external" and name == "as_view":
            return Builtin("as_view", value)  # a library's class view (`LoginView.as_view()`)
        if isinstance(value, Ref) and value.kind == "external" and value.name == "collections":
            return Ref("external", "", f"collections.{name}", (file, node))
        if isinstance(value, str | list | dict | tuple):
            return Builtin(name, value)
        if isinstance(value, Ref) and value.kind == "function" and name == "__name__":
            return value.name
        return Unknown((file, node))

    def constant(self, home: str, name: str, file: str, node: ast.expr) -> object:
        """A module-level string of `home` (the linker evaluates it); a name the module does
        not bind at all is a failed lookup (`getattr(defaults, name)` raising)."""
        bindings = self.linker.resolver._facts(home).bindings
        if name not in bindings:
            raise Raised
        found = self.linker.resolver._string(home, Sym((name,)))
        return found if found is not None else Unknown((file, node))

    def setting(self, name: str, *, strict: bool) -> object:
        """`django.conf.settings.<name>`: the project's settings modules' string; `strict`
        (`getattr(settings, name)`), a name none of them binds is a failed lookup (Django
        raises `AttributeError`), else a value not known (set in some other way)."""
        files = self.linker.settings_files
        if not files:
            return Unknown()
        found = {self.linker.setting_read(file, name, 0) for file in files}
        if found == {None}:
            if strict and not any(self.bound_in(file, name, 0) is not False for file in files):
                raise Raised
            return Unknown()
        read = found.pop() if len(found) == 1 else None
        if read is None:
            return Unknown()
        self.defaults += [a for a in read[1] if a not in self.defaults]
        return read[0]

    def bound_in(self, file: str, name: str, depth: int) -> bool | None:
        """Whether a settings module binds `name`, itself or through its star imports (None:
        one of those is not a file of the scan, or too deep to tell)."""
        if name in self.linker.resolver._facts(file).bindings:
            return True
        facts = self.linker.facts(file)
        held: bool | None = False
        for star in facts.stars if facts is not None else ():
            module = self.linker.module_file(star, file)
            found = self.bound_in(module, name, depth + 1) if module and depth < 8 else None
            if found is True:
                return True
            held = None if found is None else held
        return held

    def bases(self, cls: Ref) -> list[Ref]:
        facts = self.linker.facts(cls.file)
        known = facts.classes.get(cls.name) if facts is not None else None
        out: list[Ref] = []
        for base in known.bases if known is not None else ():
            found = self.linker.resolve(cls.file, base)
            if found is not None and found[0] == "class":
                out.append(Ref("class", found[1], found[2]))
        return out

    def class_member(
        self, cls: Ref, name: str, obj: object, file: str, node: ast.expr, *, skip: bool = False
    ) -> object:
        """`name` of the class `cls` or its bases (after `cls` itself, for `super()`)."""
        seen: set[tuple[str, str]] = set()
        # a classmethod's `cls`: the object's class, the class it is read from (or `super()`'s)
        receiver = obj.cls if isinstance(obj, Instance) else obj if isinstance(obj, Ref) else cls
        order = self.bases(cls) if skip else [cls]
        while order:
            here = order.pop(0)
            if (here.file, here.name) in seen:
                continue
            seen.add((here.file, here.name))
            tree = self.code(here.file, here.name)
            if isinstance(tree, ast.ClassDef):
                for stmt in tree.body:
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                        if stmt.name == name:
                            made = {_decorator(d) for d in stmt.decorator_list}
                            if "staticmethod" in made:
                                return Func(here.file, stmt, here)
                            if made & _CLASS_METHODS:  # passed the class it is read from
                                return Func(here.file, stmt, here, receiver)
                            if "property" in made and isinstance(obj, Instance):
                                return self.invoke(Func(here.file, stmt, here, obj), [], {})
                            return Func(here.file, stmt, here, obj)
                    elif isinstance(stmt, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == name for t in stmt.targets
                    ):
                        return self.expr(stmt.value, here.file, {})
            elif tree is None and here.kind == "class":
                # a class whose code is not kept (a view subclass setting options): its literal
                # class attributes, and its bases for the rest
                known = self.linker.facts(here.file)
                held = known.classes.get(here.name) if known is not None else None
                if held is None or name in held.methods:
                    return Unknown((file, node))
                value = dict(held.fields).get(name, Unknown)
                if value is ...:
                    return Unknown((file, node))
                if value is not Unknown:
                    return value
            order += self.bases(here)
        return Unknown((file, node))

    def instance(self, file: str, name: str) -> object:
        """The module-level object `name` of `file`, made once, then filled by the calls
        made on it at import (its own module's after it, then other modules')."""
        key = (file, name)
        if key in self.objects:
            return self.objects[key]
        facts = self.linker.facts(file)
        self.objects[key] = Unknown()
        if facts is None:
            return self.objects[key]
        line, code = facts.instances[name]
        node = parsed(code, line, "eval")
        if not isinstance(node, ast.expr):
            return self.objects[key]
        made = self.expr(node, file, {})
        self.objects[key] = made
        if isinstance(made, dict):  # a store other modules' decorators may fill at import
            fill_registry(self, file, name, made)
        if not isinstance(made, Instance):
            return made
        stores, makes = self.shape(made.cls)
        if stores and not makes:  # its items may become URL patterns elsewhere: not looked for
            self.unfilled[key] = line
            self.unfilled_objects[id(made)] = key
        spelt = self.spelling(name)
        for other, at, text in spelt:  # its own module's calls on it, after it is made
            if other == file and at > line:
                self.effect(file, at, text, ())
        if stores and not makes:  # a registry of objects that make them (`register(T())`)
            started(self)  # in an app's `ready()`, as plugin architectures fill them
        if not (stores and makes):
            return made  # not a collector (a settings object): no other module fills it
        self.linker.resolver.words.add(name)  # the files that fill it spell it
        for other, at, text in spelt:
            if other == file:
                continue
            if other == self.building:
                continue  # the building URLconf's own calls run before its build (`run`)
            gaps = () if other in self.imported_by_conf else ((other, at, f"`{name}` "
                                                              + _ORDER),)  # fmt: skip
            self.effect(other, at, text, gaps)
        return made

    def spelling(self, name: str) -> list[tuple[str, int, str]]:
        """The module-level calls (`DjangoFacts.effects`) that spell the word `name`, in
        module then line order: (module, line, code). Indexed by word once a link: each object
        made looked through every module's calls, objects times modules."""
        if self.effects_by_word is None:
            self.effects_by_word = {}
            for other, held in self.django_modules():
                for at, text in held.effects:
                    for word in dict.fromkeys(_WORD.findall(text)):
                        self.effects_by_word.setdefault(word, []).append((other, at, text))
        return self.effects_by_word.get(name, [])

    def collects(self, cls: Ref) -> bool:
        """Whether the class or a base stores items on its instances (`self.x.append(...)`)
        and makes URL patterns (`path(...)`): a collector other modules may fill, looked for
        by its name (a settings object or a menu is not: its name, `settings`, `site`, is in
        most files)."""
        stores, makes = self.shape(cls)
        return stores and makes

    def shape(self, cls: Ref) -> tuple[bool, bool]:
        """Whether the class or a base stores items on `self`, and whether it makes URL
        patterns."""
        stores = makes = False
        order, seen = [cls], set[tuple[str, str]]()
        while order:
            here = order.pop()
            if (here.file, here.name) in seen or len(seen) > 16:
                continue
            seen.add((here.file, here.name))
            facts = self.linker.facts(here.file)
            kept = facts.code.get(here.name) if facts is not None else None
            if kept is not None:
                stores = stores or ("self." in kept[1] and _COLLECTING.search(kept[1]) is not None)
                makes = makes or _URL_MAKING.search(kept[1]) is not None
            order += self.bases(here)
        return stores, makes

    def django_modules(self) -> list[tuple[str, DjangoFacts]]:
        """Every parsed Python file with Django facts, in path order (not asked for: a file
        that spells a word looked for is parsed anyway)."""
        if self.modules is None:
            self.modules = [
                (path, facts.django)
                for path, facts in sorted(self.linker.resolver.modules.items())
                if path.endswith(".py") and facts.django is not None
            ]
        return self.modules

    def effect(self, file: str, line: int, code: str, gaps: tuple[Gap, ...]) -> None:
        if (file, line) in self.ran:
            return
        self.ran.add((file, line))
        node = parsed(code, line, "eval")
        if not isinstance(node, ast.expr):
            return
        kept = self.gaps
        self.gaps = kept + gaps
        try:
            self.expr(node, file, {})
        except Raised:
            pass
        finally:
            self.gaps = kept

    # -- statements ------------------------------------------------------------------------

    def spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise Stop

    def block(self, body: list[ast.stmt], file: str, env: dict[str, object]) -> None:
        for stmt in body:
            self.statement(stmt, file, env)

    def statement(self, stmt: ast.stmt, file: str, env: dict[str, object]) -> None:
        self.spend()
        if isinstance(stmt, ast.Expr):
            self.expr(stmt.value, file, env)
        elif isinstance(stmt, ast.Assign):
            value = self.expr(stmt.value, file, env)
            for target in stmt.targets:
                self.assign(target, value, file, env)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self.assign(stmt.target, self.expr(stmt.value, file, env), file, env)
        elif isinstance(stmt, ast.AugAssign):
            current = self.expr(_load(stmt.target), file, env)
            value = self.expr(stmt.value, file, env)
            if isinstance(current, list) and isinstance(stmt.op, ast.Add):
                if isinstance(value, list | tuple):
                    room(len(current), len(value))
                    self.mutations += 1
                    current.extend(value)  # in place, as Python's `+=` on a list
                else:
                    room(len(current), 1)
                    self.mutations += 1
                    current.append(Unknown((file, stmt.value)))
                return
            self.assign(stmt.target, _binop(stmt.op, current, value), file, env)
        elif isinstance(stmt, ast.Return):
            raise _Return(self.expr(stmt.value, file, env) if stmt.value else None)
        elif isinstance(stmt, ast.If):
            self.branch(stmt, file, env)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self.loop(stmt, file, env)
        elif isinstance(stmt, ast.While):
            self.repeat(stmt, file, env)
        elif isinstance(stmt, ast.Try):
            try:
                self.block(stmt.body, file, env)
            except Raised:
                if not stmt.handlers:
                    raise
                self.block(stmt.handlers[0].body, file, env)
            else:
                self.block(stmt.orelse, file, env)
            finally:
                self.block(stmt.finalbody, file, env)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            self.block(stmt.body, file, env)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            env[stmt.name] = Func(file, stmt, closure=env)
        elif isinstance(stmt, ast.Break):
            raise _Break
        elif isinstance(stmt, ast.Continue):
            raise _Continue
        elif isinstance(stmt, ast.Raise):
            raise Raised
        elif isinstance(stmt, ast.ImportFrom) and stmt.module is not None:
            module = absolute(stmt.module, stmt.level, package_of(file))
            home = self.linker.module_file(module, file)
            for alias in stmt.names:  # `from app.marks import register` inside a def
                place = ast.Name(alias.asname or alias.name, ast.Load(), lineno=stmt.lineno,
                                 col_offset=stmt.col_offset)  # fmt: skip
                sub = self.linker.module_file(f"{module}.{alias.name}", file)
                got: object = Unknown((file, place))
                if sub is not None:
                    got = Ref("module", sub, f"{module}.{alias.name}", (file, place))
                elif home is not None and alias.name != "*":
                    got = self.lookup(home, alias.name, place)
                env[place.id] = got
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                bound = (alias.asname or alias.name).partition(".")[0]
                env[bound] = Unknown()

    def assign(self, target: ast.expr, value: object, file: str, env: dict[str, object]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, ast.Attribute):
            owner = self.expr(target.value, file, env)
            if isinstance(owner, Instance):
                owner.attrs[target.attr] = value
        elif isinstance(target, ast.Subscript):
            owner = self.expr(target.value, file, env)
            key = self.expr(target.slice, file, env)
            if isinstance(owner, dict) and _hashable(key):
                room(len(owner), key not in owner)
                self.mutations += 1
                owner[key] = value
            if isinstance(owner, list) and isinstance(key, int) and -len(owner) <= key < len(owner):
                owner[key] = value
        elif isinstance(target, ast.Tuple | ast.List):
            items = list(value) if isinstance(value, list | tuple) else None
            if items is None or len(items) != len(target.elts):
                items = [Unknown() for _ in target.elts]
            for element, item in zip(target.elts, items, strict=True):
                self.assign(element, item, file, env)

    def undecided(self, body: list[ast.stmt], file: str, env: dict[str, object], at: int) -> None:
        """A branch taken or a loop body run where the pack cannot tell whether it runs: what it
        adds is marked; leaving it early (`continue`, `return`) is not followed."""
        self.undecided_runs += 1
        kept = self.gaps
        self.gaps = (*kept, (file, at, "URL patterns are added here under a test or over items "
                             "the pack cannot decide: they are listed as if it ran"))  # fmt: skip
        try:
            self.block(body, file, env)
        except (_Break, _Continue, _Return, Raised):
            pass
        finally:
            self.gaps = kept

    def branch(self, stmt: ast.If, file: str, env: dict[str, object]) -> None:
        held = _truth(self.expr(stmt.test, file, env))
        if held is True:
            self.block(stmt.body, file, env)
        elif held is False:
            self.block(stmt.orelse, file, env)
        else:
            self.undecided(stmt.body, file, env, stmt.lineno)
            self.undecided(stmt.orelse, file, env, stmt.lineno)

    def loop(self, stmt: ast.For | ast.AsyncFor, file: str, env: dict[str, object]) -> None:
        items = _items(self.expr(stmt.iter, file, env))
        if items is None:
            self.assign(stmt.target, Unknown(), file, env)
            self.undecided(stmt.body, file, env, stmt.lineno)
            return
        for item in items:
            self.assign(stmt.target, item, file, env)
            if not self.iteration(stmt.body, file, env):
                return
        self.block(stmt.orelse, file, env)

    def iteration(self, body: list[ast.stmt], file: str, env: dict[str, object]) -> bool:
        """One run of a loop's body; False when it breaks out of the loop."""
        try:
            self.block(body, file, env)
        except _Break:
            return False
        except _Continue:
            pass
        return True

    def repeat(self, stmt: ast.While, file: str, env: dict[str, object]) -> None:
        """`while`: run while its test holds (the budget bounds `while True`); a test the pack
        cannot decide runs the body once, marked."""
        while True:
            held = _truth(self.expr(stmt.test, file, env))
            if held is None:
                self.undecided(stmt.body, file, env, stmt.lineno)
                return
            if not held:
                break
            if not self.iteration(stmt.body, file, env):
                return
        self.block(stmt.orelse, file, env)

    # -- expressions -----------------------------------------------------------------------

    def made(self, value: object) -> object:
        """A value an operation made: past the caps, `Refused`; a long string costs its length
        of the budget, so what the evaluation holds stays bounded."""
        if type(value) is str:
            self.budget -= len(value) >> 6
        return capped(value)

    def expr(self, node: ast.expr | None, file: str, env: dict[str, object]) -> object:
        if node is None:
            return None
        self.spend()
        kind = type(node)
        if kind is ast.Constant:
            assert isinstance(node, ast.Constant)
            return node.value
        if kind is ast.Name:
            assert isinstance(node, ast.Name)
            if node.id in env:
                return env[node.id]
            return self.lookup(file, node.id, node)
        if kind is ast.Attribute:
            assert isinstance(node, ast.Attribute)
            owner = self.expr(node.value, file, env)
            if isinstance(owner, Unknown) and owner.origin is None:
                return Unknown((file, node))
            if isinstance(owner, Unknown):
                return Unknown((file, node))
            return self.member(owner, node.attr, file, node)
        if kind is ast.Call:
            assert isinstance(node, ast.Call)
            return self.call(node, file, env)
        if kind is ast.JoinedStr:
            assert isinstance(node, ast.JoinedStr)
            parts: list[str] = []
            for piece in node.values:
                if isinstance(piece, ast.FormattedValue):
                    if piece.conversion != -1 or piece.format_spec is not None:
                        return Unknown((file, node))
                    piece = piece.value
                got = self.expr(piece, file, env)
                if not _formattable(got):
                    return Unknown((file, node))
                parts.append(str(got))
            return self.made("".join(parts))
        if kind is ast.BinOp:
            assert isinstance(node, ast.BinOp)
            left = self.expr(node.left, file, env)
            right = self.expr(node.right, file, env)
            got = _binop(node.op, left, right)
            return Unknown((file, node)) if isinstance(got, Unknown) else self.made(got)
        if kind is ast.BoolOp:
            assert isinstance(node, ast.BoolOp)
            last: object = None
            for term in node.values:
                last = self.expr(term, file, env)
                held = _truth(last)
                if held is None:
                    return Unknown((file, node))
                if held is isinstance(node.op, ast.Or):
                    return last
            return last
        if kind is ast.UnaryOp:
            assert isinstance(node, ast.UnaryOp)
            operand = self.expr(node.operand, file, env)
            if isinstance(node.op, ast.Not):
                held = _truth(operand)
                return Unknown() if held is None else not held
            return Unknown()
        if kind is ast.Compare:
            assert isinstance(node, ast.Compare)
            return self.compare(node, file, env)
        if kind is ast.IfExp:
            assert isinstance(node, ast.IfExp)
            held = _truth(self.expr(node.test, file, env))
            if held is None:
                return Unknown((file, node))
            return self.expr(node.body if held else node.orelse, file, env)
        if kind is ast.List or kind is ast.Tuple or kind is ast.Set:
            assert isinstance(node, ast.List | ast.Tuple | ast.Set)
            items: list[object] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    got = self.expr(element.value, file, env)
                    listed = _items(got)
                    room(len(items), len(listed) if listed is not None else 1)
                    items += listed if listed is not None else [got]
                else:
                    items.append(self.expr(element, file, env))
            capped(items)
            return tuple(items) if kind is ast.Tuple else items
        if kind is ast.Dict:
            assert isinstance(node, ast.Dict)
            out: dict[object, object] = {}
            for key_node, value_node in zip(node.keys, node.values, strict=True):
                value = self.expr(value_node, file, env)
                if key_node is None:
                    if isinstance(value, dict):
                        room(len(out), len(value))
                        out.update(value)
                    continue
                key = self.expr(key_node, file, env)
                if _hashable(key):
                    out[key] = value
            return capped(out)
        if kind is ast.Subscript:
            assert isinstance(node, ast.Subscript)
            owner = self.expr(node.value, file, env)
            key = self.expr(node.slice, file, env)
            if isinstance(owner, dict) and id(owner) in self.open_stores:
                self.read_open.add(id(owner))
            self.read_registry |= isinstance(owner, dict) and id(owner) in self.closed_stores
            if isinstance(owner, dict) and _hashable(key) and key in owner:
                return owner[key]
            if isinstance(owner, dict) and _plain(key) and _hashable(key):
                got = missing_key(self, owner, key)  # a default made, or `KeyError` raised
                if not isinstance(got, Unknown):
                    return got
            if (
                isinstance(owner, list | tuple | str)
                and type(key) is int
                and -len(owner) <= key < len(owner)
            ):
                return owner[key]
            return Unknown((file, node))
        if kind is ast.ListComp or kind is ast.GeneratorExp:
            assert isinstance(node, ast.ListComp | ast.GeneratorExp)
            return self.comprehension(node, file, env)
        return Unknown((file, node))

    def compare(self, node: ast.Compare, file: str, env: dict[str, object]) -> object:
        left = self.expr(node.left, file, env)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.expr(right_node, file, env)
            held = _compared(op, left, right)
            if held is None:
                return Unknown()
            if not held:
                return False
            left = right
        return True

    def comprehension(
        self, node: ast.ListComp | ast.GeneratorExp, file: str, env: dict[str, object]
    ) -> object:
        if len(node.generators) != 1:
            return Unknown((file, node))
        (gen,) = node.generators
        items = _items(self.expr(gen.iter, file, env))
        if items is None:
            return Unknown((file, node))
        out: list[object] = []
        scope = dict(env)
        for item in items:
            self.assign(gen.target, item, file, scope)
            tests = [_truth(self.expr(test, file, scope)) for test in gen.ifs]
            if any(t is None for t in tests):
                return Unknown((file, node))
            if all(tests):
                out.append(self.expr(node.elt, file, scope))
        return out

    # -- calls -----------------------------------------------------------------------------

    def arguments(
        self, node: ast.Call, file: str, env: dict[str, object]
    ) -> tuple[list[object], dict[str, object]] | None:
        args: list[object] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                items = _items(self.expr(arg.value, file, env))
                if items is None:
                    return None
                args += items
            else:
                args.append(self.expr(arg, file, env))
        keywords: dict[str, object] = {}
        for keyword in node.keywords:
            value = self.expr(keyword.value, file, env)
            if keyword.arg is None:
                if not isinstance(value, dict):
                    return None
                keywords.update({str(k): v for k, v in value.items()})
            else:
                keywords[keyword.arg] = value
        return args, keywords

    def call(self, node: ast.Call, file: str, env: dict[str, object]) -> object:
        before = self.mutations
        func = self.expr(node.func, file, env)
        given = self.arguments(node, file, env)
        if given is None:
            got: object = Unknown((file, node))
        else:
            args, keywords = given
            if isinstance(func, Builtin) and func.name == "super" and func.receiver is None:
                owner, obj = env.get("__class__"), env.get("__self__")
                return Super(obj, owner) if isinstance(owner, Ref) else Unknown((file, node))
            got = self.apply(func, args, keywords, file, node)
        if self.applied is not None and type(node.func) is ast.Call:  # `register(...)(view)`
            key = (file, node.lineno)
            stored = self.mutations > before and not self.gaps
            self.applied[key] = self.applied.get(key, True) and stored
        return got

    def apply(
        self, func: object, args: list[object], keywords: dict[str, object], file: str,
        node: ast.Call,
    ) -> object:  # fmt: skip
        """`func(*args, **keywords)`, written at `node`."""
        if isinstance(func, Builtin) and func.receiver is None and func.name in KINDS:
            return kind_test(self, func.name, args)
        if isinstance(func, Builtin) and isinstance(func.receiver, Instance):
            made = record_call(func, keywords)
            if made is not None:
                return made
        if isinstance(func, Builtin) and func.name == "as_view" and isinstance(func.receiver, Ref):
            return _class_view(func.receiver, file, node)
        if isinstance(func, Builtin):
            if func.name in ("path", "re_path"):
                route = args[0] if args else keywords.get("route", Unknown())
                view = args[1] if len(args) > 1 else keywords.get("view", Unknown())
                gaps = self.gaps
                if isinstance(view, Ref | Unknown):  # a view a plugin passed: its gaps too
                    gaps += tuple(g for g in view.gaps if g not in gaps)
                return Pattern(route, func.name == "re_path", view, file, node.lineno, gaps)
            if func.name == "include":
                return Include(args[0] if args else Unknown())
            got = _builtin(func, args, keywords, self)
            return Unknown((file, node)) if isinstance(got, Unknown) else self.made(got)
        if isinstance(func, Ref) and func.kind == "external" and func.name in STORE_MAKERS:
            return made_by(func.name, args, keywords)
        if isinstance(func, Ref) and func.kind == "external" and func.name == IMPORT_STRING:
            return imported_string(self, args, file, node)
        if isinstance(func, AppModels):  # an app config's `self.get_models()`
            return list(func.models)
        if isinstance(func, Ref) and func.kind == "function":
            tree = self.code(func.file, func.name)
            if isinstance(tree, ast.FunctionDef | ast.AsyncFunctionDef):
                func = Func(func.file, tree)
        if isinstance(func, Func):
            return self.invoke(func, args, keywords)
        if isinstance(func, Ref) and func.kind == "class":
            return self.construct(func, args, keywords, file, node)
        if isinstance(func, Instance):
            method = self.class_member(func.cls, "__call__", func, file, node)
            if isinstance(method, Func):
                return self.invoke(method, args, keywords)
        if isinstance(func, Unknown) and isinstance(node.func, ast.Attribute):
            held = [
                a
                for a in (*args, *keywords.values())
                if isinstance(a, Instance) and self.collects(a.cls)
            ]
            if held:
                self.dispatch(node, file, node.func.attr, args, keywords)
        return Unknown((file, node))

    def construct(
        self, cls: Ref, args: list[object], keywords: dict[str, object], file: str, node: ast.expr
    ) -> object:
        if not isinstance(self.code(cls.file, cls.name), ast.ClassDef):
            store = made_store(self, cls, args, keywords)  # a subclass of `dict`: a dict
            if store is not None:
                return store
            if not any(  # a subclass setting options of a base that is kept: that one's object
                isinstance(self.code(base.file, base.name), ast.ClassDef)
                for base in self.bases(cls)
            ):
                return Unknown((file, node))
        made = Instance(cls)
        init = self.class_member(cls, "__init__", made, file, node)
        if isinstance(init, Func):
            self.invoke(init, args, keywords)
        return made

    def invoke(self, func: Func, args: list[object], keywords: dict[str, object]) -> object:
        if self.depth > _CALL_DEPTH:
            raise Stop
        params = func.node.args
        env: dict[str, object] = dict(func.closure) if func.closure is not None else {}
        positional = [*params.posonlyargs, *params.args]
        given = ([func.bound] if func.bound is not None else []) + args
        defaults = params.defaults
        first_default = len(positional) - len(defaults)
        for index, param in enumerate(positional):
            if index < len(given):
                env[param.arg] = given[index]
            elif param.arg in keywords:
                env[param.arg] = keywords.pop(param.arg)
            elif index >= first_default:
                env[param.arg] = self.expr(defaults[index - first_default], func.file, {})
            else:
                env[param.arg] = Unknown()
        if params.vararg is not None:
            env[params.vararg.arg] = tuple(given[len(positional) :])
        for param, default in zip(params.kwonlyargs, params.kw_defaults, strict=True):
            if param.arg in keywords:
                env[param.arg] = keywords.pop(param.arg)
            else:
                env[param.arg] = self.expr(default, func.file, {}) if default else Unknown()
        if params.kwarg is not None:
            env[params.kwarg.arg] = dict(keywords)
        if func.owner is not None:
            env["__class__"] = func.owner
            env["__self__"] = func.bound
        if self.applied is not None:
            self.spans.add((func.file, func.node.lineno, func.node.end_lineno or 0))
        self.depth += 1
        self.selves.append(func.bound)
        try:
            self.block(func.node.body, func.file, env)
        except _Return as returned:
            return returned.value
        except (_Break, _Continue):
            return Unknown()
        except Raised:
            if self.depth > 1:
                raise
            return Unknown()
        finally:
            self.depth -= 1
            self.selves.pop()
        return None

    def dispatch(
        self, node: ast.Call, file: str, method: str, args: list[object], kw: dict[str, object]
    ) -> None:
        """`ext.method(obj)` with `ext` made at runtime and `obj` a project object: each project
        class defining `method` is taken to run it, what it adds marked with a gap here."""
        self.linker.resolver.words.add(method)  # the files that define it spell it
        found = self.defining.get(method)
        if found is None:
            found = self.defining[method] = [
                Ref("class", other, name)
                for other, facts in self.django_modules()
                for name, known in sorted(facts.classes.items())
                if method in known.methods and name in facts.code
            ]
        why = (
            f"`{ast.unparse(node.func)[:60]}(...)` is called on an object made at runtime with "
            f"a project object: each project class defining `{method}` ({len(found)} found) is "
            "taken to run it, so what they add is listed as if each ran"
        )
        kept = self.gaps
        self.gaps = (*kept, (file, node.lineno, why))
        try:
            for cls in found:
                made = Instance(cls)
                bound = self.class_member(cls, method, made, file, node)
                if isinstance(bound, Func):
                    self.invoke(bound, list(args), dict(kw))
        finally:
            self.gaps = kept


def _formattable(value: object) -> bool:
    return isinstance(value, str | int | float) or value is None


def _class_view(cls: Ref, file: str, call: ast.Call) -> Ref:
    """`X.as_view(...)`: the view function Django makes of the class, held as the class. Where
    `X` is the name written before `.as_view` (not a value passed in, `cls.as_view()`), the
    view is placed at the whole call, so a pattern made of it reads `X.as_view(...)` as a
    URLconf does: its `http_method_names=`, its viewset's action map, a library's view."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if cls.origin is None or cls.origin[1] is not receiver:
        return cls
    return replace(cls, origin=(file, call))


def _decorator(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ""


def _load(target: ast.expr) -> ast.expr:
    return target


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:  # a tuple holding a list
        return False
    return True


def _truth(value: object) -> bool | None:
    if isinstance(value, Unknown | Super | Builtin):
        return None
    if isinstance(value, Ref):
        return None if value.kind == "external" else True
    if isinstance(value, Instance | Func | Pattern | Include):
        return True
    if isinstance(value, str | int | float | list | tuple | dict | set) or value is None:
        return bool(value)
    return None


def _items(value: object) -> list[object] | None:
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, str):
        return list(value)
    return None


_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}


def _plain(value: object) -> bool:
    return isinstance(value, str | int | float | bool | list | tuple | dict) or value is None


def _compared(op: ast.cmpop, left: object, right: object) -> bool | None:
    if isinstance(left, Builtin) and isinstance(right, Builtin) and type(op) in _COMPARE:
        if left.receiver is None and right.receiver is None:  # `type(x) is str`
            same = left.name == right.name
            return same if isinstance(op, ast.Eq | ast.Is) else not same
        return None
    if type(op) in _COMPARE:
        if not (_plain(left) and _plain(right)):
            made = (Instance, Func, Pattern, Include)
            if (
                isinstance(op, ast.Is | ast.IsNot)
                and (left is None or right is None)
                and (isinstance(left, made) or isinstance(right, made))
            ):
                return isinstance(op, ast.IsNot)
            return None
        return bool(_COMPARE[type(op)](left, right))
    if isinstance(op, ast.In | ast.NotIn):
        if not isinstance(right, str | list | tuple | dict) or not _plain(left):
            return None
        if isinstance(right, str) and not isinstance(left, str):
            return None
        if isinstance(right, list | tuple) and not all(_plain(i) for i in right):
            return None
        held = left in right
        return held if isinstance(op, ast.In) else not held
    return None


def _binop(op: ast.operator, left: object, right: object) -> object:
    """`left op right` by the packs' shared primitive: a value it does not compute is not
    known here; one past the caps (`Refused`) stops the evaluation."""
    if not (_plain(left) and _plain(right)):
        return Unknown()
    try:
        return binop(op, left, right)
    except Refused:
        raise
    except NotEvaluated:
        return Unknown()


_STR_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "lower", "upper", "replace", "startswith", "endswith",
    "removeprefix", "removesuffix", "split", "title", "capitalize",
})  # fmt: skip


def _builtin(func: Builtin, args: list[object], kw: dict[str, object], run: Collector) -> object:
    """A library function or a method of a str, list or dict, on values it can see."""
    receiver, name = func.receiver, func.name
    if isinstance(receiver, list):
        if name == "append" and len(args) == 1:
            room(len(receiver), 1)
            run.mutations += 1
            receiver.append(args[0])
            return None
        if name == "extend" and len(args) == 1:
            items = _items(args[0])
            room(len(receiver), len(items) if items is not None else 1)
            run.mutations += 1
            receiver.extend(items if items is not None else [args[0]])
            return None
        if name == "insert" and len(args) == 2 and type(args[0]) is int:
            room(len(receiver), 1)
            run.mutations += 1
            receiver.insert(args[0], args[1])
            return None
        if name == "copy":
            return list(receiver)
        return Unknown()
    if isinstance(receiver, dict):
        if name == "get":  # a registry read as `store.get(key, default)`
            run.read_registry |= id(receiver) in run.closed_stores
            if id(receiver) in run.open_stores:
                run.read_open.add(id(receiver))
        if name in ("get", "setdefault") and args and _hashable(args[0]):
            default = args[1] if len(args) > 1 else None
            if name == "setdefault":
                room(len(receiver), args[0] not in receiver)
                run.mutations += 1
                return receiver.setdefault(args[0], default)
            return receiver.get(args[0], default)
        if name == "items":
            return [tuple(pair) for pair in receiver.items()]
        if name == "keys":
            return list(receiver)
        if name == "values":
            return list(receiver.values())
        if name == "update" and len(args) == 1 and isinstance(args[0], dict):
            room(len(receiver), len(args[0]))
            run.mutations += 1
            receiver.update(args[0])
            return None
        if name == "copy":
            return dict(receiver)
        return Unknown()
    if isinstance(receiver, str):
        if name == "join" and len(args) == 1:
            items = _items(args[0])
            if items is not None and all(isinstance(i, str) for i in items):
                return capped(receiver.join(str(i) for i in items))
            return Unknown()
        if name == "format":
            try:
                return format_text(receiver, args, kw)
            except Refused:
                raise
            except NotEvaluated:
                return Unknown()
        if name in _STR_METHODS and all(isinstance(a, str) for a in args):
            if name == "replace" and len(args) >= 2:  # at most one `new` a character, and one more
                room((len(receiver) + 1) * len(str(args[1])), 0)
            try:
                return capped(getattr(receiver, name)(*args))
            except (TypeError, ValueError):
                return Unknown()
        return Unknown()
    if receiver is not None:
        return Unknown()
    one = args[0] if args else None
    if name in ("list", "tuple", "sorted", "reversed") and len(args) == 1:
        items = _items(one)
        if items is None:
            return Unknown()
        if name == "sorted":
            if not all(isinstance(i, str) for i in items):
                return Unknown()
            items = sorted(items)  # type: ignore[type-var]
        if name == "reversed":
            items.reverse()
        return tuple(items) if name == "tuple" else items
    if name == "dict" and not args:
        return dict(kw)
    if name == "len" and len(args) == 1 and isinstance(one, str | list | tuple | dict):
        return len(one)
    if name == "enumerate" and len(args) == 1:
        items = _items(one)
        return list(enumerate(items)) if items is not None else Unknown()
    if name == "zip" and args:
        lists = [_items(a) for a in args]
        if any(i is None for i in lists):
            return Unknown()
        return [tuple(t) for t in zip(*lists, strict=False)]
    if name == "str" and len(args) == 1 and isinstance(one, str | int):
        return str(one)
    if name == "hasattr" and len(args) == 2 and isinstance(args[1], str):
        if isinstance(one, Instance):
            got = run.member(one, args[1], "", ast.Constant(None))
            return not isinstance(got, Unknown) or args[1] in one.attrs
        return Unknown()
    if name == "getattr" and len(args) >= 2 and isinstance(args[1], str):
        if isinstance(one, Instance | Ref):
            try:
                if isinstance(one, Ref) and one.name == "django.conf.settings":
                    got = run.setting(args[1], strict=True)
                else:
                    got = run.member(one, args[1], "", ast.Constant(None))
            except Raised:
                if len(args) == 3:
                    return args[2]
                raise
            if isinstance(got, Unknown) and len(args) == 3:
                return args[2]
            return got
        return Unknown()
    return Unknown()
