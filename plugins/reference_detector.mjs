#!/usr/bin/env node
// Reference detector, the Node twin of reference_detector.py (id `reference-detector-node`).
// Every rule mirrors the Python one so the two give byte-identical documents: UTF-8 byte order
// for paths, splitting on ASCII space and tab only, fixed message texts, attrs in written order.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { openDirInRoot, openFileInRoot, openRoot, servePlugin } from "./sdk/node/index.js";
import { pathProblem } from "./sdk/node/schema.js";

const PLUGIN_ID = "reference-detector-node";
const PLUGIN_VERSION = "1.0.0";
const SUFFIX = ".gfx";
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const TOO_LARGE = `larger than ${MAX_FILE_BYTES} bytes`;
const MAX_OPEN_DIRECTORIES = 16; // as gpp/plugin/repo_files.py's walk_in_root
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const POSITIONAL = new Map([
  ["table", 1],
  ["route", 2],
]); // words before the key=value ones
const DOT = 0x2e;
const SUFFIX_BYTES = Buffer.from(SUFFIX);

/**
 * Compare two strings by their UTF-8 bytes (= by code points) without allocating: UTF-16 order
 * differs only where a surrogate meets a unit at U+E000 or above, so those are moved past each
 * other. (A comparator that made two Buffers per call allocated enough, sorting 30,000 paths,
 * to push V8's reservations past a 1 GiB address-space limit: std::bad_alloc.)
 */
function byUtf8(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

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
    const problem = locate(p, root, rootFd, files, unresolved);
    if (problem) unresolved.push({ path: p, reason: problem[0], detail: problem[1] });
  }
  const resources = [];
  const signals = [];
  const tables = new Map();
  for (const rel of [...files.keys()].sort(byUtf8)) {
    let text;
    try {
      // Never by name: a symlink swapped in since locate() checked it is not followed.
      const data = readCapped(rootFd, files.get(rel));
      if (data === null) {
        unresolved.push({ path: rel, reason: "too-large", detail: TOO_LARGE });
        continue;
      }
      text = utf8.decode(data);
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

function locate(p, root, rootFd, files, skipped) {
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
    walk(rootFd, p, target, files, skipped);
    return null;
  }
  if (!p.endsWith(SUFFIX)) return ["unsupported", `not a ${SUFFIX} file`];
  if (!stat.isFile()) return ["unreadable", "not a regular file"];
  if (stat.size > MAX_FILE_BYTES) return ["too-large", TOO_LARGE];
  files.set(p, target);
  return null;
}

/** The bytes of the file at in-root `rel`, or null when it holds more than MAX_FILE_BYTES. */
function readCapped(rootFd, rel) {
  const [fd, stat] = openFileInRoot(rootFd, rel);
  try {
    if (stat.size > BigInt(MAX_FILE_BYTES)) return null;
    const buffer = Buffer.allocUnsafe(Number(stat.size) + 1); // one more: a file that grew
    let size = 0;
    for (;;) {
      if (size === buffer.length) {
        if (size > MAX_FILE_BYTES) return null;
        const more = Buffer.allocUnsafe(Math.min(buffer.length * 2, MAX_FILE_BYTES + 1));
        buffer.copy(more);
        return readOn(fd, more, size);
      }
      const got = fs.readSync(fd, buffer, size, buffer.length - size, null);
      if (got === 0) return buffer.subarray(0, size);
      size += got;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** readCapped's rest for a file that grew after its fstat: on into `buffer`, capped. */
function readOn(fd, buffer, size) {
  while (size < buffer.length) {
    const got = fs.readSync(fd, buffer, size, buffer.length - size, null);
    if (got === 0) return buffer.subarray(0, size);
    size += got;
  }
  return size > MAX_FILE_BYTES ? null : buffer.subarray(0, size);
}

/**
 * Add the .gfx files below `directory`, which lies at `target` inside the root, and say in
 * `skipped` what the walk passes over: a name no repo-relative path can carry (not UTF-8, a
 * backslash, a leading drive letter) and a file over the size cap (same texts as the Python twin).
 */
function walk(rootFd, directory, target, files, skipped) {
  const reported = (inside) => {
    if (inside === target) return directory;
    const tail = target === "." ? inside : inside.slice(target.length + 1);
    return directory === "." ? tail : `${directory}/${tail}`;
  };
  const failed = walkInRoot(rootFd, target, (fd, insideDir, entries) => {
    const here = reported(insideDir);
    const subdirectories = [];
    for (const entry of entries) {
      const raw = entry.name; // a Buffer
      if (raw[0] === DOT || entry.isSymbolicLink()) continue;
      const isDir = entry.isDirectory();
      const gfx =
        raw.length >= SUFFIX_BYTES.length &&
        raw.subarray(-SUFFIX_BYTES.length).equals(SUFFIX_BYTES);
      if (!isDir && !(entry.isFile() && gfx)) continue;
      let name;
      try {
        name = utf8.decode(raw);
      } catch {
        const detail = "skipped an entry whose name is not UTF-8";
        skipped.push({ path: here, reason: "unsupported", detail });
        continue;
      }
      const rel = here === "." ? name : `${here}/${name}`;
      const problem = pathProblem(rel);
      if (problem !== null) {
        const detail = `skipped ${name}: not a repo-relative path (${problem})`;
        skipped.push({ path: here, reason: "unsupported", detail });
      } else if (isDir) {
        subdirectories.push(name);
      } else if (fs.lstatSync(`/proc/self/fd/${fd}/${name}`).size > MAX_FILE_BYTES) {
        skipped.push({ path: rel, reason: "too-large", detail: TOO_LARGE });
      } else {
        files.set(rel, insideDir === "." ? name : `${insideDir}/${name}`);
      }
    }
    return subdirectories;
  });
  for (const inside of failed) {
    skipped.push({
      path: reported(inside),
      reason: "unreadable",
      detail: "directory cannot be listed",
    });
  }
}

/** [fd, entries sorted by bytes] of `directory`, opened from its deepest open ancestor. */
function openAndList(rootFd, chain, directory) {
  let fd;
  if (chain.length) {
    const [base, baseFd] = chain[chain.length - 1];
    fd = openDirInRoot(baseFd, base === "." ? directory : directory.slice(base.length + 1));
  } else {
    fd = openDirInRoot(rootFd, directory);
  }
  try {
    const entries = fs.readdirSync(`/proc/self/fd/${fd}`, {
      withFileTypes: true,
      encoding: "buffer",
    });
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    return [fd, entries];
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * walk_in_root of gpp/plugin/repo_files.py: `top` and the subdirectories `visit(fd, dir, entries)` names,
 * depth-first, entries sorted by their bytes, no recursion, at most MAX_OPEN_DIRECTORIES + 2
 * descriptors open (the nearest ancestors' are kept: a child opens from its parent). Returns the
 * directories that could not be opened or listed.
 */
function walkInRoot(rootFd, top, visit) {
  const failed = [];
  let maxOpen = MAX_OPEN_DIRECTORIES;
  const chain = []; // [dir, fd] of the next directory's open ancestors, shallowest first
  const pending = [top];
  const below = (p, d) => d === "." || p.startsWith(`${d}/`);
  try {
    while (pending.length) {
      const directory = pending.pop();
      while (chain.length && !below(directory, chain[chain.length - 1][0])) {
        fs.closeSync(chain.pop()[1]);
      }
      let listed;
      try {
        listed = openAndList(rootFd, chain, directory);
      } catch (error) {
        if (!(error?.code === "EMFILE" || error?.code === "ENFILE") || !chain.length) {
          if (typeof error?.code !== "string") throw error;
          failed.push(directory);
          continue;
        }
        // The descriptor limit is lower than assumed: keep fewer from now on.
        maxOpen = Math.floor(chain.length / 2);
        while (chain.length) fs.closeSync(chain.pop()[1]);
        try {
          listed = openAndList(rootFd, chain, directory);
        } catch (again) {
          if (typeof again?.code !== "string") throw again;
          failed.push(directory);
          continue;
        }
      }
      const [fd, entries] = listed;
      let names;
      try {
        names = visit(fd, directory, entries);
      } catch (error) {
        fs.closeSync(fd);
        if (typeof error?.code !== "string") throw error;
        failed.push(directory);
        continue;
      }
      if (!names.length) {
        fs.closeSync(fd);
        continue;
      }
      chain.push([directory, fd]);
      if (chain.length > maxOpen) fs.closeSync(chain.shift()[1]);
      const prefix = directory === "." ? "" : `${directory}/`;
      for (let i = names.length - 1; i >= 0; i--) pending.push(prefix + names[i]);
    }
  } finally {
    for (const [, fd] of chain) fs.closeSync(fd);
  }
  return failed;
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
