"""`python -m bench [--quick] [--only GROUP,...] [--out PATH]`."""

from __future__ import annotations

import sys

from bench.runner import main

sys.exit(main(sys.argv[1:]))
