"""pack-http-routes: route tables a module builds by `push` in a loop (`js_pushed`), their
names spelled by JavaScript's string methods (`js_strings`).

The fixture fills three lists at load time: `resources`, one record per file a fast-glob
listing holds, its slug made by `basename(file).replace(/\\.js$/, '')`, `charAt`,
`toLowerCase`, exported and destructured by another module's `forEach`; `pages`, from a
literal array by `split('/')[1]`, `concat` and `slice(0, -3)`, exported whole and iterated by
`for...of`; and `checks`, pushed to from a loop over `Object.keys` of a literal and from a
`forEach` over a literal array (`trim`, a template literal), iterated in its own file. Before,
the first two were `UNRESOLVED_ROUTE` findings and `checks` was read as the empty list it is
declared as: its loop ran zero times and its routes were missing without a word. A list pushed
to in a way not read stays not known: each route a finding.

The truth is read by hand from Express 4's and fast-glob's rules (the listing from the folder of
`package.json`, where `npm start` runs) and ECMAScript's string methods."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from routes_harness import document, fixture_files, pre_filtered

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.bounded_values import MAX_LENGTH
from packs.routes import js_strings
from packs.routes.paths import regex_token

FIXTURE = "js-pushed-tables"
SERVED = {
    "GET /v3/ledger/all": "svc/web/resources.js:9",
    "GET /v3/workOrder/all": "svc/web/resources.js:9",
    "DELETE /v3/ledger/{id}": "svc/web/resources.js:10",
    "DELETE /v3/workOrder/{id}": "svc/web/resources.js:10",
    "GET /v3/docs/intro": "svc/web/resources.js:14",
    "GET /v3/docs/setup-and-run": "svc/web/resources.js:14",
    "GET /ops/billing/health": "svc/web/ops.js:14",
    "GET /ops/audit/health": "svc/web/ops.js:14",
    "GET /ops/queue/stats": "svc/web/ops.js:14",
    "GET /ops/cache/stats": "svc/web/ops.js:14",
    # a list a function fills and loops over, and one a function fills and returns
    "POST /ops/jobs/sync": "svc/web/ops.js:19",
    "POST /ops/jobs/drain": "svc/web/ops.js:19",
    "GET /ops/meta/alpha": "svc/web/ops.js:22",
    "GET /ops/meta/beta": "svc/web/ops.js:22",
    # `if (slug === 'ledger' || ...)` in the helper, decided per call (not `journal`)
    "POST /v3/ledger/export": "svc/web/resources.js:23",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js") | fixture_files(FIXTURE, "*.json")


def _placed(found: dict[str, object]) -> dict[str, str]:
    resources = found["resources"]
    assert isinstance(resources, list)
    return {str(r["name"]): f"{r['location']['path']}:{r['location']['line']}" for r in resources}


def _unresolved(found: dict[str, object]) -> set[tuple[str, int]]:
    findings = found["findings"]
    assert isinstance(findings, list)
    return {
        (where["path"], where["line"])
        for f in findings
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    }


def test_each_list_filled_by_push_is_read_as_its_items() -> None:
    found = document(_files())
    assert _placed(found) == SERVED
    assert [f for f in found["findings"] if f["code"].startswith("UNRESOLVED")] == []


@pytest.mark.parametrize(
    ("file", "written", "instead", "places", "kept"),
    [
        (  # a push under a condition: which items it adds is decided at run time
            "svc/store/registry.js",
            "  resources.push(record);",
            "  if (stem !== 'Ledger') resources.push(record);",
            {("svc/web/resources.js", 9), ("svc/web/resources.js", 10)},
            "/v3/docs/",
        ),
        (  # spread arguments: how many items each push adds is not read
            "svc/web/ops.js",
            "checks.push(`",
            "checks.push(...`",
            {("svc/web/ops.js", 14)},
            "/v3/",
        ),
        (  # the list handed to a call, which may change it
            "svc/web/ops.js",
            "module.exports = ops;",
            "audit(checks);\nmodule.exports = ops;",
            {("svc/web/ops.js", 14)},
            "/v3/",
        ),
        (  # a push in a loop in a loop
            "svc/store/pages.js",
            "  pages.push(",
            "  for (const v of ['a']) pages.push(",
            {("svc/web/resources.js", 14)},
            "/ops/",
        ),
        (  # a name spelled by a method not read
            "svc/store/pages.js",
            "leaf.slice(0, -3)",
            "leaf.padEnd(9, '-')",
            {("svc/web/resources.js", 14)},
            "/ops/",
        ),
    ],
)
def test_a_list_filled_in_a_way_not_read_leaves_each_route_a_finding(
    file: str, written: str, instead: str, places: set[tuple[str, int]], kept: str
) -> None:
    files = _files()
    assert written in files[file]
    files[file] = files[file].replace(written, instead)
    found = document(files)
    unresolved = _unresolved(found)
    assert places <= unresolved
    listed = set(_placed(found))
    gone = {
        name
        for name, where in SERVED.items()
        if (*where.split(":")[:1], int(where.split(":")[1])) in places
    }
    assert not listed & gone
    assert any(kept in name for name in listed)  # the other lists are still read


def test_a_list_a_function_fills_in_a_way_not_read_is_a_finding_never_an_empty_loop() -> None:
    files = _files()
    written = "for (const k of ['Sync', 'Drain']) extra.push("
    assert written in files["svc/web/ops.js"]
    files["svc/web/ops.js"] = files["svc/web/ops.js"].replace(
        written, "for (const k of ['Sync', 'Drain']) if (k) extra.push("
    )
    found = document(files)
    assert ("svc/web/ops.js", 19) in _unresolved(found)
    assert not any("/jobs/" in name for name in _placed(found))


def test_a_helper_test_on_a_parameter_is_decided_per_call_where_the_scan_tells() -> None:
    files = _files()
    written = "if (slug === 'ledger' || slug === 'archive')"
    assert written in files["svc/web/resources.js"]
    files["svc/web/resources.js"] = files["svc/web/resources.js"].replace(
        written, "if (slug === pick() || slug === 'archive')"
    )
    listed = _placed(document(files))
    assert {n for n in listed if n.startswith("POST /v3/")} == {
        "POST /v3/ledger/export",
        "POST /v3/workOrder/export",
        "POST /v3/journal/export",
    }  # a test not decided: every call's route listed, as before


@pytest.mark.parametrize(
    ("path", "base", "args", "expected"),
    [
        (("replace",), "a-b-b", ["b", "c"], "a-c-b"),  # the first occurrence only
        (("replaceAll",), "a-b-b", ["b", "c"], "a-c-c"),
        (("replace",), "Item.JS", [regex_token(r"\.js$", "i"), ""], "Item"),
        (("replace",), "a.b.c", [regex_token(r"\.", "g"), "/"], "a/b/c"),
        (("replace",), "ab", ["a", "$&$&"], None),  # a `$` pattern: not expanded here
        (("replace",), "ab", [regex_token(r"(a)", ""), "x"], None),  # a group: not read
        (("replace",), "aaaa", [regex_token(r"a*a*a*", ""), "x"], None),  # repeats past cap
        (("replaceAll",), "ab", [regex_token("a", ""), "x"], None),  # throws in JavaScript
        (("charAt",), "Ledger", [], "L"),
        (("charAt",), "Ledger", ["9"], ""),
        (("slice",), "intro.md", ["0", "-3"], "intro"),
        (("slice",), "intro.md", ["-2"], "md"),
        (("substring",), "intro.md", ["5", "0"], "intro"),
        (("substring",), "intro.md", ["-4"], "intro.md"),
        (("toUpperCase",), "Ab", [], "AB"),
        (("trim",), "\u00a0 x \n", [], "x"),
        (("trimEnd",), " x ", [], " x"),
        (("split", "1"), "a/b/c", ["/"], "b"),
        (("split", "3"), "a/b/c", ["/"], None),  # `undefined`
        (("split", "1"), "ab", [""], "b"),
        (("concat",), "/docs/", ["a", "b"], "/docs/ab"),
        (("slice",), "x", ["one"], None),
        (("padEnd",), "x", ["3"], None),
    ],
)
def test_string_methods_compute_as_javascript_does(
    path: tuple[str, ...], base: str, args: list[str], expected: str | None
) -> None:
    assert js_strings.applied(path, base, args) == expected


def test_string_methods_stay_within_the_cap() -> None:
    long = "x" * MAX_LENGTH
    assert js_strings.applied(("concat",), long, ["y"]) is None
    assert js_strings.applied(("replaceAll",), "a" * 100, ["a", long]) is None
    assert js_strings.applied(("toLowerCase",), long + "X", []) is None


def test_pushed_lists_with_the_pre_filter_are_the_scan_of_every_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures" / "repos" / FIXTURE
    found, everything, filtered = pre_filtered(root, monkeypatch)
    assert _placed(found) == SERVED
    assert filtered <= everything
