"""pack-sqlalchemy's exactness on constructs real code uses (issue 34 items 6, 7 and 10), each on
its own fixture under tests/fixtures/exactness/, scanned with the pre-filter and without it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_sqlalchemy
from packs import sqlalchemy_models
from packs.scan import JSONObject, Scanner

FIXTURES = REPO / "tests" / "fixtures" / "exactness"


def _scan(root: Path, paths: tuple[str, ...] = (".",), *, named: bool = False) -> JSONObject:
    """The document of pack-sqlalchemy's scanner over `root`, held to the same scan parsing
    and linking every file (the pre-filter's reference); `named`: the dependency and
    distribution files read too, as the pack reads them."""

    def scanner(parse_all: bool) -> Scanner[Any]:
        return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                       language="Python", root=str(root), workers=1,
                       keywords=pack_sqlalchemy.KEYWORDS,
                       base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
                       follow=pack_sqlalchemy.FOLLOW, parse_all=parse_all,
                       named=sqlalchemy_models.NAMED if named else None)  # fmt: skip

    document = scanner(False).discover(list(paths))
    assert document == scanner(True).discover(list(paths))
    return document


def _tables(document: JSONObject) -> list[tuple[str, str, int]]:
    return [
        (r["name"], r["location"]["path"], r["attrs"]["columns"])
        for r in document["resources"]
        if r["kind"] == "table"
    ]


def _codes(document: JSONObject) -> list[str]:
    return [f["code"] for f in document["findings"]]


def test_extend_existing_redeclares_one_table() -> None:
    """A subclass (or another `Table(...)` call, or a class in another module) redeclaring a
    table with `extend_existing` is the same table, its columns added: one resource and no
    `DUPLICATE_TABLE_NAME`; without `extend_existing` (or with it False) a second declaration
    is still a duplicate."""
    document = _scan(FIXTURES / "extend-existing")
    assert _tables(document) == [
        ("accounts", "ledger/models.py", 3),  # id, owner + audited_by
        ("entries", "ledger/models.py", 3),  # id, account_id + memo (EntryView's id again)
        ("statements", "ledger/reports.py", 1),
        ("statements", "ledger/reports.py", 1),
    ]
    (duplicate,) = document["findings"]
    assert duplicate["code"] == "DUPLICATE_TABLE_NAME"
    assert "statements" in duplicate["detail"]


def _test_code_repo(tmp_path: Path) -> Path:
    """The test-code fixture with its test-named modules under their real names (kept as
    `*.fixture` in the tree so that pytest does not collect them)."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "test-code", root)
    for stored in root.rglob("*.fixture"):
        stored.rename(stored.with_suffix(""))
    return root


def test_test_code_is_left_out_by_every_pack(tmp_path: Path) -> None:
    """Issue 34 item 7: test folders (`tests/`, `spec/`, `__tests__/`) and test files
    (`test_*.py`, `conftest.py`, `*.test.js`) are not the app's: no table or route of theirs
    in the document, and no false `DUPLICATE_TABLE_NAME` with the app's own table, for the
    tables packs and the routes pack alike. A test file named in the request is read."""
    from packs.routes import SUFFIXES, RouteDocumentMemo
    from packs.routes import extract as routes_extract

    root = _test_code_repo(tmp_path)
    document = _scan(root)
    assert _tables(document) == [("customers", "app/models.py", 2)]
    assert _codes(document) == []
    routes = Scanner(SUFFIXES, routes_extract, RouteDocumentMemo(), language="x", root=str(root),
                     workers=1).discover(["."])  # fmt: skip
    assert [r["name"] for r in routes["resources"]] == ["GET /customers", "GET /health"]
    named = _scan(root, ("app/test_models.py", "tests/helpers.py"))
    assert [name for name, _, _ in _tables(named)] == ["customers", "probes"]


@pytest.mark.parametrize(
    "name",
    ["test_x.py", "conftest.py", "a.test.js", "b.spec.ts", "c.test.py", "api.spec.js"],
)
def test_test_files_by_name(name: str) -> None:
    from packs.scan import is_test_file

    assert is_test_file(name)


@pytest.mark.parametrize("name", ["models.py", "contest.py", "attest.py", "testing.py", "spec.js"])
def test_app_files_by_name(name: str) -> None:
    from packs.scan import is_test_file

    assert not is_test_file(name)


def test_a_model_defined_in_a_factory_is_found() -> None:
    """Issue 34 item 10: a model class defined inside a factory function, a method, a block of
    one or a nested function is a table; a class nested in a class body (`Meta`, `Options`)
    is not."""
    document = _scan(FIXTURES / "factory-model")
    assert [name for name, _, _ in _tables(document)] == ["product_line", "tags", "labels", "notes"]
    assert _codes(document) == []


def test_a_file_named_like_a_library_inside_a_package_does_not_shadow_it() -> None:
    """Issue 34 item 6: `inventory/sqlalchemy.py` made `import sqlalchemy as sa` in
    `inventory/models.py` resolve to it, and every `sa.Table(...)` disappeared. Inside a
    package, a top-level import is the library's; a module named like it is reached by its own
    name (`billing.sqlalchemy`), so the `Table` that module defines is not SQLAlchemy's."""
    document = _scan(FIXTURES / "library-named")
    assert [(name, path) for name, path, _ in _tables(document)] == [
        ("stock", "inventory/models.py"),
        ("warehouses", "inventory/models.py"),
    ]
    assert _codes(document) == []


def test_a_package_attribute_shadows_its_own_submodule() -> None:
    """Issue 34 item 7: `from pkg.models import db`, where `pkg/models/__init__.py` binds `db`
    and `pkg/models/db.py` exists, is the package's `db` (what `from ... import` gives), so
    `db.Model` is Flask-SQLAlchemy's and its subclasses are tables."""
    document = _scan(FIXTURES / "package-attribute")
    assert [name for name, _, _ in _tables(document)] == ["customer", "customer_notes"]
    assert _codes(document) == []


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="the interpreter reads 3.14 itself")
def test_a_file_with_python_314_except_is_read() -> None:
    """Issue 34 item 8: `except A, B:` made the file a `parse-error` and its tables lost."""
    document = _scan(FIXTURES / "py314-except")
    assert [name for name, _, _ in _tables(document)] == ["orders"]
    assert document["unresolved"] == []


def test_an_annotated_table_attribute_maps_no_table_of_its_own() -> None:
    """A class mapped by a registry's decorators (`@reg.mapped_as_dataclass`, `@reg.mapped`)
    that only annotates `__table__` for type checkers (`__table__: ClassVar[sa.Table]`) maps its
    `__tablename__`, as SQLAlchemy does: the annotation made the pack read it as a class mapping
    a table made elsewhere, and both tables went missing without a finding. A `__table__`
    assigned a `Table(...)` is still that table, named once."""
    document = _scan(FIXTURES / "annotated-table")
    assert _tables(document) == [
        ("stored_blob", "catalog/storage/blobs.py", 2),
        ("blob_holder", "catalog/storage/blobs.py", 2),
        ("shelf", "catalog/storage/blobs.py", 1),
    ]
    assert _codes(document) == []


def test_a_tablename_computed_with_a_pattern_imported_from_another_module() -> None:
    """Issue 34 item 9: a `declared_attr` `__tablename__` built with a compiled regex assigned
    (annotated, `WORD_START: Pattern[str] = re.compile(...)`) in another module, and a helper
    of that module reading the same pattern and a string constant of its own, evaluate for every
    model: no `COMPUTED_TABLENAME`."""
    document = _scan(FIXTURES / "imported-pattern")
    assert sorted(name for name, _, _ in _tables(document)) == [
        "cold_room_v2",
        "pallet_slot",
        "wh_bin_row",
    ]
    assert _codes(document) == []


def test_the_cold_scan_parses_what_declares_and_what_the_linker_needs() -> None:
    """Issue 34 (pack-sqlalchemy's cold scan under the pre-filter): a service the models import
    for a column default is parsed for that name only (its own imports are not followed), a
    pydantic schema, a CLI printing rich's `Table` and an Alembic script are not parsed, while
    the helper a computed `__tablename__` calls and the constant it imports are (the evaluator
    follows them). A docstring quoting `from alembic import op` does not make a module a
    script. The document is the parse-all one (`_scan`)."""
    parsed: list[str] = []

    def counting(path: str, source: str) -> sqlalchemy_models.FileFacts:
        parsed.append(path)
        return sqlalchemy_models.extract(path, source)

    root = FIXTURES / "declarations-only"
    document = _scan(root)
    assert sorted(name for name, _, _ in _tables(document)) == [
        "basket_archive",
        "basket_tbl",
        "basketline_tbl",
    ]
    assert _codes(document) == []
    Scanner((".py",), counting, sqlalchemy_models.link, language="Python", root=str(root),
            workers=1, keywords=pack_sqlalchemy.KEYWORDS,
            base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
            follow=pack_sqlalchemy.FOLLOW).discover(["."])  # fmt: skip
    assert sorted(parsed) == [
        "shop/db.py",
        "shop/legacy.py",
        "shop/naming.py",
        "shop/orders/models.py",
        "shop/services/pricing.py",
        "shop/words.py",
    ]


def test_a_package_folder_its_program_runs_from_is_an_import_root() -> None:
    """A folder with an `__init__.py` that is also its program's folder (`server/main.py` run
    from `server/`) is on `sys.path`: `from persistence.common import Record` is
    `server/persistence/common.py`, so SQLModel's `table=True` classes below that repository
    base are tables (every one was silently missing). A one-part name never resolves below a
    package: `server/sqlmodel.py` does not shadow the library. A `table=True` class below a base
    that leads out of the scanned files is an `UNKNOWN_MODEL_BASE`, never silent."""
    document = _scan(FIXTURES / "program-package")
    assert sorted(name for name, _, _ in _tables(document)) == ["ticket", "ticket_stamp"]
    (finding,) = document["findings"]
    assert finding["code"] == "UNKNOWN_MODEL_BASE"
    assert "vendor_kit.models.Versioned" in finding["detail"]
    assert finding["locations"] == [{"path": "server/persistence/records/stamps.py", "line": 12}]


def test_a_library_that_makes_tables_at_runtime_is_named_where_it_is_configured() -> None:
    """Issue 34 item 4: SQLAlchemy-Continuum's `make_versioned()` (imported under another name
    here) makes `entry_version` and `transaction` at runtime, tables no source declares: they
    are listed by the library's rules at the call that configures it. A function of the
    repository's own with the same name is no such call."""
    document = _scan(FIXTURES / "versioned-tables")
    assert sorted(_tables(document)) == [
        ("entry", "ledger/entries.py", 2),
        ("entry_version", "ledger/db.py", 0),
        ("transaction", "ledger/db.py", 0),
    ]
    made = {r["name"]: r for r in document["resources"] if r["name"] != "entry"}
    assert made["entry_version"]["location"] == {"path": "ledger/db.py", "line": 4}
    assert made["entry_version"]["attrs"]["generatedBy"] == "SQLAlchemy-Continuum"
    assert made["entry_version"]["attrs"]["versionOf"] == "entry"
    assert document["findings"] == []


def test_versioned_tables_follow_continuum_s_options_mixins_and_association_tables() -> None:
    """`make_versioned` through the module (`continuum.make_versioned`) with a `table_name`
    option and a plugin that adds a table; `__versioned__` inherited from a mixin; a class's
    own `table_name`, `exclude` and `versioning: False`; single-table inheritance (no table of
    its own, no version table); association tables of `secondary=` (a `Table` re-exported under
    an alias, a literal name, a `viewonly` one skipped) versioned with the manager's option; a
    computed `__versioned__` is a finding at the class, never a guess."""
    document = _scan(FIXTURES / "versioned-continuum")
    assert sorted(name for name, _, _ in _tables(document)) == [
        "account_tag_links",
        "account_tag_links_audit",
        "accounts",
        "accounts_audit",
        "activity",
        "drafts",
        "ledger_watchers",
        "ledgers",
        "ledgers_history",
        "quirks",
        "tags",
        "transaction",
    ]
    (finding,) = document["findings"]
    assert finding["code"] == "UNRESOLVED_TABLE_NAME"
    assert "versions 'quirks'" in finding["detail"]
    assert finding["locations"] == [{"path": "vault/models/accounts.py", "line": 47}]


def test_names_bound_in_a_try_and_its_import_error_handler_resolve_as_python_binds_them() -> None:
    """A module-level `try:` importing a name and an `except ImportError:` (a tuple with it,
    `ModuleNotFoundError`, `Exception`) binding it again: the `try` branch where its import
    resolves (a module of the repository that binds it, a library name the pack has a record
    of), the fallback where it does not (a module of the repository that is not there, a
    library path the records do not know beside one they do), through nested `try`s and a
    base made by a call in the handler — never the last binding by default."""
    document = _scan(FIXTURES / "guarded-imports")
    assert sorted((name, path) for name, path, _ in _tables(document)) == [
        ("flask_dance_credential", "kiosk/tables.py"),  # the library's current path
        ("receipts", "kiosk/tables.py"),  # the repository's fallback module
        ("shelves", "kiosk/tables.py"),  # the `try` branch, not the handler's `object`
        ("tickets", "kiosk/tables.py"),  # the handler's `declarative_base()`
    ]
    assert document["findings"] == []


def test_a_plugin_distribution_loaded_through_entry_points_is_not_the_apps() -> None:
    """A folder with its own `pyproject.toml` whose entry points offer a group the app loads
    (`metadata.entry_points(group=...)` in a function): its models exist only once it is
    installed, so they are not listed, and the loader says so naming the distribution; a
    distribution (`setup.cfg`) offering a group nobody loads, and console scripts, keep theirs."""
    document = _scan(FIXTURES / "plugin-distribution", named=True)
    assert sorted(name for name, _, _ in _tables(document)) == ["berths", "crane_jobs"]
    (finding,) = document["findings"]
    assert finding["code"] == "UNRESOLVED_TABLE_NAME"
    assert "`harbor.addons`" in finding["detail"] and "harbor-tides" in finding["detail"]
    assert finding["locations"] == [{"path": "harbor/addons.py", "line": 6}]


def test_table_names_rewritten_by_a_base_at_class_creation() -> None:
    """A base that rewrites every subclass's `__tablename__` when the class is created (its
    `__init_subclass__` assigning `cls.__tablename__` or `setattr`-ing it, before or after
    `super().__init_subclass__()`; a metaclass's `__init__` given to `declarative_base(metaclass=)`;
    a `declared_attr` on the base wrapping the class name or a class attribute of the
    subclass's (`cls.short_name`); `__tablename__ = ns_table("x")` on a model; a
    helper `ns_table("x")` in `Table(...)`) with a prefix from a pydantic `BaseSettings` default
    reached through an `lru_cache`d factory, an `os.getenv`/`os.environ.get` default or a plain
    settings class (also one a factory picks with `importlib.import_module` in a `try`, the
    module the repository does not hold taken as not installed): evaluated, each name read with a configuration default marked in
    `attrs.configDefault`. What cannot be known (`cls.__module__`, `os.environ["X"]` without a
    default, a metaclass's `__new__`) is a `COMPUTED_TABLENAME` at each model below the base,
    never the raw name.
    Truth: SQLAlchemy 2.0.36 itself on this fixture (`Base.metadata.tables`, with
    VAULT_PREFIX=v_): acme__product, acme__product_shelf, acme__shelf, old_invoice, note,
    plugins_gadget, plugins_widget, arc_letter, v_secret, arc_entries, t1_account, shard_chunk, rpt__daily,
    rpt__monthly, acme__audit_trail."""
    document = _scan(FIXTURES / "renamed-tables")
    names = {r["name"]: r["attrs"] for r in document["resources"] if r["kind"] == "table"}
    assert sorted(names) == [
        "acme__audit_trail",
        "acme__product",
        "acme__product_shelf",
        "acme__shelf",
        "arc_entries",
        "arc_letter",
        "note",  # assigned after SQLAlchemy 2's `__init_subclass__` mapped it: not renamed
        "old_invoice",  # a legacy base maps in its metaclass, after every hook ran
        "rpt__daily",
        "rpt__monthly",
        "t1_account",
    ]
    settings = "ShopConfig.table_namespace (env SHOP_TABLE_NAMESPACE); os.environ.SHOP_TABLE_SEP"
    for name in ("acme__audit_trail", "acme__product", "acme__product_shelf", "acme__shelf"):
        assert names[name]["configDefault"] == settings
    assert names["old_invoice"]["configDefault"] == "os.environ.LEGACY_PREFIX"
    assert names["rpt__monthly"]["configDefault"] == "os.environ.SHOP_TABLE_SEP"
    assert "configDefault" not in names["arc_letter"]  # a plain class's attribute: certain
    assert "configDefault" not in names["note"]
    assert names["arc_entries"]["configDefault"] == "shop_enterprise.overrides not installed"
    unknown = {
        (location["path"], location["line"]): finding["detail"]
        for finding in document["findings"]
        for location in finding["locations"]
    }
    assert set(unknown) == {
        ("shop/plugins.py", 10),
        ("shop/plugins.py", 16),
        ("shop/sharding.py", 15),
        ("shop/vault.py", 14),
    }
    assert _codes(document) == ["COMPUTED_TABLENAME"] * 3
    assert "ShardMeta.__new__" in unknown[("shop/sharding.py", 15)]
    assert "cls.__module__" in unknown[("shop/plugins.py", 10)]
    assert "os.environ['VAULT_PREFIX']" in unknown[("shop/vault.py", 14)]


def test_table_names_built_by_classmethods_from_each_concrete_classs_attributes() -> None:
    """nyaa's two flavours of one schema: a mixin's `declared_attr` `__tablename__` calls the
    class's own classmethods (`cls.prefixed(cls.stem)` → `cls.edition_key()` →
    `cls.edition.lower()`) and a staticmethod of a base in a module declaring no table, each
    `cls.<name>` read on the concrete class's MRO (a classmethod a model overrides wins; a
    keyword and a default filled; `str.format`, f-string, `%`, `join`, `replace`). What stays
    unknown (`cls.__module__`) is a `COMPUTED_TABLENAME` at the model, never a guessed name.
    Truth: Flask-SQLAlchemy 2.4.0 on SQLAlchemy 1.3.6 itself on this fixture
    (`db.metadata.tables`): Eu_price_list, LEDGER__rows, archive_articles, models_articles,
    retail_articles, wh_articles."""
    document = _scan(FIXTURES / "flavored-tables")
    assert sorted(_tables(document)) == [
        ("Eu_price_list", "catalog/models.py", 1),
        ("LEDGER__rows", "catalog/models.py", 1),
        ("archive_articles", "catalog/models.py", 2),
        ("retail_articles", "catalog/models.py", 2),
        ("wh_articles", "catalog/models.py", 2),
    ]
    (finding,) = document["findings"]
    assert finding["code"] == "COMPUTED_TABLENAME"
    assert "reads `cls.__module__`" in finding["detail"]
    assert finding["locations"] == [{"path": "catalog/models.py", "line": 27}]


def test_a_django_model_file_is_not_parsed_for_sqlalchemy_tables(tmp_path: Path) -> None:
    """Issue 34 (cold cost): a class whose base ends in `Model` seeded the pre-filter, so every
    Django model file of a Django project (and every module it imports) was parsed for
    pack-sqlalchemy, for no table (WebODM: 26 files, none declaring one). A base whose head
    the file's imports bind to Django alone is no seed now; `db.Model`, a `models` bound to the
    project's own module, and subclasses reached backwards still are, and the document is the
    scan of every file."""
    texts = {
        "shop/models.py": (
            "from django.db import models\n\nclass Item(models.Model):\n"
            "    name = models.CharField(max_length=9)\n"
        ),
        "shop/proxies.py": (
            "from django.db.models import Model as Base\nfrom shop.models import Item\n\n"
            "class Thing(Base):\n    pass\n\nclass Special(Item):\n    pass\n"
        ),
        "store/models.py": (
            "from flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy()\n\n"
            "class Order(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n"
        ),
        "store/sub.py": "from store.models import Order\n\nclass Rush(Order):\n    pass\n",
        "store/rows.py": (
            "from store import models\n\nclass Row(models.Model):\n    pass\n"  # the project's
        ),
    }
    for rel, text in texts.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)

    def scanner(parse_all: bool) -> Scanner[Any]:
        return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                       language="Python", root=str(tmp_path), workers=1,
                       keywords=pack_sqlalchemy.KEYWORDS,
                       base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
                       follow=pack_sqlalchemy.FOLLOW, parse_all=parse_all)  # fmt: skip

    filtered = scanner(False)
    document = filtered.discover(["."])
    assert document == scanner(True).discover(["."])
    assert filtered.parsed == 3  # store/: models.py, sub.py, rows.py; no file of shop/
    assert [r["name"] for r in document["resources"]] == ["order"]


def test_models_a_mixin_makes_per_model_and_models_made_by_type() -> None:
    """A mixin's `declared_attr` (aliased, from `sqlalchemy.orm` or `sqlalchemy.ext.declarative`,
    mixins stacked) that makes a model with `type(name, bases, {"__tablename__": ...})` for each
    model below it: one table per model, named from that model's own table (declared by a base,
    written, or Flask-SQLAlchemy's snake_case default), placed at the model with `madeBy`; one
    it cannot name is a finding at the model; a `Table(...)` made so, and a classmethod the
    base's `__init_subclass__` runs, likewise (one nothing runs makes nothing). `Thing =
    type(...)` at module level is a model."""
    document = _scan(FIXTURES / "mixin-made-tables")
    made = {
        r["name"]: (r["location"]["path"], r["location"]["line"], r["attrs"].get("madeBy"))
        for r in document["resources"]
        if r["kind"] == "table"
    }
    assert made == {
        "crate": ("inv/models.py", 7, None),
        "crate_tags": ("inv/models.py", 7, "Taggable.tags"),
        "note_of_crate": ("inv/models.py", 7, "Noted.notes"),
        "pallets": ("inv/models.py", 11, None),
        "pallets_audit": ("inv/models.py", 11, "Audited.audit"),
        "pallets_tags": ("inv/models.py", 11, "Taggable.tags"),
        "bin": ("inv/models.py", 16, None),
        "things": ("inv/models.py", 20, None),
        "shelves": ("inv/models.py", 23, None),
        "shelves_history": ("inv/models.py", 23, "Versioned.history"),  # a `Table(...)`
        "shelves_links": ("inv/models.py", 23, "Registered._links"),  # run by __init_subclass__
        "stock_item": ("shelf/app.py", 14, None),
        "stock_item_label": ("shelf/app.py", 14, "Labelled.labels"),
    }
    (gap,) = document["findings"]
    assert gap["code"] == "COMPUTED_TABLENAME"
    assert "Scoped.scoped" in gap["detail"]
    assert [(p["path"], p["line"]) for p in gap["locations"]] == [("inv/models.py", 16)]


def test_a_base_swapped_only_for_the_type_checker_is_the_runtime_base(tmp_path: Path) -> None:
    """`Model = db.Model` then `if TYPE_CHECKING: Model = DeclarativeBase`: at run time the
    `if` never runs, so a model of `Model` is Flask-SQLAlchemy's and gets its default name
    (was read as the stand-in, a plain declarative base: no name, no table, no finding)."""
    texts = {
        "app/db.py": (
            "from flask_sqlalchemy import SQLAlchemy\nfrom sqlalchemy.orm import DeclarativeBase\n\n"
            "class Base(DeclarativeBase):\n    pass\n\ndb = SQLAlchemy(model_class=Base)\n"
        ),
        "app/models.py": (
            "from typing import TYPE_CHECKING\nfrom app.db import Base, db\n\n"
            "Model = db.Model\nif TYPE_CHECKING:\n    Model = Base\n\n"
            "class MailChallenge(Model):\n    id = db.Column(db.Integer, primary_key=True)\n"
        ),
    }
    for rel, text in texts.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert [name for name, _, _ in _tables(_scan(tmp_path))] == ["mail_challenge"]
