"""The application factory: `create_app(config)` builds a gateway; the CLI only calls it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import swagger_ui_bundle
from fastapi import FastAPI, Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from gpp import __version__

from .config import Config
from .metrics import GatewayMetrics
from .openapi import complete_error_responses
from .pool import PluginPool, SessionPool
from .problems import BodyTooLarge, http_problem
from .routes import router
from .rpc import JsonRpcPlugin
from .rpc_routes import router as rpc_router
from .security import SecurityMiddleware
from .state import GatewayState

log = logging.getLogger("gpp.gateway")


class GatewayApp(FastAPI):
    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            self.openapi_schema = complete_error_responses(super().openapi())
        return self.openapi_schema


def create_app(config: Config) -> FastAPI:
    pool = SessionPool(
        {
            plugin_id: PluginPool(plugin) if plugin.protocol == "gpp/3" else JsonRpcPlugin(plugin)
            for plugin_id, plugin in config.plugins.items()
        }
    )
    state = GatewayState(config=config, pool=pool, metrics=GatewayMetrics(pool))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log.info("starting", extra={"fields": {"config": str(config.path),
                                               "plugins": ",".join(config.plugins)}})  # fmt: skip
        await pool.start_eager()
        yield
        log.info("stopping: shutting down plugin sessions")
        await pool.close()
        log.info("stopped")

    app = GatewayApp(
        title="gate-forge gateway",
        version=__version__,
        summary="Runs untrusted discovery plugins over GPP/3 and answers what a repository holds.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.gateway = state
    app.include_router(router)
    app.include_router(rpc_router)
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
              name="docs-assets")  # fmt: skip

    @app.exception_handler(BodyTooLarge)
    async def body_too_large(request: Request, exc: BodyTooLarge) -> Response:
        return http_problem(413, "Request body too large", str(exc))

    app.add_middleware(
        SecurityMiddleware,
        token=config.token(),
        allowed_origins=config.gateway.allowed_origins,
        allowed_hosts=config.gateway.allowed_hosts,
        max_body_bytes=config.gateway.max_body_bytes,
        routes=app.router.routes,
    )
    return app
