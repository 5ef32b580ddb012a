"""blind22p: mediacms's own cms/settings.py, executed as a top-level module (never runs the packs).

django_runtime_routes.py's settings stub star-imports the settings module; `from cms.settings
import *` would first run cms/__init__.py, which creates the Celery app and reads
`app.conf.CELERY_BEAT_SCHEDULE` from Django's settings while the stub is still half-imported
(circular). Executing the same file's source here (with its own __file__, so BASE_DIR is the
checkout) gives exactly the same settings; cms/__init__.py (the Celery app) is then imported
normally by ROOT_URLCONF = "cms.urls" once the settings are complete. The file's relative
`from .local_settings import *` raises ImportError here as it does in the checkout (there is
no cms/local_settings.py) and is caught by the file itself.
"""

import os

_SETTINGS = os.path.join(os.environ["MEDIACMS_ROOT"], "cms", "settings.py")
__file__ = _SETTINGS
with open(_SETTINGS, encoding="utf-8") as _f:
    exec(compile(_f.read(), _SETTINGS, "exec"))
