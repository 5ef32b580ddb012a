"""What the route pack's framework suites share: a document of files held in memory, its routes
placed at `file:line framework`, their names, its findings' places, a fixture repository's
files, and one repository scanned with and without the pre-filter."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from pack_http_routes import make_scanner
from packs.routes import extract, route_document
from packs.scan import JSONObject


def document(files: dict[str, str]) -> JSONObject:
    linked = route_document(
        [(path, extract(path, source)) for path, source in sorted(files.items())]
    )
    return {"resources": linked.resources, "findings": linked.findings, "signals": linked.signals}


def names(files: dict[str, str]) -> set[str]:
    return {str(r["name"]) for r in document(files)["resources"]}


def finding_places(files: dict[str, str]) -> dict[str, list[str]]:
    """Finding code -> the places it lists, `file:line`."""
    out: dict[str, list[str]] = {}
    for finding in document(files)["findings"]:
        out.setdefault(str(finding["code"]), []).extend(
            f"{p['path']}:{p['line']}" for p in finding["locations"]
        )
    return out


def prefix_unresolved(files: dict[str, str]) -> list[str]:
    """The routes listed with `attrs.prefixUnresolved`."""
    return sorted(
        str(r["name"]) for r in document(files)["resources"] if r["attrs"].get("prefixUnresolved")
    )


def fixture_files(name: str, pattern: str = "*.py") -> dict[str, str]:
    """The files of `tests/fixtures/repos/<name>`, by repo-relative path."""
    root = Path(__file__).resolve().parents[1] / "fixtures" / "repos" / name
    return {
        str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob(pattern))
    }


def located(files: dict[str, str]) -> dict[str, str]:
    """Route name -> `file:line`."""
    return {
        str(r["name"]): f"{r['location']['path']}:{r['location']['line']}"
        for r in document(files)["resources"]
    }


def places_of(found: JSONObject) -> dict[str, tuple[str, int]]:
    """A document's route name -> (file, line)."""
    return {r["name"]: (r["location"]["path"], r["location"]["line"]) for r in found["resources"]}


def findings_of(found: JSONObject) -> list[tuple[str, list[tuple[str, int]]]]:
    """A document's findings as (code, every (file, line) it names), in order."""
    return [
        (f["code"], [(p["path"], p["line"]) for p in f["locations"]])
        for f in found.get("findings", [])
    ]


def placed(files: dict[str, str]) -> dict[str, str]:
    """Route name -> `file:line framework`."""
    out: dict[str, str] = {}
    for resource in document(files)["resources"]:
        where = resource["location"]
        out[resource["name"]] = f"{where['path']}:{where['line']} {resource['attrs']['framework']}"
    return out


def scanned_both_ways(
    root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[int]]:
    """`files` written under `root` and scanned there as the pack does, parsing every file and
    then through the pre-filter: the two documents (JSON, keys sorted) and the files parsed."""
    write_files(root, files)
    monkeypatch.chdir(root)
    documents, parsed = [], []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.workers = 1
        documents.append(json.dumps(scanner.discover(["."]), sort_keys=True))
        parsed.append(scanner.parsed)
    return documents, parsed


def write_files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def pre_filtered(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[JSONObject, int, int]:
    """The repository at `root` scanned as the pack does through the pre-filter, asserted equal
    (as canonical JSON) to parsing every file; and how many files each mode parsed."""
    monkeypatch.chdir(root)
    documents, parsed = [], []
    for parse_all in (True, False):
        scanner = make_scanner(parse_all=parse_all)
        scanner.workers = 1
        documents.append(scanner.discover(["."]))
        parsed.append(scanner.parsed)
    reference, filtered = (json.dumps(d, sort_keys=True) for d in documents)
    assert filtered == reference
    return documents[1], parsed[0], parsed[1]
