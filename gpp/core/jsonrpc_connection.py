"""The JSON-RPC 2.0 server side as a sans-IO state machine, in the h11 style: a body or line
in, the calls to make and the cancels to pass on out; their answers in, the bytes to write out.

It owns every rule that is about the protocol rather than about running a method, so they are
written once and testable with bytes alone (no IO, clocks, threads or asyncio):

- parsing a body or line, single or batch: -32700 for what is not I-JSON, -32600 for a bad
  envelope, one -32600 for an empty (or over-long) batch (`gpp.core.jsonrpc.parse_request`);
- which calls to make: every valid request and notification, in order; a `$/cancelRequest` is
  not a call, and when sent as a request it is answered here (`null`);
- which calls a `$/cancelRequest {"id": X}` names: those still in flight on this connection
  with id X, exactly (`7` and `"7"` differ), this message's own included wherever they stand
  in its batch;
- every answer carrying its client's id exactly as sent, whoever produced it;
- the answer to write: a batch's in order with notifications left out, nothing for a message
  of notifications only.

Whoever runs the calls (the plugin's handler thread, the gateway's plugin session) does only
that and feeds each answer back. The plugin's stdio transport keeps one connection for its
whole stream, so a cancel on a later line reaches a call still running; the gateway's `/rpc`
makes one per HTTP request, so a client can cancel only the calls of its own batch.
"""

from __future__ import annotations

from typing import Any

from gpp.core.jsonrpc import (
    CANCEL_METHOD,
    INTERNAL_ERROR,
    NO_ID,
    Invalid,
    Request,
    encode,
    error,
    id_key,
    parse_request,
    response,
)

__all__ = ["Invocation", "JsonRpcConnection", "Message"]

IdKey = tuple[str, Any]


class Invocation:
    """One request or notification a message asks to run. `cancelled` turns true when a
    `$/cancelRequest` names it (the runner decides what that means: a flag, a line to a plugin).
    Compared by identity: two calls with the same id are two calls. It does not point back to
    its message, so a body's objects are freed as soon as it is answered, not by the cycle
    collector; `Message.settle` knows its own calls by the slot each holds until answered.
    """

    __slots__ = ("cancelled", "index", "request")

    def __init__(self, request: Request, index: int) -> None:
        self.request = request
        self.index = index  # its place in the message
        self.cancelled = False

    @property
    def is_notification(self) -> bool:
        return self.request.id is NO_ID

    def __repr__(self) -> str:
        return f"Invocation({self.request!r}, index={self.index}, cancelled={self.cancelled})"


class Message:
    """One body or line, received: what to run, what its cancels name, and its answer.

    Run every one of `calls` (sending them all before acting on `cancelled`, so a cancel finds a
    call later in its own batch), settle each request's answer, then write `encode()`.
    A plain class with slots, not a dataclass: it is made for every `/rpc` request.
    """

    __slots__ = ("_answers", "_in_flight", "_owed", "batch", "calls", "cancelled", "cancels")

    def __init__(self, batch: bool, in_flight: dict[IdKey, list[Invocation]]) -> None:
        self.batch = batch
        self.calls: list[Invocation] = []
        """Requests and notifications to run, in the message's order."""
        self.cancelled: list[Invocation] = []
        """Calls in flight (this message's or an earlier one's) its `$/cancelRequest`s name."""
        self.cancels = 0
        """How many `$/cancelRequest` entries it held (answered here when sent as requests)."""
        self._answers: list[Any] = []  # one slot per entry: an answer, None, or the call owed
        self._owed = 0
        self._in_flight = in_flight

    @property
    def done(self) -> bool:
        """Every request has its answer: `encode()` may be called."""
        return self._owed == 0

    @property
    def expects_answer(self) -> bool:
        """Something will be written back (a request, a cancel sent as one, an invalid entry)."""
        return any(answer is not None for answer in self._answers)

    def settle(self, call: Invocation, answer: dict[str, Any]) -> None:
        """A request's answer (a response or error object), from whoever ran it. Its `id` is
        made the client's own, value and type, whatever the runner put there; a second answer
        for the same call, or one for a notification, is ignored."""
        answers, index, client_id = self._answers, call.index, call.request.id
        if index >= len(answers) or answers[index] is not call:
            return  # answered already, a notification, or another message's call
        if answer.get("id", answer) is not client_id:
            answer = {**answer, "id": client_id}
        answers[index] = answer
        self._owed -= 1
        key = id_key(client_id)
        calls = self._in_flight[key]  # registered by `receive`, left only here
        if len(calls) == 1:
            del self._in_flight[key]
        else:
            calls.remove(call)

    def result(self, call: Invocation, value: Any) -> None:
        self.settle(call, response(call.request.id, value))

    def fail(self, call: Invocation, code: int, text: str | None = None, data: Any = None) -> None:
        self.settle(call, error(call.request.id, code, text, data))

    def fail_unsettled(self, code: int, text: str | None = None, data: Any = None) -> None:
        """Every request still without an answer gets this error: the runner could not run them
        (the plugin would not start, the stream's work failed). Answers already in stay."""
        for call in self.calls:
            if self._answers[call.index] is call:
                self.fail(call, code, text, data)

    def payload(self) -> Any:
        """The JSON value to write, or None when there is nothing to write (notifications
        only): a batch's answers in its order, a single message's one answer."""
        if not self.done:
            raise RuntimeError("a request of this message has no answer yet")
        present = [answer for answer in self._answers if answer is not None]
        if not present:
            return None
        return present if self.batch else present[0]

    def encode(self) -> bytes | None:
        """`payload()` as one line without its newline, in the specification's layout
        (`{"jsonrpc": "2.0", "result": 19, "id": 1}`, a batch `[…, …]`), or None. An answer
        JSON cannot carry (NaN, ±Infinity, a lone surrogate, a set…) is written as -32603 in
        its place: one bad value must not lose the rest of a batch."""
        payload = self.payload()
        if payload is None:
            return None
        try:  # the whole payload at once (json.dumps per answer cost a batch twice the time)
            return encode(payload)[:-1]
        except (TypeError, ValueError):
            pass
        if not self.batch:
            return _encode_answer(payload)
        return b"[" + b", ".join(_encode_answer(answer) for answer in payload) + b"]"


def _encode_answer(answer: dict[str, Any]) -> bytes:
    try:
        return encode(answer)[:-1]
    except (TypeError, ValueError) as exc:
        data = {"exception": type(exc).__name__}
        return encode(error(answer.get("id"), INTERNAL_ERROR, data=data))[:-1]


class JsonRpcConnection:
    """The calls in flight on one stream (or one HTTP request) and the messages they came in.

    `receive` each body or line; settle answers on the message it returns. Not thread-safe: a
    transport that receives on one thread and settles on another holds one lock for both.
    """

    def __init__(self, max_batch: int | None = None) -> None:
        self.max_batch = max_batch
        self._in_flight: dict[IdKey, list[Invocation]] = {}

    @property
    def in_flight(self) -> int:
        """Requests received and not yet settled."""
        return sum(len(calls) for calls in self._in_flight.values())

    def receive(self, data: bytes | str) -> Message:
        """One body or line: its calls are registered in flight before its cancels are
        matched, so a cancel names calls of its own batch wherever they stand."""
        parsed = parse_request(data, self.max_batch)
        batch = isinstance(parsed, list)
        items = parsed if isinstance(parsed, list) else [parsed]
        message = Message(batch, self._in_flight)
        answer, run, in_flight = message._answers.append, message.calls.append, self._in_flight
        cancels: list[Request] = []
        for index, item in enumerate(items):
            if isinstance(item, Invalid):
                answer(error(item.id, item.code))
            elif item.method == CANCEL_METHOD:
                cancels.append(item)
                answer(None if item.id is NO_ID else response(item.id, None))
            else:
                call = Invocation(item, index)
                run(call)
                if item.id is NO_ID:  # a notification
                    answer(None)
                else:
                    answer(call)  # owed
                    in_flight.setdefault(id_key(item.id), []).append(call)
        message._owed = sum(1 for call in message.calls if call.request.id is not NO_ID)
        message.cancels = len(cancels)
        for cancel in cancels:
            named = _named_id(cancel)
            for call in self._in_flight.get(named, ()) if named is not None else ():
                if not call.cancelled:
                    call.cancelled = True
                    message.cancelled.append(call)
        return message


def _named_id(cancel: Request) -> IdKey | None:
    """The id a `$/cancelRequest` names, as a key; None when it names none a call can have."""
    params = cancel.params
    if not isinstance(params, dict) or "id" not in params:
        return None
    named = params["id"]
    return id_key(named) if type(named) in (str, int, float, type(None)) else None
