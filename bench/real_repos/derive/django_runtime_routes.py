"""The routes and tables a Django project serves, from Django's own runtime: a ground truth for
`bench/real_repos` written without any pack.

    python django_runtime_routes.py ROOT SETTINGS [--path DIR]... [--env K=V]... \
        [--set NAME=PYTHON]... [--stub MODULE]... [--apps PREFIX]... [--argv ARGS] > out.json

Run it (Python 3.9 or newer) with the interpreter of a private environment holding the project's dependencies
(`/work/truthenv/<name>`): it imports the project. The settings module is imported through a
stub of our own, in a temporary folder, that star-imports it and replaces the database with an
SQLite file in that folder and the cache with a local-memory one (no network, no server); `--set`
overrides more settings. `django.setup()`, then:

- **routes**: `get_resolver().url_patterns` walked; each pattern's text joined as Django joins it
  (the parent's regex then the child's), turned into a path by `django.utils.regex_helper
  .normalize` (the function Django's own `reverse()` uses: `(?P<pk>[^/.]+)` is `%(pk)s`, read
  `{pk}`; `/?` and optional groups as `reverse` spells them); a `path()` route's `<int:pk>` is
  `{pk}`. The methods come from the view: a DRF viewset's action map (`callback.actions`), a
  class view's handler methods allowed by `http_method_names` (the class's or `as_view()`'s;
  HEAD and OPTIONS, which every `View` answers, not listed), a function view's
  `@require_http_methods` list (found in its wrapper chain's closures), else `ANY` (Django calls
  it for every method). Left out, and counted in `skipped`: DRF's format-suffix variants (a
  pattern `format_suffix_patterns` made: `\\.(?P<format>...)`, `<drf_format_suffix:format>`), the admin's routes (`admin.site.urls`) and the
  routes of a library's URLconf (`include('allauth.urls')`: a module outside ROOT), each listed
  in the output's `skipped` with its reason. `i18n_patterns`' language prefix is `{language}` (a path parameter: one of `LANGUAGES`; with
  `prefix_default_language=False` the routes are also served without it).
- **tables**: `apps.get_models(include_auto_created=True)` of the apps under ROOT, concrete,
  managed, not proxies: `_meta.db_table`.

Each item carries the file and line where it is declared (`inspect` on the view, the URLconf
module holding the pattern; the model's class), so the bench can tell silent misses.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.machinery
import inspect
import json
import os
import re
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

_PARAM = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)s")
_ROUTE_PARAM = re.compile(r"<(?:[^:<>]+:)?([A-Za-z_]\w*)>")
_VERBS = ("get", "post", "put", "patch", "delete", "trace")


class _Anything(type):
    """A stand-in for an attribute of a stubbed module: a class (usable as a base; a warning
    or an exception class when its name says so), callable (usable as a decorator factory,
    returning what it is given when given one callable)."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _stand_in(name)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return _Anything("instance", (), {})


def _stand_in(name: str) -> Any:
    base: tuple[type, ...] = ()
    if name.endswith("Warning"):
        base = (Warning,)
    elif name.endswith(("Error", "Exception")):
        base = (Exception,)
    return _Anything(name, base, {})


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, prefixes: list[str]) -> None:
        self.prefixes = prefixes

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if any(fullname == p or fullname.startswith(p + ".") for p in self.prefixes):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        module = types.ModuleType(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        module.__getattr__ = _stand_in  # type: ignore[method-assign]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def _settings_stub(folder: Path, settings: str, overrides: list[str]) -> str:
    lines = [
        f"from {settings} import *  # noqa",
        "DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', "
        f"'NAME': {str(folder / 'db.sqlite3')!r}}}}}",
        "CACHES = {'default': {'BACKEND': 'django.core.cache.backends.locmem.LocMemCache'}}",
    ]
    lines += [item.replace("=", " = ", 1) for item in overrides]
    (folder / "gf_truth_settings.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return "gf_truth_settings"


def _where(obj: Any, root: Path) -> tuple[str, int] | None:
    try:
        target = inspect.unwrap(obj)
        file = inspect.getsourcefile(target)
        line = inspect.getsourcelines(target)[1]
    except (TypeError, OSError):
        return None
    if file is None:
        return None
    path = Path(file).resolve()
    try:
        return (path.relative_to(root).as_posix(), line)
    except ValueError:
        return None


def _closure_methods(func: Any) -> list[str] | None:
    """The `request_method_list` of `require_http_methods` in the wrapper chain of a view."""
    seen = 0
    while func is not None and seen < 16:
        code = getattr(func, "__code__", None)
        cells = getattr(func, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells):  # noqa: B905 (3.9)
                if name == "request_method_list":
                    return [m.upper() for m in cell.cell_contents]
        func = getattr(func, "__wrapped__", None)
        seen += 1
    return None


def _methods(callback: Any) -> tuple[list[str], Any]:
    """(methods, the object that defines the view)."""
    actions = getattr(callback, "actions", None)
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if actions and cls is not None:  # a DRF viewset
        return (sorted({m.upper() for m in actions if m not in ("head", "options")}), cls)
    if cls is not None:
        initkwargs = getattr(callback, "initkwargs", None) or getattr(
            callback, "view_initkwargs", {}
        )
        allowed = initkwargs.get("http_method_names") or cls.http_method_names
        verbs = [m.upper() for m in _VERBS if m in allowed and hasattr(cls, m)]
        # a `dispatch` of the class or of a project's base view (not Django's or DRF's, which
        # call the handler methods) serves every method
        owner = next((k for k in cls.__mro__ if "dispatch" in vars(k)), None)
        library = ("django.", "rest_framework.")
        own = owner is cls or not str(getattr(owner, "__module__", "")).startswith(library)
        if not verbs and owner is not None and own:
            verbs = ["ANY"]
        return (verbs, cls)
    listed = _closure_methods(callback)
    return (listed if listed is not None else ["ANY"], inspect.unwrap(callback))


class _Prefixed:
    """The language prefix of an `i18n_patterns` list served with it."""


def _joined(parts: list[Any]) -> tuple[str, bool]:
    """The pattern text of a chain of patterns: (text, any regex)."""
    from django.urls.resolvers import LocalePrefixPattern, RegexPattern, RoutePattern

    locale = (LocalePrefixPattern, _Prefixed)  # a tuple, not `|`: Python 3.9 runs this too
    if all(isinstance(p, (RoutePattern, *locale)) for p in parts):
        text = "".join("{language}/" if isinstance(p, locale) else str(p) for p in parts)
        return (text, False)
    pieces: list[str] = []
    for part in parts:
        if isinstance(part, locale):
            pieces.append("(?P<language>[^/]+)/")
        elif isinstance(part, RegexPattern):
            pieces.append(str(part).removeprefix("^").removesuffix("$").removesuffix(r"\Z"))
        else:
            regex = part.regex.pattern
            pieces.append(regex.removeprefix("^").removesuffix(r"\Z").removesuffix("$"))
    return ("".join(pieces), True)


def _paths(parts: list[Any]) -> list[str]:
    """The paths a chain of patterns serves (each variant of an optional part; an
    `i18n_patterns(..., prefix_default_language=False)` list also without its prefix)."""
    from django.urls.resolvers import LocalePrefixPattern
    from django.utils.regex_helper import normalize

    for at, part in enumerate(parts):
        if isinstance(part, LocalePrefixPattern) and not part.prefix_default_language:
            rest = parts[:at] + parts[at + 1 :]
            bare = _paths(rest) if rest else ["/"]
            prefixed = _paths([*parts[:at], _Prefixed(), *parts[at + 1 :]])
            return list(dict.fromkeys(prefixed + bare))
    text, regex = _joined(parts)
    if not regex:
        return ["/" + _ROUTE_PARAM.sub(lambda m: "{" + m.group(1) + "}", text)]
    out = []
    for fmt, _params in normalize(text):
        out.append("/" + _PARAM.sub(lambda m: "{" + m.group(1) + "}", fmt.replace("%%", "%")))
    return out


def _is_admin_site(resolver: Any) -> bool:
    """`admin.site.urls` (any `AdminSite`'s): its views are wrapped by the site, which marks each
    wrapper with `admin_site`. An app's own URLconf namespaced "admin" (Misago's admin panel,
    registered by the project's extensions) is the project's routes, not the admin's."""
    if getattr(resolver, "app_name", None) != "admin":
        return False
    return any(getattr(getattr(p, "callback", None), "admin_site", None) is not None
               for p in resolver.url_patterns)  # fmt: skip


def walk(root: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from django.conf import settings
    from django.urls import URLPattern, URLResolver, get_resolver

    routes: dict[str, dict[str, Any]] = {}
    skipped: list[dict[str, Any]] = []
    root_module = importlib.import_module(settings.ROOT_URLCONF)

    def module_file(module: Any) -> str | None:
        file = getattr(module, "__file__", None)
        if file is None:
            return None
        try:
            return Path(file).resolve().relative_to(root).as_posix()
        except ValueError:
            return None

    def visit(patterns: list[Any], parts: list[Any], conf: str | None, admin: bool) -> None:
        for item in patterns:
            chain = [*parts, item.pattern]
            if isinstance(item, URLResolver):
                module = item.urlconf_module
                here = module_file(module) if hasattr(module, "__file__") else conf
                is_admin = admin or _is_admin_site(item)
                visit(item.url_patterns, chain, here, is_admin)
                continue
            assert isinstance(item, URLPattern)
            methods, owner = _methods(item.callback)
            where = _where(owner, root)
            names = _paths(chain)
            # DRF's `format_suffix_patterns` adds `\.(?P<format>[a-z0-9]+)/?$` to a regex, its
            # `<drf_format_suffix:format>` converter to a route
            spelled = str(getattr(item.pattern, "regex", re.compile("")).pattern)
            reason = None
            if admin:
                reason = "admin.site.urls"
            elif "\\.(?P<format>" in spelled or "<drf_format_suffix" in str(item.pattern):
                reason = "format suffix variant"
            elif conf is None:
                reason = "a library's URLconf"
            for path in names:
                for method in methods:
                    name = f"{method} {path}"
                    if reason is not None:
                        skipped.append({"name": name, "reason": reason})
                        continue
                    files = sorted({f for f in (conf, where[0] if where else None) if f})
                    # the file is the view's (where its line is), else the URLconf's
                    first = where[0] if where else (files[0] if files else "")
                    entry = {"name": name, "file": first, "files": files,
                             "line": where[1] if where else 1,
                             "view": getattr(owner, "__qualname__", type(owner).__qualname__)}  # fmt: skip
                    routes.setdefault(name, entry)

    visit(get_resolver().url_patterns, [], module_file(root_module), False)
    return (sorted(routes.values(), key=lambda e: e["name"]), skipped)


def tables(root: Path, prefixes: list[str]) -> list[dict[str, Any]]:
    from django.apps import apps

    out: dict[str, dict[str, Any]] = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        config_path = Path(meta.app_config.path).resolve()
        if not config_path.is_relative_to(root):
            continue
        if prefixes and not any(
            meta.app_config.name == p or meta.app_config.name.startswith(p + ".") for p in prefixes
        ):
            continue
        if meta.proxy or not meta.managed or meta.swapped:
            continue
        owner = model
        if meta.auto_created:  # the through table of a ManyToManyField: its model's file
            owner = meta.auto_created
        where = _where(owner, root)
        entry = {"name": meta.db_table, "file": where[0] if where else "",
                 "line": where[1] if where else 1,
                 "model": model.__qualname__ if not meta.auto_created else
                 f"{owner.__qualname__}.{model.__name__}"}  # fmt: skip
        if where:
            entry["files"] = [where[0]]
        out.setdefault(meta.db_table, entry)
    return sorted(out.values(), key=lambda e: e["name"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("settings")
    parser.add_argument(
        "--path", action="append", default=[], help="sys.path folder, ROOT-relative"
    )
    parser.add_argument("--env", action="append", default=[], help="K=V set before import")
    parser.add_argument("--set", action="append", default=[], help="NAME=PYTHON setting override")
    parser.add_argument("--stub", action="append", default=[], help="module to stand in for")
    parser.add_argument("--apps", action="append", default=[], help="app label prefix (tables)")
    parser.add_argument("--argv", default="", help="sys.argv[1:] the settings see, spaced")
    args = parser.parse_args()
    root = args.root.resolve()
    sys.argv[1:] = args.argv.split()
    for item in args.env:
        key, _, value = item.partition("=")
        os.environ[key] = value
    with tempfile.TemporaryDirectory(prefix="gf-django-truth-") as folder:
        sys.path[:0] = [folder, *[str(root / p) for p in args.path or ["."]]]
        if args.stub:
            sys.meta_path.insert(0, _StubFinder(args.stub))
        os.environ["DJANGO_SETTINGS_MODULE"] = _settings_stub(Path(folder), args.settings, args.set)
        import django

        django.setup()
        found, skipped = walk(root)
        json.dump(
            {"django": django.get_version(), "routes": found, "skipped": skipped,
             "tables": tables(root, args.apps)},
            sys.stdout, indent=1,
        )  # fmt: skip
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
