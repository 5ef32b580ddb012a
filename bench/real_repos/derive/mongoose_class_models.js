// Collections of an app whose mongoose models are made in class constructors (YApi's baseModel:
// `this.model = yapi.db(this.getName(), this.schema)`), read from mongoose itself (never the
// packs): the app's own bootstrap module is loaded, every listed class is instantiated through
// the app's own instance cache as a request would, then `mongoose.modelNames()` and each
// model's `collection.name`. `mongoose.connect` never connects.
//
// Usage: NODE_PATH=<app's server dir>:<its node_modules> node mongoose_class_models.js \
//   CHECKOUT BOOT_MODULE MODEL_FILE... > models.json     (paths relative to CHECKOUT)
// BOOT_MODULE (YApi: server/yapi.js) exports getInst(cls), commons and connect are set as the
// app's server/app.js sets them.
"use strict";
const path = require("path");
const mongoose = require("mongoose");
mongoose.connect = function connect() {
  return Promise.resolve(this);
};
const [checkoutArg, boot, ...files] = process.argv.slice(2);
const root = path.resolve(checkoutArg);
const app = require(path.join(root, boot));
app.commons = require(path.join(root, path.dirname(boot), "utils/commons"));
app.connect = require(path.join(root, path.dirname(boot), "utils/db.js")).connect();
for (const f of files) {
  const cls = require(path.join(root, f));
  if (typeof cls !== "function" || /base\.js$/.test(f)) continue;
  // a constructor may go on to use the database after registering its model (YApi's storage.js)
  try {
    app.getInst(cls);
  } catch (e) {
    console.error(`${f}: ${e.message}`);
  }
}
const out = mongoose.modelNames().map((n) => ({ model: n, collection: mongoose.model(n).collection.name }));
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`, () => process.exit(0));
