"""What a non-root user on a systemd machine with cgroup v2 sees of the gateway, run inside the
VM guest as that user (tests/vm/guest-run.sh) and written to a JSON report that
tests/product/test_vm_cgroup2.py judges on the host. Standard library only: it runs with the
guest's python3, from the copied checkout (`make serve` there, with its .venv already made).

Five starts, one after the other, each stopped (its processes killed) before the next:
- "delegated": `systemd-run --user --scope -p Delegate=yes make serve`, as the README says;
- "asked": plain `make serve` in a cgroup the user may not write (this boot service's, as a
  terminal's `session-N.scope` is): the gateway asks the user's systemd for a delegated scope
  and runs itself again there (`app/systemd_scope.py`);
- "undelegated": `make serve` there with no user manager to ask (no `XDG_RUNTIME_DIR`, no
  user bus), where plugins that need a cgroup are refused;
- "optional": `gpp serve --cgroup optional` there, which says what is lost;
- "scope-without-delegate": `systemd-run --user --scope make serve`, a scope of the user's own
  systemd that was not delegated (its directory is the user's all the same).
For each: the start-up line about cgroups, every bundled plugin's answer, `GET /plugins/{id}`,
the cgroup tree under the gateway's scope read from /sys/fs/cgroup while the sessions live,
and the cgroup of the process the run started (`make`, or the gateway itself).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHECKOUT = Path(__file__).resolve().parent.parent.parent
GPP = CHECKOUT / ".venv" / "bin" / "gpp"
CGROUP_ROOT = Path("/sys/fs/cgroup")
START_WITHIN_S = 240
CALL_WITHIN_S = 180
STOP_WITHIN_S = 20
CGROUP_FILES = ("cgroup.controllers", "cgroup.subtree_control", "memory.max", "pids.max")


def main() -> int:
    report: dict[str, Any] = {
        "uid": os.getuid(),
        "cgroup_fs": _fs_type(CGROUP_ROOT),
        "own_cgroup": Path("/proc/self/cgroup").read_text().strip(),
        "runs": {},
    }
    make_serve = ["make", "-o", "install", "serve"]  # .venv is made: the recipe `make serve` runs
    runs = {
        "delegated": (
            ["systemd-run", "--user", "--scope", "--quiet", "-p", "Delegate=yes"],
            [*make_serve, "PORT=8787"],
            8787,
        ),
        "asked": ([], [*make_serve, "PORT=8791"], 8791),
        "undelegated": (
            ["env", "-u", "XDG_RUNTIME_DIR", "-u", "DBUS_SESSION_BUS_ADDRESS"],
            [*make_serve, "PORT=8788"],
            8788,
        ),
        "optional": ([], [str(GPP), "serve", "--port", "8789", "--cgroup", "optional"], 8789),
        "scope-without-delegate": (
            ["systemd-run", "--user", "--scope", "--quiet"],
            [*make_serve, "PORT=8790"],
            8790,
        ),
    }
    for name, (wrapper, command, port) in runs.items():
        started = time.monotonic()
        try:
            report["runs"][name] = _run(name, [*wrapper, *command], port)
        except Exception as exc:  # the report says what broke; the host's test fails on it
            report["runs"][name] = {"error": f"{type(exc).__name__}: {exc}"}
        report["runs"][name]["seconds"] = round(time.monotonic() - started, 1)
    Path(sys.argv[1]).write_text(json.dumps(report, indent=1))
    return 0


def _run(name: str, command: list[str], port: int) -> dict[str, Any]:
    log = Path.home() / f"gateway-{name}.log"
    with log.open("wb") as out:
        gateway = subprocess.Popen(
            command,
            cwd=CHECKOUT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    run: dict[str, Any] = {"command": command}
    try:
        run["cgroup_line"] = _wait_for_line(log, "gpp: ", gateway)
        _wait_healthy(port, gateway)
        token = subprocess.run(
            [str(GPP), "token"], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()
        run["plugins"] = {}
        for plugin in _get(port, "/plugins", token):
            run["plugins"][plugin["id"]] = _call(port, token, plugin)
        run["started_in"] = str(_scope_of(gateway.pid))
        run["tree"] = _tree(_scope_of(_gateway_of(gateway.pid)))
    finally:
        run["log"] = _stop(gateway, log)
    return run


def _wait_for_line(log: Path, prefix: str, gateway: subprocess.Popen[bytes]) -> str:
    """The gateway's first line starting with `prefix` (`gpp serve` says its cgroups first)."""
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith(prefix):
                return line
        if gateway.poll() is not None:
            raise RuntimeError(f"the gateway exited {gateway.returncode}: {log.read_text()}")
        time.sleep(0.1)
    raise TimeoutError(f"no {prefix!r} line within {START_WITHIN_S} s: {log.read_text()}")


def _wait_healthy(port: int, gateway: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if gateway.poll() is not None:
            raise RuntimeError(f"the gateway exited {gateway.returncode}")
        time.sleep(0.1)
    raise TimeoutError(f"/healthz did not answer within {START_WITHIN_S} s")


def _request(port: int, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=CALL_WITHIN_S) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _get(port: int, path: str, token: str) -> Any:
    status, body = _request(port, path, token)
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {body}")
    return body


def _call(port: int, token: str, plugin: dict[str, Any]) -> dict[str, Any]:
    """One discovery (GPP/3) or call (JSON-RPC) of the plugin, and how the gateway runs it."""
    plugin_id = plugin["id"]
    if plugin["protocol"] == "gpp/3":
        status, body = _request(port, f"/plugins/{plugin_id}/discover", token, {"paths": ["."]})
        found = len(body.get("resources", [])) if status == 200 else 0
    else:
        call = {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}
        status, body = _request(port, f"/plugins/{plugin_id}/rpc", token, call)
        found = body.get("result") if status == 200 else 0
    answer: dict[str, Any] = {"status": status, "found": found}
    if status != 200:
        answer["problem"] = body
    answer["described"] = _get(port, f"/plugins/{plugin_id}", token)
    return answer


def _scope_of(pid: int) -> Path:
    """The cgroup `pid` started in (systemd-run --scope execs the command in it), or the
    deepest one holding it now."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return CGROUP_ROOT / line[3:].lstrip("/")
    raise RuntimeError(f"process {pid} is in no cgroup v2")


def _gateway_of(started: int) -> int:
    """The gateway's pid: `started` or the first of its descendants running `gpp serve` (make
    runs it as a child; systemd-run and the gateway asking for a scope exec, same pid)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(stat.parent.name))
    queue = [started]
    while queue:
        pid = queue.pop(0)
        if "bin/gpp serve" in (_read(Path(f"/proc/{pid}/cmdline")) or ""):
            return pid
        queue += sorted(children.get(pid, []))
    raise RuntimeError(f"no `gpp serve` in the process tree of {started}")


def _tree(scope: Path) -> dict[str, Any]:
    """Every cgroup from the gateway's scope down: its files of interest, and its processes'
    command lines (what each plugin session's group holds)."""
    if scope.name == "gpp-gateway":  # the gateway moved there, its scope is the parent
        scope = scope.parent
    groups: dict[str, Any] = {}
    for directory in sorted([scope, *scope.rglob("*")]):
        if not directory.is_dir():
            continue
        group: dict[str, Any] = {name: _read(directory / name) for name in CGROUP_FILES}
        procs = (_read(directory / "cgroup.procs") or "").split()
        group["procs"] = {pid: _read(Path(f"/proc/{pid}/cmdline")) for pid in procs}
        groups[str(directory.relative_to(scope))] = group
    marks = {}  # what systemd marks a delegated cgroup with (trusted.* only root may read)
    for mark in ("user.delegate", "trusted.delegate"):
        try:
            marks[mark] = os.getxattr(scope, mark).decode(errors="replace")
        except OSError as exc:
            marks[mark] = f"({exc.strerror})"
    owner = scope.stat().st_uid
    return {"path": str(scope), "owner_uid": owner, "marks": marks, "groups": groups}


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").replace("\0", " ").strip()
    except OSError:
        return None


def _stop(gateway: subprocess.Popen[bytes], log: Path) -> str:
    """SIGTERM to the gateway's process group (make, the gateway, its plugins), then SIGKILL;
    the log for the report."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(gateway.pid, sent)
        except ProcessLookupError:
            break
        try:
            gateway.wait(timeout=STOP_WITHIN_S)
            break
        except subprocess.TimeoutExpired:
            continue
    return log.read_text(errors="replace")[-6000:]


def _fs_type(path: Path) -> str:
    return subprocess.run(
        ["stat", "-fc", "%T", str(path)], capture_output=True, text=True, timeout=10, check=False
    ).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
