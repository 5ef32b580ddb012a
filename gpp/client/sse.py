"""Server-sent events, sans-IO: lines in, complete events out (the WHATWG event-stream format).

The client reads `/rpc` streams line by line from whichever HTTP library drives it, sync or
async; keeping the parsing here means both drivers share one tested decoder.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSentEvent:
    event: str
    data: str


class EventStreamDecoder:
    """Feed it the stream's lines (without their line ending); a blank line completes an event."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []

    def feed(self, line: str) -> ServerSentEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):  # a comment (keep-alive)
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        return None  # `id` and `retry` mean nothing to a single-response stream

    def _dispatch(self) -> ServerSentEvent | None:
        event, data = self._event or "message", self._data
        self._event, self._data = "", []
        return ServerSentEvent(event, "\n".join(data)) if data else None
