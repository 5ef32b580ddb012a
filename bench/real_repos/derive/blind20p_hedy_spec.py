import json
import pathlib

W = "/work/realrepos/blind20p-work/"
routes = json.loads(pathlib.Path(W + "blind20p-hedy-routes.json").read_text())
R = []
for r in routes:
    f = r["file"]
    files = {f} if f == "app.py" else {f, "app.py", "website/website_module.py"}
    R.append({"name": r["name"], "file": f, "line": r["line"], "files": sorted(files)})
METHOD = (
    "HELD-OUT (blind20p): chosen 07:34 UTC 2026-12-07 before any pack ran on it (/work/realrepos/blind20p-CHOICE.txt); "
    "truth committed on branch blind20p before blind20p's one pack run. Hedy (hedyorg/hedy), the gradual programming language and "
    "classroom web application (hedy.org): Flask 3.1.3 (Werkzeug 3.1.6), storage through its own Dynamo/JSON-file layer (website/dynamo.py), "
    "no SQLAlchemy. Private Python 3.13 venv (/work/truthenv/blind20p/hedy; the Dockerfile's python:3.13) with requirements-prod.txt from PyPI "
    "at its pins. Nothing stubbed; environment unset (dev environment: no SECRET_KEY needed, no CDN_PREFIX so website/cdn.py adds no "
    "versioned static route, no PROXY_TO_TEST_HOST so no A/B proxy, no AWS env so the database is dynamo.MemoryStorage('dev_database.json'), "
    "read only at start). App: app:create_app(), what the Procfile serves (gunicorn 'app:create_app()'): it registers app.py's root "
    "Blueprint('app') (54 @app.route decorators, many stacked on one function with `defaults=`) and 14 WebsiteModule blueprints "
    "(website/website_module.py: a flask.Blueprint subclass whose __init__ walks the instance's methods and calls self.route(...) for each "
    "@route(...) decorator from the same module, with url_prefix given in each module's super().__init__('name', __name__, url_prefix='/...')): "
    "auth_pages, profile, programs, for_teachers, classes (ClassModule '/class' and MiscClassPages without prefix), super_teacher, admin, "
    "statistics, user_activity, tags, public_adventures, surveys, feedback. Routes: derive/runtime_routes.py flask 'app:create_app()' run in the "
    "checkout: app.url_map walked, the HEAD Werkzeug adds beside GET and the OPTIONS Flask adds left out (no view declares HEAD or OPTIONS), the "
    "`static` endpoint (static_url_path '' => /<path:filename>) left out. No (method, rule) pair is declared twice (checked on the raw url_map). "
    "url_map.strict_slashes is False: rules are kept as declared (e.g. 'POST /class/', 'GET /cheatsheet/'). 201 routes, each at its view "
    "function's first line (its first decorator; stacked decorators share it); `files` = the module, plus app.py (where the blueprint is registered) "
    "and website/website_module.py (the route-collecting Blueprint subclass) for WebsiteModule routes. Grep cross-check: @app.route/@route "
    "decorators per file match the routes per file (app.py 54; for_teachers.py 74 decorators giving 78 routes through a five-method redirect "
    "route and multi-method lists); the matches in website/auth.py and website/flask_commonmark.py are docstring examples. "
    "No SQLAlchemy, Django, FastAPI or JS ORM in the repository (grep; the TypeScript frontend has none; highlight.js keyword lists only): "
    "pack-sqlalchemy, pack-django and pack-js-tables expect nothing. Hand check: 10 routes (for_teachers.py:119 /for-teachers/redesign/<path:subpath> "
    "with GET/POST/PUT/PATCH/DELETE, for_teachers.py:3198 two stacked DELETE customize-adventure rules, classes.py:28 POST /class/ and /class/redesign, "
    "app.py:1822 three stacked /adventure rules, app.py:1335 /ontrack //onlinemasters //hedy stack, tags.py:35, public_adventures.py:37 GET "
    "/public-adventures/ and /more, app.py:2080 GET / and /index.html, user_activity.py:35 POST /activity/, programs.py:226, admin.py:30 GET /admin/) "
    "read against the source. No tables to check. The run added no file to the checkout (1,279 files before and after; 5 files of the commit "
    "are absent from the snapshot)."
)
META = {
    "name": "hedy",
    "repo": "https://github.com/hedyorg/hedy",
    "commit": "194f84ca8a45c86d97a98b563165c21603ffe432",
    "commit_date": "2026-08-15T19:44:10-04:00",
    "files": 1279,
    "method": METHOD,
    "derive": {
        "pack-http-routes": "cd /work/realrepos/hedy && /work/truthenv/blind20p/hedy/bin/python bench/real_repos/derive/runtime_routes.py flask 'app:create_app()' /work/realrepos/hedy  (assembled by derive/blind20p_assemble.py with derive/blind20p_hedy_spec.py)"
    },
}
PACKS = {"pack-http-routes": ("route", R)}
OUT = "/work/wt/blind20p/bench/real_repos/truth/hedy.json"
