// Types of the gate-forge gateway's Node engine client.

export interface Location {
  path: string;
  line: number;
}

export type AttrValue = string | number | boolean;

/** The result document `POST /plugins/{id}/discover` answers (the result frame's payload). */
export interface ResultDocument {
  requestId: string;
  resources: { kind: string; name: string; location: Location; attrs: Record<string, AttrValue> }[];
  unresolved: {
    path: string;
    reason: "not-found" | "unreadable" | "unsupported" | "parse-error" | "too-large";
    detail: string;
  }[];
  findings: { code: string; detail: string; locations: Location[] }[];
  classificationSignals: { resource: string; signal: string; value: AttrValue; source: Location }[];
}

export interface PluginInfo {
  id: string;
  version: string;
  protocol: "gpp/3" | "jsonrpc-2.0";
  state: "idle" | "starting" | "ready" | "busy" | "backoff" | "failed";
  capabilities: string[];
  pid: number | null;
  pids: number[];
  instances: number;
  queueDepth: number;
  sandbox: Record<string, string>;
  restarts: number;
  served: number;
  failed: number;
  retryAfter: number | null;
  lastDiagnostic: string | null;
  lastCode: string | null;
  recentStderr: string[];
}

export type ErrorCode =
  | "E_PROTOCOL_VERSION"
  | "E_UNKNOWN_PLUGIN"
  | "E_FRAME_JSON"
  | "E_UNKNOWN_TYPE"
  | "E_SCHEMA"
  | "E_EOF"
  | "E_TIMEOUT"
  | "E_PLUGIN_ERROR"
  | "E_EXIT_STATUS";

/** A single-cause GPP/3 failure, rebuilt from the gateway's problem+json document. */
export declare class ProtocolError extends Error {
  constructor(problem: Record<string, unknown>, status: number);
  readonly code: ErrorCode;
  /** The HTTP status the gateway answered with (404, 422, 502, 504). */
  readonly status: number;
  readonly plugin: string | null;
  readonly frame: number | null;
  readonly messageType: string | null;
  readonly field: string | null;
  readonly expected: string | null;
  readonly got: string | null;
  readonly offendingFrame: string | null;
  readonly requestId: string | null;
  readonly exitCode: number | null;
  readonly stderrTail: string | null;
  /** The whole problem document. */
  readonly problem: Record<string, unknown>;
  /** The FAIL line and the offending-frame line, joined by "\n". */
  diagnostic(): string;
}
export declare class ProtocolVersionError extends ProtocolError {}
export declare class UnknownPluginError extends ProtocolError {}
export declare class FrameJSONError extends ProtocolError {}
export declare class UnknownTypeError extends ProtocolError {}
export declare class SchemaError extends ProtocolError {}
export declare class InvalidRequestError extends SchemaError {}
export declare class UnexpectedEOFError extends ProtocolError {}
export declare class WatchdogTimeoutError extends ProtocolError {}
export declare class PluginErrorResponse extends ProtocolError {}
export declare class ExitStatusError extends ProtocolError {}

export declare const ERROR_CLASSES: Readonly<Record<ErrorCode, typeof ProtocolError>>;

/** A refusal that names no E_* code: 401, 403, 413, 415, 503 (back-off, queue full). */
export declare class GatewayRefused extends Error {
  constructor(status: number, problem: Record<string, unknown>, retryAfter: number | null);
  readonly status: number;
  readonly problem: Record<string, unknown>;
  /** Seconds to wait before trying again, or null. */
  readonly retryAfter: number | null;
  /** For a 503 back-off: the code of the failure that started it. */
  readonly lastCode: string | null;
}

export declare class JsonRpcError extends Error {
  constructor(error: { code: number; message: string; data?: unknown });
  readonly code: number;
  readonly data: unknown;
}

export declare function errorFromProblem(
  status: number,
  problem: unknown,
  retryHeader: string | undefined,
): ProtocolError | GatewayRefused;

export interface ServerSentEvent {
  event: string;
  data: string;
}

/** Sans-IO SSE parser: text chunks in, complete events out. */
export declare class SseParser {
  feed(chunk: string): ServerSentEvent[];
}

export interface ProgressParams {
  id: string | number | null;
  done: number;
  total: number;
}

export type StreamItem =
  | { kind: "progress"; params: ProgressParams }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "result"; result: unknown };

export interface GatewayClientOptions {
  /** Bearer token; without it: GPP_TOKEN, else `tokenFile`, else the file `gpp serve`
   * generates (for a gateway on this host only). */
  token?: string;
  /** A file holding the token (used when neither `token` nor GPP_TOKEN gives one). */
  tokenFile?: string;
  /** Talk HTTP over this Unix socket (`gpp serve --uds PATH`) instead of TCP; refused unless
   * the socket and its folder are this user's or root's and closed to others. */
  socketPath?: string;
  /** Idle budget per request: no byte for this long rejects with a TimeoutError. */
  timeoutMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

export declare class GatewayClient {
  constructor(baseUrl: string, options?: GatewayClientOptions);
  discover(
    pluginId: string,
    paths: string[],
    options?: { requestId?: string; signal?: AbortSignal },
  ): Promise<ResultDocument>;
  rpc(
    pluginId: string,
    method: string,
    params?: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
  notify(pluginId: string, method: string, params?: unknown): Promise<void>;
  stream(
    pluginId: string,
    method: string,
    params?: unknown,
    options?: { signal?: AbortSignal },
  ): AsyncGenerator<StreamItem, void, undefined>;
  plugins(options?: { signal?: AbortSignal }): Promise<PluginInfo[]>;
  plugin(pluginId: string, options?: { signal?: AbortSignal }): Promise<PluginInfo>;
}

/** The token a client sends: GPP_TOKEN, else `tokenFile`, else (with `defaultFile`) the default file. */
export declare function findToken(options?: {
  tokenFile?: string;
  defaultFile?: boolean;
}): string | undefined;
/** Where `gpp serve` keeps the token it generates. */
export declare function defaultTokenFile(): string;
/** Throws unless the socket and its folder are this user's or root's and closed to others. */
export declare function checkSocket(socketPath: string): void;
