"""`packs.js_naming` against the npm packages it ports: inflection 1.12.0 and 1.13.4 (Sequelize's
plurals and `underscored`), mongoose-legacy-pluralize (Mongoose before 6) and the pinned Mongoose's
own `pluralize` (the newest rule set), run once over a few thousand generated names.

The names are built from the endings the rules look at, so each rule (and the order between
rules) is reached many times; `make install` installs the packages (tests/reference/node)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.js_naming import (
    _INFLECTION_UNCOUNTABLE,
    _MONGOOSE_UNCOUNTABLE,
    MONGOOSE_VERSIONS,
    pluralize_inflection,
    pluralize_mongoose,
    underscore,
)

REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "node"
_STEMS = ("", "a", "b", "user", "Blog", "api", "Order", "qu", "x", "sh", "e", "wo", "Data", "i")
_ENDINGS = (
    "man", "woman", "person", "people", "child", "children", "ox", "oxen", "axis", "test",
    "testis", "octopus", "virus", "cactus", "focus", "fungus", "nucleus", "alias", "status",
    "campus", "canvas", "bus", "buses", "tomato", "potato", "buffalo", "hero", "ium", "um", "ia",
    "sis", "ses", "analysis", "life", "wife", "knife", "half", "wolf", "calf", "safe", "hive",
    "hives", "y", "ay", "quy", "ies", "series", "movie", "movies", "x", "ch", "ss", "sh",
    "matrix", "vertex", "index", "ex", "mouse", "louse", "mice", "quiz", "quizzes", "s", "es",
    "shoe", "shoes", "crisis", "goose", "geese", "human", "foot", "feet", "tooth", "criterion",
    "criteria", "genus", "genera", "whereas", "summons", "bonus", "database", "databases",
    "drive", "drives", "tive", "ive", "eve", "ove", "ve", "ves", "o", "oes", "1", "_", "Key",
    "ID", "Status", "Y", "Ox", "Man", "",
)  # fmt: skip


def _names() -> list[str]:
    chooser = random.Random(36)
    names = {stem + ending for stem in _STEMS for ending in _ENDINGS}
    names |= set(_INFLECTION_UNCOUNTABLE) | set(_MONGOOSE_UNCOUNTABLE) | {"grammar", "Grammar"}
    for _ in range(1500):
        parts = [chooser.choice(_STEMS).capitalize(), chooser.choice(_ENDINGS)]
        if chooser.random() < 0.5:
            parts[1] = parts[1].capitalize()
        if chooser.random() < 0.2:
            parts[1] = parts[1].upper()
        names.add("".join(parts))
    return sorted(n for n in names if n)


@cache
def _reference() -> tuple[list[str], list[dict[str, str]], str]:
    node = shutil.which("node")
    if node is None or not (REFERENCE / "node_modules").is_dir():
        pytest.fail(f"{REFERENCE}/node_modules is missing: run `make install`")
    names = _names()
    ran = subprocess.run(
        [node, str(REFERENCE / "plurals.js")],
        input=json.dumps(names),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer: dict[str, Any] = json.loads(ran.stdout)
    return names, answer["names"], answer["mongoose"]


def _differences(column: str, port: Any) -> list[tuple[str, str, str]]:
    names, reference, _ = _reference()
    return [
        (name, row[column], mine)
        for name, row in zip(names, reference, strict=True)
        if (mine := port(name)) != row[column]
    ]


@pytest.mark.parametrize(("column", "version"), [("inflection_1_12", 0), ("inflection_1_13", 1)])
def test_sequelize_plurals_are_inflections(column: str, version: int) -> None:
    assert _differences(column, lambda n: pluralize_inflection(n, version)) == []


def test_sequelize_underscored_names_are_inflections() -> None:
    assert _differences("underscore", underscore) == []


def test_mongoose_5_collection_names_are_mongoose_legacy_pluralizes() -> None:
    assert _differences("mongoose_legacy", lambda n: pluralize_mongoose(n, 0)) == []


def test_the_newest_mongoose_collection_names_are_the_pinned_mongooses() -> None:
    major = int(_reference()[2].split(".")[0])
    era = max(i for i, first in enumerate(MONGOOSE_VERSIONS) if first[:1] <= (major,))
    assert era == len(MONGOOSE_VERSIONS) - 1
    assert _differences("mongoose", pluralize_mongoose) == []
