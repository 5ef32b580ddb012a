"""`gateforge_plugin`: the original package's public name for the project's Python plugin SDK.

Plugins written against the original `@gate-forge/plugin-protocol` Python module run unchanged:

    from gateforge_plugin import serve
    raise SystemExit(serve("my-detector", "1.0.0", discover))

Nothing here is a second implementation: `serve` and `PROTOCOL_VERSION` *are* `gpp.plugin.sdk.serve`
and `gpp.PROTOCOL_VERSION` (one wire module for host and SDK, DESIGN §2), so the name cannot
drift from the behaviour. Standard library only, like `gpp.plugin.sdk`.

Where it comes from: the wheel ships it as a top-level module beside `gpp`; as a plain folder,
`plugins/sdk/python/` is the folder to put on `sys.path`: it holds this module and `gpp` (a
link to the repository's protocol core), so that folder alone is enough. To vendor it into a
plugin, copy it with links followed (`cp -rL plugins/sdk/python/. vendor/`).
"""

from __future__ import annotations

from gpp.core.envelope import PROTOCOL_VERSION
from gpp.plugin.sdk import DiscoverHandler, serve

__all__ = ["PROTOCOL_VERSION", "DiscoverHandler", "serve"]
