"""`from gpp.sdk import serve`, the name DESIGN.md fixes; the SDK lives in `gpp.plugin.sdk`."""

from gpp.plugin.sdk import Discover, DiscoverHandler, RequestHandler, request_budget_ms, serve

__all__ = ["Discover", "DiscoverHandler", "RequestHandler", "request_budget_ms", "serve"]
