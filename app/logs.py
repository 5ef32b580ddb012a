"""One structured line per event, logfmt style: `event=request plugin=x outcome=ok ms=3.1`.

Loggers pass their fields as `extra={"fields": {...}}`; the formatter is the only place that
knows the line format, so logs stay greppable and machine-readable alike. Values come from
hostile parties (request ids, plugin stderr), so the renderer escapes everything that could end
a line or move the cursor: one record is always one line, and no value can forge another.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from typing import Any

_NEEDS_QUOTES = re.compile(r'[\s="\\]|[^\x21-\x7e]')
_CONTROLS = (
    "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufeff"
)
"""C0 and C1 controls, DEL, line and paragraph separators, bidirectional formatting marks (they
reorder what a reader sees), BOM and lone surrogates: what could end a line, move the cursor,
set the clipboard (OSC 52) or clear the screen."""
_ESCAPED_IN_QUOTES = re.compile(f'["\\\\{_CONTROLS}]')
_ESCAPED = re.compile(f"[{_CONTROLS}]")
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _SHORT_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def escaped(text: str, *, quoted: bool = False) -> str:
    """`text` with every control written as an escape (`\\n`, `\\u001b`), so a hostile party's
    words (a plugin's stderr, its announced version, a request id) are shown, never acted on by
    a terminal, and one line stays one line. `quoted`: for inside double quotes, where `"` and
    backslash are escaped too. The logs and every CLI line that carries a plugin's words use it."""
    return (_ESCAPED_IN_QUOTES if quoted else _ESCAPED).sub(_escape, text)


def logfmt_value(value: Any) -> str:
    """A value as logfmt: bare when it is plain visible ASCII, else quoted with escapes."""
    text = value if type(value) is str else str(value)
    if text and not _NEEDS_QUOTES.search(text):
        return text
    return '"' + escaped(text, quoted=True) + '"'


class LogfmtFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._second = -1
        self._stamp = ""

    def _timestamp(self, record: logging.LogRecord) -> str:
        """The record's UTC second, formatted once per second (a request line per request)."""
        second = int(record.created)
        if second != self._second:
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return self._stamp

    def format(self, record: logging.LogRecord) -> str:
        parts = [
            f"ts={self._timestamp(record)}.{int(record.msecs):03d}Z",
            f"level={record.levelname.lower()}",
            f"logger={logfmt_value(record.name)}",
            f"event={logfmt_value(record.getMessage())}",
        ]
        fields = getattr(record, "fields", None) or {}
        parts += [
            f"{key}={logfmt_value(value)}" for key, value in fields.items() if value is not None
        ]
        if record.exc_info and record.levelno >= logging.ERROR:
            exc = record.exc_info[1]
            parts.append(f"error={logfmt_value(type(exc).__name__ + ': ' + str(exc))}")
        return " ".join(parts)


def configure(level: str = "info") -> None:
    # What the formatter never shows, not collected for every record (the logging HOWTO's
    # "Optimization"): the caller's file and line (a walk up the stack per record), thread,
    # process and multiprocessing names. The gateway writes a line per request.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LogfmtFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).setLevel(logging.WARNING)
