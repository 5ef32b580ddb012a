"""Run another derive script for an application that connects to its database at import time,
with that database pointed at an SQLite file (never runs the packs).

    [GF_STUB=mod1,mod2] python sqlite_engine_boot.py SCRIPT ARGS... > out.json

Some applications call `create_engine(URL, connect_args={...}).connect()` when a module is
imported (SimpleLogin's app/db.py), with connect_args only their production driver accepts
(PostgreSQL's `application_name`). Given an sqlite URL (the operator's environment), the
wrapper drops `connect_args` for that engine, so the import opens a local file instead of a
server; no route or table depends on it. `GF_STUB` names modules that cannot be installed here
(a C++ library binding, an unpublished package), stood in for as `runtime_routes_stubbed.py
--stub` does. SCRIPT then runs as `__main__` with the remaining arguments.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

import sqlalchemy

_create_engine = sqlalchemy.create_engine


def _create_engine_local(url: Any, *args: Any, **kwargs: Any) -> Any:
    if str(url).startswith("sqlite"):
        kwargs.pop("connect_args", None)
    return _create_engine(url, *args, **kwargs)


def main() -> None:
    sqlalchemy.create_engine = _create_engine_local
    script = sys.argv.pop(1)
    sys.argv[0] = script
    stubs = {name for name in os.environ.get("GF_STUB", "").split(",") if name}
    if stubs:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import runtime_tables

        sys.meta_path.insert(0, runtime_tables._StubFinder(set(), stubs))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
