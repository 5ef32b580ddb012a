// Ground-truth routes of Koa 1 applications extended by koa-router 3 (`app.use(router(app))`,
// then `app.get(path, ...)`: the legacy API that koa-middlewares' `router` is), from the router's
// own table (never runs the packs).
//
// Usage: NODE_PATH=<its node_modules> [STUB_MODULES=a,b] node koa1_router3_routes.js CHECKOUT MODULE...
//   (each MODULE relative to CHECKOUT; it may export an http.Server made from the app's
//   `callback()` rather than the app: every Koa application whose `callback()` is asked for, or
//   that `listen`s, is noted, so the app need not be exported)
//
// koa-router 3 keeps its routes in `router.routes` (not koa-router 5+'s `stack`), and
// `extendApp` sets `app.router`. `register` (which every verb and `all` call) is wrapped first to
// note where each route is declared. A RegExp path is kept by koa-router as its `source`: the
// name is that source rooted (`GET /^\/(@x)$`, as the audiobookshelf truth names a regex route).
// HEAD is left out where GET is there; `all` (every method) is written `ALL`; a trailing slash is
// dropped (koa-router 3 is not strict by default). Several modules (one process's several
// servers) give the union of their routes by name.
"use strict";
const path = require("node:path");
const http = require("node:http");
const { declaredAt, served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.argv[2]);

const Router = require("koa-router");
const register = Router.prototype.register;
Router.prototype.register = function wrapped(...args) {
  const route = register.apply(this, args);
  if (route && !route.declared) route.declared = declaredAt(checkout);
  return route;
};

const Koa = require("koa");
const apps = new Set();
const callback = Koa.prototype.callback;
Koa.prototype.callback = function noted(...args) {
  apps.add(this);
  return callback.apply(this, args);
};
Koa.prototype.listen = function listen() {
  apps.add(this);
  return { close() {}, on() {}, address: () => ({ port: 0 }) };
};
// a module that listens when it is the main one (`!module.parent`) is never main here; a server
// made with http.createServer that listens anyway opens no port
http.Server.prototype.listen = function listen() {
  return this;
};

const items = new Map();
for (const module of process.argv.slice(3)) require(path.resolve(checkout, module));
for (const app of apps) {
  const router = app.router;
  if (!router) continue;
  for (const route of router.routes) {
    const where = route.declared || { file: "?", line: 0 };
    if (http.METHODS.every((m) => route.methods.includes(m))) {
      const name = `ALL ${served(route.path)}`;
      items.set(name, { name, ...where });
      continue;
    }
    for (const method of route.methods) {
      if (method === "HEAD" && route.methods.includes("GET")) continue;
      const name = `${method} ${served(route.path)}`;
      items.set(name, { name, ...where });
    }
  }
}
print(items);
