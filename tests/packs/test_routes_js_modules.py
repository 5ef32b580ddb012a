"""`packs.routes.js_modules`: the one JavaScript/TypeScript module resolver of the packs, over a
repository given as paths and texts: relative files and folders as Node finds them, TypeScript
project aliases, workspace packages, `NODE_PATH`, never a library the framework records name."""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Mapping, Sequence

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.js_modules import JsModules, package_name
from packs.routes.manifests import is_manifest, manifest_facts
from packs.routes.model import ModuleFacts
from packs.routes.tsconfig import config_facts


class Repository:
    """Files by path; `asked` the manifests and configs whose facts the resolver wanted,
    `touched` the failed files a candidate landed in."""

    def __init__(self, files: Mapping[str, object]) -> None:
        self.texts = {p: t if isinstance(t, str) else json.dumps(t) for p, t in files.items()}
        self.asked: list[str] = []
        self.touched: list[str] = []

    def facts(self, path: str) -> ModuleFacts:
        self.asked.append(path)
        text = self.texts[path]
        return manifest_facts(text) if is_manifest(path) else config_facts(text)

    def modules(self, failed: Collection[str] = (), node_paths: Sequence[str] = ()) -> JsModules:
        return JsModules(
            self.texts, self.facts, failed=failed, touch=self.touched.append, node_paths=node_paths
        )


def resolve(files: Mapping[str, object], importer: str, specifier: str) -> str | None:
    return Repository(files).modules().file(importer, specifier)


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        ("./users", "src/users.ts"),
        ("./users.js", "src/users.ts"),  # TypeScript's `.js` for the `.ts` beside it
        ("./plain.js", "src/plain.js"),
        ("./routes", "src/routes/index.jsx"),  # a folder: its index
        ("../server", "server.mjs"),
        ("./missing", None),
        ("../../outside", None),  # above the root: nothing of the repository
    ],
)
def test_relative_specifiers_are_files_then_folders(specifier: str, expected: str | None) -> None:
    files = {
        "src/app.ts": "",
        "src/users.ts": "",
        "src/plain.js": "",
        "src/routes/index.jsx": "",
        "server.mjs": "",
    }
    assert resolve(files, "src/app.ts", specifier) == expected


def test_a_folder_with_a_manifest_is_its_entry_point_else_its_source() -> None:
    files = {
        "app.js": "",
        "lib/package.json": {"main": "./main.js"},
        "lib/main.js": "",
        "lib/index.js": "",  # the manifest's entry wins over the index
        "built/package.json": {"main": "dist/index.js"},  # build output the repository lacks
        "built/src/index.ts": "",
    }
    assert resolve(files, "app.js", "./lib") == "lib/main.js"
    assert resolve(files, "app.js", "./built") == "built/src/index.ts"


def test_a_workspace_package_is_found_by_its_manifests_name_and_subpaths() -> None:
    files = {
        "apps/web/server.ts": "",
        "packages/api/package.json": {
            "name": "@acme/api",
            "exports": {".": "./src/index.ts", "./users": "./src/users/routes.ts"},
        },
        "packages/api/src/index.ts": "",
        "packages/api/src/users/routes.ts": "",
        "packages/api/src/orders.ts": "",
        "packages/util/package.json": {"name": "util-lib"},
        "packages/util/index.js": "",
    }
    repository = Repository(files)
    modules = repository.modules()
    assert modules.file("apps/web/server.ts", "@acme/api") == "packages/api/src/index.ts"
    assert modules.file("apps/web/server.ts", "@acme/api/users") == (
        "packages/api/src/users/routes.ts"
    )
    assert modules.file("apps/web/server.ts", "@acme/api/src/orders") == (
        "packages/api/src/orders.ts"  # no export for it: a file below the package's folder
    )
    assert modules.file("apps/web/server.ts", "util-lib") == "packages/util/index.js"
    assert modules.file("apps/web/server.ts", "left-pad") is None
    assert modules.workspace("@acme/api") == "packages/api"
    assert repository.asked.count("packages/api/package.json") >= 1


def test_a_library_the_records_know_is_never_a_package_of_the_repository() -> None:
    files = {
        "app.js": "",
        "vendor/express/package.json": {"name": "express", "main": "index.js"},
        "vendor/express/index.js": "",
        "tsconfig.json": {"compilerOptions": {"baseUrl": "vendor"}},
    }
    assert resolve(files, "app.js", "express") is None
    assert Repository(files).modules().workspace("express") is None


def test_typescript_paths_then_base_url_of_the_nearest_project() -> None:
    files = {
        "tsconfig.json": {
            "compilerOptions": {
                "baseUrl": ".",
                "paths": {"@/*": ["missing/*", "src/*"], "@config": ["config/main.ts"]},
            }
        },
        "src/app.ts": "",
        "src/users.ts": "",
        "config/main.ts": "",
        "lib/helpers.ts": "",
        "tools/jsconfig.json": {"compilerOptions": {"baseUrl": "scripts"}},
        "tools/scripts/build.js": "",
        "tools/run.js": "",
    }
    modules = Repository(files).modules()
    assert modules.file("src/app.ts", "@/users") == "src/users.ts"  # the second substitution
    assert modules.file("src/app.ts", "@config") == "config/main.ts"
    assert modules.file("src/app.ts", "lib/helpers") == "lib/helpers.ts"  # baseUrl
    assert modules.file("tools/run.js", "build") == "tools/scripts/build.js"  # its own project
    assert modules.file("tools/run.js", "lib/helpers") is None  # not the root's baseUrl


def test_paths_inherited_through_extends_are_relative_to_the_config_that_set_them() -> None:
    files = {
        "tsconfig.base.json": {"compilerOptions": {"paths": {"~shared/*": ["shared/*"]}}},
        "apps/api/tsconfig.json": {"extends": "../../tsconfig.base.json"},
        "apps/api/main.ts": "",
        "shared/db.ts": "",
    }
    assert resolve(files, "apps/api/main.ts", "~shared/db") == "shared/db.ts"


def test_node_path_folders_the_repository_sets_are_looked_in_last() -> None:
    files = {"src/server.js": "", "src/models/user.js": "", "models/user.js": ""}
    modules = Repository(files).modules(node_paths=("src",))
    assert modules.file("src/server.js", "models/user") == "src/models/user.js"
    assert modules.file("src/server.js", "express") is None  # a known library: not looked for


def test_a_candidate_that_failed_to_read_is_touched_not_found() -> None:
    """A file found unreadable or unparsable is no resolution, but the caller hears of it (an
    on-demand scan reports its parse error where an import needs it)."""
    repository = Repository({"app.ts": ""})
    modules = repository.modules(failed={"routes.ts"})
    assert modules.file("app.ts", "./routes") is None
    assert repository.touched == ["routes.ts"]


@pytest.mark.parametrize(
    ("specifier", "parts"),
    [
        ("express", ("express", "")),
        ("lodash/fp/map", ("lodash", "fp/map")),
        ("@acme/api", ("@acme/api", "")),
        ("@acme/api/users/routes", ("@acme/api", "users/routes")),
    ],
)
def test_package_name(specifier: str, parts: tuple[str, str]) -> None:
    assert package_name(specifier) == parts
