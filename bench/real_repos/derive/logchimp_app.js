// Loads LogChimp's Express app (packages/server/src/app.ts) as its index.ts does before
// listening: the app module, then `ready` of routes/v1 (the Enterprise routers, whose import
// succeeds when src/ee is present, mounted under /api/v1; the open-source auth router only when
// it fails). Nothing is exported, so express_runtime_routes.js reads the app once its routers
// stop growing. Used with derive/express_runtime_routes.js and derive/js_orm_hook.js.
"use strict";
const path = require("node:path");
const server = path.join(process.env.LOGCHIMP_SERVER || process.cwd(), "src");
require(path.join(server, "app.ts"));
require(path.join(server, "routes", "v1", "index.ts")).ready.then(() => {});
module.exports = {};
