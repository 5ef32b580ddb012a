"""Which files pack-http-routes parses first: those whose bytes can declare or register a
route, a router or an app (`admits`); the scanner parses the rest on demand (`packs.scan.OnDemand`).

A file adds facts of its own — routers, routes, mounts, `use` calls, `before_request` hooks —
only through the constructs the readers look for; every other fact (a binding, an export, a
function, a class) matters only when the linker looks it up from a file that has some, and
then the scanner parses it (`DocumentPieces.touched`). The patterns below are, per reader, a superset
of those constructs, spelt as their bytes must spell them (over-inclusion costs time only):

- Python (`python_facts`): a router or app made by a call named with a framework word (the
  records' `seeds`, `frameworks.PYTHON`: `APIRouter`, `Blueprint`, `Flask`, `FastAPI`,
  `Starlette`, any `...Router(`), flask-restx/flask-restful (`Api`, `Namespace`, only once
  imported from `flask_rest...`), Starlette's `Route(`/`Mount(` lists; a statement call (the
  records' `mount_calls`: `include_router`, `register_blueprint`, `mount`, `add_api_route`,
  `add_route`, `add_url_rule`, `before_request`, `add_namespace`, `add_resource`,
  `init_app`); a class view's registration (`View.register(bp)` on a capitalised name, or
  `.register(` on any in a file naming `flask_classful`: the reader keeps no other; the class,
  its bases and its blueprint the linker reaches from the call); a route decorator
  (`@x.get(`, `@x.route(`, `@ns.route(` on a class: an `@` line holding `.verb(`).
- JavaScript and TypeScript (`js_facts`, `_admits_script`): a router or app needs an import
  of a record's package, which makes the file a `SEED` (`scan.Admission`); so does a route
  call on a bare name the linker reads as an app parameter (`app.get('/x', h)`). The rest are
  `GATED`, admitted only where a `SEED` is: an object key spelled `'get /x'` (`js_method_keys`:
  a route table a loop may register, or a plugin's that a merge not read may bring in); a
  record's seed word (`express`, `Router`, `koa`); a
  computed registration `x[verb](...)` needs `](` (or `].call`: `x[verb].call(x, ...)`); a
  route or `use` call is a call of a property in `_CALLED` (`get`, `post`…, `use`, `all`, a
  record's own calls: koa-router's `del`, `prefix`, Fastify's `route`, `register`, `addHook`):
  that word with a `.` before it (blanks aside; `?.` too, not a spread `...`), as the
  reader's member call has it (a comment between the `.` and the word is a limit). A file
  that may be a Next.js route file (`pages/api/**`, `app/**/route.*`: `nextjs.candidate`,
  whichever `pageExtensions` its project has) is admitted by its path, a `next.config.*`
  naming `basePath` or `pageExtensions` by its name and those words (`nextjs.config_file`).
  `package.json` and `tsconfig*.json`/`jsconfig*.json` declare nothing: the linker asks for
  them when it resolves an import through them (`manifests`, `tsconfig`).
  A route-shaped call on an object the file makes or imports from the project
  (`js_facts.route_shaped_calls`: `r.get('/x'`, `r.linGet('n', '/x'` where `r = new …`,
  `r = make(…)` or `import r from './r'`) makes a file `YES`: on an object of a package's
  class that no record reads, the linker flags it (`UNRESOLVED_ROUTER`) whether or not a
  framework is imported; the reader reads no other such call, so both modes read the same.

Django (`django_facts`): a URLconf or settings file holds one of its record's seeds
(`urlpatterns`, `ROOT_URLCONF`, `DJANGO_SETTINGS_MODULE`, `REST_FRAMEWORK`,
`format_suffix_patterns`); views, viewsets, routers and permission classes are parsed when the
Django link resolves a name into them; a module spelling the name of a URL collector
object, or of a method a collector is handed to on a runtime-made object, by the words
`django_collect` asks for.

A file that uses a framework the pack names but does not read (`frameworks.UNREAD`: aiohttp,
Tornado, Falcon, Sanic, Bottle, Pyramid, Restify, Hono, the controller-decorator libraries, hapi's
`@hapi/glue` composer) is admitted by that record's seed bytes, so
its `UNREAD_FRAMEWORK` finding is the same whichever files are parsed.

One construct is let through on its bytes: `@mock.patch(...)` in a file that binds `mock` only
by `from unittest import mock` (a large test suite holds them by the thousand). The reader would take
it for a `PATCH` route on `mock`, which the linker finds is the library's, no router: it adds
nothing. A file that binds `mock` a second time (an import, `as mock`, `mock =`) is admitted.

Calls that pass a router or a path to a function declaring routes on its parameter
(`register_view(bp, routes=[...])`) are found by name on demand (`DocumentPieces.words`).
"""

from __future__ import annotations

import re

from ..entry_points import WORDS as ENTRY_POINT_WORDS
from ..entry_points import is_distribution_file
from ..scan_select import Admission
from . import js_method_keys, nextjs
from .envfiles import is_env_file
from .frameworks import BY_KEY, FLASK_ADMIN, FLASK_CLASSFUL, JAVASCRIPT, PYTHON, SEEDS, UNREAD
from .js_facts import _COMPUTED_CALL, route_shaped_calls
from .linker import _APP_NAMES
from .manifests import is_lock, is_manifest
from .model import DJANGO, HTTP_METHODS
from .python_facts import _ROUTE_DECORATORS, _STATEMENT_CALLS, ROUTER_FRAMEWORKS
from .tsconfig import is_config

_DJANGO_SEEDS = BY_KEY[DJANGO].seeds


def widens(rel: str, data: bytes) -> bool:
    """Whether a file needs every Python file read with its Django facts (`scan.OnDemand`'s
    `widens`): a Python file spelling one of Django's seeds. Only such a file can hold what
    the Django link starts from (a URLconf's `urlpatterns`, `ROOT_URLCONF`,
    `DJANGO_SETTINGS_MODULE`, `REST_FRAMEWORK`, `format_suffix_patterns`:
    `django_linker._seeded`); without one the link reads no Django facts at all."""
    return rel.endswith(".py") and any(seed in data for seed in _DJANGO_SEEDS)


# a framework word anywhere in a name (`UserAPIRouter(`, `CTFdFlask(`), as the reader matches it
_PY_NAMES = tuple(
    sorted(
        w.encode()
        for w in {
            *ROUTER_FRAMEWORKS,
            *(seed.decode() for f in PYTHON for seed in f.seeds),  # the frameworks read
            *(seed.decode() for seed in SEEDS["python"]),  # frameworks not read, to name them
            *(seed.decode() for seed in FLASK_ADMIN.seeds),  # admins and their views
        }
    )
)
# (a name holding another, `APIRouter` holding `Route`, is found with it: one scan fewer each)
_PY_NAMES = tuple(n for n in _PY_NAMES if not any(o != n and o in n for o in _PY_NAMES))
# a framework's router base class (`Blueprint`, `APIRouter`, flask-restx's `Api`), by the
# word of `_PY_NAMES` its name or else its module holds: a class of the repository is a router
# only through a file that imports one, so holds that word and is admitted by it
ROUTER_BASE_WORDS = tuple(
    dict.fromkeys(
        next(
            w
            for w in _PY_NAMES
            if w in name.encode() or w in module.encode()  # `Api`: from `flask_rest...`
        )
        for f in PYTHON
        for module, name in f.bases
    )
)
_ROUTER_BASE_TEXT = tuple(w.decode() for w in ROUTER_BASE_WORDS)


def spells_router_base(source: str) -> bool:
    """Whether a Python file's source holds one of `ROUTER_BASE_WORDS`."""
    return any(word in source for word in _ROUTER_BASE_TEXT)


# a statement call's property, a whole word (`mount`, not `amount`)
_PY_CALLS = tuple(sorted(w.encode() for w in _STATEMENT_CALLS))
# `View.register(app)`: a class view's registration as the reader keeps it
# (`flask_classful.registering`), whatever else the file imports: called on a capitalised name
# (a class) or a `flask_` module, or on any name in a file that names the library
_PY_REGISTER = re.compile(rb"\.[ \t]*" + FLASK_CLASSFUL.register.encode() + rb"[ \t]*\(")
_PY_CLASS_REGISTER = re.compile(
    rb"\b(?:[A-Z]\w*|flask_\w*(?:[ \t]*\.[ \t]*\w+)*)[ \t]*\.[ \t]*"
    + FLASK_CLASSFUL.register.encode()
    + rb"[ \t]*\("
)
_PY_CLASS_VIEWS = FLASK_CLASSFUL.module.encode()
# a route decorator: an `@` line calling `.get(`, `.route(`... (a literal first: `re` skips to it)
_PY_DECORATOR = re.compile(
    rb"@[^\n]*\.[ \t]*(?:" + b"|".join(sorted(w.encode() for w in _ROUTE_DECORATORS)) + rb")\b"
)
_JS_NAMES = tuple(dict.fromkeys((*(s for f in JAVASCRIPT for s in f.seeds), *SEEDS["javascript"])))
# a record's own calls (koa-router's `del` and `prefix`)
_RECORD_CALLS = {
    *(alias for f in JAVASCRIPT for alias in f.verbs),
    *(f.prefix_method for f in JAVASCRIPT if f.prefix_method),
    *(f.route_call for f in JAVASCRIPT if f.route_call),  # Fastify's `route({ url })`
    *(f.register_call for f in JAVASCRIPT if f.register_call),
    *(f.hook_call for f in JAVASCRIPT if f.hook_call),
    *(f.methods_call for f in JAVASCRIPT if f.methods_call),  # koa-router's `register`
}
# a route or `use` call's property: the word, then a `.` before it is checked (`\b` or a
# lookbehind first would make `re` try every position)
_JS_CALL = re.compile(
    rb"(?:"
    + "|".join(sorted({*HTTP_METHODS, "use", "all", *_RECORD_CALLS} - {"trace"})).encode()
    + rb")\b"
)


# a read framework's package named as a module (`require('express')`, `from "@koa/router"`,
# `'@nestjs/common'`, a wrapper `'@feathersjs/express'`): the only way a file makes one of its
# apps or routers (`js_facts._creates` binds the package in that very file)
_JS_PACKAGE = re.compile(
    rb"""['"`](?:(?:@[\w.-]+/)?(?:"""
    + b"|".join(
        sorted(
            {
                re.escape(m.encode())
                for f in JAVASCRIPT
                for m in (
                    *f.app_modules,
                    *f.router_modules,
                    *(c for c in (f.controllers.modules if f.controllers else ()) if c[-1:] != "/"),
                )
            }
        )
    )
    + rb""")['"`/]|"""
    + b"|".join(
        re.escape(s) for f in JAVASCRIPT for s in f.seeds if s[:1] == b"@" and s[-1:] == b"/"
    )
    + rb")"
)
_JS_UNREAD = tuple(u for u in UNREAD if u.language == "javascript")
_APP_PARAMS = frozenset(name.encode() for name in _APP_NAMES)


# every word `_admits_script` looks for by `in`, with the others of them each one holds (a
# word holding one the bytes lack is lacking too: `express-restify-mongoose`, `restify`)
_JS_WORDS = tuple(dict.fromkeys((*(s for u in _JS_UNREAD for s in u.seeds), *_JS_NAMES)))
_JS_HELD = {w: tuple(o for o in _JS_WORDS if o != w and o in w) for w in _JS_WORDS}


class _Spelled:
    """Which of `_JS_WORDS` a script's bytes spell, each looked for once: the unread
    frameworks' seeds and `_JS_NAMES` share most of theirs, and a vendored library of
    megabytes that spells none is scanned once per word, not twice."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.known: dict[bytes, bool] = {}

    def spells(self, word: bytes) -> bool:
        known = self.known.get(word)
        if known is None:
            held = _JS_HELD.get(word, ())
            known = not any(self.known.get(o) is False for o in held) and word in self.data
            self.known[word] = known
        return known


def _js_framework(data: bytes, spelled: _Spelled | None = None) -> bool:
    """Whether the file imports a web framework the pack knows (read or not)."""
    if _JS_PACKAGE.search(data) is not None:
        return True
    words = spelled or _Spelled(data)
    return any(
        any(words.spells(seed) for seed in u.seeds) and u.pattern.search(data) is not None
        for u in _JS_UNREAD
    )


def _receiver(data: bytes, end: int) -> bytes:
    """The name that ends at `end` (blanks before it aside), when it stands alone as a
    parameter does (not `this.app`): the receiver of a member call; else empty."""
    while end > 0 and data[end - 1] in b" \t\r\n":
        end -= 1
    start = end
    while start > 0 and (_word_byte(data[start - 1]) or data[start - 1] == 0x24):  # `$`
        start -= 1
    before = start
    while before > 0 and data[before - 1] in b" \t\r\n":
        before -= 1
    return b"" if before > 0 and data[before - 1] == 0x2E else data[start:end]


# calls that make a route on a parameter nothing passes (`linker._route_like`); a `use`,
# `register` or `prefix` there adds none of its own: what it mounts is a `SEED` itself
_ROUTE_CALLS = frozenset(
    w.encode()
    for w in {
        *HTTP_METHODS,
        "all",
        *(alias for f in JAVASCRIPT for alias in f.verbs),
        *(f.route_call for f in JAVASCRIPT if f.route_call),
    }
)
_ARGUMENT = re.compile(rb"\s*\(\s*[^\s)]")  # a call with an argument (a route's path)


_MOCK_PATCH = re.compile(rb"@[ \t]*mock[ \t]*\.[ \t]*patch\b")
_ASSIGNED = re.compile(rb"[ \t]*[:=](?!=)")
_AS = re.compile(rb"\bas[ \t]+$")


def _unittest_mock_only(data: bytes) -> bool:
    """Whether the file binds `mock` once, by `from unittest import mock`: every word `mock`
    that an import, an `as`, an assignment or an annotation binds is counted."""
    if b"from unittest import mock" not in data:
        return False
    bindings = 0
    at = data.find(b"mock")
    while at >= 0:
        end = at + 4
        word = (at == 0 or not _word_byte(data[at - 1])) and (
            end == len(data) or not _word_byte(data[end])
        )
        if word:
            line = data[data.rfind(b"\n", 0, at) + 1 : at]
            if b"import" in line or _AS.search(line) or _ASSIGNED.match(data, end):
                bindings += 1
        at = data.find(b"mock", end)
    return bindings == 1


def _has_word(data: bytes, word: bytes) -> bool:
    """Whether `word` occurs in `data` not inside a longer name (`mount`, not `amount`)."""
    at = data.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _word_byte(data[at - 1])) and (
            end == len(data) or not _word_byte(data[end])
        ):
            return True
        at = data.find(word, end)
    return False


def _word_byte(byte: int) -> bool:
    return byte == 0x5F or chr(byte).isalnum()


def data_file(path: str) -> bool:
    """A manifest, lock, tsconfig, environment or distribution file (`pyproject.toml`,
    `setup.cfg`): it declares nothing and calls nothing, parsed when the linker asks for it."""
    return (
        is_manifest(path)
        or is_lock(path)
        or is_config(path)
        or is_env_file(path)
        or (is_distribution_file(path) and not path.endswith(".py"))
    )


def admits(path: str, data: bytes) -> bool | Admission:
    """Whether the file at `path`, of these bytes, can hold facts of its own (see above).
    Substring tests first (`in` is a fast scan), a pattern only where they leave it open."""
    if data_file(path):
        return False
    if path.endswith(".py"):
        if any(name in data for name in _PY_NAMES):
            return True
        if any(word in data for word in ENTRY_POINT_WORDS):  # a loader, a `setup.py`
            return True
        if any(_has_word(data, call) for call in _PY_CALLS):
            return True
        if FLASK_CLASSFUL.register.encode() in data and (
            _PY_CLASS_REGISTER.search(data)
            or (_PY_CLASS_VIEWS in data and _PY_REGISTER.search(data))
        ):
            return True
        if b"@" not in data:
            return False
        unittest_mock: bool | None = None  # judged once, at the first `@mock.patch`
        for match in _PY_DECORATOR.finditer(data):
            if _MOCK_PATCH.match(data, match.start()) is None:
                return True
            if unittest_mock is None:
                unittest_mock = _unittest_mock_only(data)
            if not unittest_mock:
                return True
        return False
    return _admits_script(path, data)


# a route or `use` call's property, the `.` before it (blanks between): `_JS_CALL`'s words as
# the reader's member call has them, found by one search from the `.` (a literal first: `re`
# skips to it); a spread's `...` is told apart at each match
_DOT_CALL = re.compile(rb"\.[ \t\r\n]*" + _JS_CALL.pattern)
# the same of a route call with an argument (`.get('/x'`), whose receiver may be an app
_DOT_ROUTE_CALL = re.compile(
    rb"\.[ \t\r\n]*(?:"
    + b"|".join(sorted(w for w in _ROUTE_CALLS if re.fullmatch(_JS_CALL, w)))
    + rb")\b"
    + _ARGUMENT.pattern
)


def _admits_script(path: str, data: bytes) -> Admission:
    """A JavaScript or TypeScript file: a `SEED` when it imports a framework, or calls a
    route method on a name the linker lists routes on without any import (`app`, `router`,
    `fastify`... a plugin's parameter that no scanned call passes, `linker._APP_NAMES`); a
    Next.js route file or config by its place; `GATED` when it only calls `.get(`, `.use(`...
    on other names or spells a framework's word (`Router`): those calls register routes only
    on a router some file made from a framework's package, so where no file of the repository
    imports one (a Django or Flask app's front-end scripts), they are an HTTP client's.
    Searches, not a loop over every call: a front-end bundle holds thousands of `.get(`."""
    spelled = _Spelled(data)
    if _js_framework(data, spelled):
        return Admission.SEED
    if nextjs.candidate(path):  # a Next.js route file, maybe: its place routes it
        return Admission.YES
    if nextjs.config_file(path, data):  # `basePath`, `pageExtensions`: its project's routes
        return Admission.YES
    for match in _DOT_ROUTE_CALL.finditer(data):
        at = match.start()
        if at == 0 or data[at - 1] != 0x2E:  # not a spread's `...`
            receiver = _receiver(data, at - 1 if at > 0 and data[at - 1] == 0x3F else at)
            if receiver in _APP_PARAMS:  # `app.get('/x', h)` on a parameter: a route as it is
                return Admission.SEED
    computed = False
    if b"](" in data or b"] (" in data or b"].call" in data:  # `app[verb](path, h)`: computed
        for match in _COMPUTED_CALL.finditer(data):
            if _receiver(data, match.start()) in _APP_PARAMS and _ARGUMENT.match(
                data, match.end() - 1
            ):
                return Admission.SEED
            computed = True
    if next(route_shaped_calls(data), None) is not None:
        return Admission.YES  # `x.get('/p', h)` on a package's object: `UNRESOLVED_ROUTER`
    if (
        computed
        or any(m.start() == 0 or data[m.start() - 1] != 0x2E for m in _DOT_CALL.finditer(data))
        or any(spelled.spells(name) for name in _JS_NAMES)
        or js_method_keys.ROUTE_KEY.search(data) is not None  # `'get /x': {...}`: a table's key
    ):
        return Admission.GATED
    return Admission.NO
