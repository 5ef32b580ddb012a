"""The HTTP connection itself: how big and how slow a request may be, before any route runs.

uvicorn's httptools protocol accepts a request head of any size (a 64 MB header was parsed by
quadratic concatenation) and waits for ever on a connection that sends half a head, or a body
shorter than its Content-Length; and a chunked body's trailer fields were kept without limit
(200 MB of trailers cost 190 MB) and added to the request's headers. `FrontDoorProtocol` adds
four bounds to it, for every route: the head's size (→ 431), the chunked framing between two
chunks (a chunk extension, the trailer section: → 431; trailers are read and dropped), the time
from connection (or from the first byte of a keep-alive request) to the end of the head (→ 408),
and the time from the head to the end of the body (→ 408). Each ends the connection: a client
that broke a bound cannot be trusted to frame the next request. The answers are written here,
raw, because no route has seen the request yet.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import (
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)

from ..config import GatewayConfig
from ..fd_limit import connection_cap
from ..problems import PROBLEM_TYPE, problem_body
from ..security import AUTHENTICATED
from .peers import PeerKey, tcp_owner, unix_peer

log = logging.getLogger("gpp.front_door")

_OVER_CAP_DETAIL = "the gateway is at its connection cap; retry shortly"
IDLE_AFTER_S = 1.0
"""A connection that has sent nothing for this long may be closed to make room for another."""


class BufferBudget:
    """Bytes held across every connection: request bodies, from their arrival to the end of
    their answer, and answers their clients have not taken yet (counted while the transport
    holds more than its high-water mark). 300 tokenless connections each holding an
    unfinished 1 MiB body took the gateway from 59 to 369 MB, and the connection cap allowed
    13 times that; past this budget a request gets 503 and Retry-After instead."""

    __slots__ = ("held", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, size: int) -> bool:
        if self.held + size > self.limit:
            return False
        self.held += size
        return True

    def count(self, before: int, after: int) -> None:
        """Bytes already held (an answer written): counted whatever the budget says."""
        self.held += after - before

    @property
    def spent(self) -> bool:
        return self.held >= self.limit


@dataclass(frozen=True)
class ConnectionLimits:
    max_header_bytes: int
    header_timeout_s: float
    body_timeout_s: float
    send_timeout_s: float = 30.0
    max_connections: int = 4096
    """Already fitted to the descriptor budget (`fd_limit.connection_cap`)."""
    buffers: BufferBudget = field(default_factory=lambda: BufferBudget(256 * 1024 * 1024))
    """Shared by every connection of one server."""


class FrontDoorProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a size bound on the head and deadlines on head and body.

    The head is measured as the bytes received while it is incomplete, counted after each read
    is parsed, so a read that completes the head and carries body bytes is never held against
    it; in the read in which a head begins it counts from where it began (the bytes the earlier
    messages of that read took, their heads as written and their bodies, set aside). Counted
    whole, that read held a pipelining client's earlier requests against its last head: 3,000
    small pipelined requests got a 431; not counted at all, it let a head of one read (256 KiB,
    eight times the default bound) stay held until its deadline. In the body, the bytes received since the
    last chunk header or body byte are framing: counted before each read is parsed and reset by
    those callbacks, so a read that carries body never counts, and framing that ends a read goes
    uncounted for at most that one read.

    A deadline the parser's callbacks start is armed when the read they came from has been
    parsed, and only if its phase is still under way then: a request that arrives whole in one
    read (most do) costs no timer at all.
    """

    limits: ConnectionLimits  # set by `protocol_class`

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._head_started = False  # a byte of the head in progress received
        self._head_began_in_read = False  # ...in the read being parsed (`_head_began_at`)
        self._read_used = 0  # bytes of the read being parsed that earlier messages took
        self._head_began_at = 0  # where in it the head in progress began (`_read_used` then)
        self._in_body = False
        self._framing_bytes = 0
        self._refused = False
        self._deadline: asyncio.TimerHandle | None = None
        self._owed: str | None = None  # the phase whose deadline this read started
        self._send_watch: asyncio.TimerHandle | None = None
        self._connected_at = 0.0
        self._lingering = False  # refused past the cap, waiting to read its request
        self._trusted = False  # a request on it presented the token (see `_authenticated`)
        self._body_held = 0  # bytes of the request's body counted in `limits.buffers`
        self._unsent_held = 0  # bytes of unsent answer counted there
        self._peer: PeerKey | None = None  # who is at the other end, once known (`_peer_key`)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
        self._connected_at = self.loop.time()
        if len(self.connections) > self.limits.max_connections and not self._make_room():
            self._refuse_over_cap()
            return
        self._arm(self.limits.header_timeout_s, "header")

    # ------------------------------------------------------------------ the connection cap

    def _idle(self) -> bool:
        """Between requests with no byte of the next one received; or connected IDLE_AFTER_S
        ago without a byte (younger, its request may be on its way: it is not closed for it)."""
        cycle: RequestResponseCycle | None = self.cycle  # None before the first request
        if cycle is None and self.loop.time() - self._connected_at < IDLE_AFTER_S:
            return False
        return (
            (cycle is None or cycle.response_complete)
            and not self._in_body
            and not (self._in_head and self._head_started)
            and not self._refused
            and not self.transport.is_closing()
        )

    def _authenticated(self) -> bool:
        """A request on this connection carried the gateway's token (`security.AUTHENTICATED`
        in its scope); sticky, as the next request's head replaces the scope."""
        if not self._trusted and self.scope is not None and self.scope.get(AUTHENTICATED):
            self._trusted = True
        return self._trusted

    def _half_sent(self) -> bool:
        """Part of a request received (head or body), the rest still awaited."""
        return self._in_body or (self._in_head and self._head_started)

    def _make_room(self) -> bool:
        """Close one connection for this one; never one that presented the token (a
        newcomer has not, yet: a tokenless local process holding the cap with half-sent
        requests made the engine's idle keep-alive connection go, and its reconnect got 503).

        In order: an idle connection; else one of the peer holding the most connections,
        when it holds more than this newcomer's peer (`peers`: a uid where the kernel names
        one), so a local user churning connections (each too young to count as idle) cannot
        keep another's out; else the oldest half-sent request of a peer holding at least as
        many as this newcomer's. False when none qualifies. Only run past the cap, so its
        walk over the connections costs nothing otherwise."""
        others: list[FrontDoorProtocol] = []
        going: list[FrontDoorProtocol] = []
        let_go = False  # a lingering connection closed
        for other in list(self.connections):
            if other is self or not isinstance(other, FrontDoorProtocol):
                continue
            if other._lingering:  # refused before, answered, and silent since: let it go now
                other._lingering = False
                other.transport.close()
                let_go = True
            elif not other._refused and not other.transport.is_closing():
                others.append(other)
            else:  # closing (an answer the client does not read): still its peer's
                going.append(other)
        # room made by letting refused ones go: nothing else is closed (a peer whose connections
        # at the cap were all refused ones counted as holding none, and closed another's)
        if let_go and len(others) + len(going) < self.limits.max_connections:
            return True
        closable = [other for other in others if not other._authenticated()]
        for other in closable:
            if other._idle():
                other._refused = True
                other._disarm()
                other.transport.close()
                PRESSURE_LOG.note(
                    "idle connection closed: at the connection cap",
                    cap=self.limits.max_connections,
                )
                return True
        held = Counter(other._peer_key() for other in [*others, *going])
        mine = self._peer_key()
        held[mine] += 1
        for peer, count in held.most_common():
            if count <= held[mine]:
                break
            theirs = [other for other in closable if other._peer_key() == peer]
            if theirs:
                victim = min(theirs, key=_eviction_order)
                PRESSURE_LOG.note(
                    "connection closed: its peer holds the most connections at the cap",
                    cap=self.limits.max_connections,
                    peer=_peer_name(peer),
                    connections=count,
                )
                victim._answer_and_close(503, "Too many connections", _OVER_CAP_DETAIL)
                return True
        half_sent = [
            other
            for other in closable
            if other._half_sent() and held[other._peer_key()] >= held[mine]
        ]
        if not half_sent:
            return False
        oldest_half_sent = min(half_sent, key=lambda other: other._connected_at)
        PRESSURE_LOG.note(
            "half-sent request closed: at the connection cap",
            cap=self.limits.max_connections,
            client=_peer(oldest_half_sent.client),
        )
        oldest_half_sent._answer_and_close(503, "Too many connections", _OVER_CAP_DETAIL)
        return True

    def _peer_key(self) -> PeerKey:
        """Who is at the other end (`peers`), asked of the kernel once per connection."""
        if self._peer is not None:
            return self._peer
        found: PeerKey | None = None
        sock = self.transport.get_extra_info("socket")
        try:
            if sock is not None and sock.family == socket.AF_UNIX:
                found = unix_peer(sock)
            else:
                client = self.transport.get_extra_info("peername")
                server = self.transport.get_extra_info("sockname")
                uid = tcp_owner(client, server) if client and server else None
                found = None if uid is None else ("uid", uid)
        except OSError:
            found = None
        if found is None:  # a remote client (or gone): asked once, not at every newcomer
            found = ("address", self.client[0] if self.client else None)
        self._peer = found
        return found

    def _refuse_over_cap(self) -> None:
        PRESSURE_LOG.note(
            "connection refused: at the connection cap, none idle",
            cap=self.limits.max_connections,
            client=_peer(self.client),
        )
        self._refused = True
        body = problem_body(
            503,
            {
                "type": "about:blank",
                "title": "Too many connections",
                "detail": f"the gateway holds {self.limits.max_connections} connections, "
                "none idle; retry shortly",
            },
        )
        self.transport.write(
            STATUS_LINE[503]
            + f"content-type: {PROBLEM_TYPE}\r\ncontent-length: {len(body)}\r\n".encode()
            + b"retry-after: 1\r\nconnection: close\r\n\r\n"
            + body
        )
        # Half-close, and close once the client's request is read (and dropped): a close with
        # unread bytes would send a reset, and the client would lose the answer with it. Until
        # then it lingers: at most IDLE_AFTER_S, or until the next connection past the cap.
        self.transport.write_eof()
        self._lingering = True
        self._deadline = self.loop.call_later(IDLE_AFTER_S, self.transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._stop_send_watch()
        self._release_body()
        self._count_unsent(0)
        super().connection_lost(exc)

    # ------------------------------------------------------------------ the buffer budget

    def _release_body(self) -> None:
        if self._body_held:
            self.limits.buffers.count(self._body_held, 0)
            self._body_held = 0

    def _count_unsent(self, unsent: int) -> None:
        if unsent != self._unsent_held:
            self.limits.buffers.count(self._unsent_held, unsent)
            self._unsent_held = unsent

    def on_response_complete(self) -> None:
        self._release_body()  # the route is done with it
        super().on_response_complete()

    def _refuse_over_budget(self) -> None:
        PRESSURE_LOG.note(
            "request refused: buffer budget spent",
            maxBufferedBytes=self.limits.buffers.limit,
            client=_peer(self.client),
        )
        self._answer_and_close(
            503,
            "Gateway buffers full",
            f"the gateway holds {self.limits.buffers.limit} bytes of request bodies and "
            "unsent answers (gateway.max_buffered_bytes); retry shortly",
        )

    # ------------------------------------------------------------------ the send deadline
    # The transport calls pause_writing when an answer outgrows its buffer's high-water mark
    # (the client reads slower than the gateway writes), resume_writing once it drained. In
    # between, every `send_timeout_s` the buffer must have shrunk: a client that takes nothing
    # for that long has its connection aborted, which frees the buffered answer at once. A slow
    # client that keeps reading is never cut; the check costs nothing while nothing is paused.

    def pause_writing(self) -> None:
        super().pause_writing()
        unsent = self.transport.get_write_buffer_size()
        self._count_unsent(unsent)
        if self._send_watch is None:
            self._watch_send(unsent)

    def resume_writing(self) -> None:
        self._stop_send_watch()
        self._count_unsent(0)
        super().resume_writing()

    def _watch_send(self, unsent: int) -> None:
        self._send_watch = self.loop.call_later(
            self.limits.send_timeout_s, self._check_send_progress, unsent
        )

    def _stop_send_watch(self) -> None:
        if self._send_watch is not None:
            self._send_watch.cancel()
            self._send_watch = None

    def _check_send_progress(self, unsent_before: int) -> None:
        self._send_watch = None
        if self.transport.is_closing():
            return
        unsent = self.transport.get_write_buffer_size()
        self._count_unsent(unsent)
        if unsent < unsent_before:
            self._watch_send(unsent)
            return
        log.warning(
            "send deadline: connection closed",
            extra={
                "fields": {
                    "client": _peer(self.client),
                    "unsentBytes": unsent,
                    "seconds": self.limits.send_timeout_s,
                }
            },
        )
        self.transport.abort()  # drops the buffered answer; the route sees a disconnect

    def data_received(self, data: bytes) -> None:
        if self._refused:
            if self._lingering:  # its request is read: the close sends no reset now
                self._lingering = False
                self.transport.close()
            return
        if self._in_body:
            self._framing_bytes += len(data)
        self._head_began_in_read, self._read_used = False, 0
        super().data_received(data)
        self._check_framing_after_parse(len(data))
        self._arm_owed()

    def _arm_owed(self) -> None:
        owed, self._owed = self._owed, None
        if owed is not None and not self._refused and self._deadline is None:
            seconds = (
                self.limits.header_timeout_s if owed == "header" else self.limits.body_timeout_s
            )
            self._arm(seconds, owed)

    def _check_framing_after_parse(self, size: int) -> None:
        """The parser's callbacks may have refused the request while reading; its own method, so
        the type checker does not carry `_refused` narrowed from before the parse."""
        if self._refused:
            return
        if self._in_head:  # incomplete: counted from where it began (in this read or before)
            self._head_bytes += size - self._head_began_at if self._head_began_in_read else size
            if self._head_bytes > self.limits.max_header_bytes:
                self._refuse_oversized_head()
        elif self._in_body and self._framing_bytes > self.limits.max_header_bytes:
            self._refuse(
                431,
                "Request header fields too large",
                f"chunk framing (extensions, trailers) exceeds "
                f"{self.limits.max_header_bytes} bytes",
            )

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._in_head:  # a trailer field is never made a header of the request
            super().on_header(name, value)

    def on_chunk_header(self) -> None:
        self._framing_bytes = 0

    def on_message_begin(self) -> None:
        if self._refused:
            return
        self._authenticated()  # before the last request's scope is replaced
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._head_started = self._head_began_in_read = True
        self._head_began_at = self._read_used
        if self._deadline is None:  # a keep-alive request: its head starts now
            self._owed = "header"

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        if self.limits.buffers.spent:  # no new work while the gateway holds its budget
            self._refuse_over_budget()  # (still in the head: the answer is written)
            return
        self._in_head = self._head_started = False
        self._in_body, self._framing_bytes = True, 0
        self._disarm()
        head_bytes = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        # what this head took of the read being parsed: its request line and final CRLF too
        whole = head_bytes + len(self.parser.get_method()) + len(" HTTP/1.1\r\n\r\n") + 1
        self._read_used += whole if self._head_began_in_read else max(whole - self._head_bytes, 0)
        if head_bytes > self.limits.max_header_bytes:  # the whole head came in one read
            self._refuse_oversized_head()
            return
        super().on_headers_complete()
        self._owed = None if self.parser.should_upgrade() else "body"

    def on_body(self, body: bytes) -> None:
        self._framing_bytes = 0
        self._read_used += len(body)
        if self._refused:
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:  # else uvicorn drops it
            if not self.limits.buffers.take(len(body)):
                self._refuse_over_budget()
                return
            self._body_held += len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._in_body = False
        self._disarm()
        self._owed = None
        if not self._refused:
            super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request it cannot parse, as a problem like every other."""
        self._refuse(400, "Bad request", msg)

    def _refuse_oversized_head(self) -> None:
        self._refuse(
            431,
            "Request header fields too large",
            f"the request head exceeds {self.limits.max_header_bytes} bytes",
        )

    def _arm(self, seconds: float, phase: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._timed_out, phase, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self, phase: str, seconds: float) -> None:
        self._deadline = None
        self._refuse(
            408, "Request timeout", f"the request {phase} did not arrive within {seconds:g} s"
        )

    def _refuse(self, status: int, title: str, detail: str) -> None:
        """Answer (unless a response already began) and close; a waiting route sees a disconnect."""
        log.warning(
            "front door refusal",
            extra={"fields": {"status": status, "detail": detail, "client": _peer(self.client)}},
        )
        self._answer_and_close(status, title, detail)

    def _may_answer(self) -> bool:
        """Whether an answer written now is read as the answer to the request refused: no
        earlier answer is owed on the connection, and this request's own has not begun.

        In a head (or between requests) `cycle` is the last request whose head was complete:
        unless its answer is done, one is owed before this request's (a pipelining client's
        first requests still being served). In a body it is this request's, and `pipeline`
        holds it while an earlier one is served. A refusal written ahead of an owed answer
        was read by the client as that answer, and the half-close made the owed answer's
        write raise, logged by asyncio for every request pipelined: such a refusal closes."""
        cycle = self.cycle
        if self._in_body and cycle is not None:
            return not cycle.response_started and not self.pipeline
        return cycle is None or cycle.response_complete

    def _answer_and_close(self, status: int, title: str, detail: str) -> None:
        self._disarm()
        self._refused = True
        if self.transport.is_closing():
            return
        if self._may_answer():
            body = problem_body(status, {"type": "about:blank", "title": title, "detail": detail})
            self.transport.write(
                STATUS_LINE[status]
                + f"content-type: {PROBLEM_TYPE}\r\ncontent-length: {len(body)}\r\n".encode()
                + (b"retry-after: 1\r\n" if status == 503 else b"")
                + b"connection: close\r\n\r\n"
                + body
            )
            # as past the cap: a close with the client's bytes unread (a slowloris still
            # trickling its head) would send a reset, and the client would lose the answer
            self.transport.write_eof()
            self._lingering = True
            self._deadline = self.loop.call_later(IDLE_AFTER_S, self.transport.close)
            return
        self.transport.close()


class OneLinePerInterval:
    """One warning per event kind and interval, carrying how many were not logged since: a
    flood of refused connections must not become a flood of log lines."""

    def __init__(self, interval_s: float = 10.0) -> None:
        self.interval_s = interval_s
        self._last: dict[str, float] = {}
        self._unlogged: dict[str, int] = {}

    def note(self, event: str, **fields: Any) -> None:
        now = time.monotonic()
        last = self._last.get(event)
        if last is not None and now - last < self.interval_s:
            self._unlogged[event] = self._unlogged.get(event, 0) + 1
            return
        self._last[event] = now
        unlogged = self._unlogged.pop(event, 0)
        log.warning(event, extra={"fields": {**fields, "alsoSinceLastLine": unlogged}})


PRESSURE_LOG = OneLinePerInterval()


class CoalescingTransport:
    """The connection's transport, with what one event-loop step writes sent in one go.

    uvicorn writes a response's head and its body separately: two sends on the socket, two
    segments (TCP_NODELAY), two wake-ups of the client, for an answer that is ready at once.
    Held until the step ends, they leave together (`writelines`: one gathered write, no copy).
    Everything but writing and closing is the transport's own.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []
        self._ended = False  # write_eof called: the transport refuses writes from then on

    def write(self, data: bytes) -> None:
        if self._ended:  # as a closed transport does: a late answer is dropped, not raised
            return
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        if not pending or self._transport.is_closing():
            return
        if len(pending) == 1:
            self._transport.write(pending[0])
        else:
            self._transport.writelines(pending)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def write_eof(self) -> None:
        self._flush()
        self._ended = True
        self._transport.write_eof()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def _peer(client: tuple[str, int] | None) -> str | None:
    return f"{client[0]}:{client[1]}" if client else None


def _peer_name(peer: PeerKey) -> str:
    return f"{peer[0]} {peer[1]}"


def _eviction_order(other: FrontDoorProtocol) -> tuple[bool, bool, float]:
    """Of one peer's connections: a half-sent request first, then one that sent nothing yet,
    then one being answered; the oldest first in each."""
    cycle: RequestResponseCycle | None = other.cycle  # None before the first request
    silent = cycle is None and not other._half_sent()
    return (not other._half_sent(), not silent, other._connected_at)


def protocol_class(limits: ConnectionLimits) -> type[FrontDoorProtocol]:
    """A protocol class bound to these limits (uvicorn builds one protocol per connection)."""
    return type("BoundFrontDoorProtocol", (FrontDoorProtocol,), {"limits": limits})


def server_config(app: Any, gateway: GatewayConfig, **options: Any) -> uvicorn.Config:
    """The uvicorn settings every gateway runs with, the CLI's and the tests' alike. The
    connection cap is fitted to the descriptor limit in effect now (`gpp serve` raised it)."""
    cap = connection_cap(gateway.max_connections)
    log.info("connection cap", extra={"fields": {"maxConnections": cap}})
    limits = ConnectionLimits(
        max_header_bytes=gateway.max_header_bytes,
        header_timeout_s=gateway.header_timeout_s,
        body_timeout_s=gateway.body_timeout_s,
        send_timeout_s=gateway.send_timeout_s,
        max_connections=cap,
        buffers=BufferBudget(gateway.max_buffered_bytes),
    )
    # No proxy headers: the gateway is its clients' direct peer on loopback, so an
    # X-Forwarded-For from one of them would only let it name another client in the logs.
    return uvicorn.Config(
        app,
        http=protocol_class(limits),
        log_config=None,
        access_log=False,
        proxy_headers=False,
        **options,
    )
