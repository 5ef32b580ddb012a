"""pack-js-tables: a Sequelize instance whose options spread an object of the project's own
config module (`new Sequelize(db, user, pw, { ...DB.options })`, `DB` imported from it): the
`define` defaults that object holds (`freezeTableName`, `underscored`) name every model, as
Sequelize applies them; where the module, the object or its `define` is not found the
tables keep their default names with an `UNRESOLVED_TABLE_NAME` at each model, as before.
Each scan is held to the parse-all document (the pre-filter identity)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from tables_harness import scanned, table_names, unresolved_places

_MODELS = {
    "backend/db/models/ledger-entry.js": (
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('LedgerEntry', { amount: DataTypes.INTEGER });\n"
    ),
    "backend/db/models/vendor.js": (
        "module.exports = (sequelize, DataTypes) =>\n"
        "  sequelize.define('Vendor', { label: DataTypes.STRING });\n"
    ),
}

# CommonJS: the settings object exported whole, destructured where it is required
_COMMONJS = {
    **_MODELS,
    "backend/settings/defaults.js": (
        "const base = {\n"
        "  listen: 7070,\n"
        "  storage: {\n"
        "    schema: 'books',\n"
        "    login: 'svc',\n"
        "    sequelizeOptions: {\n"
        "      dialect: 'postgres',\n"
        "      define: { freezeTableName: true, underscored: true, timestamps: false },\n"
        "    },\n"
        "  },\n"
        "};\n"
        "module.exports = base;\n"
    ),
    "backend/db/connect.js": (
        "const Sequelize = require('sequelize');\n"
        "const { storage } = require('../settings/defaults');\n"
        "const conn = new Sequelize(storage.schema, storage.login, process.env.PW, {\n"
        "  ...storage.sequelizeOptions,\n"
        "  logging: false,\n"
        "});\n"
        "module.exports = conn;\n"
    ),
}


def test_define_defaults_spread_from_a_commonjs_config_module_name_every_model(
    tmp_path: Path,
) -> None:
    found = scanned(tmp_path, _COMMONJS)
    assert table_names(found) == ["LedgerEntry", "Vendor"]  # frozen: `underscored` renames none
    assert unresolved_places(found) == []


def test_define_defaults_spread_from_an_exported_const_of_an_es_module(tmp_path: Path) -> None:
    files = {
        **_MODELS,
        "backend/settings/index.ts": (
            "export const CONFIG = {\n"
            "  orm: { opts: { host: '127.0.0.1', define: { freezeTableName: true } } },\n"
            "};\n"
        ),
        "backend/db/connect.ts": (
            "import { Sequelize } from 'sequelize';\n"
            "import { CONFIG as settings } from '../settings';\n"
            "export const conn = new Sequelize('db', 'u', 'p', { ...settings.orm.opts });\n"
        ),
    }
    assert table_names(scanned(tmp_path, files)) == ["LedgerEntry", "Vendor"]


def test_a_spread_config_without_define_keeps_the_finding(tmp_path: Path) -> None:
    files = dict(_COMMONJS)
    files["backend/settings/defaults.js"] = files["backend/settings/defaults.js"].replace(
        "      define: { freezeTableName: true, underscored: true, timestamps: false },\n", ""
    )
    found = scanned(tmp_path, files)
    assert table_names(found) == ["LedgerEntries", "Vendors"]
    assert unresolved_places(found) == [
        "backend/db/models/ledger-entry.js:2",
        "backend/db/models/vendor.js:2",
    ]


def test_a_spread_of_an_object_out_of_sight_keeps_the_finding(tmp_path: Path) -> None:
    files = dict(_COMMONJS)
    files["backend/db/connect.js"] = files["backend/db/connect.js"].replace(
        "require('../settings/defaults')", "require('@acme/shared-settings')"
    )
    found = scanned(tmp_path, files)
    assert table_names(found) == ["LedgerEntries", "Vendors"]
    assert len(unresolved_places(found)) == 2
