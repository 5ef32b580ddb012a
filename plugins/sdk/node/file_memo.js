// FileMemo: the Node twin of gpp/plugin/file_memo.py. What a plugin learnt from a file, kept until the
// file changes: a value is stored under the file's repo-relative path with its (size, mtimeNs,
// ino) as fstat reports them, and handed back only while all three still match. Bounded by
// entries and by bytes (an entry's bytes are the cost the caller names, by default the file's
// size), least recently used first out; a value costlier than the whole budget is not kept.
// Pass a stat of the descriptor you opened (fs.fstatSync(fd, { bigint: true }) for exact
// nanoseconds), so the key describes the file that would be read.

export const DEFAULT_MAX_ENTRIES = 65536;
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** The (size, mtime_ns, inode) stamp of a stat, as one comparable string. */
export function fileStamp(stat) {
  const mtimeNs = stat.mtimeNs ?? BigInt(Math.round(Number(stat.mtimeMs) * 1e6));
  return `${stat.size}:${mtimeNs}:${stat.ino}`;
}

export class FileMemo {
  constructor({ maxEntries = DEFAULT_MAX_ENTRIES, maxBytes = DEFAULT_MAX_BYTES } = {}) {
    if (!(maxEntries >= 1 && maxBytes >= 1))
      throw new RangeError("FileMemo bounds must be positive");
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.stats = { hits: 0, misses: 0, evictions: 0 };
    this.bytes = 0;
    this.entries = new Map(); // insertion order = least recently used first
  }

  get size() {
    return this.entries.size;
  }

  /**
   * The value remembered for `path` at this stat, or `compute()`'s, then remembered. A throw
   * from `compute` propagates and nothing is stored: return a failure as a value to keep it.
   */
  get(path, stat, compute, { cost } = {}) {
    const stamp = fileStamp(stat);
    const entry = this.entries.get(path);
    if (entry !== undefined && entry.stamp === stamp) {
      this.entries.delete(path);
      this.entries.set(path, entry);
      this.stats.hits += 1;
      return entry.value;
    }
    this.stats.misses += 1;
    const value = compute();
    this.#store(path, { stamp, value, cost: cost ?? Number(stat.size) });
    return value;
  }

  discard(path) {
    const entry = this.entries.get(path);
    if (entry === undefined) return;
    this.entries.delete(path);
    this.bytes -= entry.cost;
  }

  #store(path, entry) {
    this.discard(path);
    if (entry.cost > this.maxBytes) return;
    this.entries.set(path, entry);
    this.bytes += entry.cost;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldest, evicted] = this.entries.entries().next().value;
      this.entries.delete(oldest);
      this.bytes -= evicted.cost;
      this.stats.evictions += 1;
    }
  }
}
