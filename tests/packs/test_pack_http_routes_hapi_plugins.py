"""pack-http-routes: hapi plugins as a project's own modules write them. Route lists passed
through the project's functions (`server.route([{ method, path, ...ctl }].map(adminOnly))`,
`adminOnly` what a call of a curried helper returns: written there, a `const` of the file, or
exported by another module; `.map(r => adminOnly(r))`), read by calling what the helper returns
with each item; route lists given as a plugin's options (`server.register({ plugin: wizard,
options: { routes: [...] } })`, the plugin doing `server.route(options.routes)`), each
registration's list on its own router; plugin modules that import nothing of hapi's (a
`register` given a list or a `{ plugin }` object, or written in a plugin's own `register`), so
what they register is linked; and a registration the pack recognises but cannot read (a route
path a file-system router computes from file names) a finding where it is written, naming the
files the router's glob would load."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    located,
    prefix_unresolved,
    scanned_both_ways,
)

MANIFEST = '{"type": "module", "dependencies": {"@hapi/hapi": "^21.0.0"}}\n'
# The server: plugins registered from modules that never name hapi themselves.
SERVER = (
    "import Hapi from '@hapi/hapi'\n"
    "import { library } from './library/plugin.js'\n"
    "const server = Hapi.server({ port: 8080 })\n"
    "await server.register([library])\n"
)

# -- A: route lists mapped through the project's functions --

GUARDS = (
    "// the route options each route gets, and a path under a base\n"
    "export function onlyFor(roles) {\n"
    "  return (route) => ({\n"
    "    ...route,\n"
    "    options: { ...route.options, auth: { mode: 'required', access: { scope: roles } } },\n"
    "  })\n"
    "}\n"
    "export const within = (base) => (route) => ({ ...route, path: base + route.path })\n"
    "export const librarians = onlyFor(['librarian'])\n"
)
MAPPED: dict[str, str] = {
    "package.json": MANIFEST,
    "src/server.js": SERVER,
    "src/guards.js": GUARDS,
    "src/library/handlers.js": (
        "export const shelfView = { handler: () => 'shelf' }\n"
        "export const loanForm = { options: { id: 'loan' }, handler: () => 'form' }\n"
    ),
    "src/library/plugin.js": (
        "import { onlyFor, within, librarians } from '../guards.js'\n"
        "import { shelfView, loanForm } from './handlers.js'\n"
        "const members = onlyFor(['member'])\n"
        "export const library = {\n"
        "  plugin: {\n"
        "    name: 'library',\n"
        "    register: (server) => {\n"
        "      server.route(\n"
        "        [\n"
        "          { method: 'GET', path: '/shelves/{shelfId}', ...shelfView },\n"
        "          { method: 'POST', path: '/loans/{copyId?}', ...loanForm },\n"
        "        ].map(members)\n"
        "      )\n"
        "      server.route([{ method: 'PUT', path: '/stock/{isbn}', ...shelfView }].map(librarians))\n"
        "      server.route([{ method: 'GET', path: '/ledger', ...shelfView }].map(onlyFor(['clerk'])))\n"
        "      server.route([{ method: 'GET', path: '/returns', ...shelfView }].map((r) => members(r)))\n"
        "      server.route([{ method: 'DELETE', path: '/holds/{id}', ...shelfView }].map(within('/v2')))\n"
        "    },\n"
        "  },\n"
        "}\n"
    ),
}


def test_a_list_mapped_through_what_a_helper_returns_keeps_each_route() -> None:
    assert located(MAPPED) == {
        "GET /shelves/{shelfId}": "src/library/plugin.js:8",  # the call that registers it
        "POST /loans/{copyId?}": "src/library/plugin.js:8",
        "PUT /stock/{isbn}": "src/library/plugin.js:14",  # `librarians`: another module's
        "GET /ledger": "src/library/plugin.js:15",  # the helper called in place
        "GET /returns": "src/library/plugin.js:16",  # called in an arrow with each item
        "DELETE /v2/holds/{id}": "src/library/plugin.js:17",  # the helper's argument bound
    }
    assert not document(MAPPED)["findings"]


def test_a_list_mapped_through_a_library_function_is_a_finding_at_the_call() -> None:
    files = {
        **MAPPED,
        "src/library/plugin.js": (
            "import { scoped } from 'route-scopes'\n"
            "import { shelfView } from './handlers.js'\n"
            "export const library = { plugin: { name: 'library', register: (server) => {\n"
            "  server.route([{ method: 'GET', path: '/shelves', ...shelfView }].map(scoped('x')))\n"
            "} } }\n"
        ),
    }
    assert located(files) == {}
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "src/library/plugin.js:4",
        "src/server.js:4",
    ]


# -- B: route lists given as a plugin's options --

WIZARD: dict[str, str] = {
    "package.json": MANIFEST,
    "src/server.js": SERVER,
    "src/guards.js": GUARDS,
    "src/wizard.js": (
        "// a form plugin registered once per form: its routes are what each registration gives\n"
        "export const wizard = {\n"
        "  name: 'wizard',\n"
        "  multiple: true,\n"
        "  register: (server, options) => {\n"
        "    server.ext('onPreAuth', (request, h) => h.continue)\n"
        "    server.route(options.routes)\n"
        "  },\n"
        "}\n"
    ),
    "src/library/plugin.js": (
        "import { wizard } from '../wizard.js'\n"
        "import { onlyFor } from '../guards.js'\n"
        "const staff = onlyFor(['staff'])\n"
        "const step = { handler: () => 'step' }\n"
        "export const library = {\n"
        "  plugin: {\n"
        "    name: 'library',\n"
        "    register: async (server) => {\n"
        "      await server.register({\n"
        "        plugin: wizard,\n"
        "        options: {\n"
        "          title: 'Join',\n"
        "          routes: [\n"
        "            { method: 'GET', path: '/join/{formId?}', ...step },\n"
        "            { method: 'POST', path: '/join/{formId?}', ...step },\n"
        "          ],\n"
        "        },\n"
        "      })\n"
        "      await server.register(\n"
        "        {\n"
        "          plugin: wizard,\n"
        "          options: { routes: [{ method: 'POST', path: '/renew', ...step }].map(staff) },\n"
        "        },\n"
        "        { routes: { prefix: '/desk' } }\n"
        "      )\n"
        "    },\n"
        "  },\n"
        "}\n"
    ),
}


def test_each_registration_of_a_plugin_serves_the_routes_its_options_give() -> None:
    assert located(WIZARD) == {
        "GET /join/{formId?}": "src/library/plugin.js:14",  # each where it is written
        "POST /join/{formId?}": "src/library/plugin.js:15",
        "POST /desk/renew": "src/wizard.js:7",  # mapped: at the call registering the list
    }
    assert not document(WIZARD)["findings"]


def test_options_routes_computed_out_of_sight_are_a_finding_at_the_route_call() -> None:
    files = {
        **WIZARD,
        "src/library/plugin.js": (
            "import { wizard } from '../wizard.js'\n"
            "import { formRoutes } from 'forms-kit'\n"
            "export const library = { plugin: { name: 'library', register: async (server) => {\n"
            "  await server.register({ plugin: wizard, options: { routes: formRoutes('join') } })\n"
            "} } }\n"
        ),
    }
    assert located(files) == {}
    # at the route call, and where the registration gives the table
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "src/library/plugin.js:4",
        "src/wizard.js:7",
    ]


def test_a_registration_giving_no_table_is_a_finding_at_it() -> None:
    files = {
        **WIZARD,
        "src/library/plugin.js": (
            "import { wizard } from '../wizard.js'\n"
            "export const library = { plugin: { name: 'library', register: async (server) => {\n"
            "  await server.register(wizard)\n"
            "  await server.register({ plugin: wizard, options: { title: 'none' } })\n"
            "} } }\n"
        ),
    }
    assert located(files) == {}
    places = finding_places(files)["UNRESOLVED_ROUTE"]
    assert {"src/library/plugin.js:3", "src/library/plugin.js:4", "src/wizard.js:7"} <= set(places)


# -- plugin modules that import nothing of hapi's --

NESTED: dict[str, str] = {
    "package.json": MANIFEST,
    "src/server.js": SERVER,
    "src/library/plugin.js": (
        "import { catalogue } from './catalogue.js'\n"
        "import { desk } from './desk.js'\n"
        "export const library = {\n"
        "  plugin: {\n"
        "    name: 'library',\n"
        "    async register(server) {\n"
        "      await server.register([catalogue, { plugin: desk, routes: { prefix: '/desk' } }])\n"
        "    },\n"
        "  },\n"
        "}\n"
    ),
    "src/library/catalogue.js": (
        "export const catalogue = { plugin: { name: 'catalogue', register: (server) => {\n"
        "  server.route({ method: 'GET', path: '/catalogue', handler: () => [] })\n"
        "} } }\n"
    ),
    "src/library/desk.js": (
        "import { shifts } from './shifts.js'\n"
        "export const desk = { name: 'desk', register: async (server) => {\n"
        "  await server.register(shifts)\n"  # neither a list nor `{ plugin }`: in a register
        "} }\n"
    ),
    "src/library/shifts.js": (
        "export const shifts = { name: 'shifts', register: (server) => {\n"
        "  server.route({ method: 'GET', path: '/shifts', handler: () => [] })\n"
        "} }\n"
    ),
    # no register of a plugin: a chart library's `register`, on no plugin's server
    "src/client/chart.js": (
        "import { Chart, BarElement } from 'chart.js'\nChart.register([BarElement])\n"
    ),
}


def test_plugins_registered_by_modules_that_name_no_framework_are_linked() -> None:
    assert located(NESTED) == {
        "GET /catalogue": "src/library/catalogue.js:2",
        "GET /desk/shifts": "src/library/shifts.js:2",
    }
    assert prefix_unresolved(NESTED) == []
    assert not document(NESTED)["findings"]


# -- C: a file-system router: a registration it computes is a finding where it is written --

FILE_ROUTER: dict[str, str] = {
    "package.json": MANIFEST,
    "src/server.js": (
        "import Hapi from '@hapi/hapi'\n"
        "import pages from './pages-router.js'\n"
        "const server = Hapi.server({ port: 8080 })\n"
        "await server.register([{ plugin: pages, options: { root: 'src/pages' } }])\n"
    ),
    "src/pages-router.js": (
        "import fg from 'fast-glob'\n"
        "export default {\n"
        "  name: 'pages',\n"
        "  register: async function (server, options) {\n"
        "    for await (const file of fg.stream([`${options.root}/**/page.js`])) {\n"
        "      await mount(options.root, file, server)\n"
        "    }\n"
        "  },\n"
        "}\n"
        "async function mount(root, file, server) {\n"
        "  const page = await import(file)\n"
        "  const at = file.slice(root.length).replace('/page.js', '')\n"
        "  server.register({\n"
        "    name: at,\n"
        "    register: async function (pageServer) {\n"
        "      for (const verb of ['GET', 'POST']) {\n"
        "        if (page[verb]) {\n"
        "          pageServer.route({ method: verb, path: at, handler: page[verb] })\n"
        "        }\n"
        "      }\n"
        "    },\n"
        "  })\n"
        "}\n"
    ),
    "src/pages/books/page.js": "export const GET = () => 'books'\n",
    "src/pages/books/{id}/page.js": "export const GET = () => 'book'\nexport const POST = () => 1\n",
    "src/pages/books/shelf.js": "export const label = 'no page: not loaded'\n",
}


def test_a_route_path_computed_from_file_names_is_a_finding_at_the_route_call() -> None:
    assert located(FILE_ROUTER) == {}
    places = finding_places(FILE_ROUTER)["UNRESOLVED_ROUTE"]
    assert places[:2] == [
        "src/pages-router.js:13",  # the register that gives it `pageServer`
        "src/pages-router.js:18",  # `pageServer.route({ method, path: at })`
    ]
    # the files its glob (`**/page.js` under a folder it computes) would load: said there
    assert places[2:] == ["src/pages/books/page.js:1", "src/pages/books/{id}/page.js:1"]


def test_route_options_on_a_plugin_nothing_registers_are_listed_whatever_its_name() -> None:
    files = {
        "package.json": MANIFEST,
        "src/server.js": "import Hapi from '@hapi/hapi'\nHapi.server()\n",
        "src/orphan.js": (
            "export const orphan = { name: 'orphan', register(srv, opts) {\n"
            "  srv.route({ method: 'POST', path: '/feedback', handler: () => 1 })\n"
            "  srv.route({ method: 'GET', path: opts.base + '/faq', handler: () => 1 })\n"
            "  srv.get('/not-a-route')\n"  # an HTTP client's call on a name like it: nothing
            "} }\n"
        ),
    }
    assert prefix_unresolved(files) == ["POST /feedback"]
    assert "src/orphan.js:3" in finding_places(files)["UNRESOLVED_ROUTE"]


@pytest.mark.parametrize(
    "files",
    [MAPPED, WIZARD, NESTED, FILE_ROUTER],
    ids=["mapped", "options", "nested", "file-router"],
)
def test_the_pre_filtered_scan_is_the_scan_of_every_file(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _parsed = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert '"framework": "hapi"' in documents[1] or '"UNRESOLVED_ROUTE"' in documents[1]
