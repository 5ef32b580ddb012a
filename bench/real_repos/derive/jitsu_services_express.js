// Ground-truth routes of jitsu's two Express services (services/rotor, services/profiles) from
// Express's own router (never runs the packs). Each service's src/index.ts builds two Express
// apps (`http`, `metricsHttp`) and declares their routes inside `main()`, after awaiting its
// stores (MongoDB, Postgres, Kafka, MaxMind). Here only `express` and Node's built-ins are real:
// every other module the entry file requires (npm packages, workspace packages, the service's own
// ./lib and ./http modules) is an inert stub that is not a promise (awaiting it gives the stub back,
// so `(await connectionsStore.get()).enabled` is truthy: the stores read as configured), nothing
// connects; `listen` opens no port; `process.exit` is held (recorded) so a failed start is seen.
// Every Express app made is walked (both of a service's servers); HEAD left out.
//
// Usage: NODE_PATH=<express + typescript> node jitsu_services_express.js CHECKOUT ENTRY... > items.json
"use strict";
const path = require("node:path");
const Module = require("node:module");
const checkout = path.resolve(process.argv[2]);
const { served, declaredAt } = require("./js_runtime_env");
const express = require("express");

function stub(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, key) {
      if (key === "then") return undefined;
      if (key === "__esModule") return false;
      if (key === Symbol.toPrimitive) return () => "";
      if (key === Symbol.iterator) return function* () {};
      return stub(name + "." + String(key));
    },
    apply: () => stub(name + "()"),
    construct: () => stub("new " + name),
  });
}
const entries = process.argv.slice(3).map((e) => path.resolve(checkout, e));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const real = request === "express" || Module.isBuiltin(request) || entries.includes(path.resolve(path.dirname(parent ? parent.filename : checkout), request)) || entries.includes(request);
  if (!real && !(parent && parent.filename.includes(`${path.sep}node_modules${path.sep}`))) return stub(request);
  return load.call(this, request, parent, isMain);
};
const exits = [];
process.exit = (code) => { exits.push(code); };
const proto = express.Router.prototype?.route ? express.Router.prototype : express.Router;
const original = proto.route;
proto.route = function route(p) {
  const made = original.call(this, p);
  made.declared = declaredAt(checkout);
  return made;
};
const made = [];
const init = express.application.init;
express.application.init = function (...args) {
  made.push({ app: this, entry: current });
  return init.apply(this, args);
};
express.application.listen = function () {
  return { close() {}, on() {}, address: () => ({ port: 0 }) };
};
let current;
(async () => {
  const items = new Map();
  for (const entry of entries) {
    current = path.relative(checkout, entry);
    require(entry);
    await new Promise((r) => setTimeout(r, 1500));
  }
  for (const { app, entry } of made) {
    for (const layer of app._router ? app._router.stack : []) {
      if (!layer.route) continue;
      for (const m of Object.keys(layer.route.methods)) {
        if (m === "_all") continue;
        const name = `${m.toUpperCase()} ${served(layer.route.path)}`;
        const it = items.get(name) || { name, file: layer.route.declared.file, line: layer.route.declared.line, files: [] };
        if (!it.files.includes(layer.route.declared.file)) it.files.push(layer.route.declared.file);
        (it.declared = it.declared || []).push({ ...layer.route.declared, app: entry });
        items.set(name, it);
      }
    }
  }
  const out = [...items.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  process.stdout.write(JSON.stringify({ exits, apps: made.length, items: out }, null, 1) + "\n", () => process.exitCode = 0);
  setTimeout(() => process.kill(process.pid, "SIGKILL"), 300);
})();
