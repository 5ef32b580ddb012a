"""The one wire module shared by the host and the plugin SDK: line framing and envelopes.

The two jobs live in their own modules, `gpp.framing` (the line buffer with the byte cap) and
`gpp.envelope` (build, decode, verify); this module keeps the names importable from where they
have always been.
"""

from __future__ import annotations

from .envelope import (
    ENVELOPE,
    ENVELOPE_KEYS,
    PROTOCOL_VERSION,
    Frame,
    build_frame,
    decode_frame,
    frame_digest,
    verify_digest,
)
from .framing import DEFAULT_MAX_LINE_BYTES, LineBuffer, LineTooLong

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "ENVELOPE",
    "ENVELOPE_KEYS",
    "PROTOCOL_VERSION",
    "Frame",
    "LineBuffer",
    "LineTooLong",
    "build_frame",
    "decode_frame",
    "frame_digest",
    "verify_digest",
]
