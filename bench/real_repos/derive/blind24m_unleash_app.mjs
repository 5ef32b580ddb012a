// The Unleash server's Express app, built as src/lib/server-impl.ts builds it (never runs the packs).
//
// Loaded by blind24m_unleash_routes.js (under `node --import tsx`): UNLEASH_CHECKOUT is a copy of
// the checkout's src/ beside its node_modules. The production factories are used (createConfig's
// defaults: open-source authentication, OpenAPI on; createDb, createStores, createServices), the
// database pointed at 127.0.0.1:9 (knex connects lazily; nothing listens there), no session
// store, no scheduler, no version check; the one route a config option gates
// (`server.enableHeapSnapshotEnpoint`, off by default: /internal-backstage/heap-snapshot) on; the frontend build is absent, so the index HTML is the
// test example's. `getApp` is called as `start()` calls it and the app is the default export.
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(process.env.UNLEASH_CHECKOUT);
const lib = (name) => import(pathToFileURL(path.join(root, "src/lib", name)).href);

const { createConfig } = await lib("create-config.ts");
const { createDb } = await lib("db/db-pool.ts");
const { createStores } = await lib("db/index.ts");
const { createServices } = await lib("services/index.ts");
const { default: getApp } = await lib("app.ts");

const config = createConfig({
  db: { host: "127.0.0.1", port: 9, user: "x", password: "x", database: "x", ssl: false },
  server: { secret: "truth-only", port: 0, enableHeapSnapshotEnpoint: true },
  session: { db: false },
  versionCheck: { enable: false },
  disableScheduler: true,
  publicFolder: path.join(root, "src/test/examples"),
  // UNLEASH_AUTH_TYPE=demo: a second run, for the one route an authentication type adds
  // (`POST /auth/demo/login`, middleware/demo-authentication.ts: the `demo` type's, not the default's)
  ...(process.env.UNLEASH_AUTH_TYPE ? { authentication: { type: process.env.UNLEASH_AUTH_TYPE } } : {}),
});
const db = createDb(config);
const stores = createStores(config, db);
const services = createServices(stores, config, db);
export default await getApp(config, stores, services, undefined, db);
