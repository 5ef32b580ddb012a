"""pack-http-routes: the API documentation a NestJS bootstrap serves through a library's setup
call (`nest_docs`): `SwaggerModule.setup(path, app, doc, options)` of `@nestjs/swagger` and
`RedocModule.setup(path, app, doc, options)` of `nestjs-redoc`, which register routes on the
app's adapter that no controller declares. Listed at the call with `attrs.library`, by the
version the nearest `package.json` declares and the options written there; a computed option,
a version outside those read, or routes only some admitted versions serve: an
`UNRESOLVED_ROUTE` at the call, never silence."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

_MODULE = (
    "import { Module } from '@nestjs/common';\n"
    "import { Controller, Get } from '@nestjs/common';\n"
    "@Controller('ping')\n"
    "export class PingController { @Get() ping() { return 1; } }\n"
    "@Module({ controllers: [PingController] })\n"
    "export class RootModule {}\n"
)


def _repo(main: str, swagger: str = "7.3.0", **more: str) -> dict[str, str]:
    deps = {"@nestjs/core": "^10.0.0", "@nestjs/common": "^10.0.0", **more}
    if swagger:
        deps["@nestjs/swagger"] = swagger
    return {
        "package.json": json.dumps({"name": "api", "private": True, "dependencies": deps}),
        "src/root.module.ts": _MODULE,
        "src/main.ts": main,
    }


def _boot(body: str, imports: str = "") -> str:
    return (
        "import { NestFactory } from '@nestjs/core';\n"
        "import { SwaggerModule as Explorer, DocumentBuilder } from '@nestjs/swagger';\n"
        f"{imports}"
        "import { RootModule } from './root.module';\n"
        "async function start() {\n"
        "  const server = await NestFactory.create(RootModule);\n"
        "  const spec = Explorer.createDocument(server, new DocumentBuilder().build());\n"
        f"{body}"
        "  await server.listen(8080);\n"
        "}\n"
        "start();\n"
    )


def _listed(files: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Route name -> (`file:line`, its `attrs.library`) for the routes a library serves."""
    return {
        str(r["name"]): (f"{r['location']['path']}:{r['location']['line']}", r["attrs"]["library"])
        for r in document(files)["resources"]
        if r["attrs"].get("library")
    }


def _unresolved(files: dict[str, str]) -> list[tuple[str, str]]:
    """(`file:line`, message) of each `UNRESOLVED_ROUTE`."""
    return [
        (f"{p['path']}:{p['line']}", str(f["detail"]))
        for f in document(files)["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
        for p in f["locations"]
    ]


def test_swagger_7_3_under_an_aliased_class_serves_its_page_scripts_and_documents() -> None:
    files = _repo(_boot("  Explorer.setup('reference', server, spec);\n"))
    assert _listed(files) == {
        name: ("src/main.ts:7", "@nestjs/swagger")
        for name in (
            "GET /reference",
            "GET /reference/swagger-ui-init.js",
            "GET /reference/reference/swagger-ui-init.js",
            "GET /reference-json",
            "GET /reference-yaml",
        )
    }
    assert "GET /ping" in {r["name"] for r in document(files)["resources"]}
    assert _unresolved(files) == []


def test_swagger_11_adds_index_and_license_and_reads_ui_raw_and_document_urls() -> None:
    options = "{ jsonDocumentUrl: 'spec.json', raw: ['json'], customSiteTitle: 'x' }"
    files = _repo(_boot(f"  Explorer.setup('/v1/explore', server, spec, {options});\n"), "~11.2.4")
    assert set(_listed(files)) == {
        "GET /v1/explore",
        "GET /v1/explore/index.html",
        "GET /v1/explore/LICENSE",
        "GET /v1/explore/swagger-ui-init.js",
        "GET /v1/explore/explore/swagger-ui-init.js",
        "GET /spec.json",
    }
    off = _repo(_boot("  Explorer.setup('docs', server, spec, { ui: false });\n"), "^8.1.0")
    assert set(_listed(off)) == {"GET /docs-json", "GET /docs-yaml"}
    assert _unresolved(off) == []  # `index.html` from 8.0, `LICENSE` from 11.2.1: the UI is off


def test_swagger_path_from_an_env_default_and_the_global_prefix_when_asked() -> None:
    body = (
        "  server.setGlobalPrefix('api');\n"
        "  const at = process.env.DOCS_PATH || 'docs';\n"
        "  Explorer.setup(at, server, spec, { useGlobalPrefix: true, swaggerUiEnabled: false });\n"
    )
    files = _repo(_boot(body), "7.4.2")
    assert set(_listed(files)) == {"GET /api/docs-json", "GET /api/docs-yaml"}
    plain = _repo(_boot("  server.setGlobalPrefix('api');\n  Explorer.setup('d', server, spec);\n"))
    assert "GET /d-json" in _listed(plain)  # the library applies no prefix unless asked


def test_swagger_on_fastify_lists_the_static_routes_its_assets_take() -> None:
    imports = "import { FastifyAdapter } from '@nestjs/platform-fastify';\n"
    files = _repo(_boot("  Explorer.setup('docs', server, spec);\n", imports), "^7.3.0")
    listed = _listed(files)
    assert {"GET /docs/*", "GET /docs/docs/*", "GET /docs"} <= set(listed)
    assert "GET /docs/*" not in _listed(_repo(_boot("  Explorer.setup('docs', server, spec);\n")))


def test_what_reading_cannot_tell_is_a_finding_at_the_call_never_silence() -> None:
    computed = _repo(_boot("  Explorer.setup(pickPath(), server, spec);\n"))
    assert _listed(computed) == {}
    assert [p for p, m in _unresolved(computed) if "@nestjs/swagger" in m] == ["src/main.ts:7"]
    prefixed = _repo(_boot("  Explorer.setup('d', server, spec, { useGlobalPrefix: true });\n"))
    assert [p for p, m in _unresolved(prefixed) if "global prefix" in m] == ["src/main.ts:7"]
    old = _repo(_boot("  Explorer.setup('d', server, spec);\n"), "^5.2.0")
    assert [p for p, m in _unresolved(old) if "outside" in m] == ["src/main.ts:7"]
    spread = _repo(_boot("  Explorer.setup('d', server, spec);\n"), ">=7.3.0 <8.1.0")
    assert "GET /d-json" in _listed(spread)
    assert [p for p, m in _unresolved(spread) if "index.html" in m] == ["src/main.ts:7"]


def test_redoc_serves_its_page_and_document_by_doc_name() -> None:
    imports = "import { RedocModule } from 'nestjs-redoc';\n"
    body = (
        "  const look = { docName: 'openapi', title: 'API' };\n"
        "  await RedocModule.setup('/guide', server, spec, look);\n"
    )
    files = _repo(_boot(body, imports), "", **{"nestjs-redoc": "2.2.2"})
    assert _listed(files) == {
        "GET /guide": ("src/main.ts:9", "nestjs-redoc"),
        "GET /guide/openapi.json": ("src/main.ts:9", "nestjs-redoc"),
    }


def test_a_setup_of_another_class_is_none() -> None:
    body = "  const Other = { setup: (p: string) => p };\n  Other.setup('/x');\n"
    assert _listed(_repo(_boot(body))) == {}


def test_the_pre_filter_admits_a_file_holding_only_the_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = (
        "import { INestApplication } from '@nestjs/common';\n"
        "import { SwaggerModule } from '@nestjs/swagger';\n"
        "export function docs(app: INestApplication) {\n"
        "  SwaggerModule.setup('docs', app, SwaggerModule.createDocument(app, {} as any));\n"
        "}\n"
    )
    files = {**_repo(_boot("")), "src/docs.ts": helper}
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert "GET /docs-json" in {r["name"] for r in json.loads(documents[1])["resources"]}


def test_the_adapter_declared_beside_the_setup_decides_the_static_routes() -> None:
    helper = "  Explorer.setup('docs', server, spec);\n"
    fastify = _repo(_boot(helper), "^7.3.0", **{"@nestjs/platform-fastify": "^10.0.0"})
    assert {"GET /docs/*", "GET /docs/docs/*"} <= set(_listed(fastify))
    both = {"@nestjs/platform-fastify": "^10.0.0", "@nestjs/platform-express": "^10.0.0"}
    unsure = _repo(_boot(helper), "^7.3.0", **both)
    assert "GET /docs/*" not in _listed(unsure) and "GET /docs-json" in _listed(unsure)
    assert [p for p, m in _unresolved(unsure) if "GET /docs/*" in m] == ["src/main.ts:7"]
    redoc = _repo(
        _boot(
            "  RedocModule.setup('r', server, spec);\n",
            "import { RedocModule } from 'nestjs-redoc';\n",
        ),
        "",
        **{"nestjs-redoc": "^2.2.0", "@nestjs/platform-fastify": "^10.0.0"},
    )
    assert _listed(redoc) == {}  # it throws on Fastify's adapter


def test_a_setup_under_a_test_the_defaults_decide_is_listed_only_where_it_runs() -> None:
    """A setup inside `if (process.env.NODE_ENV === 'development')` (or its helper) is not run
    by the defaults (NODE_ENV unset or `production`): its routes are not listed, a finding says
    why; the same setup under `!== 'production'` runs and is listed."""
    dev_only = _boot(
        "  if (process.env.NODE_ENV === 'development') {\n"
        "    Explorer.setup('private', server, spec);\n"
        "  }\n"
        "  if (process.env.NODE_ENV !== 'production') {\n"
        "    Explorer.setup('public', server, spec);\n"
        "  }\n"
    )
    listed = _listed(_repo(dev_only))
    assert "GET /public" in listed
    assert not [name for name in listed if name.startswith("GET /private")]
    skipped = [
        f"{p['path']}:{p['line']}"
        for f in document(_repo(dev_only))["findings"]
        for p in f["locations"]
    ]
    assert "src/main.ts:8" in skipped
