// The client against real gateways: `gpp serve` (the repo's .venv, or GPP_BIN) on an ephemeral
// loopback port with a token, and on a Unix socket (./gateway.js). Both are stopped (SIGTERM,
// then SIGKILL if they linger) when the file's tests end.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import {
  FrameJSONError,
  GatewayClient,
  GatewayRefused,
  InvalidRequestError,
  JsonRpcError,
  PluginErrorResponse,
  ProtocolVersionError,
  SchemaError,
  UnexpectedEOFError,
  UnknownPluginError,
  UnknownTypeError,
  WatchdogTimeoutError,
} from "../index.js";
import {
  faultFixture,
  JSONRPC_EXAMPLE,
  REFERENCE_DETECTOR,
  registry,
  serveTcpAndUds,
  stop,
} from "./gateway.js";

/** @import { ProtocolError } from "../index.js" */

const TOKEN = "node-client-token";
const FAST = { handshake_ms: 5000, request_ms: 500, shutdown_ms: 500 };

/** Fixture plugin → the class and frame of the failure it provokes (tests/host/test_session.py). */
const FAULTS = [
  ["gpp2_peer", ProtocolVersionError, "E_PROTOCOL_VERSION", 1],
  ["wrong_plugin_id", UnknownPluginError, "E_UNKNOWN_PLUGIN", 1],
  ["invalid_json", FrameJSONError, "E_FRAME_JSON", 1],
  ["unknown_type", UnknownTypeError, "E_UNKNOWN_TYPE", 1],
  ["missing_field", SchemaError, "E_SCHEMA", 1],
  ["exits_mid_request", UnexpectedEOFError, "E_EOF", 2],
  ["hangs_on_discover", WatchdogTimeoutError, "E_TIMEOUT", 2],
  ["request_error", PluginErrorResponse, "E_PLUGIN_ERROR", 2],
];

/** @param {string} name */
const fixture = (name) => faultFixture(name, FAST);

const PLUGINS = [
  REFERENCE_DETECTOR,
  // a watchdog far past `until`'s bound: only the client leaving can end a call early
  { ...JSONRPC_EXAMPLE, request_ms: 120_000 },
  ...FAULTS.map(([name]) => fixture(String(name))),
  fixture("exits_before_hello"),
];

/**
 * Poll `probe` until it returns a truthy value; bounded.
 * @template T @param {() => Promise<T>} probe @param {string} what @returns {Promise<T>}
 */
async function until(probe, what, budgetMs = 20_000) {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const directory = mkdtempSync(join(tmpdir(), "gpp-node-client-"));
const socketPath = join(directory, "gateway.sock");
/** @type {import("node:child_process").ChildProcess[]} */
const gateways = [];
/** @type {GatewayClient} */ let tcp;
/** @type {GatewayClient} */ let uds;
/** @type {string} */ let baseUrl;

before(async () => {
  const config = join(directory, "registry.toml");
  writeFileSync(config, registry(PLUGINS, ["max_body_bytes = 4096"]));
  const served = await serveTcpAndUds(config, socketPath, { GPP_TOKEN: TOKEN });
  gateways.push(...served.children);
  baseUrl = served.baseUrl;
  tcp = new GatewayClient(baseUrl, { token: TOKEN, timeoutMs: 30_000 });
  uds = new GatewayClient("http://localhost", { token: TOKEN, socketPath, timeoutMs: 30_000 });
});

after(async () => {
  await Promise.all(gateways.map(stop));
  rmSync(directory, { recursive: true, force: true });
});

test("discover over TCP and over the Unix socket gives the same result document", async () => {
  const overTcp = await tcp.discover("reference-detector", ["."], { requestId: "node-1" });
  assert.equal(overTcp.requestId, "node-1");
  assert.equal(overTcp.findings[0].code, "DUPLICATE_TABLE_NAME");
  assert.ok(overTcp.resources.some((r) => r.kind === "route"));
  assert.deepEqual(
    await uds.discover("reference-detector", ["."], { requestId: "node-1" }),
    overTcp,
  );
});

for (const [name, cls, code, frame] of FAULTS) {
  test(`${code} from the gateway is thrown as ${/** @type {Function} */ (cls).name}`, async () => {
    const error = await tcp.discover(String(name), ["."], { requestId: "r-7" }).then(
      () => assert.fail("discover should have thrown"),
      (e) => e,
    );
    assert.ok(error instanceof /** @type {typeof ProtocolError} */ (cls), String(error));
    assert.equal(error.code, code);
    assert.equal(error.status, code === "E_TIMEOUT" ? 504 : 502);
    assert.equal(error.frame, frame);
    assert.equal(error.plugin, name);
    const [fail, offending] = error.diagnostic().split("\n");
    assert.ok(fail.startsWith(`[plugin-protocol] FAIL ${code}: frame ${frame}: `), fail);
    assert.ok(offending.startsWith("[plugin-protocol] offending frame: "), offending);
    if (code === "E_EOF") {
      assert.equal(error.exitCode, 4);
      assert.match(error.stderrTail, /fixture: crashing mid-request/);
    }
    if (code === "E_PLUGIN_ERROR") assert.equal(error.requestId, "r-7");
  });
}

test("field, expected and got come through", async () => {
  const error = await tcp.discover("gpp2_peer", ["."]).catch((e) => e);
  assert.deepEqual(
    [error.messageType, error.field, error.expected, error.got],
    ["hello", "protocolVersion", "3", "integer 2"],
  );
});

test("an unknown plugin is UnknownPluginError 404; a bad path is InvalidRequestError 422", async () => {
  const unknown = await tcp.discover("no-such-plugin", ["."]).catch((e) => e);
  assert.ok(unknown instanceof UnknownPluginError);
  assert.equal(unknown.status, 404);
  const bad = await uds.discover("reference-detector", ["../etc"]).catch((e) => e);
  assert.ok(bad instanceof InvalidRequestError && bad instanceof SchemaError, String(bad));
  assert.equal(bad.status, 422);
});

test("refusals: 401 without the token, 403 for a foreign Origin, 415, 413", async () => {
  /** @param {GatewayClient} client @param {string[]} [paths] */
  const refused = (client, paths = ["."]) =>
    client.discover("reference-detector", paths).catch((e) => e);
  const cases = [
    [new GatewayClient(baseUrl), 401],
    [new GatewayClient(baseUrl, { token: "wrong" }), 401],
    [
      new GatewayClient(baseUrl, { token: TOKEN, headers: { origin: "http://example.invalid" } }),
      403,
    ],
    [new GatewayClient(baseUrl, { token: TOKEN, headers: { "content-type": "text/plain" } }), 415],
  ];
  for (const [client, status] of cases) {
    const error = await refused(/** @type {GatewayClient} */ (client));
    assert.ok(error instanceof GatewayRefused, String(error));
    assert.equal(error.status, status);
    assert.equal(error.retryAfter, null);
  }
  const tooLarge = await refused(
    tcp,
    Array.from({ length: 1000 }, (_, i) => `file-${i}.gfx`),
  );
  assert.ok(tooLarge instanceof GatewayRefused);
  assert.equal(tooLarge.status, 413);
});

test("a plugin in restart back-off is GatewayRefused 503 with retryAfter and lastCode", async () => {
  const refusal = await until(async () => {
    const error = await uds.discover("exits_before_hello", ["."]).catch((e) => e);
    if (error instanceof GatewayRefused) return error;
    assert.ok(error instanceof UnexpectedEOFError, String(error)); // each failed restart
    return null;
  }, "a 503");
  assert.equal(refusal.status, 503);
  assert.equal(typeof refusal.retryAfter, "number");
  assert.ok(refusal.retryAfter > 0);
  assert.equal(refusal.lastCode, "E_EOF");
});

test("rpc returns results and throws JsonRpcError; notify gets the 204", async () => {
  assert.equal(await tcp.rpc("jsonrpc-example", "subtract", [42, 23]), 19);
  assert.equal(await uds.rpc("jsonrpc-example", "subtract", { minuend: 42, subtrahend: 23 }), 19);
  assert.deepEqual(await tcp.rpc("jsonrpc-example", "get_data"), ["hello", 5]);
  const missing = await tcp.rpc("jsonrpc-example", "no_such_method").catch((e) => e);
  assert.ok(missing instanceof JsonRpcError);
  assert.equal(missing.code, -32601);
  const invalid = await tcp.rpc("jsonrpc-example", "subtract", ["a"]).catch((e) => e);
  assert.ok(invalid instanceof JsonRpcError);
  assert.equal(invalid.code, -32602);
  assert.equal(await tcp.notify("jsonrpc-example", "update", [1, 2, 3]), undefined);
  const gpp = await tcp.rpc("reference-detector", "discover").catch((e) => e);
  assert.ok(gpp instanceof UnknownPluginError && gpp.status === 404, String(gpp));
});

test("stream yields each $/progress, then the result", async () => {
  for (const client of [tcp, uds]) {
    const items = [];
    for await (const item of client.stream("jsonrpc-example", "slow_count", { n: 3 }))
      items.push(item);
    assert.deepEqual(
      items.map((i) => i.kind),
      ["progress", "progress", "progress", "result"],
    );
    assert.deepEqual(
      items.slice(0, 3).map((i) => i.kind === "progress" && [i.params.done, i.params.total]),
      [
        [1, 3],
        [2, 3],
        [3, 3],
      ],
    );
    assert.deepEqual(items[3], { kind: "result", result: 3 });
  }
  const failing = async () => {
    for await (const item of tcp.stream("jsonrpc-example", "slow_count", { n: -1 })) void item;
  };
  await assert.rejects(failing, (e) => e instanceof JsonRpcError && e.code === -32602);
});

test("plugins() lists the registry with live state", async () => {
  const plugins = await uds.plugins();
  assert.deepEqual(plugins.map((p) => p.id).sort(), PLUGINS.map((p) => String(p.id)).sort());
  assert.equal(plugins.find((p) => p.id === "jsonrpc-example")?.protocol, "jsonrpc-2.0");
});

/**
 * Wait until jsonrpc-example is "ready" again, which it is only once the plugin has answered the
 * call the gateway cancelled for us, and check it was the same process all along.
 * @param {GatewayClient} client @param {import("../index.js").PluginInfo} busy
 */
async function pluginAnsweredTheCancel(client, busy) {
  assert.equal(busy.state, "busy");
  const idle = await until(async () => {
    const info = await client.plugin("jsonrpc-example");
    return info.state === "ready" ? info : null;
  }, "the plugin to answer the cancel");
  assert.equal(idle.pid, busy.pid);
  assert.equal(idle.restarts, busy.restarts);
  assert.equal(await client.rpc("jsonrpc-example", "sum", [1, 2]), 3);
}

// 100000 steps of 10 ms: only a cancel ends this call in under 1000 s
const ENDLESS = { n: 100_000 };

test("aborting a stream cancels the call at the plugin, which stays up", async () => {
  const controller = new AbortController();
  /** @type {import("../index.js").PluginInfo | undefined} */
  let busy;
  const consume = async () => {
    for await (const item of tcp.stream("jsonrpc-example", "slow_count", ENDLESS, {
      signal: controller.signal,
    })) {
      assert.equal(item.kind, "progress");
      busy = await tcp.plugin("jsonrpc-example");
      controller.abort();
    }
  };
  await assert.rejects(consume, { name: "AbortError" });
  assert.ok(busy);
  await pluginAnsweredTheCancel(tcp, busy);
});

test("leaving a stream's loop early cancels the call at the plugin too", async () => {
  /** @type {import("../index.js").PluginInfo | undefined} */
  let busy;
  for await (const item of uds.stream("jsonrpc-example", "slow_count", ENDLESS)) {
    assert.equal(item.kind, "progress");
    busy = await uds.plugin("jsonrpc-example");
    break;
  }
  assert.ok(busy);
  await pluginAnsweredTheCancel(uds, busy);
});

test("an aborted signal rejects before sending; timeoutMs rejects with TimeoutError", async () => {
  await assert.rejects(tcp.discover("reference-detector", ["."], { signal: AbortSignal.abort() }), {
    name: "AbortError",
  });
  const impatient = new GatewayClient(baseUrl, { token: TOKEN, timeoutMs: 200 });
  await assert.rejects(impatient.rpc("jsonrpc-example", "slow_count", ENDLESS), {
    name: "TimeoutError",
  });
  await until(
    async () => (await tcp.plugin("jsonrpc-example")).state === "ready",
    "the cancelled call",
  );
});
