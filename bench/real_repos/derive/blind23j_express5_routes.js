// Ground-truth routes of an Express 5 application from its own router (never runs the packs).
// Express 5's routers (the `router` package) keep no mount path on a mounted router's layer, so
// Router.prototype.use is wrapped to note, on each layer it pushes, the path it was given; and
// Router.prototype.route (which every `router.get(...)` calls) to note the file and line of the
// call. `listen` opens no port. The app module is required (TypeScript and STUB_MODULES through
// js_runtime_env.js); once its router stack has stopped growing for 2 s (bounded: 60 s), the last
// app made is walked, mounted routers followed. HEAD (Express answers it for GET) is left out;
// `all` is written ALL; a path is written without its trailing slash (non-strict routing).
// Usage: NODE_PATH=<node_modules> STUB_MODULES=… node blind23j_express5_routes.js CHECKOUT APP_MODULE
"use strict";
const path = require("node:path");
const checkout = path.resolve(process.argv[2]);
const { print, served, declaredAt } = require("./js_runtime_env");
const express = require("express");
// tsc's ESM-style imports of TypeScript files (`./routes/automation.route.js` for a .ts file)
const Module = require("node:module");
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolveFilename.call(this, request, parent, ...rest);
  } catch (error) {
    if (/^\.{1,2}\//.test(request) && request.endsWith(".js"))
      return resolveFilename.call(this, request.slice(0, -3) + ".ts", parent, ...rest);
    throw error;
  }
};
const Router = express.Router;
const route = Router.prototype.route;
Router.prototype.route = function (p) {
  const made = route.call(this, p);
  made.declared = declaredAt(checkout);
  return made;
};
const use = Router.prototype.use;
Router.prototype.use = function (...args) {
  const before = this.stack.length;
  const result = use.apply(this, args);
  let mount = "/";
  let first = args[0];
  while (Array.isArray(first) && first.length) first = first[0];
  if (typeof first === "string") mount = first;
  else if (Array.isArray(args[0]) === false && typeof args[0] !== "function" && args[0] instanceof RegExp) mount = String(args[0]);
  for (const layer of this.stack.slice(before)) layer.mountPath = mount;
  return result;
};
const made = [];
const init = express.application.init;
express.application.init = function (...args) {
  made.push(this);
  return init.apply(this, args);
};
express.application.listen = function () {
  return { close() {}, on() {}, address: () => ({ port: 0 }) };
};
const items = new Map();
const join = (a, b) => (b === "/" ? a : (a.endsWith("/") ? a.slice(0, -1) : a) + b);
function walk(stack, prefix) {
  for (const layer of stack) {
    if (layer.route) {
      const r = layer.route;
      for (const p of Array.isArray(r.path) ? r.path : [r.path]) {
        for (const method of Object.keys(r.methods)) {
          const name = `${method === "_all" ? "ALL" : method.toUpperCase()} ${served(join(prefix, p))}`;
          items.set(name, { name, ...r.declared });
        }
      }
    } else if (layer.handle && Array.isArray(layer.handle.stack)) {
      walk(layer.handle.stack, join(prefix, layer.mountPath || "/"));
    } else if (layer.handle && layer.handle.router && Array.isArray(layer.handle.router.stack)) {
      walk(layer.handle.router.stack, join(prefix, layer.mountPath || "/"));
    }
  }
}
(async () => {
  require(path.resolve(checkout, process.argv[3]));
  const size = () => made.reduce((n, a) => n + ((a.router && a.router.stack.length) || 0), 0);
  let last = -1;
  let stable = Date.now();
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline && Date.now() - stable < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (size() !== last) [last, stable] = [size(), Date.now()];
  }
  const top = made.filter((a) => !a.parent);
  walk(top[top.length - 1].router.stack, "");
  print(items);
})();
