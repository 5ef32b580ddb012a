"""What runs inside a plugin process: the SDK's `serve`, the JSON-RPC stdio transport, the
repository walk and the file memo. Standard library and `gpp.core` only, so a plugin needs
nothing but the `gpp` folder on `sys.path`."""
