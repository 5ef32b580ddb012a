"""pack-http-routes follows imports through a TypeScript/JavaScript project's module aliases
(`tsconfig.json`/`jsconfig.json` `baseUrl` and `paths`, `extends` chains, the nearest config
above the importing file), as TypeScript resolves them (issue 34 item 3): a router imported as
`@/routes/users` or `routes` is the repository's file, not a library; and a `#`-led specifier
no alias matches through the subpath `imports` of the importer's `package.json`, as Node does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes.tsconfig import best_pattern, config_facts, is_config, strip_jsonc
from routes_harness import document, placed, scanned_both_ways

EXPRESS_APP = (
    "import express from 'express';\n"
    "{imports}\n"
    "const app = express();\n"
    "{uses}\n"
    "export default app;\n"
)


def app(imports: dict[str, str], prefix: str = "") -> str:
    """An Express app mounting each imported router (name -> specifier) at `/<name>`."""
    return EXPRESS_APP.format(
        imports="\n".join(f"import {n} from '{s}';" for n, s in imports.items()),
        uses="\n".join(f"app.use('{prefix}/{n}', {n});" for n in imports),
    )


def router(verb: str, path: str) -> str:
    """A router module: its one route is on line 3."""
    return (
        "import { Router } from 'express';\nconst r = Router();\n"
        f"r.{verb}('{path}', (req, res) => res.end());\nexport default r;\n"
    )


# -- baseUrl only: a bare specifier is a path under it (`require('handlers')`, hapi-style) --

BASE_URL_ONLY = {
    "jsconfig.json": '{"compilerOptions": {"baseUrl": "server"}}',
    "server/main.js": (
        "const express = require('express');\n"
        "const handlers = require('handlers');\n"
        "const billing = require('web/billing');\n"
        "const app = express();\n"
        "app.use('/h', handlers);\n"
        "app.use('/b', billing);\n"
    ),
    "server/handlers/index.js": (
        "const { Router } = require('express');\nconst r = Router();\n"
        "r.get('/ping', (req, res) => res.end());\nmodule.exports = r;\n"
    ),
    "server/web/billing.js": (
        "const express = require('express');\nconst r = express.Router();\n"
        "r.post('/charge', (req, res) => res.end());\nmodule.exports = r;\n"
    ),
}


def test_a_bare_specifier_resolves_under_base_url() -> None:
    assert placed(BASE_URL_ONLY) == {
        "GET /h/ping": "server/handlers/index.js:3 express",
        "POST /b/charge": "server/web/billing.js:3 express",
    }
    assert document(BASE_URL_ONLY)["findings"] == []


# -- paths with one `*`: `@/x` and `~x` aliases, an exact pattern, the longest prefix wins --

PATHS_WITH_STAR = {
    "tsconfig.json": (
        '{"compilerOptions": {"paths": {"@/*": ["./src/*"], "~*": ["./src/lib/*"],'
        ' "@/routes/*": ["./src/http/routes/*"], "admin": ["./src/admin/entry.ts"]}}}'
    ),
    "src/main.ts": app(
        {"users": "@/routes/users", "health": "~health", "orders": "@/orders", "admin": "admin"}
    ),
    "src/http/routes/users.ts": router("get", "/:id"),
    "src/routes/users.ts": "export default { shadowed: true };\n",  # `@/*` loses to `@/routes/*`
    "src/lib/health.ts": router("get", "/live"),
    "src/orders/index.ts": router("put", "/:id"),
    "src/admin/entry.ts": router("delete", "/cache"),
}


def test_paths_patterns_resolve_with_the_longest_prefix_first() -> None:
    assert placed(PATHS_WITH_STAR) == {
        "GET /users/{id}": "src/http/routes/users.ts:3 express",
        "GET /health/live": "src/lib/health.ts:3 express",
        "PUT /orders/{id}": "src/orders/index.ts:3 express",
        "DELETE /admin/cache": "src/admin/entry.ts:3 express",
    }


# -- several substitutions: the first that names a file wins, then `baseUrl` --

FALLBACKS = {
    "tsconfig.json": (
        '{"compilerOptions": {"baseUrl": "app", "paths": {"#api/*": '
        '["generated/*", "handwritten/*", "legacy/*"]}}}'
    ),
    "app/server.ts": app({"reports": "#api/reports", "tags": "#api/tags", "misc": "misc/router"}),
    "app/handwritten/reports.ts": router("get", "/daily"),
    "app/legacy/reports.ts": "export default 'a later fallback, never reached';\n",
    "app/legacy/tags.ts": router("post", "/"),
    "app/misc/router.ts": router("get", "/about"),  # no pattern matches: under baseUrl
}


def test_substitutions_are_tried_in_order_then_base_url() -> None:
    assert placed(FALLBACKS) == {
        "GET /reports/daily": "app/handwritten/reports.ts:3 express",
        "POST /tags": "app/legacy/tags.ts:3 express",
        "GET /misc/about": "app/misc/router.ts:3 express",
    }


# -- `extends` of a relative config: its options unless the config sets its own --

EXTENDS = {
    "configs/tsconfig.shared.json": (
        '{"compilerOptions": {"baseUrl": "..", "paths": {"@core/*": ["packages/core/*"]}}}'
    ),
    "service/tsconfig.json": '{"extends": "../configs/tsconfig.shared", "compilerOptions": {}}',
    "service/index.ts": app({"accounts": "@core/accounts"}, prefix="/v2"),
    "packages/core/accounts.ts": router("patch", "/:accountId"),
    # a config overriding the inherited `paths` (replaced whole) and setting its own baseUrl
    "worker/tsconfig.json": (
        '{"extends": ["../configs/tsconfig.shared.json"],'
        ' "compilerOptions": {"baseUrl": ".", "paths": {"@jobs/*": ["jobs/*"]}}}'
    ),
    "worker/index.ts": app({"queue": "@jobs/queue", "accounts": "@core/accounts"}),
    "worker/jobs/queue.ts": router("post", "/drain"),
}


def test_an_extended_config_gives_the_options_the_config_does_not_set() -> None:
    assert placed(EXTENDS) == {
        "PATCH /v2/accounts/{accountId}": "packages/core/accounts.ts:3 express",
        "POST /queue/drain": "worker/jobs/queue.ts:3 express",
    }


# -- `${configDir}` in a shared base: the folder of the config in use, not the base's --

CONFIG_DIR = {
    "tsconfig.shared.json": (
        '{"compilerOptions": {"paths": {"#svc/*": ["${configDir}/handlers/*"]},'
        ' "baseUrl": "${configDir}/lib"}}'
    ),
    "one/tsconfig.json": '{"extends": "../tsconfig.shared.json"}',
    "one/main.ts": app({"jobs": "#svc/jobs", "misc": "misc"}, prefix="/one"),
    "one/handlers/jobs.ts": router("get", "/pending"),
    "one/lib/misc.ts": router("get", "/about"),
    "two/tsconfig.json": '{"extends": "../tsconfig.shared.json"}',
    "two/main.ts": app({"jobs": "#svc/jobs"}, prefix="/two"),
    "two/handlers/jobs.ts": router("post", "/retry"),
}


def test_config_dir_is_the_folder_of_the_config_in_use() -> None:
    assert placed(CONFIG_DIR) == {
        "GET /one/jobs/pending": "one/handlers/jobs.ts:3 express",
        "GET /one/misc/about": "one/lib/misc.ts:3 express",
        "POST /two/jobs/retry": "two/handlers/jobs.ts:3 express",
    }


# -- a monorepo: each file's nearest config decides, the same alias twice --

MONOREPO = {
    "tsconfig.json": '{"compilerOptions": {"paths": {"@app/*": ["./shared/*"]}}}',
    "apps/shop/tsconfig.json": '{"compilerOptions": {"paths": {"@app/*": ["./src/*"]}}}',
    "apps/shop/src/main.ts": app({"cart": "@app/cart"}, prefix="/shop"),
    "apps/shop/src/cart.ts": router("get", "/items"),
    "apps/blog/tsconfig.json": '{"compilerOptions": {"baseUrl": "lib"}}',
    "apps/blog/lib/server/main.ts": app({"posts": "routes/posts"}, prefix="/blog"),
    "apps/blog/lib/routes/posts.ts": router("get", "/recent"),
    "tools/admin.ts": app({"cart": "@app/cart"}, prefix="/admin"),  # the root config's alias
    "shared/cart.ts": router("delete", "/all"),
}


def test_the_nearest_config_above_each_file_decides() -> None:
    assert placed(MONOREPO) == {
        "GET /shop/cart/items": "apps/shop/src/cart.ts:3 express",
        "GET /blog/posts/recent": "apps/blog/lib/routes/posts.ts:3 express",
        "DELETE /admin/cart/all": "shared/cart.ts:3 express",
    }


# -- NestJS: two services declare a controller and a module of one name each; which module
# serves which controller, under which RouterModule path, is told by the imports (an alias
# of each service's tsconfig, a barrel's re-exports), not by the name --


def nest_service(root: str, path: str, barrel: bool) -> dict[str, str]:
    ledger = "@svc/ledger" if barrel else "@svc/ledger/ledger.module"
    entries = "@svc/ledger" if barrel else "@svc/ledger/entries.controller"
    files = {
        f"{root}/tsconfig.json": '{"compilerOptions": {"paths": {"@svc/*": ["./src/*"]}}}',
        f"{root}/src/root.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            "import { RouterModule } from '@nestjs/core';\n"
            f"import {{ LedgerModule }} from '{ledger}';\n"
            "@Module({ imports: [LedgerModule,"
            f" RouterModule.register([{{ path: '{path}', module: LedgerModule }}])] }})\n"
            "export class RootModule {}\n"
        ),
        f"{root}/src/ledger/ledger.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            f"import {{ EntriesController }} from '{entries}';\n"
            "@Module({ controllers: [EntriesController] })\n"
            "export class LedgerModule {}\n"
        ),
        f"{root}/src/ledger/entries.controller.ts": (
            "import { Controller, Get } from '@nestjs/common';\n"
            "@Controller('entries')\n"
            "export class EntriesController {\n"
            "  @Get(':entryId')\n"
            "  one() {}\n"
            "}\n"
        ),
    }
    if barrel:
        files[f"{root}/src/ledger/index.ts"] = (
            "export * from './ledger.module';\nexport { EntriesController } from"
            " './entries.controller';\n"
        )
    return files


TWO_NEST_SERVICES = {
    **nest_service("services/billing", "billing", barrel=False),
    **nest_service("services/audit", "audit", barrel=True),
}


def test_nest_modules_of_one_name_are_told_apart_by_their_imports() -> None:
    assert placed(TWO_NEST_SERVICES) == {
        "GET /billing/entries/{entryId}": (
            "services/billing/src/ledger/entries.controller.ts:4 nestjs"
        ),
        "GET /audit/entries/{entryId}": "services/audit/src/ledger/entries.controller.ts:4 nestjs",
    }
    assert document(TWO_NEST_SERVICES)["findings"] == []


def crud_service(root: str, verb: str, prefix: str) -> dict[str, str]:
    """A service whose controller extends its own `ResourceBase`, imported through an alias."""
    return {
        f"{root}/tsconfig.json": '{"compilerOptions": {"paths": {"~shared/*": ["./common/*"]}}}',
        f"{root}/common/resource.base.ts": (
            f"import {{ {verb.title()} }} from '@nestjs/common';\n"
            "export abstract class ResourceBase {\n"
            f"  @{verb.title()}('bulk')\n"
            "  bulk() {}\n"
            "}\n"
        ),
        f"{root}/api/tags.controller.ts": (
            "import { Controller } from '@nestjs/common';\n"
            "import { ResourceBase } from '~shared/resource.base';\n"
            f"@Controller('{prefix}')\n"
            "export class TagsController extends ResourceBase {}\n"
        ),
    }


TWO_BASES = {**crud_service("north", "get", "tags"), **crud_service("south", "delete", "labels")}


def test_nest_base_classes_of_one_name_are_told_apart_by_their_imports() -> None:
    assert placed(TWO_BASES) == {
        "GET /tags/bulk": "north/common/resource.base.ts:3 nestjs",
        "DELETE /labels/bulk": "south/common/resource.base.ts:3 nestjs",
    }


# -- JSON with comments and trailing commas, as `tsc` reads it --

JSONC = {
    "tsconfig.json": (
        "// the project's config\n"
        "{\n"
        '  /* aliases */ "compilerOptions": {\n'
        '    "baseUrl": "./src", // the sources\n'
        '    "paths": { "@http/*": ["http/*",], },\n'
        '    "outDir": "dist/* not a comment */",\n'
        "  },\n"
        "}\n"
    ),
    "src/index.ts": app({"metrics": "@http/metrics"}),
    "src/http/metrics.ts": router("get", "/prom"),
}


def test_a_config_with_comments_and_trailing_commas_is_read() -> None:
    assert placed(JSONC) == {"GET /metrics/prom": "src/http/metrics.ts:3 express"}


def test_strip_jsonc_keeps_strings_whole() -> None:
    text = '{"a": "x // y", "b": "/* z */", "c": [1, 2,], "d": "\\" //",}'
    assert strip_jsonc(text) == '{"a": "x // y", "b": "/* z */", "c": [1, 2], "d": "\\" //"}'
    assert config_facts("{ not json").bindings == {}


def test_config_names_and_the_best_pattern() -> None:
    assert is_config("a/tsconfig.json") and is_config("tsconfig.base.json")
    assert is_config("web/jsconfig.json") and not is_config("a/mytsconfig.json")
    assert best_pattern(["@/*", "@/a/*", "@/a/b"], "@/a/b") == ("@/a/b", "")
    assert best_pattern(["@/*", "@/a/*"], "@/a/b") == ("@/a/*", "b")
    assert best_pattern(["*.svc", "x"], "y") is None


# -- auth evidence behind an alias: the guard is the repository's, read, not a library --

GUARDED = {
    "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}',
    "src/security/session.ts": (
        "import passport from 'passport';\n"
        "import morgan from 'morgan';\n"
        "export const mustSignIn = passport.authenticate('bearer', { session: false });\n"
        "export const accessLog = morgan('tiny');\n"
    ),
    "src/server.ts": (
        "import express from 'express';\n"
        "import { mustSignIn, accessLog } from '@/security/session';\n"
        "const app = express();\n"
        "app.get('/account', mustSignIn, (req, res) => res.end());\n"
        "app.get('/status', accessLog, (req, res) => res.end());\n"
    ),
}


def test_a_guard_imported_through_an_alias_is_evidence() -> None:
    signals = {s["resource"]: s["value"] for s in document(GUARDED)["signals"]}
    assert signals == {"route:GET /account": "required", "route:GET /status": "none"}


def test_an_alias_that_lands_nowhere_is_a_library_as_before() -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
        "src/main.ts": app({"gone": "@/missing"}),
    }
    assert placed(files) == {}


# -- a package's subpath imports (`"imports"`): `#`-led specifiers inside the package --

SUBPATH_IMPORTS = {
    "package.json": (
        '{"name": "site", "type": "module", "imports": {"#routes/*": "./src/routes/*",'
        ' "#shop": {"node": "./src/shop/index.js", "default": "./dist/shop.js"},'
        ' "#routes/legacy/*": "./old/*", "#vendor": "left-pad"}}'
    ),
    "src/main.js": app(
        {"users": "#routes/users.js", "shop": "#shop", "legacy": "#routes/legacy/orders.js"}
    ),
    "src/routes/users.js": router("get", "/:id"),
    "src/shop/index.js": router("post", "/cart"),
    "old/orders.js": router("delete", "/:orderId"),  # the longest `*` key's prefix wins
    # a package of its own inside: its own `imports`, not the outer one's
    "tools/admin/package.json": '{"imports": {"#routes/*": "./handlers/*"}}',
    "tools/admin/main.js": app({"jobs": "#routes/jobs.js"}, prefix="/admin"),
    "tools/admin/handlers/jobs.js": router("get", "/pending"),
    "src/routes/jobs.js": "export default 'the outer package: never reached';\n",
}


def test_subpath_imports_resolve_in_the_importers_package() -> None:
    assert placed(SUBPATH_IMPORTS) == {
        "GET /users/{id}": "src/routes/users.js:3 express",
        "POST /shop/cart": "src/shop/index.js:3 express",
        "DELETE /legacy/{orderId}": "old/orders.js:3 express",
        "GET /admin/jobs/pending": "tools/admin/handlers/jobs.js:3 express",
    }


def test_a_project_alias_for_a_hash_specifier_wins_over_subpath_imports() -> None:
    files = {
        **SUBPATH_IMPORTS,
        "jsconfig.json": '{"compilerOptions": {"paths": {"#routes/*": ["./lib/*"]}}}',
        "lib/users.js": router("put", "/:id"),
    }
    assert placed(files)["PUT /users/{id}"] == "lib/users.js:3 express"


ALL = {  # each with a route only an alias reaches under its full path
    "base-url-only": (BASE_URL_ONLY, "GET /h/ping"),
    "paths-with-star": (PATHS_WITH_STAR, "GET /users/{id}"),
    "fallbacks": (FALLBACKS, "GET /reports/daily"),
    "extends": (EXTENDS, "PATCH /v2/accounts/{accountId}"),
    "monorepo": (MONOREPO, "GET /blog/posts/recent"),
    "jsonc": (JSONC, "GET /metrics/prom"),
    "config-dir": (CONFIG_DIR, "POST /two/jobs/retry"),
    "nest-services": (TWO_NEST_SERVICES, "GET /audit/entries/{entryId}"),
    "nest-bases": (TWO_BASES, "DELETE /labels/bulk"),
    "subpath-imports": (SUBPATH_IMPORTS, "GET /admin/jobs/pending"),
}


@pytest.mark.parametrize("name", sorted(ALL))
def test_the_pre_filtered_scan_is_the_scan_of_every_file(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the configs are walked by name (`tsconfig.shared.json` too) and parsed when the linker
    # resolves through them, in both modes
    files, route = ALL[name]
    documents, parsed = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert '"unresolved": []' in documents[1] and f'"name": "{route}"' in documents[1]
    assert parsed[1] <= parsed[0]
