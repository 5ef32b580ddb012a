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
STRATEGY = REPO / "tests" / "fixtures" / "js-tables-strategy"  # a naming strategy of its own
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


def test_sequelize_super_init_and_options_spread_from_constants(document: dict[str, Any]) -> None:
    """`super.init(…)` in a model's static method names the enclosing class; options spread
    from a top-level `const` object (itself spread from another) are read as JavaScript
    merges them; a spread of something the file does not bind is a finding. The global
    `define: { underscored }` of sequelize/db.js applies (one scan); the names are the ones
    `sequelize.models` gives for these classes under it."""
    assert _named(document, "sequelize-classes/") == [
        ("table", "shipments", 10),
        ("table", "Parcel", 16),  # freezeTableName from `frozen`, spread twice
        ("table", "ledger_lines", 21),  # tableName from `named`
    ]
    flagged = [
        location["line"]
        for finding in document["findings"]
        for location in finding["locations"]
        if location["path"] == "sequelize-classes/models.js"
    ]
    assert flagged == [24]  # `...remote`, required from another file


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


def test_knex_raw_sql_in_migrations(document: dict[str, Any]) -> None:
    """`knex.raw(…)` in a migration's `up`: the tables its SQL creates (schema-qualified,
    quoted or not, several statements, comments), renames and drops (several names), in
    migration order; a temporary table is none, `down` and SQL outside a migration are not
    the schema; DDL whose table is a `${}` part is a finding. As knex leaves the tables when
    it runs these migrations."""
    assert _named(document, "knex-raw/") == [("table", "journal", 4)]
    flagged = [
        location["line"]
        for finding in document["findings"]
        for location in finding["locations"]
        if location["path"].startswith("knex-raw/")
    ]
    assert flagged == [10]


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


def test_prisma_implicit_many_to_many_tables_across_a_schema_folder(
    document: dict[str, Any],
) -> None:
    """A folder of `.prisma` files is one schema: two list fields pointing at each other's
    model (no `fields:` on either) are a table of Prisma's own, `_<relation>`, the default
    relation name the two model names sorted and joined by `To`; a one-to-many list (its other
    side holds the key) is none. The names are the ones `getDMMF` gives for this folder."""
    assert _named(document, "prisma-multi/") == [
        ("table", "articles", 1),
        ("table", "_ArticleToLabel", 6),  # default name, sides in two files
        ("table", "_Pinned", 7),  # `@relation(name: "Pinned")`
        ("table", "Label", 1),
        ("table", "Member", 1),
        ("table", "_Mentorship", 7),  # a model related to itself
    ]


def test_typeorm_join_tables_of_many_to_many_members(document: dict[str, Any]) -> None:
    """`@ManyToMany(…)` + `@JoinTable()`: the junction table TypeORM builds, `name` when given,
    else snake_case `<owner table>_<member>_<target table>`; the target found through the
    file's import (a folder's barrel re-export, a default export), not by a class name that
    two entities share, else as the one entity of that name (`'Mentor'`). A target that is no
    entity of the repository, or a computed name, is a finding at the `@JoinTable`. The names
    are the ones TypeORM's `buildMetadatas` gives for these files."""
    assert sorted(
        (name, line)
        for kind, name, line in _named(document, "typeorm-joins/")
        if name.startswith("course_")
    ) == [("course_enrolled_pupils", 11), ("course_mentors_mentor", 18), ("course_topics", 14)]
    # both sides of one relation name its join table: one table, no duplicate
    assert ("table", "skill_mentees", 16) in _named(document, "typeorm-joins/misc/")
    assert not [f for f in document["findings"] if "skill_mentees" in f["detail"]]
    flagged = sorted(
        (location["line"], finding["detail"])
        for finding in document["findings"]
        for location in finding["locations"]
        if location["path"] == "typeorm-joins/misc/room.ts"
    )
    assert flagged == [
        (11, "a TypeORM @JoinTable() of Room.helpers: its target is not read"),
        (15, "a TypeORM @JoinTable() of Room.linked: its name is computed"),
    ]


def test_typeorm_entity_schemas_without_classes(document: dict[str, Any]) -> None:
    """`new EntitySchema({ name, tableName, columns, relations })`: `tableName` (a constant
    of the file too), else snake_case of `name`; a `joinTable` relation's junction named as
    for a decorated member; a computed `name` is a finding. As `buildMetadatas` names them."""
    assert _named(document, "typeorm-schemas/") == [
        ("table", "veterinarian", 7),
        ("table", "clinic_visits", 11),
        ("table", "clinic_visits_vets_veterinarian", 16),
    ]
    flagged = [
        location["line"]
        for finding in document["findings"]
        for location in finding["locations"]
        if location["path"] == "typeorm-schemas/entities.js"
    ]
    assert flagged == [19]


def test_an_orm_used_but_not_read_is_never_an_empty_document(tmp_path: Path) -> None:
    """A decorator of the repository's own that calls `Entity(…)` is a finding at that call;
    an ORM package imported of which no table is listed (a knex used only for queries, a
    Prisma client with no schema in the repository) is a finding at its first import."""
    (tmp_path / "orm.ts").write_text(
        'import { Entity } from "typeorm";\n'
        "export const Model = (name: string) => Entity({ name: `app_${name}` });\n"
    )
    (tmp_path / "user.ts").write_text(
        'import { Model } from "./orm";\n@Model("users")\nexport class User {}\n'
    )
    (tmp_path / "queries.js").write_text(
        "// reads tables created elsewhere\nconst db = require('knex')({ client: 'pg' });\n"
        "module.exports = () => db('orders').select();\n"
    )
    (tmp_path / "client.ts").write_text('import { PrismaClient } from "@prisma/client";\n')
    document, _, _ = _scan(tmp_path)
    assert document["resources"] == []
    assert sorted(
        (loc["path"], loc["line"], f["detail"].split(",")[0].split(" called")[0])
        for f in document["findings"]
        for loc in f["locations"]
    ) == [
        ("client.ts", 1, "imports @prisma/client"),
        ("orm.ts", 2, "TypeORM Entity()"),
        ("queries.js", 2, "imports knex"),
    ]


_PREFIXED_ENTITIES = (
    'import { Entity, PrimaryGeneratedColumn, ManyToMany, JoinTable } from "typeorm";\n'
    "@Entity()\n"
    "export class BookItem {\n"
    "  @PrimaryGeneratedColumn() id: number;\n"
    "  @ManyToMany(() => Shelf) @JoinTable() shelves: Shelf[];\n"
    "}\n"
    '@Entity("racks")\n'
    "export class Shelf { @PrimaryGeneratedColumn() id: number; }\n"
)


def test_typeorm_entity_prefix_is_put_before_every_table(tmp_path: Path) -> None:
    """A data source's `entityPrefix` renames every table, explicit, default and junction
    (the junction's name built from the unprefixed ones): as `buildMetadatas` names them."""
    (tmp_path / "entities.ts").write_text(_PREFIXED_ENTITIES)
    (tmp_path / "source.ts").write_text(
        'import { DataSource } from "typeorm";\n'
        'export default new DataSource({ type: "postgres", entityPrefix: "lib_" });\n'
    )
    document, _, _ = _scan(tmp_path)
    assert sorted(r["name"] for r in document["resources"]) == [
        "lib_book_item",
        "lib_book_item_shelves_racks",
        "lib_racks",
    ]
    assert document["findings"] == []
    (tmp_path / "other.ts").write_text("const options = { entityPrefix: 'x_' };\n")
    document, _, _ = _scan(tmp_path)  # two prefixes: which one is whose is not read
    assert sorted(r["name"] for r in document["resources"]) == [
        "book_item",
        "book_item_shelves_racks",
        "racks",
    ]
    assert sorted(
        (loc["path"], loc["line"]) for f in document["findings"] for loc in f["locations"]
    ) == [("other.ts", 1), ("source.ts", 2)]


def test_typeorm_naming_strategy_of_its_own_is_evaluated(tmp_path: Path) -> None:
    """A naming strategy of the repository's own whose `tableName()` is computable is run as
    TypeORM runs it: `tableName(class, given)` for every entity, explicit ones too, and the
    default `joinTableName` over the tables it gives."""
    (tmp_path / "package.json").write_text('{"dependencies": {"typeorm": "^0.3.20"}}')
    (tmp_path / "entities.ts").write_text(_PREFIXED_ENTITIES)
    (tmp_path / "naming.js").write_text(
        "const typeorm = require('typeorm');\n"
        "class Prefixed extends typeorm.DefaultNamingStrategy {\n"
        "  tableName(target, given) { return given || 't_' + target; }\n"
        "}\nmodule.exports = Prefixed;\n"
    )
    document, _, _ = _scan(tmp_path)
    assert sorted(r["name"] for r in document["resources"]) == [
        "racks",
        "t_BookItem",
        "t_book_item_shelves_racks",
    ]
    assert document["findings"] == []


def test_typeorm_naming_strategy_across_files_helpers_and_constants() -> None:
    """tests/fixtures/js-tables-strategy: a strategy class in its own module whose
    `tableName()` goes through an `if` guard, a `const`, a file-local arrow helper (regex
    `replace` + `toLowerCase`), a local function over a template string and a file constant;
    its `joinTableName()` through TypeORM's `snakeCase` imported under an alias."""
    strategy, _, _ = _scan(STRATEGY)
    assert sorted((r["name"], r["location"]["line"]) for r in strategy["resources"]) == [
        ("inv_stock_keeping_unit", 4),
        ("inv_stock_keeping_unit__stored_in__inv_warehouse", 9),
        ("inv_warehouse", 3),
        ("price_history", 13),
    ]
    assert strategy["findings"] == []


@pytest.mark.parametrize(
    ("members", "names"),
    [
        (  # the default strategy's own, then a string method
            "tableName(target, given) { return super.tableName(target, given).toUpperCase(); }",
            ["BOOK_ITEM", "RACKS", "book_item_shelves_racks"],
        ),
        (  # `??` and a method of a template string
            "tableName(target, given) { return given ?? `${target}s`.toLowerCase(); }",
            ["bookitems", "bookitems_shelves_racks", "racks"],
        ),
        (  # a method of the class itself, a literal `replace`
            "tableName(target, given) { return 'x_' + this.base(target, given); }\n"
            "  base(t, g) { return g || t.replace('Item', 'Thing'); }",
            ["x_BookThing", "x_book_thing_shelves_x_racks", "x_racks"],
        ),
        (  # if / else over blocks, `concat`
            "tableName(target, given) { if (given) { return given; } else {"
            " return target.concat('_', 'v2'); } }",
            ["BookItem_v2", "book_item_v2_shelves_racks", "racks"],
        ),
    ],
)
def test_typeorm_naming_strategy_constructs_evaluated(
    tmp_path: Path, members: str, names: list[str]
) -> None:
    """What a strategy's `tableName()` may be written with, each evaluated as JavaScript
    would (the junction by the default `joinTableName` over the tables it gives)."""
    (tmp_path / "package.json").write_text('{"dependencies": {"typeorm": "0.3.20"}}')
    (tmp_path / "entities.ts").write_text(_PREFIXED_ENTITIES)
    (tmp_path / "naming.ts").write_text(
        "import { DefaultNamingStrategy } from 'typeorm';\n"
        "export class Named extends DefaultNamingStrategy {\n"
        f"  {members}\n"
        "}\n"
    )
    document, _, _ = _scan(tmp_path)
    assert sorted(r["name"] for r in document["resources"]) == names
    assert document["findings"] == []


@pytest.mark.parametrize(
    "body",
    [
        "return given || pluralize(target);",  # a package's helper: not read
        "return given || helpers.snake(target);",  # another module's helper
        "const t = target; t.push('x'); return t;",  # a statement the reader does not model
        "return given || target.split('').reverse().join('');",  # a method it does not model
    ],
)
def test_typeorm_naming_strategy_not_computable_flags_every_name_it_gives(
    tmp_path: Path, body: str
) -> None:
    """A strategy whose `tableName()` is not computable: each entity and junction it would
    name is a finding at its place (never a guess, never silent); an explicit
    `@Entity('racks')` stays."""
    (tmp_path / "entities.ts").write_text(_PREFIXED_ENTITIES)
    (tmp_path / "naming.js").write_text(
        "const typeorm = require('typeorm'); const pluralize = require('pluralize');\n"
        "class Plural extends typeorm.DefaultNamingStrategy {\n"
        f"  tableName(target, given) {{ {body} }}\n"
        "}\nmodule.exports = Plural;\n"
    )
    document, _, _ = _scan(tmp_path)
    assert [r["name"] for r in document["resources"]] == ["racks"]
    assert sorted(
        (loc["path"], loc["line"]) for f in document["findings"] for loc in f["locations"]
    ) == [("entities.ts", 2), ("entities.ts", 5)]
    assert "naming.js:3 (tableName)" in document["findings"][0]["detail"]


def test_typeorm_two_strategies_that_differ_flag_every_name(tmp_path: Path) -> None:
    """Two strategy classes whose `tableName()` read differently: which one a data source
    takes is not read, so every name either gives is a finding."""
    (tmp_path / "entities.ts").write_text(_PREFIXED_ENTITIES)
    for name, prefix in (("a.js", "a_"), ("b.js", "b_")):
        (tmp_path / name).write_text(
            "const { DefaultNamingStrategy } = require('typeorm');\n"
            "module.exports = class extends DefaultNamingStrategy {\n"
            f"  tableName(target, given) {{ return given || '{prefix}' + target; }}\n"
            "};\n"
        )
    document, _, _ = _scan(tmp_path)
    assert [r["name"] for r in document["resources"]] == ["racks"]
    assert len(document["findings"]) == 2


def test_mongoose_schema_imported_from_another_module(document: dict[str, Any]) -> None:
    """A `model()` whose schema another file declares: named by that schema's `collection`
    option, found through `import`, `require`, a destructured alias, a namespace member, a
    folder's index and a re-export; a schema not found, or whose option is computed, is a
    finding at the `model()` call."""
    assert _named(document, "mongoose-split/") == [
        ("collection", "billing_invoices", 9),  # barrel folder, re-exported, `export const`
        ("collection", "ledger_rows", 10),  # `module.exports = Schema`, default require
        ("collection", "widgets", 11),  # `exports.X = local`, destructured under an alias
        ("collection", "shelves", 12),  # its option is computed: flagged below
        ("collection", "ghosts", 13),  # its module is not in the repository: flagged below
    ]
    flagged = sorted(
        (location["line"], finding["detail"].split(" from ")[0])
        for finding in document["findings"]
        for location in finding["locations"]
        if location["path"] == "mongoose-split/register.ts"
    )
    assert flagged == [
        (12, "a Mongoose model()'s schema ShelfSchema"),
        (13, "a Mongoose model()'s schema Vanished"),
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["collection:billing_invoices"] == "email"
    assert signals["collection:widgets"] == "phone"


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
    ]
    # `@Entity(names.audit)`: a member of a top-level `const` object of the file is its value
    assert _named(document, "computed/") == [("table", "audit_log", 5)]
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
        ("Human", "Humans", "humen"),  # Mongoose's `(m)an$` rule, before 7.0
        ("Mouse", "Mice", "mice"),
        ("Knife", "Knives", "knives"),
        ("Analysis", "Analyses", "analyses"),
        ("Datum", "Data", "data"),
        ("Quiz", "Quizzes", "quizzes"),
        ("Matrix", "Matrices", "matrixes"),  # inflection's `matrix` rule precedes `x$`
        ("Information", "Information", "information"),
        ("Users", "Users", "users"),
        ("OrderItem", "OrderItems", "orderitems"),
    ],
)
def test_pluralisation(word: str, inflection: str, mongoose: str) -> None:
    """Sequelize's plural (its newest `inflection`), Mongoose's before 6.0 (the rules of each
    version: tests/packs/test_pack_js_tables_versions.py)."""
    assert (pluralize_inflection(word), pluralize_mongoose(word, 0)) == (inflection, mongoose)


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
    STRATEGY,
    REPO / "tests/fixtures/unread-orms/js",
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
    "const mongoose = require('mongoose');\nconst { S } = require('./m01');\nmongoose.model('Z', S);\n",
    "const mongoose = require('mongoose');\nconst S = new mongoose.Schema({}, { collection: 'zz' });\n"
    "module.exports = { S };\n",
    "import { S } from './m00';\nimport { model } from 'mongoose';\nmodel('W', S);\nexport { S };\n",
    "export * from './m00';\n",  # a barrel: read without parsing
    "const db = require('knex')({});\n",
    "exports.up = (knex) => knex.raw('CREATE TABLE r1 (id int); DROP TABLE t1');\n",  # an ORM imported: a finding unless its tables are
    "export { S as T } from './m01';\n",
    "import { Entity, ManyToMany, JoinTable } from 'typeorm';\nimport { T } from './m02';\n"
    "@Entity()\nexport class T {}\n@Entity()\nexport class U { @ManyToMany(() => T) @JoinTable() ts; }\n",
    # names from constants of another file; models made by a base class and a factory
    "export const Names = { a: 'n_a' };\nexport enum E { B = 'n_b' }\n",
    "const { Names, E } = require('./m00');\n"
    "exports.up = (k) => k.schema.createTable(Names.a).createTable(E.B);\n",
    "const mongoose = require('mongoose');\nclass Base { constructor() {"
    " this.m = mongoose.model(this.getName(), new mongoose.Schema({})); } }\n"
    "module.exports = Base;\n",
    "const Base = require('./m01');\nclass Pet extends Base { getName() { return 'Pet'; } }\n",
    "const { model } = require('mongoose');\nfunction make(n) { return model(n, {}); }\n"
    "module.exports = make;\n",
    "const make = require('./m02');\nmake('Dog');\n",
    # ORMs the reader does not read (`UNREAD_ORMS`): named, type-only imports only if alone
    "import { pgTable } from 'drizzle-orm/pg-core';\nexport const t = pgTable('t', {});\n",
    "import type { Kysely } from 'kysely';\n",
    "const { Model } = require('objection');\nconst k = await import('kysely');\n",
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


def test_table_names_imported_from_modules_and_workspace_packages(
    document: dict[str, Any],
) -> None:
    """A table or collection named by a constant of another module, resolved by the routes
    reader's module resolver: a workspace package by its `package.json` name (its `main` is
    build output, its source found through `types`), through `export *` and `export { A as B }`
    re-exports, a namespace import, a CommonJS `require(…).X`, a tsconfig `paths` alias; a TS
    `enum` member, an `as const` object's nested member, a `module.exports` object's member.
    A rename follows the constants too; a name from a package the repository does not hold,
    or an enum member that is a number, is a finding at its call. A knex column named by such
    a constant is a column (its `pii` signal too)."""
    assert sorted(_named(document, "imported-names/")) == [
        ("collection", "evt_stream", 5),
        ("table", "acct_accounts", 7),
        ("table", "acct_ledger", 8),
        ("table", "audit_trail", 10),
        ("table", "new_things", 6),
        ("table", "rpt_reports", 4),
        ("table", "web_sessions", 7),
    ]
    flagged = sorted(
        (location["path"], location["line"])
        for finding in document["findings"]
        if finding["code"] == "UNRESOLVED_TABLE_NAME"
        for location in finding["locations"]
        if location["path"].startswith("imported-names/")
    )
    assert flagged == [
        ("imported-names/server/migrations/001_init.js", 14),  # `@acme/absent`: not the repo's
        ("imported-names/server/migrations/002_rename.ts", 9),  # `TableName.Counter`: a number
    ]
    signals = {s["resource"]: s["value"] for s in document["classificationSignals"]}
    assert signals["table:audit_trail"] == "caller_phone"  # `t.string(Audit.trail.phone)`


def test_mongoose_models_made_by_the_projects_own_classes_and_factories(
    document: dict[str, Any],
) -> None:
    """Collections named through the project's own code (checked against mongoose 8 itself:
    `modelNames()` and `.collection.name` after loading and instantiating the fixture): a base
    constructor hands `this.label` (set from an overridden method) to a helper that a third
    module sets as the application object's attribute, which calls `model(label, s, label)`; a
    deeper subclass overrides again; `this.name = this.getName()` then `model(this.name, …)`
    in an abstract TypeScript base, the subclass imported under another name; ES5
    `util.inherits` with `Base.call(this)` and a prototype method; a factory function (a
    default `require`, an aliased named import), a constructor's parameter given by `new` and by
    `super(…)`; a bare `require('models/entity')` under the folder the app sets as
    `process.env.NODE_PATH` (the module resolver's `node_paths`). A template nothing names,
    and a subclass of a template class whose module is not found, are findings at their
    place, and so is a subclass whose overriding method computes the name."""
    assert sorted(_named(document, "made-models/")) == [
        ("collection", "audits", 4),
        ("collection", "billing_invoice", 5),
        ("collection", "boxes", 10),
        ("collection", "couriers", 5),
        ("collection", "credit_notes_v2", 5),
        ("collection", "ext_records", 5),  # `require('models/entity')` under the NODE_PATH set
        ("collection", "kittens", 4),
        ("collection", "ledgers", 8),
        ("collection", "mice", 5),
        ("collection", "tags", 3),
    ]
    flagged = sorted(
        (location["path"], location["line"])
        for finding in document["findings"]
        if finding["code"] == "UNRESOLVED_TABLE_NAME"
        for location in finding["locations"]
        if location["path"].startswith("made-models/")
    )
    assert flagged == [
        ("made-models/factory/define.ts", 16),  # `orphan(label)`: never called
        ("made-models/models/dynamic-invoice.js", 6),  # a subclass computes the name
        ("made-models/plugins/ext.js", 4),  # extends `Entity` from a module not found
    ]


def test_sequelize_options_spread_from_out_of_sight_flag_every_default_name(
    tmp_path: Path,
) -> None:
    """`new Sequelize(db, user, pw, { ...settings.options, logging: false })`: a `define` with
    `freezeTableName` or `underscored` may be in the spread object, which names every model
    whose own options say nothing; where that object is out of sight (a package's) each such
    model is a finding, beside the default name (a model with its own `tableName` or
    `freezeTableName` is not); where the project's module holds it, its `define` names them
    (`test_pack_js_tables_spread_options`)."""
    files = {
        "store/connect.js": (
            "const Sequelize = require('sequelize');\n"
            "const settings = require('@shop/settings');\n"
            "module.exports = new Sequelize('shop', 'u', 'p', { ...settings.options, logging: false });\n"
        ),
        "settings.js": "module.exports = { options: { define: { freezeTableName: true } } };\n",
        "store/parcel.js": (
            "module.exports = (sequelize, DataTypes) =>\n"
            "  sequelize.define('parcel', { weight: DataTypes.INTEGER });\n"
        ),
        "store/crate.js": (
            "module.exports = (sequelize, DataTypes) =>\n"
            "  sequelize.define('crate', { size: DataTypes.INTEGER }, { tableName: 'crates_v2' });\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    document, _, _ = _scan(tmp_path)
    assert {r["name"] for r in document["resources"]} == {"parcels", "crates_v2"}
    flagged = [(f["code"], loc["path"]) for f in document["findings"] for loc in f["locations"]]
    assert flagged == [("UNRESOLVED_TABLE_NAME", "store/parcel.js")]
    (tmp_path / "store/connect.js").write_text(
        files["store/connect.js"].replace("'@shop/settings'", "'../settings'")
    )
    document, _, _ = _scan(tmp_path)
    assert {r["name"] for r in document["resources"]} == {"parcel", "crates_v2"}
    assert document["findings"] == []
