"""app.logs: one logfmt line per event, which hostile input (a request id, a plugin's words)
cannot end early, forge, or use to move the terminal's cursor."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from gateway_harness import echo_plugin, running_gateway, write_config

from app.logs import LogfmtFormatter, logfmt_value

HOSTILE = 'a\rts=x level=error forged\nb\x1b[2J\x85\u2028\u2029\u202e\x7f\ud800"\\ end'


RAW_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202e\ud800-\udfff]")


def render(message: str, **fields: Any) -> str:
    record = logging.LogRecord("gpp.test", logging.INFO, __file__, 1, message, None, None)
    record.fields = fields
    return LogfmtFormatter().format(record)


def test_logfmt_escapes_everything_that_could_end_a_line_or_move_the_cursor() -> None:
    line = render(HOSTILE, requestId=HOSTILE)
    assert RAW_CONTROLS.search(line) is None
    escaped = (
        r'"a\rts=x level=error forged\nb\u001b[2J\u0085\u2028\u2029\u202e\u007f\ud800\"\\ end"'
    )
    assert line.endswith(f"event={escaped} requestId={escaped}")
    line.encode("utf-8")  # a lone surrogate would make the log stream raise


@pytest.mark.parametrize(
    ("value", "rendered"),
    [("ok", "ok"), ("", '""'), ("a b", '"a b"'), ("k=v", '"k=v"'), ("é", '"é"'), (3.5, "3.5")],
)
def test_logfmt_leaves_plain_values_bare_and_quotes_the_rest(value: Any, rendered: str) -> None:
    assert logfmt_value(value) == rendered


def test_a_request_id_cannot_forge_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    config = write_config(tmp_path, [echo_plugin()])
    forged = "x\rts=2026-01-01T00:00:00.000Z level=error logger=gpp.gateway event=forged"
    with running_gateway(config) as gw, gw.client() as http:
        response = http.post("/plugins/echo/discover", json={"paths": ["a"], "requestId": forged})
    assert response.status_code == 200 and response.json()["requestId"] == forged
    lines = [LogfmtFormatter().format(r) for r in caplog.records if r.getMessage() == "request"]
    assert len(lines) == 1 and "\r" not in lines[0]
    assert 'requestId="x\\rts=2026-01-01T00:00:00.000Z level=error' in lines[0]
