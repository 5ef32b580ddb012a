"""`python -m gpp.gateway` (`python -m app` in a checkout) is `gpp serve`; with arguments, it is
the `gpp` command."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:] or ["serve"]))
