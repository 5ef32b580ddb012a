// Truth driver for cnodejs/nodeclub's models (never runs the packs; NODECLUB_CHECKOUT=the checkout): `config.js` is not committed
// (config.default.js is its template): `require('../config')` resolves to config.default.js.
"use strict";
const Module = require("node:module");
const path = require("node:path");
const checkout = process.env.NODECLUB_CHECKOUT;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (/(^|\/)config$/.test(request) && parent && parent.filename && parent.filename.startsWith(checkout)) {
    const target = path.resolve(path.dirname(parent.filename), request);
    if (target === path.join(checkout, "config")) return path.join(checkout, "config.default.js");
  }
  return resolve.call(this, request, parent, ...rest);
};
module.exports = require(path.join(checkout, "models/index.js"));
