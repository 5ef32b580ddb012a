"""What each request asks, and how to tell whether an answer belongs to it."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .rawhttp import Reply

GFX_FILES = 40  # the generated repository: fNN.gfx holds table tNN and route GET /tNN


def echo_name(paths: list[str]) -> str:
    """What soak_hostile.py names its one resource: the count and digest of the paths."""
    digest = hashlib.sha256("\n".join(paths).encode()).hexdigest()
    return f"{len(paths)}:{digest}"


@dataclass
class Planned:
    """A request and what a correct answer to it contains."""

    plugin: str
    request_id: str
    paths: list[str]
    faults: list[str]
    check: Callable[[dict[str, Any]], str | None]  # None when the document fits the request

    @property
    def body(self) -> bytes:
        return json.dumps({"requestId": self.request_id, "paths": self.paths}).encode()


def plan_reference(plugin: str, rid: str, rng: random.Random) -> Planned:
    """Some generated .gfx files plus a missing path unique to this request."""
    picked = sorted(rng.sample(range(GFX_FILES), rng.randint(1, 4)))
    gone = f"gone/{rid}.gfx"
    want_resources = sorted(
        (f"f{i:02}.gfx", name) for i in picked for name in (f"t{i:02}", f"GET /t{i:02}")
    )

    def check(doc: dict[str, Any]) -> str | None:
        got = sorted((r["location"]["path"], r["name"]) for r in doc["resources"])
        unresolved = [u["path"] for u in doc["unresolved"]]
        if got != want_resources or unresolved != [gone]:
            return f"asked {want_resources} + {gone}, got {got} + {unresolved}"
        return None

    return Planned(plugin, rid, [f"f{i:02}.gfx" for i in picked] + [gone], [], check)


def plan_echo(plugin: str, rid: str, paths: list[str], faults: list[str]) -> Planned:
    want = echo_name(paths)

    def check(doc: dict[str, Any]) -> str | None:
        names = [r["name"] for r in doc["resources"]]
        return None if names == [want] else f"asked {want}, got {names}"

    return Planned(plugin, rid, paths, faults, check)


def verdict(planned: Planned, reply: Reply) -> str | None:
    """Why this answer does not belong to its request (None: it does, or it is no answer)."""
    if reply.status is None:
        return None
    try:
        doc = json.loads(reply.body)
    except ValueError:
        return (
            f"status {reply.status} with a body that is not JSON" if reply.status == 200 else None
        )
    answered = doc.get("requestId") if isinstance(doc, dict) else None
    if answered is not None and answered != planned.request_id:
        return f"requestId {answered!r} in the answer to {planned.request_id!r}"
    if reply.status != 200:
        return None
    header = reply.headers.get("x-request-id")
    if header != planned.request_id:
        return f"X-Request-Id {header!r} in the answer to {planned.request_id!r}"
    try:
        return planned.check(doc)
    except (KeyError, TypeError) as exc:
        return f"malformed document ({exc!r})"
