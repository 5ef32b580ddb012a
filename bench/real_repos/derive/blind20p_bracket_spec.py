import json
import pathlib

W = "/work/realrepos/blind20p-work/"
P = "backend/"
routes = json.loads(pathlib.Path(W + "blind20p-bracket-routes.json").read_text())
tables = json.loads(pathlib.Path(W + "blind20p-bracket-tables.json").read_text())
R = []
for r in routes:
    f = P + r["file"]
    R.append(
        {
            "name": r["name"],
            "file": f,
            "line": r["line"],
            "files": sorted({f, P + "bracket/app.py"}),
        }
    )
T = [
    {"name": t["name"], "file": P + t["file"], "line": t["line"], "files": [P + t["file"]]}
    for t in tables
]
METHOD = (
    "HELD-OUT (blind20p): chosen 07:34 UTC 2026-12-07 before any pack ran on it (/work/realrepos/blind20p-CHOICE.txt); "
    "truth committed on branch blind20p before blind20p's one pack run. Bracket (evroon/bracket), a self-hosted tournament "
    "management system: FastAPI 0.139 (Starlette 1.3) + SQLAlchemy 2.0 Core tables under backend/ (import root backend/, package bracket). "
    "Private Python 3.13 venv (/work/truthenv/blind20p/bracket; the Dockerfile uses 3.14, not available here) with backend/pyproject.toml's "
    "dependencies installed under backend/uv.lock's versions as pip constraints. Nothing stubbed. Environment unset: ENVIRONMENT defaults "
    "to DEVELOPMENT (DevelopmentConfig: jwt_secret/admin defaults in the class, dev.env absent), api_prefix '' and serve_frontend False "
    "(defaults), pg_dsn the default postgresql://...@localhost:5432 (databases.Database object created, never connected). The lifespan "
    "(database connect, alembic migrations, cronjobs) is not run: the app object is imported, not served. Routes: derive/runtime_routes.py "
    "starlette 'bracket.app:app' run in backend/: app.py include_router()s 14 module routers (each `router = APIRouter(prefix=config.api_prefix)` "
    "in bracket/routes/*.py with @router.get/post/put/delete decorators); app.routes walked (FastAPI 0.139 route contexts expanded): 60 HTTP routes. "
    "Left out: FastAPI's own docs routes (/docs, /docs/oauth2-redirect, /redoc, /openapi.json), the StaticFiles mount at {api_prefix}/static "
    "(no route table), and app.py's catch-all `GET /{full_path:path}` frontend route, which is only declared when SERVE_FRONTEND is true "
    "(default False: not served). Two @router.get lines in routes/auth.py (/login, /sso_callback) are commented out: not routes. Each route "
    "at its route function's first decorator line; `files` = the router module and backend/bracket/app.py (where it is included). "
    "Every live @router.<verb> decorator in backend/bracket has its route (62 matches by grep, 2 of them commented out). "
    "Tables: derive/runtime_tables.py 'bracket.schema:Base' with --import bracket.app, same environment: Base.metadata's 14 tables, all "
    "`name = Table('name', metadata, ...)` calls in backend/bracket/schema.py (metadata = Base.metadata; no mapped classes). The alembic/ "
    "versions are migrations, not the metadata. No Django, Flask or JS ORM in the repository (grep; frontend is a Next/React app without ORM): "
    "those packs expect nothing. Hand check: 10 routes (GET /tournaments/{tournament_id}/stages stages.py:41, DELETE .../stages/{stage_id} :57, "
    "POST .../stages/activate :118, GET .../available_inputs multi-line decorator :145, POST /tournaments/{tournament_id}/logo tournaments.py:183, "
    "GET /users/me users.py:39, POST /users/register_demo :108, POST /token auth.py:170, GET /ping and GET /metrics internals.py:15/:10) and "
    "5 tables (clubs, users_x_clubs, players_x_teams, rankings, matches) read against the source. The runs added no file to the checkout "
    "(432 files before and after)."
)
META = {
    "name": "bracket",
    "repo": "https://github.com/evroon/bracket",
    "commit": "6295b1f49abec61076e063f5a789f92cc5e290fc",
    "commit_date": "2026-08-18T04:11:24+00:00",
    "files": 432,
    "method": METHOD,
    "derive": {
        "pack-http-routes": "cd /work/realrepos/bracket/backend && /work/truthenv/blind20p/bracket/bin/python bench/real_repos/derive/runtime_routes.py starlette 'bracket.app:app' /work/realrepos/bracket/backend  (paths prefixed backend/; assembled by derive/blind20p_assemble.py)",
        "pack-sqlalchemy": "cd /work/realrepos/bracket/backend && /work/truthenv/blind20p/bracket/bin/python bench/real_repos/derive/runtime_tables.py 'bracket.schema:Base' /work/realrepos/bracket/backend --import bracket.app  (paths prefixed backend/)",
    },
}
PACKS = {"pack-http-routes": ("route", R), "pack-sqlalchemy": ("table", T)}
OUT = "/work/wt/blind20p/bench/real_repos/truth/bracket.json"
