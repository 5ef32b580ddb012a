"""pack-js-tables: TypeORM junction tables of members a class inherits or declares outside an
`@Entity()` class body (`js_tables.TypeormClass`, `_Lineage`).

TypeORM gives an entity the relations of every class it extends, so an `@ManyToMany` +
`@JoinTable` member makes one junction per table-owning entity holding it: a
`@ChildEntity()` (single-table inheritance: no table of its own) names its junctions from the
table of the entity at its root, an undecorated base's member is each extending entity's, an
entity extending an entity has its own copy. A `name` given is one table whoever holds it. The
expected names are those TypeORM 0.3.28's `DataSource.buildMetadatas()` gave for the same
classes, written as plain JavaScript calls of its decorators."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs import js_tables
from tables_harness import js_tables_document

# Single-table inheritance: members keep a table of people; staff are members; both add junctions.
STI: dict[str, str] = {
    "people/person.entity.ts": (
        "import { Entity, PrimaryGeneratedColumn, TableInheritance } from 'typeorm';\n"
        "@Entity({ name: 'people' })\n"
        "@TableInheritance({ column: { type: 'varchar', name: 'kind' } })\n"
        "export class Person<T = unknown> { @PrimaryGeneratedColumn() id: number; }\n"
    ),
    "people/member.entity.ts": (
        "import { ChildEntity, JoinTable, ManyToMany } from 'typeorm';\n"
        "import { Person } from './person.entity';\n"
        "import { Badge } from '../badge.entity';\n"
        "@ChildEntity()\n"
        "export class Member<T = unknown> extends Person<T> {\n"
        "  @ManyToMany(() => Badge)\n"
        "  @JoinTable({ name: 'member_badges' })\n"
        "  badges: Badge[];\n"
        "  @ManyToMany(() => Badge) @JoinTable() pins: Badge[];\n"
        "}\n"
    ),
    "people/staff.entity.ts": (
        "import { ChildEntity, JoinTable, ManyToMany } from 'typeorm';\n"
        "import { Member } from './member.entity';\n"
        "import { Badge } from '../badge.entity';\n"
        "@ChildEntity('staff')\n"
        "export class Staff extends Member<string> {\n"
        "  @ManyToMany(() => Badge) @JoinTable() grants: Badge[];\n"
        "}\n"
    ),
    "badge.entity.ts": (
        "import { Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';\n"
        "import { Staff } from './people/staff.entity';\n"
        "@Entity()\n"
        "export class Badge {\n"
        "  @PrimaryGeneratedColumn() id: number;\n"
        "  @ManyToMany(() => Staff) @JoinTable() issuers: Staff[];\n"  # a child as the target
        "}\n"
    ),
}

# An undecorated base holding junction members, two entities extending it (one through an
# import, one in its own file, one named), and an entity extending an entity.
BASES: dict[str, str] = {
    "docs/labelled.ts": (
        "import { JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';\n"
        "import { Label } from './label.entity';\n"
        "export abstract class Labelled {\n"
        "  @PrimaryGeneratedColumn() id: number;\n"
        "  @ManyToMany(() => Label) @JoinTable() labels: Label[];\n"
        "  @ManyToMany(() => Label) @JoinTable({ name: 'pinned_labels' }) pinned: Label[];\n"
        "}\n"
    ),
    "docs/note.entity.ts": (
        "import { Entity } from 'typeorm';\n"
        "import { Labelled } from './labelled';\n"
        "@Entity('notes')\n"
        "export class Note extends Labelled {}\n"
    ),
    "docs/label.entity.ts": (
        "import { Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';\n"
        "@Entity()\n"
        "export class Label {\n"
        "  @PrimaryGeneratedColumn() id: number;\n"
        "  @ManyToMany(() => Label) @JoinTable() related: Label[];\n"
        "}\n"
        "@Entity()\n"
        "export class Tag extends Label {}\n"  # an entity extending an entity: its own copy
    ),
}


def _scan(root: Path, files: dict[str, str]) -> dict[str, Any]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return js_tables_document(root)


def _tables(document: dict[str, Any]) -> set[tuple[str, str, int]]:
    return {
        (r["name"], r["location"]["path"], r["location"]["line"]) for r in document["resources"]
    }


def test_child_entity_junctions_are_named_from_the_root_s_table(tmp_path: Path) -> None:
    document = _scan(tmp_path, STI)
    assert _tables(document) == {
        ("people", "people/person.entity.ts", 2),  # the children add no table
        ("badge", "badge.entity.ts", 3),
        ("member_badges", "people/member.entity.ts", 7),
        ("people_pins_badge", "people/member.entity.ts", 9),
        ("people_grants_badge", "people/staff.entity.ts", 6),  # a child of a child
        ("badge_issuers_people", "badge.entity.ts", 6),  # a child's table is its root's
    }
    assert document["findings"] == []


def test_a_base_s_junction_members_are_each_extending_entity_s(tmp_path: Path) -> None:
    document = _scan(tmp_path, BASES)
    assert _tables(document) == {
        ("notes", "docs/note.entity.ts", 3),
        ("label", "docs/label.entity.ts", 2),
        ("tag", "docs/label.entity.ts", 7),
        ("notes_labels_label", "docs/labelled.ts", 5),
        ("pinned_labels", "docs/labelled.ts", 6),  # named: one table, whoever holds it
        ("label_related_label", "docs/label.entity.ts", 5),
        ("tag_related_label", "docs/label.entity.ts", 5),
    }
    assert document["findings"] == []


def test_a_holder_not_read_is_a_finding_at_the_join_table(tmp_path: Path) -> None:
    files = {
        "orphan.ts": (  # a base no entity of the scan extends
            "import { JoinTable, ManyToMany } from 'typeorm';\n"
            "import { Label } from './label';\n"
            "export class Orphan { @ManyToMany(() => Label) @JoinTable() labels: Label[]; }\n"
        ),
        "mixed.ts": (  # a child extending what the reader cannot name
            "import { ChildEntity, JoinTable, ManyToMany } from 'typeorm';\n"
            "import { Label } from './label';\n"
            "import { withAudit } from './audit';\n"
            "@ChildEntity()\n"
            "export class Mixed extends withAudit(Object) {\n"
            "  @ManyToMany(() => Label) @JoinTable() labels: Label[];\n"
            "  @ManyToMany(() => Label) @JoinTable({ name: 'mixed_tags' }) tags: Label[];\n"
            "}\n"
        ),
        "label.ts": "import { Entity } from 'typeorm';\n@Entity()\nexport class Label {}\n",
    }
    document = _scan(tmp_path, files)
    assert _tables(document) == {("label", "label.ts", 2), ("mixed_tags", "mixed.ts", 7)}
    flagged = {
        (place["path"], place["line"], finding["detail"].rpartition(": ")[2])
        for finding in document["findings"]
        for place in finding["locations"]
    }
    assert flagged == {
        ("orphan.ts", 3, "no entity extending its class is read"),
        ("mixed.ts", 6, "the table of the entity it extends is not read"),
    }


def test_a_file_holding_only_a_junction_base_is_admitted() -> None:
    data = BASES["docs/labelled.ts"].encode()
    assert b"Entity" not in data
    assert js_tables.admits("docs/labelled.ts", data)
