"""pack-http-routes: Next.js settings per project (`routes/next_projects.py`, `nextjs.project_of`).

A config's `pageExtensions` decide which files under its project's `pages/api/` and `app/` are
route files and what they are named (the whole ending dropped: `index.page.ts` is `index`); its
`basePath` prefixes its project's routes only. A project is the folder Next runs in: the one
holding `pages/` or `app/` (or `src/` holding them) and a `next.config.*`. A repository of
several projects (an app and its examples, a monorepo's apps) keeps each one's settings apart;
a setting not read is a finding at the config, never a guess and never silence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes import nextjs, seeds  # noqa: E402
from routes_harness import document, findings_of, placed, pre_filtered, write_files  # noqa: E402

EVERY = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
HANDLER = "export default function handle(req, res) { res.json({}); }\n"
GET = "export async function GET() { return new Response(''); }\n"
POST = "export async function POST() { return new Response(null); }\n"


def _every(path: str, where: str) -> dict[str, str]:
    return {f"{m} {path}": f"{where}:1 nextjs" for m in EVERY}


# One project whose pages end in `.page.ts`/`.page.tsx` (and an odd `.route.js`), beside files
# that do not: helpers, tests, a plain `route.ts`. Its routes drop the whole ending.
LABELLED: dict[str, str] = {
    "portal/next.config.js": (
        "/** @type {import('next').NextConfig} */\n"
        "const settings = {\n"
        "  reactStrictMode: true,\n"
        "  pageExtensions: ['page.tsx', 'page.ts', 'route.js'],\n"
        "};\n"
        "module.exports = settings;\n"
    ),
    "portal/src/pages/api/index.page.ts": HANDLER,
    "portal/src/pages/api/teams/[teamId].page.ts": HANDLER,
    "portal/src/pages/api/files/[[...rest]].page.tsx": HANDLER,
    "portal/src/pages/api/teams/roster.ts": HANDLER,  # no page ending: a helper, no route
    "portal/src/pages/api/teams/roster.page.test.ts": HANDLER,  # nor a test beside a page
    "portal/src/pages/api/_middleware.page.ts": HANDLER,  # Next 12's middleware, by its name
    "portal/src/pages/api/legacy.route.js": HANDLER,
    "portal/src/app/feeds/[feed]/route.page.ts": GET,
    "portal/src/app/plain/route.ts": GET,  # `route.ts` is no route file under these endings
}


def test_page_extensions_choose_the_route_files_and_drop_the_whole_ending() -> None:
    assert placed(LABELLED) == {
        **_every("/api", "portal/src/pages/api/index.page.ts"),
        **_every("/api/teams/{teamId}", "portal/src/pages/api/teams/[teamId].page.ts"),
        **_every("/api/files", "portal/src/pages/api/files/[[...rest]].page.tsx"),
        **_every("/api/files/{rest}", "portal/src/pages/api/files/[[...rest]].page.tsx"),
        **_every("/api/legacy", "portal/src/pages/api/legacy.route.js"),
        "GET /feeds/{feed}": "portal/src/app/feeds/[feed]/route.page.ts:1 nextjs",
    }
    assert document(LABELLED)["findings"] == []


def test_without_the_config_the_same_files_are_read_by_next_s_defaults() -> None:
    """The config is what changes the reading: the same tree without it routes every script
    under `pages/api`, each named without its last ending only (as Next does)."""
    files = {k: v for k, v in LABELLED.items() if not k.endswith("next.config.js")}
    names = set(placed(files))
    assert {"GET /api/index.page", "GET /api/teams/roster", "GET /plain"} <= names
    assert not {"GET /api", "GET /feeds/{feed}"} & names


@pytest.mark.parametrize(
    ("path", "extensions", "served"),
    [
        ("pages/api/index.page.ts", ("page.ts",), ("pages", ("/api",))),
        ("pages/api/index.page.ts", ("ts",), ("pages", ("/api/index.page",))),
        # the longest ending wins, whatever the order of the list
        ("pages/api/index.page.ts", ("ts", "page.ts"), ("pages", ("/api",))),
        ("pages/api/index.ts", ("page.ts",), None),
        ("pages/api/page.ts", ("page.ts",), None),  # the ending alone is no name
        ("pages/api/a.mdx", ("mdx", "ts"), None),  # no script the readers parse
        ("app/x/route.api.ts", ("api.ts",), ("app", ("/x",))),
        ("app/x/route.ts", ("api.ts",), None),
        ("app/x/page.api.ts", ("api.ts",), None),
    ],
)
def test_a_file_s_place_under_page_extensions(
    path: str, extensions: tuple[str, ...], served: tuple[str, tuple[str, ...]] | None
) -> None:
    assert nextjs.route_file(path, extensions) == served


@pytest.mark.parametrize(
    ("path", "configs", "project"),
    [
        ("web/src/pages/api/a.ts", {"web"}, "web"),
        ("web/src/pages/api/a.ts", {"web", "web/src"}, "web/src"),  # the closest
        ("web/pages/api/a.ts", {"web"}, "web"),
        ("web/app/x/route.ts", {""}, None),  # a config above the project's folder: not its own
        ("app/x/route.ts", {""}, ""),
        ("src/app/x/route.ts", {""}, ""),
        ("web/lib/pages/api/a.ts", {"web"}, None),  # Next looks in `pages/` and `src/pages/` only
    ],
)
def test_a_route_file_s_project(path: str, configs: set[str], project: str | None) -> None:
    assert nextjs.project_of(path, configs) == project


@pytest.mark.parametrize(
    "config",
    [
        # a plugin call wraps the config: what it makes of the list is not read
        "const withDocs = require('./with-docs');\n"
        "module.exports = withDocs({ pageExtensions: ['page.ts'] });\n",
        # a computed list
        "const kinds = ['page'];\n"
        "module.exports = { pageExtensions: kinds.map((k) => `${k}.ts`) };\n",
        # spread from an object that may set it
        "const shared = { pageExtensions: ['page.ts'] };\n"
        "module.exports = { ...shared, reactStrictMode: true };\n",
    ],
)
def test_page_extensions_not_read_are_a_finding_at_the_config(config: str) -> None:
    files = {"site/next.config.js": config, "site/pages/api/ping.page.ts": HANDLER}
    line = config.count("\n")
    assert placed(files) == _every("/api/ping.page", "site/pages/api/ping.page.ts")
    assert findings_of(document(files)) == [("UNRESOLVED_ROUTE", [("site/next.config.js", line)])]


def test_two_configs_of_one_project_that_disagree_are_a_finding_at_each() -> None:
    files = {
        "site/next.config.js": "module.exports = { pageExtensions: ['page.ts'] };\n",
        "site/next.config.mjs": "export default { pageExtensions: ['api.ts'] };\n",
        "site/pages/api/ping.page.ts": HANDLER,
    }
    assert set(placed(files)) == {f"{m} /api/ping.page" for m in EVERY}
    assert findings_of(document(files)) == [
        ("UNRESOLVED_ROUTE", [("site/next.config.js", 1)]),
        ("UNRESOLVED_ROUTE", [("site/next.config.mjs", 1)]),
    ]


# Three projects in one repository: an app with its own endings and a base path, an example
# app inside it with a config that sets nothing, and a docs site with another base path; and
# a fourth tree with no config at all. Each one's settings stay its own.
PROJECTS: dict[str, str] = {
    "shop/next.config.js": (
        "module.exports = {\n"
        "  basePath: '/store',\n"
        "  pageExtensions: ['page.ts'],\n"
        "  async redirects() { return [{ source: '/', destination: '/x', basePath: false }]; },\n"
        "};\n"
    ),
    "shop/src/pages/api/cart.page.ts": HANDLER,
    "shop/src/pages/api/cart.spec.ts": HANDLER,
    "shop/examples/embed/next.config.mjs": "const config = {};\nexport default config;\n",
    "shop/examples/embed/app/session/route.ts": POST,
    "shop/examples/embed/app/session/route.page.ts": GET,  # `.page.ts` is the shop's, not its
    "docs/next.config.mjs": "export default { basePath: '/handbook' };\n",
    "docs/app/search/route.ts": GET,
    "tools/pages/api/ping.js": HANDLER,
}


def test_each_project_keeps_its_own_base_path_and_extensions() -> None:
    assert placed(PROJECTS) == {
        **_every("/store/api/cart", "shop/src/pages/api/cart.page.ts"),
        "POST /session": "shop/examples/embed/app/session/route.ts:1 nextjs",
        "GET /handbook/search": "docs/app/search/route.ts:1 nextjs",
        **_every("/api/ping", "tools/pages/api/ping.js"),
    }
    assert document(PROJECTS)["findings"] == []


def test_a_base_path_not_read_stays_with_its_own_project() -> None:
    """The finding and the unknown prefix are the project's whose config is not read; the
    other project's routes are named in full."""
    files = {
        **PROJECTS,
        "docs/next.config.mjs": "import wrap from './wrap.mjs';\n"
        "export default wrap({ basePath: process.env.DOCS_BASE });\n",
    }
    found = document(files)
    unresolved = {r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert unresolved == {"GET /search"}
    assert "POST /session" in {r["name"] for r in found["resources"]}
    assert findings_of(found) == [
        ("UNRESOLVED_PREFIX", [("docs/app/search/route.ts", 1), ("docs/next.config.mjs", 2)])
    ]


def test_the_pre_filter_admits_every_file_that_may_be_a_route_file() -> None:
    assert seeds.admits("shop/app/x/route.page.ts", b"export async function GET() {}\n")
    assert seeds.admits("shop/pages/api/a.page.ts", b"export default function a() {}\n")
    assert seeds.admits("next.config.js", b"module.exports = { pageExtensions: ['page.ts'] };\n")
    assert not seeds.admits("shop/app/x/page.page.ts", b"export default function P() {}\n")


def test_projects_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, {**PROJECTS, **{f"labelled/{k}": v for k, v in LABELLED.items()}})
    found, _, _ = pre_filtered(tmp_path, monkeypatch)
    names = {r["name"] for r in found["resources"]}
    assert {"GET /store/api/cart", "POST /session", "GET /handbook/search"} <= names
    assert {"GET /api", "GET /feeds/{feed}", "GET /api/files/{rest}"} <= names
    assert not [n for n in names if ".page" in n or ".spec" in n]
