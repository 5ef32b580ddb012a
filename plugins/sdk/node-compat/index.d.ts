// Types of @gate-forge/plugin-protocol: the original package's names over the project's Node
// SDK (@gate-forge/gpp-sdk) and gateway client (@gate-forge/gateway-client).

import type { PluginInfo, ResultDocument } from "@gate-forge/gateway-client";

export type { ErrorCode, PluginInfo, ResultDocument } from "@gate-forge/gateway-client";
export {
  ERROR_CLASSES,
  ExitStatusError,
  FrameJSONError,
  GatewayRefused,
  InvalidRequestError,
  PluginErrorResponse,
  ProtocolError,
  ProtocolVersionError,
  SchemaError,
  UnexpectedEOFError,
  UnknownPluginError,
  UnknownTypeError,
  WatchdogTimeoutError,
} from "@gate-forge/gateway-client";
export type {
  AttrValue,
  ClassificationSignal,
  DiscoverDocument,
  DiscoverHandler,
  DiscoverRequest,
  Finding,
  JSONValue,
  Location,
  RequestHandler,
  Resource,
  ServeOptions,
  UnresolvedReason,
  UnresolvedReasonCode,
} from "@gate-forge/gpp-sdk";
export {
  canonicalize,
  digest,
  EXIT_OK,
  EXIT_PROTOCOL,
  PROTOCOL_VERSION,
  servePlugin,
} from "@gate-forge/gpp-sdk";

/** Where the gateway listens: its base URL, or the Unix socket of `gpp serve --uds PATH`. */
export type GatewayAddress =
  | string
  | { url: string; socketPath?: undefined }
  | { socketPath: string; url?: undefined };

/** The original host's budgets (defaults 10000, 10000, 5000), spent on the gateway's answers. */
export interface SessionTimeouts {
  /** start(): the plugin's registration read, and its "starting" waited out. */
  handshakeMs?: number;
  /** Each discover, from when it is sent (a queued call's wait is not counted). */
  requestMs?: number;
  /** shutdown(): calls already made may take this long to finish. */
  shutdownMs?: number;
}

export interface PluginSessionOptions {
  /** Replaces the original `command`: the plugin is the one registered in this gateway. */
  gateway: GatewayAddress;
  /** The id the plugin is registered under (the registry's `id`). */
  pluginId: string;
  /** Must equal the registered `version`; else start() throws UnknownPluginError. */
  pluginVersion: string;
  /** Bearer token, when the gateway has one configured. */
  token?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  timeouts?: SessionTimeouts;
}

/**
 * The original engine API, through the gateway: start(), discover() (repeatable, lock-step),
 * shutdown(), dispose(). Failures are the gateway client's classes, one per E_* code; an error
 * the session finds itself (its own budget, a version mismatch) has `status` 0.
 */
export declare class PluginSession {
  constructor(options: PluginSessionOptions);
  readonly pluginId: string;
  readonly pluginVersion: string;
  /** `GET /plugins/{id}` as start() last read it, or null before. */
  readonly info: PluginInfo | null;
  start(): Promise<void>;
  discover(paths: string[], options?: { requestId?: string }): Promise<ResultDocument>;
  shutdown(): Promise<void>;
  /** Never rejects. */
  dispose(): Promise<void>;
}
