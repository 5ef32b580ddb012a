// Open a repository's files without ever following a symlink: the Node twin of gpp/plugin/repo_files.py.
// Node has no openat, so each directory of a repo-relative path is opened through the previous
// one's descriptor as /proc/self/fd/<fd>/<name> (the kernel resolves that magic link to the open
// directory itself, which is openat's semantics) with O_NOFOLLOW | O_DIRECTORY, the last
// component with O_NOFOLLOW, and the result is confirmed with fstat. A symlink anywhere in the
// chain fails the open (ELOOP/ENOTDIR): a link swapped in after a check is never read.

import fs from "node:fs";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

export class NotRegularFileError extends Error {
  constructor(rel) {
    super(`${rel}: not a regular file`);
    this.name = "NotRegularFileError";
    this.code = "ENOTREG";
  }
}

/** A directory descriptor for the repository root, the anchor of every later open. */
export function openRoot(root = ".") {
  return fs.openSync(root, O_RDONLY | O_DIRECTORY);
}

const at = (dirFd, name, flags) => fs.openSync(`/proc/self/fd/${dirFd}/${name}`, flags);

/** A descriptor of the directory `rel` ("." = the root itself), no symlink followed. */
export function openDirInRoot(rootFd, rel) {
  let fd = at(rootFd, ".", O_RDONLY | O_DIRECTORY);
  if (rel === ".") return fd;
  for (const part of rel.split("/")) {
    const parent = fd;
    try {
      fd = at(parent, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } finally {
      fs.closeSync(parent);
    }
  }
  return fd;
}

/** [fd, stat] of the regular file at `rel` (stat with bigint fields); throws otherwise. */
export function openFileInRoot(rootFd, rel) {
  const cut = rel.lastIndexOf("/");
  const parent = openDirInRoot(rootFd, cut < 0 ? "." : rel.slice(0, cut));
  let fd;
  try {
    // O_NONBLOCK: a FIFO planted in the repo must not block the open; fstat refuses it next.
    fd = at(parent, rel.slice(cut + 1), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } finally {
    fs.closeSync(parent);
  }
  try {
    const stat = fs.fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new NotRegularFileError(rel);
    return [fd, stat];
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** The bytes of the regular file at `rel`, opened as openFileInRoot does. */
export function readFileInRoot(rootFd, rel) {
  const [fd] = openFileInRoot(rootFd, rel);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
