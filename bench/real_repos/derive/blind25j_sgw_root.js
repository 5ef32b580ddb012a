// blind25j: safe-client-gateway's root module as main.ts gives it to NestFactory.create —
// `AppModule.register()`, a dynamic module whose imports follow the FF_* feature flags of the
// environment — exported for nest_runtime_routes.js (which scans a module it is given by name).
//
//   cd CHECKOUT && FF_AUTH=true … node -r js_orm_hook.js nest_runtime_routes.js . \
//     <path of this file relative to CHECKOUT> Root '{"versioning": {"type": "URI"}}'
"use strict";
const path = require("node:path");

const { AppModule } = require(path.resolve("src/app.module.ts"));

module.exports = { Root: AppModule.register() };
