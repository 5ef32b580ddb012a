"""blind23m: the HTTP routes of Flagsmith's MCP server (mcp/, FastMCP 3 on Starlette) from
Starlette's own route table (never runs the packs).

    python blind23m_flagsmith_mcp_routes.py CHECKOUT > items.json

The server is built by the app's own `create_server(config.Settings())` (default settings:
transport "http", no API token, so FastMCP's RemoteAuthProvider is on), and its ASGI app is
made as `run()` makes it for the http transport (`server.http_app(path=STREAMABLE_HTTP_PATH,
middleware=[Middleware(RootRouterMiddleware)])`: what `FastMCP.run(transport="http", ...)` hands
to uvicorn), never served. `app.routes` walked (mounts recursed); HEAD, which Starlette adds for
every GET, and OPTIONS the route does not list are left out. A route whose endpoint is a
function of the checkout is placed at it; a route FastMCP itself makes (the streamable-HTTP
endpoint, the OAuth protected-resource metadata) at the app's call that makes it, given below.
"""

import inspect
import json
import sys
from pathlib import Path

checkout = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(checkout / "mcp" / "src"))
from flagsmith_mcp import config, constants, server  # noqa: E402
from flagsmith_mcp.middleware import RootRouterMiddleware  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.routing import Mount  # noqa: E402

settings = config.Settings()
mcp = server.create_server(settings)
app = mcp.http_app(
    path=constants.STREAMABLE_HTTP_PATH, middleware=[Middleware(RootRouterMiddleware)]
)
server_py = "mcp/src/flagsmith_mcp/server.py"
lines = (checkout / server_py).read_text(encoding="utf-8").splitlines()


def line_of(text):
    return next(i for i, line in enumerate(lines, 1) if text in line)


def where(endpoint, path):
    try:
        target = inspect.unwrap(endpoint)
        file = Path(inspect.getsourcefile(target)).resolve()
        return file.relative_to(checkout).as_posix(), inspect.getsourcelines(target)[1]
    except (TypeError, OSError, ValueError):
        pass
    if path == constants.STREAMABLE_HTTP_PATH:  # run(): server.run(..., path=STREAMABLE_HTTP_PATH)
        return server_py, line_of("path=constants.STREAMABLE_HTTP_PATH")
    # create_server(): auth = FlagsmithResourceAuth(...) (RemoteAuthProvider's metadata routes)
    return server_py, line_of("auth = FlagsmithResourceAuth(")


items = {}


def visit(routes, prefix):
    for route in routes:
        if isinstance(route, Mount):
            visit(route.routes, prefix + route.path)
            continue
        path = prefix + route.path
        methods = sorted(getattr(route, "methods", None) or ["ANY"])
        if "GET" in methods:
            methods = [m for m in methods if m != "HEAD"]
        file, line = where(route.endpoint, route.path)
        for method in methods:
            items.setdefault(
                f"{method} {path}",
                {"name": f"{method} {path}", "file": file, "line": line, "files": [file]},
            )


visit(app.routes, "")
print(json.dumps(sorted(items.values(), key=lambda x: x["name"]), indent=1))
