"""The engine's side: an HTTP client of the gateway (httpx) that turns its problems back into
the `ProtocolError` the plugin caused. Importable from here, where DESIGN.md fixes
`gpp.client.GatewayClient`; the code is `gpp.client.http` (and its SSE decoder `gpp.client.sse`).

`__all__` is the public surface (the client, and how it finds and reaches a local gateway: its
token and its socket); everything else in the modules below is internal."""

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
from gpp.client.local_gateway import (
    TOKEN_VARIABLE,
    TokenNotFound,
    default_socket,
    default_token_file,
    find_token,
    is_loopback_url,
)
from gpp.client.uds import async_unix_transport, loopback_transport, unix_transport

__all__ = [
    "TOKEN_VARIABLE",
    "AsyncGatewayClient",
    "ClientOptions",
    "GatewayClient",
    "GatewayRefused",
    "JsonRpcError",
    "Progress",
    "Result",
    "RetryPolicy",
    "StreamBroken",
    "TokenNotFound",
    "async_unix_transport",
    "default_socket",
    "default_token_file",
    "find_token",
    "is_loopback_url",
    "loopback_transport",
    "protocol_error",
    "unix_transport",
]
