"""JSON-RPC 2.0: every example of the specification, over BytesIO, over a real pipe and through
the gateway's /rpc; cancellation, progress, ids kept exactly, crashes and hangs."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from conftest import FIXTURE_PLUGINS, REPO
from gateway_harness import Gateway, reference_plugin, running_gateway, write_config
from jsonrpc_spec import SPEC_EXAMPLES

from gpp.plugin import jsonrpc

EXAMPLE = REPO / "plugins" / "jsonrpc_example.py"
sys.path.insert(0, str(REPO / "plugins"))
import jsonrpc_example  # noqa: E402

IDS = [f"spec-{n}" for n in range(len(SPEC_EXAMPLES))]


def _bytesio(lines: list[str]) -> list[str]:
    out = io.BytesIO()
    reader = io.BytesIO("".join(line + "\n" for line in lines).encode())
    jsonrpc.StdioTransport(reader, out).serve(jsonrpc_example.handle)
    return out.getvalue().decode().splitlines()


@pytest.mark.parametrize(("request_line", "expected"), SPEC_EXAMPLES, ids=IDS)
def test_spec_example_over_bytesio(request_line: str, expected: str | None) -> None:
    assert _bytesio([request_line]) == ([expected] if expected else [])


def test_the_demo_prints_the_specification_answers() -> None:
    """`python -m gpp.plugin.jsonrpc_demo` runs the example plugin's handler on the specification's examples."""
    done = subprocess.run(
        [sys.executable, "-m", "gpp.plugin.jsonrpc_demo"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=REPO,
    )
    sent = [line[4:] for line in done.stdout.splitlines() if line.startswith("--> ")]
    answered = [line[4:] for line in done.stdout.splitlines() if line.startswith("<-- ")]
    squeeze = "".join  # the demo writes a batch without the spaces the table has between members
    spec = {
        squeeze(request.split()): expected or "(nothing: notifications only)"
        for request, expected in SPEC_EXAMPLES
    }
    assert len(sent) == len(answered) == 9
    assert answered == [spec[squeeze(request.split())] for request in sent]


class Pipe:
    """The example plugin as a real child process, one line in, one line out."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, line: str) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self) -> str:
        assert self.proc.stdout
        return self.proc.stdout.readline().decode().rstrip("\n")

    def close(self) -> int:
        assert self.proc.stdin
        self.proc.stdin.close()
        return self.proc.wait(30)


@pytest.fixture
def pipe() -> Iterator[Pipe]:
    p = Pipe([sys.executable, str(EXAMPLE)])
    yield p
    if p.proc.poll() is None:
        p.proc.kill()
        p.proc.wait(30)


def test_spec_examples_over_a_real_pipe(pipe: Pipe) -> None:
    marker = '{"jsonrpc": "2.0", "method": "get_data", "id": "marker"}'
    for request_line, expected in SPEC_EXAMPLES:
        pipe.send(request_line)
        pipe.send(marker)  # answered right after: proves a notification got no answer
        if expected is not None:
            assert pipe.read() == expected
        assert pipe.read() == '{"jsonrpc": "2.0", "result": ["hello", 5], "id": "marker"}'
    assert pipe.close() == 0


def test_the_stream_survives_errors() -> None:
    answers = _bytesio(
        [
            '{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": 1}',
            '{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": ',
            '{"jsonrpc": "2.0", "method": "get_data", "id": 3}',
            '{"jsonrpc": "2.0", "params": [1], "id": 4}',
        ]
    )
    assert [json.loads(a) for a in answers] == [
        {"jsonrpc": "2.0", "result": 3, "id": 1},
        {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": None},
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": 3},
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": 4},
    ]


def test_handler_errors_map_to_codes_without_tracebacks() -> None:
    def handler(method: str, params: Any) -> Any:
        if method == "bad_params":
            raise jsonrpc.InvalidParams("need two numbers")
        raise KeyError("secret internals")

    out = io.BytesIO()
    lines = (
        b'{"jsonrpc":"2.0","method":"bad_params","id":1}\n{"jsonrpc":"2.0","method":"x","id":2}\n'
    )
    jsonrpc.StdioTransport(io.BytesIO(lines), out).serve(handler)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["error"] == {
        "code": -32602,
        "message": "Invalid params",
        "data": "need two numbers",
    }
    assert second["error"] == {
        "code": -32603,
        "message": "Internal error",
        "data": {"exception": "KeyError"},
    }
    assert b"Traceback" not in out.getvalue() and b"secret" not in out.getvalue()


def test_ids_come_back_exactly_as_sent() -> None:
    lines = [
        f'{{"jsonrpc": "2.0", "method": "get_data", "id": {i}}}'
        for i in ("7", '"7"', "7.5", "null", '"x\\u00e9"')
    ]
    ids = [json.loads(a)["id"] for a in _bytesio(lines)]
    assert ids == [7, "7", 7.5, None, "xé"]
    assert [type(i) for i in ids] == [int, str, float, type(None), str]


def test_progress_then_cancel_mid_request(pipe: Pipe) -> None:
    pipe.send('{"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 100000}, "id": 5}')
    first = json.loads(pipe.read())
    assert first == {
        "jsonrpc": "2.0",
        "method": "$/progress",
        "params": {"id": 5, "done": 1, "total": 100000},
    }
    pipe.send('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 5}}')
    while "method" in (answer := json.loads(pipe.read())):
        assert answer["method"] == "$/progress"  # progress already on its way
    assert answer == {
        "jsonrpc": "2.0",
        "error": {"code": -32800, "message": "Request cancelled"},
        "id": 5,
    }


def test_cancel_of_a_queued_request(pipe: Pipe) -> None:
    pipe.send('{"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 100000}, "id": "run"}')
    pipe.send('{"jsonrpc": "2.0", "method": "get_data", "id": "queued"}')
    assert json.loads(pipe.read())["method"] == "$/progress"
    pipe.send('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "queued"}}')
    pipe.send('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "run"}}')
    answers: dict[str, int] = {}
    while len(answers) < 2:
        message = json.loads(pipe.read())
        if "id" in message:
            answers[message["id"]] = message["error"]["code"]
    assert answers == {"run": -32800, "queued": -32800}


def test_a_cancel_in_the_batch_of_the_call_it_names_is_honoured() -> None:
    """The transport's connection matches a batch's cancels against its own calls too: the
    named call is answered -32800 without running, the cancel sent as a request null. (Before,
    the cancel went to the handler as a method: -32601, and the call ran to its end.)"""
    lines = _bytesio(
        [
            '[{"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 20}, "id": 1}, '
            '{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}, "id": 2}, '
            '{"jsonrpc": "2.0", "method": "get_data", "id": "1"}]'
        ]
    )
    assert [json.loads(line) for line in lines] == [
        [
            {"jsonrpc": "2.0", "error": {"code": -32800, "message": "Request cancelled"}, "id": 1},
            {"jsonrpc": "2.0", "result": None, "id": 2},
            {"jsonrpc": "2.0", "result": ["hello", 5], "id": "1"},
        ]
    ]


# ----------------------------------------------------------------------------- through /rpc


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    directory = tmp_path_factory.mktemp("rpc")
    plugins: list[dict[str, Any]] = [
        {"id": "example", "version": "1.0.0", "protocol": "jsonrpc-2.0", "root": str(REPO),
         "command": ["{python}", str(EXAMPLE)]},
        {"id": "faulty", "version": "1.0.0", "protocol": "jsonrpc-2.0", "root": str(REPO),
         "command": ["{python}", str(FIXTURE_PLUGINS / "jsonrpc_faulty.py")], "request_ms": 2000},  # only hang trips it
        reference_plugin(),
    ]  # fmt: skip
    with running_gateway(write_config(directory, plugins)) as gw:
        yield gw


def rpc(gw: Gateway, body: str | bytes, plugin: str = "example", **kwargs: Any) -> httpx.Response:
    with gw.client() as http:
        return http.post(
            f"/plugins/{plugin}/rpc",
            content=body,
            headers={"Content-Type": "application/json", **kwargs},
        )


@pytest.mark.parametrize(("request_line", "expected"), SPEC_EXAMPLES, ids=IDS)
def test_spec_example_through_rpc(
    gateway: Gateway, request_line: str, expected: str | None
) -> None:
    response = rpc(gateway, request_line)
    if expected is None:
        assert response.status_code == 204 and response.content == b""
    else:
        assert response.status_code == 200
        assert response.text == expected


def test_concurrent_clients_with_the_same_ids_get_their_own_answers(gateway: Gateway) -> None:
    def call(n: int) -> tuple[int, Any]:
        body = json.dumps(
            {"jsonrpc": "2.0", "method": "subtract", "params": [n, 1], "id": 1 if n % 2 else "1"}
        )
        return n, rpc(gateway, body).json()

    with ThreadPoolExecutor(16) as executor:
        for n, answer in executor.map(call, range(48)):
            assert answer["result"] == n - 1
            assert answer["id"] == (1 if n % 2 else "1")  # value and type restored


def test_sse_streams_progress_then_the_response(gateway: Gateway) -> None:
    body = '{"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 3}, "id": "s"}'
    response = rpc(gateway, body, Accept="text/event-stream")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [block.split("\n", 1) for block in response.text.strip().split("\n\n")]
    assert [e[0] for e in events] == ["event: notification"] * 3 + ["event: response"]
    notes = [json.loads(e[1].removeprefix("data: ")) for e in events]
    assert [n["params"] for n in notes[:3]] == [
        {"id": "s", "done": k, "total": 3} for k in (1, 2, 3)
    ]
    assert notes[3] == {"jsonrpc": "2.0", "result": 3, "id": "s"}


def test_client_disconnect_cancels_the_request_at_the_plugin(gateway: Gateway) -> None:
    body = '{"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 100000}, "id": 1}'
    with pytest.raises(httpx.ReadTimeout), httpx.Client(base_url=gateway.url, timeout=0.5) as http:
        http.post(
            "/plugins/example/rpc", content=body, headers={"Content-Type": "application/json"}
        )
    # 100000 progress steps would take over 16 minutes: an empty queue now means it was cancelled
    gateway.wait_for("example", lambda info: info["queueDepth"] == 0, timeout=10)
    assert rpc(gateway, '{"jsonrpc": "2.0", "method": "get_data", "id": 2}').json()["result"] == [
        "hello",
        5,
    ]


def test_crash_fails_pending_requests_and_the_session_restarts(gateway: Gateway) -> None:
    assert rpc(
        gateway, '{"jsonrpc": "2.0", "method": "echo", "params": [1], "id": 1}', plugin="faulty"
    ).json()["result"] == [1]
    pid = gateway.plugin("faulty")["pid"]
    crashed = rpc(gateway, '{"jsonrpc": "2.0", "method": "crash", "id": "c"}', plugin="faulty")
    error = crashed.json()["error"]
    assert crashed.status_code == 200 and crashed.json()["id"] == "c"
    assert error["code"] == -32001 and "E_EOF" in error["message"]
    assert error["data"]["exitCode"] == 3
    assert "crashing as asked" in error["data"]["stderrTail"]
    again = rpc(
        gateway, '{"jsonrpc": "2.0", "method": "echo", "params": [2], "id": 2}', plugin="faulty"
    )
    assert again.json()["result"] == [2]
    info = gateway.plugin("faulty")
    assert info["pid"] != pid and info["restarts"] == 1 and info["lastCode"] == "E_EOF"


def test_hang_times_out_and_the_session_restarts(gateway: Gateway) -> None:
    hung = rpc(gateway, '{"jsonrpc": "2.0", "method": "hang", "id": "h"}', plugin="faulty")
    error = hung.json()["error"]
    assert error["code"] == -32002 and "E_TIMEOUT" in error["message"]
    assert rpc(gateway, '{"jsonrpc": "2.0", "method": "boom", "id": 3}', plugin="faulty").json()[
        "error"
    ] == {"code": -32603, "message": "Internal error", "data": {"exception": "ValueError"}}


def test_wrong_route_for_the_protocol_is_404(gateway: Gateway) -> None:
    on_gpp = rpc(gateway, '{"jsonrpc": "2.0", "method": "x", "id": 1}', plugin="reference-detector")
    assert on_gpp.status_code == 404 and "/discover" in on_gpp.json()["detail"]
    with gateway.client() as http:
        on_rpc = http.post("/plugins/example/discover", json={"paths": ["."]})
    assert on_rpc.status_code == 404 and "/rpc" in on_rpc.json()["detail"]
    assert rpc(gateway, "{}", plugin="nope").status_code == 404
