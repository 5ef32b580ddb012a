"""Library Django router classes as data (re-exported by `frameworks`, the records of every
framework the routes pack reads): what `router.urls` serves for the view sets registered on a
router of Wagtail, drf-extensions or django-ninja. A module of its own, importing nothing of the
pack, since `django_facts` (imported by `model`, which `frameworks` imports) reads it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DjangoRouter:
    """A library's Django router class, as data: what `router.urls` (or `include(router.urls)`)
    serves for the view sets registered on it. `routes` is read from the library's own source
    (`version` says which), each endpoint served under its registered name (a regex fragment,
    as the library joins it) by the routes its view set's `hook` classmethod returns: the
    library's list below, or a project class's override of `hook` (read as the project's code).
    `routes` None: the library is recognised, not read: a finding naming it where its router is
    used (never silent)."""

    library: str  # as pip names it
    module: str  # where the classes are defined: a class is matched by module prefix and name
    classes: tuple[str, ...]
    register: str = "register"  # the method registering a view set on it
    version: str = ""
    # (route below the endpoint's name, method, the view set's action): `path()` syntax
    routes: tuple[tuple[str, str, str], ...] | None = None
    hook: str = ""  # the view set's classmethod building its routes (a project may override)
    # DRF's routers under other names: each class read as the DRF router its name ends with
    drf: bool = False
    unread: str = ""  # what is not read, for the finding


DJANGO_ROUTERS = (
    # wagtail/api/v2/router.py: `re_path(rf"^{name}/", include(class_.get_urlpatterns()))`;
    # wagtail/api/v2/views.py `BaseAPIViewSet.get_urlpatterns` (no subclass of wagtail 7.4.4
    # overrides it: pages, images, documents, redirects)
    DjangoRouter(
        "wagtail",
        "wagtail.api.v2.router",
        ("WagtailAPIRouter",),
        register="register_endpoint",
        version="wagtail 7.4.4",
        routes=(("", "GET", "listing_view"), ("<int:pk>/", "GET", "detail_view"),
                ("find/", "GET", "find_view")),
        hook="get_urlpatterns",
    ),
    # rest_framework_extensions/routers.py (drf-extensions 0.8.0): DRF's routers with
    # `NestedRouterMixin`, whose `register()` returns an item registering below it
    DjangoRouter(
        "drf-extensions",
        "rest_framework_extensions.routers",
        ("ExtendedSimpleRouter", "ExtendedDefaultRouter"),
        version="drf-extensions 0.8.0",
        drf=True,
        unread="a registration chained on what `register()` returns (its nested routes, "
        "`parents_query_lookups`)",
    ),
    # ninja/main.py (django-ninja 1.7.1): `NinjaAPI.urls` serves the operations decorated on
    # the API and its routers (`@api.get(...)`, `api.add_router(...)`)
    DjangoRouter(
        "django-ninja",
        "ninja",
        ("NinjaAPI",),
        version="django-ninja 1.7.1",
        unread="the operations its `@api.get(...)`-style decorators and `add_router()` declare",
    ),
)  # fmt: skip
"""drf-nested-routers' `NestedSimpleRouter`/`NestedDefaultRouter` and DRF's own routers are
read by `django_facts` and `django_linker` (their grammar: parents, lookups, actions)."""


def django_router(dotted: str) -> tuple[DjangoRouter, str] | None:
    """The record of a library router class, dotted as imported (`wagtail.api.v2.router.
    WagtailAPIRouter`, or a package re-exporting it), and the class's name; None: no record."""
    module, _, name = dotted.rpartition(".")
    for record in DJANGO_ROUTERS:
        if name in record.classes and (module + ".").startswith(record.module.split(".")[0] + "."):
            return record, name
    return None


DJANGO_REGISTER_METHODS = frozenset({"register", *(r.register for r in DJANGO_ROUTERS)})
