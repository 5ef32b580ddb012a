"""URL patterns a URLconf adds in a loop (`django_loops`), linked: a loop over the installed apps
(`settings.INSTALLED_APPS`, `apps.get_app_configs()`, a project function keeping some of them)
lists, for each app the settings install (`django_apps`, the settings the project runs with)
that its filters keep, what the pass includes (`include(app.name + ".urls")` under its
prefix). A filter is decided by the app's own code: its `AppConfig`'s members (`hasattr`), its
package's module-level names, its submodules. What is not known (an app the scanned files do
not show, apps the settings compute, a test not read, a loop over anything else) is a finding
at the pattern, naming it; the apps that are known are listed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ..django_apps import (
    SETTING,
    AppConfigFacts,
    InstalledApps,
    Open,
    Prefix,
    SettingsFacts,
    default_config,
)
from .django_facts import UrlEntry
from .django_loops import CALL, CONFIGS, SETTINGS, AppLoop

if TYPE_CHECKING:
    from .django_linker import DjangoRouteResolver
    from .linker import Gap

_EMPTY = SettingsFacts({}, 1, None, (), {})
# what every `AppConfig` has (Django's base class): `hasattr` of it always holds
_CONFIG_MEMBERS = frozenset({
    "name", "label", "module", "path", "verbose_name", "apps", "models", "models_module",
    "default_auto_field", "ready", "get_model", "get_models", "import_models", "create",
})  # fmt: skip
_SHOWN = 4  # unknown apps named in a finding


class _Lazy(Mapping[str, object]):
    """A table of the linker's files, read when asked (a pre-filtering scan parses them then)."""

    def __init__(self, keys: list[str], read: object) -> None:
        self.keys_ = keys
        self.read = read

    def __getitem__(self, key: str) -> object:
        return self.read(key)  # type: ignore[operator]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_)

    def __len__(self) -> int:
        return len(self.keys_)


# an app as a loop sees it: its entry as written, module, label, and its `AppConfig` (file, class)
App = tuple[str, str, str, tuple[str, str] | None]


class AppLoops:
    def __init__(self, django: DjangoRouteResolver) -> None:
        self.django = django
        self.apps: tuple[list[App], list[str]] | None = None

    def find(self, module: str) -> str | None:
        importer = self.django.settings_files[0] if self.django.settings_files else ""
        return self.django.module_file(module, importer)

    def installed(self) -> tuple[list[App], list[str]]:
        """The apps the settings install, and what is not known of them (as text)."""
        if self.apps is not None:
            return self.apps
        django = self.django

        def settings(path: str) -> SettingsFacts:
            facts = django.facts(path)
            return (facts.installs or _EMPTY) if facts is not None else _EMPTY

        def configs(path: str) -> dict[str, AppConfigFacts]:
            facts = django.facts(path)
            return facts.configs if facts is not None else {}

        def stars(path: str) -> tuple[str, ...]:
            facts = django.facts(path)
            return facts.stars if facts is not None else ()

        files = list(django.settings_files)
        reader = InstalledApps(
            _Lazy(files, settings),  # type: ignore[arg-type]
            self.find,
            _Lazy(files, configs),  # type: ignore[arg-type]
            _Lazy(files, stars),  # type: ignore[arg-type]
        )
        apps: list[App] = []
        unknown: list[str] = []
        if not files:
            unknown.append("the settings the project runs with are not known")
        for path in files:
            value = reader.resolve(path, SETTING, 0)
            if value is None:
                unknown.append(f"`{SETTING}` of {path} is computed")
                continue
            for entry in value:
                if isinstance(entry, Open):
                    unknown.append(f"the apps `{entry.text}` adds ({entry.path}:{entry.line})")
                elif isinstance(entry, Prefix):
                    unknown.append(f"the apps named `{entry.head}...`")
                elif not any(a[0] == entry for a in apps):
                    module, label = reader.app(entry)
                    apps.append((entry, module, label, self.config(entry, module)))
        self.apps = (apps, unknown)
        return self.apps

    def config(self, entry: str, module: str) -> tuple[str, str] | None:
        """The `AppConfig` class Django makes the app with: the one the entry names, else the
        one its `apps` submodule makes the default."""
        head, _, cls = entry.rpartition(".")
        file = self.find(head) if head else None
        facts = self.django.facts(file) if file is not None else None
        if facts is not None and cls in facts.configs:
            return (file or "", cls)
        file = self.find(f"{module}.apps")
        facts = self.django.facts(file) if file is not None else None
        if facts is None or file is None:
            return None
        chosen = default_config(facts.configs)
        for name, found in facts.configs.items():
            if found is chosen:
                return (file, name)
        return None

    # -- one pattern -----------------------------------------------------------------------

    def walk(
        self,
        path: str,
        entry: UrlEntry,
        prefix: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
    ) -> None:
        loop = entry.loop
        assert loop is not None
        kept, why = self.source(path, loop)
        if kept is None:
            self.django.note("UNRESOLVED_ROUTER", path, entry.line, f"this URL pattern is "
                             f"added by each pass of a loop over `{loop.name}`: {why}, its "
                             "routes are not listed")  # fmt: skip
            return
        apps, known = self.installed()
        unknown = list(known)
        skipped: list[str] = []
        for app in apps:
            verdict = self.keeps(app, kept.filters)
            if verdict is None:
                skipped.append(app[1])
            elif verdict:
                self.include(path, entry, prefix, auth, gaps, stack, app, kept, unknown)
        if skipped:
            names = ", ".join(skipped[:_SHOWN]) + (", ..." if len(skipped) > _SHOWN else "")
            unknown.append(f"{len(skipped)} app(s) whose code the scanned files do not show "
                           f"({names})")  # fmt: skip
        if unknown:
            self.django.note("UNRESOLVED_ROUTER", path, entry.line, "this URL pattern is added "
                             f"for each installed app a loop over `{loop.name}` keeps: the "
                             "routes of the apps known are listed; not known: "
                             + "; ".join(dict.fromkeys(unknown)))  # fmt: skip

    def source(self, path: str, loop: AppLoop) -> tuple[AppLoop | None, str]:
        """The loop over the installed apps as the pattern's variable sees them: its filters
        (a project function's, then the pass's own) and what the variable's attributes are."""
        if loop.source in {CONFIGS, SETTINGS}:
            unknown = [text for kind, text in loop.filters if kind == "unknown"]
            if unknown:
                return None, f"the test `{unknown[0]}` is not one the pack reads"
            return loop, ""
        if loop.source != CALL:
            return None, "which items it runs over is not known"
        found = self.django.resolve(path, loop.name)
        facts = (
            self.django.facts(found[1]) if found is not None and found[0] == "function" else None
        )
        inner = facts.app_loops.get(found[2]) if facts is not None and found is not None else None
        if inner is None:
            return None, f"`{loop.name}()` is not a function of the installed apps the pack reads"
        merged = AppLoop(inner.source, loop.name, loop.var, loop.line,
                         inner.filters + loop.filters, inner.item)  # fmt: skip
        return self.source(path, merged)

    def keeps(self, app: App, filters: tuple[tuple[str, str], ...]) -> bool | None:
        """Whether the filters keep the app (None: its code is not shown)."""
        _, module, _, config = app
        for kind, what in filters:
            if kind == "hasattr":
                if what in _CONFIG_MEMBERS:
                    continue
                if config is None:
                    if self.find(module) is None:
                        return None
                    return False  # Django's own `AppConfig`: none of the project's markers
                if not self.has(config[0], config[1], what, 0):
                    return False
            elif kind in {"module", "submodule"}:
                package = self.find(module)
                if package is None:
                    return None
                if kind == "submodule" and self.find(f"{module}.{what}") is None:
                    return False
                if kind == "module" and what not in self.django.resolver._facts(package).bindings:
                    return False
        return True

    def has(self, file: str, cls: str, member: str, depth: int) -> bool:
        """Whether the class (or a base the scanned files show) has `member`."""
        facts = self.django.facts(file)
        config = facts.configs.get(cls) if facts is not None else None
        if config is None or depth > 8:
            return False
        if member in config.members:
            return True
        own = facts.classes.get(cls) if facts is not None else None
        for base in own.bases if own is not None else ():
            found = self.django.resolve(file, base)
            if (
                found is not None
                and found[0] == "class"
                and self.has(found[1], found[2], member, depth + 1)
            ):
                return True
        return False

    def include(
        self,
        path: str,
        entry: UrlEntry,
        prefix: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
        app: App,
        loop: AppLoop,
        unknown: list[str],
    ) -> None:
        route = entry.route
        if route is None and entry.parts is not None:
            route = self.text(path, entry.parts, app, loop)
        module = self.text(path, entry.module, app, loop) if entry.module is not None else None
        if route is None or module is None or entry.regex:
            unknown.append(f"what the pass makes of the app {app[1]}")
            return
        file = self.find(module)
        facts = self.django.facts(file) if file is not None else None
        if file is None or facts is None or "urlpatterns" not in facts.lists:
            shown = self.find(app[1]) is not None
            if not shown or not any(k in {"imports", "submodule"} for k, _ in loop.filters):
                unknown.append(f"`{module}`, which the scanned files do not show")
            return  # the app has no such module: the import fails and the pass skips it
        if file not in stack:
            self.django.walk(
                file, facts.lists["urlpatterns"], prefix + route, auth, gaps, (*stack, file)
            )

    def text(
        self, path: str, parts: tuple[tuple[str, str], ...], app: App, loop: AppLoop
    ) -> str | None:
        out: list[str] = []
        for kind, text in parts:
            if kind == "lit":
                out.append(text)
                continue
            head, _, rest = text.partition(".")
            value = (
                self.attribute(app, loop, rest)
                if head == loop.var
                else self.django.value(path, text)
            )
            if value is None:
                return None
            out.append(value)
        return "".join(out)

    def attribute(self, app: App, loop: AppLoop, rest: str) -> str | None:
        """The loop variable's `rest` (dotted): a property of the app."""
        entry, module, label, _ = app
        props = {"name": module, "label": label, "entry": entry}
        if loop.source == SETTINGS and not loop.item:
            return entry if not rest else None
        item = dict(loop.item) if loop.item else {"": "config"}
        first, _, tail = rest.partition(".")
        prop: str | None
        if first in item and first:
            prop, rest = item[first], tail
        else:
            prop = item.get("")
        if prop == "config" and loop.source == SETTINGS:
            prop = "entry"
        if prop == "config":
            prop = {"name": "name", "label": "label", "module.__name__": "name"}.get(rest, "")
            rest = ""
        return props.get(prop or "") if not rest else None
