// Where GrowthBook's public REST API routes are declared (blind21j; never runs the packs).
// Preload (-r, after js_orm_hook.js and blind21j_growthbook_dist.js) for express_runtime_routes.js:
// Express itself only sees api.router.ts's loop `router[route.method](versionedPath, ...)` over
// `allRoutes`; the route objects are made by createApiRequestHandler(validator)(handler)
// (util/handler.ts) in one file per endpoint, and the CRUD routes of the BaseModel API models by
// getOpenApiRoutesForApiConfig(apiConfig) (api/ApiModel.ts) from the model's MakeModelClass
// config. Both are wrapped before the app loads to note, per route object, the file and line of
// that call (for a generated route: the model's MakeModelClass call); at exit api.router.ts's own
// exported `allRoutes` is read and written to PLACES_OUT as {"METHOD /api/<version><path>": place}.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const checkout = path.resolve(process.env.GB_CHECKOUT);
const src = path.join(checkout, "packages/back-end/src");
function caller(skip) {
  const line = new Error().stack.split("\n").slice(2)
    .find((l) => l.includes(checkout) && !l.includes("node_modules") && !skip.some((s) => l.includes(s)));
  const m = line && /\(?([^()\s]+):(\d+):\d+\)?$/.exec(line.trim());
  return m ? { file: path.relative(checkout, m[1]), line: Number(m[2]) } : null;
}
const place = new WeakMap();
const handler = require(path.join(src, "util/handler.ts"));
const create = handler.createApiRequestHandler;
handler.createApiRequestHandler = function (spec) {
  const at = caller(["util/handler.ts", "blind21j_growthbook_api_places"]);
  const inner = create.apply(this, arguments);
  return function () {
    const route = inner.apply(this, arguments);
    if (route && typeof route === "object" && at) place.set(route, { ...at, files: [at.file] });
    return route;
  };
};
const modelAt = new WeakMap();
const base = require(path.join(src, "models/BaseModel.ts"));
const make = base.MakeModelClass;
base.MakeModelClass = function (config) {
  const at = caller(["models/BaseModel.ts", "blind21j_growthbook_api_places"]);
  if (config && config.apiConfig && at) modelAt.set(config.apiConfig, at);
  return make.apply(this, arguments);
};
const apiModel = require(path.join(src, "api/ApiModel.ts"));
const gen = apiModel.getOpenApiRoutesForApiConfig;
apiModel.getOpenApiRoutesForApiConfig = function (apiConfig) {
  const routes = gen.apply(this, arguments);
  const at = modelAt.get(apiConfig);
  for (const r of routes) if (at) place.set(r, { ...at, files: [at.file, "packages/back-end/src/api/ApiModel.ts"] });
  return routes;
};
process.on("exit", () => {
  const { allRoutes } = require(path.join(src, "api/api.router.ts"));
  const out = {};
  for (const r of allRoutes) {
    if (!r.method) continue;
    const key = `${r.method.toUpperCase()} /api/${r.version || "v1"}${r.path}`.replace(/\/$/, "");
    out[key] = place.get(r) || null;
  }
  fs.writeFileSync(process.env.PLACES_OUT, JSON.stringify(out, null, 1));
});
