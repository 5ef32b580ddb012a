// Driver for hapi_runtime_routes.js (never runs the packs): builds mojaloop/central-ledger's two
// hapi servers with the modules its two entries give to src/shared/setup.js, through that
// module's own createServer (its plugins, then the modules):
//   src/api/index.js       service 'api':     [src/api/routes.js, metrics plugin unless disabled]
//   src/handlers/index.js  service 'handler': [src/handlers/api/plugin.js, metrics plugin]
// What Setup.initialize does before createServer (migrations, the MySQL and MongoDB connections,
// caches, Kafka handlers) is left out: it adds no route. hapi_runtime_routes.js replaces start
// by initialize, so no port is opened.
// Node 20 stand-in: fs.globSync (above).
// Usage: CL_CHECKOUT=<checkout> NODE_PATH=<node_modules> node hapi_runtime_routes.js CHECKOUT <this file> start
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// src/api/routes.js finds its route files with node:fs globSync('**/routes.js', { cwd }) (Node 22;
// Node 20 here has none): the same files, by a walk of cwd, for that pattern only.
if (!fs.globSync) {
  fs.globSync = function globSync(pattern, { cwd }) {
    if (pattern !== "**/routes.js") throw new Error(`truth driver: unexpected glob ${pattern}`);
    const found = [];
    const walk = (dir) => {
      for (const e of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) walk(rel);
        else if (e.name === "routes.js") found.push(rel);
      }
    };
    walk("");
    return found.sort();
  };
}
const checkout = path.resolve(process.env.CL_CHECKOUT);
const app = (p) => require(path.join(checkout, p));

exports.start = async function start() {
  const Config = app("src/lib/config");
  const Setup = app("src/shared/setup");
  const MetricsPlugin = require("@mojaloop/central-services-metrics").plugin;
  await Setup.createServer(Config.PORT, [app("src/api/routes"), !Config.INSTRUMENTATION_METRICS_DISABLED && MetricsPlugin].filter(Boolean));
  if (!Config.HANDLERS_API_DISABLED) await Setup.createServer(Config.PORT, [app("src/handlers/api/plugin"), MetricsPlugin]);
};
