"""The `pack-sqlalchemy` analyzer: tables as SQLAlchemy, Flask-SQLAlchemy and SQLModel name them.

Read from source with `ast`, never imported. Which classes are mapped follows each library's
rules as far as source shows them:

- SQLAlchemy declarative (`declarative_base()`, also with `cls=`, `registry().generate_base()`,
  `automap_base()`, `@as_declarative`, `DeclarativeBase`, `@registry.mapped`): a class below a
  declarative base that is not `__abstract__` maps the table its `__tablename__` names — its
  own, a mixin's, an abstract ancestor's or the base's: a literal, or computed (a
  `declared_attr`, a lambda, an expression) and then evaluated for the class by
  `computed_names` without running anything. A `__tablename__` inherited from a mapped class
  is single-table inheritance: no table of its own.
- Flask-SQLAlchemy (`db.Model`): as above, and a model without a `__tablename__` of its own or
  from a mixin gets `camel_to_snake_case(class name)` — 3.x's rule, or 2.x's
  (`camel_to_snake_case_2`) where the repository's dependency files declare only versions below
  3 (`VERSION_DEPENDENT_NAME` where they admit both and the rules disagree); below a mapped model, a class whose
  columns hold no primary key is single-table inheritance even when it names a table
  (`__table_cls__`); a class that defines no column at all has no table.
- SQLModel: a class with `table=True` maps `__tablename__`, else its class name lower-cased.
- A model base the project builds (`packs/model_bases.py`): Flask-SQLAlchemy's
  `SQLAlchemy(model_class=X)`, a project subclass of `SQLAlchemy` (its `__init__`, its
  `_make_declarative_base` override), a function of the repository returning a base: a class
  below it gets the bases the library would give it; what is not followed is an
  `UNKNOWN_MODEL_BASE` at each class below it.
- `Table("name", metadata, ...)` when `Table` is SQLAlchemy's (`sqlalchemy.Table`, `sa.Table`,
  Flask-SQLAlchemy's `db.Table`); another library's `Table` (rich, terminaltables) is none.
- Alembic scripts (modules importing `alembic`) are history: none of their tables count.
- What is recognised but cannot be named gives a finding (`tables`): `COMPUTED_TABLENAME`,
  `UNKNOWN_MODEL_BASE`, `UNRESOLVED_TABLE_NAME`.
- An ORM the packs do not read (`unread_orms.PYTHON`: Peewee, Tortoise ORM, Pony ORM…) is an
  `UNRESOLVED_TABLE_NAME` naming it at the first import in each file importing it (this pack's
  document only: pack-django does not repeat it).

Attrs: `model` (the class; absent for `Table()`), `columns` (columns the table gets: the
class's own plus those of its mixins and abstract ancestors not above a mapped parent; for SQLModel its annotated fields
and those of its non-table SQLModel ancestors; for `Table()` its `Column` arguments),
`configDefault` (as `pack-http-routes` writes it) when the name was read with a configuration
default: a `BaseSettings` field's, an environment variable's (`os.environ.get("X", "d")`) — a
prefix a base's `__init_subclass__` or a helper puts before every name, say.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from . import unread_orms
from .computed_names import (
    HELPER_NAME,
    TABLENAME,
    ClassDefaults,
    ClassFunction,
    Computation,
    Evaluated,
    NotEvaluated,
    Scope,
    class_function,
    evaluate_marked,
    from_expression,
    from_function,
    run_hook,
)
from .declared_versions import (
    PYTHON,
    Declarations,
    Declared,
    by_version,
    declared,
    is_python_declaration_file,
)
from .declared_versions import read as read_declarations
from .entry_points import (
    cfg_entry_points,
    is_distribution_file,
    python_entry_points,
    spells_entry_points,
    toml_entry_points,
)
from .model_bases import (
    BASE_FACTORIES,
    DECLARATIVE_ROOTS,
    EXTENSION_METHODS,
    Factory,
    LibraryBase,
    ModelBases,
    library_bases,
    read_factory,
)
from .plugin_distributions import Distribution, plugin_folders, under
from .pymodules import (
    CallRef,
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
from .scan_document import DocumentPieces
from .tables import (
    COMPUTED_TABLENAME,
    UNKNOWN_MODEL_BASE,
    UNRESOLVED_TABLE_NAME,
    VERSION_DEPENDENT_NAME,
    Gap,
    TableClaim,
    link_tables,
)
from .versioned_tables import VersionedModel, versioned_tables

SQLALCHEMY_ROOT_CLASSES = DECLARATIVE_ROOTS
SQLALCHEMY_BASE_FACTORIES = BASE_FACTORIES
SQLALCHEMY_TABLES = frozenset(
    {"sqlalchemy.Table", "sqlalchemy.schema.Table", "sqlalchemy.sql.schema.Table"}
)
ORM_PACKAGES = frozenset({"sqlalchemy", "flask_sqlalchemy", "sqlmodel"})
LIBRARY_MIXINS = library_bases("sqlalchemy")
"""Mixins of libraries whose table name and columns are known (`model_bases.LIBRARY_BASES`)."""
# Bases that say nothing about mapping: a class below only these (and mixins) is no model.
NEUTRAL_BASE_MODULES = frozenset(
    {"typing", "typing_extensions", "abc", "enum", "dataclasses", "collections", "builtins"}
)
MAX_HELPER_LINES = 40
_VERSIONED = (
    "a `<table>_version` table for each `__versioned__` model and for the association tables "
    "they use, and a `transaction` table"
)
TABLE_GENERATORS = {
    "sqlalchemy_continuum.make_versioned": ("SQLAlchemy-Continuum", _VERSIONED),
    "sqlalchemy_history.make_versioned": ("SQLAlchemy-History", _VERSIONED),
}
"""Libraries that make tables at runtime, by the call that configures them, and what they
make: none of those tables is written in the source (`versioned_tables` lists them by the
library's rules where they are read)."""
GENERATOR_CALLS = frozenset(last_name(name) for name in TABLE_GENERATORS)
COLUMN_CALLS = frozenset({"Column", "mapped_column"})
COLUMN_WRAPPERS = frozenset({"deferred", "column_property"})  # deferred(Column(...))
COLLECTIONS = frozenset({"list", "List", "set", "Set", "dict", "Dict", "WriteOnlyMapped"})
_TABLE_CALL = re.compile(r"Table\s*\(")
_CAMEL_BOUNDARY = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_CAMEL_RUN_2 = re.compile(r"([A-Z]+)(?=[a-z0-9])")
FLASK_SQLALCHEMY = "flask-sqlalchemy"
FLASK_SQLALCHEMY_VERSIONS: tuple[tuple[int, ...], ...] = ((), (3,))
"""Where the implicit table name rule changed: 2.x's, then 3.0's (checked by running 2.1, 2.2,
2.3.2, 2.5.1, 3.0.5 and 3.1.1 on the same class names: 2.1–2.5.1 agree, 3.0.5–3.1.1 agree)."""
NAMED = is_python_declaration_file
"""The files the pack reads besides `.py` ones: the dependency files that say which
Flask-SQLAlchemy the repository installs (`packs.declared_versions`)."""


def camel_to_snake_case(name: str) -> str:
    """Flask-SQLAlchemy 3's rule (flask_sqlalchemy/model.py): `HTTPLog` → `http_log`."""
    return _CAMEL_BOUNDARY.sub(r"_\1", name).lower().lstrip("_")


def camel_to_snake_case_2(name: str) -> str:
    """Flask-SQLAlchemy 2.x's rule: a run of capitals followed by a lower-case letter or a digit
    gives `_` + the run but its last letter + `_` + that letter, lower-cased; any other capital
    stays (`EditableHTML` → `editableHTML`, `HTTP2Server` → `htt_p2_server`, `X` → `X`)."""

    def join(match: re.Match[str]) -> str:
        word = match.group()
        if len(word) > 1:
            return f"_{word[:-1]}_{word[-1]}".lower()
        return "_" + word.lower()

    return _CAMEL_RUN_2.sub(join, name).lstrip("_")


@dataclass(frozen=True)
class TableName:
    """A class's `__tablename__`: a literal, or what computes it (a `declared_attr`, evaluated
    again for every subclass, or a plain expression)."""

    literal: str | None  # the name, when it is a literal
    computation: Computation | None  # None for a literal
    declared: bool  # a declared_attr: evaluated again for every subclass


@dataclass(frozen=True)
class ModelBody:
    tablename: TableName | None
    abstract: bool
    columns: tuple[str, ...]
    primary_key: bool
    fields: tuple[str, ...]  # annotated attributes: SQLModel's columns
    explicit_table: bool  # `__table__ = ...`: the class maps a table made elsewhere
    column_callees: tuple[str, ...] = ()  # each distinct column callee as written (`db.Column`)
    extend_existing: bool = False  # `__table_args__` says `extend_existing`: redeclares a table
    # `def __init_subclass__(cls)` assigning `cls.__tablename__`: renames every subclass's table
    renames: Computation | None = None
    # a metaclass's `__init__`/`__new__` that sets `__tablename__`: (the method, what runs)
    meta_renames: tuple[str, Computation] | None = None
    # class attributes with a value (a settings class's defaults): name -> value
    defaults: tuple[tuple[str, ast.expr], ...] = ()
    # `__init__`, `_make_declarative_base`: what decides a `SQLAlchemy` subclass's `Model`
    methods: tuple[tuple[str, ast.FunctionDef], ...] = ()
    # the functions of the class body (`cls._prefix("x")` runs a classmethod or staticmethod)
    functions: tuple[ClassFunction, ...] = ()
    # models a `declared_attr` (or classmethod) makes for each model below this class with
    # `type(name, bases, {"__tablename__": ...})`: (method, what assigns `cls.__tablename__`)
    made: tuple[tuple[str, Computation], ...] = ()


@dataclass(frozen=True)
class TableCall:
    """A call of something named `Table`; whether it is SQLAlchemy's is decided at link."""

    callee: str
    name: str | None  # the literal first argument
    name_expr: ast.expr | None  # the first argument when it is not a literal
    line: int
    columns: tuple[str, ...]
    extend_existing: bool = False
    target: str | None = None  # the module-level name it is bound to (`assoc = Table(...)`)


@dataclass(frozen=True)
class SqlalchemyFacts:
    module: ModuleFacts[ModelBody]
    tables: tuple[TableCall, ...]
    migration: bool = False  # an Alembic script: history, not the app's tables
    functions: dict[str, Computation] = field(default_factory=dict)  # table-name helpers
    constants: dict[str, ast.expr] = field(default_factory=dict)  # str literals, re.compile()
    configures: tuple[tuple[str, int], ...] = ()  # module-level calls (callee, line): setup
    declarations: Declarations | None = None  # `setup.py`'s `install_requires`
    factories: dict[str, Factory] = field(default_factory=dict)  # functions that may make a base
    # module-level calls of a file naming `make_versioned` (which of them is, `configures`)
    versioning: tuple[ast.Call, ...] = ()
    plugin_loads: tuple[tuple[str, int], ...] = ()  # entry-point groups loaded here (, line)
    distribution: Distribution | None = None  # a `setup.py`'s name and entry-point groups
    unread: tuple[tuple[str, int], ...] = ()  # (ORM, line): `unread_orms` imported, read by none


@dataclass(frozen=True)
class DistributionFile:
    """A `pyproject.toml` or `setup.cfg`: its declarations, and the distribution it makes."""

    declarations: Declarations
    distribution: Distribution


FileFacts = SqlalchemyFacts | Declarations | DistributionFile
"""What `extract` gives: a Python module's facts, or a dependency file's declarations (with
the entry points of a `pyproject.toml`/`setup.cfg` that declares some)."""


def extract(path: str, source: str) -> FileFacts:
    """A `.py` file's facts; a dependency file's declarations (`NAMED`). `setup.py` is both."""
    if not path.endswith(".py"):
        declarations = read_declarations(path, source)
        if is_distribution_file(path) and ("entry" in source or "plugins" in source):
            read = toml_entry_points if path.endswith(".toml") else cfg_entry_points
            name, groups = read(source)
            if groups:
                marker = Distribution(path, name, frozenset(g for g, _ in groups))
                return DistributionFile(declarations, marker)
        return declarations
    facts = _extract_python(path, source)
    if spells_entry_points(source):  # a `setup(entry_points=...)`, a plugin loader
        name, provided, loads = python_entry_points(source, path)
        offered = frozenset(g for g, _ in provided)
        made = Distribution(path, name, offered) if offered else None
        facts = replace(facts, plugin_loads=loads, distribution=made)
    if path.rpartition("/")[2] == "setup.py":
        return replace(facts, declarations=read_declarations(path, source))
    return facts


def _extract_python(path: str, source: str) -> SqlalchemyFacts:
    tree = parse_python(source, path)
    bound = {
        id(node.value): node.targets[0].id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    }
    if "type(" in source:
        _classes_made_by_type(tree)
    tables = tuple(
        replace(_table_call(node), target=bound.get(id(node)))
        # a walk costs a parse's time: only where something named `Table` may be called
        for node in (ast.walk(tree) if _TABLE_CALL.search(source) else ())
        if isinstance(node, ast.Call) and last_name(dotted(node.func)) == "Table"
    )
    describe = partial(
        _describe,
        sqlmodel="SQLModel" in source,  # fields cost a third
        hooks="__tablename__" in source,  # a hook that rewrites it names it
        declared=_declared_attr_names(tree) if "__tablename__" in source else _DECLARED,
    )
    computes = "__tablename__" in source
    functions: dict[str, Computation] = {}
    constants: dict[str, ast.expr] = {}
    factories: dict[str, Factory] = {}
    migration = False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and (factory := _base_factory(node)) is not None:
            factories[node.name] = factory
        if isinstance(node, ast.FunctionDef) and (computes or HELPER_NAME.search(node.name)):
            if (node.end_lineno or node.lineno) - node.lineno <= MAX_HELPER_LINES:
                functions[node.name] = from_function(node)
        elif isinstance(node, ast.Assign) and _is_constant(node.value):
            constants.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
        elif (  # `CAMEL: re.Pattern[str] = re.compile(...)`, perhaps read by another module
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.value is not None
            and _is_constant(node.value)
        ):
            constants[node.target.id] = node.value
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
            )
            migration = migration or any(n.partition(".")[0] == "alembic" for n in names)
    configures = tuple(
        (dotted(node.value.func) or "", node.lineno)
        for node in tree.body
        if isinstance(node, ast.Expr | ast.Assign) and isinstance(node.value, ast.Call)
    )
    versioning = tuple(
        node.value
        for node in tree.body
        if isinstance(node, ast.Expr | ast.Assign)
        and isinstance(node.value, ast.Call)
        and any(word in source for word in GENERATOR_CALLS)  # imported, perhaps renamed
    )
    module = module_facts(path, tree, describe, source)
    made_lines = {c.line for cls in module.classes for _, c in cls.body.made}
    if made_lines:  # a `Table(...)` a mixin makes per model is listed at each model
        tables = tuple(t for t in tables if t.line not in made_lines)
    return SqlalchemyFacts(
        module,
        tables,
        migration,
        functions,
        constants,
        configures,
        factories=factories,
        versioning=versioning,
        unread=unread_orms.python_uses(source.encode("utf-8", "surrogatepass")),
    )


def _classes_made_by_type(tree: ast.Module) -> None:
    """`Thing = type("Thing", (Base,), {"__tablename__": "things", ...})` at module level read
    as the class statement it is (its namespace's string keys its attributes), so that a model
    made so is mapped, named and inherited from like one written as a class."""
    for n, stmt in enumerate(tree.body):
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and _makes_type(stmt.value)
        ):
            continue
        call = stmt.value
        assert isinstance(call, ast.Call)
        if len(call.args) != 3 or call.keywords:
            continue
        _, bases, namespace = call.args
        if not (isinstance(bases, ast.Tuple) and isinstance(namespace, ast.Dict)):
            continue
        keys = [literal(k) if k is not None else None for k in namespace.keys]
        if not all(isinstance(k, str) and k.isidentifier() for k in keys):
            continue
        body: list[ast.stmt] = [
            ast.Assign([ast.Name(str(k), ast.Store())], v, lineno=v.lineno, col_offset=0)
            for k, v in zip(keys, namespace.values, strict=True)
        ]
        made = ast.ClassDef(
            name=stmt.targets[0].id,
            bases=list(bases.elts),
            keywords=[],
            body=body or [ast.Pass(lineno=stmt.lineno, col_offset=0)],
            decorator_list=[],
            lineno=stmt.lineno,
            col_offset=stmt.col_offset,
            end_lineno=stmt.end_lineno,
            end_col_offset=stmt.end_col_offset,
        )
        tree.body[n] = made


_FACTORY_NAME = re.compile(r"(?i)base|model|declarative|alchemy|registry|db|orm")


def _base_factory(func: ast.FunctionDef) -> Factory | None:
    """A module-level function kept as a possible maker of a model base (`Base =
    build_base()`): one that defines a class and returns it, or whose returned call or name
    is named like one (`declarative_base(...)`, `registry().generate_base()`, `SQLAlchemy(...)`,
    `make_model_base()`); any other function's result below a class stays unknown."""
    factory = read_factory(func)
    if factory is None:
        return None
    returned = factory.returns
    if isinstance(returned, ast.Name) and returned.id in dict(factory.classes):
        return factory
    written = dotted(returned.func if isinstance(returned, ast.Call) else returned) or ""
    if isinstance(returned, ast.Call) and isinstance(returned.func, ast.Attribute):
        written = returned.func.attr  # `registry().generate_base`
    return factory if _FACTORY_NAME.search(last_name(written)) else None


def _table_call(node: ast.Call) -> TableCall:
    first = node.args[0] if node.args and not isinstance(node.args[0], ast.Starred) else None
    if first is None:
        first = next((kw.value for kw in node.keywords if kw.arg == "name"), None)
    name = literal(first)
    return TableCall(
        dotted(node.func) or "",
        name if isinstance(name, str) else None,
        None if isinstance(name, str) else first,
        node.lineno,
        _column_names(node.args[1:]),
        any(kw.arg == "extend_existing" and literal(kw.value) is True for kw in node.keywords),
    )


def _is_constant(value: ast.expr) -> bool:
    """A module constant a computed name may read: a str literal, a `re.compile(...)`, or an
    expression that may compute one (`os.environ.get(...)`, `Settings()`, `get_settings()`,
    `A if FLAG else B`, an f-string); the evaluator says what it does not know."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str) or value.value is None
    return isinstance(value, _COMPUTED_CONSTANTS)


_COMPUTED_CONSTANTS = (
    ast.Call,
    ast.JoinedStr,
    ast.BinOp,
    ast.IfExp,
    ast.Compare,
    ast.BoolOp,
    ast.Attribute,
    ast.Name,
    ast.Subscript,
)


_DECLARED = frozenset({"declared_attr", "directive", "classmethod"})


def _declared_attr_names(tree: ast.Module) -> frozenset[str]:
    """The names `declared_attr` goes by in the module (`from sqlalchemy.orm import
    declared_attr as attr_made`), with `classmethod`."""
    aliases = {
        alias.asname
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name == "declared_attr" and alias.asname
    }
    return _DECLARED | aliases


def _describe(
    node: ast.ClassDef,
    *,
    sqlmodel: bool = False,
    hooks: bool = True,
    declared: frozenset[str] = _DECLARED,
) -> ModelBody:
    # Runs for every class of every file, so plain isinstance checks: the `match` class
    # patterns with sub-patterns it replaced were this function's largest cost in a profile.
    tablename: TableName | None = None
    abstract = explicit_table = primary_key = extend_existing = False
    columns: list[str] = []
    fields: list[str] = []
    callees: dict[str, None] = {}
    renames: Computation | None = None
    meta_renames: tuple[str, Computation] | None = None
    defaults: list[tuple[str, ast.expr]] = []
    methods: list[tuple[str, ast.FunctionDef]] = []
    functions: list[ClassFunction] = []
    made: list[tuple[str, Computation]] = []
    target: ast.expr
    value: ast.expr | None
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        elif isinstance(stmt, ast.Assign):
            target, value = stmt.targets[0], stmt.value
        else:
            if isinstance(stmt, ast.FunctionDef) and stmt.name in EXTENSION_METHODS:
                methods.append((stmt.name, stmt))
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                functions.append(class_function(stmt))
            if isinstance(stmt, ast.FunctionDef) and stmt.name == "__tablename__":
                tablename = _declared_tablename(stmt)
            elif not hooks:
                pass
            elif isinstance(stmt, ast.FunctionDef) and _made_at_definition(stmt, declared):
                made += ((stmt.name, c) for c in _made_models(stmt))
            elif isinstance(stmt, ast.FunctionDef) and stmt.name == "__init_subclass__":
                renames = _renaming_hook(stmt)
            elif isinstance(stmt, ast.FunctionDef) and stmt.name in ("__init__", "__new__"):
                found = _renaming_hook(stmt)  # a metaclass's, when some class names it so
                meta_renames = (stmt.name, found) if found is not None else meta_renames
            continue
        if not isinstance(target, ast.Name):
            continue
        name = target.id
        if value is not None:
            defaults.append((name, value))
        if name == "__tablename__":
            tablename = _assigned_tablename(value)
        elif name == "__abstract__":
            abstract = literal(value) is True
        elif name == "__table__":
            explicit_table = value is not None  # `__table__: ClassVar[Table]` maps nothing
        elif name == "__table_args__":
            extend_existing = _extends_existing(value)
        elif (column := _column_call(value)) is not None:
            first = literal(column.args[0]) if column.args else None
            columns.append(first if isinstance(first, str) else name)
            callees[dotted(column.func) or ""] = None
            primary_key = primary_key or any(
                kw.arg == "primary_key" and literal(kw.value) is True for kw in column.keywords
            )
        elif (
            isinstance(stmt, ast.AnnAssign) and value is None and _is_plain_mapped(stmt.annotation)
        ):
            columns.append(name)
            callees[dotted(_mapped_of(stmt.annotation)) or ""] = None
        if sqlmodel and isinstance(stmt, ast.AnnAssign) and _is_field(name, stmt):
            fields.append(name)
    hooked = _called_by_init_subclass(node) if made else frozenset()
    made = [(m, c) for m, c in made if m in hooked or not _is_classmethod(node, m)]
    return ModelBody(
        tablename,
        abstract,
        tuple(columns),
        primary_key,
        tuple(fields),
        explicit_table,
        tuple(callees),
        extend_existing,
        renames,
        meta_renames,
        tuple(defaults),
        tuple(methods),
        tuple(functions),
        tuple(made),
    )


def _makes_type(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"


def _is_classmethod(node: ast.ClassDef, name: str) -> bool:
    return any(
        isinstance(s, ast.FunctionDef)
        and s.name == name
        and any(last_name(dotted(d)) == "classmethod" for d in s.decorator_list)
        for s in node.body
    )


def _called_by_init_subclass(node: ast.ClassDef) -> frozenset[str]:
    """The methods the class's `__init_subclass__` calls on `cls` (a classmethod run for
    each subclass as it is made)."""
    hook = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init_subclass__"),
        None,
    )
    if hook is None or not hook.args.args:
        return frozenset()
    first = hook.args.args[0].arg
    return frozenset(
        n.func.attr
        for n in ast.walk(hook)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == first
    )


def _made_at_definition(func: ast.FunctionDef, declared: frozenset[str]) -> bool:
    """A `@declared_attr` (`declared_attr.directive`, `@classmethod`) method: run for each
    mapped class below its class as that class is made."""
    return bool(func.args.args) and any(
        last_name(dotted(d)) in declared for d in func.decorator_list
    )


def _made_models(func: ast.FunctionDef) -> list[Computation]:
    """Each `type(name, bases, {"__tablename__": value, ...})` (or `Table(value, ...)`) in
    `func`: what assigns the
    made model's table name, `value` read with `func`'s first parameter (the model's class)
    after the plain assignments written before it (`owner = cls.__tablename__`)."""
    param = func.args.args[0].arg
    found: list[Computation] = []
    prelude: list[ast.stmt] = []
    for stmt in func.body:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            values: list[ast.expr] = []
            if (
                isinstance(node.func, ast.Name)
                and node.func.id == "type"
                and len(node.args) == 3
                and isinstance(node.args[2], ast.Dict)
            ):
                namespace = node.args[2]
                values = [
                    v
                    for k, v in zip(namespace.keys, namespace.values, strict=True)
                    if k is not None and literal(k) == TABLENAME
                ]
            elif last_name(dotted(node.func)) == "Table" and node.args:
                values = [node.args[0]]  # `Table(f"{cls.__tablename__}_x", metadata, ...)`
            for value in values:
                target = ast.Attribute(ast.Name(param, ast.Load()), TABLENAME, ast.Store())
                assign = ast.Assign([target], value, lineno=node.lineno, col_offset=0)
                found.append(Computation(node.lineno, (param,), (*prelude, assign)))
        if (
            isinstance(stmt, ast.Assign)
            and all(isinstance(t, ast.Name) for t in stmt.targets)
            and not _makes_type(stmt.value)
        ):
            prelude.append(stmt)
    return found


def _renaming_hook(func: ast.FunctionDef) -> Computation | None:
    """A base's `__init_subclass__(cls)` that sets `cls.__tablename__` (by assignment or
    `setattr`): it renames the table of every class created below that base."""
    params = [a.arg for a in func.args.args]
    if not params:
        return None
    for node in ast.walk(func):
        if isinstance(node, ast.Attribute) and node.attr == TABLENAME:
            if isinstance(node.ctx, ast.Store):
                return from_function(func)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if literal(node.slice) == TABLENAME:  # `namespace["__tablename__"] = ...`
                return from_function(func)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) > 1
            and literal(node.args[1]) == TABLENAME
        ):
            return from_function(func)
    return None


def _extends_existing(table_args: ast.expr | None) -> bool:
    """Whether `__table_args__` holds `extend_existing=True`: a dict, or a tuple ending with one
    (SQLAlchemy's two forms); the class then redeclares a table, it adds none."""
    if isinstance(table_args, ast.Tuple) and table_args.elts:
        table_args = table_args.elts[-1]
    if not isinstance(table_args, ast.Dict):
        return False
    return any(
        literal(key) == "extend_existing" and literal(value) is True
        for key, value in zip(table_args.keys, table_args.values, strict=True)
        if key is not None
    )


def _mapped_of(annotation: ast.expr) -> ast.expr:
    """`Mapped` in `Mapped[int]` (a string annotation reads as its `Mapped`)."""
    if isinstance(annotation, ast.Subscript):
        return annotation.value
    return ast.Name("Mapped")


def _declared_tablename(func: ast.FunctionDef) -> TableName:
    """A `@declared_attr def __tablename__(cls)`: a literal when it plainly returns one."""
    returns = [s.value for s in func.body if isinstance(s, ast.Return)]
    text = literal(returns[0]) if len(func.body) == 1 and len(returns) == 1 else None
    if isinstance(text, str):
        return TableName(text, None, True)
    return TableName(None, from_function(func), True)


def _assigned_tablename(value: ast.expr | None) -> TableName | None:
    """`__tablename__ = ...`: a literal, `declared_attr(lambda cls: ...)`, or an expression."""
    if value is None:
        return None
    text = literal(value)
    if isinstance(text, str):
        return TableName(text, None, False)
    if isinstance(value, ast.Constant) and value.value is None:
        return TableName(None, None, False)  # `= None`: no table of its own (single-table)
    declared = isinstance(value, ast.Call) and last_name(dotted(value.func)).endswith(
        "declared_attr"
    )
    return TableName(None, from_expression(value), declared)


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


def link(files: Sequence[tuple[str, FileFacts]]) -> DocumentPieces:
    declarations: list[Declarations] = []
    python: list[tuple[str, SqlalchemyFacts]] = []
    distributions: list[Distribution] = []
    for path, facts in files:
        if isinstance(facts, Declarations):
            declarations.append(facts)
            continue
        if isinstance(facts, DistributionFile):
            declarations.append(facts.declarations)
            distributions.append(facts.distribution)
            continue
        if facts.distribution is not None and path.rpartition("/")[2] == "setup.py":
            distributions.append(facts.distribution)
        python.append((path, facts))
        if facts.declarations is not None:
            declarations.append(facts.declarations)
    by_path = dict(python)
    bases: ModelBases[ModelBody] = ModelBases(
        lambda cls: dict(cls.body.methods), lambda module: by_path[module.path].factories
    )
    modules = Modules(
        [facts.module for _, facts in python], made=bases, known=LIBRARY_MIXINS.__contains__
    )
    mapper = _Mapper(modules, by_path, declared(declarations, FLASK_SQLALCHEMY, PYTHON))
    claims: list[TableClaim] = []
    gaps: list[Gap] = []
    for path, facts in python:
        if not facts.migration:
            for call in facts.tables:
                found = _table_call_claim(modules, mapper, bases, path, facts, call)
                if isinstance(found, TableClaim):
                    claims.append(found)
                elif isinstance(found, Gap):
                    gaps.append(found)
    models: list[VersionedModel] = []
    for module in modules.modules:
        if by_path[module.path].migration:
            continue
        for cls in module.classes:
            ref = ClassRef(module, cls)
            found = mapper.table_of(ref)
            if isinstance(found, TableClaim):
                claims.append(found)
                if found.model is not None:
                    attributes = mapper.class_defaults(ref).defaults
                    models.append(VersionedModel(found, attributes, module.path))
            elif isinstance(found, Gap):
                gaps.append(found)
            for per_model in mapper.made_tables(ClassRef(module, cls), found):
                if isinstance(per_model, TableClaim):
                    claims.append(per_model)
                else:
                    gaps.append(per_model)
    gaps.extend(mapper.version_gaps)
    gaps.extend(mapper.unknown_bases())
    made, unmade = _generated(modules, by_path, models)
    claims += made
    loads = [(path, group, line) for path, f in python for group, line in f.plugin_loads]
    if loads and distributions:  # plugins reached only once installed: not the app's tables
        left, loaders = plugin_folders(
            distributions,
            loads,
            lambda folder: any(under(c.path, frozenset({folder})) for c in claims),
            "tables",
        )
        claims = [c for c in claims if not under(c.path, left)]
        unmade += [Gap(UNRESOLVED_TABLE_NAME, detail, path, line) for path, line, detail in loaders]
    gaps.extend(_unread_orms(python))
    return link_tables(claims, gaps + unmade)


def _unread_orms(python: Sequence[tuple[str, SqlalchemyFacts]]) -> list[Gap]:
    """Never an empty document that says nothing: an ORM the packs do not read
    (`unread_orms.PYTHON`) is named at the first import of it in each file importing it."""
    return [
        Gap(
            UNRESOLVED_TABLE_NAME,
            f"{orm} is imported here: the table packs read SQLAlchemy, Flask-SQLAlchemy, "
            f"SQLModel and Django only, so the tables {orm} declares are not listed",
            path,
            line,
        )
        for path, facts in python
        for orm, line in facts.unread
    ]


def _generated(
    modules: Modules[ModelBody], by_path: dict[str, SqlalchemyFacts], models: list[VersionedModel]
) -> tuple[list[TableClaim], list[Gap]]:
    """The tables a library makes at runtime (issue 34 item 4), listed where it is configured
    by its rules (`versioned_tables`); where its call is not read, a finding there naming the
    library and what it makes."""
    claims: list[TableClaim] = []
    gaps: list[Gap] = []
    for module in modules.modules:
        facts = by_path[module.path]
        calls = {call.lineno: call for call in facts.versioning}
        for callee, line in facts.configures:
            if callee.partition(".")[0] not in module.imports:
                continue  # a function of the module's own, a builtin: no library's
            found = modules.resolve(module, callee)
            made = TABLE_GENERATORS.get(found.name) if isinstance(found, External) else None
            if made is None:
                continue
            library, tables = made
            call = calls.get(line)
            if call is None:
                detail = f"{library} is configured here ({callee}): at runtime it makes {tables}; those tables are not listed"
                gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, module.path, line))
                continue
            listed, unread = versioned_tables(
                library, call, module.path, models, partial(_table_named, modules, by_path)
            )
            claims += listed
            gaps += unread
    return claims, gaps


def _table_named(
    modules: Modules[ModelBody], by_path: dict[str, SqlalchemyFacts], path: str, name: str
) -> str | None:
    """The name of the `Table(...)` bound to `name` in module `path`, or imported there (from
    module to module through `from m import x as y` re-exports)."""
    module = next((m for m in modules.modules if m.path == path), None)
    for _ in range(8):
        if module is None:
            return None
        here = [t.name for t in by_path[module.path].tables if t.target == name and t.name]
        if here:
            return here[-1]
        target = module.imports.get(name)
        if target is None:
            return None
        source, _, name = target.rpartition(".")
        module = modules.find_module(source)
    return None


def _table_call_claim(
    modules: Modules[ModelBody],
    mapper: _Mapper,
    bases: ModelBases[ModelBody],
    path: str,
    facts: SqlalchemyFacts,
    call: TableCall,
) -> TableClaim | Gap | None:
    """The table a `Table(...)` call defines, the gap when SQLAlchemy's `Table` is named by
    something not known, or None for another library's `Table` (a terminal or report table)."""
    kind = _table_kind(modules, bases, facts.module, call.callee)
    if kind is None:
        return None
    name, unknown = call.name, "no literal first argument"
    assumed: tuple[str, ...] = ()
    if name is None and call.name_expr is not None:
        computation = from_expression(call.name_expr)
        try:  # a module constant, an f-string of constants, a helper, a settings default...
            found = evaluate_marked(computation, "", mapper.scope(facts.module))
            name, assumed = found.name, found.assumed
            unknown = f"{computation.text}, which gives no name"
        except NotEvaluated as gap:
            unknown = f"{computation.text} ({gap.reason})"
    if name:
        return TableClaim(
            name,
            path,
            call.line,
            None,
            call.columns,
            _marked(assumed),
            extends=call.extend_existing,
        )
    return Gap(
        UNRESOLVED_TABLE_NAME,
        f"{kind}(...) is named by {unknown}: its table name is unknown",
        path,
        call.line,
    )


def _table_kind(
    modules: Modules[ModelBody],
    bases: ModelBases[ModelBody],
    module: ModuleFacts[ModelBody],
    callee: str,
) -> str | None:
    """How a `Table(...)` call's callee reads when it is SQLAlchemy's `Table` (else None):
    imported from sqlalchemy (`Table`, `sa.Table`), or Flask-SQLAlchemy's `db.Table` (`db`
    made by its `SQLAlchemy` or a project subclass of it)."""
    found = modules.resolve(module, callee)
    if isinstance(found, External):
        if found.name in SQLALCHEMY_TABLES or found.name.split(".")[-2:-1] == ["db"]:
            return callee
        return None
    if (
        isinstance(found, CallRef)
        and found.attribute == "Table"
        and (last_name(found.callee) == "SQLAlchemy" or bases.extension(modules, found) is not None)
    ):
        return callee
    return None


@dataclass(frozen=True)
class _Rewriter:
    """What rewrites a class's `__tablename__` as it is created: `owner`'s `method`
    (`__init_subclass__`, or a metaclass's `__init__`/`__new__`); `maps_in_super`: SQLAlchemy
    maps the class inside the `super()` call of that method, so the name then is the table's."""

    owner: ClassRef[ModelBody]
    method: str
    computation: Computation
    maps_in_super: bool


class _Mapper:
    """Decides, class by class, which table (if any) the libraries would map it to."""

    def __init__(
        self,
        modules: Modules[ModelBody],
        facts: dict[str, SqlalchemyFacts],
        flask_sqlalchemy: Declared | None = None,
    ) -> None:
        self.modules = modules
        self.facts = facts
        self.flask_sqlalchemy = flask_sqlalchemy  # the versions the repository declares
        # findings beside a table (`_implicit`'s, an implicit name below an unread base): one
        # per class asked of
        self.version_gaps: list[Gap] = []
        self._flavors: dict[tuple[str, int], str | None] = {}
        self._models: dict[tuple[str, int], bool] = {}
        self._scopes: dict[str, Scope] = {}
        self._held: dict[tuple[str, int], Evaluated] = {}  # `_holds`' answers
        self._rewriters: dict[tuple[str, int], _Rewriter | None] = {}
        self._rewrites = any(  # most repositories have no class that rewrites table names
            c.body.renames is not None or c.body.meta_renames is not None
            for m in modules.modules
            for c in m.classes
        )

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

    def table_of(self, ref: ClassRef[ModelBody]) -> TableClaim | Gap | None:
        flavor = self.flavor(ref)
        body = ref.cls.body
        if flavor is None or body.abstract or body.explicit_table or self.is_root(ref):
            return None
        chain = [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]
        if flavor == "sqlmodel":
            source = next((c for c in chain if c.cls.body.tablename), None)
            fields = _merged(c.cls.body.fields for c in chain if c is ref or self.flavor(c) is None)
            if source is None:
                return self._claim(ref.cls.name.lower(), ref, fields)
            return self._named(source, ref, fields)
        # Mixins, abstract classes and bases give their columns — but not those above a mapped
        # parent: that parent's mapped attributes shadow them, and declarative copies none.
        shadowed = {
            (a.module.path, a.cls.line)
            for c in chain[1:]
            if self.is_model(c)
            for a in self.modules.ancestors(c)
            if isinstance(a, ClassRef)
        }
        inherited = [
            c
            for c in chain[1:]
            if not self.is_model(c) and (c.module.path, c.cls.line) not in shadowed
        ]
        # a library's mixin (`LIBRARY_MIXINS`) gives its columns and name as a mixin would
        ancestors = self.modules.ancestors(ref)
        above_mapped = {
            a.name
            for c in chain[1:]
            if self.is_model(c)
            for a in self.modules.ancestors(c)
            if isinstance(a, External)
        }
        mixins = [
            (a.name, LIBRARY_MIXINS[a.name])
            for a in ancestors
            if isinstance(a, External) and a.name in LIBRARY_MIXINS
        ]
        columns = _merged(
            [
                *(c.cls.body.columns for c in [ref, *inherited]),
                *(m.columns for name, m in mixins if name not in above_mapped),
            ]
        )
        source = next((c for c in chain if c.cls.body.tablename is not None), ref)
        tablename = source.cls.body.tablename
        parent_mapped = any(self.is_model(c) for c in chain[1:])
        own_key = (
            body.primary_key
            or any(c.cls.body.primary_key for c in inherited)
            or any(m.primary_key for name, m in mixins if name not in above_mapped)
        )
        if flavor == "flask" and parent_mapped and not own_key:
            # Flask-SQLAlchemy's `__table_cls__`: below a mapped model, a table without a
            # primary key column is single-table inheritance, whatever `__tablename__` says.
            return None
        rewriter = self._rewriter(ref)
        if rewriter is not None:  # a base's `__init_subclass__` or a metaclass sets the name
            return self._renamed(ref, rewriter, columns)
        library = self._library_name(ref, ancestors, source, tablename is not None)
        if library is not None:
            name, mixin = library
            if not columns or (
                parent_mapped and mixin.names_table is None and name in above_mapped
            ):
                return None  # no column of its own: single-table inheritance
            named = mixin.tablename or (
                mixin.names_table(ref.cls.name) if mixin.names_table else None
            )
            return self._claim(named, ref, columns)
        if tablename is not None and (
            source is ref or tablename.declared or not self.is_model(source)
        ):
            if source is not ref and not columns:
                return None
            return self._named(source, ref, columns, inherited_table=parent_mapped)
        if not parent_mapped and (flavor != "flask" or not columns):
            unread = self._unread_base(ancestors)
            if unread is not None:  # the name (or columns) may come from there: never silent
                return Gap(
                    UNKNOWN_MODEL_BASE,
                    f"mapped below a declarative base with no `__tablename__` of its own; base "
                    f"`{unread}` is no mixin the pack knows, and may name its table: whether "
                    "this class maps a table, and which, is unknown",
                    ref.module.path,
                    ref.cls.line,
                )
        if flavor != "flask" or not columns:
            return None  # SQLAlchemy: no name, or single-table inheritance
        claim = self._implicit(ref, columns)
        unread = self._unread_base(ancestors) if claim is not None else None
        if claim is not None and unread is not None:
            self.version_gaps.append(
                Gap(
                    UNKNOWN_MODEL_BASE,
                    f"named `{claim.name}` by Flask-SQLAlchemy's rule; base `{unread}` is no "
                    "mixin the pack knows and may set `__tablename__`: the table's name may "
                    "differ",
                    ref.module.path,
                    ref.cls.line,
                )
            )
        return claim

    def made_tables(
        self, ref: ClassRef[ModelBody], found: TableClaim | Gap | None
    ) -> list[TableClaim | Gap]:
        """The models a mixin's `declared_attr` makes for the model `ref` (its class or one
        above it): each table named from `ref`'s own (`f"{cls.__tablename__}_label"`), placed
        at `ref` with `attrs.madeBy` naming the method; a gap at `ref` where it cannot be
        computed (`ref`'s own name unknown, or the value not evaluated)."""
        if found is None:
            return []
        chain = [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]
        makers = [(c, m, comp) for c in chain for m, comp in c.cls.body.made]
        out: list[TableClaim | Gap] = []
        for owner, method, computation in makers:
            where = f"{owner.module.path}:{computation.line}"
            try:
                if not isinstance(found, TableClaim):
                    raise NotEvaluated("the table name of the model it is made for is unknown")
                made = run_hook(
                    computation,
                    ref.cls.name,
                    found.name,
                    self.scope(owner.module),
                    maps_in_super=False,
                    attributes=self.attributes(ref),
                )
            except NotEvaluated as gap:
                detail = (
                    f"a model made by {owner.cls.name}.{method} at {where} for each model "
                    f"below it: its __tablename__ is not evaluated ({gap.reason})"
                )
                out.append(Gap(COMPUTED_TABLENAME, detail, ref.module.path, ref.cls.line))
                continue
            if made.name:
                attrs = (("madeBy", f"{owner.cls.name}.{method}"), *_marked(made.assumed))
                out.append(TableClaim(made.name, ref.module.path, ref.cls.line, None, (), attrs))
        return out

    def _library_name(
        self,
        ref: ClassRef[ModelBody],
        ancestors: list[ClassRef[ModelBody] | External],
        source: ClassRef[ModelBody],
        named: bool,
    ) -> tuple[str, LibraryBase] | None:
        """The library mixin that names `ref`'s table, where it comes before (in the MRO) any
        class of the scanned files that sets `__tablename__` (`source`, when `named`)."""
        if ref.cls.body.tablename is not None:
            return None
        for above in ancestors:
            if isinstance(above, ClassRef):
                if named and above is source:
                    return None
                continue
            mixin = LIBRARY_MIXINS.get(above.name)
            if mixin is not None and (mixin.tablename or mixin.names_table):
                return above.name, mixin
        return None

    @staticmethod
    def _unread_base(ancestors: list[ClassRef[ModelBody] | External]) -> str | None:
        """The first base from outside the scanned files that is neither a declarative base,
        a neutral one (`typing.Generic`, `abc.ABC`) nor a library mixin the pack knows."""
        return next(
            (a.name for a in ancestors if isinstance(a, External) and _is_unknown_base(a.name)),
            None,
        )

    def _implicit(self, ref: ClassRef[ModelBody], columns: tuple[str, ...]) -> TableClaim | None:
        """Flask-SQLAlchemy's name for a model that names no table: 2.x's rule where the
        repository's declared versions are all below 3, 3.x's where all are 3 or above; where
        they admit both (or none is declared) and the rules disagree, 3.x's name with a
        `VERSION_DEPENDENT_NAME` finding at the class naming both."""
        name = ref.cls.name
        chosen, detail = by_version(
            "Flask-SQLAlchemy",
            f"the table of {name}",
            (camel_to_snake_case_2(name), camel_to_snake_case(name)),
            FLASK_SQLALCHEMY_VERSIONS,
            self.flask_sqlalchemy,
        )
        claim = self._claim(chosen, ref, columns)
        if detail is not None and claim is not None:
            self.version_gaps.append(
                Gap(VERSION_DEPENDENT_NAME, detail, ref.module.path, ref.cls.line)
            )
        return claim

    def _named(
        self,
        source: ClassRef[ModelBody],
        ref: ClassRef[ModelBody],
        columns: tuple[str, ...],
        *,
        inherited_table: bool = False,
    ) -> TableClaim | Gap | None:
        """The table `source`'s `__tablename__` names for `ref`, or the gap saying why not."""
        tablename = source.cls.body.tablename
        assert tablename is not None
        if tablename.computation is None:
            return self._claim(tablename.literal, ref, columns)
        try:
            found = evaluate_marked(
                tablename.computation,
                ref.cls.name,
                self.scope(source.module),
                inherited_table=inherited_table,
                attributes=self.attributes(ref),
            )
        except NotEvaluated as gap:
            where = f"{source.module.path}:{tablename.computation.line}"
            return Gap(
                COMPUTED_TABLENAME,
                f"__tablename__ computed at {where} by {tablename.computation.text} is not "
                f"evaluated ({gap.reason}): the table name of each model here is unknown",
                ref.module.path,
                ref.cls.line,
            )
        claim = self._claim(found.name, ref, columns)
        if claim is not None and found.assumed:
            return replace(claim, extra_attrs=_marked(found.assumed))
        return claim

    def _rewriter(self, ref: ClassRef[ModelBody]) -> _Rewriter | None:
        if not self._rewrites:
            return None
        key = (ref.module.path, ref.cls.line)  # asked for every class and each above it
        if key not in self._rewriters:
            self._rewriters[key] = self._find_rewriter(ref)
        return self._rewriters[key]

    def _find_rewriter(self, ref: ClassRef[ModelBody]) -> _Rewriter | None:
        """What rewrites `ref`'s `__tablename__` as the class is created: its metaclass's
        `__init__`/`__new__` (`metaclass=` on it or a class above, or on the call that made a
        base above), else the nearest class above whose `__init_subclass__` does."""
        chain = [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]
        for c in chain:
            named = [(c.module, c.cls.metaclass)] if c.cls.metaclass else []
            for base in c.cls.bases:
                made = self.modules.resolve(c.module, base)
                if isinstance(made, CallRef) and made.metaclass:
                    named.append((made.module, made.metaclass))
            for module, name in named:
                meta = self.modules.resolve(module, name)
                if isinstance(meta, ClassRef) and meta.cls.body.meta_renames is not None:
                    method, computation = meta.cls.body.meta_renames
                    kinds = {
                        last_name(a.name)
                        for a in self.modules.ancestors(meta)
                        if isinstance(a, External)
                    }
                    return _Rewriter(meta, method, computation, "DeclarativeMeta" in kinds)
        for c in chain[1:]:
            if c.cls.body.renames is not None:
                maps_in_super = any(
                    isinstance(a, External) and last_name(a.name) in SQLALCHEMY_ROOT_CLASSES
                    for a in self.modules.ancestors(c)
                )
                return _Rewriter(c, "__init_subclass__", c.cls.body.renames, maps_in_super)
        return None

    def _renamed(
        self, ref: ClassRef[ModelBody], rewriter: _Rewriter, columns: tuple[str, ...]
    ) -> TableClaim | Gap | None:
        """The table of a class whose name a base's `__init_subclass__` or a metaclass
        rewrites, or the gap saying why it is unknown (at the class, where the user's model is
        written)."""
        try:
            before = self._before_hook(ref)
            after = self._run(rewriter, ref, before, mapped=True)
        except NotEvaluated as gap:
            where = f"{rewriter.owner.module.path}:{rewriter.computation.line}"
            return Gap(
                COMPUTED_TABLENAME,
                f"__tablename__ rewritten by {rewriter.owner.cls.name}.{rewriter.method} at "
                f"{where} is not evaluated ({gap.reason}): the table name of each model below "
                "it is unknown",
                ref.module.path,
                ref.cls.line,
            )
        claim = self._claim(after.name, ref, columns)
        assumed = _marked(after.assumed)
        return replace(claim, extra_attrs=assumed) if claim is not None and assumed else claim

    def _run(
        self, rewriter: _Rewriter, ref: ClassRef[ModelBody], before: Evaluated, *, mapped: bool
    ) -> Evaluated:
        """The name after the rewriter ran for `ref` (`mapped`: the one SQLAlchemy maps)."""
        if rewriter.method == "__new__":
            raise NotEvaluated("a metaclass `__new__` is not run here")
        after = run_hook(
            rewriter.computation,
            ref.cls.name,
            before.name,
            self.scope(rewriter.owner.module),
            maps_in_super=mapped and rewriter.maps_in_super,
            mapping=rewriter.method,
            attributes=self.attributes(ref),
        )
        return Evaluated(after.name, (*before.assumed, *after.assumed))

    def _holds(self, ref: ClassRef[ModelBody]) -> Evaluated:
        """What `ref.__tablename__` reads once the class exists (after the hooks above it)."""
        key = (ref.module.path, ref.cls.line)
        if key not in self._held:
            rewriter = self._rewriter(ref)
            before = self._before_hook(ref)
            if rewriter is None:
                self._held[key] = before
            else:
                self._held[key] = self._run(rewriter, ref, before, mapped=False)
        return self._held[key]

    def _before_hook(self, ref: ClassRef[ModelBody]) -> Evaluated:
        """What `cls.__tablename__` reads in the hook run for `ref`: its own, else the first
        class above that holds one (its own, or set by the hook when it was created)."""
        own = ref.cls.body.tablename
        if own is not None:
            return self._value_of(ref, ref)
        for above in self.modules.ancestors(ref):
            if not isinstance(above, ClassRef):
                continue
            if self._rewriter(above) is not None:
                return self._holds(above)
            if above.cls.body.tablename is not None:
                return self._value_of(above, ref)
        return Evaluated(None)

    def _value_of(self, source: ClassRef[ModelBody], ref: ClassRef[ModelBody]) -> Evaluated:
        tablename = source.cls.body.tablename
        assert tablename is not None
        if tablename.computation is None:
            return Evaluated(tablename.literal)
        owner = ref if tablename.declared else source
        return evaluate_marked(
            tablename.computation,
            owner.cls.name,
            self.scope(source.module),
            attributes=self.attributes(owner),
        )

    def attributes(
        self, ref: ClassRef[ModelBody]
    ) -> Callable[[str], tuple[ast.expr | ClassFunction, Scope] | None]:
        """`cls.<name>` for a computation run for `ref`: the first class of its chain that
        assigns the name a value or defines a function of that name (the later of the two in
        one class body, as Python binds it), in that class's module."""

        def attribute(name: str) -> tuple[ast.expr | ClassFunction, Scope] | None:
            for c in [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]:
                value = dict(c.cls.body.defaults).get(name)
                function = next((f for f in c.cls.body.functions if f.name == name), None)
                if function is not None and (
                    value is None or function.computation.line > value.lineno
                ):
                    return function, self.scope(c.module)
                if value is not None:
                    return value, self.scope(c.module)
            return None

        return attribute

    def class_defaults(self, ref: ClassRef[ModelBody]) -> ClassDefaults:
        """A class's attributes with a value, its own over its ancestors' (a settings class)."""
        chain = [ref, *(a for a in self.modules.ancestors(ref) if isinstance(a, ClassRef))]
        defaults: dict[str, ast.expr] = {}
        for c in reversed(chain):
            defaults.update(c.cls.body.defaults)
        settings = any(
            isinstance(a, External) and last_name(a.name) == "BaseSettings"
            for a in self.modules.ancestors(ref)
        )
        config = defaults.get("model_config")
        prefix = None
        if isinstance(config, ast.Call):
            prefix = next(
                (literal(k.value) for k in config.keywords if k.arg == "env_prefix"), None
            )
        return ClassDefaults(
            ref.cls.name, defaults, settings, prefix if isinstance(prefix, str) else ""
        )

    def scope(self, module: ModuleFacts[ModelBody]) -> Scope:
        """What a computation in `module` sees: its constants, imports and helper functions
        (its own, or imported from another scanned module)."""
        if module.path not in self._scopes:
            facts = self.facts[module.path]

            def function(name: str) -> tuple[Computation, Scope] | None:
                if name in facts.functions:
                    return facts.functions[name], self.scope(module)
                target = module.imports.get(name)
                found = self.modules.find_module(target.rpartition(".")[0]) if target else None
                if target and found is not None:
                    helper = self.facts[found.path].functions.get(last_name(target))
                    if helper is not None:
                        return helper, self.scope(found)
                return None

            def constant(name: str) -> tuple[ast.expr, Scope] | None:
                target = module.imports.get(name)
                found = self.modules.find_module(target.rpartition(".")[0]) if target else None
                if target and found is not None and found.path != module.path:
                    value = self.facts[found.path].constants.get(last_name(target))
                    if value is not None:
                        return value, self.scope(found)
                return None

            def klass(name: str) -> tuple[ClassDefaults, Scope] | None:
                found = self.modules.resolve(module, name)
                if isinstance(found, ClassRef):
                    return self.class_defaults(found), self.scope(found.module)
                return None

            def imported(name: str) -> Scope | None:
                found = self.modules.find_module(name)
                return self.scope(found) if found is not None else None

            self._scopes[module.path] = Scope(
                facts.constants, module.imports, function, constant, klass, imported
            )
        return self._scopes[module.path]

    def unknown_bases(self) -> list[Gap]:
        """Classes that declare a table (`__tablename__`, columns) below a base that leads out
        of the scanned files and is no known declarative base: whether they map a table, and
        which, is unknown. A mixin some model uses is not one of them."""
        used: set[tuple[str, int]] = set()
        candidates: list[tuple[ClassRef[ModelBody], str]] = []
        for module in self.modules.modules:
            if self.facts[module.path].migration:
                continue
            for cls in module.classes:
                ref = ClassRef(module, cls)
                if self.flavor(ref) is not None or self.is_root(ref):
                    used.update(
                        (a.module.path, a.cls.line)
                        for a in self.modules.ancestors(ref)
                        if isinstance(a, ClassRef)
                    )
                    continue
                body = cls.body
                declares = (
                    body.tablename is not None
                    or self.has_orm_columns(ref)
                    or ref.cls.keyword("table") is True  # SQLModel's, below a base not read
                )
                if body.abstract or not declares:
                    continue
                unknown = next(
                    (
                        a.name
                        for a in self.modules.ancestors(ref)
                        if isinstance(a, External) and _is_unknown_base(a.name)
                    ),
                    None,
                )
                if unknown is not None:
                    candidates.append((ref, unknown))
        return [
            Gap(
                UNKNOWN_MODEL_BASE,
                f"base `{base}` is no declarative base the pack knows: whether each class "
                "here maps a table, and which, is unknown",
                ref.module.path,
                ref.cls.line,
            )
            for ref, base in candidates
            if (ref.module.path, ref.cls.line) not in used
        ]

    def has_orm_columns(self, ref: ClassRef[ModelBody]) -> bool:
        """Whether a column of the class is SQLAlchemy's (`Column`, `mapped_column`, `Mapped`
        imported from sqlalchemy or sqlmodel, or `db.Column`): `Column` alone is also
        django-tables2's and others'."""
        for callee in ref.cls.body.column_callees:
            found = self.modules.resolve(ref.module, callee)
            if isinstance(found, CallRef) or (
                isinstance(found, External)
                and (
                    found.name.partition(".")[0] in ORM_PACKAGES
                    or found.name.split(".")[-2:-1] == ["db"]
                )
            ):
                return True
        return False

    @staticmethod
    def _claim(
        name: str | None, ref: ClassRef[ModelBody], columns: tuple[str, ...]
    ) -> TableClaim | None:
        if not name:
            return None
        extends = ref.cls.body.extend_existing
        return TableClaim(
            name, ref.module.path, ref.cls.line, ref.cls.name, columns, extends=extends
        )


def _marked(assumed: Iterable[str]) -> tuple[tuple[str, str | int | bool], ...]:
    """`attrs.configDefault` (as `pack-http-routes` marks routes): the configuration defaults
    a name was read with, each once, `; `-separated; none when the name is certain."""
    sources = tuple(dict.fromkeys(assumed))
    return (("configDefault", "; ".join(sources)),) if sources else ()


def _is_unknown_base(name: str) -> bool:
    if name == "object" or name.partition(".")[0] in NEUTRAL_BASE_MODULES:
        return False
    if name in LIBRARY_MIXINS:
        return False
    if _external_kind(name) is None and name.partition(".")[0] == "flask_sqlalchemy":
        return False  # its `Model` and mixins map nothing alone (a `model_class` is read)
    return _external_kind(name) is None


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
