"""`python -m gpp.plugin.jsonrpc_demo`: the specification's examples through io.BytesIO, no subprocess.

Each exchange is printed as the specification prints it (`-->` sent, `<--` answered).
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpp.plugin.jsonrpc import StdioTransport

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


def example_handler() -> Callable[[str, Any], Any]:
    """The example plugin's `handle`, loaded from the checkout: the demo shows that plugin's answers,
    not a copy of them. Plugins are not part of the wheel, hence a file import, not a package one."""
    path = Path(__file__).resolve().parents[2] / "plugins" / "jsonrpc_example.py"
    if not path.is_file():
        raise SystemExit(f"the demo runs from a source checkout: {path} is missing")
    spec = importlib.util.spec_from_file_location("jsonrpc_example", path)
    assert spec is not None and spec.loader is not None  # a .py file always has both
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    handle: Callable[[str, Any], Any] = module.handle
    return handle


def main() -> None:
    handler = example_handler()
    for example in EXAMPLES:
        out = io.BytesIO()
        StdioTransport(io.BytesIO(example + b"\n"), out).serve(handler)
        print(f"--> {example.decode()}")
        print(f"<-- {out.getvalue().decode().strip() or '(nothing: notifications only)'}\n")


if __name__ == "__main__":
    main()
