"""django_runtime_routes.py with the include chain's files and the place of a library view's
`path()` call (never runs the packs).

    cd CHECKOUT && python blind25m_django_routes.py CHECKOUT SETTINGS [ARGS...] > out.json

Runs django_runtime_routes.py's `main()` unchanged in what it lists (routes, tables, skipped
items) but for three things:

- `files` also holds every URLconf module on the route's include chain (django_runtime_routes.py
  keeps the innermost one only): the files that give its path's prefixes;
- a route whose view is a library's (Django's `RedirectView`/`TemplateView`, drf-spectacular's
  views: django_runtime_routes.py places it at line 1 of its URLconf) is placed at the
  `path()`/`re_path()` call that made its pattern. `django.urls.path` and `re_path` are wrapped
  before any URLconf is imported, and each pattern they return notes the innermost frame of the
  checkout that called them (Python gives a multi-line call the line of its first line);
- a pattern whose view yields no method at all is not silently dropped: its path, view and
  place go to stderr as `NO-METHOD ...` lines, to be read by hand (a class view whose first
  `dispatch` is a library mixin's, e.g. `LoginRequiredMixin` before graphene's `GraphQLView`);
- a DRF viewset's methods (its router's action map) are those its `http_method_names` allows:
  DRF's `dispatch` answers any other with 405 (Pulp's `UploadViewSet` leaves out `patch`).

The chain is walked again with django_runtime_routes.py's own `_paths` and the
`methods` above, so each route is matched to its chain by the same name.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import django_runtime_routes as base

_walk = base.walk
_methods = base._methods
_ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.getcwd()
_ROOT_PATH = Path(_ROOT).resolve()


def _relative(file: str | None) -> str | None:
    if not file:
        return None
    file = os.path.abspath(file)
    if not file.startswith(_ROOT + os.sep) or f"{os.sep}site-packages{os.sep}" in file:
        return None
    return os.path.relpath(file, _ROOT)


def _wrap_path_functions() -> None:
    import django.urls
    import django.urls.conf

    def wrap(function: Any) -> Any:
        def made(*args: Any, **kwargs: Any) -> Any:
            pattern = function(*args, **kwargs)
            frame = sys._getframe(1)
            while frame is not None and _relative(frame.f_code.co_filename) is None:
                frame = frame.f_back
            if frame is not None:
                pattern.gf_called_at = (_relative(frame.f_code.co_filename), frame.f_lineno)
            return pattern

        return made

    for name in ("path", "re_path"):
        wrapped = wrap(getattr(django.urls.conf, name))
        setattr(django.urls.conf, name, wrapped)
        setattr(django.urls, name, wrapped)


def _chains(root: Any) -> dict[str, tuple[set[str], Any]]:
    from django.urls import URLResolver, get_resolver

    by_name: dict[str, tuple[set[str], Any]] = {}

    def visit(patterns: list[Any], parts: list[Any], files: frozenset[str]) -> None:
        for item in patterns:
            chain = [*parts, item.pattern]
            if isinstance(item, URLResolver):
                conf = _relative(getattr(item.urlconf_module, "__file__", None))
                visit(item.url_patterns, chain, files | {conf} if conf else files)
                continue
            verbs, _owner = methods(item.callback)
            if not verbs:
                print(f"NO-METHOD at {base._paths(chain)}", file=sys.stderr)
            for path in base._paths(chain):
                for method in verbs:
                    name = f"{method} {path}"
                    if name not in by_name:
                        by_name[name] = (set(files), getattr(item, "gf_called_at", None))

    resolver = get_resolver()
    top = _relative(getattr(resolver.urlconf_module, "__file__", None))
    visit(resolver.url_patterns, [], frozenset([top] if top else []))
    return by_name


def methods(callback: Any) -> tuple[list[str], Any]:
    verbs, owner = _methods(callback)
    if not verbs:
        where = base._where(owner, _ROOT_PATH) if isinstance(owner, type) else None
        print(f"NO-METHOD {getattr(owner, '__qualname__', owner)} {where}", file=sys.stderr)
    if getattr(callback, "actions", None) and isinstance(owner, type):
        allowed = {m.upper() for m in getattr(owner, "http_method_names", ())}
        verbs = [v for v in verbs if v in allowed]
    return verbs, owner


def walk(root: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    found, skipped = _walk(root)
    chains = _chains(root)
    for entry in found:
        files, called_at = chains.get(entry["name"], (set(), None))
        entry["files"] = sorted(set(entry["files"]) | files)
        if entry["line"] == 1 and entry["file"].endswith(".py") and called_at:
            entry["file"], entry["line"] = called_at
            entry["files"] = sorted(set(entry["files"]) | {called_at[0]})
    return found, skipped


_wrap_path_functions()
base.walk = walk
base._methods = methods

if __name__ == "__main__":
    raise SystemExit(base.main())
