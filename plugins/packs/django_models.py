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

Attr `columns`: the columns of the model's own table — its concrete fields and those of its
abstract ancestors (every `...Field(...)`, `ForeignKey(...)`, `OneToOneField(...)`; not
`ManyToManyField` nor generic relations, which have no column), plus the automatic `id` when no
field says `primary_key=True`, or the `<parent>_ptr` link for multi-table inheritance.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from .pymodules import (
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
)
from .pyparse import parse_python
from .scan import Linked
from .tables import TableClaim, link_tables

NO_COLUMN_FIELDS = frozenset({"ManyToManyField", "GenericForeignKey", "GenericRelation"})
RELATION_FIELDS = frozenset({"ForeignKey", "OneToOneField"})


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


@dataclass(frozen=True)
class ModelBody:
    meta: Meta | None
    fields: tuple[str, ...]  # column names, in order (`author` → `author_id`)
    primary_key: bool
    many_to_many: tuple[ManyToMany, ...]


@dataclass(frozen=True)
class DjangoFacts:
    module: ModuleFacts[ModelBody]
    app_label: str


def extract(path: str, source: str) -> DjangoFacts:
    return DjangoFacts(
        module_facts(path, parse_python(source, path), _describe), app_label_of(path)
    )


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
        kind = last_name(dotted(call.func))
        if kind == "ManyToManyField":
            if not has_keyword(call, "through"):
                table = keyword_literal(call, "db_table")
                many.append(
                    ManyToMany(target.id, stmt.lineno, table if isinstance(table, str) else None)
                )
        elif kind in RELATION_FIELDS or (kind.endswith("Field") and kind not in NO_COLUMN_FIELDS):
            column = keyword_literal(call, "db_column")
            fields.append(
                column
                if isinstance(column, str)
                else f"{target.id}_id"
                if kind in RELATION_FIELDS
                else target.id
            )
            primary_key = primary_key or keyword_literal(call, "primary_key") is True
    return ModelBody(meta, tuple(fields), primary_key, tuple(many))


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
    )


def link(files: Sequence[tuple[str, DjangoFacts]]) -> Linked:
    modules = Modules([facts.module for _, facts in files])
    labels = {facts.module.path: facts.app_label for _, facts in files}
    claims: list[TableClaim] = []
    for module in modules.modules:
        for cls in module.classes:
            claims.extend(_tables(modules, labels, ClassRef(module, cls)))
    return link_tables(claims)


def _is_model(modules: Modules[ModelBody], ref: ClassRef[ModelBody]) -> bool:
    return any(
        isinstance(base, External)
        and (base.name == "django.db.models.Model" or base.name.endswith("models.Model"))
        for base in modules.ancestors(ref)
    )


def _parents(
    modules: Modules[ModelBody], ref: ClassRef[ModelBody]
) -> tuple[list[ClassRef[ModelBody]], ClassRef[ModelBody] | None]:
    """The abstract models whose fields land in this model's table, and its concrete parent.

    The walk stops at a concrete parent: what lies above it belongs to the parent's table.
    """
    abstract: list[ClassRef[ModelBody]] = []
    concrete: ClassRef[ModelBody] | None = None
    seen: set[tuple[str, int]] = set()
    stack = _class_bases(modules, ref)
    while stack:
        parent = stack.pop()
        if (parent.module.path, parent.cls.line) in seen:
            continue
        seen.add((parent.module.path, parent.cls.line))
        is_model, meta = _is_model(modules, parent), parent.cls.body.meta
        if is_model and not (meta is not None and meta.abstract):
            concrete = concrete or parent
            continue
        if is_model:  # a plain mixin's fields are no Django fields: only abstract models count
            abstract.append(parent)
        stack.extend(_class_bases(modules, parent))
    return abstract, concrete


def _class_bases(
    modules: Modules[ModelBody], ref: ClassRef[ModelBody]
) -> list[ClassRef[ModelBody]]:
    """The bases that are classes of the scanned files, last first (to pop the first)."""
    found = (modules.resolve(ref.module, name) for name in reversed(ref.cls.bases))
    return [base for base in found if isinstance(base, ClassRef)]


def _tables(
    modules: Modules[ModelBody], labels: dict[str, str], ref: ClassRef[ModelBody]
) -> list[TableClaim]:
    if not _is_model(modules, ref):
        return []
    own = ref.cls.body.meta or Meta()
    if own.abstract or own.proxy:
        return []
    abstract, concrete_parent = _parents(modules, ref)
    parent_meta = next((p.cls.body.meta for p in abstract if p.cls.body.meta), None)
    inherited = parent_meta if ref.cls.body.meta is None or own.inherits_parent else None
    app_label = (
        own.app_label or (inherited.app_label if inherited else None) or labels[ref.module.path]
    )
    managed = own.managed if own.managed is not None else (inherited.managed if inherited else None)
    table = own.db_table or "_".join(filter(None, [app_label, ref.cls.name.lower()]))
    fields = [f for c in [ref, *abstract] for f in c.cls.body.fields]
    if concrete_parent is not None:
        fields.insert(0, f"{concrete_parent.cls.name.lower()}_ptr_id")
    elif not (ref.cls.body.primary_key or any(p.cls.body.primary_key for p in abstract)):
        fields.insert(0, "id")
    extra: tuple[tuple[str, str | int | bool], ...] = (
        (("managed", False),) if managed is False else ()
    )
    claims = [TableClaim(table, ref.module.path, ref.cls.line, ref.cls.name, tuple(fields), extra)]
    for holder in [ref, *abstract]:
        for m2m in holder.cls.body.many_to_many:
            line = m2m.line if holder is ref else ref.cls.line
            name = m2m.db_table or f"{table}_{m2m.field}"
            columns = ("id", f"{ref.cls.name.lower()}_id", f"{m2m.field}_id")
            claims.append(
                TableClaim(
                    name, ref.module.path, line, f"{ref.cls.name}_{m2m.field}", columns, extra
                )
            )
    return claims
