// What the JavaScript truth scripts share (never runs the packs): TypeScript loaded through the
// `typescript` package's own transpiler, modules that cannot load here (native bindings not
// built, clients of services) replaced by inert stubs, and the file and line of the caller
// outside node_modules, to say where a route is declared.
//
// Environment: NODE_PATH (the app's node_modules; `typescript` too for a TypeScript app),
// STUB_MODULES=a,b (module names answered with a stub that accepts any use), TRUTH_OUT (where the
// items are written; stdout if unset), STUB_NAMESPACES (below), TRANSPILE_JS (below),
// TS_ES_MODULE_INTEROP (below).
"use strict";
const Module = require("node:module");
const path = require("node:path");

function stub(name) {
  const handler = {
    get: (_t, key) => {
      if (key === "__esModule") return false;
      // a promise of nothing: `await stub` and `stub.then(start)` go on with `undefined`
      if (key === "then") return (resolve, reject) => Promise.resolve(undefined).then(resolve, reject);
      if (key === Symbol.toPrimitive) return () => "";
      return proxy;
    },
    apply: () => proxy,
    construct: () => proxy,
  };
  const proxy = new Proxy(function stubbed() {}, handler);
  return proxy;
}

// A module of plain objects read at any depth (`Schema.user.register`: STUB_NAMESPACES=a,b).
const namespace = () => new Proxy({}, { get: (_t, key) => (key === "then" ? undefined : namespace()) });
const namespaces = new Set((process.env.STUB_NAMESPACES || "").split(",").filter(Boolean));
const stubbed = new Set((process.env.STUB_MODULES || "").split(",").filter(Boolean));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (stubbed.has(request)) return stub(request);
  if (namespaces.has(request)) return namespace();
  return load.call(this, request, parent, isMain);
};

// ES modules: NODE_PATH does not apply to `import`, so a bare specifier the app's folder cannot
// resolve is resolved from NODE_PATH's first folder, and STUB_MODULES (with the named exports
// STUB_EXPORTS=a,b) are answered by a module of stubs, through a loader hook.
const LOADER = `
let stubbed = [], exportsList = [], base;
export function initialize(data) { ({ stubbed, exportsList, base } = data); }
export async function resolve(specifier, context, next) {
  if (stubbed.includes(specifier)) return { url: "file:///truth-stub/" + encodeURIComponent(specifier), shortCircuit: true };
  try { return await next(specifier, context); }
  catch (error) { if (!base || /^[./]/.test(specifier)) throw error; return next(specifier, { ...context, parentURL: base }); }
}
export async function load(url, context, next) {
  if (!url.startsWith("file:///truth-stub/")) return next(url, context);
  const names = exportsList.map((n) => "export const " + n + " = stub;").join("\\n");
  const source = "const h = { get: (t, k) => k === 'then' ? ((r, j) => Promise.resolve(undefined).then(r, j)) : k === Symbol.toPrimitive ? () => '' : stub, apply: () => stub, construct: () => stub };" +
    "const stub = new Proxy(function stubbed() {}, h); export default stub;\\n" + names;
  return { format: "module", source, shortCircuit: true };
}`;
if (Module.register) {
  const first = (process.env.NODE_PATH || "").split(":").filter(Boolean)[0];
  Module.register(`data:text/javascript,${encodeURIComponent(LOADER)}`, {
    data: {
      stubbed: [...stubbed],
      exportsList: (process.env.STUB_EXPORTS || "").split(",").filter(Boolean),
      base: first ? require("node:url").pathToFileURL(path.join(first, "..", "index.js")).href : undefined,
    },
  });
}

function registerTypeScript() {
  let ts;
  try {
    ts = require("typescript");
  } catch {
    return;
  }
  const options = {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2019,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    // TS_ES_MODULE_INTEROP=false: a project whose tsconfig leaves esModuleInterop off, whose
    // `import * as Router from "koa-router"` is the module itself (callable), as tsc emits it
    esModuleInterop: process.env.TS_ES_MODULE_INTEROP !== "false",
  };
  const transpile = (module, filename) => {
    const text = require("node:fs").readFileSync(filename, "utf8");
    const out = ts.transpileModule(text, { compilerOptions: options, fileName: filename });
    module._compile(out.outputText, filename);
  };
  require.extensions[".ts"] = transpile;
  // TRANSPILE_JS=<folder>: the project's own `.js` files under it written as ES modules but run
  // as CommonJS by its tooling (ts-node with `allowJs`, babel-node) go through the same transpiler
  const jsRoot = process.env.TRANSPILE_JS && path.resolve(process.env.TRANSPILE_JS);
  if (jsRoot) {
    const plain = require.extensions[".js"];
    require.extensions[".js"] = (module, filename) =>
      filename.startsWith(jsRoot + path.sep) && !filename.includes(`${path.sep}node_modules${path.sep}`)
        ? transpile(module, filename)
        : plain(module, filename);
  }
}
registerTypeScript();

// The first frame of the stack in the checkout and outside node_modules; TypeScript lines are
// the transpiled file's, which keeps statements on their lines for the code read here (checked
// by hand per repository).
function declaredAt(checkout) {
  const caller = new Error().stack
    .split("\n")
    .slice(2)
    .find((line) => line.includes(checkout) && !line.includes("node_modules") && !line.includes("/derive/"));
  const where =
    caller && /\((?:file:\/\/)?(.*):(\d+):\d+\)$|at (?:file:\/\/)?(.*):(\d+):\d+$/.exec(caller.trim());
  return where
    ? { file: path.relative(checkout, where[1] || where[3]), line: Number(where[2] || where[4]) }
    : { file: "?", line: 0 };
}

// A route's path as the framework serves it under non-strict routing: no trailing slash; a path
// not starting with `/` (`*`, which Express and Fastify match against every path, as `/*`) is
// written rooted, `/*`, as docs/detectors.md names it.
const served = (p) => {
  const rooted = p && !p.startsWith("/") ? `/${p}` : p || "/";
  return rooted.length > 1 && rooted.endsWith("/") ? rooted.slice(0, -1) : rooted;
};

// The items, sorted by name, to TRUTH_OUT (a file: an app's logger may write to stdout) or stdout.
function print(items) {
  const sorted = [...items.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  const text = `${JSON.stringify(sorted, null, 1)}\n`;
  if (process.env.TRUTH_OUT) {
    require("node:fs").writeFileSync(process.env.TRUTH_OUT, text);
    process.exit(0);
  }
  process.stdout.write(text, () => process.exit(0));
}

module.exports = { declaredAt, served, print };
