// Truth driver for jedireza/aqua (hapi 16 + Glue + hapi-mongo-models; never runs the packs): the
// mongo-models connection is answered without connecting (its callback called with no error, so
// hapi-mongo-models registers and the plugins that depend on it add their routes) and its index
// creation at onPreStart is a no-op; then the app's own composer (index.js: Glue.compose bound
// to manifest.js) is exported for hapi16_runtime_routes.js. Nothing is contacted.
"use strict";
const path = require("node:path");
const MongoModels = require("mongo-models");
MongoModels.connect = function (uri, options, callback) {
  process.nextTick(() => callback(null, {}));
};
MongoModels.createIndexes = function () {};
module.exports = require(path.join(process.env.AQUA_CHECKOUT, "index.js"));
