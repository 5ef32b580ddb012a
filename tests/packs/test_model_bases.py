"""Model bases the project builds (`packs/model_bases.py`; issue 34 class 5): pack-sqlalchemy
follows Flask-SQLAlchemy's `SQLAlchemy(model_class=...)`, project subclasses of `SQLAlchemy`
and functions that return a declarative base, each on its own fixture under
tests/fixtures/exactness/, scanned with the pre-filter and without it (the documents equal).

Every expected list is what the library itself made of the fixture: each module imported in a
venv of the version the fixture's requirements.txt pins, then every `MetaData`'s
`sorted_tables` (Flask-SQLAlchemy 3.0.5, 2.5.1 and 3.1.1 over SQLAlchemy 2.1 / 1.4, plain
SQLAlchemy 2.0.58)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_sqlalchemy
from packs import sqlalchemy_models
from packs.scan import JSONObject, Scanner

FIXTURES = REPO / "tests" / "fixtures" / "exactness"


def _scan(root: Path) -> JSONObject:
    """pack-sqlalchemy's document of `root`, held to the scan that parses every file."""

    def scanner(parse_all: bool) -> Scanner[Any]:
        return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                       language="Python", root=str(root), workers=1,
                       keywords=pack_sqlalchemy.KEYWORDS,
                       base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
                       follow=pack_sqlalchemy.FOLLOW, parse_all=parse_all,
                       named=sqlalchemy_models.NAMED)  # fmt: skip

    document = scanner(False).discover(["."])
    assert document == scanner(True).discover(["."])
    return document


def _tables(document: JSONObject) -> list[tuple[str, str, int]]:
    return [
        (r["name"], r["location"]["path"], r["location"]["line"])
        for r in document["resources"]
        if r["kind"] == "table"
    ]


def _columns(document: JSONObject) -> dict[str, int]:
    return {r["name"]: r["attrs"]["columns"] for r in document["resources"]}


def test_an_extension_subclass_that_builds_its_own_base() -> None:
    """`store = TrackedAlchemy(model_class=Record)`, `TrackedAlchemy` a subclass of
    Flask-SQLAlchemy's extension (imported under another name) whose `_make_declarative_base`
    builds `declarative_base(cls=model_class, metaclass=TrackingMeta)`, its metaclass below
    Flask-SQLAlchemy's `DefaultMeta`: models below `store.Model`, reached through a re-export,
    an alias (`Entity = database.Model`) and an `__abstract__` intermediate, get their names
    by Flask-SQLAlchemy's rule, and `Record`'s columns; `store.Table(...)` is a table. Today's
    main flagged each model `UNKNOWN_MODEL_BASE` and listed no table."""
    document = _scan(FIXTURES / "own-alchemy-override")
    path = "ledger/models/accounts.py"
    assert _tables(document) == [
        ("account_owner_links", path, 7),
        ("ledger_account", path, 14),
        ("owner_profile", path, 18),
        ("journal", path, 22),
        ("http_webhook", path, 27),
    ]
    assert document["findings"] == []
    assert _columns(document)["ledger_account"] == 3  # code + Record's id, Stamped's created


def test_an_extension_subclass_passing_model_class_from_its_init() -> None:
    """Subclasses of `SQLAlchemy` whose `__init__` hands a `model_class` to `super().__init__`:
    `options.setdefault("model_class", keyed.KeyedModel)` (a module attribute), and
    `super(Cls, self).__init__(app, model_class=ArchivedRow, **kw)` where `ArchivedRow` is a
    plain class whose `declared_attr` names every table: a model with no body of its own is a
    table (its key comes from the model class); `model_class=plain.Describable`, a submodule
    (`from . import plain`) that names nothing the pre-filter looks for: parsed all the same.
    Flask-SQLAlchemy 2.5.1's names (`x_ray_image`)."""
    document = _scan(FIXTURES / "own-alchemy-init")
    assert _tables(document) == [
        ("archived_prescription", "clinic/archive/__init__.py", 14),
        ("lab_results_old", "clinic/archive/__init__.py", 18),
        ("wards", "clinic/patients.py", 7),
        ("patient_visit", "clinic/patients.py", 12),
        ("x_ray_image", "clinic/patients.py", 16),
        ("sticky_note", "clinic/patients.py", 20),
    ]
    assert document["findings"] == []


def test_a_declarative_base_subclass_as_model_class() -> None:
    """Flask-SQLAlchemy 3.1: `SQLAlchemy(model_class=Base)`, `Base` a `DeclarativeBase`
    subclass with a mixin: models named by Flask-SQLAlchemy's rule, the mixin's key among their
    columns; with `disable_autonaming=True` (and a `DeclarativeBaseNoMeta`) no implicit name,
    so a subclass of a mapped model is single-table inheritance."""
    document = _scan(FIXTURES / "model-class-declarative")
    assert _tables(document) == [
        ("stock_item", "inventory/models.py", 9),
        ("sku_alias", "inventory/models.py", 13),
        ("crates", "inventory/models.py", 17),
    ]
    assert document["findings"] == []
    assert _columns(document)["stock_item"] == 2


def test_an_already_declarative_model_class_is_the_model_base() -> None:
    """`SQLAlchemy(model_class=orm.Base)`, `Base = declarative_base(cls=RowsNamed)`: `db.Model`
    is that base itself, so its mixin's `declared_attr` names every table (`ticket_rows`, not
    Flask-SQLAlchemy's `ticket`); so too a base made in the call itself
    (`model_class=declarative_base(cls=orm.RowsNamed, name="Model")`). Today's main listed
    Flask-SQLAlchemy's names, silently wrong."""
    document = _scan(FIXTURES / "model-class-made-base")
    assert _tables(document) == [
        ("ticket_rows", "tracker/models.py", 6),
        ("milestones", "tracker/models.py", 10),
        ("bugreport_rows", "tracker/models.py", 20),
        ("invoice_rows", "tracker/models.py", 24),
    ]
    assert document["findings"] == []


def test_bases_made_by_the_project_s_factories_and_registries() -> None:
    """A base returned by a function of the repository (`build_base()` returning
    `declarative_base(cls=SnakeNamed, metadata=...)` through a local name, re-exported by a
    package; `make_reporting_base()` returning a `DeclarativeBase` subclass it defines),
    `registry().generate_base()` called inline, `@as_declarative()` with a `declared_attr` and
    an `__abstract__` intermediate, a `DeclarativeBaseNoMeta` subclass."""
    document = _scan(FIXTURES / "base-factories")
    assert _tables(document) == [
        ("audit_loginevent", "warehouse/audit.py", 14),
        ("audit_deletedrow", "warehouse/audit.py", 23),
        ("carriers", "warehouse/carriers.py", 17),
        ("daily_totals", "warehouse/carriers.py", 22),
        ("postings", "warehouse/ledger.py", 7),
        ("storage_bin", "warehouse/stock.py", 6),
        ("pick_lists", "warehouse/stock.py", 11),
    ]
    assert document["findings"] == []


UNFOLLOWED = {
    "app/ext.py": (
        "from flask_sqlalchemy import SQLAlchemy\n"
        "from vendorlib.orm import VendorModel\n\n"
        "class Handmade(SQLAlchemy):\n"
        "    def make_declarative_base(self, model, metadata=None):\n"
        "        return vendor_build(model)\n\n"
        "odd = Handmade()\n"
        "outside = SQLAlchemy(model_class=VendorModel)\n"
        "OPTIONS = dict(model_class=VendorModel)\n"
        "spread = SQLAlchemy(**OPTIONS)\n"
    ),
    "app/base.py": (
        "from vendorlib import make\n\n"
        "def model_base():\n"
        "    return make.something()\n\n"
        "Base = model_base()\n"
    ),
    "app/models.py": (
        "from sqlalchemy import Column, Integer\n\n"
        "from .base import Base\n"
        "from .ext import odd, outside, spread\n\n"
        "class Pin(odd.Model):\n"
        "    id = Column(Integer, primary_key=True)\n\n"
        "class Tag(outside.Model):\n"
        "    id = Column(Integer, primary_key=True)\n\n"
        "class Note(Base):\n"
        "    __tablename__ = 'notes'\n\n"
        "class Draft(spread.Model):\n"
        "    __tablename__ = 'drafts'\n"
    ),
}


def test_a_model_base_that_cannot_be_followed_is_flagged_at_each_class(tmp_path: Path) -> None:
    """Where the base is built some other way (an override of `make_declarative_base` that
    calls something else, a `model_class` from outside the scanned files, one that may come
    in a `**` spread, a factory returning another library's object), no table is guessed: `UNKNOWN_MODEL_BASE` at each class below
    it, naming what was not followed."""
    for name, text in UNFOLLOWED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "app" / "__init__.py").write_text("")
    document = _scan(tmp_path)
    assert _tables(document) == []
    flagged = {
        (f["detail"].split("`")[1], location["line"])
        for f in document["findings"]
        for location in f["locations"]
    }
    assert {f["code"] for f in document["findings"]} == {"UNKNOWN_MODEL_BASE"}
    assert flagged == {
        ("Handmade.make_declarative_base", 6),
        ("vendorlib.orm.VendorModel", 9),
        ("model_base()", 12),
        ("SQLAlchemy(model_class=?).Model", 15),
    }


PASSED_ON = {
    "kiosk/__init__.py": "",
    "kiosk/alchemy.py": (
        "from flask_sqlalchemy import Model, SQLAlchemy\n"
        "from sqlalchemy import Column, Integer\n\n"
        "class Keyed(Model):\n    id = Column(Integer, primary_key=True)\n\n"
        "class Serial(Model):\n    serial = Column(Integer, primary_key=True)\n    code = Column(Integer)\n\n"
        "class DefaultedAlchemy(SQLAlchemy):\n"
        "    def __init__(self, app=None, model_class=Keyed, **kw):\n"
        "        super().__init__(app, model_class=model_class, **kw)\n\n"
        "class ExplicitAlchemy(SQLAlchemy):\n"
        "    def __init__(self, *args, **kw):\n"
        "        kw['model_class'] = Serial\n"
        "        SQLAlchemy.__init__(self, *args, **kw)\n\n"
        "class LoggedAlchemy(DefaultedAlchemy):\n"
        "    def make_declarative_base(self, model, metadata=None):\n"
        "        base = super().make_declarative_base(model, metadata)\n"
        "        base.logged = True\n"
        "        return base\n\n"
        "plain = DefaultedAlchemy()\n"
        "chosen = DefaultedAlchemy(model_class=Serial)\n"
        "forced = ExplicitAlchemy(model_class=Keyed)\n"
        "logged = LoggedAlchemy()\n"
    ),
    "kiosk/models.py": (
        "from .alchemy import chosen, forced, logged, plain\n\n"
        "class KioskScreen(plain.Model):\n    pass\n\n"
        "class TouchEvent(chosen.Model):\n    pass\n\n"
        "class PrinterJob(forced.Model):\n    pass\n\n"
        "class AuditTrail(logged.Model):\n    pass\n"
    ),
}


def test_how_an_extension_s_init_hands_model_class_on(tmp_path: Path) -> None:
    """A parameter's default passed on (`model_class=Keyed`, the caller's keyword winning),
    `kw["model_class"] = Serial` overriding the caller's, `SQLAlchemy.__init__(self, ...)`
    called by name, and a `make_declarative_base` override that calls `super()`'s (2.x's
    name). Flask-SQLAlchemy 2.5.1 made `kiosk_screen(id)`, `touch_event(serial, code)`,
    `printer_job(serial, code)`, `audit_trail(id)`."""
    for name, text in PASSED_ON.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    document = _scan(tmp_path)
    assert [(name, line) for name, _, line in _tables(document)] == [
        ("kiosk_screen", 3),
        ("touch_event", 6),
        ("printer_job", 9),
        ("audit_trail", 12),
    ]
    assert _columns(document) == {
        "kiosk_screen": 1,
        "touch_event": 2,
        "printer_job": 2,
        "audit_trail": 1,
    }
    assert document["findings"] == []


def test_an_override_naming_its_own_model_class_and_a_guarded_default() -> None:
    """A `make_declarative_base` override (2.x's signature) that ignores its parameter and
    builds `declarative_base(cls=CountedModel, metaclass=_BoundDeclarativeMeta)` (2.x's old
    name of the naming metaclass): `CountedModel`'s columns are every model's; an `__init__`
    that sets `kw["model_class"]` only when the caller gave none (the caller's `Serial` kept
    for `guarded`, `CountedModel` for `unguarded`). Flask-SQLAlchemy 2.5.1 made
    `shipment_label(hits, id, text)`, `docks(hits, id)`, `bay(serial)`, `lane(hits, id)`."""
    document = _scan(FIXTURES / "own-alchemy-legacy")
    assert [(name, line) for name, _, line in _tables(document)] == [
        ("shipment_label", 6),
        ("docks", 10),
        ("bay", 14),
        ("lane", 18),
    ]
    assert _columns(document) == {"shipment_label": 3, "docks": 2, "bay": 1, "lane": 2}
    assert document["findings"] == []


def test_a_model_class_popped_into_a_local_and_defaulted() -> None:
    """`chosen = kwargs.pop("model_class", None)`, `if chosen is None: chosen = ShelfModel`,
    `kwargs["model_class"] = chosen`: the local name followed through the method's own
    assignments — the caller's model class where given (`PlainKey`), else `ShelfModel`.
    Flask-SQLAlchemy 3.0.5 made `jar_label(id, version)` and `spice_rack(key)`."""
    document = _scan(FIXTURES / "own-alchemy-popped")
    assert [(name, line) for name, _, line in _tables(document)] == [
        ("jar_label", 8),
        ("spice_rack", 12),
    ]
    assert _columns(document) == {"jar_label": 2, "spice_rack": 1}
    assert document["findings"] == []


def test_library_mixins_name_tables_and_an_unread_one_is_flagged() -> None:
    """Issue 34 class 5 (`model_bases.LIBRARY_BASES`): a mapped class with no `__tablename__`
    of its own takes its table name and columns from a library mixin the record table knows —
    fastapi-users' user/OAuth/access-token tables (imported under another name, through the
    `fastapi_users.db` re-export, as a module attribute, subscripted `[int]`), Flask-Dance's
    `declared_attr` name (`flask_dance_<class>`), Flask-Security's columns below
    Flask-SQLAlchemy's `Model` (implicit names; Flask-Login's `UserMixin` known to name
    nothing), Authlib's OAuth 2 client columns. Below a base no record names (`acme_auth`, directly or through a
    project mixin) the class is never silent: `UNKNOWN_MODEL_BASE` at the class; with a
    `__tablename__` of its own it is a table; a Flask-SQLAlchemy model named by its rule
    below one (`analytics_kit`) is listed with a finding beside it: the mixin may name it.

    Expected: SQLAlchemy 2.0.58, fastapi-users-db-sqlalchemy 7.0.0, Flask-Dance 7.1.0,
    Flask-SQLAlchemy 3.1.1, Flask-Security 5.9.2, Authlib 1.9.10 imported on `ledger/members.py` and
    `portal/models.py`, each metadata's `sorted_tables`, but `roles_users`: the link table
    Flask-Security's `set_db_info` makes at runtime is not listed (a known gap)."""
    document = _scan(FIXTURES / "library-mixins")
    assert sorted(_tables(document)) == [
        ("accesstoken", "ledger/members.py", 19),
        ("api_client", "portal/models.py", 28),
        ("audit_trail", "ledger/vendor.py", 18),
        ("badge", "portal/models.py", 15),
        ("flask_dance_forgetoken", "ledger/members.py", 23),
        ("oauth_account", "ledger/members.py", 15),
        ("person", "portal/models.py", 11),
        ("session", "portal/models.py", 24),
        ("user", "ledger/members.py", 11),
        ("visit", "portal/models.py", 19),
    ]
    assert _columns(document) == {  # as many as the library's tables have
        "user": 6, "oauth_account": 9, "accesstoken": 3, "flask_dance_forgetoken": 4,
        "person": 21, "badge": 5, "audit_trail": 0, "visit": 2, "session": 1, "api_client": 6,
    }  # fmt: skip
    flagged = sorted(
        (f["code"], location["path"], location["line"])
        for f in document["findings"]
        for location in f["locations"]
    )
    assert flagged == [
        ("UNKNOWN_MODEL_BASE", "ledger/vendor.py", 10),
        ("UNKNOWN_MODEL_BASE", "ledger/vendor.py", 14),
        ("UNKNOWN_MODEL_BASE", "portal/models.py", 19),
    ]
    unknown = [f["detail"] for f in document["findings"] if f["code"] == "UNKNOWN_MODEL_BASE"]
    assert sum("acme_auth.tables.AcmeAccountTable" in detail for detail in unknown) == 1  # 2 places
    assert any("analytics_kit.mixins.PageviewMixin" in detail for detail in unknown)
