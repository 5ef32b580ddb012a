// The tables a Bookshelf 1.x application's models name, from Bookshelf's own model registry
// (blind22j, water-abstraction-service; never runs the packs). Every file of the models folder is
// loaded (each calls `bookshelf.model('Name', { tableName: 'schema.table', ... })`, which
// registers the model); the registry of every Bookshelf instance made is then read: each model's
// `prototype.tableName`, written without its schema as the other truths name tables (the
// SQLAlchemy truths: `table.name`), placed at the `tableName:` line of the file that registers
// the model. Nothing connects: knex with the pg client opens no connection before a query.
//
// Usage: NODE_PATH=<node_modules> node blind22j_bookshelf_tables.js CHECKOUT MODELS_DIR > items.json
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const checkout = path.resolve(process.argv[2]);
const dir = path.resolve(checkout, process.argv[3]);
const bookshelf = require("bookshelf");
const instances = [];
require.cache[require.resolve("bookshelf")].exports = function made(...args) {
  const instance = bookshelf(...args);
  instances.push(instance);
  return instance;
};
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".js")).sort();
for (const f of files) require(path.join(dir, f));
const items = new Map();
for (const instance of instances) {
  for (const [name, model] of Object.entries((instance.registry && instance.registry.models) || {})) {
    const full = model.prototype.tableName;
    if (!full) continue;
    const table = full.includes(".") ? full.slice(full.lastIndexOf(".") + 1) : full;
    const re = new RegExp(`\\.model\\(\\s*['"]${name}['"]`);
    let at = { file: "?", line: 0 };
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
      if (!re.test(text)) continue;
      const lines = text.split("\n");
      const i = lines.findIndex((l) => /\btableName\s*:/.test(l));
      at = { file: path.relative(checkout, path.join(dir, f)), line: i + 1 };
      break;
    }
    if (items.has(table)) {
      process.stderr.write(`${table}: also ${name} (${at.file})\n`);
      continue;
    }
    items.set(table, { name: table, file: at.file, line: at.line, files: [at.file], schema: full });
  }
}
const sorted = [...items.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
process.stdout.write(`${JSON.stringify(sorted, null, 1)}\n`);
process.exit(0);
