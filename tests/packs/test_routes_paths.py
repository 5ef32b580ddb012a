"""`packs.routes.paths`: each framework's spelling of a path turned into the one form the
documents use (`{name}` parameters), and prefixes joined as the frameworks join them (FastAPI's
own `include_router` is the reference for the prefixes it accepts)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fastapi import APIRouter, FastAPI
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes.paths import (
    brace_path,
    express_path,
    express_served,
    flask_path,
    flask_shape,
    hapi_path,
    join,
    join_prefix,
)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("/users/<int:id>", "/users/{id}"),
        ("/files/<path:rest>", "/files/{rest}"),
        ("/<name>", "/{name}"),
        ("/re/<regex('[a-z]+'):slug>", "/re/{slug}"),
    ],
)
def test_flask_converters_become_braces(rule: str, expected: str) -> None:
    assert flask_path(rule) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [("/posts/:slug", "/posts/{slug}"), ("/p/:page?", "/p/{page}"), ("/u/:id(\\d+)", "/u/{id}")],
)
def test_express_parameters_become_braces(path: str, expected: str) -> None:
    assert express_path(path) == expected


@pytest.mark.parametrize(
    ("path", "named"),
    [("/users/", "/users"), ("/users/:id/", "/users/{id}"), ("/", "/"), ("/a", "/a")],
)
def test_express_routes_are_named_without_the_slash_it_does_not_tell_apart(
    path: str, named: str
) -> None:
    """Express and koa-router route without strict slashes: `router.get('/')` mounted at
    `/users` answers `/users` and `/users/` alike, and is named `/users`."""
    assert express_served(path) == named


@pytest.mark.parametrize(
    ("prefix", "path", "joined"),
    [
        ("/users", "/", "/users/"),
        ("/users", "", "/users"),
        ("/", "/x", "/x"),
        ("/catalog/", "/", "/catalog/"),
        ("", "/x", "/x"),
        ("/a", "b", "/a/b"),
    ],
)
def test_paths_join_as_the_frameworks_join_them(prefix: str, path: str, joined: str) -> None:
    assert join(prefix, path) == joined


@pytest.mark.parametrize(
    ("rule", "shape"),
    [("/users/<int:id>", "/users/{int}"), ("/<name>", "/{string}"), ("/<string:n>", "/{string}"),
     ("/f/<path:p>/<uuid:u>", "/f/{path}/{uuid}"), ("/plain", "/plain")],
)  # fmt: skip
def test_flask_shape_keeps_the_converter_flask_routes_by(rule: str, shape: str) -> None:
    """Two rules differing only in a converter both route: their shapes differ, and a rule's
    default converter is `string` whether spelled or not."""
    assert flask_shape(rule) == shape


@pytest.mark.parametrize(
    ("path", "expected"),
    [("/items/{id:int}", "/items/{id}"), ("/files/{rest:path}", "/files/{rest}"),
     ("/u/{id}", "/u/{id}"), ("/a:b", "/a:b")],
)  # fmt: skip
def test_brace_converters_are_dropped(path: str, expected: str) -> None:
    assert brace_path(path) == expected


@pytest.mark.parametrize(
    ("path", "named"),
    [("/docs/{path*}", "/docs/{path*}"), ("/u/{id?}", "/u/{id?}"), ("/users/", "/users"), ("/", "/")],
)  # fmt: skip
def test_hapi_paths_keep_their_parameters_and_drop_a_trailing_slash(path: str, named: str) -> None:
    assert hapi_path(path) == named


@pytest.mark.parametrize(
    ("prefix", "more", "joined"),
    [("", "/v1", "/v1"), ("/api", "", "/api"), ("/api/", "/v1", "/api/v1"), ("/api", "v1", "/api/v1")],
)  # fmt: skip
def test_join_prefix_adds_nothing_for_an_empty_side(prefix: str, more: str, joined: str) -> None:
    assert join_prefix(prefix, more) == joined


_SEGMENT = st.text(alphabet="abcxyz0-_", min_size=1, max_size=6)
_PREFIX = st.lists(_SEGMENT, min_size=1, max_size=3).map(lambda parts: "/" + "/".join(parts))
_ROUTE = st.lists(_SEGMENT, max_size=3).map(lambda parts: "/" + "/".join(parts))


@given(_PREFIX, _ROUTE)
def test_join_is_fastapis_include_router_for_every_prefix_it_accepts(
    prefix: str, path: str
) -> None:
    router = APIRouter()
    router.add_api_route(path, lambda: None)
    app = FastAPI()
    app.include_router(router, prefix=prefix)
    assert list(app.openapi()["paths"]) == [join(prefix, path)]
