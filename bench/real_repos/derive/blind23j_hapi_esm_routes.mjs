// Ground-truth routes of an ESM hapi application from hapi's own `server.table()` (never runs the
// packs): MODULE (a path) is imported, its exported EXPORT (init) called, which builds the server,
// registers its plugins and calls server.initialize() (no port opened); every row of the table is
// printed with the name of the plugin whose realm declared it (hapi's row.realm.plugin).
// Usage: node blind23j_hapi_esm_routes.mjs MODULE EXPORT > rows.json
import { pathToFileURL } from "node:url";
const [modulePath, exported] = process.argv.slice(2);
const mod = await import(pathToFileURL(modulePath).href);
const server = await mod[exported]();
const rows = server.table().map((r) => ({
  method: r.method.toUpperCase(),
  path: r.path,
  plugin: r.realm.plugin || null,
}));
process.stdout.write(JSON.stringify(rows, null, 1) + "\n");
process.exit(0);
