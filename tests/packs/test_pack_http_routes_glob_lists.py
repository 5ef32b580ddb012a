"""pack-http-routes: routes named from a folder listing held as a value (`js_dirload.listing`,
`model.Listing`): `globSync('./domain/models/*.js').map(f => path.basename(f, '.js')
.toLowerCase())` exported and looped over in another module by a per-model generator, and
`for (const file of fg.sync('domain/reports/**/*.ts')) r.get('/reports/' + basename(file,
'.ts'), h)`. The linker lists the walked script files the pattern matches from the folder of
the nearest `package.json` (where `npm start` runs) and unrolls the loop once per file,
computing Node's `path.basename`/`extname`/`dirname` of each path. Before, each such route
was an `UNRESOLVED_ROUTE` and nothing was listed; a pattern it cannot read still is.

The fixture's truth is read by hand from glob's and Express 4's rules: `*` one level (not
`helpers/`), `**` any depth, `app.use(prefix, router)` prefixing the router's paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, located, pre_filtered

FIXTURE = "js-glob-models"
SERVED = {
    "GET /v2/orders": "service/http/routes.js:13",
    "POST /v2/orders": "service/http/routes.js:13",
    "GET /v2/shipments": "service/http/routes.js:13",
    "POST /v2/shipments": "service/http/routes.js:13",
    "GET /reports/churn": "service/http/reports.js:8",
    "GET /reports/revenue": "service/http/reports.js:8",
}


def _files() -> dict[str, str]:
    found: dict[str, str] = {}
    for pattern in ("*.js", "*.ts", "*.json"):
        found |= fixture_files(FIXTURE, pattern)
    return found


def test_each_file_a_glob_lists_names_the_routes_of_its_model() -> None:
    found = document(_files())
    assert located(_files()) == SERVED
    assert [f for f in found["findings"] if f["code"].startswith("UNRESOLVED")] == []


@pytest.mark.parametrize(
    "listing",
    [
        "globSync(process.env.MODELS_GLOB)",  # a computed pattern
        "globSync('./domain/models/*.json')",  # files the walk does not hold
        "globSync('./domain/models/*.js').map((file) => lookup(file))",  # a name not spelled
    ],
)
def test_a_listing_not_read_leaves_each_route_a_finding_at_the_loop(listing: str) -> None:
    files = _files()
    files["service/http/catalog.js"] = files["service/http/catalog.js"].replace(
        "globSync('./domain/models/*.js').map((file) => path.basename(file, '.js').toLowerCase())",
        listing,
    )
    assert listing in files["service/http/catalog.js"]
    found = document(files)
    assert not any("/v2/" in str(r["name"]) for r in found["resources"])
    places = {
        (where["path"], where["line"])
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for where in f["locations"]
    }
    assert ("service/http/routes.js", 9) in places  # the generator's route
    assert ("service/http/routes.js", 13) in places  # the loop that calls it


def test_a_listing_is_read_from_the_folder_of_the_nearest_manifest() -> None:
    files = {k: v for k, v in _files().items() if k != "service/package.json"}
    files["package.json"] = _files()["service/package.json"]  # `npm start` from the root
    found = document(files)
    assert not any("/v2/" in str(r["name"]) for r in found["resources"])  # no `domain/` there


def test_glob_listed_routes_with_the_pre_filter_are_the_scan_of_every_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures" / "repos" / FIXTURE
    found, everything, filtered = pre_filtered(root, monkeypatch)
    assert {str(r["name"]) for r in found["resources"]} == set(SERVED)
    assert filtered <= everything
