"""`packs.bounded_values`: the value primitives the packs' interpreters share compute what Python
computes, and refuse (never merely fail) what would allocate past `MAX_LENGTH`."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.bounded_values import (
    MAX_LENGTH,
    NotEvaluated,
    Refused,
    binop,
    capped,
    format_text,
    percent_text,
    room,
)

_TEXT = st.text(max_size=40)
_PLAIN = st.one_of(_TEXT, st.integers(-(10**6), 10**6))


@pytest.mark.parametrize("value", ["", "x" * MAX_LENGTH, [0] * MAX_LENGTH, (), {}])
def test_capped_passes_a_value_at_most_max_length_long_through(value: object) -> None:
    assert capped(value) is value


@pytest.mark.parametrize(
    "value",
    ["x" * (MAX_LENGTH + 1), [0] * (MAX_LENGTH + 1), (0,) * (MAX_LENGTH + 1),
     dict.fromkeys(range(MAX_LENGTH + 1)), set(range(MAX_LENGTH + 1))],
)  # fmt: skip
def test_capped_refuses_every_sized_value_past_max_length(value: object) -> None:
    with pytest.raises(Refused):
        capped(value)


def test_room_refuses_growth_past_max_length_only() -> None:
    room(MAX_LENGTH - 1, 1)
    with pytest.raises(Refused):
        room(MAX_LENGTH, 1)


@given(st.one_of(st.tuples(_TEXT, _TEXT), st.tuples(st.integers(), st.integers())))
def test_binop_add_and_sub_are_pythons(pair: tuple[object, object]) -> None:
    left, right = pair
    assert binop(ast.Add(), left, right) == left + right  # type: ignore[operator]
    if isinstance(left, int):
        assert binop(ast.Sub(), left, right) == left - right  # type: ignore[operator]


@pytest.mark.parametrize(
    ("op", "left", "right"),
    [(ast.Add(), "a", 1), (ast.Mult(), "a", 3), (ast.Sub(), "a", "b"), (ast.Add(), 1.0, 2.0),
     (ast.Mod(), "%s", object())],
)  # fmt: skip
def test_binop_names_what_it_does_not_compute(
    op: ast.operator, left: object, right: object
) -> None:
    with pytest.raises(NotEvaluated) as raised:
        binop(op, left, right)
    assert not isinstance(raised.value, Refused)
    assert raised.value.reason


def test_binop_refuses_a_sum_past_max_length_before_making_it() -> None:
    half = "x" * (MAX_LENGTH // 2 + 1)
    with pytest.raises(Refused):
        binop(ast.Add(), half, half)


@given(_TEXT.filter(lambda s: "%" not in s), st.lists(_PLAIN, max_size=3))
def test_percent_text_is_pythons_for_plain_values(literal: str, values: list[object]) -> None:
    template = literal + "%s" * len(values)
    assert percent_text(template, tuple(values)) == template % tuple(values)


@pytest.mark.parametrize("template", ["%0999999999d", "%.999999999s", "%*d", "%-9s", "% 5d"])
def test_percent_text_refuses_any_width_or_precision(template: str) -> None:
    with pytest.raises(Refused):
        percent_text(template, (5,))


def test_percent_text_refuses_values_longer_than_max_length_together() -> None:
    part = "y" * (MAX_LENGTH // 2 + 1)
    with pytest.raises(Refused):
        percent_text("%s%s", (part, part))


def test_percent_text_that_python_rejects_is_not_evaluated() -> None:
    with pytest.raises(NotEvaluated):
        percent_text("%s %s", ("one",))


@given(
    st.lists(_TEXT.filter(lambda s: "{" not in s and "}" not in s), min_size=1, max_size=4),
    st.lists(_PLAIN, min_size=3, max_size=3),
)
def test_format_text_is_pythons_for_plain_fields(texts: list[str], args: list[object]) -> None:
    template = "{}".join(texts)[: MAX_LENGTH // 2]
    fields = template.count("{}")
    assert format_text(template, args[:fields], {}) == template.format(*args[:fields])
    assert format_text("{0}-{name}-{0}", args[:1], {"name": "n"}) == "{0}-{name}-{0}".format(
        *args[:1], name="n"
    )


@pytest.mark.parametrize(
    "template",
    ["{:>999999999}", "{0!r}", "{0[0]}", "{0.real}", "{:{}}"],
)
def test_format_text_refuses_fields_that_are_not_plain_names(template: str) -> None:
    with pytest.raises(Refused):
        format_text(template, ["x", "y"], {})


def test_format_text_counts_a_repeated_field_before_making_the_string() -> None:
    value = "z" * 1000
    with pytest.raises(Refused):
        format_text("{0}" * 5, [value], {})
    assert format_text("{0}" * 4, [value], {}) == value * 4


@pytest.mark.parametrize(
    ("template", "args", "keywords"),
    [("{} {0}", ["a"], {}), ("{1}", ["a"], {}), ("{name}", [], {}), ("{", [], {}),
     ("{}", [1.5], {})],
)  # fmt: skip
def test_format_text_that_python_rejects_or_other_values_are_not_evaluated(
    template: str, args: list[object], keywords: dict[str, object]
) -> None:
    with pytest.raises(NotEvaluated) as raised:
        format_text(template, args, keywords)
    assert not isinstance(raised.value, Refused)
