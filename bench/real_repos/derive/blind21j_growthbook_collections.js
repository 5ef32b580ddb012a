// GrowthBook's MongoDB collections from the app's own registries (blind21j; never runs the packs).
//
// Usage: TSCONFIG=<tsconfig> NODE_PATH=<node_modules> node -r derive/js_orm_hook.js \
//   derive/blind21j_growthbook_collections.js CHECKOUT > items.json
// Every file under packages/back-end/src/models and src/enterprise/models (tests excepted) is
// loaded; then (1) Mongoose's own registry: mongoose.modelNames() → model.collection.name, placed
// at the mongoose.model call; (2) the app's BaseModel layer: every MakeModelClass(config) call
// (src/models/BaseModel.ts, whose classes reach the native driver through
// mongoose.connection.db.collection(config.collectionName)) → config.collectionName, placed at the
// MakeModelClass call. Nothing connects.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const checkout = path.resolve(process.argv[2]);
const be = path.join(checkout, "packages/back-end/src");
function caller() {
  const line = new Error().stack.split("\n").slice(2)
    .find((l) => l.includes(checkout) && !l.includes("node_modules") && !l.includes("BaseModel.ts"));
  const m = line && /\(?([^()\s]+):(\d+):\d+\)?$/.exec(line.trim());
  return m ? { file: path.relative(checkout, m[1]), line: Number(m[2]) } : { file: "?", line: 0 };
}
const mongoose = require("mongoose");
const placed = new Map();
const model = mongoose.Mongoose.prototype.model;
mongoose.Mongoose.prototype.model = function (name, schema, ...rest) {
  if (schema && !placed.has(name)) placed.set(name, caller());
  return model.call(this, name, schema, ...rest);
};
const instanceModel = mongoose.model; // the default instance's own method
mongoose.model = function (name, schema, ...rest) {
  if (schema && !placed.has(name)) placed.set(name, caller());
  return instanceModel.call(this, name, schema, ...rest);
};
const base = require(path.join(be, "models/BaseModel.ts"));
const made = [];
const make = base.MakeModelClass;
base.MakeModelClass = function (config) {
  made.push({ name: config.collectionName, ...caller() });
  return make.apply(this, arguments);
};
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (!/test/.test(e.name)) walk(p); }
    else if (/\.ts$/.test(e.name) && !/\.d\.ts$|\.test\.ts$|\.spec\.ts$/.test(e.name)) {
      try { require(p); } catch (error) { console.error(`truth: ${path.relative(checkout, p)} failed to load: ${error.message}`); }
    }
  }
}
walk(path.join(be, "models"));
walk(path.join(be, "enterprise/models"));
const items = new Map();
for (const name of mongoose.modelNames()) {
  const m = mongoose.model(name);
  const at = placed.get(name) || { file: "?", line: 0 };
  const key = m.collection.name;
  if (!items.has(key)) items.set(key, { name: key, file: at.file, line: at.line, files: [at.file], kind: "collection", via: "mongoose" });
}
for (const m of made) {
  if (!items.has(m.name)) items.set(m.name, { name: m.name, file: m.file, line: m.line, files: [m.file], kind: "collection", via: "MakeModelClass" });
  else console.error(`truth: ${m.name} is both a Mongoose model and a MakeModelClass collection`);
}
process.stdout.write(JSON.stringify([...items.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), null, 1) + "\n", () => process.exit(0));
