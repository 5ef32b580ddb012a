"""Version ranges: what a specifier admits, as a union of intervals of release numbers.

Pure functions of a specifier's text, for `declared_versions`: PEP 440 (`==2.4.0`, `>=2,<3`,
`~=2.4`, `==2.*`; `!=` restricts nothing), npm ranges (`^5.0.0`, `~4.2`, `5.x`, `a - b`, `||`,
`npm:pkg@range`) and Poetry's (npm-like, or PEP 440 where it uses `==`, `!=`, `~=`). What cannot
be read (a URL, a path, a dist-tag) admits every version. Pre-release and post-release tags are
read as their release (`3.0.0rc1` as `3.0.0`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Version = tuple[int, ...]


@dataclass(frozen=True, order=True)
class Interval:
    """Versions from `low` to `high` (None: unbounded), each end included when `*_closed`."""

    low: Version | None
    low_closed: bool
    high: Version | None
    high_closed: bool

    def is_empty(self) -> bool:
        if self.low is None or self.high is None:
            return False
        return self.low > self.high or (
            self.low == self.high and not (self.low_closed and self.high_closed)
        )


ANY = (Interval(None, False, None, False),)


@dataclass(frozen=True)
class Range:
    """A union of intervals of versions: what a specifier admits."""

    intervals: tuple[Interval, ...]

    def intersect(self, other: Range) -> Range:
        found = []
        for a in self.intervals:
            for b in other.intervals:
                low, low_closed = _tighter_low(a, b)
                high, high_closed = _tighter_high(a, b)
                interval = Interval(low, low_closed, high, high_closed)
                if not interval.is_empty():
                    found.append(interval)
        return Range(tuple(sorted(set(found), key=_interval_key)))

    def union(self, other: Range) -> Range:
        return Range(tuple(sorted(set(self.intervals + other.intervals), key=_interval_key)))

    def is_empty(self) -> bool:
        return not self.intervals

    def admits_below(self, bound: Version) -> bool:
        """Whether some admitted version is lower than `bound`."""
        bound = normal(bound)
        return any(i.low is None or i.low < bound for i in self.intervals)

    def admits_from(self, bound: Version) -> bool:
        """Whether some admitted version is `bound` or higher."""
        bound = normal(bound)
        return any(
            i.high is None or i.high > bound or (i.high == bound and i.high_closed)
            for i in self.intervals
        )


EVERY = Range(ANY)


def _interval_key(i: Interval) -> tuple[object, ...]:
    return (i.low is not None, i.low or (), not i.low_closed, i.high is None, i.high or ())


def _tighter_low(a: Interval, b: Interval) -> tuple[Version | None, bool]:
    if a.low is None:
        return b.low, b.low_closed
    if b.low is None or a.low > b.low:
        return a.low, a.low_closed
    if b.low > a.low:
        return b.low, b.low_closed
    return a.low, a.low_closed and b.low_closed


def _tighter_high(a: Interval, b: Interval) -> tuple[Version | None, bool]:
    if a.high is None:
        return b.high, b.high_closed
    if b.high is None or a.high < b.high:
        return a.high, a.high_closed
    if b.high < a.high:
        return b.high, b.high_closed
    return a.high, a.high_closed and b.high_closed


_VERSION = re.compile(r"\s*[vV]?=?\s*(\d+(?:\.\d+)*)")


def normal(version: Version) -> Version:
    """The version with trailing zeros dropped, so `3` and `3.0.0` compare equal."""
    end = len(version)
    while end > 1 and version[end - 1] == 0:
        end -= 1
    return version[:end]


def parse_version(text: str) -> Version | None:
    """The release part of a version (`2.4.0rc1` → (2, 4)); None when it starts with none."""
    match = _VERSION.match(text)
    return normal(tuple(int(p) for p in match.group(1).split("."))) if match else None


def exactly(version: Version) -> Range:
    return Range((Interval(version, True, version, True),))


def _between(low: Version, high: Version) -> Range:
    return Range((Interval(normal(low), True, normal(high), False),))


def _bump(version: Version, index: int) -> Version:
    """`version` cut after `index` with that part raised by one (1.2.3, 0 → 2)."""
    padded = version + (0,) * (index + 1 - len(version))
    return (*padded[:index], padded[index] + 1)


_PEP440_CLAUSE = re.compile(r"\s*(===|==|!=|~=|>=|<=|>|<)\s*(\S+?)\s*$")


def pep440(spec: str) -> Range:
    """What a PEP 440 specifier (`>=2.0,<3`, `~=2.4`, `==2.*`) admits; `!=` and what cannot be
    read (or past `MAX_SPECIFIER`) admit every version."""
    admits = EVERY
    if len(spec) > MAX_SPECIFIER:
        return admits
    for clause in spec.split(","):
        if clause.strip():
            admits = admits.intersect(_pep440_clause(clause))
    return admits


def _pep440_clause(clause: str) -> Range:
    match = _PEP440_CLAUSE.match(clause)
    if match is None:
        return EVERY
    op, text = match.groups()
    version = parse_version(text)
    if version is None or op == "!=":
        return EVERY
    if op in ("==", "===") and text.endswith(".*"):
        digits = tuple(int(p) for p in text[:-2].split(".") if _digits(p))
        return _between(digits, _bump(digits, len(digits) - 1)) if digits else EVERY
    if op in ("==", "==="):
        return exactly(version)
    if op == "~=":
        parts = _VERSION.match(text)
        count = len(parts.group(1).split(".")) if parts else 1
        return _between(version, _bump(version, max(count - 2, 0)))
    return _comparison(op, version)


def _comparison(op: str, version: Version) -> Range:
    if op == ">=":
        return Range((Interval(version, True, None, False),))
    if op == ">":
        return Range((Interval(version, False, None, False),))
    if op == "<=":
        return Range((Interval(None, False, version, True),))
    if op == "<":
        return Range((Interval(None, False, version, False),))
    return exactly(version)


# the `||` alternatives of an npm range read at most: past them it admits every version
MAX_ALTERNATIVES = 256
_SEMVER_PART = re.compile(r"\s*(\^|~>?|>=|<=|>|<|=)?\s*[vV]?([0-9xX*]+(?:\.[0-9xX*]+)*)")


MAX_SPECIFIER = 256
"""Characters of a specifier read; a longer one admits every version, as one not read: a
package.json range of 30,000 `||` alternatives was merged in quadratic time, past
`request_ms`."""


def semver(spec: str) -> Range:
    """What an npm (or Poetry) range admits: `||` alternatives of space-separated comparators,
    `^`, `~`, `1.x`, `*`, `a - b`; Poetry's commas as spaces; `npm:pkg@range` aliases read as
    their range. What cannot be read (a URL, a path, a tag, a range past `MAX_SPECIFIER`)
    admits every version, and so does a range of more than `MAX_ALTERNATIVES` alternatives (a
    hostile lock's: each intersection with it costs their product)."""
    spec = spec.strip()
    if len(spec) > MAX_SPECIFIER:
        return EVERY
    if spec.startswith("npm:"):
        spec = spec.rpartition("@")[2]
    alternatives = spec.split("||", MAX_ALTERNATIVES)
    if len(alternatives) > MAX_ALTERNATIVES:
        return EVERY
    intervals = [i for a in alternatives for i in _semver_set(a.replace(",", " ")).intervals]
    return Range(tuple(sorted(set(intervals), key=_interval_key)))


def _semver_set(text: str) -> Range:
    text = text.strip()
    if not text or text in ("*", "latest", "x", "X"):
        return EVERY
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen:
        low, high = (_partial(p) for p in hyphen.groups())
        if low is None or high is None:
            return EVERY
        top = Range((Interval(None, False, normal(high[0]), True),))
        if len(high[0]) < high[1]:  # `1 - 2` admits every 2.x
            top = Range((Interval(None, False, _bump(high[0], len(high[0]) - 1), False),))
        return Range((Interval(normal(low[0]), True, None, False),)).intersect(top)
    admits = EVERY
    position = 0
    while position < len(text):
        match = _SEMVER_PART.match(text, position)
        if match is None or match.end() == position:
            return EVERY  # a URL, a path, a dist-tag
        position = match.end()
        admits = admits.intersect(_semver_comparator(match.group(1) or "", match.group(2)))
    return admits


def _partial(text: str) -> tuple[Version, int] | None:
    """The digits given before any wildcard, and how many parts the full form has (3)."""
    parts = text.lstrip("vV=").split(".")
    digits: list[int] = []
    for part in parts:
        if not _digits(part):
            break
        digits.append(int(part))
    return (tuple(digits), 3) if digits or parts[0] in ("*", "x", "X") else None


def _digits(part: str) -> bool:
    """Whether `int` reads `part` as the digits it is: `str.isdigit` also accepts `²`, which
    `int` refuses (a `ValueError` out of the reader)."""
    return part.isascii() and part.isdigit()


def _semver_comparator(op: str, text: str) -> Range:
    partial = _partial(text)
    if partial is None:
        return EVERY
    digits = partial[0]
    if not digits:
        return EVERY  # `*`, `x`
    if op == "^":
        nonzero = next((i for i, d in enumerate(digits) if d != 0), len(digits) - 1)
        return _between(digits, _bump(digits, nonzero))
    if op.startswith("~"):
        return _between(digits, _bump(digits, min(1, len(digits) - 1)))
    if op in ("", "="):
        if len(digits) < 3:  # `1.2` is `1.2.x`
            return _between(digits, _bump(digits, len(digits) - 1))
        return exactly(normal(digits))
    if len(digits) < 3 and op in (">", "<="):  # `>1.2` is `>=1.3`, `<=1.2` is `<1.3`
        bumped = _bump(digits, len(digits) - 1)
        return _comparison(">=" if op == ">" else "<", bumped)
    return _comparison(op, normal(digits))


def poetry(spec: str) -> Range:
    """A Poetry constraint: npm-like (`^2.4`, `~2.4`, `2.*`, `>=2,<3`, `2.4.0`, `||`), or PEP
    440 where it uses an operator only PEP 440 has (`==`, `!=`, `~=`)."""
    if re.search(r"==|!=|~=", spec):
        return pep440(spec)
    return semver(spec)
