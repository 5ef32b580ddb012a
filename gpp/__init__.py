"""GPP/3, the Gateforge Plugin Protocol: canonical JSON, wire format, state machines, host, SDK.

The modules the plugin SDK uses (`canonical_json`, `codes`, `schema`, `messages`, `catalog`,
`framing`, `envelope`, `wire`, `connection`, `sdk`, `file_memo`, `repo_files`, `jsonrpc`) import
nothing outside the standard library.
"""

from .canonical_json import canonical, digest
from .codes import ProtocolError
from .wire import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "canonical", "digest"]
__version__ = "0.1.0"
