#!/usr/bin/env node
// Reference detector, the Node twin of reference_detector.py (id `reference-detector-node`).
// Every rule mirrors the Python one so the two give byte-identical documents: UTF-8 byte order
// for paths, splitting on ASCII space and tab only, fixed message texts, attrs in written order.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { openDirInRoot, openRoot, readFileInRoot, servePlugin } from "./sdk/node/index.js";

const PLUGIN_ID = "reference-detector-node";
const PLUGIN_VERSION = "1.0.0";
const SUFFIX = ".gfx";
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const POSITIONAL = new Map([
  ["table", 1],
  ["route", 2],
]); // words before the key=value ones
const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export function discover(paths) {
  const rootFd = openRoot(".");
  try {
    return discoverIn(paths, rootFd);
  } finally {
    fs.closeSync(rootFd);
  }
}

function discoverIn(paths, rootFd) {
  const root = fs.realpathSync(".");
  const files = new Map(); // repo-relative path reported -> in-root path to open
  const unresolved = [];
  for (const p of paths) {
    const problem = locate(p, root, rootFd, files);
    if (problem) unresolved.push({ path: p, reason: problem[0], detail: problem[1] });
  }
  const resources = [];
  const signals = [];
  const tables = new Map();
  for (const rel of [...files.keys()].sort(byUtf8)) {
    let text;
    try {
      // Never by name: a symlink swapped in since locate() checked it is not followed.
      text = utf8.decode(readFileInRoot(rootFd, files.get(rel)));
    } catch (error) {
      const detail = error instanceof TypeError ? "not valid UTF-8" : "cannot be read";
      unresolved.push({ path: rel, reason: "unreadable", detail });
      continue;
    }
    text.split("\n").forEach((line, index) => {
      const number = index + 1;
      const parsed = parse(line);
      if (parsed === null) return;
      if (typeof parsed === "string") {
        unresolved.push({ path: rel, reason: "parse-error", detail: `line ${number}: ${parsed}` });
        return;
      }
      const [kind, name, attrs] = parsed;
      const location = { path: rel, line: number };
      resources.push({ kind, name, location, attrs: Object.fromEntries(attrs) });
      for (const [key, value] of attrs) {
        signals.push({ resource: `${kind}:${name}`, signal: key, value, source: location });
      }
      if (kind === "table") {
        if (!tables.has(name)) tables.set(name, []);
        tables.get(name).push(location);
      }
    });
  }
  const findings = [...tables]
    .filter(([, locations]) => locations.length > 1)
    .map(([name, locations]) => ({
      code: "DUPLICATE_TABLE_NAME",
      detail: `table ${name} is defined ${locations.length} times`,
      locations,
    }));
  findings.sort(
    (a, b) =>
      byUtf8(a.locations[0].path, b.locations[0].path) || a.locations[0].line - b.locations[0].line,
  );
  unresolved.sort((a, b) => byUtf8(a.path, b.path));
  return { resources, unresolved, findings, classificationSignals: signals };
}

function locate(p, root, rootFd, files) {
  let stat;
  let real;
  try {
    stat = fs.statSync(p); // follows links: a dangling one is not found either
    real = fs.realpathSync(p);
  } catch {
    return ["not-found", "no such file or directory"];
  }
  if (real !== root && !real.startsWith(root + path.sep)) {
    return ["unreadable", "symlink leads outside the repository"];
  }
  const target = real === root ? "." : path.relative(root, real).split(path.sep).join("/");
  if (stat.isDirectory()) {
    walk(rootFd, p, target, files);
    return null;
  }
  if (!p.endsWith(SUFFIX)) return ["unsupported", `not a ${SUFFIX} file`];
  if (!stat.isFile()) return ["unreadable", "not a regular file"];
  if (stat.size > MAX_FILE_BYTES) return ["too-large", `larger than ${MAX_FILE_BYTES} bytes`];
  files.set(p, target);
  return null;
}

/** Add the .gfx files below `directory`, which lies at `target` inside the root. */
function walk(rootFd, directory, target, files) {
  let entries;
  try {
    const fd = openDirInRoot(rootFd, target); // a directory swapped for a link: not listed
    try {
      entries = fs.readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true, encoding: "buffer" });
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return;
  }
  for (const entry of entries) {
    let name;
    try {
      name = utf8.decode(entry.name);
    } catch {
      continue; // a name that is not UTF-8 cannot be reported in JSON
    }
    if (name.startsWith(".") || entry.isSymbolicLink()) continue;
    const rel = directory === "." ? name : `${directory}/${name}`;
    const inside = target === "." ? name : `${target}/${name}`;
    if (entry.isDirectory()) walk(rootFd, rel, inside, files);
    else if (entry.isFile() && name.endsWith(SUFFIX)) files.set(rel, inside);
  }
}

function parse(line) {
  const words = line
    .replace(/\r+$/, "")
    .split(/[ \t]+/)
    .filter(Boolean);
  if (!words.length || words[0].startsWith("#")) return null;
  const [directive, ...args] = words;
  const positional = POSITIONAL.get(directive);
  if (positional === undefined) return `unknown directive ${directive}`;
  const names = args.slice(0, positional);
  if (names.length < positional || names.some((w) => w.includes("="))) {
    return directive === "table" ? "expected table NAME" : "expected route METHOD PATH";
  }
  const attrs = new Map(); // a Map keeps written order even for keys like "1" (objects do not)
  for (const word of args.slice(positional)) {
    const at = word.indexOf("=");
    const key = word.slice(0, at);
    const value = word.slice(at + 1);
    if (at < 0 || !key || !value) return `expected key=value, got ${word}`;
    attrs.set(key, value);
  }
  return [directive, names.join(" "), attrs];
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await servePlugin(discover, {
    pluginId: PLUGIN_ID,
    pluginVersion: PLUGIN_VERSION,
  });
}
