// Crowi's Express app as its own Crowi#buildServer makes it (lib/crowi/index.ts), without the
// database, session store or search: an express() app given to the app's own
// lib/routes/index.ts with a Crowi whose controllers and middlewares are inert stubs (every
// handler a function), so every `app.get(...)`/`router.get(...)` the route modules make is
// registered as at start-up. Used as APP_MODULE of express_runtime_routes.js (never runs the packs):
//   cd CHECKOUT && TSCONFIG=CHECKOUT/tsconfig.json NODE_PATH=<express, typescript> \
//     node -r derive/js_orm_hook.js derive/express_runtime_routes.js CHECKOUT derive/crowi_routes_app.js
"use strict";
const path = require("node:path");
const express = require("express");
const { stub } = require("./js_orm_hook.js");

const checkout = path.resolve(process.argv[2]);
const routes = require(path.join(checkout, "lib/routes/index.ts")).default;
const app = express();
routes({ controllers: stub("controllers"), middlewares: stub("middlewares"), tmpDir: "/tmp/" }, app);
module.exports = app;
