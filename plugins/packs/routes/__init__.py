"""The `pack-http-routes` analysis: HTTP routes of FastAPI, Flask, Starlette and Express apps.

Per file, `extract` reads facts (Python with `ast`, JavaScript/TypeScript with tree-sitter;
nothing scanned is imported or run); across files, `route_document` resolves routers, prefixes and
auth through imports and renders the document pieces. Modules: `model` (the facts),
`python_facts` and `js_facts` (readers), `manifests` and `tsconfig` (`package.json` and
TypeScript/JavaScript project configs, for module resolution), `linker` (names and the mount graph), `paths` (path
spelling and joining), `auth` (what is evidence of a guard), `document` (the output).
"""

from .document import NAMED, SUFFIXES, RouteDocumentMemo, extract, extract_lean, route_document

__all__ = ["NAMED", "SUFFIXES", "RouteDocumentMemo", "extract", "extract_lean", "route_document"]
