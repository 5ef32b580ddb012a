"""One structured line per event, logfmt style: `event=request plugin=x outcome=ok ms=3.1`.

Loggers pass their fields as `extra={"fields": {...}}`; the formatter is the only place that
knows the line format, so logs stay greppable and machine-readable alike.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any


def _quote(value: Any) -> str:
    text = str(value)
    if text == "" or any(c in text for c in ' ="\\\n\t'):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


class LogfmtFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        parts = [
            f"ts={stamp}.{int(record.msecs):03d}Z",
            f"level={record.levelname.lower()}",
            f"logger={record.name}",
            f"event={_quote(record.getMessage())}",
        ]
        fields = getattr(record, "fields", None) or {}
        parts += [f"{key}={_quote(value)}" for key, value in fields.items() if value is not None]
        if record.exc_info and record.levelno >= logging.ERROR:
            exc = record.exc_info[1]
            parts.append(f"error={_quote(type(exc).__name__ + ': ' + str(exc))}")
        return " ".join(parts)


def configure(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LogfmtFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).setLevel(logging.WARNING)
