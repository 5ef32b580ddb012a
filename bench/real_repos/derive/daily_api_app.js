// daily-api's HTTP routes as its src/index.ts `app()` registers them, without its database,
// Redis, GraphQL schema or proxies: a Fastify instance on which the app's own two route plugins
// are registered exactly as app() does (`compatibility` under '/v1', `routes` under '/'), with
// ENABLE_PRIVATE_ROUTES=true as the repository's .env sets it. The database module is stubbed
// (STUB=src/db: `createOrGetConnection()` gives an inert DataSource). The routes app() itself
// declares (/health, /liveness) and those libraries make (mercurius's /graphql, the
// @fastify/http-proxy prefixes) are written by hand in the truth's method.
// MODULE of fastify_runtime_routes.js in `factory` mode (never runs the packs):
//   cd CHECKOUT && STUB=src/db TSCONFIG=CHECKOUT/tsconfig.json NODE_PATH=<fastify, plugins, typescript> \
//     node --enable-source-maps -r derive/ts_source_lines.js -r derive/js_orm_hook.js \
//     derive/fastify_runtime_routes.js CHECKOUT derive/daily_api_app.js factory
"use strict";
const path = require("node:path");

module.exports = async function make() {
  const checkout = path.resolve(process.argv[2]);
  process.env.ENABLE_PRIVATE_ROUTES = "true";
  const fastify = require("fastify");
  const app = fastify({ routerOptions: { useSemicolonDelimiter: true } });
  const compatibility = require(path.join(checkout, "src/compatibility/index.ts")).default;
  const routes = require(path.join(checkout, "src/routes/index.ts")).default;
  const connection = require(path.join(checkout, "src/db.ts")).default;
  app.register(
    async (instance) => {
      await compatibility(instance, connection);
    },
    { prefix: "/v1" },
  );
  app.register(routes, { prefix: "/" });
  return app;
};
