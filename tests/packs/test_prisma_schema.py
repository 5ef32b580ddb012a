"""`packs.prisma_schema`: a Prisma schema's `model` blocks as tables, and the join tables Prisma
makes for implicit many-to-many relations, read without Prisma."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.prisma_schema import ListField, PrismaModel, implicit_relation_tables, prisma_models
from packs.scan_read import ParseFailure

SCHEMA = """\
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

// model Ghost { id Int @id }  -- a comment, not a model
enum Role {
  USER
  ADMIN
}

model User {
  id        Int      @id @default(autoincrement())
  email     String   @unique @map("email_address")
  role      Role     @default(USER)
  profile   Profile?
  posts     Post[]
  createdAt DateTime @default(now()) // trailing comment
  @@map("users")
}

model Profile {
  id     Int  @id
  user   User @relation(fields: [userId], references: [id])
  userId Int  @unique
  @@map(name: "profiles")
}

model Post {
  id         Int        @id
  author     User       @relation(fields: [authorId], references: [id])
  authorId   Int
  categories Category[]
  tags       Tag[]      @relation("PostTags")
  @@index([authorId])
}

model Category {
  id    Int    @id
  posts Post[]
}

model Tag {
  id    Int    @id
  posts Post[] @relation(name: "PostTags")
}

model Empty {}
"""


def by_model(source: str) -> dict[str, PrismaModel]:
    return {model.model: model for model in prisma_models(source)}


def test_each_model_is_a_table_named_by_its_map_else_by_its_name() -> None:
    models = prisma_models(SCHEMA)
    assert [(m.model, m.table, m.line) for m in models] == [
        ("User", "users", 12),
        ("Profile", "profiles", 22),
        ("Post", "Post", 29),
        ("Category", "Category", 38),
        ("Tag", "Tag", 43),
        ("Empty", "Empty", 48),
    ]  # no enum, datasource or commented-out model


def test_columns_are_the_fields_that_are_not_relations_with_their_mapped_names() -> None:
    models = by_model(SCHEMA)
    # `role` is typed by an enum: a column; `profile`, `posts` point at models: not columns
    assert models["User"].columns == ("id", "email_address", "role", "createdAt")
    assert models["Profile"].columns == ("id", "userId")
    assert models["Post"].columns == ("id", "authorId")
    assert models["Empty"].columns == ()


def test_list_fields_keep_their_relation_name_and_whether_they_hold_the_key() -> None:
    models = by_model(SCHEMA)
    assert models["Post"].lists == (
        ListField("categories", "Category", None, False, 33),
        ListField("tags", "Tag", "PostTags", False, 34),
    )
    assert models["Tag"].lists == (ListField("posts", "Post", "PostTags", False, 45),)
    keyed = by_model(
        'model A {\n  id Int @id\n  bs B[] @relation("AB", fields: [id], references: [id])\n}\n'
        "model B {\n  id Int @id\n}\n"
    )
    assert keyed["A"].lists == (ListField("bs", "B", "AB", True, 3),)


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("model User {\n  id Int @id\n", 1, "model User is not closed"),
        ("model A {\n  id Int\n}\nenum Kind {\n  X\n", 4, "enum Kind is not closed"),
    ],
)
def test_a_block_left_open_is_a_parse_failure_at_its_line(
    source: str, line: int, message: str
) -> None:
    with pytest.raises(ParseFailure) as failure:
        prisma_models(source)
    assert (failure.value.line, failure.value.message) == (line, message)


def test_implicit_many_to_many_relations_get_prismas_join_tables() -> None:
    """Two list sides, no `fields:` on either: `_<A>To<B>` (names sorted) or `_<relation name>`;
    the one-to-many `User.posts`/`Post.author` makes none."""
    models = {model.model: ("schema.prisma", model) for model in prisma_models(SCHEMA)}
    assert implicit_relation_tables(models) == [
        ("_CategoryToPost", "schema.prisma", 40, ("Category", "Post")),
        ("_PostTags", "schema.prisma", 34, ("Post", "Tag")),
    ]


def test_a_side_holding_the_key_or_a_model_of_no_schema_makes_no_join_table() -> None:
    source = (
        'model A {\n  id Int @id\n  bs B[] @relation("AB", fields: [id], references: [id])\n'
        '  cs C[]\n}\nmodel B {\n  id Int @id\n  as A[] @relation("AB")\n}\n'
    )
    models = {model.model: ("s.prisma", model) for model in prisma_models(source)}
    assert implicit_relation_tables(models) == []  # keyed; `C` is no model here


def test_a_self_relation_is_one_join_table_and_models_across_files_pair_up() -> None:
    follows = prisma_models(
        "model User {\n  id Int @id\n"
        '  followers User[] @relation("follows")\n  following User[] @relation("follows")\n}\n'
    )
    models = {model.model: ("users.prisma", model) for model in follows}
    assert implicit_relation_tables(models) == [("_follows", "users.prisma", 3, ("User", "User"))]
    (post,) = prisma_models("model Post {\n  id Int @id\n  tags Tag[]\n}\n")
    (tag,) = prisma_models("model Tag {\n  id Int @id\n  posts Post[]\n}\n")
    split = {"Post": ("a/post.prisma", post), "Tag": ("b/tag.prisma", tag)}
    assert implicit_relation_tables(split) == [("_PostToTag", "a/post.prisma", 3, ("Post", "Tag"))]
