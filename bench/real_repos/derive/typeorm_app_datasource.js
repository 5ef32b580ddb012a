// The tables TypeORM itself builds from an application's own DataSource options (never runs the
// packs; nothing connects): the app's module that makes the options is loaded (TypeScript through
// js_orm_hook.js), its exported options (an object, or a function returning them) are given to a
// DataSource whose `buildMetadatas()` resolves the entity globs, naming strategy and junction
// tables as the running app does; no `initialize()`, so no connection is opened.
//
// Usage: TSCONFIG=<tsconfig> NODE_PATH=<node_modules> node -r derive/js_orm_hook.js \
//   derive/typeorm_app_datasource.js CHECKOUT MODULE_FILE EXPORT > items.json
// Items as js_orm_truth.js writes them: a table's file is the entity class's file (a junction
// table's, its owning side's).
"use strict";
const path = require("node:path");
const fs = require("node:fs");
require("reflect-metadata");
const checkout = path.resolve(process.argv[2]);
const [moduleFile, exported] = process.argv.slice(3);

function classFile(name) {
  const re = new RegExp(`class\\s+${name}\\b`);
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        const found = walk(full);
        if (found) return found;
      } else if (/\.[jt]s$/.test(e.name) && !/\.d\.ts$/.test(e.name)) {
        const text = fs.readFileSync(full, "utf8");
        const m = re.exec(text);
        if (m) return { file: path.relative(checkout, full), line: text.slice(0, m.index).split("\n").length };
      }
    }
    return null;
  };
  return walk(checkout);
}

async function main() {
  const typeorm = require("typeorm");
  const loaded = require(path.join(checkout, moduleFile));
  const made = exported ? loaded[exported] : loaded;
  const options = typeof made === "function" ? made() : made;
  const ds = new typeorm.DataSource(options);
  await ds.buildMetadatas();
  const items = new Map();
  for (const m of ds.entityMetadatas) {
    if (m.tableType === "entity-child" || m.tableType === "view" || m.tableType === "abstract") continue;
    // a junction table's owner: the entity whose relation made it (`@JoinTable()` side)
    const side = ds.entityMetadatas.find((e) => e.relations.some((r) => r.junctionEntityMetadata === m));
    const owner = m.tableType === "junction" && side ? side.target : m.target;
    const at = (typeof owner === "function" && classFile(owner.name)) || { file: "?", line: 0 };
    items.set(m.tableName, { name: m.tableName, file: at.file, line: at.line, files: [at.file] });
  }
  const out = [...items.values()].sort((a, b) => a.name.localeCompare(b.name));
  process.stdout.write(JSON.stringify(out, null, 1) + "\n");
}
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
