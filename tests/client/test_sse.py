"""gpp.client.sse: event-stream decoding, with lines alone (no gateway)."""

from __future__ import annotations

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
