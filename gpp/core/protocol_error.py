"""`ProtocolError`, the base of the fail-closed error values of GPP/3, and the one place they
are rendered.

Each `E_*` code is its own subclass (generated from the contract into `gpp.core.contract_errors`,
re-exported with this module's names by `gpp.core.codes`), so callers can `except
WatchdogTimeoutError` on the cause they care about, while every renderer (the two diagnostic lines
here; the gateway's problem+json document in `app/problems.py` and the client's reconstruction in
`gpp.client.http`) reads the same fields.
"""

from __future__ import annotations

import signal
from typing import ClassVar

__all__ = [
    "OFFENDING_FRAME_LIMIT",
    "PREFIX",
    "ProtocolError",
    "describe_exit",
    "truncate",
]

PREFIX = "[plugin-protocol]"
OFFENDING_FRAME_LIMIT = 512


class ProtocolError(Exception):
    """A single-cause GPP/3 failure. `problem` is the short statement of what is wrong."""

    code: ClassVar[str] = "E_PROTOCOL"
    title: ClassVar[str] = "Plugin protocol violation"

    def __init__(
        self,
        problem: str,
        *,
        frame: int | None = None,
        message_type: str | None = None,
        field: str | None = None,
        expected: str | None = None,
        got: str | None = None,
        offending_frame: bytes | str | None = None,
        exit_code: int | None = None,
        stderr_tail: str | None = None,
        request_id: str | None = None,
    ) -> None:
        self.problem = problem
        self.frame = frame
        self.message_type = message_type
        self.field = field
        self.expected = expected
        self.got = got
        if isinstance(offending_frame, bytes):
            offending_frame = offending_frame.decode("utf-8", "backslashreplace")
        self.offending_frame = offending_frame
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail
        self.request_id = request_id
        super().__init__(problem)

    def __str__(self) -> str:  # fields may be completed after raise (exit code, stderr)
        return self.fail_line()

    @property
    def subject(self) -> str | None:
        """`result.payload.classificationSignals`: where in the frame the fault is."""
        parts = [p for p in (self.message_type, self.field) if p]
        return ".".join(parts) or None

    def fail_line(self) -> str:
        text = f"{PREFIX} FAIL {self.code}: "
        if self.frame is not None:
            text += f"frame {self.frame}: "
        subject = self.subject
        text += f"{subject} {self.problem}" if subject else self.problem
        said = [
            f"{label} {value}"
            for label, value in (("expected", self.expected), ("got", self.got))
            if value
        ]
        if said:  # what is unknown is left unsaid ("missing — expected array", not "got nothing")
            text += " — " + ", ".join(said)
        if self.exit_code is not None and self.got != describe_exit(self.exit_code):
            text += f" ({describe_exit(self.exit_code)})"
        return text

    def offending_line(self) -> str:
        return f"{PREFIX} offending frame: {truncate(self.offending_frame)}"

    def diagnostic(self) -> str:
        """The two lines every violation renders, joined by a newline."""
        return self.fail_line() + "\n" + self.offending_line()


def describe_exit(returncode: int) -> str:
    """`exit code 3` or `killed by SIGKILL` from a subprocess returncode."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exit code {returncode}"


def truncate(frame: str | None, limit: int = OFFENDING_FRAME_LIMIT) -> str:
    if not frame:
        return "(none)"
    return frame if len(frame) <= limit else frame[: limit - 1] + "…"
