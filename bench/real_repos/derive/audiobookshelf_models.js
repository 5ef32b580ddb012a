// audiobookshelf's models as its `Database.buildModels()` initialises them, for js_orm_truth.js
// (a FILE given by absolute path, loaded after the script has replaced Sequelize; never runs the
// packs): the application's own Sequelize options, every `Model.init` its Database makes;
// `sync` (which would create the tables) is not run.
"use strict";
const path = require("node:path");
const checkout = path.resolve(process.env.CHECKOUT);
const { Sequelize } = require("sequelize");
const database = require(path.join(checkout, "server/Database"));
database.sequelize = new Sequelize({ dialect: "sqlite", logging: false, transactionType: "IMMEDIATE" });
database.sequelize.sync = async () => {};
database.buildModels();
