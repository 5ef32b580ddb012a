// Ground-truth routes of a Koa application from its routers' own tables (never runs the packs).
//
// Usage: NODE_PATH=<its node_modules> node koa_runtime_routes.js CHECKOUT APP_MODULE [EXPORT]
//   (APP_MODULE relative to CHECKOUT, exporting the Koa app, or a function making it, at EXPORT)
//
// Before the application is loaded, koa-router's `register` (which every `router.get(...)`
// calls) is wrapped to note where each route is declared; the app's middleware is then walked:
// each `router.routes()` dispatcher carries its router, whose stack holds every route with its
// full path (koa-router copies a nested router's layers, prefixed, into the router using it).
// HEAD, which koa-router adds for every GET, is left out; a trailing slash is dropped (koa-router
// is not strict by default); `router.all` (every method) is written `ALL`.
"use strict";
const path = require("node:path");
const { declaredAt, served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.argv[2]);

for (const name of ["koa-router", "@koa/router"]) {
  let Router;
  try {
    Router = require(name);
  } catch {
    continue;
  }
  const original = Router.prototype.register;
  Router.prototype.register = function register(...args) {
    const layer = original.apply(this, args);
    if (layer && !layer.declared) layer.declared = declaredAt(checkout);
    return layer;
  };
}

// An app that is not exported (made and listened to in a callback) is the one `listen` was
// called on: it opens no port.
const Koa = require("koa");
let listened;
Koa.prototype.listen = function listen() {
  listened = this;
  // the server it returns: an app may set its timeout (`server.setTimeout(ms)`)
  return { close() {}, on() {}, setTimeout() { return this; }, address: () => ({ port: 0 }) };
};

async function main() {
  let app = require(path.resolve(checkout, process.argv[3])); // or an absolute driver outside it
  if (process.argv[4]) app = app[process.argv[4]];
  if (typeof app === "function" && !app.middleware) app = await app();
  const deadline = Date.now() + 20000; // bounded
  while (!(app && app.middleware) && !listened && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!(app && app.middleware)) app = listened;
  const items = new Map();
  for (const middleware of app.middleware) {
    const router = middleware.router;
    if (!router) continue;
    for (const layer of router.stack) {
      // `router.all(...)` registers every method Node knows: written `ALL` (as the Express truths)
      if (require("node:http").METHODS.every((m) => layer.methods.includes(m))) {
        const name = `ALL ${served(layer.path)}`;
        items.set(name, { name, ...(layer.declared || { file: "?", line: 0 }) });
        continue;
      }
      for (const method of layer.methods) {
        if (method === "HEAD" && layer.methods.includes("GET")) continue;
        const name = `${method} ${served(layer.path)}`;
        items.set(name, { name, ...(layer.declared || { file: "?", line: 0 }) });
      }
    }
  }
  print(items);
}
main();
