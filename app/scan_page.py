"""`gpp scan REPO --html FILE`: the scan as one page a person opens in a browser.

One self-contained file: no external asset, the style and the script inline. Every string in it
came from a repository (file names) or a plugin (names, details), so every one is escaped here,
in attribute and text alike (controls shown as escapes), and the script only ever reads `dataset` and sets `hidden`, never
writes markup. A Content-Security-Policy allows nothing but this page's own style and script,
by their hashes: were an escape ever missed, an injected handler or script would still not run.
"""

from __future__ import annotations

import base64
import hashlib
from collections import defaultdict
from collections.abc import Callable, Sequence
from html import escape as html_escape
from typing import Any

from .logs import escaped
from .scan import PackOutcome, framework


def escape(text: str) -> str:
    """Safe in text and in a double-quoted attribute; controls shown as escapes (`\\u001b`), as
    the terminal summary shows them."""
    return html_escape(escaped(text), quote=True)


STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:2px 8px;
border-bottom:1px solid #ddd;vertical-align:top}code{font-size:13px}
.signal{background:#eef;border-radius:3px;padding:0 4px;margin-right:4px}
.fail{color:#a00}.file{margin:.8em 0}.file li{margin:2px 0}
#controls{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ccc}
#filter{width:24em}label,#count{margin-left:1em}
"""

SCRIPT = """
const box = document.getElementById("filter");
const toggles = Array.from(document.querySelectorAll("input[data-toggle]"));
function apply() {
  const text = box.value.trim().toLowerCase();
  const shown = new Set(toggles.filter((t) => t.checked).map((t) => t.dataset.toggle));
  let count = 0;
  for (const row of document.querySelectorAll("[data-search]")) {
    const kindOk = row.dataset.kind === undefined || shown.has(row.dataset.kind);
    row.hidden = !(kindOk && row.dataset.search.includes(text));
    if (!row.hidden && row.dataset.kind !== undefined) count += 1;
  }
  for (const section of document.querySelectorAll("section[data-kind]")) {
    section.hidden = !shown.has(section.dataset.kind);
  }
  document.getElementById("shown").textContent = String(count);
}
box.addEventListener("input", apply);
for (const t of toggles) t.addEventListener("change", apply);
apply();
"""


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = f"default-src 'none'; style-src {_hash(STYLE)}; script-src {_hash(SCRIPT)}"


def _place(location: dict[str, Any]) -> str:
    return f"{location['path']}:{location['line']}"


def page(repo: str, outcomes: Sequence[PackOutcome]) -> str:
    """The report: failures first, then resources grouped by kind (name, framework, file:line,
    signals, a link to their file's findings), then each file's findings and unresolved entries."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for outcome in outcomes:
        for entry in outcome.document["unresolved"] if outcome.document else []:
            text = f"unresolved ({entry['reason']}): {entry['detail']}"
            by_file[entry["path"]].append(_entry(outcome.pack, text, entry["path"]))
        for finding in outcome.document["findings"] if outcome.document else []:
            for location in finding["locations"] or [{"path": "(no file)", "line": 0}]:
                text = f"line {location['line']}: {finding['code']}: {finding['detail']}"
                by_file[location["path"]].append(_entry(outcome.pack, text, location["path"]))
    anchors = {path: f"file-{number}" for number, path in enumerate(sorted(by_file))}
    rows: dict[str, list[str]] = defaultdict(list)
    failures = []
    for outcome in outcomes:
        if outcome.document is None:
            failures.append(
                f'<li class="fail"><b>{escape(outcome.pack)}</b> FAIL {escape(outcome.code or "")}'
                f"<pre>{escape(chr(10).join(outcome.failure))}</pre></li>"
            )
            continue
        signals = _signals(outcome.document)
        for resource in outcome.document["resources"]:
            kind, name, path = resource["kind"], resource["name"], resource["location"]["path"]
            where = _place(resource["location"])
            made_by = framework(resource, outcome.pack)
            search = f"{name} {where} {made_by} {outcome.pack}".lower()
            marker = (
                f' <a href="#{anchors[path]}">{len(by_file[path])} noted in this file</a>'
                if path in anchors
                else ""
            )
            rows[kind].append(
                f'<tr data-kind="{escape(kind)}" data-search="{escape(search)}">'
                f"<td><code>{escape(name)}</code></td><td>{escape(made_by)}</td>"
                f"<td><code>{escape(where)}</code>{marker}</td>"
                f"<td>{''.join(signals(resource))}</td></tr>"
            )
    return _document(repo, failures, rows, by_file, anchors)


def _signals(document: dict[str, Any]) -> Callable[[dict[str, Any]], list[str]]:
    """A resource's signals: those named `<kind>:<name>` whose source is its location, so two
    tables of one name keep their own; one whose source is no such resource's goes to each."""
    named: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for signal in document["classificationSignals"]:
        named[signal["resource"]].append(signal)
    places: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for resource in document["resources"]:
        places[f"{resource['kind']}:{resource['name']}"].append(resource["location"])

    def of(resource: dict[str, Any]) -> list[str]:
        key = f"{resource['kind']}:{resource['name']}"
        return [
            f'<span class="signal">{escape(signal["signal"])}={escape(str(signal["value"]))}</span>'
            for signal in named[key]
            if signal["source"] == resource["location"] or signal["source"] not in places[key]
        ]

    return of


def _entry(pack: str, text: str, path: str) -> str:
    search = f"{path} {pack} {text}".lower()
    return f'<li data-search="{escape(search)}">{escape(text)} <small>({escape(pack)})</small></li>'


def _document(
    repo: str,
    failures: list[str],
    rows: dict[str, list[str]],
    by_file: dict[str, list[str]],
    anchors: dict[str, str],
) -> str:
    total = sum(len(r) for r in rows.values())
    toggles = "".join(
        f'<label><input type="checkbox" checked data-toggle="{escape(kind)}"> '
        f"{escape(kind)} ({len(rows[kind])})</label>"
        for kind in sorted(rows)
    )
    sections = "".join(
        f'<section data-kind="{escape(kind)}"><h2>{escape(kind)} ({len(rows[kind])})</h2>'
        "<table><tr><th>name</th><th>framework</th><th>file:line</th><th>signals</th></tr>"
        + "".join(rows[kind])
        + "</table></section>"
        for kind in sorted(rows)
    )
    files = "".join(
        f'<div class="file" id="{anchors[path]}"><b><code>{escape(path)}</code></b><ul>{"".join(by_file[path])}'
        "</ul></div>"
        for path in sorted(by_file)
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>gpp scan {escape(repo)}</title><style>{STYLE}</style></head><body>"
        f"<h1>gpp scan <code>{escape(repo)}</code></h1>"
        + (f"<h2>Packs that failed</h2><ul>{''.join(failures)}</ul>" if failures else "")
        + '<div id="controls"><input id="filter" type="search" '
        'placeholder="filter by name, path or framework"> '
        f'{toggles} <span id="count"><span id="shown">{total}</span> of {total} resources shown</span></div>'
        + (sections or "<p>No resources found.</p>")
        + "<h2>Findings and unresolved, by file</h2>"
        + (files or "<p>None.</p>")
        + f"<script>{SCRIPT}</script></body></html>\n"
    )
