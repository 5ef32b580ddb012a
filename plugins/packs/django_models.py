"""The `pack-django` analyzer: the tables Django creates for the models of the scanned files.

Read from source with `ast`, never imported. A model is a class below `django.db.models.Model`,
directly or through other model classes of the scanned files (across modules, through imports).
Its table, as Django's `Options` names it: `Meta.db_table`, else `<app_label>_<model name
lower-cased>`, where `app_label` is `Meta.app_label`, else the name of the package holding the
`models.py` module or the `models/` package (any other module: the package holding it). A model
without a `Meta` of its own, or whose `Meta` subclasses an abstract parent's, inherits that
parent's `app_label` and `managed` (Django's Meta inheritance for abstract bases).

- `Meta.abstract = True` and `Meta.proxy = True` make no table; `managed = False` still does
  (attr `managed=false`: Django never creates it, but the code reads and writes it).
- A `ManyToManyField` without `through=` makes Django's auto-created join table:
  `<model table>_<field name>` (or its `db_table=`), attr `model` = the auto-created through
  model `<Model>_<field>`, 3 columns (id and the two foreign keys). A field inherited from an
  abstract parent makes one per concrete child.

Models of Django and of libraries are known by their import path (`KNOWN_MODELS`, the Django
records of `model_bases.LIBRARY_BASES`, each read in the library's source): an abstract one
(`AbstractUser`, `PermissionsMixin`, taggit's `TaggedItemBase`, Wagtail's `Orderable` and
settings bases, `ClusterableModel`, treebeard's `MP_Node`, `MPTTModel`, `PolymorphicModel`,
django-model-utils', django-extensions' and django-oauth-toolkit's abstract models, …) gives
its columns, auto-created many-to-many tables and inherited `Meta.app_label` to each concrete
subclass (`AbstractUser`/`PermissionsMixin`: `<table>_groups` and `<table>_user_permissions`);
a concrete one (`User`, `ContentType`, django_celery_beat's `PeriodicTask`, Wagtail's `Page`
and its abstract forms below it, …) makes a subclass multi-table inheritance
(`<parent>_ptr_id`). A library's relation fields (`model_bases.LIBRARY_FIELDS`: modelcluster's
`ParentalKey`, `ParentalManyToManyField`) are read as the Django field they subclass (a
column, an auto-created link table). A class that looks like a model (Django model fields, or
`Meta` table options) below any other outside base, or any class below a class of another
app's `models` module that no record names (fields or not), is reported as
`UNKNOWN_MODEL_BASE` at the class, with no table: its table is not known.

A library's decorator that makes a model of the class it decorates (`model_bases.
LIBRARY_MADE_MODELS`: django-hierarkey's `@store.add()`, `@store.set_global()`) makes a table
of the class's app, at the decorator; one whose name the pack cannot read is a finding there.

Only the models of installed apps are tables, as Django's app registry holds only those
(`django_apps`: the settings' `INSTALLED_APPS`, `AppConfig` labels): a model belongs to the
installed app whose name is the longest prefix of its module's, and takes that app's label; one
of a package no entry installs is no table unless its `Meta.app_label` is an installed label.
Where `INSTALLED_APPS` is computed, in whole or in part (`[*discover(), *CORE]`: the written
apps known), every model is listed, with an `UNRESOLVED_INSTALLED_APPS` at the settings; a package
no written entry names takes the label its own `apps` submodule's `AppConfig` gives (Django's
label whichever entry installs it). Where no settings file binds it (a reusable app), every model
is listed.

Attr `columns`: the columns of the model's own table — its concrete fields and those of its
abstract ancestors (every `...Field(...)`, `ForeignKey(...)`, `OneToOneField(...)`; not
`ManyToManyField` nor generic relations, which have no column), plus the automatic `id` when no
field says `primary_key=True`, or the `<parent>_ptr` link for multi-table inheritance.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .django_apps import (
    AppConfigFacts,
    Installed,
    InstalledApps,
    SettingsFacts,
    app_config,
    containing_app,
    default_config,
    module_names,
    own_label,
    settings_facts,
)
from .model_bases import (
    LIBRARY_FIELDS,
    LIBRARY_MADE_MODELS,
    LIBRARY_PLAIN_CLASSES,
    Factory,
    LibraryBase,
    ModelBases,
    library_bases,
    read_factory,
)
from .pymodules import (
    MAX_ANCESTORS,
    REPOSITORY_PACKAGES,
    CallRef,
    ClassRef,
    External,
    ModuleFacts,
    Modules,
    dotted,
    has_keyword,
    keyword_literal,
    last_name,
    literal,
    module_facts,
    packages_of,
)
from .pyparse import parse_python
from .scan_document import DocumentPieces
from .tables import (
    COMPUTED_TABLENAME,
    UNKNOWN_MODEL_BASE,
    UNRESOLVED_INSTALLED_APPS,
    Gap,
    TableClaim,
    link_tables,
)
from .unread_orms import foreign_base

NO_COLUMN_FIELDS = frozenset({"ManyToManyField", "GenericForeignKey", "GenericRelation"})
RELATION_FIELDS = frozenset({"ForeignKey", "OneToOneField"})
NEUTRAL_BASE_MODULES = frozenset({"typing", "typing_extensions", "abc", "enum", "builtins"})


_MADE_METHODS = frozenset(m for methods in LIBRARY_MADE_MODELS.values() for m in methods)
MADE_WORDS = tuple(
    sorted(
        {maker.partition(".")[0] for maker in LIBRARY_MADE_MODELS}
        | {
            m
            for methods in LIBRARY_MADE_MODELS.values()
            for m, r in methods.items()
            if not r.on_model
        }
    )
)
"""What the files to read for `LIBRARY_MADE_MODELS` spell: the library's module (where its
object is made), a decorator that makes a model of a class that is none (`set_global`)."""
KNOWN_MODELS: dict[str, LibraryBase] = library_bases("django")
"""Models of Django and of libraries by import path (`model_bases.LIBRARY_BASES`)."""
MANY_TO_MANY_FIELDS = frozenset(
    {
        "ManyToManyField",
        *(last_name(f) for f, k in LIBRARY_FIELDS.items() if k == "ManyToManyField"),
    }
)
LINK_FIELDS = frozenset(
    {*RELATION_FIELDS, *(last_name(f) for f, k in LIBRARY_FIELDS.items() if k in RELATION_FIELDS)}
)
"""The relations `_describe` reads by their last name, a library's (`LIBRARY_FIELDS`:
modelcluster's `ParentalKey`, `ParentalManyToManyField`) as the Django field they subclass."""


@dataclass(frozen=True)
class ManyToMany:
    field: str
    line: int
    db_table: str | None


@dataclass(frozen=True)
class Meta:
    """The literal options of a model's inner `class Meta`; None where it does not say."""

    db_table: str | None = None
    app_label: str | None = None
    abstract: bool | None = None
    proxy: bool | None = None
    managed: bool | None = None
    inherits_parent: bool = False  # `class Meta(Parent.Meta)`
    db_table_computed: bool = False  # `db_table = PREFIX + "x"`: a name the pack does not read


@dataclass(frozen=True)
class History:
    """A class-body call that may be django-simple-history's `HistoricalRecords(...)`: the
    history model's table and name when `table_name=`/`custom_model_name=` say them (else
    Django's default), and `inherit=True`, which gives each concrete subclass a history of its
    own (without it, one on an abstract model gives none)."""

    line: int
    callee: str
    table_name: str | None
    model_name: str | None
    inherit: bool


@dataclass(frozen=True)
class ModelBody:
    meta: Meta | None
    fields: tuple[str, ...]  # column names, in order (`author` → `author_id`)
    primary_key: bool
    many_to_many: tuple[ManyToMany, ...]
    field_callees: tuple[str, ...] = ()  # each distinct field callee as written (`models.X`)
    # django-simple-history's `history = HistoricalRecords(...)`, or any call of a class named
    # otherwise that may be a project subclass of it (the link asks)
    history: tuple[History, ...] = ()
    config: AppConfigFacts | None = None  # an `AppConfig` subclass's `name`, `label`, `default`
    # fields of a class no name here tells (`fields.TagField(...)`): (attribute, line, callee,
    # `through=` given, `db_table`), for the link to ask whether the class is a project subclass
    # of `ManyToManyField` (then a join table, not a column)
    other_fields: tuple[tuple[str, int, str, bool, str | None], ...] = ()


@dataclass(frozen=True)
class DjangoFacts:
    module: ModuleFacts[ModelBody]
    app_label: str
    settings: SettingsFacts | None = None  # `INSTALLED_APPS`, `DJANGO_SETTINGS_MODULE`
    # module-level functions that define a class and return it: a model base made by a call
    # (`class Flag(audited_base(["uuid"]))`) is that class
    factories: dict[str, Factory] | None = None


def extract(path: str, source: str) -> DjangoFacts:
    tree = parse_python(source, path)
    module = module_facts(path, tree, _describe, source)
    return DjangoFacts(
        module,
        app_label_of(path),
        settings_facts(path, tree, source),
        _class_factories(tree) if len(module.classes) > len(module.class_map) else None,
    )


def _class_factories(tree: ast.Module) -> dict[str, Factory]:
    """The module's functions whose last statement returns a class they define."""
    found: dict[str, Factory] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and (factory := read_factory(node)) is not None:
            returned = factory.returns
            if isinstance(returned, ast.Name) and returned.id in dict(factory.classes):
                found[node.name] = factory
    return found


def app_label_of(path: str) -> str:
    """The package that holds `models.py` or `models/`; else the one holding the module.

    "" for a module at the top of the scan, which no package holds: its tables are then named
    by the lower-cased class name alone.
    """
    packages = path.split("/")[:-1]
    if "models" in packages:
        packages = packages[: len(packages) - 1 - packages[::-1].index("models")]
    return packages[-1] if packages else ""


def _describe(node: ast.ClassDef) -> ModelBody:
    meta: Meta | None = None
    fields: list[str] = []
    primary_key = False
    many: list[ManyToMany] = []
    callees: dict[str, None] = {}
    history: list[History] = []
    others: list[tuple[str, int, str, bool, str | None]] = []
    for stmt in node.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == "Meta":
            meta = _meta(stmt)
            continue
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or not isinstance(stmt.value, ast.Call):
            continue
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        if not isinstance(target, ast.Name):
            continue
        call = stmt.value
        callee = dotted(call.func)
        kind = last_name(callee)
        if callee and (kind.endswith("Field") or kind in LINK_FIELDS):
            callees[callee] = None
        if callee and (kind == "HistoricalRecords" or _class_like(kind)):
            history.append(  # the link keeps those that are simple_history's (a table)
                History(
                    stmt.lineno,
                    callee,
                    _text_or_none(keyword_literal(call, "table_name")),
                    _text_or_none(keyword_literal(call, "custom_model_name")),
                    keyword_literal(call, "inherit") is True,
                )
            )
        elif kind in MANY_TO_MANY_FIELDS:
            if not has_keyword(call, "through"):
                table = keyword_literal(call, "db_table")
                many.append(ManyToMany(target.id, stmt.lineno, _text_or_none(table)))
        elif kind in LINK_FIELDS or (kind.endswith("Field") and kind not in NO_COLUMN_FIELDS):
            column = keyword_literal(call, "db_column")
            if callee and "." in callee and kind not in LINK_FIELDS and not isinstance(column, str):
                table = keyword_literal(call, "db_table")
                through = has_keyword(call, "through")
                others.append((target.id, stmt.lineno, callee, through, _text_or_none(table)))
            fields.append(
                column
                if isinstance(column, str)
                else f"{target.id}_id"
                if kind in LINK_FIELDS
                else target.id
            )
            primary_key = primary_key or keyword_literal(call, "primary_key") is True
    return ModelBody(
        meta,
        tuple(fields),
        primary_key,
        tuple(many),
        tuple(callees),
        tuple(history),
        app_config(node),
        tuple(others),
    )


def _class_like(name: str) -> bool:
    """A callee named like a class (`AuditTrail()`, `models.Manager()`), not a function."""
    return (
        name[:1].isupper()
        and not name.endswith("Field")
        and name not in LINK_FIELDS
        and name not in MANY_TO_MANY_FIELDS
    )


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _meta(node: ast.ClassDef) -> Meta:
    options: dict[str, object] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    options[target.id] = literal(stmt.value)

    def text(key: str) -> str | None:
        value = options.get(key)
        return value if isinstance(value, str) else None

    def flag(key: str) -> bool | None:
        value = options.get(key)
        return value if isinstance(value, bool) else None

    inherits = any(last_name(dotted(base)) == "Meta" for base in node.bases)
    return Meta(
        text("db_table"),
        text("app_label"),
        flag("abstract"),
        flag("proxy"),
        flag("managed"),
        inherits,
        "db_table" in options and not isinstance(options["db_table"], str),
    )


def link(files: Sequence[tuple[str, DjangoFacts]]) -> DocumentPieces:
    factories = {facts.module.path: facts.factories or {} for _, facts in files}
    bases: ModelBases[ModelBody] = ModelBases(lambda cls: {}, lambda m: factories[m.path])
    modules = Modules([facts.module for _, facts in files], made=bases)
    labels = {facts.module.path: facts.app_label for _, facts in files}
    installed = _installed(modules, files)
    packages = REPOSITORY_PACKAGES.get()
    if packages is None:
        packages = packages_of(m.path for m in modules.modules)
    apps = installed.apps if installed is not None and not installed.computed else None
    if installed is not None and (installed.computed or installed.partial):
        # others may be installed: a package the written part does not name keeps its
        # models, labelled as its own `apps.py` says (Django's label whichever entry names it)
        known = {**_own_labels(modules), **(apps or {})}  # the longest app holding it wins
        for module in modules.modules:
            labels[module.path] = _installed_label(module, known, packages) or labels[module.path]
        apps = None
    by_path = {m.path: m for m in modules.modules}
    claims: list[TableClaim] = []
    models: list[ClassRef[ModelBody]] = []
    gaps: list[Gap] = []
    prefixed: dict[tuple[str, int], list[str]] = {}  # settings place -> modules kept by it
    for module in modules.modules:
        label = labels[module.path]
        if apps is not None:
            label = _installed_label(module, apps, packages) or ""
            place = _prefixed(module, installed, packages) if not label else None
            if place is not None:  # an app computed after a literal head may be this one
                label = labels[module.path]
                prefixed.setdefault(place, []).append(module.path)
        for cls in module.classes:
            ref = ClassRef(module, cls)
            if cls.decorated_at and (label or apps is None):
                made, unread = _made_models(modules, ref, label)
                claims.extend(made)
                gaps.extend(unread)
            if _is_model(modules, ref):
                models.append(ref)
                if (
                    apps is not None
                    and not label
                    and _meta_label(modules, ref) not in (set(apps.values()))
                ):
                    continue  # a package the settings do not install: Django never loads it
                if cls.body.meta is not None and cls.body.meta.db_table_computed:
                    detail = f"`Meta.db_table` of {cls.name} is computed: its table is not known"
                    gaps.append(Gap(COMPUTED_TABLENAME, detail, module.path, cls.line))
                    continue
                claims.extend(_tables(modules, {module.path: label}, ref))
    for gap in _unknown_bases(modules, models):  # a class of a package not installed: none
        if apps is None or _installed_label(by_path[gap.path], apps, packages):
            gaps.append(gap)
    for (path, line), kept in sorted(prefixed.items()):
        gaps.append(
            Gap(
                UNRESOLVED_INSTALLED_APPS,
                "INSTALLED_APPS adds apps computed here after a literal head: the models of "
                f"the packages below it ({', '.join(sorted(kept))}) are listed as if "
                "installed",
                path,
                line,
            )
        )
    if installed is not None:
        gaps.extend(
            Gap(
                UNRESOLVED_INSTALLED_APPS,
                "INSTALLED_APPS is computed here: which apps Django installs is not known, so "
                "the models of every package are listed",
                path,
                line,
            )
            for path, line in installed.computed
        )
        gaps.extend(
            Gap(
                UNRESOLVED_INSTALLED_APPS,
                f"INSTALLED_APPS is partly computed here (`{text}`): the apps it adds are not "
                "known, so the models of packages the written part does not name are listed "
                "too",
                path,
                line,
            )
            for path, line, text in installed.partial
        )
    return link_tables(claims, gaps)


def _made_models(
    modules: Modules[ModelBody], ref: ClassRef[ModelBody], label: str
) -> tuple[list[TableClaim], list[Gap]]:
    """The tables of the models a library's decorator makes of the class (`LIBRARY_MADE_MODELS`:
    django-hierarkey's `@store.add()`), each at its decorator; one named after an option the
    pack cannot read is a finding there, naming the library."""
    claims: list[TableClaim] = []
    gaps: list[Gap] = []
    for written, line in zip(ref.cls.decorators, ref.cls.decorated_at, strict=False):
        if last_name(written) not in _MADE_METHODS:  # most decorators: no lookup
            continue
        found = modules.resolve(ref.module, written)
        if not isinstance(found, CallRef) or "." in found.attribute:
            continue
        record = LIBRARY_MADE_MODELS.get(found.callee, {}).get(found.attribute)
        if record is None:
            continue
        option = dict(found.keywords).get(record.option)
        value = _literal_text(option)
        if value is None:
            detail = (
                f"`@{written}()` makes a model of {ref.cls.name} ({record.read}) named after "
                f"the `{record.option}` its `{last_name(found.callee)}` is made with, which is "
                "not a literal the pack reads: its table is not listed"
            )
            gaps.append(Gap(COMPUTED_TABLENAME, detail, ref.module.path, line))
            continue
        model = f"{ref.cls.name}_{value.title()}{record.suffix}"
        table = "_".join(filter(None, [label, model.lower()]))
        claims.append(TableClaim(table, ref.module.path, line, model, record.columns, ()))
    return claims, gaps


def _literal_text(written: object) -> str | None:
    """The string a keyword's `repr` as `CallBinding.keywords` keeps it spells, else None."""
    if not isinstance(written, str) or not written or written[0] not in "'\"":
        return None
    try:
        value = ast.literal_eval(written)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _own_labels(modules: Modules[ModelBody]) -> dict[str, str]:
    """package -> the label its own `apps` submodule's `AppConfig` gives it, where Django
    would pick one (`default_config`); else the one `AppConfig` its `__init__` defines for
    itself (`name` the package: a plugin whose entry point names that class, as
    `INSTALLED_APPS` computed from entry points does)."""
    own: dict[str, str] = {}
    defined: dict[str, str] = {}
    for module in modules.modules:
        package, dot, last = module.module.rpartition(".")
        configs = {c.name: c.body.config for c in module.classes if c.body.config}
        if last == "apps" and dot and configs:
            chosen = default_config(configs)
            if (chosen is not None and chosen.name in (None, package)) or (
                chosen is not None and chosen.name and package.endswith("." + chosen.name)
            ):
                own[package] = own_label(package, chosen)
        elif configs and module.path.endswith("/__init__.py"):
            named = [c for c in configs.values() if c is not None and c.name == module.module]
            if len(named) == 1:
                defined[module.module] = own_label(module.module, named[0])
    return {**defined, **own}


def _installed(
    modules: Modules[ModelBody], files: Sequence[tuple[str, DjangoFacts]]
) -> Installed | None:
    """The apps the settings install (`django_apps`), None where no settings file says."""
    settings = {path: facts.settings for path, facts in files if facts.settings is not None}
    if not settings:
        return None
    configs = {
        module.path: {c.name: c.body.config for c in module.classes if c.body.config}
        for module in modules.modules
        if any(c.body.config for c in module.classes)
    }
    stars = {facts.module.path: facts.module.stars for _, facts in files}

    def find(name: str) -> str | None:
        found = modules.find_module(name)
        return found.path if found is not None else None

    return InstalledApps(settings, find, configs, stars).installed()


def _installed_label(
    module: ModuleFacts[ModelBody], apps: dict[str, str], packages: Collection[str]
) -> str | None:
    """The label of the installed app holding `module` (under any name it may be imported
    by, from a `sys.path` root first, else from below a package, as `ModuleIndex` finds a
    module), None where no installed app holds it."""
    for roots in (packages, None):
        best: str | None = None
        for name in module_names(module, roots):
            app = containing_app(name, apps)
            if app is not None and (best is None or len(app) > len(best)):
                best = app
        if best is not None:
            return apps[best]
    return None


def _prefixed(
    module: ModuleFacts[ModelBody], installed: Installed | None, packages: Collection[str]
) -> tuple[str, int] | None:
    """Where the settings add apps computed after a head that names `module`'s package."""
    for roots in (packages, None):
        for name in module_names(module, roots):
            for head, path, line in installed.prefixes if installed is not None else ():
                if name.startswith(head):
                    return (path, line)
    return None


def _meta_label(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> str | None:
    """`Meta.app_label`, the model's own or an abstract parent's it inherits."""
    own = ref.cls.body.meta
    if own is not None and own.app_label:
        return own.app_label
    for parent in _parents(modules, ref).abstract:
        meta = parent.cls.body.meta
        if meta is not None and meta.app_label:
            return meta.app_label
    return None


def _is_model(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> bool:
    return any(
        isinstance(base, External)
        and (
            base.name == "django.db.models.Model"
            or (base.name.endswith("models.Model") and not foreign_base(base.name))
            or base.name in KNOWN_MODELS
        )
        for base in modules.ancestors(ref)
    )


def _unknown_bases(modules: Modules[ModelBody], models: list[ClassRef[ModelBody]]) -> list[Gap]:
    """Classes that look like models below a base leading out of the scanned files that is
    neither `models.Model` nor a known model: their table, if any, is not known. A mixin or
    abstract class of a known model is not one of them, nor a class below Django's own classes
    alone (`Func`, `Aggregate`, a field): Django's models are all known (`KNOWN_MODELS`)."""
    used = {
        (a.module.path, a.cls.line)
        for ref in models
        for a in modules.ancestors(ref)
        if isinstance(a, ClassRef)
    }
    gaps = []
    for module in modules.modules:
        for cls in module.classes:
            ref = ClassRef(module, cls)
            meta = cls.body.meta
            if (module.path, cls.line) in used or (meta is not None and meta.abstract):
                continue
            if _is_model(modules, ref) or not (
                _looks_like_model(modules, ref)
                or _below_a_models_module(modules, ref)
                or _ancestry_cut(modules, ref)
            ):
                continue
            base = next(
                (
                    a.name
                    for a in modules.ancestors(ref)
                    if isinstance(a, External)
                    and a.name != "object"
                    and a.name not in LIBRARY_PLAIN_CLASSES
                    and a.name.partition(".")[0] not in NEUTRAL_BASE_MODULES
                    and a.name.partition(".")[0] != "django"  # its models are all known
                ),
                None,
            )
            if base is not None:
                gaps.append(
                    Gap(
                        UNKNOWN_MODEL_BASE,
                        f"base `{base}` is no Django model the pack knows: whether each class "
                        "here is a model, and its table, is unknown",
                        module.path,
                        cls.line,
                    )
                )
    return gaps


def _ancestry_cut(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> bool:
    """Its bases were walked only `MAX_ANCESTORS` classes up (`Modules.ancestors`): whether a
    class past them makes it a model, or gives it fields, is not known. With no field of its
    own such a class was neither listed nor a finding."""
    walked = modules.ancestors(ref)
    return (
        bool(walked)
        and isinstance(walked[-1], External)
        and walked[-1].name.endswith(f"(over {MAX_ANCESTORS} classes up)")
    )


def _below_a_models_module(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> bool:
    """A base from another app's `models` module (`wagtail.models.Page`,
    `safedelete.models.SafeDeleteModel`, `modelcluster.models.ClusterableModel`), where Django
    apps keep their models: a subclass is a model even with no field of its own (`class
    Landing(Page): pass`, one whose only field is that app's relation), though its table is
    not known. Django's own (`models.Manager`, `TextChoices`) and managers, querysets, choices
    and mixins of any app are not."""
    for base in modules.ancestors(ref):
        if isinstance(base, External) and is_models_module_class(base.name):
            return True
    return False


def is_models_module_class(name: str) -> bool:
    """`pkg.models.Name`, outside Django itself, `Name` no manager, queryset, choices or mixin
    (the pre-filter admits a class below one by pack_django's base keyword `models.`)."""
    module, _, cls = name.rpartition(".")
    return (
        module.rpartition(".")[2] == "models"
        and not module.startswith("django.")
        and not cls.endswith(_NOT_MODELS)
        and not foreign_base(module)  # `tortoise.models.Model`: another ORM's, named elsewhere
    )


_NOT_MODELS = ("Manager", "QuerySet", "Choices", "Mixin")


def _looks_like_model(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> bool:
    """Django model fields (`models.CharField`, resolved to `django.db.models`) or table
    options in its `Meta`: a form's or a serializer's fields do not count."""
    holders = [ref, *(a for a in modules.ancestors(ref) if isinstance(a, ClassRef))]
    for holder in holders:  # a class with no field of its own may inherit them
        meta = holder.cls.body.meta
        if (
            holder is ref
            and meta is not None
            and (meta.db_table or meta.app_label or meta.proxy is not None)
        ):
            return True
        for callee in holder.cls.body.field_callees:
            found = modules.resolve(holder.module, callee)
            if isinstance(found, External) and found.name.startswith("django.db.models."):
                return True
    return False


@dataclass
class _Parents:
    """What a model's table takes from its ancestors: abstract models of the scanned files and
    known outside ones (their fields and many-to-many land here), and the concrete parent's
    lower-cased name for multi-table inheritance."""

    abstract: list[ClassRef[ModelBody]]
    known: list[LibraryBase]
    concrete: str | None


def _parents(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> _Parents:
    """The walk stops at a concrete parent: what lies above it belongs to the parent's table."""
    found = _Parents([], [], None)
    seen: set[tuple[str, int] | str] = set()
    stack = modules.bases(ref)[::-1]  # last first, to pop the first
    while stack:
        parent = stack.pop()
        if isinstance(parent, External):
            known = KNOWN_MODELS.get(parent.name)
            if known is None or parent.name in seen:
                continue
            seen.add(parent.name)
            if known.abstract or found.concrete is None:  # a concrete one's fields: its own
                found.known.append(known)  # (an abstract model below it: its columns here)
            found.concrete = found.concrete or known.concrete
            continue
        if (parent.module.path, parent.cls.line) in seen:
            continue
        seen.add((parent.module.path, parent.cls.line))
        is_model, meta = _is_model(modules, parent), parent.cls.body.meta
        if is_model and not (meta is not None and meta.abstract):
            found.concrete = found.concrete or parent.cls.name.lower()
            continue
        if is_model:  # a plain mixin's fields are no Django fields: only abstract models count
            found.abstract.append(parent)
        stack.extend(modules.bases(parent)[::-1])
    return found


def _histories(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> list[tuple[int, History]]:
    """The django-simple-history models of a concrete model, each with the line to place its
    table at: its own `HistoricalRecords(...)` there, one an ancestor declares with
    `inherit=True` (simple_history's `finalize` for every subclass) at the model's class line.
    The first of each history model name wins, as simple_history registers one."""
    found: dict[str | None, tuple[int, History]] = {}
    holders = [ref, *(a for a in modules.ancestors(ref) if isinstance(a, ClassRef))]
    for holder in holders:
        for history in holder.cls.body.history:
            if (holder is ref or history.inherit) and _is_history(modules, holder, history):
                line = history.line if holder is ref else ref.cls.line
                found.setdefault(history.model_name, (line, history))
    return list(found.values())


def _is_history(modules: Modules[ModelBody], holder: ClassRef[ModelBody], call: History) -> bool:
    """Whether the call makes simple_history's `HistoricalRecords` (or a subclass of it)."""
    found = modules.resolve(holder.module, call.callee)
    chain = [found, *modules.ancestors(found)] if isinstance(found, ClassRef) else [found]
    return any(isinstance(c, External) and last_name(c.name) == "HistoricalRecords" for c in chain)


def _many_to_many_class(
    modules: Modules[ModelBody], holder: ClassRef[ModelBody], callee: str
) -> bool:
    """Whether `callee`, written in `holder`'s module, is a class of the scanned files with
    Django's `ManyToManyField` (or a library's, `LIBRARY_FIELDS`) among its ancestors."""
    found = modules.resolve(holder.module, callee)
    if not isinstance(found, ClassRef):
        return False
    for ancestor in modules.ancestors(found):
        if isinstance(ancestor, External) and (
            (
                ancestor.name.startswith("django.db.models")
                and last_name(ancestor.name) == "ManyToManyField"
            )
            or LIBRARY_FIELDS.get(ancestor.name) == "ManyToManyField"
        ):
            return True
    return False


def _tables(
    modules: Modules[ModelBody], labels: dict[str, str], ref: ClassRef[ModelBody]
) -> list[TableClaim]:
    own = ref.cls.body.meta or Meta()
    if own.abstract or own.proxy:
        return []
    parents = _parents(modules, ref)
    abstract = parents.abstract
    parent_meta = next((p.cls.body.meta for p in abstract if p.cls.body.meta), None)
    inherited = parent_meta if ref.cls.body.meta is None or own.inherits_parent else None
    library_label = next((k.app_label for k in parents.known if k.app_label), None)
    if ref.cls.body.meta is not None and not own.inherits_parent:
        library_label = None  # a `Meta` of its own: a library's abstract `Meta` not inherited
    app_label = (
        own.app_label
        or (inherited.app_label if inherited else None)
        or library_label
        or labels[ref.module.path]
    )
    managed = own.managed if own.managed is not None else (inherited.managed if inherited else None)
    table = own.db_table or "_".join(filter(None, [app_label, ref.cls.name.lower()]))
    fields = [f for c in [ref, *abstract] for f in c.cls.body.fields]
    subclassed: list[tuple[str, int, str | None]] = []  # `fields.TagField(...)`, a project
    for holder in [ref, *abstract]:  # subclass of the M2M field: a join table, no column
        for attr, line, callee, through, db_table in holder.cls.body.other_fields:
            if _many_to_many_class(modules, holder, callee):
                fields = [f for f in fields if f != attr]
                if not through:
                    subclassed.append((attr, line if holder is ref else ref.cls.line, db_table))
    fields.extend(f for known in parents.known for f in known.columns)
    if parents.concrete is not None:
        fields.insert(0, f"{parents.concrete}_ptr_id")
    elif not (
        ref.cls.body.primary_key
        or any(p.cls.body.primary_key for p in abstract)
        or any(known.primary_key for known in parents.known)
    ):
        fields.insert(0, "id")
    extra: tuple[tuple[str, str | int | bool], ...] = (
        (("managed", False),) if managed is False else ()
    )
    columns = tuple(dict.fromkeys(fields))
    claims = [TableClaim(table, ref.module.path, ref.cls.line, ref.cls.name, columns, extra)]
    joins = [
        (m2m.field, m2m.line if holder is ref else ref.cls.line, m2m.db_table)
        for holder in [ref, *abstract]
        for m2m in holder.cls.body.many_to_many
    ]
    for line, history in _histories(modules, ref):
        historical = history.model_name or f"Historical{ref.cls.name}"
        name = history.table_name or "_".join(filter(None, [app_label, historical.lower()]))
        history_columns = ("history_id", *columns, "history_date", "history_change_reason",
                           "history_type", "history_user_id")  # fmt: skip
        claims.append(TableClaim(name, ref.module.path, line, historical, history_columns, extra))
    joins.extend((f, ref.cls.line, None) for known in parents.known for f in known.many_to_many)
    joins.extend(subclassed)
    for field_name, line, db_table in dict((j[0], j) for j in joins).values():
        name = db_table or f"{table}_{field_name}"
        join_columns = ("id", f"{ref.cls.name.lower()}_id", f"{field_name}_id")
        claims.append(
            TableClaim(
                name, ref.module.path, line, f"{ref.cls.name}_{field_name}", join_columns, extra
            )
        )
    return claims
