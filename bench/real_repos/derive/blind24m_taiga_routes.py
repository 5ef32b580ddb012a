"""django_runtime_routes.py for taiga-back, whose viewsets are its own (never runs the packs).

    cd CHECKOUT && python blind24m_taiga_routes.py CHECKOUT settings.common [ARGS...] > out.json

Runs django_runtime_routes.py's `main()` unchanged but for one thing: taiga's own REST framework
(`taiga.base.api`, a fork of DRF 2) makes a viewset's view in `ViewSetMixin.as_view(actions)`,
setting `view.cls` but not DRF's `view.actions`; the method-to-action map is the view closure's
`actions`. It is copied onto the view as `actions` before the walk reads it, so each route's
methods are the viewset's mapped ones (HEAD and OPTIONS left out as for DRF) instead of the
`ANY` a class view with its own `dispatch` would get.

Each route's `files` also gets the files of the routers that register its viewset (found at
runtime: every module-level instance of taiga's `DefaultRouter`, `taiga/routers.py` and the
routers of apps that append theirs to `taiga.urls.urlpatterns` in `AppConfig.ready()`, whose
`apps.py` is added too).
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import django_runtime_routes as base

_plain = base._methods


def _closure(func: Any, name: str) -> Any:
    code = getattr(func, "__code__", None)
    cells = getattr(func, "__closure__", None) or ()
    if code is None:
        return None
    for var, cell in zip(code.co_freevars, cells, strict=False):
        if var == name:
            return cell.cell_contents
    return None


def _methods(callback: Any) -> tuple[list[str], Any]:
    if getattr(callback, "cls", None) is not None and not getattr(callback, "actions", None):
        actions = _closure(callback, "actions")
        if isinstance(actions, dict) and actions:
            callback.actions = actions
    return _plain(callback)


base._methods = _methods
_walk = base.walk


def _router_files(root: Any) -> dict[Any, set[str]]:
    from taiga.base.routers import DRFDefaultRouter

    by_viewset: dict[Any, set[str]] = {}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file or not os.path.abspath(file).startswith(str(root) + os.sep):
            continue
        for value in list(vars(module).values()):
            if not isinstance(value, DRFDefaultRouter):
                continue
            files = {os.path.relpath(os.path.abspath(file), root)}
            apps_py = os.path.join(os.path.dirname(os.path.abspath(file)), "apps.py")
            if module.__name__ != "taiga.routers" and os.path.exists(apps_py):
                with open(apps_py, encoding="utf-8") as handle:
                    if "urlpatterns.append" in handle.read():
                        files.add(os.path.relpath(apps_py, root))
            for _prefix, viewset, _name in value.registry:
                by_viewset.setdefault(viewset, set()).update(files)
    return by_viewset


def walk(root: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    found, skipped = _walk(root)
    by_viewset = _router_files(root)
    by_name = {}
    for viewset, files in by_viewset.items():
        where = base._where(viewset, root)
        by_name[(viewset.__qualname__, where[0] if where else "")] = files
    for entry in found:
        extra = by_name.get((entry.get("view", ""), entry["file"]), set())
        entry["files"] = sorted(set(entry["files"]) | extra)
    return found, skipped


base.walk = walk

if __name__ == "__main__":
    raise SystemExit(base.main())
