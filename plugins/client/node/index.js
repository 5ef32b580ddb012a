// The engine's client for the gate-forge gateway, for Node ≥ 20 with no dependencies: result
// documents in, the gateway's failures out as the error classes of ./errors.js.

import { errorFromProblem, JsonRpcError } from "./errors.js";
import { findToken, isLoopback } from "./local.js";
import { SseParser } from "./sse.js";
import { CheckingAgent, exchange, readText } from "./transport.js";

export * from "./errors.js";
export { checkSocket, checkTcpPeer, defaultTokenFile, findToken, tcpPeerUid } from "./local.js";
export { SseParser } from "./sse.js";

const DEFAULT_TIMEOUT_MS = 120_000;
const PROGRESS = "$/progress";

/** @typedef {import("node:http").IncomingMessage} IncomingMessage */

/**
 * The error a non-success answer means, once its body is read.
 * @param {IncomingMessage} response
 */
async function refusal(response) {
  const text = await readText(response);
  let problem;
  try {
    problem = JSON.parse(text);
  } catch {
    problem = { title: response.statusMessage, detail: text };
  }
  const header = response.headers["retry-after"];
  return errorFromProblem(
    response.statusCode ?? 0,
    problem,
    Array.isArray(header) ? header[0] : header,
  );
}

/**
 * The result of a JSON-RPC response, or its error thrown.
 * @param {any} message
 */
function rpcResult(message) {
  if (message !== null && typeof message === "object" && "error" in message) {
    throw new JsonRpcError(message.error);
  }
  return message?.result;
}

/** @param {string} pluginId */
function pluginPath(pluginId) {
  return `/plugins/${encodeURIComponent(pluginId)}`;
}

export class GatewayClient {
  #target;
  #nextId = 1;

  /**
   * @param {string} baseUrl  e.g. "http://127.0.0.1:8787"; with `socketPath`, only its path counts
   * Without `token`, it is found as `gpp token` finds it: GPP_TOKEN, `tokenFile`, then the file
   * `gpp serve` generates (that one only for a gateway on this host).
   * @param {{token?: string, tokenFile?: string, socketPath?: string, timeoutMs?: number, headers?: Record<string, string>}} [options]
   */
  constructor(
    baseUrl,
    { token, tokenFile, socketPath, timeoutMs = DEFAULT_TIMEOUT_MS, headers = {} } = {},
  ) {
    const base = new URL(baseUrl);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    const extra = { ...headers };
    const found =
      token ?? findToken({ tokenFile, defaultFile: socketPath !== undefined || isLoopback(base) });
    if (found) extra.authorization = `Bearer ${found}`;
    // A token it found on its own goes only to a loopback listener of this user or root.
    const checkingAgent =
      token === undefined && socketPath === undefined && isLoopback(base)
        ? new CheckingAgent({ keepAlive: true })
        : undefined;
    this.#target = { baseUrl: base, socketPath, timeoutMs, headers: extra, checkingAgent };
  }

  /**
   * @param {string} method @param {string} path
   * @param {{body?: unknown, accept?: string, signal?: AbortSignal}} [options]
   */
  #send(method, path, options = {}) {
    return exchange(this.#target, { method, path, ...options });
  }

  /**
   * A JSON answer with status `ok`, else the error the answer means.
   * @param {Promise<IncomingMessage>} sent @param {number} ok
   */
  async #json(sent, ok = 200) {
    const response = await sent;
    if (response.statusCode !== ok) throw await refusal(response);
    const text = await readText(response);
    return text === "" ? undefined : JSON.parse(text);
  }

  /**
   * Run `discover` on a GPP/3 plugin: the result document, or the ProtocolError it met.
   * @param {string} pluginId @param {string[]} paths
   * @param {{requestId?: string, signal?: AbortSignal}} [options]
   */
  discover(pluginId, paths, { requestId, signal } = {}) {
    const body = requestId === undefined ? { paths } : { paths, requestId };
    return this.#json(this.#send("POST", `${pluginPath(pluginId)}/discover`, { body, signal }));
  }

  /**
   * Call a JSON-RPC plugin's method: its result, or a JsonRpcError.
   * @param {string} pluginId @param {string} method @param {unknown} [params]
   * @param {{signal?: AbortSignal}} [options]
   */
  async rpc(pluginId, method, params, { signal } = {}) {
    const body = this.#request(method, params, this.#nextId++);
    return rpcResult(
      await this.#json(this.#send("POST", `${pluginPath(pluginId)}/rpc`, { body, signal })),
    );
  }

  /**
   * Send a JSON-RPC notification: no answer but the gateway's 204.
   * @param {string} pluginId @param {string} method @param {unknown} [params]
   */
  async notify(pluginId, method, params) {
    await this.#json(
      this.#send("POST", `${pluginPath(pluginId)}/rpc`, { body: this.#request(method, params) }),
      204,
    );
  }

  /**
   * Call a method and receive its notifications as they come, then its result: yields
   * `{kind: "progress", params}` per `$/progress`, `{kind: "notification", method, params}` for
   * any other, and last `{kind: "result", result}` (a JSON-RPC error is thrown instead).
   * Leaving the loop early or aborting `signal` closes the request: the plugin gets the cancel,
   * and no event is yielded after the abort, not even one that came in the same chunk.
   * @param {string} pluginId @param {string} method @param {unknown} [params]
   * @param {{signal?: AbortSignal}} [options]
   */
  async *stream(pluginId, method, params, { signal } = {}) {
    const body = this.#request(method, params, this.#nextId++);
    const response = await this.#send("POST", `${pluginPath(pluginId)}/rpc`, {
      body,
      signal,
      accept: "text/event-stream",
    });
    if (response.statusCode !== 200) throw await refusal(response);
    const parser = new SseParser();
    response.setEncoding("utf8");
    // Leaving this loop early (break, throw, abort) destroys the response: the client leaves.
    for await (const chunk of response) {
      for (const { event, data } of parser.feed(chunk)) {
        // One chunk may carry several events: none is handed out once the caller has aborted.
        signal?.throwIfAborted();
        const message = JSON.parse(data);
        if (event === "response") {
          yield { kind: "result", result: rpcResult(message) };
          return;
        }
        yield message.method === PROGRESS
          ? { kind: "progress", params: message.params }
          : { kind: "notification", method: message.method, params: message.params };
      }
    }
    throw new Error("the gateway closed the stream before the response event");
  }

  /** The registry and each plugin's live state (`GET /plugins`). */
  plugins({ signal } = /** @type {{signal?: AbortSignal}} */ ({})) {
    return this.#json(this.#send("GET", "/plugins", { signal }));
  }

  /**
   * One plugin's live state (`GET /plugins/{id}`).
   * @param {string} pluginId @param {{signal?: AbortSignal}} [options]
   */
  plugin(pluginId, { signal } = {}) {
    return this.#json(this.#send("GET", pluginPath(pluginId), { signal }));
  }

  /** @param {string} method @param {unknown} params @param {number} [id] */
  #request(method, params, id) {
    /** @type {Record<string, unknown>} */
    const message = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    if (id !== undefined) message.id = id;
    return message;
  }
}
