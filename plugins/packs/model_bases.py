"""Model bases the project builds: what a class below `db.Model` or `make_base()` inherits.

`pack-sqlalchemy` hands this to `pymodules.Modules` as its `made` hook: asked about a class
base that is the result of a call (or an attribute of one), it answers with the bases SQLAlchemy
and Flask-SQLAlchemy would give the class, read from source as their code builds them:

- Flask-SQLAlchemy's `db.Model`, `db` made by `SQLAlchemy(...)` or by a project subclass of it
  (flask_sqlalchemy/extension.py, `_make_declarative_base`; 2.x `make_declarative_base`), with
  `model_class=X` (the default: Flask-SQLAlchemy's own `Model`):
  - X a plain class: `declarative_base(cls=X, metaclass=DefaultMeta)` — X's columns,
    `__tablename__` and mixins are every model's, unnamed models named by Flask-SQLAlchemy's
    rule (`FLASK_MODEL` then X);
  - X already declarative (`isinstance(X, DeclarativeMeta)`: made by `declarative_base()`,
    `generate_base()`, `automap_base()`, `@as_declarative`, or a class below one): `db.Model`
    is X itself, and no model gets an implicit name;
  - X a class whose own base is a `DeclarativeBase`/`DeclarativeBaseNoMeta` (3.1): a new class
    of Flask-SQLAlchemy's mixins, X's bases and X's body: as a plain class;
  - `disable_autonaming=True` (3.1): no implicit names (`PLAIN_MODEL` instead).
  A project subclass of `SQLAlchemy` is read through: each `__init__` of its chain may pass
  `model_class` on to `super().__init__` (a keyword, its own parameter's default,
  `kwargs.setdefault("model_class", X)`, `kwargs["model_class"] = X`); the nearest
  `_make_declarative_base`/`make_declarative_base` override builds the base itself: a
  `declarative_base(cls=<its model parameter>, metaclass=M)` there names tables by
  Flask-SQLAlchemy's rule when M is below its `DefaultMeta`/`NameMetaMixin`, else not; a call
  of the `super()` method keeps the extension's own.
- A function of the repository returning a base (`Base = build_base()`): what its `return`
  gives — a call (`declarative_base(cls=Mixin, metadata=...)`, `registry().generate_base()`,
  `SQLAlchemy(...)`, another factory), a class the function defines, a module-level name —
  after the function's own assignments of the returned name.

Where the base still cannot be followed (an override that builds it some other way, a
`model_class` from outside the scanned files, a factory whose return is not one of those), the
answer is an `External` naming it, so each class below it is an `UNKNOWN_MODEL_BASE`.

Model bases libraries define (`LIBRARY_BASES`, one record table both ORM packs read): each
record says what a class below it gets, as the library's own source says (the version read is
in the record): Django — abstract models (their columns, auto-created many-to-many tables and
inherited `Meta.app_label`) and concrete ones (a subclass is multi-table inheritance, its table
linked by `<parent>_ptr_id`); SQLAlchemy — mixins that set `__tablename__` (a literal, or a
`declared_attr` that names the table after the class) or give columns. A base a record does not
name stays unknown: a finding at each class below it (`UNKNOWN_MODEL_BASE`).
`LIBRARY_FIELDS`: Django fields of libraries that are relations (a foreign key's column, a
many-to-many's auto-created link table).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .pymodules import (
    CallBinding,
    CallRef,
    ClassFacts,
    ClassRef,
    External,
    ModuleFacts,
    Modules,
    Symbol,
    Written,
    binding_of,
    dotted,
    last_name,
)

B = TypeVar("B")

FLASK_MODEL = External("flask_sqlalchemy.SQLAlchemy().Model")
"""Flask-SQLAlchemy's declarative base with its naming metaclass: implicit table names."""
PLAIN_MODEL = External("sqlalchemy.orm.declarative_base()")
"""A declarative base that names no table itself."""
BASE_FACTORIES = ("declarative_base()", "generate_base()", "automap_base()")
"""How an outside call that makes a `DeclarativeMeta` base ends (`sqlalchemy.orm.…`)."""
DECLARATIVE_ROOTS = frozenset({"DeclarativeBase", "DeclarativeBaseNoMeta"})
EXTENSION_METHODS = frozenset({"__init__", "make_declarative_base", "_make_declarative_base"})
"""The methods of a `SQLAlchemy` subclass that decide its `Model` (kept by the reader)."""
_NAMING_METAS = frozenset({"DefaultMeta", "NameMetaMixin", "_BoundDeclarativeMeta"})
"""Flask-SQLAlchemy's metaclasses that name tables (`_BoundDeclarativeMeta`: 2.0–2.1's)."""
_MODEL_CLASS = "model_class"
MAX_DEPTH = 16


@dataclass(frozen=True)
class LibraryBase:
    """A model base a library defines (`read`: the distribution, version and module read).

    Django: `concrete` (the lower-cased name of the concrete model a subclass's table links to
    by `<concrete>_ptr_id`; None for an abstract model), `columns` (what a subclass's own table
    gets from it and its abstract ancestors), `many_to_many` (fields that auto-create a link
    table per concrete subclass), `primary_key` (one of `columns` is: no implicit `id`),
    `app_label` (its `Meta.app_label`, which a subclass without a `Meta` of its own inherits).
    SQLAlchemy: `tablename` (the literal `__tablename__` it sets), `names_table` (its
    `declared_attr` `__tablename__` as a function of the class name), `columns`."""

    read: str
    orm: str = "django"
    concrete: str | None = None
    columns: tuple[str, ...] = ()
    many_to_many: tuple[str, ...] = ()
    primary_key: bool = False
    app_label: str | None = None
    tablename: str | None = None
    names_table: Callable[[str], str] | None = None

    @property
    def abstract(self) -> bool:
        return self.concrete is None


def _django(read: str, *columns: str, **options: Any) -> LibraryBase:
    return LibraryBase(read, "django", columns=columns, **options)


def _alchemy(read: str, *columns: str, **options: Any) -> LibraryBase:
    return LibraryBase(read, "sqlalchemy", columns=columns, **options)


_DJANGO = "django 5.2 (django/contrib)"
_BASE_USER = _django(_DJANGO, "password", "last_login")
_PERMISSIONS = _django(_DJANGO, "is_superuser", many_to_many=("groups", "user_permissions"))
_ABSTRACT_USER = _django(
    _DJANGO,
    *_BASE_USER.columns,
    *_PERMISSIONS.columns,
    *("username", "first_name", "last_name", "email", "is_staff", "is_active", "date_joined"),
    many_to_many=_PERMISSIONS.many_to_many,
)
_BASE_SESSION = _django(_DJANGO, "session_key", "session_data", "expire_date", primary_key=True)
_TAGGIT = "django-taggit 6.1.0 (taggit/models.py)"
_GUARDIAN = "django-guardian (guardian/models/models.py)"
_WAGTAIL = "wagtail 7.4.4 and 8.0.1"
_PAGE = _django(f"{_WAGTAIL} (wagtail/models/pages.py)", concrete="page")
_ORDERABLE = _django(f"{_WAGTAIL} (wagtail/models/orderable.py)", "sort_order")
_SITE_SETTING = _django(f"{_WAGTAIL} (wagtail/contrib/settings/models.py)", "site_id")
_FORM_FIELD = _django(
    f"{_WAGTAIL} (wagtail/contrib/forms/models.py)",
    *("sort_order", "clean_name", "label", "field_type", "required", "choices"),
    *("default_value", "help_text"),
)
_EMAIL_FORM = _django(
    f"{_WAGTAIL} (wagtail/contrib/forms/models.py)",
    *("to_address", "from_address", "subject"),
    concrete="page",
)
_MODEL_UTILS = "django-model-utils 5.0.0 (model_utils/models.py)"
_EXTENSIONS = "django-extensions 4.1 (django_extensions/db/models.py)"
_ORDERED = "django-ordered-model 3.7.4 (ordered_model/models.py)"
_OAUTH = "django-oauth-toolkit 3.4.1 (oauth2_provider/models.py)"
_TREEBEARD = "django-treebeard 7.0.3 (treebeard/)"
_CELERY_BEAT = "django-celery-beat (django_celery_beat/models.py)"
_SOFTDELETE = "django-softdelete 0.11.5 (softdelete/models.py)"
_LIFECYCLE = "django-lifecycle 1.3.0 (django_lifecycle/models.py)"
_API_KEY = "djangorestframework-api-key 3.1.0 (rest_framework_api_key/models.py)"


def _concrete(read: str, name: str) -> LibraryBase:
    return LibraryBase(read, concrete=last_name(name).lower())


def _concretes(read: str, *names: str) -> dict[str, LibraryBase]:
    return {name: _concrete(read, name) for name in names}


def _fastapi_users() -> dict[str, LibraryBase]:
    """fastapi-users-db-sqlalchemy 7.0.0's tables (`__init__.py`, `access_token.py`): a literal
    `__tablename__` each; the `UUID` variants add an `id` primary key (the user and OAuth
    tables) and a `user_id` foreign key (OAuth, access token); `fastapi_users.db` re-exports
    the user and OAuth ones."""
    read = "fastapi-users-db-sqlalchemy 7.0.0 (fastapi_users_db_sqlalchemy/)"
    user = ("email", "hashed_password", "is_active", "is_superuser", "is_verified")
    oauth = ("oauth_name", "access_token", "expires_at", "refresh_token", "account_id")
    records = {
        "SQLAlchemyBaseUserTable": _alchemy(read, *user, tablename="user"),
        "SQLAlchemyBaseUserTableUUID": _alchemy(
            read, "id", *user, tablename="user", primary_key=True
        ),
        "SQLAlchemyBaseOAuthAccountTable": _alchemy(
            read, *oauth, "account_email", tablename="oauth_account"
        ),
        "SQLAlchemyBaseOAuthAccountTableUUID": _alchemy(
            read, "id", *oauth, "account_email", "user_id", tablename="oauth_account",
            primary_key=True,
        ),
    }  # fmt: skip
    found = {
        f"{module}.{name}": record
        for module in ("fastapi_users_db_sqlalchemy", "fastapi_users.db")
        for name, record in records.items()
    }
    tokens = "fastapi_users_db_sqlalchemy.access_token.SQLAlchemyBaseAccessTokenTable"
    found[tokens] = _alchemy(read, "token", "created_at", tablename="accesstoken", primary_key=True)
    found[f"{tokens}UUID"] = _alchemy(
        read, "token", "created_at", "user_id", tablename="accesstoken", primary_key=True
    )
    return found


def _flask_security() -> dict[str, LibraryBase]:
    """Flask-Security 5.9.2's model mixins (`flask_security/models/fsqla.py`, `fsqla_v2.py`,
    `fsqla_v3.py`, `fsqla_v4.py`: v2 adds the unified-sign-in columns, v3 WebAuthn's)."""
    user = (
        *("id", "email", "username", "password", "active", "fs_uniquifier", "confirmed_at"),
        *("last_login_at", "current_login_at", "last_login_ip", "current_login_ip"),
        *("login_count", "tf_primary_method", "tf_totp_secret", "tf_phone_number"),
        *("create_datetime", "update_datetime"),
    )
    users = {
        "fsqla": user,
        "fsqla_v2": (*user, "us_totp_secrets", "us_phone_number"),
        "fsqla_v3": (*user, "us_totp_secrets", "us_phone_number", "fs_webauthn_user_handle",
                     "mf_recovery_codes"),
    }  # fmt: skip
    users["fsqla_v4"] = users["fsqla_v3"]
    role = ("id", "name", "description", "permissions", "update_datetime")
    found: dict[str, LibraryBase] = {}
    for module, columns in users.items():
        read = f"flask-security 5.9.2 (flask_security/models/{module}.py)"
        found[f"flask_security.models.{module}.FsUserMixin"] = _alchemy(
            read, *columns, primary_key=True
        )
        found[f"flask_security.models.{module}.FsRoleMixin"] = _alchemy(
            read, *role, primary_key=True
        )
    return found


LIBRARY_BASES: dict[str, LibraryBase] = {
    # Django's own: a custom user or session store subclasses the abstract ones
    # (`django.contrib.sessions.models` re-exports the abstract session)
    "django.contrib.auth.base_user.AbstractBaseUser": _BASE_USER,
    "django.contrib.auth.models.AbstractBaseUser": _BASE_USER,
    "django.contrib.auth.models.PermissionsMixin": _PERMISSIONS,
    "django.contrib.auth.models.AbstractUser": _ABSTRACT_USER,
    "django.contrib.sessions.base_session.AbstractBaseSession": _BASE_SESSION,
    "django.contrib.sessions.models.AbstractBaseSession": _BASE_SESSION,
    **_concretes(
        _DJANGO,
        "django.contrib.auth.models.User",
        "django.contrib.auth.models.Group",
        "django.contrib.auth.models.Permission",
        "django.contrib.contenttypes.models.ContentType",
        "django.contrib.sites.models.Site",
        "django.contrib.sessions.models.Session",
        "django.contrib.admin.models.LogEntry",
        "django.contrib.flatpages.models.FlatPage",
        "django.contrib.redirects.models.Redirect",
    ),
    "taggit.models.TagBase": _django(_TAGGIT, "name", "slug"),
    "taggit.models.ItemBase": _django(_TAGGIT),
    "taggit.models.TaggedItemBase": _django(_TAGGIT, "tag_id"),
    "taggit.models.CommonGenericTaggedItemBase": _django(_TAGGIT, "content_type_id"),
    "taggit.models.GenericTaggedItemBase": _django(_TAGGIT, "content_type_id", "object_id"),
    "taggit.models.GenericUUIDTaggedItemBase": _django(_TAGGIT, "content_type_id", "object_id"),
    **_concretes(_TAGGIT, "taggit.models.Tag", "taggit.models.TaggedItem"),
    **_concretes(
        _CELERY_BEAT,
        *(
            f"django_celery_beat.models.{name}"
            for name in (
                "PeriodicTask",
                "CrontabSchedule",
                "IntervalSchedule",
                "ClockedSchedule",
                "SolarSchedule",
            )
        ),
    ),
    # django-guardian's per-object permissions: a project's direct-foreign-key tables subclass
    # the abstract bases (`ProjectUserObjectPermission(UserObjectPermissionBase)`)
    "guardian.models.UserObjectPermissionBase": _django(_GUARDIAN, "permission_id", "user_id"),
    "guardian.models.GroupObjectPermissionBase": _django(_GUARDIAN, "permission_id", "group_id"),
    "guardian.models.UserObjectPermissionAbstract": _django(
        _GUARDIAN, "permission_id", "user_id", "content_type_id", "object_pk"
    ),
    "guardian.models.GroupObjectPermissionAbstract": _django(
        _GUARDIAN, "permission_id", "group_id", "content_type_id", "object_pk"
    ),
    **_concretes(
        _GUARDIAN, "guardian.models.UserObjectPermission", "guardian.models.GroupObjectPermission"
    ),
    # Wagtail: `Page` is concrete (`wagtailcore_page`): a page type is multi-table inheritance;
    # the abstract forms below it keep that link; `Task`/`TaskState` are concrete too; the
    # mixins, settings bases and `Orderable` are abstract models (`wagtail.core.models`: 2.x)
    **{
        f"{module}.{name}": record
        for module in ("wagtail.models", "wagtail.core.models")
        for name, record in (
            ("Page", _PAGE),
            ("Orderable", _ORDERABLE),
            ("Task", _concrete(f"{_WAGTAIL} (wagtail/models/workflows.py)", "Task")),
            ("TaskState", _concrete(f"{_WAGTAIL} (wagtail/models/workflows.py)", "TaskState")),
            (
                "DraftStateMixin",
                _django(
                    f"{_WAGTAIL} (wagtail/models/draft_state.py)",
                    *("live", "has_unpublished_changes", "first_published_at", "last_published_at"),
                    *("live_revision_id", "go_live_at", "expire_at", "expired"),
                ),
            ),
            (
                "RevisionMixin",
                _django(f"{_WAGTAIL} (wagtail/models/revisions.py)", "latest_revision_id"),
            ),
            (
                "LockableMixin",
                _django(
                    f"{_WAGTAIL} (wagtail/models/locking.py)", "locked", "locked_at", "locked_by_id"
                ),
            ),
            (
                "TranslatableMixin",
                _django(f"{_WAGTAIL} (wagtail/models/i18n.py)", "translation_key", "locale_id"),
            ),
            ("WorkflowMixin", _django(f"{_WAGTAIL} (wagtail/models/workflows.py)")),
        )
    },
    # a custom image or document model (`WAGTAILIMAGES_IMAGE_MODEL`): abstract; their `tags`
    # go through taggit's own table
    "wagtail.images.models.AbstractImage": _django(
        f"{_WAGTAIL} (wagtail/images/models.py)",
        *("collection_id", "title", "file", "description", "width", "height", "created_at"),
        *("uploaded_by_user_id", "focal_point_x", "focal_point_y", "focal_point_width"),
        *("focal_point_height", "file_size", "file_hash"),
    ),
    "wagtail.images.models.AbstractRendition": _django(
        f"{_WAGTAIL} (wagtail/images/models.py)",
        *("filter_spec", "file", "width", "height", "focal_point_key"),
    ),
    "wagtail.documents.models.AbstractDocument": _django(
        f"{_WAGTAIL} (wagtail/documents/models.py)",
        *("collection_id", "title", "file", "created_at", "uploaded_by_user_id", "file_size"),
        "file_hash",
    ),
    "wagtail.models.CollectionMember": _django(
        f"{_WAGTAIL} (wagtail/models/media.py)", "collection_id"
    ),
    "wagtail.contrib.settings.models.BaseSiteSetting": _SITE_SETTING,
    "wagtail.contrib.settings.models.BaseSetting": _SITE_SETTING,  # before Wagtail 4
    "wagtail.contrib.settings.models.BaseGenericSetting": _django(_SITE_SETTING.read),
    "wagtail.contrib.forms.models.AbstractFormField": _FORM_FIELD,
    "wagtail.contrib.forms.models.AbstractForm": _django(_FORM_FIELD.read, concrete="page"),
    "wagtail.contrib.forms.models.AbstractEmailForm": _EMAIL_FORM,
    "wagtail.contrib.forms.models.AbstractFormSubmission": _django(
        _FORM_FIELD.read, "form_data", "page_id", "submit_time"
    ),
    "wagtail.contrib.forms.models.FormSubmission": _concrete(_FORM_FIELD.read, "FormSubmission"),
    # django-modelcluster 6.5 (modelcluster/models.py): an abstract model, no field
    "modelcluster.models.ClusterableModel": _django("django-modelcluster 6.5 (models.py)"),
    # django-mptt 0.20.0 (mptt/models.py): MPTTModelBase adds the tree fields, named by
    # `MPTTMeta` (`lft`, `rght`, `tree_id`, `level` by default)
    "mptt.models.MPTTModel": _django(
        "django-mptt 0.20.0 (mptt/models.py)", "lft", "rght", "tree_id", "level"
    ),
    "treebeard.mp_tree.MP_Node": _django(_TREEBEARD, "path", "depth", "numchild"),
    "treebeard.ns_tree.NS_Node": _django(_TREEBEARD, "lft", "rgt", "tree_id", "depth"),
    "treebeard.al_tree.AL_Node": _django(_TREEBEARD),
    # django-polymorphic 4.11.7: a subclass's table gets its content-type link
    "polymorphic.models.PolymorphicModel": _django(
        "django-polymorphic 4.11.7 (polymorphic/models.py)", "polymorphic_ctype_id"
    ),
    "model_utils.models.TimeStampedModel": _django(_MODEL_UTILS, "created", "modified"),
    "model_utils.models.TimeFramedModel": _django(_MODEL_UTILS, "start", "end"),
    "model_utils.models.StatusModel": _django(_MODEL_UTILS, "status", "status_changed"),
    "model_utils.models.SoftDeletableModel": _django(_MODEL_UTILS, "is_removed"),
    "model_utils.models.UUIDModel": _django(_MODEL_UTILS, "id", primary_key=True),
    # django-soft-delete's abstract model (blind16p: four tables were UNKNOWN_MODEL_BASE)
    "django_softdelete.models.SoftDeleteModel": _django(
        "django-soft-delete 1.0.23 (django_softdelete/models.py)",
        *("deleted_at", "restored_at", "transaction_id"),
    ),
    # django-softdelete 0.11.5 (softdelete/models.py), another library than the one above
    "softdelete.models.SoftDeleteObject": _django(_SOFTDELETE, "deleted_at"),
    **_concretes(_SOFTDELETE, "softdelete.models.ChangeSet", "softdelete.models.SoftDeleteRecord"),
    # django-lifecycle 1.3.0 (django_lifecycle/models.py, re-exported by its package): abstract,
    # no field (its hooks come from `LifecycleModelMixin`, a plain class)
    "django_lifecycle.models.LifecycleModel": _django(_LIFECYCLE),
    "django_lifecycle.LifecycleModel": _django(_LIFECYCLE),
    # djangorestframework-api-key 3.1.0 (rest_framework_api_key/models.py)
    "rest_framework_api_key.models.AbstractAPIKey": _django(
        _API_KEY,
        *("id", "prefix", "hashed_key", "created", "name", "revoked", "expiry_date"),
        primary_key=True,
    ),
    "rest_framework_api_key.models.APIKey": _concrete(_API_KEY, "APIKey"),
    # django-ordered-model 3.7.4 (ordered_model/models.py): both abstract, `order` on the second
    "ordered_model.models.OrderedModelBase": _django(_ORDERED),
    "ordered_model.models.OrderedModel": _django(_ORDERED, "order"),
    "django_extensions.db.models.TimeStampedModel": _django(_EXTENSIONS, "created", "modified"),
    "django_extensions.db.models.TitleDescriptionModel": _django(
        _EXTENSIONS, "title", "description"
    ),
    "django_extensions.db.models.TitleSlugDescriptionModel": _django(
        _EXTENSIONS, "title", "description", "slug"
    ),
    "django_extensions.db.models.ActivatorModel": _django(
        _EXTENSIONS, "status", "activate_date", "deactivate_date"
    ),
    # django-oauth-toolkit: abstract bases of the swappable models (`OAUTH2_PROVIDER_*_MODEL`
    # names the project's subclass; oauth2_provider's own concrete model is then swapped out
    # and makes no table — a table of that app, never one of the scanned files)
    "oauth2_provider.models.AbstractApplication": _django(
        _OAUTH,
        *("id", "client_id", "user_id", "redirect_uris", "post_logout_redirect_uris"),
        *("client_type", "authorization_grant_type", "client_secret", "hash_client_secret"),
        *("name", "skip_authorization", "created", "updated", "algorithm", "allowed_origins"),
        primary_key=True,
    ),
    "oauth2_provider.models.AbstractGrant": _django(
        _OAUTH,
        *("id", "user_id", "code", "application_id", "expires", "redirect_uri", "scope"),
        *("created", "updated", "code_challenge", "code_challenge_method", "nonce", "claims"),
        primary_key=True,
    ),
    "oauth2_provider.models.AbstractAccessToken": _django(
        _OAUTH,
        *("id", "user_id", "source_refresh_token_id", "token", "token_checksum"),
        *("id_token_id", "application_id", "expires", "scope", "created", "updated"),
        primary_key=True,
    ),
    "oauth2_provider.models.AbstractRefreshToken": _django(
        _OAUTH,
        *("id", "user_id", "token", "token_checksum", "application_id", "access_token_id"),
        *("token_family", "created", "updated", "revoked"),
        primary_key=True,
    ),
    "oauth2_provider.models.AbstractIDToken": _django(
        _OAUTH,
        *("id", "user_id", "jti", "application_id", "expires", "scope", "created", "updated"),
        primary_key=True,
    ),
    # django-dynamic-preferences 1.17.0: its abstract bases' `Meta` names the library's app
    "dynamic_preferences.models.PerInstancePreferenceModel": _django(
        "django-dynamic-preferences 1.17.0 (dynamic_preferences/models.py)",
        *("section", "name", "raw_value"),
        app_label="dynamic_preferences",
    ),
    # SQLAlchemy mixins. fastapi-users-db-sqlalchemy 7.0.0 (`fastapi_users.db` re-exports the
    # user and OAuth tables): literal `__tablename__`s
    **_fastapi_users(),
    # Flask-Dance 7.1.0 (flask_dance/consumer/storage/sqla.py): a `declared_attr` name
    "flask_dance.consumer.storage.sqla.OAuthConsumerMixin": _alchemy(
        "flask-dance 7.1.0 (flask_dance/consumer/storage/sqla.py)",
        *("id", "provider", "created_at", "token"),
        primary_key=True,
        names_table=lambda name: f"flask_dance_{name.lower()}",
    ),
    # Flask-Security 5.9.2 (flask_security/models/fsqla*.py): columns, no table name (the
    # model names it, or Flask-SQLAlchemy does); each version's mixin extends the one before
    **_flask_security(),
    # SQLAlchemy-Utils 0.43.0 (sqlalchemy_utils/models.py): two columns, no name
    "sqlalchemy_utils.Timestamp": _alchemy("sqlalchemy-utils 0.43.0", "created", "updated"),
    "sqlalchemy_utils.models.Timestamp": _alchemy("sqlalchemy-utils 0.43.0", "created", "updated"),
    # sqlalchemy-mixins 2.0.5: query helpers (no name, no column) and two timestamp columns
    **{
        f"sqlalchemy_mixins.{name}": _alchemy("sqlalchemy-mixins 2.0.5")
        for name in (
            "AllFeaturesMixin",
            "ActiveRecordMixin",
            "SmartQueryMixin",
            "ReprMixin",
            "SerializeMixin",
            "EagerLoadMixin",
            "InspectionMixin",
        )
    },
    "sqlalchemy_mixins.TimestampsMixin": _alchemy(
        "sqlalchemy-mixins 2.0.5 (timestamp.py)", "created_at", "updated_at"
    ),
    # Authlib 1.9.10 (authlib/integrations/sqla_oauth2/): OAuth 2 server columns, no name and
    # no primary key (the model defines both)
    **{
        f"authlib.integrations.sqla_oauth2{module}.{name}": _alchemy(
            "authlib 1.9.10 (authlib/integrations/sqla_oauth2/)", *columns
        )
        for name, submodule, columns in (
            (
                "OAuth2ClientMixin",
                ".client_mixin",
                (
                    "client_id",
                    "client_secret",
                    "client_id_issued_at",
                    "client_secret_expires_at",
                    "client_metadata",
                ),
            ),
            (
                "OAuth2AuthorizationCodeMixin",
                ".tokens_mixins",
                (
                    "code",
                    "client_id",
                    "redirect_uri",
                    "response_type",
                    "scope",
                    "nonce",
                    "auth_time",
                    "acr",
                    "amr",
                    "code_challenge",
                    "code_challenge_method",
                ),
            ),
            (
                "OAuth2TokenMixin",
                ".tokens_mixins",
                (
                    "client_id",
                    "token_type",
                    "access_token",
                    "refresh_token",
                    "scope",
                    "issued_at",
                    "access_token_revoked_at",
                    "refresh_token_revoked_at",
                    "expires_in",
                ),
            ),
        )
        for module in ("", submodule)
    },
    # Flask-Security 5.9.2's core mixins (flask_security/core.py): methods only, the
    # columns the application's model defines
    **{
        f"{module}.{name}": _alchemy("flask-security 5.9.2 (flask_security/core.py)")
        for module in ("flask_security", "flask_security.core")
        for name in ("UserMixin", "RoleMixin", "WebAuthnMixin", "RefreshTrackerMixin")
    },
    # Flask-Login 0.6.3 (flask_login/mixins.py): methods only
    "flask_login.UserMixin": _alchemy("flask-login 0.6.3"),
    "flask_login.mixins.UserMixin": _alchemy("flask-login 0.6.3"),
}
"""Model bases of libraries by import path (see `LibraryBase`); the ORM packs read the records
of their `orm`."""

LIBRARY_FIELDS: dict[str, str] = {
    # django-modelcluster 6.5 (modelcluster/fields.py): `ParentalKey(ForeignKey)`,
    # `ParentalManyToManyField(ManyToManyField)`: a column `<name>_id`, a link table
    "modelcluster.fields.ParentalKey": "ForeignKey",
    "modelcluster.fields.ParentalManyToManyField": "ManyToManyField",
}
"""Django fields of libraries by import path: the Django field each one is (a subclass of)."""


@dataclass(frozen=True)
class MadeModel:
    """A Django model a library's decorator makes of the class it decorates, the decorator a
    method of an object of the library's class (`store = Hierarkey(attribute_name="settings")`,
    `@store.add()`): named `<class>_<the object's option, title-cased><suffix>` in the decorated
    class's module (so its app's label, as Django gives a model made at run time), with these
    columns."""

    option: str  # the keyword of the object's constructor the name is made of
    suffix: str
    columns: tuple[str, ...]
    read: str  # the library's release and the file its decorator is read in
    on_model: bool = True  # it decorates a model (else a plain class: a file not read as models)


_HIERARKEY = "django-hierarkey 2.0.1 (raphaelm/django-hierarkey tag 2.0.1, hierarkey/models.py)"
LIBRARY_MADE_MODELS: dict[str, dict[str, MadeModel]] = {
    # `Hierarkey.add()` on a model: `ModelBase('%s_%sStore' % (model.__name__,
    # self.attribute_name.title()), (BaseHierarkeyStoreModel,), attrs)`, `attrs` holding the
    # model's `__module__`, `object = ForeignKey(model)` and a `Meta` naming no table;
    # `set_global()` on a class below `GlobalSettingsBase` (not a model): the same, no `object`
    "hierarkey.models.Hierarkey": {
        "add": MadeModel(
            "attribute_name", "Store", ("id", "key", "value", "object_id"), _HIERARKEY
        ),
        "set_global": MadeModel(
            "attribute_name", "Store", ("id", "key", "value"), _HIERARKEY, on_model=False
        ),
    },
}
"""Models libraries make at run time, by the import path of the class whose object's method
decorates a class, then by that method's name (`django_models` reads them)."""

LIBRARY_PLAIN_CLASSES: frozenset[str] = frozenset({
    # django-hierarkey 2.0.1 (hierarkey/models.py): `class GlobalSettingsBase:`, no model (the
    # class `set_global()` decorates)
    "hierarkey.models.GlobalSettingsBase",
    # django-simple-history 3.x (simple_history/models.py): the descriptor that makes the
    # history tables; a project subclass of it is no model either
    "simple_history.models.HistoricalRecords",
})  # fmt: skip
"""Classes of libraries' `models` modules that are no model: a class below one is none."""


def library_bases(orm: str) -> dict[str, LibraryBase]:
    """The records of one ORM's bases."""
    return {name: record for name, record in LIBRARY_BASES.items() if record.orm == orm}


def is_extension(name: str) -> bool:
    """Flask-SQLAlchemy's extension class, by its import path."""
    return name.partition(".")[0] == "flask_sqlalchemy" and last_name(name) == "SQLAlchemy"


@dataclass(frozen=True)
class Factory:
    """A module-level function of the repository as a base factory: what it returns (after
    its own assignments of a returned name) and the classes it defines, by name."""

    returns: ast.expr
    classes: tuple[tuple[str, int], ...] = ()  # (name, line) of each class it defines


def read_factory(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Factory | None:
    """A function whose last statement returns a call or a name, as a `Factory`."""
    if not func.body or not isinstance(func.body[-1], ast.Return):
        return None
    returned = func.body[-1].value
    classes = tuple((s.name, s.lineno) for s in func.body if isinstance(s, ast.ClassDef))
    if isinstance(returned, ast.Name) and all(name != returned.id for name, _ in classes):
        for stmt in reversed(func.body[:-1]):  # `made = declarative_base(...); return made`
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == returned.id
            ):
                returned = stmt.value
                break
    if isinstance(returned, ast.Call | ast.Name | ast.Attribute):
        return Factory(returned, classes)
    return None


@dataclass(frozen=True)
class _Naming:
    """What an extension's base-making method does: `known` (False: it builds the base in a
    way not read here), and whether unnamed models get a name."""

    known: bool
    names: bool = True
    model_class: str | None = None  # `cls=Model` written in the method: the model class used


class ModelBases(Generic[B]):
    """The `made` hook of `pymodules.Modules` for the ORM packs (see the module docstring).

    `methods(cls)`: a class's `EXTENSION_METHODS` as the reader kept them; `factories(module)`:
    the module's functions read as factories."""

    def __init__(
        self,
        methods: Callable[[ClassFacts[B]], Mapping[str, ast.FunctionDef]],
        factories: Callable[[ModuleFacts[B]], Mapping[str, Factory]],
    ) -> None:
        self.methods = methods
        self.factories = factories
        self._asking: set[tuple[str, str, str]] = set()  # a factory returning its own result

    def __call__(
        self, modules: Modules[B], made: CallRef[B]
    ) -> list[ClassRef[B] | External] | None:
        key = (made.module.path, made.written, made.attribute)
        if key in self._asking or len(self._asking) > MAX_DEPTH:
            return None
        self._asking.add(key)
        try:
            if made.attribute == "Model":
                chain = self.extension(modules, made)
                if chain is not None:
                    return self._model(modules, made, chain)
            return self._factory_result(modules, made)
        finally:
            self._asking.discard(key)

    def extension(self, modules: Modules[B], made: CallRef[B]) -> list[ClassRef[B]] | None:
        """Whether `made` is a call of Flask-SQLAlchemy's `SQLAlchemy` or of a project subclass
        of it: that subclass's chain of project classes, nearest first ([] for the library's
        own); None for anything else."""
        if not made.written:
            return [] if is_extension(made.callee) else None
        found = modules.resolve(made.module, made.written.partition("().")[0])
        if isinstance(found, External):
            return [] if is_extension(found.name) and "()." not in made.written else None
        if not isinstance(found, ClassRef):
            return None
        ancestors = modules.ancestors(found)
        if not any(isinstance(a, External) and is_extension(a.name) for a in ancestors):
            return None
        return [found, *(a for a in ancestors if isinstance(a, ClassRef))]

    def _model(
        self, modules: Modules[B], made: CallRef[B], chain: list[ClassRef[B]]
    ) -> list[ClassRef[B] | External]:
        """`db.Model`'s bases, `db` made by `made` (an extension whose project chain is
        `chain`)."""
        names = made.keyword("disable_autonaming") != "True"
        given = made.keyword(_MODEL_CLASS)
        if given is None and made.keyword("**") is not None:
            given = ""  # `SQLAlchemy(**options)`: may hold one, not read
        model_class = (made.module, given) if given is not None else None
        for cls in chain:  # each `__init__` hands its caller's model_class on, or its own
            init = self.methods(cls.cls).get("__init__")
            if init is not None:
                model_class = _passed_on(cls.module, init, model_class)
        for cls in chain:
            maker = self.methods(cls.cls)
            method = maker.get("_make_declarative_base") or maker.get("make_declarative_base")
            if method is not None:
                naming = self._naming(modules, cls.module, method)
                if not naming.known:  # (no `()`: the name is no `declarative_base()`'s)
                    return [External(f"{cls.cls.name}.{method.name}")]
                names = names and naming.names
                if naming.model_class is not None:
                    model_class = (cls.module, naming.model_class)
                break
        marker = FLASK_MODEL if names else PLAIN_MODEL
        if model_class is None:
            return [marker]
        module, written = model_class
        if not written:
            return [External(f"{made.written or made.callee}(model_class=?).Model")]
        if isinstance(written, CallBinding):  # `model_class=declarative_base(...)`
            found: Symbol[B] = modules.call_ref(module, written)
        else:
            found = modules.resolve(module, written)
        if isinstance(found, CallRef):
            return modules.made_bases(found)  # a base made already: `db.Model` is it
        if isinstance(found, ClassRef):
            return [found] if self.declarative(modules, found) else [marker, found]
        if found.name.partition(".")[0] == "flask_sqlalchemy":
            return [marker]  # its own `Model`
        return [External(found.name)]  # from outside: not known

    def declarative(self, modules: Modules[B], ref: ClassRef[B]) -> bool:
        """`isinstance(ref, DeclarativeMeta)`: decorated `@as_declarative`, or below a base
        made by `declarative_base()` or the like (a `DeclarativeBase` subclass is not)."""
        chain = [ref, *modules.ancestors(ref)]
        return any(
            (isinstance(c, External) and c.name.endswith(BASE_FACTORIES))
            or (
                isinstance(c, ClassRef)
                and any(last_name(d) == "as_declarative" for d in c.cls.decorators)
            )
            for c in chain
        )

    def _naming(
        self, modules: Modules[B], module: ModuleFacts[B], method: ast.FunctionDef
    ) -> _Naming:
        """What an overridden `_make_declarative_base(self, model_class, ...)` builds."""
        params = [a.arg for a in method.args.args]
        model = params[1] if len(params) > 1 else None
        for node in ast.walk(method):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in EXTENSION_METHODS
                and isinstance(func.value, ast.Call | ast.Name)
            ):
                return _Naming(True)  # the extension's own, through `super()`
            callee = dotted(func)
            found = modules.resolve(module, callee) if callee else None
            if not (
                isinstance(found, External)
                and found.name.partition(".")[0] in ("sqlalchemy", "flask_sqlalchemy")
                and last_name(found.name) == "declarative_base"
            ):
                continue
            cls = next((k.value for k in node.keywords if k.arg == "cls"), None)
            written = dotted(cls) if cls is not None else None
            if written is None:
                continue
            meta = next((k.value for k in node.keywords if k.arg == "metaclass"), None)
            meta_name = dotted(meta) if meta is not None else None
            if meta is not None and meta_name is None:
                return _Naming(False)  # a metaclass made by a call: not read here
            names = meta_name is not None and self._names(modules, module, meta_name)
            # `cls=<its model parameter>`: the caller's model class; another name: that one
            return _Naming(True, names, None if written == model else written)
        return _Naming(False)

    @staticmethod
    def _names(modules: Modules[B], module: ModuleFacts[B], meta: str) -> bool:
        """Whether a metaclass is (below) Flask-SQLAlchemy's naming one."""
        found = modules.resolve(module, meta)
        chain = [found, *modules.ancestors(found)] if isinstance(found, ClassRef) else [found]
        return any(
            isinstance(c, External)
            and c.name.partition(".")[0] == "flask_sqlalchemy"
            and last_name(c.name) in _NAMING_METAS
            for c in chain
        )

    def _factory_result(
        self, modules: Modules[B], made: CallRef[B]
    ) -> list[ClassRef[B] | External] | None:
        """A class base that is what a function of the repository returns (`made.attribute`
        of it, when asked): what that return is, or None when no such function is found."""
        found = self._find_factory(modules, made.module, made.written)
        if found is None:
            return None
        module, factory = found
        returned = factory.returns
        if isinstance(returned, ast.Call):
            binding = binding_of(returned)
            if binding is None:
                return None
            inner = modules.call_ref(module, binding, made.attribute)
            return modules.made_bases(inner)
        name = dotted(returned)
        if name is None:
            return None
        defined = dict(factory.classes)
        if name in defined:  # a class the function defines
            cls = next(
                (c for c in module.classes if c.name == name and c.line == defined[name]), None
            )
            if cls is None or made.attribute:
                return None
            return [ClassRef(module, cls)]
        target = modules.resolve(module, name + (f".{made.attribute}" if made.attribute else ""))
        if isinstance(target, CallRef):
            return modules.made_bases(target)
        return [target]

    def _find_factory(
        self, modules: Modules[B], module: ModuleFacts[B], written: str
    ) -> tuple[ModuleFacts[B], Factory] | None:
        """The function `written` names from `module` (its own, or imported, through
        re-exports), read as a factory."""
        if not written or "()." in written:
            return None
        for _ in range(MAX_DEPTH):
            head, _, rest = written.partition(".")
            if not rest and head in self.factories(module):
                return module, self.factories(module)[head]
            if head in module.class_map or head in module.bindings:
                return None
            target = module.imports.get(head)
            if target is None:
                return None
            full = f"{target}.{rest}" if rest else target
            source, _, written = full.rpartition(".")
            found = modules.find_module(source) if source else None
            if found is None:
                return None
            module = found
        return None


def _passed_on(
    module: ModuleFacts[B], init: ast.FunctionDef, given: tuple[ModuleFacts[B], Written] | None
) -> tuple[ModuleFacts[B], Written] | None:
    """The `model_class` an extension's `__init__` passes to `super().__init__`, given what
    its caller passed (`given`: where it is written, and the name)."""
    args = init.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    defaults = dict(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    defaults.update(
        (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    )
    kwargs = args.kwarg.arg if args.kwarg else None
    call = next(
        (
            n
            for n in ast.walk(init)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "__init__"
        ),
        None,
    )
    if call is None:
        return given
    for keyword in call.keywords:
        if keyword.arg == _MODEL_CLASS:
            value = keyword.value
            if isinstance(value, ast.Name) and value.id in {
                *positional,
                *(a.arg for a in args.kwonlyargs),
            }:
                if given is not None:
                    return given
                default = defaults.get(value.id)
                name = dotted(default) if default is not None else None
                return (module, name) if name else None
            name, caller_first = _followed(init, value, kwargs)
            if caller_first and given is not None:
                return given
            return (module, name) if name else given
    spread = any(
        k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs
        for k in call.keywords
    )
    if not spread:
        return None  # not passed on: the library's default
    top = {id(stmt) for stmt in init.body}
    top |= {id(stmt.value) for stmt in init.body if isinstance(stmt, ast.Expr)}
    for node in ast.walk(init):
        set_to, keeps = _sets_model_class(node, kwargs)
        keeps = keeps or id(node) not in top  # in a branch: the caller's may be kept
        if set_to is not None:
            name, caller_first = _followed(init, set_to, kwargs)
            if (keeps or caller_first) and given is not None:
                return given
            return (module, name) if name else given
    return given


def _followed(
    init: ast.FunctionDef, value: ast.expr, kwargs: str | None
) -> tuple[str | None, bool]:
    """The dotted name `value` gives a `model_class`, and whether a caller's keyword comes
    first: a local name of the method is followed through its assignments there
    (`base = kwargs.pop("model_class", None)`, `if base is None: base = ModelBase`: the
    caller's, else `ModelBase`); None where they disagree or are not names."""
    if not isinstance(value, ast.Name):
        return dotted(value), False
    assigned = [
        node.value
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == value.id
    ]
    if not assigned:
        return value.id, False  # a module-level name
    names: set[str] = set()
    caller_first = False
    for expr in assigned:
        if _takes_model_class(expr, kwargs):
            caller_first = True
            fallback = expr.args[1] if isinstance(expr, ast.Call) and len(expr.args) > 1 else None
            if fallback is not None and not (
                isinstance(fallback, ast.Constant) and fallback.value is None
            ):
                names.add(dotted(fallback) or "")
        else:
            names.add(dotted(expr) or "")
    name = next(iter(names)) if len(names) == 1 else None
    return name or None, caller_first


def _takes_model_class(expr: ast.expr, kwargs: str | None) -> bool:
    """`kwargs.pop("model_class", ...)` or `kwargs.get("model_class", ...)`."""
    return (
        kwargs is not None
        and isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("pop", "get")
        and isinstance(expr.func.value, ast.Name)
        and expr.func.value.id == kwargs
        and bool(expr.args)
        and isinstance(expr.args[0], ast.Constant)
        and expr.args[0].value == _MODEL_CLASS
    )


def _sets_model_class(node: ast.AST, kwargs: str | None) -> tuple[ast.expr | None, bool]:
    """`kwargs.setdefault("model_class", X)` (X, True: a caller's keyword wins),
    `kwargs["model_class"] = X` or `kwargs.update(model_class=X)` (X, False: X replaces a
    caller's, where the statement is not in a branch of the method)."""
    if kwargs is None:
        return None, False
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == kwargs
    ):
        if node.func.attr == "setdefault" and len(node.args) == 2:
            first = node.args[0]
            if isinstance(first, ast.Constant) and first.value == _MODEL_CLASS:
                return node.args[1], True
        if node.func.attr == "update":
            value = next((k.value for k in node.keywords if k.arg == _MODEL_CLASS), None)
            return value, False
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == kwargs
            and isinstance(target.slice, ast.Constant)
            and target.slice.value == _MODEL_CLASS
        ):
            return node.value, False
    return None, False
