// Driver for hapi_runtime_routes.js (never runs the packs): builds mojaloop/account-lookup-service's
// three hapi servers through the app's own code, as its entries start them:
//   src/index.js server            -> src/server.js initializeAdmin(Config) and initializeApi(Config)
//                                     (the OpenAPI backend of each spec, the app's plugins, then
//                                      src/api/routes.js AdminRoutes/APIRoutes)
//   src/handlers/index.js handlers -> src/handlers/register.js init -> src/handlers/monitoring start
//                                     (enabled: !INSTRUMENTATION_METRICS_DISABLED, as init passes it)
// Stubs (nothing connects): the MySQL connection (src/lib/db connect), the migrations
// (src/lib/migrator migrate), the central-services caches (Endpoints/Participants/proxies
// initializeCache), the app's oracle caches and src/lib/cache initCache, and the redis proxy cache
// (createProxyCache returns an object whose connect resolves). None of them adds a route.
// hapi_runtime_routes.js replaces start by initialize, so no port is opened.
// Usage: ALS_SERVER=admin|api|monitoring TRUTH_OUT=<json> ALS_CHECKOUT=<checkout> NODE_PATH=<node_modules> node hapi_runtime_routes.js CHECKOUT <this file> start
"use strict";
const path = require("node:path");
const checkout = path.resolve(process.env.ALS_CHECKOUT);
const app = (p) => require(path.join(checkout, p));
const noop = async () => {};

exports.start = async function start() {
  const Config = app("src/lib/config");
  app("src/lib/db").connect = noop;
  app("src/lib/migrator").migrate = noop;
  const shared = require("@mojaloop/central-services-shared").Util;
  shared.Endpoints.initializeCache = noop;
  shared.Participants.initializeCache = noop;
  shared.proxies.initializeCache = noop;
  app("src/models/oracle/oracleEndpointCached").initialize = noop;
  app("src/models/oracle/oracleGetCached").initialize = noop;
  app("src/lib/cache").initCache = noop;
  // the library's exports are getters: its cached module is given a copy with the stub
  const pcl = require.resolve("@mojaloop/inter-scheme-proxy-cache-lib");
  require(pcl);
  require.cache[pcl].exports = { ...require.cache[pcl].exports, createProxyCache: () => ({ connect: async () => true, disconnect: noop, isConnected: true }) };
  const Server = app("src/server");
  // ALS_SERVER=admin|api|monitoring: one server per process, as the app's deployments run them
  // (start:admin, start:api, start:handlers); in one process the second server's metrics plugin
  // would fail on prom-client's registry (a metric registered twice)
  const which = process.env.ALS_SERVER;
  if (which === "admin") return Server.initializeAdmin(Config);
  if (which === "api") return Server.initializeApi(Config);
  if (which !== "monitoring") throw new Error("ALS_SERVER=admin|api|monitoring");
  await app("src/handlers/monitoring").start({
    enabled: !Config.INSTRUMENTATION_METRICS_DISABLED,
    port: Config.HANDLERS_MONITORING_PORT,
    metricsConfig: Config.INSTRUMENTATION_METRICS_CONFIG
  });
};
