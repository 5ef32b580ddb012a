"""Issue 34's construct classes that had no fixture of their own (the audit in
docs/detectors.md, "Construct classes and their fixtures"): each fixture here is adversarial code
written for this file, and each test fails if its construct goes silent or wrong. Every fixture
is also scanned as a repository through the pre-filter and parsing every file: the documents
must be the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, placed, scanned_both_ways


def _codes(files: dict[str, str]) -> dict[str, list[str]]:
    """Finding code -> the places it lists, `file:line`."""
    out: dict[str, list[str]] = {}
    for finding in document(files)["findings"]:
        out.setdefault(str(finding["code"]), []).extend(
            f"{p['path']}:{p['line']}" for p in finding["locations"]
        )
    return out


def _flagged(files: dict[str, str]) -> list[str]:
    return sorted(
        str(r["name"]) for r in document(files)["resources"] if r["attrs"].get("prefixUnresolved")
    )


# -- item 2: settings chosen by `table[key]()` over a dict of settings classes ----------------

PROFILES_TABLE_CALLED_DIRECTLY: dict[str, str] = {
    "helpdesk/profiles.py": (
        "import os\n"
        "\n"
        "class Shared:\n"
        "    GATE = '/desk'\n"
        "\n"
        "class Local(Shared):\n"
        "    TRACE = True\n"
        "\n"
        "class Live(Shared):\n"
        "    TRACE = False\n"
        "\n"
        "PROFILES = {'local': Local, 'live': Live}\n"
        "active = PROFILES[os.getenv('DESK_PROFILE', 'local')]()\n"
    ),
    "helpdesk/tickets.py": (
        "from flask import Blueprint\n"
        "\n"
        "queue = Blueprint('queue', __name__)\n"
        "\n"
        "@queue.route('/tickets/<int:number>', methods=['GET', 'PATCH'])\n"
        "def ticket(number): ...\n"
    ),
    "helpdesk/server.py": (
        "import os\n"
        "from flask import Flask\n"
        "from helpdesk import profiles\n"
        "from helpdesk.profiles import active\n"
        "from helpdesk.tickets import queue\n"
        "\n"
        "def make_site():\n"
        "    chosen = profiles.PROFILES[os.environ['DESK_PROFILE']]()\n"
        "    site = Flask(__name__)\n"
        "    site.register_blueprint(queue, url_prefix=chosen.GATE + '/v1', name='v1')\n"
        "    site.register_blueprint(queue, url_prefix=active.GATE + '/v2', name='v2')\n"
        "    return site\n"
    ),
}


def test_settings_chosen_by_calling_an_item_of_a_dict_of_classes() -> None:
    """`active = PROFILES[env]()` at module level, and `profiles.PROFILES[env]()` in a factory
    of another module: every class of the table inherits `GATE`, so the prefix is known (both
    were `UNRESOLVED_PREFIX`, only the `return table[env]()` of a function was read)."""
    files = PROFILES_TABLE_CALLED_DIRECTLY
    where = "helpdesk/tickets.py:5 flask"
    assert placed(files) == {
        "GET /desk/v1/tickets/{number}": where,
        "PATCH /desk/v1/tickets/{number}": where,
        "GET /desk/v2/tickets/{number}": where,
        "PATCH /desk/v2/tickets/{number}": where,
    }
    assert _codes(files) == {}


def test_settings_chosen_from_classes_that_disagree_stay_unresolved() -> None:
    """One class of the table overrides the prefix: which one runs is decided at run time, so
    the prefix is an `UNRESOLVED_PREFIX` at the mount, never the first option named as a
    fact."""
    files = {
        **PROFILES_TABLE_CALLED_DIRECTLY,
        "helpdesk/profiles.py": PROFILES_TABLE_CALLED_DIRECTLY["helpdesk/profiles.py"].replace(
            "    TRACE = False\n", "    GATE = '/edge'\n"
        ),
    }
    assert _flagged(files) == ["GET /tickets/{number}", "PATCH /tickets/{number}"]
    assert sorted(set(_codes(files)["UNRESOLVED_PREFIX"])) == [
        "helpdesk/server.py:10",
        "helpdesk/server.py:11",
        "helpdesk/tickets.py:5",
    ]


FIXTURES = [PROFILES_TABLE_CALLED_DIRECTLY]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture as a repository: the pre-filtered scan equals parsing every file, and
    lists something."""
    for number, files in enumerate(FIXTURES):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files
