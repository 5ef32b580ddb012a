"""`FastPath`: the plugin routes and every 405, served straight from the app's ASGI call.

In `app/server/` with the front door because both lean on the framework's internals (Starlette's
exception middlewares here, uvicorn's protocol there), which `app.server.upstream` checks at
import.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from ..routes.table import Endpoint, Found, RouteTable, WrongMethod


class FastPath:
    """Serves the table's fast rows, and every row's 405, straight from the app's ASGI call.

    The plugin routes are the gateway's hot path, and the stack between the front door and
    them (telemetry, body-limit and exception middlewares, an exit stack, and a router that
    matches each route through its included routers) cost more per request than the plugin
    exchange itself. Here the table has matched already, and what the stack did for these
    routes is done with the same parts Starlette builds it from: its `ExceptionMiddleware`
    answers with the app's exception handlers what the endpoint raises (Starlette's own
    lookup), and its `ServerErrorMiddleware` answers a bug 500 with the app's handler for
    `Exception` and re-raises it for the log, as in `Starlette.build_middleware_stack`.
    """

    def __init__(self, app: FastAPI, table: RouteTable) -> None:
        """Built once every exception handler is installed (they are read here, once)."""
        error_handler = None
        handlers: dict[Any, Any] = {}
        for key, value in app.exception_handlers.items():
            if key in (500, Exception):
                error_handler = value
            else:
                handlers[key] = value

        def guarded(inner: ASGIApp) -> ASGIApp:
            return ServerErrorMiddleware(
                ExceptionMiddleware(inner, handlers=handlers), handler=error_handler
            )

        self.app = app
        self._served = {row: guarded(_endpoint_app(row.endpoint)) for row in table.rows if row.fast}
        self._refusals = {row: guarded(_refusal_app(row.allow)) for row in table.rows}

    def serves(self, found: Found | WrongMethod | None) -> TypeGuard[Found | WrongMethod]:
        """Whether the fast path answers this match (else FastAPI does)."""
        return type(found) is WrongMethod or (type(found) is Found and found.row.fast)

    async def serve(
        self, found: Found | WrongMethod, scope: Scope, receive: Receive, send: Send
    ) -> None:
        scope["app"] = self.app
        if type(found) is Found:
            scope["path_params"] = found.params
            await self._served[found.row](scope, receive, send)
        else:
            await self._refusals[found.row](scope, receive, send)


def _endpoint_app(endpoint: Endpoint) -> ASGIApp:
    async def call(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        response = await endpoint(request=request, **scope["path_params"])
        await response(scope, receive, send)

    return call


def _refusal_app(allow: str) -> ASGIApp:
    """405 as Starlette's router says it: an HTTPException the app's handler renders."""

    async def refuse(scope: Scope, receive: Receive, send: Send) -> None:
        raise HTTPException(status_code=405, headers={"Allow": allow})

    return refuse
