// Types of the GPP/3 Node plugin SDK and of the result document a discover handler returns.

import type { Readable, Writable } from "node:stream";

export declare const PROTOCOL_VERSION: 3;
export declare const EXIT_OK: 0;
export declare const EXIT_USAGE: 1;
export declare const EXIT_PROTOCOL: 2;

/** A repo-relative, "/"-separated path and a 1-based line. */
export interface Location {
  path: string;
  line: number;
}

export type AttrValue = string | number | boolean;

export interface Resource {
  kind: string;
  name: string;
  location: Location;
  attrs: Record<string, AttrValue>;
}

export type UnresolvedReasonCode =
  | "not-found"
  | "unreadable"
  | "unsupported"
  | "parse-error"
  | "too-large";

export interface UnresolvedReason {
  path: string;
  reason: UnresolvedReasonCode;
  detail: string;
}

export interface Finding {
  /** UPPER_SNAKE, e.g. DUPLICATE_TABLE_NAME */
  code: string;
  detail: string;
  locations: Location[];
}

export interface ClassificationSignal {
  /** "<kind>:<name>" */
  resource: string;
  signal: string;
  value: AttrValue;
  source: Location;
}

/** What a discover handler returns; the SDK adds the requestId. */
export interface DiscoverDocument {
  resources: Resource[];
  unresolved: UnresolvedReason[];
  findings: Finding[];
  classificationSignals: ClassificationSignal[];
}

/** The result frame's payload, as the gateway answers it. */
export interface ResultDocument extends DiscoverDocument {
  requestId: string;
}

/** `servePlugin(handler, { request: false })` (the default): the handler gets the paths. */
export type DiscoverHandler = (paths: string[]) => DiscoverDocument | Promise<DiscoverDocument>;

/** The discover request a `{ request: true }` handler gets: the frame's payload, copied. */
export interface DiscoverRequest {
  requestId: string;
  paths: string[];
  /** Fields a later protocol adds arrive here too; a handler reads the ones it knows. */
  readonly [field: string]: unknown;
}

/** `servePlugin(handler, { request: true })`: the handler gets the whole request. */
export type RequestHandler = (
  request: DiscoverRequest,
) => DiscoverDocument | Promise<DiscoverDocument>;

export interface ServeOptions {
  pluginId: string;
  pluginVersion: string;
  /** Must contain "discover"; "classification-signals" is optional. */
  capabilities?: string[];
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
  /** true: the handler gets the whole discover request (`RequestHandler`), not its paths. */
  request?: boolean;
  /** Where diagnostics go (default: stderr). */
  log?: (line: string) => void;
}

export declare function servePlugin(
  handler: DiscoverHandler,
  options: ServeOptions & { request?: false },
): Promise<0 | 2>;
export declare function servePlugin(
  handler: RequestHandler,
  options: ServeOptions & { request: true },
): Promise<0 | 2>;

export type JSONValue =
  | null
  | boolean
  | number
  | string
  | JSONValue[]
  | { [key: string]: JSONValue };

/**
 * GF-canonical JSON (RFC 8785 restricted to I-JSON). Every finite number renders as RFC 8785
 * says (`1e21` → `1e+21`, `2 ** 53 + 2` → `9007199254740994`); throws for NaN, ±Infinity,
 * lone surrogates and values that are not JSON.
 */
export declare function canonicalize(value: JSONValue): string;

/** Lowercase hex sha256 of the canonical UTF-8 bytes. */
export declare function digest(value: JSONValue): string;

export declare class ProtocolError extends Error {
  code: string;
  problem: string;
  frame: number | null;
  messageType: string | null;
  field: string | null;
  expected: string | null;
  got: string | null;
  offendingFrame: string | null;
  failLine(): string;
  diagnostic(): string;
}

/** What identifies one version of a file; any of `size`, `mtimeNs` (or `mtimeMs`), `ino` changing misses. */
export interface FileStatLike {
  size: number | bigint;
  ino: number | bigint;
  mtimeNs?: bigint;
  mtimeMs: number | bigint;
}

export declare function fileStamp(stat: FileStatLike): string;

/** Per-file memo keyed by path and (size, mtime, inode); bounded by entries and bytes (LRU). */
export declare class FileMemo<V> {
  constructor(options?: { maxEntries?: number; maxBytes?: number });
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly stats: { hits: number; misses: number; evictions: number };
  readonly bytes: number;
  readonly size: number;
  get(path: string, stat: FileStatLike, compute: () => V, options?: { cost?: number }): V;
  discard(path: string): void;
}

export declare class NotRegularFileError extends Error {
  code: "ENOTREG";
}

/** Descriptors opened through an openat-style chain that never follows a symlink. */
export declare function openRoot(root?: string): number;
export declare function openDirInRoot(rootFd: number, rel: string): number;
export declare function openFileInRoot(
  rootFd: number,
  rel: string,
): [number, import("node:fs").BigIntStats];
export declare function readFileInRoot(rootFd: number, rel: string): Buffer;
