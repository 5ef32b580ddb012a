// Where a local gateway keeps its token and its Unix socket, as gpp/client/local_gateway.py
// says (the same folders, the same lookup order), and the check made before a token goes down
// a Unix socket.

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

const ROOT_STATE_DIR = "/var/lib/gpp";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const MAX_TOKEN_BYTES = 4096;

function euid() {
  return process.geteuid?.() ?? -1;
}

/** Where `gpp serve` keeps the token it generated: GPP_STATE_DIR, /var/lib/gpp for root, else
 * $XDG_STATE_HOME/gpp or ~/.local/state/gpp. */
export function stateDir() {
  const named = process.env.GPP_STATE_DIR;
  if (named) return named;
  if (euid() === 0) return ROOT_STATE_DIR;
  const xdg = process.env.XDG_STATE_HOME ?? "";
  return join(isAbsolute(xdg) ? xdg : join(homedir(), ".local", "state"), "gpp");
}

export function defaultTokenFile() {
  return join(stateDir(), "token");
}

/** A regular file's token; a FIFO at the path must not hang the engine. @param {string} path */
function readToken(path) {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    const buffer = Buffer.alloc(MAX_TOKEN_BYTES);
    const size = readSync(fd, buffer, 0, MAX_TOKEN_BYTES, 0);
    return buffer.subarray(0, size).toString("utf8").trim();
  } finally {
    closeSync(fd);
  }
}

/**
 * The token to send: GPP_TOKEN, else `tokenFile`'s contents (an unreadable one throws), else,
 * with `defaultFile`, the default file's when there is one.
 * @param {{tokenFile?: string, defaultFile?: boolean}} [options]
 * @returns {string | undefined}
 */
export function findToken({ tokenFile, defaultFile = true } = {}) {
  const fromEnv = (process.env.GPP_TOKEN ?? "").trim();
  if (fromEnv) return fromEnv;
  if (tokenFile !== undefined) return readToken(tokenFile);
  if (!defaultFile) return undefined;
  try {
    return readToken(defaultTokenFile()) || undefined;
  } catch {
    return undefined; // none yet, or another user's gateway
  }
}

/** Whether `url` names this host: the default token file is sent nowhere else. @param {URL} url */
export function isLoopback(url) {
  const host = url.hostname.toLowerCase();
  return LOOPBACK.has(host) || host.startsWith("127.");
}

/**
 * Refuse a Unix socket another user could have put in the gateway's place. Node has no
 * SO_PEERCRED, so this checks what makes it unnecessary: the socket and its folder belong to
 * this user or root, and nobody else may write the folder (nobody else can then have bound or
 * swapped the socket). Throws an Error saying why.
 * @param {string} socketPath
 */
export function checkSocket(socketPath) {
  const trusted = new Set([euid(), 0]);
  const socket = statSync(socketPath);
  const folder = statSync(dirname(socketPath));
  if (!socket.isSocket()) throw new Error(`${socketPath} is not a socket`);
  for (const [what, found] of [
    [socketPath, socket],
    [`${dirname(socketPath)} (its folder)`, folder],
  ]) {
    const owner = /** @type {import("node:fs").Stats} */ (found).uid;
    if (!trusted.has(owner)) {
      throw new Error(
        `${what} is owned by uid ${owner}, neither you nor root: not a gateway of yours; nothing was sent`,
      );
    }
  }
  if (folder.mode & 0o022) {
    throw new Error(
      `${dirname(socketPath)} (the socket's folder) is writable by group or others, who could put their own socket there; nothing was sent`,
    );
  }
}
