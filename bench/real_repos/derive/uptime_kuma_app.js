// Uptime Kuma's server/server.js run as `node server/server.js` does (never runs the packs), for
// express_runtime_routes.js: no socket is opened (net.Server#listen does nothing, so neither the
// main HTTP server nor socket.io listen, and the listen callback that starts the monitors never
// runs; a temporary server's listen callback is called, no socket opened); the working folder is WORKDIR (the app reads ./db, ./dist relative to it): a folder
// holding a link `db` to the checkout's db/ and `dist/index.html`, a one-line stand-in for the
// built front end (the checkout has no dist/, the server refuses to start without it); the database is the app's own SQLite (the repository's db/kuma.db template copied into
// DATA_DIR, patched and migrated by the app itself with knex, @louislam/sqlite3 built from its
// npm tarball's sources). Its routes are added by the app's own async start-up before listen.
//   CHECKOUT=<checkout> WORKDIR=<folder above> DATA_DIR=<empty dir> [with db-config.json {"type":"sqlite"} for the main app;
//   without it the app serves its setup-database page first, a separate express app]
"use strict";
const net = require("node:net");
process.chdir(process.env.WORKDIR);
const { UptimeKumaServer } = require(require("node:path").join(process.env.CHECKOUT, "server/uptime-kuma-server.js"));
net.Server.prototype.listen = function (...args) {
  // the temporary servers' start() (setup-database, the aggregate-table migration's status page)
  // waits for its listen callback: called, with no socket opened; the main server's never is
  const done = args.find((a) => typeof a === "function");
  if (done && this !== UptimeKumaServer.getInstance().httpServer) setImmediate(done);
  return this;
};
require(require("node:path").join(process.env.CHECKOUT, "server/server.js"));
