"""The HTTP edge: the front door (uvicorn's protocol with the gateway's connection limits, and
the coalescing transport) and `FastPath` (the plugin routes served ahead of FastAPI's stack).

Kept in one folder because they alone reach into uvicorn's and Starlette's internals; importing
the package checks every such member first (`upstream.require`), so a framework bump that
removes one fails here, loudly, naming it.
"""

from . import upstream

upstream.require()
