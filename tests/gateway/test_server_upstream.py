"""The HTTP edge's reliance on uvicorn and Starlette internals, checked (issue 33, item 10):
every member `app.server` uses beyond the documented API exists in the pinned versions, and one
that is gone is named at import, not met at the first request."""

from __future__ import annotations

import pytest

from app.server import upstream


def test_every_framework_member_the_edge_relies_on_is_there() -> None:
    assert upstream.missing() == []


@pytest.mark.parametrize(
    "gone",
    [
        upstream.Member("uvicorn.protocols.http.httptools_impl", "STATUS_LINES", "attribute"),
        upstream.Member(
            "uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_head", "attribute"
        ),
        upstream.Member(
            "uvicorn.protocols.http.httptools_impl", "RequestResponseCycle.done", "instance"
        ),
        upstream.Member("uvicorn", "Config.http_protocol", "parameter"),
        upstream.Member("uvicorn.protocols.http.h12", "Protocol", "attribute"),
    ],
)
def test_a_member_that_is_gone_fails_the_import_naming_it(
    monkeypatch: pytest.MonkeyPatch, gone: upstream.Member
) -> None:
    monkeypatch.setattr(upstream, "MEMBERS", (*upstream.MEMBERS, gone))
    with pytest.raises(ImportError, match=gone.name.replace(".", r"\.")):
        upstream.require()
