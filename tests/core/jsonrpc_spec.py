"""Every example of the JSON-RPC 2.0 specification (section 7), shared by the suites that must
pass them: the sans-IO connection (tests/core), the plugin's stdio transport and `/rpc`
(tests/plugin)."""

from __future__ import annotations

# (request line, the exact response line the specification gives, or None for no response)
SPEC_EXAMPLES = [
    ('{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
     '{"jsonrpc": "2.0", "result": 19, "id": 1}'),
    ('{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
     '{"jsonrpc": "2.0", "result": -19, "id": 2}'),
    ('{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
     '{"jsonrpc": "2.0", "result": 19, "id": 3}'),
    ('{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
     '{"jsonrpc": "2.0", "result": 19, "id": 4}'),
    ('{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}', None),
    ('{"jsonrpc": "2.0", "method": "foobar"}', None),
    ('{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
     '{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}'),
    ('{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
     '{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}'),
    ('{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
     '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}'),
    ('[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]',
     '{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}'),
    ("[]", '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}'),
    ("[1]", '[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]'),
    ("[1,2,3]", "[" + ", ".join(
        ['{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}'] * 3
    ) + "]"),
    ('[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, '
     '{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, '
     '{"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"}, '
     '{"foo": "boo"}, '
     '{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, '
     '{"jsonrpc": "2.0", "method": "get_data", "id": "9"}]',
     '[{"jsonrpc": "2.0", "result": 7, "id": "1"}, '
     '{"jsonrpc": "2.0", "result": 19, "id": "2"}, '
     '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}, '
     '{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"}, '
     '{"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}]'),
    ('[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, '
     '{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]', None),
]  # fmt: skip
