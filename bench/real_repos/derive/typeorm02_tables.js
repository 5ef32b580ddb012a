// The tables TypeORM 0.2 itself names for a repository's entities (no `DataSource` before 0.3):
// every module of the given globs is required (their @Entity classes register), then a
// `Connection` is built with those classes and `buildMetadatas()` run (awaited) — nothing connects —, and
// each entity metadata's `tableName` printed with its class (junction tables too; a
// single-table child shares its parent's table). Never runs the packs.
//
// Usage (from a copy of the repository beside its node_modules): TS_NODE_TRANSPILE_ONLY=1 \
//   node -r ts-node/register -r tsconfig-paths/register typeorm02_tables.js <setup module>... \
//   -- <glob>... > tables.json
'use strict';
const path = require('path');
const glob = require('glob');

const args = process.argv.slice(2);
const split = args.indexOf('--');
for (const module of args.slice(0, split)) require(path.resolve(module));
const typeorm = require('typeorm');
const classes = [];
for (const pattern of args.slice(split + 1)) {
  for (const file of glob.sync(pattern)) {
    for (const value of Object.values(require(path.resolve(file)))) {
      if (typeof value === 'function') classes.push(value);
    }
  }
}
const declared = new Set(typeorm.getMetadataArgsStorage().tables.map((t) => t.target));
// TYPEORM_TYPE=mysql: the app's own driver (its types; a database name it asks for, never used)
const type = process.env.TYPEORM_TYPE || 'postgres';
const extra = type === 'mysql' ? { database: 'truth' } : {};
const connection = new typeorm.Connection({ type, ...extra, entities: classes.filter((c) => declared.has(c)) });
Promise.resolve(connection.buildMetadatas()).then(() => {  // async in the later 0.2 releases
const tables = connection.entityMetadatas
  .filter((m) => m.tableType !== 'view' && (m.tableType !== 'entity-child'))
  .map((m) => ({ table: m.tableName, target: typeof m.target === 'function' ? m.target.name : String(m.target), type: m.tableType }));
process.stdout.write(JSON.stringify(tables, null, 1));
process.exit(0);
});
