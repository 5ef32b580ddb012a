"""The gateway's HTTP routes, one job per module.

`rows.py` lists every route as one row; `table.py` turns the rows into FastAPI's routes, the
fast path's matching and the security checks' questions; `endpoints.py` answers `/discover`,
`/plugins`, health, metrics and docs; `rpc_endpoint.py` answers `/rpc`; `plugin_requests.py`
holds what the two plugin endpoints share.
"""
