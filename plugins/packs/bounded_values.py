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
import functools
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
    capped(template)
    try:  # each value is formatted once: their lengths bound the result before it is made
        if isinstance(values, tuple) and sum(len(str(v)) for v in values) > MAX_LENGTH:
            raise Refused(f"a str longer than {MAX_LENGTH} characters")
        return capped(template % values)
    except (TypeError, ValueError) as exc:
        raise NotEvaluated("a % format that fails") from exc


def format_text(template: str, args: Sequence[Any], keywords: Mapping[str, Any]) -> str:
    """`"{}_{name}".format(...)` of strings and ints: only plain fields (no index, attribute,
    conversion or format spec, which could read past the values or pad without bound); the
    route pack's linker formats with this too. The result's length is counted before it is
    made: a field names a value as often as it likes (`"{0}" * 300000` of a 4,000-character
    string asked for 1.2 GB, the pack killed before `capped` could look)."""
    if not all(isinstance(v, str | int) for v in (*args, *keywords.values())):
        raise NotEvaluated("`str.format` of other than strings and ints")
    capped(template)  # a string like any other: and the templates kept below stay small
    try:
        shape = _plain_fields(template)
        if isinstance(shape, str):
            raise Refused(shape)
        size, uses = shape
        for name, times in uses:
            value = args[int(name)] if name.isdecimal() else keywords[name]
            size += times * len(str(value))
        if size > MAX_LENGTH:
            raise Refused(f"a str longer than {MAX_LENGTH} characters")
        return capped(template.format(*args, **keywords))
    except (IndexError, KeyError, ValueError) as exc:
        raise NotEvaluated("`str.format` fails here") from exc


@functools.lru_cache(maxsize=256)
def _plain_fields(template: str) -> tuple[int, tuple[tuple[str, int], ...]] | str:
    """The length of `template`'s literal text and each field's name (an automatic one
    numbered as Python numbers it) with the times it is used; why not, where a field is not
    a plain name. Kept: a DRF route template is filled once per registration, and a Python
    loop over 1,365 fields each time was the cost."""
    literal, auto, numbered = 0, 0, False
    uses: dict[str, int] = {}
    for text, name, spec, conversion in string.Formatter().parse(template):
        literal += len(text)
        if name is None:
            continue
        if spec or conversion or not _FIELD.fullmatch(name):
            return "`str.format` with a field other than a plain name"
        if name == "":
            name, auto = str(auto), auto + 1
        else:
            numbered = numbered or name.isdecimal()
        uses[name] = uses.get(name, 0) + 1
    if auto and numbered:
        raise ValueError("cannot switch from automatic field numbering to manual")
    return literal, tuple(uses.items())
