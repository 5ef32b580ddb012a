import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { FileMemo, openFileInRoot, openRoot, readFileInRoot } from "../index.js";

function tempRepo(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpp-memo-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const statOf = (file) => fs.statSync(file, { bigint: true });

test("FileMemo: a hit while size, mtime and inode are unchanged; a miss after each changes", (t) => {
  const dir = tempRepo(t);
  const file = path.join(dir, "models.py");
  fs.writeFileSync(file, "a = 1\n");
  const memo = new FileMemo();
  let computed = 0;
  const read = () => memo.get("models.py", statOf(file), () => ++computed);
  assert.equal(read(), 1);
  assert.equal(read(), 1);
  assert.deepEqual(memo.stats, { hits: 1, misses: 1, evictions: 0 });

  fs.writeFileSync(file, "a = 22\n"); // size
  assert.equal(read(), 2);
  const { atime, mtime } = fs.statSync(file);
  fs.utimesSync(file, atime, new Date(mtime.getTime() + 5000)); // mtime only
  assert.equal(read(), 3);
  const copy = path.join(dir, "copy.py"); // same size and mtime, new inode
  fs.copyFileSync(file, copy);
  fs.utimesSync(copy, atime, fs.statSync(file).mtime);
  fs.renameSync(copy, file);
  assert.equal(read(), 4);
  assert.equal(read(), 4);
  assert.deepEqual(memo.stats, { hits: 2, misses: 4, evictions: 0 });
});

test("FileMemo: bounded by entries and by bytes, least recently used out first", () => {
  const stat = (size, ino) => ({ size, ino, mtimeMs: 1 });
  const memo = new FileMemo({ maxEntries: 2, maxBytes: 100 });
  memo.get("a", stat(10, 1), () => "a");
  memo.get("b", stat(10, 2), () => "b");
  memo.get("a", stat(10, 1), () => "a?"); // a is now the most recent
  memo.get("c", stat(10, 3), () => "c"); // evicts b
  assert.deepEqual([...memo.entries.keys()], ["a", "c"]);
  memo.get("d", stat(95, 4), () => "d"); // 115 bytes: a goes, 105 still over: c goes
  assert.deepEqual([...memo.entries.keys()], ["d"]);
  assert.equal(memo.bytes, 95);
  assert.equal(
    memo.get("huge", stat(500, 5), () => "kept?"),
    "kept?",
  );
  assert.equal(memo.entries.has("huge"), false);
  assert.equal(memo.stats.evictions, 3);
  assert.throws(() => new FileMemo({ maxEntries: 0 }), RangeError);
});

test("openFileInRoot never follows a symlink, in the last component or in a directory", (t) => {
  const dir = tempRepo(t);
  const outside = tempRepo(t);
  fs.writeFileSync(path.join(outside, "secret.py"), "SECRET = 1\n");
  fs.mkdirSync(path.join(dir, "app"));
  fs.writeFileSync(path.join(dir, "app", "models.py"), "x = 1\n");
  fs.symlinkSync(path.join(outside, "secret.py"), path.join(dir, "app", "link.py"));
  fs.symlinkSync(outside, path.join(dir, "linkdir"));
  fs.mkfifoSync?.(path.join(dir, "fifo"));
  const root = openRoot(dir);
  try {
    assert.equal(readFileInRoot(root, "app/models.py").toString(), "x = 1\n");
    assert.throws(() => openFileInRoot(root, "app/link.py"), { code: "ELOOP" });
    assert.throws(
      () => openFileInRoot(root, "linkdir/secret.py"),
      (e) => ["ELOOP", "ENOTDIR"].includes(e.code),
    );
    assert.throws(() => openFileInRoot(root, "app"), { code: "ENOTREG" });
  } finally {
    fs.closeSync(root);
  }
});
