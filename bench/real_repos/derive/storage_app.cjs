// Supabase Storage (supabase/storage, Fastify 5): a factory for derive/fastify_runtime_routes.js
// (`factory` mode) that builds the API instance as src/start/server.ts's httpServer() does:
// `build({ exposeDocs, requestIdHeader, routerOptions })` of src/app.ts with getConfig()'s values
// (single-tenant, the default: main() starts the admin app only when isMultitenant). The
// TypeScript runs from the project's own esbuild output (STORAGE_DIST: each src/**/*.ts to
// CommonJS with source maps, as build.js; node --enable-source-maps gives the .ts lines), its
// tsconfig paths (@internal/*, @storage/*) resolved into it as resolve-tspaths would.
"use strict";
const Module = require("node:module");
const path = require("node:path");
const DIST = path.resolve(process.env.STORAGE_DIST);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const m = /^@(internal|storage)\/(.*)$/.exec(request);
  if (m) request = path.join(DIST, m[1], m[2]);
  return resolve.call(this, request, parent, ...rest);
};
module.exports = async function storageApp() {
  const build = require(path.join(DIST, "app.js")).default;
  const { getConfig } = require(path.join(DIST, "config.js"));
  const { exposeDocs, requestTraceHeader } = getConfig();
  return build({ exposeDocs, requestIdHeader: requestTraceHeader, routerOptions: { maxParamLength: 2500 } });
};
