// The routes teable's src/bootstrap.ts setUpAppMiddleware adds outside Nest's controllers (never
// runs the packs): with the API docs enabled (the default: API_DOC_DISENABLED unset) it calls
// SwaggerModule.setup('/docs', app, doc) and RedocModule.setup('/redocs', app, doc, options).
// Both are called here, by @nestjs/swagger's and nestjs-redoc's own code, on a Nest express app of an
// empty module (no port opened) with a minimal OpenAPI document (the routes do not depend on its
// content), and the express router's routes are printed (HEAD left out).
// Usage: NODE_PATH=<node_modules> node teable_docs_routes.js
"use strict";
require("reflect-metadata");
const { Module } = require("@nestjs/common");
const { NestFactory } = require("@nestjs/core");
const { SwaggerModule } = require("@nestjs/swagger");
const { RedocModule } = require("nestjs-redoc");

class Empty {}
Module({})(Empty);

(async () => {
  const app = await NestFactory.create(Empty, { logger: false });
  const doc = { openapi: "3.0.0", info: { title: "t", version: "1" }, paths: {} };
  SwaggerModule.setup("/docs", app, doc);
  await RedocModule.setup("/redocs", app, doc, { logo: { backgroundColor: "#F0F0F0", altText: "Teable logo" } });
  const out = [];
  for (const layer of app.getHttpAdapter().getInstance()._router.stack) {
    if (!layer.route) continue;
    for (const m of Object.keys(layer.route.methods)) if (m !== "_all") out.push(`${m.toUpperCase()} ${layer.route.path}`);
  }
  process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
})().catch((e) => { console.error(e); process.exit(1); });
