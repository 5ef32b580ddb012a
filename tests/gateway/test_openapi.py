"""The OpenAPI document says exactly what the gateway does; schemathesis holds it to that."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from gateway_harness import running_gateway, write_config
from hypothesis import given
from hypothesis import strategies as st

from app.config import load_config
from app.main import create_app
from app.models import REPO_PATH_PATTERN
from gpp.core import path_problem

PROBLEM_CONTENT = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
SCHEMATHESIS_CONFIG = REPO / "tests" / "schemathesis" / "schemathesis.toml"


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    openapi: dict[str, Any] = create_app(load_config(REPO / "plugins" / "registry.toml")).openapi()
    return openapi


def test_every_error_a_route_gives_is_declared_as_problem_json(spec: dict[str, Any]) -> None:
    discover = spec["paths"]["/plugins/{plugin_id}/discover"]["post"]["responses"]
    assert set(discover) == {
        "200",
        "400",
        "401",
        "403",
        "404",
        "408",
        "413",
        "415",
        "422",
        "431",
        "502",
        "503",
        "504",
    }
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and path != "/readyz":
                    assert response["content"] == PROBLEM_CONTENT, (method, path, status)
    health = spec["paths"]["/healthz"]["get"]["responses"]
    assert "401" not in health and "415" not in health  # no token there, and no body
    assert {"400", "503"} <= set(health)  # unparseable, or past the connection cap
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_request_id_is_a_string_when_present_never_null(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/plugins/{plugin_id}/discover"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert schema["properties"]["requestId"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 128,
        "title": "Requestid",
    }
    assert schema["required"] == ["paths"] and schema["additionalProperties"] is False
    assert schema["properties"]["paths"]["items"]["pattern"] == REPO_PATH_PATTERN


PATH_ALPHABET = st.sampled_from(["a", "b", ".", "/", "\\", "\x00", "\n", ":", "C", "é", " "])


@given(st.lists(PATH_ALPHABET, max_size=12).map("".join))
def test_the_documented_path_pattern_is_the_gateways_rule(path: str) -> None:
    assert (re.search(REPO_PATH_PATTERN, path) is not None) == (path_problem(path) is None)


def test_schemathesis_finds_no_server_error_and_no_undeclared_answer(tmp_path: Path) -> None:
    """Every check schemathesis has, on every operation, against a real gateway on loopback."""
    plugins = [
        {"id": "reference-detector", "version": "1.0.0",
         "command": ["{python}", str(REPO / "plugins/reference_detector.py")],
         "root": str(REPO / "plugins/examples/demo-repo")},
        {"id": "jsonrpc-example", "version": "1.0.0", "protocol": "jsonrpc-2.0",
         "command": ["{python}", str(REPO / "plugins/jsonrpc_example.py")],
         "root": str(REPO / "plugins/examples/demo-repo")},
    ]  # fmt: skip
    st_command = Path(sys.executable).parent / "st"
    with running_gateway(write_config(tmp_path, plugins)) as gw:
        run = subprocess.run(
            [
                str(st_command),
                "--config-file",
                str(SCHEMATHESIS_CONFIG),
                "run",
                f"{gw.url}/openapi.json",
                "--max-examples",
                "25",
                "--workers",
                "1",
                "--no-color",
                "--generation-database",
                "none",
                "--request-timeout",
                "30",
                "--seed",
                "20261203",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert re.search(r"\d+ generated, \d+ passed", run.stdout), run.stdout[-3000:]
