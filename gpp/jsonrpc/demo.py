"""`python -m gpp.jsonrpc.demo`: the specification's examples through io.BytesIO, no subprocess.

Each exchange is printed as the specification prints it (`-->` sent, `<--` answered).
"""

from __future__ import annotations

import io
from typing import Any

from . import InvalidParams, MethodNotFound, StdioTransport

EXAMPLES = [
    b'{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
    b'{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
    b'{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}',
    b'{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
    b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
    b'{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
    b"[]",
    b"[1,2,3]",
    b'[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},'
    b'{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},'
    b'{"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},'
    b'{"foo": "boo"},'
    b'{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},'
    b'{"jsonrpc": "2.0", "method": "get_data", "id": "9"}]',
]


def handler(method: str, params: Any) -> Any:
    if method == "subtract":
        if isinstance(params, dict):
            return params["minuend"] - params["subtrahend"]
        return params[0] - params[1]
    if method == "sum":
        return sum(params)
    if method == "get_data":
        return ["hello", 5]
    if method in ("update", "notify_hello"):
        return None
    if not isinstance(params, (list, dict, type(None))):
        raise InvalidParams()
    raise MethodNotFound(method)


def main() -> None:
    for example in EXAMPLES:
        out = io.BytesIO()
        StdioTransport(io.BytesIO(example + b"\n"), out).serve(handler)
        print(f"--> {example.decode()}")
        print(f"<-- {out.getvalue().decode().strip() or '(nothing: notifications only)'}\n")


if __name__ == "__main__":
    main()
