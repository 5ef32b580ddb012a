import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { test } from "node:test";

import reference from "canonicalize";
import { canonicalize, digest, parseStrict, UnsafeInteger } from "../canonical.js";
import { buildFrame, frameDigest } from "../connection.js";
import { CONTRACT } from "../contract.js";
import { PROTOCOL_VERSION, requestBudgetMs, servePlugin } from "../index.js";
import { describe, fromContract, PAYLOADS, Violation } from "../schema.js";

const ID = "node-test";
const VERSION = "0.1.0";
const EMPTY = { resources: [], unresolved: [], findings: [], classificationSignals: [] };
const VECTORS = JSON.parse(
  readFileSync(new URL("../../../../tests/vectors/canonical.json", import.meta.url)),
);
const NUMBERS = JSON.parse(
  readFileSync(new URL("../../../../tests/vectors/numbers.json", import.meta.url)),
);

/** Run servePlugin over in-memory streams fed with `hostLines`; return its exit code, frames, logs. */
async function run(hostLines, handler = () => EMPTY, options = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs = [];
  const written = [];
  output.on("data", (chunk) => written.push(chunk));
  input.end(hostLines.join(""));
  const code = await servePlugin(handler, {
    pluginId: ID,
    pluginVersion: VERSION,
    input,
    output,
    log: (l) => logs.push(l),
    ...options,
  });
  const frames = Buffer.concat(written)
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { code, frames, logs };
}

const host = (type, seq, payload, id = ID) => buildFrame(id, VERSION, type, seq, payload);
const session = (...middle) => [host("ready", 1, {}), ...middle];

test("canonical vectors match the shared file and the npm canonicalize reference", () => {
  for (const vector of VECTORS) {
    const value = parseStrict(Buffer.from(vector.input)); // keeps 1e30 a float, as Python reads it
    assert.equal(canonicalize(value), vector.canonical, vector.name);
    assert.equal(reference(JSON.parse(vector.input)), vector.canonical, vector.name);
    assert.equal(digest(value), vector.digest, vector.name);
  }
});

test("canonicalize rejects what I-JSON forbids", () => {
  for (const bad of [NaN, Infinity, -Infinity, "\ud800", { k: "\udfff" }, undefined, () => 1]) {
    assert.throws(() => canonicalize(bad));
  }
});

test("every finite number renders as RFC 8785 says: the published vectors and big doubles", () => {
  for (const { bits, canonical } of [...NUMBERS.rfc8785, ...NUMBERS.doubles]) {
    const value = Buffer.from(bits, "hex").readDoubleBE(0);
    if (canonical === null) {
      assert.throws(() => canonicalize(value), /is not an I-JSON number/, bits);
      assert.throws(() => canonicalize([{ k: value }]), /is not an I-JSON number/, bits);
    } else {
      assert.equal(canonicalize(value), canonical, bits);
      assert.equal(canonicalize({ k: [value] }), `{"k":[${canonical}]}`, bits);
      assert.equal(reference(value), canonical, bits);
    }
  }
  assert.deepEqual(
    [1e21, 2 ** 53 + 2, -(2 ** 53), 2 ** 60, 1e30].map((v) => canonicalize(v)),
    ["1e+21", "9007199254740994", "-9007199254740992", "1152921504606847000", "1e+30"],
  );
  assert.equal(digest(2 ** 53 + 2), digest(parseStrict(Buffer.from("9007199254740994.0"))));
  // A float written with an exponent is a float, whatever its size (Python's 1e+300 is one too).
  assert.equal(
    canonicalize(parseStrict(Buffer.from("[1e300,1.2e18]"))),
    "[1e+300,1200000000000000000]",
  );
});

test("integer literals outside ±(2^53−1) in a received line are refused, as Python refuses them", () => {
  for (const literal of ["9007199254740992", "-9007199254740992", "123456789012345678901234"]) {
    const value = parseStrict(Buffer.from(`[1,{"k":${literal}}]`));
    assert.ok(value[1].k instanceof UnsafeInteger, literal); // digits kept, not rounded
    assert.equal(describe(value[1].k), `integer ${literal}`);
    assert.throws(() => canonicalize(value), /outside ±\(2\*\*53-1\)/, literal);
    assert.throws(() => PAYLOADS.result.check({ ...EMPTY, requestId: value[1].k }), Violation);
  }
  const edges = parseStrict(
    Buffer.from("[9007199254740991,-9007199254740991,9.007199254740992e15]"),
  );
  assert.equal(canonicalize(edges), "[9007199254740991,-9007199254740991,9007199254740992]");
});

test("a host frame with a seq or version past 2^53 is refused naming its exact digits", async () => {
  const ready = host("ready", 1, {});
  const cases = [
    [
      host("shutdown", 2, {}).replace('"seq":2', '"seq":9007199254740993'),
      /FAIL E_SCHEMA: frame 2: shutdown\.seq skips ahead — expected 2, got integer 9007199254740993/,
    ],
    [
      host("shutdown", 2, {}).replace('"seq":2', '"seq":-9007199254740993'),
      /FAIL E_SCHEMA: frame 2: shutdown\.seq repeats an earlier frame — expected 2, got integer -9007199254740993/,
    ],
    [
      host("shutdown", 2, {}).replace('"protocolVersion":3', '"protocolVersion":9007199254740995'),
      /FAIL E_PROTOCOL_VERSION: frame 2: shutdown\.protocolVersion speaks GPP\/9007199254740995 but this plugin speaks GPP\/3 — expected 3, got integer 9007199254740995/,
    ],
  ];
  for (const [line, diagnostic] of cases) {
    const { code, logs } = await run([ready, line]);
    assert.equal(code, 2); // EXIT_PROTOCOL
    assert.match(logs.join("\n"), diagnostic);
  }
});

test("the strict parser rejects duplicate keys, lone surrogates, NaN and deep nesting", () => {
  const cases = {
    '{"a":1,"a":2}': /duplicate key "a"/,
    '"\\ud800"': /lone surrogate/,
    NaN: /NaN is not an I-JSON number/,
    "[1e999]": /overflows a double/,
    [`${"[".repeat(513)}${"]".repeat(513)}`]: /nesting deeper than 512/,
    "{": /Expecting property name/,
  };
  for (const [line, reason] of Object.entries(cases))
    assert.throws(() => parseStrict(Buffer.from(line)), reason);
  assert.throws(() => parseStrict(Buffer.from([0x22, 0xff, 0x22])), /invalid UTF-8/);
  const deepest = `${"[".repeat(512)}${"]".repeat(512)}`;
  assert.equal(canonicalize(parseStrict(Buffer.from(deepest))), deepest);
  assert.equal(parseStrict(Buffer.from('"\\ud83d\\ude00"')), "\u{1F600}");
});

test("a full session: hello, results with correct envelope and digest, bye", async () => {
  const seen = [];
  const { code, frames } = await run(
    session(
      host("discover", 2, { requestId: "r1", paths: ["a", "."] }),
      host("discover", 3, { requestId: "r2", paths: ["b"] }),
      host("shutdown", 4, {}),
    ),
    async (paths) => {
      seen.push(paths);
      return EMPTY;
    },
  );
  assert.equal(code, 0);
  assert.deepEqual(seen, [["a", "."], ["b"]]);
  assert.deepEqual(
    frames.map((f) => f.type),
    ["hello", "result", "result", "bye"],
  );
  assert.deepEqual(
    frames.map((f) => f.seq),
    [1, 2, 3, 4],
  );
  for (const frame of frames) {
    assert.equal(frame.protocolVersion, 3);
    assert.equal(frame.pluginId, ID);
    assert.equal(frame.pluginVersion, VERSION);
    assert.equal(
      frame.digest,
      digest({ type: frame.type, seq: frame.seq, payload: frame.payload }),
    );
    assert.equal(frame.digest, frameDigest(frame.type, frame.seq, canonicalize(frame.payload)));
  }
  assert.deepEqual(frames[1].payload, { requestId: "r1", ...EMPTY });
});

/** Serve `frames` to a paths handler, then to a `{ request: true }` one: what each was called with. */
async function bothStyles(frames) {
  const calls = [];
  const requests = [];
  const plain = await run(frames, (...args) => {
    calls.push(args);
    return EMPTY;
  });
  const opted = await run(
    frames,
    (request) => {
      requests.push(request);
      return EMPTY;
    },
    { request: true },
  );
  for (const { code, frames: out } of [plain, opted]) {
    assert.equal(code, 0);
    assert.deepEqual(out[1].payload, { requestId: "r1", ...EMPTY });
  }
  return { calls, requests };
}

test("a { request: true } handler gets the whole discover request; a paths handler its paths", async () => {
  const { calls, requests } = await bothStyles(
    session(host("discover", 2, { requestId: "r1", paths: ["a", "."] }), host("shutdown", 3, {})),
  );
  assert.deepEqual(calls, [[["a", "."]]]);
  assert.deepEqual(requests, [{ requestId: "r1", paths: ["a", "."] }]);
});

test("a field a later protocol adds to discover reaches a request handler and never a paths handler", async () => {
  // the protocol of tomorrow: its discover payload has an optional `since`
  const today = PAYLOADS.discover;
  const spec = CONTRACT.payloads.discover;
  PAYLOADS.discover = fromContract({ ...spec, optional: { since: { type: "string" } } });
  try {
    const { calls, requests } = await bothStyles(
      session(
        host("discover", 2, { requestId: "r1", paths: ["a"], since: "abc123" }),
        host("shutdown", 3, {}),
      ),
    );
    assert.deepEqual(calls, [[["a"]]]); // one argument, the paths: nothing else leaks in
    assert.deepEqual(requests, [{ requestId: "r1", paths: ["a"], since: "abc123" }]);
  } finally {
    PAYLOADS.discover = today;
  }
});

test("discover with no paths is answered with the empty result, without calling the handler", async () => {
  let calls = 0;
  const { code, frames } = await run(
    session(host("discover", 2, { requestId: "none", paths: [] }), host("shutdown", 3, {})),
    () => {
      calls += 1;
      return { ...EMPTY, findings: [{ code: "NOT_ASKED", detail: "", locations: [] }] };
    },
  );
  assert.equal(code, 0);
  assert.equal(calls, 0);
  assert.deepEqual(
    frames.map((f) => f.type),
    ["hello", "result", "bye"],
  );
  assert.deepEqual(frames[1].payload, { requestId: "none", ...EMPTY });
});

test("duplicate capabilities are refused before hello is sent", async () => {
  const options = {
    pluginId: ID,
    pluginVersion: VERSION,
    capabilities: ["discover", "discover"],
    input: new PassThrough(),
    output: new PassThrough(),
  };
  await assert.rejects(
    servePlugin(() => EMPTY, options),
    /repeats a capability/,
  );
});

test("a handler throw becomes a request-scoped error and the session goes on", async () => {
  let calls = 0;
  const { code, frames } = await run(
    session(
      host("discover", 2, { requestId: "r1", paths: ["."] }),
      host("discover", 3, { requestId: "r2", paths: ["."] }),
      host("shutdown", 4, {}),
    ),
    () => {
      calls += 1;
      if (calls === 1) throw new RangeError("no such repo");
      return EMPTY;
    },
  );
  assert.equal(code, 0);
  assert.deepEqual(frames[1].payload, {
    requestId: "r1",
    code: "RangeError",
    message: "no such repo",
  });
  assert.equal(frames[2].type, "result");
});

test("an invalid document is reported inside the plugin, not sent", async () => {
  const bad = {
    ...EMPTY,
    resources: [{ kind: "t", name: "n", location: { path: "a", line: 0 }, attrs: {} }],
  };
  const { frames, logs } = await run(
    session(host("discover", 2, { requestId: "r1", paths: ["."] }), host("shutdown", 3, {})),
    () => bad,
  );
  assert.equal(frames[1].type, "error");
  assert.equal(frames[1].payload.code, "E_SCHEMA");
  assert.match(frames[1].payload.message, /resources\[0\]\.location\.line has the wrong value/);
  assert.match(logs[0], /resources\[0\]\.location\.line/);
});

const discover = { requestId: "r1", paths: ["src"] };
const tamper = (line, changes) => `${canonicalize({ ...JSON.parse(line), ...changes })}\n`;
const FAULTS = {
  "bad digest": [
    tamper(host("discover", 2, discover), { digest: "0".repeat(64) }),
    "E_SCHEMA",
    "discover.digest does not match",
  ],
  "seq gap": [host("discover", 3, discover), "E_SCHEMA", "discover.seq skips ahead"],
  "seq repeat": [host("discover", 1, discover), "E_SCHEMA", "discover.seq repeats"],
  "wrong identity": [
    host("discover", 2, discover, "other"),
    "E_UNKNOWN_PLUGIN",
    "discover.pluginId does not match",
  ],
  "dot-dot path": [
    host("discover", 2, { requestId: "r1", paths: ["a/../b"] }),
    "E_SCHEMA",
    "discover.payload.paths[0] is not a repo-relative path (must not contain a '..' segment)",
  ],
  "absolute path": [
    host("discover", 2, { requestId: "r1", paths: ["/etc/passwd"] }),
    "E_SCHEMA",
    "discover.payload.paths[0] is not a repo-relative path (must be relative",
  ],
  "backslash path": [
    host("discover", 2, { requestId: "r1", paths: ["ok", "a\\b"] }),
    "E_SCHEMA",
    "discover.payload.paths[1]",
  ],
  "empty line": ["\n", "E_FRAME_JSON", "empty line"],
  "invalid JSON": ["{nope\n", "E_FRAME_JSON", "invalid JSON"],
  "duplicate keys": [
    `${host("discover", 2, discover).slice(0, -2)},"seq":2}\n`,
    "E_FRAME_JSON",
    'duplicate key "seq"',
  ],
  "array frame": ["[1]\n", "E_FRAME_JSON", "not a JSON object"],
  "unknown type": [host("greeting", 2, {}), "E_UNKNOWN_TYPE", "type is not a GPP/3 message type"],
  "GPP/2 host": [
    tamper(host("discover", 2, discover), { protocolVersion: 2 }),
    "E_PROTOCOL_VERSION",
    "speaks GPP/2",
  ],
  "version 3.0": [
    host("discover", 2, discover).replace('"protocolVersion":3,', '"protocolVersion":3.0,'),
    "E_PROTOCOL_VERSION",
    "discover.protocolVersion is number 3.0, not an integer, but this plugin speaks GPP/3 — expected 3, got number 3.0",
  ],
  "version as a string": [
    tamper(host("discover", 2, discover), { protocolVersion: "3" }),
    "E_PROTOCOL_VERSION",
    "discover.protocolVersion is string '3', not an integer, but this plugin speaks GPP/3",
  ],
  "seq 2.0": [
    host("discover", 2, discover).replace('"seq":2,', '"seq":2e0,'),
    "E_SCHEMA",
    "discover.seq has the wrong type — expected 2, got number 2.0",
  ],
  "wrong phase": [host("ready", 2, {}), "E_SCHEMA", "ready.type arrived in the wrong phase (idle)"],
  "plugin-only type": [
    host("result", 2, { requestId: "r1", ...EMPTY }),
    "E_SCHEMA",
    "result.type is sent by the plugin",
  ],
  "unknown payload key": [
    host("discover", 2, { ...discover, extra: 1 }),
    "E_SCHEMA",
    "discover.payload.extra is not allowed",
  ],
};

for (const [name, [line, code, text]] of Object.entries(FAULTS)) {
  test(`rejects a host frame: ${name}`, async () => {
    let called = false;
    const {
      code: exit,
      frames,
      logs,
    } = await run([host("ready", 1, {}), line], () => {
      called = true;
      return EMPTY;
    });
    assert.equal(exit, 2);
    assert.equal(called, false);
    const fatal = frames.at(-1);
    assert.equal(fatal.type, "error");
    assert.equal(Object.hasOwn(fatal.payload, "requestId"), false);
    assert.equal(fatal.payload.code, code);
    assert.ok(
      fatal.payload.message.startsWith(`[plugin-protocol] FAIL ${code}: frame 2: `),
      fatal.payload.message,
    );
    assert.ok(fatal.payload.message.includes(text), `${fatal.payload.message} lacks ${text}`);
    assert.equal(fatal.digest, digest({ type: "error", seq: fatal.seq, payload: fatal.payload }));
    assert.match(logs[0], /^\[plugin-protocol\] FAIL /);
    assert.match(logs[0], /\n\[plugin-protocol\] offending frame: /);
  });
}

test("the plugin sends PROTOCOL_VERSION and refuses a host one version ahead", async () => {
  const { code, frames } = await run([
    tamper(host("ready", 1, {}), { protocolVersion: PROTOCOL_VERSION + 1 }),
  ]);
  assert.equal(frames[0].protocolVersion, PROTOCOL_VERSION);
  assert.equal(code, 2);
  assert.equal(frames.at(-1).payload.code, "E_PROTOCOL_VERSION");
  assert.match(
    frames.at(-1).payload.message,
    new RegExp(`speaks GPP/${PROTOCOL_VERSION + 1} but this plugin speaks GPP/${PROTOCOL_VERSION}`),
  );
});

test("a host that goes away mid-session ends the plugin with E_EOF", async () => {
  const { code, frames } = await run(session());
  assert.equal(code, 2);
  assert.equal(frames.at(-1).payload.code, "E_EOF");
});

test("a line over maxLineBytes is refused while reading", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const done = servePlugin(() => EMPTY, {
    pluginId: ID,
    pluginVersion: VERSION,
    input,
    output,
    maxLineBytes: 1000,
    log: () => {},
  });
  input.write(host("ready", 1, {}));
  for (let i = 0; i < 5; i++) input.write("x".repeat(300)); // no newline, ever
  assert.equal(await done, 2);
});

test("requestBudgetMs reads the contract's variable, digits naming 1 to 2^53-1 only", () => {
  const name = CONTRACT.environment.requestBudget.variable;
  assert.equal(name, "GPP_REQUEST_MS");
  assert.equal(requestBudgetMs({ [name]: "4321" }), 4321);
  assert.equal(requestBudgetMs({ [name]: String(2 ** 53 - 1) }), 2 ** 53 - 1);
  for (const odd of ["0", "", " 7", "7.5", "1e3", "-7", String(2 ** 53)]) {
    assert.equal(requestBudgetMs({ [name]: odd }), null, odd);
  }
  assert.equal(requestBudgetMs({}), null);
});
