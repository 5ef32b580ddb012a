"""`bench/real_repos.py`'s name normalisation: a pack and a runtime truth that spell one route
differently must meet, or the bench reports a miss the pack did not make."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO))  # bench/ holds tools, not an installed package
from bench.real_repos import normalise


@pytest.mark.parametrize(
    ("truth", "pack"),
    [
        ("get /users/<int:id>", "GET /users/{id}"),
        ("GET /files/{rest:path}", "GET /files/{rest}"),
        ("GET /u/:id(\\d+)/:page?", "GET /u/{id}/{page}"),
        ("GET /statements/:statementId.:format", "GET /statements/{statementId}.{format}"),
    ],
)
def test_the_spellings_of_one_route_meet(truth: str, pack: str) -> None:
    assert normalise("route", truth) == normalise("route", pack)


def test_a_colon_inside_a_segment_is_no_parameter() -> None:
    assert normalise("route", "GET /v1/items:batchGet") == "GET /v1/items:batchGet"
    assert normalise("table", "a.:b") == "a.:b"
