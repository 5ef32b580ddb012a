"""`package.json` as facts for the linker's JavaScript module resolution: a package's `name`
and its entry points (`exports`, else `main`), as Node resolves a directory or a package
imported by name (a workspace of the repository: `require('@acme/api')`)."""

from __future__ import annotations

import json

from .model import Lit, ModuleFacts

MANIFEST = "package.json"
# `exports` conditions Node picks from for `require` and `import`, in the order tried here
_CONDITIONS = ("require", "node", "import", "default")


def is_manifest(path: str) -> bool:
    return path == MANIFEST or path.endswith("/" + MANIFEST)


def manifest_facts(source: str) -> ModuleFacts:
    """`bindings["name"]`: the package's name; `exports`: subpath (`.`, `./users`) → the file
    it names, relative to the package's folder. A manifest that is no JSON object says
    nothing (never a parse error: it holds no route)."""
    try:
        data = json.loads(source)
    except ValueError:
        return ModuleFacts("package")
    if not isinstance(data, dict):
        return ModuleFacts("package")
    name = data.get("name")
    entries: dict[str, str] = {}
    exports = data.get("exports")
    if isinstance(exports, dict) and any(str(k).startswith(".") for k in exports):
        for subpath, target in exports.items():
            chosen = _target(target)
            if isinstance(subpath, str) and subpath.startswith(".") and chosen is not None:
                entries[subpath] = chosen
    elif (chosen := _target(exports)) is not None:  # `"exports": "./x.js"` or conditions
        entries["."] = chosen
    main = data.get("main")
    if "." not in entries and isinstance(main, str):
        entries["."] = main
    return ModuleFacts(
        "package",
        bindings={"name": Lit(name)} if isinstance(name, str) else {},
        exports={subpath: Lit(target) for subpath, target in entries.items()},
    )


def _target(value: object) -> str | None:
    """A string target, or the first of `_CONDITIONS` that leads to one."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for condition in _CONDITIONS:
            chosen = _target(value.get(condition))
            if chosen is not None:
                return chosen
    return None
