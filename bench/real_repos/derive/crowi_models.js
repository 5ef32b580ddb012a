// Crowi's models as its own Crowi#setupModels makes them (lib/crowi/index.ts: every factory
// of lib/models/index.ts called with the Crowi instance, each calling mongoose's `model(...)`),
// with a stub Crowi. A FILE given (by absolute path) to `js_orm_truth.js mongoose`, which reads
// the collections back from mongoose (never runs the packs).
"use strict";
const path = require("node:path");
const { stub } = require("./js_orm_hook.js");

const checkout = path.resolve(process.argv[3]);
const models = require(path.join(checkout, "lib/models/index.ts")).default;
const crowi = stub("crowi");
for (const factory of Object.values(models)) factory(crowi);
