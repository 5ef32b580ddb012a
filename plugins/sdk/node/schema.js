// Strict GPP/3 payload schemas, the twin of gpp/core/schema.py: a few combinators, checked on every
// host frame and on the handler's document before it is sent. Which combinator checks which
// field is not written here: it is read from the contract (gpp3.json, `payloads` and `types`).

import { IntegralFloat, UnsafeInteger } from "./canonical.js";
import { CONTRACT } from "./contract.js";

export const MAX_PATHS = CONTRACT.limits.maxPaths;
export const REASONS = CONTRACT.types.Reason.enum;
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
  if (value instanceof UnsafeInteger) return `integer ${value.text}`;
  if (value instanceof IntegralFloat) {
    // as Python's repr names the float: 3.0, 1e+16
    return `number ${Math.abs(value.value) < 1e16 ? value.value.toFixed(1) : value.value.toExponential()}`;
  }
  if (typeof value === "boolean") return `boolean ${value}`;
  if (typeof value === "number")
    return Number.isInteger(value) ? `integer ${value}` : `number ${value}`;
  if (typeof value === "string") {
    const chars = [...value]; // code points, as Python counts them
    return `string ${pyRepr(chars.length <= 40 ? value : `${chars.slice(0, 39).join("")}…`)}`;
  }
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === "object") return "object";
  return typeof value;
}

// What Python's str.isprintable() refuses: categories C* and Z*, except the ASCII space.
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;
const SHORT_ESCAPES = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** A string as Python's repr() writes it, so diagnostics read the same from either side. */
function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of text) {
    if (c === quote || c in SHORT_ESCAPES) out += c === quote ? `\\${c}` : SHORT_ESCAPES[c];
    else if (c !== " " && NOT_PRINTABLE.test(c)) {
      const code = c.codePointAt(0);
      const hex = code.toString(16);
      out +=
        code < 0x100
          ? `\\x${hex.padStart(2, "0")}`
          : code < 0x10000
            ? `\\u${hex.padStart(4, "0")}`
            : `\\U${hex.padStart(8, "0")}`;
    } else out += c;
  }
  return out + quote;
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

// ------------------------------------------------------------- the contract's specs, built

function capabilities(spec, list) {
  return {
    expected: spec.expected,
    check(value) {
      list.check(value);
      if (spec.contains !== undefined && !value.includes(spec.contains)) {
        const wanted = `array containing ${JSON.stringify(spec.contains)}`;
        throw new Violation(`lacks ${JSON.stringify(spec.contains)}`, wanted, describe(value));
      }
      if (spec.unique) {
        const seen = new Set();
        for (const item of value) {
          if (seen.has(item))
            throw new Violation("repeats a capability", "distinct strings", describe(item));
          seen.add(item);
        }
      }
    },
  };
}

function stringSpec(spec) {
  if (spec.enum !== undefined) return oneOf(spec.enum);
  if (spec.pattern !== undefined)
    return matching(spec.expected, new RegExp(`^(?:${spec.pattern})$`));
  if (spec.maxLength !== undefined) {
    const min = spec.minLength ?? 0;
    const text = `string of ${min}..${spec.maxLength} chars`;
    return matching(text, new RegExp(`^[\\s\\S]{${min},${spec.maxLength}}$`, "u"));
  }
  return STRING;
}

const named = new Map();

/** The check a contract spec describes (gpp3.json: `types`, `payloads`, `gateway`). */
export function fromContract(spec) {
  if (spec.ref !== undefined) {
    if (!named.has(spec.ref)) named.set(spec.ref, fromContract(CONTRACT.types[spec.ref]));
    return named.get(spec.ref);
  }
  switch (spec.type) {
    case "string":
      return stringSpec(spec);
    case "scalar":
      return SCALAR;
    case "path":
      return PATH;
    case "integer":
      if (spec.minimum === 1) return POSITIVE_INT;
      break;
    case "map":
      return mapping(fromContract(spec.values));
    case "array": {
      const list = array(fromContract(spec.items), {
        min: spec.minItems ?? 0,
        max: spec.maxItems ?? Infinity,
      });
      return spec.contains !== undefined || spec.unique ? capabilities(spec, list) : list;
    }
    case "object":
      return record(fieldsOf(spec.required, spec.extends), fieldsOf(spec.optional ?? {}));
  }
  throw new Error(`gpp3.json: no check for ${JSON.stringify(spec)}`);
}

function fieldsOf(specs, base) {
  const fields = Object.fromEntries(Object.entries(specs).map(([k, s]) => [k, fromContract(s)]));
  return base === undefined ? fields : { ...fields, ...fieldsOf(CONTRACT.types[base].required) };
}

const DOCUMENT_FIELDS = fieldsOf(CONTRACT.types.Document.required);

export const DOCUMENT = record(DOCUMENT_FIELDS);
export const DOCUMENT_KEYS = Object.keys(DOCUMENT_FIELDS);

/** The payload check of each GPP/3 message type. */
export const PAYLOADS = Object.fromEntries(
  Object.entries(CONTRACT.payloads).map(([type, spec]) => [type, fromContract(spec)]),
);
