"""GF-canonical JSON: RFC 8785 (JCS) restricted to I-JSON, plus the strict parser for received frames.

Stdlib-only on purpose: the plugin SDK imports this module, and a plugin needs nothing but the
standard library. Where `orjson` is importable (the host), it is used as the fast encoder.

The fast path hands the whole value to a C encoder with sorted keys, then checks the *output*
for the only things a C encoder renders differently from JCS: floats (ECMAScript number form),
keys outside the BMP (JCS sorts by UTF-16 code units, C encoders by code points) and, for the
stdlib encoder, integers past 2**53 and non-string keys. Those checks are regex scans in C, so
documents of strings, ints, bools, lists and dicts never meet a Python-level loop. Anything the
checks flag is re-encoded by the exact path, which is the definition.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

_orjson: ModuleType | None
try:  # the host has orjson; the plugin SDK runs without it
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised by the stdlib-only subprocess test
    _orjson = None

MAX_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 512
"""Deepest nesting a received frame may have; up to this depth everything must work."""

# A number token in encoder output is always preceded by one of these (or starts the text).
# A scalar token in encoder output follows one of `:[,` (or starts a top-level scalar, which the
# `_scalar_needs_exact` check covers). Patterns start with a character class so `re` can skip
# ahead fast; an anchored alternative (`^|…`) would make every position a candidate.
_FLOAT_TOKEN = re.compile(rb"[:\[,]-?[0-9]+[.eE]")
_NULL_TOKEN = re.compile(rb"[:\[,]null")  # orjson renders NaN and Infinity as null
_LONG_INT_TOKEN = re.compile(rb"[:\[,]-?[0-9]{16}")
_ORJSON_OPTIONS = (
    (
        _orjson.OPT_SORT_KEYS
        | _orjson.OPT_STRICT_INTEGER
        | _orjson.OPT_PASSTHROUGH_DATACLASS  # passthrough: no default, so these raise
        | _orjson.OPT_PASSTHROUGH_DATETIME
        | _orjson.OPT_PASSTHROUGH_SUBCLASS
    )
    if _orjson is not None
    else 0
)
_SCALAR_STARTS = frozenset(bytes([c]) for c in b"-0123456789n")
"""First byte of a top-level number or null: rare, so the exact path renders those."""
_BELOW_ASTRAL_LEAD = bytes(range(0xF0))  # 0xF0+ leads a 4-byte UTF-8 sequence: a non-BMP char
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def canonical(value: Any) -> bytes:
    """GF-canonical JSON of a JSON value; ValueError for what I-JSON forbids."""
    fast = _fast_encode(value)
    if fast is not None:
        return fast
    try:
        return _exact(value).encode("utf-8")
    except RecursionError:
        raise ValueError("nesting too deep to encode") from None


def digest(value: Any) -> str:
    """Lowercase hex sha256 of `canonical(value)`."""
    return hashlib.sha256(canonical(value)).hexdigest()


def canonical_trusted(value: Any) -> bytes:
    """`canonical` for a value known to hold no floats, only safe integers and str keys.

    Every GPP/3 payload is such a value once its schema has passed, so frames skip the float
    and integer scans: what is left is one C encode and a C-speed scan for non-BMP characters.
    """
    if _orjson is not None:  # `_fast_encode`'s orjson branch, inlined: once per frame
        try:
            out: bytes = _orjson.dumps(value, option=_ORJSON_OPTIONS)
        except TypeError:
            return canonical(value)
        return out if out.isascii() or not _has_astral(out) else canonical(value)
    fast = _fast_encode(value, trusted=True)
    return fast if fast is not None else canonical(value)


def _fast_encode(value: Any, trusted: bool = False) -> bytes | None:
    """C-encoded canonical bytes, or None where only the exact path is right."""
    if _orjson is not None:
        try:
            out: bytes = _orjson.dumps(value, option=_ORJSON_OPTIONS)
        except TypeError:  # non-str key, big int, surrogate, non-JSON type, too deep
            return None
        if not trusted and (
            _FLOAT_TOKEN.search(out)
            or (b"null" in out and _NULL_TOKEN.search(out))
            or out[:1] in _SCALAR_STARTS
        ):
            return None
        return None if _has_astral(out) else out
    try:
        text = json.dumps(
            value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
        )
        out = text.encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return None
    if not trusted:
        if _FLOAT_TOKEN.search(out) or _LONG_INT_TOKEN.search(out) or out[:1] in _SCALAR_STARTS:
            return None
        # json.dumps silently turns int/float/bool/None keys into strings; a round trip shows it
        if json.loads(text) != value:
            return None
    return None if _has_astral(out) else out


def _has_astral(utf8: bytes) -> bool:
    """Whether any character lies outside the BMP (the only ones JCS orders differently)."""
    return not utf8.isascii() and bool(utf8.translate(None, _BELOW_ASTRAL_LEAD))


def _exact(value: Any) -> str:
    """The definition. One stack frame per nesting level, so MAX_DEPTH levels fit the default
    recursion limit; hence loops below, not comprehensions (each would add a frame)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise ValueError(f"integer {value} is outside ±(2**53-1)")
        return str(int(value))
    if isinstance(value, float):
        return number(value)
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ValueError(f"object key {key!r} is not a string")
        members = []
        for key in sorted(value, key=_utf16_order):
            members.append(_string(key) + ":" + _exact(value[key]))
        return "{" + ",".join(members) + "}"
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            items.append(_exact(item))
        return "[" + ",".join(items) + "]"
    raise ValueError(f"{type(value).__name__} is not a JSON value")


def _utf16_order(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _string(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("string holds a lone surrogate") from None
    # The stdlib escapes exactly as ECMAScript JSON.stringify does: " \\ \b \f \n \r \t and
    # \u00xx (lowercase) for the other C0 controls, everything else raw.
    return json.dumps(text, ensure_ascii=False)


def number(value: float) -> str:
    """ECMAScript Number::toString for a finite double (RFC 8785 §3.2.2.3)."""
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{value} is not an I-JSON number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exp = repr(abs(value)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    # n: position of the decimal point relative to the start of `digits`
    n = len(whole) + int(exp or 0) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * -n + digits
    else:
        e = n - 1
        body = (
            digits[0]
            + ("." + digits[1:] if k > 1 else "")
            + "e"
            + ("+" if e > 0 else "-")
            + str(abs(e))
        )
    return sign + body


# ---------------------------------------------------------------------------- strict parsing


class JSONRejected(ValueError):
    """A received line is not acceptable I-JSON; `reason` says why in a few words.

    The one error every decoder of received bytes raises, whatever refused them (the grammar,
    a limit, or the decoder itself running out of digits, stack or memory): a caller that
    catches it has caught everything a line can do.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsafeInteger(JSONRejected):
    """An integer literal outside ±(2**53-1): well-formed JSON, but no value I-JSON carries.

    Its own class because GPP/3 names this fault `E_SCHEMA`, not `E_FRAME_JSON` (§3).
    """

    def __init__(self, literal: str) -> None:
        super().__init__(f"integer {literal} is outside ±(2**53-1)")
        self.literal = literal


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONRejected(f"duplicate key {json.dumps(key, ensure_ascii=False)}")
            seen.add(key)
    return obj


def _reject_constant(name: str) -> Any:
    raise JSONRejected(f"{name} is not an I-JSON number")


def _reject_huge_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JSONRejected(f"number {text} overflows a double")
    return value


_STRING_LITERAL = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_FOLD_BRACKETS = bytes.maketrans(b"{}", b"[]")
_BRACKET_RUN = re.compile(rb"\[+|\]+")
_PEEL_WORTH = 16
"""Peel another level only while the last pass removed at least 1/16 of what is left."""

_decoder = json.JSONDecoder(
    object_pairs_hook=_unique_pairs, parse_constant=_reject_constant, parse_float=_reject_huge_float
)
_decode: Callable[[str], Any] = _decoder.decode


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_SIXTEEN_DIGITS = b"0" * 16
"""A run of 16+ digits, the only integer literals that can pass 2**53-1, is found by mapping
every digit onto `0` and searching for sixteen of them: two C passes, several times cheaper
than a regex scan (which cost as much as the parse). A run inside a string is harmless: the
line is then parsed with the check that decides."""


def _safe_int(text: str) -> int:
    """`parse_int` for lines with long digit runs: refuses, before converting, what I-JSON
    forbids (so a 5,000-digit literal never meets `int`'s own 4,300-digit ValueError)."""
    digits = len(text) - (text[0] == "-")
    value = int(text) if digits <= 16 else None
    if value is None or not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        raise UnsafeInteger(text if len(text) <= 40 else f"{text[:20]}…({digits} digits)")
    return value


_checked_decode: Callable[[str], Any] = json.JSONDecoder(
    object_pairs_hook=_unique_pairs,
    parse_constant=_reject_constant,
    parse_float=_reject_huge_float,
    parse_int=_safe_int,
).decode


_HUGE_INT_TOKEN = re.compile(rb"[:\[,][ \t\r\n]*-?[0-9]{19}")
_HUGE_INT_FIRST = re.compile(rb"[ \t\r\n]*-?[0-9]{19}")  # .match: a top-level one
"""An integer literal of 19+ digits: orjson turns those past the 64-bit range into floats."""


def loads_fast(line: bytes) -> Any | None:
    """orjson's parse, or None when orjson is missing or refuses the line.

    Not strict on its own: duplicate keys pass (last wins) and the depth limit is 1024, so a
    caller must confirm with `loads_strict` unless the line proves to be canonical. Lines with
    huge integer literals go to the strict parser too, so `123456789012345680000` stays an
    integer (and its diagnostic says so) whichever path parsed it.
    """
    if _HUGE_INT_FIRST.match(line) or _HUGE_INT_TOKEN.search(line):
        return None
    return loads_unscreened(line)


def loads_unscreened(line: bytes | memoryview) -> Any | None:
    """`loads_fast` without its scan for huge integer literals, which costs a third of the
    parse on a multi-megabyte frame: such a literal comes back a float.

    For a caller that accepts no float where the line is judged (GPP/3 frames: no envelope
    field and no payload schema admits one) and re-judges every fault on `loads_strict`'s value.
    """
    if _orjson is None:
        return None
    try:
        return _orjson.loads(line)
    except _orjson.JSONDecodeError:
        return None


def loads_strict(line: bytes) -> Any:
    """Parse one received line as I-JSON, or raise JSONRejected naming the single cause.

    JSONRejected is the only exception it raises, for any input: integers outside ±(2**53-1)
    are refused while parsing (`UnsafeInteger`), and what the stdlib decoder itself could
    raise (RecursionError, MemoryError, a ValueError of its own) is mapped onto it.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONRejected(f"invalid UTF-8 at byte {exc.start}") from None
    if _nesting_exceeds(line, MAX_DEPTH):
        raise JSONRejected(f"nesting deeper than {MAX_DEPTH} levels")
    long_digits = _SIXTEEN_DIGITS in line.translate(_DIGITS_AS_ZERO)
    decode = _checked_decode if long_digits else _decode
    try:
        value = decode(text)
    except JSONRejected:
        raise
    except json.JSONDecodeError as exc:
        raise JSONRejected(f"{exc.msg} at column {exc.colno}") from None
    except RecursionError:  # pragma: no cover - _nesting_exceeds bounds the depth first
        raise JSONRejected("nesting too deep") from None
    except MemoryError:  # pragma: no cover - a line is capped far below what this needs
        raise JSONRejected("line too large to decode") from None
    except ValueError as exc:  # pragma: no cover - the decoder's own; none known left
        raise JSONRejected(f"not decodable: {exc}"[:200]) from None
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise JSONRejected("string holds a lone surrogate")
    return value


def _nesting_exceeds(line: bytes, limit: int) -> bool:
    """True when the JSON text nests deeper than `limit`; linear time, C-speed scans only.

    Strings are cut out, everything but brackets deleted and `{}` folded onto `[]` (a mismatched
    pair is the parser's to report; here only the depth counts). The depth is then the highest
    running sum of the bracket runs, +len for an opening run, -len for a closing one.

    The runs are counted in Python, so first whole innermost pairs are peeled off by
    `bytes.replace`, one level per pass, while that pays: a pass removes exactly one pair per
    peak (an opening run followed by a closing one), so while passes remove much, runs are
    many, and once a pass removes little (`_PEEL_WORTH`), few runs are left to count. Either
    way the work is a few passes over the line: a 4 MB `[[[…]]]` line took 512 regex passes
    (tens of seconds on the event loop) with the innermost-pairs loop this replaces.
    """
    if line.count(b"[") + line.count(b"{") <= limit:
        return False
    if b"\\" in line:  # escapes: only the full string-literal scan knows where strings end
        outside_strings = _STRING_LITERAL.sub(b"", line)
    else:  # without escapes, every other piece between quotes is a string's content
        outside_strings = b"".join(line.split(b'"')[::2])
    brackets = outside_strings.translate(_FOLD_BRACKETS, _NOT_BRACKETS)
    peeled = 0
    while len(brackets) + peeled > limit:  # else not even one run of all of them is too deep
        shorter = brackets.replace(b"[]", b"")
        removed = len(brackets) - len(shorter)
        if not removed:
            break
        brackets = shorter
        peeled += 1  # a pass that removes pairs k deep below them proves a depth of k + 1
        if peeled > limit:
            return True
        if removed * _PEEL_WORTH < len(brackets):
            break  # few peaks: few runs, counted below
    if len(brackets) + peeled <= limit:
        return False
    runs = list(map(len, _BRACKET_RUN.findall(brackets)))
    closing = 1 if brackets[:1] == b"[" else 0  # a closing run first: unbalanced, still counted
    runs[closing::2] = [-run for run in runs[closing::2]]
    return max(itertools.accumulate(runs)) + peeled > limit


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
