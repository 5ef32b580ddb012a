// Ground-truth routes of a NestJS 7 (or 6) application from Nest 7's own scanner and router explorer,
// without instantiating any provider (never runs the packs). Nest 7 has neither the
// GraphInspector nor the RoutePathFactory nest_runtime_routes.js uses (Nest 8+), so the path is
// composed with Nest 7's own pieces exactly as NestApplication.registerRouter and
// RoutesResolver.resolve do: basePath = addLeadingSlash(global prefix), plus the module's path
// metadata if any; RouterExplorer.extractRouterPath(controller, basePath) for each controller
// path; RouterExplorer.scanForPaths for the handlers; stripEndSlash(controller path) + handler
// path, then stripEndSlash || '/' (applyCallbackToRouter). No database, queue or cache is
// connected: no provider is made.
//
// Usage: [STUB=<missing project modules>] TSCONFIG=<tsconfig> NODE_PATH=<node_modules> \
//   node -r derive/js_orm_hook.js derive/nest7_runtime_routes.js CHECKOUT MODULE_FILE EXPORT PREFIX
// A route's file and line: the controller class's file and the line of its handler method.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
require("reflect-metadata");
const checkout = path.resolve(process.argv[2]);
const [moduleFile, exported, prefix] = process.argv.slice(3);

const { RequestMethod } = require("@nestjs/common");
const { MODULE_PATH } = require("@nestjs/common/constants");
// Nest 6 has validatePath (the same rule: a leading slash added) where Nest 7 has addLeadingSlash
const shared = require("@nestjs/common/utils/shared.utils");
const addLeadingSlash = shared.addLeadingSlash || shared.validatePath;
const { ApplicationConfig } = require("@nestjs/core/application-config");
const { NestContainer } = require("@nestjs/core/injector/container");
const { MetadataScanner } = require("@nestjs/core/metadata-scanner");
const { DependenciesScanner } = require("@nestjs/core/scanner");
const { RouterExplorer } = require("@nestjs/core/router/router-explorer");

function declared(metatype, methodName) {
  const re = new RegExp(`class\\s+${metatype.name}\\b`);
  const loaded = Object.keys(require.cache).filter((f) => f.startsWith(checkout + path.sep) && !f.includes("node_modules"));
  for (const f of loaded.sort()) {
    const lines = fs.readFileSync(f, "utf8").split("\n");
    const at = lines.findIndex((l) => re.test(l));
    if (at < 0) continue;
    const method = new RegExp(`^\\s*(?:public\\s+|private\\s+|protected\\s+)?(?:async\\s+)?${methodName}\\s*[(<]`);
    const line = lines.findIndex((l, i) => i > at && method.test(l));
    return { file: path.relative(checkout, f), line: (line >= 0 ? line : at) + 1 };
  }
  return { file: "?", line: 0 };
}

async function main() {
  const root = require(path.join(checkout, moduleFile))[exported];
  const config = new ApplicationConfig();
  if (prefix) config.setGlobalPrefix(prefix);
  const container = new NestContainer(config);
  await new DependenciesScanner(container, new MetadataScanner(), config).scan(root);
  const explorer = new RouterExplorer(new MetadataScanner(), container, undefined, undefined, undefined, config);
  const basePath = addLeadingSlash(config.getGlobalPrefix());
  const items = new Map();
  for (const module of container.getModules().values()) {
    const modulePath = module.metatype ? Reflect.getMetadata(MODULE_PATH, module.metatype) : undefined;
    const base = modulePath ? basePath + modulePath : basePath;
    for (const wrapper of module.controllers.values()) {
      const metatype = wrapper.metatype;
      const proto = metatype.prototype;
      // Nest 6: one path (a string), and the trailing slash stripped by applyCallbackToRouter's own
      // stripSlash, the same rule as Nest 7's stripEndSlash
      const paths = explorer.extractRouterPath(metatype, base);
      for (const ctrlPath of typeof paths === "string" ? [paths] : paths) {
        for (const route of explorer.scanForPaths(Object.create(proto), proto)) {
          for (const p of route.path) {
            const strip = explorer.stripEndSlash
              ? (text) => explorer.stripEndSlash(text)
              : (text) => (text[text.length - 1] === "/" ? text.slice(0, -1) : text);
            const full = strip(strip(ctrlPath) + p) || "/";
            const name = `${RequestMethod[route.requestMethod]} ${full}`;
            if (!items.has(name)) items.set(name, { name, ...declared(metatype, route.methodName) });
          }
        }
      }
    }
  }
  const sorted = [...items.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  process.stdout.write(`${JSON.stringify(sorted, null, 1)}\n`, () => process.exit(0));
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
