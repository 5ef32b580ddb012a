// Ground-truth routes of DEFRA/cdp-portal-frontend from hapi's own `server.table()` (never runs
// the packs).
//
// Usage: cd CHECKOUT && NODE_PATH=<its node_modules> \
//          TRUTH_OUT=items.json node -r derive/loopback_guard.cjs derive/cdp_portal_routes.cjs CHECKOUT
//
// The app is ES modules (`"type": "module"`); it is imported as it is (js_runtime_env.js's loader
// hook resolves its bare specifiers from NODE_PATH and answers STUB_MODULES). `src/server/index.js`'s
// createServer() is called as src/index.js's startServer() does, but the server is neither started
// nor initialized (no port, no cache connection): every plugin and route is registered inside
// createServer(). hapi's `route` (the prototype every plugin's server shares) is wrapped: each new
// row of `server.table()` is noted with the stack at the call (the frames in the checkout outside
// node_modules: the first is where the route is declared, all of them its `files`).
// Placement: a route added by the project's file-system router (src/server/plugins/appRouter.js,
// `src/server/routes/**/route.js`, directory names as path segments, `...` for `*`, `~` for `?`)
// or by its form engine plugin (src/server/plugins/form-engine/) is placed at its route.js (the
// export of the method, else `export default`, else `export function register`, else line 1),
// its files also naming appRouter.js (and the form engine's file); any other route at the
// `path:` literal of its row in the file of the `server.route(...)` call (the literal whose nearby
// `method:` names the method), or failing that in the next file up the call stack that spells it
// (the registrar of src/server/plugins/multistep-form/, which routes `options.routes`), else at the call.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { declaredAt, served, print } = require("./js_runtime_env");

const checkout = path.resolve(process.argv[2]);
process.chdir(checkout);

// Vite (a devDependency) is a stand-in: the default configuration (NODE_ENV unset) makes a Vite dev
// server in middleware mode and mounts its `middlewares` with @defra/hapi-connect at /public; the
// stand-in's createServer gives inert middlewares, so no watcher or HMR socket is started.
const VITE = "export async function createServer() { return { middlewares: (req, res, next) => next(), close: async () => {} } }";
require("node:module").register(
  `data:text/javascript,${encodeURIComponent(
    `export async function resolve(s, c, next) { if (s === "vite") return { url: "data:text/javascript," + ${JSON.stringify(encodeURIComponent(VITE))}, shortCircuit: true }; return next(s, c); }`
  )}`
);

const stackFiles = () =>
  [
    ...new Set(
      new Error().stack
        .split("\n")
        .slice(2)
        .map((l) => /\((?:file:\/\/)?(\/[^():]+):\d+:\d+\)$|at (?:async )?(?:file:\/\/)?(\/[^():]+):\d+:\d+$/.exec(l.trim()))
        .filter(Boolean)
        .map((m) => m[1] || m[2])
        .filter((f) => f.startsWith(checkout + path.sep) && !f.includes("node_modules") && !f.includes("/derive/"))
        .map((f) => path.relative(checkout, f))
    ),
  ];

const Hapi = require("@hapi/hapi");
const proto = Object.getPrototypeOf(Hapi.server());
const declared = new WeakMap();
const route = proto.route;
proto.route = function (...args) {
  const where = declaredAt(checkout);
  const files = stackFiles();
  const result = route.apply(this, args);
  for (const row of this.table()) if (!declared.has(row)) declared.set(row, { ...where, files });
  return result;
};

// appRouter's own mapping of route.js files to paths
const ROUTES = "src/server/routes";
const routeFiles = new Map();
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full);
    else if (e.name === "route.js") {
      const base = path.relative(ROUTES, path.dirname(full));
      const p = path.posix.join("/", base.split(path.sep).join("/")).replaceAll("...", "*").replaceAll("~", "?");
      routeFiles.set(p, path.relative(checkout, full));
    }
  }
})(path.join(checkout, ROUTES));

function lineOf(file, patterns) {
  const lines = fs.readFileSync(path.join(checkout, file), "utf8").split("\n");
  for (const re of patterns) {
    const i = lines.findIndex((l) => re.test(l));
    if (i >= 0) return i + 1;
  }
  return 1;
}

function placeLiteral(file, callLine, method, p) {
  const lines = fs.readFileSync(path.join(checkout, file), "utf8").split("\n");
  const esc = p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const lit = new RegExp(`path:\\s*['"\`]${esc}['"\`]`);
  const hits = [];
  lines.forEach((l, i) => lit.test(l) && hits.push(i));
  if (!hits.length) return callLine;
  const near = hits.find((i) => {
    const window = lines.slice(Math.max(0, i - 3), i + 4).join(" ");
    return new RegExp(`method:\\s*(\\[[^\\]]*)?['"]${method}['"]`, "i").test(window) || /method:\s*['"]\*['"]/.test(window);
  });
  return (near !== undefined ? near : hits[0]) + 1;
}

async function main() {
  const { createServer } = await import(pathToFileURL(path.join(checkout, "src/server/index.js")).href);
  const server = await createServer();
  await new Promise((resolve) => setTimeout(resolve, 3000)); // un-awaited registrations settle
  const items = new Map();
  for (const row of server.table()) {
    const name = `${row.method.toUpperCase()} ${served(row.path)}`;
    const d = declared.get(row) || { file: "?", line: 0, files: [] };
    let { file, line } = d;
    let files = [...d.files];
    const fsRoute = routeFiles.get(row.path);
    if (fsRoute && (file.startsWith("src/server/plugins/appRouter.js") || file.startsWith("src/server/plugins/form-engine/"))) {
      const m = row.method.toUpperCase();
      line = lineOf(fsRoute, [
        new RegExp(`^export\\s+(const|async function|function)\\s+${m}\\b`),
        ...(m === "GET" ? [/^export\s+default\b/, /^export\s*\{[^}]*\bdefault\b/] : []),
        /^export\s+function\s+register\b/,
      ]);
      file = fsRoute;
      // appRouter registers the form engine without awaiting it: the async stack stops there
      files = [fsRoute, ...files.filter((f) => f !== fsRoute)];
      for (const f of ["src/server/plugins/appRouter.js", "src/server/index.js"]) if (!files.includes(f)) files.push(f);
    } else if (file !== "?") {
      // the literal in the calling file, else in the next file up the stack (a plugin of the
      // project's, src/server/plugins/multistep-form/, routes the objects its registrar passes)
      for (const [i, f] of [file, ...files.filter((x) => x !== file)].entries()) {
        const at = placeLiteral(f, 0, row.method.toUpperCase(), row.path);
        if (at) {
          if (i > 0) file = f;
          line = at;
          break;
        }
      }
    }
    if (!files.includes(file)) files.unshift(file);
    items.set(name, { name, file, line, files });
  }
  print(items);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
