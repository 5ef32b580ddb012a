#!/usr/bin/env python3
"""A JSON-RPC 2.0 plugin with the methods the specification's examples use, plus `slow_count`.

`subtract` takes positional or named params, `sum` any numbers, `update` and `notify_hello`
are notifications, `get_data` returns ["hello", 5], and `slow_count {n}` emits one
`$/progress` notification every 10 ms before answering n (so a cancel always lands mid-way).
"""

from __future__ import annotations

import os
import sys
from typing import Any

try:
    from gpp.plugin import jsonrpc
except ImportError:  # run from a checkout by a bare interpreter: use the repo's gpp/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gpp.plugin import jsonrpc

PROGRESS_INTERVAL_S = 0.01


def _numbers(values: Any) -> list[float]:
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise jsonrpc.InvalidParams("expected an array of numbers")
    return values


def subtract(params: Any) -> Any:
    if isinstance(params, dict) and set(params) == {"minuend", "subtrahend"}:
        minuend, subtrahend = _numbers([params["minuend"], params["subtrahend"]])
    elif isinstance(params, list) and len(params) == 2:
        minuend, subtrahend = _numbers(params)
    else:
        raise jsonrpc.InvalidParams("subtract takes [minuend, subtrahend] or {minuend, subtrahend}")
    return minuend - subtrahend


def slow_count(params: Any) -> int:
    n = params.get("n") if isinstance(params, dict) else None
    if type(n) is not int or not 0 <= n <= 100_000:
        raise jsonrpc.InvalidParams("slow_count takes {n: integer 0..100000}")
    request = jsonrpc.current_request()
    for done in range(1, n + 1):
        request.cancelled.wait(PROGRESS_INTERVAL_S)  # wakes at once when cancelled
        request.progress(done, n)  # raises RequestCancelled once the request is cancelled
    return n


notifications: list[tuple[str, Any]] = []

METHODS = {
    "subtract": subtract,
    "sum": lambda params: sum(_numbers(params)),
    "get_data": lambda params: ["hello", 5],
    "update": lambda params: notifications.append(("update", params)),
    "notify_hello": lambda params: notifications.append(("notify_hello", params)),
    "slow_count": slow_count,
}


def handle(method: str, params: Any) -> Any:
    try:
        implementation = METHODS[method]
    except KeyError:
        raise jsonrpc.MethodNotFound(method) from None
    return implementation(params)


if __name__ == "__main__":
    jsonrpc.serve(handle)
