// Ground-truth routes of one koa-router (or @koa/router) router exported by an ES module, from
// the router's own table, `router.stack` (never runs the packs). For an app whose Koa instance
// is made inside a function that also opens ports (so `koa_runtime_routes.js` cannot reach it)
// but whose routes all live on one exported router.
//
// Usage: NODE_PATH=<its node_modules> node koa_router_stack.mjs CHECKOUT ROUTER_MODULE [EXPORT]
//   (ROUTER_MODULE relative to CHECKOUT; EXPORT defaults to the default export)
//
// Each layer's path already holds the router's prefix (koa-router prefixes a layer when it is
// registered). HEAD, which koa-router adds for every GET, is left out; a trailing slash is
// dropped (koa-router is not strict by default). Every item is placed at "?": the records that
// declare the routes are found afterwards (`place_at_records.py`).
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { served, print } = require("./js_runtime_env.js");
const checkout = path.resolve(process.argv[2]);
const loaded = await import(pathToFileURL(path.join(checkout, process.argv[3])).href);
const router = process.argv[4] ? loaded[process.argv[4]] : loaded.default;
const items = new Map();
for (const layer of router.stack) {
  for (const method of layer.methods) {
    if (method === "HEAD" && layer.methods.includes("GET")) continue;
    const name = `${method} ${served(layer.path)}`;
    items.set(name, { name, file: "?", line: 0 });
  }
}
print(items);
