"""calibre-web's own `cps.main.main()` for its route truth (never runs the packs).

Usage (run from the checkout; `-p`/`-g` put the settings and Google Drive SQLite files in a
temporary folder, local files, no server):
    PYTHONPATH=<this folder> CALIBRE_WEB_ARGV='-p <tmp>/app.db -g <tmp>/gdrive.db' \
        runtime_routes.py flask calibre_web_app:app CHECKOUT

calibre-web registers its blueprints in `main()` (after `create_app()`), then starts its
Tornado server. Only that start is replaced: it returns at once, so `main()` reaches its
`sys.exit`, which is caught here; every `register_blueprint` call `main()` makes, under the
conditions it tests (Kobo sync enabled in the settings database, Flask-Dance importable), ran.
The threads it starts (the updater, the task worker, the scheduler) are made daemons, so the
interpreter exits once the routes are printed.
"""

import contextlib
import os
import sys
import threading

_start = threading.Thread.start


def _daemon_start(self: threading.Thread) -> None:
    self.daemon = True
    _start(self)


threading.Thread.start = _daemon_start  # type: ignore[method-assign]
_argv = sys.argv
sys.argv = ["cps.py", *os.environ.get("CALIBRE_WEB_ARGV", "").split()]
from cps import app as _app  # noqa: E402
from cps import web_server  # noqa: E402
from cps.main import main  # noqa: E402


def _started(*_args: object, **_kwargs: object) -> bool:
    return True


web_server.start = _started
with contextlib.suppress(SystemExit):
    main()
sys.argv = _argv
app = _app
