"""Sequelize options merged from objects (issue 36): lodash's `merge`/`assign`/`defaults`,
`Object.assign`, spreads; a source the files do not show is a finding at the call, never a
guessed name."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from tables_harness import js_tables_document as _scan

_PACKAGE = '{"dependencies": {"sequelize": "^6.35.0", "lodash": "^4.17.21"}}\n'

_LEDGERS = """\
import * as _ from 'lodash';
import { Model, DataTypes } from 'sequelize';
import deepMerge from 'lodash/merge';
import { defaults as fill } from 'lodash-es';
import { Auditable } from 'audit-kit';
import db from '../db';

const BASE = { sequelize: db, underscored: true };
const frozen = Object.assign({}, BASE, { freezeTableName: true });

class Ledger extends Model {}
Ledger.init({ id: DataTypes.INTEGER }, _.merge({ sequelize: db, tableName: 'ledger_rows' }, { paranoid: true }));

class Voucher extends Model {}
Voucher.init({ id: DataTypes.INTEGER }, Object.assign({}, BASE, { tableName: 'vouchers_v2' }));

class Stamp extends Model {}
Stamp.init({ id: DataTypes.INTEGER }, fill({ tableName: 'first_wins' }, { sequelize: db, tableName: 'second_loses' }));

class PayoutBatch extends Model {}
PayoutBatch.init({ id: DataTypes.INTEGER }, frozen);

class Refund extends Model {}
Refund.init({ id: DataTypes.INTEGER }, deepMerge({ sequelize: db, tableName: 'refund_log' }, Auditable.options));

class Mystery extends Model {}
Mystery.init({ id: DataTypes.INTEGER }, deepMerge({ sequelize: db }, Auditable.options));

class Late extends Model {}
Late.init({ id: DataTypes.INTEGER }, fill({ sequelize: db, tableName: 'late_rows' }, Auditable.options));

class Early extends Model {}
Early.init({ id: DataTypes.INTEGER }, fill(Auditable.options, { sequelize: db, tableName: 'early_rows' }));

class Overruled extends Model {}
Overruled.init({ id: DataTypes.INTEGER }, Object.assign({ sequelize: db }, Auditable.options, { tableName: 'overruled' }));
"""

_DEFINED = """\
const { merge } = require('lodash');
const sequelize = require('./db');
const shared = { timestamps: false };
module.exports = sequelize.define('Invoice', { total: 1 }, merge({}, shared, { tableName: 'billing_invoices' }));
const Spread = sequelize.define('Spread', { total: 1 }, { ...shared, tableName: 'spread_rows' });
"""


def test_sequelize_options_merged_from_objects_give_the_merged_table_name(
    tmp_path: Path,
) -> None:
    """A later source wins for `merge`/`Object.assign`, an earlier for `defaults`; a source
    the files do not show that could replace a known name is a finding at the call (the
    name is still the one written), one that leaves no name known is a finding, no table."""
    (tmp_path / "package.json").write_text(_PACKAGE)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "ledgers.js").write_text(_LEDGERS)
    (tmp_path / "models" / "invoice.js").write_text(_DEFINED)
    document = _scan(tmp_path)
    tables = sorted(
        (r["name"], r["location"]["path"], r["location"]["line"]) for r in document["resources"]
    )
    assert tables == [
        ("PayoutBatch", "models/ledgers.js", 21),  # frozen: Sequelize keeps the model name
        ("billing_invoices", "models/invoice.js", 4),
        ("early_rows", "models/ledgers.js", 33),
        ("first_wins", "models/ledgers.js", 18),
        ("late_rows", "models/ledgers.js", 30),
        ("ledger_rows", "models/ledgers.js", 12),
        ("overruled", "models/ledgers.js", 36),
        ("refund_log", "models/ledgers.js", 24),
        ("spread_rows", "models/invoice.js", 5),
        ("vouchers_v2", "models/ledgers.js", 15),
    ]
    findings = sorted(
        (f["code"], loc["line"], "Auditable.options" in f["detail"])
        for f in document["findings"]
        for loc in f["locations"]
    )
    assert findings == [
        ("UNRESOLVED_TABLE_NAME", 24, True),  # merge: the unknown source is later, wins
        ("UNRESOLVED_TABLE_NAME", 27, True),  # no name known at all
        ("UNRESOLVED_TABLE_NAME", 33, True),  # defaults: the unknown source is earlier, wins
    ]
