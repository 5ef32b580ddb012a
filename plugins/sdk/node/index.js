// The Node plugin SDK for GPP/3: zero dependencies. The twin of gpp/plugin/sdk.py.
//
//   import { servePlugin } from "@gate-forge/gpp-sdk";
//   process.exitCode = await servePlugin(async (paths) => ({ resources: [], unresolved: [],
//     findings: [], classificationSignals: [] }), { pluginId: "my-plugin", pluginVersion: "1.0.0" });
//
// With `{ request: true }` the handler gets the whole discover request instead of its paths:
// `async (request) => ...` with `request.paths`, `request.requestId` and any field a later
// protocol adds, so a new field never changes a handler's signature. `requestBudgetMs()` is the
// host's budget for one discover (the contract's environment.requestBudget).

import { PluginConnection, PROTOCOL_VERSION, ProtocolError } from "./connection.js";
import { CONTRACT } from "./contract.js";
import { DOCUMENT, DOCUMENT_KEYS, Violation } from "./schema.js";

export { canonicalize, digest } from "./canonical.js";
export { FileMemo, fileStamp } from "./file_memo.js";
export {
  NotRegularFileError,
  openDirInRoot,
  openFileInRoot,
  openRoot,
  readFileInRoot,
} from "./repo_files.js";
export { PROTOCOL_VERSION, ProtocolError };

/** The contract's `environment.requestBudget`: the variable the host sets, and its rule. */
const REQUEST_BUDGET = CONTRACT.environment.requestBudget;

/**
 * The host's budget for one discover, in milliseconds (the registry's `request_ms`), or null
 * when the host did not say: past it the host kills the plugin, so a handler that can stop early
 * answers what it has before then. Only decimal digits naming 1 … 2^53−1 count, the rule
 * `gpp.sdk.request_budget_ms()` applies, so both SDKs read every value alike.
 * @param {Record<string, string | undefined>} [env]
 * @returns {number | null}
 */
export function requestBudgetMs(env = process.env) {
  const raw = env[REQUEST_BUDGET.variable];
  if (typeof raw !== "string" || !/^[0-9]+$/.test(raw)) return null;
  const value = Number(raw);
  return value >= REQUEST_BUDGET.minimum && value <= CONTRACT.limits.maxSafeInteger ? value : null;
}

export const EXIT_OK = 0;
export const EXIT_USAGE = 1; // run by hand in a terminal: there is no host to speak to
export const EXIT_PROTOCOL = 2;

/**
 * Serve one GPP/3 session: resolves 0 after shutdown/bye, or 2 after a host violation (a
 * session-fatal error frame is sent and the diagnostic printed on stderr). A throw in the
 * handler, or a document that breaks the schema, answers that request with an error frame.
 * The handler gets each request's paths (a new array), or with `options.request` the request
 * itself (`{ requestId, paths, ... }`, a copy): the opt-in that keeps working whatever fields a
 * request gains.
 */
export async function servePlugin(handler, options) {
  const { pluginId, pluginVersion, capabilities = ["discover"], maxLineBytes } = options;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  if (input === process.stdin && process.stdin.isTTY) {
    log(terminalHint(pluginId, pluginVersion));
    return EXIT_USAGE;
  }
  const call = options.request
    ? (request) => handler({ ...request, paths: [...request.paths] })
    : (request) => handler([...request.paths]);
  const conn = new PluginConnection(pluginId, pluginVersion, maxLineBytes ? { maxLineBytes } : {});
  const diverted = output === process.stdout ? stdoutForFrames() : null;
  const send = diverted ? diverted.write : output.write.bind(output);
  const write = (text) =>
    new Promise((resolve) => {
      if (output.destroyed || output.writableEnded) return resolve();
      send(text, () => resolve()); // a host gone away (EPIPE) is reported by reading
    });
  output.on?.("error", () => {});
  const chunks = input[Symbol.asyncIterator]();
  try {
    await write(conn.send("hello", { capabilities: [...capabilities] }));
    for (;;) {
      let event;
      try {
        event = await nextEvent(conn, chunks);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        log(error.diagnostic());
        await write(conn.sendFatal(error.code, error.failLine()));
        return EXIT_PROTOCOL;
      }
      if (event.type === "discover") {
        await write(await answer(conn, event.payload, call, log));
      } else if (event.type === "shutdown") {
        await write(conn.send("bye", {}));
        return EXIT_OK;
      } else if (event.type === "error") {
        log(
          `[plugin-protocol] host ended the session: ${event.payload.code}: ${event.payload.message}`,
        );
        return EXIT_PROTOCOL;
      }
    }
  } finally {
    diverted?.restore();
    await chunks.return?.();
  }
}

/**
 * stdout for frames alone while a session runs: console.log and any other write to
 * process.stdout go to stderr, so a stray debug line cannot corrupt the protocol (any line on
 * stdout that is not a frame is a violation). Returns the real write and a way back.
 */
function stdoutForFrames() {
  const original = process.stdout.write;
  const write = original.bind(process.stdout);
  process.stdout.write = (...args) => process.stderr.write(...args);
  return { write, restore: () => (process.stdout.write = original) };
}

function terminalHint(pluginId, pluginVersion) {
  const command = process.argv.map(shellQuote).join(" ");
  return (
    `This is ${pluginId} ${pluginVersion}, a GPP/3 discovery plugin: a gateway runs it and speaks ` +
    "the protocol on its stdin and stdout, so there is nothing to type here. To run it:\n" +
    `  gpp discover --command ${shellQuote(command)} --plugin-id ${pluginId} ` +
    `--plugin-version ${pluginVersion} PATH...\n` +
    `  gpp serve --repo . --plugin ${pluginId}@${pluginVersion} -- ${command}`
  );
}

const shellQuote = (word) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

/** The next verified event: reads input until the connection has one (or throws ProtocolError). */
async function nextEvent(conn, chunks) {
  for (;;) {
    const event = conn.nextEvent();
    if (event !== null) return event;
    const { value, done } = await chunks.next();
    conn.receiveData(done ? null : Buffer.from(value));
  }
}

async function answer(conn, request, call, log) {
  const { requestId, paths } = request;
  if (!paths.length) {
    // GPP/3: no paths asks nothing, so the answer is empty by definition
    return conn.send("result", {
      requestId,
      ...Object.fromEntries(DOCUMENT_KEYS.map((key) => [key, []])),
    });
  }
  let document;
  try {
    document = await call(request);
  } catch (error) {
    const code = error?.name || error?.constructor?.name || "Error";
    const message = String(error?.message ?? error) || code;
    return conn.send("error", { requestId, code, message });
  }
  try {
    DOCUMENT.check(document);
  } catch (error) {
    if (!(error instanceof Violation)) throw error;
    const message =
      `discover handler returned an invalid document: ${error.field || "document"} ` +
      `${error.problem} — expected ${error.expected ?? "nothing"}, got ${error.got ?? "nothing"}`;
    log(`[plugin-protocol] ${message}`);
    return conn.send("error", { requestId, code: "E_SCHEMA", message });
  }
  const { resources, unresolved, findings, classificationSignals } = document;
  return conn.send("result", { requestId, resources, unresolved, findings, classificationSignals });
}
