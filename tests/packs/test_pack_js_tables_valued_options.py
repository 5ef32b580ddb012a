"""pack-js-tables: ORM options and models the pack reaches through the project's own code.

Sequelize options given as a value (`new Sequelize(db, user, pw, settings)`, `settings` what a
project function returns, picked from a configuration object by a key an environment variable
defaults): evaluated (`js_values`), the `define` defaults of the object reached naming every
model; options the pack cannot evaluate are a finding at each model they may rename. Bookshelf
models made on an instance another module makes (`x.model('N', { tableName })`,
`x.Model.extend({ tableName })`): a table each, a schema prefix dropped as knex's DDL names
are; a `tableName` not read is a finding at the model. Each scan is held to the parse-all
document (the pre-filter identity)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from tables_harness import scanned, table_names, unresolved_places

_SEQUELIZE_MODELS = {
    "api/models/order-line.js": (
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('OrderLine', { qty: DataTypes.INTEGER });\n"
    ),
    "api/models/receipt.js": (
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('Receipt', { total: DataTypes.INTEGER }, { freezeTableName: false });\n"
    ),
    "api/models/archive.js": (
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('Archive', { at: DataTypes.DATE }, { tableName: 'old_rows' });\n"
    ),
}

# options: a helper's call with an argument defaulted from the environment, picking a member
# of a configuration module's object by that computed key, through two modules
_PICKED = {
    **_SEQUELIZE_MODELS,
    "api/conf/stages.js": (
        "module.exports = {\n"
        "  local: { dialect: 'sqlite', define: { freezeTableName: true, underscored: true } },\n"
        "  live: { dialect: 'postgres', define: { freezeTableName: true, underscored: true } },\n"
        "};\n"
    ),
    "api/conf/pick.js": (
        "const stages = require('./stages');\n"
        "function pick(name) {\n"
        "  const chosen = stages[name];\n"
        "  return chosen;\n"
        "}\n"
        "module.exports = { pick };\n"
    ),
    "api/conf/index.js": (
        "const { pick } = require('./pick');\n"
        "const STAGE = process.env.APP_STAGE || 'local';\n"
        "module.exports = () => pick(STAGE);\n"
    ),
    "api/db.js": (
        "const Sequelize = require('sequelize');\n"
        "const settings = require('./conf')();\n"
        "const db = new Sequelize('store', 'app', process.env.PW, settings);\n"
        "module.exports = db;\n"
    ),
}


def test_options_a_project_function_returns_name_every_model(tmp_path: Path) -> None:
    document = scanned(tmp_path, _PICKED)
    # `freezeTableName` from the options: the model name; the model's own options still win
    assert table_names(document) == ["OrderLine", "old_rows", "receipts"]
    assert unresolved_places(document) == []


def test_the_computed_key_picks_the_member_the_default_names(tmp_path: Path) -> None:
    """The stage the environment defaults to is the one read, not another member: its
    `underscored` alone gives the plural in snake_case."""
    files = dict(_PICKED)
    files["api/conf/stages.js"] = (
        "module.exports = {\n"
        "  local: { dialect: 'sqlite', define: { underscored: true } },\n"
        "  live: { dialect: 'postgres', define: { freezeTableName: true } },\n"
        "};\n"
    )
    document = scanned(tmp_path, files)
    assert table_names(document) == ["old_rows", "order_lines", "receipts"]
    assert unresolved_places(document) == []


def test_options_the_pack_cannot_evaluate_are_a_finding_at_each_model_they_may_rename(
    tmp_path: Path,
) -> None:
    files = dict(_SEQUELIZE_MODELS)
    files["api/db.js"] = (
        "const Sequelize = require('sequelize');\n"
        "const { fromVault } = require('vault-settings');\n"
        "const options = fromVault('db');\n"
        "module.exports = new Sequelize('store', 'app', 'pw', options);\n"
    )
    document = scanned(tmp_path, files)
    assert table_names(document) == ["OrderLines", "Receipts", "old_rows"]
    # `Archive` names its table; `Receipt` sets `freezeTableName` but not `underscored`
    assert unresolved_places(document) == ["api/models/order-line.js:2", "api/models/receipt.js:2"]
    details = [f["detail"] for f in document["findings"]]
    assert all("options" in d and "cannot evaluate" in d for d in details)


_BOOKSHELF = {
    "lib/store/instance.js": (
        "const createShelf = require('bookshelf');\n"
        "const knex = require('./knex-client');\n"
        "const shelf = createShelf(knex);\n"
        "shelf.plugin('bookshelf-virtuals-plugin');\n"
        "exports.shelf = shelf;\n"
    ),
    "lib/store/names.js": "module.exports = { NOTES: 'crm.notes' };\n",
    "lib/store/Invoice.js": (
        "const { shelf } = require('./instance');\n"
        "module.exports = shelf.model('Invoice', {\n"
        "  tableName: 'billing.invoices',\n"
        "  hasTimestamps: true,\n"
        "});\n"
    ),
    "lib/store/Payer.js": (
        "const { shelf: db } = require('./instance');\n"
        "const Payer = db.Model.extend({ tableName: 'payers' });\n"
        "module.exports = db.model('Payer', Payer);\n"
    ),
    "lib/store/Note.js": (
        "const { shelf } = require('./instance');\n"
        "const NOTES = require('./names').NOTES;\n"
        "module.exports = shelf.model('Note', { tableName: NOTES });\n"
    ),
    "lib/store/Audit.js": (
        "const { shelf } = require('./instance');\n"
        "const { tableFor } = require('table-naming');\n"
        "module.exports = shelf.model('Audit', { tableName: tableFor('audit') });\n"
    ),
    "lib/store/lookup.js": (
        "const { shelf } = require('./instance');\nmodule.exports = () => shelf.model('Invoice');\n"
    ),
    "lib/registry.js": "module.exports = new Map();\n",
    "lib/widgets.js": (
        "const registry = require('./registry');\n"
        "registry.model('Widget', { tableName: 'widgets' });\n"
    ),
    "web/orm.mjs": (
        "import bookshelf from 'bookshelf';\n"
        "import knex from './knex.mjs';\n"
        "export const orm = bookshelf(knex);\n"
    ),
    "web/event.mjs": (
        "import { orm } from './orm.mjs';\n"
        "export default orm.Model.extend({ tableName: 'audit.events' });\n"
    ),
}


def test_bookshelf_models_on_an_imported_instance_are_tables(tmp_path: Path) -> None:
    document = scanned(tmp_path, _BOOKSHELF)
    # schema prefixes dropped; a lookup (one argument) and another object's `model()` are none
    assert table_names(document) == ["events", "invoices", "notes", "payers"]
    by_name = {r["name"]: r for r in document["resources"]}
    assert by_name["invoices"]["location"] == {"path": "lib/store/Invoice.js", "line": 2}
    assert by_name["invoices"]["attrs"]["orm"] == "bookshelf"


def test_a_bookshelf_table_name_not_read_is_a_finding_at_the_model(tmp_path: Path) -> None:
    document = scanned(tmp_path, _BOOKSHELF)
    assert unresolved_places(document) == ["lib/store/Audit.js:3"]
    (detail,) = [f["detail"] for f in document["findings"]]
    assert "Bookshelf" in detail and "tableFor" in detail


def test_options_bound_in_a_cycle_or_fanning_out_end_as_a_finding(tmp_path: Path) -> None:
    """Names bound to each other, and members keyed by members many levels deep, end within
    the evaluator's caps: options not read, a finding at the model, never a hang."""
    chain = "".join(f"const k{i} = k{i + 1}[k{i + 1}];\n" for i in range(40))
    files = {
        "api/models/order-line.js": _SEQUELIZE_MODELS["api/models/order-line.js"],
        "api/db.js": (
            "const Sequelize = require('sequelize');\n"
            "const a = b;\n"
            "const b = a;\n"
            f"{chain}"
            "module.exports = [\n"
            "  new Sequelize('x', 'y', 'z', a),\n"
            "  new Sequelize('x', 'y', 'z', k0),\n"
            "];\n"
        ),
    }
    document = scanned(tmp_path, files)
    assert table_names(document) == ["OrderLines"]
    assert unresolved_places(document) == ["api/models/order-line.js:2"]
