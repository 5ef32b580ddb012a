// Ground-truth Mongoose collections of a NestJS app that registers its models with
// @nestjs/mongoose's `MongooseModule.forFeature([{ name, schema, collection? }])` (never runs the
// packs). Nothing connects: no provider of the app is made.
//
// Usage: TSCONFIG=<tsconfig> NODE_PATH=<node_modules> node -r derive/js_orm_hook.js \
//   derive/blind24j_nest_mongoose_models.js CHECKOUT MODULE_FILE EXPORT [PREFIX] > items.json
//
// `MongooseModule.forFeature` is wrapped before the app's root module is loaded, to note the file
// and line of each call; Nest's own DependenciesScanner then walks the root module's imports as
// NestFactory.create does, and every model provider of every MongooseModule it reached (the
// factory @nestjs/mongoose wrote: `connection.model(name, schema, collection)`) is called with a
// Mongoose connection that was never opened (`mongoose.createConnection()`): the model's
// `collection.name` is the collection, pluralised by Mongoose itself. An item's file and line:
// the `@Schema()` class whose SchemaFactory.createForClass made the schema (the class of that
// name in the file that exports the schema); `files`: that file and every file whose
// forFeature call names the model. PREFIX is put before every path (a package in a monorepo).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
require("reflect-metadata");
const checkout = path.resolve(process.argv[2]);
const [moduleFile, exported, prefix = ""] = process.argv.slice(3);

const { MongooseModule } = require("@nestjs/mongoose");
const mongoose = require("mongoose");
const { NestContainer } = require("@nestjs/core/injector/container");
const { GraphInspector } = require("@nestjs/core/inspector/graph-inspector");
const { MetadataScanner } = require("@nestjs/core/metadata-scanner");
const { DependenciesScanner } = require("@nestjs/core/scanner");
const { ApplicationConfig } = require("@nestjs/core/application-config");

const calls = []; // {file, line, models: [{name, schema}], providers}
const forFeature = MongooseModule.forFeature;
MongooseModule.forFeature = function (models, ...rest) {
  const made = forFeature.call(this, models, ...rest);
  const frame = new Error().stack
    .split("\n")
    .slice(2)
    .find((l) => l.includes(checkout) && !l.includes("node_modules"));
  const m = frame && /\((.*):(\d+):\d+\)$|at (.*):(\d+):\d+$/.exec(frame.trim());
  calls.push({
    file: m ? path.relative(checkout, m[1] || m[3]) : "?",
    line: m ? Number(m[2] || m[4]) : 0,
    models: models || [],
  });
  return made;
};

function schemaPlace(schema, modelName) {
  const loaded = Object.keys(require.cache).filter((f) => f.startsWith(checkout + path.sep) && !f.includes("node_modules"));
  for (const f of loaded.sort()) {
    const exports = require.cache[f].exports || {};
    if (!Object.values(exports).includes(schema)) continue;
    const lines = fs.readFileSync(f, "utf8").split("\n");
    const at = lines.findIndex((l) => new RegExp(`class\\s+${modelName}\\b`).test(l));
    const call = lines.findIndex((l) => l.includes("createForClass"));
    return { file: path.relative(checkout, f), line: (at >= 0 ? at : call) + 1 };
  }
  return { file: "?", line: 0 };
}

async function main() {
  const root = require(path.join(checkout, moduleFile))[exported];
  const config = new ApplicationConfig();
  const container = new NestContainer(config);
  const scanner = new DependenciesScanner(container, new MetadataScanner(), new GraphInspector(container), config);
  await scanner.scan(root);
  const connection = mongoose.createConnection(); // never opened
  const items = new Map();
  for (const module of container.getModules().values()) {
    if (module.metatype !== MongooseModule) continue;
    for (const wrapper of module.providers.values()) {
      const inject = wrapper.inject || [];
      if (typeof wrapper.metatype !== "function" || inject.length !== 1 || typeof inject[0] !== "string") continue;
      if (!/Connection$/.test(inject[0])) continue; // a discriminator's factory injects its base model
      const model = wrapper.metatype(connection);
      if (!model || !model.collection) continue;
      const name = model.collection.name;
      const call = calls.find((c) => c.models.some((o) => o.name === model.modelName && o.schema === model.schema));
      const option = call && call.models.find((o) => o.name === model.modelName);
      const place = schemaPlace(option ? option.schema : model.schema, model.modelName);
      const naming = calls.filter((c) => c.models.some((o) => o.name === model.modelName)).map((c) => c.file);
      const prior = items.get(name);
      const files = new Set([...(prior ? prior.files : []), place.file, ...naming]);
      items.set(name, { name, kind: "collection", file: place.file, line: place.line, files, model: model.modelName });
    }
  }
  const out = [...items.values()]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((i) => ({ ...i, file: prefix + i.file, files: [...i.files].sort().map((f) => prefix + f) }));
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
  process.exit(0);
}
main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
