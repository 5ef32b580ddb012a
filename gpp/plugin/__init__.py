"""What runs inside a plugin process: the SDK's `serve`, the JSON-RPC stdio transport, the
repository walk and the file memo. Standard library and `gpp.core` only, so a plugin needs
nothing but the `gpp` folder on `sys.path`.

`__all__` is the public surface: the GPP/3 SDK's names, the file memo, and the two modules a
plugin uses whole (`jsonrpc`, the JSON-RPC transport, whose `serve` is not the SDK's;
`repo_files`, reading a repository without following a link out of it). Everything else is
internal."""

from gpp.plugin import jsonrpc, repo_files
from gpp.plugin.file_memo import Missing
from gpp.plugin.sdk import (
    DiscoverHandler,
    FileMemo,
    FileStamp,
    MemoStats,
    RequestHandler,
    request_budget_ms,
    serve,
)

__all__ = [
    "DiscoverHandler",
    "FileMemo",
    "FileStamp",
    "MemoStats",
    "Missing",
    "RequestHandler",
    "jsonrpc",
    "repo_files",
    "request_budget_ms",
    "serve",
]
