// Compiled by `tsc --noEmit`: an engine written in TypeScript must type-check against index.d.ts.

import type { PluginInfo, ResultDocument, StreamItem } from "../index.js";
import {
  GatewayClient,
  GatewayRefused,
  JsonRpcError,
  ProtocolError,
  SchemaError,
  WatchdogTimeoutError,
} from "../index.js";

const client = new GatewayClient("http://127.0.0.1:8787", { token: "t", timeoutMs: 5000 });
const overSocket = new GatewayClient("http://localhost", { socketPath: "/tmp/gpp.sock" });

export async function engine(signal: AbortSignal): Promise<string[]> {
  const lines: string[] = [];
  try {
    const document: ResultDocument = await client.discover("reference-detector", ["."], {
      requestId: "r",
      signal,
    });
    lines.push(
      ...document.resources.map((r) => `${r.kind}:${r.name}@${r.location.path}:${r.location.line}`),
    );
  } catch (error) {
    if (error instanceof WatchdogTimeoutError)
      lines.push(`${error.code} ${error.stderrTail ?? ""}`);
    else if (error instanceof SchemaError)
      lines.push(`${error.field ?? ""} ${error.expected ?? ""}`);
    else if (error instanceof ProtocolError)
      lines.push(error.diagnostic(), String(error.frame ?? 0));
    else if (error instanceof GatewayRefused)
      lines.push(`${error.status} ${error.retryAfter ?? 0}`);
    else throw error;
  }
  try {
    const sum: unknown = await client.rpc("jsonrpc-example", "subtract", [42, 23]);
    lines.push(String(sum));
  } catch (error) {
    if (error instanceof JsonRpcError) lines.push(`${error.code} ${error.message}`);
  }
  await client.notify("jsonrpc-example", "update", [1, 2]);
  for await (const item of overSocket.stream(
    "jsonrpc-example",
    "slow_count",
    { n: 3 },
    { signal },
  )) {
    const seen: StreamItem = item;
    if (seen.kind === "progress") lines.push(`${seen.params.done}/${seen.params.total}`);
    else if (seen.kind === "result") lines.push(String(seen.result));
  }
  const plugins: PluginInfo[] = await client.plugins();
  const state: PluginInfo["state"] = (await client.plugin("jsonrpc-example")).state;
  lines.push(...plugins.map((p) => p.id), state);
  return lines;
}
