"""Strict payload schemas of GPP/3 (DESIGN.md §3), as data, checked by a few small combinators.

A check raises `Violation` naming the first fault; the field path is assembled while the
exception unwinds, so the happy path builds no strings at all.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from gpp.core.canonical_json import MAX_SAFE_INTEGER

MAX_PATHS = 10_000
MAX_REQUEST_ID = 128
REASONS = ("not-found", "unreadable", "unsupported", "parse-error", "too-large")


class Violation(Exception):
    """One schema fault: `problem` (e.g. "missing"), what was expected and what came."""

    def __init__(self, problem: str, expected: str | None = None, got: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.expected = expected
        self.got = got
        self._segments: list[str | int] = []

    def at(self, segment: str | int) -> Violation:
        self._segments.insert(0, segment)
        return self

    @property
    def field(self) -> str:
        text = ""
        for seg in self._segments:
            text += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if text else seg)
        return text


def describe(value: Any) -> str:
    """How a received value is named in a diagnostic: its JSON type, and short scalars."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:39] + "…"
        return f"string {shown!r}"
    if isinstance(value, list):
        return f"array of {len(value)}"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


class Spec:
    """A named check: `expected` is how the diagnostic names a valid value.

    `free`: the types of which every value is valid here (`str` for a plain string field), so
    containers skip the call for those (the checks run once per value of multi-megabyte
    results; calls are what they cost).
    """

    __slots__ = ("accepts", "check", "expected", "free", "keys")

    def __init__(
        self,
        expected: str,
        check: Callable[[Any], None],
        free: tuple[type, ...] = (),
        accepts: Accepts | None = None,
        keys: tuple[str, ...] = (),
    ) -> None:
        self.expected = expected
        self.check = check
        self.free = free
        self.accepts = accepts
        self.keys = keys
        """A record's required keys (`gpp.core.piecewise` finds where one record ends by them)."""


class Accepts(NamedTuple):
    """A Python condition true only of valid values, for a record to inline instead of calling
    `check`: `{v}` stands for the value, `{n}` prefixes the names of `names` (objects the
    condition uses), so two fields' names cannot clash. False may still be valid: `check`
    decides."""

    condition: str
    names: Mapping[str, Any] = {}


def _is_int(value: Any) -> bool:
    return type(value) is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER


def _check_string(value: Any) -> None:
    if type(value) is not str:
        raise Violation("has the wrong type", "string", describe(value))


def _check_scalar(value: Any) -> None:
    kind = type(value)
    if (
        kind is str
        or kind is bool
        or (kind is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER)
    ):
        return
    raise Violation("has the wrong type", "string, integer or boolean", describe(value))


STRING = Spec("string", _check_string, free=(str,))
SCALAR = Spec("string, integer or boolean", _check_scalar, free=(str, bool))


def positive_int() -> Spec:
    def check(value: Any) -> None:
        if type(value) is int and 0 < value <= MAX_SAFE_INTEGER:
            return
        if not _is_int(value) or value < 1:
            raise Violation(
                "has the wrong value" if _is_int(value) else "has the wrong type",
                "integer >= 1",
                describe(value),
            )

    return Spec(
        "integer >= 1",
        check,
        accepts=Accepts(f"type({{v}}) is int and 0 < {{v}} <= {MAX_SAFE_INTEGER}"),
    )


def matching(expected: str, pattern: str) -> Spec:
    regex = re.compile(pattern)

    def check(value: Any) -> None:
        if type(value) is not str:
            raise Violation("has the wrong type", expected, describe(value))
        if not regex.fullmatch(value):
            raise Violation("has the wrong value", expected, describe(value))

    accepts = Accepts("type({v}) is str and {n}regex.fullmatch({v})", {"regex": regex})
    return Spec(expected, check, accepts=accepts)


def one_of(*choices: str) -> Spec:
    expected = "one of " + ", ".join(f'"{c}"' for c in choices)
    allowed = frozenset(choices)

    def check(value: Any) -> None:
        if type(value) is not str:
            raise Violation("has the wrong type", expected, describe(value))
        if value not in allowed:
            raise Violation("has the wrong value", expected, describe(value))

    return Spec(
        expected,
        check,
        accepts=Accepts("type({v}) is str and {v} in {n}allowed", {"allowed": allowed}),
    )


def array(item: Spec, *, min_items: int = 0, max_items: int | None = None) -> Spec:
    expected = "array" if not min_items else f"array of at least {min_items}"
    check_item = item.check
    free = item.free

    def check(value: Any) -> None:
        if type(value) is not list:
            raise Violation("has the wrong type", expected, describe(value))
        if len(value) < min_items:
            raise Violation("is too short", expected, describe(value))
        if max_items is not None and len(value) > max_items:
            raise Violation("is too long", f"at most {max_items} items", describe(value))
        try:
            if free:
                for element in value:
                    if type(element) not in free:
                        check_item(element)
            else:  # arrays of records: no free type to test first
                for element in value:
                    check_item(element)
        except Violation:
            for index, element in enumerate(value):  # again, counting, to name the item
                try:
                    check_item(element)
                except Violation as exc:
                    raise exc.at(index) from None
            raise

    # An empty list is valid unless items are required: a record inlines that test (results
    # often hold an empty array or three, each of which would otherwise cost a call).
    accepts = None if min_items else Accepts("type({v}) is list and not {v}")
    return Spec(expected, check, accepts=accepts)


def mapping(values: Spec) -> Spec:
    """An object with free string keys (attrs)."""
    check_value = values.check
    free = values.free

    def check(value: Any) -> None:
        if type(value) is not dict:
            raise Violation("has the wrong type", "object", describe(value))
        for key, element in value.items():
            if type(key) is not str:
                raise Violation("has a key that is not a string", "string keys", describe(key))
            if type(element) in free:
                continue
            try:
                check_value(element)
            except Violation as exc:
                raise exc.at(key) from None

    return Spec("object", check)


def _fast_record(
    required: Mapping[str, Spec], named: Callable[[Any], None]
) -> Callable[[Any], None]:
    """The record's check for the happy path, as one generated straight-line function.

    A record is checked once per value of results that hold hundreds of thousands of them, and
    what the profile shows is calls: a loop over the fields, a call per field check. Here each
    field is one inline condition (its type, or its spec's `accepts`), calling the field's
    check only when that is false. Anything unusual (not a dict, a missing key, a field's
    check failing, a key count other than the required ones) goes to `named`, the full check,
    which accepts optional fields and names the fault.
    """
    namespace: dict[str, Any] = {"named": named, "Violation": Violation}
    body = [
        "def check(value):",
        "    try:",
        "        if type(value) is not dict: return named(value)",
    ]
    for index, (key, spec) in enumerate(required.items()):
        prefix = f"f{index}_"
        namespace[prefix + "check"] = spec.check
        body.append(f"        element = value[{key!r}]")
        if spec.accepts is not None:
            condition = spec.accepts.condition.format(v="element", n=prefix)
            namespace.update({prefix + name: obj for name, obj in spec.accepts.names.items()})
        elif len(spec.free) == 1:
            condition, namespace[prefix + "free"] = f"type(element) is {prefix}free", spec.free[0]
        elif spec.free:
            condition, namespace[prefix + "free"] = f"type(element) in {prefix}free", spec.free
        else:
            body.append(f"        {prefix}check(element)")
            continue
        body.append(f"        if not ({condition}): {prefix}check(element)")
    body += [
        f"        if len(value) == {len(required)}: return",
        "    except (KeyError, Violation):",
        "        pass",
        "    named(value)",
    ]
    source = "\n".join(body) + "\n"
    exec(
        compile(source, "<gpp.core.schema record>", "exec"), namespace
    )  # source built above, no input
    check: Callable[[Any], None] = namespace["check"]
    return check


def record(required: Mapping[str, Spec], optional: Mapping[str, Spec] | None = None) -> Spec:
    """An object with exactly these keys: every required one, any optional one, nothing else."""
    fields = tuple((key, spec.check, spec.free) for key, spec in required.items())
    optional = dict(optional or {})
    allowed = frozenset(required) | frozenset(optional)
    size = len(required)

    def named(value: Any) -> None:
        """The full check, one field at a time, naming the field at fault."""
        if type(value) is not dict:
            raise Violation("has the wrong type", "object", describe(value))
        try:  # one handler for the loop: entering it per field is what a tight loop notices
            for key, check_field, free in fields:
                element = value[key]
                if type(element) not in free:
                    check_field(element)
        except KeyError:
            if key in value:
                raise
            raise Violation("missing", required[key].expected, None).at(key) from None
        except Violation as exc:
            raise exc.at(key) from None
        if len(value) != size:
            for key, element in value.items():
                if key in optional:
                    try:
                        optional[key].check(element)
                    except Violation as exc:
                        raise exc.at(key) from None
                elif key not in allowed:
                    raise Violation("is not allowed", "no such field", describe(element)).at(key)

    return Spec("object", _fast_record(required, named), keys=tuple(required))


# ------------------------------------------------------------------------------ repo paths

_DRIVE = re.compile(r"[A-Za-z]:")


def path_problem(path: Any) -> str | None:
    """The rule a repo-relative path breaks, or None when it is valid (DESIGN.md §3)."""
    if type(path) is not str:
        return f"must be a string, got {describe(path)}"
    if path == ".":
        return None
    if not path:
        return "must not be empty"
    if "\x00" in path:
        return "must not contain NUL"
    if "\\" in path:
        return "must not contain a backslash"
    if path.startswith("/"):
        return "must be relative (no leading /)"
    if _DRIVE.match(path):
        return "must not start with a drive letter"
    for segment in path.split("/"):
        if segment == "":
            return "must not contain an empty segment"
        if segment in (".", ".."):
            return f"must not contain a {segment!r} segment"
    return None


class _ValidPathCache:
    """Paths already found valid: a result names the same few files thousands of times, and a
    set lookup is ~4x cheaper than re-checking the rules (534 vs 2,135 ns a path).

    Bounded by bytes, not entries: paths come from hostile requests too, and an entry bound
    let 65,536 one-MiB paths pin 64 GiB. Long paths are never kept (they are rare, and one
    would evict thousands of short ones); when the byte budget is spent, the cache starts over.
    """

    def __init__(self, max_bytes: int = 4 * 1024 * 1024, max_path_chars: int = 1024) -> None:
        self.max_bytes = max_bytes
        self.max_path_chars = max_path_chars
        self._string_bytes = 0
        self.paths: set[str] = set()
        """Read directly by the path check: a method call per path is what this saves."""

    @property
    def bytes(self) -> int:
        """Memory held: the strings and the set's own table."""
        return self._string_bytes + sys.getsizeof(self.paths)

    def __contains__(self, path: str) -> bool:
        return path in self.paths

    def add(self, path: str) -> None:
        if len(path) > self.max_path_chars or path in self.paths:
            return
        self.paths.add(path)
        self._string_bytes += sys.getsizeof(path)
        if self.bytes > self.max_bytes:  # checked after the add: the table may have grown
            self.paths = {path}  # a fresh set; clear() would keep the grown table
            self._string_bytes = sys.getsizeof(path)


VALID_PATHS = _ValidPathCache()


def _check_path(value: Any) -> None:
    if type(value) is str and value in VALID_PATHS.paths:
        return
    problem = path_problem(value)
    if problem is None:
        VALID_PATHS.add(value)
    else:
        raise Violation(
            f"is not a repo-relative path ({problem})", "repo-relative path", describe(value)
        )


PATH = Spec(
    "repo-relative path",
    _check_path,
    accepts=Accepts("type({v}) is str and {v} in {n}cache.paths", {"cache": VALID_PATHS}),
)
REQUEST_ID = matching(f"string of 1..{MAX_REQUEST_ID} chars", rf"(?s).{{1,{MAX_REQUEST_ID}}}")

LOCATION = record({"path": PATH, "line": positive_int()})
RESOURCE = record({"kind": STRING, "name": STRING, "location": LOCATION, "attrs": mapping(SCALAR)})
UNRESOLVED = record({"path": PATH, "reason": one_of(*REASONS), "detail": STRING})
FINDING = record(
    {
        "code": matching("UPPER_SNAKE code", r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"),
        "detail": STRING,
        "locations": array(LOCATION),
    }
)
SIGNAL = record(
    {
        "resource": matching('"<kind>:<name>"', r"(?s)[^:]+:.+"),
        "signal": STRING,
        "value": SCALAR,
        "source": LOCATION,
    }
)
RESULT_ITEMS = {
    "resources": RESOURCE,
    "unresolved": UNRESOLVED,
    "findings": FINDING,
    "classificationSignals": SIGNAL,
}
"""The item of each array of a result document (`gpp.core.piecewise` checks them batch by batch)."""
DOCUMENT_FIELDS = {key: array(item) for key, item in RESULT_ITEMS.items()}
DOCUMENT = record(DOCUMENT_FIELDS)
"""What a plugin's `discover` handler returns: the result payload without its requestId."""


def _capabilities_check(value: Any) -> None:
    _CAPABILITY_LIST.check(value)
    if "discover" not in value:
        raise Violation('lacks "discover"', 'array containing "discover"', describe(value))
    seen: set[str] = set()
    for capability in value:
        if capability in seen:
            raise Violation("repeats a capability", "distinct strings", describe(capability))
        seen.add(capability)


_CAPABILITY_LIST = array(STRING, min_items=1)

# The payload of each GPP/3 message type; `gpp.core.catalog` gives each its row.
HELLO_PAYLOAD = record(
    {"capabilities": Spec('non-empty array containing "discover"', _capabilities_check)}
)
EMPTY_PAYLOAD = record({})
# DISCOVER_PAYLOAD is built from the contract, at the end of this module (`from_contract`)
RESULT_PAYLOAD = record({"requestId": REQUEST_ID, **DOCUMENT_FIELDS})
ERROR_PAYLOAD = record({"code": STRING, "message": STRING}, optional={"requestId": REQUEST_ID})


# ------------------------------------------------------------------- specs from the contract

CONTRACT_PATH = Path(__file__).with_name("contract") / "gpp3.json"
"""GPP/3 as data (`docs/protocol-changes.md`), shipped in the package."""
CONTRACT: Mapping[str, Any] = json.loads(CONTRACT_PATH.read_bytes())


def _string_from_contract(spec: Mapping[str, Any]) -> Spec:
    if "enum" in spec:
        return one_of(*spec["enum"])
    if "pattern" in spec:
        return matching(spec["expected"], spec["pattern"])
    if "maxLength" in spec:
        low, high = spec.get("minLength", 0), spec["maxLength"]
        return matching(f"string of {low}..{high} chars", rf"(?s).{{{low},{high}}}")
    return STRING


def from_contract(spec: Mapping[str, Any], types: Mapping[str, Any] | None = None) -> Spec:
    """The check a contract spec describes (`payloads`, `types`, the gateway's
    `discoverRequest`), built from the combinators above as the Node SDK's `fromContract`
    builds its own, so both give the same verdict. `types`: what a `ref` names (gpp3.json's,
    unless given). Raises `ValueError` for a spec no combinator checks, at import, not on a
    frame."""
    named = CONTRACT["types"] if types is None else types
    if "ref" in spec:
        return from_contract(named[spec["ref"]], named)
    kind = spec.get("type")
    if kind == "string":
        return _string_from_contract(spec)
    if kind == "scalar":
        return SCALAR
    if kind == "path":
        return PATH
    if kind == "integer" and spec.get("minimum") == 1:
        return positive_int()
    if kind == "map":
        return mapping(from_contract(spec["values"], named))
    if kind == "array" and "contains" not in spec and not spec.get("unique"):
        item = from_contract(spec["items"], named)
        return array(item, min_items=spec.get("minItems", 0), max_items=spec.get("maxItems"))
    if kind == "object" and "extends" not in spec:
        required = {key: from_contract(field, named) for key, field in spec["required"].items()}
        optional = {key: from_contract(f, named) for key, f in spec.get("optional", {}).items()}
        return record(required, optional)
    raise ValueError(f"gpp3.json: no check for {json.dumps(spec)}")


DISCOVER_PAYLOAD = from_contract(CONTRACT["payloads"]["discover"])
"""The `discover` frame's payload, as the contract says: adding a field there adds it here
(the recipe in `docs/protocol-changes.md`)."""
