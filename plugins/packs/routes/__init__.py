"""The `pack-http-routes` analysis: HTTP routes of FastAPI, Flask, Starlette and Express apps.

Per file, `extract` reads facts (Python with `ast`, JavaScript/TypeScript with tree-sitter;
nothing scanned is imported or run); across files, `route_document` resolves routers, prefixes and
auth through imports and renders the document pieces. Modules: `model` (the facts),
`python_facts` and `js_facts` (readers), `manifests` and `tsconfig` (`package.json` and
TypeScript/JavaScript project configs, for module resolution), `linker` (names and the mount graph), `paths` (path
spelling and joining), `auth` (what is evidence of a guard), `document` (the output).

The names below load `document` (and with it every reader and the linker) when first asked
for, not when a submodule is: `pack-js-tables` reads JavaScript scopes with `js_scopes` alone,
and importing the whole route pack doubled the time its process took to say hello (its files
compiled on each start where the install is read-only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .document import (
        NAMED,
        SUFFIXES,
        RouteDocumentMemo,
        extract,
        extract_lean,
        route_document,
    )

__all__ = ["NAMED", "SUFFIXES", "RouteDocumentMemo", "extract", "extract_lean", "route_document"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import document

        return getattr(document, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
