"""The engine's client for the gateway (httpx): result dicts in, ProtocolErrors out.

A failure the gateway reports as an E_* problem document is raised as the same ProtocolError
subclass the gateway met, so engine code handles a remote session exactly like a local one; a
refusal before any plugin ran is a GatewayRefused; a JSON-RPC error object is a JsonRpcError.

Requests are built and answers read by the module-level functions, which do no I/O: the blocking
and the asyncio client are thin drivers over them and cannot drift apart.

Retry (opt-in, `retries=N`) repeats only a 503 refusal, after the delay the gateway advertised.
A 503 is given before the request reached a plugin (queue full, restart back-off, shutting down),
so repeating it never duplicates work, whatever the method does. Nothing else is retried: after
a 502, a 504 or a broken connection the plugin may already have done the work. `max_retry_wait`
bounds the total time spent waiting; a delay that would overrun it ends the retries at once (the
client never comes back earlier than the gateway asked).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import AsyncGenerator, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypedDict, TypeVar

import httpx

from gpp.client.local_gateway import find_token, is_loopback_url
from gpp.client.sse import EventStreamDecoder
from gpp.client.uds import (
    async_loopback_transport,
    async_unix_transport,
    loopback_transport,
    unix_transport,
)
from gpp.core import codes
from gpp.core.jsonrpc import PROGRESS_METHOD

if TYPE_CHECKING:
    from typing_extensions import Unpack

EVENT_STREAM = "text/event-stream"


class GatewayRefused(Exception):
    """The gateway refused before any plugin ran: 401, 403, 413, 415 or 503 (Retry-After).

    `retry_after` is in seconds: the problem's unrounded `retryAfter` when it has one, else the
    Retry-After header (which HTTP rounds up to whole seconds)."""

    def __init__(self, status: int, problem: dict[str, Any], retry_after: float | None) -> None:
        super().__init__(f"{status} {problem.get('title', '')}: {problem.get('detail', '')}")
        self.status = status
        self.problem = problem
        self.retry_after = retry_after


class JsonRpcError(Exception):
    """A JSON-RPC error object, from the plugin or from the gateway on its behalf (-32001 the
    plugin exited, -32002 it timed out, -32003 it could not start)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data


class StreamBroken(Exception):
    """The event stream ended before its `response` event: the call's outcome is unknown."""


@dataclass(frozen=True)
class Progress:
    """A `$/progress` notification's params (`{"id", "done", "total"}` from the example)."""

    params: Any


@dataclass(frozen=True)
class Result:
    """The call's result: always a stream's last event."""

    value: Any


StreamEvent = Progress | Result


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 0
    max_wait: float = 10.0


class _Retries:
    """One call's retries so far, sans-IO: each answer in, the wait before the next try out."""

    def __init__(self, policy: RetryPolicy) -> None:
        self._policy = policy
        self._left = policy.retries
        self._waited = 0.0

    def delay_after(self, response: httpx.Response) -> float | None:
        """Seconds to wait before trying again, or None to take this answer (body read)."""
        if response.status_code != 503 or not self._left:
            return None
        refused = _failure(response)
        delay = refused.retry_after if isinstance(refused, GatewayRefused) else None
        if delay is None or self._waited + delay > self._policy.max_wait:
            return None
        self._left -= 1
        self._waited += delay
        return delay


def _discover_body(paths: Sequence[str], request_id: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"paths": list(paths)}
    if request_id is not None:
        body["requestId"] = request_id
    return body


def _rpc_body(method: str, params: Any, request_id: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        body["params"] = params
    if request_id is not None:
        body["id"] = request_id
    return body


def _request(
    http: httpx.Client | httpx.AsyncClient, verb: str, url: str, body: Any, stream: bool
) -> httpx.Request:
    headers = {"Accept": EVENT_STREAM} if stream else {}
    return http.build_request(verb, url, json=body, headers=headers)


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def protocol_error(problem: dict[str, Any]) -> codes.ProtocolError:
    """The error a gateway's E_* problem document describes (`app/problems.py` writes it)."""
    cls = codes.ERROR_CLASSES.get(str(problem.get("code")), codes.ProtocolError)
    if cls is codes.SchemaError and problem.get("status") == 422:
        cls = codes.InvalidRequestError
    return cls(
        str(problem.get("problem") or problem.get("detail") or problem.get("title") or "failed"),
        frame=problem.get("frame"),
        message_type=problem.get("messageType"),
        field=problem.get("field"),
        expected=problem.get("expected"),
        got=problem.get("got"),
        offending_frame=problem.get("offendingFrame"),
        exit_code=problem.get("exitCode"),
        stderr_tail=problem.get("stderrTail"),
        request_id=problem.get("requestId"),
    )


def _failure(response: httpx.Response) -> Exception:
    """The exception for a non-2xx answer (its body already read)."""
    try:
        problem = response.json()
    except ValueError:
        problem = {"title": response.reason_phrase, "detail": response.text}
    if not isinstance(problem, dict):
        problem = {}
    if problem.get("code") in codes.ERROR_CLASSES:
        return protocol_error(problem)
    precise = problem.get("retryAfter")
    header = response.headers.get("Retry-After", "")
    retry_after = (
        float(precise)
        if isinstance(precise, (int, float)) and not isinstance(precise, bool)
        else float(header)
        if header.isdigit()
        else None
    )
    return GatewayRefused(response.status_code, problem, retry_after)


def _document(response: httpx.Response) -> dict[str, Any]:
    if response.status_code != 200:
        raise _failure(response)
    document: dict[str, Any] = response.json()
    return document


def _listing(response: httpx.Response) -> list[dict[str, Any]]:
    if response.status_code != 200:
        raise _failure(response)
    listing: list[dict[str, Any]] = response.json()
    return listing


def _rpc_result(message: Any) -> Any:
    """The result of one JSON-RPC response, or its error object raised."""
    if not isinstance(message, dict):
        raise JsonRpcError(-32603, f"not a JSON-RPC response: {message!r}")
    error = message.get("error")
    if isinstance(error, dict):
        raise JsonRpcError(error.get("code", -32603), error.get("message", ""), error.get("data"))
    return message.get("result")


def _rpc_answer(response: httpx.Response) -> Any:
    if response.status_code != 200:
        raise _failure(response)
    return _rpc_result(response.json())


def _notified(response: httpx.Response) -> None:
    if response.status_code != 204:
        raise _failure(response)


class _CallEvents:
    """A call's event stream, sans-IO: its lines in, the caller's events out."""

    def __init__(self, plugin_id: str) -> None:
        self._plugin_id = plugin_id
        self._decoder = EventStreamDecoder()
        self._answered = False

    def feed(self, line: str) -> list[StreamEvent]:
        """The event this line completes, if any; nothing after the Result."""
        event = self._decoder.feed(line)
        if event is None or self._answered:
            return []
        message = json.loads(event.data)
        if event.event == "response":
            self._answered = True
            return [Result(_rpc_result(message))]
        if event.event == "notification" and message.get("method") == PROGRESS_METHOD:
            return [Progress(message.get("params"))]
        return []  # another notification: not a progress report

    def end(self) -> None:
        if not self._answered:
            raise StreamBroken(f"{self._plugin_id}: the stream ended before the response")


HttpT = TypeVar("HttpT", httpx.Client, httpx.AsyncClient)


class ClientOptions(TypedDict, total=False):
    """Both clients' keyword options: `timeout` per request in seconds (default 120), `uds` a
    Unix socket the gateway listens on, `retries` after a 503 that says Retry-After (default 0),
    waiting `max_retry_wait` seconds at most in all (default 10), `token_file` a file holding
    the token (used when neither `token` nor GPP_TOKEN gives one)."""

    timeout: float
    uds: str | None
    token_file: str | None
    retries: int
    max_retry_wait: float


class _Calls(Generic[HttpT]):
    """What both clients share: the options, the call ids and the paths.

    Without `token`, the token is found as the CLI finds it (`local_gateway.find_token`:
    GPP_TOKEN, `token_file`, then the file `gpp serve` generates), the last only for a gateway
    on this host (a loopback URL or a Unix socket, whose listener is checked before it is sent).
    """

    def __init__(
        self, base_url: str, token: str | None = None, **options: Unpack[ClientOptions]
    ) -> None:
        self.retry = RetryPolicy(options.get("retries", 0), options.get("max_retry_wait", 10.0))
        self._ids = itertools.count(1)
        self._checks_listener = token is None and is_loopback_url(base_url)
        """A token the client found on its own goes only to a loopback listener of this user
        or root (`local_gateway.check_tcp_peer`): anyone may listen on the port first."""
        if token is None:
            named = options.get("token_file")
            token = find_token(
                Path(named) if named else None,
                default_file=bool(options.get("uds")) or is_loopback_url(base_url),
            )
        http = {"base_url": base_url, "headers": _headers(token)}
        self._http: HttpT = self._connect(http, options.get("timeout", 120.0), options.get("uds"))

    def _connect(self, http: dict[str, Any], timeout: float, uds: str | None) -> HttpT:
        raise NotImplementedError

    def next_id(self) -> int:
        return next(self._ids)

    @staticmethod
    def discover_url(plugin_id: str) -> str:
        return f"/plugins/{plugin_id}/discover"

    @staticmethod
    def rpc_url(plugin_id: str) -> str:
        return f"/plugins/{plugin_id}/rpc"


class GatewayClient(_Calls[httpx.Client]):
    """Blocking client. `uds` reaches a gateway listening on a Unix socket."""

    def _connect(self, http: dict[str, Any], timeout: float, uds: str | None) -> httpx.Client:
        transport = (
            unix_transport(uds) if uds else loopback_transport() if self._checks_listener else None
        )
        return httpx.Client(**http, timeout=timeout, transport=transport)

    def discover(
        self, plugin_id: str, paths: Sequence[str], request_id: str | None = None
    ) -> dict[str, Any]:
        body = _discover_body(paths, request_id)
        return _document(self._send("POST", self.discover_url(plugin_id), body))

    def rpc(self, plugin_id: str, method: str, params: Any = None) -> Any:
        """Call `method`; its result, or a JsonRpcError."""
        body = _rpc_body(method, params, self.next_id())
        return _rpc_answer(self._send("POST", self.rpc_url(plugin_id), body))

    def notify(self, plugin_id: str, method: str, params: Any = None) -> None:
        _notified(self._send("POST", self.rpc_url(plugin_id), _rpc_body(method, params, None)))

    def stream(
        self, plugin_id: str, method: str, params: Any = None
    ) -> Generator[StreamEvent, None, None]:
        """Call `method` over SSE: a Progress per `$/progress` notification, then the Result.
        Leaving the loop early closes the stream, and the gateway cancels the call."""
        body = _rpc_body(method, params, self.next_id())
        response = self._send("POST", self.rpc_url(plugin_id), body, stream=True)
        try:
            if response.status_code != 200:
                response.read()
                raise _failure(response)
            events = _CallEvents(plugin_id)
            for line in response.iter_lines():
                yield from events.feed(line)
            events.end()
        finally:
            response.close()

    def plugins(self) -> list[dict[str, Any]]:
        """Every registered plugin with its live state (GET /plugins)."""
        return _listing(self._send("GET", "/plugins", None))

    def _send(self, verb: str, url: str, body: Any, *, stream: bool = False) -> httpx.Response:
        """One request, repeated after each 503 refusal as the retry policy allows."""
        retries = _Retries(self.retry)
        while True:
            response = self._http.send(_request(self._http, verb, url, body, stream), stream=stream)
            if response.status_code == 503:
                response.read()
            if (delay := retries.delay_after(response)) is None:
                return response
            response.close()
            time.sleep(delay)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncGatewayClient(_Calls[httpx.AsyncClient]):
    """The same, for asyncio engines."""

    def _connect(self, http: dict[str, Any], timeout: float, uds: str | None) -> httpx.AsyncClient:
        transport = (
            async_unix_transport(uds)
            if uds
            else async_loopback_transport()
            if self._checks_listener
            else None
        )
        return httpx.AsyncClient(**http, timeout=timeout, transport=transport)

    async def discover(
        self, plugin_id: str, paths: Sequence[str], request_id: str | None = None
    ) -> dict[str, Any]:
        body = _discover_body(paths, request_id)
        return _document(await self._send("POST", self.discover_url(plugin_id), body))

    async def rpc(self, plugin_id: str, method: str, params: Any = None) -> Any:
        body = _rpc_body(method, params, self.next_id())
        return _rpc_answer(await self._send("POST", self.rpc_url(plugin_id), body))

    async def notify(self, plugin_id: str, method: str, params: Any = None) -> None:
        body = _rpc_body(method, params, None)
        _notified(await self._send("POST", self.rpc_url(plugin_id), body))

    async def stream(
        self, plugin_id: str, method: str, params: Any = None
    ) -> AsyncGenerator[StreamEvent, None]:
        body = _rpc_body(method, params, self.next_id())
        response = await self._send("POST", self.rpc_url(plugin_id), body, stream=True)
        try:
            if response.status_code != 200:
                await response.aread()
                raise _failure(response)
            events = _CallEvents(plugin_id)
            async for line in response.aiter_lines():
                for event in events.feed(line):
                    yield event
            events.end()
        finally:
            await response.aclose()

    async def plugins(self) -> list[dict[str, Any]]:
        return _listing(await self._send("GET", "/plugins", None))

    async def _send(
        self, verb: str, url: str, body: Any, *, stream: bool = False
    ) -> httpx.Response:
        retries = _Retries(self.retry)
        while True:
            response = await self._http.send(
                _request(self._http, verb, url, body, stream), stream=stream
            )
            if response.status_code == 503:
                await response.aread()
            if (delay := retries.delay_after(response)) is None:
                return response
            await response.aclose()
            await asyncio.sleep(delay)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncGatewayClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
