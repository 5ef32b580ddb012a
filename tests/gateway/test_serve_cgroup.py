"""`gpp serve --cgroup optional` and the one line a gateway says about plugin cgroups at start
(issue 32, item 8): where none can be made (a non-root user without a delegated cgroup), what
is lost is said, and so is the way to get one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app import cli
from gpp.host.sandbox import cgroup_layout

REGISTRY = '[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n'


def test_cgroup_optional_applies_to_every_plugin(tmp_path: Path) -> None:
    registry = tmp_path / "registry.toml"
    registry.write_text(REGISTRY + '[[plugin]]\nid = "q"\nversion = "1"\ncommand = ["y"]\n')
    parser = cli.build_parser()
    strict = cli._serve_config(parser.parse_args(["serve", "--config", str(registry)]))
    assert {p.sandbox.cgroup for p in strict.plugins.values()} == {"required"}
    args = parser.parse_args(["serve", "--config", str(registry), "--cgroup", "optional"])
    relaxed = cli._serve_config(args)
    assert {p.sandbox.cgroup for p in relaxed.plugins.values()} == {"optional"}


@pytest.mark.parametrize("euid", [0, 1000])
def test_no_cgroup_is_said_in_one_line_with_what_is_lost(
    monkeypatch: pytest.MonkeyPatch, euid: int
) -> None:
    monkeypatch.setattr(cli, "cgroup_layout", lambda: "no writable cgroup v2 for uid 1000")
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    refused = cli.cgroup_line(optional=False)
    relaxed = cli.cgroup_line(optional=True)
    for line in (refused, relaxed):
        assert "\n" not in line and "(no writable cgroup v2 for uid 1000)" in line, line
        assert "rlimits only (no whole-plugin memory, CPU or process bound" in line, line
        delegation = "systemd-run --user --scope -p Delegate=yes gpp serve" in line
        assert delegation == (euid != 0), line
    assert "plugins that need one are refused" in refused
    assert "or gpp serve --cgroup optional" in refused
    assert "; --cgroup optional: plugins run bounded per process" in relaxed


def test_a_cgroup_this_gateway_can_make_is_said_too() -> None:
    line = cli.cgroup_line(optional=False)
    layout = cgroup_layout()
    if isinstance(layout, str):
        assert line.startswith(f"gpp: no cgroup for plugins here ({layout})"), line
    else:
        assert line == f"gpp: plugin cgroups: {layout.describe()}, one per session"
