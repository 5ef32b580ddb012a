"""`package.json` as facts for the linker's JavaScript module resolution: a package's `name`
and its entry points (`exports`, else `main`), as Node resolves a directory or a package
imported by name (a workspace of the repository: `require('@acme/api')`); its subpath imports
(`"imports"`: `import x from '#server/x.js'` inside the package); and where its source is when
that entry is build output the repository does not hold (`source_entries`)."""

from __future__ import annotations

import json
import re

from ..declared_versions import read as read_declarations
from .model import Expr, Items, Lit, ModuleFacts, Namespace

MANIFEST = "package.json"
# npm's, yarn's and pnpm's lock files: the versions an install beside them takes
LOCKS = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml")
# `exports` conditions Node picks from for `require` and `import`, in the order tried here
_CONDITIONS = ("require", "node", "import", "default")


def is_manifest(path: str) -> bool:
    return path == MANIFEST or path.endswith("/" + MANIFEST)


def is_lock(path: str) -> bool:
    return path.rpartition("/")[2] in LOCKS


def lock_facts(path: str, source: str) -> ModuleFacts:
    """`bindings[DEPENDENCIES]`: each package a lock file pins, its pins as one range (`1.0.1`,
    `1.0.1 || 2.1.0` where several copies are installed), as a manifest's ranges are kept. A
    lock that cannot be read pins nothing (never a parse error: it holds no route)."""
    pins: dict[str, dict[str, None]] = {}  # each package's pins, once each, in order
    for requirement in read_declarations(path, source).requirements:
        pins.setdefault(requirement.package, {})[requirement.text] = None
    if not pins:
        return ModuleFacts("package")
    ranges = tuple((name, Lit(" || ".join(texts))) for name, texts in pins.items())
    return ModuleFacts("package", bindings={DEPENDENCIES: Namespace(ranges)})


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
    bindings: dict[str, Expr] = {"name": Lit(name)} if isinstance(name, str) else {}
    sources = _source_entries(data, declared=bool(entries))
    if sources:
        bindings[SOURCES] = Items(tuple(Lit(s) for s in sources))
    declared = _dependencies(data)
    if declared:
        bindings[DEPENDENCIES] = Namespace(tuple(declared.items()))
    imports = _subpath_imports(data.get("imports"))
    if imports:
        bindings[IMPORTS] = Namespace(imports)
    return ModuleFacts(
        "package",
        bindings=bindings,
        exports={subpath: Lit(target) for subpath, target in entries.items()},
    )


IMPORTS = "subpath imports"
"""The binding holding the package's subpath imports (`"imports": { "#server/*":
"./src/server/*" }`), each key (`#`-led, a `*` at most) with the target Node picks (`Lit`):
what a `#`-led specifier of a module inside the package names (`js_modules`)."""


def _subpath_imports(imports: object) -> tuple[tuple[str, Expr], ...]:
    if not isinstance(imports, dict):
        return ()
    chosen = ((key, _target(target)) for key, target in imports.items())
    return tuple(
        (key, Lit(target))
        for key, target in chosen
        if isinstance(key, str) and key.startswith("#") and target is not None
    )


DEPENDENCIES = "dependency ranges"
"""The binding holding each dependency's declared range (`Namespace` of `Lit`), every group
(`dependencies` first, as npm installs it): what a library record's eras are read against
(`option_routes`)."""
_GROUPS = ("dependencies", "optionalDependencies", "peerDependencies", "devDependencies")


def _dependencies(data: dict[str, object]) -> dict[str, Expr]:
    found: dict[str, Expr] = {}
    for group in _GROUPS:
        listed = data.get(group)
        if isinstance(listed, dict):
            for name, spec in listed.items():
                if isinstance(name, str) and isinstance(spec, str):
                    found.setdefault(name, Lit(spec))
    return found


def declared_range(facts: ModuleFacts, package: str) -> str | None:
    """The range a manifest declares for `package` (as written), None when it names none."""
    listed = facts.bindings.get(DEPENDENCIES)
    if isinstance(listed, Namespace):
        spec = dict(listed.fields).get(package)
        if isinstance(spec, Lit):
            return spec.value
    return None


SOURCES = "source entries"
"""The binding (no JavaScript name can be spelled so) holding `_source_entries`, in order."""
_DECLARATION = re.compile(r"\.d\.([mc]?ts)$")


def source_entries(facts: ModuleFacts) -> list[str]:
    """Where a package's source is when its entry point (`main`/`exports`: `dist/index.js`) is
    absent, as TypeScript project references and bundlers find it: `source` (Parcel, microbundle),
    `types`/`typings` read as the `.ts` beside the declarations (`index.d.ts` → `index.ts`),
    then `src/index` and `index` (any script extension): relative to the package's folder."""
    value = facts.bindings.get(SOURCES)
    if not isinstance(value, Items):
        return []
    return [
        item.value for item in value.values if isinstance(item, Lit) and isinstance(item.value, str)
    ]


def _source_entries(data: dict[str, object], *, declared: bool) -> list[str]:
    found: list[str] = []
    source = data.get("source")
    if isinstance(source, str):
        found.append(source)
    for key in ("types", "typings"):
        value = data.get(key)
        if isinstance(value, str):
            found.append(_DECLARATION.sub(r".\1", value))
    if declared or found:  # an entry the repository may not build: its conventional source
        found += ["src/index", "index"]
    return list(dict.fromkeys(found))


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
