// Ground-truth routes of an Express 4 application from its own router (never runs the packs).
//
// Usage: NODE_PATH=<its node_modules> node express_runtime_routes.js CHECKOUT APP_MODULE > items.json
//   (APP_MODULE relative to CHECKOUT, exporting the app: `src/app.js`, or making it and listening)
// TypeScript and stubbed modules: js_runtime_env.js (STUB_MODULES, `typescript` on NODE_PATH).
//
// Before the application is loaded, `Router.route` (which every `router.get(...)` and
// `app.get(...)` calls) is wrapped to note the file and line that declared each route; the app's
// router stack is then walked, mounted routers followed, each mount path read back from its
// layer's pattern. HEAD, which Express answers for every GET, is left out, and so is `_all`'s
// expansion: `all` is written as `ALL`. Express's default (non-strict) routing serves `/a` and
// `/a/` alike: a path is written without its trailing slash; `*` is written `/*` (js_runtime_env.js).
"use strict";
const path = require("node:path");
const checkout = path.resolve(process.argv[2]);
const { print } = require("./js_runtime_env");
const express = require("express");
// Express 4's Router is the prototype of its routers; Express 5's (the `router` package) a class
const proto = express.Router.prototype?.route ? express.Router.prototype : express.Router;
const original = proto.route;
proto.route = function route(routePath) {
  const made = original.call(this, routePath);
  const caller = new Error().stack
    .split("\n")
    .slice(2)
    .find((line) => line.includes(checkout) && !line.includes("node_modules"));
  const where = caller && /\((?:file:\/\/)?(.*):(\d+):\d+\)$|at (?:file:\/\/)?(.*):(\d+):\d+$/.exec(caller.trim());
  made.declared = where
    ? { file: path.relative(checkout, where[1] || where[3]), line: Number(where[2] || where[4]) }
    : { file: "?", line: 0 };
  return made;
};
// An app that is not exported (a `server.js` that only listens) is the last one made; `listen`
// opens no port.
const made = [];
const init = express.application.init;
express.application.init = function (...args) {
  made.push(this);
  return init.apply(this, args);
};
express.application.listen = function () {
  return { close() {}, on() {}, address: () => ({ port: 0 }) };
};
// An ES module app (`"type": "module"`: `require` would skip the stubbing loader hook) is imported; an app
// set up in an async `start()` (awaiting its services, stubbed) is read once its router stack
// has stopped growing for 2 s (bounded: 60 s).
async function load() {
  const file = path.resolve(checkout, process.argv[3]); // a driver outside the checkout: an absolute path
  let exported;
  let pkg = {};
  try {
    pkg = JSON.parse(require("node:fs").readFileSync(path.join(checkout, "package.json"), "utf8"));
  } catch {}
  if (!file.endsWith(".mjs") && pkg.type !== "module") exported = require(file);
  else {
    exported = await import(require("node:url").pathToFileURL(file).href);
    exported = exported && exported.default !== undefined ? exported.default : exported;
  }
  if (!(exported && exported._router)) {
    const size = () => made.reduce((n, a) => n + ((a._router && a._router.stack.length) || 0), 0);
    let last = -1;
    let stable = Date.now();
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline && Date.now() - stable < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (size() !== last) [last, stable] = [size(), Date.now()];
    }
  }
  // the last app made that is not mounted in another (`app.use(path, subApp)` sets its parent)
  const top = made.filter((a) => !a.parent);
  return exported && exported._router ? exported : top[top.length - 1];
}

function mountPath(layer) {
  if (layer.path !== undefined && typeof layer.path === "string") return layer.path;
  const source = layer.regexp.source;
  if (source === "^\\/?(?=\\/|$)") return "";
  // a mount path with parameters (`router.use("/:id/items", sub)`): each parameter's group is
  // written back as its name, from the layer's keys in order
  let key = 0;
  return source
    .replace(/\(\?:\(\[\^\\\/\]\+\?\)\)/g, () => `:${(layer.keys[key++] || { name: key - 1 }).name}`)
    .replace(/^\^/, "")
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, "")
    .replace(/\\\//g, "/");
}

const { served } = require("./js_runtime_env"); // `*` written `/*`, no trailing slash

const items = new Map();
function walk(stack, prefix) {
  for (const layer of stack) {
    if (layer.route) {
      const route = layer.route;
      const paths = Array.isArray(route.path) ? route.path : [route.path];
      for (const p of paths) {
        for (const method of Object.keys(route.methods)) {
          if (method === "_all") continue;
          const name = `${method.toUpperCase()} ${served(prefix + p)}`;
          items.set(name, { name, ...route.declared });
        }
        if (route.methods._all) {
          const name = `ALL ${served(prefix + p)}`;
          items.set(name, { name, ...route.declared });
        }
      }
    } else if (layer.name === "router" && layer.handle.stack) {
      walk(layer.handle.stack, prefix + mountPath(layer));
    } else if (layer.handle && layer.handle._router && layer.handle._router.stack) {
      // an app mounted in an app or a router (`router.use('/api', express())`): its own router
      walk(layer.handle._router.stack, prefix + mountPath(layer));
    }
  }
}
load().then((app) => {
  walk((app._router || app.router).stack, ""); // Express 5: `app.router`; its mounted routers'
  // paths are not kept on their layers, so an Express 5 app with mounted routers is not read here
  print(items); // to TRUTH_OUT if set: an app's logger may write to stdout
});
