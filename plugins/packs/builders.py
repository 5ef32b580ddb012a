"""Document pieces every pack builds the same way: locations, duplicate findings, the pii signal.

Shared so the three packs word and order them alike: an engine compares their findings across
plugins, and a reader of two documents should not meet two spellings of one fact.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .scan_document import JSONObject, at

DUPLICATE_TABLE_NAME = "DUPLICATE_TABLE_NAME"
DUPLICATE_ROUTE = "DUPLICATE_ROUTE"

# A column looks personal when its name, split into lower-case words (snake_case and camelCase
# both split), holds one of these words or these runs of words. Names only: no data is read.
PERSONAL_WORDS = frozenset(
    {
        "email", "phone", "mobile", "telephone", "address", "street", "postcode", "zipcode",
        "birthday", "birthdate", "dob", "ssn", "passport", "firstname", "lastname",
        "fullname", "surname", "ip", "iban",
    }
)  # fmt: skip
PERSONAL_PHRASES: tuple[tuple[str, ...], ...] = (
    ("first", "name"), ("last", "name"), ("full", "name"), ("given", "name"),
    ("family", "name"), ("birth", "date"), ("date", "of", "birth"), ("postal", "code"),
    ("zip", "code"), ("social", "security"), ("national", "id"), ("tax", "id"),
    ("credit", "card"), ("card", "number"), ("e", "mail"),
)  # fmt: skip
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def location(path: str, line: int) -> JSONObject:
    return {"path": path, "line": line}


_PHRASES = "|".join("_".join(phrase) for phrase in PERSONAL_PHRASES)
_PHRASE = re.compile(rf"(?:^|_)(?:{_PHRASES})(?:_|$)")


@functools.lru_cache(maxsize=4096)  # column names repeat across models and discovers
def looks_personal(column: str) -> bool:
    words = [w.lower() for w in _WORD.findall(column)]
    return not PERSONAL_WORDS.isdisjoint(words) or _PHRASE.search("_".join(words)) is not None


def pii_value(columns: Iterable[str]) -> str:
    """The `pii` signal's value: the personal-looking column names, sorted, comma-joined ("" for none)."""
    return ",".join(sorted({c for c in columns if looks_personal(c)}))


def signal(kind: str, name: str, key: str, value: Any, source: JSONObject) -> JSONObject:
    return {"resource": f"{kind}:{name}", "signal": key, "value": value, "source": source}


def duplicate_findings(
    code: str, noun: str, claims: Mapping[str, Sequence[JSONObject]]
) -> list[JSONObject]:
    """One finding per name claimed more than once, listing every claim's location in order.

    The detail reads as the reference detector's does: "table users is defined 2 times".
    """
    return [
        {
            "code": code,
            "detail": f"{noun} {name} is defined {len(locations)} times",
            "locations": sorted(locations, key=at),
        }
        for name, locations in claims.items()
        if len(locations) > 1
    ]
