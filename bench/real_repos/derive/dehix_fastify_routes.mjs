// Ground-truth routes of dehix_fastify (Fastify 4 + fastify-decorators, TypeScript ES modules) from
// Fastify's own onRoute hook on the app's instance (never runs the packs). Run from a copy of the
// app's src/, package.json and tsconfig.json beside its node_modules (ESM ignores NODE_PATH), this
// file copied there too (it imports ./src/app.ts):
//   TRUTH_RAW=raw.json node --import tsx dehix_fastify_routes.mjs
import mongoose from "mongoose";
global.LAMBDA_ENV = true; // the app's own switch: configure() is not run on import, no listen
mongoose.connect = async () => mongoose;
const mod = await import("./src/app.ts");
// firebase-admin reads a git-ignored service-account file at init: answered without it
const services = await import("./src/common/services/index.ts");
services.firebaseClient.init = async () => {};
const app = mod.default;
const routes = [];
app.addHook("onRoute", (o) => {
  const methods = Array.isArray(o.method) ? o.method : [o.method];
  const stack = new Error().stack.split("\n").find((l) => l.includes("/app/src/") && !l.includes("node_modules"));
  routes.push({ methods, url: o.url, prefix: o.prefix, stack: stack && stack.trim() });
});
await mod.configure();
(await import("node:fs")).writeFileSync(process.env.TRUTH_RAW, JSON.stringify(routes));
process.exit(0);
