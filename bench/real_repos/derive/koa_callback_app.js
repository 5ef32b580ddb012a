// A driver for derive/koa_runtime_routes.js (never runs the packs): for an app module that makes
// a Koa app and hands only `app.callback()` to its host (a Firebase `onRequest(opts,
// app.callback())`, exported as a function), not the app itself. Koa's `callback` is wrapped to
// note the app it is called on; the module KOA_APP_MODULE (absolute path) is required; the
// noted app is returned. Run after derive/js_orm_hook.js (-r), which transpiles TypeScript and
// answers every package not installed (the Firebase SDK, Sentry, Slack, Stripe, yup ...) with an
// inert stub, so only koa and @koa/router (installed) run their own code.
"use strict";
const Koa = require("koa");
let noted;
const callback = Koa.prototype.callback;
Koa.prototype.callback = function (...args) {
  noted = noted || this;
  return callback.apply(this, args);
};
module.exports = () => {
  require(process.env.KOA_APP_MODULE);
  return noted;
};
