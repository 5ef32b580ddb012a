"""The OpenAPI document, made to say exactly what the gateway answers.

FastAPI documents what each route declares; the refusals that come before any route (the
front door's 408/431, the security middleware's 401/403/413/415) it cannot see, and it files
every declared error under `application/json` and adds a 422 for validation the routes never
do. `complete_error_responses` finishes the document so a client generator, or schemathesis, can trust
it: every error status a route can return, each as `application/problem+json`. (An unknown
path or method is a problem too, 404/405, but belongs to no operation.)
"""

from __future__ import annotations

from typing import Any

from .problems import PROBLEM_TYPE
from .routes.table import RouteTable

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}

FRONT_DOOR_ERRORS = {
    401: "Bearer token missing or wrong (only when the gateway has a token): send "
    "`Authorization: Bearer <token>`, the token being GPP_TOKEN or gateway.token_file's contents",
    403: "Host is not exactly one loopback name or address, or Origin is neither the "
    "gateway's own nor in gateway.allowed_origins",
    408: "The request head or body did not arrive in time; the connection is closed",
    431: "The request head exceeds gateway.max_header_bytes; the connection is closed",
    400: "The request cannot be parsed as HTTP/1.1; the connection is closed",
    503: "Too many connections (gateway.max_connections, or the file descriptor limit) and "
    "none idle: retry after Retry-After",
}
BODY_ERRORS = {
    413: "Body over gateway.max_body_bytes",
    415: "Content-Type is not application/json",
}
FASTAPI_VALIDATION = ("HTTPValidationError", "ValidationError")
"""FastAPI's own 422 documents; the routes validate bodies themselves and answer problems."""


def complete_error_responses(spec: dict[str, Any], table: RouteTable) -> dict[str, Any]:
    """`table`: the routes the document was built from (which of them need no token)."""
    public = table.public_paths
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            responses: dict[str, Any] = operation["responses"]
            if _refers_to(responses.get("422"), FASTAPI_VALIDATION[0]):
                del responses["422"]
            errors = {**FRONT_DOOR_ERRORS, **(BODY_ERRORS if method == "post" else {})}
            if path in public:
                del errors[401]
            for status, description in errors.items():
                responses.setdefault(
                    str(status), {"description": description, "content": {PROBLEM_TYPE: {}}}
                )
            for response in responses.values():
                content = response.get("content", {})
                if PROBLEM_TYPE in content:
                    response["content"] = {PROBLEM_TYPE: {"schema": PROBLEM_REF}}
    schemas = spec["components"]["schemas"]
    for name in FASTAPI_VALIDATION:
        schemas.pop(name, None)
    return spec


def _refers_to(response: dict[str, Any] | None, schema_name: str) -> bool:
    return response is not None and schema_name in str(response.get("content"))
