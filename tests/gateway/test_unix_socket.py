"""The Unix socket: 0600 whatever the umask, never wider for a moment, gone after exit."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from gateway_harness import echo_plugin, gateway_process, uds_client, write_config

from app.unix_socket import SocketPathError, listen_private

WAIT_S = 30


def test_the_socket_is_0600_under_umask_0_and_refuses_another_user(tmp_path: Path) -> None:
    uds = tmp_path / "gw.sock"
    tmp_path.chmod(0o755)  # the directory lets anyone through: only the socket's mode guards
    with gateway_process(write_config(tmp_path, [echo_plugin()]), uds, umask=0) as gateway:
        mode = os.stat(uds).st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
        assert os.stat(uds).st_uid == os.geteuid()
        with uds_client(uds) as http:
            assert http.get("/healthz").status_code == 200
        if os.geteuid() == 0 and shutil.which("setpriv"):  # nobody (65534) is refused
            other = subprocess.run(
                ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                 "-c", f"import socket; socket.socket(socket.AF_UNIX).connect({str(uds)!r})"],
                capture_output=True, text=True, timeout=WAIT_S,
            )  # fmt: skip
            assert other.returncode != 0 and "PermissionError" in other.stderr
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(WAIT_S) == 0
    assert not uds.exists(), "the socket is removed at exit"
    assert [p.name for p in tmp_path.iterdir()] == ["registry.toml"]  # no staging left behind


def test_the_path_never_shows_wider_modes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Structurally: when the socket reaches its path it is already 0600 and listening, and
    until then it lived in a 0700 directory (so nobody else could even reach it)."""
    seen = []
    real_rename = os.rename

    def rename(src: str | Path, dst: str | Path) -> None:
        seen.append(
            (
                stat.S_IMODE(os.stat(src).st_mode),
                stat.S_IMODE(os.stat(Path(src).parent).st_mode),
                os.path.lexists(dst),
            )
        )
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    old_umask = os.umask(0)
    try:
        listener = listen_private(tmp_path / "gw.sock")
        listener.publish()
    finally:
        os.umask(old_umask)
    try:
        assert seen == [(0o600, 0o700, False)]
        assert listener.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
    finally:
        listener.remove()
    assert not (tmp_path / "gw.sock").exists()


def test_exit_removes_only_its_own_socket(tmp_path: Path) -> None:
    path = tmp_path / "gw.sock"
    listener = listen_private(path)
    listener.publish()
    path.unlink()  # someone else took the path over
    path.write_text("not ours")
    listener.remove()
    assert path.read_text() == "not ours"


def test_a_stale_socket_is_replaced_a_live_one_or_a_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "gw.sock"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # a gateway killed with SIGKILL leaves this
    live = listen_private(path)
    live.publish()
    try:
        with pytest.raises(SocketPathError, match="another server is listening"):
            listen_private(path)
    finally:
        live.remove()
    path.write_text("data")
    with pytest.raises(SocketPathError, match="is not a socket"):
        listen_private(path)
    assert path.read_text() == "data"
