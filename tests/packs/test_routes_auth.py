"""`packs.routes.auth`: what counts as a guard. Library members by their import, and the
evidence patterns, rewritten to search fast, finding exactly what their plain alternation finds."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import auth
from packs.routes.auth import NONE, REQUIRED, UNKNOWN, external_verdict
from packs.routes.frameworks import PYTHON


@pytest.mark.parametrize(
    ("module", "path", "verdict"),
    [
        ("fastapi.security", ("OAuth2PasswordBearer", "()"), REQUIRED),
        ("fastapi.security.oauth2", ("OAuth2PasswordBearer", "()"), REQUIRED),
        ("fastapi.security", ("OAuth2PasswordRequestForm",), NONE),
        ("fastapi", ("Security",), REQUIRED),
        ("flask_login", ("login_required",), REQUIRED),
        ("flask_jwt_extended", ("jwt_required", "()"), REQUIRED),
        ("flask_httpauth", ("HTTPBasicAuth", "()", "login_required"), REQUIRED),
        ("passport", ("authenticate", "()"), REQUIRED),
        ("passport", ("initialize", "()"), UNKNOWN),
        ("express-jwt", ("expressjwt", "()"), REQUIRED),
        ("express-rate-limit", ("()",), NONE),
        ("express", ("json", "()"), NONE),
        ("some-auth-lib", ("requireAuth",), UNKNOWN),
        ("flask_caching", ("Cache", "()", "cached", "()"), NONE),
    ],
)
def test_library_members_by_import(module: str, path: tuple[str, ...], verdict: int) -> None:
    assert external_verdict(module, path) == verdict


def test_the_evidence_patterns_find_what_their_plain_alternation_finds() -> None:
    """`auth.word_alternation` moves each part's leading `\\b` behind its first character (a
    literal start lets `re` skip to candidate positions: the evidence search ran longer than
    `ast.parse` of the file); the matches are the plain alternation's, at word edges and
    elsewhere, in text and in bytes."""
    parts = (r"\b40[13]\b", r"\bUnauthorized\b", r"\bis_authenticated\b", r"HTTP_40[13]_",
             r"\bg\.user is None\b", *(p for f in PYTHON for p in f.evidence))  # fmt: skip
    plain, fast = re.compile("|".join(parts)), re.compile(auth.word_alternation(parts))
    assert fast.pattern != plain.pattern and "\\b4" not in fast.pattern
    pieces = ["401", "403", "4013", "x401", "_403", " ", "\n", "Unauthorized", "aUnauthorized",
              "is_authenticated", "is_authenticatedX", "g.user is None", "bg.user is None",
              "HTTP_401_", "é401", "(", "not current_user", "1"]  # fmt: skip
    chooser = random.Random(34)
    for _ in range(300):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 12)))
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
        data = text.encode()
        fast_b, plain_b = re.compile(fast.pattern.encode()), re.compile(plain.pattern.encode())
        assert [m.span() for m in fast_b.finditer(data)] == [
            m.span() for m in plain_b.finditer(data)
        ]
    for pattern in (auth.PYTHON_EVIDENCE, auth.PYTHON_USER_CHECK, auth.JS_EVIDENCE):
        source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode()
        assert "|\\b" not in source and not source.startswith("\\b")  # every part rewritten
