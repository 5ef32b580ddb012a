// The default names Mongoose and Sequelize give a model, by running them (no database is
// connected: a model is defined, never synced). Run it against a folder holding the version to
// measure in node_modules (`npm install mongoose@5`, `npm install sequelize@4 pg@7`):
//
//   node js_orm_names.js mongoose DIR names.json > mongoose_5.json
//   node js_orm_names.js sequelize DIR names.json > sequelize_4.json
//
// names.json is a JSON list of model names. Sequelize's names are given plain and with
// `underscored` and `underscoredAll` set. tests/packs/test_pack_js_tables_versions.py holds the
// output for mongoose 4.13, 5.13, 6.13, 7.8, 8.24, 9.13 and sequelize 4.44, 5.22, 6.37.
"use strict";

const [kind, dir, listing] = process.argv.slice(2);
const names = require(require("path").resolve(listing));
const out = {};
if (kind === "mongoose") {
  const mongoose = require(dir + "/node_modules/mongoose");
  for (const name of names) {
    try {
      out[name] = mongoose.model(name, new mongoose.Schema({ a: String })).collection.name;
    } catch (error) {
      out[name] = "ERROR " + error.message;
    }
  }
  console.log(JSON.stringify({ version: mongoose.version, names: out }));
  process.exit(0);
}
const { Sequelize, DataTypes } = require(dir + "/node_modules/sequelize");
const version = require(dir + "/node_modules/sequelize/package.json").version;
const options = { plain: {}, underscored: { underscored: true }, underscoredAll: { underscoredAll: true } };
for (const [label, given] of Object.entries(options)) {
  out[label] = {};
  for (const name of names) {
    const sequelize = new Sequelize("db", "u", "p", { logging: false, dialect: "postgres" });
    try {
      const table = sequelize.define(name, { a: DataTypes.STRING }, given).getTableName();
      out[label][name] = typeof table === "string" ? table : table.tableName;
    } catch (error) {
      out[label][name] = "ERROR " + error.message;
    }
  }
}
console.log(JSON.stringify({ version, names: out }));
