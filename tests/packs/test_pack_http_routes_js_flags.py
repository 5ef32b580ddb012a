"""pack-http-routes: a JavaScript flag bound to a comparison with the configuration in one
module (`export const PAID = process.env.TIER === 'paid'`) and tested in another
(`if (PAID) { ... }`, at module level): the comparison is read as the flag's value, so where
the configuration's defaults (an unset variable, a sample environment file's value) make it
false the routes under it are an `UNRESOLVED_ROUTE` naming the test and the default, not
routes; where they make it true the routes are listed; a comparison the scan cannot read
keeps the routes listed as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, names, scanned_both_ways

APP: dict[str, str] = {
    "service/settings/flags.ts": (
        "import 'dotenv/config';\n"
        "\n"
        "export const HOSTED_EDITION = process.env.EDITION === 'hosted';\n"
        "export const SELF_MANAGED = 'hosted' !== process.env.EDITION;\n"
        "export const QUIET = process.env.LOG_LEVEL == 'silent';\n"
    ),
    "service/main.ts": (
        "import Fastify from 'fastify';\n"
        "import { HOSTED_EDITION as hosted, SELF_MANAGED } from './settings/flags.js';\n"
        "import * as flags from './settings/flags.js';\n"
        "\n"
        "const api = Fastify();\n"
        "api.get('/status', async () => 'up');\n"
        "if (hosted) {\n"
        "  api.post('/billing/checkout', async () => ({}));\n"
        "  api.get('/billing/invoices', async () => []);\n"
        "}\n"
        "if (SELF_MANAGED) {\n"
        "  api.get('/license', async () => ({}));\n"
        "}\n"
        "if (!flags.QUIET) {\n"
        "  api.get('/debug/log-level', async () => 'info');\n"
        "}\n"
    ),
}


def test_routes_under_a_flag_the_defaults_turn_off_are_findings_not_routes() -> None:
    assert names(APP) == {"GET /status", "GET /license", "GET /debug/log-level"}
    assert sorted(finding_places(APP)["UNRESOLVED_ROUTE"]) == [
        "service/main.ts:8",
        "service/main.ts:9",
    ]


def test_the_finding_names_the_test_and_the_unset_variable() -> None:
    details = [
        str(f["detail"]) for f in document(APP)["findings"] if f["code"] == "UNRESOLVED_ROUTE"
    ]
    assert details and all("if (hosted)" in d and "EDITION" in d for d in details), details


def test_a_sample_environment_file_that_sets_the_flag_keeps_the_routes() -> None:
    files = {**APP, "service/.env.example": "EDITION=hosted\nLOG_LEVEL=silent\n"}
    assert names(files) == {"GET /status", "POST /billing/checkout", "GET /billing/invoices"}


def test_a_comparison_with_a_value_out_of_sight_keeps_the_routes_listed() -> None:
    files = dict(APP)
    files["service/settings/flags.ts"] = files["service/settings/flags.ts"].replace(
        "process.env.EDITION === 'hosted'", "readEdition() === 'hosted'"
    )
    assert {"POST /billing/checkout", "GET /billing/invoices"} <= names(files)


def test_flags_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, APP, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /license"' in documents[0]
    assert '"POST /billing/checkout"' not in documents[0]
