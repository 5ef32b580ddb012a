// Compiled by `tsc --noEmit`: code written against the original package type-checks as it is.

import type { DiscoverDocument, ResultDocument } from "../index.js";
import {
  PluginSession,
  PROTOCOL_VERSION,
  ProtocolError,
  servePlugin,
  WatchdogTimeoutError,
} from "../index.js";

const version: 3 = PROTOCOL_VERSION;

export const exitCode: Promise<0 | 2> = servePlugin(
  async (paths: string[]): Promise<DiscoverDocument> => ({
    resources: paths.map((path) => ({
      kind: "file",
      name: path,
      location: { path, line: 1 },
      attrs: { version },
    })),
    unresolved: [],
    findings: [],
    classificationSignals: [],
  }),
  { pluginId: "my-plugin", pluginVersion: "1.0.0", input: process.stdin, output: process.stdout },
);

export async function engine(): Promise<ResultDocument[]> {
  const overTcp = new PluginSession({
    gateway: "http://127.0.0.1:8787",
    pluginId: "my-plugin",
    pluginVersion: "1.0.0",
    timeouts: { handshakeMs: 10_000, requestMs: 10_000, shutdownMs: 5_000 },
  });
  const overSocket = new PluginSession({
    gateway: { socketPath: "/tmp/gpp-gateway.sock" },
    pluginId: "my-plugin",
    pluginVersion: "1.0.0",
    token: "secret",
  });
  await overTcp.start();
  try {
    const documents = [await overTcp.discover(["."]), await overTcp.discover(["a"], {})];
    await overTcp.shutdown();
    return documents;
  } catch (error) {
    if (error instanceof WatchdogTimeoutError || error instanceof ProtocolError) {
      const code: string = error.code;
      void code;
    }
    throw error;
  } finally {
    await overTcp.dispose();
    await overSocket.dispose();
  }
}
