// Tracearr's Fastify route table from Fastify's own onRoute hook (blind22m; never the packs).
// Run from a copy of apps/server + packages/shared beside the app's node_modules:
//   cd COPY && DATABASE_URL=postgres://u:p@127.0.0.1:9/x REDIS_URL=redis://127.0.0.1:9 \
//     JWT_SECRET=… COOKIE_SECRET=… ENCRYPTION_KEY=<64 hex> HOST=127.0.0.1 PORT=0 \
//     node --import tsx blind22m_tracearr_routes.mjs COPY > raw.json
// Stubs: `pg`'s Pool answers every query with no rows and never connects (drizzle's migrate()
// runs through it at start-up); `listen` opens no port (it waits for ready() and prints the
// table); process.exit is inert. The app's own entry (apps/server/src/index.ts) is imported as is.
import dc from "node:diagnostics_channel";
import path from "node:path";
import { createRequire } from "node:module";
process.setSourceMapsEnabled(true);
const root = path.resolve(process.argv[2]);
const require = createRequire(path.join(root, "package.json"));
const pg = require("pg");
const fake = async () => ({ rows: [], rowCount: 0, fields: [], command: "SELECT" });
pg.Pool.prototype.query = fake;
pg.Pool.prototype.connect = async () => ({ query: fake, release() {} });
pg.Client.prototype.connect = async () => {};
pg.Client.prototype.query = fake;
process.exit = () => {};

const routes = [];
function where() {
  for (const line of String(new Error().stack).split("\n").slice(1)) {
    const m = line.match(/\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?$/);
    if (m && m[1].startsWith(root + path.sep) && !m[1].includes("node_modules") && !m[1].endsWith("blind22m_tracearr_routes.mjs"))
      return { file: path.relative(root, m[1]), line: Number(m[2]) };
  }
  return { file: "?", line: 0 };
}
dc.subscribe("fastify.initialization", ({ fastify }) => {
  fastify.addHook("onRoute", (o) => {
    for (const method of [].concat(o.method)) routes.push({ method, url: o.url, ...where() });
  });
  fastify.listen = async () => {
    await fastify.ready();
    const norm = (u) => (u.length > 1 ? u.replace(/\/$/, "") : u);
    const gets = new Set(routes.filter((r) => r.method === "GET").map((r) => norm(r.url)));
    const out = new Map();
    for (const r of routes) {
      // HEAD, which Fastify adds for every GET, left out; a trailing slash dropped (a route '/'
      // under a prefix is served at both the prefix and the prefix + '/')
      if (r.method === "HEAD" && gets.has(norm(r.url))) continue;
      const url = norm(r.url);
      const name = `${r.method} ${url === "*" ? "/*" : url}`;
      if (!out.has(name)) out.set(name, { name, file: r.file, line: r.line });
    }
    process.stdout.write(JSON.stringify([...out.values()].sort((a, b) => a.name.localeCompare(b.name)), null, 1) + "\n");
    process.kill(process.pid, "SIGKILL");
  };
});
await import(path.join(root, "apps/server/src/index.ts"));
