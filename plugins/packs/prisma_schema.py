"""The tables of a Prisma schema (`schema.prisma`), read line by line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .scan import ParseFailure

_PRISMA_BLOCK = re.compile(r"^\s*(model|enum|type|view|datasource|generator)\s+(\w+)\s*\{")
_PRISMA_MAP = re.compile(r"""^\s*@@map\(\s*(?:name\s*:\s*)?"([^"]*)"\s*\)""")
_PRISMA_FIELD = re.compile(r"^\s*(\w+)\s+(\w+)(\(.*?\))?(\[\])?(\?)?(.*)$")
_PRISMA_FIELD_MAP = re.compile(r"""@map\(\s*(?:name\s*:\s*)?"([^"]*)"\s*\)""")


@dataclass(frozen=True)
class PrismaModel:
    table: str  # `@@map`'s name, else the model's
    line: int
    model: str
    columns: tuple[str, ...]


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
    for number, line in enumerate(lines, 1):
        if block is None:
            opened = _PRISMA_BLOCK.match(line)
            if opened is not None and "}" in line[opened.end() :]:  # `model A {}` on one line
                if opened.group(1) == "model":
                    claims.append(PrismaModel(opened.group(2), number, opened.group(2), ()))
            elif opened is not None:
                block, mapped, columns = (opened.group(1), opened.group(2), number), None, []
            continue
        if line.strip() == "}":
            kind, name, start = block
            if kind == "model":
                claims.append(PrismaModel(mapped or name, start, name, tuple(columns)))
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
        if field.group(2) in models or field.group(4):  # a relation, or a list (not a column)
            continue
        column = _PRISMA_FIELD_MAP.search(field.group(6) or "")
        columns.append(column.group(1) if column else field.group(1))
    if block is not None:
        raise ParseFailure(block[2], f"{block[0]} {block[1]} is not closed")
    return tuple(claims)
