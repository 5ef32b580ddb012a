#!/usr/bin/env python3
"""`pack-django` 1.0.0: the tables Django creates for the models of Django code.

Reads `.py` files with `ast` (the scanned code is never imported or run); the rules are in
`packs/django_models.py`, the walk, safe opens, memo and ordering in `packs/scan.py`.
"""

import os
import sys

PLUGINS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [PLUGINS, os.path.dirname(PLUGINS)]  # packs/, and the repo's gpp/ when not installed

from packs import django_models  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402

KEYWORDS = (
    b"django",
    b"models",
    b"Model",
    b"Meta",
    b"db_table",
    b"Field",
    b"ManyToMany",
    b"ForeignKey",
    b"OneToOne",
    b"Generic",
)
"""The cold-scan pre-filter (`packs/prefilter.py`): a file naming none of these cannot declare
a model, unless the linker reaches it through an import (then it is parsed too). Keep in step
with the reader."""

if __name__ == "__main__":
    sys.exit(serve_python_pack("pack-django", "1.0.0", django_models, KEYWORDS))
