"""`gpp.jsonrpc`, the JSON-RPC 2.0 API DESIGN.md fixes (§6): the messages live in
`gpp.core.jsonrpc`, the plugin's stdio transport in `gpp.plugin.jsonrpc`."""

from gpp.core.jsonrpc import (
    CANCEL_METHOD,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROGRESS_METHOD,
    REQUEST_CANCELLED,
    InvalidParams,
    MethodNotFound,
    RequestCancelled,
    encode,
    error,
    notification,
    parse_request,
    response,
)
from gpp.plugin.jsonrpc import RequestContext, StdioTransport, current_request, serve

__all__ = [
    "CANCEL_METHOD",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "PROGRESS_METHOD",
    "REQUEST_CANCELLED",
    "InvalidParams",
    "MethodNotFound",
    "RequestCancelled",
    "RequestContext",
    "StdioTransport",
    "current_request",
    "encode",
    "error",
    "notification",
    "parse_request",
    "response",
    "serve",
]
