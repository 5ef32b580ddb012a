// `stream()` against a loopback server that writes several SSE events in one chunk, then holds
// the stream open: what the client yields is decided by the client alone, not by how the bytes
// happened to be chunked (a loaded gateway coalesces events that a quiet one sends apart).

import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import { test } from "node:test";

import { GatewayClient } from "../index.js";

const progress = (done) =>
  `event: notification\ndata: ${JSON.stringify({
    jsonrpc: "2.0",
    method: "$/progress",
    params: { done, total: 3 },
  })}\n\n`;

/** A server answering every request with three progress events in one write, never ending. */
async function coalescingServer() {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(progress(1) + progress(2) + progress(3));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { server, baseUrl: `http://127.0.0.1:${address.port}` };
}

test("no event is yielded after an abort, even one that came in the same chunk", async () => {
  const { server, baseUrl } = await coalescingServer();
  try {
    const client = new GatewayClient(baseUrl, { token: "t", timeoutMs: 5_000 });
    const controller = new AbortController();
    /** @type {unknown[]} */
    const seen = [];
    const consume = async () => {
      for await (const item of client.stream("p", "slow", {}, { signal: controller.signal })) {
        seen.push(item);
        controller.abort();
      }
    };
    await assert.rejects(consume, { name: "AbortError" });
    assert.deepEqual(seen, [{ kind: "progress", params: { done: 1, total: 3 } }]);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("without an abort, every event of the chunk is yielded in order", async () => {
  const { server, baseUrl } = await coalescingServer();
  try {
    const client = new GatewayClient(baseUrl, { token: "t", timeoutMs: 5_000 });
    /** @type {unknown[]} */
    const seen = [];
    for await (const item of client.stream("p", "slow", {})) {
      seen.push(item);
      if (seen.length === 3) break;
    }
    assert.deepEqual(
      seen.map((item) => /** @type {{params: {done: number}}} */ (item).params.done),
      [1, 2, 3],
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
