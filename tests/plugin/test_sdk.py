"""The Python plugin SDK, driven through in-memory streams by a host-side connection."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any

import pytest
from conftest import REPO

from gpp.core import (
    MAX_PATHS,
    PATH,
    REQUEST_ID,
    Discover,
    Ready,
    Shutdown,
    array,
    build_frame,
    canonical,
    digest,
    record,
)
from gpp.core.catalog import CATALOG
from gpp.core.messages import payload_of
from gpp.core.schema import STRING
from gpp.plugin import serve

ID, VERSION = "sdk-test", "0.1.0"
EMPTY: dict[str, Any] = {
    "resources": [],
    "unresolved": [],
    "findings": [],
    "classificationSignals": [],
}


def _run(host_lines: list[bytes], handler: Any = None) -> tuple[int, list[dict[str, Any]]]:
    stdin = io.BytesIO(b"".join(host_lines))
    stdout = io.BytesIO()
    code = serve(ID, VERSION, handler or (lambda paths: EMPTY), stdin=stdin, stdout=stdout)
    return code, [json.loads(line) for line in stdout.getvalue().splitlines()]


def _host_frames(*events: Any, plugin_id: str = ID, plugin_version: str = VERSION) -> list[bytes]:
    """A host's frames scripted ahead of the answers (seq 1, 2, …), as a real host sends them."""
    frames = []
    for seq, event in enumerate(events, start=1):
        message_type, payload = payload_of(event)
        frames.append(build_frame(plugin_id, plugin_version, message_type, seq, payload)[0])
    return frames


def test_full_session() -> None:
    seen: list[list[str]] = []

    def handler(paths: list[str]) -> dict[str, Any]:
        seen.append(paths)
        return EMPTY

    frames = _host_frames(Ready(), Discover("r1", ("a", ".")), Discover("r2", ("b",)), Shutdown())
    code, out = _run(frames, handler)
    assert code == 0 and seen == [["a", "."], ["b"]]
    assert [f["type"] for f in out] == ["hello", "result", "result", "bye"]
    assert [f["seq"] for f in out] == [1, 2, 3, 4]
    for frame in out:
        assert frame["pluginId"] == ID and frame["pluginVersion"] == VERSION
        assert frame["digest"] == digest(
            {"type": frame["type"], "seq": frame["seq"], "payload": frame["payload"]}
        )
    assert out[1]["payload"] == {"requestId": "r1", **EMPTY}


def test_handler_exception_becomes_a_request_scoped_error() -> None:
    def handler(paths: list[str]) -> dict[str, Any]:
        raise FileNotFoundError("no such repo")

    code, out = _run(_host_frames(Ready(), Discover("r1", (".",)), Shutdown()), handler)
    assert code == 0
    assert out[1]["type"] == "error"
    assert out[1]["payload"] == {
        "requestId": "r1",
        "code": "FileNotFoundError",
        "message": "no such repo",
    }


_BAD_LINE = {"kind": "t", "name": "n", "location": {"path": "a", "line": 0}, "attrs": {}}


@pytest.mark.parametrize(
    ("document", "fault"),
    [
        ({**EMPTY, "resources": [_BAD_LINE]}, "resources[0].location.line has the wrong value"),
        ({**EMPTY, "requestId": "r2"}, "requestId is not allowed"),
        ({**EMPTY, "extra": 1}, "extra is not allowed"),
        ({"resources": []}, "unresolved missing"),
        (["not", "an", "object"], "document has the wrong type"),
    ],
    ids=["bad line", "smuggled requestId", "extra field", "missing field", "not an object"],
)
def test_invalid_handler_document_is_reported_inside_the_plugin(
    document: Any, fault: str, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = _host_frames(Ready(), Discover("r1", (".",)), Discover("r2", (".",)), Shutdown())
    code, out = _run(frames, lambda p: document)
    assert code == 0, "the session goes on after a bad document"
    assert [f["type"] for f in out] == ["hello", "error", "error", "bye"]
    payload = out[1]["payload"]
    assert payload["code"] == "E_SCHEMA" and payload["requestId"] == "r1"
    assert f"invalid document: {fault}" in payload["message"]
    assert fault in capsys.readouterr().err


def _tamper(line: bytes, **changes: Any) -> bytes:
    frame = json.loads(line)
    frame.update(changes)
    return canonical(frame) + b"\n"


def _resign(message_type: str, seq: int, payload: dict[str, Any], **envelope: Any) -> bytes:
    line, _ = build_frame(envelope.pop("plugin_id", ID), VERSION, message_type, seq, payload)
    return line


@pytest.mark.parametrize(
    ("case", "code", "field"),
    [
        ("bad digest", "E_SCHEMA", "digest"),
        ("seq gap", "E_SCHEMA", "seq"),
        ("wrong identity", "E_UNKNOWN_PLUGIN", "pluginId"),
        ("dot-dot path", "E_SCHEMA", "payload.paths[0]"),
        ("absolute path", "E_SCHEMA", "payload.paths[0]"),
        ("backslash path", "E_SCHEMA", "payload.paths[1]"),
    ],
)
def test_sdk_rejects_bad_host_frames(
    case: str, code: str, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ready = _host_frames(Ready())[0]
    good_discover = {"requestId": "r1", "paths": ["src"]}
    bad = {
        "bad digest": _tamper(_resign("discover", 2, good_discover), digest="0" * 64),
        "seq gap": _resign("discover", 3, good_discover),
        "wrong identity": _resign("discover", 2, good_discover, plugin_id="other"),
        "dot-dot path": _resign("discover", 2, {"requestId": "r1", "paths": ["a/../b"]}),
        "absolute path": _resign("discover", 2, {"requestId": "r1", "paths": ["/etc/passwd"]}),
        "backslash path": _resign("discover", 2, {"requestId": "r1", "paths": ["ok", "a\\b"]}),
    }[case]
    calls: list[Any] = []

    def handler(paths: Any) -> dict[str, Any]:
        calls.append(paths)
        return EMPTY

    exit_code, out = _run([ready, bad], handler)
    assert exit_code == 2 and calls == []
    fatal = out[-1]
    assert fatal["type"] == "error" and "requestId" not in fatal["payload"]
    assert fatal["payload"]["code"] == code
    assert f"frame 2: discover.{field} " in fatal["payload"]["message"]
    assert capsys.readouterr().err.startswith(f"[plugin-protocol] FAIL {code}: frame 2")


def test_sdk_exits_when_the_host_goes_away() -> None:
    code, out = _run(_host_frames(Ready()))  # stdin ends while idle: the host died
    assert code == 2 and out[-1]["payload"]["code"] == "E_EOF"


BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"orjson", "httpx", "fastapi", "pydantic", "starlette",
                                  "uvicorn", "prometheus_client", "app"}:
            raise ImportError(f"{name} is blocked: the SDK must be stdlib-only")
sys.meta_path.insert(0, Block())
sys.path.insert(0, sys.argv[1])
"""


def test_sdk_and_reference_detector_run_without_third_party_packages() -> None:
    script = (
        BLOCKER
        + """
import runpy
sys.argv = [sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
    )
    stdin = b"".join(
        _host_frames(
            Ready(),
            Discover("r1", (".",)),
            Shutdown(),
            plugin_id="reference-detector",
            plugin_version="1.0.0",
        )
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            script,
            str(REPO),
            str(REPO / "plugins/reference_detector.py"),
        ],
        input=stdin,
        capture_output=True,
        cwd=REPO / "plugins/examples/demo-repo",
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [f["type"] for f in out] == ["hello", "result", "bye"]
    assert len(out[1]["payload"]["resources"]) == 7


def test_discover_with_no_paths_gets_the_empty_result_without_the_handler() -> None:
    calls: list[Any] = []
    asked = {**EMPTY, "findings": [{"code": "NOT_ASKED", "detail": "", "locations": []}]}

    def handler(paths: Any) -> dict[str, Any]:
        calls.append(paths)
        return asked

    code, out = _run(_host_frames(Ready(), Discover("none", ()), Shutdown()), handler)
    assert code == 0 and calls == []
    assert [f["type"] for f in out] == ["hello", "result", "bye"]
    assert out[1]["payload"] == {"requestId": "none", **EMPTY}


def _both_styles(frames: list[bytes]) -> tuple[list[tuple[Any, ...]], list[Discover]]:
    """Serve `frames` to a `discover(paths)` handler, then to a `request=True` one: what each was
    called with (the arguments, the requests). Both sessions must end cleanly, answering r1."""
    calls: list[tuple[Any, ...]] = []
    requests: list[Discover] = []

    def paths_handler(*args: Any) -> dict[str, Any]:
        calls.append(args)
        return EMPTY

    def request_handler(request: Discover) -> dict[str, Any]:
        requests.append(request)
        return EMPTY

    code, out = _run(frames, paths_handler)
    assert code == 0 and out[1]["payload"] == {"requestId": "r1", **EMPTY}
    stdin, stdout = io.BytesIO(b"".join(frames)), io.BytesIO()
    assert serve(ID, VERSION, request_handler, stdin=stdin, stdout=stdout, request=True) == 0
    assert json.loads(stdout.getvalue().splitlines()[1])["payload"] == {"requestId": "r1", **EMPTY}
    return calls, requests


def test_a_request_handler_gets_the_discover_request_and_a_paths_handler_its_paths() -> None:
    calls, requests = _both_styles(_host_frames(Ready(), Discover("r1", ("a", ".")), Shutdown()))
    assert calls == [(["a", "."],)] and type(calls[0][0]) is list
    assert requests == [Discover("r1", ("a", "."))]
    assert (requests[0].request_id, requests[0].paths) == ("r1", ("a", "."))


@dataclass(frozen=True)
class _FutureDiscover(Discover):
    """The discover request of a later protocol, which adds an optional `since`."""

    since: str = ""

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], digest: str, payload_bytes: bytes | None = None
    ) -> _FutureDiscover:
        return cls(payload["requestId"], tuple(payload["paths"]), payload.get("since", ""))


def test_a_field_a_later_protocol_adds_reaches_a_request_handler_never_a_paths_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    future = record(
        {"requestId": REQUEST_ID, "paths": array(PATH, max_items=MAX_PATHS)},
        optional={"since": STRING},
    )
    monkeypatch.setitem(
        CATALOG, "discover", replace(CATALOG["discover"], event=_FutureDiscover, payload=future)
    )
    payload = {"requestId": "r1", "paths": ["a"], "since": "abc123"}
    frames = [
        *_host_frames(Ready()),
        build_frame(ID, VERSION, "discover", 2, payload)[0],
        build_frame(ID, VERSION, "shutdown", 3, {})[0],
    ]
    calls, requests = _both_styles(frames)
    assert calls == [(["a"],)]  # the paths alone: the new field never leaks in
    assert requests == [_FutureDiscover("r1", ("a",), "abc123")]
