"""pack-http-routes: Flask configuration files chosen by the code (`flask_config`). Which file
`from_pyfile` loads, and whether it runs, is decided as the repository's defaults have it: an
environment variable read with a default (`os.environ.get("X", False)`), the `if`/`elif`/`else`
on it, a `try` whose body raises because the file it names is not in the repository (so its
`except` runs), `silent=`, `from_envvar` of an unset variable, `from_object` of a module the
repository's package does not hold; the file found by Flask's rules (relative to the app's root
folder, or with `instance_relative_config=True` to the instance folder: beside the top-level
package of the module making the app, or beside that module outside a package). What stays
unknowable (a statement that may raise, a `.cfg` the walk does not read, an app made
elsewhere, a handler naming the project's own exception) is flagged, never guessed. Every
fixture here is our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, finding_places, prefix_unresolved, scanned_both_ways

_VIEWS = (
    "from flask import Blueprint\n"
    "from flask_restful import Api, Resource\n"
    "from ledger.core import site\n"
    "books = Blueprint('books', __name__)\n"
    "@books.route('/books')\n"
    "def listing():\n"
    "    return ''\n"
    "site.register_blueprint(books, url_prefix=site.config['BOOKS_ROOT'])\n"
    "class Entry(Resource):\n"
    "    def get(self, number):\n"
    "        return {}\n"
    "rest = Api(site, prefix=site.config.get('REST_ROOT', '/rest'))\n"
    "rest.add_resource(Entry, '/entries/<int:number>')\n"
)


def _ledger(
    *body: str, made: str = "Flask(__name__, instance_relative_config=True)"
) -> dict[str, str]:
    """A package `ledger` whose `core.py` makes the app (`made`) then writes its configuration
    (`body`), and whose `views.py` mounts a blueprint under `BOOKS_ROOT` and a flask-restful
    `Api` under `REST_ROOT` (default `/rest`)."""
    core = [
        "import os\n",
        "from flask import Flask\n",
        f"site = {made}\n",
        *(f"{line}\n" for line in body),
    ]
    return {"ledger/__init__.py": "", "ledger/core.py": "".join(core), "ledger/views.py": _VIEWS}


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    return {str(r["name"]): dict(r["attrs"]) for r in document(files)["resources"]}


def _said(attrs: dict[str, object]) -> str:
    return str(attrs.get("configDefault", ""))


_CHOSEN = (
    "profile = os.environ.get('LEDGER_PROFILE', False)",
    "if profile == 'ci':",
    "    site.config['BOOKS_ROOT'] = '/ci-books'",
    "elif profile:",
    "    site.config.from_pyfile(profile)",
    "else:",
    "    try:",
    "        site.config.from_pyfile('override.py', silent=False)",
    "    except OSError:",
    "        site.config.from_pyfile('fallback.py')",
)
_FALLBACK = {"instance/fallback.py": "BOOKS_ROOT = '/ledger/v1'\nREST_ROOT = '/ledger/rest'\n"}


def test_the_defaults_pick_the_branch_and_the_handler_that_loads_a_file_of_the_instance() -> None:
    found = _routes({**_ledger(*_CHOSEN), **_FALLBACK})
    assert set(found) == {"GET /ledger/v1/books", "GET /ledger/rest/entries/{number}"}
    said = _said(found["GET /ledger/v1/books"])
    assert "os.environ.LEDGER_PROFILE" in said
    assert "instance/override.py is not in the repository" in said
    assert "read from instance/fallback.py" in said
    assert all("prefixUnresolved" not in a for a in found.values())


def test_a_file_the_try_body_finds_is_read_and_its_handler_does_not_run() -> None:
    files = {
        **_ledger(*_CHOSEN),
        **_FALLBACK,
        "instance/override.py": "BOOKS_ROOT = '/mine'\n",
    }
    found = _routes(files)
    # `override.py` sets one key; the handler that would set both does not run
    assert set(found) == {"GET /mine/books", "GET /rest/entries/{number}"}
    assert "read from instance/override.py" in _said(found["GET /mine/books"])


def test_an_environment_default_names_the_file() -> None:
    files = {
        **_ledger("site.config.from_pyfile(os.getenv('LEDGER_FILE', 'staging.py'))"),
        "instance/staging.py": "BOOKS_ROOT = '/staging'\nlower = '/ignored'\n",
    }
    found = _routes(files)
    assert "GET /staging/books" in found
    said = _said(found["GET /staging/books"])
    assert "os.environ.LEDGER_FILE" in said and "read from instance/staging.py" in said


def test_a_branch_the_defaults_do_not_run_sets_nothing_and_is_said_to() -> None:
    found = _routes(
        _ledger(
            "site.config['BOOKS_ROOT'] = '/plain'",
            "if os.environ.get('LEDGER_CI', False):",
            "    site.config['BOOKS_ROOT'] = '/ci'",
            "mode = os.environ.get('LEDGER_MODE', 'standard')",
            "if mode == 'strict':",
            "    site.config['REST_ROOT'] = '/strict'",
            "elif mode.lower() in ('standard', 'relaxed'):",
            "    site.config['REST_ROOT'] = '/standard'",
        )
    )
    assert set(found) == {"GET /plain/books", "GET /standard/entries/{number}"}
    said = _said(found["GET /plain/books"])
    assert "not set by site.config['BOOKS_ROOT'] = '/ci'" not in said  # a `set` names no source
    assert "which the defaults do not run (os.environ.LEDGER_CI)" in said
    assert "os.environ.LEDGER_MODE" in _said(found["GET /standard/entries/{number}"])


def test_a_test_the_code_fixes_decides_without_a_word() -> None:
    found = _routes(
        _ledger(
            "USE_LOCAL = False",
            "site.config['BOOKS_ROOT'] = '/kept'",
            "if USE_LOCAL:",
            "    site.config['BOOKS_ROOT'] = '/local'",
        )
    )
    assert "GET /kept/books" in found and "configDefault" not in found["GET /kept/books"]


def test_silent_loads_of_a_missing_file_keep_the_value_and_say_so() -> None:
    found = _routes(
        _ledger(
            "site.config['BOOKS_ROOT'] = '/base'",
            "site.config.from_pyfile('local.py', silent=True)",
        )
    )
    said = _said(found["GET /base/books"])
    assert "not set by site.config.from_pyfile('local.py', silent=True)" in said
    assert "instance/local.py is not in the repository" in said


def test_a_missing_file_no_try_catches_is_one_the_running_app_has() -> None:
    # the app would not start without it: where it runs, that file may set any key
    found = _routes(
        _ledger("site.config['BOOKS_ROOT'] = '/base'", "site.config.from_pyfile('prod.py')")
    )
    assert "may be set by site.config.from_pyfile('prod.py')" in _said(found["GET /base/books"])


@pytest.mark.parametrize(
    ("tried", "decided"),
    [
        ("site.config.from_envvar('LEDGER_SETTINGS')", "os.environ.LEDGER_SETTINGS unset"),
        ("site.config.from_object('ledger.private')", "ledger.private is not in the repository"),
    ],
)
def test_an_unset_variable_or_a_module_not_held_raises_into_the_handler(
    tried: str, decided: str
) -> None:
    files = {
        **_ledger(
            "try:",
            f"    {tried}",
            "except (RuntimeError, ImportError):",
            "    site.config.from_object('ledger.defaults.Standard')",
        ),
        "ledger/defaults.py": "class Standard:\n    BOOKS_ROOT = '/std'\n",
    }
    found = _routes(files)
    assert "GET /std/books" in found
    assert decided in _said(found["GET /std/books"])


def test_an_envvar_loaded_silently_sets_nothing_the_scan_knows_and_runs_no_handler() -> None:
    files = _ledger(
        "site.config['BOOKS_ROOT'] = '/base'",
        "try:",
        "    site.config.from_envvar('LEDGER_SETTINGS', silent=True)",
        "except RuntimeError:",
        "    site.config['BOOKS_ROOT'] = '/rescued'",
    )
    found = _routes(files)
    assert set(found) == {"GET /base/books", "GET /rest/entries/{number}"}
    said = _said(found["GET /base/books"])
    assert "may be set by site.config.from_envvar('LEDGER_SETTINGS', silent=True)" in said
    assert "rescued" not in said


@pytest.mark.parametrize(
    ("made", "module", "folder"),
    [
        # a module of a package: the instance folder is beside the top-level package
        ("Flask(__name__, instance_relative_config=True)", "ledger/web/app.py", "instance"),
        ("Flask('ledger', instance_relative_config=True)", "ledger/web/app.py", "instance"),
        # no `instance_relative_config`: the folder of the module making the app
        ("Flask(__name__)", "ledger/web/app.py", "ledger/web"),
        # its top-level package's folder, for `__name__.split('.')[0]`
        ("Flask(__name__.split('.')[0])", "ledger/web/app.py", "ledger"),
        # a module in no package: the instance folder is beside it
        ("Flask(__name__, instance_relative_config=True)", "deploy/app.py", "deploy/instance"),
    ],
)
def test_the_file_is_found_by_flask_s_rules_for_its_folders(
    made: str, module: str, folder: str
) -> None:
    candidates = ["instance", "ledger/instance", "ledger/web/instance", "ledger/web", "ledger"]
    candidates += ["deploy/instance", "deploy"]
    files = {
        "ledger/__init__.py": "",
        "ledger/web/__init__.py": "",
        module: (
            "from flask import Flask, Blueprint\n"
            f"site = {made}\n"
            "site.config.from_pyfile('settings.py')\n"
            "books = Blueprint('books', __name__)\n"
            "@books.route('/books')\n"
            "def listing():\n"
            "    return ''\n"
            "site.register_blueprint(books, url_prefix=site.config['BOOKS_ROOT'])\n"
        ),
        **{f"{c}/settings.py": f"BOOKS_ROOT = '/{c}'\n" for c in candidates},
    }
    found = _routes(files)
    assert set(found) == {f"GET /{folder}/books"}
    assert f"read from {folder}/settings.py" in _said(found[f"GET /{folder}/books"])


def _unknowable_try(*body: str, handler: str = "Exception") -> dict[str, str]:
    return _ledger(
        "site.config['BOOKS_ROOT'] = '/plain'",
        "try:",
        *(f"    {line}" for line in body),
        f"except {handler}:",
        "    site.config['BOOKS_ROOT'] = '/rescued'",
    )


@pytest.mark.parametrize(
    "files",
    [
        # a statement that may raise before the load
        _unknowable_try("os.makedirs(site.instance_path)", "site.config.from_pyfile('here.py')"),
        # a file the walk does not read: whether it is there is not known
        _unknowable_try("site.config.from_pyfile('settings.cfg')"),
        # a handler naming an exception class of the project's: what it catches is not known
        _unknowable_try("site.config.from_pyfile('here.py')", handler="LedgerError"),
        # the app given to a function: its folders are not known there
        _ledger(
            "def configure(app):",
            "    app.config['BOOKS_ROOT'] = '/plain'",
            "    try:",
            "        app.config.from_pyfile('here.py')",
            "    except Exception:",
            "        app.config['BOOKS_ROOT'] = '/rescued'",
            "configure(site)",
        ),
    ],
)
def test_what_the_scan_cannot_decide_is_flagged_at_the_mount(files: dict[str, str]) -> None:
    assert prefix_unresolved(files) == ["GET /books"]
    assert "ledger/views.py:8" in finding_places(files)["UNRESOLVED_PREFIX"]


def test_the_pre_filter_parses_the_instance_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {**_ledger(*_CHOSEN), **_FALLBACK}
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert '"GET /ledger/v1/books"' in documents[1]


def _factory(instance: dict[str, str]) -> dict[str, str]:
    """An app factory in a package's `__init__.py`: defaults, then the instance folder's
    `config.py` loaded silently, and a blueprint mounted only where `LEDGER_ADMIN` is set."""
    return {
        "ledger/__init__.py": (
            "import os\n"
            "from flask import Flask\n"
            "def create_app():\n"
            "    app = Flask(__name__, instance_relative_config=True)\n"
            "    app.config.from_mapping(BOOKS_ROOT='/dev')\n"
            "    try:\n"
            "        os.makedirs(app.instance_path)\n"
            "    except OSError:\n"
            "        pass\n"
            "    app.config.from_pyfile('config.py', silent=True)\n"
            "    from ledger import pages\n"
            "    app.register_blueprint(pages.books, url_prefix=app.config['BOOKS_ROOT'])\n"
            "    if os.environ.get('LEDGER_ADMIN', False):\n"
            "        app.register_blueprint(pages.admin, url_prefix='/admin')\n"
            "    return app\n"
        ),
        "ledger/pages.py": (
            "from flask import Blueprint\n"
            "books = Blueprint('books', __name__)\n"
            "admin = Blueprint('admin', __name__)\n"
            "@books.route('/books')\n"
            "def listing():\n"
            "    return ''\n"
            "@admin.route('/users')\n"
            "def users():\n"
            "    return ''\n"
        ),
        **instance,
    }


def test_a_factory_reads_the_instance_file_beside_its_package() -> None:
    found = _routes(_factory({"instance/config.py": "BOOKS_ROOT = '/prod'\n"}))
    assert set(found) == {"GET /prod/books"}
    assert "read from instance/config.py" in _said(found["GET /prod/books"])
    missing = _routes(_factory({}))
    assert set(missing) == {"GET /dev/books"}
    assert "instance/config.py is not in the repository" in _said(missing["GET /dev/books"])


def test_a_mount_under_an_environment_flag_false_by_default_is_not_listed() -> None:
    files = _factory({})
    assert "GET /admin/users" not in _routes(files)
    findings = document(files)["findings"]
    said = [f["detail"] for f in findings if f["code"] == "UNRESOLVED_ROUTE"]
    assert len(said) == 1 and "os.environ.LEDGER_ADMIN" in said[0]
