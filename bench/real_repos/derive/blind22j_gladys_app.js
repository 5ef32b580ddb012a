// Gladys (GladysAssistant/Gladys, server/): the Express app its own api/index.js start() makes,
// for derive/express_runtime_routes.js (never runs the packs). Gladys's routes are the keys of
// api/routes.js's getRoutes(gladys) object, the core routes plus every service's `controllers`
// (server/services/*/index.js), which getRoutes reads from gladys.service.getServices(), the
// services Gladys's service.load() made (each service factory called with gladys and its id).
// Here every service of services/index.js is made the same way with an inert gladys (a stub that
// accepts any use; nothing connects), and start(gladys, port, { serveFront }) builds the app:
// serveFront is false as with NODE_ENV and SERVE_FRONT unset (server/index.js). No port is
// opened: http.Server.prototype.listen does nothing.
//
// Usage: STUB_MODULES=<service packages not installed> NODE_PATH=<node_modules> \
//   node derive/express_runtime_routes.js CHECKOUT /abs/derive/blind22j_gladys_app.js
"use strict";
const http = require("node:http");
const path = require("node:path");
http.Server.prototype.listen = function listen() {
  return this;
};
const checkout = path.resolve(process.argv[2]);
const server = path.join(checkout, "server");

function inert() {
  const handler = {
    get: (_t, key) => {
      if (key === "then") return undefined;
      if (key === Symbol.toPrimitive) return () => "";
      if (key === Symbol.iterator) return function* none() {};
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
  };
  const proxy = new Proxy(function inertStub() {}, handler);
  return proxy;
}
const base = inert();
const made = {};
// gladys.service answers getServices() with the services made here, anything else inertly
const over = (target) => new Proxy(target, { get: (t, key) => (key in t ? t[key] : base[key]) });
const gladys = over({ service: over({ getServices: () => made }) });
const services = require(path.join(server, "services"));
for (const [name, factory] of Object.entries(services)) {
  try {
    const service = factory(gladys, `service-${name}`);
    made[name] = { get: () => service };
  } catch (error) {
    process.stderr.write(`service ${name} not made: ${error.message}\n`);
  }
}
const { start } = require(path.join(server, "api"));
module.exports = start(gladys, 1443, { serveFront: false }).app;
