"""pack-http-routes: TypeScript files with a tagged template given type arguments
(`db.$queryRaw<Row[]>` then a template literal, TypeScript 2.9) are read: the grammar the
readers use rejects that form, so such a file was a `parse-error` and its routes lost. The
type arguments are blanked byte for byte (`ts_tagged`) and the file read again; a file still
broken after that stays a `parse-error` at its own first error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from pack_http_routes import make_scanner  # noqa: E402
from packs.routes import ts_tagged  # noqa: E402
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
    plain = ts_tagged.blanked(source)
    assert len(plain) == len(source)
    assert plain.count(b"\n") == source.count(b"\n")
    assert b"$queryRaw" + b" " * len(b"<Array<Record<string, Usage>>>") + b"`" in plain
    # a comparison is no type argument list: nothing before a backtick to blank
    assert ts_tagged.blanked(b"const x = a < b && c > d;\n") == b"const x = a < b && c > d;\n"


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
