// idurar-erp-crm's Express app as backend/src/server.js builds it, for express_runtime_routes.js
// (never runs the packs): the `@` alias its package.json's `_moduleAliases` names (module-alias,
// given the backend folder as its base: module-alias/register would look beside NODE_PATH's
// node_modules), every model file its `./src/models/**/*.js` glob finds (the cwd must be
// backend/, as `npm start` runs it: the app's globs are relative), then src/app.js; no
// mongoose.connect, no port opened.
//
//   cd $CHECKOUT/backend && CHECKOUT=$CHECKOUT NODE_PATH=<node_modules> \
//     node derive/express_runtime_routes.js $CHECKOUT $PWD/derive/idurar_start.js
"use strict";
const path = require("node:path");
const backend = path.join(path.resolve(process.env.CHECKOUT), "backend");
require("module-alias")({ base: backend });
const { globSync } = require("glob");
for (const file of globSync("./src/models/**/*.js")) require(path.resolve(file));
module.exports = require(path.join(backend, "src/app.js"));
