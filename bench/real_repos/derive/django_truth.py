"""Independent ground truth of Django tables for one checkout (never runs or imports the packs).

Reads every non-migration, non-test .py under the given app packages with `ast`, resolves each
class's bases through the file's imports (fixpoint), and names each concrete model's table as
Django does: Meta.db_table, else `app_label + "_" + ModelName.lower()` (app_label: Meta.app_label,
else the last component of the installed app that contains the module); abstract and proxy
models give none; ManyToManyField without `through=` gives `<table>_<field>` (or its db_table=),
inherited from abstract bases too. Usage: django_truth.py ROOT PKG_DIR [APP ...] > items.json
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

# External bases whose role is known (Django and third-party): abstract bases carry M2M fields.
EXTERNAL_ABSTRACT = {
    "django.db.models.Model": [],
    "django.db.models.base.Model": [],
    "mptt.models.MPTTModel": [],
    "django.contrib.auth.base_user.AbstractBaseUser": [],
    "django.contrib.auth.models.AbstractBaseUser": [],
    "django.contrib.auth.models.PermissionsMixin": ["groups", "user_permissions"],
    "django.contrib.auth.models.AbstractUser": ["groups", "user_permissions"],
}
EXTERNAL_CONCRETE = {"django_celery_beat.models.PeriodicTask"}


def module_name(root: str, path: str) -> str:
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def main() -> None:
    root, pkg, apps = sys.argv[1], sys.argv[2], sys.argv[3:]
    files = {}
    for d, dirs, names in os.walk(os.path.join(root, pkg)):
        dirs[:] = sorted(x for x in dirs if x not in ("migrations", "tests", "__pycache__"))
        for n in sorted(names):
            if n.endswith(".py") and not n.startswith("test"):
                p = os.path.join(d, n)
                files[module_name(root, p)] = (
                    os.path.relpath(p, root),
                    ast.parse(Path(p).read_text(encoding="utf-8")),
                )
    classes = {}  # "mod.Class" -> info
    for mod, (rel, tree) in files.items():
        is_pkg = rel.endswith("__init__.py")
        imports = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = mod.split(".")
                    up = parts[: len(parts) - node.level + (1 if is_pkg else 0)]
                    base = ".".join(up + ([node.module] if node.module else []))
                for a in node.names:
                    imports[a.asname or a.name] = f"{base}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    imports[a.asname or a.name.split(".")[0]] = (
                        a.asname and a.name
                    ) or a.name.split(".")[0]
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            bases = []
            for b in node.bases:
                if isinstance(b, ast.Subscript):
                    b = b.value
                dotted = ast.unparse(b)
                head, _, rest = dotted.partition(".")
                full = imports.get(head, f"{mod}.{head}") + (f".{rest}" if rest else "")
                bases.append(full)
            meta, m2m = {}, []
            for item in node.body:
                if isinstance(item, ast.ClassDef) and item.name == "Meta":
                    for s in item.body:
                        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
                            try:
                                meta[s.targets[0].id] = ast.literal_eval(s.value)
                            except Exception:
                                meta[s.targets[0].id] = "?"
                if isinstance(item, (ast.Assign, ast.AnnAssign)):
                    value = item.value
                    target = item.targets[0] if isinstance(item, ast.Assign) else item.target
                    if isinstance(value, ast.Call) and ast.unparse(value.func).endswith(
                        "ManyToManyField"
                    ):
                        kw = {k.arg: k.value for k in value.keywords}
                        if "through" not in kw:
                            dbt = kw.get("db_table")
                            m2m.append(
                                (
                                    target.id,
                                    ast.literal_eval(dbt) if dbt is not None else None,
                                    item.lineno,
                                )
                            )
            classes[f"{mod}.{node.name}"] = dict(
                mod=mod, name=node.name, file=rel, line=node.lineno, bases=bases, meta=meta, m2m=m2m
            )

    def resolve(full: str, seen=()):  # follow re-exports: pkg.X where pkg/__init__ imports X
        if full in classes or full in EXTERNAL_ABSTRACT or full in EXTERNAL_CONCRETE:
            return full
        return full

    def is_model(full: str, depth=0) -> bool:
        if full in EXTERNAL_ABSTRACT or full in EXTERNAL_CONCRETE:
            return True
        c = classes.get(full)
        if c is None or depth > 20:
            return False
        return any(is_model(b, depth + 1) for b in c["bases"])

    def inherited_m2m(full: str, depth=0):
        out = []
        if full in EXTERNAL_ABSTRACT:
            return [(f, None, None, None) for f in EXTERNAL_ABSTRACT[full]]
        c = classes.get(full)
        if c is None or depth > 20:
            return out
        abstract = c["meta"].get("abstract") is True
        if depth > 0 and not abstract:
            return out  # a concrete parent keeps its own M2M tables
        for b in c["bases"]:
            out += inherited_m2m(b, depth + 1)
        out += [(n, t, c["file"], line) for n, t, line in c["m2m"]]
        return out

    unknown = sorted(
        {
            b
            for c in classes.values()
            for b in c["bases"]
            if b not in classes
            and not b.startswith(("django.db.models.Model",))
            and b.split(".")[-1][:1].isupper()
            and any(k in b for k in ("Model", "Mixin", "models."))
        }
    )
    items = []
    for full, c in classes.items():
        if not any(is_model(b) for b in c["bases"]):
            continue
        if c["meta"].get("abstract") is True or c["meta"].get("proxy") is True:
            continue
        app = c["meta"].get("app_label")
        if app is None:
            owner = max(
                (a for a in apps if c["mod"] == a or c["mod"].startswith(a + ".")),
                key=len,
                default=None,
            )
            if owner is None:
                print(f"no app for {full}", file=sys.stderr)
                continue
            app = owner.split(".")[-1]
        table = c["meta"].get("db_table") or f"{app}_{c['name'].lower()}"
        items.append({"name": table, "file": c["file"], "line": c["line"], "model": c["name"]})
        for field, dbt, ffile, _fline in inherited_m2m(full):
            files = [c["file"]] + ([ffile] if ffile and ffile != c["file"] else [])
            items.append(
                {
                    "name": dbt or f"{table}_{field}",
                    "file": c["file"],
                    "files": files,
                    "line": c["line"],
                    "model": f"{c['name']}.{field}",
                }
            )
    print("unresolved-looking bases:", unknown, file=sys.stderr)
    json.dump(sorted(items, key=lambda i: i["name"]), sys.stdout, indent=1)


main()
