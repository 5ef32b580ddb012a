"""Django URLconf and Django REST framework routes, linked from every file's `DjangoFacts`.

The roots are the `ROOT_URLCONF` of the settings module `DJANGO_SETTINGS_MODULE` names (also
through `from .base import *`), else every `ROOT_URLCONF` the scanned files set, else every
`urlpatterns` no scanned URLconf includes (listed with an `UNRESOLVED_PREFIX`: served under a
prefix not known). From each root `include()`s are followed with their prefixes joined as
Django joins them (plain concatenation), views resolved through imports to the methods they
answer, and DRF routers expanded into the routes they generate. Names resolve through the
linker's module index and its `_facts`, so a pre-filtering scan parses the views, settings and
router files it asks for, as every other reader's links do."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar, cast

from ..bounded_values import MAX_LENGTH, NotEvaluated, format_text
from .auth import NONE, REQUIRED, UNKNOWN
from .django_app_loops import AppLoops
from .django_collect import Built, Collector
from .django_facts import (
    COMPUTED,
    Action,
    DjangoClass,
    DjangoFacts,
    DjangoFunction,
    DrfRoute,
    Registration,
    RouteChange,
    RoutePart,
    RouterUrls,
    SettingTest,
    UrlEntry,
)
from .django_library_views import (
    EVERY,
    LibraryUrl,
    LibraryViews,
    library_url_list,
    library_view_methods,
    library_view_of,
)
from .django_route_hooks import hooked_table
from .django_routers import DJANGO_ROUTERS, DjangoRouter, django_router
from .model import DJANGO, ImportRef, Sym

if TYPE_CHECKING:
    from .linker import FoundRoute, Gap, _RouteResolver

ANY = "ANY"  # a function view with no method restriction: Django calls it for every method
_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE")
_IMPLICIT = frozenset({"head", "options"})  # answered by every `View`, never listed (as Flask)
_DEPTH = 32
_LANGUAGE = "{language}/"  # the prefix `i18n_patterns` puts before its routes

# Library bases: the handler methods each defines (Django generic views, DRF generic views)
_VIEW_METHODS: dict[str, tuple[str, ...]] = {
    "View": (), "APIView": (), "GenericAPIView": (), "TemplateView": ("get",),
    "RedirectView": ("get", "post", "put", "patch", "delete"),
    **{n: ("get",) for n in ("ListView", "DetailView", "ArchiveIndexView", "YearArchiveView",
                             "MonthArchiveView", "WeekArchiveView", "DayArchiveView",
                             "TodayArchiveView", "DateDetailView")},
    **{n: ("get", "post", "put") for n in ("FormView", "CreateView", "UpdateView", "LoginView",
                                           "PasswordChangeView", "PasswordResetView",
                                           "PasswordResetConfirmView", "ProcessFormView")},
    "DeleteView": ("get", "post", "delete"),
    "LogoutView": ("post",),  # Django 5: GET no more logs out
    "JavaScriptCatalog": ("get",), "JSONCatalog": ("get",),
    # the generic bases the views above are made of, used as bases of the repository's own
    # views with Django's mixins (`FormMixin, SingleObjectTemplateResponseMixin,
    # BaseDetailView`): each by the handlers its MRO gives (Django 6.0's)
    **{n: ("get",) for n in ("BaseDetailView", "BaseListView", "BaseArchiveIndexView",
                             "BaseDateListView", "BaseYearArchiveView", "BaseMonthArchiveView",
                             "BaseWeekArchiveView", "BaseDayArchiveView", "BaseTodayArchiveView",
                             "BaseDateDetailView")},
    **{n: ("get", "post", "put") for n in ("BaseFormView", "BaseCreateView", "BaseUpdateView")},
    "BaseDeleteView": ("get", "post", "delete"),
    "DeletionMixin": ("post", "delete"),  # the one Django mixin that brings handlers
    # django-filter's list views (`django_filters.views`)
    "FilterView": ("get",), "BaseFilterView": ("get",),
    # DRF's and its usual libraries' token views; drf-spectacular's schema and docs views
    **{n: ("post",) for n in ("ObtainAuthToken", "ObtainJSONWebToken", "RefreshJSONWebToken",
                              "VerifyJSONWebToken", "TokenObtainPairView", "TokenRefreshView",
                              "TokenVerifyView", "TokenBlacklistView",
                              "TokenObtainSlidingView", "TokenRefreshSlidingView")},
    **{n: ("get",) for n in ("SpectacularAPIView", "SpectacularJSONAPIView",
                             "SpectacularYAMLAPIView", "SpectacularSwaggerView",
                             "SpectacularSwaggerSplitView", "SpectacularRedocView")},
    **{n: ("get",) for n in ("PasswordChangeDoneView", "PasswordResetDoneView",
                             "PasswordResetCompleteView")},
    "ListAPIView": ("get",), "CreateAPIView": ("post",), "RetrieveAPIView": ("get",),
    "DestroyAPIView": ("delete",), "UpdateAPIView": ("put", "patch"),
    "ListCreateAPIView": ("get", "post"), "RetrieveUpdateAPIView": ("get", "put", "patch"),
    "RetrieveDestroyAPIView": ("get", "delete"),
    "RetrieveUpdateDestroyAPIView": ("get", "put", "patch", "delete"),
}  # fmt: skip
# Library viewset bases and DRF mixins: the actions each brings
_VIEWSET_ACTIONS: dict[str, tuple[str, ...]] = {
    "ViewSet": (), "GenericViewSet": (), "ViewSetMixin": (),
    "ModelViewSet": ("list", "create", "retrieve", "update", "partial_update", "destroy"),
    "ReadOnlyModelViewSet": ("list", "retrieve"),
    "ListModelMixin": ("list",), "CreateModelMixin": ("create",),
    "RetrieveModelMixin": ("retrieve",), "UpdateModelMixin": ("update", "partial_update"),
    "DestroyModelMixin": ("destroy",),
}  # fmt: skip
_LIBRARIES = ("django", "rest_framework")
# DRF's router classes, as `DjangoFacts.routers` spells the kind of an instance made with no
# option: a subclass of the repository starts from its base's
_ROUTER_KINDS = {"DefaultRouter": "default-suffixes", "SimpleRouter": "simple"}
# a library router's record (`frameworks.DJANGO_ROUTERS`), by the kind `router_subclass` gives
_LIBRARY_ROUTERS = {f"lib:{r.library}": r for r in DJANGO_ROUTERS}
# standard-library bases a view class may have that define no handler method
_METHODLESS = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol", "object"})
# library modules whose classes a view may also inherit that define no handler method either
# (`class ListView(APIView, LimitOffsetPagination)`: the paginator's `paginate_queryset`)
_METHODLESS_MODULES = ("rest_framework.pagination.",)
# whose views `_VIEW_METHODS` knows
_VIEW_LIBRARIES = (*_LIBRARIES, "drf_spectacular", "django_filters")
# a library's function views: `obtain_auth_token`, `obtain_jwt_token = ObtainJSONWebToken.as_view()`
_LIBRARY_FUNCTIONS = {n: ("post",) for n in ("obtain_auth_token", "obtain_jwt_token",
                                             "refresh_jwt_token", "verify_jwt_token")}  # fmt: skip
# SimpleRouter's routes: (detail, {method: action})
_ROUTER_ROUTES = (
    (False, {"GET": "list", "POST": "create"}),
    (True, {"GET": "retrieve", "PUT": "update", "PATCH": "partial_update", "DELETE": "destroy"}),
)
_CRUD = frozenset(n for _, mapping in _ROUTER_ROUTES for n in mapping.values())
# DRF's `SimpleRouter.routes`, as a subclass may change it (rest_framework/routers.py)
_DRF_TABLE = (
    DrfRoute(r"^{prefix}{trailing_slash}$", tuple(_ROUTER_ROUTES[0][1].items()), False),
    DrfRoute(r"^{prefix}/{url_path}{trailing_slash}$", None, False),
    DrfRoute(r"^{prefix}/{lookup}{trailing_slash}$", tuple(_ROUTER_ROUTES[1][1].items()), True),
    DrfRoute(r"^{prefix}/{lookup}/{url_path}{trailing_slash}$", None, True),
)
_GUARD_MIXINS = frozenset({"LoginRequiredMixin", "PermissionRequiredMixin",
                           "UserPassesTestMixin", "AccessMixin"})  # fmt: skip
_GUARD_DECORATORS = frozenset({"login_required", "permission_required", "user_passes_test",
                               "staff_member_required", "superuser_required"})  # fmt: skip
_NOT_GUARDS = frozenset({
    "csrf_exempt", "csrf_protect", "ensure_csrf_cookie", "cache_page", "never_cache",
    "cache_control", "vary_on_headers", "vary_on_cookie", "xframe_options_exempt",
    "xframe_options_sameorigin", "xframe_options_deny", "gzip_page", "condition", "etag",
    "last_modified", "sensitive_post_parameters", "sensitive_variables", "atomic",
    "non_atomic_requests", "authentication_classes", "throttle_classes", "renderer_classes",
    "parser_classes", "schema", "extend_schema", "swagger_auto_schema", "login_not_required",
})  # fmt: skip
_REQUIRED_PERMISSIONS = frozenset({"IsAuthenticated", "IsAdminUser", "DjangoModelPermissions",
                                   "DjangoObjectPermissions"})  # fmt: skip
_READ_ONLY_OPEN = frozenset({"IsAuthenticatedOrReadOnly",
                             "DjangoModelPermissionsOrAnonReadOnly"})  # fmt: skip
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_PATH_PARAM = re.compile(r"<(?:[A-Za-z_][A-Za-z0-9_]*:)?([A-Za-z_][A-Za-z0-9_]*)>")
_GROUP = re.compile(r"\(\?P<([A-Za-z_][A-Za-z0-9_]*)>")
_ESCAPED = re.compile(r"\\([./\-_~])")
_META = frozenset("[](){}*+?|\\^$")  # `.` is read as the dot it is almost always meant as
_CLASS_ESCAPES = frozenset("dDwWsS")  # `\\d`...: a class of characters, as `[0-9]` is

# What a dotted name resolves to: (kind, file, name) with kind in "list", "router", "class",
# "view" (a name bound to `X.as_view()`),
# "function", "module"; or ("external", "", "module.attr"); None: not shown by the files
Resolved = tuple[str, str, str]


def _converter(match: re.Match[str]) -> str:
    """`<int:pk>` -> `{int}`, `<slug>` -> `{str}`: what Django tells apart (two patterns that
    differ only in a converter both route), parameter names aside."""
    spelled = match.group(0)[1:-1]
    return "{" + (spelled.rpartition(":")[0] if ":" in spelled else "str") + "}"


def django_paths(route: str, regex: bool) -> tuple[str, ...] | None:
    """`django_path`, once per variant an optional part of a regex makes, as Django's own
    `reverse()` spells them (`django.utils.regex_helper.normalize`): an optional group
    (`(?:(?P<fmt>[a-z]+)/)?`, `(?P<ext>png|jpg)?`) gives the path without it and the path with
    it, an optional character (`\\.?`, `/?`) is left out."""
    if not regex:
        found = django_path(route, regex)
        return (found,) if found is not None else None
    text = route.removesuffix("$").removesuffix(r"\Z")
    variants = _optional_variants(text, 0)
    if variants is None:
        return None
    out: list[str] = []
    for variant in variants:
        found = django_path(variant, True)
        if found is None:
            return None
        out.append(found)
    return tuple(dict.fromkeys(out))


_MAX_VARIANTS = 16


def _optional_variants(text: str, depth: int) -> list[str] | None:
    """`text` with its first top-level optional part (a group or one character followed by
    `?`) taken out and put in, each recursively; None past `_MAX_VARIANTS` variants."""
    if depth > 4:
        return None
    opened: list[int] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == "[":  # a class: its `?` and parentheses are characters
            at = text.find("]", at + 2)
            if at < 0:
                return [text]
        elif char == "(":
            opened.append(at)
        elif char == ")" and opened:
            start = opened.pop()
            if not opened and text.startswith("?", at + 1) and not text.startswith("??", at + 1):
                group = text[start : at + 1]
                inner = group[3:-1] if group.startswith("(?:") else group
                head, tail = text[:start], text[at + 2 :]
                out: list[str] = []
                for variant in (head + tail, head + inner + tail):
                    more = _optional_variants(variant, depth + 1)
                    if more is None:
                        return None
                    out += more
                return out if len(out) <= _MAX_VARIANTS else None
        elif char == "?" and not opened and at > 0 and text[at - 1] not in "()*+?}]":
            cut = at - 2 if at > 1 and text[at - 2] == "\\" else at - 1
            return _optional_variants(text[:cut] + text[at + 1 :], depth)
        at += 1
    return [text]


def _group_end(text: str, start: int) -> int | None:
    """Where the group opening at `start` closes (escapes skipped); None if unbalanced."""
    depth = 0
    at = start
    while at < len(text):
        if text[at] == "\\":
            at += 2
            continue
        if text[at] == "(":
            depth += 1
        elif text[at] == ")":
            depth -= 1
            if depth == 0:
                return at
        at += 1
    return None


_LEADING_ANCHORS = re.compile(r"^(?:\^|\\A)+")


def django_path(route: str, regex: bool) -> str | None:
    """A `path()` route or a `re_path()` regex as `{name}` spells it; None for a regex that is
    no path (alternatives, classes, repetition outside a named group)."""
    if not regex:
        return _PATH_PARAM.sub(lambda m: "{" + m.group(1) + "}", route)
    text = _LEADING_ANCHORS.sub("", route)  # `^^user/`: a pattern joined from anchored parts
    text = text.removesuffix("$").removesuffix(r"\Z")
    if text.endswith("/?") and not text.endswith("\\/?"):  # an optional trailing slash: both
        text = text[:-2]  # `/x` and `/x/` match, named without it (as Express's and Koa's are)
    out: list[str] = []
    at = 0
    positional = 0
    while at < len(text):
        match = _GROUP.match(text, at)
        if match is not None:  # a named group: skip to its closing parenthesis
            depth, end = 1, match.end()
            while end < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 2 if text[end] == "\\" else 1
            if depth:
                return None
            out.append("{" + match.group(1) + "}")
            at = end
            continue
        if text.startswith("(", at) and not text.startswith("(?", at):
            close = _group_end(text, at)  # an unnamed group: a positional argument, which
            if close is None:  # `reverse()` names `_0`, `_1`...
                return None
            out.append("{_" + str(positional) + "}")
            positional += 1
            at = close + 1
            continue
        escaped = _ESCAPED.match(text, at)
        if escaped is not None:
            out.append(escaped.group(1))
            at = escaped.end()
            continue
        skipped = _zero_occurrences(text, at)
        if skipped is not None:  # `[^/]*`, `\d*`, `[ab]?`: reverse() writes none of them
            at = skipped
            continue
        if text[at] in _META:
            return None
        out.append(text[at])
        at += 1
    return "".join(out)


def _zero_occurrences(text: str, at: int) -> int | None:
    """Where a character class or a class escape (`\\d`, `\\w`, `\\s` and their negations)
    at `at`, quantified by `*` or `?` (greedy or lazy), ends with its quantifier: a
    part Django's `reverse()` (`regex_helper.normalize`) spells as zero occurrences, so no
    character of the path; None for anything else."""
    if text.startswith("[", at):
        end = at + 1
        end += text.startswith("^", end)
        while end < len(text) and text[end] != "]":
            end += 2 if text[end] == "\\" else 1
        end += 1
    elif text.startswith("\\", at) and text[at + 1 : at + 2] in _CLASS_ESCAPES:
        end = at + 2
    else:  # `.*` matches any rest, `/` too: a catch-all, not named (a finding), as before
        return None
    if end > len(text) or text[end : end + 1] not in ("*", "?"):
        return None
    return end + 1 + text.startswith("?", end + 1)


def _filled(url: str, url_path: str, prefix: str, lookup: str, trailing: str) -> str | None:
    """A DRF route's URL template filled as `get_urls` fills it, by the packs' guarded
    format: `{prefix}` written 4,000 times, filled with a 4,000-character prefix, was 16
    million characters a route. None where Python's format fails or the result is past the
    cap."""
    if url.count("{url_path}") * len(url_path) > MAX_LENGTH:
        return None
    values = {"prefix": prefix, "lookup": f"(?P<{lookup}>[^/.]+)", "trailing_slash": trailing}
    try:
        return format_text(url.replace("{url_path}", url_path), (), values)
    except NotEvaluated:
        return None


def _seeded(facts: DjangoFacts) -> bool:
    """Whether the file holds what only a file admitted by Django's seeds can: a pre-filtered
    scan and a parse-all one then start from the same files."""
    return bool(
        "urlpatterns" in facts.lists
        or facts.root_urlconf
        or facts.settings_module
        or facts.default_permissions
        or facts.notes
    )


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _class_walk(
    walk: Callable[Concatenate[DjangoRouteResolver, _P], _R],
) -> Callable[Concatenate[DjangoRouteResolver, _P], _R]:
    """A walk over a class's bases answered once per class and depth in a link: bases that
    share bases (`class D(L, R)`, `L` and `R` below one class, forty such levels in 2.5 KB)
    were read once per path to each, 2^32 reads up to `_DEPTH`, past `request_ms`. The depth
    is part of the key, so a walk cut by `_DEPTH` answers as before. Answers are shared:
    callers never change them."""

    def kept(self: DjangoRouteResolver, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        key = (walk.__name__, args, tuple(sorted(kwargs.items())))
        if key not in self.class_walks:
            self.class_walks[key] = walk(self, *args, **kwargs)
        return cast(_R, self.class_walks[key])

    return kept


class DjangoRouteResolver:
    """The Django routes resolved over a `_RouteResolver`'s files (its module index, its
    `_facts` that a pre-filtering scan follows, its findings table)."""

    def __init__(self, resolver: _RouteResolver) -> None:
        self.resolver = resolver
        self.found: list[FoundRoute] = []
        self.default_permissions: tuple[str, ...] | None = None
        # the configuration defaults the routes on the way to the pattern walked were read
        # with (`path(settings.BASE_PATH, include(...))`): each route under them carries them
        self.assumed: tuple[str, ...] = ()
        # the calls of the project's code whose URL patterns are being walked (innermost last)
        self.building: list[tuple[str, int]] = []
        self.resolved: dict[tuple[str, str], Resolved | None] = {}  # "^name": not local
        self.settings_files: list[str] = []  # what `django.conf.settings` reads, in order
        self.loops = AppLoops(self)
        self.collector = Collector(self)  # runs the project's code that builds URL patterns
        self.walked: set[str] = set()  # the files whose URL patterns the walk entered
        # includes of a module the pack cannot name (`include(f"{plugin}.urls")`): where they
        # are written, as written, and a pattern of the module names they may give
        self.unnamed: list[tuple[str, int, str, re.Pattern[str]]] = []
        # the router classes' own `get_routes` (file, class, line) met by `router_subclass`
        self.route_hooks: list[tuple[str, str, int]] = []
        self.class_walks: dict[tuple[object, ...], object] = {}  # `_class_walk`'s answers
        # `module_file`'s answers: the module index is the link's, so one a name once gives
        # (a failed file it lands in touched then); a registry's ~1,200 decorator sites ask
        # for the same few names each (netbox)
        self.module_files: dict[tuple[str, str], str | None] = {}

    def facts(self, path: str) -> DjangoFacts | None:
        return self.resolver._facts(path).django

    def urlpatterns(self, file: str) -> tuple[str, tuple[UrlEntry, ...]] | None:
        """The `urlpatterns` a URLconf module serves and the file they are written in: its
        own, or those it imports from another module (a package's `urls/__init__.py` doing
        `from .base import urlpatterns`); None when the scanned files show none."""
        facts = self.facts(file)
        if facts is not None and "urlpatterns" in facts.lists:
            return file, facts.lists["urlpatterns"]
        found = self.resolve(file, "urlpatterns")
        if found is None or found[0] != "list":
            return None
        source = self.facts(found[1])
        return (found[1], source.lists[found[2]]) if source is not None else None

    def module_file(self, name: str, importer: str) -> str | None:
        key = (name, importer)
        if key not in self.module_files:
            module = self.resolver._python_module(name, importer)
            found = None if module is None else self.resolver.python_files.get(module.name)
            self.module_files[key] = found
        return self.module_files[key]

    # -- roots -----------------------------------------------------------------------------

    def routes(self) -> list[FoundRoute]:
        files = sorted(p for p in self.resolver.modules if p.endswith(".py"))
        # files a pre-filter admits by their seeds (`frameworks.READ`): URLconfs and settings
        with_facts = [(p, f) for p in files if (f := self.facts(p)) is not None and _seeded(f)]
        if not with_facts:
            return []
        permissions = [f.default_permissions for _, f in with_facts if f.default_permissions]
        self.default_permissions = permissions[0] if len(set(permissions)) == 1 else None
        if len(set(permissions)) > 1:
            self.default_permissions = ("?",)
        roots = self.roots(with_facts)
        if roots:
            for file, setting_file, line in roots:
                served = self.urlpatterns(file) if file else None
                if served is None:
                    detail = (
                        "ROOT_URLCONF names a module whose urlpatterns the scanned files do "
                        "not show: the routes it serves are not listed"
                    )
                    self.note("UNRESOLVED_ROUTER", setting_file, line, detail)
                    continue
                self.walk(*served, "", NONE, (), tuple(dict.fromkeys((file, served[0]))))
        else:
            included = self.included(with_facts)
            for path, facts in with_facts:
                if "urlpatterns" in facts.lists and path not in included:
                    line = facts.lists["urlpatterns"][0].line if facts.lists["urlpatterns"] else 1
                    gap: Gap = (
                        path,
                        line,
                        "these urlpatterns are included by nothing the scanned files show "
                        "(no ROOT_URLCONF names them): the prefix they are served under is "
                        "not known",
                    )
                    self.walk(path, facts.lists["urlpatterns"], "", UNKNOWN, (gap,), (path,))
        self.maybe_included(with_facts)
        for path, facts in with_facts:
            for line, what in facts.notes:
                if what == "format_suffix_patterns":
                    self.note("UNRESOLVED_ROUTE", path, line, "format_suffix_patterns adds a "
                              "`.json`-style suffix variant of each route here: those are not "
                              "listed")  # fmt: skip
        return self.found

    def maybe_included(self, with_facts: list[tuple[str, DjangoFacts]]) -> None:
        """A URLconf the walk never entered, whose module name an include the pack cannot
        name may give (`include(f"{plugin}.urls")` over plugins found at run time): a finding
        at its own urlpatterns, where its routes are written, never silence."""
        if not self.unnamed:
            return
        modules = {file: name for name, file in self.resolver.python_files.items()}
        for path, facts in with_facts:
            entries = facts.lists.get("urlpatterns")
            if entries is None or path in self.walked or not entries:
                continue
            module = modules.get(path, path.removesuffix(".py").replace("/", "."))
            matched = [(f, line, w) for f, line, w, rx in self.unnamed if rx.search(module)]
            if not matched:
                continue
            file, line, written = matched[0]
            self.note("UNRESOLVED_ROUTER", path, entries[0].line, "these urlpatterns are "
                      "included by nothing the pack can follow, but "
                      f"`include({written})` ({file}:{line}) includes a module it cannot "
                      "name, which may be this one: their routes are not listed")  # fmt: skip

    def unnamed_include(self, path: str, entry: UrlEntry, written: str) -> None:
        """Keep an include whose module is text and names (`f"{app}.urls"`) not known: the
        URLconfs it may name are said where they are written (`maybe_included`)."""
        if entry.module is None or not entry.included:
            return
        pieces = [re.escape(text) if kind == "lit" else r"[\w.-]+" for kind, text in entry.module]
        if not any(kind == "lit" and text.strip(".") for kind, text in entry.module):
            return  # no literal part: it may name any module, nothing to point at
        pattern = re.compile(r"(?:^|\.)" + "".join(pieces) + "$")
        self.unnamed.append((path, entry.line, written, pattern))

    def roots(self, with_facts: list[tuple[str, DjangoFacts]]) -> list[tuple[str, str, int]]:
        """(urlconf file, the file setting it, line) per root URLconf."""
        confs: dict[str, tuple[str, int]] = {}
        for path, facts in with_facts:
            if facts.settings_module is None:
                continue
            settings = self.module_file(facts.settings_module, path)
            if settings is not None and settings not in self.settings_files:
                self.settings_files.append(settings)
            conf = self.root_of(settings, 0) if settings is not None else None
            if conf is not None:
                confs.setdefault(conf[0], (conf[1], self.root_line(conf[1])))
        if not confs:
            for path, facts in with_facts:
                if facts.root_urlconf is not None:
                    confs.setdefault(facts.root_urlconf, (path, facts.root_line))
                    self.settings_files.append(path)
        out: list[tuple[str, str, int]] = []
        for name, (setting_file, line) in sorted(confs.items()):
            file = self.module_file(name, setting_file)
            out.append((file or "", setting_file, line))
        return out

    def root_line(self, settings: str) -> int:
        facts = self.facts(settings)
        return facts.root_line if facts is not None else 1

    def root_of(self, settings: str, depth: int) -> tuple[str, str] | None:
        facts = self.facts(settings)
        if facts is None or depth > 8:
            return None
        if facts.root_urlconf is not None:
            return (facts.root_urlconf, settings)
        for star in facts.stars:
            file = self.module_file(star, settings)
            found = self.root_of(file, depth + 1) if file is not None else None
            if found is not None:
                return found
        return None

    def included(self, with_facts: list[tuple[str, DjangoFacts]]) -> set[str]:
        out: set[str] = set()
        for path, facts in with_facts:
            for entries in facts.lists.values():
                for entry in entries:
                    kind, name = entry.target
                    if kind == "include":
                        file = self.module_file(name, path)
                    elif kind == "name":
                        found = self.resolve(path, name)
                        file = found[1] if found is not None and found[0] == "module" else None
                    else:
                        continue
                    if file is not None:
                        out.add(file)
        return out

    # -- the walk --------------------------------------------------------------------------

    def attribute_built(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
    ) -> bool:
        """An object's attribute the URLconf splices in (`urlpatterns += registry.api_urls`),
        evaluated by `django_collect` (a property runs): whether it gave URL patterns, walked
        here. The name read again as itself is no answer."""
        built = self.collector.run(path, entry) if entry.code else "not followed"
        if isinstance(built, str) or all(
            (file, inner.line, inner.target) == (path, entry.line, entry.target)
            for file, inner, _ in built
        ):
            return False
        self.walk_built(path, entry, built, here, auth, gaps, stack)
        return True

    def walk_built(
        self,
        path: str,
        entry: UrlEntry,
        built: Built,
        here: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
    ) -> None:
        """The URL entries the project's code built for `entry`, walked as written there."""
        self.building.append((path, entry.line))
        for file, inner, more in built:
            self.walk(file, (inner,), here, auth, gaps + more, (*stack, f"{path}:{entry.line}"))
        self.building.pop()

    def walk(
        self,
        path: str,
        entries: tuple[UrlEntry, ...],
        prefix: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
    ) -> None:
        if len(stack) > _DEPTH:  # never silent: 1,200 URLconfs each including the next
            line = entries[0].line if entries else 1
            detail = f"URL patterns included more than {_DEPTH} levels deep are not listed"
            self.note("UNRESOLVED_ROUTE", path, line, detail)
            return
        self.walked.add(path)
        for entry in entries:
            if entry.only_if is not None and (off := self.off_by_default(path, entry.only_if)):
                self.note("UNRESOLVED_ROUTE", path, entry.line, off)
                continue
            if entry.loop is not None:  # added by each pass of a loop: per app, or a finding
                self.loops.walk(path, entry, prefix, auth, gaps, stack)
                continue
            text = entry.route
            defaults: tuple[str, ...] = ()  # the configuration defaults the route was read with
            if text is None and entry.parts is not None:
                read = self.computed_read(path, entry.parts)
                text, defaults = read if read is not None else (None, ())
            if entry.static:
                served = self.static(path, entry, text)
                if served is None:
                    continue
                text, entry = served
            # a `path()` route as written: its converters, read when the route is emitted, tell
            # routes apart for duplicates
            routes = (
                (text,) if text is not None and not entry.regex
                else django_paths(text, True) if text is not None else None
            )  # fmt: skip
            if routes is None:
                spelled = "computed" if text is None else f"`{text}`"
                unnamed = (
                    f"the route {spelled} of this URL pattern is not a path the pack can "
                    "name (computed, or a regex with alternatives, classes or repetition)"
                )
                if not self.patterns(path, entry):
                    self.note("UNRESOLVED_ROUTE", path, entry.line,
                              f"{unnamed}: what it serves is not listed")  # fmt: skip
                    if self.building and self.building[-1][0] != path:  # also at the call
                        call, line = self.building[-1]  # that built it, where the user wrote it
                        self.note("UNRESOLVED_ROUTE", call, line, "this call builds a URL "
                                  f"pattern ({path}:{entry.line}) whose route the pack cannot "
                                  "name: what it serves is not listed")  # fmt: skip
                    continue
                # the patterns it includes are listed under the prefix so far, each flagged
                # (as a JS mount's unknown prefix is): never silent, and still walked
                routes = ("",)
                unnamed_gap: tuple[Gap, ...] = (
                    (path, entry.line, f"{unnamed}: the routes it includes are listed without it"),
                )
            else:
                unnamed_gap = ()
            entry_gaps = gaps + unnamed_gap
            entry_gaps += tuple((path, line, why) for line, why in entry.caveats)
            # `i18n_patterns`: served under each language's prefix, a path parameter named
            # `{language}` (one of `LANGUAGES`), and also bare with `prefix_default_language=False`
            languages = {"": ("",), "prefixed": (_LANGUAGE,), "both": (_LANGUAGE, "")}
            entry_auth = max(auth, self.wrapped(path, entry.wrappers))
            with self.assuming(defaults):
                for language in languages[entry.i18n]:
                    for route in routes:
                        here = prefix + language + route
                        self.target(path, entry, here, entry_auth, entry_gaps, stack)

    def patterns(self, path: str, entry: UrlEntry) -> bool:
        """Whether the pattern includes URL patterns (a URLconf, a list, a router's), not a
        view: what it includes can be listed under a route the pack cannot name."""
        kind, name = entry.target
        if kind in ("include", "router") or entry.included or entry.spliced:
            return True
        found = self.resolve(path, name) if kind == "name" else None
        return found is not None and found[0] in ("list", "module", "router")

    def target(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        auth: int,
        gaps: tuple[Gap, ...],
        stack: tuple[str, ...],
    ) -> None:
        if not self.spend(path, entry.line):
            return
        if len(here) > MAX_LENGTH:  # 30 URLconfs of 100 routes under 4,000 characters each
            self.note("UNRESOLVED_ROUTE", path, entry.line, f"the URL so far is longer than "
                      f"{MAX_LENGTH} characters: what this pattern serves is not listed")  # fmt: skip
            return
        kind, name = entry.target
        if kind == "include":
            file = self.module_file(name, path)
            if file is None and self.outside(name, path):
                self.library_urls(path, entry, f"include('{name}')", name)
                return
            served = self.urlpatterns(file) if file is not None else None
            if file is None or served is None:
                self.opaque(path, entry, f"`include('{name}')` names a module whose "
                            "urlpatterns the scanned files do not show")  # fmt: skip
                return
            if file in stack or served[0] in stack:
                self.cycle(path, entry, f"include('{name}')")
                return
            where, entries = served
            walked = (*stack, file) if where == file else (*stack, file, where)
            self.walk(where, entries, here, auth, gaps, walked)
            return
        if kind == "static":  # Django's `serve`: a function view with no method restriction
            handler = (
                "django.contrib.staticfiles.views.serve"
                if entry.static == "staticfiles"
                else "django.views.static.serve"
            )
            self.emit(ANY, here, path, entry.line, handler, auth, gaps, entry.assumed)
            return
        if kind == "opaque":
            self.opaque(path, entry, f"the view {name} is not one the pack can follow")
            self.unnamed_include(path, entry, name)
            return
        if kind == "computed":  # a project's own registry or hooks (`urlpatterns += f()`)
            built = self.collector.run(path, entry) if entry.code else "not followed"
            if isinstance(built, str):
                self.opaque(path, entry, f"`{name}` adds URL patterns a call computes: {built}")
                return
            self.walk_built(path, entry, built, here, auth, gaps, stack)
            return
        if kind == "built":  # a list the project's code built (`django_collect`)
            for file, inner, more in self.collector.built.get(name, []):
                if name not in stack:
                    self.walk(file, (inner,), here, auth, gaps + more, (*stack, name))
            return
        if kind == "schema":  # a library's API schema view: GET, guarded by its own options
            self.emit(name, here, path, entry.line, None, max(auth, UNKNOWN), gaps)
            return
        if kind == "instance":  # a callable object: Django calls it for every method
            made = self.resolve(path, name)
            if made is not None and made[0] == "function":  # `make_view()`: what it returns
                self.made_view(path, entry, here, name, auth, gaps)
                return
            verdict = max(auth, UNKNOWN)
            if made is not None and made[0] == "class":
                verdict = max(auth, self.class_auth(made[1], made[2], 0))
            self.emit(ANY, here, path, entry.line, name, verdict, gaps)
            return
        if kind == "made":
            self.made_view(path, entry, here, name, auth, gaps)
            return
        found = self.resolve(path, name)
        if kind == "router" and found is not None and found[0] == "router":
            why = self.router(found[1], found[2], here, auth, gaps)
            if why is not None:
                self.opaque(path, entry, f"`{name}.urls`: {why}")
            return
        written = f"{name}.urls" if kind == "router" else name
        written = f"include({written})" if entry.included else written
        patterns = entry.included or entry.spliced  # URL patterns by name, never a view
        if found is not None and found[0] == "external" and (kind == "router" or patterns):
            # `admin.site.urls`, `include(wagtail_urls)`, `library_urlpatterns + ours`: a
            # library's URLconf
            module = f"{found[2]}.urls" if kind == "router" else found[2]
            listed = library_url_list(module) if kind != "router" else None
            if listed is not None:  # a library's list in the project's URLconf: its routes
                self.library_list(path, entry, here, auth, gaps, listed)
                return
            self.library_urls(path, entry, written, module)
            return
        if found is None and entry.included:
            self.opaque(path, entry, f"`{written}` names URL patterns the scanned files do not "
                        "show")  # fmt: skip
            return
        if (
            (found is None or found[0] == "external")
            and entry.wrappers
            and self.made_by_wrapper(path, entry, here, auth, gaps)
        ):
            return
        if found is None or found[0] == "external":
            spliced = kind in ("router", "name") and entry.route == "" and found is None
            if spliced and self.attribute_built(path, entry, here, auth, gaps, stack):
                return  # a registry's property (`plugin_registry.urls`) its code builds
            if kind == "router":  # a router the files do not show
                self.opaque(path, entry, f"`{name}.urls` is not a router the scanned files show")
                return
            if kind == "name" and entry.route == "" and found is None:
                self.opaque(path, entry, f"`{name}` is not a URL list the scanned files show")
                return
            self.view_route(path, entry, here, None, name, auth, gaps)
            return
        what, file, attr = found
        if what == "list":
            facts = self.facts(file)
            key = f"{file}:{attr}"
            if facts is not None and key in stack:
                self.cycle(path, entry, written)
            elif facts is not None:
                self.walk(file, facts.lists[attr], here, auth, gaps, (*stack, key))
        elif what == "module":
            facts = self.facts(file)
            if facts is not None and "urlpatterns" in facts.lists and file in stack:
                self.cycle(path, entry, written)
            elif facts is not None and "urlpatterns" in facts.lists:
                self.walk(file, facts.lists["urlpatterns"], here, auth, gaps, (*stack, file))
            else:
                self.opaque(path, entry, f"`{name}` names a module with no urlpatterns")
        elif what == "router":
            why = self.router(file, attr, here, auth, gaps)
            if why is not None:
                self.opaque(path, entry, f"`{name}`: {why}")
        elif entry.included:  # `include(views.x)`: a view is no URL patterns
            self.opaque(path, entry, f"`include({name})` names no URL patterns")
        elif what == "view" and kind == "name":
            self.bound_route(path, entry, here, file, attr, auth, gaps)
        elif what == "view":
            self.opaque(path, entry, f"`{name}` is a view made by `as_view()`, not a view class")
        else:
            self.view_route(path, entry, here, (what, file, attr), name, auth, gaps)

    def made_view(
        self, path: str, entry: UrlEntry, here: str, name: str, auth: int, gaps: tuple[Gap, ...]
    ) -> None:
        """`error_page(404)`: the project's function returns a def of its own or a function
        of its module, maybe one of several by its argument: a function view answering the
        methods every one of them answers (Django calls it for each, as any function view);
        any other value it returns, the project's code computes (`returned_view`); what the
        pack cannot tell is a finding at the pattern."""
        found = self.resolve(path, name)
        made = self.function(found[1], found[2]) if found and found[0] == "function" else None
        views: list[tuple[str, DjangoFunction]] = []
        for returned, inner in made.returns if made is not None and found is not None else ():
            if inner is not None and found is not None:
                views.append((found[1], inner))
                continue
            other = self.resolve(found[1], returned) if found and returned != "?" else None
            function = (
                self.function(other[1], other[2]) if other and other[0] == "function" else None
            )
            if other is None or function is None:
                views = []
                break
            views.append((other[1], function))
        if not views:
            self.returned_view(path, entry, here, name, auth, gaps)
            return
        answered = {function.methods or (ANY,) for _, function in views}
        if len(answered) != 1 or any("?" in methods for methods in answered):
            self.note("UNRESOLVED_ROUTE", path, entry.line, f"the view `{name}(...)` returns "
                      "is one of functions answering different methods: it is not listed")  # fmt: skip
            return
        for method in answered.pop():
            verdict = auth
            for file, function in views:
                verdict = max(verdict, self.function_auth(file, function))
                if function.api_view:
                    verdict = max(verdict, self.permission_auth(file, function.permissions, method))
            self.emit(method, here, path, entry.line, name, verdict, gaps)

    def returned_view(
        self, path: str, entry: UrlEntry, here: str, name: str, auth: int, gaps: tuple[Gap, ...]
    ) -> None:
        """`path("x/", make_view())`: the view the call returns as the project's code computes
        it (`django_collect`: `X.as_view()`, `import_string(settings.VIEW).as_view()`, a
        function view), listed as if written in the pattern, at the pattern; a finding there
        when it is not known, never a route taking every method."""
        got = self.collector.view(path, entry) if entry.code else "it is not followed"
        if isinstance(got, str) or not self.returned_route(path, entry, here, got, auth, gaps):
            why = f" ({got})" if isinstance(got, str) else ""
            self.opaque(path, entry, f"the view `{name}(...)` returns is not one the pack can "
                        f"follow{why}")  # fmt: skip

    def made_by_wrapper(
        self, path: str, entry: UrlEntry, here: str, auth: int, gaps: tuple[Gap, ...]
    ) -> bool:
        """`path("x/", view_for(settings.KIND))`: a call written as a wrapper is, and whose
        argument is no view the files show, read as a project function making the view (what
        it returns, when the pack can follow it); False: read as the wrapper it is written as."""
        maker = self.resolve(path, entry.wrappers[-1])
        if maker is None or maker[0] != "function" or not entry.code:
            return False
        got = self.collector.view(path, entry)
        return not isinstance(got, str) and self.returned_route(path, entry, here, got, auth, gaps)

    def returned_route(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        got: tuple[str, UrlEntry, tuple[str, ...]],
        auth: int,
        gaps: tuple[Gap, ...],
    ) -> bool:
        """The routes of the view a project function returned (`Collector.view`: the entry
        naming it in `file`, where it is written), at `entry`; False when it is no view."""
        file, made, defaults = got
        kind, written = made.target
        found = self.resolve(file, written) if kind in ("name", "cbv") else None
        if kind not in ("name", "cbv") or (
            found is not None and found[0] not in ("class", "function", "view", "external")
        ):
            return False
        view = replace(entry, target=made.target, methods=made.methods, actions=made.actions,
                       assumed=(*entry.assumed, *made.assumed))  # fmt: skip
        with self.assuming(defaults):
            if found is not None and found[0] == "view":  # `x = X.as_view()` of its module
                self.bound_route(path, view, here, found[1], found[2], auth, gaps)
            elif found is None or found[0] == "external":
                self.view_route(path, view, here, None, written, auth, gaps, home=file)
            else:
                self.view_route(path, view, here, found, written, auth, gaps)
        return True

    def bound_route(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        file: str,
        attr: str,
        auth: int,
        gaps: tuple[Gap, ...],
    ) -> None:
        """A URL pattern naming `attr = X.as_view(...)` of `file`: the class view, its methods
        and its wrappers' guards as if `X.as_view(...)` were written in the pattern."""
        facts = self.facts(file)
        bound = facts.views[attr] if facts is not None else None
        if bound is None:
            return
        kind, name = bound.target
        if kind != "cbv":
            self.opaque(path, entry, f"the view {name} is not one the pack can follow")
            return
        merged = replace(entry, target=bound.target, methods=bound.methods, actions=bound.actions,
                         assumed=bound.assumed)  # fmt: skip
        verdict = max(auth, self.wrapped(file, bound.wrappers))
        found = self.resolve(file, name)
        if found is not None and found[0] == "external":
            found = None
        self.view_route(path, merged, here, found, name, verdict, gaps, home=file)

    def computed(self, path: str, parts: tuple[RoutePart, ...]) -> str | None:
        """A route made of text and names, each name evaluated as the linker evaluates a
        prefix (module constants here or imported, class fields, helpers' return values);
        `settings.X` of `django.conf` read in the project's settings module."""
        read = self.computed_read(path, parts)
        return read[0] if read is not None else None

    def computed_read(
        self, path: str, parts: tuple[RoutePart, ...]
    ) -> tuple[str, tuple[str, ...]] | None:
        """`computed`, with the configuration defaults its names were read with (a setting
        `getattr(config, "BASE_PATH", "")` of a configuration the scan cannot see). A route
        longer than `MAX_LENGTH` is not read: an f-string naming a 4,000-character constant
        10,000 times made a 40 MB route and a document past the host's line cap."""
        out: list[str] = []
        length = 0
        assumed: tuple[str, ...] = ()
        for kind, text in parts:
            read = (text, ()) if kind == "lit" else self.value_read(path, text)
            if read is None:
                return None
            length += len(read[0])
            if length > MAX_LENGTH:
                return None
            out.append(read[0])
            assumed += tuple(a for a in read[1] if a not in assumed)
        return "".join(out), assumed

    def prefix_read(
        self, file: str, spelled: tuple[RoutePart, ...] | None
    ) -> tuple[str | None, tuple[str, ...]]:
        """A router registration's prefix (or a nested router's parent prefix) as `file`
        spells it, evaluated as a computed route is (`computed_read`), with the configuration
        defaults it was read with; (None, ()) when it is not known."""
        read = self.computed_read(file, spelled) if spelled is not None else None
        return read if read is not None else (None, ())

    @contextmanager
    def assuming(self, more: tuple[str, ...]) -> Iterator[None]:
        """The routes emitted inside carry `more` in `attrs.configDefault` too."""
        outer = self.assumed
        self.assumed = (*outer, *(a for a in more if a not in outer))
        try:
            yield
        finally:
            self.assumed = outer

    def value(self, path: str, name: str) -> str | None:
        read = self.value_read(path, name)
        return read[0] if read is not None else None

    def value_read(self, path: str, name: str) -> tuple[str, tuple[str, ...]] | None:
        setting = ""
        if name.startswith("django.conf.settings."):  # `staticfiles_urlpatterns()`'s default
            setting = name.removeprefix("django.conf.settings.")
        head, _, rest = name.partition(".")
        binding = self.resolver._facts(path).bindings.get(head)
        if (
            isinstance(binding, ImportRef)
            and (binding.module, binding.attr) == ("django.conf", "settings")
            and rest
            and "." not in rest
        ):
            setting = rest
        if setting:
            found = {self.setting_read(file, setting, 0) for file in self.settings_files}
            return found.pop() if len(found) == 1 else None
        expr = Sym(tuple(name.split(".")))
        value = self.resolver._string(path, expr)
        if value is not None:
            return value, self.resolver._assumed(path, expr)
        value = self.collector.value(path, name)  # through a project object (a settings wrapper)
        return (value, ()) if value is not None else None

    def off_by_default(self, path: str, only_if: SettingTest) -> str:
        """Why a URL pattern added under `if settings.X:` is not served: `X` of the project's
        settings read as a configuration default (an environment variable's, marked as
        assumed), as the constant the settings module binds it to, or not set where the test
        has a reading for that (`SettingTest.unset`), that the branch does not run on; "" when
        it does, or when `X` is not known or reads no configuration (walked, as before)."""
        name = only_if.name
        head, _, rest = name.partition(".")
        binding = self.resolver._facts(path).bindings.get(head)
        if not (
            isinstance(binding, ImportRef)
            and (binding.module, binding.attr) == ("django.conf", "settings")
            and rest
            and "." not in rest
        ):
            return ""
        read = {self.setting_read(file, rest, 0) for file in self.settings_files}
        if len(read) != 1:
            return ""
        found = read.pop()
        if found is not None and found[1]:
            held, why = bool(found[0]), "; ".join(found[1])
        elif (constant := self.settings_constant(rest)) is not None:
            held, why = constant
        elif found is None and only_if.unset is not None and (why := self.unset(rest)):
            held = only_if.unset
        else:
            return ""
        if held != only_if.when_false:
            return ""
        needed, read_as = ("false", "true") if only_if.when_false else ("true", "false")
        return (
            f"this URL pattern is added only when `{name}` is {needed}; under the "
            f"configuration's defaults ({why}) it is {read_as}: it is not listed"
        )

    def settings_constant(self, name: str) -> tuple[bool, str] | None:
        """Whether the constant the project's settings bind `name` to (`USE_SAML = False`) is
        true, and where it is (`` `USE_SAML = False` at cms/settings.py:153``): the default
        configuration as surely as an environment variable's default. None when that is not
        sure: two settings modules that disagree; in one settings module's star imports,
        bound in more than one (a `local_settings.py` in the repository may override it),
        more than once, or not to a constant; or a library's settings star-imported (which may
        bind it). A star import of a module of the project the repository does not hold
        (`from .local_settings import *` under `try`) is a local override left out of the
        repository, not its default."""
        found: dict[bool, str] = {}
        for file in self.settings_files:
            binders = self.binders(file, name)
            if binders is None or len(binders) != 1:
                return None
            facts = self.facts(binders[0])
            constants = facts.constants if facts is not None else ()
            written = [(line, text, truthy) for n, line, text, truthy in constants if n == name]
            if not written:
                return None
            line, text, truthy = written[0]
            found.setdefault(truthy, f"`{name} = {text}` at {binders[0]}:{line}")
        if len(found) != 1:
            return None
        return next(iter(found.items()))

    def unset(self, name: str) -> str:
        """Why `name` reads as not set (`SettingTest.unset`): no module of the project's
        settings binds it (and none is a library's); "" when one does, or may."""
        shown: dict[str, None] = {}
        for file in self.settings_files:
            binders = self.binders(file, name)
            if binders is None or binders:
                return ""
            shown.update(dict.fromkeys(self.settings_chain(file) or ()))
        return f"`{name}` is set by none of {', '.join(shown)}" if shown else ""

    def binders(self, file: str, name: str) -> list[str] | None:
        """The modules of a settings module's chain (`settings_chain`) whose module-level
        statements bind `name`; None when a library's settings are star-imported."""
        chain = self.settings_chain(file)
        if chain is None:
            return None
        return [f for f in chain if name in self.resolver._facts(f).module_names]

    def settings_chain(self, file: str) -> list[str] | None:
        """A settings module and the modules of the repository it star-imports, through their
        own star imports; None where one is a library's (its names are not read)."""
        chain = [file]
        for at in chain:
            if len(chain) > 8:
                return None
            facts = self.facts(at)
            for star in facts.stars if facts is not None else ():
                module = self.module_file(star, at)
                if module is None and self.outside(star, at):
                    return None
                if module is not None and module not in chain:
                    chain.append(module)
        return chain

    def setting_read(self, file: str, name: str, depth: int) -> tuple[str, tuple[str, ...]] | None:
        """`setting`, with the configuration defaults the value was read with."""
        if name in self.resolver._facts(file).bindings:
            expr = Sym((name,))
            value = self.resolver._string(file, expr)
            return None if value is None else (value, self.resolver._assumed(file, expr))
        facts = self.facts(file)
        for star in facts.stars if facts is not None and depth < 8 else ():
            module = self.module_file(star, file)
            found = self.setting_read(module, name, depth + 1) if module is not None else None
            if found is not None:
                return found
        return None

    def binds(self, file: str, name: str, depth: int) -> bool:
        """Whether a settings module binds `name`, itself or through a star import."""
        if name in self.resolver._facts(file).bindings:
            return True
        facts = self.facts(file)
        for star in facts.stars if facts is not None and depth < 8 else ():
            module = self.module_file(star, file)
            if module is not None and self.binds(module, name, depth + 1):
                return True
        return False

    def outside(self, module: str, importer: str) -> bool:
        """Whether `module` is no module of the repository (a library's)."""
        return self.resolver._python_module(module.split(".")[0], importer) is None

    def library_list(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        auth: int,
        gaps: tuple[Gap, ...],
        listed: tuple[LibraryViews, tuple[LibraryUrl, ...]],
    ) -> None:
        """A library's module-level URL list the project splices into or includes in its own
        URLconf (`base_urlpatterns + ours`, `include(base_urlpatterns)`): Django walks it as
        the project's, so each entry of its record is a route, at the line naming the list."""
        record, entries = listed
        for item in entries:
            handler, methods = library_view_of(record, item.view)
            assumed = entry.assumed
            if item.since:  # the installed release is not read: said on the route
                said = f"{record.library} {item.since} or later (served from that release on)"
                assumed = (*assumed, said)
            for method in methods:
                if entry.methods is None or method in entry.methods:
                    self.emit(method.upper(), here + item.route, path, entry.line, handler,
                              max(auth, UNKNOWN), gaps, assumed)  # fmt: skip

    def library_urls(self, path: str, entry: UrlEntry, written: str, module: str) -> None:
        """A library's URLconf included (`include('allauth.urls')`, `include(wagtail_urls)`,
        `admin.site.urls`): served, but by code the scan does not read, so never a route."""
        package = module.split(".")[0]
        self.opaque(path, entry, f"`{written}` includes URL patterns of the library package "
                    f"`{package}` (`{module}`), which the scan does not read")  # fmt: skip

    def static(self, path: str, entry: UrlEntry, prefix: str | None) -> tuple[str, UrlEntry] | None:
        """What Django's `static(prefix)` (`staticfiles_urlpatterns()`: of `STATIC_URL`)
        serves: `re_path('^' + prefix.lstrip('/') + '(?P<path>.*)$')`, and only when
        `settings.DEBUG` is true (an empty list otherwise, and for a prefix with a host);
        the route carries that in `attrs.configDefault`. None, after a finding, when not
        listed: a prefix not known, `DEBUG` false in the settings (or their configuration
        defaults), or computed out of sight (a dev-server convenience is not taken as served
        where the scan cannot tell)."""
        if prefix is None:
            self.note("UNRESOLVED_ROUTE", path, entry.line, "the prefix of these static-file "
                      "URL patterns (served when DEBUG is true) is computed out of sight: "
                      "they are not listed")  # fmt: skip
            return None
        if "//" in prefix or not prefix:  # another host serves them, or Django refuses it
            return None
        read = {self.setting_read(file, "DEBUG", 0) for file in self.settings_files}
        debug = read.pop() if len(read) == 1 else None  # (truthy text, defaults read)
        source = "; ".join(debug[1]) if debug is not None and debug[1] else "the settings"
        if debug is None and not any(self.binds(f, "DEBUG", 0) for f in self.settings_files):
            debug = ("", ())  # Django's own default
            source = "Django's default (the settings do not set it)"
        if debug is None or not debug[0]:
            how = "the scanned settings do not tell it" if debug is None else f"{source}: false"
            self.note("UNRESOLVED_ROUTE", path, entry.line, "these static-file URL patterns "
                      f"are served only when DEBUG is true; {how}: they are not listed")  # fmt: skip
            return None
        said = f"settings.DEBUG (true in {source})"
        why = f"{said}: `{entry.static}()` URL patterns are served only when DEBUG is true"
        return prefix.lstrip("/") + "<path:path>", replace(entry, assumed=(*entry.assumed, why))

    def cycle(self, path: str, entry: UrlEntry, written: str) -> None:
        """An include of URL patterns that include this one again: Django nests them once
        more per pass, without end; listed once, and said where the loop closes."""
        self.note("UNRESOLVED_ROUTER", path, entry.line, f"`{written}` includes URL patterns "
                  "that include this pattern again: Django serves them once more under each "
                  "pass, without end; the pack lists them once")  # fmt: skip

    def opaque(self, path: str, entry: UrlEntry, why: str) -> None:
        self.note("UNRESOLVED_ROUTER", path, entry.line, f"{why}: its routes are not listed")

    def spend(self, path: str, line: int, units: int = 1) -> bool:
        """One unit of the linker's budget per pattern followed: includes of includes, each
        under a prefix with optional groups (a variant each), multiply without bound; past
        the budget the pattern is a `LINK_BUDGET_EXCEEDED` place, never a timeout. A router
        registration spends a unit per row of its route table and per route it serves."""
        self.resolver.budget -= units
        if self.resolver.budget < 0:
            self.resolver.cut[path, line] = None
            return False
        return True

    def note(self, code: str, path: str, line: int, detail: str) -> None:
        self.resolver._unresolved(code, path, line, detail)

    def emit(self, method: str, route: str, path: str, line: int, handler: str | None,
             auth: int, gaps: tuple[Gap, ...], assumed: tuple[str, ...] = ()) -> None:  # fmt: skip
        from .linker import FoundRoute

        if not self.resolver.spend_text(path, line, route):
            return
        if self.assumed:
            assumed = (*self.assumed, *(a for a in assumed if a not in self.assumed))
        full = "/" + route
        shape = _PATH_PARAM.sub(_converter, full) if "<" in full else full
        named = _PATH_PARAM.sub(lambda m: "{" + m.group(1) + "}", full) if "<" in full else full
        self.found.append(
            FoundRoute(method, named, path, line, DJANGO, handler, auth, gaps, shape, assumed)
        )

    # -- views -----------------------------------------------------------------------------

    def view_route(
        self,
        path: str,
        entry: UrlEntry,
        here: str,
        found: Resolved | None,
        name: str,
        auth: int,
        gaps: tuple[Gap, ...],
        home: str | None = None,
    ) -> None:
        """`home`: the file `name` is written in, when not the URLconf's (`x = X.as_view()`)."""
        short = name.rpartition(".")[2]
        known = _VIEW_METHODS if entry.target[0] == "cbv" else _LIBRARY_FUNCTIONS
        if found is None:
            external = self.resolve(home or path, name)  # a recorded library's view
            record = library_view_methods(external[2]) if external is not None else None
            if external is not None and external[0] == "external" and record is not None:
                if not record:
                    self.note("UNRESOLVED_ROUTE", path, entry.line, f"the library view "
                              f"`{name}` defines no handler method: it is not listed")  # fmt: skip
                if record == EVERY:  # a function view Django calls for every method
                    self.emit(ANY, here, path, entry.line, external[2], max(auth, UNKNOWN),
                              gaps, entry.assumed)  # fmt: skip
                    return
                for method in record:
                    if entry.methods is None or method in entry.methods:
                        self.emit(method.upper(), here, path, entry.line, external[2],
                                  max(auth, UNKNOWN), gaps, entry.assumed)  # fmt: skip
                return
        if found is None and known.get(short):
            external = self.resolve(home or path, name)  # a library's view, used as it is
            if external is not None and external[2].startswith(_VIEW_LIBRARIES):
                for method in known[short]:
                    if entry.methods is None or method in entry.methods:
                        self.emit(
                            method.upper(), here, path, entry.line, name, auth, gaps, entry.assumed
                        )
                return
        if found is None:  # a view from a library or a module not scanned: methods unknown
            detail = (
                f"the view `{name}` is not defined in the scanned files: the methods it "
                "answers are not known, it is listed as ANY"
            )
            self.note("UNRESOLVED_ROUTE", path, entry.line, detail)
            self.emit(ANY, here, path, entry.line, name, max(auth, UNKNOWN), gaps, entry.assumed)
            return
        what, file, attr = found
        if what == "function":
            function = self.function(file, attr)
            if function is None:
                return
            methods = function.methods or (ANY,)
            if "?" in methods:
                self.note("UNRESOLVED_ROUTE", path, entry.line, f"the methods of the view "
                          f"`{name}` are computed out of sight: it is not listed")  # fmt: skip
                return
            verdict = max(auth, self.function_auth(file, function))
            for method in methods:
                own = verdict
                if function.api_view:
                    own = max(verdict, self.permission_auth(file, function.permissions, method))
                self.emit(method, here, path, entry.line, name, own, gaps)
            return
        if what == "class" and entry.actions is not None:  # `as_view({'get': 'list'})`
            if "?" in entry.actions:
                self.note("UNRESOLVED_ROUTE", path, entry.line, f"the action map of the "
                          f"viewset `{name}` is computed: it is not listed")  # fmt: skip
                return
            cls_auth = max(auth, self.class_auth(file, attr, 0))
            for verb in entry.actions:
                verdict = max(cls_auth, self.drf_auth(file, attr, verb, None))
                self.emit(verb, here, path, entry.line, name, verdict, gaps, entry.assumed)
            return
        if what == "class":
            if COMPUTED in (entry.methods, self.method_names(file, attr, 0)):
                self.note("UNRESOLVED_ROUTE", path, entry.line, f"the `http_method_names` of "
                          f"the view class `{name}` is computed out of sight: the methods it "
                          "answers are not known, it is not listed")  # fmt: skip
                return
            methods_known, verbs = self.class_methods(file, attr, 0)
            if entry.methods is not None:
                verbs = tuple(m for m in verbs if m in entry.methods)
            if not methods_known:
                self.note("UNRESOLVED_ROUTE", path, entry.line, f"the view class `{name}` has "
                          "a base the scanned files do not show: the methods it answers are "
                          "not known, it is listed as ANY")  # fmt: skip
                verbs = ("?",)
            elif not verbs and self.defines(file, attr, "dispatch", 0):
                verbs = ("?",)  # its own `dispatch` takes every method, as a function view
            elif not verbs:
                self.note("UNRESOLVED_ROUTE", path, entry.line, f"the view class `{name}` "
                          "defines no handler method the pack sees (Django answers 405 but to "
                          "OPTIONS): it is not listed")  # fmt: skip
                return
            cls_auth = max(auth, self.class_auth(file, attr, 0))
            for method in verbs:
                verb = ANY if method == "?" else method.upper()
                verdict = max(cls_auth, self.drf_auth(file, attr, verb, None))
                self.emit(verb, here, path, entry.line, name, verdict, gaps, entry.assumed)

    def function(self, file: str, name: str) -> DjangoFunction | None:
        facts = self.facts(file)
        return facts.functions.get(name) if facts is not None else None

    def klass(self, file: str, name: str) -> DjangoClass | None:
        facts = self.facts(file)
        return facts.classes.get(name) if facts is not None else None

    def bases(self, file: str, cls: DjangoClass) -> list[Resolved | None]:
        """What each base names; one spelt as the class's own name (`class DetailView(...,
        DetailView)`) is what the name was bound to before the class statement: its import.
        `object` the file does not rebind is the builtin (`class Gate(object)`): no handler."""
        out: list[Resolved | None] = []
        for base in cls.bases:
            if base == cls.name and cls.shadows:
                module, _, attr = cls.shadows.partition(":")
                out.append(self.in_module(module, attr, file, 0))
                continue
            found = self.resolve(file, base, local=base.partition(".")[0] != cls.name)
            out.append(("external", "", "object") if found is None and base == "object" else found)
        return out

    @_class_walk
    def class_methods(self, file: str, name: str, depth: int) -> tuple[bool, tuple[str, ...]]:
        """Whether every base is known, and the HTTP methods the class answers (its own and
        inherited handler methods, limited by `http_method_names`)."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return (False, ())
        known = True
        methods = [m for m in cls.methods if m.upper() in _VERBS and m not in _IMPLICIT]
        for base in self.bases(file, cls):
            if base is None:
                known = False
            elif base[0] == "class":
                ok, more = self.class_methods(base[1], base[2], depth + 1)
                known = known and ok
                methods += more
            elif base[0] == "external":
                short = base[2].rpartition(".")[2]
                recorded = library_view_methods(base[2])  # a library's view, by its record
                if recorded is not None:
                    methods += recorded
                elif short in _VIEW_METHODS:  # by name: a library's own `LoginView` (allauth's)
                    methods += _VIEW_METHODS[short]  # is made of Django's, as a rule
                elif (
                    not short.endswith("Mixin")
                    and base[2] not in _METHODLESS
                    and not base[2].startswith(_METHODLESS_MODULES)
                ):
                    # a mixin, any library's (`rules`' `PermissionRequiredMixin`), adds checks
                    # or context, not handler methods
                    known = known and short == "object"
        allowed = self.method_names(file, name, 0)
        allowed = None if allowed == COMPUTED else allowed  # said where the view is used
        out = tuple(dict.fromkeys(m for m in methods if allowed is None or m in allowed))
        return (known, out)

    @_class_walk
    def defines(self, file: str, name: str, method: str, depth: int) -> bool:
        """Whether the class or a base of the repository defines `method`."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return False
        return method in cls.methods or any(
            base is not None and base[0] == "class" and self.defines(base[1], base[2], method,
                                                                      depth + 1)
            for base in self.bases(file, cls)
        )  # fmt: skip

    @_class_walk
    def method_names(self, file: str, name: str, depth: int) -> tuple[str, ...] | None:
        """`http_method_names` of the class or the nearest base of the repository setting it."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return None
        if cls.http_method_names is not None:
            return cls.http_method_names
        for base in self.bases(file, cls):
            if base is not None and base[0] == "class":
                found = self.method_names(base[1], base[2], depth + 1)
                if found is not None:
                    return found
        return None

    # -- DRF routers -----------------------------------------------------------------------

    def router(
        self, file: str, name: str, here: str, auth: int, gaps: tuple[Gap, ...]
    ) -> str | None:
        """The routes of the router `name` of `file` under `here`; why they are not listed
        when they are not (an instance of a class that subclasses no DRF router, or whose
        override the pack cannot follow): the caller reports it where the router is used."""
        facts = self.facts(file)
        if facts is None or name not in facts.routers:
            return None
        kind, slash, line = facts.routers[name]
        self.route_hooks = []
        extras: list[tuple[str, RouterUrls]] = []
        # its classes' `routes` class attributes (the nearest last) and `__init__` changes
        tables: list[tuple[DrfRoute, ...]] = []
        changes: list[RouteChange] = []
        if kind == "?":  # made from a class of its own: a DRF router subclass, or not a router
            made = facts.router_classes.get(name, "?")
            chosen: dict[str, bool] = {}
            subclass = self.router_subclass(file, made, extras, chosen, 0, tables, changes)
            slash = chosen.get("trailing_slash", slash)
            if isinstance(subclass, tuple):
                cfile, cline, why = subclass
                return f"{why} ({cfile}:{cline})"
            if subclass is None:
                return f"`{made}` is not a DRF router class the scanned files show"
            kind = subclass
            if kind == "bare":  # its `urls` serve only the entries it lists
                for cfile, urls in extras:
                    self.walk(cfile, urls.extras, here, auth, gaps, (cfile,))
                return None
            if kind in _LIBRARY_ROUTERS:
                record = _LIBRARY_ROUTERS[kind]
                if record.routes is None:
                    return (f"`{made}` is a router of the library {record.library} "
                            f"({record.version}), not read: {record.unread}")  # fmt: skip
                for registration in facts.registrations:
                    if registration.router == name:
                        prefix, assumed = self.prefix_read(file, registration.prefix)
                        with self.assuming(assumed):
                            self.endpoint(record, file, registration, prefix, here, auth, gaps)
                for cfile, urls in extras:  # a subclass's override of the router's own hook
                    self.walk(cfile, urls.extras, here, auth, gaps, (cfile,))
                return None
        if kind.startswith("default") and "-no-root" not in kind:
            root = max(auth, self.permission_auth(file, None, "GET"))  # the settings' default
            self.emit("GET", here, file, line, None, root, gaps)  # the API root
        if name in facts.nested:  # drf-nested-routers: below the parent's item
            nest = self.nest(file, name, 0)
            if nest is None:
                self.note("UNRESOLVED_ROUTE", file, line, "the parent router, parent prefix "
                          "or lookup of this nested router is computed or not registered in "
                          "the scanned files: the routes of its viewsets are not listed")  # fmt: skip
                return None
            here, slash = here + nest[0], nest[1] if facts.nested[name].trailing_slash is None \
                else slash  # fmt: skip
        table = self.route_table(file, line, tables, changes)
        trailing = "/" if slash else ""
        if kind.endswith("-suffixes"):
            self.note("UNRESOLVED_ROUTE", file, line, "DefaultRouter also serves each route "
                      "with a format suffix (`.json`): those variants are not listed")  # fmt: skip
        hooks = self.route_hooks[-1:]  # the nearest class's `get_routes`: DRF calls it
        for registration in facts.registrations:
            if registration.router == name:
                routes = self.hooked(file, registration, hooks[0], table) if hooks else table
                prefix, assumed = self.prefix_read(file, registration.prefix)
                if routes is not None:
                    with self.assuming(assumed):
                        self.register(file, registration, prefix, here, trailing, auth, gaps,
                                      routes)  # fmt: skip
        for cfile, urls in extras:  # what the subclass's `get_urls`/`urls` adds, in its file
            self.walk(cfile, urls.extras, here, auth, gaps, (cfile,))
            if urls.unread:
                self.note("UNRESOLVED_ROUTE", cfile, urls.line, f"`{urls.name}` adds URL "
                          "entries to the router's own the pack cannot follow: the routes "
                          "of its registrations are listed, those entries are not")  # fmt: skip
        return None

    def hooked(
        self,
        file: str,
        registration: Registration,
        hook: tuple[str, str, int],
        table: tuple[DrfRoute, ...],
    ) -> tuple[DrfRoute, ...] | None:
        """The route table a router class's own `get_routes` gives the view set registered
        (`django_route_hooks`); None, with a finding at the override, when it is not known."""
        cfile, cname, cline = hook
        found = self.resolve(file, registration.viewset) if registration.viewset != "?" else None
        if found is None or found[0] != "class":
            return table  # `register` reports a view set it cannot see
        got = hooked_table(self.collector, (cfile, cname), (found[1], found[2]), table)
        if isinstance(got, str):
            self.note("UNRESOLVED_ROUTE", cfile, cline, f"the router class `{cname}` overrides "
                      f"`get_routes` and {got}: the routes of `{registration.viewset}` "
                      f"registered at {file}:{registration.line} are not listed")  # fmt: skip
            return None
        return got

    def router_subclass(
        self,
        file: str,
        made: str,
        extras: list[tuple[str, RouterUrls]],
        chosen: dict[str, bool],
        depth: int,
        tables: list[tuple[DrfRoute, ...]],
        changes: list[RouteChange],
    ) -> str | tuple[str, int, str] | None:
        """The DRF router kind a class of the repository makes (as `routers` spells it), its
        overrides' own entries appended to `extras` (the nearest class's last, as each adds
        after `super()`'s), a trailing slash its `__init__` sets in `chosen`, its literal `routes`
        class attribute in `tables` and its `__init__`'s changes to them in `changes` (the
        farthest class's first, as `super().__init__` runs); a finding (file,
        line, detail) where an override or a base cannot be read; None when the class is no
        DRF router."""
        found = self.resolve(file, made) if depth <= _DEPTH else None
        if found is not None and found[0] == "external":
            short = found[2].rpartition(".")[2]
            if found[2].startswith("rest_framework.") and short in _ROUTER_KINDS:
                return _ROUTER_KINDS[short]
            library = django_router(found[2])
            if library is None:
                return None
            record = library[0]
            if record.drf:  # DRF's router under another name (drf-extensions')
                return next(k for n, k in _ROUTER_KINDS.items() if short.endswith(n))
            return f"lib:{record.library}"
        if found is None or found[0] != "class":
            return None
        _, cfile, cname = found
        cls = self.klass(cfile, cname)
        if cls is None:
            return None
        kind: str | tuple[str, int, str] | None = None
        for base in cls.bases:  # the first base that is a router: DRF's `super()` for it
            kind = self.router_subclass(cfile, base, extras, chosen, depth + 1, tables, changes)
            if kind is not None:
                break
        if not isinstance(kind, str):
            return kind
        own: list[tuple[str, RouterUrls]] = []
        for urls in cls.urls:
            if urls.name == "get_urlpatterns" and not kind.startswith("lib:"):
                continue  # a hook of a library's router, which DRF's never call
            if not urls.readable and urls.name == "get_routes":  # run per view set
                self.route_hooks.append((cfile, cname, urls.line))
                continue
            if not urls.readable:
                return (cfile, urls.line, f"the router class `{cname}` overrides "
                        f"`{urls.name}` in a way the pack cannot follow")  # fmt: skip
            if not urls.keeps_base:  # what `super()` built is not served: only its own
                extras.clear()
                own.clear()
                kind = "bare"
            own.append((cfile, urls))
        extras += own
        if cls.route_table is not None:
            tables.append(cls.route_table)
        changes += cls.route_changes
        options = dict(cls.router_options)
        if "trailing_slash" in options:  # set after DRF's `__init__`: over the instance's own
            chosen["trailing_slash"] = options["trailing_slash"]
        if kind.startswith("default") and options.get("include_root_view") is False:
            kind = kind.replace("-suffixes", "") + "-no-root" + (
                "-suffixes" if "-suffixes" in kind else "")  # fmt: skip
        if kind.startswith("default") and "include_format_suffixes" in options:
            kind = kind.replace("-suffixes", "")
            kind += "-suffixes" if options["include_format_suffixes"] else ""
        return kind

    def endpoint(
        self,
        record: DjangoRouter,
        file: str,
        registration: Registration,
        named: str | None,
        here: str,
        auth: int,
        gaps: tuple[Gap, ...],
    ) -> None:
        """A view set registered on a library's router (Wagtail's `register_endpoint(name,
        ViewSet)`): under `name/` (a regex fragment), the routes the record lists, or those a
        project class's override of the record's `hook` returns (`super()`'s list and its own
        entries, read as the project's URL entries; `cls.as_view({...})` is the view set)."""
        line = registration.line
        prefix = django_path(f"{named}/", True) if named else None
        if prefix is None or registration.viewset == "?":
            self.note("UNRESOLVED_ROUTE", file, line, f"the name or view set of this "
                      f"{record.library} router registration is computed out of sight (or a "
                      "regex that is no path): its routes are not listed")  # fmt: skip
            return
        base = here + prefix
        found = self.resolve(file, registration.viewset)
        if found is None or found[0] not in ("class", "external"):
            self.note("UNRESOLVED_ROUTE", file, line, f"the view set `{registration.viewset}` "
                      "is not defined in the scanned files: its routes are not listed")  # fmt: skip
            return
        vname = found[2] if found[0] == "class" else registration.viewset
        overrides: list[tuple[str, RouterUrls]] = []
        keeps_base = True
        verdict = max(auth, self.permission_auth(file, None, "GET"))
        if found[0] == "class":
            own = self.own_permissions(found[1], found[2], 0)
            if own is not None:
                verdict = max(auth, self.permission_auth(own[0], own[1], "GET"))
            keeps_base = self.hook_overrides(found[1], found[2], record.hook, overrides, 0)
            unread = [(f, u) for f, u in overrides if not u.readable]
            if unread:
                ufile, urls = unread[0]
                self.note("UNRESOLVED_ROUTE", ufile, urls.line, f"`{vname}` overrides "
                          f"`{record.hook}` in a way the pack cannot follow: the routes of its "
                          f"registration at {file}:{line} are not listed")  # fmt: skip
                return
        if keeps_base:
            for route, method, _ in record.routes or ():
                self.emit(method, base + route, file, line, vname, verdict, gaps)
        for cfile, urls in reversed(overrides):  # the farthest class's entries first
            for entry in urls.extras:
                if entry.target == ("cbv", "cls") and entry.actions and found[0] == "class":
                    for verb in entry.actions:
                        if entry.route is not None and not entry.regex:
                            self.emit(verb, base + entry.route, cfile, entry.line, vname,
                                      verdict, gaps)  # fmt: skip
                        else:
                            self.note("UNRESOLVED_ROUTE", cfile, entry.line, "this route of "
                                      f"`{record.hook}` is computed or a regex: not listed")  # fmt: skip
                    continue
                self.walk(cfile, (entry,), base, verdict, gaps, (cfile,))

    def hook_overrides(
        self,
        file: str,
        name: str,
        hook: str,
        found: list[tuple[str, RouterUrls]],
        depth: int,
    ) -> bool:
        """The overrides of a library view set's `hook` along the class's project bases, the
        nearest first, into `found`; whether the library's own list is still served (each
        override returns `super()`'s)."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return True
        mine = next((u for u in cls.urls if u.name == hook), None)
        if mine is not None:
            found.append((file, mine))
            if not mine.readable or not mine.keeps_base:
                return mine.readable and mine.keeps_base
        for base in self.bases(file, cls):
            if base is not None and base[0] == "class":
                return self.hook_overrides(base[1], base[2], hook, found, depth + 1)
        return True

    def register(
        self,
        file: str,
        registration: Registration,
        named: str | None,
        here: str,
        trailing: str,
        auth: int,
        gaps: tuple[Gap, ...],
        routes: tuple[DrfRoute, ...] = _DRF_TABLE,
    ) -> None:
        """The routes DRF's router serves for a registration: those of its route table (DRF's,
        or as a router class changed it), each method where the viewset has the action, as
        DRF's `get_method_map` keeps it, and its `@action`s where a `DynamicRoute` serves
        them."""
        if registration.chained:
            self.note("UNRESOLVED_ROUTE", file, registration.line, "a registration on what "
                      "`register()` returned (drf-extensions' nested routes, "
                      "`parents_query_lookups`) is not read: the routes of "
                      f"`{registration.viewset}` are not listed")  # fmt: skip
            return
        if named is None or registration.viewset == "?":
            self.note("UNRESOLVED_ROUTE", file, registration.line, "the prefix or viewset of "
                      "this router registration is computed out of sight: its routes are not "
                      "listed")  # fmt: skip
            return
        found = self.resolve(file, registration.viewset)
        if found is None or found[0] != "class":
            self.note("UNRESOLVED_ROUTE", file, registration.line, f"the viewset "
                      f"`{registration.viewset}` is not defined in the scanned files: the "
                      "routes it generates are not listed")  # fmt: skip
            return
        _, vfile, vname = found
        # a table of 3,000 rows times 3,000 registrations was 9 million rows compared
        if not self.spend(file, registration.line, len(routes)):
            return
        wanted = frozenset(a for r in routes for _, a in r.mapping or ())
        known, actions, extra = self.viewset(vfile, vname, 0, wanted)
        if not known:
            self.note("UNRESOLVED_ROUTE", file, registration.line, f"the viewset "
                      f"`{registration.viewset}` has a base the scanned files do not show: "
                      "only the actions it defines or inherits visibly are listed")  # fmt: skip
        lookup = self.lookup(vfile, vname, 0)
        prefix = django_path(named, True)  # DRF prefixes are regex fragments
        if prefix is None:
            self.note("UNRESOLVED_ROUTE", file, registration.line, f"the prefix "
                      f"`{named}` is a regex that is no path: the routes of "
                      f"`{registration.viewset}` are not listed")  # fmt: skip
            return
        base = here + prefix
        lookup_part = (base + "/" if prefix else base) + "{" + lookup + "}"
        cls_auth = max(auth, self.class_auth(vfile, vname, 0))
        line = registration.line
        if [replace(r, mapping=()) for r in routes] != [replace(r, mapping=()) for r in _DRF_TABLE]:
            viewset = (vfile, vname, lookup, cls_auth)
            self.table_routes(routes, file, (named, registration.line), here, trailing, viewset,
                              actions, extra, gaps)  # fmt: skip
            return
        table = ((False, dict(routes[0].mapping or ())), (True, dict(routes[2].mapping or ())))
        for detail, mapping in table:
            # `register("", ...)`: DRF drops the `/` its list route would start with, so the
            # list is served at the include's own path (`^$`), with no slash of its own
            at = lookup_part + trailing if detail else base + (trailing if prefix else "")
            for method, name in mapping.items():
                if name in actions:
                    if not self.spend(file, line):
                        return
                    verdict = max(cls_auth, self.drf_auth(vfile, vname, method, None))
                    self.emit(method, at, file, line, vname, verdict, gaps)
        for action in extra:
            if action.detail is None:
                self.note("UNRESOLVED_ROUTE", vfile, action.line, f"the action `{action.name}`"
                          " does not say `detail=` as a literal: it is not listed")  # fmt: skip
                continue
            if "?" in action.methods or action.url_path is None:
                self.note("UNRESOLVED_ROUTE", vfile, action.line, f"the methods or url_path of "
                          f"the action `{action.name}` are computed: it is not listed")  # fmt: skip
                continue
            url_path = django_path(action.url_path, True)
            if url_path is None:
                self.note("UNRESOLVED_ROUTE", vfile, action.line, f"the url_path of the action "
                          f"`{action.name}` is a regex that is no path: it is not listed")  # fmt: skip
                continue
            at = lookup_part if action.detail else base
            joined = (at + "/" if at and not at.endswith("/") else at) + url_path
            for method in action.methods:
                if not self.spend(file, line):
                    return
                verdict = max(cls_auth, self.drf_auth(vfile, vname, method, action))
                self.emit(method, joined + trailing, file, line, vname, verdict, gaps)

    def route_table(
        self, file: str, line: int, tables: list[tuple[DrfRoute, ...]], changes: list[RouteChange]
    ) -> tuple[DrfRoute, ...]:
        """The routes a router serves: the nearest `routes` class attribute (else DRF's), with
        its classes' `__init__` changes applied in order; a change to the mapping of a route
        that has none (a `DynamicRoute`, an index past the end) is a finding at the router."""
        table = list(tables[-1] if tables else _DRF_TABLE)
        for change in changes:
            if change.table is not None:
                table = list(change.table)
                continue
            at = change.index
            row = table[at] if -len(table) <= at < len(table) else None
            if row is None or row.mapping is None:
                self.note("UNRESOLVED_ROUTE", file, line, f"the router class changes the "
                          f"mapping of `self.routes[{at}]`, a route with none: the "
                          f"`{change.method}` it adds is not listed")  # fmt: skip
                continue
            mapping = dict(row.mapping)
            mapping[change.method] = change.action
            table[at] = replace(row, mapping=tuple(mapping.items()))
        return tuple(table)

    def table_routes(
        self,
        routes: tuple[DrfRoute, ...],
        file: str,
        registered: tuple[str, int],
        here: str,
        trailing: str,
        viewset: tuple[str, str, str, int],
        actions: set[str],
        extra: list[Action],
        gaps: tuple[Gap, ...],
    ) -> None:
        """A registration on a router whose route table is not DRF's: each `Route`'s URL
        template filled as DRF's `get_urls` fills it (`{prefix}`, `{lookup}` as
        `get_lookup_regex` spells it, `{trailing_slash}`), its methods where the viewset has
        the action; each `DynamicRoute` serving the `@action`s of its `detail`. `registered`:
        the registration's prefix and line."""
        vfile, vname, lookup, cls_auth = viewset
        prefix, line = registered
        for each in extra:
            if each.detail is None or each.url_path is None or "?" in each.methods:
                self.note("UNRESOLVED_ROUTE", vfile, each.line, f"the `detail=`, methods or "
                          f"url_path of the action `{each.name}` are computed: it is not "
                          "listed")  # fmt: skip
        for row in routes:
            served: list[tuple[str, str, Action | None]] = []  # (url_path, method, action)
            if row.mapping is not None:
                served = [("", m, None) for m, a in row.mapping if a in actions]
            else:
                for each in extra:
                    if each.detail is row.detail and each.url_path is not None:
                        served += [(each.url_path, m, each) for m in each.methods
                                   if m != "?"]  # fmt: skip
            for url_path, method, action in served:
                if not self.spend(file, line):
                    return
                # the packs' guarded format: `{prefix}` written 4,000 times in a template,
                # filled with a 4,000-character prefix, was 16 million characters a route
                regex = _filled(row.url, url_path, prefix, lookup, trailing)
                if regex is not None and not prefix and regex[:2] == "^/":
                    regex = "^" + regex[2:]
                path = django_path(regex, True) if regex is not None else None
                if path is None:
                    self.note("UNRESOLVED_ROUTE", file, line, f"the router's route `{row.url}`"
                              f" is no path for `{vname}`: its {method} is not listed")  # fmt: skip
                    continue
                verdict = max(cls_auth, self.drf_auth(vfile, vname, method, action))
                self.emit(method, here + path, file, line, vname, verdict, gaps)

    def nest(self, file: str, name: str, depth: int) -> tuple[str, bool] | None:
        """A nested router's path below its include (`projects/{project_pk}/`, the parents'
        parts first) and the trailing slash it inherits; None when not shown. As
        drf-nested-routers builds it: the parent registration's prefix, then the parent
        viewset's lookup named `{lookup}_{parent lookup}`."""
        facts = self.facts(file)
        nested = facts.nested.get(name) if facts is not None else None
        parent_prefix = self.prefix_read(file, nested.parent_prefix)[0] if nested else None
        if nested is None or depth > _DEPTH or parent_prefix is None:
            return None
        parent = self.resolve(file, nested.parent)
        if parent is None or parent[0] != "router":
            return None
        _, pfile, pname = parent
        pfacts = self.facts(pfile)
        if pfacts is None or pname not in pfacts.routers:
            return None
        registered = [
            r for r in pfacts.registrations
            if r.router == pname and self.prefix_read(pfile, r.prefix)[0] == parent_prefix
        ]  # fmt: skip
        viewset = self.resolve(pfile, registered[0].viewset) if registered else None
        prefix = django_path(parent_prefix, True)
        if viewset is None or viewset[0] != "class" or prefix is None or nested.lookup is None:
            return None
        above = self.nest(pfile, pname, depth + 1) if pname in pfacts.nested else ("", True)
        if above is None:
            return None
        count = 1 + self.nest_depth(pfile, pname, 0)  # drf-nested-routers' `nest_count`
        lookup = (nested.lookup or f"nested_{count}") + "_" + self.lookup(viewset[1], viewset[2], 0)
        part = f"{prefix}/{{{lookup}}}/"
        slash = pfacts.routers[pname][1] if pname not in pfacts.nested else above[1]
        if pname in pfacts.nested and pfacts.nested[pname].trailing_slash is not None:
            slash = pfacts.routers[pname][1]
        return (above[0] + part.removeprefix("/"), slash)

    def nest_depth(self, file: str, name: str, depth: int) -> int:
        """How many nested routers are above this one (0 for a plain router)."""
        facts = self.facts(file)
        nested = facts.nested.get(name) if facts is not None else None
        if nested is None or depth > _DEPTH:
            return 0
        parent = self.resolve(file, nested.parent)
        if parent is None or parent[0] != "router":
            return 0
        return 1 + self.nest_depth(parent[1], parent[2], depth + 1)

    @_class_walk
    def viewset(
        self, file: str, name: str, depth: int, wanted: frozenset[str] = _CRUD
    ) -> tuple[bool, set[str], list[Action]]:
        """Whether every base is known, the actions of `wanted` the viewset has (its methods
        and its bases', a library base's by record), and its `@action`s."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return (False, set(), [])
        actions = {m for m in cls.methods if m in wanted}
        extra = list(cls.actions)
        known = True
        for base in self.bases(file, cls):
            if base is None:
                known = False
            elif base[0] == "class":
                ok, more, more_extra = self.viewset(base[1], base[2], depth + 1, wanted)
                known = known and ok
                actions |= more
                seen = {a.name for a in extra}
                extra += [a for a in more_extra if a.name not in seen]
            elif base[0] == "external":
                short = base[2].rpartition(".")[2]
                if short in _VIEWSET_ACTIONS:
                    actions.update(a for a in _VIEWSET_ACTIONS[short] if a in wanted)
                elif not base[2].startswith(_LIBRARIES):  # `Generic[M]` of a generic viewset
                    known = known and (short == "object" or base[2] in _METHODLESS)
        return (known, actions, extra)

    @_class_walk
    def lookup(self, file: str, name: str, depth: int) -> str:
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return "pk"
        if cls.lookup_url_kwarg is not None:
            return cls.lookup_url_kwarg
        if cls.lookup_field is not None:
            return cls.lookup_field
        for base in self.bases(file, cls):
            if base is not None and base[0] == "class":
                found = self.lookup(base[1], base[2], depth + 1)
                if found != "pk":
                    return found
        return "pk"

    # -- auth ------------------------------------------------------------------------------

    def wrapped(self, path: str, wrappers: tuple[str, ...]) -> int:
        return max((self.decorator(path, w) for w in wrappers), default=NONE)

    def decorator(self, path: str, name: str) -> int:
        short = name.rpartition(".")[2]
        found = self.resolve(path, name)
        if found is not None and found[0] == "function":
            function = self.function(found[1], found[2])
            if function is None:
                return UNKNOWN
            # the repository's own: judged by its text, as Flask's are
            return REQUIRED if function.checks_user else NONE
        if found is not None and found[0] == "external":
            if short in _GUARD_DECORATORS:
                return REQUIRED
            if short in _NOT_GUARDS or short.startswith("require_"):
                return NONE
        return UNKNOWN

    def function_auth(self, file: str, function: DjangoFunction) -> int:
        return max((self.decorator(file, d) for d in function.decorators), default=NONE)

    @_class_walk
    def class_auth(self, file: str, name: str, depth: int) -> int:
        """Django's own guards on a class view: a guarding mixin among its bases, a
        `method_decorator` of a guard; a base not shown makes `unknown`."""
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return UNKNOWN
        verdict = max((self.decorator(file, d) for d in cls.decorators), default=NONE)
        for base in self.bases(file, cls):
            if base is None:
                verdict = max(verdict, UNKNOWN)
            elif base[0] == "class":
                verdict = max(verdict, self.class_auth(base[1], base[2], depth + 1))
            elif base[0] == "external":
                short = base[2].rpartition(".")[2]
                if short in _GUARD_MIXINS:
                    return REQUIRED
                if not base[2].startswith(_LIBRARIES) and short != "object":
                    verdict = max(verdict, UNKNOWN)
        return verdict

    def drf_auth(self, file: str, name: str, method: str, action: Action | None) -> int:
        """DRF's permission classes for a class of `rest_framework` (the action's own, the
        class's or an inherited one, else `DEFAULT_PERMISSION_CLASSES`); NONE for others."""
        if not self.is_drf(file, name, 0):
            return NONE
        if action is not None and action.permissions is not None:
            return self.permission_auth(file, action.permissions, method)
        found = self.own_permissions(file, name, 0)
        if found is not None:
            return self.permission_auth(found[0], found[1], method)
        return self.permission_auth(file, None, method)

    @_class_walk
    def is_drf(self, file: str, name: str, depth: int) -> bool:
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return False
        for base in self.bases(file, cls):
            if base is not None and base[0] == "external" and base[2].startswith("rest_fr"):
                return True
            if base is not None and base[0] == "class" and self.is_drf(base[1], base[2], depth + 1):
                return True
        return False  # fmt: skip

    @_class_walk
    def own_permissions(
        self, file: str, name: str, depth: int
    ) -> tuple[str, tuple[str, ...]] | None:
        cls = self.klass(file, name)
        if cls is None or depth > _DEPTH:
            return None
        if cls.permissions is not None:
            return (file, cls.permissions)
        for base in self.bases(file, cls):
            if base is not None and base[0] == "class":
                found = self.own_permissions(base[1], base[2], depth + 1)
                if found is not None:
                    return found
        return None

    def permission_auth(self, file: str, names: tuple[str, ...] | None, method: str) -> int:
        if names is None:  # the settings' default, else DRF's own (`AllowAny`)
            names = self.default_permissions
            if names is None:
                return NONE
            return max((self.permission(None, n, method) for n in names), default=NONE)
        return max((self.permission(file, n, method) for n in names), default=NONE)

    def permission(self, file: str | None, name: str, method: str) -> int:
        if name == "?":
            return UNKNOWN
        short = name.rpartition(".")[2]
        found = self.resolve(file, name) if file is not None else None
        if file is None:  # a dotted path from settings
            found = ("external", "", name) if name.startswith("rest_framework") else None
            if found is None:
                module, _, attr = name.rpartition(".")
                target = self.module_file(module, "settings.py") if module else None
                found = ("class", target, attr) if target is not None else None
        if found is None:
            return UNKNOWN
        if found[0] == "external":
            if short in _REQUIRED_PERMISSIONS:
                return REQUIRED
            if short in _READ_ONLY_OPEN:
                return NONE if method in _SAFE else REQUIRED
            return NONE if short == "AllowAny" else UNKNOWN
        if found[0] == "class":
            cls = self.klass(found[1], found[2])
            return REQUIRED if cls is not None and cls.checks_user else UNKNOWN
        return UNKNOWN

    # -- names -----------------------------------------------------------------------------

    def resolve(self, path: str, name: str, depth: int = 0, local: bool = True) -> Resolved | None:
        """What the dotted `name`, written in `path`, is (see `Resolved`); remembered for the
        link (the files' facts do not change during one). `local=False`: not the file's own
        definitions, only what its imports bind."""
        key = (path, name if local else "^" + name)
        if key in self.resolved:
            return self.resolved[key]
        if depth > _DEPTH:
            return None
        self.resolved[key] = None  # a name that resolves through itself resolves to nothing
        found = self._resolve(path, name, depth, local)
        self.resolved[key] = found
        return found

    def _resolve(self, path: str, name: str, depth: int, local: bool) -> Resolved | None:
        head, _, rest = name.partition(".")
        facts = self.resolver._facts(path)
        django = facts.django
        if django is not None and not rest and local:
            for kind, table in (
                ("list", django.lists),
                ("router", django.routers),
                ("class", django.classes),
                ("function", django.functions),
                ("view", django.views),
            ):
                if head in table:
                    return (kind, path, head)
        binding = facts.bindings.get(head)
        if isinstance(binding, ImportRef):
            module = binding.module
            tail = ".".join(p for p in (binding.attr, rest) if p)
            return self.in_module(module, tail, path, depth)
        if binding is None and django is not None:
            for star in django.stars:
                file = self.module_file(star, path)
                if file is not None:
                    found = self.resolve(file, name, depth + 1)
                    if found is not None:
                        return found
        return None

    def in_module(self, module: str, tail: str, importer: str, depth: int) -> Resolved | None:
        """`tail` (dotted, maybe empty) inside the module `module`, or a submodule of it. A
        submodule named last (`from app.views import post`, `views.post`) is, as Python's
        import system has it, what its package binds under that name where it binds one: a
        `views/__init__.py` that re-exports `post` from its submodule `post` binds the
        function (the package is read only then, not for every name through it)."""
        parts = tail.split(".") if tail else []
        for cut in range(len(parts), -1, -1):  # the longest module name first
            name = ".".join([module, *parts[:cut]])
            file = self.module_file(name, importer)
            if file is None:
                continue
            rest = ".".join(parts[cut:])
            if not rest:
                package = self.module_file(name.rpartition(".")[0], importer) if parts else None
                bound = self.resolve(package, parts[-1], depth + 1) if package else None
                if bound is not None and bound[0] != "module":
                    return bound
                return ("module", file, name)
            return self.resolve(file, rest, depth + 1)
        if self.resolver._python_module(module.split(".")[0], importer) is not None:
            return None  # the repository's, not scanned or not parsed
        return ("external", "", ".".join([module, *parts]))
