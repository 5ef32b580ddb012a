"""`parse_python` feeds `ast.parse` bytes when that cannot change the result: the same tree and
the same errors as `ast.parse` of the str, whatever the text."""

from __future__ import annotations

import ast
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.pyparse import parse_python

SOURCES = [
    "x = 1\n",
    "",
    "# -*- coding: latin-1 -*-\nname = 'caf\\xe9'\n",  # a cookie: parsed as the str
    "# coding: utf-7\nprefix = '+AGE-'\n",  # ASCII whose bytes the cookie would decode as 'a'
    "#!/usr/bin/env python\n# vim: set fileencoding=ascii :\nx = 1\n",
    "prefix = '/caf\u00e9'\n",  # not ASCII: parsed as the str
    "def f(:\n    pass\n",
    "x = 1\ny = (\n",
    "a = 1\r\nb = 2\r\n",
]


def outcome(parse: object, source: str) -> str:
    assert callable(parse)
    try:
        return ast.dump(parse(source), include_attributes=True)
    except SyntaxError as exc:
        return f"SyntaxError {exc.lineno} {exc.msg}"
    except ValueError as exc:
        return f"ValueError {exc}"


@pytest.mark.parametrize("source", SOURCES)
def test_the_tree_and_the_error_are_those_of_ast_parse(source: str) -> None:
    expected = outcome(lambda s: ast.parse(s, filename="m.py"), source)
    assert outcome(lambda s: parse_python(s, "m.py"), source) == expected


def test_a_nul_byte_fails_as_ast_parse_fails() -> None:
    assert outcome(lambda s: parse_python(s, "m.py"), "x = 1\0\n") == outcome(
        lambda s: ast.parse(s, filename="m.py"), "x = 1\0\n"
    )
