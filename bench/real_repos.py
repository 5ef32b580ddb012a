"""Precision, recall and silent misses of the source-reading packs on real repositories.

    python bench/real_repos.py --repo /work/realrepos/CTFd --truth bench/real_repos/truth/CTFd.json
    python bench/real_repos.py --repos-dir /work/realrepos          # every truth file, folder = its name
    python bench/real_repos.py --repos-dir /work/realrepos --only CTFd,saleor --packs pack-http-routes

Each pack named in a truth file (`bench/real_repos/truth/<name>.json`, an independent ground truth
written without running any pack; see `bench/real_repos/README.md`) is run once through the
gateway's own CLI, from this checkout's `.venv`:

    gpp discover --config <registry copy> --repo PATH PACK_ID .

The registry copy is `plugins/registry.toml` with every `request_ms` raised (`--request-ms`), written
beside it (its relative paths resolve against its folder) and removed afterwards. Nothing here
imports the packs, so the script measures whatever packs the checkout it lives in holds: run it
again after a merge to compare.

Per pack it prints: reported (distinct resource names of the pack's kind), expected, true
positives, precision, recall, missed, **silent** misses (expected items that are absent and have
no finding other than a DUPLICATE_* one, and no `unresolved` entry, whose location points at a
file that declares them), `own` (the stricter count: misses with nothing said, neither finding,
unresolved entry nor prefixUnresolved route, in the file where the item itself is written),
`pfxU` (misses whose declaring file has a reported route carrying
`attrs.prefixUnresolved: true`: flagged, though not by a finding), the document's findings and
unresolved counts, and the discover's wall time. Route names compare after one normalisation of
parameters (`<int:id>`, `:id`, `{id:int}` all read `{id}`, `.:format` too; Express's `*` is `/*`) and an upper-case method;
a `:name` inside a segment is a parameter where the router reads one there (Fastify's
find-my-way, path-to-regexp for Express and Koa: `/pages-:kind-:page.xml`), by the framework
the pack names on the route, or for a truth item on the routes of its file.
`empty s` is the same discover on an empty folder (the CLI's start, the sandbox, the handshake),
run once per pack: the floor under `wall s` on this machine. A second table sums the figures per framework or
ORM over every repository run (the library the pack names on each item; a miss counts for the
library found in its own file, else the repository's most common one); `--summarise FILE`
prints it again from a saved `--json`. `--json FILE` keeps everything, the lists of misses and false positives included.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TRUTH_DIR = ROOT / "bench" / "real_repos" / "truth"

_PARAM = (
    re.compile(r"<(?:[^:<>]+:)?([A-Za-z_]\w*)>"),  # Flask <int:id>
    re.compile(r"\{([A-Za-z_]\w*)(?::[^}]*)?\}"),  # FastAPI {id:int}
)
# `:name` as each router reads it (group `name`; a match without one is kept as written).
# A router not named here: a parameter at a segment's start or after a dot (`/:id.:format`),
# a colon inside a segment being text (`/v1/items:batchGet`, Python's routers)
_COLON_PARAM = re.compile(r"(?<=[/.]):(?P<name>[A-Za-z_$][\w$]*)(?:\([^)]*\))?\??")
# path-to-regexp 0.1.x (Express 4): `:` and word characters after any character, then a
# `(regex)`, `?` or `*`; 8.x (Express 5): an identifier, `$` included, or a quoted name
_PATH_TO_REGEXP_EXPRESS = re.compile(
    r':(?:"(?P<quoted>[^"]+)"|(?P<name>[$\w]+))(?:\([^)]*\))?(?:\?|(?P<star>\*))?'
)
_COLON_PARAMS: dict[str, re.Pattern[str]] = {
    # find-my-way (Fastify): `:` anywhere in a segment, the name up to `-`, `.`, `/` or `(`
    # (`/archive-:kind-:page.xml` is two parameters), a `(regex)` after it; `::` is a colon
    "fastify": re.compile(r"::|:(?P<name>[^/.\-(:?]+)(?:\([^)]*\))?\??"),
    "express": _PATH_TO_REGEXP_EXPRESS,
    "nestjs": _PATH_TO_REGEXP_EXPRESS,  # on its default platform, Express
    # path-to-regexp 1.x to 6.x (koa-router, @koa/router): word characters after any
    # character, then a `(regex)` and a `?`, `*` or `+`
    "koa": re.compile(r":(?P<name>\w+)(?:\([^)]*\))?[?*+]?"),
}


def _parameter(match: re.Match[str]) -> str:
    groups = match.groupdict()
    name = groups.get("name") or groups.get("quoted")
    # Express 4's `:path*` also takes the segments after it: the pack's `{path}*`
    return match.group(0) if name is None else "{" + name + "}" + (groups.get("star") or "")


def normalise(kind: str, name: str, framework: str = "") -> str:
    """One spelling of a route name: its parameters as `{name}`, read as the router
    `framework` reads them (by the pack's `attrs.framework`; "" when not known), and an
    upper-case method."""
    if kind != "route":
        return name
    method, _, path = name.partition(" ")
    if path.startswith("*"):  # Express 4's `app.get('*')` matches every path, as `/*` does
        path = "/" + path
    for pattern in _PARAM:
        path = pattern.sub(lambda m: "{" + m.group(1) + "}", path)
    path = _COLON_PARAMS.get(framework, _COLON_PARAM).sub(_parameter, path)
    return f"{method.upper()} {path}"


def _framework(resource: dict[str, Any]) -> str:
    return str((resource.get("attrs") or {}).get("framework") or "")


def _expected_names(
    kind: str,
    expected: list[dict[str, Any]],
    resources: list[dict[str, Any]],
    key: Callable[[str, str, str], str],
) -> dict[str, dict[str, Any]]:
    """The truth's items by normalised name, each read as the router the pack names on the
    routes of its own files reads it (else on most of the repository's): a truth written
    from a route table spells its paths as registered and names no framework."""
    in_file: dict[str, Counter[str]] = {}
    for r in resources:
        where = (r.get("location") or {}).get("path", "").removeprefix("./")
        in_file.setdefault(where, Counter())[_framework(r)] += 1
    overall = Counter(_framework(r) for r in resources)
    wanted: dict[str, dict[str, Any]] = {}
    for item in expected:
        near: Counter[str] = Counter()
        for where in item.get("files") or [item.get("file", "")]:
            near.update(in_file.get(where, Counter()))
        guess = (near or overall).most_common(1)
        wanted[key(item.get("kind", kind), item["name"], guess[0][0] if guess else "")] = item
    return wanted


def registry_copy(request_ms: int) -> Path:
    source = ROOT / "plugins" / "registry.toml"
    text = source.read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^(\s*request_ms\s*=\s*)\d+", rf"\g<1>{request_ms}", text)
    if n == 0:
        text = re.sub(
            r"(?m)^\[defaults\]\s*$", f"[defaults]\nrequest_ms = {request_ms}", text, count=1
        )
    target = source.with_name(f".real-repos-{os.getpid()}.toml")
    target.write_text(text, encoding="utf-8")
    return target


def run_pack(gpp: Path, config: Path, repo: Path, pack: str, timeout: float) -> dict[str, Any]:
    command = [str(gpp), "discover", "--config", str(config), "--repo", str(repo), pack, "."]
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {
            "status": f"timeout {timeout:.0f}s",
            "wall": time.monotonic() - started,
            "doc": None,
        }
    wall = time.monotonic() - started
    if done.returncode != 0:
        error = (done.stdout + done.stderr).decode("utf-8", "replace").strip().splitlines()
        return {"status": "FAILED", "wall": wall, "doc": None, "error": error[:4]}
    return {"status": "ok", "wall": wall, "doc": json.loads(done.stdout)}


def pointed_files(doc: dict[str, Any]) -> set[str]:
    """Files a finding (other than a duplicate) or an unresolved entry points at."""
    files: set[str] = set()
    for finding in doc.get("findings", []):
        if str(finding.get("code", "")).startswith("DUPLICATE_"):
            continue
        for where in [*finding.get("locations", []), finding.get("location") or {}]:
            if where.get("path"):
                files.add(where["path"])
    for entry in doc.get("unresolved", []):
        if entry.get("path"):
            files.add(entry["path"])
    return {f.removeprefix("./") for f in files}


# the library a pack names nowhere in its resources, because it reads only that one
_PACK_LIBRARY = {"pack-sqlalchemy": "sqlalchemy", "pack-django": "django models"}


def _library(pack: str, resource: dict[str, Any]) -> str:
    attrs = resource.get("attrs") or {}
    return str(attrs.get("framework") or attrs.get("orm") or _PACK_LIBRARY.get(pack, pack))


def by_library(
    pack: str,
    key: Callable[[str, str, str], str],
    resources: list[dict[str, Any]],
    wanted: dict[str, dict[str, Any]],
    missed: list[str],
    silent: list[str],
) -> dict[str, dict[str, int]]:
    """True and false positives, misses and silent misses per framework or ORM (issue 36's
    rows). A reported item is the library the pack names on it; a missed one is the library
    of what the pack found in the files that declare it, else the pack's most common one."""
    named = {key(r["kind"], r["name"], _framework(r)): _library(pack, r) for r in resources}
    in_file: dict[str, Counter[str]] = {}
    for r in resources:
        where = (r.get("location") or {}).get("path", "").removeprefix("./")
        in_file.setdefault(where, Counter())[_library(pack, r)] += 1
    overall = Counter(named.values())
    rows: dict[str, dict[str, int]] = {}

    def row(library: str) -> dict[str, int]:
        return rows.setdefault(library, {"tp": 0, "fp": 0, "missed": 0, "silent": 0})

    for name, library in named.items():
        row(library)["tp" if name in wanted else "fp"] += 1
    silent_set = set(silent)
    for name in missed:
        near: Counter[str] = Counter()
        for where in wanted[name].get("files") or [wanted[name]["file"]]:
            near.update(in_file.get(where, Counter()))
        guess = (near or overall).most_common(1)
        library = guess[0][0] if guess else _PACK_LIBRARY.get(pack, pack)
        row(library)["missed"] += 1
        row(library)["silent"] += name in silent_set
    return rows


def score(
    kind: str, expected: list[dict[str, Any]], run: dict[str, Any], pack: str = ""
) -> dict[str, Any]:
    doc = run["doc"] or {"resources": [], "findings": [], "unresolved": []}
    # an item may name a kind of its own (a knex table beside a Mongoose collection): it is
    # then keyed `kind:name`, so one pack's tables and collections are scored together
    kinds = {kind} | {e["kind"] for e in expected if "kind" in e}
    resources = [r for r in doc.get("resources", []) if r.get("kind") in kinds]

    def key(of: str, name: str, framework: str = "") -> str:
        return normalise(kind, name, framework) if of == kind else f"{of}:{name}"

    reported = {key(r["kind"], r["name"], _framework(r)) for r in resources}
    wanted = _expected_names(kind, expected, resources, key)
    hits = reported & wanted.keys()
    missed = sorted(wanted.keys() - reported)
    pointed = pointed_files(doc)
    flagged_prefix = {
        r["location"]["path"]
        for r in resources
        if r.get("attrs", {}).get("prefixUnresolved") is True and r.get("location")
    }
    silent = [m for m in missed if not pointed & set(wanted[m].get("files") or [wanted[m]["file"]])]
    pfx = [m for m in missed if flagged_prefix & set(wanted[m].get("files") or [wanted[m]["file"]])]
    # stricter: nothing said in the file where the item itself is written (a finding about
    # another mount of the file that registers a prefix does not count there)
    unflagged_here = [m for m in missed if not (pointed | flagged_prefix) & {wanted[m]["file"]}]
    # a truth written with the wrong kind (Mongoose's collections as tables) would score its
    # items as silent misses; name them so the truth gets fixed, not the pack
    other_kinds = {
        normalise(kind, r["name"]) for r in doc.get("resources", []) if r.get("kind") not in kinds
    }
    return {
        "status": run["status"],
        "error": run.get("error"),
        "wall_s": round(run["wall"], 2),
        "reported": len(reported),
        "reported_raw": len(resources),
        "expected": len(wanted),
        "tp": len(hits),
        "precision": len(hits) / len(reported) if reported else None,
        "recall": len(hits) / len(wanted) if wanted else None,
        "missed": missed,
        "silent": silent,
        "prefix_unresolved_at_file": pfx,
        "silent_at_own_file": unflagged_here,
        "false_positives": sorted(reported - wanted.keys()),
        "findings": len(doc.get("findings", [])),
        "finding_codes": sorted({str(f.get("code")) for f in doc.get("findings", [])}),
        "unresolved": len(doc.get("unresolved", [])),
        "unresolved_entries": doc.get("unresolved", []),
        "by_library": by_library(pack, key, resources, wanted, missed, silent),
        "missed_as_other_kind": sorted(other_kinds & set(missed)),
    }


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def table(rows: list[tuple[str, str, dict[str, Any]]]) -> str:
    head = ("repo", "pack", "status", "reported", "expected", "TP", "precision", "recall",
            "missed", "silent", "own", "pfxU", "findings", "unresolved", "wall s", "empty s")  # fmt: skip
    body = [
        (
            repo,
            pack,
            r["status"],
            str(r["reported"]),
            str(r["expected"]),
            str(r["tp"]),
            pct(r["precision"]),
            pct(r["recall"]),
            str(len(r["missed"])),
            str(len(r["silent"])),
            str(len(r.get("silent_at_own_file", []))),
            str(len(r["prefix_unresolved_at_file"])),
            str(r["findings"]),
            str(r["unresolved"]),
            f"{r['wall_s']:.1f}",
            "—" if r.get("empty_repo_wall_s") is None else f"{r['empty_repo_wall_s']:.1f}",
        )
        for repo, pack, r in rows
    ]
    widths = [max(len(x) for x in column) for column in zip(head, *body, strict=True)]
    lines = ["  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
             for row in (head, *body)]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def library_table(results: dict[str, Any]) -> str:
    """One line per framework or ORM over every repository measured: the figures issue 36's
    rows are judged on (P, R, silent misses as a share of the truth)."""
    totals: dict[str, dict[str, Any]] = {}
    for repo_name, repo in results.items():
        for figures in repo["packs"].values():
            for library, row in (figures.get("by_library") or {}).items():
                total = totals.setdefault(
                    library, {"repos": set(), "tp": 0, "fp": 0, "missed": 0, "silent": 0}
                )
                total["repos"].add(repo_name)
                for key in ("tp", "fp", "missed", "silent"):
                    total[key] += row[key]
    head = ("library", "repos", "expected", "TP", "precision", "recall", "silent")
    body = []
    for library, t in sorted(totals.items()):
        expected = t["tp"] + t["missed"]
        reported = t["tp"] + t["fp"]
        body.append((
            library, str(len(t["repos"])), str(expected), str(t["tp"]),
            pct(t["tp"] / reported if reported else None),
            pct(t["tp"] / expected if expected else None),
            f"{t['silent']} ({pct(t['silent'] / expected if expected else None)})",
        ))  # fmt: skip
    widths = [max(len(x) for x in column) for column in zip(head, *body, strict=True)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths, strict=True)))
             for line in (head, *body)]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, help="a checkout of the repository a truth file names")
    parser.add_argument(
        "--truth", type=Path, help="its truth file (bench/real_repos/truth/NAME.json)"
    )
    parser.add_argument(
        "--repos-dir", type=Path, help="a folder holding one checkout per truth file, named as it"
    )
    parser.add_argument("--only", default="", help="comma-separated truth names (with --repos-dir)")
    parser.add_argument(
        "--packs", default="", help="comma-separated pack ids (default: every pack a truth names)"
    )
    parser.add_argument(
        "--request-ms", type=int, default=900_000, help="request_ms in the registry copy"
    )
    parser.add_argument(
        "--timeout", type=float, default=1200, help="seconds before one discover is abandoned"
    )
    parser.add_argument("--gpp", type=Path, default=ROOT / ".venv" / "bin" / "gpp")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the run of each pack on an empty folder"
    )
    parser.add_argument("--json", type=Path, help="write every figure and list here")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print misses and false positives"
    )
    parser.add_argument(
        "--summarise", type=Path, help="print the per-library table of a saved --json, run nothing"
    )
    args = parser.parse_args(argv)
    if args.summarise:
        print(library_table(json.loads(args.summarise.read_text(encoding="utf-8"))))
        return 0

    jobs: list[tuple[Path, Path]] = []
    if args.repo and args.truth:
        jobs.append((args.repo, args.truth))
    elif args.repos_dir:
        only = {n for n in args.only.split(",") if n}
        for truth in sorted(TRUTH_DIR.glob("*.json")):
            if not only or truth.stem in only:
                jobs.append((args.repos_dir / truth.stem, truth))
    else:
        parser.error("give --repo and --truth, or --repos-dir")
    packs_wanted = {p for p in args.packs.split(",") if p}

    config = registry_copy(args.request_ms)
    rows: list[tuple[str, str, dict[str, Any]]] = []
    results: dict[str, Any] = {}
    baseline: dict[str, float] = {}
    empty = tempfile.TemporaryDirectory(prefix=".real-repos-empty-", dir=ROOT)  # not under /tmp
    try:
        for repo, truth_path in jobs:
            truth = json.loads(truth_path.read_text(encoding="utf-8"))
            if not repo.is_dir():
                print(f"skip {truth['name']}: {repo} is not a directory", file=sys.stderr)
                continue
            print(
                f"{truth['name']}: {truth['repo']} @ {truth['commit'][:12]} ({repo})",
                file=sys.stderr,
            )
            results[truth["name"]] = {"repo": truth["repo"], "commit": truth["commit"], "packs": {}}
            for pack, spec in truth["packs"].items():
                if packs_wanted and pack not in packs_wanted:
                    continue
                if pack not in baseline and not args.no_baseline:
                    # the CLI's own start, the sandbox and the handshake: the floor of "wall s"
                    floor = run_pack(args.gpp, config, Path(empty.name), pack, args.timeout)
                    baseline[pack] = round(floor["wall"], 2)
                run = run_pack(args.gpp, config, repo.resolve(), pack, args.timeout)
                result = score(spec["kind"], spec["expected"], run, pack)
                result["empty_repo_wall_s"] = baseline.get(pack)
                results[truth["name"]]["packs"][pack] = result
                rows.append((truth["name"], pack, result))
                print(f"  {pack}: {result['status']} in {result['wall_s']} s", file=sys.stderr)
                if result["error"]:
                    print("    " + "\n    ".join(result["error"]), file=sys.stderr)
                if result["missed_as_other_kind"]:
                    print(
                        f"    truth kind {spec['kind']!r} differs from the pack's for "
                        f"{len(result['missed_as_other_kind'])} expected names: check the truth",
                        file=sys.stderr,
                    )
    finally:
        config.unlink(missing_ok=True)
        empty.cleanup()

    print(table(rows))
    print()
    print(library_table(results))
    if args.verbose:
        for repo_name, pack, r in rows:
            for label in ("silent", "missed", "false_positives"):
                if r[label]:
                    print(f"\n{repo_name} {pack} {label} ({len(r[label])}):")
                    print("  " + "\n  ".join(r[label]))
    if args.json:
        args.json.write_text(
            json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
