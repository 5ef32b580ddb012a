"""The Unix socket: 0600 whatever the umask, never wider for a moment, gone after exit; in a
folder no other user owns or may write (the default one private); and clients that hand their
token only to a listener of their own user or root."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from conftest import REPO
from gateway_harness import (
    echo_plugin,
    gateway_process,
    serve_command,
    served_on,
    uds_client,
    write_config,
)

from app.unix_socket import SocketPathError, listen_private
from gpp.client import GatewayClient, local_gateway

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


# The socket's folder, the default path, and who clients hand the token to (issue 33).

OTHER_UID = 54321


def _serve_refused(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        serve_command(config, *args), capture_output=True, text=True, cwd=REPO, timeout=WAIT_S
    )


def test_a_socket_folder_another_user_owns_or_may_write_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, [echo_plugin()])
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, OTHER_UID, OTHER_UID)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # as /tmp is
    for folder, why in [
        (theirs, f"is owned by uid {OTHER_UID}, not by this gateway's user (uid {os.geteuid()})"),
        (shared, "is writable by group or others (mode 1777)"),
    ]:
        done = _serve_refused(config, "--uds", str(folder / "gw.sock"))
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"gpp: --uds: {folder / 'gw.sock'}: its folder {folder} {why}")
        assert "who could put their own socket in its place" in line
        assert list(folder.iterdir()) == []  # nothing bound, nothing staged


def test_uds_without_a_path_listens_in_a_private_runtime_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "run" / "gpp"
    monkeypatch.setenv("GPP_RUNTIME_DIR", str(runtime))
    uds = runtime / "gateway.sock"
    config = write_config(tmp_path, [echo_plugin()])
    with served_on([*serve_command(config), "--uds"], uds, cwd=REPO) as http:
        assert stat.S_IMODE(os.stat(runtime).st_mode) == 0o700
        assert http.get("/plugins").status_code == 200  # the generated token, found


@contextmanager
def _served_by_another_user(bind: str, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`python3 -c BIND ARGS…` run as uid OTHER_UID, BIND's socket `s` then accepting one
    connection and printing how many bytes it received (waits bounded): the first line BIND
    printed, and the process (killed if still running, and reaped, on exit)."""
    script = bind + (
        "s.settimeout(30); c, _ = s.accept(); c.settimeout(2); got = b''\n"
        "try:\n"
        "    while chunk := c.recv(65536): got += chunk\n"
        "except TimeoutError: pass\n"
        "print(len(got), flush=True)\n"
    )
    proc = subprocess.Popen(  # the system's Python: another user may not enter root's home
        [shutil.which("python3", path="/usr/bin:/bin") or "python3", "-c", script, *args],
        user=OTHER_UID,
        group=OTHER_UID,
        stdout=subprocess.PIPE,
        text=True,
        cwd="/",
    )
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline(), proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(WAIT_S)


@contextmanager
def _listener_of_another_user() -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A Unix socket bound and served by uid OTHER_UID in a folder of theirs (under /tmp: they
    cannot enter pytest's 0700 one): it accepts one connection and prints how many bytes it
    received (waits bounded)."""
    folder = Path(tempfile.mkdtemp(prefix="gpp-another-user-"))
    try:
        os.chown(folder, OTHER_UID, OTHER_UID)
        path = folder / "gw.sock"
        bind = (
            "import socket, sys\n"
            "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)\n"
            "print('ready', flush=True)\n"
        )
        with _served_by_another_user(bind, str(path)) as (first, proc):
            assert first == "ready\n"
            yield path, proc
    finally:
        shutil.rmtree(folder)


def _received(proc: subprocess.Popen[str]) -> str:
    out, _ = proc.communicate(timeout=WAIT_S)
    return out.strip()


def test_clients_send_no_token_to_a_socket_another_user_listens_on() -> None:
    """Whoever took the socket's place gets nothing: the Python client and `gpp status` ask the
    kernel (SO_PEERCRED) before the first byte; the Node client checks the socket's owner."""
    with _listener_of_another_user() as (path, proc):
        with (
            GatewayClient("http://localhost", token="s3cret", uds=str(path)) as client,
            pytest.raises(httpx.ConnectError, match=f"served by uid {OTHER_UID}"),
        ):
            client.plugins()
        assert _received(proc) == "0"
    with _listener_of_another_user() as (path, proc):
        status = subprocess.run(
            [sys.executable, "-m", "app", "status", "--uds", str(path)],
            capture_output=True, text=True, timeout=WAIT_S, env={**os.environ, "GPP_TOKEN": "s3cret"},
        )  # fmt: skip
        assert status.returncode == 1 and f"served by uid {OTHER_UID}" in status.stderr
        assert _received(proc) == "0"
    with _listener_of_another_user() as (path, proc):
        node = subprocess.run(
            ["node", "--input-type=module"],
            input=(
                'import { GatewayClient } from "./plugins/client/node/index.js";\n'
                "const client = new GatewayClient('http://localhost', "
                f"{{ token: 's3cret', socketPath: {json.dumps(str(path))} }});\n"
                "await client.plugins().then(() => console.log('sent'), (e) => console.log(e.message));\n"
            ),
            capture_output=True, text=True, cwd=REPO, timeout=WAIT_S,
        )  # fmt: skip
        assert f"is owned by uid {OTHER_UID}, neither you nor root" in node.stdout, node.stderr
        proc.kill()  # the Node client never connected: nothing to wait for


@contextmanager
def _tcp_listener_of_another_user() -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """A loopback TCP port bound and served by uid OTHER_UID (the gateway's port taken while it
    is down, or first): it accepts one connection and prints how many bytes it received."""
    bind = (
        "import socket\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)\n"
        "print(s.getsockname()[1], flush=True)\n"
    )
    with _served_by_another_user(bind) as (port, proc):
        yield int(port), proc


@pytest.mark.skipif(os.geteuid() != 0, reason="acting as another user needs root")
def test_clients_send_no_found_token_to_a_loopback_port_another_user_listens_on(
    tmp_path: Path,
) -> None:
    """Red team (issue 33): any local user may listen on the gateway's loopback port while it
    is down, and `gpp status` and the Python client sent them the token they found on their
    own (the default file: root's, for a root gateway). Loopback has no SO_PEERCRED; the
    kernel's socket table says who owns the other end, checked before the first byte."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "token").write_text("s3cret\n")
    (state / "token").chmod(0o600)
    env = {**os.environ, "GPP_STATE_DIR": str(state)}
    env.pop("GPP_TOKEN", None)
    with _tcp_listener_of_another_user() as (port, proc):
        status = subprocess.run(
            [sys.executable, "-m", "app", "status", "--url", f"http://127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=WAIT_S, env=env, cwd=REPO,
        )  # fmt: skip
        assert status.returncode == 1 and f"served by uid {OTHER_UID}" in status.stderr
        assert _received(proc) == "0"
    with _tcp_listener_of_another_user() as (port, proc):
        client = subprocess.run(
            [sys.executable, "-c", "from gpp.client import GatewayClient\n"
             f"GatewayClient('http://127.0.0.1:{port}').plugins()"],
            capture_output=True, text=True, timeout=WAIT_S, env=env, cwd=REPO,
        )  # fmt: skip
        assert client.returncode != 0 and f"served by uid {OTHER_UID}" in client.stderr
        assert _received(proc) == "0"


def test_a_loopback_gateway_of_this_user_is_told_apart_from_another_users() -> None:
    """The socket table names this process as the owner of a connection it accepted itself."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        with socket.create_connection(listener.getsockname(), timeout=WAIT_S) as client:
            accepted, _ = listener.accept()
            with accepted:
                assert local_gateway.tcp_peer_uid(client) == os.geteuid()
                local_gateway.check_tcp_peer(client, "here")  # ours: no refusal


def test_a_dual_stack_listeners_end_is_found_too() -> None:
    """A v4 client of a listener on `::` meets a v4-mapped v6 socket: found in tcp6."""
    with socket.socket(socket.AF_INET6) as listener:
        listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        listener.bind(("::", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as client:
            accepted, _ = listener.accept()
            with accepted:
                assert local_gateway.tcp_peer_uid(client) == os.geteuid()
