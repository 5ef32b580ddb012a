"""`gpp.jsonrpc`, the JSON-RPC 2.0 API DESIGN.md fixes (§6): the messages are `gpp.core.jsonrpc`,
the plugin's stdio transport `gpp.plugin.jsonrpc`."""

from gpp.core import jsonrpc as _messages
from gpp.core.jsonrpc import *  # noqa: F403
from gpp.plugin import jsonrpc as _transport
from gpp.plugin.jsonrpc import *  # noqa: F403

__all__ = sorted({*_messages.__all__, *_transport.__all__})
