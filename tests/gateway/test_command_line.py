"""app.command_line: the `--plugin` flags of `gpp serve`, read into plugins or refused saying what
to write instead (a first try needs no registry file; tests/product/test_first_hour.py serves
with them)."""

from __future__ import annotations

import pytest

from app.command_line import CommandLinePlugin, parse_flags


@pytest.mark.parametrize(
    ("flags", "trailing", "expected"),
    [
        (["a"], ["python3", "p.py"], [CommandLinePlugin("a", None, ["python3", "p.py"])]),
        (
            ["a@2=node x.mjs", "b@1"],
            ["c"],
            [CommandLinePlugin("a", "2", ["node", "x.mjs"]), CommandLinePlugin("b", "1", ["c"])],
        ),
    ],
)
def test_plugin_flags(
    flags: list[str], trailing: list[str], expected: list[CommandLinePlugin]
) -> None:
    assert parse_flags(flags, trailing) == expected


@pytest.mark.parametrize(
    ("flags", "trailing", "says"),
    [
        (["a"], [], "give its command after `--`"),
        (["a", "b"], ["x"], "both want the command after `--`"),
        ([], ["x"], "belongs to a --plugin ID"),
        (["a b"], ["x"], "write ID, ID@VERSION or 'ID=CMD ARGS'"),
    ],
)
def test_plugin_flags_that_cannot_work_say_what_to_write(
    flags: list[str], trailing: list[str], says: str
) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace("`", "`")):
        parse_flags(flags, trailing)
