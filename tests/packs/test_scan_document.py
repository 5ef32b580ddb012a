"""`packs.scan_document`: a pack's link guarded so one file's facts never fail the document,
the last link reused for the very same facts, and the document sorted as DESIGN §3 says."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.pymodules import REPOSITORY_PACKAGES
from packs.scan_document import (
    DEADLINE_REACHED,
    READER_ERROR,
    DocumentPieces,
    GuardedLink,
    JSONObject,
    Link,
    ReaderError,
    Unresolved,
    reader_error,
    render,
)

Facts = list[str]  # names of things, one resource each; "boom" makes the link raise


def resource(path: str, name: str, line: int = 1) -> JSONObject:
    return {"kind": "thing", "name": name, "location": {"path": path, "line": line}}


def link_each(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
    """One resource per fact; a file holding `boom` makes it raise on its own."""
    linked = DocumentPieces()
    for path, names in files:
        if "boom" in names:
            raise KeyError(f"no {path}")
        linked.resources += [resource(path, name) for name in names]
    return linked


def untimed(link: Link[Facts]) -> Link[Facts]:
    return link


def counting(link: Link[Facts], calls: list[int]) -> Link[Facts]:
    def counted(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
        calls.append(len(files))
        return link(files)

    return counted


def names(linked: DocumentPieces) -> list[str]:
    return [r["name"] for r in linked.resources]


def test_a_file_whose_facts_make_the_link_raise_is_a_reader_error_and_the_rest_still_link() -> None:
    failed: list[ReaderError] = []
    facts = [("a.py", ["x"]), ("bad.py", ["boom"]), ("c.py", ["y"])]
    linked = GuardedLink[Facts](untimed)(facts, failed, frozenset(), link_each)
    assert names(linked) == ["x", "y"]
    (error,) = failed
    assert error.path == "bad.py"
    assert error.detail.startswith("the reader failed on this file: KeyError at test_scan_doc")
    assert error.detail.endswith(": 'no bad.py'")


def test_a_link_that_fails_only_across_files_links_each_file_alone_and_says_so() -> None:
    def link_alone_only(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
        if len(files) > 1:
            raise RecursionError("too deep")
        return link_each(files)

    failed: list[ReaderError] = []
    facts = [("a.py", ["x"]), ("b.py", ["y"])]
    linked = GuardedLink[Facts](untimed)(facts, failed, frozenset(), link_alone_only)
    assert names(linked) == ["x", "y"]
    (error,) = failed
    assert error.path == "a.py"
    assert "RecursionError" in error.detail and "too deep" in error.detail
    assert error.detail.endswith("(across files: each file was linked alone)")


def test_the_very_same_facts_and_packages_reuse_the_last_link() -> None:
    calls: list[int] = []
    link = counting(link_each, calls)
    guarded = GuardedLink[Facts](untimed)
    facts = [("a.py", ["x"]), ("b.py", ["y"])]
    first = guarded(facts, [], frozenset({"pkg"}), link)
    assert guarded(list(facts), [], frozenset({"pkg"}), link) is first  # same objects
    assert calls == [2]
    guarded(facts, [], frozenset({"pkg", "other"}), link)  # imports may resolve elsewhere
    guarded(
        [("a.py", ["x"]), ("b.py", list(facts[1][1]))], [], frozenset(), link
    )  # equal, not same
    guarded(facts, [], frozenset(), link, memoized=False)  # an on-demand round always links
    assert calls == [2, 2, 2, 2]


def test_the_link_sees_the_walks_packages_and_they_are_unset_after() -> None:
    seen: list[object] = []

    def looking(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
        seen.append(REPOSITORY_PACKAGES.get())
        return DocumentPieces()

    GuardedLink[Facts](untimed)([("a.py", [])], [], frozenset({"app"}), looking)
    assert seen == [frozenset({"app"})]
    assert REPOSITORY_PACKAGES.get() is None


def test_the_link_is_timed_through_the_given_wrapper() -> None:
    wrapped: list[Link[Facts]] = []

    def timed(link: Link[Facts]) -> Link[Facts]:
        wrapped.append(link)
        return link

    GuardedLink[Facts](timed)([("a.py", ["x"])], [], frozenset(), link_each)
    assert wrapped == [link_each]


def test_reader_error_names_the_type_the_readers_line_and_the_first_line_of_the_message() -> None:
    def reader() -> None:
        raise ValueError("first line " + "x" * 300 + "\nsecond line")

    with pytest.raises(ValueError) as caught:
        reader()
    error = reader_error("m.py", caught.value)
    line = reader.__code__.co_firstlineno + 1
    prefix = f"the reader failed on this file: ValueError at test_scan_document.py:{line}: "
    assert error.detail.startswith(prefix)
    assert error.detail[len(prefix) :] == ("first line " + "x" * 300)[:200]
    assert reader_error("m.py", IndexError()).detail.endswith(": IndexError")  # no frame
    assert error.as_json() == {
        "code": READER_ERROR,
        "detail": error.detail,
        "locations": [{"path": "m.py", "line": 1}],
    }


def test_the_document_is_sorted_by_path_then_line_and_a_packs_order_breaks_ties() -> None:
    resources = [resource("b.py", "b2", 2), resource("b.py", "b1"), resource("a/z.py", "az")]
    resources.append(resource("b.py", "b2-later", 2))  # the same place: kept after b2
    linked = DocumentPieces(
        resources=resources,
        findings=[{"code": "X", "detail": "", "locations": [{"path": "c.py", "line": 3}]}],
        signals=[
            {"signal": "s", "source": {"path": "z.py", "line": 1}},
            {"signal": "t", "source": {"path": "a.py", "line": 9}},
        ],
    )
    failed = [ReaderError("a.py", "boom")]
    unresolved = [Unresolved("z.py", "too-large", "big"), Unresolved("b.py", "not-found", "gone")]
    document = render(linked, failed, unresolved, [], None)
    assert [r["name"] for r in document["resources"]] == ["az", "b1", "b2", "b2-later"]
    assert [f["code"] for f in document["findings"]] == [READER_ERROR, "X"]
    assert [u["path"] for u in document["unresolved"]] == ["b.py", "z.py"]
    assert [s["signal"] for s in document["classificationSignals"]] == ["t", "s"]
    assert document["unresolved"][0] == {"path": "b.py", "reason": "not-found", "detail": "gone"}


def test_what_the_deadline_left_unread_is_one_finding_at_each_place() -> None:
    document = render(DocumentPieces(), [], [], ["pkg", "m.py"], 4_500.0)
    (finding,) = document["findings"]
    assert finding["code"] == DEADLINE_REACHED
    assert finding["locations"] == [{"path": "pkg", "line": 1}, {"path": "m.py", "line": 1}]
    assert finding["detail"].startswith("the scan stopped after 4500 ms")
    assert "with 2 files or folders not read yet" in finding["detail"]
    assert render(DocumentPieces(), [], [], [], 4_500.0)["findings"] == []
