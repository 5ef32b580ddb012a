// Ground-truth routes of a hapi 16 application (callbacks, connections) from hapi's own
// `server.table()` (never runs the packs). hapi_runtime_routes.js reads hapi 17+ (async API).
//
// Usage: NODE_PATH=<its node_modules> node hapi16_runtime_routes.js CHECKOUT MODULE
//   MODULE (relative to CHECKOUT, or an absolute driver outside it) exports a function taking a
//   callback `(err, server)` that composes the server without starting it (a Glue `compose` bound
//   to the app's manifest).
//
// Before the app is loaded, hapi's `register` (Plugin.prototype, which the root server and every
// plugin's server share) takes a list one plugin at a time, and a plugin whose registration fails
// (a database it cannot reach) is reported on stderr and skipped; `route` is wrapped to note the
// file and line of each call (outside node_modules) for the rows it adds. The composed server is
// initialized (`server.initialize`: onPreStart runs, so routes a plugin adds in its
// `server.dependency(deps, after)` callback are added) but never started: no port is opened. Every connection's table is the truth: method and path as hapi
// serves them (plugin `routes.prefix` applied).
"use strict";
const path = require("node:path");
const { declaredAt, served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.argv[2]);
const Hapi = require("hapi");

let proto = Object.getPrototypeOf(new Hapi.Server());
while (proto && !Object.prototype.hasOwnProperty.call(proto, "register")) proto = Object.getPrototypeOf(proto);
const register = proto.register;
const route = proto.route;
const declared = new Map();
function rows(server) {
  const out = [];
  for (const connection of server.table()) {
    for (const row of connection.table) out.push(`${row.method.toUpperCase()} ${served(row.path)}`);
  }
  return out;
}
proto.route = function (...args) {
  const where = declaredAt(checkout);
  const result = route.apply(this, args);
  for (const name of rows(this.root || this)) if (!declared.has(name)) declared.set(name, where);
  return result;
};
proto.register = function (plugins, options, callback) {
  if (typeof options === "function") [options, callback] = [{}, options];
  const list = Array.isArray(plugins) ? plugins : [plugins];
  const self = this;
  let i = 0;
  const next = () => {
    if (i >= list.length) return callback ? callback() : undefined;
    const plugin = list[i++];
    register.call(self, plugin, options || {}, (error) => {
      if (error) console.error(`truth: a plugin failed to register (skipped): ${error}`);
      next();
    });
  };
  if (callback) return next();
  return new Promise((resolve) => { callback = resolve; next(); });
};

const compose = require(path.resolve(checkout, process.argv[3]));
const timer = setTimeout(() => { console.error("truth: compose did not finish in 30 s"); process.exit(1); }, 30000);
compose((error, server) => {
  clearTimeout(timer);
  if (error) {
    console.error(error);
    process.exit(1);
  }
  server.initialize((failed) => {
    if (failed) console.error(`truth: initialize failed (the table so far is read): ${failed}`);
    const items = new Map();
    for (const name of rows(server)) items.set(name, { name, ...(declared.get(name) || { file: "?", line: 0 }) });
    print(items);
    process.exit(0);
  });
});
