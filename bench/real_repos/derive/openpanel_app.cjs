// OpenPanel's API (apps/api, Fastify 5, TypeScript ES modules run here as CommonJS): the default
// export makes the instance as src/index.ts does, `buildApp()` with its default options (not the
// test mode, which leaves out the metrics plugin). Used with derive/fastify_runtime_routes.js in
// `factory` mode, after derive/js_orm_hook.js (tsconfig paths, stubs for absent packages).
// OPENPANEL_WORKER=<apps/worker>: its src/index.ts (an Express app that starts at import) is
// loaded instead and nothing is exported, for derive/express_runtime_routes.js.
//
// An ES module's imports are hoisted: a file may `import { z } from 'zod'` below code that uses
// it. Transpiled to CommonJS the require would run late, so each project .ts file's top-level
// import declarations are moved onto its first line (their old lines left blank: every other
// statement keeps its line) before the same transpile as js_runtime_env.js. `import.meta.url` is
// the file's URL; the module's code runs in a block, so a file's own `const __filename` (ES
// modules have none) shadows CommonJS's instead of clashing with it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");
const api = process.env.OPENPANEL_API || process.cwd();
const options = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2019,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
};
function hoisted(text, filename) {
  const file = ts.createSourceFile(filename, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports = file.statements.filter((s) => ts.isImportDeclaration(s));
  let late = false;
  let out = text;
  const moved = [];
  for (const s of [...imports].reverse()) {
    const start = s.getStart(file);
    const before = file.statements.filter((t) => t.end <= start && !ts.isImportDeclaration(t));
    if (!before.length) continue;
    late = true;
    const code = text.slice(start, s.end);
    moved.unshift(code.replace(/\s*\n\s*/g, " "));
    out = out.slice(0, start) + code.replace(/[^\n]/g, " ") + out.slice(s.end);
  }
  return late ? `${moved.join(" ")} ${out}` : text;
}
require.extensions[".ts"] = (module, filename) => {
  const text = fs.readFileSync(filename, "utf8");
  if (filename.includes(`${path.sep}node_modules${path.sep}`)) {
    module._compile(ts.transpileModule(text, { compilerOptions: options, fileName: filename }).outputText, filename);
    return;
  }
  const url = JSON.stringify(require("node:url").pathToFileURL(filename).href);
  const source = hoisted(text, filename).replace(/\bimport\.meta\.url\b/g, url);
  const out = ts.transpileModule(source, { compilerOptions: options, fileName: filename }).outputText;
  // an inline source map (derive/ts_source_lines.js, preloaded) stays the file's last line
  const map = /\n(\/\/# sourceMappingURL=\S+)\s*$/.exec(out);
  const body = map ? out.slice(0, map.index) : out;
  module._compile(`"use strict";{${body}\n}\n${map ? map[1] : ""}`, filename);
};
if (process.env.OPENPANEL_WORKER) {
  require(path.join(process.env.OPENPANEL_WORKER, "src", "index.ts"));
  module.exports = {};
} else module.exports = () => require(path.join(api, "src", "app.ts")).buildApp();
