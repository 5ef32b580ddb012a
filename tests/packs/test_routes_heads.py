"""`packs.routes.heads`: the literal strings every match of a pattern starts with, looked for
(`in` scans) before the pattern is searched, and held to the plain search."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import auth, django_facts
from packs.routes import heads as module
from packs.routes.heads import search_gated


@pytest.mark.parametrize(
    ("part", "heads"),
    [
        (r"\b40[13]\b", ["401", "403"]),  # a small class spelt out
        (r"\bg\.get\([\"']user", ['g.get("user', "g.get('user"]),  # escapes inside a class
        (r"ab?c", ["a"]),  # an atom that may be absent ends the head before it
        (r"ab+c", ["ab"]),  # one that repeats ends it after itself
        (r"ab{2}", ["a"]),
        (r"\wfoo", []),  # a set of characters first: no known start
        (r"[^a]b", []),
        (r"a(b|c)d", ["a"]),
        (r"x|y", []),  # an alternation of its own
    ],
)
def test_the_heads_of_a_pattern_part_are_what_every_match_starts_with(
    part: str, heads: list[str]
) -> None:
    assert module._part_heads(part) == heads
    assert module.literal_heads((part, r"\bzz\b")) == (
        tuple(sorted({*heads, "zz"})) if heads else ()
    )


def test_the_evidence_searched_by_its_heads_first_is_the_evidence_searched_plainly() -> None:
    """`heads.search_gated` looks for the literal heads of the evidence and user-check patterns
    (the route reader's and the Django reader's) before searching: most files hold none.
    Property, over texts made of the patterns' own pieces and near misses: it answers what the
    plain search answers, and a text holding no head is never searched."""
    assert "401" in auth.PYTHON_EVIDENCE_HEADS and "g.get(" not in auth.PYTHON_EVIDENCE_HEADS
    pieces = ["401", "40", "1", "3", "403", "HTTP_40", "HTTP_403_", "Unauthorized", "Forbidden",
              "Forbid", "is_authenticated", "is_anonymous", "is_", "g.user is None", "not g.user",
              "not ", "g.", "g.get('user') is None", 'g.get("user\') is None', "g.get(",
              "not current_user", "current_user is None", "not session.get('user", "é", " ",
              "request.user", "request.", "user", "PermissionDenied", "status=403", "status=",
              "redirect_to_login", "HttpResponseForbidden", "NotAuthenticated", "login",
              "\n", "x", "_", "(", ")", "'", '"']  # fmt: skip
    chooser = random.Random(34)
    searched = 0
    for _ in range(2_000):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(0, 14)))
        for pattern, heads in (
            (auth.PYTHON_EVIDENCE, auth.PYTHON_EVIDENCE_HEADS),
            (auth.PYTHON_USER_CHECK, auth.PYTHON_USER_CHECK_HEADS),
            (django_facts._USER_CHECK, django_facts._USER_HEADS),
        ):
            found = pattern.search(text) is not None
            assert search_gated(pattern, heads, text) == found, (text, pattern.pattern)
            if found:
                searched += 1
                assert any(head in text for head in heads)
    assert searched > 200  # the pieces do make matches
