// blind25j: the MongoDB collections of formio/formio's Mongoose models, as Mongoose itself names
// them (never runs the packs). The app is made by blind25j_formio_app.js (nothing connects);
// once its router is initialised, every model on the mongoose instance is read:
// `model.collection.name` (Mongoose's pluralisation, or the schema's `collection` option).
// Place: src/models/models.js maps each model name to the file that defines its schema
// (`name: require('./File')(...)`); the line is that file's first `new formio.mongoose.Schema(`
// (the model's own schema in each file; sub-schemas are built without `new`); files: that file
// and models.js, which gives the schema to `mongoose.model(name, schema)`.
//
//   cd CHECKOUT && TRUTH_OUT=items.json STUB_MODULES=isolated-vm,./src/vm,../vm,../../vm NODE_PATH=<node_modules> \
//     node -r derive/js_runtime_env.js derive/blind25j_formio_models.js CHECKOUT
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const checkout = path.resolve(process.argv[2]);
const mongoose = require("mongoose");

const modelsFile = "src/models/models.js";
const defined = {};
for (const line of fs.readFileSync(path.join(checkout, modelsFile), "utf8").split("\n")) {
  const m = /^\s*(\w+): require\('\.\/(\w+)'\)/.exec(line);
  if (m) defined[m[1]] = `src/models/${m[2]}.js`;
}

require("./blind25j_formio_app.js").then(() => {
  const items = [];
  for (const name of Object.keys(mongoose.models).sort()) {
    const file = defined[name];
    const lines = fs.readFileSync(path.join(checkout, file), "utf8").split("\n");
    const at = lines.findIndex((l) => /new formio\.mongoose\.Schema\(/.test(l));
    items.push({
      name: mongoose.models[name].collection.name,
      kind: "collection",
      file,
      line: at + 1,
      files: [file, modelsFile],
    });
  }
  items.sort((a, b) => (a.name < b.name ? -1 : 1));
  // the app logs to stdout: the items go to TRUTH_OUT when it is set
  const text = `${JSON.stringify(items, null, 1)}\n`;
  if (process.env.TRUTH_OUT) fs.writeFileSync(process.env.TRUTH_OUT, text);
  else process.stdout.write(text);
  process.exit(0);
});
