// qinglong's HTTP app as its HTTP worker builds it, without the rest of its start-up (never runs
// the packs): back/app.ts's worker makes `express()`, adds its global middleware (helmet, cors,
// compression, monitoring: no route) and hands the app to back/loaders/app.ts, whose steps before
// expressLoader link dependencies, write files and read the database (no route either). Here only
// back/loaders/express.ts's default export is called with a fresh `express()`, as loaders/app.ts
// calls it; the app is exported for express_runtime_routes.js.
//
// Usage: ... node express_runtime_routes.js CHECKOUT <this file's absolute path>
"use strict";
const path = require("node:path");
require("reflect-metadata");
const express = require("express");

const checkout = path.resolve(process.argv[2]);
const app = express();
require(path.join(checkout, "back/loaders/express.ts")).default({ app });
module.exports = app;
