// PluginSession's own rules against a scripted stand-in for the gateway's HTTP API (loopback):
// the options, start()'s wait and checks, the budgets, lock-step order, shutdown and dispose.

import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import { after, before, test } from "node:test";

import {
  GatewayRefused,
  PluginSession,
  UnexpectedEOFError,
  WatchdogTimeoutError,
} from "../index.js";

const DOCUMENT = { resources: [], unresolved: [], findings: [], classificationSignals: [] };
const INFO = { id: "stub", version: "1.0.0", protocol: "gpp/3", state: "ready", pid: 7 };

/**
 * The stand-in: `onInfo()` answers GET /plugins/stub, `onDiscover(body, response)` a POST.
 * Every discover is recorded with whether another was still unanswered when it arrived.
 */
const stub = {
  /** @type {() => Record<string, unknown>} */ onInfo: () => INFO,
  /** @type {(body: any, response: http.ServerResponse) => void} */
  onDiscover: (body, response) => answer(response, body),
  infoCalls: 0,
  /** @type {{requestId: string, overlapped: boolean, closed: Promise<unknown>}[]} */
  discovers: [],
  inFlight: 0,
  /** @type {((value: unknown) => void)[]} */ arrivals: [],
};

/** @param {http.ServerResponse} response @param {any} body */
function answer(response, body) {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ requestId: body.requestId ?? "generated", ...DOCUMENT }));
}

/** Resolves when the stand-in has received `count` discovers in all. @param {number} count */
function arrived(count) {
  if (stub.discovers.length >= count) return Promise.resolve();
  return new Promise((resolve) =>
    stub.arrivals.push(() => stub.discovers.length >= count && resolve(undefined)),
  );
}

const server = http.createServer((request, response) => {
  let text = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => {
    text += chunk;
  });
  request.on("end", () => {
    if (request.method === "GET" && request.url === "/plugins/stub") {
      stub.infoCalls += 1;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(stub.onInfo()));
      return;
    }
    const body = JSON.parse(text);
    stub.discovers.push({
      requestId: body.requestId,
      overlapped: stub.inFlight > 0,
      closed: once(response, "close"),
    });
    stub.inFlight += 1;
    response.on("close", () => {
      stub.inFlight -= 1;
    });
    for (const wake of stub.arrivals) wake(undefined);
    stub.onDiscover(body, response);
  });
});
/** @type {string} */ let url;

before(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  url = `http://127.0.0.1:${address.port}`;
});

after(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

/** @param {Record<string, number>} [timeouts] */
function session(timeouts = {}) {
  stub.onInfo = () => INFO;
  stub.onDiscover = (body, response) => answer(response, body);
  stub.infoCalls = 0;
  stub.discovers = [];
  stub.arrivals = [];
  return new PluginSession({ gateway: url, pluginId: "stub", pluginVersion: "1.0.0", timeouts });
}

test("the constructor says what replaced `command`, and checks its options", () => {
  const base = { pluginId: "p", pluginVersion: "1" };
  assert.throws(
    () => new PluginSession(/** @type {any} */ ({ ...base, command: ["node", "p.js"] })),
    /give `gateway`.*instead of `command`/,
  );
  assert.throws(() => new PluginSession(/** @type {any} */ (base)), /gateway is required/);
  assert.throws(
    () => new PluginSession({ ...base, gateway: url, timeouts: { requestMs: 0 } }),
    /timeouts.requestMs/,
  );
  assert.throws(() => new PluginSession(/** @type {any} */ ({ gateway: url })), /pluginId/);
});

test("start() asks again while the plugin is starting, then resolves", async () => {
  const s = session();
  const states = ["starting", "starting", "ready"];
  stub.onInfo = () => ({ ...INFO, state: states.shift() ?? "ready" });
  await s.start();
  assert.equal(stub.infoCalls, 3);
  assert.equal(s.info?.state, "ready");
  await assert.rejects(s.start(), /start\(\) runs once/);
  await s.dispose();
});

test("start() past handshakeMs is WatchdogTimeoutError; a back-off is its last failure's class", async () => {
  const slow = session({ handshakeMs: 150 });
  stub.onInfo = () => ({ ...INFO, state: "starting" });
  const timeout = await slow.start().catch((e) => e);
  assert.ok(timeout instanceof WatchdogTimeoutError, String(timeout));
  assert.equal(timeout.code, "E_TIMEOUT");
  assert.equal(timeout.status, 0);
  assert.match(timeout.message, /^\[plugin-protocol\] FAIL E_TIMEOUT: hello .*handshakeMs 150 ms/);

  const failing = session();
  stub.onInfo = () => ({
    ...INFO,
    state: "backoff",
    lastCode: "E_EOF",
    lastDiagnostic: "[plugin-protocol] FAIL E_EOF: frame 1: the plugin exited",
    retryAfter: 1.5,
  });
  const backoff = await failing.start().catch((e) => e);
  assert.ok(backoff instanceof UnexpectedEOFError, String(backoff));
  assert.equal(backoff.status, 503);
  assert.equal(backoff.message, "[plugin-protocol] FAIL E_EOF: frame 1: the plugin exited");

  const unexplained = session();
  stub.onInfo = () => ({ ...INFO, state: "backoff", lastCode: null, retryAfter: 2 });
  const refused = await unexplained.start().catch((e) => e);
  assert.ok(refused instanceof GatewayRefused && refused.retryAfter === 2, String(refused));
});

test("discover() calls go one at a time, in the order made", async () => {
  const s = session();
  await s.start();
  // answered two event-loop turns after arrival: a second request sent meanwhile would overlap
  stub.onDiscover = (body, response) =>
    setImmediate(() => setImmediate(() => answer(response, body)));
  const ids = ["a", "b", "c", "d", "e"];
  const documents = await Promise.all(ids.map((id) => s.discover(["."], { requestId: id })));
  assert.deepEqual(
    documents.map((d) => d.requestId),
    ids,
  );
  assert.deepEqual(
    stub.discovers.map((d) => [d.requestId, d.overlapped]),
    ids.map((id) => [id, false]),
  );
  await s.shutdown();
});

test("a discover past requestMs is WatchdogTimeoutError and the request is closed", async () => {
  // The same budget bounds the answered call after it: 2 s, not 150 ms, so a loaded machine
  // answering a loopback call late is not read as the session's failure.
  const s = session({ requestMs: 2000 });
  await s.start();
  stub.onDiscover = () => {}; // never answered
  const error = await s.discover(["."], { requestId: "slow" }).catch((e) => e);
  assert.ok(error instanceof WatchdogTimeoutError, String(error));
  assert.equal(error.requestId, "slow");
  assert.match(error.message, /^\[plugin-protocol\] FAIL E_TIMEOUT: result .*requestMs 2000 ms/);
  await stub.discovers[0].closed; // the gateway sees the client leave: it cancels at the plugin
  stub.onDiscover = (body, response) => answer(response, body);
  assert.equal((await s.discover(["."], { requestId: "next" })).requestId, "next");
  await s.dispose();
});

test("shutdown() lets the calls already made finish, and takes no more", async () => {
  const s = session();
  await s.start();
  /** @type {(() => void)[]} */
  const held = [];
  stub.onDiscover = (body, response) => held.push(() => answer(response, body));
  const first = s.discover(["."], { requestId: "1" });
  const second = s.discover(["."], { requestId: "2" });
  await arrived(1);
  const closing = s.shutdown();
  await assert.rejects(s.discover(["."]), /session is not running/);
  held.shift()?.();
  assert.equal((await first).requestId, "1");
  await arrived(2);
  held.shift()?.();
  assert.equal((await second).requestId, "2");
  await closing;
  assert.equal(stub.discovers.length, 2);
});

test("shutdown() past shutdownMs abandons the calls and is WatchdogTimeoutError", async () => {
  const s = session({ shutdownMs: 150 });
  await s.start();
  stub.onDiscover = () => {};
  const pending = s.discover(["."]).catch((e) => e);
  await arrived(1);
  const error = await s.shutdown().catch((e) => e);
  assert.ok(error instanceof WatchdogTimeoutError, String(error));
  assert.match(error.message, /shutdownMs 150 ms/);
  assert.match(String(await pending), /session shut down/);
  await stub.discovers[0].closed;
});

test("dispose() ends the call in flight and the queued ones, and never throws", async () => {
  const s = session();
  await s.start();
  stub.onDiscover = () => {};
  const calls = ["x", "y", "z"].map((id) => s.discover(["."], { requestId: id }).catch((e) => e));
  await arrived(1);
  await s.dispose();
  for (const outcome of await Promise.all(calls)) assert.match(String(outcome), /session disposed/);
  await stub.discovers[0].closed;
  assert.equal(stub.discovers.length, 1); // the queued ones were never sent
  await s.dispose(); // again: still no throw
  const never = session();
  await never.dispose(); // before start(): nothing to release, no throw
  await assert.rejects(never.start(), /start\(\) runs once/);
});
