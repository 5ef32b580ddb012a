"""What hostile clients and a noisy plugin cost the gateway: memory, log lines, CPU, latency.

Runs `gpp serve` as a child on loopback and prints, from /proc and the gateway's own log:
- RSS before and after 1,000 requests each holding a ~1 MiB valid path and a bad one (422);
- RSS after ten attempts to send a 64 MB request header;
- for one plugin writing 20 MB to stderr: the log lines it became, the gateway's CPU time, and
  another plugin's median latency before and during the flood.
Nothing is asserted.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from gateway import free_port, wait_listening  # noqa: E402

CONFIG = """
[gateway]
port = {port}
max_body_bytes = 2097152

[[plugin]]
id = "reference-detector"
version = "1.0.0"
command = ["{{python}}", "{repo}/plugins/reference_detector.py"]
root = "{repo}/plugins/examples/demo-repo"

[[plugin]]
id = "flood"
version = "1.0.0"
command = ["{{python}}", "{repo}/tests/fixtures/plugins/plugin_stderr_flood.py"]
root = "{repo}"
env = {{ FIXTURE_PLUGIN_ID = "flood" }}
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hostile_paths(http: httpx.Client) -> None:
    for n in range(1000):
        body = {"paths": [f"r{n}/" + "p" * (1024 * 1024 - 16), "/bad"]}
        assert http.post("/plugins/reference-detector/discover", json=body).status_code == 422


def huge_header(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            for _ in range(1024):
                sock.sendall(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass


def latencies(http: httpx.Client, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
        out.append((time.perf_counter() - started) * 1000)


def main() -> None:
    port = free_port()
    workdir = Path(tempfile.mkdtemp())
    (workdir / "registry.toml").write_text(CONFIG.format(port=port, repo=REPO))
    log = (workdir / "gateway.log").open("w+")
    gateway = subprocess.Popen([sys.executable, "-m", "app", "serve", "--config",
                                str(workdir / "registry.toml")], stderr=log, cwd=REPO)  # fmt: skip
    try:
        wait_listening(port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
            before = rss_mb(gateway.pid)
            hostile_paths(http)
            print(f"RSS: {before:.0f} MB at start, {rss_mb(gateway.pid):.0f} MB after 1,000 "
                  "requests with a 1 MiB path (422)")  # fmt: skip
            for _ in range(10):
                huge_header(port)
            print(f"RSS: {rss_mb(gateway.pid):.0f} MB after ten 64 MB header attempts")

            quiet: list[float] = []
            stop = threading.Event()
            probe = threading.Thread(target=latencies, args=(http, stop, quiet))
            probe.start()
            time.sleep(2)
            stop.set()
            probe.join()
            noisy: list[float] = []
            stop = threading.Event()
            cpu = cpu_seconds(gateway.pid)
            probe = threading.Thread(target=latencies, args=(http, stop, noisy))
            probe.start()
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as other:
                other.post("/plugins/flood/discover", json={"paths": ["."]})
            time.sleep(1)  # the drain finishes reading the pipe after the answer
            stop.set()
            probe.join()
            cpu = cpu_seconds(gateway.pid) - cpu
        log.seek(0)
        lines = [line for line in log if "plugin=flood" in line]
        logged = sum(1 for line in lines if 'event="plugin stderr"' in line)
        summaries = sum(1 for line in lines if 'event="plugin stderr suppressed"' in line)
        print(
            f"stderr flood (20 MB, 20,480 lines): {logged} lines logged, {summaries} "
            f"'suppressed' lines; gateway CPU {cpu:.2f} s over the flood"
        )
        print(
            f"reference-detector p50 latency: {statistics.median(quiet):.1f} ms quiet, "
            f"{statistics.median(noisy):.1f} ms during the flood"
        )
    finally:
        gateway.terminate()
        gateway.wait(30)
        log.close()


if __name__ == "__main__":
    main()
