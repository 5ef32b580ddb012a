"""GPP/3, the Gateforge Plugin Protocol, in four sides with imports pointing only down:

- `gpp.core`: the protocol itself, pure and stdlib-only (canonical JSON, codes, schemas, the
  message catalog, framing, envelopes, the sans-IO connection). Everything else builds on it.
- `gpp.plugin`: what a plugin process runs (the SDK's `serve`, the JSON-RPC stdio transport,
  repository walking, the file memo); stdlib-only, so a plugin needs only this folder.
- `gpp.host`: what the gateway runs to drive plugins (sessions, processes, the sandbox).
- `gpp.client`: the engine's HTTP client of the gateway (httpx).

The gateway itself ships as `gpp.gateway` (the checkout's `app/`). The names DESIGN.md fixes
stay importable where it puts them: `gpp.canonical`, `gpp.digest`, `gpp.PROTOCOL_VERSION`,
`gpp.sdk.serve`, `gpp.codes`, `gpp.jsonrpc`, `gpp.host.PluginSession`, `gpp.client.GatewayClient`.
"""

from gpp.core.canonical_json import canonical, digest
from gpp.core.codes import ProtocolError
from gpp.core.envelope import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "canonical", "digest"]
__version__ = "0.1.0"
