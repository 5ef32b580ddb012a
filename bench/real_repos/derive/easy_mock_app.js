// Truth driver for easy-mock/easy-mock's routes (never runs the packs; EASY_MOCK_CHECKOUT=the
// checkout, run from it so that `config` reads its config/default.json): mongoose never connects
// (models/index.js's connect callback calls process.exit on failure); then app.js, which exports
// the Koa app (it listens only as main), is exported for koa_runtime_routes.js.
"use strict";
const path = require("node:path");
const mongoose = require("mongoose");
mongoose.connect = function () { return Promise.resolve(this); };
module.exports = require(path.join(process.env.EASY_MOCK_CHECKOUT, "app.js"));
