"""A plugin process driven over plain pipes by the host's own `Connection`, for the pack benches."""

from __future__ import annotations

import os
import select
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bench.cpu_clock import Stopwatch
from gpp.core import Connection, Discover, Hello, Ready, Result, Role, Shutdown

T = TypeVar("T")

PLUGIN_TIMEOUT_S = 300


class PipeHost:
    """The plugin process over plain pipes, driven by the host's own `Connection`, so a
    discover is timed from its frame written to the result frame's last byte read: the
    plugin's work, its encoding and the pipe, without the host's verify of the frame (that is
    issue 13's frame-verify figure) or the event loop's scheduling."""

    def __init__(self, command: list[str], root: Path, plugin_id: str, version: str) -> None:
        self.proc = subprocess.Popen(
            command, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.conn = Connection(Role.HOST, plugin_id, version)
        self.requests = 0
        self._answer(Hello)
        self._write(self.conn.send(Ready()))

    def discover(self, paths: list[str]) -> tuple[Stopwatch, dict[str, Any]]:
        self.requests += 1
        with Stopwatch(self.proc.pid) as watch:
            self._write(self.conn.send(Discover(f"r{self.requests}", tuple(paths))))
            line = self._line()
        self.conn.receive_data(line)
        return watch, self._answer(Result).document

    def close(self) -> None:
        try:
            self._write(self.conn.send(Shutdown()))
            self.proc.wait(timeout=10)
        finally:
            self.proc.kill()
            self.proc.wait()

    def _write(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        self.proc.stdin.flush()

    def _line(self) -> bytes:
        assert self.proc.stdout is not None
        fd, chunks = self.proc.stdout.fileno(), []
        while True:
            ready, _, _ = select.select([fd], [], [], PLUGIN_TIMEOUT_S)
            chunk = os.read(fd, 1 << 20) if ready else b""
            if not chunk:
                raise RuntimeError(f"the plugin gave no complete frame within {PLUGIN_TIMEOUT_S} s")
            chunks.append(chunk)
            if chunk.endswith(b"\n"):  # lock-step: the frame is the last thing it wrote
                return b"".join(chunks)

    def _answer(self, kind: type[T]) -> T:
        while (event := self.conn.next_event()) is None:
            self.conn.receive_data(self._line())
        assert isinstance(event, kind), event
        return event


def cold_repeat_changed(
    host: PipeHost,
    changed: Path | None,
    edit: tuple[str, str],
    follows: Callable[[set[str]], bool],
) -> dict[str, Any]:
    """A pack bench's figures from a fresh plugin process (`host`, closed at the end): a cold
    discover of the repository and a repeat of it; with `changed`, one more after replacing
    `edit[0]` by `edit[1]` in that file, and whether the document `follows` the edit (judged
    on its resources' names)."""
    try:
        cold, document = host.discover(["."])
        repeat, _ = host.discover(["."])
        figures: dict[str, Any] = {"cold": cold.wall, "cold cpu": cold.cpu, "repeat": repeat.wall}
        figures["resources"] = len(document["resources"])
        if changed is not None:
            changed.write_text(changed.read_text().replace(*edit))
            after_change, after = host.discover(["."])
            figures["one changed"] = after_change.wall
            figures["change seen"] = follows({r["name"] for r in after["resources"]})
    finally:
        host.close()
    return figures
