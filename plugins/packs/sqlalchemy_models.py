"""The `pack-sqlalchemy` analyzer: tables as SQLAlchemy, Flask-SQLAlchemy and SQLModel name them.

Read from source with `ast`, never imported. Which classes are mapped follows each library's
rules as far as source shows them:

- SQLAlchemy declarative (`declarative_base()`, also with `cls=`, `registry().generate_base()`,
  `@as_declarative`, `DeclarativeBase`, `@registry.mapped`): a class below a declarative base
  that is not `__abstract__` maps the table its `__tablename__` names — its own, a mixin's, an
  abstract ancestor's or the base's (literal or a `declared_attr` returning a literal, `cls.__name__` or
  `cls.__name__.lower()`). A `__tablename__` inherited from a mapped class is single-table
  inheritance: no table of its own.
- Flask-SQLAlchemy 3 (`db.Model`): as above, and a model without a `__tablename__` of its own or
  from a mixin gets `camel_to_snake_case(class name)` — unless it inherits from a mapped model
  and declares no primary key itself (single-table inheritance), or defines no column at all.
- SQLModel: a class with `table=True` maps `__tablename__`, else its class name lower-cased.
- `Table("name", metadata, ...)` anywhere (`sa.Table`, `db.Table`, …) is a table.

Attrs: `model` (the class; absent for `Table()`), `columns` (columns the table gets: the
class's own plus those of its mixins and abstract ancestors; for SQLModel its annotated fields
and those of its non-table SQLModel ancestors; for `Table()` its `Column` arguments).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .pymodules import (
    ClassRef,
    External,
    ModuleFacts,
    Modules,
    dotted,
    last_name,
    literal,
    module_facts,
)
from .pyparse import parse_python
from .scan import Linked
from .tables import TableClaim, link_tables

SQLALCHEMY_ROOT_CLASSES = frozenset({"DeclarativeBase", "DeclarativeBaseNoMeta"})
SQLALCHEMY_BASE_FACTORIES = ("declarative_base()", "generate_base()")
COLUMN_CALLS = frozenset({"Column", "mapped_column"})
COLUMN_WRAPPERS = frozenset({"deferred", "column_property"})  # deferred(Column(...))
COLLECTIONS = frozenset({"list", "List", "set", "Set", "dict", "Dict", "WriteOnlyMapped"})
_CAMEL_BOUNDARY = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


def camel_to_snake_case(name: str) -> str:
    """Flask-SQLAlchemy 3's rule (flask_sqlalchemy/model.py): `HTTPLog` → `http_log`."""
    return _CAMEL_BOUNDARY.sub(r"_\1", name).lower().lstrip("_")


@dataclass(frozen=True)
class TableName:
    """A class's `__tablename__`: a literal, or a `declared_attr` computing it from the class."""

    literal: str | None  # the name, when it is a literal (or a declared_attr returning one)
    rule: str  # "literal", "name" (cls.__name__), "lower" (cls.__name__.lower()), "unknown"
    declared: bool  # a declared_attr: evaluated again for every subclass

    def for_class(self, class_name: str) -> str | None:
        return {"literal": self.literal, "name": class_name, "lower": class_name.lower()}.get(
            self.rule
        )


@dataclass(frozen=True)
class ModelBody:
    tablename: TableName | None
    abstract: bool
    columns: tuple[str, ...]
    primary_key: bool
    fields: tuple[str, ...]  # annotated attributes: SQLModel's columns
    explicit_table: bool  # `__table__ = ...`: the class maps a table made elsewhere


@dataclass(frozen=True)
class TableCall:
    name: str
    line: int
    columns: tuple[str, ...]


@dataclass(frozen=True)
class SqlalchemyFacts:
    module: ModuleFacts[ModelBody]
    tables: tuple[TableCall, ...]


def extract(path: str, source: str) -> SqlalchemyFacts:
    tree = parse_python(source, path)
    tables = tuple(
        TableCall(name, node.lineno, _column_names(node.args[1:]))
        for node in (ast.walk(tree) if "Table" in source else ())  # a walk costs a parse's time
        if isinstance(node, ast.Call)
        and last_name(dotted(node.func)) == "Table"
        and isinstance(name := literal(node.args[0]), str)
        and len(node.args) >= 2  # a metadata or a Column next: not rich's Table("a", "b")
        and not isinstance(literal(node.args[1]), str)
    )
    describe = _describe_sqlmodel if "SQLModel" in source else _describe  # fields cost a third
    return SqlalchemyFacts(module_facts(path, tree, describe), tables)


def _describe_sqlmodel(node: ast.ClassDef) -> ModelBody:
    return _describe(node, sqlmodel=True)


def _describe(node: ast.ClassDef, *, sqlmodel: bool = False) -> ModelBody:
    # Runs for every class of every file, so plain isinstance checks: the `match` class
    # patterns with sub-patterns it replaced were this function's largest cost in a profile.
    tablename: TableName | None = None
    abstract = explicit_table = primary_key = False
    columns: list[str] = []
    fields: list[str] = []
    target: ast.expr
    value: ast.expr | None
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        elif isinstance(stmt, ast.Assign):
            target, value = stmt.targets[0], stmt.value
        else:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == "__tablename__":
                tablename = _declared_tablename(stmt)
            continue
        if not isinstance(target, ast.Name):
            continue
        name = target.id
        if name == "__tablename__":
            text = literal(value)
            tablename = TableName(text, "literal", False) if isinstance(text, str) else None
        elif name == "__abstract__":
            abstract = literal(value) is True
        elif name == "__table__":
            explicit_table = True
        elif (column := _column_call(value)) is not None:
            first = literal(column.args[0]) if column.args else None
            columns.append(first if isinstance(first, str) else name)
            primary_key = primary_key or any(
                kw.arg == "primary_key" and literal(kw.value) is True for kw in column.keywords
            )
        elif (
            isinstance(stmt, ast.AnnAssign) and value is None and _is_plain_mapped(stmt.annotation)
        ):
            columns.append(name)
        if sqlmodel and isinstance(stmt, ast.AnnAssign) and _is_field(name, stmt):
            fields.append(name)
    return ModelBody(
        tablename, abstract, tuple(columns), primary_key, tuple(fields), explicit_table
    )


def _declared_tablename(func: ast.FunctionDef) -> TableName:
    """What a `@declared_attr def __tablename__(cls)` returns, when source shows it plainly."""
    returns = [s.value for s in func.body if isinstance(s, ast.Return)]
    value = returns[0] if len(returns) == 1 else None
    text = literal(value)
    if isinstance(text, str):
        return TableName(text, "literal", True)
    if (
        isinstance(value, ast.Call)
        and not value.args
        and dotted(value.func) == "cls.__name__.lower"
    ):
        return TableName(None, "lower", True)
    if value is not None and dotted(value) == "cls.__name__":
        return TableName(None, "name", True)
    return TableName(None, "unknown", True)


def _column_call(value: ast.expr | None) -> ast.Call | None:
    if type(value) is not ast.Call:
        return None
    func = value.func  # the callee's last name, without building the dotted one
    callee = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    if callee in COLUMN_CALLS:
        return value
    if callee in COLUMN_WRAPPERS and value.args:
        return _column_call(value.args[0])
    return None


def _is_plain_mapped(annotation: ast.expr) -> bool:
    """`Mapped[int]` (a column), not `Mapped[list["Child"]]` (a relationship)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    if not (
        isinstance(annotation, ast.Subscript) and last_name(dotted(annotation.value)) == "Mapped"
    ):
        return False
    inner = annotation.slice
    if isinstance(inner, ast.Subscript):
        return last_name(dotted(inner.value)) not in COLLECTIONS
    return not (
        isinstance(inner, ast.Constant) and isinstance(inner.value, str)
    )  # Mapped["Parent"]


def _is_field(name: str, stmt: ast.AnnAssign) -> bool:
    """A SQLModel field: annotated, public, not a ClassVar, not a Relationship."""
    if name.startswith("_") or name == "model_config":
        return False
    annotation = (
        dotted(stmt.annotation.value) if isinstance(stmt.annotation, ast.Subscript) else None
    )
    if last_name(annotation) == "ClassVar":
        return False
    return not (
        isinstance(stmt.value, ast.Call) and last_name(dotted(stmt.value.func)) == "Relationship"
    )


def _column_names(args: Sequence[ast.expr]) -> tuple[str, ...]:
    names = []
    for arg in args:
        column = _column_call(arg)
        if column is not None and column.args and isinstance(first := literal(column.args[0]), str):
            names.append(first)
    return tuple(names)


def link(files: Sequence[tuple[str, SqlalchemyFacts]]) -> Linked:
    modules = Modules([facts.module for _, facts in files])
    mapper = _Mapper(modules)
    claims = [
        TableClaim(t.name, path, t.line, None, t.columns)
        for path, facts in files
        for t in facts.tables
    ]
    for module in modules.modules:
        for cls in module.classes:
            claim = mapper.table_of(ClassRef(module, cls))
            if claim is not None:
                claims.append(claim)
    return link_tables(claims)


class _Mapper:
    """Decides, class by class, which table (if any) the libraries would map it to."""

    def __init__(self, modules: Modules[ModelBody]) -> None:
        self.modules = modules
        self._flavors: dict[tuple[str, int], str | None] = {}
        self._models: dict[tuple[str, int], bool] = {}

    def flavor(self, ref: ClassRef[ModelBody]) -> str | None:
        """The ORM a class belongs to: "sqlalchemy", "flask", "sqlmodel"; None for none."""
        key = (ref.module.path, ref.cls.line)  # every class is asked about again and again
        if key not in self._flavors:
            self._flavors[key] = self._flavor(ref)
        return self._flavors[key]

    def _flavor(self, ref: ClassRef[ModelBody]) -> str | None:
        if any(last_name(d) in ("mapped", "mapped_as_dataclass") for d in ref.cls.decorators):
            return "sqlalchemy"
        found = None
        for base in self.modules.ancestors(ref):
            if isinstance(base, ClassRef):
                if any(last_name(d) == "as_declarative" for d in base.cls.decorators):
                    found = found or "sqlalchemy"
                continue
            kind = _external_kind(base.name)
            if kind == "sqlmodel":
                return "sqlmodel" if ref.cls.keyword("table") is True else None
            found = found or kind
        return found

    def is_root(self, ref: ClassRef[ModelBody]) -> bool:
        """A declarative base itself (`class Base(DeclarativeBase)`, `@as_declarative`)."""
        if any(last_name(d) == "as_declarative" for d in ref.cls.decorators):
            return True
        return any(
            isinstance(base := self.modules.resolve(ref.module, b), External)
            and last_name(base.name) in SQLALCHEMY_ROOT_CLASSES
            for b in ref.cls.bases
        )

    def is_model(self, ref: ClassRef[ModelBody]) -> bool:
        """Mapped to a table of its own or its parent's: not a mixin, a base or abstract."""
        key = (ref.module.path, ref.cls.line)
        if key not in self._models:
            self._models[key] = (
                self.flavor(ref) in ("sqlalchemy", "flask")
                and not ref.cls.body.abstract
                and not self.is_root(ref)
            )
        return self._models[key]

    def table_of(self, ref: ClassRef[ModelBody]) -> TableClaim | None:
        flavor = self.flavor(ref)
        body = ref.cls.body
        if flavor is None or body.abstract or body.explicit_table or self.is_root(ref):
            return None
        chain = [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]
        if flavor == "sqlmodel":
            own = next((c.cls.body.tablename for c in chain if c.cls.body.tablename), None)
            name = own.for_class(ref.cls.name) if own else ref.cls.name.lower()
            fields = _merged(c.cls.body.fields for c in chain if c is ref or self.flavor(c) is None)
            return self._claim(name, ref, fields)
        inherited = [c for c in chain[1:] if not self.is_model(c)]  # mixins, abstract, bases
        columns = _merged(c.cls.body.columns for c in [ref, *inherited])
        source = next((c for c in chain if c.cls.body.tablename is not None), ref)
        tablename = source.cls.body.tablename
        parent_mapped = any(self.is_model(c) for c in chain[1:])
        if tablename is not None and (
            source is ref or tablename.declared or not self.is_model(source)
        ):
            name = tablename.for_class(ref.cls.name)
            if name is None or (source is not ref and not columns):
                return None
            return self._claim(name, ref, columns)
        if flavor != "flask" or not columns:
            return None  # SQLAlchemy: no name, or single-table inheritance
        own_key = body.primary_key or any(c.cls.body.primary_key for c in inherited)
        if parent_mapped and not own_key:
            return None  # Flask-SQLAlchemy: single-table inheritance
        return self._claim(camel_to_snake_case(ref.cls.name), ref, columns)

    @staticmethod
    def _claim(
        name: str | None, ref: ClassRef[ModelBody], columns: tuple[str, ...]
    ) -> TableClaim | None:
        if not name:
            return None
        return TableClaim(name, ref.module.path, ref.cls.line, ref.cls.name, columns)


def _external_kind(name: str) -> str | None:
    """What an outside base is: a declarative base, Flask's `db.Model`, SQLModel, or nothing known."""
    last = last_name(name)
    if last in SQLALCHEMY_ROOT_CLASSES or name.endswith(SQLALCHEMY_BASE_FACTORIES):
        return "sqlalchemy"
    if last == "SQLModel":
        return "sqlmodel"
    if last == "Model" and (
        name.endswith("SQLAlchemy().Model") or name.split(".")[-2:-1] == ["db"]
    ):
        return "flask"
    return None


def _merged(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Names of every group, each once, in first-seen order."""
    seen: dict[str, None] = {}
    for group in groups:
        seen.update(dict.fromkeys(group))
    return tuple(seen)
