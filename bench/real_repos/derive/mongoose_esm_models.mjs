// Collections of an app whose mongoose models are ES modules (`"type": "module"`), read from
// mongoose itself (never the packs): each model file imported, then `mongoose.modelNames()` and
// each model's `collection.name`. Nothing connects (no model is queried).
//
// Usage: run from a copy placed inside the checkout, beside a `node_modules` link to the app's
// dependencies (an ES module's bare imports do not read NODE_PATH), link and copy removed after:
//   node <checkout>/backend/.mongoose_esm_models.mjs <absolute model file>... > models.json
import mongoose from "mongoose";

for (const f of process.argv.slice(2)) await import(f);
const out = mongoose.modelNames().map((n) => ({ model: n, collection: mongoose.model(n).collection.name }));
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
