#!/usr/bin/env python3
"""`pack-http-routes` 1.0.0: the HTTP routes of FastAPI, Flask, Starlette, Django (URLconf and
REST framework), Express and Koa apps.

Each route is a resource of kind `route` named `METHOD /full/path`, with an `auth` signal
(`required`/`none`/`unknown`, from evidence: `packs.routes.auth`); two handlers claiming one
name give a `DUPLICATE_ROUTE` finding, and what cannot be resolved an `UNRESOLVED_*` finding at
its place (docs/detectors.md). The
analysis lives in `packs/routes/`; the walk, safe opens, memo and ordering are the shared
`packs.scan.Scanner`. Needs the gateway's interpreter (tree-sitter parses JavaScript and
TypeScript); nothing scanned is imported or run.
"""

from __future__ import annotations

import os
import sys

try:
    from gpp.plugin import serve
except ImportError:  # run from a checkout by a bare interpreter: use the repo's gpp/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gpp.plugin import serve

from packs.routes import NAMED, SUFFIXES, RouteDocumentMemo, extract, extract_lean
from packs.routes.model import ModuleFacts
from packs.routes.seeds import admits, data_file, widens
from packs.scan import OnDemand, Scanner

PLUGIN_ID = "pack-http-routes"
PLUGIN_VERSION = "1.0.0"


def make_scanner(*, parse_all: bool = False) -> Scanner[ModuleFacts]:
    """One per plugin process: the memo and the last link live as long as the session. A cold
    scan parses only the files whose bytes can declare or register a route and those linking
    asks for (`packs.routes.seeds`, `packs.scan.OnDemand`); `parse_all` parses every file (the
    reference the filtered document is held to, byte for byte). Python files are read without
    their Django facts where no file spells a Django seed (`seeds.widens`)."""
    document = RouteDocumentMemo()
    return Scanner(
        SUFFIXES,
        extract,
        document,
        language="Python, JavaScript or TypeScript",
        on_demand=OnDemand(admits, document, lean=extract_lean, widens=widens, data_file=data_file),
        parse_all=parse_all,
        named=NAMED,
    )


if __name__ == "__main__":
    capabilities = ("discover", "classification-signals")
    sys.exit(serve(PLUGIN_ID, PLUGIN_VERSION, make_scanner().discover, capabilities=capabilities))
