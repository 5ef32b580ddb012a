"""`gpp.codes`, where DESIGN.md fixes the `ProtocolError` classes; they live in `gpp.core.codes`."""

from gpp.core.codes import *  # noqa: F403
from gpp.core.codes import __all__ as __all__
