// The SSE parser over every chunking of the gateway's framing.

import assert from "node:assert/strict";
import { test } from "node:test";

import { SseParser } from "../index.js";

const STREAM =
  'event: notification\ndata: {"method": "$/progress"}\n\n' +
  ": keep-alive\n\nevent: response\r\ndata: line 1\r\ndata: line 2\r\n\r\ndata:bare\n\n";
const EVENTS = [
  { event: "notification", data: '{"method": "$/progress"}' },
  { event: "response", data: "line 1\nline 2" },
  { event: "message", data: "bare" },
];

test("one chunk gives every event in order", () => {
  assert.deepEqual(new SseParser().feed(STREAM), EVENTS);
});

test("any split point gives the same events, none early", () => {
  for (let cut = 0; cut <= STREAM.length; cut += 1) {
    const parser = new SseParser();
    const events = [...parser.feed(STREAM.slice(0, cut)), ...parser.feed(STREAM.slice(cut))];
    assert.deepEqual(events, EVENTS, `split at ${cut}`);
  }
});

test("one character at a time", () => {
  const parser = new SseParser();
  assert.deepEqual(
    [...STREAM].flatMap((ch) => parser.feed(ch)),
    EVENTS,
  );
});

test("an unterminated event is not dispatched", () => {
  assert.deepEqual(new SseParser().feed("event: response\ndata: x\n"), []);
});
