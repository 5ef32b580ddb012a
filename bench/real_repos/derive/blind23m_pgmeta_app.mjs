// blind23m: postgres-meta's two Fastify instances, built by the app's own factories
// (src/server/app.ts `build`, src/server/admin-app.ts `build`) exactly as src/server/server.ts
// builds them (`buildApp({ logger })`, `buildAdminApp({ logger })`), without server.ts's
// listen / type-generation branches. Used as fastify_runtime_routes.js's MODULE in `factory`
// mode: the admin instance is made ready here (its routes come from fastify-metrics'
// plugin), the main one is returned to the script, which makes it ready. Nothing listens.
// The app is the project's own build (`tsc -p tsconfig.json`, sourceMap on: dist/ beside src/ in
// PGMETA_CHECKOUT, a copy of the checkout's package files and src/), run with
// --enable-source-maps so that each route is placed at its TypeScript line.
import path from "node:path";
import { pathToFileURL } from "node:url";
const checkout = process.env.PGMETA_CHECKOUT;
export default async function () {
  const { build: buildApp } = await import(pathToFileURL(path.join(checkout, "dist/server/app.js")));
  const { build: buildAdminApp } = await import(pathToFileURL(path.join(checkout, "dist/server/admin-app.js")));
  const app = buildApp({ logger: false });
  const adminApp = buildAdminApp({ logger: false });
  await adminApp.ready();
  return app;
}
