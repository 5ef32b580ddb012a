"""`packs.routes.model`: the facts the route readers hand the linker are values that cross
`fan_out`'s workers by pickle; each pickles as its class and its fields (half the cost of the
dataclass default, on the hundreds of thousands of facts of a cold discover) and comes back
equal."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes import SUFFIXES, extract, model
from packs.routes.model import Items, Lit, LoopKey, ModuleFacts, Sym

FIXTURES = REPO / "tests" / "fixtures" / "repos"


def fact_classes() -> list[type]:
    return [
        cls
        for cls in vars(model).values()
        if inspect.isclass(cls) and dataclasses.is_dataclass(cls)
    ]


@pytest.mark.parametrize("cls", fact_classes(), ids=lambda cls: cls.__name__)
def test_every_fact_class_pickles_by_its_fields(cls: type) -> None:
    """A class added to the model but not to `_pickled_by_fields` still pickles, slowly: the
    cost this registration halves comes back unnoticed (`LoopKey` had been left out)."""
    assert "__reduce__" in vars(cls), f"{cls.__name__} is not in _pickled_by_fields"


def test_a_value_reduces_to_its_class_and_fields_and_comes_back_equal() -> None:
    keyed = LoopKey(Sym(("TABLE",)), Sym(("PREFIX",)), ("path",), "lower")
    fields = (Sym(("TABLE",)), Sym(("PREFIX",)), ("path",), "lower", None, -1, False)
    assert keyed.__reduce__() == (LoopKey, fields)
    assert Lit("x").__reduce__() == (Lit, ("x",))  # one field: a one-tuple
    facts = ModuleFacts("javascript", bindings={"T": Items((Lit("/a"), keyed))})
    assert pickle.loads(pickle.dumps(facts)) == facts


@pytest.mark.parametrize(
    "repo",
    [
        "flask-app",
        "fastapi-app",
        "express-ts-app",
        "js-loops-koa",
        "koa-decorators",
        "js-dirloaders",
    ],
)
def test_the_facts_of_a_fixture_repository_cross_a_pickle_unchanged(repo: str) -> None:
    files = sorted(
        path
        for path in (FIXTURES / repo).rglob("*")
        if path.is_file() and path.name.endswith(SUFFIXES) and "node_modules" not in path.parts
    )
    assert files, repo
    for path in files:
        rel = path.relative_to(FIXTURES / repo).as_posix()
        facts = extract(rel, Path(path).read_text("utf-8"))
        assert pickle.loads(pickle.dumps(facts, pickle.HIGHEST_PROTOCOL)) == facts, rel
