// Collections of a NestJS app whose Typegoose models are Nest providers made by the app's own
// helper (nodepress: `export const TagProvider = getProviderByTypegooseClass(Tag)`, whose
// `useFactory(connection)` calls `getModelForClass(Tag, { existingConnection })`), read from
// Typegoose and mongoose themselves (never the packs): every FILE is loaded, every exported
// provider object's `useFactory` is called with mongoose's default connection (which never
// connects), as Nest would call it, and each model's `collection.name` is written, placed at the
// line declaring the class given to `getModelForClass`.
//
// Usage: TSCONFIG=<tsconfig> NODE_PATH=<node_modules with mongoose, @typegoose/typegoose, typescript>
//   node -r derive/js_orm_hook.js derive/typegoose_provider_models.js CHECKOUT FILE... > items.json
"use strict";
const fs = require("node:fs");
const path = require("node:path");
require("reflect-metadata");
const mongoose = require("mongoose");
const typegoose = require("@typegoose/typegoose");

const [checkoutArg, ...files] = process.argv.slice(2);
const checkout = path.resolve(checkoutArg);
mongoose.connect = async function connect() {
  return this;
};

const classes = new Map(); // model → the class it was made from
const getModelForClass = typegoose.getModelForClass;
const made = [];
typegoose.getModelForClass = function patched(cls, options) {
  const model = getModelForClass.call(this, cls, options);
  made.push({ model, cls });
  return model;
};

function classAt(name, preferred) {
  const re = new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:abstract\\s+)?class\\s+${name}\\b`);
  for (const f of [preferred, ...Object.keys(require.cache)]) {
    if (!f || !f.startsWith(checkout + path.sep) || f.includes("node_modules")) continue;
    const i = fs.readFileSync(f, "utf8").split("\n").findIndex((l) => re.test(l));
    if (i >= 0) return { file: path.relative(checkout, f), line: i + 1 };
  }
  return { file: "", line: 0 };
}

const out = new Map();
for (const rel of files) {
  const file = path.join(checkout, rel);
  const exported = require(file);
  for (const value of Object.values(exported)) {
    if (!value || typeof value !== "object" || typeof value.useFactory !== "function") continue;
    const before = made.length;
    value.useFactory(mongoose.connection);
    for (const { model, cls } of made.slice(before)) {
      const name = model.collection.name;
      if (!out.has(name)) out.set(name, { name, ...classAt(cls.name, file) });
    }
  }
}
const sorted = [...out.values()].map((x) => ({ ...x, files: [x.file] })).sort((a, b) => (a.name < b.name ? -1 : 1));
process.stdout.write(`${JSON.stringify(sorted, null, 1)}\n`, () => process.exit(0));
