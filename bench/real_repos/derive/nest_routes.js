#!/usr/bin/env node
// Ground-truth NestJS routes, enumerated from the controllers with the TypeScript compiler's own
// parser (never the packs), for apps that cannot boot here without their databases and services.
// It applies Nest's RoutePathFactory order: global prefix (unless excluded), URI version
// (`/v1`: the route's `@Version`, else its controller's `version`, else `defaultVersion`;
// VERSION_NEUTRAL none), RouterModule path of the module declaring the controller, the
// controller's path, the method's path. What main.ts computes from config is given as
// settings, read by hand from the repository (its defaults, its .env.example). A `Version(v)`
// that a decorator of the project's composes with `applyDecorators` is not read here: where
// the app's modules load, nest_runtime_routes.js reads it as Nest does.
//
// Usage: NODE_PATH=<dir holding typescript> node nest_routes.js CHECKOUT SETTINGS_JSON > items.json
// SETTINGS_JSON: {"roots": ["src"], "prefix": "api", "exclude": ["/"], "versioning":
//   {"defaultVersion": "1", "prefix": "v"} | null, "ignore": ["regex of files to skip"]}
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const checkout = process.argv[2];
const settings = JSON.parse(process.argv[3]);
const VERBS = { Get: ["GET"], Post: ["POST"], Put: ["PUT"], Patch: ["PATCH"], Delete: ["DELETE"],
  Options: ["OPTIONS"], Head: ["HEAD"], Search: ["SEARCH"],
  All: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"] };
const NEUTRAL = "<neutral>";

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.ts$/.test(entry.name) && !/\.(spec|test|e2e-spec|d)\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

const files = settings.roots.flatMap((r) => walk(path.join(checkout, r), []))
  .filter((f) => !(settings.ignore || []).some((re) => new RegExp(re).test(path.relative(checkout, f))));
const classes = {}; // name -> {file, node, sf}
const consts = {}; // top-level `const X = 'literal'` by name
const composed = {}; // function name -> [{verb, args}] it applies through applyDecorators
const modules = {}; // module class name -> controller class names
let routerEntries = []; // [{path, module, children}]

function decoratorsOf(node) {
  return (ts.canHaveDecorators(node) ? ts.getDecorators(node) : undefined) || [];
}
function callOf(dec) {
  const e = dec.expression;
  if (!ts.isCallExpression(e)) return null;
  const name = ts.isIdentifier(e.expression) ? e.expression.text : null;
  return name ? { name, args: e.arguments } : null;
}
function literal(node) {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isIdentifier(node)) {
    if (node.text === "VERSION_NEUTRAL") return NEUTRAL;
    if (node.text in consts) return consts[node.text];
  }
  if (ts.isPropertyAccessExpression(node) && node.name.text === "VERSION_NEUTRAL") return NEUTRAL;
  return undefined;
}
function paths(args) {
  // none: its parent's; a string; a list; `{ path }`
  if (!args || args.length === 0) return [""];
  const a = args[0];
  if (ts.isArrayLiteralExpression(a)) return a.elements.map((e) => literal(e) ?? "<?>");
  if (ts.isObjectLiteralExpression(a)) {
    const p = prop(a, "path");
    return p ? paths([p]) : [""];
  }
  const v = literal(a);
  return [v === undefined ? "<?>" : v];
}
function prop(obj, key) {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && p.name && p.name.getText() === key) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === key) return p.name;
  }
  return null;
}
function versions(node) {
  if (!node) return null;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => literal(e) ?? "<?>");
  const v = literal(node);
  return [v === undefined ? "<?>" : v];
}

// pass 1: classes, constants, composed decorators, modules, RouterModule.register
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      classes[node.name.text] = { file, node, sf };
      for (const dec of decoratorsOf(node)) {
        const c = callOf(dec);
        if (c && c.name === "Module" && c.args[0] && ts.isObjectLiteralExpression(c.args[0])) {
          const list = prop(c.args[0], "controllers");
          if (list && ts.isArrayLiteralExpression(list))
            modules[node.name.text] = list.elements.map((e) => e.getText());
        }
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const v = ts.isStringLiteral(node.initializer) ? node.initializer.text : undefined;
      if (v !== undefined) consts[node.name.text] = v;
    }
    if ((ts.isFunctionDeclaration(node) && node.name) || (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)
        && node.initializer && ts.isArrowFunction(node.initializer))) {
      const name = node.name.text;
      const found = [];
      const look = (n) => {
        if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "applyDecorators") {
          for (const a of n.arguments) {
            if (ts.isCallExpression(a) && ts.isIdentifier(a.expression) && VERBS[a.expression.text])
              found.push({ verb: a.expression.text, args: a.arguments });
          }
        }
        ts.forEachChild(n, look);
      };
      look(node);
      if (found.length) composed[name] = found;
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
        && node.expression.name.text === "register" && /RouterModule/.test(node.expression.expression.getText())
        && node.arguments[0] && ts.isArrayLiteralExpression(node.arguments[0])) {
      routerEntries.push(...node.arguments[0].elements);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

// RouterModule: module -> path, children nested under their parent's path
const modulePath = {};
function registerEntries(elements, base) {
  for (const e of elements) {
    if (!ts.isObjectLiteralExpression(e)) continue;
    const p = join(base, literal(prop(e, "path")) ?? "<?>");
    const m = prop(e, "module");
    if (m) modulePath[m.getText()] = p;
    const kids = prop(e, "children");
    if (kids && ts.isArrayLiteralExpression(kids)) {
      for (const k of kids.elements) {
        if (ts.isIdentifier(k)) modulePath[k.text] = p; // a module listed bare: its parent's path
      }
      registerEntries(kids.elements, p);
    }
  }
}
registerEntries(routerEntries, "");
const controllerModule = {};
for (const [mod, ctrls] of Object.entries(modules)) for (const c of ctrls) controllerModule[c] = mod;

function join(...parts) {
  const segs = parts.flatMap((p) => String(p).split("/")).filter((s) => s !== "");
  return "/" + segs.join("/");
}

function methodsOf(cls, seen) {
  // own methods first; a base class's methods are inherited unless overridden
  const out = [];
  const names = new Set();
  for (const m of cls.node.members) {
    if (!ts.isMethodDeclaration(m) || !m.name) continue;
    names.add(m.name.getText());
    out.push({ m, sf: cls.sf, file: cls.file });
  }
  const heritage = (cls.node.heritageClauses || []).find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
  if (heritage) {
    const baseExpr = heritage.types[0].expression;
    const baseName = ts.isIdentifier(baseExpr) ? baseExpr.text : null;
    const base = baseName && classes[baseName];
    if (base && !seen.has(baseName)) {
      seen.add(baseName);
      for (const inherited of methodsOf(base, seen)) {
        if (!names.has(inherited.m.name.getText())) out.push(inherited);
      }
    }
  }
  return out;
}

const items = [];
const excluded = (settings.exclude || []).map((e) => e.replace(/^\/+|\/+$/g, ""));
for (const [name, cls] of Object.entries(classes)) {
  const ctrl = decoratorsOf(cls.node).map(callOf).find((c) => c && c.name === "Controller");
  if (!ctrl) continue;
  const ctrlPaths = paths(ctrl.args);
  let ctrlVersion = null;
  if (ctrl.args[0] && ts.isObjectLiteralExpression(ctrl.args[0])) ctrlVersion = versions(prop(ctrl.args[0], "version"));
  const modPath = modulePath[controllerModule[name]] || "";
  for (const { m, sf, file } of methodsOf(cls, new Set([name]))) {
    const decs = decoratorsOf(m).map(callOf).filter(Boolean);
    const ver = decs.find((d) => d.name === "Version");
    const routeVersion = ver ? versions(ver.args[0]) : null;
    const verbs = [];
    for (const d of decs) {
      if (VERBS[d.name]) verbs.push({ verb: d.name, args: d.args });
      else if (composed[d.name]) verbs.push(...composed[d.name]);
    }
    for (const { verb, args } of verbs) {
      for (const cp of ctrlPaths) {
        for (const mp of paths(args)) {
          const local = join(modPath, cp, mp);
          let vs = [null];
          if (settings.versioning) {
            const chosen = routeVersion || ctrlVersion || (settings.versioning.defaultVersion != null ? [].concat(settings.versioning.defaultVersion) : [null]);
            vs = chosen;
          }
          for (const v of vs) {
            const vseg = v === null || v === NEUTRAL ? "" : (settings.versioning.prefix ?? "v") + v;
            const isExcluded = excluded.includes(local.replace(/^\/+|\/+$/g, ""));
            const full = join(isExcluded ? "" : settings.prefix || "", vseg, local).replace(/:(\w+)/g, "{$1}");
            const line = sf.getLineAndCharacterOfPosition(m.getStart(sf)).line + 1;
            for (const method of VERBS[verb]) {
              items.push({ name: `${method} ${full}`, file: path.relative(checkout, file), line });
            }
          }
        }
      }
    }
  }
}
const unique = new Map();
for (const it of items) if (!unique.has(it.name)) unique.set(it.name, it);
process.stdout.write(JSON.stringify([...unique.values()].sort((a, b) => a.name.localeCompare(b.name)), null, 1) + "\n");
