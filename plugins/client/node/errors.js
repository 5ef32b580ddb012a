// What the gateway's refusals become: one class per E_* code (all ProtocolError), GatewayRefused
// for refusals that name no code, JsonRpcError for a JSON-RPC error response. An engine catches
// the cause it cares about with `instanceof`, exactly as the Python client raises gpp.codes classes.

import { readFileSync } from "node:fs";

const PREFIX = "[plugin-protocol]";

/** The `errors` table of GPP/3 (this package's copy of gpp/core/contract/gpp3.json), read once. */
const CONTRACT_ERRORS = JSON.parse(
  readFileSync(new URL("./gpp3.json", import.meta.url), "utf8"),
).errors;

/** A single-cause GPP/3 failure, rebuilt from the gateway's problem+json document. */
export class ProtocolError extends Error {
  /** @param {Record<string, any>} problem @param {number} status */
  constructor(problem, status) {
    super(String(problem.detail ?? problem.problem ?? problem.title ?? "failed"));
    this.name = new.target.name;
    this.code = String(problem.code);
    this.status = status;
    this.plugin = problem.plugin ?? null;
    this.frame = problem.frame ?? null;
    this.messageType = problem.messageType ?? null;
    this.field = problem.field ?? null;
    this.expected = problem.expected ?? null;
    this.got = problem.got ?? null;
    this.offendingFrame = problem.offendingFrame ?? null;
    this.requestId = problem.requestId ?? null;
    this.exitCode = problem.exitCode ?? null;
    this.stderrTail = problem.stderrTail ?? null;
    this.problem = problem;
  }

  /** The two lines every violation renders, joined by "\n" (the gateway's `detail` is the first). */
  diagnostic() {
    return `${this.message}\n${PREFIX} offending frame: ${this.offendingFrame || "(none)"}`;
  }
}

/**
 * One class per row of the contract's `errors`, named as the row says, in table order (a
 * parent comes before its children), each carrying the row's `code`, `httpStatus` and `title`.
 * @type {Record<string, typeof ProtocolError>}
 */
const CLASSES = { ProtocolError };
for (const row of CONTRACT_ERRORS) {
  if (row.extends === null) continue; // ProtocolError itself, written above
  const Parent = CLASSES[row.extends];
  // a computed key names the class, so `error.name` and stack traces say e.g. "SchemaError"
  CLASSES[row.class] = { [row.class]: class extends Parent {} }[row.class];
}
for (const row of CONTRACT_ERRORS) {
  Object.assign(CLASSES[row.class], {
    code: row.code,
    httpStatus: row.httpStatus,
    title: row.title,
  });
}

// The exported names are fixed (index.d.ts declares them); their classes come from the table.
// A row added to gpp3.json needs its line here and in index.d.ts (docs/protocol-changes.md).
export const ProtocolVersionError = CLASSES.ProtocolVersionError;
export const UnknownPluginError = CLASSES.UnknownPluginError;
export const FrameJSONError = CLASSES.FrameJSONError;
export const UnknownTypeError = CLASSES.UnknownTypeError;
export const SchemaError = CLASSES.SchemaError;
/** E_SCHEMA with 422: the caller's request was bad; the plugin was not touched. */
export const InvalidRequestError = CLASSES.InvalidRequestError;
export const UnexpectedEOFError = CLASSES.UnexpectedEOFError;
export const WatchdogTimeoutError = CLASSES.WatchdogTimeoutError;
export const PluginErrorResponse = CLASSES.PluginErrorResponse;
export const ExitStatusError = CLASSES.ExitStatusError;

/**
 * Code -> class: the row of each code that extends ProtocolError directly (E_SCHEMA's 422
 * variant, InvalidRequestError, is chosen by status in `errorFromProblem`).
 * @type {Readonly<Record<string, typeof ProtocolError>>}
 */
export const ERROR_CLASSES = Object.freeze(
  Object.fromEntries(
    CONTRACT_ERRORS.filter((row) => row.extends === "ProtocolError").map((row) => [
      row.code,
      CLASSES[row.class],
    ]),
  ),
);

/** The gateway refused before (or instead of) asking a plugin: 401, 403, 413, 415, 503, … */
export class GatewayRefused extends Error {
  /** @param {number} status @param {Record<string, any>} problem @param {number | null} retryAfter */
  constructor(status, problem, retryAfter) {
    super(`${status} ${problem.title ?? ""}: ${problem.detail ?? ""}`);
    this.name = "GatewayRefused";
    this.status = status;
    this.problem = problem;
    /** Seconds to wait before trying again (503), or null. */
    this.retryAfter = retryAfter;
    /** For a 503 back-off: the E_* code of the failure that started it. */
    this.lastCode = problem.lastCode ?? null;
  }
}

/** A JSON-RPC 2.0 error response from the plugin (or the gateway on its behalf). */
export class JsonRpcError extends Error {
  /** @param {{code: number, message: string, data?: unknown}} error */
  constructor(error) {
    super(String(error.message));
    this.name = "JsonRpcError";
    this.code = error.code;
    this.data = error.data;
  }
}

/**
 * The error a non-2xx answer means. The problem document's body wins over the header for
 * `retryAfter` because it keeps the fraction the header rounds away.
 * @param {number} status @param {unknown} problem @param {string | undefined} retryHeader
 * @returns {ProtocolError | GatewayRefused}
 */
export function errorFromProblem(status, problem, retryHeader) {
  const doc =
    problem !== null && typeof problem === "object" && !Array.isArray(problem)
      ? /** @type {Record<string, any>} */ (problem)
      : {};
  const cls = Object.hasOwn(ERROR_CLASSES, doc.code) ? ERROR_CLASSES[doc.code] : undefined;
  if (cls !== undefined) {
    return new (cls === SchemaError && status === 422 ? InvalidRequestError : cls)(doc, status);
  }
  let retryAfter = typeof doc.retryAfter === "number" ? doc.retryAfter : null;
  if (retryAfter === null && retryHeader !== undefined && /^\d+$/.test(retryHeader)) {
    retryAfter = Number(retryHeader);
  }
  return new GatewayRefused(status, doc, retryAfter);
}
