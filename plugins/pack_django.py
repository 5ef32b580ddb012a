#!/usr/bin/env python3
"""`pack-django` 1.0.0: the tables Django creates for the models of Django code.

Reads `.py` files with `ast` (the scanned code is never imported or run); the rules are in
`packs/django_models.py`, the walk, safe opens, memo and ordering in `packs/scan.py`.
"""

import os
import sys
from typing import Final

PLUGINS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [PLUGINS, os.path.dirname(PLUGINS)]  # packs/, and the repo's gpp/ when not installed

from packs import django_models  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402

KEYWORDS = (b"db_table", b"ManyToManyField", b"django.db.models.Model")
BASE_KEYWORDS = ("Model", "models")
FOLLOW: Final = "names"
LINK_KEYWORDS = (b"Field(", b"ForeignKey(", b"OneToOneField(")
"""The cold-scan pre-filter (`packs/prefilter.py`): a model is a class whose base is Django's
`models.Model`, a base imported from some `models` module (`AbstractUser`, `TaggedItemBase`,
`PeriodicTask`…), or (followed by the pre-filter's links) a class of the repository that is one;
a file with none of these, and no link to one, declares no table. `FOLLOW`: the linker resolves
class bases and field callees only, so only the modules those names land in are parsed too.
`LINK_KEYWORDS`: a file parsed for a keyword alone (a `db_table` in a test) has classes that
may be bases of models (their fields inherited) only when it holds a field.
Keep in step with the reader."""

if __name__ == "__main__":
    sys.exit(
        serve_python_pack(
            "pack-django", "1.0.0", django_models, KEYWORDS, BASE_KEYWORDS, FOLLOW, LINK_KEYWORDS
        )
    )
