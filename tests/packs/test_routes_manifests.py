"""`packs.routes.manifests`: a `package.json` as the linker's facts: the package's name, its
entry points as Node resolves them, and where its source is when those are build output."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.manifests import SOURCES, is_manifest, manifest_facts, source_entries
from packs.routes.model import Lit, ModuleFacts


def facts_of(manifest: object) -> ModuleFacts:
    return manifest_facts(json.dumps(manifest))


def entries(manifest: object) -> dict[str, str]:
    exports = facts_of(manifest).exports
    assert all(isinstance(target, Lit) for target in exports.values())
    return {subpath: target.value for subpath, target in exports.items() if isinstance(target, Lit)}


@pytest.mark.parametrize(
    ("path", "manifest"),
    [
        ("package.json", True),
        ("packages/api/package.json", True),
        ("my-package.json", False),
        ("package.json5", False),
    ],
)
def test_is_manifest(path: str, manifest: bool) -> None:
    assert is_manifest(path) is manifest


def test_the_name_and_main_are_the_packages_entry() -> None:
    facts = facts_of({"name": "@acme/api", "main": "lib/index.js"})
    assert facts.language == "package"
    assert facts.bindings["name"] == Lit("@acme/api")
    assert entries({"name": "@acme/api", "main": "lib/index.js"}) == {".": "lib/index.js"}


def test_exports_subpaths_pick_the_first_condition_node_would_for_require_or_import() -> None:
    manifest = {
        "main": "ignored.js",
        "exports": {
            ".": {
                "types": "./index.d.ts",
                "import": "./esm/index.mjs",
                "require": "./cjs/index.js",
            },
            "./users": {"node": {"default": "./users/node.js"}, "default": "./users/any.js"},
            "./package.json": "./package.json",
            "./types-only": {"types": "./t.d.ts"},  # no condition tried here: left out
        },
    }
    assert entries(manifest) == {
        ".": "./cjs/index.js",
        "./users": "./users/node.js",
        "./package.json": "./package.json",
    }


@pytest.mark.parametrize(
    ("exports", "expected"),
    [
        ("./x.js", {".": "./x.js"}),  # a string: the package's one entry
        ({"import": "./e.mjs", "default": "./d.js"}, {".": "./e.mjs"}),  # conditions, no subpath
        ({"browser": "./b.js"}, {".": "main.js"}),  # none Node takes: `main` then
    ],
)
def test_exports_without_subpaths(exports: object, expected: dict[str, str]) -> None:
    assert entries({"exports": exports, "main": "main.js"}) == expected


@pytest.mark.parametrize("source", ["", "{not json", "[1, 2]", '"a string"', "null"])
def test_a_manifest_that_is_no_json_object_says_nothing(source: str) -> None:
    facts = manifest_facts(source)
    assert (facts.language, facts.bindings, facts.exports) == ("package", {}, {})


def test_a_name_that_is_no_string_is_not_bound() -> None:
    assert "name" not in facts_of({"name": ["x"], "main": "i.js"}).bindings


def test_source_entries_where_the_entry_may_be_build_output() -> None:
    """`source`, then `types`/`typings` as the `.ts` beside the declarations, then the
    conventional `src/index` and `index`, each once, in that order."""
    facts = facts_of(
        {"main": "dist/index.js", "source": "src/main.ts", "types": "dist/index.d.ts",
         "typings": "dist/index.d.mts"}
    )  # fmt: skip
    assert source_entries(facts) == [
        "src/main.ts",
        "dist/index.ts",
        "dist/index.mts",
        "src/index",
        "index",
    ]
    assert source_entries(facts_of({"types": "index.d.ts"})) == ["index.ts", "src/index", "index"]
    assert source_entries(facts_of({"source": "src/index"})) == ["src/index", "index"]


def test_a_package_with_no_entry_and_no_source_has_no_source_entries() -> None:
    facts = facts_of({"name": "tool", "scripts": {"build": "tsc"}})
    assert SOURCES not in facts.bindings
    assert source_entries(facts) == []
    assert source_entries(ModuleFacts("javascript")) == []
