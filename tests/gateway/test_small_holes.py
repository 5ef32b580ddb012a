"""The small holes of issue 33 (item 9): HTML answers that any site could frame, a public
`/readyz` naming plugins to clients without the token, a streamed call to a plugin that cannot
start answered as plain JSON, and a reload's eager start that used a slot without claiming it."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gateway_harness import (
    echo_plugin,
    fault_plugin,
    make_fifo,
    running_gateway,
    write_config,
    writes_to,
)

from app.config import load_config
from app.pool import Gpp3Pool
from app.problems import http_status
from gpp.core import Discover, codes

TOKEN = "s3cret-token-for-tests"
WAIT_S = 30.0


def _token_file(folder: Path) -> Path:
    path = folder / "token"
    path.write_text(TOKEN + "\n")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize(
    "path", ["/docs", "/docs-assets/index.html", "/docs-assets/oauth2-redirect.html"]
)
def test_every_html_answer_forbids_framing(tmp_path: Path, path: str) -> None:
    with running_gateway(write_config(tmp_path, [echo_plugin()])) as gw, gw.client() as http:
        page = http.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert page.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert page.headers["x-frame-options"] == "DENY"


def test_readyz_names_the_plugins_it_waits_for_only_to_a_client_with_the_token(
    tmp_path: Path,
) -> None:
    stuck = fault_plugin(
        "huge_integer", eager=True, env={"FIXTURE_PLUGIN_ID": "huge_integer"}
    )  # its hello is refused: an eager plugin that is not up
    gateway = {"token_file": str(_token_file(tmp_path))}
    with running_gateway(write_config(tmp_path, [stuck], gateway=gateway)) as gw:
        with gw.client() as anonymous:
            answer = anonymous.get("/readyz")
            assert answer.status_code == 503 and answer.json() == {"status": "starting"}
            assert "huge_integer" not in answer.text
        with gw.client(headers={"Authorization": f"Bearer {TOKEN}"}) as operator:
            answer = operator.get("/readyz")
            assert answer.status_code == 503
            assert answer.json() == {"status": "starting", "waitingFor": ["huge_integer"]}


def test_a_streamed_call_to_a_plugin_that_cannot_start_is_answered_as_a_stream(
    tmp_path: Path,
) -> None:
    """Both clients read a non-SSE answer to a streamed call as "stream broken, outcome
    unknown"; the definite -32003 must come as the stream's `response` event."""
    missing = {
        "id": "missing",
        "version": "1.0.0",
        "protocol": "jsonrpc-2.0",
        "root": str(tmp_path),
        "command": [str(tmp_path / "no-such-plugin")],
    }
    call = {"jsonrpc": "2.0", "method": "m", "id": 7}
    with running_gateway(write_config(tmp_path, [missing])) as gw, gw.client() as http:
        answer = http.post(
            "/plugins/missing/rpc", json=call, headers={"Accept": "text/event-stream"}
        )
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        event, _, data = answer.text.partition("\ndata: ")
        assert event == "event: response" and data.endswith("\n\n")
        response = json.loads(data)
        assert response["id"] == 7 and response["error"]["code"] == -32003
        plain = http.post("/plugins/missing/rpc", json=call)  # unchanged without the header
        assert plain.headers["content-type"] == "application/json"


def test_an_eager_start_claims_its_slot_and_a_request_meanwhile_waits_for_it(
    tmp_path: Path,
) -> None:
    """On main the eager start (a reload's, or the gateway's) used a slot it left free: a
    request arriving during its handshake took the same slot and met the half-started session
    (a 500 when the start then failed). Claimed, the request queues behind it, then starts a
    fresh session of its own and gets that one's diagnostic (a 502)."""
    fifo, gate = make_fifo(tmp_path)
    entry = fault_plugin(
        "gated_wrong_hello",
        eager=True,
        root=str(tmp_path),
        env={"FIXTURE_PLUGIN_ID": "gated_wrong_hello", "GATE_FIFO": str(fifo)},
        **writes_to(tmp_path),
    )
    plugin = load_config(write_config(tmp_path, [entry])).plugins["gated_wrong_hello"]

    async def scenario() -> codes.ProtocolError:
        pool = Gpp3Pool(plugin)
        try:
            eager = asyncio.create_task(pool.start_all())
            await _until(lambda: pool.starting)
            request = asyncio.create_task(pool.discover(Discover("r", (".",))))
            await _until(lambda: pool.queue_depth == 1)  # waits for the slot being started
            os.write(gate, b"xx")  # one byte for the eager session, one for the request's
            await asyncio.wait_for(eager, WAIT_S)
            with pytest.raises(codes.ProtocolError) as refused:
                await asyncio.wait_for(request, WAIT_S)
            assert pool.health.failed == 2 and pool.health.restarts == 1
            return refused.value
        finally:
            await pool.close()

    try:
        error = asyncio.run(scenario())
    finally:
        os.close(gate)
    assert error.code == "E_UNKNOWN_PLUGIN" and http_status(error) == 502


async def _until(condition: Callable[[], bool]) -> None:
    """Yield to the loop until `condition` holds; bounded."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)
