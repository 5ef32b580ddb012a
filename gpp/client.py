"""The engine's client for the gateway (httpx): result dicts in, ProtocolErrors out.

A failure the gateway reports as an E_* problem document is raised as the same ProtocolError
subclass the gateway met, so engine code handles a remote session exactly like a local one.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any

import httpx

from . import codes


class GatewayRefused(Exception):
    """The gateway refused before any plugin ran: 401, 403, 413, 415 or 503 (Retry-After)."""

    def __init__(self, status: int, problem: dict[str, Any], retry_after: float | None) -> None:
        super().__init__(f"{status} {problem.get('title', '')}: {problem.get('detail', '')}")
        self.status = status
        self.problem = problem
        self.retry_after = retry_after


def _body(paths: Sequence[str], request_id: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"paths": list(paths)}
    if request_id is not None:
        body["requestId"] = request_id
    return body


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _result(response: httpx.Response) -> dict[str, Any]:
    if response.status_code == 200:
        document: dict[str, Any] = response.json()
        return document
    try:
        problem = response.json()
    except ValueError:
        problem = {"title": response.reason_phrase, "detail": response.text}
    if isinstance(problem, dict) and problem.get("code") in codes.ERROR_CLASSES:
        raise codes.from_problem(problem)
    retry = response.headers.get("Retry-After")
    raise GatewayRefused(
        response.status_code, problem if isinstance(problem, dict) else {},
        float(retry) if retry and retry.isdigit() else None,
    )  # fmt: skip


class GatewayClient:
    """Blocking client. `uds` reaches a gateway listening on a Unix socket."""

    def __init__(
        self, base_url: str, token: str | None = None, *, timeout: float = 120.0,
        uds: str | None = None,
    ) -> None:  # fmt: skip
        transport = httpx.HTTPTransport(uds=uds) if uds else None
        self._http = httpx.Client(base_url=base_url, headers=_headers(token), timeout=timeout,
                                  transport=transport)  # fmt: skip

    def discover(
        self, plugin_id: str, paths: Sequence[str], request_id: str | None = None
    ) -> dict[str, Any]:
        return _result(self._http.post(f"/plugins/{plugin_id}/discover",
                                       json=_body(paths, request_id)))  # fmt: skip

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.close()


class AsyncGatewayClient:
    """The same, for asyncio engines."""

    def __init__(
        self, base_url: str, token: str | None = None, *, timeout: float = 120.0,
        uds: str | None = None,
    ) -> None:  # fmt: skip
        transport = httpx.AsyncHTTPTransport(uds=uds) if uds else None
        self._http = httpx.AsyncClient(base_url=base_url, headers=_headers(token),
                                       timeout=timeout, transport=transport)  # fmt: skip

    async def discover(
        self, plugin_id: str, paths: Sequence[str], request_id: str | None = None
    ) -> dict[str, Any]:
        response = await self._http.post(f"/plugins/{plugin_id}/discover",
                                         json=_body(paths, request_id))  # fmt: skip
        return _result(response)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncGatewayClient:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:  # fmt: skip
        await self.aclose()
