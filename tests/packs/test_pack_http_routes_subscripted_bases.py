"""pack-http-routes on classes whose bases are written subscripted, as generics
(`pymodules.class_base`): `vs.ModelViewSet[Box]`, an aliased `ReadOnly[Sheet]`, a project's
generic viewset `OwnedViewSet(GenericViewSet[M], Generic[M, S])` used as `Listing[Box, dict[str,
Any]]` or `generic.OwnedViewSet[Sheet, Any]`, `drf_generics.GenericAPIView[Any]` (DRF's and
django-stubs-ext's `__class_getitem__`), and a FastAPI router subclass used as
`routing.TypedRouter[Item]`: each base is the class it subscripts, and `typing.Generic[...]` among
them brings no handler and hides none. drf-spectacular's `@extend_schema_view(...)` on a class
(plain or module-qualified) returns the class: its routes stay the view's. An `@action`'s
`MethodMapper` (`@drop_page.mapping.patch` on another method) adds its method to the action's
route.

The expected routes are what Django 5.2 and DRF 3.18 serve for
tests/fixtures/repos/django-subscripted-bases-app (`get_resolver()` walked by
bench/real_repos/derive/django_runtime_routes.py); its two tables are `apps.get_models()`'s."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs import django_models  # noqa: E402
from routes_harness import document, fixture_files, scanned_both_ways  # noqa: E402

FIXTURE = "django-subscripted-bases-app"
SERVED = {
    "GET /v2/",  # DefaultRouter's API root
    "GET /v2/boxes/",
    "POST /v2/boxes/",
    "GET /v2/boxes/{pk}/",
    "PUT /v2/boxes/{pk}/",
    "PATCH /v2/boxes/{pk}/",
    "DELETE /v2/boxes/{pk}/",
    "GET /v2/sheets/",
    "GET /v2/sheets/{slug}/",
    "DELETE /v2/sheets/{slug}/pages/{page_no}/",  # the @action
    "PATCH /v2/sheets/{slug}/pages/{page_no}/",  # `@drop_page.mapping.patch` on another method
    "GET /v2/trays/",
    "DELETE /v2/trays/{pk}/",
    "POST /v2/bins/",
    "GET /v2/health/",
    "POST /v2/health/",
    "PUT /v2/echo/",
    "PATCH /v2/echo/",
}
FASTAPI = {
    "svc/routing.py": (
        "from typing import Generic, TypeVar\n"
        "from fastapi import APIRouter\n"
        "T = TypeVar('T')\n"
        "class TypedRouter(APIRouter, Generic[T]):\n"
        "    pass\n"
    ),
    "svc/items.py": (
        "from fastapi import FastAPI\n"
        "from svc import routing\n"
        "class Item: ...\n"
        "class ItemRouter(routing.TypedRouter[Item]):\n"
        "    pass\n"
        "router = ItemRouter(prefix='/items')\n"
        "@router.get('/{item_id}')\n"
        "def one(item_id: int):\n"
        "    return None\n"
        "app = FastAPI()\n"
        "app.include_router(router, prefix='/api')\n"
    ),
}


def test_subscripted_view_and_viewset_bases_are_the_classes_they_subscript() -> None:
    found = document(fixture_files(FIXTURE))
    assert {str(r["name"]) for r in found["resources"]} == SERVED
    # only DefaultRouter's format-suffix note: no base is left unknown, none listed as ANY
    assert [(f["code"], f["locations"][0]["line"]) for f in found["findings"]] == [
        ("UNRESOLVED_ROUTE", 6)
    ]


def test_an_actions_method_mapping_adds_its_method_to_the_actions_route() -> None:
    names = {str(r["name"]) for r in document(fixture_files(FIXTURE))["resources"]}
    assert {n for n in names if "pages" in n} == {
        "DELETE /v2/sheets/{slug}/pages/{page_no}/",
        "PATCH /v2/sheets/{slug}/pages/{page_no}/",
    }


def test_a_router_subclass_used_subscripted_serves_its_routes() -> None:
    found = document(FASTAPI)
    assert {str(r["name"]) for r in found["resources"]} == {"GET /api/items/{item_id}"}
    assert found["findings"] == []


def test_subscripted_abstract_model_bases_give_their_tables() -> None:
    files = fixture_files(FIXTURE)
    pieces = django_models.link(
        sorted((path, django_models.extract(path, text)) for path, text in files.items())
    )
    assert sorted(str(r["name"]) for r in pieces.resources) == ["archive_box", "archive_sheet"]
    assert pieces.findings == []


@pytest.mark.parametrize(
    ("files", "route"),
    [(fixture_files(FIXTURE), "GET /v2/trays/"), (FASTAPI, "GET /api/items/{item_id}")],
    ids=["drf", "fastapi"],
)
def test_a_pre_filtered_scan_of_subscripted_bases_equals_parsing_every_file(
    files: dict[str, str], route: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert f'"{route}"' in documents[1]
