"""`gpp serve --cgroup optional` (issue 32, item 8) applies to every plugin; the line said at
start about plugin cgroups is tested in test_cgroup_notice.py."""

from __future__ import annotations

from pathlib import Path

from app import cli

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
