// sqlpad's Express app as server.js builds it, for express_runtime_routes.js (never runs the
// packs): the application's own Config (its defaults: baseUrl ''), its own makeDb (a Sequelize on
// a postgres URL on 127.0.0.1 that nothing queries, its SQLite/session files in a temp folder),
// then its own makeApp(config, models); no migration runs, no port is opened.
//
//   CHECKOUT=… NODE_PATH=<node_modules> node derive/express_runtime_routes.js CHECKOUT $PWD/derive/sqlpad_start.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const server = path.join(path.resolve(process.env.CHECKOUT), 'server');
const load = (file) => import(pathToFileURL(path.join(server, file)).href);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlpad-truth-'));
const env = {
  SQLPAD_DB_PATH: tmp,
  SQLPAD_BACKEND_DB_URI: 'postgres://truth:truth@127.0.0.1:9/truth',
  SQLPAD_BASE_URL: process.env.SQLPAD_BASE_URL ?? '',
};
const { default: Config } = await load('lib/config/index.js');
const { setConfigRef } = await load('lib/config/config-store.js');
const { makeDb, getDb } = await load('lib/db.js');
const { default: makeApp } = await load('app.js');
const config = new Config({}, env);
setConfigRef(config);
makeDb(config);
const { models } = await getDb();
export default await makeApp(config, models);
