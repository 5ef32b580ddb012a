"""The value primitives the packs' small interpreters share (a computed `__tablename__` in
`computed_names`, the URL patterns a Django project's collector builds in
`routes/django_collect`): `+`, `-` and `%` on plain values, `str.format`, and the caps that keep a
hostile repository from making the pack allocate without bound (`"%0999999999d" % 5`,
`"{:>999999999}".format(x)`, a string doubled forty times, a list appended to forever).

Every primitive answers a value or raises `NotEvaluated` saying why not; `Refused` (a kind of
it) is what no caller may read as "value not known": the code asks for more than the pack holds.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

MAX_LENGTH = 4_096  # characters of a string, items of a list, tuple or dict
PERCENT_WIDTH = re.compile(r"%[-+ #0]*(?:\*|\d|\.)")
_FIELD = re.compile(r"\d*|[A-Za-z_]\w*")
_T = TypeVar("_T")
_SIZED = (str, list, tuple, dict, set)


class NotEvaluated(Exception):
    """The computation uses something this interpreter does not know; `reason` says what."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refused(NotEvaluated):
    """The computation asks for a value past the caps (a padded format, a string or list
    longer than `MAX_LENGTH`): the evaluation stops, never goes on with an unknown value."""


def capped(value: _T) -> _T:
    """`value` itself, or `Refused` when it is a str, list, tuple, dict or set longer than
    `MAX_LENGTH`."""
    if isinstance(value, _SIZED) and len(value) > MAX_LENGTH:
        unit = "characters" if isinstance(value, str) else "items"
        raise Refused(f"a {type(value).__name__} longer than {MAX_LENGTH} {unit}")
    return value


def room(held: int, added: int) -> None:
    """`Refused` when a list or dict of `held` items would grow past `MAX_LENGTH` by `added`."""
    if held + added > MAX_LENGTH:
        raise Refused(f"a collection longer than {MAX_LENGTH} items")


def _formattable(value: object) -> bool:
    return isinstance(value, str | int | float) or value is None


def binop(op: ast.operator, left: Any, right: Any) -> Any:
    """`left op right` as Python computes it, for `+` of two values of one type (str, int, list,
    tuple), `-` of ints and `%` of a str by plain values (no width or precision: `%0999999999d`
    would pad without bound); the result capped."""
    if (
        isinstance(op, ast.Add)
        and type(left) is type(right)
        and isinstance(left, str | int | list | tuple)
    ):
        if isinstance(left, str | list | tuple):
            room(len(left), len(right))
        return left + right
    if isinstance(op, ast.Sub) and type(left) is int and type(right) is int:
        return left - right
    if isinstance(op, ast.Mod) and isinstance(left, str):
        values = right if isinstance(right, tuple) else (right,)
        if all(_formattable(v) for v in values):
            return percent_text(left, values)
    raise NotEvaluated(f"`{type(op).__name__}` of {type(left).__name__}")


def percent_text(template: str, values: str | tuple[Any, ...]) -> str:
    """`template % values` of plain values, without a width or precision (`%0999999999d`
    would pad without bound); the route pack's linker formats with this too."""
    if PERCENT_WIDTH.search(template):
        raise Refused("a % format with a width or precision")
    try:
        return capped(template % values)
    except (TypeError, ValueError) as exc:
        raise NotEvaluated("a % format that fails") from exc


def format_text(template: str, args: Sequence[Any], keywords: Mapping[str, Any]) -> str:
    """`"{}_{name}".format(...)` of strings and ints: only plain fields (no index, attribute,
    conversion or format spec, which could read past the values or pad without bound); the
    route pack's linker formats with this too."""
    if not all(isinstance(v, str | int) for v in (*args, *keywords.values())):
        raise NotEvaluated("`str.format` of other than strings and ints")
    try:
        fields = list(string.Formatter().parse(template))
        for _, name, spec, conversion in fields:
            if name is not None and (spec or conversion or not _FIELD.fullmatch(name)):
                raise Refused("`str.format` with a field other than a plain name")
        _format_room(fields, args, keywords)
        return capped(template.format(*args, **keywords))
    except (IndexError, KeyError, ValueError) as exc:
        raise NotEvaluated("`str.format` fails here") from exc


def _format_room(
    fields: list[tuple[str, str | None, str | None, str | None]],
    args: Sequence[Any],
    keywords: Mapping[str, Any],
) -> None:
    """`Refused` when the plain `fields` would format longer than `MAX_LENGTH`, counted
    before the text is made: a field names a value as often as it likes (`"{0}" * 300000`
    of a 4,000-character string asks for 1.2 GB, killed before `capped` could look)."""
    size, auto = 0, 0
    for literal, name, _, _ in fields:
        size += len(literal)
        if name is not None:
            if name == "":
                value, auto = args[auto], auto + 1
            else:
                value = args[int(name)] if name.isdecimal() else keywords[name]
            size += len(str(value))
        if size > MAX_LENGTH:
            raise Refused(f"a str longer than {MAX_LENGTH} characters")
