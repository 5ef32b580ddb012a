#!/usr/bin/env node
// Ground-truth Next.js API routes by Next's documented file-system rules (never the packs),
// for projects whose `next build` cannot run here (it needs their whole dependency tree and,
// for most, network and environment). The exports are read with the TypeScript compiler's own
// parser. Rules applied, from Next's docs (Pages Router "API Routes", App Router "Route
// Handlers", "Project Organization", "Route Groups", "Parallel Routes", `basePath`):
// - a project is a folder holding `next.config.*`; its routers are `pages/` or `src/pages/`
//   and `app/` or `src/app/` (`src/` only when the root has none);
// - `pages/api/**/*.{js,jsx,ts,tsx}` (the default `pageExtensions`): one route answering every
//   method when the file has a default export; `index` is its folder;
// - `app/**/route.{js,jsx,ts,tsx}`: one route per exported GET/POST/PUT/PATCH/DELETE/HEAD/
//   OPTIONS (Next's own implicit HEAD and OPTIONS are not listed); a folder `(group)` or `@slot`
//   adds no segment, a `_private` folder and all below it route nothing;
// - `[x]` is `{x}`, `[...x]` is `{x}`, `[[...x]]` serves its folder's path too;
// - `basePath` (given, read by hand from next.config) goes before every path; i18n locales do
//   not apply to API routes;
// - `pageExtensions` (given per project, read by hand from next.config, e.g. ["page.tsx",
//   "page.ts"]): only files ending `.<one of them>` are pages or routes, that ending dropped
//   from the path (Next's "Custom Page Extensions"); unset, the default js/jsx/ts/tsx.
// Usage: NODE_PATH=<dir holding typescript> node next_routes.js CHECKOUT '{"basePath": {"web": ""},
//   "pageExtensions": {"web": ["page.tsx", "page.ts"]}}'
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const checkout = process.argv[2];
const settings = JSON.parse(process.argv[3] || "{}");
const EXT = /\.(js|jsx|ts|tsx)$/;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
const ALL = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === ".git" || e.name === ".next") continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

function exportsOf(file, seen = new Set()) {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names = new Set();
  const bindingNames = (n) => {
    if (ts.isIdentifier(n)) names.add(n.text);
    else if (ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n))
      for (const el of n.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name);
  };
  for (const st of sf.statements) {
    const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) || [] : [];
    const exported = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (exported && isDefault) names.add("default");
    else if (exported && (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) names.add(st.name.text);
    else if (exported && ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) bindingNames(d.name);
    else if (ts.isExportAssignment(st)) names.add("default");
    else if (ts.isExportDeclaration(st)) {
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) names.add(el.name.text);
      } else if (!st.exportClause && st.moduleSpecifier) {
        const target = resolve(file, st.moduleSpecifier.text);
        if (target) for (const n of exportsOf(target, seen)) if (n !== "default") names.add(n);
      }
    } else if (ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression)
        && st.expression.left.getText() === "module.exports") names.add("default");
  }
  return names;
}

function resolve(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const cand of [base, ...[".ts", ".tsx", ".js", ".jsx"].map((e) => base + e),
    ...[".ts", ".tsx", ".js", ".jsx"].map((e) => path.join(base, "index" + e))]) {
    if (fs.existsSync(cand) && fs.statSync(cand).isFile()) return cand;
  }
  return null;
}

function segmentPaths(segments) {
  let kept = [];
  let optional = false;
  segments.forEach((s, i) => {
    if (/^\(.*\)$/.test(s) || s.startsWith("@")) return;
    let m = /^\[\[\.\.\.(.+)\]\]$/.exec(s);
    if (m) { kept.push(`{${m[1]}}`); optional = i === segments.length - 1; return; }
    m = /^\[\.\.\.(.+)\]$/.exec(s);
    if (m) { kept.push(`{${m[1]}}`); return; }
    kept.push(s.replace(/\[([^\]]+)\]/g, "{$1}"));
  });
  const full = "/" + kept.join("/");
  return optional ? ["/" + kept.slice(0, -1).join("/"), full] : [full];
}

const items = [];
const all = walk(checkout, []);
const roots = all.filter((f) => /(^|\/)next\.config\.(js|mjs|cjs|ts)$/.test(f)).map((f) => path.dirname(f));
for (const root of roots) {
  const rel = path.relative(checkout, root) || ".";
  const basePath = (settings.basePath || {})[rel] || "";
  const has = (d) => fs.existsSync(path.join(root, d)) && fs.statSync(path.join(root, d)).isDirectory();
  const pagesDir = has("pages") ? "pages" : has("src/pages") ? "src/pages" : null;
  const appDir = has("app") ? "app" : has("src/app") ? "src/app" : null;
  const given = (settings.pageExtensions || {})[rel];
  const ext = given
    ? new RegExp(`\\.(${given.map((e) => e.replace(/[.]/g, "\\.")).join("|")})$`)
    : EXT;
  if (pagesDir && has(pagesDir + "/api")) {
    for (const f of walk(path.join(root, pagesDir, "api"), [])) {
      if (!ext.test(f) || f.endsWith(".d.ts")) continue;
      const relTo = path.relative(path.join(root, pagesDir), f).replace(ext, "");
      const segs = relTo.split("/");
      if (segs[segs.length - 1] === "index") segs.pop();
      if (segs[segs.length - 1] === "_middleware") continue;
      if (!exportsOf(f).has("default")) continue;
      for (const p of segmentPaths(segs)) for (const m of ALL)
        items.push({ name: `${m} ${(basePath + p).replace(/\/$/, "") || "/"}`, file: path.relative(checkout, f), line: 1 });
    }
  }
  if (appDir) {
    for (const f of walk(path.join(root, appDir), [])) {
      if (!(given ? new RegExp(`(^|/)route\\.(${given.map((e) => e.replace(/[.]/g, "\\.")).join("|")})$`) : /(^|\/)route\.(js|jsx|ts|tsx)$/).test(f)) continue;
      const segs = path.relative(path.join(root, appDir), path.dirname(f)).split("/").filter(Boolean);
      if (segs.some((s) => s.startsWith("_"))) continue;
      const exported = exportsOf(f);
      for (const p of segmentPaths(segs)) for (const m of METHODS) if (exported.has(m))
        items.push({ name: `${m} ${(basePath + p).replace(/\/$/, "") || "/"}`, file: path.relative(checkout, f), line: 1 });
    }
  }
}
const unique = new Map();
for (const it of items) if (!unique.has(it.name)) unique.set(it.name, it);
process.stdout.write(JSON.stringify([...unique.values()].sort((a, b) => a.name.localeCompare(b.name)), null, 1) + "\n");
