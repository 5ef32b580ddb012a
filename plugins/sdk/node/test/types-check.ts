// Compiled by `tsc --noEmit`: a typed plugin must type-check against index.d.ts.

import type { DiscoverDocument, DiscoverRequest, Resource } from "../index.js";
import { canonicalize, digest, PROTOCOL_VERSION, requestBudgetMs, servePlugin } from "../index.js";

const version: 3 = PROTOCOL_VERSION;
const resource: Resource = {
  kind: "table",
  name: "users",
  location: { path: "db/users.gfx", line: 1 },
  attrs: { pii: "email", rows: 3, audited: true },
};

async function discover(paths: string[]): Promise<DiscoverDocument> {
  return {
    resources: paths.length ? [resource] : [],
    unresolved: [{ path: "x", reason: "not-found", detail: "no such file" }],
    findings: [{ code: "DUPLICATE_TABLE_NAME", detail: "twice", locations: [resource.location] }],
    classificationSignals: [
      { resource: "table:users", signal: "pii", value: "email", source: resource.location },
    ],
  };
}

export const exitCode: Promise<0 | 2> = servePlugin(discover, {
  pluginId: "t",
  pluginVersion: "1",
});
export const withRequest: Promise<0 | 2> = servePlugin(
  (request: DiscoverRequest) => discover(request.paths),
  { pluginId: "t", pluginVersion: "1", request: true },
);
export const text: string = canonicalize({ a: [1, "b", null, true] }) + digest([version]);

import { FileMemo, openRoot, readFileInRoot } from "../index.js";

const memo = new FileMemo<number>({ maxEntries: 4 });
export const remembered: number = memo.get("a.py", { size: 1, ino: 2, mtimeMs: 3 }, () => 42);
export const bytes: Buffer = readFileInRoot(openRoot("."), "package.json");

export const budget: number | null = requestBudgetMs();
export const budgetOf: number | null = requestBudgetMs({ GPP_REQUEST_MS: "700" });
