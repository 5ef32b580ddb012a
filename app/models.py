"""Pydantic models of what the HTTP API answers: they document the API in OpenAPI.

The wire truth is gpp.core.schema (strict, stdlib-only, shared with the SDK); these mirror it for
the generated documentation and for clients that want types.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema, WithJsonSchema

from gpp.core import MAX_PATHS, MAX_REQUEST_ID, REASONS


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Location(_Doc):
    path: str = Field(description="repo-relative, '/'-separated")
    line: int = Field(ge=1)


class Resource(_Doc):
    kind: str
    name: str
    location: Location
    attrs: dict[str, str | int | bool]


class UnresolvedReason(_Doc):
    path: str
    reason: Annotated[str, WithJsonSchema({"type": "string", "enum": list(REASONS)})]
    detail: str


class Finding(_Doc):
    code: str = Field(pattern=r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")
    detail: str
    locations: list[Location]


class ClassificationSignal(_Doc):
    resource: str = Field(description='"<kind>:<name>"')
    signal: str
    value: str | int | bool
    source: Location


class ResultDocument(_Doc):
    """The result frame's payload, as GF-canonical JSON; X-GPP-Digest is the frame's digest."""

    requestId: str
    resources: list[Resource]
    unresolved: list[UnresolvedReason]
    findings: list[Finding]
    classificationSignals: list[ClassificationSignal]


_END = r"(?![\s\S])"
_DOT_SEGMENT = rf"\.\.?(?:/|{_END})"
REPO_PATH_PATTERN = (
    rf"^(?:\.|(?![A-Za-z]:)(?!{_DOT_SEGMENT})(?![\s\S]*/{_DOT_SEGMENT})"
    r"[^/\\\u0000]+(?:/[^/\\\u0000]+)*)$"
)
"""gpp.core.schema.path_problem as a JSON Schema pattern (for documentation and API fuzzers): "."
alone, or non-empty '/'-separated segments, none empty, "." or "..", no backslash, no NUL, no
leading drive letter. `_END` (no character follows) means end of input in ECMA and Python
regexes alike, where `$` differs: Python's also matches before a final newline."""
RepoPath = Annotated[
    str,
    WithJsonSchema(
        {"type": "string", "pattern": REPO_PATH_PATTERN, "description": "repo-relative path"}
    ),
]


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class DiscoverRequest(_Doc):
    paths: list[RepoPath] = Field(
        min_length=1, max_length=MAX_PATHS, examples=[["."], ["api", "billing/orders.gfx"]]
    )
    # optional but never null: an absent requestId gets a generated one, a null one is refused
    requestId: str | SkipJsonSchema[None] = Field(
        default=None, min_length=1, max_length=MAX_REQUEST_ID, json_schema_extra=_no_default
    )


class Problem(BaseModel):
    """RFC 9457 problem document; `code` is the E_* code, `detail` the FAIL line."""

    type: str
    title: str
    status: int
    detail: str
    code: str | None = None
    plugin: str | None = None
    frame: int | None = None
    messageType: str | None = None
    field: str | None = None
    expected: str | None = None
    got: str | None = None
    offendingFrame: str | None = None
    requestId: str | None = None
    exitCode: int | None = None
    stderrTail: str | None = None


class PluginInfo(BaseModel):
    id: str
    version: str
    protocol: Literal["gpp/3", "jsonrpc-2.0"]
    state: Literal["idle", "starting", "ready", "busy", "backoff", "failed"]
    capabilities: list[str]
    pid: int | None
    pids: list[int]
    instances: int
    queueDepth: int
    sandbox: dict[str, str] = Field(description="isolation mechanisms in effect, by concern")
    restarts: int
    served: int
    failed: int
    retryAfter: float | None
    lastDiagnostic: str | None
    lastCode: str | None
    recentStderr: list[str]


class Readiness(BaseModel):
    status: Literal["ready", "starting"]
    waitingFor: list[str] | None = Field(default=None, description="eager plugins not up yet")
