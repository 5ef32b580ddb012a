"""hashview's own `create_app()` for its route truth (never runs the packs).

Usage (from a folder holding `hashview/config.conf`, hashview's shipped example with the
database host on 127.0.0.1: the app reads it relative to the working directory):
    PYTHONPATH=<this folder> HASHVIEW_CONFIG_DIR=<that folder> \
        runtime_routes_stubbed.py flask hashview_app:app CHECKOUT --stub-missing

`create_app()` registers every blueprint itself; only its first-request database setup
(`setup_defaults_if_needed`: alembic upgrade, default rows) and APScheduler's thread are
replaced by no-ops, neither of which adds or removes a route.
"""

import os

import hashview
from hashview.scheduler import scheduler


def _skip(*_args: object, **_kwargs: object) -> None:
    return None


hashview.setup_defaults_if_needed = _skip
scheduler.start = _skip
_here = os.getcwd()
os.chdir(os.environ["HASHVIEW_CONFIG_DIR"])
import hashview.config  # noqa: E402  (reads hashview/config.conf when imported)

os.chdir(_here)
app = hashview.create_app()
