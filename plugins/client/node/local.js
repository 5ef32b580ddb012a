// Where a local gateway keeps its token and its Unix socket, as gpp/client/local_gateway.py
// says (the same folders, the same lookup order), and the checks made before a token goes down
// a Unix socket or to a loopback port.

import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { isIPv4 } from "node:net";
import { endianness, homedir } from "node:os";
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

/**
 * `address` as /proc/net/tcp{,6} spells it: the address's 32-bit words, each read in host
 * order, in hex, then the port (as gpp/client/local_gateway.py's `_proc_address`).
 * @param {string} address @param {number} port
 */
export function procAddress(address, port) {
  const bytes = isIPv4(address) ? ipv4Bytes(address) : ipv6Bytes(address);
  let words = "";
  for (let at = 0; at < bytes.length; at += 4) {
    const word = endianness() === "LE" ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
    words += word.toString(16).toUpperCase().padStart(8, "0");
  }
  return `${words}:${port.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** @param {string} address */
function ipv4Bytes(address) {
  return Buffer.from(address.split(".").map(Number));
}

/** The 16 bytes of an IPv6 address: `::` expanded, a trailing dotted IPv4 part read as two
 * groups, a zone (`%lo`) dropped. @param {string} address */
function ipv6Bytes(address) {
  let text = address.split("%")[0];
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[2]);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const groups = (part = "") => (part === "" ? [] : part.split(":"));
  const known = [...groups(head), ...groups(tail)].length;
  const all =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array(8 - known).fill("0"), ...groups(tail)];
  const bytes = Buffer.alloc(16);
  all.forEach((group, index) => {
    bytes.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  });
  return bytes;
}

/**
 * The uid owning the other end of the local TCP connection `socket` (the listener's accepted
 * end, in the kernel's socket table), or undefined when no row names it.
 * @param {{localAddress?: string, localPort?: number, remoteAddress?: string, remotePort?: number}} socket
 */
export function tcpPeerUid(socket) {
  const ours = /** @type {[string, number]} */ ([socket.localAddress, socket.localPort]);
  const theirs = /** @type {[string, number]} */ ([socket.remoteAddress, socket.remotePort]);
  /** @param {[string, number]} end @returns {[string, number]} */
  const mapped = ([address, port]) => [`::ffff:${address}`, port];
  // a dual-stack listener's end of a v4 connection is a v4-mapped v6 socket
  const spellings = isIPv4(ours[0])
    ? [
        ["/proc/net/tcp", ours, theirs],
        ["/proc/net/tcp6", mapped(ours), mapped(theirs)],
      ]
    : [["/proc/net/tcp6", ours, theirs]];
  for (const [table, mine, other] of spellings) {
    const wanted = [
      procAddress(.../** @type {[string, number]} */ (other)),
      procAddress(.../** @type {[string, number]} */ (mine)),
    ];
    let rows;
    try {
      rows = readFileSync(/** @type {string} */ (table), "ascii").split("\n");
    } catch {
      continue;
    }
    for (const row of rows) {
      const fields = row.trim().split(/\s+/);
      if (fields.length > 7 && fields[1] === wanted[0] && fields[2] === wanted[1]) {
        return Number(fields[7]);
      }
    }
  }
  return undefined;
}

/**
 * Refuse a loopback TCP connection whose other end belongs to another user: any local user
 * may listen on the gateway's port while it is down (or first), and would be handed the token
 * this client found on its own. Loopback has no SO_PEERCRED; the kernel's socket table
 * (/proc/net/tcp, tcp6) says who owns the accepted end. Throws an Error saying why.
 * @param {{localAddress?: string, localPort?: number, remoteAddress?: string, remotePort?: number}} socket
 * @param {string} where
 */
export function checkTcpPeer(socket, where) {
  const uid = tcpPeerUid(socket);
  if (uid === undefined) {
    throw new Error(
      `${where}: cannot tell who listens (no entry in /proc/net/tcp); nothing was sent`,
    );
  }
  if (uid !== euid() && uid !== 0) {
    throw new Error(
      `${where} is served by uid ${uid}, neither you (uid ${euid()}) nor root: not a gateway of yours; nothing was sent`,
    );
  }
}
