// Ground-truth routes of the Unleash server from Express's own router (never runs the packs).
//
// Usage: UNLEASH_CHECKOUT=<copy of the checkout beside its node_modules> \
//   NODE_PATH=<node_modules> node --import tsx blind24m_unleash_routes.js > items.json
//
// express_runtime_routes.js's walk (its router stack read after the app is built, mounted routers
// followed, HEAD not listed, `all` written `ALL`, no trailing slash), with one change of placement:
// Unleash declares a route through its own `Controller.route()` (src/lib/routes/controller.ts),
// so the route is placed at the first frame of the declaring stack that is in the checkout and
// not in controller.ts (the `this.route({...})` or `this.get(...)` call of the controller), and
// `files` holds every checkout file on that stack (the controller, controller.ts, the routers
// that construct and mount it, app.ts): the files whose code gives the route and its prefix.
"use strict";
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.env.UNLEASH_CHECKOUT);
const express = require("express");

Error.stackTraceLimit = 100;
const WRAPPER = "src/lib/routes/controller.ts";
const proto = express.Router;
const original = proto.route;
proto.route = function route(routePath) {
  const made = original.call(this, routePath);
  const frames = [];
  for (const line of new Error().stack.split("\n").slice(2)) {
    const m = /\((?:file:\/\/)?(.*):(\d+):\d+\)$|at (?:file:\/\/)?(.*):(\d+):\d+$/.exec(line.trim());
    if (!m) continue;
    const file = m[1] || m[3];
    if (!file.startsWith(checkout + path.sep) || file.includes("node_modules")) continue;
    frames.push({ file: path.relative(checkout, file), line: Number(m[2] || m[4]) });
  }
  const at = frames.find((f) => f.file !== WRAPPER) || frames[0] || { file: "?", line: 0 };
  made.declared = { file: at.file, line: at.line, files: [...new Set(frames.map((f) => f.file))].sort() };
  return made;
};

function mountPath(layer) {
  if (layer.path !== undefined && typeof layer.path === "string") return layer.path;
  const source = layer.regexp.source;
  if (source === "^\\/?(?=\\/|$)") return "";
  let key = 0;
  return source
    .replace(/\(\?:\(\[\^\\\/\]\+\?\)\)/g, () => `:${(layer.keys[key++] || { name: key - 1 }).name}`)
    .replace(/^\^/, "")
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, "")
    .replace(/\\\//g, "/");
}

const items = new Map();
const unread = [];
function walk(stack, prefix) {
  for (const layer of stack) {
    if (layer.route) {
      const route = layer.route;
      const paths = Array.isArray(route.path) ? route.path : [route.path];
      for (const p of paths) {
        for (const method of Object.keys(route.methods)) {
          const verb = method === "_all" ? "ALL" : method.toUpperCase();
          const name = `${verb} ${served(prefix + p)}`;
          items.set(name, { name, ...route.declared });
        }
      }
    } else if (layer.name === "router" && layer.handle.stack) {
      walk(layer.handle.stack, prefix + mountPath(layer));
    } else if (layer.handle && layer.handle._router && layer.handle._router.stack) {
      walk(layer.handle._router.stack, prefix + mountPath(layer));
    } else if (layer.handle && Array.isArray(layer.handle.stack)) {
      unread.push(`${prefix}${mountPath(layer)} (${layer.name})`);
    }
  }
}

import(pathToFileURL(path.join(__dirname, "blind24m_unleash_app.mjs")).href).then((mod) => {
  walk(mod.default._router.stack, "");
  if (unread.length) process.stderr.write(`mounted stacks not read: ${unread.join(", ")}\n`);
  print(items);
});
