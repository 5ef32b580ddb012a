"""JavaScript/TypeScript module resolution, as Node and TypeScript find a module: the one
resolver of the JavaScript readers (the routes linker and the tables pack's linker).

A relative specifier is a file (`.js` written for `.ts` too) or a folder (its `package.json`
entry point, else its index file); a bare one goes through the importer's TypeScript project
aliases (`tsconfig`/`jsconfig` `paths` and `baseUrl`), a `#`-led one then through the subpath
`imports` of the importer's package, then the repository's own packages
(npm, yarn or pnpm workspaces: the folder whose `package.json` has that name, its `exports`
subpath, else its source as `manifests.source_entries` finds it when the entry point is build
output the repository does not hold). A library the framework records name is never looked for.
Facts of manifests and project configs are asked for through `facts` (a caller that parses on
demand notes them as touched), and a failed file a candidate lands in is `touch`ed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from .frameworks import JAVASCRIPT
from .manifests import IMPORTS, MANIFEST, is_manifest, source_entries
from .model import ImportRef, Items, Lit, ModuleFacts, Namespace
from .tsconfig import CONFIG_DIR, PROJECT_CONFIGS, best_pattern, extended

JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx")

# libraries the records name: a bare import of one is never a package of the repository
KNOWN_LIBRARIES = frozenset(
    module
    for f in JAVASCRIPT
    for module in (*f.app_modules, *f.router_modules, *f.guards, *f.not_guards)
)


class _Project(NamedTuple):
    """The module aliases of a TypeScript/JavaScript project (`tsconfig`): `baseUrl` as a
    repository folder (`.` the root), the folder `paths` were set in, and the `paths`."""

    base_url: str | None
    paths_folder: str | None  # None: no config of the chain sets `paths`
    patterns: dict[str, tuple[str, ...]]
    config_folder: str = ""  # `${configDir}`: the folder of the config in use

    @property
    def paths_root(self) -> str:
        """What a `paths` substitution is relative to: `baseUrl`, else the setting config."""
        return self.base_url if self.base_url is not None else self.paths_folder or ""

    def overridden_by(self, other: _Project) -> _Project:
        """These options, with those `other` sets instead (`paths` replaced whole)."""
        paths = other if other.paths_folder is not None else self
        return _Project(
            other.base_url if other.base_url is not None else self.base_url,
            paths.paths_folder,
            paths.patterns,
        )


_NO_PROJECT = _Project(None, None, {})


class JsModules:
    """The resolver over one link's files: `files` every file of the walk that may hold facts
    (parsed or not), `failed` those found unreadable, `facts` a manifest's or a project
    config's facts (`manifests.manifest_facts`, `tsconfig.config_facts`)."""

    def __init__(
        self,
        files: Collection[str],
        facts: Callable[[str], ModuleFacts],
        *,
        failed: Collection[str] = (),
        touch: Callable[[str], None] = lambda path: None,
        node_paths: Sequence[str] = (),
    ) -> None:
        self.files = frozenset(files)
        self.node_paths = tuple(node_paths)  # `NODE_PATH` folders the repository sets
        self.failed = frozenset(failed)
        self.facts = facts
        self.touch = touch
        self.workspaces: dict[str, str] | None = None  # package name -> its folder
        self.projects: dict[str, _Project] = {}  # folder -> its TypeScript project's aliases

    def file(self, importer: str, specifier: str) -> str | None:
        """The scanned file an `import`/`require` names, as Node resolves it: a relative path
        as a file (`.js` written for `.ts` too), else as a folder (its `package.json` entry
        point, else its index file); a bare name as a package of the repository (a workspace
        whose `package.json` has that `name`), after the aliases of the importer's TypeScript
        project (`_aliased`) and, `#`-led, its package's subpath imports, then under each `NODE_PATH` folder the repository sets for itself
        (`node_paths`: Node looks there after `node_modules`), never a library the records know."""
        if not specifier.startswith("."):
            found = self._aliased(importer, specifier)
            if found is None and specifier.startswith("#"):
                found = self._subpath_import(importer, specifier)
            if found is None:
                found = self._package(specifier)
            if found is None and package_name(specifier)[0] not in KNOWN_LIBRARIES:
                for root in self.node_paths:
                    target = posixpath.normpath(posixpath.join(root, specifier))
                    found = None if target.startswith("..") else self.path(target)
                    if found is not None:
                        break
            return found
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
        return None if joined.startswith("..") else self.path(joined)

    def path(self, joined: str, depth: int = 0) -> str | None:
        stem = joined
        for ext in (".js", ".mjs", ".cjs"):
            if joined.endswith(ext):  # TypeScript imports `./users.js` meaning `./users.ts`
                stem = joined[: -len(ext)]
        candidates = [joined, *(stem + e for e in JS_EXTENSIONS)]
        found = next((c for c in candidates if c in self.files and not is_manifest(c)), None)
        if found is None and depth < 4:  # a folder: its manifest's entry point
            found = self._entry(joined, ".", depth)
        if found is None:
            folder = f"{joined}/" if joined not in {"", "."} else ""
            candidates += [f"{folder}index{e}" for e in JS_EXTENSIONS]
            found = next((c for c in candidates[-len(JS_EXTENSIONS) :] if c in self.files), None)
        if found is None:
            for candidate in candidates:
                if candidate in self.failed:
                    self.touch(candidate)
        return found

    def _entry(self, folder: str, subpath: str, depth: int) -> str | None:
        """The file a folder's `package.json` names for `subpath` (`.`: its `exports` or
        `main`, else, that being build output the repository does not hold, its source as
        `manifests.source_entries` finds it)."""
        manifest = f"{folder}/{MANIFEST}" if folder not in {"", "."} else MANIFEST
        if manifest not in self.files:
            return None
        facts = self.facts(manifest)
        entry = facts.exports.get(subpath)
        written = [entry.value] if isinstance(entry, Lit) and isinstance(entry.value, str) else []
        if subpath == ".":  # built output absent (`dist/` is not source): where its source is
            written += source_entries(facts)
        for each in written:
            target = posixpath.normpath(posixpath.join(folder, each))
            if target.startswith("..") or target == folder:
                continue
            found = self.path(target, depth + 1)
            if found is not None:
                return found
        return None

    def _subpath_import(self, importer: str, specifier: str) -> str | None:
        """The file a `#`-led specifier names through the `"imports"` of the nearest
        `package.json` above the importer (its package scope), as Node resolves it: the exact
        key, else the `*` key with the longest prefix that matches, its target's `*`s replaced
        by what the `*` matched, relative to the manifest's folder (`./`-led targets only: a
        target naming a package is a library)."""
        folder = posixpath.dirname(importer)
        while True:
            manifest = posixpath.join(folder, MANIFEST) if folder else MANIFEST
            if manifest in self.files:
                break
            if not folder:
                return None
            folder = posixpath.dirname(folder)
        imports = self.facts(manifest).bindings.get(IMPORTS)
        if not isinstance(imports, Namespace):
            return None
        targets = {key: value.value for key, value in imports.fields if isinstance(value, Lit)}
        matched = best_pattern(list(targets), specifier)
        if matched is None or not targets[matched[0]].startswith("./"):
            return None
        written = targets[matched[0]].replace("*", matched[1])
        target = posixpath.normpath(posixpath.join(folder, written))
        return None if target.startswith("..") else self.path(target)

    def _aliased(self, importer: str, specifier: str) -> str | None:
        """The file a bare specifier names through the `paths` and `baseUrl` of the nearest
        `tsconfig.json` (else `jsconfig.json`) above the importer, as TypeScript resolves it
        (`tsconfig`): the best `paths` pattern's substitutions in order, then `baseUrl`."""
        if package_name(specifier)[0] in KNOWN_LIBRARIES:
            return None
        project = self._project_of(posixpath.dirname(importer))
        matched = best_pattern(list(project.patterns), specifier) if project.patterns else None
        if matched is not None:
            pattern, star = matched
            for substitution in project.patterns[pattern]:
                written = substitution.replace("*", star, 1)
                if written.startswith(CONFIG_DIR):  # the folder of the config in use
                    rest = written[len(CONFIG_DIR) :].lstrip("/")
                    target = posixpath.normpath(posixpath.join(project.config_folder, rest))
                else:
                    target = posixpath.normpath(posixpath.join(project.paths_root, written))
                found = None if target.startswith("..") else self.path(target)
                if found is not None:
                    return found
        if project.base_url is None:
            return None
        target = posixpath.normpath(posixpath.join(project.base_url, specifier))
        return None if target.startswith("..") else self.path(target)

    def _project_of(self, folder: str) -> _Project:
        """The aliases in force in `folder`: those of the nearest project config in it or
        above (`tsconfig.PROJECT_CONFIGS`, in that order of preference)."""
        known = self.projects.get(folder)
        if known is not None:
            return known
        config = next(
            (c for name in PROJECT_CONFIGS if (c := posixpath.join(folder, name)) in self.files),
            None,
        )
        if config is not None:
            project = self._config(config, 0)
            project = project._replace(config_folder=folder)
            if project.base_url is not None and project.base_url.startswith(CONFIG_DIR):
                written = posixpath.join(folder, project.base_url[len(CONFIG_DIR) :].lstrip("/"))
                project = project._replace(base_url=posixpath.normpath(written))
        elif folder:
            project = self._project_of(posixpath.dirname(folder))
        else:
            project = _NO_PROJECT
        self.projects[folder] = project
        return project

    def _config(self, config: str, depth: int) -> _Project:
        """What a config and the configs it extends set (the config's own options win, then
        the later of the configs it extends): `baseUrl` from the folder of the config that sets
        it, `paths` with the folder of the config that sets them."""
        facts = self.facts(config)
        project = _NO_PROJECT
        for parent in extended(config, facts) if depth < 8 else ():
            named = parent if parent in self.files else f"{parent}.json"
            if named in self.files:
                project = project.overridden_by(self._config(named, depth + 1))
            elif named in self.failed or parent in self.failed:
                self.touch(named if named in self.failed else parent)
        folder = posixpath.dirname(config)
        base = facts.bindings.get("baseUrl")
        if isinstance(base, Lit) and base.value.startswith(CONFIG_DIR):
            project = project._replace(base_url=base.value)  # placed by the config in use
        elif isinstance(base, Lit):
            project = project._replace(
                base_url=posixpath.normpath(posixpath.join(folder, base.value))
            )
        if "paths" in facts.bindings:
            patterns = {
                pattern: tuple(v.value for v in subs.values if isinstance(v, Lit))
                for pattern, subs in facts.exports.items()
                if isinstance(subs, Items)
            }
            project = project._replace(paths_folder=folder, patterns=patterns)
        return project

    def _package(self, specifier: str) -> str | None:
        """A bare `import` of a package the repository holds (npm, yarn or pnpm workspaces):
        the folder whose `package.json` has that name, its `exports` subpath or a file below it.
        Libraries the framework records name (`express`, `koa-jwt`) are never looked for."""
        name, rest = package_name(specifier)
        if name in KNOWN_LIBRARIES or not name:
            return None
        folder = self.workspace(name)
        if folder is None:
            return None
        found = self._entry(folder, f"./{rest}" if rest else ".", 0)
        if found is None:  # no entry for it: a file below the folder, or the folder's index
            found = self.path(posixpath.join(folder, rest) if rest else folder or ".")
        return self._declared_instead(found) if found is not None else None

    def _declared_instead(self, found: str) -> str:
        """A package's script that only forwards to build output the repository does not hold
        (`validators.js`: `module.exports = require('./dist/validators')`) read as the
        declarations beside it (`validators.d.ts`: `export * from './src/validators'`), as
        TypeScript reads the package: the source that output is built from; else `found`."""
        stem, ext = posixpath.splitext(found)
        declared = f"{stem}.d.ts"
        if ext not in {".js", ".cjs", ".mjs"} or declared not in self.files:
            return found
        exported = self.facts(found).exports
        forwarded = exported.get("default") if len(exported) == 1 else None
        if not isinstance(forwarded, ImportRef) or not forwarded.module.startswith("."):
            return found
        if self.file(found, forwarded.module) is not None:
            return found
        return declared

    def workspace(self, name: str) -> str | None:
        """The folder of the repository's package named `name` (npm, yarn or pnpm workspaces, a
        folder package), None for a library the records know or a name no manifest has."""
        if name in KNOWN_LIBRARIES or not name:
            return None
        if self.workspaces is None:  # every manifest of the walk, read once per link
            self.workspaces = {}
            for manifest in sorted(p for p in self.files if is_manifest(p)):
                named = self.facts(manifest).bindings.get("name")
                if isinstance(named, Lit) and isinstance(named.value, str):
                    self.workspaces.setdefault(named.value, posixpath.dirname(manifest))
        return self.workspaces.get(name)


def package_name(specifier: str) -> tuple[str, str]:
    """A bare specifier's package name (`@scope/name`, `name`) and the subpath after it."""
    parts = specifier.split("/")
    cut = 2 if specifier.startswith("@") else 1
    return "/".join(parts[:cut]), "/".join(parts[cut:])
