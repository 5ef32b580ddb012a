// Strict GPP/3 payload schemas, the twin of gpp/schema.py: a few combinators, checked on every
// host frame and on the handler's document before it is sent.

import { IntegralFloat } from "./canonical.js";

export const MAX_PATHS = 10_000;
export const REASONS = ["not-found", "unreadable", "unsupported", "parse-error", "too-large"];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** One schema fault; the field path is assembled while the error unwinds. */
export class Violation extends Error {
  constructor(problem, expected = null, got = null) {
    super(problem);
    this.problem = problem;
    this.expected = expected;
    this.got = got;
    this.segments = [];
  }

  at(segment) {
    this.segments.unshift(segment);
    return this;
  }

  get field() {
    let text = "";
    for (const seg of this.segments) {
      text += typeof seg === "number" ? `[${seg}]` : text ? `.${seg}` : seg;
    }
    return text;
  }
}

export function describe(value) {
  if (value === null) return "null";
  if (value instanceof IntegralFloat) {
    // as Python's repr names the float: 3.0, 1e+16
    return `number ${Math.abs(value.value) < 1e16 ? value.value.toFixed(1) : value.value.toExponential()}`;
  }
  if (typeof value === "boolean") return `boolean ${value}`;
  if (typeof value === "number")
    return Number.isInteger(value) ? `integer ${value}` : `number ${value}`;
  if (typeof value === "string") {
    const shown = value.length <= 40 ? value : `${value.slice(0, 39)}…`;
    return `string ${JSON.stringify(shown)}`;
  }
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === "object") return "object";
  return typeof value;
}

const isInt = (v) => Number.isInteger(v) && Math.abs(v) <= MAX_SAFE;
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function typed(expected, ok) {
  return {
    expected,
    check(value) {
      if (!ok(value)) throw new Violation("has the wrong type", expected, describe(value));
    },
  };
}

const STRING = typed("string", (v) => typeof v === "string");
const SCALAR = typed(
  "string, integer or boolean",
  (v) => typeof v === "string" || typeof v === "boolean" || isInt(v),
);

const POSITIVE_INT = {
  expected: "integer >= 1",
  check(value) {
    if (isInt(value) && value >= 1) return;
    throw new Violation(
      isInt(value) ? "has the wrong value" : "has the wrong type",
      "integer >= 1",
      describe(value),
    );
  },
};

function matching(expected, regex) {
  return {
    expected,
    check(value) {
      if (typeof value !== "string")
        throw new Violation("has the wrong type", expected, describe(value));
      if (!regex.test(value)) throw new Violation("has the wrong value", expected, describe(value));
    },
  };
}

function oneOf(choices) {
  const expected = `one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`;
  return {
    expected,
    check(value) {
      if (typeof value !== "string")
        throw new Violation("has the wrong type", expected, describe(value));
      if (!choices.includes(value))
        throw new Violation("has the wrong value", expected, describe(value));
    },
  };
}

function array(item, { min = 0, max = Infinity } = {}) {
  const expected = min ? `array of at least ${min}` : "array";
  return {
    expected,
    check(value) {
      if (!Array.isArray(value))
        throw new Violation("has the wrong type", expected, describe(value));
      if (value.length < min) throw new Violation("is too short", expected, describe(value));
      if (value.length > max)
        throw new Violation("is too long", `at most ${max} items`, describe(value));
      value.forEach((element, index) => {
        try {
          item.check(element);
        } catch (e) {
          throw e instanceof Violation ? e.at(index) : e;
        }
      });
    },
  };
}

function mapping(values) {
  return {
    expected: "object",
    check(value) {
      if (!isObject(value)) throw new Violation("has the wrong type", "object", describe(value));
      for (const [key, element] of Object.entries(value)) {
        try {
          values.check(element);
        } catch (e) {
          throw e instanceof Violation ? e.at(key) : e;
        }
      }
    },
  };
}

function record(required, optional = {}) {
  return {
    expected: "object",
    check(value) {
      if (!isObject(value)) throw new Violation("has the wrong type", "object", describe(value));
      for (const [key, spec] of Object.entries(required)) {
        if (!Object.hasOwn(value, key)) throw new Violation("missing", spec.expected, null).at(key);
        try {
          spec.check(value[key]);
        } catch (e) {
          throw e instanceof Violation ? e.at(key) : e;
        }
      }
      for (const [key, element] of Object.entries(value)) {
        if (Object.hasOwn(required, key)) continue;
        if (!Object.hasOwn(optional, key)) {
          throw new Violation("is not allowed", "no such field", describe(element)).at(key);
        }
        try {
          optional[key].check(element);
        } catch (e) {
          throw e instanceof Violation ? e.at(key) : e;
        }
      }
    },
  };
}

/** The rule a repo-relative path breaks, or null when it is valid (DESIGN.md §3). */
export function pathProblem(path) {
  if (typeof path !== "string") return `must be a string, got ${describe(path)}`;
  if (path === ".") return null;
  if (!path) return "must not be empty";
  if (path.includes("\0")) return "must not contain NUL";
  if (path.includes("\\")) return "must not contain a backslash";
  if (path.startsWith("/")) return "must be relative (no leading /)";
  if (/^[A-Za-z]:/.test(path)) return "must not start with a drive letter";
  for (const segment of path.split("/")) {
    if (segment === "") return "must not contain an empty segment";
    if (segment === "." || segment === "..") return `must not contain a '${segment}' segment`;
  }
  return null;
}

const PATH = {
  expected: "repo-relative path",
  check(value) {
    const problem = pathProblem(value);
    if (problem !== null) {
      throw new Violation(
        `is not a repo-relative path (${problem})`,
        "repo-relative path",
        describe(value),
      );
    }
  },
};

const REQUEST_ID = matching("string of 1..128 chars", /^[\s\S]{1,128}$/u);
const LOCATION = record({ path: PATH, line: POSITIVE_INT });

const DOCUMENT_FIELDS = {
  resources: array(
    record({ kind: STRING, name: STRING, location: LOCATION, attrs: mapping(SCALAR) }),
  ),
  unresolved: array(record({ path: PATH, reason: oneOf(REASONS), detail: STRING })),
  findings: array(
    record({
      code: matching("UPPER_SNAKE code", /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/),
      detail: STRING,
      locations: array(LOCATION),
    }),
  ),
  classificationSignals: array(
    record({
      resource: matching('"<kind>:<name>"', /^[^:]+:[\s\S]+$/),
      signal: STRING,
      value: SCALAR,
      source: LOCATION,
    }),
  ),
};

export const DOCUMENT = record(DOCUMENT_FIELDS);
export const DOCUMENT_KEYS = Object.keys(DOCUMENT_FIELDS);

const CAPABILITIES = array(STRING, { min: 1 });

export const PAYLOADS = {
  hello: record({
    capabilities: {
      expected: 'non-empty array containing "discover"',
      check(value) {
        CAPABILITIES.check(value);
        if (!value.includes("discover")) {
          throw new Violation('lacks "discover"', 'array containing "discover"', describe(value));
        }
        const seen = new Set();
        for (const capability of value) {
          if (seen.has(capability))
            throw new Violation("repeats a capability", "distinct strings", describe(capability));
          seen.add(capability);
        }
      },
    },
  }),
  ready: record({}),
  discover: record({ requestId: REQUEST_ID, paths: array(PATH, { max: MAX_PATHS }) }),
  result: record({ requestId: REQUEST_ID, ...DOCUMENT_FIELDS }),
  error: record({ code: STRING, message: STRING }, { requestId: REQUEST_ID }),
  shutdown: record({}),
  bye: record({}),
};
