"""app.status: `gpp status` against a served gateway, and without one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURE_PLUGINS
from gateway_harness import echo_plugin, served, write_config
from test_first_hour import GPP, gpp, serving

HOSTILE = FIXTURE_PLUGINS / "plugin_writes_terminal_escapes.py"


def test_status_shows_why_a_plugin_fails(tmp_path: Path) -> None:
    crash = FIXTURE_PLUGINS / "plugin_says_why_then_crashes.py"
    uds = tmp_path / "gpp.sock"
    plugin = f"fixture@1.0.0={sys.executable} {crash}"
    with serving("--repo", ".", "--plugin", plugin, cwd=tmp_path, uds=uds) as c:
        assert c.post("/plugins/fixture/discover", json={"paths": ["."]}).status_code == 502
        done = gpp("status", "--uds", str(uds))
    assert done.returncode == 2, done.stderr
    head, *why = done.stdout.splitlines()
    assert head.startswith("fixture  1.0.0") and "failed 1" in head
    assert why[0].startswith("    [plugin-protocol] FAIL E_")
    assert "    stderr: chatty: cannot open the model cache: permission denied" in why


def test_status_without_a_gateway_says_how_to_start_one(tmp_path: Path) -> None:
    done = gpp("status", "--uds", str(tmp_path / "nobody.sock"))
    assert done.returncode == 1 and "start one with `gpp serve`" in done.stderr


def test_status_counts_request_scoped_failures_and_exits_non_zero(tmp_path: Path) -> None:
    uds = tmp_path / "gpp.sock"
    with serving(
        "--repo", ".", "--plugin", f"hostile@1.0.0={HOSTILE}", cwd=tmp_path, uds=uds
    ) as client:
        for _ in range(2):
            answer = client.post("/plugins/hostile/discover", json={"paths": ["."]})
            assert answer.status_code == 502 and answer.json()["code"] == "E_PLUGIN_ERROR"
        done = gpp("status", "--uds", str(uds))
    assert done.returncode == 2, done.stderr
    head = done.stdout.splitlines()[0]
    assert "served 0, failed 2" in head and " ready " in head, head


def test_status_escapes_what_a_plugin_wrote(tmp_path: Path) -> None:
    uds = tmp_path / "gpp.sock"
    with serving(
        "--repo", ".", "--plugin", f"hostile@1.0.0={HOSTILE}", cwd=tmp_path, uds=uds
    ) as client:
        assert client.post("/plugins/hostile/discover", json={"paths": ["."]}).status_code == 502
        done = gpp("status", "--uds", str(uds))
    assert "\x1b" not in done.stdout and "\r" not in done.stdout and "\x07" not in done.stdout
    lines = done.stdout.splitlines()
    assert "    stderr: clipboard \\u001b]52;c;cm0gLXJmIH4=\\u0007" in lines
    assert "    stderr: partial\\r[plugin-protocol] FAIL E_FORGED: forged" in lines
    assert not any(line.startswith("[plugin-protocol] FAIL E_FORGED") for line in lines)
    assert any("RuntimeError: hostile \\u001b[31mred" in line for line in lines), lines


def test_status_shows_the_stderr_of_a_plugin_that_serves(tmp_path: Path) -> None:
    """`print()` in a plugin reaches `gpp status`, as the README says, failing or not."""
    uds = tmp_path / "gpp.sock"
    chatty = f"chatty@1.0.0={sys.executable} {FIXTURE_PLUGINS / 'chatty_plugin.py'}"
    with serving("--repo", ".", "--plugin", chatty, cwd=tmp_path, uds=uds) as client:
        assert client.post("/plugins/chatty/discover", json={"paths": ["."]}).status_code == 200
        done = gpp("status", "--uds", str(uds))
    assert done.returncode == 0, done.stdout + done.stderr
    head, *rest = done.stdout.splitlines()
    assert "served 1, failed 0" in head
    assert any(line.startswith("    stderr: ") and "debug: discovering" in line for line in rest)


def test_status_names_a_refused_token_as_such(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("the-right-token\n")
    token_file.chmod(0o600)
    uds = tmp_path / "gpp.sock"
    chatty = f"chatty@1.0.0={sys.executable} {FIXTURE_PLUGINS / 'chatty_plugin.py'}"
    with serving(
        "--token-file", str(token_file), "--repo", ".", "--plugin", chatty, cwd=tmp_path, uds=uds
    ):
        done = subprocess.run(
            [*GPP, "status", "--uds", str(uds)],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "GPP_TOKEN": "a-wrong-token"},
        )
    assert done.returncode == 1
    assert "refused the token it was sent (401)" in done.stderr, done.stderr
    assert "no gateway answers" not in done.stderr


def test_status_finds_the_token_as_the_clients_do(tmp_path: Path) -> None:
    """The generated token with no flag; a gateway with a token file of its own, with
    --token-file (the default file's token is not that one: 401, said in one line)."""
    with served(write_config(tmp_path, [echo_plugin()])) as gateway:
        done = gpp("status", "--url", gateway.url)
        assert done.returncode == 0 and done.stdout.startswith("echo "), done.stderr
    token = tmp_path / "token"
    token.write_text("named\n")
    token.chmod(0o600)
    config = write_config(tmp_path, [echo_plugin()], gateway={"token_file": str(token)})
    with served(config) as gateway:
        refused = gpp("status", "--url", gateway.url)
        assert refused.returncode == 1, refused.stderr
        assert "refused the token it was sent (401)" in refused.stderr, refused.stderr
        done = gpp("status", "--url", gateway.url, "--token-file", str(token))
        assert done.returncode == 0 and done.stdout.startswith("echo "), done.stderr
