"""blind25p: a Django project's routes and tables from Django's runtime (never runs the packs):
derive/django_runtime_routes.py (imported, unchanged; same arguments), then for each route:

- `files` also holds every URLconf module on its include chain (the root URLconf and each
  included module that gives it a prefix), not only the one holding the pattern;
- a pattern of a list that the root URLconf concatenates from another module
  (`urlpatterns = htmx_urlpatterns + urlpatterns`) is declared in that module: it joins `files`;
- a route whose view is defined outside the checkout (a library's view routed by name: a
  RedirectView, drf-spectacular's schema views) is placed at the line of its URLconf that
  spells the pattern (`path("api/schema/", ...`, naming the view there or just below), not at
  the URLconf's line 1.

    cd CHECKOUT && python blind25p_django_chain.py ROOT SETTINGS [options] > out.json
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import django_runtime_routes as drr


def _file(module: Any, root: Path) -> str | None:
    file = getattr(module, "__file__", None)
    if file is None:
        return None
    try:
        return Path(file).resolve().relative_to(root).as_posix()
    except ValueError:
        return None


def _spelled_line(conf: str, pattern: Any, view: str, root: Path) -> int | None:
    """The line of `conf` spelling the pattern's text (quoted) and, if one does, the view's name
    on the same line or the next four (a `path(` call spread over lines)."""
    text = str(pattern)
    lines = (root / conf).read_text(encoding="utf-8").splitlines()
    spelled = [n for n, line in enumerate(lines, 1) if f'"{text}"' in line or f"'{text}'" in line]
    for number in spelled:
        if view and any(view in line for line in lines[number - 1 : number + 4]):
            return number
    return spelled[0] if spelled else None


def _owners(root: Path) -> dict[int, str]:
    """id(pattern) -> the file of the checkout module whose `urlpatterns` list holds it (a
    root URLconf may concatenate the lists of other modules)."""
    owners: dict[int, str] = {}
    for module in list(sys.modules.values()):
        where = _file(module, root)
        patterns = getattr(module, "urlpatterns", None) if where else None
        if isinstance(patterns, list):
            for item in patterns:
                owners.setdefault(id(item), where)
    return owners


def chains(root: Path) -> dict[str, tuple[list[str], int | None, str | None]]:
    """Route name -> (URLconf files of its include chain, the line spelling its pattern, the
    URLconf file that declares the pattern)."""
    from django.urls import URLResolver, get_resolver

    out: dict[str, tuple[list[str], int | None, str | None]] = {}
    owners = _owners(root)
    root_conf = _file(sys.modules[get_resolver().urlconf_name], root)

    def visit(patterns: list[Any], parts: list[Any], confs: list[str]) -> None:
        for item in patterns:
            chain = [*parts, item.pattern]
            declared = owners.get(id(item))
            at = [*confs, declared] if declared and declared not in confs else confs
            if isinstance(item, URLResolver):
                module = item.urlconf_module
                here = _file(module, root) if hasattr(module, "__file__") else None
                visit(item.url_patterns, chain, [*at, here] if here else at)
                continue
            methods, owner = drr._methods(item.callback)
            view = getattr(owner, "__name__", "")
            line = _spelled_line(at[-1], item.pattern, view, root) if at else None
            for path in drr._paths(chain):
                for method in methods:
                    out.setdefault(
                        f"{method} {path}", (list(dict.fromkeys(at)), line, at[-1] if at else None)
                    )

    visit(get_resolver().url_patterns, [], [root_conf] if root_conf else [])
    return out


def main() -> int:
    buffer = io.StringIO()
    found: dict[str, Any] = {}
    original = drr.walk

    def walk(root: Path) -> Any:
        routes, skipped = original(root)
        found["chains"] = chains(root)
        return routes, skipped

    drr.walk = walk
    with contextlib.redirect_stdout(buffer):
        drr.main()
    doc = json.loads(buffer.getvalue())
    for route in doc["routes"]:
        confs, line, declared = found["chains"].get(route["name"], ([], None, None))
        route["files"] = sorted({*route["files"], *confs})
        if route["line"] == 1 and line and declared and route["file"] in confs:
            route["file"], route["line"] = declared, line
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
