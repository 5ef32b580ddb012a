// The collections mongoose itself names for dehix_fastify's models (nothing connects); run as
// dehix_fastify_routes.mjs is: TRUTH_RAW=cols.json node --import tsx dehix_fastify_models.mjs
import mongoose from "mongoose";
import fs from "node:fs";
for (const f of fs.readdirSync("src/models").filter((f) => f.endsWith(".ts")).sort()) await import(`./src/models/${f}`);
const out = mongoose.modelNames().map((n) => [n, mongoose.model(n).collection.name]);
fs.writeFileSync(process.env.TRUTH_RAW, JSON.stringify(out));
process.exit(0);
