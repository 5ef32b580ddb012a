// Reads a JSON list of words on stdin and writes, for each, the names the real packages give:
// inflection 1.12.0 and 1.13.4 (Sequelize's plurals and `underscored`), mongoose-legacy-pluralize
// (Mongoose before 6) and the pinned Mongoose's own pluralize. Used by tests/packs/test_js_naming.py.
"use strict";
const inflection12 = require("inflection-1.12");
const inflection13 = require("inflection-1.13");
const legacy = require("mongoose-legacy-pluralize");
const mongoose = require("mongoose");

const pluralize = mongoose.pluralize();
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const words = JSON.parse(input);
  const names = words.map((word) => ({
    inflection_1_12: inflection12.pluralize(word),
    inflection_1_13: inflection13.pluralize(word),
    underscore: inflection13.underscore(word),
    mongoose_legacy: legacy(word),
    mongoose: pluralize(word),
  }));
  process.stdout.write(JSON.stringify({ mongoose: mongoose.version, names }));
});
