"""Issue 34's construct classes that had no fixture of their own (the audit in
docs/detectors.md, "Construct classes and their fixtures"): each fixture here is adversarial code
written for this file, and each test fails if its construct goes silent or wrong. Every fixture
is also scanned as a repository through the pre-filter and parsing every file: the documents
must be the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import (
    document,
    finding_places,
    placed,
    prefix_unresolved,
    scanned_both_ways,
)

# -- item 2: settings chosen by `table[key]()` over a dict of settings classes ----------------

PROFILES_TABLE_CALLED_DIRECTLY: dict[str, str] = {
    "helpdesk/profiles.py": (
        "import os\n"
        "\n"
        "class Shared:\n"
        "    GATE = '/desk'\n"
        "\n"
        "class Local(Shared):\n"
        "    TRACE = True\n"
        "\n"
        "class Live(Shared):\n"
        "    TRACE = False\n"
        "\n"
        "PROFILES = {'local': Local, 'live': Live}\n"
        "active = PROFILES[os.getenv('DESK_PROFILE', 'local')]()\n"
        "fallback = PROFILES.get(os.getenv('DESK_PROFILE'), Local)()\n"
    ),
    "helpdesk/tickets.py": (
        "from flask import Blueprint\n"
        "\n"
        "queue = Blueprint('queue', __name__)\n"
        "\n"
        "@queue.route('/tickets/<int:number>', methods=['GET', 'PATCH'])\n"
        "def ticket(number): ...\n"
    ),
    "helpdesk/server.py": (
        "import os\n"
        "from flask import Flask\n"
        "from helpdesk import profiles\n"
        "from helpdesk.profiles import active, fallback\n"
        "from helpdesk.tickets import queue\n"
        "\n"
        "def make_site():\n"
        "    chosen = profiles.PROFILES[os.environ['DESK_PROFILE']]()\n"
        "    site = Flask(__name__)\n"
        "    site.register_blueprint(queue, url_prefix=chosen.GATE + '/v1', name='v1')\n"
        "    site.register_blueprint(queue, url_prefix=active.GATE + '/v2', name='v2')\n"
        "    site.register_blueprint(queue, url_prefix=fallback.GATE + '/v3', name='v3')\n"
        "    return site\n"
    ),
}


def test_settings_chosen_by_calling_an_item_of_a_dict_of_classes() -> None:
    """`active = PROFILES[env]()` and `PROFILES.get(env, Local)()` at module level, and
    `profiles.PROFILES[env]()` in a factory of another module: every class of the table
    inherits `GATE`, so the prefix is known (all were `UNRESOLVED_PREFIX`, only the `return
    table[env]()` of a function was read)."""
    files = PROFILES_TABLE_CALLED_DIRECTLY
    where = "helpdesk/tickets.py:5 flask"
    assert placed(files) == {
        "GET /desk/v1/tickets/{number}": where,
        "PATCH /desk/v1/tickets/{number}": where,
        "GET /desk/v2/tickets/{number}": where,
        "PATCH /desk/v2/tickets/{number}": where,
        "GET /desk/v3/tickets/{number}": where,
        "PATCH /desk/v3/tickets/{number}": where,
    }
    assert finding_places(files) == {}


def test_settings_chosen_from_classes_that_disagree_stay_unresolved() -> None:
    """One class of the table overrides the prefix: which one runs is decided at run time, so
    the prefix is an `UNRESOLVED_PREFIX` at the mount, never the first option named as a
    fact."""
    files = {
        **PROFILES_TABLE_CALLED_DIRECTLY,
        "helpdesk/profiles.py": PROFILES_TABLE_CALLED_DIRECTLY["helpdesk/profiles.py"].replace(
            "    TRACE = False\n", "    GATE = '/edge'\n"
        ),
    }
    assert prefix_unresolved(files) == ["GET /tickets/{number}", "PATCH /tickets/{number}"]
    assert sorted(set(finding_places(files)["UNRESOLVED_PREFIX"])) == [
        "helpdesk/server.py:10",
        "helpdesk/server.py:11",
        "helpdesk/server.py:12",
        "helpdesk/tickets.py:5",
    ]


# -- item 4: routes a library generates at run time -------------------------------------------

ROUTES_GENERATED_BY_LIBRARIES: dict[str, str] = {
    "clinic/extensions.py": (
        "from flask_admin import Admin as Backoffice\n"
        "from flask_restless import APIManager\n"
        "\n"
        "backoffice = Backoffice(name='clinic')\n"
        "rest = APIManager()\n"
    ),
    "clinic/wiring.py": (
        "from flask import Flask\n"
        "from flask_admin.contrib.sqla import ModelView\n"
        "from clinic.extensions import backoffice, rest\n"
        "from clinic.models import Patient, Visit, session\n"
        "\n"
        "def build():\n"
        "    clinic = Flask(__name__)\n"
        "    backoffice.init_app(clinic)\n"
        "    backoffice.add_view(ModelView(Patient, session))\n"
        "    rest.init_app(clinic)\n"
        "    rest.create_api(Visit, methods=['GET', 'POST'], url_prefix='/api/v2')\n"
        "\n"
        "    @clinic.route('/healthz')\n"
        "    def healthz(): ...\n"
        "    return clinic\n"
    ),
    "clinic/models.py": "session = None\nclass Patient: ...\nclass Visit: ...\n",
    "garden/api.py": (
        "from fastapi import FastAPI\n"
        "from fastapi_crudrouter import SQLAlchemyCRUDRouter as Crud\n"
        "from garden.schemas import Plant\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(\n"
        "    Crud(schema=Plant, prefix='plants'))\n"
        "\n"
        "@app.get('/season')\n"
        "def season(): ...\n"
    ),
    "garden/schemas.py": "class Plant: ...\n",
    "garden/admin.py": (  # the project's own `Admin`: no library, no finding
        "class Admin:\n    def add_view(self, view): ...\nAdmin().add_view(None)\n"
    ),
    "depot/server.js": (
        "const express = require('express');\n"
        "const restify = require('express-restify-mongoose');\n"
        "const Crate = require('./crate');\n"
        "const depot = express();\n"
        "const api = express.Router();\n"
        "restify.serve(api, Crate, { prefix: '/rest' });\n"
        "depot.use(api);\n"
        "depot.get('/status', (req, res) => res.end());\n"
    ),
    "depot/crate.js": "module.exports = {};\n",
    "depot/forms.js": (  # resourcejs: CRUD routes per model, configured by `.rest()`
        "const Resource = require('resourcejs');\n"
        "module.exports = (router, model) =>\n"
        "  Resource(router, '/form/:formId', 'action', model).rest({ before: [] });\n"
    ),
}


def test_routes_a_library_generates_at_run_time_are_named_where_it_is_configured() -> None:
    """Admin sites and REST CRUD generators serve routes no source declares: each is an
    `UNRESOLVED_ROUTE` naming the library in every file that imports it, at the call that
    configures it there (`add_view`, `serve(...)`), else at the import (an alias: `Admin as
    Backoffice`), beside the routes the files declare (all were silent once another route was
    read; a CRUD router was an anonymous `UNRESOLVED_ROUTER`)."""
    files = ROUTES_GENERATED_BY_LIBRARIES
    assert placed(files) == {
        "GET /healthz": "clinic/wiring.py:13 flask",
        "GET /season": "garden/api.py:9 fastapi",
        "GET /status": "depot/server.js:8 express",
    }
    generated: dict[str, list[tuple[str, int]]] = {}
    for f in document(files)["findings"]:
        if f["code"] == "UNRESOLVED_ROUTE":
            library = f["detail"].split(" is configured here")[0]
            generated.setdefault(library, []).extend((p["path"], p["line"]) for p in f["locations"])
    assert {library: sorted(places) for library, places in generated.items()} == {
        # Flask-Admin's admins and views are read (`flask_admin`): its library views are named
        # where they are made (the default index view at `Backoffice(...)`) and added
        "Flask-Admin": [("clinic/extensions.py", 4), ("clinic/wiring.py", 9)],
        "Flask-Restless": [("clinic/extensions.py", 2)],
        "fastapi-crudrouter": [("garden/api.py", 2)],
        "express-restify-mongoose": [("depot/server.js", 6)],
        "resourcejs": [("depot/forms.js", 3)],
    }


# -- item 5: third-party model bases, the silent ones -----------------------------------------

THIRD_PARTY_MODEL_BASES: dict[str, str] = {
    "catalog/models.py": (
        "from django.db import models\n"
        "from django.forms.models import ModelForm\n"
        "from cms_kit.models import Page as CmsPage, Orderable, PageQuerySet, LockableMixin\n"
        "from cms_kit.fields import ParentalKey\n"
        "import trash.models as trash\n"
        "\n"
        "class Landing(CmsPage):\n"
        "    pass\n"
        "\n"
        "class Teaser(Orderable):\n"
        "    page = ParentalKey('catalog.Landing', related_name='teasers')\n"
        "\n"
        "class Bin(trash.SoftDeletable):\n"
        "    class Meta:\n"
        "        ordering = ['id']\n"
        "\n"
        "class Book(models.Model):\n"
        "    title = models.CharField(max_length=80)\n"
        "\n"
        "class Published(models.Manager):\n"
        "    pass\n"
        "\n"
        "class ShelfQuerySet(PageQuerySet):\n"
        "    pass\n"
        "\n"
        "class Locked(LockableMixin):\n"
        "    pass\n"
        "\n"
        "class BookForm(ModelForm):\n"
        "    pass\n"
    ),
    "catalog/promos.py": "from catalog.models import Landing\n\nclass Promo(Landing):\n    pass\n",
    "catalog/forms.py": (
        "from django.forms.models import ModelForm\n\nclass TeaserForm(ModelForm):\n    pass\n"
    ),
}


def test_subclasses_of_another_apps_model_base_are_flagged_even_without_fields(
    tmp_path: Path,
) -> None:
    """A class below a base from another app's `models` module is a model whose table is not
    known, though it has no Django field of its own: an empty subclass (`Landing`, and `Promo`
    below it in another file), one whose only field is that app's relation (`Teaser`), one with
    a `Meta` of no table option (`Bin`): each an `UNKNOWN_MODEL_BASE` (all were silent).
    Managers, querysets, mixins and Django's own forms are no models; `Book` is a table."""
    import pack_django
    from packs import django_models
    from packs.scan import Scanner

    for name, text in THIRD_PARTY_MODEL_BASES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    documents, parsed = [], []
    for parse_all in (True, False):
        scanner = Scanner((".py",), django_models.extract, django_models.link,
                          language="Python", root=str(tmp_path), workers=1,
                          keywords=pack_django.KEYWORDS, base_keywords=pack_django.BASE_KEYWORDS,
                          follow=pack_django.FOLLOW, fields=pack_django.FIELDS,
                          parse_all=parse_all)  # fmt: skip
        documents.append(scanner.discover(["."]))
        parsed.append(scanner.parsed)
    assert json.dumps(documents[0], sort_keys=True) == json.dumps(documents[1], sort_keys=True)
    assert parsed[1] == 2  # the forms module is not parsed
    document = documents[1]
    assert [r["name"] for r in document["resources"]] == ["catalog_book"]
    flagged = [
        (p["path"], p["line"])
        for f in document["findings"]
        if f["code"] == "UNKNOWN_MODEL_BASE"
        for p in f["locations"]
    ]
    assert sorted(flagged) == [
        ("catalog/models.py", 7),
        ("catalog/models.py", 10),
        ("catalog/models.py", 13),
        ("catalog/promos.py", 3),
    ]


# -- item 9: a conditional mount with a computed alternative ----------------------------------

CONDITIONAL_MOUNTS_WITH_A_COMPUTED_ALTERNATIVE: dict[str, str] = {
    "observatory/settings.py": "import os\n\nMIRROR = os.environ.get('OBS_MIRROR')\n",
    "observatory/telescopes.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "scopes = APIRouter()\n"
        "\n"
        "@scopes.get('/scopes/{scope_id}')\n"
        "def scope(scope_id: int): ...\n"
        "\n"
        "@scopes.put('/scopes/{scope_id}/aim')\n"
        "def aim(scope_id: int): ...\n"
    ),
    "observatory/app.py": (
        "from fastapi import FastAPI\n"
        "from observatory import settings\n"
        "from observatory.telescopes import scopes\n"
        "\n"
        "def mirror_root():\n"
        "    return '/' + settings.MIRROR.strip('/')\n"
        "\n"
        "def assemble() -> FastAPI:\n"
        "    site = FastAPI()\n"
        "    if settings.MIRROR is None:\n"
        "        site.include_router(scopes, prefix='/sky')\n"
        "    else:\n"
        "        site.include_router(scopes, prefix=mirror_root())\n"
        "    return site\n"
    ),
    "relay/web/index.js": (
        "const express = require('express');\n"
        "const hooks = require('./hooks');\n"
        "const server = express();\n"
        "if (process.env.RELAY_BASE) {\n"
        "  server.use(process.env.RELAY_BASE, hooks);\n"
        "} else {\n"
        "  server.use('/relay', hooks);\n"
        "}\n"
    ),
    "relay/web/hooks.js": (
        "const { Router } = require('express');\n"
        "const hooks = Router();\n"
        "hooks.post('/hooks/:name', (req, res) => res.end());\n"
        "module.exports = hooks;\n"
    ),
    "relay/web/inline.js": (
        "const express = require('express');\n"
        "const spare = express();\n"
        "const pings = express.Router();\n"
        "pings.get('/ping', (req, res) => res.end());\n"
        "spare.use(process.env.SPARE ? `/${process.env.SPARE}` : '/spare', pings);\n"
    ),
}


def test_a_conditional_mount_with_a_computed_alternative_lists_each_route_once() -> None:
    """Each router is mounted under a literal prefix on one branch and a computed one on the
    other: its routes are listed once, under the known prefix; the computed mount is an
    `UNRESOLVED_PREFIX` listing them (they were listed a second time without the prefix). A
    ternary as Express's mount path is a prefix computed out of sight, never middleware that
    leaves the router at the root."""
    files = CONDITIONAL_MOUNTS_WITH_A_COMPUTED_ALTERNATIVE
    assert placed(files) == {
        "GET /sky/scopes/{scope_id}": "observatory/telescopes.py:5 fastapi",
        "PUT /sky/scopes/{scope_id}/aim": "observatory/telescopes.py:8 fastapi",
        "POST /relay/hooks/{name}": "relay/web/hooks.js:3 express",
        "GET /ping": "relay/web/inline.js:4 express",
    }
    # `if settings.MIRROR is None:` is a test the pack does not decide: the `/sky` mount is
    # listed as if it ran, flagged (never a silent inclusion), and still names its routes whole
    assert prefix_unresolved(files) == [
        "GET /ping",
        "GET /sky/scopes/{scope_id}",
        "PUT /sky/scopes/{scope_id}/aim",
    ]
    found = finding_places(files)
    assert set(found) == {"UNRESOLVED_PREFIX", "UNRESOLVED_ROUTE"}
    assert {
        "observatory/app.py:11",
        "observatory/app.py:13",
        "observatory/telescopes.py:5",
        "observatory/telescopes.py:8",
        "relay/web/inline.js:5",
        "relay/web/inline.js:4",
    } == set(found["UNRESOLVED_PREFIX"])
    # `if (process.env.RELAY_BASE)` is decided: the variable is unset by default, so that
    # mount does not run (a finding where it is written) and the `else` one serves the routes
    assert found["UNRESOLVED_ROUTE"] == ["relay/web/index.js:5"]


# -- item 8: Python 3.14's unparenthesised `except A, B:` in a route file ----------------------

EXCEPT_WITHOUT_PARENTHESES: dict[str, str] = {
    "meter/readings.py": (
        "import json\n"
        "from fastapi import APIRouter\n"
        "\n"
        "readings = APIRouter(prefix='/readings')\n"
        "\n"
        "def decode(raw):\n"
        "    try:\n"
        "        return json.loads(raw)\n"
        "    except ValueError, TypeError:\n"
        "        return None\n"
        "\n"
        "@readings.post('/{meter_id}')\n"
        "def record(meter_id: int): ...\n"
    ),
    "meter/main.py": (
        "from fastapi import FastAPI\n"
        "from meter.readings import readings\n"
        "\n"
        "app = FastAPI()\n"
        "try:\n"
        "    app.include_router(readings, prefix='/v1')\n"
        "except* LookupError, AttributeError:\n"
        "    raise\n"
    ),
}


def test_a_route_file_with_an_unparenthesised_except_is_read() -> None:
    """`except A, B:` (PEP 758, also `except*`) is read as `except (A, B):` on the same lines
    whatever the interpreter (the file was a `parse-error`, its routes and mounts lost)."""
    assert placed(EXCEPT_WITHOUT_PARENTHESES) == {
        "POST /v1/readings/{meter_id}": "meter/readings.py:12 fastapi"
    }
    assert finding_places(EXCEPT_WITHOUT_PARENTHESES) == {}


# -- item 8: Flow-typed JavaScript ------------------------------------------------------------

FLOW_TYPED_SERVICE: dict[str, str] = {
    "courier/src/parcels.js": (
        "/**\n"
        " * Parcel tracking endpoints.\n"
        " * @flow strict\n"
        " */\n"
        "import { Router } from 'express';\n"
        "import type { $Request, $Response } from 'express';\n"
        "import typeof Settings from './settings';\n"
        "\n"
        "export opaque type ParcelId: string = string;\n"
        "type Leg = {| +from: string, -to?: ?string |};\n"
        "type Route = { ...Leg, hops: Array<Leg> };\n"
        "\n"
        "function isParcel(x: mixed): boolean %checks {\n"
        "  return typeof x === 'string';\n"
        "}\n"
        "\n"
        "class Depot<T> {\n"
        "  +code: string;\n"
        "  stock: Array<T> = [];\n"
        "}\n"
        "\n"
        "const parcels: Router = Router();\n"
        "const track = (req: $Request, res: $Response): void => {\n"
        "  res.json(((req.params: any): Route));\n"
        "};\n"
        "parcels.get('/:parcel/track', track);\n"
        "parcels.post('/', async (req: $Request, res: $Response): Promise<void> => {\n"
        "  const seen: Map<string, *> = new Map();\n"
        "  res.json([...seen.keys()]);\n"
        "});\n"
        "export default parcels;\n"
    ),
    "courier/src/server.js": (
        "// @flow\n"
        "const express = require('express');\n"
        "const parcels = require('./parcels').default;\n"
        "const api: express$Application = express();\n"
        "api.use('/parcels', parcels);\n"
        "api.get('/healthz', (req: any, res: any) => res.end());\n"
    ),
    "courier/src/unmarked.js": (  # no pragma (Flow's `all=true`): read when TSX reads it whole
        "const { Router } = require('express');\n"
        "const admin = Router();\n"
        "admin.delete('/cache', (req: Object, res: Object): void => res.end());\n"
        "module.exports = admin;\n"
    ),
}


def test_flow_typed_javascript_is_read() -> None:
    """Every construct of Flow's type syntax in one file (annotations, `import type`/`typeof`,
    opaque types with a supertype, exact objects, variance, spreads in object types, `%checks`,
    `*`, casts): its routes and mounts are read at their lines, no `parse-error`."""
    files = FLOW_TYPED_SERVICE
    assert placed(files) == {
        "GET /parcels/{parcel}/track": "courier/src/parcels.js:26 express",
        "POST /parcels": "courier/src/parcels.js:27 express",
        "GET /healthz": "courier/src/server.js:6 express",
        "DELETE /cache": "courier/src/unmarked.js:3 express",
    }


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("// @flow\nconst a: number = 1;\nconst b = a +;\n", 3),  # the error, not the type
        ("const x = ;\n", 1),  # broken JavaScript is not read as TSX
        ("const t: number = 1;\nconst x = ;\n", 1),  # no pragma: JavaScript's first error
        ("// @flow\ntype T = { a: number };\nconst y = (;\n", 3),  # outside a type
    ],
)
def test_broken_javascript_stays_a_parse_error(source: str, line: int) -> None:
    """An error outside a type is the file's: a `parse-error` at its line (a Flow file's as
    TSX's grammar finds it), never a tree read past it."""
    from packs.routes import extract
    from packs.scan import ParseFailure

    with pytest.raises(ParseFailure) as failure:
        extract("broken.js", source)
    assert failure.value.args[0].startswith(f"line {line}:")


def test_flow_typed_models_are_read_by_the_tables_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pack-js-tables reads the same trees: a Mongoose model and a Sequelize one in Flow
    files are listed (each file was a `parse-error`)."""
    from pack_js_tables import make_scanner

    files = {
        "models/rider.js": (
            "// @flow\n"
            "import mongoose, { Schema } from 'mongoose';\n"
            "export type RiderDoc = {| name: string, +zone: ?string |};\n"
            "const riderSchema: Schema<RiderDoc> = new Schema({ name: String });\n"
            "export default mongoose.model<RiderDoc>('Rider', riderSchema);\n"
        ),
        "models/route.js": (
            "/* @flow */\n"
            "const { DataTypes } = require('sequelize');\n"
            "module.exports = (sequelize: Object): Object =>\n"
            "  sequelize.define('DeliveryRoute', { code: (DataTypes.STRING: any) },\n"
            "    { tableName: 'delivery_routes' });\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    documents = []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.root = str(tmp_path)
        scanner.workers = 1
        documents.append(scanner.discover(["."]))
    assert documents[0] == documents[1]
    assert sorted((r["kind"], r["name"]) for r in documents[1]["resources"]) == [
        ("collection", "riders"),
        ("table", "delivery_routes"),
    ]
    assert documents[1]["unresolved"] == []


FIXTURES = [
    PROFILES_TABLE_CALLED_DIRECTLY,
    EXCEPT_WITHOUT_PARENTHESES,
    ROUTES_GENERATED_BY_LIBRARIES,
    CONDITIONAL_MOUNTS_WITH_A_COMPUTED_ALTERNATIVE,
    FLOW_TYPED_SERVICE,
]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture as a repository: the pre-filtered scan equals parsing every file, and
    lists something."""
    for number, files in enumerate(FIXTURES):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files


# -- the audit table in docs/detectors.md is held to the tests --------------------------------

_SHORT = {
    "F": "test_pack_http_routes_follow.py",
    "P": "test_pack_http_routes_pyclasses.py",
    "B": "test_pack_http_routes_pybranches.py",
    "U": "test_pack_http_routes_unresolved.py",
    "C": "test_pack_construct_classes.py",
    "S": "test_pack_sqlalchemy.py",
}


def test_the_construct_class_table_names_tests_and_fixtures_that_exist() -> None:
    """Each `file::test` of docs/detectors.md's "Construct classes and their fixtures" is a
    test of that file (`::test` alone: the file named before it), and each `exactness/`
    fixture a folder: the note cites the table, so a renamed test cannot leave it stale."""
    import re

    packs = Path(__file__).resolve().parent
    docs = (packs.parents[1] / "docs" / "detectors.md").read_text(encoding="utf-8")
    start = docs.index("## Construct classes and their fixtures")
    table = docs[start : docs.index("\n## ", start + 1)]
    defined = {
        p.name: set(re.findall(r"^def (test_\w+)", p.read_text(encoding="utf-8"), re.M))
        for p in packs.glob("test_*.py")
    }
    cited, last = 0, ""
    for prefix, name in re.findall(r"`([^`]*?)::(test_\w+)`", table):
        if prefix.startswith("…_"):
            prefix = f"test_pack_http_routes_{prefix[2:]}"
        last = _SHORT.get(prefix, prefix) or last
        assert name in defined.get(last, set()), f"{last}::{name}"
        cited += 1
    assert cited >= 40
    for folder in re.findall(r"`exactness/([\w-]+)`", table):
        assert (packs.parent / "fixtures" / "exactness" / folder).is_dir(), folder
