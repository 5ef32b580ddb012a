// Cross-check of a knex-migrations truth on a real database (never runs the packs): every
// migration of a folder is run by knex's own migrator (`migrate.latest`, knex's file order) on an
// empty PostgreSQL database reached through a Unix socket only (PGSOCKET=<dir>, PGPORT), then the
// base tables left in schema `public` are printed, one a line, knex's own bookkeeping tables
// (`knex_migrations`, `knex_migrations_lock`) left out. TypeScript migrations load through
// js_orm_hook.js (preloaded with -r), so the app's own helpers they import run as written.
//
// Usage: PGSOCKET=/dir PGPORT=55424 PGDATABASE=<new, empty> NODE_PATH=<knex, pg> \
//   node -r derive/js_orm_hook.js derive/blind24j_knex_pg_tables.js MIGRATIONS_DIR [ext,…]
"use strict";
const path = require("node:path");
const knexLib = require("knex");

async function main() {
  const directory = path.resolve(process.argv[2]);
  const extensions = (process.argv[3] || "js").split(",").map((e) => `.${e}`);
  const knex = knexLib({
    client: "pg",
    connection: {
      host: process.env.PGSOCKET,
      port: Number(process.env.PGPORT),
      user: process.env.PGUSER || "postgres",
      database: process.env.PGDATABASE,
    },
  });
  try {
    await knex.migrate.latest({ directory, loadExtensions: extensions });
    const rows = await knex("information_schema.tables")
      .select("table_name")
      .where({ table_schema: "public", table_type: "BASE TABLE" })
      .orderBy("table_name");
    for (const { table_name: name } of rows) {
      if (name !== "knex_migrations" && name !== "knex_migrations_lock") process.stdout.write(`${name}\n`);
    }
  } finally {
    await knex.destroy();
  }
}
main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
