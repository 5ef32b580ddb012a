"""The client's event-stream decoding, with lines alone (no gateway)."""

from __future__ import annotations

import pytest

from gpp.client.http import JsonRpcError, Progress, Result, StreamBroken, _CallEvents
from gpp.client.sse import EventStreamDecoder, ServerSentEvent


def decode(lines: list[str]) -> list[ServerSentEvent]:
    decoder = EventStreamDecoder()
    return [event for line in lines if (event := decoder.feed(line))]


def test_fields_comments_and_blank_lines() -> None:
    assert decode(
        [
            ": keep-alive",
            "",
            "event: response",
            "data: {",
            "data:}",
            "id: 7",
            "",
            "data: plain",
            "",
            "",
        ]
    ) == [
        ServerSentEvent("response", "{\n}"),
        ServerSentEvent("message", "plain"),
    ]


def test_a_call_stream_reports_progress_then_its_result_and_ignores_the_rest() -> None:
    events = _CallEvents("p")
    lines = ['event: notification', 'data: {"method": "$/progress", "params": {"done": 1}}', "",
             'event: notification', 'data: {"method": "$/log", "params": {}}', "",
             'event: response', 'data: {"jsonrpc": "2.0", "result": 1, "id": 1}', "",
             'event: response', 'data: {"jsonrpc": "2.0", "result": 2, "id": 1}', ""]  # fmt: skip
    assert [e for line in lines for e in events.feed(line)] == [Progress({"done": 1}), Result(1)]
    events.end()


def test_a_stream_cut_short_or_answering_an_error_raises() -> None:
    events = _CallEvents("p")
    assert events.feed("event: response") == []
    with pytest.raises(StreamBroken):
        events.end()
    error = 'data: {"jsonrpc": "2.0", "error": {"code": -32602, "message": "bad"}, "id": 1}'
    events.feed(error)
    with pytest.raises(JsonRpcError) as raised:
        events.feed("")
    assert raised.value.code == -32602 and raised.value.message == "bad"
