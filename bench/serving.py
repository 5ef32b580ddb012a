"""A `gpp serve` child on loopback for the bench groups, and what /proc says about it.

Every wait is bounded and the child is always reaped: `Gateway` terminates it on exit (SIGTERM,
then SIGKILL when it does not go in time), whatever the block did.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
READY_BOUND_S = 60.0
STOP_BOUND_S = 30.0
REFERENCE_DETECTOR_TOML = """
[[plugin]]
id = "reference-detector"
version = "1.0.0"
command = ["{{python}}", "{repo}/plugins/reference_detector.py"]
root = "{repo}/plugins/examples/demo-repo"
"""
"""The registry entry most groups serve, a `str.format` template: fill `repo`."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def status_kib(pid: int, key: str) -> int:
    """A `kB` field of /proc/<pid>/status: VmRSS (resident now), VmHWM (its peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise LookupError(f"/proc/{pid}/status has no {key}")


def rss_kib(pid: int) -> int:
    return status_kib(pid, "VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak_rss(pid: int) -> bool:
    """Set VmHWM back to the current RSS (clear_refs 5, Linux ≥ 4.0); False where refused."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


class Gateway:
    """`python -m app serve --config CONFIG --port P` (what `gpp serve` runs), its stderr in a
    temporary log file. `ready_s` is the time from spawn to the first 200 from /readyz."""

    def __init__(self, config: Path, *, log_level: str = "warning") -> None:
        self.config = config
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_level = log_level
        self.ready_s = float("nan")
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by _stop, on exit)
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self._process is not None, "not started"
        return self._process.pid

    def __enter__(self) -> Gateway:
        started = time.monotonic()
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gpp.gateway",
                "serve",
                "--config",
                str(self.config),
                "--port",
                str(self.port),
                "--log-level",
                self.log_level,
                "--no-token",  # a throwaway gateway: the figures compare with earlier runs
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        try:
            self._wait_ready(started)
        except BaseException:
            self._stop()
            raise
        return self

    def _wait_ready(self, started: float) -> None:
        deadline = started + READY_BOUND_S
        with httpx.Client(base_url=self.base_url, timeout=1.0) as http:
            while time.monotonic() < deadline:
                assert self._process is not None
                if self._process.poll() is not None:
                    raise RuntimeError(f"gateway exited {self._process.returncode}: {self.log()}")
                with contextlib.suppress(httpx.TransportError):
                    if http.get("/readyz").status_code == 200:
                        self.ready_s = time.monotonic() - started
                        return
                time.sleep(0.01)
        raise TimeoutError(f"gateway not ready within {READY_BOUND_S} s: {self.log()}")

    def log(self) -> str:
        """The gateway's stderr so far (its tail, for an error message)."""
        return self.log_text()[-4000:]

    def log_text(self) -> str:
        """The gateway's stderr so far, whole."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def _stop(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            stop_process(process)
        self._log.close()

    def __exit__(self, *exc_info: object) -> None:
        self._stop()


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    """A scratch folder for a bench's plugins and repositories, readable by others: a root
    gateway runs each plugin as a uid of its own, which must read the repository it scans."""
    with tempfile.TemporaryDirectory(prefix="gpp-bench-") as name:
        os.chmod(name, 0o755)
        yield Path(name)


def stop_process(process: subprocess.Popen[Any], bound_s: float = STOP_BOUND_S) -> None:
    """SIGTERM, as a user stops a server; SIGKILL if it lingers past `bound_s`. Reaped either
    way. (The tests' gateway harness stops its gateways with it too.)"""
    process.terminate()
    try:
        process.wait(bound_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(bound_s)


def latencies(http: httpx.Client, stop: threading.Event, out: list[float]) -> None:
    """Milliseconds per reference-detector discover, back to back until `stop` is set."""
    while not stop.is_set():
        started = time.perf_counter()
        http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
        out.append((time.perf_counter() - started) * 1000)


def probe_while(http: httpx.Client, work: float | Callable[[], object]) -> list[float]:
    """Latencies of the reference detector while `work()` runs (or for `work` seconds)."""
    out: list[float] = []
    stop = threading.Event()
    probe = threading.Thread(target=latencies, args=(http, stop, out))
    probe.start()
    try:
        if isinstance(work, float):
            time.sleep(work)
        else:
            work()
    finally:
        stop.set()
        probe.join(120)
    return out
