// Preload for derive/js_orm_truth.js typeorm (blind22j, Maintainerr): a column whose TypeScript
// type is an imported enum (`type: ECollectionLogType`) gets design:type `Object` under
// typescript's transpileModule (no type information), which TypeORM's drivers refuse
// (DataTypeNotSupportedError); tsc, with the types, emits `Number` for a numeric enum. Such a
// column is given TypeORM's 'integer' before the metadata is built. Column types do not change
// any table name. Usage: node -r derive/js_orm_hook.js -r derive/blind22j_typeorm_object_columns.js …
"use strict";
const typeorm = require("typeorm");
const build = typeorm.DataSource.prototype.buildMetadatas;
typeorm.DataSource.prototype.buildMetadatas = async function buildMetadatas(...args) {
  for (const column of typeorm.getMetadataArgsStorage().columns) {
    if (column.options.type === Object) {
      process.stderr.write(`${column.target.name}.${column.propertyName}: Object → integer\n`);
      column.options.type = "integer";
    }
  }
  return build.apply(this, args);
};
