// GPP/3 as data: this package's copy of gpp/core/contract/gpp3.json, read once at module load.
// The envelope, the catalog, the payload schemas and the limits below all come from it, so
// the Node SDK cannot drift from the Python core (tests/core/test_contract.py keeps the copy equal).
// readFileSync, not `import ... with { type: "json" }`: Node 20 prints an ExperimentalWarning
// for JSON modules, which would land in every plugin's stderr.

import { readFileSync } from "node:fs";

/** The parsed contract; frozen, since every connection and schema shares it. */
export const CONTRACT = deepFreeze(
  JSON.parse(readFileSync(new URL("./gpp3.json", import.meta.url), "utf8")),
);

function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
