// GrowthBook's workspace packages (packages/shared, packages/stats-ts) are published as their
// tsc output: each top-level wrapper (`shared/experiments.js`) does require("./dist/experiments").
// No dist/ is built into the checkout: a `./dist/X` required by a wrapper of those packages is
// answered by the package's own source `src/X` (TypeScript transpiled by js_orm_hook.js).
"use strict";
const Module = require("node:module");
const path = require("node:path");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request.startsWith("./dist/") && parent && parent.filename &&
      /packages\/(shared|stats-ts)\/[^/]+\.js$/.test(parent.filename)) {
    request = path.join(path.dirname(parent.filename), "src", request.slice("./dist/".length));
  }
  return resolve.call(this, request, parent, ...rest);
};
