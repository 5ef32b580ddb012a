// Problem documents to error classes, with no gateway: every E_* code, the 422 special case,
// refusals and their retryAfter.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ERROR_CLASSES,
  ExitStatusError,
  errorFromProblem,
  GatewayRefused,
  InvalidRequestError,
  ProtocolError,
  SchemaError,
} from "../index.js";

const CODES = [
  "E_PROTOCOL_VERSION",
  "E_UNKNOWN_PLUGIN",
  "E_FRAME_JSON",
  "E_UNKNOWN_TYPE",
  "E_SCHEMA",
  "E_EOF",
  "E_TIMEOUT",
  "E_PLUGIN_ERROR",
  "E_EXIT_STATUS",
];

test("every fixed E_* code has its own ProtocolError subclass", () => {
  assert.deepEqual(Object.keys(ERROR_CLASSES).sort(), [...CODES].sort());
  const classes = new Set(Object.values(ERROR_CLASSES));
  assert.equal(classes.size, CODES.length);
  for (const cls of classes) assert.ok(cls.prototype instanceof ProtocolError);
});

test("a problem document becomes its code's class with every field", () => {
  const problem = {
    type: "urn:gpp:error:E_EXIT_STATUS",
    title: "Plugin exit status",
    status: 502,
    detail:
      "[plugin-protocol] FAIL E_EXIT_STATUS: frame 3: plugin exited after bye — expected exit code 0, got exit code 3",
    code: "E_EXIT_STATUS",
    plugin: "p",
    frame: 3,
    messageType: "bye",
    field: null,
    expected: "exit code 0",
    got: "exit code 3",
    offendingFrame: '{"type":"bye"}',
    requestId: "r-1",
    exitCode: 3,
    stderrTail: "boom\n",
  };
  const error = errorFromProblem(502, problem, undefined);
  assert.ok(error instanceof ExitStatusError && error instanceof ProtocolError);
  assert.equal(error.name, "ExitStatusError");
  assert.deepEqual(
    [
      error.code,
      error.status,
      error.plugin,
      error.frame,
      error.messageType,
      error.field,
      error.expected,
      error.got,
      error.offendingFrame,
      error.requestId,
      error.exitCode,
      error.stderrTail,
    ],
    [
      "E_EXIT_STATUS",
      502,
      "p",
      3,
      "bye",
      null,
      "exit code 0",
      "exit code 3",
      '{"type":"bye"}',
      "r-1",
      3,
      "boom\n",
    ],
  );
  assert.equal(
    error.diagnostic(),
    `${problem.detail}\n[plugin-protocol] offending frame: {"type":"bye"}`,
  );
  const bare = errorFromProblem(
    502,
    { code: "E_EOF", detail: "[plugin-protocol] FAIL E_EOF: x" },
    undefined,
  );
  assert.equal(bare.diagnostic().split("\n")[1], "[plugin-protocol] offending frame: (none)");
});

test("E_SCHEMA with 422 is the caller's InvalidRequestError, still a SchemaError", () => {
  const error = errorFromProblem(422, { code: "E_SCHEMA", field: "paths[0]" }, undefined);
  assert.ok(error instanceof InvalidRequestError && error instanceof SchemaError);
  assert.ok(
    !(errorFromProblem(502, { code: "E_SCHEMA" }, undefined) instanceof InvalidRequestError),
  );
});

test("a refusal without a known code is GatewayRefused, retryAfter from the body or the header", () => {
  const backoff = errorFromProblem(
    503,
    { title: "Plugin unavailable", code: null, retryAfter: 1.5, lastCode: "E_EOF" },
    "2",
  );
  assert.ok(backoff instanceof GatewayRefused);
  assert.deepEqual([backoff.status, backoff.retryAfter, backoff.lastCode], [503, 1.5, "E_EOF"]);
  assert.equal(errorFromProblem(503, {}, "7").retryAfter, 7);
  const unauthorized = errorFromProblem(401, "not a document", undefined);
  assert.ok(unauthorized instanceof GatewayRefused);
  assert.deepEqual(
    [unauthorized.status, unauthorized.retryAfter, unauthorized.lastCode],
    [401, null, null],
  );
  assert.ok(errorFromProblem(502, { code: "toString" }, undefined) instanceof GatewayRefused);
});
