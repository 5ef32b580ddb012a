#!/usr/bin/env python3
"""`pack-js-tables` 1.0.0: the tables of Sequelize, TypeORM, Prisma, knex and Bookshelf, and the
collections of Mongoose, in JavaScript/TypeScript code and Prisma schemas.

Reads with tree-sitter (and a line reader for `.prisma`; nothing scanned is imported or run);
the rules are in `packs/js_tables.py`, the walk, safe opens, memo and ordering in
`packs/scan.py`. A cold scan parses only the files whose bytes can declare a table
(`js_tables.admits`); `parse_all` parses every file, the reference it is held to.
"""

from __future__ import annotations

import os
import sys

try:
    from gpp.plugin import serve
except ImportError:  # run from a checkout by a bare interpreter: use the repo's gpp/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gpp.plugin import serve

from packs import js_tables
from packs.scan import OnDemand, Scanner

PLUGIN_ID = "pack-js-tables"
PLUGIN_VERSION = "1.0.0"


def make_scanner(*, parse_all: bool = False) -> Scanner[js_tables.FileFacts]:
    """One per plugin process: the memo lives as long as the session."""
    return Scanner(
        js_tables.SUFFIXES,
        js_tables.extract,
        js_tables.link,
        language="JavaScript, TypeScript or Prisma",
        on_demand=OnDemand(js_tables.admits, js_tables.link_on_demand),
        parse_all=parse_all,
        named=js_tables.NAMED,
    )


if __name__ == "__main__":
    capabilities = ("discover", "classification-signals")
    sys.exit(serve(PLUGIN_ID, PLUGIN_VERSION, make_scanner().discover, capabilities=capabilities))
