"""Config errors in the user's words: one line per problem, naming its TOML path.

pydantic says "Extra inputs are not permitted" or "Input should be a valid integer, unable to
parse string as an integer"; a person fixing a registry wants `defaults.request_timeout:
unknown key (did you mean request_ms?)` or `gateway.port: expected an integer, got the string
"x"`. Every kind of error pydantic raises for the config (unknown key, wrong type, missing,
out of range) is rendered here, from the error's type, location, context and input.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

TableKeys = Callable[[tuple[Any, ...]], list[str]]


def describe(error: Any, raw: dict[str, Any], table_keys: TableKeys) -> str:
    """`where: what` for one pydantic error on the file `raw`."""
    loc = tuple(error["loc"])
    what = _what(error, loc, table_keys)
    if error["type"] == "value_error" and ": " in what:  # "memory_mb: must be …" from a table
        key, _, what = what.partition(": ")
        loc = (*loc, key)
    return f"{_where(loc, raw)}: {what}"


def _where(loc: tuple[Any, ...], raw: dict[str, Any]) -> str:
    if len(loc) >= 2 and loc[0] == "plugin" and isinstance(loc[1], int):
        index = loc[1]
        entries = raw.get("plugin") or []
        entry = entries[index] if index < len(entries) else None
        entry_id = entry.get("id", "?") if isinstance(entry, dict) else "?"
        key = _dotted(loc[2:]) or "entry"
        return f"[[plugin]] #{index + 1} ({entry_id}): {key}"
    return _dotted(loc) or "file"


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(f"#{part + 1}" if isinstance(part, int) else str(part) for part in loc)


EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "dataclass_type": "a table",
    "dataclass_args_type": "a table",
}
REPLACED_KEYS = {
    "uid": "no longer a key: replaced by uid_range = [first, last], the range each plugin "
    "session takes a uid of its own from (one shared uid let one plugin exhaust the others' "
    "per-uid quotas); [N, N] is a single uid, for one live session at a time",
}
"""Keys an earlier release knew, and what to write instead."""
BOUNDS = {
    "greater_than": ("gt", "greater than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}


def _what(error: Any, loc: tuple[Any, ...], table_keys: TableKeys) -> str:
    kind, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
        if str(loc[-1]) in REPLACED_KEYS:
            return REPLACED_KEYS[str(loc[-1])]
        known = table_keys(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        return "unknown key" + (f" (did you mean {close[0]}?)" if close else "")
    if kind == "missing":
        return "required, and not given"
    if kind in EXPECTED:
        return f"expected {EXPECTED[kind]}, got {_toml(given)}"
    if kind == "literal_error":
        return f"expected {_as_toml(str(ctx.get('expected')))}, got {_toml(given)}"
    if kind in BOUNDS:
        name, words = BOUNDS[kind]
        return f"must be {words} {ctx.get(name)}, got {_toml(given)}"
    if kind in ("too_short", "string_too_short"):
        least = ctx.get("min_length", 1)
        unit = "character" if kind == "string_too_short" else "item"
        return f"must have at least {least} {unit}{'s' if least != 1 else ''}"
    if kind in ("too_long", "string_too_long"):
        unit = "characters" if kind == "string_too_long" else "items"
        return f"must have at most {ctx.get('max_length')} {unit}"
    if kind == "string_pattern_mismatch":
        return f"{_toml(given)} does not match {ctx.get('pattern')}"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    message: str = error["msg"]
    return message[:1].lower() + message[1:]


def _toml(value: Any) -> str:
    """The value as the user wrote it, with its TOML type."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _as_toml(python: str) -> str:
    """pydantic's `False or 'inherit'` as TOML writes it: `false or "inherit"`."""
    python = re.sub(r"\bFalse\b", "false", re.sub(r"\bTrue\b", "true", python))
    return re.sub(r"'([^']*)'", r'"\1"', python)


def keys_of(table: Any) -> list[str]:
    """The keys a table type accepts: a pydantic model's fields, or a dataclass's."""
    if isinstance(table, type) and issubclass(table, BaseModel):
        return list(table.model_fields)
    if dataclasses.is_dataclass(table):
        return [field.name for field in dataclasses.fields(table)]
    return []
