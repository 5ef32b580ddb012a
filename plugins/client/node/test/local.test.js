// Who listens, checked before a token leaves: the loopback port's owner in the kernel's socket
// table, and a Unix socket's and its folder's owner and mode. Real sockets; the other user is
// uid 65534 (spawned with `uid`/`gid`, which needs root, as the suite runs in CI).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { checkSocket, checkTcpPeer, GatewayClient, tcpPeerUid } from "../index.js";

const OTHER_UID = 65534;
const WAIT_MS = 30_000;
const AS_ROOT = { skip: process.geteuid?.() !== 0 && "acting as another user needs root" };

/** A loopback listener of OTHER_UID that accepts one connection and prints the bytes it got. */
async function listenerOfAnotherUser() {
  const script = `
    const net = require("node:net");
    const server = net.createServer((socket) => {
      let received = 0;
      socket.on("data", (chunk) => { received += chunk.length; });
      socket.on("close", () => { console.log("received " + received); server.close(); });
    });
    server.listen(0, "127.0.0.1", () => console.log("port " + server.address().port));`;
  const child = spawn(process.execPath, ["-e", script], {
    uid: OTHER_UID,
    gid: OTHER_UID,
    stdio: ["ignore", "pipe", "inherit"],
    timeout: WAIT_MS,
  });
  child.stdout.setEncoding("utf8");
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  while (!/port (\d+)\n/.test(out)) await once(child.stdout, "data");
  const port = Number(/port (\d+)\n/.exec(out)?.[1]);
  const received = once(child, "exit").then(() => /received (\d+)/.exec(out)?.[1]);
  return { port, received, child };
}

test("a found token is not sent to a loopback port another user listens on", AS_ROOT, async () => {
  const saved = process.env.GPP_TOKEN;
  process.env.GPP_TOKEN = "s3cret"; // found, not given: the listener is checked
  const { port, received, child } = await listenerOfAnotherUser();
  try {
    const client = new GatewayClient(`http://127.0.0.1:${port}`);
    await assert.rejects(client.plugins(), (error) => {
      assert.match(String(error), new RegExp(`served by uid ${OTHER_UID}, neither you`));
      return true;
    });
    assert.equal(await received, "0"); // not a byte, the token included
  } finally {
    child.kill();
    if (saved === undefined) delete process.env.GPP_TOKEN;
    else process.env.GPP_TOKEN = saved;
  }
});

/** A connection to a listener of this process, both ends open, on `host`/`listenHost`. */
async function connectionToOurselves(listenHost, connectHost) {
  const server = net.createServer();
  server.listen(0, listenHost);
  await once(server, "listening");
  const port = /** @type {net.AddressInfo} */ (server.address()).port;
  const accepted = once(server, "connection");
  const socket = net.connect({ host: connectHost, port });
  await once(socket, "connect");
  const [end] = await accepted;
  return {
    socket,
    close: () => {
      socket.destroy();
      end.destroy();
      server.close();
    },
  };
}

test("the socket table names this process as the owner of a listener of its own", async () => {
  const { socket, close } = await connectionToOurselves("127.0.0.1", "127.0.0.1");
  try {
    assert.equal(tcpPeerUid(socket), process.geteuid?.());
    checkTcpPeer(socket, "here"); // ours: no refusal
  } finally {
    close();
  }
});

test("a v4 client of a dual-stack listener finds its end in tcp6", async () => {
  const { socket, close } = await connectionToOurselves("::", "127.0.0.1");
  try {
    assert.equal(tcpPeerUid(socket), process.geteuid?.());
  } finally {
    close();
  }
});

test("an address no row names is refused, not trusted", () => {
  const nowhere = {
    localAddress: "127.0.0.1",
    localPort: 1,
    remoteAddress: "127.0.0.1",
    remotePort: 2,
  };
  assert.equal(tcpPeerUid(nowhere), undefined);
  assert.throws(() => checkTcpPeer(nowhere, "127.0.0.1:2"), /cannot tell who listens/);
});

/** A Unix socket this process listens on, in a fresh folder. */
async function unixSocket() {
  const folder = mkdtempSync(join(tmpdir(), "gpp-node-uds-"));
  chmodSync(folder, 0o700);
  const path = join(folder, "gw.sock");
  const server = net.createServer().listen(path);
  await once(server, "listening");
  return {
    folder,
    path,
    close: () => {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

test("a Unix socket of this user in a private folder passes", async () => {
  const { path, close } = await unixSocket();
  try {
    checkSocket(path);
  } finally {
    close();
  }
});

test("a Unix socket another user owns is refused", AS_ROOT, async () => {
  const { path, close } = await unixSocket();
  try {
    chownSync(path, OTHER_UID, OTHER_UID);
    assert.throws(() => checkSocket(path), new RegExp(`owned by uid ${OTHER_UID}, neither you`));
  } finally {
    close();
  }
});

test("a Unix socket in a folder another user owns is refused", AS_ROOT, async () => {
  const { folder, path, close } = await unixSocket();
  try {
    chownSync(folder, OTHER_UID, OTHER_UID);
    assert.throws(() => checkSocket(path), /\(its folder\) is owned by uid 65534/);
  } finally {
    close();
  }
});

test("a Unix socket in a folder others may write is refused", async () => {
  const { folder, path, close } = await unixSocket();
  try {
    chmodSync(folder, 0o777);
    assert.throws(() => checkSocket(path), /writable by group or others/);
  } finally {
    close();
  }
});
