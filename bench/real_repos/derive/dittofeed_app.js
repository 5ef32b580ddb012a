// Dittofeed's Fastify app for fastify_runtime_routes.js `factory` mode (never runs the packs):
// APP=api  the api package's own buildApp() (packages/api/src/buildApp.ts: the instance
//          packages/api/scripts/startServer.ts makes and listens on), returned as made;
// APP=lite the lite package's start-up script (packages/lite/scripts/startLite.ts) run as
//          `yarn workspace lite start` runs it: buildApp(), Next's custom-server handler
//          (`next` not installed: an inert stub), its own `/*` route, then listen; the instance
//          is handed back at its listen (no port opened), after every route of the script.
// The workspace packages (backend-lib, isomorphic-lib, emailo, api, worker, admin-cli) resolve
// to the checkout's sources through NODE_PATH links; packages not installed are inert stubs
// (js_orm_hook.js). Nothing connects: no query runs while routes are registered.
//   cd CHECKOUT && APP=api|lite NODE_PATH=<deps>:<links> node -r derive/js_orm_hook.js \
//     derive/fastify_runtime_routes.js CHECKOUT $PWD/derive/dittofeed_app.js factory
"use strict";
const path = require("node:path");

module.exports = async function make() {
  const checkout = path.resolve(process.argv[2]);
  if (process.env.APP === "lite") {
    let handBack;
    const listening = new Promise((resolve) => {
      handBack = resolve;
    });
    // subscribed after fastify_runtime_routes.js's own hook: its `listen` is replaced again,
    // to hand the instance back once the script has registered everything and listens
    require("node:diagnostics_channel").subscribe("fastify.initialization", ({ fastify }) => {
      fastify.listen = async () => {
        handBack(fastify);
        return "http://127.0.0.1:0";
      };
    });
    require(path.join(checkout, "packages/lite/scripts/startLite.ts"));
    return listening;
  }
  const buildApp = require(path.join(checkout, "packages/api/src/buildApp.ts")).default;
  return buildApp();
};
