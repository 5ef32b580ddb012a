"""`bench/real_repos.py`'s name normalisation: a pack and a runtime truth that spell one route
differently must meet, or the bench reports a miss the pack did not make."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO))  # bench/ holds tools, not an installed package
from bench.real_repos import by_library, normalise, score


@pytest.mark.parametrize(
    ("truth", "pack"),
    [
        ("get /users/<int:id>", "GET /users/{id}"),
        ("GET /files/{rest:path}", "GET /files/{rest}"),
        ("GET /u/:id(\\d+)/:page?", "GET /u/{id}/{page}"),
        ("GET /statements/:statementId.:format", "GET /statements/{statementId}.{format}"),
        ("OPTIONS *", "OPTIONS /*"),
    ],
)
def test_the_spellings_of_one_route_meet(truth: str, pack: str) -> None:
    assert normalise("route", truth) == normalise("route", pack)


@pytest.mark.parametrize("spelled", ["GET /account/{glob*}", "POST /run/{parts*2}", "GET /u/{id?}"])
def test_hapi_s_parameter_marks_are_kept_as_its_route_table_writes_them(spelled: str) -> None:
    # `{glob*}` matches more than `{glob}`: hapi's table (the truth) and the pack both keep it
    assert normalise("route", spelled) == spelled
    assert normalise("route", spelled) != normalise(
        "route", spelled.replace("*", "").replace("?", "")
    )


def test_a_colon_inside_a_segment_is_no_parameter() -> None:
    assert normalise("route", "GET /v1/items:batchGet") == "GET /v1/items:batchGet"
    assert normalise("table", "a.:b") == "a.:b"


@pytest.mark.parametrize(
    ("framework", "truth", "pack"),
    [
        # find-my-way: `:` anywhere in a segment, the name ending at `-` or `.`
        ("fastify", "GET /sitemaps/pages-:kind-:page.xml", "GET /sitemaps/pages-{kind}-{page}.xml"),
        ("fastify", "GET /near/:lat-:lng/radius", "GET /near/{lat}-{lng}/radius"),
        ("fastify", "GET /at/:hour(^\\d{2})h", "GET /at/{hour}h"),
        # path-to-regexp 0.1.x (Express 4): word characters after any character
        ("express", "GET /feed-:year.rss", "GET /feed-{year}.rss"),
        ("express", "GET /u/:id(\\d+)/:page?", "GET /u/{id}/{page}"),
        ("express", "GET /files/:path*", "GET /files/{path}*"),
        # path-to-regexp 8 (Express 5): an identifier with `$`, or a quoted name
        ("express", 'GET /t/:"tag name"', "GET /t/{tag name}"),
        # path-to-regexp 6 (@koa/router)
        ("koa", "GET /report_:month+", "GET /report_{month}"),
    ],
)
def test_a_parameter_inside_a_segment_is_read_as_its_router_reads_it(
    framework: str, truth: str, pack: str
) -> None:
    assert normalise("route", truth, framework) == normalise("route", pack, framework)


def test_fastify_s_double_colon_is_a_colon_and_python_s_colon_is_text() -> None:
    assert normalise("route", "GET /v1/items::batchGet", "fastify") == "GET /v1/items::batchGet"
    assert normalise("route", "GET /v1/items:batchGet", "fastapi") == "GET /v1/items:batchGet"
    assert normalise("route", "GET /v1/items:batchGet", "express") == "GET /v1/items{batchGet}"


def test_a_truth_item_is_read_as_the_router_of_its_file_reports_routes() -> None:
    """The truth names no framework: its item is normalised by the framework the pack names
    on the routes of the item's file, so a Fastify mid-segment parameter meets the pack's."""
    run = {
        "status": "ok",
        "wall": 1.0,
        "doc": {
            "resources": [
                {
                    "kind": "route",
                    "name": "GET /feeds/tag-{tag}.xml",
                    "attrs": {"framework": "fastify"},
                    "location": {"path": "src/feeds.ts", "line": 3},
                },
                {
                    "kind": "route",
                    "name": "GET /v1/items:batchGet",
                    "attrs": {"framework": "fastapi"},
                    "location": {"path": "py/api.py", "line": 9},
                },
            ],
            "findings": [],
            "unresolved": [],
        },
    }
    expected = [
        {"name": "GET /feeds/tag-:tag.xml", "file": "src/feeds.ts", "line": 3},
        {"name": "GET /v1/items:batchGet", "file": "py/api.py", "line": 9},
    ]
    result = score("route", expected, run, "pack-http-routes")
    assert (result["tp"], result["false_positives"], result["missed"]) == (2, [], [])


def test_each_item_counts_for_the_library_that_declares_it() -> None:
    """A found or false item is the library the pack names on it; a miss goes to the library
    found in its own file, else to the repository's most common one."""
    resources: list[dict[str, Any]] = [
        {
            "kind": "route",
            "name": "GET /a",
            "attrs": {"framework": "express"},
            "location": {"path": "./web.js"},
        },
        {
            "kind": "route",
            "name": "GET /x",
            "attrs": {"framework": "express"},
            "location": {"path": "web.js"},
        },
        {
            "kind": "route",
            "name": "GET /n",
            "attrs": {"framework": "nestjs"},
            "location": {"path": "api.ts"},
        },
    ]
    wanted: dict[str, dict[str, Any]] = {
        "GET /a": {"name": "GET /a", "file": "web.js"},
        "GET /n": {"name": "GET /n", "file": "api.ts"},
        "GET /m": {"name": "GET /m", "file": "api.ts"},
        "GET /z": {"name": "GET /z", "files": ["other.js"]},
    }
    rows = by_library(
        "pack-http-routes", normalise, resources, wanted, ["GET /m", "GET /z"], ["GET /z"]
    )
    assert rows == {
        "express": {"tp": 1, "fp": 1, "missed": 1, "silent": 1},
        "nestjs": {"tp": 1, "fp": 0, "missed": 1, "silent": 0},
    }
    tables = by_library(
        "pack-django", normalise, [], {"t": {"name": "t", "file": "m.py"}}, ["t"], []
    )
    assert tables == {"django models": {"tp": 0, "fp": 0, "missed": 1, "silent": 0}}


def test_a_truth_of_the_wrong_kind_names_the_items_the_pack_reported_otherwise() -> None:
    """Mongoose's collections written as tables in a truth scored as silent misses once; the
    score now names them, so the truth is fixed rather than the pack."""
    doc = {
        "resources": [
            {"kind": "collection", "name": "users", "location": {"path": "m.js", "line": 1}},
        ],
        "findings": [],
        "unresolved": [],
    }
    run = {"status": "ok", "wall": 0.1, "doc": doc}
    expected = [{"name": "users", "file": "m.js"}, {"name": "posts", "file": "m.js"}]
    result = score("table", expected, run, "pack-js-tables")
    assert result["missed"] == ["posts", "users"]
    assert result["missed_as_other_kind"] == ["users"]
    assert score("collection", expected, run, "pack-js-tables")["missed_as_other_kind"] == []


def test_items_of_their_own_kind_are_scored_beside_the_pack_s_kind() -> None:
    """A repository with knex tables and Mongoose collections: the collections are expected
    with `kind: "collection"`, found as such, and counted for Mongoose."""
    doc = {
        "resources": [
            {
                "kind": "table",
                "name": "ledger",
                "location": {"path": "m/1.js", "line": 3},
                "attrs": {"orm": "knex"},
            },
            {
                "kind": "collection",
                "name": "ledger",
                "location": {"path": "s.js", "line": 9},
                "attrs": {"orm": "mongoose"},
            },
        ],
        "findings": [],
        "unresolved": [],
    }
    run = {"status": "ok", "wall": 0.1, "doc": doc}
    expected = [
        {"name": "ledger", "file": "m/1.js"},
        {"name": "ledger", "file": "s.js", "kind": "collection"},
        {"name": "audit", "file": "s.js", "kind": "collection"},
    ]
    result = score("table", expected, run, "pack-js-tables")
    assert (result["tp"], result["missed"], result["false_positives"]) == (
        2,
        ["collection:audit"],
        [],
    )
    assert result["by_library"] == {
        "knex": {"tp": 1, "fp": 0, "missed": 0, "silent": 0},
        "mongoose": {"tp": 1, "fp": 0, "missed": 1, "silent": 1},
    }


def test_a_finding_in_a_file_that_only_prefixes_a_route_does_not_flag_it_at_its_own_file() -> None:
    """A finding about another mount in the file that gives the route its prefix counts as
    flagged by the lenient rule (any file of the item), never by the strict one (its own file)."""
    doc = {
        "resources": [
            {"kind": "route", "name": "GET /b", "location": {"path": "views/b.py", "line": 3},
             "attrs": {"prefixUnresolved": True}},
        ],
        "findings": [{"code": "UNRESOLVED_PREFIX", "locations": [{"path": "app.py", "line": 9}]}],
        "unresolved": [],
    }  # fmt: skip
    run = {"status": "ok", "wall": 0.1, "doc": doc}
    expected = [
        {"name": "GET /api/a", "file": "views/a.py", "files": ["views/a.py", "app.py"]},
        {"name": "GET /api/b", "file": "views/b.py", "files": ["views/b.py", "app.py"]},
    ]
    result = score("route", expected, run, "pack-http-routes")
    assert result["silent"] == []
    assert result["silent_at_own_file"] == ["GET /api/a"]
