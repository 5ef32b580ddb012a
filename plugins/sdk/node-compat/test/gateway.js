// Real gateways for the tests: `gpp serve` from this checkout's .venv (or GPP_BIN), on an
// ephemeral loopback port or a Unix socket; tied to a pipe from this process so that no run,
// however it ends, leaves one behind.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const GPP = process.env.GPP_BIN ?? join(REPO, ".venv/bin/gpp");
const START_BUDGET_MS = 60_000;
const STOP_BUDGET_MS = 30_000;

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

/** A registry TOML with `plugins`. @param {Record<string, unknown>[]} plugins */
export function registry(plugins) {
  const lines = ["[gateway]", "", "[defaults]"];
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
