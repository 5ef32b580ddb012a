// verifywise's Sequelize (sequelize-typescript) models as its own database module builds them
// (Servers/database/db.ts: `new Sequelize(…, { models: [...] })`, which connects only when a query
// runs; none runs): every model of `sequelize.models`, its table (getTableName) and schema, and the
// class that declares it, placed at the class's declaration line in the file that declares it.
// Usage: cd <Servers> && NODE_PATH=<node_modules> node -r derive/js_orm_hook.js THIS . > rows.json
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(process.argv[2]);
const mod = require(path.join(root, "database/db.ts"));
const sequelize = mod.sequelize || mod.default;
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name)) files.push(p);
  }
})(root);
const rows = [];
for (const model of Object.values(sequelize.models)) {
  const t = model.getTableName();
  const table = typeof t === "string" ? t : t.tableName;
  const schema = typeof t === "string" ? null : t.schema;
  const cls = model.name;
  const re = new RegExp(`^(?:export\\s+)?(?:default\\s+)?class\\s+${cls}\\b`, "m");
  const hits = [];
  for (const f of files) {
    const text = fs.readFileSync(f, "utf8");
    const m = re.exec(text);
    if (m) hits.push({ file: path.relative(root, f), line: text.slice(0, m.index).split("\n").length });
  }
  rows.push({ name: table, schema, cls, hits });
}
process.stdout.write(JSON.stringify(rows, null, 1) + "\n");
process.exit(0);
