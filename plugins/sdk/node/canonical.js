// GF-canonical JSON (RFC 8785 restricted to I-JSON) and the strict parser for received lines.
// The Python twin is gpp/core/canonical_json.py; the two must agree byte for byte.

import { createHash } from "node:crypto";

export const MAX_DEPTH = 512;

/** Thrown for a value or a line that is not acceptable I-JSON. */
export class JSONRejected extends Error {
  constructor(reason) {
    super(reason);
    this.name = "JSONRejected";
    this.reason = reason;
  }
}

/** GF-canonical JSON text of a JSON value; throws JSONRejected for what I-JSON forbids. */
export function canonicalize(value) {
  return encode(value, 0);
}

/** Lowercase hex sha256 of the canonical UTF-8 bytes. */
export function digest(value) {
  return createHash("sha256").update(canonicalize(value), "utf8").digest("hex");
}

/**
 * A number written with a fraction or an exponent whose value is integral (`3.0`, `2e0`).
 * JSON.parse makes it 3, but GPP/3 counts only integer literals as integers (as Python does),
 * so the strict parser keeps the difference: a version or seq of `3.0` is refused, not read as 3.
 */
export class IntegralFloat {
  constructor(value) {
    this.value = value;
  }

  valueOf() {
    return this.value;
  }
}

/**
 * An integer literal (no fraction, no exponent) outside ±(2^53−1) in a received line. As a
 * Number it would have lost digits, so the strict parser keeps its text instead: Python reads
 * the same literal as an `int`, which its schemas and `canonical` refuse, and so do ours.
 */
export class UnsafeInteger {
  constructor(text) {
    this.text = text;
  }
}

function encode(value, depth) {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw new JSONRejected("string holds a lone surrogate");
      return JSON.stringify(value);
    case "number":
      // A JavaScript number is a double, never an integer type: every finite one renders as
      // RFC 8785 says (2**53 + 2 as its digits, 1e21 as 1e+21), as Python renders the float.
      return number(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (depth > 2 * MAX_DEPTH) throw new JSONRejected("nesting too deep to encode");
      if (Array.isArray(value)) return `[${value.map((v) => encode(v, depth + 1)).join(",")}]`;
      if (value instanceof IntegralFloat) return number(value.value);
      if (value instanceof UnsafeInteger)
        throw new JSONRejected(`integer ${value.text} is outside ±(2**53-1)`);
      // Default sort compares UTF-16 code units: exactly JCS's key order.
      const keys = Object.keys(value).sort();
      const members = keys.map((k) => `${encode(k, depth)}:${encode(value[k], depth + 1)}`);
      return `{${members.join(",")}}`;
    }
    default:
      throw new JSONRejected(`${typeof value} is not a JSON value`);
  }
}

function number(value) {
  if (!Number.isFinite(value)) throw new JSONRejected(`${value} is not an I-JSON number`);
  return JSON.stringify(value); // ECMAScript Number::toString, -0 as "0": what JCS specifies
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Parse one received line (a Buffer) as I-JSON, or throw JSONRejected naming the single cause:
 * invalid UTF-8, syntax, duplicate keys, lone surrogates, NaN/Infinity, nesting over 512.
 * JSON.parse alone lets duplicate keys and lone surrogates through, hence a parser of our own.
 */
export function parseStrict(bytes) {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new JSONRejected("invalid UTF-8");
  }
  return new StrictParser(text).parseDocument();
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class StrictParser {
  constructor(text) {
    this.text = text;
    this.pos = 0;
  }

  throwRejected(what) {
    throw new JSONRejected(`${what} at column ${this.pos + 1}`);
  }

  parseDocument() {
    this.skip();
    const value = this.value(1);
    this.skip();
    if (this.pos !== this.text.length) this.throwRejected("Extra data");
    return value;
  }

  skip() {
    while (WHITESPACE.has(this.text[this.pos])) this.pos++;
  }

  value(depth) {
    const c = this.text[this.pos];
    if (c === "{" || c === "[") {
      if (depth > MAX_DEPTH) throw new JSONRejected(`nesting deeper than ${MAX_DEPTH} levels`);
      return c === "{" ? this.object(depth) : this.array(depth);
    }
    if (c === '"') return this.string();
    if (c === "t") return this.literal("true", true);
    if (c === "f") return this.literal("false", false);
    if (c === "n") return this.literal("null", null);
    if (c === "N") this.constant("NaN");
    if (c === "I") this.constant("Infinity");
    if (c === "-" && this.text.startsWith("-Infinity", this.pos)) this.constant("-Infinity");
    return this.number();
  }

  constant(name) {
    throw new JSONRejected(`${name} is not an I-JSON number`);
  }

  literal(word, value) {
    if (!this.text.startsWith(word, this.pos)) this.throwRejected("Expecting value");
    this.pos += word.length;
    return value;
  }

  number() {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (!match) this.throwRejected("Expecting value");
    this.pos += match[0].length;
    const value = Number(match[0]);
    if (!Number.isFinite(value)) throw new JSONRejected(`number ${match[0]} overflows a double`);
    if (!Number.isInteger(value)) return value;
    if (/[.eE]/.test(match[0])) return new IntegralFloat(value);
    return Number.isSafeInteger(value) ? value : new UnsafeInteger(match[0]);
  }

  string() {
    this.pos++; // opening quote
    let out = "";
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.throwRejected("Unterminated string starting");
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c < " ") this.throwRejected("Invalid control character");
      if (c === "\\") {
        const e = this.text[this.pos + 1];
        if (e === "u") {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.throwRejected("Invalid \\uXXXX escape");
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
        } else if (e in ESCAPES) {
          out += ESCAPES[e];
          this.pos += 2;
        } else {
          this.throwRejected("Invalid \\escape");
        }
      } else {
        out += c;
        this.pos++;
      }
    }
    if (!out.isWellFormed()) throw new JSONRejected("string holds a lone surrogate");
    return out;
  }

  array(depth) {
    this.pos++;
    const out = [];
    this.skip();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skip();
      out.push(this.value(depth + 1));
      this.skip();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.throwRejected("Expecting ',' delimiter");
    }
  }

  object(depth) {
    this.pos++;
    const out = {};
    this.skip();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skip();
      if (this.text[this.pos] !== '"')
        this.throwRejected("Expecting property name enclosed in double quotes");
      const key = this.string();
      if (Object.hasOwn(out, key)) throw new JSONRejected(`duplicate key ${JSON.stringify(key)}`);
      this.skip();
      if (this.text[this.pos++] !== ":") this.throwRejected("Expecting ':' delimiter");
      this.skip();
      Object.defineProperty(out, key, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      }); // defineProperty: a "__proto__" key stays data, not the prototype
      this.skip();
      const c = this.text[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.throwRejected("Expecting ',' delimiter");
    }
  }
}
