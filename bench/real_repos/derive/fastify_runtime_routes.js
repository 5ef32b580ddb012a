// Ground-truth routes of a Fastify application from Fastify's own `onRoute` hook (never runs the
// packs).
//
// Usage: NODE_PATH=<its node_modules> node fastify_runtime_routes.js CHECKOUT MODULE MODE [EXPORT]
//   MODE `plugin`: MODULE exports a plugin (fastify-cli's app.js), registered on a new instance;
//   `factory`: MODULE exports a function returning the instance (called with STUB_DEPS's
//   stubs: every named dependency an inert object); `instance`: MODULE exports the instance;
//   `main`: MODULE is the entry that makes the instance and listens (`listen` opens no port).
//
// Every instance `fastify()` makes gets an `onRoute` hook before the app's code runs, which
// notes each route's method, full URL (prefixes applied) and the file and line of the call;
// `ready()` then loads every plugin. HEAD, which Fastify adds for every GET, is left out, and a
// trailing slash is dropped (`/v1` and `/v1/` are one route, as a route `'/'` under a prefix).
"use strict";
const Module = require("node:module");
const path = require("node:path");
const { declaredAt, served, print } = require("./js_runtime_env");
const checkout = path.resolve(process.argv[2]);
const [, , , modulePath, mode, exported] = process.argv;

const routes = [];
const instances = [];
const seen = new WeakSet();
function instrument(instance) {
  if (seen.has(instance)) return;
  seen.add(instance);
  instance.addHook("onRoute", (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    routes.push({ methods, url: options.url, declared: declaredAt(checkout) });
    options.schema = undefined; // validation is no part of the route table (stubbed schemas)
  });
  instance.listen = async () => {
    await instance.ready(); // no port opened
    return "http://127.0.0.1:0";
  };
  instances.push(instance);
}
// Fastify 4.x/5 announces each instance it makes on a diagnostics channel, whichever copy of the
// package made it and however it was loaded (an ES module's `import` does not go through
// `Module._load`); an older Fastify's factory is wrapped where it is required.
require("node:diagnostics_channel").subscribe("fastify.initialization", ({ fastify }) => instrument(fastify));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const real = load.call(this, request, parent, isMain);
  if (request !== "fastify" || real.__truthWrapped) return real;
  const made = function fastify(...args) {
    const instance = real(...args);
    instrument(instance);
    return instance;
  };
  Object.assign(made, real, { __truthWrapped: true });
  made.default = made;
  made.fastify = made;
  return made;
};

async function main() {
  // import(), not require(): an ES module's imports then go through js_runtime_env's loader
  // MODULE relative to CHECKOUT, or an absolute driver outside it
  const url = require("node:url").pathToFileURL(path.resolve(checkout, modulePath));
  let target = (await import(url)).default;
  if (exported) target = target[exported];
  let app;
  if (mode === "plugin") {
    app = require("fastify")();
    app.register(target);
  } else if (mode === "factory") {
    const deps = Object.fromEntries(
      (process.env.STUB_DEPS || "").split(",").filter(Boolean).map((k) => [k, {}]),
    );
    app = await target(deps);
  } else if (mode === "main") {
    // MODULE is the entry that makes an instance and listens: wait for it (bounded: 20 s)
    const deadline = Date.now() + 20000;
    while (!instances.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    app = instances[0];
  } else {
    app = target;
  }
  await app.ready();
  const items = new Map();
  const gets = new Set(routes.filter((r) => r.methods.includes("GET")).map((r) => served(r.url)));
  for (const route of routes) {
    for (const method of route.methods) {
      if (method === "HEAD" && gets.has(served(route.url))) continue;
      const name = `${method} ${served(route.url)}`;
      if (!items.has(name) || items.get(name).file === "?") items.set(name, { name, ...route.declared });
    }
  }
  print(items);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
