"""`gpp scan`: the summary and page builders from documents, then the command over real
repositories (the sample app, a registry with a pack that fails) and the README's lines."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import REPO
from test_docs import blocks

from app.scan import PackOutcome, json_text, summary_text
from app.scan_page import SCRIPT, STYLE, page

GPP = [sys.executable, "-m", "gpp.gateway"]
SAMPLE_APP = REPO / "plugins" / "examples" / "sample-app"
HOSTILE = '<img src=x onerror="alert(1)">\x1b[2J'


def document(resources: list[dict[str, Any]], **rest: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "resources": resources,
        "unresolved": rest.get("unresolved", []),
        "findings": rest.get("findings", []),
        "classificationSignals": rest.get("classificationSignals", []),
    }


def resource(kind: str, name: str, path: str, line: int, **attrs: str) -> dict[str, Any]:
    return {"kind": kind, "name": name, "location": {"path": path, "line": line}, "attrs": attrs}


ROUTES = PackOutcome(
    "pack-http-routes",
    document(
        [
            resource("route", "GET /users", "app/users.py", 4, framework="fastapi"),
            resource("route", "GET /", "web/server.js", 9, framework="express"),
        ],
        unresolved=[{"path": "app/broken.py", "reason": "parse-error", "detail": "line 3"}],
        classificationSignals=[
            {
                "resource": "route:GET /users",
                "signal": "auth",
                "value": "required",
                "source": {"path": "app/users.py", "line": 4},
            }
        ],
    ),
)
TABLES = PackOutcome(
    "pack-sqlalchemy",
    document(
        [resource("table", "users", "app/models.py", 20)],
        findings=[
            {
                "code": "DUPLICATE_TABLE_NAME",
                "detail": "table users is defined 2 times",
                "locations": [
                    {"path": "app/models.py", "line": 20},
                    {"path": "app/reports.py", "line": 10},
                ],
            }
        ],
        classificationSignals=[
            {
                "resource": "table:users",
                "signal": "pii",
                "value": "email",
                "source": {"path": "app/models.py", "line": 20},
            }
        ],
    ),
)
FAILED = PackOutcome(
    "pack-django", code="E_TIMEOUT", failure=["[plugin-protocol] FAIL E_TIMEOUT: no answer"]
)


def test_the_summary_counts_per_kind_and_framework_and_prints_a_failed_pack_among_the_others() -> (
    None
):
    lines = summary_text("repo", [ROUTES, TABLES, FAILED]).splitlines()
    assert lines[:3] == [
        "gpp scan repo: 3 packs (1 failed), 3 resources",
        "per kind: route 2, table 1",
        "per framework: express 1 route; fastapi 1 route; sqlalchemy 1 table",
    ]
    assert "  unresolved  app/broken.py  parse-error: line 3" in lines
    assert (
        "  finding  DUPLICATE_TABLE_NAME  table users is defined 2 times  "
        "app/models.py:20 app/reports.py:10"
    ) in lines
    assert lines[-2:] == [
        "pack-django: FAIL E_TIMEOUT",
        "  [plugin-protocol] FAIL E_TIMEOUT: no answer",
    ]


def test_nothing_found_is_said_and_a_plugins_controls_are_escaped() -> None:
    empty = summary_text("repo", [PackOutcome("pack-django", document([]))])
    assert "per kind: nothing found" in empty and "per framework: nothing found" in empty
    hostile = PackOutcome(
        "pack-http-routes",
        document([resource("route\x1b[31m", "GET /\x1b[2J", "a\rb.py", 1, framework="x\x07")]),
    )
    text = summary_text("repo\x1b]0;", [hostile])
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", text), text
    assert "per framework: x\\u0007 1 route\\u001b[31m" in text


def test_json_is_one_object_keyed_by_pack_id_with_a_failure_as_its_code_and_lines() -> None:
    parsed = json.loads(json_text([ROUTES, FAILED]))
    assert parsed["pack-http-routes"] == ROUTES.document
    assert parsed["pack-django"] == {
        "error": {"code": "E_TIMEOUT", "lines": ["[plugin-protocol] FAIL E_TIMEOUT: no answer"]}
    }


def test_the_page_escapes_every_string_a_repository_or_plugin_wrote() -> None:
    hostile = PackOutcome(
        "pack-http-routes",
        document(
            [resource("route", f"GET /{HOSTILE}", f"{HOSTILE}.py", 1, framework=HOSTILE)],
            findings=[
                {"code": "X", "detail": HOSTILE, "locations": [{"path": HOSTILE, "line": 2}]}
            ],
            unresolved=[{"path": f"{HOSTILE}.js", "reason": "unreadable", "detail": HOSTILE}],
        ),
    )
    html = page(f"/tmp/{HOSTILE}", [hostile, FAILED])
    assert "<img" not in html and "\x1b" not in html
    assert html.count("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;\\u001b[2J") >= 6
    assert "<script" not in html.replace(f"<script>{SCRIPT}</script>", "")


def test_the_page_is_self_contained_under_a_csp_that_allows_only_its_own_style_and_script() -> None:
    html = page("repo", [ROUTES, TABLES])
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None

    def digest(text: str) -> str:
        return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    assert csp[1] == (
        f"default-src 'none'; style-src 'sha256-{digest(STYLE)}'; "
        f"script-src 'sha256-{digest(SCRIPT)}'"
    )
    assert not re.search(r"\bsrc=|\bhref=\"[^#]", html), "no asset is loaded from anywhere"
    assert f"<style>{STYLE}</style>" in html and f"<script>{SCRIPT}</script>" in html


def test_the_page_groups_by_kind_with_signals_and_puts_findings_beside_their_file() -> None:
    html = page("repo", [ROUTES, TABLES])
    route_section = html[html.index('<section data-kind="route">') : html.index("</section>")]
    assert "GET /users" in route_section and "users</code>" not in route_section.split("GET")[0]
    assert '<span class="signal">auth=required</span>' in route_section
    assert '<span class="signal">pii=email</span>' in html
    reports = html[html.index("<code>app/reports.py</code>") :]
    assert "line 10: DUPLICATE_TABLE_NAME" in reports.split('<div class="file">')[0]
    assert "unresolved (parse-error): line 3" in html
    models = html[html.index('<tr data-kind="table"') :].split("</tr>")[0]
    anchor = re.search(r'<a href="#(file-\d+)">1 noted in this file</a>', models)
    assert anchor is not None and f'id="{anchor[1]}"><b><code>app/models.py<' in html


def test_two_resources_of_one_name_keep_their_own_signals() -> None:
    twice = PackOutcome(
        "pack-sqlalchemy",
        document(
            [resource("table", "users", "a.py", 1), resource("table", "users", "b.py", 5)],
            classificationSignals=[
                {"resource": "table:users", "signal": "pii", "value": value, "source": source}
                for value, source in [
                    ("email", {"path": "a.py", "line": 1}),
                    ("phone", {"path": "b.py", "line": 5}),
                    ("ssn", {"path": "c.py", "line": 9}),  # no resource there: shown on each
                ]
            ],
        ),
    )
    rows = re.findall(r'<tr data-kind="table".*?</tr>', page("repo", [twice]))
    assert ["pii=email" in r and "pii=phone" not in r and "pii=ssn" in r for r in rows] == [
        True,
        False,
    ]
    assert "pii=phone" in rows[1] and "pii=ssn" in rows[1]


def test_gpp_scan_runs_every_bundled_pack_over_the_sample_app(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    done = subprocess.run(
        [*GPP, "scan", str(SAMPLE_APP), "--html", str(report)],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^per kind: route \d+, table \d+$", out, re.M), out
    for pack in ("pack-http-routes", "pack-sqlalchemy", "pack-django"):
        assert re.search(rf"^{pack}: \d+ resources", out, re.M), out
    assert "fastapi" in out and "django" in out and "app/models.py:20" in out
    assert "DUPLICATE_TABLE_NAME" in out
    assert done.stderr == "", "no progress lines when stderr is not a terminal"
    assert "backoffice/models.py:6" in report.read_text("utf-8")
    as_json = subprocess.run(
        [*GPP, "scan", str(SAMPLE_APP), "--packs", "pack-django", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert as_json.returncode == 0, as_json.stderr
    (names,) = [json.loads(as_json.stdout)]
    assert list(names) == ["pack-django"] and names["pack-django"]["resources"]


def test_a_terminal_sees_a_progress_line_per_pack_on_stderr() -> None:
    leader, follower = pty.openpty()
    try:
        try:
            done = subprocess.run(
                [*GPP, "scan", str(SAMPLE_APP), "--packs", "pack-django,pack-sqlalchemy"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=follower,
                text=True,
                timeout=300,
            )
        finally:
            os.close(follower)
        said = b""
        while select.select([leader], [], [], 10)[0]:  # bounded: the writer has exited
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: every byte read and the other end closed
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert said.decode().splitlines() == [
        "gpp scan: pack-django (1/2)",
        "gpp scan: pack-sqlalchemy (2/2)",
    ]
    assert "gpp scan: pack" not in done.stdout


GOOD_PLUGIN = """
from gpp.sdk import serve


def discover(paths):
    place = {"path": "main.py", "line": 1}
    return {"resources": [{"kind": "route", "name": "GET /", "location": place, "attrs": {}}],
            "unresolved": [], "findings": [], "classificationSignals": []}


raise SystemExit(serve("good", "1.0.0", discover))
"""


def test_a_pack_that_fails_exits_2_with_its_diagnostic_and_the_others_still_print(
    tmp_path: Path,
) -> None:
    plugins = tmp_path  # the plugins see their own folder (no view named); the repo is apart
    (plugins / "good.py").write_text(GOOD_PLUGIN)
    (plugins / "broken.py").write_text("raise SystemExit('broken on purpose')\n")
    registry = plugins / "registry.toml"
    registry.write_text(
        "".join(
            f'[[plugin]]\nid = "{name}"\nversion = "1.0.0"\nprotocol = "gpp/3"\n'
            f'command = ["{{python}}", "{name}.py"]\n'
            for name in ("broken", "good")
        )
    )
    (tmp_path / "repo").mkdir()
    done = subprocess.run(
        [*GPP, "scan", str(tmp_path / "repo"), "--config", str(registry), "--packs", "broken,good"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(r"^broken: FAIL E_\w+$", done.stdout, re.M), done.stdout
    assert "broken on purpose" in done.stdout
    assert "good: 1 resources (1 route)" in done.stdout


SLOW_PLUGIN = """
import itertools
from gpp.sdk import serve

calls = itertools.count(1)
UNREAD_EACH_TIME = {"slow": {1: ["a"], 2: ["a", "b.py"], 3: []}, "stuck": {}}


def discover(paths):
    call = next(calls)
    unread = UNREAD_EACH_TIME[NAME].get(call, ["big.py"])
    findings = [{"code": "DEADLINE_REACHED", "detail": "out of time",
                 "locations": [{"path": p, "line": 1} for p in unread]}] if unread else []
    place = {"path": "main.py", "line": 1}
    return {"resources": [{"kind": "route", "name": f"GET /{call}", "location": place,
                           "attrs": {}}],
            "unresolved": [], "findings": findings, "classificationSignals": []}


raise SystemExit(serve(NAME, "1.0.0", discover))
"""


def test_a_pack_out_of_time_is_asked_again_in_its_session_while_it_gets_further(
    tmp_path: Path,
) -> None:
    """`slow` leaves other places unread each time (a folder walked turns into its files), then
    finishes on the third ask; `stuck` leaves the same file unread twice, so its second answer,
    finding and all, is what prints."""
    for name in ("slow", "stuck"):
        (tmp_path / f"{name}.py").write_text(f"NAME = {name!r}\n" + SLOW_PLUGIN)
    registry = tmp_path / "registry.toml"
    registry.write_text(
        "".join(
            f'[[plugin]]\nid = "{name}"\nversion = "1.0.0"\nprotocol = "gpp/3"\n'
            f'command = ["{{python}}", "{name}.py"]\n'
            for name in ("slow", "stuck")
        )
    )
    (tmp_path / "repo").mkdir()
    scan = [*GPP, "scan", str(tmp_path / "repo"), "--config", str(registry)]
    done = subprocess.run(
        [*scan, "--packs", "slow,stuck", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answers = json.loads(done.stdout)
    assert [r["name"] for r in answers["slow"]["resources"]] == ["GET /3"]
    assert answers["slow"]["findings"] == []
    assert [r["name"] for r in answers["stuck"]["resources"]] == ["GET /2"]
    assert [f["code"] for f in answers["stuck"]["findings"]] == ["DEADLINE_REACHED"]


def test_gpp_scan_refuses_no_repo_a_missing_repo_and_an_unknown_pack() -> None:
    bare = subprocess.run([*GPP, "scan"], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 2 and "required: REPO" in bare.stderr  # argparse's usage error
    unknown = subprocess.run(
        [*GPP, "scan", str(SAMPLE_APP), "--packs", "pack-nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert unknown.returncode == 1
    assert "no GPP/3 pack 'pack-nope'" in unknown.stderr and "pack-django" in unknown.stderr
    missing = subprocess.run(
        [*GPP, "scan", str(SAMPLE_APP / "nowhere")], capture_output=True, text=True, timeout=60
    )
    assert missing.returncode == 1
    assert missing.stderr == f"gpp scan: REPO {SAMPLE_APP / 'nowhere'} is not a folder\n"


def test_readme_scan_runs_as_written(tmp_path: Path) -> None:
    """The README's `gpp scan` lines, run from a clone's root (its plugins/ linked into a scratch
    folder, so report.html lands there) with the installed `gpp` on PATH."""
    (block,) = [b for b in blocks(REPO / "README.md") if "gpp scan" in b.code]
    (tmp_path / "plugins").symlink_to(REPO / "plugins")
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        ["bash", "-ec", block.code],
        cwd=tmp_path,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("per kind: route") == 2
    assert "<table>" in (tmp_path / "report.html").read_text("utf-8")
