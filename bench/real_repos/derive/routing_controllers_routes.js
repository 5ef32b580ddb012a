// Routes of an app built on routing-controllers, from its own runtime: each given service module
// is required and its `init(port)` run as the app runs it, with express's `app.listen` answered
// without opening a socket (nothing listens, nothing connects); then each app's router stack is
// walked (`app._router.stack`: routing-controllers registers every action on the app itself,
// so the stack holds the app's own `app.get(...)` routes and the controllers' with their
// `routePrefix`). Each route is printed with the controller action that made it, from
// `getMetadataArgsStorage().actions` (class, method), for placing. Never runs the packs.
//
// Usage (from a copy of the repository beside its node_modules, its .env written from the
// sample): TS_NODE_TRANSPILE_ONLY=1 node -r ts-node/register -r tsconfig-paths/register \
//   routing_controllers_routes.js <setup module>... -- <module>:<class>... > raw.json
'use strict';
const path = require('path');
const express = require('express');

const args = process.argv.slice(2);
const split = args.indexOf('--');
const setup = split < 0 ? [] : args.slice(0, split);
const services = split < 0 ? args : args.slice(split + 1);

const apps = [];
express.application.listen = function listen() {
  apps.push(this);
  return { close() {}, address() { return null; }, on() { return this; } };
};

for (const module of setup) require(path.resolve(module));
const { getMetadataArgsStorage } = require('routing-controllers');

const out = [];
for (const spec of services) {
  const [module, name] = spec.split(':');
  const before = apps.length;
  require(path.resolve(module))[name].init(0);
  for (const app of apps.slice(before)) {
    for (const layer of app._router.stack) {
      if (!layer.route) continue;
      const methods = Object.keys(layer.route.methods).map((m) => (m === '_all' ? '*' : m.toUpperCase()));
      const handlers = layer.route.stack.map((s) => s.handle && s.handle.name).filter(Boolean);
      out.push({ service: spec, path: layer.route.path, methods, handlers });
    }
  }
}
const actions = getMetadataArgsStorage().actions.map((a) => ({
  target: a.target.name, method: a.method, type: a.type, route: a.route instanceof RegExp ? String(a.route) : a.route,
}));
const controllers = getMetadataArgsStorage().controllers.map((c) => ({ target: c.target.name, route: c.route || '' }));
process.stdout.write(JSON.stringify({ routes: out, actions, controllers }, null, 1));
process.exit(0);
