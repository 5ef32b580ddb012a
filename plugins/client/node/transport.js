// One HTTP exchange over node:http / node:https, or HTTP over a Unix socket: the only IO here.

import http from "node:http";
import https from "node:https";
import net from "node:net";
import { checkSocket, checkTcpPeer } from "./local.js";

/**
 * @typedef {object} Target
 * @property {URL} baseUrl
 * @property {string | undefined} socketPath
 * @property {number} timeoutMs   idle budget: no byte for this long fails the exchange
 * @property {Record<string, string>} headers
 * @property {http.Agent} [checkingAgent]  for a token the client found on its own and a loopback
 *   URL: who listens is checked (`checkTcpPeer`) on every connection before a byte is sent
 */

/**
 * Send one request; resolve with the response once its headers are in (the body is still a
 * stream). An abort of `signal` or the idle timeout destroys the socket, so the gateway sees
 * the client leave and cancels at the plugin.
 * @param {Target} target
 * @param {{method: string, path: string, body?: unknown, accept?: string, signal?: AbortSignal}} request
 * @returns {Promise<http.IncomingMessage>}
 */
export function exchange(target, { method, path, body, accept, signal }) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), "utf8");
  /** @type {Record<string, string>} */
  const headers = { accept: accept ?? "application/json" };
  if (payload !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(payload.length);
  }
  Object.assign(headers, target.headers);
  const url = new URL(path.replace(/^\//, ""), target.baseUrl);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    if (target.socketPath !== undefined) {
      try {
        checkSocket(target.socketPath); // before any byte, the token included, goes out
      } catch (error) {
        reject(error);
        return;
      }
    }
    /** @type {http.RequestOptions} */
    const options =
      target.socketPath === undefined
        ? { method, headers }
        : { method, headers, socketPath: target.socketPath };
    if (target.socketPath === undefined && target.checkingAgent && url.protocol === "http:") {
      options.agent = target.checkingAgent;
    }
    /** @type {http.IncomingMessage | undefined} */
    let answer;
    /** @param {unknown} reason */
    const fail = (reason) => {
      req.destroy(/** @type {Error} */ (reason));
      answer?.destroy(/** @type {Error} */ (reason));
    };
    const onAbort = () => fail(signal?.reason);
    const req = client.request(url, options, (response) => {
      // From here the caller reads the body: the abort and the idle timeout still apply.
      answer = response;
      response.on("error", () => {}); // an abort with nobody reading yet must not crash the engine
      response.on("close", () => signal?.removeEventListener("abort", onAbort));
      resolve(response);
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    req.setTimeout(target.timeoutMs, () => {
      fail(new DOMException(`no answer within ${target.timeoutMs} ms`, "TimeoutError"));
    });
    req.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    req.end(payload);
  });
}

/** node:http's keep-alive agent, each connection it opens checked first (`checkedConnection`). */
export class CheckingAgent extends http.Agent {
  /**
   * @param {{host?: string | null, port?: number | string | null}} options
   * @param {(error: Error | null, socket?: net.Socket) => void} done
   */
  createConnection(options, done) {
    return checkedConnection(options, done);
  }
}

/**
 * A TCP connection handed to node:http only once the kernel's socket table says its other end
 * is this user's or root's: node:http writes the request (the token in it) as soon as it has a
 * socket, so the check must come first.
 * @param {{host?: string | null, port?: number | string | null}} options
 * @param {(error: Error | null, socket?: net.Socket) => void} done
 * @returns {undefined}
 */
function checkedConnection(options, done) {
  const host = options.host ?? "localhost";
  const socket = net.connect({ host, port: Number(options.port) });
  /** @param {Error} error */
  const failed = (error) => done(error);
  socket.once("error", failed);
  socket.once("connect", () => {
    socket.off("error", failed);
    try {
      checkTcpPeer(socket, `${host}:${options.port}`);
    } catch (error) {
      socket.destroy();
      done(/** @type {Error} */ (error));
      return;
    }
    done(null, socket);
  });
  return undefined;
}

/**
 * The whole body as text. Rejects with the abort or timeout reason if the exchange dies first.
 * @param {http.IncomingMessage} response
 * @returns {Promise<string>}
 */
export async function readText(response) {
  response.setEncoding("utf8");
  let text = "";
  for await (const chunk of response) text += chunk;
  return text;
}
