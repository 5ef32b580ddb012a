// Ground-truth routes of a hapi application from hapi's own `server.table()` (never runs the
// packs).
//
// Usage: NODE_PATH=<its node_modules> node hapi_runtime_routes.js CHECKOUT MODULE [EXPORT]
//   MODULE (relative to CHECKOUT) is the application's entry; if EXPORT is given it names an
//   exported function that makes (or starts) the server, called with no argument.
//
// Every server hapi makes is captured, its `start` replaced by `initialize` (plugins registered,
// no port opened), and its `route` wrapped: after each call the new rows of `server.table()`
// are noted with the file and line of the call; `register` takes a list one plugin at a time and a
// plugin whose registration throws (a database it cannot reach) is reported on stderr and skipped. Once the app's start has settled (a bounded
// wait: 20 s), every captured server's table is the truth: method and path as hapi serves them
// (prefixes applied; `*` is written `*`).
"use strict";
const Module = require("node:module");
const path = require("node:path");
const { declaredAt, served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.argv[2]);
const [, , , modulePath, exported] = process.argv;

const servers = [];
const declared = new WeakMap();
function capture(server) {
  if (servers.includes(server)) return server;
  servers.push(server);
  server.start = server.initialize;
  const proto = Object.getPrototypeOf(server); // a plugin's server is another object of it
  if (!proto.__truthRoute) {
    const route = proto.route;
    proto.__truthRoute = true;
    proto.route = function (...args) {
      const where = declaredAt(checkout);
      const result = route.apply(this, args);
      for (const row of this.table()) if (!declared.has(row)) declared.set(row, where);
      return result;
    };
  }
  const register = server.register;
  server.register = async function (plugins, options) {
    for (const plugin of Array.isArray(plugins) ? plugins : [plugins]) {
      try {
        await register.call(this, plugin, options);
      } catch (error) {
        console.error(`truth: a plugin failed to register (its routes so far are kept): ${error}`);
      }
    }
  };
  return server;
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const real = load.call(this, request, parent, isMain);
  if ((request !== "@hapi/hapi" && request !== "hapi") || real.__truthWrapped) return real;
  const server = (options) => capture(real.server(options));
  class Server extends real.Server {
    constructor(options) {
      super(options);
      capture(this);
    }
  }
  return { ...real, server, Server, __truthWrapped: true };
};

async function main() {
  const loaded = require(path.join(checkout, modulePath));
  if (exported) await loaded[exported]();
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (servers.length && servers.every((s) => s.phase !== "stopped")) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const items = new Map();
  for (const server of servers) {
    for (const row of server.table()) {
      const name = `${row.method.toUpperCase()} ${served(row.path)}`;
      items.set(name, { name, ...(declared.get(row) || { file: "?", line: 0 }) });
    }
  }
  print(items);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
