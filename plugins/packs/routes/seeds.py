"""Which files pack-http-routes parses first: those whose bytes can declare or register a
route, a router or an app (`admits`); the scanner parses the rest on demand (`packs.scan.OnDemand`).

A file adds facts of its own — routers, routes, mounts, `use` calls, `before_request` hooks —
only through the constructs the readers look for; every other fact (a binding, an export, a
function, a class) matters only when the linker looks it up from a file that has some, and
then the scanner parses it (`Linked.touched`). The patterns below are, per reader, a superset
of those constructs, spelt as their bytes must spell them (over-inclusion costs time only):

- Python (`python_facts`): a router or app made by a call named with a framework word
  (`ROUTER_FRAMEWORKS`, `_ROUTER_WORDS`: `APIRouter`, `Blueprint`, `Flask`, `FastAPI`,
  `Starlette`, any `...Router(`), flask-restx/flask-restful (`Api`, `Namespace`, only once
  imported from `flask_rest...`), Starlette's `Route(`/`Mount(` lists; a statement call
  (`_STATEMENT_CALLS`: `include_router`, `register_blueprint`, `mount`, `add_api_route`,
  `add_route`, `add_url_rule`, `before_request`, `add_namespace`, `add_resource`,
  `init_app`); a route decorator (`@x.get(`, `@x.route(`, `@ns.route(` on a class: an `@`
  line holding `.verb(`).
- JavaScript and TypeScript (`js_facts`): a router or app needs `express` (or `Router`); a
  route or `use` call is a call of a property in `_CALLED` (`get`, `post`…, `use`, `all`),
  which the reader itself first finds as that word (`_LOOK_AT`).

Calls that pass a router or a path to a function declaring routes on its parameter
(`register_view(bp, routes=[...])`) are found by name on demand (`Linked.words`).
"""

from __future__ import annotations

import re

from .model import HTTP_METHODS
from .python_facts import _ROUTE_DECORATORS, _STATEMENT_CALLS, ROUTER_FRAMEWORKS

# a framework word anywhere in a name (`UserAPIRouter(`, `CTFdFlask(`), as the reader matches it
_PY_NAMES = tuple(
    sorted(
        w.encode()
        for w in {
            *ROUTER_FRAMEWORKS,
            "Router",
            "Blueprint",
            "Flask",
            "FastAPI",
            "Starlette",
            "Route",
            "Mount",
            "flask_rest",
        }
    )
)
# a statement call's property, a whole word (`mount`, not `amount`)
_PY_CALLS = tuple(sorted(w.encode() for w in _STATEMENT_CALLS))
_PY_CALL = re.compile(rb"\b(?:" + b"|".join(_PY_CALLS) + rb")\b")
# a route decorator: an `@` line calling `.get(`, `.route(`... (a literal first: `re` skips to it)
_PY_DECORATOR = re.compile(
    rb"@[^\n]*\.[ \t]*(?:" + b"|".join(sorted(w.encode() for w in _ROUTE_DECORATORS)) + rb")\b"
)
_JS_NAMES = (b"express", b"Router")
# a route or `use` call's property as a word (checked to start one below: `\b` first would
# make `re` try every position)
_JS_CALL = re.compile(
    rb"(?:" + "|".join(sorted({*HTTP_METHODS, "use", "all"} - {"trace"})).encode() + rb")\b"
)


def admits(path: str, data: bytes) -> bool:
    """Whether the file at `path`, of these bytes, can hold facts of its own (see above).
    Substring tests first (`in` is a fast scan), a pattern only where they leave it open."""
    if path.endswith(".py"):
        if any(name in data for name in _PY_NAMES):
            return True
        if any(call in data for call in _PY_CALLS) and _PY_CALL.search(data):
            return True
        return b"@" in data and _PY_DECORATOR.search(data) is not None
    if any(name in data for name in _JS_NAMES):
        return True
    for match in _JS_CALL.finditer(data):
        start = match.start()
        if start == 0 or not (chr(data[start - 1]).isalnum() or data[start - 1] in b"_$"):
            return True
    return False
