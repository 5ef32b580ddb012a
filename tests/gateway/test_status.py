"""app.status: `gpp status` against a served gateway, and without one."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import FIXTURE_PLUGINS
from test_first_hour import gpp, serving


def test_status_shows_why_a_plugin_fails(tmp_path: Path) -> None:
    crash = FIXTURE_PLUGINS / "plugin_says_why_then_crashes.py"
    uds = tmp_path / "gpp.sock"
    plugin = f"fixture@1.0.0={sys.executable} {crash}"
    with serving("--repo", ".", "--plugin", plugin, cwd=tmp_path, uds=uds) as c:
        assert c.post("/plugins/fixture/discover", json={"paths": ["."]}).status_code == 502
        done = gpp("status", "--uds", str(uds))
    assert done.returncode == 0, done.stderr
    head, *why = done.stdout.splitlines()
    assert head.startswith("fixture  1.0.0") and "failed 1" in head
    assert why[0].startswith("    [plugin-protocol] FAIL E_")
    assert "    stderr: chatty: cannot open the model cache: permission denied" in why


def test_status_without_a_gateway_says_how_to_start_one(tmp_path: Path) -> None:
    done = gpp("status", "--uds", str(tmp_path / "nobody.sock"))
    assert done.returncode == 1 and "start one with `gpp serve`" in done.stderr
