"""`python -m bench.soak`: see the package's docstring, or --help."""

import sys

from .cli import main

sys.exit(main())
