"""The engine's side: an HTTP client of the gateway (httpx) that turns its problems back into
the `ProtocolError` the plugin caused. Importable from here, where DESIGN.md fixes
`gpp.client.GatewayClient`; the code is `gpp.client.http` (and its SSE decoder `gpp.client.sse`)."""

from gpp.client.http import (
    AsyncGatewayClient,
    ClientOptions,
    GatewayClient,
    GatewayRefused,
    JsonRpcError,
    Progress,
    Result,
    RetryPolicy,
    StreamBroken,
    protocol_error,
)

__all__ = [
    "AsyncGatewayClient",
    "ClientOptions",
    "GatewayClient",
    "GatewayRefused",
    "JsonRpcError",
    "Progress",
    "Result",
    "RetryPolicy",
    "StreamBroken",
    "protocol_error",
]
