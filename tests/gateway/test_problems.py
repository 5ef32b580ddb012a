"""app.problems: every failure the gateway gives is one problem document, with the fields of the one
list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gateway_harness import (
    echo_plugin,
    running_gateway,
    write_config,
)

from gpp.core import codes


def test_every_problem_field_comes_from_the_one_list() -> None:
    """gpp's E_* problem documents carry exactly the fields the gateway documents (and their
    `problem`, the reason without the FAIL line's frame context)."""
    from app.problems import PROBLEM_FIELDS, problem_of

    document = problem_of(codes.SchemaError("bad", field="paths"), "echo")
    assert tuple(key for key in document if key != "problem") == PROBLEM_FIELDS


def test_a_bug_is_a_500_problem_on_both_paths_and_still_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 25: every non-2xx answer is a problem, a bug's 500 too (uvicorn's own is plain
    text); the error still reaches the log as uvicorn reports it."""
    from app.pool import Gpp3Pool, Pool

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Gpp3Pool, "discover", broken)  # the plugin route's fast path
    monkeypatch.setattr(Pool, "describe", broken)  # GET /plugins, served by FastAPI
    config = write_config(tmp_path, [echo_plugin()])
    with running_gateway(config) as gw, gw.client() as http:
        answers = [
            http.post("/plugins/echo/discover", json={"paths": ["a"]}),
            http.get("/plugins"),
        ]
    for answer in answers:
        assert answer.status_code == 500
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.headers["connection"] == "close"  # uvicorn closes it: no reuse, no reset
        assert answer.json() == {
            "type": "about:blank",
            "title": "Internal error",
            "status": 500,
            "detail": "the gateway failed on this request; its log says why",
        }
    logged = [r for r in caplog.records if r.exc_info and "a bug" in str(r.exc_info[1])]
    assert len(logged) == 2, [r.getMessage() for r in caplog.records]
