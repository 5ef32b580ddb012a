"""pack-http-routes: syntax real code uses that the tree-sitter grammars reject no longer
loses the file (`grammar_gaps`): TypeScript's tagged templates given type arguments
(`db.$queryRaw<Row[]>` then a template literal), import types inside type arguments
(`vi.importActual<typeof import('./x')>()`, `Promise<import('./x').Row[]>`), `export type *`,
and a bare `&` in JSX text or a JSX attribute string (`<p>Terms & Conditions</p>`). Each was a
`parse-error` and every route of the file lost. The rewrite keeps every byte offset and is
tried only on a file the grammar rejects; a file still broken after it stays a `parse-error`
at its own first error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import grammar_gaps  # noqa: E402
from routes_harness import document, scanned_both_ways, write_files  # noqa: E402

TICK = "`"

SITE: dict[str, str] = {
    "web/app/api/teams/[teamId]/usage/route.ts": (
        "import { store } from '@/lib/store';\n"
        "type Usage = { day: string; seats: number };\n"
        "export async function GET(req: Request, ctx: { params: { teamId: string } }) {\n"
        f"  const rows = await store.$queryRaw<Array<Record<string, Usage>>>{TICK}\n"
        "    SELECT day, seats FROM usage WHERE team = ${ctx.params.teamId}\n"
        f"  {TICK};\n"
        "  return Response.json(rows);\n"
        "}\n"
        "export const DELETE = async () =>\n"
        f"  store.$executeRaw<number>{TICK}DELETE FROM usage{TICK};\n"
    ),
    "api/src/server.ts": (
        "import express from 'express';\n"
        "import { sql } from './db';\n"
        "const app = express();\n"
        "app.get('/reports/:id', async (req, res) => {\n"
        f"  res.json(await sql<{{ id: number; total: number }}[]>{TICK}SELECT 1{TICK});\n"
        "});\n"
        "app.listen(8080);\n"
    ),
    "api/src/db.ts": "export const sql = (parts: TemplateStringsArray) => parts;\n",
}


def test_tagged_templates_with_type_arguments_do_not_lose_the_file() -> None:
    found = document(SITE)
    placed = {
        str(r["name"]): f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
    }
    assert placed == {
        "GET /api/teams/{teamId}/usage": "web/app/api/teams/[teamId]/usage/route.ts:3",
        "DELETE /api/teams/{teamId}/usage": "web/app/api/teams/[teamId]/usage/route.ts:9",
        "GET /reports/{id}": "api/src/server.ts:4",
    }


def test_the_blanked_file_keeps_every_line_and_column() -> None:
    source = SITE["web/app/api/teams/[teamId]/usage/route.ts"].encode()
    plain = grammar_gaps.blanked(source)
    assert len(plain) == len(source)
    assert plain.count(b"\n") == source.count(b"\n")
    assert b"$queryRaw" + b" " * len(b"<Array<Record<string, Usage>>>") + b"`" in plain
    # a comparison is no type argument list: nothing before a backtick to blank
    assert grammar_gaps.blanked(b"const x = a < b && c > d;\n") == b"const x = a < b && c > d;\n"


def test_a_file_broken_otherwise_stays_a_parse_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "api/src/broken.ts": (
            "import express from 'express';\n"
            "const app = express();\n"
            f"const q = sql<Row>{TICK}SELECT 1{TICK};\n"
            "app.get('/x', (req, res) => { res.send(( });\n"
        ),
    }
    write_files(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    scanner = make_scanner(parse_all=True)
    scanner.workers = 1
    document_ = scanner.discover(["."])
    assert [u["reason"] for u in document_["unresolved"]] == ["parse-error"]
    assert "line 4" in json.dumps(document_["unresolved"])


def test_tagged_templates_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"api/src/util.ts": "export const half = (n: number) => n / 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SITE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"GET /reports/{id}"' in documents[1]


_JSX_SERVER = (
    "import express from 'express';\n"
    "import { renderToString } from 'react-dom/server';\n"
    "const app = express();\n"
    "const mask = 6 & 3;\n"
    "app.get('/terms', (req, res) => res.send(renderToString(<p>Terms & Conditions</p>)));\n"
    "app.get('/links', (req, res) =>\n"
    "  res.send(renderToString(<a href=\"/search?q=1&page=2\" title='R&D'>R &amp; D</a>)));\n"
    "app.get('/mask', (req, res) => res.json({ on: (mask & 2) !== 0 && mask >= 1 }));\n"
    "app.listen(8080);\n"
)


@pytest.mark.parametrize("name", ["server.jsx", "server.tsx", "server.js"])
def test_a_bare_ampersand_in_jsx_does_not_lose_the_file(name: str) -> None:
    found = document({f"web/{name}": _JSX_SERVER})
    assert {str(r["name"]): r["location"]["line"] for r in found["resources"]} == {
        "GET /terms": 5,
        "GET /links": 6,
        "GET /mask": 8,
    }


def test_an_ampersand_before_a_real_error_leaves_the_file_a_parse_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = _JSX_SERVER.replace("app.listen(8080);", "app.listen(8080 &);")
    write_files(tmp_path, {"web/server.tsx": broken})
    monkeypatch.chdir(tmp_path)
    scanner = make_scanner(parse_all=True)
    scanner.workers = 1
    document_ = scanner.discover(["."])
    assert document_["resources"] == []
    assert [u["reason"] for u in document_["unresolved"]] == ["parse-error"]
    assert "line 5" in json.dumps(document_["unresolved"])  # the file's own first error


def test_import_types_and_type_star_exports_do_not_lose_the_file() -> None:
    found = document(
        {
            "api/src/server.ts": (
                "import express from 'express';\n"
                "export type * from './types';\n"
                "type Store = typeof import('./store');\n"
                "const app = express();\n"
                "async function load(): Promise<import('./store').Row[]> { return []; }\n"
                "const store = await loadModule<\n  typeof import('./store')\n>();\n"
                "app.get('/rows', async (req, res) => res.json(await load()));\n"
                "const routes = await import('./routes');\n"
                "app.use('/api', routes.default);\n"
            ),
            "api/src/routes.ts": (
                "import { Router } from 'express';\n"
                "const r = Router();\n"
                "r.get('/items', (q, s) => s.end());\n"
                "export default r;\n"
            ),
            "api/src/store.ts": "export type Row = { id: number };\n",
            "api/src/types.ts": "export type Id = string;\n",
        }
    )
    assert {str(r["name"]) for r in found["resources"]} == {"GET /rows", "GET /api/items"}


def test_the_rewrites_keep_every_byte_offset_and_leave_values_alone() -> None:
    source = (
        b"const m = await import('./routes');\n"
        b"const a = f<typeof import('./x')>(import('./y'));\n"
        b"export type * from './t';\n"
    )
    plain = grammar_gaps.blanked(source)
    assert len(plain) == len(source)
    assert plain.count(b"\n") == source.count(b"\n")
    assert b"await import('./routes')" in plain  # a dynamic import is a value: kept
    assert b"(import('./y'))" in plain
    assert b"f<typeof _____________>(" in plain
    assert b"export      * from './t'" in plain
