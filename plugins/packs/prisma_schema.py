"""The tables of a Prisma schema (`schema.prisma`), read line by line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .scan_read import ParseFailure

_PRISMA_BLOCK = re.compile(r"^\s*(model|enum|type|view|datasource|generator)\s+(\w+)\s*\{")
_PRISMA_MAP = re.compile(r"""^\s*@@map\(\s*(?:name\s*:\s*)?"([^"]*)"\s*\)""")
_PRISMA_FIELD = re.compile(r"^\s*(\w+)\s+(\w+)(\(.*?\))?(\[\])?(\?)?(.*)$")
_PRISMA_FIELD_MAP = re.compile(r"""@map\(\s*(?:name\s*:\s*)?"([^"]*)"\s*\)""")
_PRISMA_RELATION = re.compile(r"""@relation\(([^)]*)\)""")
_PRISMA_RELATION_NAME = re.compile(r'^\s*"([^"]*)"|\bname\s*:\s*"([^"]*)"')


@dataclass(frozen=True)
class ListField:
    """A list field typed by another block (`tags Tag[]`, maybe a model of another file of the
    schema): one side of a relation, many-to-many when the other side is a list too and
    neither side holds the foreign key (`@relation(fields: …)`)."""

    name: str
    type: str
    relation: str | None  # `@relation("Name")` / `@relation(name: "Name")`
    keyed: bool  # `fields:` given (an explicit relation, never a table of Prisma's)
    line: int


@dataclass(frozen=True)
class PrismaModel:
    table: str  # `@@map`'s name, else the model's
    line: int
    model: str
    columns: tuple[str, ...]
    lists: tuple[ListField, ...] = ()


def prisma_models(source: str) -> tuple[PrismaModel, ...]:
    """`model` blocks of a Prisma schema: the table `@@map` names, else the model's name; its
    columns the fields that are not relations (a field typed by another model of the file).
    Comments (`//`) are dropped first; a block left open is a parse error."""
    lines = [re.sub(r"//.*$", "", line) for line in source.splitlines()]
    models = {
        m.group(2) for line in lines if (m := _PRISMA_BLOCK.match(line)) and m.group(1) == "model"
    }
    claims: list[PrismaModel] = []
    block: tuple[str, str, int] | None = None
    mapped: str | None = None
    columns: list[str] = []
    lists: list[ListField] = []
    for number, line in enumerate(lines, 1):
        if block is None:
            opened = _PRISMA_BLOCK.match(line)
            if opened is not None and "}" in line[opened.end() :]:  # `model A {}` on one line
                if opened.group(1) == "model":
                    claims.append(PrismaModel(opened.group(2), number, opened.group(2), ()))
            elif opened is not None:
                block, mapped, columns = (opened.group(1), opened.group(2), number), None, []
                lists = []
            continue
        if line.strip() == "}":
            kind, name, start = block
            if kind == "model":
                claims.append(
                    PrismaModel(mapped or name, start, name, tuple(columns), tuple(lists))
                )
            block = None
            continue
        if block[0] != "model":
            continue
        if (table := _PRISMA_MAP.match(line)) is not None:
            mapped = table.group(1)
            continue
        field = _PRISMA_FIELD.match(line)
        if field is None or line.strip().startswith("@@"):
            continue
        if field.group(4) and field.group(2)[:1].isupper():  # `Tag[]`: a relation's side
            lists.append(_list_field(field.group(1), field.group(2), field.group(6), number))
        if field.group(2) in models or field.group(4):  # a relation, or a list (not a column)
            continue
        column = _PRISMA_FIELD_MAP.search(field.group(6) or "")
        columns.append(column.group(1) if column else field.group(1))
    if block is not None:
        raise ParseFailure(block[2], f"{block[0]} {block[1]} is not closed")
    return tuple(claims)


def _list_field(name: str, type_: str, rest: str, line: int) -> ListField:
    relation = _PRISMA_RELATION.search(rest or "")
    if relation is None:
        return ListField(name, type_, None, False, line)
    arguments = relation.group(1)
    named = _PRISMA_RELATION_NAME.search(arguments)
    label = (named.group(1) or named.group(2)) if named else None
    return ListField(name, type_, label, "fields" in arguments, line)


def implicit_relation_tables(
    models: dict[str, tuple[str, PrismaModel]],
) -> list[tuple[str, str, int, tuple[str, str]]]:
    """The tables Prisma makes for implicit many-to-many relations among one schema's models
    (`models`: model name -> (file, model)): two list fields that point at each other's model
    under one relation name, neither holding `fields:`. The table is `_<relation name>`, the
    default name being the two model names sorted and joined by `To` (`_CategoryToPost`).
    Each is (table, file, line of the first side, (model, other model))."""
    sides: dict[tuple[str, frozenset[str]], list[tuple[str, ListField]]] = {}
    for model_name, (_, model) in models.items():
        for field in model.lists:
            if field.type not in models:
                continue
            pair = frozenset((model_name, field.type))
            label = field.relation or "To".join(sorted((model_name, field.type)))
            sides.setdefault((label, pair), []).append((model_name, field))
    tables: list[tuple[str, str, int, tuple[str, str]]] = []
    for (label, pair), fields in sides.items():
        if len(fields) != 2 or any(f.keyed for _, f in fields):
            continue
        (first, side), (second, _) = sorted(fields, key=lambda item: (item[0], item[1].name))
        if len(pair) == 2 and first == second:
            continue  # two lists of one model pointing at the other: not two sides of one
        tables.append((f"_{label}", models[first][0], side.line, (first, second)))
    return sorted(tables)
