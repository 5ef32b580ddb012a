// Real gateways for the Node tests (this client's, and @gate-forge/plugin-protocol's, which is
// built on it): `gpp serve` from this checkout's .venv (or GPP_BIN), on an ephemeral loopback
// port or a Unix socket; tied to a pipe from this process so that no run, however it ends,
// leaves one behind.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const GPP = process.env.GPP_BIN ?? join(REPO, ".venv/bin/gpp");
const START_BUDGET_MS = 60_000;
const STOP_BUDGET_MS = 30_000;

/** The reference detector over the demo repository, as a registry entry. */
export const REFERENCE_DETECTOR = {
  id: "reference-detector",
  version: "1.0.0",
  root: join(REPO, "plugins/examples/demo-repo"),
  command: ["{python}", join(REPO, "plugins/reference_detector.py")],
};

/** The JSON-RPC example plugin, as a registry entry. */
export const JSONRPC_EXAMPLE = {
  id: "jsonrpc-example",
  version: "1.0.0",
  protocol: "jsonrpc-2.0",
  root: REPO,
  command: ["{python}", join(REPO, "plugins/jsonrpc_example.py")],
};

/**
 * The one-fault fixture plugin `tests/fixtures/plugins/plugin_NAME.py` as a registry entry, with
 * `extra` keys (watchdogs).
 * @param {string} name @param {Record<string, unknown>} [extra]
 */
export function faultFixture(name, extra = {}) {
  return {
    id: name,
    version: "1.0.0",
    root: REPO,
    env: { FIXTURE_PLUGIN_ID: name },
    command: ["{python}", join(REPO, "tests/fixtures/plugins", `plugin_${name}.py`)],
    ...extra,
  };
}

/** When the pipe on fd 3 closes (stop(), or this process dying), the gateway gets SIGTERM. */
const TIED_TO_STDIN =
  'exec 3<&0; "$0" "$@" 3<&- & gw=$!; { cat <&3 >/dev/null; kill -TERM $gw 2>/dev/null; } & exec 3<&-; wait $gw';

/** @param {unknown} value @returns {string} */
function toml(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toml).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k} = ${toml(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/**
 * A registry TOML with `plugins`, and `gateway` lines (`max_body_bytes = 4096`) in [gateway].
 * @param {Record<string, unknown>[]} plugins @param {string[]} [gateway]
 */
export function registry(plugins, gateway = []) {
  const lines = ["[gateway]", ...gateway, "", "[defaults]"];
  for (const plugin of plugins) {
    lines.push("", "[[plugin]]", ...Object.entries(plugin).map(([k, v]) => `${k} = ${toml(v)}`));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `gpp serve --config config ...args`; resolves with the child and the address it listens on.
 * @param {string} config @param {string[]} args @param {Record<string, string>} [env]
 */
export async function serve(config, args, env = {}) {
  const child = spawn("sh", ["-c", TIED_TO_STDIN, GPP, "serve", "--config", config, ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "ignore", "pipe"],
    detached: true,
  });
  let log = "";
  const address = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`gateway did not start:\n${log}`)),
      START_BUDGET_MS,
    );
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk) => {
      log += chunk;
      // TCP: uvicorn's own line; a Unix socket: the gateway's (it binds the socket itself)
      const found = /Uvicorn running on (http:\/\/\S+)|event=listening uds=(\S+)/.exec(log);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] ?? `unix socket ${found[2]}`);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}) before listening:\n${log}`));
    });
  });
  try {
    return { child, address: /** @type {string} */ (await address) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** Close the pipe (the gateway drains and shuts its plugins down); past the budget, SIGKILL
 * the whole process group. Always reaped.
 * @param {import("node:child_process").ChildProcess} child */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.stdin?.end();
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0), "SIGKILL"), STOP_BUDGET_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * The registry `config` served twice, on an ephemeral loopback port and on the Unix socket
 * `socketPath`: both children (to `stop`) and the loopback base URL. If either fails to start,
 * the other is stopped and the failure thrown.
 * @param {string} config @param {string} socketPath @param {Record<string, string>} [env]
 */
export async function serveTcpAndUds(config, socketPath, env = {}) {
  const started = await Promise.allSettled([
    serve(config, ["--host", "127.0.0.1", "--port", "0"], env),
    serve(config, ["--uds", socketPath], env),
  ]);
  const children = started.flatMap((o) => (o.status === "fulfilled" ? [o.value.child] : []));
  const failed = started.find((o) => o.status === "rejected");
  if (failed) {
    await Promise.all(children.map(stop));
    throw /** @type {PromiseRejectedResult} */ (failed).reason;
  }
  const tcp = /** @type {PromiseFulfilledResult<{address: string}>} */ (started[0]).value;
  return { children, baseUrl: tcp.address };
}
