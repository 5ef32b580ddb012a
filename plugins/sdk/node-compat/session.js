// PluginSession with the original package's shape, driving a plugin THROUGH THE GATEWAY: the
// engine names the gateway (URL or Unix socket) and the registered plugin id where it used to
// name a command, and keeps every other line. The gateway owns the plugin's process, sandbox
// and GPP/3 session; this object is one engine's lock-step view of it over the HTTP API.

import { setTimeout as sleep } from "node:timers/promises";

import {
  ERROR_CLASSES,
  GatewayClient,
  GatewayRefused,
  ProtocolError,
  UnknownPluginError,
  WatchdogTimeoutError,
} from "@gate-forge/gateway-client";

/** @import { PluginInfo, ResultDocument } from "@gate-forge/gateway-client" */

const PREFIX = "[plugin-protocol]";
/** The original host's defaults (gpp.host.Timeouts). */
export const DEFAULT_TIMEOUTS = Object.freeze({
  handshakeMs: 10_000,
  requestMs: 10_000,
  shutdownMs: 5_000,
});
/** How often start() asks again while the gateway says the plugin is "starting". */
const POLL_MS = 20;
/** A session found this failure itself: no gateway answer carried it. */
const NO_STATUS = 0;

/**
 * A problem document in the gateway's shape, with the FAIL line rendered as gpp/core/codes.py renders
 * it, so an error the session raises reads like one the gateway sent.
 * @param {string} code @param {string} plugin
 * @param {{problem: string, messageType?: string, field?: string, expected?: string, got?: string, requestId?: string}} fault
 */
function problemDocument(code, plugin, fault) {
  const subject = [fault.messageType, fault.field].filter(Boolean).join(".");
  let detail = `${PREFIX} FAIL ${code}: ${subject ? `${subject} ${fault.problem}` : fault.problem}`;
  if (fault.expected !== undefined || fault.got !== undefined) {
    detail += ` — expected ${fault.expected ?? "nothing"}, got ${fault.got ?? "nothing"}`;
  }
  return {
    code,
    detail,
    plugin,
    frame: null,
    messageType: fault.messageType ?? null,
    field: fault.field ?? null,
    expected: fault.expected ?? null,
    got: fault.got ?? null,
    requestId: fault.requestId ?? null,
    problem: fault.problem,
  };
}

/** @param {unknown} value @param {string} name */
function positive(value, name) {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`timeouts.${name} must be a positive number of milliseconds`);
  }
  return value;
}

export class PluginSession {
  /** @type {GatewayClient} */ #client;
  /** @type {{handshakeMs: number, requestMs: number, shutdownMs: number}} */ #timeouts;
  /** @type {"new" | "starting" | "started" | "closing" | "closed"} */ #state = "new";
  /** Settles when the last queued discover has: the lock-step chain. */
  /** @type {Promise<void>} */ #tail = Promise.resolve();
  /** Aborted by dispose(): every request in flight or queued ends at once. */
  #released = new AbortController();
  /** @type {PluginInfo | null} */ #info = null;

  /**
   * @param {{
   *   gateway: string | {url?: string, socketPath?: string},
   *   pluginId: string, pluginVersion: string, token?: string,
   *   headers?: Record<string, string>,
   *   timeouts?: {handshakeMs?: number, requestMs?: number, shutdownMs?: number},
   * }} options
   */
  constructor(options) {
    const { gateway, pluginId, pluginVersion, token, headers, timeouts = {} } = options ?? {};
    if (options && "command" in options) {
      throw new TypeError(
        "PluginSession runs the plugin through the gateway: register the command in the " +
          "gateway's registry and give `gateway` (its URL, or {socketPath}) instead of `command`",
      );
    }
    if (typeof pluginId !== "string" || pluginId === "")
      throw new TypeError("pluginId is required");
    if (typeof pluginVersion !== "string" || pluginVersion === "") {
      throw new TypeError("pluginVersion is required");
    }
    const where = typeof gateway === "string" ? { url: gateway } : (gateway ?? {});
    if (!where.url && !where.socketPath) {
      throw new TypeError("gateway is required: its URL, or {socketPath} for `gpp serve --uds`");
    }
    const merged = { ...DEFAULT_TIMEOUTS, ...timeouts };
    this.#timeouts = {
      handshakeMs: positive(merged.handshakeMs, "handshakeMs"),
      requestMs: positive(merged.requestMs, "requestMs"),
      shutdownMs: positive(merged.shutdownMs, "shutdownMs"),
    };
    this.pluginId = pluginId;
    this.pluginVersion = pluginVersion;
    this.#client = new GatewayClient(where.url ?? "http://localhost", {
      token,
      headers,
      socketPath: where.socketPath,
      // the client's idle budget only backs ours up: each call's own signal fires first
      timeoutMs: 2 * Math.max(this.#timeouts.handshakeMs, this.#timeouts.requestMs),
    });
  }

  /** The gateway's view of the plugin when start() returned (`GET /plugins/{id}`), or null. */
  get info() {
    return this.#info;
  }

  /**
   * Resolves once the gateway has the plugin registered under this id and version, as a GPP/3
   * plugin able to take a request: "ready", "busy" (it queues), or "idle"/"failed" (the gateway
   * starts a session on the first discover, and a failure to start is that discover's error).
   * While it is "starting" this asks again, within handshakeMs. A plugin in restart back-off
   * rejects with the class of the failure that started it.
   */
  async start() {
    if (this.#state !== "new") throw new Error(`session is ${this.#state}: start() runs once`);
    this.#state = "starting";
    try {
      const info = await this.#ready();
      if (this.#state !== "starting") throw new Error("session was released during start()");
      this.#info = info;
      this.#state = "started";
    } catch (error) {
      if (this.#state === "starting") this.#state = "closed";
      throw error;
    }
  }

  /**
   * The result document for `paths`, as `POST /plugins/{id}/discover` answers it. Lock-step:
   * calls made before the previous one settled wait their turn, in order; each has requestMs
   * from when it is sent.
   * @param {string[]} paths @param {{requestId?: string}} [options]
   * @returns {Promise<ResultDocument>}
   */
  discover(paths, { requestId } = {}) {
    if (this.#state !== "started") return Promise.reject(new Error("session is not running"));
    const turn = this.#tail.then(() => this.#discoverNow(paths, requestId));
    this.#tail = turn.then(
      () => {},
      () => {},
    );
    return turn;
  }

  /**
   * Release the plugin: take no more calls, let those already made finish (within shutdownMs,
   * else they are abandoned and this rejects with WatchdogTimeoutError). The gateway's own
   * session is not stopped: it is shared, and the gateway ends it at its shutdown or reload.
   */
  async shutdown() {
    if (this.#state === "closed" || this.#state === "closing") return;
    this.#state = "closing";
    const budget = this.#timeouts.shutdownMs;
    let timer;
    const expired = new Promise((resolve) => {
      timer = setTimeout(() => resolve(true), budget);
    });
    const late = await Promise.race([this.#tail.then(() => false), expired]);
    clearTimeout(timer);
    this.#state = "closed";
    if (late) {
      this.#released.abort(new Error("session shut down"));
      throw new WatchdogTimeoutError(
        problemDocument("E_TIMEOUT", this.pluginId, {
          messageType: "bye",
          problem: `not reached: discover calls still running after shutdownMs ${budget} ms`,
        }),
        NO_STATUS,
      );
    }
  }

  /** Best-effort release that never throws: calls in flight or queued end now (rejected). */
  async dispose() {
    this.#state = "closed";
    this.#released.abort(new Error("session disposed"));
    await this.#tail;
  }

  async #ready() {
    const budget = this.#timeouts.handshakeMs;
    const signal = this.#signal(budget);
    try {
      for (;;) {
        const info = await this.#client.plugin(this.pluginId, { signal });
        this.#check(info);
        if (info.state !== "starting") return this.#usable(info);
        await sleep(POLL_MS, undefined, { signal });
      }
    } catch (error) {
      throw this.#translate(error, signal, { messageType: "hello", what: "handshakeMs", budget });
    }
  }

  /** @param {PluginInfo} info */
  #check(info) {
    if (info.protocol !== "gpp/3") {
      throw new UnknownPluginError(
        problemDocument("E_UNKNOWN_PLUGIN", this.pluginId, {
          field: "protocol",
          problem: "is not a GPP/3 plugin",
          expected: "gpp/3",
          got: String(info.protocol),
        }),
        NO_STATUS,
      );
    }
    if (info.version !== this.pluginVersion) {
      throw new UnknownPluginError(
        problemDocument("E_UNKNOWN_PLUGIN", this.pluginId, {
          field: "pluginVersion",
          problem: "does not match the pinned plugin",
          expected: JSON.stringify(this.pluginVersion),
          got: `registered version ${JSON.stringify(info.version)}`,
        }),
        NO_STATUS,
      );
    }
  }

  /** @param {PluginInfo} info */
  #usable(info) {
    if (info.state !== "backoff") return info;
    const problem = {
      code: info.lastCode,
      detail: info.lastDiagnostic ?? "plugin in restart back-off",
      plugin: this.pluginId,
      retryAfter: info.retryAfter,
      lastCode: info.lastCode,
    };
    const cls = info.lastCode ? ERROR_CLASSES[info.lastCode] : undefined;
    throw cls ? new cls(problem, 503) : new GatewayRefused(503, problem, info.retryAfter);
  }

  /** @param {string[]} paths @param {string | undefined} requestId */
  async #discoverNow(paths, requestId) {
    if (this.#released.signal.aborted) throw this.#released.signal.reason;
    const budget = this.#timeouts.requestMs;
    const signal = this.#signal(budget);
    try {
      return await this.#client.discover(this.pluginId, paths, { requestId, signal });
    } catch (error) {
      throw this.#translate(error, signal, {
        messageType: "result",
        what: "requestMs",
        budget,
        requestId,
      });
    }
  }

  /** Aborted by dispose() or after `ms`. @param {number} ms */
  #signal(ms) {
    return AbortSignal.any([this.#released.signal, AbortSignal.timeout(ms)]);
  }

  /**
   * What a failed exchange means to the engine: the gateway's own error as it is; our budget
   * running out is E_TIMEOUT, as the original host's watchdog said; a release, its reason.
   * @param {unknown} error @param {AbortSignal} signal
   * @param {{messageType: string, what: string, budget: number, requestId?: string}} context
   */
  #translate(error, signal, { messageType, what, budget, requestId }) {
    if (error instanceof ProtocolError || error instanceof GatewayRefused) return error; // an answer
    if (this.#released.signal.aborted) return this.#released.signal.reason;
    const idle = error instanceof DOMException && error.name === "TimeoutError";
    if (!signal.aborted && !idle) return error;
    return new WatchdogTimeoutError(
      problemDocument("E_TIMEOUT", this.pluginId, {
        messageType,
        problem: `no answer from the gateway within ${what} ${budget} ms`,
        requestId,
      }),
      NO_STATUS,
    );
  }
}
