"""pack-js-tables: typegoose's Mongoose models (`js_typegoose`), on a fixture of our own
(tests/fixtures/js-typegoose/): a class is a collection only where code makes a model of it
(`getModelForClass`, v5's `new C().getModelForClass(C, …)`, `TypegooseModule.forFeature`), named
as typegoose names it (`customName`, `automaticName`, `schemaOptions.collection`, options
inherited from a base class and overridden by the call's); a subdocument class is no collection;
a function of the project's that makes a model of the class its caller passes is followed to its
calls (in any file: the link asks for the files that spell its name), and is a finding where no
call reaches it or its callers cannot be named (a method). Each scan is held to the parse-all
document (the pre-filter identity)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from tables_harness import js_tables_document as _scan

FIXTURE = REPO / "tests" / "fixtures" / "js-typegoose"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return _scan(FIXTURE)


def test_the_classes_code_makes_models_of_are_collections_named_as_typegoose_names_them(
    document: dict[str, Any],
) -> None:
    placed = {
        (r["name"], f"{r['location']['path']}:{r['location']['line']}")
        for r in document["resources"]
    }
    assert placed == {
        ("readers", "src/models/reader.ts:4"),  # the class's name, pluralised
        ("bookshelves", "src/models/shelf.ts:4"),  # forFeature through a barrel; its option
        ("lendings", "src/models/loan.ts:3"),  # customName 'Lending', pluralised
        ("notes", "src/models/review.ts:3"),  # automaticName: model Review_notes, its collection
        ("archive", "src/models/crate.ts:4"),  # the base class's collection, inherited
        ("labels", "src/legacy/tag.ts:3"),  # v5: the call's schemaOptions
        ("badges", "src/models/badge.ts:4"),  # a wrapper of the project's, called in the file
        ("club_members", "src/models/member.ts:3"),  # the wrapper called in a module file
    }
    kinds = {r["kind"] for r in document["resources"]}
    assert kinds == {"collection"}


def test_a_made_class_carries_its_prop_members_as_columns(document: dict[str, Any]) -> None:
    reader = next(r for r in document["resources"] if r["name"] == "readers")
    assert reader["attrs"].get("model") == "Reader"
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["collection:readers"] == "email,phone"


def test_a_maker_whose_class_no_call_passes_is_a_finding_at_it(document: dict[str, Any]) -> None:
    places = [
        f"{where['path']}:{where['line']}"
        for f in document["findings"]
        if f["code"] == "UNRESOLVED_TABLE_NAME"
        for where in f["locations"]
    ]
    # a method's callers are not followed; a wrapper nothing calls makes no model
    assert places == ["src/db/provide.ts:10", "src/db/unused.ts:2"]


def test_a_model_of_a_class_the_scan_cannot_find_is_a_finding(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "repo")
    (tmp_path / "repo" / "src" / "models" / "reader.ts").unlink()
    (tmp_path / "repo" / "src" / "ghost.ts").write_text(
        "import { getModelForClass } from '@typegoose/typegoose';\n"
        "import { Reader } from './models/reader';\n"
        "export const Ghost = getModelForClass(Reader);\n",
        encoding="utf-8",
    )
    found = _scan(tmp_path / "repo")
    assert "readers" not in {r["name"] for r in found["resources"]}
    details = {
        f"{w['path']}:{w['line']}": f["detail"] for f in found["findings"] for w in f["locations"]
    }
    assert "src/ghost.ts:3" in details and "Reader" in details["src/ghost.ts:3"]


def test_a_naming_option_given_by_an_expression_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "m.ts").write_text(
        "import { getModelForClass, modelOptions } from '@typegoose/typegoose';\n"
        "@modelOptions({ schemaOptions: { collection: process.env.TABLE } })\n"
        "class Note {}\n"
        "export const NoteModel = getModelForClass(Note);\n",
        encoding="utf-8",
    )
    found = _scan(tmp_path)
    assert found["resources"] == []
    assert [(f["code"], f["locations"][0]["line"]) for f in found["findings"]] == [
        ("UNRESOLVED_TABLE_NAME", 4)
    ]
