"""The sans-IO JSON-RPC connection (`gpp.core.jsonrpc_connection`), with bytes alone: every
example of the specification, batches, cancels, ids kept exactly as sent, and the answer a
message writes, whatever order its calls are answered in."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonrpc_spec import SPEC_EXAMPLES

from gpp.core import Invocation, JsonRpcConnection, Message, jsonrpc


def _subtract(params: Any) -> Any:
    if isinstance(params, dict):
        return params["minuend"] - params["subtrahend"]
    return params[0] - params[1]


METHODS: dict[str, Any] = {
    "subtract": _subtract,
    "sum": sum,
    "get_data": lambda params: ["hello", 5],
    "update": lambda params: None,
    "notify_hello": lambda params: None,
    "notify_sum": lambda params: None,
}


def _run(message: Message) -> None:
    """What a runner does, here in memory: each call to its method, its answer settled."""
    for call in message.calls:
        method = METHODS.get(call.request.method)
        if call.is_notification:
            continue
        if method is None:
            message.fail(call, jsonrpc.METHOD_NOT_FOUND)
        else:
            message.result(call, method(call.request.params))


def _request(method: str, request_id: Any = jsonrpc.NO_ID, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if request_id is not jsonrpc.NO_ID:
        message["id"] = request_id
    return message


def _body(*messages: dict[str, Any]) -> bytes:
    return json.dumps(list(messages)).encode()


def _cancel(request_id: Any, as_request: Any = jsonrpc.NO_ID) -> dict[str, Any]:
    return _request(jsonrpc.CANCEL_METHOD, as_request, {"id": request_id})


@pytest.mark.parametrize(("request_line", "expected"), SPEC_EXAMPLES)
def test_every_specification_example_byte_for_byte(request_line: str, expected: str | None) -> None:
    message = JsonRpcConnection().receive(request_line.encode())
    _run(message)
    answer = message.encode()
    assert (answer.decode() if answer is not None else None) == expected


def test_a_str_body_is_read_as_its_utf8() -> None:
    message = JsonRpcConnection().receive(
        '{"jsonrpc": "2.0", "method": "sum", "params": [1], "id": "é"}'
    )
    _run(message)
    assert message.encode() == '{"jsonrpc": "2.0", "result": 1, "id": "é"}'.encode()


def test_the_calls_are_the_requests_and_notifications_in_order_and_nothing_else() -> None:
    message = JsonRpcConnection().receive(
        _body(
            _request("a", 1),
            {"foo": "boo"},
            _request("b"),
            _cancel(1),
            _request("c", "x"),
        )
    )
    assert [(c.request.method, c.index, c.is_notification) for c in message.calls] == [
        ("a", 0, False),
        ("b", 2, True),
        ("c", 4, False),
    ]
    assert message.batch and message.cancels == 1 and not message.done


def test_a_batch_answer_keeps_the_request_order_whatever_order_the_answers_come_in() -> None:
    message = JsonRpcConnection().receive(
        _body(_request("a", 1), _request("n"), _request("b", 2), _request("c", 3))
    )
    first, _, second, third = message.calls
    message.result(third, "c")
    message.result(first, "a")
    assert not message.done
    with pytest.raises(RuntimeError):
        message.payload()
    message.result(second, "b")
    assert [answer["result"] for answer in message.payload()] == ["a", "b", "c"]


def test_ids_come_back_exactly_as_sent_whatever_id_the_runner_answered_with() -> None:
    """7, "7", 7.5 and null are four ids; the gateway's runner answers with ids of its own."""
    ids: list[Any] = [7, "7", 7.5, None]
    message = JsonRpcConnection().receive(_body(*(_request("m", i) for i in ids)))
    for gateway_id, call in enumerate(message.calls, start=100):
        message.settle(call, jsonrpc.response(gateway_id, "ok"))
    answered = message.payload()
    assert [a["id"] for a in answered] == ids
    assert [type(a["id"]) for a in answered] == [type(i) for i in ids]
    assert message.encode() is not None and b'"id": "7"' in message.encode()  # type: ignore[operator]


def test_a_settled_answer_stays_and_a_notification_takes_none() -> None:
    message = JsonRpcConnection().receive(_body(_request("a", 1), _request("note")))
    request, note = message.calls
    message.result(request, "first")
    message.result(request, "second")  # ignored: one answer per request
    message.result(note, "ignored")  # a notification is never answered
    assert message.payload() == [jsonrpc.response(1, "first")]


def test_an_answer_settled_on_another_message_is_ignored_by_both() -> None:
    connection = JsonRpcConnection()
    mine = connection.receive(json.dumps(_request("a", 1)).encode())
    theirs = connection.receive(json.dumps(_request("b", 1)).encode())
    theirs.result(mine.calls[0], "wrong message")
    assert not mine.done and not theirs.done and connection.in_flight == 2
    mine.result(mine.calls[0], "mine")
    theirs.result(theirs.calls[0], "theirs")
    assert (mine.payload()["result"], theirs.payload()["result"]) == ("mine", "theirs")
    assert connection.in_flight == 0


def test_fail_unsettled_answers_only_the_requests_still_waiting() -> None:
    message = JsonRpcConnection().receive(
        _body(_request("a", 1), _request("b", 2), {"bad": True}, _request("note"), _cancel(9, 4))
    )
    message.result(message.calls[0], "done")
    message.fail_unsettled(-32003, "plugin unavailable")
    assert message.payload() == [
        jsonrpc.response(1, "done"),
        jsonrpc.error(2, -32003, "plugin unavailable"),
        jsonrpc.error(None, jsonrpc.INVALID_REQUEST),
        jsonrpc.response(4, None),
    ]


def test_a_message_of_notifications_only_writes_nothing_but_its_calls_still_run() -> None:
    message = JsonRpcConnection().receive(_body(_request("a"), _request("b")))
    assert message.done and not message.expects_answer and len(message.calls) == 2
    assert message.payload() is None and message.encode() is None


def test_what_expects_an_answer() -> None:
    connection = JsonRpcConnection()
    assert connection.receive(_body(_request("a"), _request("b", 1))).expects_answer
    assert connection.receive(b"[1]").expects_answer
    assert connection.receive(b"{").expects_answer
    assert connection.receive(json.dumps(_cancel(1, 2)).encode()).expects_answer
    assert not connection.receive(json.dumps(_cancel(1)).encode()).expects_answer


@pytest.mark.parametrize("body", [b"[]", b"[1, 2, 3]"])
def test_an_empty_or_over_long_batch_is_one_invalid_request(body: bytes) -> None:
    message = JsonRpcConnection(max_batch=2).receive(body)
    assert not message.batch and not message.calls
    assert message.payload() == jsonrpc.error(None, jsonrpc.INVALID_REQUEST)


@pytest.mark.parametrize("body", [b"[NaN]", b'{"id": 1e400}', b'{"a": 1, "a": 2}', b'"\\ud800"'])
def test_what_is_not_i_json_is_a_parse_error_with_a_null_id(body: bytes) -> None:
    message = JsonRpcConnection().receive(body)
    assert message.payload() == jsonrpc.error(None, jsonrpc.PARSE_ERROR)


def test_an_answer_json_cannot_carry_is_32603_in_its_place_and_the_rest_is_kept() -> None:
    message = JsonRpcConnection().receive(_body(_request("a", 1), _request("b", 2)))
    message.result(message.calls[0], math.nan)
    message.result(message.calls[1], {1, 2})
    message_ok = JsonRpcConnection().receive(_body(_request("c", 3)))
    message_ok.result(message_ok.calls[0], 3)
    encoded = message.encode()
    assert encoded is not None
    assert json.loads(encoded) == [
        jsonrpc.error(1, jsonrpc.INTERNAL_ERROR, data={"exception": "ValueError"}),
        jsonrpc.error(2, jsonrpc.INTERNAL_ERROR, data={"exception": "TypeError"}),
    ]
    assert message_ok.encode() == b'[{"jsonrpc": "2.0", "result": 3, "id": 3}]'


# ---------------------------------------------------------------------------------- cancels


def _cancelled(message: Message) -> list[Any]:
    return [call.request.id for call in message.cancelled]


@pytest.mark.parametrize("cancel_first", [True, False])
def test_a_cancel_names_a_call_of_its_own_batch_wherever_it_stands(cancel_first: bool) -> None:
    entries = [_cancel(1), _request("slow", 1)]
    message = JsonRpcConnection().receive(_body(*(entries if cancel_first else entries[::-1])))
    (call,) = message.calls
    assert message.cancelled == [call] and call.cancelled


def test_a_cancel_names_ids_exactly() -> None:
    message = JsonRpcConnection().receive(
        _body(_request("a", 7), _request("b", "7"), _request("c", None), _cancel("7"))
    )
    assert _cancelled(message) == ["7"]
    assert [c.cancelled for c in message.calls] == [False, True, False]
    message = JsonRpcConnection().receive(
        _body(_request("c", None), _request("d", 1), _cancel(None))
    )
    assert _cancelled(message) == [None]


@pytest.mark.parametrize(
    "params", [None, [1], {"ids": 1}, {"id": True}, {"id": [1]}, {"id": {"id": 1}}, {"id": 1.5}]
)
def test_a_cancel_that_names_no_call_cancels_nothing(params: Any) -> None:
    cancel = _request(jsonrpc.CANCEL_METHOD, "c", params)
    message = JsonRpcConnection().receive(_body(_request("a", 1), cancel))
    assert message.cancelled == [] and not message.calls[0].cancelled
    message.result(message.calls[0], 1)
    assert message.payload()[1] == jsonrpc.response("c", None)  # as a request, answered null


def test_a_cancel_sent_as_a_request_is_answered_null_and_as_a_notification_not_at_all() -> None:
    connection = JsonRpcConnection()
    as_request = connection.receive(json.dumps(_cancel(5, "me")).encode())
    assert as_request.calls == [] and as_request.cancels == 1
    assert as_request.encode() == b'{"jsonrpc": "2.0", "result": null, "id": "me"}'
    assert connection.receive(json.dumps(_cancel(5)).encode()).encode() is None


def test_on_one_connection_a_cancel_reaches_a_call_of_an_earlier_message_until_it_is_answered() -> (
    None
):
    """The plugin's transport keeps one connection for its stream: a cancel on a later line
    names a call still in flight, and names nothing once that call is answered."""
    connection = JsonRpcConnection()
    first = connection.receive(json.dumps(_request("slow", 1)).encode())
    assert connection.in_flight == 1
    cancel = connection.receive(json.dumps(_cancel(1)).encode())
    assert cancel.cancelled == first.calls and first.calls[0].cancelled
    again = connection.receive(json.dumps(_cancel(1)).encode())
    assert again.cancelled == []  # already cancelled: not passed on twice
    first.fail(first.calls[0], jsonrpc.REQUEST_CANCELLED)
    assert connection.in_flight == 0
    late = connection.receive(json.dumps(_request("slow", 2)).encode())
    assert connection.receive(json.dumps(_cancel(1)).encode()).cancelled == []
    assert not late.calls[0].cancelled


def test_a_cancel_names_every_call_in_flight_with_that_id() -> None:
    message = JsonRpcConnection().receive(_body(_request("a", 1), _request("b", 1), _cancel(1)))
    assert message.cancelled == message.calls


def test_separate_connections_never_see_each_others_calls() -> None:
    """`/rpc` makes one connection per HTTP request: a client cancels only its own calls."""
    mine = JsonRpcConnection().receive(json.dumps(_request("slow", 1)).encode())
    theirs = JsonRpcConnection().receive(json.dumps(_cancel(1)).encode())
    assert theirs.cancelled == [] and not mine.calls[0].cancelled


# ---------------------------------------------------------------------------------- properties

IDS = st.one_of(
    st.integers(-(2**53) + 1, 2**53 - 1),  # past that, a parse error (I-JSON)
    st.text(max_size=5),
    st.floats(allow_nan=False, allow_infinity=False),
    st.none(),
)
ENTRIES = st.lists(st.one_of(IDS, st.just(jsonrpc.NO_ID)), min_size=1, max_size=20)


@settings(deadline=None)  # a loaded 2-core machine: no timing in a property test
@given(entries=ENTRIES, order=st.randoms(use_true_random=False))
def test_any_batch_answers_each_request_once_in_order_with_its_own_id(
    entries: list[Any], order: Any
) -> None:
    connection = JsonRpcConnection()
    message = connection.receive(_body(*(_request("m", i, [n]) for n, i in enumerate(entries))))
    requests = [c for c in message.calls if not c.is_notification]
    assert connection.in_flight == len(requests)
    shuffled: list[Invocation] = list(message.calls)
    order.shuffle(shuffled)
    for call in shuffled:  # answered out of order, with a runner's own ids
        message.settle(call, jsonrpc.response(-1, call.request.params[0]))
    assert connection.in_flight == 0 and message.done
    expected = [(n, i) for n, i in enumerate(entries) if i is not jsonrpc.NO_ID]
    payload = message.payload()
    if not expected:
        assert payload is None and message.encode() is None
        return
    assert [(a["result"], a["id"]) for a in payload] == expected
    assert [type(a["id"]) for a in payload] == [type(i) for _, i in expected]
    encoded = message.encode()
    assert encoded is not None
    assert encoded == json.dumps(payload, ensure_ascii=False).encode()


@settings(deadline=None)
@given(ids=st.lists(IDS, min_size=1, max_size=8), named=IDS)
def test_a_cancel_names_exactly_the_calls_with_an_equal_id_of_the_same_type(
    ids: list[Any], named: Any
) -> None:
    message = JsonRpcConnection().receive(_body(*(_request("m", i) for i in ids), _cancel(named)))
    assert [c.cancelled for c in message.calls] == [
        jsonrpc.id_key(i) == jsonrpc.id_key(named) for i in ids
    ]
