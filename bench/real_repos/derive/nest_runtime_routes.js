// Ground-truth NestJS routes from Nest's own module scanner and route-path rules, without
// instantiating any provider (never runs the packs): the app's root module is loaded (TypeScript
// transpiled, tsconfig `paths` through js_orm_hook.js), Nest's DependenciesScanner walks its
// imports as NestFactory.create does (dynamic modules, forwardRef, RouterModule), each
// RouterModule's ROUTES value is given to RouterModule's own constructor (which writes the module
// path metadata Nest's router reads), and every controller of every scanned module is read with
// Nest's PathsExplorer and RoutePathFactory, the global prefix and versioning as main.ts sets them
// (SETTINGS). No database, queue or cache is connected: no provider is made.
//
// Usage: TSCONFIG=<tsconfig> NODE_PATH=<node_modules> node -r derive/js_orm_hook.js \
//   derive/nest_runtime_routes.js CHECKOUT MODULE_FILE EXPORT SETTINGS_JSON > items.json
// SETTINGS_JSON: {"prefix": "api", "exclude": ["/health"], "versioning": {"type": "URI",
//   "defaultVersion": "1" | ["VERSION_NEUTRAL", "1"], "prefix": "v"} | null}; the global
//   prefix's exclude list and the default version are applied as Nest's runtime applies them
// A route's file and line: the controller class's file and the line of its handler method.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
require("reflect-metadata");
const checkout = path.resolve(process.argv[2]);
const [moduleFile, exported, settingsJson] = process.argv.slice(3);
const settings = JSON.parse(settingsJson || "{}");

const { RequestMethod, VERSION_NEUTRAL, VersioningType } = require("@nestjs/common");
const { PATH_METADATA, VERSION_METADATA } = require("@nestjs/common/constants");
const { ApplicationConfig } = require("@nestjs/core/application-config");
const { NestContainer } = require("@nestjs/core/injector/container");
const { GraphInspector } = require("@nestjs/core/inspector/graph-inspector");
const { MetadataScanner } = require("@nestjs/core/metadata-scanner");
const { DependenciesScanner } = require("@nestjs/core/scanner");
const { MODULE_PATH } = require("@nestjs/common/constants");
const { PathsExplorer } = require("@nestjs/core/router/paths-explorer");
const { RoutePathFactory } = require("@nestjs/core/router/route-path-factory");
const { RouterModule, ROUTES } = require("@nestjs/core/router/router-module");
const { addLeadingSlash } = require("@nestjs/common/utils/shared.utils");
const { mapToExcludeRoute } = require("@nestjs/core/middleware/utils");

function declared(metatype, methodName) {
  // the file whose module exports this very class (two controllers may share a class name)
  const re = new RegExp(`class\\s+${metatype.name}\\b`);
  const loaded = Object.keys(require.cache).filter((f) => f.startsWith(checkout + path.sep) && !f.includes("node_modules"));
  const exporting = loaded.filter((f) => Object.values(require.cache[f].exports || {}).includes(metatype));
  for (const f of (exporting.length ? exporting : loaded).sort()) {
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
  if (settings.prefix) config.setGlobalPrefix(settings.prefix);
  // as NestApplication.setGlobalPrefix(prefix, { exclude }) stores them
  if (settings.prefix && settings.exclude) config.setGlobalPrefixOptions({ exclude: mapToExcludeRoute(settings.exclude) });
  // "VERSION_NEUTRAL" in SETTINGS' defaultVersion stands for Nest's symbol (JSON has none)
  const neutral = (v) => (v === "VERSION_NEUTRAL" ? VERSION_NEUTRAL : v);
  if (settings.versioning) {
    const given = settings.versioning.defaultVersion;
    const defaultVersion = Array.isArray(given) ? given.map(neutral) : neutral(given);
    config.enableVersioning({ type: VersioningType.URI, ...settings.versioning, defaultVersion });
  }
  const container = new NestContainer(config);
  const scanner = new DependenciesScanner(container, new MetadataScanner(), new GraphInspector(container), config);
  await scanner.scan(root);
  const modules = container.getModules();
  for (const module of modules.values()) {
    if (module.metatype !== RouterModule) continue;
    const routes = module.providers.get(ROUTES);
    new RouterModule(modules, routes.instance); // eslint-disable-line no-new
  }
  const factory = new RoutePathFactory(config);
  const explorer = new PathsExplorer(new MetadataScanner());
  const items = new Map();
  for (const module of modules.values()) {
    const modulePath = Reflect.getMetadata(MODULE_PATH + modules.applicationId, module.metatype);
    for (const wrapper of module.controllers.values()) {
      const metatype = wrapper.metatype;
      let ctrlPaths = Reflect.getMetadata(PATH_METADATA, metatype);
      ctrlPaths = Array.isArray(ctrlPaths) ? ctrlPaths : [ctrlPaths];
      for (const route of explorer.scanForPaths(Object.create(metatype.prototype))) {
        for (const ctrlPath of ctrlPaths) {
          for (const methodPath of route.path) {
            const paths = factory.create({
              ctrlPath: addLeadingSlash(ctrlPath),
              methodPath: addLeadingSlash(methodPath),
              modulePath,
              globalPrefix: config.getGlobalPrefix() ? addLeadingSlash(config.getGlobalPrefix()) : undefined,
              // RoutesResolver.getVersionMetadata: the controller's, else the default version
              controllerVersion: config.getVersioning()
                ? Reflect.getMetadata(VERSION_METADATA, metatype) ?? config.getVersioning().defaultVersion
                : undefined,
              methodVersion: route.version,
              versioningOptions: config.getVersioning(),
            }, route.requestMethod);
            for (const p of paths) {
              const name = `${RequestMethod[route.requestMethod]} ${p}`;
              if (!items.has(name)) items.set(name, { name, ...declared(metatype, route.methodName) });
            }
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
