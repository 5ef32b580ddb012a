"""The application factory: `create_app(config)` builds a gateway; the CLI only calls it."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from gpp import __version__

from .config import Config, load_config
from .default_token import token_source
from .exchange import RecordExchanges
from .metrics import GatewayMetrics
from .openapi import complete_error_responses
from .plugin_watch import PluginWatch
from .pool import PluginPools
from .problems import install_handlers
from .reload import EARLY_SIGHUPS, Reloader
from .routes.rows import ROUTES
from .routes.table import RouteTable, add_to_app
from .security import SecurityMiddleware
from .server.fast_path import FastPath
from .state import GatewayState

log = logging.getLogger("gpp.gateway")


class GatewayApp(FastAPI):
    """The FastAPI app behind one front: security checks and request records for every HTTP
    request, then the route table's fast rows and its 405s served directly (`FastPath`), the
    rest by FastAPI."""

    security: SecurityMiddleware
    table: RouteTable

    def assemble_front(
        self, table: RouteTable, security: dict[str, Any], metrics: GatewayMetrics
    ) -> None:
        """Called once every route and exception handler is in place."""
        self.table = table
        fast = FastPath(self, table)

        async def dispatch(scope: Scope, receive: Receive, send: Send) -> None:
            found = table.match(scope["method"], scope["path"])
            if fast.serves(found):
                await fast.serve(found, scope, receive, send)
            else:
                await super(GatewayApp, self).__call__(scope, receive, send)

        # What escapes it all, uvicorn answers 500 and logs, as it did behind Starlette's
        # ServerErrorMiddleware (which answered the same 500 and re-raised to it).
        self.security = SecurityMiddleware(
            RecordExchanges(dispatch, metrics), table=table, **security
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.security(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            self.openapi_schema = complete_error_responses(super().openapi(), self.table)
        return self.openapi_schema


def create_app(
    config: Config,
    *,
    load: Callable[[], Config] | None = None,
    reload_on_sighup: bool = False,
    on_ready: Callable[[], None] | None = None,
    watch: PluginWatch | None = None,
    routes: RouteTable = ROUTES,
) -> FastAPI:
    """`load` re-reads the config for a reload (default: the same file); `reload_on_sighup`
    installs the SIGHUP handler, which only the main thread's event loop can (`gpp serve`);
    `on_ready` is called once both are in place (`gpp serve --uds` then puts its socket there);
    `watch` restarts a plugin whose files change (`gpp serve --reload`); `routes`: what the gateway answers (tests add rows)."""
    pools = PluginPools.of(config.plugins)
    state = GatewayState(config=config, pools=pools, metrics=GatewayMetrics(pools))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log.info(
            "starting",
            extra={
                "fields": {
                    "config": str(config.path),
                    "plugins": ",".join(config.plugins),
                    "token": token_source(config),
                }
            },
        )
        loop = asyncio.get_running_loop()
        reloads: set[asyncio.Task[str]] = set()
        started = asyncio.Event()

        async def reload_once_started() -> str:
            await started.wait()  # a SIGHUP during the eager start is queued, not lost
            return await reloader.reload()

        def on_sighup() -> None:
            task = loop.create_task(reload_once_started())
            reloads.add(task)
            task.add_done_callback(reloads.discard)

        if reload_on_sighup:
            loop.add_signal_handler(signal.SIGHUP, on_sighup)
            if EARLY_SIGHUPS.take():  # the ones that came while `gpp serve` got ready
                on_sighup()
        await pools.start_eager()
        started.set()
        watching = loop.create_task(watch.run(reloader)) if watch is not None else None
        if on_ready is not None:
            on_ready()
        yield
        if watching is not None:
            watching.cancel()
            await asyncio.gather(watching, return_exceptions=True)
        if reload_on_sighup:
            loop.remove_signal_handler(signal.SIGHUP)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)  # not the default: that would kill us
        # A reload still starting its eager plugins is cancelled, not awaited: awaited, a silent
        # plugin would hold SIGTERM for its whole handshake timeout, past the shutdown grace.
        # Cancelled, each start kills its half-started plugin; the pools then close as any others.
        for task in reloads:
            task.cancel()
        await asyncio.gather(*reloads, return_exceptions=True)
        log.info("stopping: shutting down plugin sessions")
        await pools.close()
        log.info("stopped")

    app = GatewayApp(
        title="gate-forge gateway",
        version=__version__,
        summary="Runs untrusted discovery plugins over GPP/3 and answers what a repository holds.",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,  # a row of the table, as every route
        lifespan=lifespan,
    )
    app.state.gateway = state
    reloader = Reloader(
        state,
        load or (lambda: load_config(config.path)),
        lambda token: app.security.use_token(token),
    )
    add_to_app(app, routes)
    install_handlers(app)
    app.assemble_front(
        routes,
        {
            "token": config.token(),
            "allowed_origins": config.gateway.allowed_origins,
            "allowed_hosts": config.gateway.allowed_hosts,
            "max_body_bytes": config.gateway.max_body_bytes,
        },
        state.metrics,
    )
    return app
