"""Where a local gateway's token and socket are, and the order a client looks for the token."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpp.client import TokenNotFound, find_token, local_gateway


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A non-root user with a home of its own and no GPP_* folders named."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("GPP_STATE_DIR", "GPP_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_a_user_keeps_the_token_in_the_xdg_state_folder(
    user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert local_gateway.default_token_file() == user / ".local/state/gpp/token"
    assert local_gateway.default_socket() == user / ".local/state/gpp/gateway.sock"
    monkeypatch.setenv("XDG_STATE_HOME", "/xdg/state")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    assert local_gateway.default_token_file() == Path("/xdg/state/gpp/token")
    assert local_gateway.default_socket() == Path("/run/user/1000/gpp/gateway.sock")
    monkeypatch.setenv("XDG_STATE_HOME", "relative")  # not absolute: ignored, as XDG says
    assert local_gateway.default_token_file() == user / ".local/state/gpp/token"


def test_root_keeps_it_in_var_lib_whatever_xdg_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    for name in ("GPP_STATE_DIR", "GPP_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", "/home/someone/.local/state")  # a `sudo -E`
    assert local_gateway.default_token_file() == Path("/var/lib/gpp/token")
    assert local_gateway.default_socket() == Path("/run/gpp/gateway.sock")
    monkeypatch.setenv("GPP_STATE_DIR", "/srv/gpp")
    assert local_gateway.default_token_file() == Path("/srv/gpp/token")


def test_the_lookup_order_is_env_then_named_file_then_default_file(
    user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GPP_TOKEN", raising=False)
    assert find_token() is None  # nothing anywhere: no token, not an error
    default = local_gateway.default_token_file()
    default.parent.mkdir(parents=True)
    default.write_text("generated\n")
    assert find_token() == "generated"
    assert find_token(default_file=False) is None
    named = user / "named"
    named.write_text(" named \n")
    assert find_token(named) == "named"
    with pytest.raises(TokenNotFound, match="cannot read the token"):
        find_token(user / "absent")
    monkeypatch.setenv("GPP_TOKEN", "from-env")
    assert find_token(named) == "from-env"
    monkeypatch.setenv("GPP_TOKEN", "  ")  # blank: as if unset (the gateway refuses to start)
    assert find_token() == "generated"


def test_a_fifo_in_place_of_the_token_does_not_hang_a_client(
    user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GPP_TOKEN", raising=False)
    default = local_gateway.default_token_file()
    default.parent.mkdir(parents=True)
    os.mkfifo(default)
    assert find_token() is None
    with pytest.raises(TokenNotFound, match="not a regular file"):
        find_token(default)


def test_the_default_file_goes_to_this_host_only() -> None:
    for url in (
        "http://127.0.0.1:8787",
        "http://localhost:1",
        "http://[::1]:8787",
        "http://127.9.9.9",
    ):
        assert local_gateway.is_loopback_url(url), url
    for url in ("http://gateway.example:8787", "http://10.0.0.1", "http://localhost.example"):
        assert not local_gateway.is_loopback_url(url), url
