"""`from gpp.sdk import serve`, the name DESIGN.md fixes; the SDK lives in `gpp.plugin.sdk`."""

from gpp.plugin.sdk import DiscoverHandler, serve

__all__ = ["DiscoverHandler", "serve"]
