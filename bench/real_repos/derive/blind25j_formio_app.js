// blind25j: formio/formio's own server.js made under express_runtime_routes.js with nothing
// connecting (never runs the packs). Its two MongoDB connections are the only things replaced:
// `mongoose.connect` resolves at once (models are still defined, no query is sent), and the schema
// updater of src/db/index.js answers `initialize()` with a database stub; the router's `init`
// result gets that stub as `db`, whose `forms` count is 1, so server.js mounts the API router
// without running its interactive installer. NO_INSTALL=1 is set as well.
//
//   cd CHECKOUT && NODE_PATH=<node_modules> node express_runtime_routes.js CHECKOUT \
//     <abs path>/blind25j_formio_app.js
"use strict";
const path = require("node:path");

const checkout = path.resolve(process.argv[2]);
process.env.NO_INSTALL = "1";
process.on("unhandledRejection", () => {});

const mongoose = require("mongoose");
mongoose.connect = async function connect() {
  return this;
};

const fakeDb = {
  collection: () => ({ estimatedDocumentCount: (callback) => callback(null, 1) }),
};

const dbIndex = require.resolve(path.join(checkout, "src/db/index.js"));
const updater = require(dbIndex);
require.cache[dbIndex].exports = function (formio) {
  const made = updater(formio);
  made.initialize = async () => fakeDb;
  return made;
};

const indexFile = require.resolve(path.join(checkout, "index.js"));
const makeRouter = require(indexFile);
require.cache[indexFile].exports = function (config) {
  const router = makeRouter(config);
  const init = router.init;
  router.init = async function (hooks) {
    const formio = await init.call(this, hooks);
    formio.db = fakeDb;
    return formio;
  };
  return router;
};

module.exports = require(path.join(checkout, "server.js"))();
