"""app.fd_limit: the descriptor budget the gateway's connections stay within, read from the
process's own limits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gateway_harness import echo_plugin, served, write_config


@pytest.mark.parametrize(("soft", "expected"), [(256, 192), (1024, 768), (100, 36)])
def test_the_cap_keeps_a_reserve_below_the_descriptor_limit(
    soft: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import resource

    from app import fd_limit

    monkeypatch.setattr(resource, "getrlimit", lambda _: (soft, soft))
    assert fd_limit.connection_cap(4096) == expected
    assert fd_limit.connection_cap(10) == 10


def test_serve_raises_the_soft_limit_to_the_hard_one(tmp_path: Path) -> None:
    config = write_config(tmp_path, [echo_plugin()])
    with served(config, prefix=("prlimit", "--nofile=256:2048", "--")) as gateway:
        limits = Path(f"/proc/{gateway.proc.pid}/limits").read_text()
        (line,) = [row for row in limits.splitlines() if row.startswith("Max open files")]
        assert re.split(r"\s{2,}", line)[1:3] == ["2048", "2048"]
        assert "maxConnections=1536" in gateway.wait_line("connection cap")
