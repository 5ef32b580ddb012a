// The routes @nestjs/swagger's SwaggerModule.setup(path, app, document, options) serves, read from
// the library's own code (never runs the packs). teable_docs_routes.js generalised: the setup is
// called, as the application calls it, on a Nest app of an empty module (no port opened) with a
// minimal OpenAPI document (the routes do not depend on its content), and the adapter's own route
// table is printed.
//
// Usage: NODE_PATH=<node_modules> node nest_docs_routes.js PATH [OPTIONS_JSON] [express|fastify] [GLOBAL_PREFIX]
//   PATH          the setup's first argument, as the application writes it
//   OPTIONS_JSON  its fourth argument (JSON; '{}' or '' when absent)
//   adapter       the application's HTTP adapter (default express)
//   GLOBAL_PREFIX what app.setGlobalPrefix is given before the setup ('' for none); the library
//                 itself decides whether it applies (useGlobalPrefix)
//
// Express: the router stack's routes (Express 4 `_router`, Express 5 `router`); middleware that
// `app.use` mounts (static files, swagger-ui-express in @nestjs/swagger 4.x) is no route, as the
// bench counts Express. Fastify: an `onRoute` hook added before the setup, then `app.init()` so
// the plugins it registers (@fastify/static for the UI's files) load. HEAD (Fastify adds one per
// GET, Express answers it from GET) is left out, and a trailing slash is dropped (`/docs/` is
// `/docs`, as the bench names it). Prints a JSON list of "METHOD /path", sorted, without repeats.
"use strict";
require("reflect-metadata");
const { Module } = require("@nestjs/common");
const { NestFactory } = require("@nestjs/core");
const { SwaggerModule } = require("@nestjs/swagger");

const [, , docPath, optionsJson, adapterName = "express", globalPrefix = ""] = process.argv;
const options = optionsJson ? JSON.parse(optionsJson) : undefined;

class Empty {}
Module({})(Empty);

/** A Nest app of the empty module on the named adapter, with a route recorder for Fastify. */
async function makeApp(routes) {
  if (adapterName === "express") return NestFactory.create(Empty, { logger: false });
  if (adapterName !== "fastify") throw new Error(`adapter ${adapterName}: express or fastify`);
  const { FastifyAdapter } = require("@nestjs/platform-fastify");
  const adapter = new FastifyAdapter();
  adapter.getInstance().addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) routes.push(`${m} ${route.url}`);
  });
  return NestFactory.create(Empty, adapter, { logger: false });
}

/** Express's routes, from the router the Express version keeps (4: `_router`, 5: `router`). */
function expressRoutes(app) {
  const instance = app.getHttpAdapter().getInstance();
  const router = instance._router || instance.router; // Express 4 throws on reading `router`
  const out = [];
  for (const layer of router ? router.stack : []) {
    if (!layer.route) continue;
    for (const m of Object.keys(layer.route.methods)) if (m !== "_all") out.push(`${m.toUpperCase()} ${layer.route.path}`);
  }
  return out;
}

/** The bench's names: HEAD left out, a trailing slash dropped, sorted without repeats. */
function normalise(routes) {
  const names = new Set();
  for (const r of routes) {
    const [method, url] = r.split(" ");
    if (method === "HEAD") continue;
    names.add(`${method} ${url.length > 1 ? url.replace(/\/$/, "") : url}`);
  }
  return [...names].sort();
}

(async () => {
  const fastifyRoutes = [];
  const app = await makeApp(fastifyRoutes);
  if (globalPrefix) app.setGlobalPrefix(globalPrefix);
  const doc = { openapi: "3.0.0", info: { title: "t", version: "1" }, paths: {} };
  await SwaggerModule.setup(docPath, app, doc, options);
  await app.init();
  if (adapterName === "fastify") await app.getHttpAdapter().getInstance().ready(); // plugins load
  const routes = adapterName === "express" ? expressRoutes(app) : fastifyRoutes;
  process.stdout.write(JSON.stringify(normalise(routes)) + "\n", () => process.exit(0));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
