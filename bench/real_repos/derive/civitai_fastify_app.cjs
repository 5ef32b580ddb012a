// Civitai's three Fastify 5 services (apps/storage, apps/notifications, apps/orchestrator-gateway:
// TypeScript ES modules, each with a `buildServer()` factory in src/app.ts that makes the instance
// without listening; src/server.ts only adds `listen`). Used with derive/fastify_runtime_routes.js
// in `factory` mode, after derive/ts_source_lines.js and derive/js_orm_hook.js (tsconfig paths,
// inert stubs for the packages not installed: the @civitai/* workspace packages, the AWS SDK).
// CIVITAI_APP=<the app's folder>. The TypeScript is run as CommonJS exactly as
// derive/openpanel_app.cjs does (whose loader this copies): each project file's import
// declarations are hoisted onto its first line, import.meta.url is the file's URL, the module body
// runs in a block.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");
const app = process.env.CIVITAI_APP || process.cwd();
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
module.exports = () => require(path.join(app, "src", "app.ts")).buildServer();
