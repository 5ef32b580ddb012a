import json
import pathlib

W = "/work/realrepos/blind20p-work/"
d = json.loads(pathlib.Path(W + "treeherder-django.json").read_text())
R = d["routes"]
T = d["tables"]
METHOD = (
    "HELD-OUT (blind20p): chosen 07:34 UTC 2026-12-07 before any pack ran on it (/work/realrepos/blind20p-CHOICE.txt); "
    "truth committed on branch blind20p before blind20p's one pack run on it. Mozilla Treeherder (mozilla/treeherder), the CI results dashboard "
    "of Firefox development: Django 6.0.3 + DRF 3.18.0 + drf-spectacular 0.30 (the React frontend in ui/ has no ORM). Private Python 3.13 venv "
    "(/work/truthenv/blind20p/treeherder; docker/Dockerfile's python:3.13) with requirements/common.txt installed with --require-hashes "
    "from PyPI (its pins). Settings treeherder.config.settings, environment unset (TREEHERDER_DEBUG False, so no debug_toolbar/django_extensions "
    "and no __debug__/ routes); derive/django_runtime_routes.py replaces the database (postgres via DATABASE_URL default) by SQLite and "
    "the caches: CACHES overridden with --set to two local-memory caches, 'default' (django_redis in the settings) and 'db_cache' "
    "(a DatabaseCache in the settings; treeherder/model/error_summary.py reads caches['db_cache'] at import, and the script's own "
    "cache override keeps only 'default'). Nothing stubbed. Routes: get_resolver() walked: treeherder/config/urls.py re_path('^api/', include("
    "treeherder.webapp.api.urls)) and a catch-all re_path(r'', TemplateView(index.html)) written 'GET /' as the script names an empty regex; "
    "webapp/api/urls.py: a project-bound SimpleRouter under ^project/(?P<project>[\\w-]{0,50})/ (12 viewsets), a DefaultRouter under ^ (18 "
    "viewsets + its API root 'GET /api/'), and 11 re_path class/function views (groupsummary, failures, failuresbybug, failurecount, infracompare, "
    "performance/summary, performance/alertsummary-tasks, perfcompare/results, csp-report (@require_POST function view), schema (SpectacularAPIView), "
    "internal_issue). Methods from each view (viewset action maps incl. @action routes; class views' handlers; HEAD/OPTIONS not listed). "
    "Left out: the DefaultRouter's format-suffix variants (listed as skipped by the script, 42); no admin and no library URLconf is included. "
    "Not in the URLconf, so not counted: dockerflow's /__version__, /__heartbeat__, /__lbheartbeat__ (served by DockerflowMiddleware) and "
    "WhiteNoise's static files. 91 routes, each at its view (class or function); `files` = the view's file and the URLconf holding the pattern. "
    "Tables: the same run, apps.get_models(include_auto_created=True) of the apps under the checkout (treeherder.model, .perf, .changelog; "
    "webapp/log_parser/etl/intermittents_commenter declare none), concrete, managed, not proxies: 58 db_tables (every model sets Meta.db_table; "
    "1 auto-created M2M table, performance_tag_alert_summaries from PerformanceTag.alert_summaries; 3 abstract bases not counted), each at its "
    "model class. django.contrib.auth/contenttypes tables not counted (library apps). No SQLAlchemy, Flask, FastAPI or JS ORM in the repository "
    "(grep): those packs expect nothing. Hand check: 10 routes (JobsProjectViewSet GET list/retrieve + @action bug_suggestions, similar_jobs, "
    "text_log_errors at jobs.py:161; NoteViewSet GET/POST/DELETE + @action push_notes; HashViewSet @action tocommit GET; BugzillaViewSet POST "
    "create_bug/post_comment; POST /api/csp-report/ (@require_POST); POST /api/internal_issue/ (CreateAPIView); InvestigatedViewSet ModelViewSet "
    "GET/POST/PUT/PATCH/DELETE; FilesBugzillaMapViewSet's @action named get_queryset (detail=True: /api/bugzilla-component/{pk}/get_queryset/); "
    "AuthViewSet GET login/logout; GET /api/project/{project}/push/{pk}/status/) and 5 tables (changelog_entry, performance_tag, "
    "performance_tag_alert_summaries, commit, performance_datum_replicate) read against the source. The run added no file to the checkout "
    "(1,201 files before and after; 2 files of the commit are absent from the snapshot)."
)
META = {
    "name": "treeherder",
    "repo": "https://github.com/mozilla/treeherder",
    "commit": "dc3080dd746d4732d5e06c0272471834d4639da0",
    "commit_date": "2026-08-21T19:49:47+02:00",
    "files": 1201,
    "method": METHOD,
    "derive": {
        "pack-http-routes": 'cd /work/realrepos/treeherder && /work/truthenv/blind20p/treeherder/bin/python bench/real_repos/derive/django_runtime_routes.py /work/realrepos/treeherder treeherder.config.settings --set \'CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}, "db_cache": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "db_cache"}}\'  (its \'routes\')',
        "pack-django": "same run, its 'tables'",
    },
}
PACKS = {"pack-http-routes": ("route", R), "pack-django": ("table", T)}
OUT = "/work/wt/blind20p/bench/real_repos/truth/treeherder.json"
