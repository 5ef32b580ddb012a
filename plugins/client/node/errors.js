// What the gateway's refusals become: one class per E_* code (all ProtocolError), GatewayRefused
// for refusals that name no code, JsonRpcError for a JSON-RPC error response. An engine catches
// the cause it cares about with `instanceof`, exactly as the Python client raises gpp.codes classes.

const PREFIX = "[plugin-protocol]";

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

export class ProtocolVersionError extends ProtocolError {}
export class UnknownPluginError extends ProtocolError {}
export class FrameJSONError extends ProtocolError {}
export class UnknownTypeError extends ProtocolError {}
export class SchemaError extends ProtocolError {}
/** E_SCHEMA with 422: the caller's request was bad; the plugin was not touched. */
export class InvalidRequestError extends SchemaError {}
export class UnexpectedEOFError extends ProtocolError {}
export class WatchdogTimeoutError extends ProtocolError {}
export class PluginErrorResponse extends ProtocolError {}
export class ExitStatusError extends ProtocolError {}

/** @type {Readonly<Record<string, typeof ProtocolError>>} */
export const ERROR_CLASSES = Object.freeze({
  E_PROTOCOL_VERSION: ProtocolVersionError,
  E_UNKNOWN_PLUGIN: UnknownPluginError,
  E_FRAME_JSON: FrameJSONError,
  E_UNKNOWN_TYPE: UnknownTypeError,
  E_SCHEMA: SchemaError,
  E_EOF: UnexpectedEOFError,
  E_TIMEOUT: WatchdogTimeoutError,
  E_PLUGIN_ERROR: PluginErrorResponse,
  E_EXIT_STATUS: ExitStatusError,
});

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
