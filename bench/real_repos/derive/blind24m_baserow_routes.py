"""django_runtime_routes.py for Baserow, whose plugins and registries add URL patterns (never runs
the packs).

    cd CHECKOUT && python blind24m_baserow_routes.py CHECKOUT SETTINGS [ARGS...] > out.json

Runs django_runtime_routes.py's `main()` unchanged in what it lists (routes, methods, places,
tables), and adds to each route's `files` the files whose code gives its path:

- every URLconf module on the route's include chain (django_runtime_routes.py keeps the innermost
  one only), and
- the module of the registry instance's class whose `get_api_urls()` / `get_urls()` returned a
  pattern on the chain: Baserow's `APIUrlsRegistryMixin.api_urls` (application, auth provider,
  service, plugin registries ...) and `PluginRegistry.urls` collect those lists; both are
  wrapped, before the root URLconf is imported, to mark each pattern they return with the file
  of the method that made it (premium/enterprise plugins, application types).

The chain is walked again here with django_runtime_routes.py's own `_paths` and `_methods`, so a
route is matched to its chain by the same name.
"""

from __future__ import annotations

import inspect
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import django_runtime_routes as base

_walk = base.walk


def _source(func: Any, root: Any) -> str | None:
    try:
        path = inspect.getsourcefile(inspect.unwrap(func))
    except TypeError:
        return None
    if not path or not os.path.abspath(path).startswith(str(root) + os.sep):
        return None
    return os.path.relpath(os.path.abspath(path), root)


def _mark(patterns: list[Any], file: str | None) -> list[Any]:
    for pattern in patterns:
        if file:
            pattern.gf_made_in = file
    return patterns


def _wrap_registries(root: Any) -> None:
    from baserow.core.registries import PluginRegistry
    from baserow.core.registry import APIUrlsRegistryMixin

    def api_urls(self: Any) -> list[Any]:
        out: list[Any] = []
        for instance in self.registry.values():
            made = type(instance).get_api_urls
            out += _mark(list(instance.get_api_urls()), _source(made, root))
        return out

    def urls(self: Any) -> list[Any]:
        out: list[Any] = []
        for instance in self.registry.values():
            out += _mark(list(instance.get_urls()), _source(type(instance).get_urls, root))
        return out

    APIUrlsRegistryMixin.api_urls = property(api_urls)
    PluginRegistry.urls = property(urls)


def _chain_files(root: Any) -> dict[str, set[str]]:
    from django.urls import URLResolver, get_resolver

    by_name: dict[str, set[str]] = {}

    def module_file(module: Any) -> str | None:
        file = getattr(module, "__file__", None)
        if not file or not os.path.abspath(file).startswith(str(root) + os.sep):
            return None
        return os.path.relpath(os.path.abspath(file), root)

    def visit(patterns: list[Any], parts: list[Any], files: frozenset[str]) -> None:
        for item in patterns:
            here = set(files)
            if getattr(item, "gf_made_in", None):
                here.add(item.gf_made_in)
            chain = [*parts, item.pattern]
            if isinstance(item, URLResolver):
                conf = module_file(item.urlconf_module)
                if conf:
                    here.add(conf)
                visit(item.url_patterns, chain, frozenset(here))
                continue
            methods, _owner = base._methods(item.callback)
            for path in base._paths(chain):
                for method in methods:
                    by_name.setdefault(f"{method} {path}", set()).update(here)

    resolver = get_resolver()
    visit(
        resolver.url_patterns, [], frozenset(filter(None, [module_file(resolver.urlconf_module)]))
    )
    return by_name


def walk(root: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    _wrap_registries(root)
    found, skipped = _walk(root)
    chains = _chain_files(root)
    for entry in found:
        entry["files"] = sorted(set(entry["files"]) | chains.get(entry["name"], set()))
    return found, skipped


base.walk = walk

if __name__ == "__main__":
    raise SystemExit(base.main())
