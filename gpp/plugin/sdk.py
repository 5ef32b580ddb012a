"""The Python plugin SDK: a blocking `serve` loop over stdin/stdout. Standard library only.

A plugin author writes `discover(paths) -> dict` and calls `serve`, or opts into the whole request
with `serve(..., request=True)`: the handler then gets the `Discover` event (`.paths`,
`.request_id` and any field a later protocol adds), so a new field never changes a handler's
signature, and a `discover(paths)` handler never sees it. The SDK speaks GPP/3, checks
every host frame with the same connection the host uses, and keeps the handler's mistakes
inside the plugin: an exception or an invalid document becomes a request-scoped error frame
with a clear message, never a malformed frame on the wire.

`request_budget_ms()` is the host's budget for one discover (the contract's
`environment.requestBudget`), for a handler that can answer early with what it has.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any, Literal, overload

from gpp.core import codes
from gpp.core.connection import Connection
from gpp.core.messages import (
    Bye,
    Discover,
    Hello,
    PluginError,
    Result,
    Role,
    SessionError,
    Shutdown,
)
from gpp.core.request_budget import request_budget_ms
from gpp.core.schema import DOCUMENT, DOCUMENT_FIELDS, Violation
from gpp.plugin.file_memo import FileMemo, FileStamp, MemoStats
from gpp.plugin.stdio import stdout_for_frames

__all__ = [
    "Discover",
    "DiscoverHandler",
    "FileMemo",
    "FileStamp",
    "MemoStats",
    "RequestHandler",
    "request_budget_ms",
    "serve",
]

DiscoverHandler = Callable[[list[str]], dict[str, Any]]
"""`discover(paths) -> dict`, the seed's handler: the paths of each request, as a new list."""
RequestHandler = Callable[[Discover], dict[str, Any]]
"""`discover(request) -> dict` with `serve(..., request=True)`: the `Discover` request itself."""

EXIT_OK = 0
EXIT_USAGE = 1  # run by hand in a terminal: there is no host to speak to
EXIT_PROTOCOL = 2  # the host broke GPP/3 or went away mid-session

_TERMINAL_HINT = """\
This is {0} {1}, a GPP/3 discovery plugin: a gateway runs it and speaks the protocol on its
stdin and stdout, so there is nothing to type here. To run it:
  gpp discover --command {2} --plugin-id {0} --plugin-version {1} PATH...
  gpp serve --repo . --plugin {0}@{1} -- {3}"""


@overload
def serve(
    plugin_id: str,
    plugin_version: str,
    discover: DiscoverHandler,
    *,
    capabilities: Iterable[str] = ...,
    stdin: IO[bytes] | None = ...,
    stdout: IO[bytes] | None = ...,
    request: Literal[False] = ...,
) -> int: ...
@overload
def serve(
    plugin_id: str,
    plugin_version: str,
    discover: RequestHandler,
    *,
    capabilities: Iterable[str] = ...,
    stdin: IO[bytes] | None = ...,
    stdout: IO[bytes] | None = ...,
    request: Literal[True],
) -> int: ...
def serve(
    plugin_id: str,
    plugin_version: str,
    discover: Callable[[Any], dict[str, Any]],
    *,
    capabilities: Iterable[str] = ("discover",),
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    request: bool = False,
) -> int:
    """Run one session until the host says shutdown (returns 0) or breaks the protocol
    (writes a session-fatal error frame, prints the diagnostic on stderr, returns 2).

    `discover` gets each request's paths (a new list), or with `request=True` the `Discover`
    request itself: the opt-in that keeps a handler working whatever fields a request gains.

    With the process's own stdout, frames get it alone while the session runs: `print()`, a
    library's log line or a child's output goes to stderr, and cannot corrupt the protocol.
    Run by hand in a terminal, it says what it is and how to run it, and returns 1.
    """
    if stdin is None and sys.stdin.isatty():
        command = shlex.join(sys.orig_argv)
        hint = _TERMINAL_HINT.format(plugin_id, plugin_version, shlex.quote(command), command)
        print(hint, file=sys.stderr)
        return EXIT_USAGE
    handler: RequestHandler = discover if request else _paths_only(discover)
    if stdout is not None:
        return _serve(plugin_id, plugin_version, handler, capabilities, stdin, stdout)
    with stdout_for_frames() as frames:
        return _serve(plugin_id, plugin_version, handler, capabilities, stdin, frames)


def _paths_only(discover: DiscoverHandler) -> RequestHandler:
    """A `discover(paths)` handler as a request handler: it sees the paths and nothing else."""

    def handler(request: Discover) -> dict[str, Any]:
        return discover(list(request.paths))

    return handler


def _serve(
    plugin_id: str,
    plugin_version: str,
    discover: RequestHandler,
    capabilities: Iterable[str],
    stdin: IO[bytes] | None,
    writer: IO[bytes],
) -> int:
    reader = stdin if stdin is not None else sys.stdin.buffer
    read = getattr(reader, "read1", reader.read)
    conn = Connection(Role.PLUGIN, plugin_id, plugin_version)

    def write(line: bytes) -> None:
        try:
            writer.write(line)
            writer.flush()
        except (BrokenPipeError, ValueError):  # host gone, or stream closed
            pass

    write(conn.send(Hello(tuple(capabilities))))
    while True:
        try:
            while (event := conn.next_event()) is None:
                conn.receive_data(read(1 << 16))
        except codes.ProtocolError as err:
            print(err.diagnostic(), file=sys.stderr, flush=True)
            write(conn.send_fatal(err.code, err.fail_line()))
            return EXIT_PROTOCOL
        if isinstance(event, Discover):
            write(_answer(conn, event, discover))
        elif isinstance(event, Shutdown):
            write(conn.send(Bye()))
            return EXIT_OK
        elif isinstance(event, SessionError):
            print(
                f"[plugin-protocol] host ended the session: {event.code}: {event.message}",
                file=sys.stderr,
                flush=True,
            )
            return EXIT_PROTOCOL
        # Ready needs no answer


def _answer(conn: Connection, request: Discover, handler: RequestHandler) -> bytes:
    """The answer frame: the handler's document, or a request-scoped error saying why not.

    The schema is checked once, by `conn.send` (a result of a million values pays for each
    check); it raises before anything changes, so the error frame can still be sent.
    """
    if not request.paths:  # GPP/3: no paths asks nothing, so the answer is empty by definition
        return conn.send(Result(request.request_id, {key: [] for key in DOCUMENT_FIELDS}))
    try:
        document = handler(request)
    except Exception as exc:  # the plugin's own failure: scoped to this request
        message = str(exc) or type(exc).__name__
        return conn.send(PluginError(request.request_id, type(exc).__name__, message))
    try:
        if type(document) is not dict or "requestId" in document:
            DOCUMENT.check(document)  # what the payload's own check cannot tell apart
        return conn.send(Result(request.request_id, document))
    except (Violation, codes.InvalidRequestError) as exc:
        field = exc.field.removeprefix("payload").removeprefix(".") if exc.field else ""
        message = (
            f"discover handler returned an invalid document: {field or 'document'} "
            f"{exc.problem} — expected {exc.expected or 'nothing'}, got {exc.got or 'nothing'}"
        )
        print(f"[plugin-protocol] {message}", file=sys.stderr, flush=True)
        return conn.send(PluginError(request.request_id, "E_SCHEMA", message))
