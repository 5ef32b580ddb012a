// audiobookshelf's Express app as its `Server.start()` builds it, for express_runtime_routes.js
// (never runs the packs): the database and settings load (`init`) and passport's strategies are
// stubbed (no SQLite file is opened), the server's `listen` opens no port; everything else is the
// application's own code, with its production default ROUTER_BASE_PATH (`/audiobookshelf`).
//
//   CHECKOUT=… NODE_PATH=<node_modules> node derive/express_runtime_routes.js CHECKOUT $PWD/derive/audiobookshelf_start.js
"use strict";
const path = require("node:path");
const http = require("node:http");
const os = require("node:os");
const checkout = path.resolve(process.env.CHECKOUT);
process.env.NODE_ENV = "production";
global.appRoot = checkout;
http.Server.prototype.listen = function listen() {
  return this;
};
const Server = require(path.join(checkout, "server/Server"));
Server.prototype.init = async function init() {
  global.ServerSettings = { authActiveAuthMethods: ["local", "openid"], allowedOrigins: [] };
};
const tmp = require("node:fs").mkdtempSync(path.join(os.tmpdir(), "abs-"));
const server = new Server("debian", 0, "127.0.0.1", path.join(tmp, "config"), path.join(tmp, "metadata"),
  process.env.ROUTER_BASE_PATH ?? "/audiobookshelf");
server.auth.initPassportJs = async () => {};
server.start();
