"""app.registry: what a reload changes, as pure functions of the old and the new config."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gateway_harness import (
    write_config,
)

from app.config import GatewayConfig, load_config
from app.registry import RegistryChange, restart_needed

ENTRY_CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("version", {"version": "2.0.0"}),
    ("command", {"command": ["{python}", "-X", "utf8", "echo_plugin.py"]}),
    ("root", {"root": "sub"}),
    ("env", {"env": {"X": "1"}}),
    ("limits", {"request_ms": 1234}),
    ("instances", {"instances": 2}),
    ("sandbox", {"sandbox": {"memory_mb": 512}}),
    ("eager", {"eager": True}),
]


@pytest.mark.parametrize("change", [c for _, c in ENTRY_CHANGES], ids=[n for n, _ in ENTRY_CHANGES])
def test_any_field_of_an_entry_makes_it_changed(tmp_path: Path, change: dict[str, Any]) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "echo_plugin.py").write_text("")
    base = {"id": "p", "version": "1.0.0", "root": ".", "command": ["{python}", "echo_plugin.py"]}
    old = load_config(write_config(tmp_path, [base, {**base, "id": "same"}])).plugins
    new = load_config(
        write_config(tmp_path, [{**base, **change}, {**base, "id": "same"}, {**base, "id": "new"}])
    ).plugins
    assert RegistryChange.between(old, new) == RegistryChange(
        added=("new",), removed=(), changed=("p",), kept=("same",)
    )
    assert RegistryChange.between(new, {}).removed == ("p", "same", "new")


def test_only_the_token_file_applies_without_a_restart() -> None:
    old = GatewayConfig()
    new = GatewayConfig(port=9999, token_file=Path("/t"), max_body_bytes=10, host="127.0.0.2")
    assert restart_needed(old, new) == ["host", "port", "max_body_bytes"]
