// NodeBB's Express app, built as its webserver builds it, for express_runtime_routes.js (never runs
// the packs, opens no socket).
//
// Usage: cd CHECKOUT && NODE_ENV=production NODE_PATH=<node_modules> node \
//   derive/express_runtime_routes.js CHECKOUT derive/blind25m_nodebb_app.js > items.json
//   (the absolute path of this driver as APP_MODULE; CHECKOUT from NODEBB_CHECKOUT or the cwd)
//
// As app.js + src/start.js + src/webserver.js do, minus the database and the plugins (none is
// in the repository: plugins are npm packages a forum installs):
// - the root package.json the code requires is install/package.json (what `./nodebb setup` copies);
// - the database module's readers answer as an empty database (null, or [] for lists);
// - nconf is configured by src/prestart.js's own loadConfig() with no config file and
//   url http://127.0.0.1:4567 (no relative path), database "redis" at 127.0.0.1:9 (the module is
//   loaded, never connected), a secret; the session store is express-session's memory store;
// - src/webserver.js is loaded with one line appended at its end, exporting its private
//   setupExpressApp() (the code above it is unchanged, so its lines stay where they are), which
//   is run on the webserver's own `app` (its /ping and /sping routes);
// - then src/routes/index.js's exported function, as initializeNodeBB() calls it, with
//   src/middleware: the page routes, the read API (/api/...), the write API (/api/v3/...),
//   authentication, feeds, meta, ActivityPub, well-known, admin routes.
// (a route's place: below.) NODE_ENV=production: src/routes/debug.js (development only) is not mounted.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const checkout = path.resolve(process.env.NODEBB_CHECKOUT || process.cwd());
// NodeBB's setup copies install/package.json to the root; the checkout has none: that file is read
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const wanted = parent && parent.filename && path.resolve(path.dirname(parent.filename), request);
  if (wanted === path.join(checkout, "package.json")) return path.join(checkout, "install/package.json");
  return resolve.call(this, request, parent, ...rest);
};
require(path.join(checkout, "require-main.js"));
const nconf = require("nconf");
nconf.env({ separator: "__" }); // as app.js (its argv store left out: these are the driver's)
const prestart = require(path.join(checkout, "src/prestart"));

nconf.overrides({
  url: "http://127.0.0.1:4567",
  secret: "truth-only",
  database: "redis",
  redis: { host: "127.0.0.1", port: 9, database: 0 },
});
prestart.loadConfig(path.join(checkout, "config.truth-none.json")); // no such file: none read
prestart.setupWinston(); // its log goes to stderr (TRUTH_OUT takes the items)

const db = require(path.join(checkout, "src/database"));
const session = require("express-session");
db.sessionStore = new session.MemoryStore();
// an empty database: what route set-up reads (meta.settings.get("core.api")) finds nothing
for (const [name, value] of Object.entries(db)) {
  if (typeof value !== "function" || !/^(get|is|exists|sorted|set)/.test(name)) continue;
  const many = /Members|Range|Objects|Values|Fields|Keys|Sets|Scan/.test(name);
  db[name] = (...args) => {
    const result = many ? [] : null;
    const callback = typeof args[args.length - 1] === "function" ? args[args.length - 1] : null;
    if (callback) return void process.nextTick(() => callback(null, result));
    return Promise.resolve(result);
  };
}

const file = path.join(checkout, "src/webserver.js");
const made = new Module(file, module);
made.filename = file;
made.paths = Module._nodeModulePaths(path.dirname(file));
const text = fs.readFileSync(file, "utf8");
made._compile(`${text}\nmodule.exports.gfSetupExpressApp = setupExpressApp;\n`, file);
require.cache[file] = made;
const webserver = made.exports;

// A route's place: express_runtime_routes.js notes the first frame of the checkout, which for the
// routes made by src/routes/helpers.js (setupPageRoute, setupAdminPageRoute, setupApiRoute) is
// that helper; the place is the helper's caller, and `files` every checkout file on the stack
// (the registering file, the helper, the files that mount its router under a prefix).
const express = require("express");
const proto = express.Router.prototype?.route ? express.Router.prototype : express.Router;
const noted = proto.route;
const helper = path.join("src", "routes", "helpers.js");
proto.route = function route(routePath) {
  const made = noted.call(this, routePath);
  const frames = new Error().stack
    .split("\n")
    .slice(2)
    .map((line) => /\((.*):(\d+):\d+\)$|at (.*):(\d+):\d+$/.exec(line.trim()))
    .filter((m) => m && (m[1] || m[3]).startsWith(checkout + path.sep) && !(m[1] || m[3]).includes("node_modules"))
    .map((m) => ({ file: path.relative(checkout, m[1] || m[3]), line: Number(m[2] || m[4]) }));
  const files = [...new Set(frames.map((f) => f.file))].sort();
  const own = frames.find((f) => f.file !== helper);
  if (made.declared && made.declared.file === helper && own) made.declared = { ...own, files };
  else if (made.declared) made.declared = { ...made.declared, files };
  return made;
};

const middleware = require(path.join(checkout, "src/middleware"));
webserver.gfSetupExpressApp(webserver.app);
require(path.join(checkout, "src/routes"))(webserver.app, middleware).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
