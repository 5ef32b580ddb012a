"""`gpp.codes`, where DESIGN.md fixes the `ProtocolError` classes; they live in `gpp.core.codes`."""

from gpp.core.codes import (
    ERROR_CLASSES,
    ExitStatusError,
    FrameJSONError,
    InvalidRequestError,
    PluginErrorResponse,
    ProtocolError,
    ProtocolVersionError,
    SchemaError,
    UnexpectedEOFError,
    UnknownPluginError,
    UnknownTypeError,
    WatchdogTimeoutError,
)

__all__ = [
    "ERROR_CLASSES",
    "ExitStatusError",
    "FrameJSONError",
    "InvalidRequestError",
    "PluginErrorResponse",
    "ProtocolError",
    "ProtocolVersionError",
    "SchemaError",
    "UnexpectedEOFError",
    "UnknownPluginError",
    "UnknownTypeError",
    "WatchdogTimeoutError",
]
