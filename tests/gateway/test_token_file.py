"""A configured token file that is blank (or emptied later) never turns authentication off:
it stops the start, fails check-config, and a reload that finds it so is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from gateway_harness import echo_plugin, served, write_config
from test_preflight import check_config
from test_reload import WAIT_S

from app.config import ConfigError, load_config
from app.main import create_app

BLANKS = ["", " \n\t\n"]


def _without_env_token() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "GPP_TOKEN"}


def _blank_message(config: Path, token: Path) -> str:
    return (
        f"{config}: gateway.token_file: {token} is empty; write the token in it, or remove "
        "gateway.token_file to serve without authentication"
    )


@pytest.fixture(autouse=True)
def _no_env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPP_TOKEN", raising=False)


@pytest.mark.parametrize("blank", BLANKS)
def test_a_blank_token_file_stops_the_start(tmp_path: Path, blank: str) -> None:
    token = tmp_path / "token"
    token.write_text(blank)
    token.chmod(0o600)
    config = write_config(tmp_path, [echo_plugin()], gateway={"token_file": "token"})
    with pytest.raises(ConfigError):
        create_app(load_config(config))
    done = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--config", str(config), "--port", "0"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=WAIT_S,
        env=_without_env_token(),
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == _blank_message(config, token)


@pytest.mark.parametrize("blank", BLANKS)
def test_check_config_names_a_blank_token_file(tmp_path: Path, blank: str) -> None:
    token = tmp_path / "token"
    token.write_text(blank)
    token.chmod(0o600)
    config = write_config(tmp_path, [], gateway={"token_file": "token"})
    done = check_config(config)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [_blank_message(config, token)]


def test_a_reload_that_finds_the_token_file_emptied_is_refused_and_keeps_the_token(
    tmp_path: Path,
) -> None:
    token = tmp_path / "token"
    token.write_text("first\n")
    token.chmod(0o600)
    config = write_config(tmp_path, [echo_plugin()], gateway={"token_file": str(token)})
    with served(config) as gateway, gateway.client() as http:
        assert http.get("/plugins").status_code == 401
        token.write_text("  \n")
        line = gateway.reload(1)
        assert "reload refused" in line and "is empty" in line
        assert http.get("/plugins").status_code == 401  # authentication still on
        ok = http.get("/plugins", headers={"Authorization": "Bearer first"})
        assert ok.status_code == 200
