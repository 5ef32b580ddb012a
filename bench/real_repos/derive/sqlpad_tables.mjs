// sqlpad's tables from Sequelize's own registry (never runs the packs): the application's Config
// with its defaults and a backend URI on 127.0.0.1 (never connected: nothing is synced, migrated
// or queried), `new SequelizeDb(config)` as lib/db.js makes it (every `sequelize.define` of
// server/sequelize-db/*.js), then `sequelize.models[*].getTableName()`, each placed at the
// `define` call that made it (its first stack frame in the checkout). The server is ES modules:
// run with <node_modules> linked at server/node_modules, so that its `import 'sequelize'` is the
// module patched here.
//
//   node derive/sqlpad_tables.mjs CHECKOUT > items.json
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const checkout = path.resolve(process.argv[2]);
const server = path.join(checkout, 'server');
const require = createRequire(path.join(server, 'package.json'));
const { Sequelize } = require('sequelize');
const made = new Map();
const define = Sequelize.prototype.define;
Sequelize.prototype.define = function (name, ...rest) {
  const frame = new Error().stack
    .split('\n')
    .slice(2)
    .map((l) => /\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?$/.exec(l.trim()))
    .find((m) => m && m[1].startsWith(checkout + path.sep) && !m[1].includes('node_modules'));
  const model = define.call(this, name, ...rest);
  made.set(model, frame ? { file: path.relative(checkout, frame[1]), line: Number(frame[2]) } : { file: '?', line: 0 });
  return model;
};
const load = (file) => import(pathToFileURL(path.join(server, file)).href);
const { default: Config } = await load('lib/config/index.js');
const { default: SequelizeDb } = await load('sequelize-db/index.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlpad-truth-'));
const db = new SequelizeDb(new Config({}, { SQLPAD_DB_PATH: tmp, SQLPAD_BACKEND_DB_URI: 'postgres://u:p@127.0.0.1:1/x' }));
const items = Object.values(db.sequelize.models).map((model) => {
  const table = model.getTableName();
  const at = made.get(model) || { file: '?', line: 0 };
  return { name: typeof table === 'string' ? table : table.tableName, ...at, files: [at.file] };
});
items.sort((a, b) => (a.name < b.name ? -1 : 1));
process.stdout.write(`${JSON.stringify(items, null, 1)}\n`, () => process.exit(0));
