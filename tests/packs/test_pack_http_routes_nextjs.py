"""pack-http-routes: Next.js file-system routes (`plugins/packs/routes/nextjs.py`). A Pages
Router file under `pages/api/` answers every method with its default export; an App Router
`route.ts` answers the methods it exports; folders name the path (`[id]`, `[...slug]`,
`[[...slug]]`, `(group)` and `@slot` dropped, `_private` App Router folders not routed (a Pages Router `_file` is), `src/` allowed); the
handler (or what wraps it) is the auth evidence, `middleware.ts` unread keeps the rest unknown."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes import nextjs, seeds  # noqa: E402
from packs.routes.frameworks import UNREAD  # noqa: E402
from routes_harness import document, placed, scanned_both_ways  # noqa: E402

EVERY = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")

# A Next.js project of our own in a subfolder, with both routers: a Pages Router tree under
# `src/`, an App Router tree with a route group, a parallel slot, a private folder, an optional
# catch-all, handlers exported under another name, a wrapper from another file that answers 401.
SHOP: dict[str, str] = {
    "web/src/pages/api/index.ts": (
        "import type { NextApiRequest, NextApiResponse } from 'next';\n"
        "export default function status(req: NextApiRequest, res: NextApiResponse) {\n"
        "  res.json({ ok: true });\n"
        "}\n"
    ),
    "web/src/pages/api/orders/[orderId]/lines.js": (
        "const { requireUser } = require('../../../../lib/guard');\n"
        "async function lines(req, res) { res.json([]); }\n"
        "module.exports = requireUser(lines);\n"
    ),
    "web/src/pages/api/_middleware.ts": "export default function middleware() { return 1; }\n",
    "web/src/lib/guard.js": (
        "exports.requireUser = (h) => (req, res) =>\n"
        "  req.headers.authorization ? h(req, res) : res.status(401).end();\n"
    ),
    "web/app/(store)/products/[[...filters]]/route.ts": (
        "import { NextResponse } from 'next/server';\n"
        "export async function GET(request: Request) {\n"
        "  return NextResponse.json([]);\n"
        "}\n"
        "export const dynamic = 'force-dynamic';\n"
        "export function toQuery(filters: string[]) { return filters.join(','); }\n"
    ),
    "web/app/@admin/files/[...key]/route.js": (
        "async function store(request) {\n"
        "  if (!request.headers.get('x-token')) return new Response(null, { status: 403 });\n"
        "  return new Response(null, { status: 204 });\n"
        "}\n"
        "export { store as PUT, store as DELETE };\n"
    ),
    "web/app/_internal/route.ts": "export async function GET() { return new Response(''); }\n",
    "web/app/products/page.tsx": "export default function Page() { return null; }\n",
}


def test_next_route_files_serve_their_paths() -> None:
    lines = "web/src/pages/api/orders/[orderId]/lines.js:3 nextjs"
    products = "web/app/(store)/products/[[...filters]]/route.ts:2 nextjs"
    files = "web/app/@admin/files/[...key]/route.js:5 nextjs"
    assert placed(SHOP) == {
        **{f"{m} /api": "web/src/pages/api/index.ts:2 nextjs" for m in EVERY},
        **{f"{m} /api/orders/{{orderId}}/lines": lines for m in EVERY},
        "GET /products": products,
        "GET /products/{filters}": products,
        "PUT /files/{key}": files,
        "DELETE /files/{key}": files,
    }
    assert not document(SHOP)["findings"]


def test_the_handler_or_its_wrapper_is_the_auth_evidence() -> None:
    auth = {s["resource"].partition(":")[2]: s["value"] for s in document(SHOP)["signals"]}
    assert auth["GET /api/orders/{orderId}/lines"] == "required"  # requireUser answers 401
    assert auth["PUT /files/{key}"] == "required"  # the handler answers 403 itself
    # nothing guards in the file, and middleware.ts is not read: never `none`
    assert auth["GET /api"] == "unknown"
    assert auth["GET /products"] == "unknown"


@pytest.mark.parametrize(
    ("path", "served"),
    [
        ("pages/api/users/index.js", ("pages", ("/api/users",))),
        ("pages/api/users/[id].ts", ("pages", ("/api/users/{id}",))),
        ("pages/api/[...all].ts", ("pages", ("/api/{all}",))),
        ("pages/api/docs/[[...page]].ts", ("pages", ("/api/docs", "/api/docs/{page}"))),
        # a parameter's name is what its brackets hold, hyphens and digits included
        ("pages/api/[...not-found-404].ts", ("pages", ("/api/{not-found-404}",))),
        (
            "app/v2/[team-id]/[[...opt-rest]]/route.ts",
            ("app", ("/v2/{team-id}", "/v2/{team-id}/{opt-rest}")),
        ),
        ("app/[1st]/route.ts", ("app", ("/{1st}",))),
        ("src/pages/api/_middleware.ts", None),
        # only the App Router makes `_` private: a Pages Router `_file` is a route
        ("pages/api/groups/_everyone.ts", ("pages", ("/api/groups/_everyone",))),
        ("pages/about.tsx", None),
        ("pages/api/types.d.ts", None),
        ("app/route.ts", ("app", ("/",))),
        ("app/(marketing)/(en)/blog/[slug]/route.tsx", ("app", ("/blog/{slug}",))),
        ("src/app/api/v1/[[...rest]]/route.mjs", ("app", ("/api/v1", "/api/v1/{rest}"))),
        ("app/_components/route.ts", None),
        ("app/blog/page.tsx", None),
        ("app/blog/route.json", None),
    ],
)
def test_a_file_s_place_names_its_path(
    path: str, served: tuple[str, tuple[str, ...]] | None
) -> None:
    assert nextjs.route_file(path) == served


def test_a_route_file_without_its_handlers_routes_nothing() -> None:
    files = {
        "pages/api/helpers.ts": "export function util() {}\n",  # no default export
        "app/api/route.ts": "export function get() {}\nexport const config = {};\n",  # lower case
    }
    assert placed(files) == {}


def test_a_default_export_not_read_still_serves_its_path() -> None:
    """Next serves a Pages Router file at its path whatever its default export is: one chosen by
    a flag, a call on a member, an await, is a route of every verb, never nothing."""
    files = {
        "pages/api/stall.ts": (
            "const enabled = process.env.STALL === '1';\n"
            "function handler(req, res) { res.end(); }\n"
            "function notFound(req, res) { res.status(404).end(); }\n"
            "export default enabled ? handler : notFound;\n"
        ),
        "pages/api/cfg.js": "import { api } from '../../lib/api';\nexport default api.routes[0];\n",
    }
    assert placed(files) == {
        **{f"{m} /api/stall": "pages/api/stall.ts:4 nextjs" for m in EVERY},
        **{f"{m} /api/cfg": "pages/api/cfg.js:2 nextjs" for m in EVERY},
    }


def test_next_js_is_no_longer_an_unread_framework() -> None:
    assert "Next.js" not in {u.name for u in UNREAD}
    files = {"pages/index.tsx": "import Link from 'next/link';\nexport default () => null;\n"}
    assert not [f for f in document(files)["findings"] if f["code"] == "UNREAD_FRAMEWORK"]


def test_the_pre_filter_admits_a_route_file_by_its_place() -> None:
    assert seeds.admits("web/pages/api/a.ts", b"export default function a(q, s) {}\n")
    assert seeds.admits("app/x/route.js", b"export async function GET() {}\n")
    assert not seeds.admits("app/x/page.js", b"export default function P() {}\n")


def test_a_next_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(tmp_path, SHOP, monkeypatch)
    assert documents[1] == documents[0]
    # page.tsx is never parsed; guard.js only on demand, for the wrapper's verdict
    assert parsed[1] < parsed[0]
    assert '"GET /products/{filters}"' in documents[1]
    assert '"PUT /files/{key}"' in documents[1]


@pytest.mark.parametrize(
    "config",
    [
        "const nextConfig = { reactStrictMode: true, basePath: '/shop' };\n"
        "module.exports = nextConfig;\n",
        "export default { basePath: '/shop/' };\n",
    ],
)
def test_base_path_in_next_config_prefixes_every_route(config: str) -> None:
    files = {"web/next.config.js": config, "web/app/api/cart/route.ts": SHOP_CART}
    assert placed(files) == {"POST /shop/api/cart": "web/app/api/cart/route.ts:1 nextjs"}
    assert document(files)["findings"] == []


def test_a_base_path_not_read_is_a_finding_at_the_config() -> None:
    config = (
        "const withDocs = require('./with-docs');\n"
        "module.exports = withDocs({ basePath: process.env.BASE_PATH });\n"
    )
    files = {"web/next.config.js": config, "web/app/api/cart/route.ts": SHOP_CART}
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("POST /api/cart", True)
    ]
    assert [(f["code"], f["locations"][-1]) for f in found["findings"]] == [
        ("UNRESOLVED_PREFIX", {"path": "web/next.config.js", "line": 2})
    ]
    # a config that sets no basePath adds nothing, and is not even parsed for it
    assert not seeds.admits("next.config.js", b"module.exports = { reactStrictMode: true };\n")


def test_a_next_config_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "next.config.mjs": "const config = { basePath: '/store' };\nexport default config;\n",
        "src/app/api/cart/route.ts": SHOP_CART,
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert '"POST /store/api/cart"' in documents[1]


SHOP_CART = "export async function POST(request: Request) { return new Response(null); }\n"


# Handlers re-exported by `export *`, through a second file, from a folder's index; one route
# file re-exports a file that is not scanned, another one without any handler.
STARRED: dict[str, str] = {
    "app/api/orders/route.ts": "export * from '../../../lib/orders';\n",
    "lib/orders/index.ts": "export * from './handlers';\nexport const dynamic = 'force-dynamic';\n",
    "lib/orders/handlers.ts": (
        "export async function GET() { return new Response(''); }\n"
        "const remove = async () => new Response('');\n"
        "export { remove as DELETE };\n"
    ),
    "app/api/remote/route.ts": "export * from '../../../vendor/missing';\n",
    "app/api/none/route.ts": "export * from '../../../lib/util';\n",
    "lib/util.ts": "export const sum = (a: number, b: number) => a + b;\n",
}


def test_handlers_re_exported_by_star_are_routes_or_a_finding_not_silence() -> None:
    found = document(STARRED)
    assert placed(STARRED) == {
        "DELETE /api/orders": "app/api/orders/route.ts:1 nextjs",
        "GET /api/orders": "app/api/orders/route.ts:1 nextjs",
    }
    where = [{"path": "app/api/remote/route.ts", "line": 1}]
    assert [(f["code"], f["locations"]) for f in found["findings"]] == [("UNRESOLVED_ROUTE", where)]


def test_star_re_exports_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, STARRED, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /api/orders"' in documents[1]


def test_handlers_exported_by_destructuring_are_routes() -> None:
    # Auth.js's `export const { GET, POST } = handlers`, a key renamed, a non-method beside them
    files = {
        "site/app/api/session/[...parts]/route.ts": (
            "import { gates } from '../../../../lib/gates';\n"
            "export const runtime = 'nodejs';\n"
            "export const { GET, POST: post, PUT: PATCH, revalidate } = gates;\n"
        ),
        "site/lib/gates.ts": "export const gates = { GET() {}, PUT() {} };\n",
        "site/src/app/ping/route.js": "const table = { HEAD() {} };\nexport const { HEAD } = table;\n",
    }
    assert placed(files) == {
        "GET /api/session/{parts}": "site/app/api/session/[...parts]/route.ts:3 nextjs",
        "PATCH /api/session/{parts}": "site/app/api/session/[...parts]/route.ts:3 nextjs",
        "HEAD /ping": "site/src/app/ping/route.js:2 nextjs",
    }
    assert document(files)["findings"] == []


def test_a_route_under_well_known_is_walked_and_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`.well-known` is a URL segment (RFC 8615), not a hidden folder to skip: its route files
    were never read by the walk, so their routes went missing in silence."""
    files = {
        "app/.well-known/openid/route.ts": "export async function GET() { return Response.json({}); }\n",
        "app/.cache/route.ts": "export async function GET() { return new Response(''); }\n",
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /.well-known/openid"' in documents[0]
    assert "/.cache" not in documents[0]
