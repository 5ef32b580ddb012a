"""The protocol itself: bytes in, events or one `ProtocolError` out. Pure and stdlib-only: no
sockets, pipes, threads or clocks, and nothing from the other sides of `gpp`
(tests/core/test_layers.py holds both).

`__all__` is the public surface: what the host, the gateway, the bench and the SDKs build on.
Everything else in the modules below is an internal that may change with no notice; the
gateway imports only these names (tests/core/test_layers.py holds it to them)."""

from gpp.core import codes, jsonrpc
from gpp.core.canonical_json import (
    JSONRejected,
    UnsafeInteger,
    canonical,
    canonical_trusted,
    digest,
    loads_strict,
)
from gpp.core.codes import ProtocolError
from gpp.core.connection import Connection, UsageError
from gpp.core.envelope import PROTOCOL_VERSION, build_frame, decode_frame, verify_digest
from gpp.core.framing import DEFAULT_MAX_LINE_BYTES, LineBuffer, LineTooLong
from gpp.core.jsonrpc_connection import Invocation, JsonRpcConnection, Message
from gpp.core.messages import (
    Bye,
    Discover,
    Hello,
    Phase,
    PluginError,
    Ready,
    Result,
    Role,
    SessionError,
    Shutdown,
)
from gpp.core.request_budget import REQUEST_BUDGET_VARIABLE
from gpp.core.schema import (
    DISCOVER_PAYLOAD,
    DOCUMENT,
    MAX_PATHS,
    MAX_REQUEST_ID,
    PATH,
    REASONS,
    REQUEST_ID,
    RESULT_PAYLOAD,
    Violation,
    array,
    from_contract,
    path_problem,
    record,
)

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "DISCOVER_PAYLOAD",
    "DOCUMENT",
    "MAX_PATHS",
    "MAX_REQUEST_ID",
    "PATH",
    "PROTOCOL_VERSION",
    "REASONS",
    "REQUEST_BUDGET_VARIABLE",
    "REQUEST_ID",
    "RESULT_PAYLOAD",
    "Bye",
    "Connection",
    "Discover",
    "Hello",
    "Invocation",
    "JSONRejected",
    "JsonRpcConnection",
    "LineBuffer",
    "LineTooLong",
    "Message",
    "Phase",
    "PluginError",
    "ProtocolError",
    "Ready",
    "Result",
    "Role",
    "SessionError",
    "Shutdown",
    "UnsafeInteger",
    "UsageError",
    "Violation",
    "array",
    "build_frame",
    "canonical",
    "canonical_trusted",
    "codes",
    "decode_frame",
    "digest",
    "from_contract",
    "jsonrpc",
    "loads_strict",
    "path_problem",
    "record",
    "verify_digest",
]
