"""app.command_line: the `--plugin` flags of `gpp serve`, read into plugins or refused saying what
to write instead (a first try needs no registry file; tests/product/test_first_hour.py serves
with them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.command_line import CommandLinePlugin, parse_flags, registry


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


def test_jsonrpc_marks_the_plugin_after_the_dashes_or_the_only_one() -> None:
    assert parse_flags(["a=x", "b"], ["y"], jsonrpc=True) == [
        CommandLinePlugin("a", None, ["x"]),
        CommandLinePlugin("b", None, ["y"], "jsonrpc-2.0"),
    ]
    assert parse_flags(["a@2=x"], [], jsonrpc=True) == [
        CommandLinePlugin("a", "2", ["x"], "jsonrpc-2.0")
    ]
    with pytest.raises(ValueError, match="it marks the --plugin whose command follows"):
        parse_flags(["a=x", "b=y"], [], jsonrpc=True)


def test_a_py_command_runs_with_the_gateways_python(tmp_path: Path) -> None:
    (tmp_path / "p.py").write_text("")
    config = registry(parse_flags(["a@1"], ["p.py", "--x"]), tmp_path, None, {})
    assert config.plugins["a"].command[0] == sys.executable
    rpc = registry(parse_flags(["r"], ["python3", "p.py"], jsonrpc=True), tmp_path, None, {})
    assert rpc.plugins["r"].command[0] == "python3"
    assert (rpc.plugins["r"].protocol, rpc.plugins["r"].version) == ("jsonrpc-2.0", "unversioned")
