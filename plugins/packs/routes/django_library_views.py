"""Library Django views and URL lists as data: the HTTP methods each view class of a library
answers (by its real MRO), and the URL patterns a library's module-level lists hold, read from
each library's released source (`source` says which files of which release). A module-level
view a library binds to one of its classes (`login = LoginView.as_view()`, imported as
`account_views.login`) answers that class's methods: `aliases` names the class, never the
methods again.

A project's view class below one of these (`class Detail(Mixin, oauth2_views.ApplicationDetail)`),
a library view used as it is (`TokenView.as_view()`), and a library list spliced into the
project's own URLconf (`urlpatterns = base_urlpatterns + ours`, `include(base_urlpatterns)`:
Django walks it as the including URLconf's) are then read as Django serves them. A library's
URLconf included by module (`include('oauth2_provider.urls')`) stays a finding naming it: its
routes are the library's, not the project's. A module of its own, importing nothing of the pack.

Methods are the handler methods (`get`, `post`, ...) the class's MRO defines, limited by its
`http_method_names`, HEAD and OPTIONS left out as for every view. A class matches by its name
below one of the record's `modules` (the library's `views` package re-exports its submodules'
classes: `oauth2_provider.views.ApplicationList` is `oauth2_provider.views.application`'s)."""

from __future__ import annotations

from dataclasses import dataclass

EVERY = ("*",)  # a function view restricting no method: Django calls it for every one (`ANY`)
_FORM = ("get", "post", "put")  # Django's `ProcessFormView`: FormView, CreateView, UpdateView
_DELETE = ("get", "post", "delete")  # Django's `DeleteView` (`DeletionMixin` + `BaseDetailView`)


@dataclass(frozen=True, slots=True)
class LibraryUrl:
    """One entry of a library's URL list: `route` in `path()` syntax as `reverse()` spells it
    (a `re_path` of the library written so: its optional trailing `/?` left out), `view` a name
    of the record's `views`. An entry with a `since` is listed saying so (`attrs.configDefault`):
    the release the repository installs is not read."""

    route: str
    view: str
    name: str
    since: str = ""  # the first release serving it, where the record's release is later


@dataclass(frozen=True, slots=True)
class LibraryViews:
    """A library's view classes (and function views) with the methods each answers, and its
    module-level URL lists, as its released source `version` defines them."""

    library: str  # as pip names it
    modules: tuple[str, ...]  # where its views are importable from (a class matched by prefix)
    version: str
    source: str  # the files read, in the release named by `version`
    views: tuple[tuple[str, tuple[str, ...]], ...]
    url_lists: tuple[tuple[str, tuple[LibraryUrl, ...]], ...] = ()  # dotted list -> entries
    # module-level views a library binds to one of its classes (`login = LoginView.as_view()`):
    # the class's methods, from the one entry of `views` naming it
    aliases: tuple[tuple[str, str], ...] = ()


_OAUTH_BASE = (
    LibraryUrl("authorize/", "AuthorizationView", "authorize"),
    LibraryUrl("token/", "TokenView", "token"),
    LibraryUrl("revoke_token/", "RevokeTokenView", "revoke-token"),
    LibraryUrl("introspect/", "IntrospectTokenView", "introspect"),
    LibraryUrl("device-authorization/", "DeviceAuthorizationView", "device-authorization", "3.2.0"),
    LibraryUrl("device/", "DeviceUserCodeView", "device", "3.2.0"),
    LibraryUrl("device-confirm/<slug:client_id>/<slug:user_code>", "DeviceConfirmView",
               "device-confirm", "3.2.0"),
    LibraryUrl("device-grant-status/<slug:client_id>/<slug:user_code>", "DeviceGrantStatusView",
               "device-grant-status", "3.2.0"),
)  # fmt: skip
_OAUTH_MANAGEMENT = (
    LibraryUrl("applications/", "ApplicationList", "list"),
    LibraryUrl("applications/register/", "ApplicationRegistration", "register"),
    LibraryUrl("applications/<slug:pk>/", "ApplicationDetail", "detail"),
    LibraryUrl("applications/<slug:pk>/delete/", "ApplicationDelete", "delete"),
    LibraryUrl("applications/<slug:pk>/update/", "ApplicationUpdate", "update"),
    LibraryUrl("authorized_tokens/", "AuthorizedTokensListView", "authorized-token-list"),
    LibraryUrl("authorized_tokens/<slug:pk>/delete/", "AuthorizedTokenDeleteView",
               "authorized-token-delete"),
)  # fmt: skip
_OAUTH_OIDC = (
    # `re_path(r"^\.well-known/openid-configuration/?$", ...)`: named without its optional `/`
    LibraryUrl(".well-known/openid-configuration", "ConnectDiscoveryInfoView",
               "oidc-connect-discovery-info"),
    LibraryUrl(".well-known/jwks.json", "JwksInfoView", "jwks-info"),
    LibraryUrl("userinfo/", "UserInfoView", "user-info"),
    LibraryUrl("logout/", "RPInitiatedLogoutView", "rp-initiated-logout"),
)  # fmt: skip

LIBRARY_VIEWS = (
    # Django 5.2.19 (the PyPI release): its function views with no method decorator, which
    # Django calls for every method: django/views/static.py `serve`, django/contrib/
    # staticfiles/views.py `serve`, django/contrib/sitemaps/views.py `index`, `sitemap`,
    # django/views/i18n.py `set_language` (it redirects on any method, sets on POST),
    # django/contrib/flatpages/views.py `flatpage`, django/contrib/contenttypes/views.py
    # `shortcut`, django/views/defaults.py's error views
    LibraryViews(
        "django",
        ("django.views.static",),
        "Django 5.2.19",
        "django/views/static.py",
        views=(("serve", EVERY),),
    ),
    LibraryViews(
        "django",
        ("django.contrib.staticfiles.views",),
        "Django 5.2.19",
        "django/contrib/staticfiles/views.py",
        views=(("serve", EVERY),),
    ),
    LibraryViews(
        "django",
        ("django.contrib.sitemaps.views",),
        "Django 5.2.19",
        "django/contrib/sitemaps/views.py",
        views=(("index", EVERY), ("sitemap", EVERY)),
    ),
    LibraryViews(
        "django",
        ("django.views.i18n",),
        "Django 5.2.19",
        "django/views/i18n.py",
        views=(("set_language", EVERY),),
    ),
    LibraryViews(
        "django",
        ("django.contrib.flatpages.views",),
        "Django 5.2.19",
        "django/contrib/flatpages/views.py",
        views=(("flatpage", EVERY),),
    ),
    LibraryViews(
        "django",
        ("django.contrib.contenttypes.views",),
        "Django 5.2.19",
        "django/contrib/contenttypes/views.py",
        views=(("shortcut", EVERY),),
    ),
    LibraryViews(
        "django",
        ("django.views.defaults",),
        "Django 5.2.19",
        "django/views/defaults.py",
        views=tuple(
            (n, EVERY)
            for n in ("page_not_found", "server_error", "bad_request", "permission_denied")
        ),
    ),
    # wagtail 7.4.4 (the PyPI release; wagtail/wagtail at tag v7.2 the same):
    # wagtail/images/views/serve.py `ServeView(View)` defining `get`, `SendFileView(ServeView)`;
    # wagtail/contrib/sitemaps/views.py `index`, `sitemap` (no method decorator)
    LibraryViews(
        "wagtail",
        ("wagtail.images.views.serve",),
        "wagtail 7.4.4",
        "wagtail/images/views/serve.py",
        views=(("ServeView", ("get",)), ("SendFileView", ("get",))),
    ),
    LibraryViews(
        "wagtail",
        ("wagtail.contrib.sitemaps.views",),
        "wagtail 7.4.4",
        "wagtail/contrib/sitemaps/views.py",
        views=(("index", EVERY), ("sitemap", EVERY)),
    ),
    # django-oauth-toolkit 3.3.0 (the PyPI release): oauth2_provider/urls.py,
    # views/{base,application,token,introspect,device,oidc,generic}.py. jazzband/
    # django-oauth-toolkit at tag 3.0.1 and the 3.1.0 release have the same lists but the four
    # device routes, which the 3.2.0 release adds
    LibraryViews(
        "django-oauth-toolkit",
        ("oauth2_provider.views",),
        "django-oauth-toolkit 3.3.0",
        "oauth2_provider/urls.py, oauth2_provider/views/*.py",
        views=(
            ("AuthorizationView", _FORM),  # BaseAuthorizationView + FormView, its own `get`
            ("TokenView", ("post",)),
            ("RevokeTokenView", ("post",)),
            ("IntrospectTokenView", ("get", "post")),
            ("DeviceAuthorizationView", ("post",)),
            ("DeviceUserCodeView", _FORM),
            ("DeviceConfirmView", _FORM),
            ("DeviceGrantStatusView", ("get",)),  # DetailView
            ("ApplicationRegistration", _FORM),  # CreateView
            ("ApplicationDetail", ("get",)),
            ("ApplicationList", ("get",)),
            ("ApplicationDelete", _DELETE),
            ("ApplicationUpdate", _FORM),
            ("AuthorizedTokensListView", ("get",)),
            ("AuthorizedTokenDeleteView", _DELETE),
            ("ConnectDiscoveryInfoView", ("get",)),
            ("JwksInfoView", ("get",)),
            ("UserInfoView", ("get", "post")),
            ("RPInitiatedLogoutView", _FORM),  # FormView, its own `get`
            # `View` with a mixin checking the token: the project's subclass brings handlers
            ("ProtectedResourceView", ()),
            ("ScopedProtectedResourceView", ()),
            ("ReadWriteScopedResourceView", ()),
            ("ClientProtectedResourceView", ()),
            ("ClientProtectedScopedResourceView", ()),
        ),
        url_lists=(
            ("oauth2_provider.urls.base_urlpatterns", _OAUTH_BASE),
            ("oauth2_provider.urls.management_urlpatterns", _OAUTH_MANAGEMENT),
            ("oauth2_provider.urls.oidc_urlpatterns", _OAUTH_OIDC),
            ("oauth2_provider.urls.urlpatterns", _OAUTH_BASE + _OAUTH_MANAGEMENT + _OAUTH_OIDC),
        ),
    ),
    # ariadne-django 0.3.0 (the PyPI release): ariadne_django/views/base.py `BaseGraphQLView`
    # (`http_method_names = ["get", "post", "options"]`), `GraphQLView` and `GraphQLAsyncView`
    # each defining `get` and `post`
    LibraryViews(
        "ariadne-django",
        ("ariadne_django.views",),
        "ariadne-django 0.3.0",
        "ariadne_django/views/base.py",
        views=(
            ("GraphQLView", ("get", "post")),
            ("GraphQLAsyncView", ("get", "post")),
            ("BaseGraphQLView", ()),
        ),
    ),
    # django-allauth 65.16.1 (pennersr/django-allauth tag 65.16.1; the same classes and bases
    # in the 65.19.7 release): allauth/account/views.py, allauth/account/mixins.py
    # (`AjaxCapableProcessFormViewMixin` defines `get` and `post`; FormView adds `put`)
    LibraryViews(
        "django-allauth",
        ("allauth.account.views",),
        "django-allauth 65.16.1",
        "allauth/account/views.py, allauth/account/mixins.py",
        views=(
            *(
                (n, _FORM)
                for n in (
                    "LoginView",
                    "SignupView",
                    "SignupByPasskeyView",
                    "EmailView",
                    "PasswordChangeView",
                    "PasswordSetView",
                    "PasswordResetView",
                    "PasswordResetFromKeyView",
                    "CompletePasswordResetView",
                    "ConfirmPasswordResetCodeView",
                    "ConfirmEmailVerificationCodeView",
                    "BaseReauthenticateView",
                    "ReauthenticateView",
                    "RequestLoginCodeView",
                    "ConfirmLoginCodeView",
                    "ChangePhoneView",
                )
            ),
            ("ConfirmEmailView", ("get", "post")),
            ("LogoutView", ("get", "post")),
            *(
                (n, ("get",))
                for n in (
                    "PasswordResetDoneView",
                    "PasswordResetFromKeyDoneView",
                    "AccountInactiveView",
                    "EmailVerificationSentView",
                )
            ),
        ),
        aliases=(
            ("login", "LoginView"),
            ("signup", "SignupView"),
            ("signup_by_passkey", "SignupByPasskeyView"),
            ("confirm_email", "ConfirmEmailView"),
            ("email", "EmailView"),
            ("password_change", "PasswordChangeView"),
            ("password_set", "PasswordSetView"),
            ("password_reset", "PasswordResetView"),
            ("password_reset_done", "PasswordResetDoneView"),
            ("password_reset_from_key", "PasswordResetFromKeyView"),
            ("password_reset_from_key_done", "PasswordResetFromKeyDoneView"),
            ("complete_password_reset", "CompletePasswordResetView"),
            ("confirm_password_reset_code", "ConfirmPasswordResetCodeView"),
            ("logout", "LogoutView"),
            ("account_inactive", "AccountInactiveView"),
            ("reauthenticate", "ReauthenticateView"),
            ("request_login_code", "RequestLoginCodeView"),
            ("confirm_login_code", "ConfirmLoginCodeView"),
            ("change_phone", "ChangePhoneView"),
        ),
    ),
    # django-allauth 65.16.1: allauth/socialaccount/views.py (`SignupView`: the account
    # mixins + FormView; `LoginCancelledView`, `LoginErrorView`: TemplateView's `get`;
    # `ConnectionsView`: AjaxCapableProcessFormViewMixin + FormView)
    LibraryViews(
        "django-allauth",
        ("allauth.socialaccount.views",),
        "django-allauth 65.16.1",
        "allauth/socialaccount/views.py",
        views=(
            ("SignupView", _FORM),
            ("LoginCancelledView", ("get",)),
            ("LoginErrorView", ("get",)),
            ("ConnectionsView", _FORM),
        ),
        aliases=(
            ("signup", "SignupView"),
            ("login_cancelled", "LoginCancelledView"),
            ("login_error", "LoginErrorView"),
            ("connections", "ConnectionsView"),
        ),
    ),
    # django-allauth 65.16.1: allauth/mfa/base/views.py (`AuthenticateView`: TemplateView +
    # its own `post`; `ReauthenticateView`: the account's `BaseReauthenticateView`, a
    # FormView; `IndexView`: TemplateView; `TrustView`: FormView)
    LibraryViews(
        "django-allauth",
        ("allauth.mfa.base.views",),
        "django-allauth 65.16.1",
        "allauth/mfa/base/views.py",
        views=(
            ("AuthenticateView", ("get", "post")),
            ("ReauthenticateView", _FORM),
            ("IndexView", ("get",)),
            ("TrustView", _FORM),
        ),
        aliases=(
            ("authenticate", "AuthenticateView"),
            ("reauthenticate", "ReauthenticateView"),
            ("index", "IndexView"),
            ("trust", "TrustView"),
        ),
    ),
    # dj-rest-auth 2.2.8 (the PyPI release): dj_rest_auth/views.py,
    # dj_rest_auth/registration/views.py (DRF's generic views' handlers by their MRO)
    LibraryViews(
        "dj-rest-auth",
        ("dj_rest_auth.views", "dj_rest_auth.registration.views"),
        "dj-rest-auth 2.2.8",
        "dj_rest_auth/views.py, dj_rest_auth/registration/views.py",
        views=(
            ("LoginView", ("post",)),
            ("LogoutView", ("get", "post")),
            ("UserDetailsView", ("get", "put", "patch")),  # RetrieveUpdateAPIView
            ("PasswordResetView", ("post",)),
            ("PasswordResetConfirmView", ("post",)),
            ("PasswordChangeView", ("post",)),
            ("RegisterView", ("post",)),  # CreateAPIView
            ("VerifyEmailView", ("get", "post")),
            ("ResendEmailVerificationView", ("post",)),
            ("SocialLoginView", ("post",)),  # LoginView
            ("SocialConnectView", ("post",)),
            ("SocialAccountListView", ("get",)),  # ListAPIView
            ("SocialAccountDisconnectView", ("post",)),
        ),
    ),
    # django-formtools 2.7 (the PyPI release; jazzband/django-formtools at tag 2.7):
    # formtools/wizard/views.py `WizardView(TemplateView)` defining `get` and `post`, and its
    # storage and named-URL subclasses, which define no other handler
    LibraryViews(
        "django-formtools",
        ("formtools.wizard.views",),
        "django-formtools 2.7",
        "formtools/wizard/views.py",
        views=tuple(
            (n, ("get", "post"))
            for n in (
                "WizardView",
                "SessionWizardView",
                "CookieWizardView",
                "NamedUrlWizardView",
                "NamedUrlSessionWizardView",
                "NamedUrlCookieWizardView",
            )
        ),
    ),
)


def _index() -> tuple[
    dict[str, tuple[str, ...]], dict[str, tuple[LibraryViews, tuple[LibraryUrl, ...]]]
]:
    views: dict[str, tuple[str, ...]] = {}
    lists: dict[str, tuple[LibraryViews, tuple[LibraryUrl, ...]]] = {}
    for record in LIBRARY_VIEWS:
        by_class = dict(record.views)
        for module in record.modules:
            for name, methods in record.views:
                views[f"{module}.{name}"] = methods
            for alias, cls in record.aliases:
                views[f"{module}.{alias}"] = by_class[cls]
        for dotted, entries in record.url_lists:
            lists[dotted] = (record, entries)
    return views, lists


_VIEWS, _LISTS = _index()


def library_view_methods(dotted: str) -> tuple[str, ...] | None:
    """The handler methods (lower case; `EVERY` for a function view restricting none) of the
    library view `dotted` names as imported
    (`oauth2_provider.views.TokenView`, or below a submodule of a record's module:
    `oauth2_provider.views.base.TokenView`); None: no record names it."""
    if dotted in _VIEWS:
        return _VIEWS[dotted]
    module, _, name = dotted.rpartition(".")
    for record in LIBRARY_VIEWS:
        if any(module.startswith(m + ".") for m in record.modules):
            cls = dict(record.aliases).get(name, name)
            return dict(record.views).get(cls)
    return None


def library_url_list(dotted: str) -> tuple[LibraryViews, tuple[LibraryUrl, ...]] | None:
    """The record and entries of the library URL list `dotted` names
    (`oauth2_provider.urls.base_urlpatterns`); None: no record holds it."""
    return _LISTS.get(dotted)


def library_view_of(record: LibraryViews, view: str) -> tuple[str, tuple[str, ...]]:
    """The dotted name and methods of a view a record's URL list names."""
    return f"{record.modules[0]}.{view}", dict(record.views)[view]
