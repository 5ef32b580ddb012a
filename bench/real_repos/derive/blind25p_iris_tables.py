"""blind25p: iris-web's tables from its Flask-SQLAlchemy metadata: derive/runtime_tables.py (imported,
unchanged; same arguments) after the two preparations blind25p_iris_routes.py makes: the
`collections` abstract classes put back for sqlalchemy-imageattach 1.1.0 on Python 3.11, and
`app.post_init` replaced by a stand-in whose `run_post_init` does nothing (the real one connects
to PostgreSQL when `app` is imported). Never runs the packs.

    cd CHECKOUT/source && ENV... python blind25p_iris_tables.py 'app:db' . --import 'app.models.**'
"""

import collections
import collections.abc
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtime_tables

for name in collections.abc.__all__:
    if not hasattr(collections, name):
        setattr(collections, name, getattr(collections.abc, name))
stand_in = types.ModuleType("app.post_init")
stand_in.run_post_init = lambda development=False: None
sys.modules["app.post_init"] = stand_in

if __name__ == "__main__":
    runtime_tables.main()
