"""The protocol itself: bytes in, events or one `ProtocolError` out. Pure and stdlib-only: no
sockets, pipes, threads or clocks, and nothing from the other sides of `gpp`
(tests/core/test_layers.py holds both)."""
