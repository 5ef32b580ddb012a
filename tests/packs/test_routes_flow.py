"""`packs.routes.flow`: which files are Flow-typed, the Flow-only forms blanked byte for byte so
TSX's grammar reads the rest, and a tree whose only errors lie inside types still read."""

from __future__ import annotations

import sys

import pytest
import tree_sitter
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.flow import blanked, errors_only_in_types, is_flow
from packs.routes.js_facts import LANGUAGES

TSX = tree_sitter.Parser(LANGUAGES["tsx"])


@pytest.mark.parametrize(
    ("source", "flow"),
    [
        (b"// @flow\nconst a = 1;\n", True),
        (b"/* @flow strict */\nconst a = 1;\n", True),
        (b"#!/usr/bin/env node\n/**\n * The server.\n * @flow\n */\nmain();\n", True),
        (b"\n\n  // licence\n// @flow\n", True),
        (b"// @noflow\nconst a = 1;\n", False),
        (b"// @flowtype\n", False),
        (b"const a = 1; // @flow\n", False),  # after code: not Flow's pragma
        (b"const s = '@flow';\n", False),
    ],
)
def test_a_file_is_flow_by_the_pragma_in_the_comments_it_starts_with(
    source: bytes, flow: bool
) -> None:
    assert is_flow(source) is flow


FLOW_ONLY = [
    b"// @flow\nfunction isStr(x: mixed): boolean %checks {\n  return typeof x === 'string';\n}\n",
    b"// @flow\ntype Props = {+name: string, -age: number};\ntype R = {\n  +id: ID;\n};\n",
    b"// @flow\nopaque type ID: string = string;\nexport opaque type Token = string;\n",
]


@pytest.mark.parametrize("source", FLOW_ONLY)
def test_flow_only_forms_are_blanked_so_tsx_reads_the_file_with_lines_and_columns_kept(
    source: bytes,
) -> None:
    assert TSX.parse(source).root_node.has_error  # as written, TSX cannot read it
    result = blanked(source)
    assert not TSX.parse(result).root_node.has_error
    assert len(result) == len(source)
    changed = [i for i in range(len(source)) if result[i] != source[i]]
    assert changed and all(result[i] == ord(" ") for i in changed)  # only ever blanked
    assert result.count(b"\n") == source.count(b"\n")  # no line break blanked: lines kept


def test_what_tsx_reads_already_is_left_alone() -> None:
    source = b"// @flow\nconst total = a + -b - +c;\nconst t = {| a: 1 |};\ntype T = ?string;\n"
    assert blanked(source) == source
    assert blanked(b"x = {a: 1, b: 2 - 1}\n") == b"x = {a: 1, b: 2 - 1}\n"


def test_an_error_inside_a_type_does_not_cost_the_file_but_one_in_code_does() -> None:
    in_type = b"// @flow\ntype T = { a: (string) => void %% };\napp.get('/x', h);\n"
    tree = TSX.parse(in_type).root_node
    assert tree.has_error and errors_only_in_types(tree)
    in_code = b"// @flow\nconst x = ;\napp.get('/x', h);\n"
    tree = TSX.parse(in_code).root_node
    assert tree.has_error and not errors_only_in_types(tree)
    assert errors_only_in_types(TSX.parse(b"const ok = 1;\n").root_node)
