// Ground-truth routes of Joplin Server (packages/server, a Koa app that routes through its own
// `Router` class, not koa-router) from the app's own route table (never runs the packs).
//
// Usage: cd CHECKOUT/packages/server && TSCONFIG=tsconfig.json NODE_PATH=<typescript> \
//   node --enable-source-maps -r derive/ts_source_lines.js -r derive/js_orm_hook.js \
//   derive/blind24j_joplin_routes.js CHECKOUT > items.json
//
// The app's `src/utils/Router.ts` is loaded first and its `get/post/patch/put/del/alias` wrapped
// to note the file and line of each call; then `src/routes/routes.ts` (the `Routers` map the
// Koa middleware `routeHandler` dispatches through `execRequest`) is loaded. Every method and
// schema held by a router of that map is a route `METHOD /<schema>` (`router.del` is DELETE),
// and every `alias(method, path, target)` a route of its own (the alias path answers with its
// target's handler). Each is checked with the app's own `findMatchingRoute` (the URL built from
// the schema, `:id` given a value) and `Router.findEndPoint`: a schema the dispatcher would never
// reach would be reported on stderr and left out. Packages that are not installed are inert stubs
// (js_orm_hook.js): no database, no config is read, nothing listens.
"use strict";
const path = require("node:path");
const checkout = path.resolve(process.argv[2]);
const server = path.join(checkout, "packages/server/src");

const Router = require(path.join(server, "utils/Router.ts")).default;
const declared = new Map(); // router instance -> method -> schema -> {file, line}
function where() {
  const frame = new Error().stack
    .split("\n")
    .slice(3)
    .find((l) => l.includes(checkout) && !l.includes("node_modules") && !l.includes("utils/Router.ts"));
  const m = frame && /\((.*):(\d+):\d+\)$|at (.*):(\d+):\d+$/.exec(frame.trim());
  return m ? { file: path.relative(checkout, m[1] || m[3]), line: Number(m[2] || m[4]) } : { file: "?", line: 0 };
}
function note(router, method, schema) {
  if (!declared.has(router)) declared.set(router, {});
  const byMethod = declared.get(router);
  byMethod[method] = byMethod[method] || {};
  byMethod[method][schema] = where();
}
for (const [name, method] of [
  ["get", "GET"],
  ["post", "POST"],
  ["patch", "PATCH"],
  ["put", "PUT"],
  ["del", "DELETE"],
]) {
  const original = Router.prototype[name];
  Router.prototype[name] = function (schema, ...rest) {
    note(this, method, schema);
    return original.call(this, schema, ...rest);
  };
}
const alias = Router.prototype.alias;
Router.prototype.alias = function (method, schema, target) {
  note(this, `alias:${method}`, schema);
  return alias.call(this, method, schema, target);
};

const routes = require(path.join(server, "routes/routes.ts")).default;
const { findMatchingRoute } = require(path.join(server, "utils/routeUtils.ts"));
const routesFile = path.relative(checkout, path.join(server, "routes/routes.ts"));
const routerFile = path.relative(checkout, path.join(server, "utils/Router.ts"));

const items = [];
for (const [basePath, router] of Object.entries(routes)) {
  const table = { ...router.routes_ };
  for (const [method, schemas] of Object.entries(router.aliases_ || {})) {
    for (const schema of Object.keys(schemas)) {
      table[`alias:${method}`] = { ...(table[`alias:${method}`] || {}), [schema]: schemas[schema] };
    }
  }
  for (const [key, schemas] of Object.entries(table)) {
    const method = key.replace(/^alias:/, "");
    for (const schema of Object.keys(schemas)) {
      // the URL a client sends for this schema (`:id` given a value), resolved by the app itself
      const url = `/${schema.replace(/:id/g, "abc123")}`;
      let reached = false;
      try {
        const match = findMatchingRoute(url, routes);
        reached = match.route === router && (schema === "" || match.subPath.schema === schema);
        if (reached) router.findEndPoint(method, match.subPath.schema);
      } catch (error) {
        process.stderr.write(`unreachable ${method} ${schema}: ${error.message}\n`);
        reached = false;
      }
      if (!reached) {
        process.stderr.write(`left out (not dispatched to its router): ${method} /${schema} in ${basePath}\n`);
        continue;
      }
      const at = (declared.get(router) || {})[key]?.[schema] || { file: "?", line: 0 };
      const files = [...new Set([at.file, routesFile])];
      if (key.startsWith("alias:")) files.push(routerFile);
      items.push({ name: `${method} /${schema}`, file: at.file, line: at.line, files });
    }
  }
}
items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
process.stdout.write(`${JSON.stringify(items, null, 1)}\n`);
