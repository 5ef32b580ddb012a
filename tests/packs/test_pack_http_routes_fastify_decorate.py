"""pack-http-routes: values a Fastify instance is decorated with (issue 36 leftovers, construct
class 3): `fastify.decorate(name, value)` (the name a literal or a constant of the file; the
value a literal, an object, a name) read back as a member of any instance, the app or a
plugin's parameter (`app.layout.mounts.x`, `app['layout']`, `app[KEY]`, `fastify.config.X`
where `config` is decorated by hand) in a register's prefix or a route's path. The fixture is
our own; its truth is Fastify 4.9's `printRoutes()` after `ready()` (the automatic HEAD routes
left out, as the pack lists none)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "fastify-decorated"
SERVED = {
    "GET /api/v5/people",
    "GET /api/v5/people/healthz",
    "GET /billing/invoices",
    "POST /billing/invoices/{id}/pay",
    "GET /healthz",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js")


def test_decorated_values_read_back_in_prefixes_and_paths_are_named_as_fastify_serves() -> None:
    found = document(_files())
    assert {r["name"] for r in found["resources"]} == SERVED
    assert all("prefixUnresolved" not in r["attrs"] for r in found["resources"])
    assert {r["attrs"]["framework"] for r in found["resources"]} == {"fastify"}
    assert found["findings"] == []


def test_a_pre_filtered_scan_of_decorated_values_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"POST /billing/invoices/{id}/pay"' in documents[1]


def test_a_member_no_decorate_call_gives_stays_a_finding_at_the_route() -> None:
    files = {
        "app.js": (
            "const Fastify = require('fastify');\n"
            "const app = Fastify();\n"
            "app.decorate('known', '/here');\n"
            "app.get(app.known, async () => 1);\n"
            "app.get(app.unknown, async () => 2);\n"
        ),
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /here"]
    [unread] = found["findings"]
    assert unread["code"] == "UNRESOLVED_ROUTE"
    assert unread["locations"] == [{"path": "app.js", "line": 5}]
