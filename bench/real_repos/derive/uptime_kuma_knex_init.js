// Uptime Kuma's MariaDB base schema as a knex "migration" for js_orm_truth.js knex (never runs
// the packs): db/knex_init_db.js's createTables() reads `R.knex` (redbean-node's), here set to
// the recording knex js_orm_truth.js passes, then creates the base tables; db/knex_migrations/*
// follow in knex's own (file-name) order. (For SQLite the app copies db/kuma.db and applies its
// SQL patches and the same knex migrations; the tables agree, checked on the app's own database.)
//   CHECKOUT=<checkout>
"use strict";
const path = require("node:path");
exports.up = async (knex) => {
  const { R } = require("redbean-node");
  Object.defineProperty(R, "knex", { value: knex, configurable: true });
  await require(path.join(process.env.CHECKOUT, "db/knex_init_db.js")).createTables();
};
