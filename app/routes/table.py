"""One route table, read by everything that needs to know the gateway's routes.

Each route is a `Row`: its methods, its path template, its endpoint, whether the fast path
serves it, whether it opens without the token, and what OpenAPI says of it. From the rows
FastAPI's routes (and so its OpenAPI document) are built (`add_to_app`), the fast path matches
(`RouteTable.match`, served by `app.server.fast_path.FastPath`), and the security checks ask
who needs the token (`RouteTable.is_public`) and whether a path answers the request's method
at all. Because all three read the same rows, a route added is one row (`rows.ROUTES`), and
they cannot disagree on what the gateway answers.

Matching follows Starlette's router exactly: the first row whose path and method match wins;
else the first whose path matches answers 405 with its methods as `Allow`; else the path is
not a row's (FastAPI then answers: a static mount, a trailing-slash redirect, or 404).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fastapi import FastAPI
from starlette.convertors import StringConvertor
from starlette.routing import compile_path
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .plugin_requests import PlainRoute

Endpoint = Callable[..., Any]


@dataclass(frozen=True, eq=False)
class Row:
    """One route. `openapi`: the keywords FastAPI's `add_api_route` takes for its documentation
    (summary, tags, responses, response_model, openapi_extra, include_in_schema...).

    A `fast` row's endpoint takes the path's parameters and the raw `Request` and returns a
    ready `Response`: it is served ahead of FastAPI's stack (`FastPath`), FastAPI only documents
    it. Any other row is FastAPI's to serve, with its dependency solving and response models.
    A `public` row opens without the bearer token (probes, the API's documentation).
    """

    methods: tuple[str, ...]
    path: str
    endpoint: Endpoint
    fast: bool = False
    public: bool = False
    openapi: Mapping[str, Any] = field(default_factory=dict)
    regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.methods or any(m != m.upper() for m in self.methods):
            raise ValueError(f"{self.path}: methods must be upper case, got {self.methods}")
        regex, _, convertors = compile_path(self.path)
        if any(type(c) is not StringConvertor for c in convertors.values()):
            raise ValueError(f"{self.path}: path parameters are plain `{{name}}` strings")
        object.__setattr__(self, "regex", regex)

    @property
    def allow(self) -> str:
        """The `Allow` header of a 405 for this row's path."""
        return ", ".join(self.methods)


@dataclass(frozen=True)
class Static:
    """A folder of files served under `path` (GET and HEAD, whatever the file)."""

    path: str
    directory: str
    public: bool = False


class Found(NamedTuple):
    row: Row
    params: dict[str, str]


class WrongMethod(NamedTuple):
    """The path is this row's, the method is not: 405 with its `allow`."""

    row: Row


class RouteTable:
    def __init__(self, rows: Iterable[Row], statics: Iterable[Static] = ()) -> None:
        self.rows = tuple(rows)
        self.statics = tuple(statics)
        seen = [(row.path, method) for row in self.rows for method in row.methods]
        if len(seen) != len(set(seen)):
            raise ValueError(f"a path and method appear in two rows: {sorted(seen)}")
        public = [row for row in self.rows if row.public]
        self._public_paths = frozenset(row.path for row in public if not row.regex.groupindex)
        self._public_patterns = tuple(row.regex for row in public if row.regex.groupindex)
        self._public_prefixes = tuple(s.path.rstrip("/") + "/" for s in self.statics if s.public)

    def __add__(self, rows: Iterable[Row]) -> RouteTable:
        """This table with more rows after its own."""
        return RouteTable((*self.rows, *rows), self.statics)

    def match(self, method: str, path: str) -> Found | WrongMethod | None:
        wrong: Row | None = None
        for row in self.rows:
            found = row.regex.match(path)
            if found is not None:
                if method in row.methods:
                    return Found(row, found.groupdict())
                wrong = wrong or row
        return None if wrong is None else WrongMethod(wrong)

    def is_public(self, path: str) -> bool:
        """Whether requests for `path` open without the token (whatever their method)."""
        return (
            path in self._public_paths
            or path.startswith(self._public_prefixes)
            or (bool(self._public_patterns) and any(p.match(path) for p in self._public_patterns))
        )

    @property
    def public_paths(self) -> frozenset[str]:
        """The path templates of public rows, as OpenAPI names them."""
        return frozenset(row.path for row in self.rows if row.public)


def add_to_app(app: FastAPI, table: RouteTable) -> None:
    """FastAPI's routes, in the table's order: it serves the rows that are not fast, and
    documents every row (but those whose `openapi` says `include_in_schema=False`)."""
    for row in table.rows:
        app.router.add_api_route(
            row.path,
            row.endpoint,
            methods=list(row.methods),
            route_class_override=PlainRoute if row.fast else None,
            **row.openapi,
        )
    for static in table.statics:
        name = static.path.strip("/")
        app.mount(static.path, NeverFramed(StaticFiles(directory=static.directory)), name=name)


NO_FRAMING = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"}
"""On every HTML answer: no other site's page may frame the gateway's (clickjacking its /docs
into sending requests with the user's clicks). CSP for current browsers, XFO for the rest."""
_NO_FRAMING_RAW = [(k.lower().encode(), v.encode()) for k, v in NO_FRAMING.items()]


class NeverFramed:
    """An ASGI app whose answers all carry `NO_FRAMING` (the static docs assets hold HTML)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_never_framed(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *_NO_FRAMING_RAW]
            await send(message)

        await self.app(scope, receive, send_never_framed)
