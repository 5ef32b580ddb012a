// PluginSession against real gateways (`gpp serve` over TCP with a token, and over a Unix
// socket): the documents are the HTTP route's, byte for byte; failures are the client's classes.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import * as client from "@gate-forge/gateway-client";
import {
  faultFixture,
  JSONRPC_EXAMPLE,
  REFERENCE_DETECTOR,
  registry,
  serveTcpAndUds,
  stop,
} from "../../../client/node/test/gateway.js";
import { canonicalize, PluginErrorResponse, PluginSession, UnknownPluginError } from "../index.js";

const TOKEN = "compat-token";
const PLUGINS = [REFERENCE_DETECTOR, faultFixture("request_error"), JSONRPC_EXAMPLE];

const directory = mkdtempSync(join(tmpdir(), "gpp-compat-"));
const socketPath = join(directory, "gateway.sock");
/** @type {import("node:child_process").ChildProcess[]} */
const gateways = [];
/** @type {string} */ let baseUrl;

before(async () => {
  const config = join(directory, "registry.toml");
  writeFileSync(config, registry(PLUGINS));
  const served = await serveTcpAndUds(config, socketPath, { GPP_TOKEN: TOKEN });
  gateways.push(...served.children);
  baseUrl = served.baseUrl;
});

after(async () => {
  await Promise.all(gateways.map(stop));
  rmSync(directory, { recursive: true, force: true });
});

/**
 * The HTTP route's own answer, as bytes: POST /plugins/{id}/discover, no client library.
 * @param {{url?: string, socketPath?: string}} where @param {string} pluginId @param {unknown} body
 */
function routeBytes(where, pluginId, body) {
  const payload = Buffer.from(JSON.stringify(body));
  const url = new URL(`/plugins/${pluginId}/discover`, where.url ?? "http://localhost");
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        socketPath: where.socketPath,
        headers: {
          "content-type": "application/json",
          "content-length": String(payload.length),
          authorization: `Bearer ${TOKEN}`,
        },
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("no answer in 30 s")));
    request.on("error", reject);
    request.end(payload);
  });
}

const TIMEOUTS = { handshakeMs: 30_000, requestMs: 30_000, shutdownMs: 30_000 };

test("an engine's documents are the HTTP route's, byte for byte, over TCP and the Unix socket", async () => {
  for (const where of [{ url: baseUrl }, { socketPath }]) {
    const gateway = where.url ?? { socketPath: where.socketPath };
    const session = new PluginSession({
      gateway: /** @type {any} */ (gateway),
      pluginId: "reference-detector",
      pluginVersion: "1.0.0",
      token: TOKEN,
      timeouts: TIMEOUTS,
    });
    await session.start();
    assert.equal(session.info?.id, "reference-detector");
    const paths = [["."], ["api/users.gfx"], ["."]];
    const documents = [];
    for (const [index, list] of paths.entries()) {
      documents.push(await session.discover(list, { requestId: `engine-${index}` }));
    }
    await session.shutdown();
    for (const [index, list] of paths.entries()) {
      const route = await routeBytes(where, "reference-detector", {
        paths: list,
        requestId: `engine-${index}`,
      });
      assert.equal(route.status, 200);
      assert.equal(canonicalize(documents[index]), route.body.toString("utf8"));
    }
    assert.equal(documents[0].findings[0].code, "DUPLICATE_TABLE_NAME");
    await assert.rejects(session.discover(["."]), /session is not running/);
  }
});

test("concurrent discovers are answered in the order they were made", async () => {
  const session = new PluginSession({
    gateway: { socketPath },
    pluginId: "reference-detector",
    pluginVersion: "1.0.0",
    token: TOKEN,
    timeouts: TIMEOUTS,
  });
  await session.start();
  const settled = [];
  const calls = ["a", "b", "c", "d"].map((id) =>
    session.discover(["."], { requestId: id }).then((doc) => {
      settled.push(doc.requestId);
      return doc.requestId;
    }),
  );
  assert.deepEqual(await Promise.all(calls), ["a", "b", "c", "d"]);
  assert.deepEqual(settled, ["a", "b", "c", "d"]);
  await session.dispose();
});

test("the gateway's failures are the client's classes, shared, not copies", async () => {
  assert.equal(UnknownPluginError, client.UnknownPluginError);
  const session = new PluginSession({
    gateway: baseUrl,
    pluginId: "request_error",
    pluginVersion: "1.0.0",
    token: TOKEN,
    timeouts: TIMEOUTS,
  });
  await session.start();
  const error = await session.discover(["."], { requestId: "r-1" }).catch((e) => e);
  assert.ok(
    error instanceof PluginErrorResponse && error instanceof client.ProtocolError,
    String(error),
  );
  assert.equal(error.code, "E_PLUGIN_ERROR");
  assert.equal(error.status, 502);
  assert.equal(error.requestId, "r-1");
  // the session stays usable after a request-scoped error, as the original one did (this
  // fixture serves its second request)
  assert.equal((await session.discover(["."], { requestId: "r-2" })).requestId, "r-2");
  await session.shutdown();
});

test("start(): an unknown id, a JSON-RPC plugin and a wrong version are UnknownPluginError", async () => {
  const cases = [
    ["no-such-plugin", "1.0.0", 404, null],
    ["jsonrpc-example", "1.0.0", 0, "protocol"],
    ["reference-detector", "2.0.0", 0, "pluginVersion"],
  ];
  for (const [pluginId, pluginVersion, status, field] of cases) {
    const session = new PluginSession({
      gateway: { socketPath },
      pluginId: String(pluginId),
      pluginVersion: String(pluginVersion),
      token: TOKEN,
      timeouts: TIMEOUTS,
    });
    const error = await session.start().catch((e) => e);
    assert.ok(error instanceof UnknownPluginError, `${pluginId}: ${error}`);
    assert.equal(error.code, "E_UNKNOWN_PLUGIN");
    assert.equal(error.status, status);
    if (field) assert.equal(error.field, field);
    // an id the gateway does not know is the caller's mistake, said to the caller (404); a
    // plugin that is not the one asked for is a protocol failure, said as one
    const said =
      status === 404
        ? /^no plugin is registered under /
        : /^\[plugin-protocol\] FAIL E_UNKNOWN_PLUGIN: /;
    assert.match(error.diagnostic(), said);
    await assert.rejects(session.discover(["."]), /session is not running/);
    await session.dispose();
  }
});

test("a refused token is the client's GatewayRefused", async () => {
  const session = new PluginSession({
    gateway: baseUrl,
    pluginId: "reference-detector",
    pluginVersion: "1.0.0",
    token: "wrong",
  });
  const error = await session.start().catch((e) => e);
  assert.ok(error instanceof client.GatewayRefused, String(error));
  assert.equal(error.status, 401);
});
