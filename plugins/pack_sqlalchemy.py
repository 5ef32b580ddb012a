#!/usr/bin/env python3
"""`pack-sqlalchemy` 1.0.0: the tables of SQLAlchemy, Flask-SQLAlchemy and SQLModel code.

Reads `.py` files with `ast` (the scanned code is never imported or run); the rules are in
`packs/sqlalchemy_models.py`, the walk, safe opens, memo and ordering in `packs/scan.py`.
"""

import os
import sys

PLUGINS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [PLUGINS, os.path.dirname(PLUGINS)]  # packs/, and the repo's gpp/ when not installed

from packs import sqlalchemy_models  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402

if __name__ == "__main__":
    sys.exit(serve_python_pack("pack-sqlalchemy", "1.0.0", sqlalchemy_models))
