"""pack-js-tables: Sequelize, TypeORM, Prisma and knex tables and Mongoose collections, on
adversarial fixtures per ORM (tests/fixtures/js-tables/), every scan held to the parse-all one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(REPO / "plugins"))

from pack_js_tables import make_scanner
from packs.js_naming import (
    pluralize_inflection,
    pluralize_mongoose,
    snake_case,
    underscore,
)

FIXTURES = REPO / "tests" / "fixtures" / "js-tables"
GPP = [sys.executable, "-m", "gpp.gateway"]


def _scan(root: Path, paths: list[str] | None = None) -> tuple[dict[str, Any], int, int]:
    """The pre-filtered document (asserted equal, as canonical JSON, to the parse-all one) and
    how many files each mode parsed."""
    documents, parsed = [], []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.root = str(root)
        scanner.workers = 1
        documents.append(scanner.discover(paths or ["."]))
        parsed.append(scanner.parsed)
    reference, filtered = (json.dumps(d, sort_keys=True) for d in documents)
    assert filtered == reference
    return documents[1], parsed[0], parsed[1]


def _named(document: dict[str, Any], folder: str) -> list[tuple[str, str, int]]:
    return [
        (r["kind"], r["name"], r["location"]["line"])
        for r in document["resources"]
        if r["location"]["path"].startswith(folder)
    ]


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return _scan(FIXTURES)[0]


def test_sequelize_define_and_init_with_its_default_naming(document: dict[str, Any]) -> None:
    """The global `define: { underscored }` applies where a model says nothing; an explicit
    `freezeTableName`, `tableName`, `modelName` win; `customElements.define` and an `init`
    without a `sequelize` option are not models."""
    assert _named(document, "sequelize/") == [
        ("table", "user_profiles", 6),  # pluralised, then underscored (global define option)
        ("table", "people", 11),  # Person: inflection's irregular plural
        ("table", "Audit", 13),  # freezeTableName: the model name as it is
        ("table", "labels", 15),  # tableName
        ("table", "categories", 22),  # this.init in a static method: the class's name
        ("table", "bills", 27),  # modelName
        ("table", "Statuses", 4),  # its own underscored: false
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["table:user_profiles"] == "email,firstName"
    assert signals["table:bills"] == "phone"


def test_sequelize_typescript_table_classes(document: dict[str, Any]) -> None:
    """`@Table` classes: named as Sequelize names a model (the global `define` options of
    sequelize/db.js apply: one scan); options given by a name are a finding."""
    assert _named(document, "sequelize-ts/") == [
        ("table", "authors", 3),
        ("table", "invoices_2024", 8),
        ("table", "Shelf", 13),
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["table:authors"] == "email"
    opaque = [
        f["locations"]
        for f in document["findings"]
        if f["detail"] == "sequelize-typescript @Table() options given by an expression"
    ]
    assert opaque == [[{"path": "sequelize-ts/models.ts", "line": 16}]]


def test_typeorm_entities_and_the_default_naming_strategy(document: dict[str, Any]) -> None:
    assert _named(document, "typeorm/") == [
        ("table", "user_profile", 3),  # snake_case of the class
        ("table", "photos", 18),
        ("table", "api_keys", 23),
        ("table", "order_line", 28),  # options without a name: the default
    ]
    profile = next(r for r in document["resources"] if r["name"] == "user_profile")
    assert profile["attrs"] == {"columns": 3, "orm": "typeorm", "model": "UserProfile"}
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["table:user_profile"] == "email_address,lastName"  # @Column({ name })


def test_prisma_models_with_map_and_no_table_for_enums_types_views(
    document: dict[str, Any],
) -> None:
    assert _named(document, "prisma/") == [
        ("table", "User", 7),
        ("table", "blog_posts", 15),
        ("table", "Empty", 35),  # a block opened and closed on one line
    ]
    user = next(r for r in document["resources"] if r["name"] == "User")
    assert user["attrs"]["columns"] == 4  # id, email, phone_number, role: not the posts relation
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["table:User"] == "email,phone_number"


def test_knex_migrations_in_file_order_drop_and_rename(document: dict[str, Any]) -> None:
    """`accounts` is renamed `users` by the second migration, `legacy_logs` dropped by it; the
    `down` functions (which drop and rename back) are not the schema; a `const` names a table."""
    assert _named(document, "knex/") == [
        ("table", "users", 3),
        ("table", "sessions", 9),
        ("table", "audit_entries", 8),
    ]
    users = next(r for r in document["resources"] if r["name"] == "users" and r["kind"] == "table")
    assert users["location"]["path"] == "knex/migrations/20200101_init.js"
    assert users["attrs"]["columns"] == 4  # id, email, created_at, updated_at


def test_mongoose_collections_with_its_pluralisation(document: dict[str, Any]) -> None:
    assert _named(document, "mongoose/") == [
        ("collection", "users", 5),
        ("collection", "people", 7),
        ("collection", "categories", 8),
        ("collection", "status", 9),  # uncountable in Mongoose's list
        ("collection", "crates", 10),  # the third argument
        ("collection", "audit_trail", 13),  # the schema's collection option
        ("collection", "labels", 20),  # `Schema(…)` without `new`, its option
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["collection:users"] == "address,email"


def test_nestjs_mongoose_schema_classes(document: dict[str, Any]) -> None:
    """`@Schema()` of `@nestjs/mongoose`: the class is the model (`forFeature` registers it
    under `X.name`); `@Prop` members are its fields."""
    assert _named(document, "nest-mongoose/") == [
        ("collection", "cats", 3),
        ("collection", "dog_registry", 13),
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["collection:cats"] == "ownerEmail"  # `breed` has no @Prop
    assert signals["collection:dog_registry"] == "phone"


def test_computed_names_are_findings_at_their_place(document: dict[str, Any]) -> None:
    places = sorted(
        (location["path"], location["line"], finding["detail"])
        for finding in document["findings"]
        if finding["code"] == "UNRESOLVED_TABLE_NAME"
        for location in finding["locations"]
        if location["path"].startswith("computed/")
    )
    assert [(path, line) for path, line, _ in places] == [
        ("computed/dynamic.js", 8),  # define(name) in a loop
        ("computed/dynamic.js", 10),  # tableName from a template with a substitution
        ("computed/dynamic.js", 11),  # model(`${prefix}Thing`)
        ("computed/dynamic.js", 13),  # createTable(prefix + '_events')
        ("computed/entity.ts", 5),  # @Entity(names.audit)
    ]
    assert _named(document, "computed/") == []
    assert {f["code"] for f in document["findings"]} == {"UNRESOLVED_TABLE_NAME"}


def test_the_pre_filter_parses_fewer_files_and_equals_parse_all() -> None:
    _, parse_all, filtered = _scan(FIXTURES)
    assert filtered < parse_all  # util/helpers.js names no ORM


def test_duplicates_and_parse_errors(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text('import { Entity } from "typeorm";\n@Entity("t")\nclass A {}\n')
    (tmp_path / "b.ts").write_text('import { Entity } from "typeorm";\n@Entity("t")\nclass B {}\n')
    (tmp_path / "broken.js").write_text("const s = require('sequelize');\ns.define('X', {\n")
    (tmp_path / "other.js").write_text("function (\n")  # broken, but names no ORM: not read
    (tmp_path / "open.prisma").write_text("model A {\n  id Int @id\n")
    document, _, _ = _scan(tmp_path)
    assert [r["name"] for r in document["resources"]] == ["t", "t"]
    assert document["findings"] == [
        {
            "code": "DUPLICATE_TABLE_NAME",
            "detail": "table t is defined 2 times",
            "locations": [{"path": "a.ts", "line": 2}, {"path": "b.ts", "line": 2}],
        }
    ]
    assert [(u["path"], u["reason"]) for u in document["unresolved"]] == [
        ("broken.js", "parse-error"),
        ("open.prisma", "parse-error"),
    ]


def test_mongoose_pluralize_null_keeps_the_model_names(tmp_path: Path) -> None:
    (tmp_path / "db.js").write_text(
        "const mongoose = require('mongoose');\nmongoose.pluralize(null);\n"
        "mongoose.model('Person', new mongoose.Schema({}));\n"
    )
    assert _named(_scan(tmp_path)[0], "") == [("collection", "Person", 3)]


def test_a_sequelize_model_file_imported_without_its_options_is_still_read(tmp_path: Path) -> None:
    """Options given by a name bound elsewhere cannot be read: a finding, not a guess."""
    (tmp_path / "m.js").write_text(
        "const { opts } = require('./o');\n"
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('Box', { size: DataTypes.INTEGER }, opts);\n"
    )
    document = _scan(tmp_path)[0]
    assert document["resources"] == []
    assert [(f["code"], f["locations"]) for f in document["findings"]] == [
        ("UNRESOLVED_TABLE_NAME", [{"path": "m.js", "line": 3}])
    ]


@pytest.mark.parametrize(
    ("word", "inflection", "mongoose"),
    [
        ("User", "Users", "users"),
        ("Person", "People", "people"),
        ("Category", "Categories", "categories"),
        ("Status", "Statuses", "status"),
        ("Box", "Boxes", "boxes"),
        ("Child", "Children", "children"),
        ("Woman", "Women", "women"),
        ("Human", "Humans", "humen"),  # Mongoose's `(m)an$` rule, as it applies it
        ("Mouse", "Mice", "mice"),
        ("Knife", "Knives", "knives"),
        ("Analysis", "Analyses", "analyses"),
        ("Datum", "Data", "data"),
        ("Quiz", "Quizzes", "quizzes"),
        ("Matrix", "Matrixes", "matrixes"),  # `x$` comes before the `matrix` rule in both
        ("Information", "Information", "information"),
        ("Users", "Users", "users"),
        ("OrderItem", "OrderItems", "orderitems"),
    ],
)
def test_pluralisation(word: str, inflection: str, mongoose: str) -> None:
    assert (pluralize_inflection(word), pluralize_mongoose(word)) == (inflection, mongoose)


def test_case_conversions() -> None:
    assert snake_case("UserProfile") == "user_profile"
    assert snake_case("APIKey") == "api_key"
    assert underscore("OrderItems") == "order_items"


def test_the_bundled_sample_app_has_a_table_for_it() -> None:
    """The registry's repository for the pack (an installed gateway's every pack finds something
    there: tests/product/test_wheel.py)."""
    document = _scan(REPO / "plugins/examples/sample-app")[0]
    assert _named(document, "") == [("table", "suppliers", 2)]
    assert document["classificationSignals"][0]["value"] == "contact_email"


def test_the_registered_pack_reads_a_repository(tmp_path: Path) -> None:
    """Registered in plugins/registry.toml with its narrow view: run as `gpp discover` does."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "prisma", repo)
    repo.chmod(0o755)
    done = subprocess.run(
        [*GPP, "discover", "--repo", str(repo), "pack-js-tables", "."],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    names = [r["name"] for r in json.loads(done.stdout)["resources"]]
    assert names == ["User", "blog_posts", "Empty"]


IDENTITY_ROOTS = [
    REPO / "plugins/examples/sample-app",
    *sorted(p for p in (REPO / "tests/fixtures/repos").iterdir() if p.is_dir()),
    *sorted(p for p in (REPO / "tests/fixtures/unresolved").iterdir() if p.is_dir()),
    FIXTURES,
]


@pytest.mark.parametrize("root", IDENTITY_ROOTS, ids=lambda p: p.name)
def test_the_pre_filter_changes_no_document_on_any_fixture_repository(root: Path) -> None:
    _scan(root)


SNIPPETS = [
    "const { Sequelize } = require('sequelize');\nsequelize.define('User', { email: 1 });\n",
    "import { Entity } from 'typeorm';\n@Entity()\nexport class Thing {}\n",
    "exports.up = (knex) => knex.schema.createTable('t1', (t) => t.string('a'));\n",
    "exports.up = (knex) => knex.schema.dropTable('t1');\n",
    "exports.up = (knex) => knex.schema.renameTable('t1', 't2');\n",
    "const mongoose = require('mongoose');\nmongoose.model('Box', new mongoose.Schema({}));\n",
    "const x = (a) => a.define('Y', {});\n",  # names no ORM: not a model, not read
    "export const f = () => 1;\n",
    "function (\n",  # broken, names no ORM
    "const s = require('sequelize');\ns.define('X', {\n",  # broken, names one
    "mongoose.model(name, schema);\n",
]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(st.sampled_from(SNIPPETS), st.sampled_from(SNIPPETS)), max_size=6))
def test_property_any_mix_of_files_scans_the_same_pre_filtered(
    tmp_path_factory: pytest.TempPathFactory, files: list[tuple[str, str]]
) -> None:
    """Files made of any two snippets (ORM or not, broken or not), in migration order: the
    pre-filtered document is the parse-all one."""
    root = tmp_path_factory.mktemp("mix")
    for number, (first, second) in enumerate(files):
        (root / f"m{number:02}.js").write_text(first + second)
    _scan(root)


def test_knex_down_in_every_spelling_is_not_the_schema(tmp_path: Path) -> None:
    """`down` as an exported const arrow, an object method and an object property: what it
    creates is the undoing of an `up`, never listed; `up` in each spelling is read."""
    (tmp_path / "001_a.mjs").write_text(
        "export const up = (knex) => knex.schema.createTable('a', (t) => t.string('x'));\n"
        "export const down = async (knex) => { await knex.schema.createTable('ghost_a'); };\n"
    )
    (tmp_path / "002_b.js").write_text(
        "module.exports = {\n  async up(knex) { await knex.schema.createTable('b'); },\n"
        "  async down(knex) { await knex.schema.createTable('ghost_b'); },\n};\n"
    )
    (tmp_path / "003_c.js").write_text(
        "module.exports = {\n  up: (knex) => knex.schema.dropTable('a'),\n"
        "  down: function (knex) { return knex.schema.createTable('ghost_c'); },\n};\n"
    )
    assert _named(_scan(tmp_path)[0], "") == [("table", "b", 2)]
