"""blind23m: derive/django_runtime_routes.py (imported, unchanged) with two placements added for
the routes it leaves at line 1 of their URLconf (never runs the packs):

- a DRF `@api_view` function (DRF wraps it in a class whose __qualname__ is `WrappedAPIView`, whose handlers call it):
  placed at the function itself (found in the handler's closure), as the script places any
  function view;
- a library's class view routed by a project URLconf (drf-spectacular's schema views, Django's
  TemplateView, django-oauth-toolkit's TokenView...) and a DRF router's APIRootView: placed at
  the URLconf line that names the view class (`SpectacularSwaggerView.as_view(`), resp. the line
  that makes the router (`DefaultRouter(`), the first such line of that URLconf.

Tables: a django-simple-history model (no source of its own) is placed at the `HistoricalRecords(`
line of the model it tracks (`instance_type`).

    python blind23m_django_places.py ROOT SETTINGS [django_runtime_routes.py options] > out.json
"""

import contextlib
import inspect
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import django_runtime_routes as drr

_plain_where = drr._where


def _where(obj, root):
    if inspect.isclass(obj) and obj.__qualname__ == "WrappedAPIView":
        for verb in drr._VERBS:
            handler = vars(obj).get(verb)
            for cell in getattr(handler, "__closure__", None) or ():
                func = cell.cell_contents
                if inspect.isfunction(func):
                    found = _plain_where(func, root)
                    if found:
                        return found
    return _plain_where(obj, root)


drr._where = _where
root = Path(sys.argv[1]).resolve()
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    code = drr.main()
out = json.loads(buffer.getvalue())
for item in out["routes"]:
    if item["line"] != 1 or item["file"] not in item["files"] or len(item["files"]) != 1:
        continue
    lines = (root / item["file"]).read_text(encoding="utf-8").splitlines()
    if item["view"] == "APIRootView":
        wanted = re.compile(r"\b\w*Router\(")
    else:
        wanted = re.compile(r"\b" + re.escape(item["view"]) + r"\b")
    hit = next(
        (i for i, line in enumerate(lines, 1) if wanted.search(line) and "import" not in line), None
    )
    if hit:
        item["line"] = hit
        item["placed"] = (
            "urlconf line naming the view" if item["view"] != "APIRootView" else "router"
        )
# a django-simple-history model (made at runtime by the `HistoricalRecords()` field of the model it
# tracks: no source of its own): placed at that field, in the tracked model's class
from django.apps import apps  # noqa: E402

by_table = {m._meta.db_table: m for m in apps.get_models(include_auto_created=True)}
for item in out["tables"]:
    model = by_table.get(item["name"])
    tracked = getattr(model, "instance_type", None)
    if item["file"] or tracked is None:
        continue
    found = drr._where(tracked, root)
    if not found:
        continue
    file, start = found
    source, _ = inspect.getsourcelines(tracked)
    offset = next((i for i, line in enumerate(source) if "HistoricalRecords(" in line), 0)
    item.update(
        file=file,
        line=start + offset,
        files=[file],
        placed="HistoricalRecords field of " + tracked.__qualname__,
    )
print(json.dumps(out, indent=1))
sys.exit(code or 0)
