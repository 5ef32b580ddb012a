// Truth driver for MEAN.js-style apps (meanjs/mean; never runs the packs): what config/lib/app.js
// does once mongoose has connected, without connecting: the models its config globs list are
// loaded (config/lib/mongoose.js loadModels), then config/lib/express.js init(db) builds the app
// (the policies, module configs and route files its config globs list, each `require(path)(app)`).
// Run from the checkout (the globs are relative to the working directory); `db` is an inert object
// (connect-mongo is stubbed: STUB_MODULES). init returns the socket.io http server, not the app:
// the app is the last express() made, which express_runtime_routes.js reads.
"use strict";
const path = require("node:path");
const root = process.cwd();
require(path.join(root, "config/lib/mongoose")).loadModels();
require(path.join(root, "config/lib/express")).init({ connection: { db: {} } });
