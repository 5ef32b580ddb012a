"""Python's and Node's canonical JSON, byte for byte, on thousands of generated values.

The shared vectors pin the corners; this sweeps the space between them: random documents with
keys across the BMP and beyond it, every escape, floats of every magnitude, safe integers.
"""

from __future__ import annotations

import json
import random
import struct
from typing import Any

from conftest import node_module

from gpp.core import canonical, loads_strict
from gpp.core.canonical_json import number

NODE_CANONICALIZE = """
import { canonicalize, parseStrict } from "./plugins/sdk/node/canonical.js";
import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  process.stdout.write(canonicalize(parseStrict(Buffer.from(line))) + "\\n");
}
"""
ALPHABET = ["a", "Z", "é", "\\", '"', "\x00", "\x1f", "\x7f", "\u2028", "\ue000", "\uffff",
            "\U0001f600", "\U00010000", "日", " ", "/"]  # fmt: skip


def _string(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))


def _number(rng: random.Random) -> float | int:
    kind = rng.random()
    if kind < 0.4:
        return rng.randint(-(2**53) + 1, 2**53 - 1)
    if kind < 0.7:
        return rng.uniform(-1e6, 1e6)
    while True:  # any finite double, from its bits
        value: float = struct.unpack("d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if value == value and abs(value) != float("inf"):
            return value


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randint(0, 6 if depth < 4 else 3)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind in (1, 2):
        return _number(rng)
    if kind == 3:
        return _string(rng)
    if kind == 4:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_string(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def test_python_and_node_agree_byte_for_byte() -> None:
    rng = random.Random(8785)
    values = [_value(rng) for _ in range(3000)]
    lines = "".join(json.dumps(v) + "\n" for v in values)  # plain JSON in; ASCII-escaped
    node = node_module(NODE_CANONICALIZE, stdin=lines.encode()).split(b"\n")[:-1]
    assert len(node) == len(values)
    mismatches = [(v, n) for v, n in zip(values, node, strict=True) if canonical(v) != n]
    assert not mismatches, mismatches[:3]


NODE_NUMBERS = """
import { canonicalize } from "./plugins/sdk/node/canonical.js";
import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  process.stdout.write(canonicalize(Buffer.from(line, "hex").readDoubleBE(0)) + "\\n");
}
"""


def test_node_renders_any_double_as_python_renders_the_float() -> None:
    """Doubles handed to Node as numbers (not parsed text): integral ones past 2**53 included,
    which Node once refused though a JavaScript number cannot be anything but a double."""
    rng = random.Random(53)
    values = [float(rng.randint(2**53, 2**70)) * rng.choice([1, -1]) for _ in range(500)]
    values += [rng.uniform(-1e25, 1e25) for _ in range(500)]
    while len(values) < 3000:
        value: float = struct.unpack("d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if value == value and abs(value) != float("inf"):
            values.append(value)
    stdin = "".join(struct.pack(">d", v).hex() + "\n" for v in values).encode()
    node = node_module(NODE_NUMBERS, stdin=stdin).decode().split("\n")[:-1]
    assert len(node) == len(values)
    mismatches = [(v, n) for v, n in zip(values, node, strict=True) if number(v) != n]
    assert not mismatches, mismatches[:3]


def test_both_parsers_refuse_integer_literals_past_the_limit() -> None:
    """Python reads them as ints that `canonical` refuses; Node keeps their digits and refuses
    them the same way, with the same message."""
    script = (
        'import { canonicalize, parseStrict } from "./plugins/sdk/node/canonical.js";'
        "for (const t of process.argv.slice(1)) {"
        "  try { console.log(canonicalize(parseStrict(Buffer.from(t)))); }"
        "  catch (e) { console.log(e.message); } }"
    )
    lines = ["[9007199254740992]", '{"k":-9007199254740993}', "123456789012345678901234",
             "[9007199254740991]", "[9007199254740992.0]"]  # fmt: skip
    node = node_module(script, *lines)
    python = []
    for line in lines:
        try:
            python.append(canonical(loads_strict(line.encode())).decode())
        except ValueError as exc:
            python.append(str(exc))
    assert node.decode().splitlines() == python
    assert python[:3] == [
        "integer 9007199254740992 is outside ±(2**53-1)",
        "integer -9007199254740993 is outside ±(2**53-1)",
        "integer 123456789012345678901234 is outside ±(2**53-1)",
    ]
