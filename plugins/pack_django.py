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

from packs import django_apps, django_models  # noqa: E402
from packs.entry import serve_python_pack  # noqa: E402
from packs.prefilter import Fields, Keyword, Word  # noqa: E402

KEYWORDS: Final[tuple[Keyword, ...]] = (
    *(Word(option, rb"[ \t]*=(?!=)") for option in (b"db_table", b"app_label", b"proxy")),
    *(Word(setting.encode()) for setting in (django_apps.SETTING, django_apps.SETTINGS_MODULE)),
    *(Word(word.encode()) for word in django_models.MADE_WORDS),  # models libraries make
)
# the callees the reader keeps (`django_models._describe`): `...Field(...)` and the relations
FIELDS = Fields(("Field", *sorted(django_models.RELATION_FIELDS)), "django.db.models.")
BASE_KEYWORDS = ("Model", "models.", "AppConfig", *django_models.KNOWN_MODELS)
FOLLOW: Final = "names"
"""The cold-scan pre-filter (`packs/prefilter.py`). A model is a class below Django's
`models.Model` or a model the reader knows (`KNOWN_MODELS`: `AbstractUser`, `TaggedItemBase`,
`PeriodicTask`…): directly — a base whose dotted name, as written or as its import names it,
ends in `Model` or is a known model's, or is a class of a `models` module (an app's model
base: `wagtail.models.Page`, `django_models.is_models_module_class`) (`BASE_KEYWORDS`) — or
through classes of the repository
(the pre-filter's links). `KEYWORDS` (`Meta` options assigned: `db_table = `; not a migration's
`"db_table": `) and `FIELDS`: the table options and Django fields that make a class below an unknown base an `UNKNOWN_MODEL_BASE` finding
(`output_field = JSONField()` in a `django.db.models` expression); the settings that say which
apps are installed (`INSTALLED_APPS`, `DJANGO_SETTINGS_MODULE`: `packs.django_apps` reads a
file only where it spells one) and the app configs they name (a base `AppConfig`: its `name`
and `label`). A file with none of these,
and no link to one, declares no table and says nothing. `FOLLOW`: the linker resolves class
bases and field callees only, so only the modules those names land in are parsed too. Keep in
step with the reader."""

if __name__ == "__main__":
    sys.exit(
        serve_python_pack(
            "pack-django",
            "1.0.0",
            django_models,
            KEYWORDS,
            BASE_KEYWORDS,
            FOLLOW,
            FIELDS,
        )
    )
