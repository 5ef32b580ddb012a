"""A Python pack's main: one Scanner (its memo lives as long as the session) served over GPP/3."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gpp.plugin import serve

from .prefilter import Fields, Follow, Keyword
from .scan import DocumentPieces, Scanner


class Analyzer(Protocol):
    """A module with a pack's two pipeline steps (see `scan`)."""

    def extract(self, path: str, source: str) -> Any: ...
    def link(self, files: Any) -> DocumentPieces: ...


def serve_python_pack(
    plugin_id: str,
    plugin_version: str,
    analyzer: Analyzer,
    keywords: Sequence[Keyword] | None = None,
    base_keywords: Sequence[str] = (),
    follow: Follow = "imports",
    fields: Fields | None = None,
    named: Callable[[str], bool] | None = None,
) -> int:
    """`keywords`, `base_keywords`, `follow`, `fields`: the pack's pre-filter (see `packs.prefilter`);
    None keywords parse every file. `named`: files read besides `.py` ones (`Scanner.named`):
    they are never pre-filtered out."""
    scanner: Scanner[Any] = Scanner(
        (".py",),
        analyzer.extract,
        analyzer.link,
        language="Python",
        keywords=keywords,
        base_keywords=base_keywords,
        follow=follow,
        fields=fields,
        named=named,
    )
    return serve(
        plugin_id,
        plugin_version,
        scanner.discover,
        capabilities=("discover", "classification-signals"),
    )
