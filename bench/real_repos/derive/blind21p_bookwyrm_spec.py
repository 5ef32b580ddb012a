"""blind21p: bookwyrm's truth from django_runtime_routes.py's output (routes and tables)."""
import json

D = "/work/realrepos/derived21p/"
out = json.load(open(D + "bw.json"))
routes = [{k: r[k] for k in ("name", "file", "line", "files", "view") if k in r} for r in out["routes"]]
# fix (after the one pack run): the derive script placed 8 views it could not inspect (callable
# Feed instances, Django's own TemplateView/JavaScriptCatalog) at bookwyrm/urls.py line 1; placed
# here at the pattern's call in urls.py (library views) or at the Feed subclass (project views)
FIX = {
    "ANY /user/{username}/rss": ("bookwyrm/views/rss_feed.py", 12),
    "ANY /user/{username}/rss-reviews": ("bookwyrm/views/rss_feed.py", 57),
    "ANY /user/{username}/rss-quotes": ("bookwyrm/views/rss_feed.py", 99),
    "ANY /user/{username}/rss-comments": ("bookwyrm/views/rss_feed.py", 141),
    "ANY /user/{username}/{_0}/{shelf_identifier}/rss": ("bookwyrm/views/rss_feed.py", 183),
    "GET /jsi18n/": ("bookwyrm/urls.py", 34),
    "GET /robots.txt": ("bookwyrm/urls.py", 36),
    "GET /manifest.json": ("bookwyrm/urls.py", 40),
}
for r in routes:
    if r["name"] in FIX and r["line"] == 1:
        r["file"], r["line"] = FIX[r["name"]]
        r["files"] = sorted({"bookwyrm/urls.py", r["file"]})
tables = [{k: t[k] for k in ("name", "file", "line", "model", "files") if k in t} for t in out["tables"]]
META = {
    "name": "bookwyrm",
    "repo": "https://github.com/bookwyrm-social/bookwyrm",
    "commit": "db40a61c9eaa6872607ca499b91893914dc1c8cf",
    "commit_date": "2026-08-22T14:27:54+10:00",
    "files": 1536,
    "method": open(D + "bw_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && /work/truthenv/blind21p/bookwyrm/bin/python bench/real_repos/derive/django_runtime_routes.py . bookwyrm.settings --env DOMAIN=your.domain.here --env SECRET_KEY=<any> --env EMAIL_HOST=smtp.mailgun.org --env EMAIL_HOST_USER=mail@your.domain.here --env EMAIL_HOST_PASSWORD=emailpassword123 --set 'CACHES={**CACHES, \"file_resubmit\": {\"BACKEND\": \"django.core.cache.backends.locmem.LocMemCache\"}}'  (assembled by derive/blind20p_assemble.py derive/blind21p_bookwyrm_spec.py)",
        "pack-django": "the same run: its tables",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-django": ("table", tables)}
OUT = "/work/wt/blind21p/bench/real_repos/truth/bookwyrm.json"
