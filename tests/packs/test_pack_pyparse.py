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


# ------------------------------------------------------------- syntax newer than the interpreter

NEWER = '''from fastapi import APIRouter
router = APIRouter(prefix="/v1")

def first[T: int, *Ts, **P](x: T) -> T: ...
class Box[T](Base): pass
type Alias = int
type Generic[T] = list[T]
label = f"{row["name"]} {'\\n'.join(rows)} {value!r:>{width}}"
multi = f"""{
  value  # a comment in a field
}"""

@router.get(f"/items/{"id"}")
def last(): ...
'''


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter reads 3.12 itself")
def test_python_312_syntax_is_read_on_its_own_lines() -> None:
    """PEP 695 generics and aliases and PEP 701 f-strings were `parse-error` under 3.11."""
    with pytest.raises(SyntaxError):
        ast.parse(NEWER)
    tree = parse_python(NEWER, "newer.py")
    assert [(type(n).__name__, n.lineno) for n in tree.body] == [
        ("ImportFrom", 1), ("Assign", 2), ("FunctionDef", 4), ("ClassDef", 5), ("Assign", 6),
        ("Assign", 7), ("Assign", 8), ("Assign", 9), ("FunctionDef", 14),
    ]  # fmt: skip
    names = [n.targets[0].id for n in tree.body if isinstance(n, ast.Assign)]  # type: ignore[attr-defined]
    assert names == ["router", "Alias", "Generic", "label", "multi"]
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)] == [
        "first", "Box", "last"]  # fmt: skip


BROKEN_FIELDS = """class Day:
    def __str__(self):
        return f"{
            self.trip.name} - {self.date}"

label = rf'{
  prefix!r:>{
  width}}'

class Stop:
    pass
"""


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter reads 3.12 itself")
def test_a_field_that_opens_a_line_in_a_one_line_f_string_is_read_on_its_own_lines() -> None:
    """PEP 701 lets a one-line f-string's field break lines anywhere, right after its `{` too
    (a model file lost every model to this): the field is blanked with its breaks escaped in
    the string, so every statement below keeps its line."""
    with pytest.raises(SyntaxError):
        ast.parse(BROKEN_FIELDS)
    tree = parse_python(BROKEN_FIELDS, "newer.py")
    assert [(type(n).__name__, n.lineno) for n in tree.body] == [
        ("ClassDef", 1), ("Assign", 6), ("ClassDef", 10),
    ]  # fmt: skip


EXCEPT_314 = """import json
try:
    data = json.loads(text)
except ValueError, TypeError:
    data = None
try:
    pass
except* KeyError, IndexError:
    pass
try:
    pass
except (OSError, EOFError) as error:
    raise
for attempt in range(3):
    try:
        break
    except LookupError, \\
            ArithmeticError:
        continue
"""


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="the interpreter reads 3.14 itself")
def test_python_314_unparenthesised_except_is_read_on_its_own_lines() -> None:
    """Issue 34 item 8: `except A, B:` (PEP 758) was a `parse-error`, every item of the file
    lost: it catches either, as `except (A, B):` does, on the same lines."""
    with pytest.raises(SyntaxError):
        ast.parse(EXCEPT_314)
    tree = parse_python(EXCEPT_314, "newer.py")
    handlers = [n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)]
    caught = [ast.unparse(h.type) if h.type else None for h in handlers]
    assert caught == [
        "(ValueError, TypeError)", "(KeyError, IndexError)", "(OSError, EOFError)",
        "(LookupError, ArithmeticError)",
    ]  # fmt: skip
    assert [h.lineno for h in handlers] == [4, 8, 12, 17]
    assert [h.name for h in handlers] == [None, None, "error", None]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter reads 3.12 itself")
def test_newer_syntax_that_cannot_be_rewritten_names_the_interpreter() -> None:
    """Type parameters across lines cannot be blanked on the same lines: the error says which
    interpreter could not read the (valid) file."""
    import platform

    with pytest.raises(SyntaxError) as info:
        parse_python("def f[\n    T,\n](x: T) -> T: ...\n", "wide.py")
    assert f"Python {platform.python_version()} cannot read" in info.value.msg


@pytest.mark.parametrize("source", [*SOURCES, "x = 1 +\n", "class\n", "f(**a, *b)\n"])
def test_broken_code_keeps_the_interpreters_own_error(source: str) -> None:
    """Only valid newer Python is rewritten: what tree-sitter also rejects (or has nothing newer
    in it) fails exactly as `ast.parse` does."""
    assert outcome(lambda s: parse_python(s, "<unknown>"), source) == outcome(ast.parse, source)
