"""JavaScript's string methods on strings the linker knows, for names a project spells from
its own (`stem.replace(head, head.toLowerCase())`, `file.split('/')[1]`, `leaf.slice(0, -3)`).

The reader (`js_pushed`) keeps such a call as `Apply(Member(base, (method,)), args)` (`split`
with an index read after it: `Member(base, ("split", "1"))`); the linker evaluates the base
and the arguments and asks `applied` here. Only what ECMAScript defines the same for every
input is computed: a `replace` whose replacement spells a `$` pattern, a regular expression
with groups, alternations or counted repeats, an argument of the wrong kind, answer None (the
value is not known, so what uses it stays a finding). Every result is capped at
`bounded_values.MAX_LENGTH`, and a regular expression is matched only on a capped string, with
at most `_MAX_REPEATS` repeats, so a hostile repository cannot make the linker work long.
"""

from __future__ import annotations

import re

from ..bounded_values import MAX_LENGTH

# the methods read, each with how many arguments it takes (at least, at most)
METHODS: dict[str, tuple[int, int]] = {
    "replace": (2, 2),
    "replaceAll": (2, 2),
    "charAt": (0, 1),
    "slice": (0, 2),
    "substring": (1, 2),
    "toUpperCase": (0, 0),
    "toLowerCase": (0, 0),
    "trim": (0, 0),
    "trimStart": (0, 0),
    "trimEnd": (0, 0),
    "split": (1, 1),  # only with an index after it: `s.split('/')[1]`
    "concat": (0, 8),
}
SPLIT = "split"
_REGEX_TOKEN = re.compile(r"\x00([0-9a-f]*)\.([a-z]*)\x00")  # `paths.regex_token`'s stand-in
_SIMPLE_REGEX = re.compile(r"(?:\\[^0-9bBkpPuxc]|\[(?:\\.|[^\]\\])*\]|[^\\()|{}\[])*")
_MAX_REPEATS = 2
_JS_SPACE = " \t\n\r\v\f\u00a0\ufeff\u2028\u2029"


def is_method(path: tuple[str, ...]) -> bool:
    """Whether a `Member` path names a method read here (`("trim",)`, `("split", "1")`)."""
    if len(path) == 1:
        return path[0] in METHODS and path[0] != SPLIT
    return len(path) == 2 and path[0] == SPLIT and path[1].isdigit()


def applied(path: tuple[str, ...], base: str, args: list[str]) -> str | None:
    """`base.<method>(*args)` as JavaScript computes it; None where that is not certain (an
    index past the end of a split, a pattern not read) or the result is past the cap."""
    method = path[0]
    least, most = METHODS.get(method, (1, 0))
    if not least <= len(args) <= most or len(base) > MAX_LENGTH:
        return None
    result = _applied(method, path[1:], base, args)
    return result if result is not None and len(result) <= MAX_LENGTH else None


def _applied(method: str, rest: tuple[str, ...], base: str, args: list[str]) -> str | None:
    if method in {"toUpperCase", "toLowerCase"}:
        return base.upper() if method == "toUpperCase" else base.lower()
    if method in {"trim", "trimStart", "trimEnd"}:
        if method == "trim":
            return base.strip(_JS_SPACE)
        return base.lstrip(_JS_SPACE) if method == "trimStart" else base.rstrip(_JS_SPACE)
    if method == "concat":
        return base + "".join(args) if sum(map(len, args)) <= MAX_LENGTH else None
    if method in {"replace", "replaceAll"}:
        return _replaced(base, args[0], args[1], every=method == "replaceAll")
    if method == SPLIT:
        if _REGEX_TOKEN.search(args[0]):
            return None
        parts = list(base) if args[0] == "" else base.split(args[0])
        index = int(rest[0])
        return parts[index] if index < len(parts) else None  # past the end: `undefined`
    numbers = [_integer(a) for a in args]
    if any(n is None for n in numbers):
        return None
    given = [n for n in numbers if n is not None]
    if method == "charAt":
        at = given[0] if given else 0
        return base[at] if 0 <= at < len(base) else ""
    if method == "slice":  # negative indexes count from the end, as Python's do
        return base[given[0] : given[1]] if len(given) == 2 else base[given[0] :] if given else base
    # `substring`: negative is 0, past the end is the end, the lower index first
    ends = [min(max(n, 0), len(base)) for n in given]
    start, end = ends[0], ends[1] if len(ends) == 2 else len(base)
    return base[min(start, end) : max(start, end)]


def _integer(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _replaced(base: str, pattern: str, replacement: str, *, every: bool) -> str | None:
    """`replace`/`replaceAll` with a string pattern (the first occurrence, or each), or with a
    simple regular expression literal (`/\\.js$/`, flags `g` and `i` only)."""
    if "$" in replacement:  # `$&`, `$1`, `$$`: patterns this does not expand
        return None
    token = _REGEX_TOKEN.fullmatch(pattern)
    if token is None:
        if _REGEX_TOKEN.search(pattern):
            return None
        return base.replace(pattern, replacement, -1 if every else 1)
    source, flags = bytes.fromhex(token.group(1)).decode(), token.group(2)
    if set(flags) - {"g", "i"} or (every and "g" not in flags):
        return None  # `replaceAll` with a non-global expression throws
    if not _SIMPLE_REGEX.fullmatch(source) or _repeats(source) > _MAX_REPEATS:
        return None
    try:
        compiled = re.compile(source, re.IGNORECASE if "i" in flags else 0)
    except re.error:
        return None
    return compiled.sub(lambda _: replacement, base, count=0 if "g" in flags else 1)


def _repeats(source: str) -> int:
    return sum(source.count(q) for q in "*+?")
