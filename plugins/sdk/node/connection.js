// The plugin side of GPP/3 as a sans-IO machine, the twin of gpp/core/connection.py (plugin role):
// bytes in, verified events out (or one ProtocolError); events in, frame bytes out.

import { createHash } from "node:crypto";
import { canonicalize, JSONRejected, parseStrict, UnsafeInteger } from "./canonical.js";
import { CONTRACT } from "./contract.js";
import { describe, PAYLOADS, Violation } from "./schema.js";

export const PROTOCOL_VERSION = CONTRACT.protocolVersion;
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
// key -> how a diagnostic names it when missing, in the order the checks run (gpp3.json)
const ENVELOPE = Object.fromEntries(CONTRACT.envelope.map((f) => [f.key, f.expected]));
const DIGEST_FORM = new RegExp(
  `^(?:${CONTRACT.envelope.find((f) => f.key === "digest").pattern})$`,
);

// type -> [sender, {phase: next phase}]; "error" without requestId is fatal from either side.
const CATALOG = Object.fromEntries(
  CONTRACT.catalog.map((row) => [row.type, [row.sender, row.transitions]]),
);
const SESSION_FATAL = [
  CONTRACT.sessionFatal.sender,
  Object.fromEntries(
    CONTRACT.phases
      .filter((p) => p !== CONTRACT.sessionFatal.leadsTo)
      .map((p) => [p, CONTRACT.sessionFatal.leadsTo]),
  ),
];

function rule(type, payload) {
  if (
    type === CONTRACT.sessionFatal.type &&
    payload &&
    typeof payload === "object" &&
    !Object.hasOwn(payload, "requestId")
  ) {
    return SESSION_FATAL;
  }
  return CATALOG[type];
}

/** A single-cause GPP/3 failure, rendered the way the Python host renders it. */
export class ProtocolError extends Error {
  constructor(
    code,
    problem,
    {
      frame = null,
      messageType = null,
      field = null,
      expected = null,
      got = null,
      offendingFrame = null,
    } = {},
  ) {
    super(problem);
    Object.assign(this, {
      code,
      problem,
      frame,
      messageType,
      field,
      expected,
      got,
      offendingFrame,
    });
  }

  failLine() {
    let text = `[plugin-protocol] FAIL ${this.code}: `;
    if (this.frame !== null) text += `frame ${this.frame}: `;
    const subject = [this.messageType, this.field].filter(Boolean).join(".");
    text += subject ? `${subject} ${this.problem}` : this.problem;
    if (this.expected !== null || this.got !== null) {
      text += ` — expected ${this.expected ?? "nothing"}, got ${this.got ?? "nothing"}`;
    }
    return text;
  }

  diagnostic() {
    let shown = this.offendingFrame ?? "(none)";
    if (shown.length > 512) shown = `${shown.slice(0, 511)}…`;
    return `${this.failLine()}\n[plugin-protocol] offending frame: ${shown}`;
  }
}

export function frameDigest(type, seq, payloadJson) {
  return createHash("sha256")
    .update(`{"payload":${payloadJson},"seq":${seq},"type":${canonicalize(type)}}`, "utf8")
    .digest("hex");
}

export function buildFrame(pluginId, pluginVersion, type, seq, payload) {
  const payloadJson = canonicalize(payload);
  const digest = frameDigest(type, seq, payloadJson);
  return (
    `{"digest":"${digest}","payload":${payloadJson},"pluginId":${canonicalize(pluginId)},` +
    `"pluginVersion":${canonicalize(pluginVersion)},"protocolVersion":${PROTOCOL_VERSION},` +
    `"seq":${seq},"type":${canonicalize(type)}}\n`
  );
}

/** The plugin's view of one session. Any ProtocolError closes it for good. */
export class PluginConnection {
  constructor(pluginId, pluginVersion, { maxLineBytes = DEFAULT_MAX_LINE_BYTES } = {}) {
    Object.assign(this, { pluginId, pluginVersion, maxLineBytes });
    this.phase = "awaiting hello";
    this.framesReceived = 0;
    this.framesSent = 0;
    this.outstanding = null;
    this.chunks = [];
    this.buffered = 0;
    this.eof = false;
  }

  receiveData(chunk) {
    if (chunk === null) this.eof = true;
    else if (chunk.length) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
  }

  /** The next verified host event ({type, payload}), or null until more data is fed. */
  nextEvent() {
    const frame = this.framesReceived + 1;
    const buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = buffer.length ? [buffer] : [];
    const end = buffer.indexOf(0x0a);
    if (end < 0 || end > this.maxLineBytes) {
      if (end > this.maxLineBytes || buffer.length > this.maxLineBytes) {
        throw this.closedWith(
          new ProtocolError("E_FRAME_JSON", "line exceeds max_line_bytes", {
            frame,
            expected: `at most ${this.maxLineBytes} bytes`,
            got: `more than ${this.maxLineBytes} bytes`,
          }),
        );
      }
      if (this.eof && this.awaitingPeer()) {
        throw this.closedWith(
          new ProtocolError(
            "E_EOF",
            buffer.length
              ? "output ended mid-frame"
              : `output ended before the expected frame (${this.phase})`,
            {
              frame,
              expected: "a complete frame",
              got: "EOF",
              offendingFrame: buffer.length ? buffer.toString() : null,
            },
          ),
        );
      }
      return null;
    }
    const line = buffer.subarray(0, end);
    this.chunks = [buffer.subarray(end + 1)];
    this.framesReceived = frame;
    try {
      return this.verify(line, frame);
    } catch (error) {
      throw this.closedWith(error);
    }
  }

  verify(line, frame) {
    const offendingFrame = line.toString();
    const rejection = (code, problem, fields = {}) =>
      new ProtocolError(code, problem, { frame, offendingFrame, ...fields });
    if (!line.length)
      throw rejection("E_FRAME_JSON", "empty line", { expected: "a JSON object", got: "nothing" });
    let value;
    try {
      value = parseStrict(line);
    } catch (e) {
      if (e instanceof JSONRejected) throw rejection("E_FRAME_JSON", `invalid JSON: ${e.reason}`);
      throw e;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw rejection("E_FRAME_JSON", "not a JSON object", {
        expected: "object",
        got: describe(value).split(" ")[0],
      });
    }
    const messageType = typeof value.type === "string" ? value.type : null;
    if (Object.hasOwn(value, "protocolVersion") && value.protocolVersion !== PROTOCOL_VERSION) {
      // `3.0` and `"3"` are not 3: only the integer names a version, so say what came instead
      const version = value.protocolVersion;
      const speaks = Number.isInteger(version)
        ? `speaks GPP/${version}`
        : version instanceof UnsafeInteger
          ? `speaks GPP/${version.text}`
          : `is ${describe(version)}, not an integer,`;
      throw rejection(
        "E_PROTOCOL_VERSION",
        `${speaks} but this plugin speaks GPP/${PROTOCOL_VERSION}`,
        {
          messageType,
          field: "protocolVersion",
          expected: "3",
          got: describe(value.protocolVersion),
        },
      );
    }
    for (const key of Object.keys(ENVELOPE)) {
      if (!Object.hasOwn(value, key))
        throw rejection("E_SCHEMA", "missing", {
          messageType,
          field: key,
          expected: ENVELOPE[key],
        });
    }
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(ENVELOPE, key)) {
        throw rejection("E_SCHEMA", "is not allowed", {
          messageType,
          field: key,
          expected: "no such field",
          got: describe(value[key]),
        });
      }
    }
    for (const [key, pinned] of [
      ["pluginId", this.pluginId],
      ["pluginVersion", this.pluginVersion],
    ]) {
      if (value[key] !== pinned) {
        throw rejection("E_UNKNOWN_PLUGIN", "does not match the pinned plugin", {
          messageType,
          field: key,
          expected: `'${pinned}'`,
          got: describe(value[key]),
        });
      }
    }
    if (!Object.hasOwn(CATALOG, messageType ?? "")) {
      throw rejection("E_UNKNOWN_TYPE", "is not a GPP/3 message type", {
        field: "type",
        expected: `one of ${Object.keys(CATALOG).join(" ")}`,
        got: describe(value.type),
      });
    }
    if (value.seq !== frame) {
      // an UnsafeInteger is an integer too (as Python's int is): one far past this frame
      const huge = value.seq instanceof UnsafeInteger;
      const problem = !(Number.isInteger(value.seq) || huge)
        ? "has the wrong type"
        : (huge ? value.seq.text.startsWith("-") : value.seq < frame)
          ? "repeats an earlier frame"
          : "skips ahead";
      throw rejection("E_SCHEMA", problem, {
        messageType,
        field: "seq",
        expected: String(frame),
        got: describe(value.seq),
      });
    }
    if (typeof value.digest !== "string" || !DIGEST_FORM.test(value.digest)) {
      throw rejection("E_SCHEMA", "is malformed", {
        messageType,
        field: "digest",
        expected: "64 lowercase hex digits",
        got: describe(value.digest),
      });
    }
    const [sender, transitions] = rule(messageType, value.payload);
    if (sender === "plugin") {
      throw rejection("E_SCHEMA", "is sent by the plugin, not the host", {
        messageType,
        field: "type",
        expected: this.allowedFromHost(),
        got: messageType,
      });
    }
    if (!Object.hasOwn(transitions, this.phase)) {
      throw rejection("E_SCHEMA", `arrived in the wrong phase (${this.phase})`, {
        messageType,
        field: "type",
        expected: this.allowedFromHost(),
        got: messageType,
      });
    }
    try {
      PAYLOADS[messageType].check(value.payload);
    } catch (e) {
      if (!(e instanceof Violation)) throw e;
      throw rejection("E_SCHEMA", e.problem, {
        messageType,
        field: e.field ? `payload.${e.field}` : "payload",
        expected: e.expected,
        got: e.got,
      });
    }
    const actual = frameDigest(messageType, frame, canonicalize(value.payload));
    if (actual !== value.digest) {
      throw rejection("E_SCHEMA", "does not match the frame", {
        messageType,
        field: "digest",
        expected: actual,
        got: value.digest,
      });
    }
    this.phase = transitions[this.phase];
    this.outstanding = messageType === "discover" ? value.payload.requestId : null;
    return { type: messageType, payload: value.payload };
  }

  awaitingPeer() {
    return this.allowedFromHost() !== "";
  }

  allowedFromHost() {
    return Object.entries(CATALOG)
      .filter(
        ([, [sender, transitions]]) => sender === "host" && Object.hasOwn(transitions, this.phase),
      )
      .map(([name]) => name)
      .join(" or ");
  }

  /** Frame text for a plugin message; throws Violation for a payload that breaks its schema. */
  send(type, payload) {
    const [, transitions] = rule(type, payload);
    if (!Object.hasOwn(transitions, this.phase))
      throw new Error(`cannot send ${type} while ${this.phase}`);
    PAYLOADS[type].check(payload);
    this.framesSent += 1;
    const frame = buildFrame(this.pluginId, this.pluginVersion, type, this.framesSent, payload);
    this.phase = transitions[this.phase];
    if (type !== "discover") this.outstanding = null;
    return frame;
  }

  /** A session-fatal error frame, sendable in any phase, even after a receive fault. */
  sendFatal(code, message) {
    this.framesSent += 1;
    this.phase = "closed";
    return buildFrame(this.pluginId, this.pluginVersion, "error", this.framesSent, {
      code,
      message,
    });
  }

  /** Closes the connection and returns `error`, for the caller to throw. */
  closedWith(error) {
    this.phase = "closed";
    return error;
  }
}
