"""pack-http-routes: route records the project's own functions make, registered by a loop with
a computed method (`list.forEach((r) => router[r.method](`/${r.version ?? 'v1'}${r.path}`,
r.handler))`). Each endpoint file calls a factory (curried, `make(spec)(handler)`, or plain,
generic in TypeScript, exported by another module) whose parameters are destructured and whose
returned record (a closure's `const`, object shorthand) holds them; per-area lists gather the
endpoints, the registering file spreads the lists. One route per record, at the factory's call
where the endpoint is written; an item the evaluator does not know is a finding at the loop,
and items pushed onto the list later by a generator are a finding at the push naming it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import findings_of, places_of, pre_filtered, write_files

FACTORY = (
    "export function makeEndpoint<S extends object>(spec: S & { verb: string; url: string }) {\n"
    "  const { verb: method, url, gate, release } = spec as any;\n"
    "  return <R,>(fn: (req: unknown) => Promise<R>) => {\n"
    "    const run = async (req: any, res: any) => res.json(await fn(req));\n"
    "    const record: { method: string } & Record<string, unknown> = {\n"
    "      method,\n"
    "      path: url,\n"
    "      release,\n"
    "      gate,\n"
    "      handler: run,\n"
    "    };\n"
    "    return record;\n"
    "  };\n"
    "}\n"
    "export const plainEndpoint = (spec: { verb: string; url: string }, fn: unknown) => ({\n"
    "  method: spec.verb,\n"
    "  path: spec.url,\n"
    "  handler: fn,\n"
    "});\n"
)

FILES: dict[str, str] = {
    "package.json": '{"dependencies": {"express": "4"}}',
    "lib/endpoint.ts": FACTORY,
    "lib/specs.ts": 'export const readWidgetSpec = {\n  verb: "get" as const,\n  url: "/widgets/:wid",\n};\n',
    # the spec a module constant of the endpoint's own file, `as const`
    "areas/widgets/createWidget.ts": (
        'import { makeEndpoint } from "../../lib/endpoint";\n'
        'const spec = { verb: "post" as const, url: "/widgets/:wid", body: 1 };\n'
        "export const createWidget = makeEndpoint(spec)(async (req) => {\n"
        "  return { made: true };\n"
        "});\n"
    ),
    # the spec imported from another module; the factory called with a type argument
    "areas/widgets/readWidget.ts": (
        'import { makeEndpoint } from "../../lib/endpoint";\n'
        'import { readWidgetSpec } from "../../lib/specs";\n'
        "type Spec = typeof readWidgetSpec;\n"
        "export const readWidget = makeEndpoint<Spec>(readWidgetSpec)(async () => ({}));\n"
    ),
    # the spec written in the call, its own release: `v2`
    "areas/widgets/listWidgets.ts": (
        'import { makeEndpoint } from "../../lib/endpoint";\n'
        "export const listWidgets = makeEndpoint({\n"
        '  verb: "get",\n'
        '  url: "/widgets",\n'
        '  release: "v2",\n'
        "})(async () => []);\n"
    ),
    "areas/widgets/widgets.routes.ts": (
        'import { createWidget } from "./createWidget";\n'
        'import { readWidget } from "./readWidget";\n'
        'import { listWidgets } from "./listWidgets";\n'
        "export const widgetRoutes = [createWidget, readWidget, listWidgets];\n"
    ),
    # a plain factory with a module constant read by shorthand; a library's record
    "areas/gears/gears.routes.ts": (
        'import { plainEndpoint } from "../../lib/endpoint";\n'
        'import { opaqueRecord } from "record-kit";\n'
        'const verb = "delete";\n'
        "export const gearRoutes = [\n"
        '  plainEndpoint({ verb, url: "/gears/:gid" }, () => 1),\n'
        "  opaqueRecord(),\n"
        "];\n"
    ),
    "areas/gen.ts": "export function recordsFor(kind: string) {\n  return [{ method: 'get', path: `/${kind}` }];\n}\n",
    "areas/registry.ts": (
        'import { Router } from "express";\n'
        'import { widgetRoutes } from "./widgets/widgets.routes";\n'
        'import { gearRoutes } from "./gears/gears.routes";\n'
        'import { recordsFor } from "./gen";\n'
        "const api = Router();\n"
        "export const everyRoute = [...widgetRoutes, ...gearRoutes];\n"
        'const KINDS = ["bolts", "nuts"];\n'
        "KINDS.forEach((kind) => {\n"
        "  const made = recordsFor(kind);\n"
        "  everyRoute.push(...made);\n"
        "});\n"
        "everyRoute.forEach((entry) => {\n"
        "  if (!entry.method) {\n"
        "    return;\n"
        "  }\n"
        '  const release = entry.release ?? "v1";\n'
        "  const full = `/${release}${entry.path}`;\n"
        "  if (entry.gate) {\n"
        "    api[entry.method](full, entry.gate, entry.handler);\n"
        "  } else {\n"
        "    api[entry.method](full, entry.handler);\n"
        "  }\n"
        "});\n"
        "export default api;\n"
    ),
    "server.ts": (
        'import express from "express";\n'
        'import api from "./areas/registry";\n'
        "const app = express();\n"
        'app.use("/svc", api);\n'
        "app.listen(8080);\n"
    ),
}


def test_records_made_by_the_project_s_factories_are_routes_at_the_factory_s_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A curried factory's record (`makeEndpoint(spec)(h)`: the spec a constant of the file,
    imported, or written in the call), a plain factory's (`plainEndpoint({ verb, url }, h)`),
    gathered in per-area lists and spread into the one the loop iterates: each record's
    method and path, its `release ?? 'v1'` per record, placed at the factory's call (both
    registrations of the loop's `if`/`else` give the same routes)."""
    write_files(tmp_path, FILES)
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "POST /svc/v1/widgets/{wid}": ("areas/widgets/createWidget.ts", 3),
        "GET /svc/v1/widgets/{wid}": ("areas/widgets/readWidget.ts", 4),
        "GET /svc/v2/widgets": ("areas/widgets/listWidgets.ts", 2),
        "DELETE /svc/v1/gears/{gid}": ("areas/gears/gears.routes.ts", 5),
    }


def test_an_item_not_evaluated_and_items_pushed_by_a_generator_are_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`opaqueRecord()` of a library is no record the evaluator knows: a finding at each
    registration of the loop; the records `recordsFor(kind)` pushes onto the list at run
    time are a finding at the push, naming the generator."""
    write_files(tmp_path, FILES)
    document = pre_filtered(tmp_path, monkeypatch)[0]
    found = findings_of(document)
    assert ("UNRESOLVED_ROUTE", [("areas/registry.ts", 10)]) in found
    assert ("UNRESOLVED_ROUTE", [("areas/registry.ts", 19)]) in found
    assert ("UNRESOLVED_ROUTE", [("areas/registry.ts", 21)]) in found
    pushed = [f for f in document["findings"] if f["locations"][0]["line"] == 10]
    assert "recordsFor" in str(pushed[0]["detail"])
    assert len(found) == 3


def test_a_spec_from_a_workspace_package_s_forwarding_script_is_read_from_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import { spec } from 'kit/checks'` where the package's `checks.js` only forwards to
    build output the repository does not hold (`require('./dist/checks')`) and `checks.d.ts`
    beside it re-exports the source: the spec is read from the source, as TypeScript reads
    the package; a forwarding script whose output is there is followed as Node does."""
    files = {
        "package.json": '{"name": "root", "private": true, "workspaces": ["kit", "svc"]}',
        "kit/package.json": '{"name": "kit", "main": "dist/index.js"}',
        "kit/checks.js": 'module.exports = require("./dist/checks");\n',
        "kit/checks.d.ts": 'export * from "./src/checks";\n',
        "kit/src/checks/index.ts": 'export * from "./gizmo";\n',
        "kit/src/checks/gizmo.ts": 'export const gizmoSpec = { verb: "get", url: "/gizmos/:id" };\n',
        "kit/built.js": 'module.exports = require("./lib/built");\n',
        "kit/built.d.ts": 'export * from "./src/wrong";\n',
        "kit/lib/built.js": 'exports.boltSpec = { verb: "put", url: "/bolts" };\n',
        "kit/src/wrong.ts": 'export const boltSpec = { verb: "put", url: "/wrong" };\n',
        "svc/package.json": '{"name": "svc", "dependencies": {"express": "4", "kit": "*"}}',
        "svc/endpoint.ts": FACTORY,
        "svc/gizmo.ts": (
            'import { gizmoSpec } from "kit/checks";\n'
            'import { boltSpec } from "kit/built";\n'
            'import { makeEndpoint } from "./endpoint";\n'
            "export const readGizmo = makeEndpoint(gizmoSpec)(async () => ({}));\n"
            "export const putBolt = makeEndpoint(boltSpec)(async () => ({}));\n"
            "export const gizmoRoutes = [readGizmo, putBolt];\n"
        ),
        "svc/server.ts": (
            'import express from "express";\n'
            'import { gizmoRoutes } from "./gizmo";\n'
            "const app = express();\n"
            "const every = [...gizmoRoutes];\n"
            "every.forEach((r) => app[r.method](`/${r.release || 'v1'}${r.path}`, r.handler));\n"
            "app.listen(1);\n"
        ),
    }
    write_files(tmp_path, files)
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /v1/gizmos/{id}": ("svc/gizmo.ts", 4),
        "PUT /v1/bolts": ("svc/gizmo.ts", 5),
    }
    assert findings_of(document) == []
