"""The fail-closed error values of GPP/3: `ProtocolError` and one subclass per `E_*` code.

The base and its rendering are hand-written (`gpp.core.protocol_error`); the subclasses and
`ERROR_CLASSES` are generated from the contract's `errors` table (`gpp.core.contract_errors`, by
`make contract`), so a code added to gpp3.json is importable here with no edit to this file.
"""

from gpp.core import contract_errors
from gpp.core.contract_errors import *  # noqa: F403
from gpp.core.protocol_error import (
    OFFENDING_FRAME_LIMIT,
    PREFIX,
    ProtocolError,
    describe_exit,
    truncate,
)

__all__ = ["OFFENDING_FRAME_LIMIT", "PREFIX", "ProtocolError", "describe_exit", "truncate"]
__all__ += contract_errors.__all__
