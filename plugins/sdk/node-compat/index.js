// @gate-forge/plugin-protocol: the original GPP/3 package's public names, answered by this
// project's own code, so plugins and engines written for it move over unchanged.
//
//   Plugins:  import { servePlugin, PROTOCOL_VERSION } from "@gate-forge/plugin-protocol";
//             the project's Node SDK itself (@gate-forge/gpp-sdk), not a copy.
//   Engines:  import { PluginSession } from "@gate-forge/plugin-protocol";
//             the original constructor with `command` replaced by `gateway`: the plugin runs
//             behind the gateway (and its sandbox), driven over its HTTP API.
//   Errors:   one class per E_* code, the gateway client's own (@gate-forge/gateway-client),
//             so `instanceof` holds whichever package an engine imported them from.
//
// Both packages are bundled into this one's tarball (bundleDependencies): installing it asks
// the registry for nothing and brings in no third-party code.

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
export {
  canonicalize,
  digest,
  EXIT_OK,
  EXIT_PROTOCOL,
  PROTOCOL_VERSION,
  servePlugin,
} from "@gate-forge/gpp-sdk";
export { PluginSession } from "./session.js";
