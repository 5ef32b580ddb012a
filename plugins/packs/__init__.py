"""Source-reading discovery packs: the shared scan scaffold and each pack's analyzer.

`scan` (walk, safe open, memo, extract/link pipeline, ordering), `builders` (locations, duplicate
findings, the `pii` signal) and `tables` are shared; `sqlalchemy_models` and `django_models` are
the analyzers behind `plugins/pack_sqlalchemy.py` and `plugins/pack_django.py` (`django_apps`:
which apps the settings install). Standard library
and `gpp` only: a pack runs under the default sandbox with nothing installed.
"""
