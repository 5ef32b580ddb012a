// Preloaded before js_orm_hook.js (node --enable-source-maps -r ts_source_lines.js -r
// js_orm_hook.js …): its TypeScript transpiler is asked for an inline source map, so that the
// stack frames the truth scripts read a route's or model's line from give the line in the
// .ts source, not in the transpiled text (which drops type-only imports and blank lines).
"use strict";
const ts = require("typescript");
// (TypeScript 5's exports are getters: the module the hook will require is replaced by a copy)
const transpileModule = ts.transpileModule;
require.cache[require.resolve("typescript")].exports = {
  ...ts,
  transpileModule(source, options) {
    const compilerOptions = { ...(options && options.compilerOptions), inlineSourceMap: true, sourceMap: false };
    return transpileModule.call(ts, source, { ...options, compilerOptions });
  },
};
