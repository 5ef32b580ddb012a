"""changedetection.io's own `changedetection_app(config, datastore)` for its route truth (never runs the packs).

Usage (run from the checkout, with the app's venv; the JSON datastore goes to a temporary folder,
no server is started, nothing is fetched):
    PYTHONPATH=<this folder> python flask_blueprint_files.py blind26_changedetection_app:app . > items.json

The app is built the way the project's own tests/conftest.py builds it: a
`store.ChangeDetectionStore(datastore_path=<tmp>, include_default_watches=False)` and
`changedetection_app({'datastore_path': <tmp>, 'disable_checkver': True}, datastore)`. The threads
it starts (workers, notification runner) are made daemons so the interpreter exits.
"""

import tempfile
import threading

_start = threading.Thread.start


def _daemon_start(self: threading.Thread) -> None:
    self.daemon = True
    _start(self)


threading.Thread.start = _daemon_start  # type: ignore[method-assign]

from changedetectionio import store  # noqa: E402
from changedetectionio.flask_app import changedetection_app  # noqa: E402

_path = tempfile.mkdtemp(prefix="cd-datastore-")
_datastore = store.ChangeDetectionStore(datastore_path=_path, include_default_watches=False)
app = changedetection_app({"datastore_path": _path, "disable_checkver": True}, _datastore)
