"""Tables and collections declared by JavaScript/TypeScript ORMs, and by Prisma schemas.

Read per file (tree-sitter for JS/TS, `prisma_schema`'s line reader for `.prisma`; nothing
scanned is imported or run; the default names: `js_naming`), linked across files only where the
ORM itself works across files: knex migrations run in file order (a later migration drops or
renames a table), and Sequelize's `define` defaults (`new Sequelize(…, { define: {…} })`) apply
to every model.

- Sequelize: `sequelize.define('Name', attrs, opts)`, `Model.init(attrs, { sequelize, … })` and
  `sequelize-typescript`'s `@Table`; the table is `tableName`, else the model name (`modelName`, else the class) when
  `freezeTableName`, else its plural (`inflection`'s rules: `pluralize_inflection`), snake_cased
  when `underscored`.
- TypeORM: `@Entity()`, `@Entity('name')`, `@Entity({ name })`; default: the class name in
  snake_case (`DefaultNamingStrategy`).
- Prisma: `model X { … }`, `@@map("name")` else `X`; `enum`, `type`, `view` declare no table.
- knex: `createTable`/`createTableIfNotExists` outside a migration's `down`, minus
  `dropTable`/`dropTableIfExists`, through `renameTable`, in path order.
- Bookshelf: `x.model('Name', { tableName })` and `x.Model.extend({ tableName })` where `x` is
  a Bookshelf instance (`require('bookshelf')(knex)`, of the file or imported from the module
  making it); a schema's prefix dropped (`'water.users'` is `users`), as knex's DDL names are.
- Mongoose: `model('Name', schema)` (two arguments or more: one is a lookup) is a collection
  named `model(…, …, 'explicit')`, else the schema's `collection` option when the schema is
  built in the file, else Mongoose's plural of the lower-cased name (`pluralize_mongoose`);
  `@nestjs/mongoose`'s `@Schema()` classes likewise, the class being the model; typegoose's
  classes where code makes a model of them (`js_typegoose`).

- Across files, where the ORM works across them: a Mongoose schema imported from another file
  (its `collection` option), a TypeORM `@ManyToMany` + `@JoinTable` junction (the target entity
  through the file's imports and barrels), Prisma's implicit many-to-many `_AToB` tables among a
  schema folder's models, TypeORM's `entityPrefix` and a naming strategy of the repository's own.
  `EntitySchema` entities, knex `raw()` DDL in a migration's `up`, `super.init` and options
  spread from top-level constants are read in the file.
- Sequelize options given as a value (`new Sequelize(db, user, pw, config)`, `config =
  getConfig()`) are evaluated across the project's functions and modules (`js_values`); options
  it cannot evaluate are a finding at each model whose default name they may change.

Default names follow the version of the ORM the repository's `package.json` files declare
(`declared_versions`; Mongoose's plurals, Sequelize's `underscored` and plurals, TypeORM's
`snakeCase` changed between versions): where the declared range admits rules that disagree, the
newest rule's name with a `VERSION_DEPENDENT_NAME` finding at the call or decorator.

A `define`/`init`/`@Entity`/`model()`/`createTable` whose name is computed (neither a literal
nor a `const` of the file bound to one) is an `UNRESOLVED_TABLE_NAME` finding at the call; so
is a decorator factory calling `Entity()`/`Table()`, and an ORM package the repository imports
of which nothing is listed (at its first import): never an empty document in silence. An ORM the
reader does not read at all (`UNREAD_ORMS`: Drizzle, Objection.js, MikroORM…) is named at the
first import in each file importing it (a type-only import only where there is no other).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace

import tree_sitter

from . import js_typegoose
from .builders import DUPLICATE_TABLE_NAME, duplicate_findings, location, pii_value, signal
from .declared_versions import NPM, Declarations, Declared, by_version, declared
from .declared_versions import read as read_declarations
from .js_made_models import (
    NO_MADE,
    Expanded,
    MadeFacts,
    MadeReader,
    Patch,
    expand,
    may_make,
    module_stem,
)
from .js_naming import (
    MONGOOSE_VERSIONS,
    TYPEORM_VERSIONS,
    pluralize_inflection,
    pluralize_mongoose,
    snake_case,
    underscore,
)
from .js_strategy import (
    DEFAULT_JOIN,
    DEFAULT_TABLE,
    FileReading,
    Recipe,
    RecipeReader,
    evaluate,
)
from .js_values import Evaluator, Found, Function, Val, ValueReader
from .prisma_schema import PrismaModel, implicit_relation_tables, prisma_models
from .routes.js_facts import JS_SUFFIXES, parse_tree
from .routes.js_modules import JsModules
from .routes.manifests import MANIFEST, is_manifest, manifest_facts
from .routes.model import ModuleFacts
from .routes.tsconfig import config_facts, is_config
from .scan_document import DocumentPieces, JSONObject
from .tables import UNRESOLVED_TABLE_NAME, VERSION_DEPENDENT_NAME, Gap, gap_findings

_Node = tree_sitter.Node

SUFFIXES = (*JS_SUFFIXES, ".prisma", MANIFEST)  # manifests: always (the ORMs' versions)
NAMED = is_config  # `tsconfig*.json`/`jsconfig*.json`: parsed when linking asks, too
SEQUELIZE_VERSIONS: tuple[tuple[int, ...], ...] = ((), (5,), (6, 6, 3))
"""Where Sequelize's default table name changed (each checked by running 4.44, 5.22 and
6.37 on the same models): before 5.0 `underscored` leaves the table name alone and
`underscoredAll` underscores it; from 5.0 `underscored` does and `underscoredAll` is gone; from
6.6.3 `inflection` 1.13's plurals (`Octopuses`, `Viruses`, `Bonuses`, `Grammars`)."""

# The bytes that each ORM's constructs need (the pre-filter, and the reader's own gate, so a
# pre-filtered scan equals the parse-all one by construction).
# `sequelize.define`, `{ sequelize }`, `require('sequelize')`, `Sequelize.INTEGER`: either case
SEQUELIZE_SEEDS = (b"sequelize", b"Sequelize")
TYPEORM_SEEDS = (b"Entity", b"JoinTable")  # an entity, or a base class holding a junction
TYPEORM_OPTION_SEEDS = (b"entityPrefix", b"NamingStrategy")  # what renames every entity's table
KNEX_SEEDS = (b"createTable", b"dropTable", b"renameTable")
_RAW_DDL = re.compile(rb"(?i)\b(?:create|drop|alter)\s+(?:\w+\s+)*?table\b")
"""SQL that creates, drops or renames a table, as a knex migration sends it with `raw(…)`."""


def _raw_ddl(data: bytes) -> bool:
    """Whether a `.raw` call of the file starts with such SQL: `_RAW_DDL` (no literal prefix,
    slow over a whole file) runs only in a window after each `.raw`."""
    start = data.find(b".raw")
    while start != -1:
        window = data[start : start + 2048]
        if any(word in window for word in (b"table", b"TABLE", b"Table")) and (
            _RAW_DDL.search(window) is not None
        ):
            return True
        start = data.find(b".raw", start + 4)
    return False


MONGOOSE_SEEDS = (b"mongoose", b"Schema")
BOOKSHELF_SEEDS = (b"bookshelf", b"tableName")  # an instance, or a model made on an imported one
SEQUELIZE_TS_SEED = b"sequelize-typescript"  # `@Table` classes (within the Sequelize seed)
NEST_MONGOOSE_SEED = b"@nestjs/mongoose"  # `@Schema()` classes (within the Mongoose seeds)


def admits(path: str, data: bytes) -> bool:
    """Whether a file's bytes can declare (or drop, or rename) a table or collection, or pass
    one declared elsewhere on (`export … from`: a barrel a TypeORM relation or a Mongoose
    schema is imported through); a `package.json` always (the ORMs' versions). A module of
    constants a table name is imported from and a project config are parsed when linking asks
    for them."""
    if path.endswith(".prisma") or is_manifest(path):
        return True
    if is_config(path):
        return False
    if NODE_PATH_SEED in data:  # where bare imports resolve: read wherever it is set
        return True
    return _declares(data) or _REEXPORT.search(data) is not None or _imports_orm(data)


_ORM_IMPORT = re.compile(
    rb"""(?:\brequire\s*\(\s*|\bfrom\s*|\bimport\s*)(["'])(sequelize|sequelize-typescript|@sequelize/core|"""
    rb"""typeorm|@nestjs/typeorm|mongoose|@nestjs/mongoose|@typegoose/typegoose|typegoose|knex|"""
    rb"""@prisma/client|bookshelf)\1"""
)
"""An import of an ORM package (`require('knex')`, `from 'typeorm'`, `import 'mongoose'`): read
without parsing, so a repository that uses an ORM and declares nothing the reader knows gets a
finding naming it."""
_ORM_OF_PACKAGE = {
    "sequelize": "sequelize", "sequelize-typescript": "sequelize", "@sequelize/core": "sequelize",
    "typeorm": "typeorm",
    "@nestjs/typeorm": "typeorm", "mongoose": "mongoose", "@nestjs/mongoose": "mongoose",
    "@typegoose/typegoose": "mongoose", "typegoose": "mongoose",
    "knex": "knex", "@prisma/client": "prisma", "bookshelf": "bookshelf",
}  # fmt: skip


_ORM_WORDS = (b"sequelize", b"typeorm", b"mongoose", b"knex", b"@prisma/client", b"bookshelf")
UNREAD_ORMS = (
    # (ORM as the finding names it, its package as a regex; a subpath of it counts too)
    ("Drizzle ORM", "drizzle-orm"),
    ("Objection.js", "objection"),
    ("MikroORM", "@mikro-orm/[\\w.-]+"),
    ("Waterline", "waterline"),
    ("Kysely", "kysely"),
    # Sequelize 7's `@sequelize/core` is read as Sequelize (its `define` and `init` are v6's);
    # its own decorators (`@Table`, `@Attribute`) are not sequelize-typescript's and not read
    ("Sequelize 7 decorators", "@sequelize/core/decorators-legacy"),
)  # fmt: skip
"""ORMs the reader recognises and does not read: a file importing one gets an
`UNRESOLVED_TABLE_NAME` finding naming it at its first import of it (`_unread_packages`)."""
_UNREAD_IMPORT = re.compile(
    rb"""(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s*|\bimport\s*)(["'])(?:"""
    + b"|".join(b"(" + package.encode() + b")" for _, package in UNREAD_ORMS)
    + rb""")(?:/[^"'\n]*)?\1"""
)
"""`require('x')`, `import('x')`, `from 'x/sub'`, `import 'x'` of an `UNREAD_ORMS` package."""
_UNREAD_WORDS = (b"drizzle-orm", b"objection", b"@mikro-orm/", b"waterline",
                 b"kysely", b"@sequelize/core/decorators-legacy")  # fmt: skip
_TYPE_NAME = rb"type\s+[\w$]+(?:\s+as\s+[\w$]+)?"
_TYPE_ONLY = re.compile(
    rb"(?:import|export)\s+type\s+(?:[\w$]+|\*\s*as\s+[\w$]+|\{[^;{}]*\})\s*"
    rb"|(?:import|export)\s*\{\s*" + _TYPE_NAME + rb"(?:\s*,\s*" + _TYPE_NAME + rb")*\s*,?\s*\}\s*"
)
"""What comes before `from` in a type-only import or re-export (`import type { A } from`,
`import { type A, type B as C } from`): it declares nothing."""


def _unread_packages(data: bytes) -> tuple[tuple[str, int, bool], ...]:
    """(ORM, line, type-only) of the first import of each `UNREAD_ORMS` ORM in a file: its
    first value import, else its first type-only one."""
    if not any(word in data for word in _UNREAD_WORDS):
        return ()
    found: dict[str, tuple[str, int, bool]] = {}
    for match in _UNREAD_IMPORT.finditer(data):
        orm = UNREAD_ORMS[next(i for i, g in enumerate(match.groups()[1:]) if g is not None)][0]
        typed = _type_only(data, match.start())
        if orm not in found or (found[orm][2] and not typed):
            found[orm] = (orm, data.count(b"\n", 0, match.start()) + 1, typed)
    return tuple(found.values())


def _type_only(data: bytes, at: int) -> bool:
    """Whether the import whose `from` is at `at` imports types only."""
    if not data.startswith(b"from", at):
        return False  # `require(…)`, `import(…)`, `import '…'`: values, or the module's effects
    start = max(data.rfind(b"import", 0, at), data.rfind(b"export", 0, at))
    return start >= 0 and _TYPE_ONLY.fullmatch(data, start, at) is not None


def _imports_orm(data: bytes) -> bool:
    """`_ORM_IMPORT` behind a substring test: the regular expression has no literal prefix, so
    it runs only over files that name a package."""
    return (
        any(word in data for word in _ORM_WORDS) and _ORM_IMPORT.search(data) is not None
    ) or bool(_unread_packages(data))


def _orm_imports(data: bytes) -> tuple[tuple[str, str, int], ...]:
    """(ORM, package, line) of each ORM package the file imports, the first import of each."""
    found: dict[str, tuple[str, str, int]] = {}
    if not any(word in data for word in _ORM_WORDS):
        return ()
    for match in _ORM_IMPORT.finditer(data):
        package = match.group(2).decode()
        orm = _ORM_OF_PACKAGE[package]
        if orm not in found:
            found[orm] = (orm, package, data.count(b"\n", 0, match.start()) + 1)
    return tuple(found.values())


def _declares(data: bytes) -> bool:
    return (
        any(seed in data for seed in SEQUELIZE_SEEDS)
        or any(seed in data for seed in TYPEORM_SEEDS)
        or any(seed in data for seed in TYPEORM_OPTION_SEEDS)
        or any(seed in data for seed in KNEX_SEEDS)
        or _raw_ddl(data)
        or any(seed in data for seed in MONGOOSE_SEEDS)
        or js_typegoose.SEED in data
        or any(seed in data for seed in BOOKSHELF_SEEDS)
    )


_REEXPORT = re.compile(rb"""export\s+(?:\*|\{([^{}]*)\})\s*from\s*(["'])([^"'\n]+)\2""")
"""`export * from './m'`, `export { A, B as C } from './m'` (read without parsing: a barrel
that declares nothing of its own is not parsed)."""


def _barrel(data: bytes) -> FileFacts:
    exports: dict[str, str] = {}
    imports: dict[str, tuple[str, str]] = {}
    stars: list[str] = []
    for match in _REEXPORT.finditer(data):
        module = match.group(3).decode("utf-8", "replace")
        if match.group(1) is None:
            stars.append(module)
            continue
        for spec in match.group(1).decode("utf-8", "replace").split(","):
            parts = spec.replace("type ", " ").split()
            if len(parts) == 3 and parts[1] == "as":
                name, alias = parts[0], parts[2]
            elif len(parts) == 1:
                name = alias = parts[0]
            else:
                continue
            exports[alias] = alias
            imports[alias] = (module, name)
    return FileFacts(
        exports=tuple(sorted(exports.items())),
        imports=tuple(sorted(imports.items())),
        stars=tuple(stars),
    )


# --- facts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameRef:
    """A table name the file imports: `name` of `module` as the file imports it (`default`
    for `module.exports`), then the attributes read off it (`TableName.Users`: `("Users",)`);
    settled at link time through the module resolver and the constants of the file it names."""

    module: str
    name: str
    attrs: tuple[str, ...] = ()

    def describe(self) -> str:
        return ".".join((self.name, *self.attrs)) + f" from {self.module!r}"


@dataclass(frozen=True)
class SequelizeModel:
    """A Sequelize model: its name is settled at link time, when the global `define` options
    (`SequelizeDefaults`) are known."""

    model: str
    line: int
    columns: tuple[str, ...]
    table: str | None  # `tableName`
    freeze: bool | None  # `freezeTableName`, None when not given
    underscored: bool | None
    table_ref: NameRef | None = None  # `tableName` imported from another module
    underscored_all: bool | None = None  # `underscoredAll` (Sequelize 4's table option)


@dataclass(frozen=True)
class SequelizeDefaults:
    freeze: bool | None
    underscored: bool | None
    underscored_all: bool | None = None
    # the line of a `new Sequelize(…, { ...options })` whose options spread an object out of
    # sight and write no `define`: the defaults that name every model may be in it
    out_of_sight: int | None = None
    # the imported object those options spread (`{ ...DATABASE.options }`, `DATABASE` imported
    # from the project's config module): its `define` is read at link time (`_Schemas.flags`)
    spread: NameRef | None = None
    # options given by any other expression (`new Sequelize(db, user, pw, config)`, `config =
    # getConfig()`): evaluated at link time (`js_values`), their `define` read from the object
    # literal they come to; `out_of_sight` is its line
    options: Val | None = None
    options_text: str = ""  # the options argument as written, for the finding
    options_line: int = 0


@dataclass(frozen=True)
class BookshelfModel:
    """A Bookshelf model, `<receiver>.model('Name', { tableName })` or
    `<receiver>.Model.extend({ tableName })`: one only where the receiver is a Bookshelf
    instance, of the file or imported from the module that makes one (settled at link time).
    `table` is `tableName` as written (`'schema.table'` too); None with `detail` saying why
    when it is not read."""

    receiver: str  # the name the call is made on; "" for an instance made there
    model: str | None
    line: int
    table: str | None
    table_ref: NameRef | None = None
    detail: str = ""


@dataclass(frozen=True)
class Claim:
    """A table (TypeORM, Prisma) or collection (Mongoose) named in the file."""

    kind: str  # "table" or "collection"
    name: str
    line: int
    model: str
    orm: str
    columns: tuple[str, ...]
    schema_from: tuple[str, str] | None = None  # Mongoose: (module, name) the schema is imported as
    ref: NameRef | None = None  # the name imported from another module (`name` is then "")


@dataclass(frozen=True)
class KnexOp:
    op: str  # "create", "drop" or "rename"
    name: str
    line: int
    columns: tuple[str, ...] = ()
    new_name: str = ""
    ref: NameRef | None = None  # `name` imported from another module
    new_ref: NameRef | None = None  # `new_name` likewise
    column_refs: tuple[NameRef, ...] = ()  # columns named by constants of other modules


@dataclass(frozen=True)
class SchemaDecl:
    """A Mongoose schema bound to a name at a file's top, for a `model()` of another file that
    imports it: its `collection` option (`None`: not given), and whether that option is an
    expression (then the collection is not known)."""

    local: str
    collection: str | None
    computed: bool
    columns: tuple[str, ...]


@dataclass(frozen=True)
class JoinSide:
    """A TypeORM `@ManyToMany(() => Target)` member with `@JoinTable(…)`: the junction table
    TypeORM makes, named `name` when given, else from both entities' tables (at link time, where
    the target's table is known)."""

    owner: str  # the entity class declaring the member
    member: str
    target: str | None  # the target class's name; None: not a name the reader can see
    name: str | None  # `@JoinTable({ name })`
    computed: bool  # `name` given by an expression
    line: int


@dataclass(frozen=True)
class TypeormClass:
    """A class whose `@JoinTable` members TypeORM makes junctions of, and the class it extends
    (`base`, as written; None: none, or no name the reader can see). TypeORM gives an entity the
    relations of every class it extends, so a junction belongs to each table-owning entity
    whose class holds or inherits the member: an `@Entity()` class (`ENTITY`) and the entities
    extending it; a `@ChildEntity()` (`CHILD`), a single-table-inheritance child that adds no
    table, whose junctions are named from the table of the entity at its root; an undecorated
    base (`PLAIN`), whose junctions are those of the entities extending it."""

    model: str
    base: str | None
    kind: str


ENTITY, CHILD, PLAIN = "entity", "child", "plain"


@dataclass(frozen=True)
class FileFacts:
    sequelize: tuple[SequelizeModel, ...] = ()
    defaults: tuple[SequelizeDefaults, ...] = ()
    claims: tuple[Claim, ...] = ()
    knex: tuple[KnexOp, ...] = ()
    gaps: tuple[Gap, ...] = ()
    mongoose_unpluralized: bool = False  # `mongoose.pluralize(null)`
    schemas: tuple[SchemaDecl, ...] = ()  # Mongoose schemas bound at the file's top
    exports: tuple[tuple[str, str], ...] = ()  # (exported name, local name); `default` too
    imports: tuple[tuple[str, tuple[str, str]], ...] = ()  # local name -> (module, its name)
    prisma: tuple[PrismaModel, ...] = ()  # a `.prisma` file's models, for relations across files
    joins: tuple[JoinSide, ...] = ()  # TypeORM `@ManyToMany` + `@JoinTable` members
    classes: tuple[TypeormClass, ...] = ()  # TypeORM classes holding or inheriting junctions
    stars: tuple[str, ...] = ()  # `export * from './m'`: the modules re-exported whole
    entity_prefixes: tuple[tuple[str, int], ...] = ()  # TypeORM `entityPrefix: '…'` (, line)
    # a TypeORM naming strategy's own tableName()/joinTableName(): (method, line, its recipe
    # where `js_strategy` reads it, else None)
    table_renamers: tuple[tuple[str, int, Recipe | None], ...] = ()
    orm_imports: tuple[tuple[str, str, int], ...] = ()  # (ORM, package, line) the file imports
    unread: tuple[tuple[str, int, bool], ...] = ()  # (ORM, line, type-only): `UNREAD_ORMS`
    # top-level string constants: `const A = 'a'`, `enum E { A = 'a' }` as `E.A`, the string
    # members of a `const O = { … }` (`as const` too) as `O.k`, `O.k.j`
    constants: tuple[tuple[str, str], ...] = ()
    # the boolean members of those objects likewise (`O.define.freezeTableName`): the options
    # a Sequelize instance in another file spreads from them (`{ ...config.db.options }`)
    flags: tuple[tuple[str, bool], ...] = ()
    module: ModuleFacts | None = None  # a manifest's or a project config's facts
    made: MadeFacts = NO_MADE  # models made through the project's own classes and functions
    node_paths: tuple[str, ...] = ()  # `process.env.NODE_PATH = __dirname`: folders it sets
    declarations: Declarations | None = None  # a `package.json`'s dependencies
    typegoose: js_typegoose.TypegooseFacts | None = None  # classes, makers and their callers
    # what `js_values` evaluates: top-level bindings to expressions (`const c = getConfig()`),
    # top-level functions (`module.exports = () => …` as `module.exports`), the prefixes of the
    # object literals `flags` and `constants` flatten (`module.exports.development.define`)
    values: tuple[tuple[str, Val], ...] = ()
    functions: tuple[tuple[str, Function], ...] = ()
    objects: frozenset[str] = frozenset()
    # Bookshelf: the names bound to an instance (`const db = require('bookshelf')(knex)`),
    # and the models made on some receiver (settled at link time)
    bookshelves: frozenset[str] = frozenset()
    bookshelf: tuple[BookshelfModel, ...] = ()


EMPTY = FileFacts()


def extract(path: str, source: str) -> FileFacts:
    facts = _extract(path, source)
    if path.endswith(JS_SUFFIXES) and (
        unread := _unread_packages(source.encode("utf-8", "surrogatepass"))
    ):
        return replace(facts, unread=unread)
    return facts


def _extract(path: str, source: str) -> FileFacts:
    if is_manifest(path):  # the ORMs' versions, and a package for the module resolver
        return FileFacts(
            declarations=read_declarations(path, source), module=manifest_facts(source)
        )
    if path.endswith(".prisma"):
        models = prisma_models(source)
        claims = (Claim("table", m.table, m.line, m.model, "prisma", m.columns) for m in models)
        return FileFacts(claims=tuple(claims), prisma=models)
    if is_config(path):
        return FileFacts(module=config_facts(source))
    data = source.encode("utf-8", "surrogatepass")
    uses = _orm_imports(data)
    if (
        not _declares(data)
        and not _exports_constants(data)
        and not may_make(data)
        and not js_typegoose.passes_class(data)
        and NODE_PATH_SEED not in data
    ):
        if _REEXPORT.search(data) is None:
            return FileFacts(orm_imports=uses) if uses else EMPTY
        return replace(_barrel(data), orm_imports=uses)
    facts = replace(_Reader(path, data).read(parse_tree(data, path)), orm_imports=uses)
    stars = tuple(
        m.group(3).decode("utf-8", "replace")
        for m in _REEXPORT.finditer(data)
        if m.group(1) is None
    )
    return replace(facts, stars=stars) if stars and (facts.exports or facts.imports) else facts


NODE_PATH_SEED = b"NODE_PATH"


def _exports_constants(data: bytes) -> bool:
    """Whether a file can export a string constant a table name is imported as (read only
    when admitted or when linking asks for it: a module of constants declares no table)."""
    return b"export" in data and any(word in data for word in (b"const", b"enum", b"exports"))


# --- JavaScript / TypeScript ----------------------------------------------------------------

_STRINGS = {"string", "template_string"}
_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression",
                "non_null_expression", "await_expression"}  # fmt: skip
_CLASSES = {"class_declaration", "class", "abstract_class_declaration"}
_MERGE_MODULES = ("lodash", "lodash-es", "underscore")
_MERGERS = {"merge": True, "assign": True, "assignIn": True, "extend": True, "mergeWith": True,
            "defaults": False, "defaultsDeep": False}  # fmt: skip
"""Merging functions of lodash and underscore: does a later source win?"""
_OVERRIDABLE = "...tableName"
"""The options key holding an unknown source that could replace a known `tableName`."""
_FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration",
              "method_definition", "generator_function_declaration"}  # fmt: skip
_VALUE_NODES = {"call_expression", "member_expression", "subscript_expression", "identifier",
                "binary_expression", "await_expression", "parenthesized_expression"}  # fmt: skip


class _Reader:
    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        self.sequelize = any(seed in data for seed in SEQUELIZE_SEEDS)
        self.typeorm = any(seed in data for seed in TYPEORM_SEEDS)
        self.typeorm_options = any(seed in data for seed in TYPEORM_OPTION_SEEDS)
        self.knex_raw = _raw_ddl(data)
        self.knex = any(seed in data for seed in KNEX_SEEDS) or self.knex_raw
        self.mongoose = any(seed in data for seed in MONGOOSE_SEEDS)
        self.nest_mongoose = NEST_MONGOOSE_SEED in data
        self.typegoose = js_typegoose.SEED in data
        self.typegoose_models: list[
            js_typegoose.TypegooseModel | js_typegoose.TypegooseTemplate
        ] = []
        self.sequelize_ts = SEQUELIZE_TS_SEED in data
        self.consts: dict[str, str] = {}  # top-level `const X = 'literal'`
        self.flags: dict[str, bool] = {}  # their objects' boolean members (`FileFacts.flags`)
        self.values: dict[str, _Node] = {}  # top-level `const X = <expression>`
        self.bound: set[str] = set()  # names the file binds to something not an object
        self.models: list[SequelizeModel] = []
        self.defaults: list[SequelizeDefaults] = []
        self.claims: list[Claim] = []
        self.knex_ops: list[KnexOp] = []
        self.gaps: list[Gap] = []
        self.unpluralized = False
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (module, imported name)
        self.exports: dict[str, str] = {}  # exported name (or `default`) -> local name
        self.joins: list[JoinSide] = []
        self.classes: list[TypeormClass] = []
        self.prefixes: list[tuple[str, int]] = []  # TypeORM `entityPrefix` values
        self.renamers: list[tuple[str, int, Recipe | None]] = []  # a strategy's tableName()
        self.strategy_reading: FileReading | None = None  # what its strategies' readings share
        self.made = MadeReader(data, self.text, self._literal, self._binds)
        self.node_paths: list[str] = []  # `process.env.NODE_PATH = …` folders
        self.vals = ValueReader(self.text, self.imports, self._required, self._literal)
        self.values_read: dict[str, Val] = {}  # `FileFacts.values`
        self.functions: dict[str, Function] = {}  # `FileFacts.functions`
        self.objects: set[str] = set()  # `FileFacts.objects`
        self.bookshelf = any(seed in data for seed in BOOKSHELF_SEEDS)
        self.bookshelves: set[str] = set()  # names bound to a Bookshelf instance
        self.bookshelf_models: list[BookshelfModel] = []

    def read(self, root: _Node) -> FileFacts:
        """Bindings from the file's top; then only the nodes at a word a construct needs
        (`_LOOK_AT`): a hit inside a longer name, a string or a comment is no node of its own
        and is passed over, so the tree is never walked whole."""
        for statement in root.named_children:
            self._top_level(statement)
        seen: set[int] = set()  # the calls and classes handled (a chain names a call once)
        for match in _LOOK_AT.finditer(self.data):
            node = root.descendant_for_byte_range(match.start(), match.end())
            if node is not None and (node.start_byte, node.end_byte) == match.span():
                self._hit(node, seen)
        return FileFacts(
            sequelize=tuple(self.models),
            defaults=tuple(self.defaults),
            claims=tuple(self.claims),
            knex=tuple(self.knex_ops),
            gaps=tuple(self.gaps),
            mongoose_unpluralized=self.unpluralized,
            schemas=self._schema_decls() if self.mongoose else (),
            exports=tuple(sorted(self.exports.items())),
            imports=tuple(sorted(self.imports.items())),
            joins=tuple(self.joins),
            classes=tuple(self.classes),
            entity_prefixes=tuple(self.prefixes),
            table_renamers=tuple(self.renamers),
            constants=tuple(sorted(self.consts.items())),
            flags=tuple(sorted(self.flags.items())),
            made=self.made.read(root) if self.made.templates or may_make(self.data) else NO_MADE,
            node_paths=tuple(self.node_paths),
            typegoose=self._typegoose(root),
            values=tuple(sorted(self.values_read.items())),
            functions=tuple(sorted(self.functions.items())),
            objects=frozenset(self.objects),
            bookshelves=frozenset(self.bookshelves),
            bookshelf=tuple(self.bookshelf_models),
        )

    def _typegoose(self, root: _Node) -> js_typegoose.TypegooseFacts | None:
        calls = js_typegoose.class_calls(self, root) if js_typegoose.passes_class(self.data) else ()
        if not self.typegoose and not calls:
            return None
        made = self.typegoose_models
        return js_typegoose.TypegooseFacts(
            js_typegoose.classes(self, root) if self.typegoose else (),
            tuple(m for m in made if isinstance(m, js_typegoose.TypegooseModel)),
            tuple(m for m in made if isinstance(m, js_typegoose.TypegooseTemplate)),
            calls,
        )

    def _top_level(self, statement: _Node) -> None:
        if statement.type == "import_statement":
            self._import(statement)
            return
        if statement.type == "expression_statement" and statement.named_children:
            self._commonjs_export(statement.named_children[0])
            return
        if statement.type == "export_statement":
            declaration = statement.child_by_field_name("declaration")
            if declaration is None:
                self._export_clause(statement)
                return
            statement = declaration
            declared = statement.child_by_field_name("name")
            if declared is not None:  # `export class X`, `export function f`
                self.exports[self.text(declared)] = self.text(declared)
                if any(c.type == "default" for c in statement.parent.children):  # type: ignore[union-attr]
                    self.exports["default"] = self.text(declared)
            for declarator in statement.named_children:
                name = declarator.child_by_field_name("name")
                if name is not None and name.type == "identifier":
                    self.exports[self.text(name)] = self.text(name)
        if statement.type in ("lexical_declaration", "variable_declaration"):
            for declarator in statement.named_children:
                if declarator.type == "variable_declarator":
                    self._bind(declarator)
                    self._require(declarator)
        elif statement.type == "enum_declaration":
            self._enum(statement)
        elif statement.type in _CLASSES or statement.type == "function_declaration":
            name = statement.child_by_field_name("name")
            if name is not None:
                self.bound.add(self.text(name))
                self._function(self.text(name), statement)

    def _function(self, name: str, node: _Node) -> None:
        """A top-level function the linker may call (`js_values`): its parameters and return."""
        function = self.vals.function(node)
        if function is not None:
            self.functions.setdefault(name, function)

    def _value(self, name: str, value: _Node) -> None:
        """A top-level binding to an expression the linker may evaluate (`js_values`): a call,
        a member, a name, a `process.env.X || 'd'`; a Bookshelf instance made there."""
        if self._is_bookshelf(value):
            self.bookshelves.add(name)
        if value.type in _FUNCTIONS:
            self._function(name, value)
        elif value.type in _VALUE_NODES:
            self.values_read.setdefault(name, self.vals.value(value))

    def _is_bookshelf(self, value: _Node) -> bool:
        """`require('bookshelf')(knex)`, or `bookshelf(knex)` of `bookshelf` imported so."""
        if not self.bookshelf or value.type != "call_expression":
            return False
        callee = value.child_by_field_name("function")
        if callee is None:
            return False
        if callee.type == "identifier":
            return self.imports.get(self.text(callee)) == ("bookshelf", "default")
        return self._required(callee) == "bookshelf"

    # module bindings (what a Mongoose `model()` needs of a schema another file declares)

    def _import(self, statement: _Node) -> None:
        """`import S from './m'`, `import { A as B } from './m'`, `import * as M from './m'`."""
        source = self._literal(statement.child_by_field_name("source"), follow=False)
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if source is None or clause is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.imports[self.text(part)] = (source, "default")
            elif part.type == "namespace_import" and part.named_children:
                self.imports[self.text(part.named_children[-1])] = (source, "*")
            elif part.type == "named_imports":
                for spec in part.named_children:
                    name, alias = (
                        spec.child_by_field_name("name"),
                        spec.child_by_field_name("alias"),
                    )
                    if name is not None:
                        self.imports[self.text(alias or name)] = (source, self.text(name))

    def _require(self, declarator: _Node) -> None:
        """`const S = require('./m')`, `const { A, B: C } = require('./m')`,
        `const A = require('./m').A`."""
        target, value = (
            declarator.child_by_field_name("name"),
            declarator.child_by_field_name("value"),
        )
        member = None
        if value is not None and value.type == "member_expression":
            prop = value.child_by_field_name("property")
            member = self.text(prop) if prop is not None else None
            value = value.child_by_field_name("object")
        source = self._required(value)
        if target is None or source is None:
            return
        if target.type == "identifier":
            self.imports[self.text(target)] = (source, member or "default")
        elif target.type == "object_pattern" and member is None:
            for part in target.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    self.imports[self.text(part)] = (source, self.text(part))
                elif part.type == "pair_pattern":
                    key, local = part.child_by_field_name("key"), part.child_by_field_name("value")
                    if key is not None and local is not None and local.type == "identifier":
                        self.imports[self.text(local)] = (source, self.text(key))

    def _required(self, node: _Node | None) -> str | None:
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is None or node.type != "call_expression":
            return None
        callee, arguments = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        )
        if callee is None or arguments is None or self.text(callee) != "require":
            return None
        args = arguments.named_children
        return self._literal(args[0], follow=False) if len(args) == 1 else None

    def _commonjs_export(self, node: _Node) -> None:
        """`module.exports = X`, `module.exports = { A, B: C }`, `exports.A = X`."""
        if node.type != "assignment_expression":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return
        target = self.text(left)
        if target == "process.env.NODE_PATH":
            self._node_path(right)
            return
        if target == "module.exports" or target.startswith(("exports.", "module.exports.")):
            self._value(target, right)
        if target == "module.exports":
            if right.type == "identifier":
                self.exports["default"] = self.text(right)
            elif right.type == "object":
                self._flatten(target, right)
                for key, value in self._fields(right).items():
                    if value is None:
                        self.exports[key] = key
                    elif value.type == "identifier":
                        self.exports[key] = self.text(value)
                    elif f"{target}.{key}" in self.consts or value.type == "object":
                        self.exports[key] = f"{target}.{key}"
        elif target.startswith(("exports.", "module.exports.")):
            name = target.rsplit(".", 1)[1]
            if right.type == "identifier":
                self.exports[name] = self.text(right)
            elif (literal := self._literal(right)) is not None:
                self.consts[target] = literal
                self.exports[name] = target
            elif target in self.functions or target in self.values_read:
                self.exports[name] = target

    def _binds(self, name: str) -> bool:
        """Whether the file binds `name` at its top (an import, a declaration)."""
        return name in self.imports or name in self.values or name in self.bound

    def _node_path(self, value: _Node) -> None:
        """`process.env.NODE_PATH = __dirname` (or `path.join(__dirname, 'src')`, `resolve`):
        the app makes bare imports resolve under that folder (with `Module._initPaths()`)."""
        folder = posixpath.dirname(self.path)
        if value.type == "call_expression":
            callee = value.child_by_field_name("function")
            args = [a for a in (value.child_by_field_name("arguments") or value).named_children]
            if callee is None or self.text(callee).rsplit(".", 1)[-1] not in ("join", "resolve"):
                return
            if not args or self.text(args[0]) != "__dirname":
                return
            parts = [self._literal(a) for a in args[1:]]
            if any(p is None for p in parts):
                return
            folder = posixpath.normpath(posixpath.join(folder, *(p or "" for p in parts)))
        elif value.type != "identifier" or self.text(value) != "__dirname":
            return
        if not folder.startswith(".."):
            self.node_paths.append("" if folder == "." else folder)

    def _export_clause(self, statement: _Node) -> None:
        """`export { A, B as C }`, `export { A } from './m'`, `export default X`."""
        value = statement.child_by_field_name("value")
        if value is not None and value.type == "identifier":
            self.exports["default"] = self.text(value)
        source = self._literal(statement.child_by_field_name("source"), follow=False)
        for clause in (c for c in statement.named_children if c.type == "export_clause"):
            for spec in clause.named_children:
                name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
                if name is not None:
                    local = self.text(alias or name)
                    self.exports[local] = local if source is not None else self.text(name)
                    if source is not None:
                        self.imports[local] = (source, self.text(name))

    def _schema_decls(self) -> tuple[SchemaDecl, ...]:
        decls: list[SchemaDecl] = []
        for local, value in self.values.items():
            schema = self._schema(value)
            if schema is None:
                continue
            args = list((schema.child_by_field_name("arguments") or schema).named_children)
            columns = self._keys(args[0]) if args else ()
            options = self._object(args[1]) if len(args) > 1 else None
            fields = self._fields(options) if options is not None else {}
            collection = self._literal(fields["collection"]) if "collection" in fields else None
            computed = "collection" in fields and collection is None
            decls.append(SchemaDecl(local, collection, computed, columns))
        return tuple(decls)

    def _hit(self, node: _Node, seen: set[int]) -> None:
        """The construct a word found by `_LOOK_AT` belongs to: a call's method or callee, a
        `new` constructor, a decorator's callee or name."""
        parent = node.parent
        if parent is None:
            return
        if parent.type == "member_expression" and _same(
            parent.child_by_field_name("property"), node
        ):
            node, parent = parent, parent.parent
            if parent is None:
                return
        if parent.type == "call_expression" and _same(parent.child_by_field_name("function"), node):
            if parent.parent is not None and parent.parent.type == "decorator":
                self._decorated(parent.parent, seen)
            elif parent.id not in seen:
                seen.add(parent.id)
                self._call(parent)
        elif parent.type == "new_expression" and _same(
            parent.child_by_field_name("constructor"), node
        ):
            if self.typeorm and self.text(node).endswith("EntitySchema"):
                self._entity_schema(parent)
            elif self.sequelize:
                self._new_sequelize(parent)
        elif parent.type == "decorator":
            self._decorated(parent, seen)
        elif parent.type == "pair" and self.typeorm_options:
            if _same(parent.child_by_field_name("key"), node):
                self._entity_prefix(parent)
        elif parent.type in _HERITAGE and self.typeorm_options:
            self._naming_strategy(parent)

    def _entity_prefix(self, pair: _Node) -> None:
        """`entityPrefix: 'app_'` in a TypeORM data source's options: every table's prefix."""
        value = pair.child_by_field_name("value")
        prefix = self._literal(value)
        if prefix is None:
            self._gap(pair, "a TypeORM entityPrefix given by an expression")
            return
        self.prefixes.append((prefix, self._line(pair)))

    def _naming_strategy(self, clause: _Node) -> None:
        """A class extending a TypeORM naming strategy (or implementing its interface) with a
        `tableName` or `joinTableName` of its own: the default names are not the tables."""
        owner: _Node | None = clause
        while owner is not None and owner.type in _HERITAGE:
            owner = owner.parent
        body = owner.child_by_field_name("body") if owner is not None else None
        if body is None:
            return
        for member in body.named_children:
            name = (
                member.child_by_field_name("name") if member.type == "method_definition" else None
            )
            method = self.text(name) if name is not None else ""
            if method in ("tableName", "joinTableName") and all(
                line != self._line(member) for _, line, _ in self.renamers
            ):  # once per class, though it both extends and implements
                recipe = self._recipes(body).read(member)
                self.renamers.append((method, self._line(member), recipe))

    def _recipes(self, body: _Node) -> RecipeReader:
        root = body
        while root.parent is not None:
            root = root.parent
        if self.strategy_reading is None:
            self.strategy_reading = FileReading(self.text, root)
        return RecipeReader(self.text, self.imports, self.consts, root, body, self.strategy_reading)

    def _decorated(self, decorator: _Node, seen: set[int]) -> None:
        owner = decorator.parent
        if owner is not None and owner.type == "export_statement":
            owner = owner.child_by_field_name("declaration")
        if self.typeorm and self._decorator_name(decorator) == "JoinTable":
            self._member_decorated(decorator, seen)
            return
        if owner is None or owner.type not in _CLASSES or owner.id in seen:
            return
        seen.add(owner.id)
        if self.typeorm or self.nest_mongoose or self.sequelize_ts:
            self._entity(owner)

    def _member_decorated(self, decorator: _Node, seen: set[int]) -> None:
        """`@JoinTable(…)` on a member of a class that is no entity (an undecorated base):
        read as the junctions of the entities extending it (`TypeormClass`). An entity's own
        members are read with it; a `@ViewEntity()`'s make no table the scan lists."""
        body = decorator.parent
        if body is not None and body.type != "class_body":
            body = body.parent  # the decorated member
        owner = body.parent if body is not None and body.type == "class_body" else None
        name = owner.child_by_field_name("name") if owner is not None else None
        if owner is None or name is None or owner.type not in _CLASSES or owner.id in seen:
            return
        if any(self._decorator_name(d) in _TYPEORM_CLASSES for d in _class_decorators(owner)):
            return
        seen.add(owner.id)
        model = self.text(name)
        self.classes.append(TypeormClass(model, self._base_class(owner), PLAIN))
        self._join_tables(owner, model)

    # helpers

    def text(self, node: _Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def _bind(self, node: _Node) -> None:
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None or name.type != "identifier":
            return
        self.values.setdefault(self.text(name), value)
        if value.type != "object":
            self.bound.add(self.text(name))
            self._value(self.text(name), value)
        literal = self._literal(value, follow=False)
        if literal is not None:
            self.consts.setdefault(self.text(name), literal)
        elif (obj := self._object(value)) is not None:  # `{ … }`, `{ … } as const`
            self._flatten(self.text(name), obj)

    def _flatten(self, prefix: str, obj: _Node, depth: int = 0) -> None:
        """The string members of an object literal, nested ones too, as `prefix.key`."""
        self.objects.add(prefix)
        for key, value in self._fields(obj).items():
            if value is None or key.startswith("...") or depth > 4:
                continue
            literal = self._literal(value)
            if literal is not None:
                self.consts.setdefault(f"{prefix}.{key}", literal)
            elif value.type in ("true", "false"):
                self.flags.setdefault(f"{prefix}.{key}", value.type == "true")
            elif (inner := self._object(value)) is not None:
                self._flatten(f"{prefix}.{key}", inner, depth + 1)

    def _enum(self, statement: _Node) -> None:
        """A TypeScript `enum E { A = 'a' }`: its string members as `E.A`."""
        name, body = statement.child_by_field_name("name"), statement.child_by_field_name("body")
        if name is None or body is None:
            return
        self.bound.add(self.text(name))
        for member in body.named_children:
            key, value = member.child_by_field_name("name"), member.child_by_field_name("value")
            literal = self._literal(value) if member.type == "enum_assignment" else None
            if key is not None and literal is not None:
                self.consts.setdefault(f"{self.text(name)}.{self._key(key)}", literal)

    def _key(self, key: _Node) -> str:
        return (self._literal(key, follow=False) if key.type == "string" else None) or self.text(
            key
        )

    def _dotted(self, node: _Node) -> list[str] | None:
        """`A.b.c` (and `A['b']`) as its names, None for anything else."""
        parts: list[str] = []
        while True:
            while node.type in _TRANSPARENT and node.named_children:
                node = node.named_children[0]
            if node.type == "identifier":
                return [self.text(node), *reversed(parts)]
            if node.type == "member_expression":
                prop, owner = (
                    node.child_by_field_name("property"),
                    node.child_by_field_name("object"),
                )
                if prop is None or owner is None:
                    return None
                parts.append(self.text(prop))
            elif node.type == "subscript_expression":
                index, owner = node.child_by_field_name("index"), node.child_by_field_name("object")
                key = self._literal(index, follow=False) if index is not None else None
                if key is None or owner is None:
                    return None
                parts.append(key)
            else:
                return None
            node = owner

    def _name(self, node: _Node | None) -> str | NameRef | None:
        """A table name: its value when the file knows it (`_literal`), else what it is
        imported as (`NameRef`: a constant, an enum member or an object's member of another
        module), else None."""
        literal = self._literal(node)
        if literal is not None or node is None:
            return literal
        dotted = self._dotted(node)
        if dotted is None or dotted[0] not in self.imports or dotted[0] in self.consts:
            return None
        module, name = self.imports[dotted[0]]
        attrs = tuple(dotted[1:])
        if name == "*":  # `import * as T from …`: `T.Users` is the module's `Users`
            if not attrs:
                return None
            name, attrs = attrs[0], attrs[1:]
        return NameRef(module, name, attrs)

    def _literal(self, node: _Node | None, *, follow: bool = True) -> str | None:
        """A string's value: a literal, a template without substitutions, or (with `follow`)
        an identifier bound to one at the file's top."""
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return None
        if node.type == "string":
            return "".join(
                self.text(part) for part in node.named_children if part.type == "string_fragment"
            )
        if node.type == "template_string":
            if any(part.type == "template_substitution" for part in node.named_children):
                return None
            return self.text(node)[1:-1]
        if follow and node.type in ("identifier", "member_expression", "subscript_expression"):
            dotted = self._dotted(node)
            return self.consts.get(".".join(dotted)) if dotted is not None else None
        return None

    def _line(self, node: _Node) -> int:
        return node.start_point.row + 1

    def _gap(self, node: _Node, detail: str) -> None:
        self.gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, self.path, self._line(node)))

    def _object(self, node: _Node | None) -> _Node | None:
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is not None and node.type == "identifier":
            node = self.values.get(self.text(node))
        return node if node is not None and node.type == "object" else None

    def _fields(self, obj: _Node, depth: int = 0) -> dict[str, _Node | None]:
        """An object literal's keys (`{ a: 1, b }`: a shorthand maps to None), a later key
        over an earlier one as JavaScript spreads them; a spread of a top-level `const` object
        of the file adds that object's keys, any other spread the key `...`."""
        fields: dict[str, _Node | None] = {}
        for child in obj.named_children:
            if child.type == "pair":
                key = child.child_by_field_name("key")
                if key is None:
                    continue
                name = self._literal(key, follow=False) if key.type == "string" else self.text(key)
                if name is not None:
                    fields[name] = child.child_by_field_name("value")
            elif child.type == "shorthand_property_identifier":
                fields[self.text(child)] = None
            elif child.type == "spread_element":
                spread = child.named_children[0] if child.named_children else None
                source = self._object(spread) if spread is not None else None
                if (
                    source is not None
                    and spread is not None
                    and spread.type == "identifier"
                    and depth < 8
                ):
                    fields.update(self._fields(source, depth + 1))
                else:
                    fields["..."] = spread
                    if "tableName" in fields:  # `{ tableName: 't', ...other }`: it may win
                        fields[_OVERRIDABLE] = spread
        return fields

    def _merged(self, node: _Node | None, depth: int = 0) -> dict[str, _Node | None] | None:
        """Options built by a merging call (`_MERGERS`): lodash's `merge`/`assign`/`extend`
        (`_.merge`, `merge` imported from `lodash`, `lodash/merge`, `lodash.merge`, …) and
        `Object.assign`, where a later source wins; lodash's `defaults`/`defaultsDeep`, where an
        earlier one wins. Sources are object literals, the file's top-level objects and
        nested merges; any other source is unknown (`...`), and a `tableName` it could
        replace is marked `_OVERRIDABLE`. None: not a merging call."""
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is not None and node.type == "identifier" and depth < 8:
            node = self.values.get(self.text(node))
        if node is None or node.type != "call_expression" or depth >= 8:
            return None
        later_wins = self._merger(node.child_by_field_name("function"))
        arguments = node.child_by_field_name("arguments")
        if later_wins is None or arguments is None:
            return None
        fields: dict[str, _Node | None] = {}
        for source in (a for a in arguments.named_children if a.type != "comment"):
            obj = self._object(source)
            inner = self._fields(obj, depth + 1) if obj is not None else None
            if inner is None:
                inner = self._merged(source, depth + 1)
            if inner is None:  # unknown: could hold any key
                if later_wins and "tableName" in fields:
                    fields[_OVERRIDABLE] = source
                fields.setdefault("...", source)
                continue
            if later_wins and "tableName" in inner:
                fields.pop(_OVERRIDABLE, None)  # a known later name wins over the unknown
            for key, value in inner.items():
                if later_wins or key not in fields:
                    fields[key] = value
            if "tableName" in inner and not later_wins and "..." in fields:
                fields.setdefault(_OVERRIDABLE, fields["..."])  # an earlier unknown wins
        return fields

    def _merger(self, callee: _Node | None) -> bool | None:
        """Whether a callee merges objects with the later source winning (True), the earlier
        (False), or is no merging function the reader knows (None)."""
        if callee is None:
            return None
        if callee.type == "member_expression":
            owner, prop = (
                callee.child_by_field_name("object"),
                callee.child_by_field_name("property"),
            )
            if owner is None or prop is None:
                return None
            method = self.text(prop)
            if self.text(owner) == "Object":
                return True if method == "assign" else None
            module = self.imports.get(self.text(owner), ("", ""))[0]
            if owner.type != "identifier" or module not in _MERGE_MODULES:
                return None
        elif callee.type == "identifier":
            module, method = self.imports.get(self.text(callee), ("", ""))
            if module.split("/")[0].split(".")[0] not in _MERGE_MODULES:
                return None
            if method in ("default", "*"):  # `import merge from 'lodash/merge'`, `lodash.merge`
                method = module.replace("/", ".").rsplit(".", 1)[-1]
        else:
            return None
        return _MERGERS.get(method)

    def _keys(self, node: _Node | None) -> tuple[str, ...]:
        obj = self._object(node)
        fields = self._fields(obj) if obj is not None else {}
        return tuple(k for k in fields if not k.startswith("..."))

    def _bool(self, node: _Node | None) -> bool | None:
        if node is None:
            return None
        return {"true": True, "false": False}.get(node.type)

    # calls

    def _call(self, node: _Node) -> None:
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if callee is None or arguments is None:
            return
        args = [a for a in arguments.named_children if a.type != "comment"]
        if callee.type == "member_expression":
            prop = callee.child_by_field_name("property")
            owner = callee.child_by_field_name("object")
            method = self.text(prop) if prop is not None else ""
        elif callee.type == "identifier":
            owner, method = None, self.text(callee)
        else:
            return
        if self.sequelize and method == "define" and owner is not None and len(args) >= 2:
            self._define(node, args)
        elif self.sequelize and method == "init" and owner is not None and len(args) >= 2:
            self._init(node, owner, args)
        elif self.knex and owner is not None and method in _KNEX_OPS:
            self._knex(node, owner, method, args)
        elif self.knex_raw and method == "raw" and owner is not None and args:
            self._knex_raw(node, args[0])
        elif self.bookshelf and self._bookshelf_model(node, owner, method, args):
            if self.mongoose and method == "model":  # a Mongoose connection's, maybe
                self._mongoose_model(node, args)
        elif self.mongoose and method == "model" and len(args) >= 2:
            self._mongoose_model(node, args)
        elif (method == "Entity" and self.typeorm) or (method == "Table" and self.sequelize_ts):
            self._decorator_factory(node, method)
        elif self.mongoose and method == "pluralize" and args and args[0].type == "null":
            self.unpluralized = True
        elif self.typegoose and (method in js_typegoose.MAKERS or method == "forFeature"):
            self.typegoose_models += js_typegoose.models(self, node, method, owner)

    def _bookshelf_model(
        self, node: _Node, owner: _Node | None, method: str, args: list[_Node]
    ) -> bool:
        """`x.model('Name', { tableName })` (a registration; one argument looks a model up)
        or `x.Model.extend({ tableName })`: a Bookshelf model when `x` is an instance, which
        the linker settles. False where the call has neither shape (another ORM's `model()`)."""
        if owner is None:
            return False
        receiver: _Node | None
        if method == "model" and len(args) >= 2 and (options := self._object(args[1])):
            receiver, model = owner, self._literal(args[0])
        elif method == "extend" and args and (options := self._object(args[0])):
            if owner.type != "member_expression" or not self.text(owner).endswith(".Model"):
                return False
            receiver, model = owner.child_by_field_name("object"), None
        else:
            return False
        if receiver is not None and self._is_bookshelf(receiver):
            receiver_name = ""  # an instance made there: `require('bookshelf')(knex).model(…)`
        elif receiver is not None and receiver.type == "identifier":
            receiver_name = self.text(receiver)
        else:
            return False
        if model is None and method == "model":
            model = self.text(args[0])[:60]
        fields = self._fields(options)
        value = fields.get("tableName")
        table, ref = _split(self._name(value) if value is not None else None)
        detail = ""
        if table is None:
            detail = (
                f"a Bookshelf model's tableName given by an expression ({self.text(value)[:60]})"
                if value is not None
                else "a Bookshelf model whose options hold no tableName the reader sees"
                + (" (options spread from elsewhere)" if "..." in fields else "")
            )
        model_line = self._line(node)
        self.bookshelf_models.append(
            BookshelfModel(receiver_name, model, model_line, table, ref, detail)
        )
        return True

    def _decorator_factory(self, node: _Node, method: str) -> None:
        """`Entity(…)` / `Table(…)` called, not written as a decorator, inside a function: a
        decorator of the repository's own (`@Model('users')` returning `Entity(…)`) whose
        classes the reader does not follow; a finding at the call, never silence."""
        parent = node.parent
        while parent is not None and parent.type not in _FUNCTIONS:
            parent = parent.parent
        if parent is None:
            return
        orm = "TypeORM" if method == "Entity" else "sequelize-typescript"
        self._gap(
            node,
            f"{orm} {method}() called by a function of the repository's own (a decorator "
            "factory): the classes it decorates are not read",
        )

    def _define(self, node: _Node, args: list[_Node]) -> None:
        attrs = self._object(args[1])
        if attrs is None and (args[1].type != "identifier" or self.text(args[1]) in self.bound):
            return  # `customElements.define('x-el', Card)`: not a model's attributes
        name = self._literal(args[0])
        if name is None:
            self._gap(node, "a Sequelize define() names its model with an expression")
            return
        options = self._object(args[2]) if len(args) > 2 else None
        merged = self._merged(args[2]) if len(args) > 2 and options is None else None
        self._sequelize_model(node, name, args[1], options, len(args) > 2, merged=merged)

    def _init(self, node: _Node, owner: _Node, args: list[_Node]) -> None:
        options = self._object(args[1])
        merged = self._merged(args[1]) if options is None else None
        if options is None and merged is None:
            return
        fields = self._fields(options) if options is not None else merged or {}
        if "sequelize" not in fields:
            return  # not a Sequelize model's init
        if "modelName" in fields:
            name = self._literal(fields["modelName"])
        elif owner.type == "identifier":
            name = self.text(owner)
        elif owner.type in ("this", "super"):  # `super.init(…)` in `static init()` of a model
            name = self._enclosing_class(node)
        else:
            name = None
        if name is None:
            self._gap(node, "a Sequelize init() whose model name is computed")
            return
        self._sequelize_model(node, name, args[0], options, True, merged=merged)

    def _sequelize_model(
        self,
        node: _Node,
        name: str,
        attrs: _Node | None,
        options: _Node | None,
        has_options: bool,
        columns: tuple[str, ...] = (),
        *,
        merged: dict[str, _Node | None] | None = None,
    ) -> None:
        table: str | None = None
        table_ref: NameRef | None = None
        freeze = underscored = underscored_all = None
        if options is not None or merged is not None:
            fields = self._fields(options) if options is not None else merged or {}
            if "tableName" in fields:
                table, table_ref = _split(self._name(fields["tableName"]))
                if table is None:
                    self._gap(node, "a Sequelize tableName given by an expression")
                    return
                if (over := fields.get(_OVERRIDABLE)) is not None:
                    self._gap(
                        node,
                        f"Sequelize tableName {table or 'imported'!r} merged with "
                        f"{self.text(over)[:60]}, which the files do not show and which "
                        "could replace it",
                    )
            freeze = self._bool(fields.get("freezeTableName"))
            underscored = self._bool(fields.get("underscored"))
            underscored_all = self._bool(fields.get("underscoredAll"))
            if "..." in fields and table is None:
                source = fields["..."]
                whence = f" ({self.text(source)[:60]})" if source is not None else ""
                self._gap(node, f"Sequelize model options spread or merged from elsewhere{whence}")
                return
        elif has_options:
            self._gap(node, "Sequelize model options given by an expression")
            return
        self.models.append(
            SequelizeModel(
                name,
                self._line(node),
                columns or self._keys(attrs),
                table,
                freeze,
                underscored,
                table_ref,
                underscored_all,
            )
        )

    def _new_sequelize(self, node: _Node) -> None:
        constructor = node.child_by_field_name("constructor")
        arguments = node.child_by_field_name("arguments")
        if (
            constructor is None
            or arguments is None
            or not self.text(constructor).endswith("Sequelize")
        ):
            return
        args = [a for a in arguments.named_children if a.type != "comment"]
        at = _OPTIONS_AT.get(len(args))
        if at is not None and self._object(args[at]) is None:
            self._options_value(node, args[at], guessed=len(args) == 1)
        for arg in args:
            options = self._object(arg)
            if options is None:
                continue
            given = self._fields(options)
            define = self._object(given.get("define"))
            if "define" not in given and "..." in given:
                spread = given["..."]
                ref = self._name(spread) if spread is not None else None
                self.defaults.append(
                    SequelizeDefaults(
                        None,
                        None,
                        out_of_sight=self._line(node),
                        spread=ref if isinstance(ref, NameRef) else None,
                    )
                )
            if define is not None:
                fields = self._fields(define)
                self.defaults.append(
                    SequelizeDefaults(
                        self._bool(fields.get("freezeTableName")),
                        self._bool(fields.get("underscored")),
                        self._bool(fields.get("underscoredAll")),
                    )
                )

    def _options_value(self, node: _Node, arg: _Node, *, guessed: bool) -> None:
        """Options given by an expression (`config`, `getConfig()`, `cfg[env]`): evaluated at
        link time (`js_values`). A lone argument may be a URL: only an object it comes to is
        read as options (`guessed`)."""
        if arg.type in ("string", "template_string", "null", "undefined", "number"):
            return
        val = self.vals.value(arg)
        if val.kind == "str" or self.text(arg).startswith("process.env."):
            return
        self.defaults.append(
            SequelizeDefaults(
                None,
                None,
                out_of_sight=None if guessed else self._line(node),
                options=val,
                options_text=self.text(arg)[:60],
                options_line=self._line(node),
            )
        )

    def _enclosing_class(self, node: _Node) -> str | None:
        parent = node.parent
        while parent is not None:
            if parent.type in _CLASSES:
                name = parent.child_by_field_name("name")
                return self.text(name) if name is not None else None
            parent = parent.parent
        return None

    # knex

    def _knex(self, node: _Node, owner: _Node, method: str, args: list[_Node]) -> None:
        if not self._on_schema(owner) or self._in_down(node):
            return
        op = _KNEX_OPS[method]
        if not args:
            return
        callee = node.child_by_field_name("function")
        prop = callee.child_by_field_name("property") if callee is not None else None
        at = prop if prop is not None else node  # a chain's call starts where the chain does
        name, ref = _split(self._name(args[0]))
        if name is None:
            self._gap(at, f"a knex {method}() names its table with an expression")
            return
        if op == "rename":
            new_name, new_ref = _split(self._name(args[1]) if len(args) > 1 else None)
            if new_name is None:
                self._gap(at, "a knex renameTable() to a name given by an expression")
                return
            self.knex_ops.append(
                KnexOp("rename", name, self._line(at), new_name=new_name, ref=ref, new_ref=new_ref)
            )
        elif op == "create":
            columns, refs = self._knex_columns(args[1]) if len(args) > 1 else ((), ())
            self.knex_ops.append(
                KnexOp("create", name, self._line(at), columns, ref=ref, column_refs=refs)
            )
        else:
            self.knex_ops.append(KnexOp("drop", name, self._line(at), ref=ref))

    def _on_schema(self, owner: _Node) -> bool:
        """Whether a call is made on a knex schema builder: `….schema`, `schema`, or a chain
        of schema calls (`knex.schema.createTable(…).createTable(…)`, `withSchema(…)`)."""
        node: _Node | None = owner
        while node is not None:
            if node.type in ("identifier", "property_identifier") and self.text(node) == "schema":
                return True
            if node.type == "member_expression":
                prop = node.child_by_field_name("property")
                if prop is not None and self.text(prop) == "schema":
                    return True
                node = node.child_by_field_name("object")
            elif node.type == "call_expression":
                node = node.child_by_field_name("function")
            elif node.type in _TRANSPARENT:
                node = node.named_children[0] if node.named_children else None
            else:
                return False
        return False

    def _knex_raw(self, node: _Node, sql: _Node) -> None:
        """`knex.raw('CREATE TABLE …')` (also `DROP TABLE`, `ALTER TABLE … RENAME TO`) in a
        migration's `up`: the tables its SQL creates, drops and renames, statement by
        statement. SQL with a `${}` part that names a table is a finding."""
        if not self._in_function(node, "up"):
            return
        text = self._literal(sql, follow=True)
        if text is None:
            if sql.type == "template_string" and _RAW_DDL.search(
                self.data, sql.start_byte, sql.end_byte
            ):
                self._gap(node, "a knex raw() DDL statement built with ${} parts")
            return
        line = self._line(node)
        for statement in re.sub(r"--[^\n]*", "", text).split(";"):
            for kind, name, new_name in _ddl(statement):
                self.knex_ops.append(KnexOp(kind, name, line, new_name=new_name))

    def _in_function(self, node: _Node, wanted: str) -> bool:
        parent = node.parent
        while parent is not None:
            if parent.type in _FUNCTIONS and _function_name(parent, self) == wanted:
                return True
            parent = parent.parent
        return False

    def _in_down(self, node: _Node) -> bool:
        """Whether the call is in a migration's `down` (it undoes `up`: not the schema)."""
        parent = node.parent
        while parent is not None:
            if parent.type in _FUNCTIONS:
                name = _function_name(parent, self)
                if name == "down":
                    return True
            parent = parent.parent
        return False

    def _knex_columns(self, callback: _Node) -> tuple[tuple[str, ...], tuple[NameRef, ...]]:
        """The columns a `createTable` callback adds: their names, and those named by
        constants of other modules (`t.string(Fields.email)`), settled at link time."""
        if callback.type not in ("arrow_function", "function_expression", "function"):
            return (), ()
        parameters = callback.child_by_field_name("parameters")
        parameter = callback.child_by_field_name("parameter")
        if parameter is None and parameters is not None and parameters.named_children:
            parameter = parameters.named_children[0]
            if parameter.type in ("required_parameter", "optional_parameter"):
                parameter = parameter.child_by_field_name("pattern")
        if parameter is None or parameter.type != "identifier":
            return (), ()
        table = self.text(parameter)
        columns: list[str] = []
        refs: list[NameRef] = []
        for node in _walk(callback):
            if node.type != "call_expression":
                continue
            callee = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if callee is None or callee.type != "member_expression" or arguments is None:
                continue
            owner, prop = (
                callee.child_by_field_name("object"),
                callee.child_by_field_name("property"),
            )
            if owner is None or prop is None or self.text(owner) != table:
                continue
            method = self.text(prop)
            if method in _KNEX_NOT_COLUMNS:
                continue
            if method == "timestamps":
                columns += ["created_at", "updated_at"]
                continue
            first = arguments.named_children[0] if arguments.named_children else None
            column = self._name(first)
            if isinstance(column, NameRef):
                refs.append(column)
            elif column is not None:
                columns.append(column)
        return tuple(dict.fromkeys(columns)), tuple(dict.fromkeys(refs))

    # Mongoose

    def _mongoose_model(self, node: _Node, args: list[_Node]) -> None:
        name, name_ref = _split(self._name(args[0]))
        explicit, explicit_ref = _split(self._name(args[2]) if len(args) > 2 else None)
        if len(args) > 2 and explicit is None and args[2].type not in ("undefined", "null"):
            if not self.made.template(node, args[2], explicit=True):
                self._gap(node, "a Mongoose model() names its collection with an expression")
            return
        if name is None and explicit is None:
            if not self.made.template(node, args[0], explicit=False):
                self._gap(node, "a Mongoose model() names its model with an expression")
            return
        if explicit_ref is not None or (explicit is None and name_ref is not None):
            ref = explicit_ref or name_ref
            orm = "mongoose" if explicit_ref is not None else "mongoose-plural"
            line = self._line(node)
            self.claims.append(Claim("collection", "", line, "", orm, (), ref=ref))
            return
        schema = self._schema(args[1])
        columns: tuple[str, ...] = ()
        collection = explicit
        if schema is not None:
            schema_args = [
                a for a in (schema.child_by_field_name("arguments") or schema).named_children
            ]
            columns = self._keys(schema_args[0]) if schema_args else ()
            options = self._object(schema_args[1]) if len(schema_args) > 1 else None
            if collection is None and options is not None:
                fields = self._fields(options)
                if "collection" in fields:
                    collection = self._literal(fields["collection"])
                    if collection is None:
                        self._gap(node, "a Mongoose schema's collection option is an expression")
                        return
        model = name or ""
        orm = "mongoose" if collection is not None else "mongoose-plural"
        imported = self._imported_schema(args[1]) if schema is None and explicit is None else None
        self.claims.append(
            Claim(
                "collection", collection or model, self._line(node), model, orm, columns, imported
            )
        )

    def _imported_schema(self, node: _Node) -> tuple[str, str] | None:
        """The (module, name) a schema argument is imported as: `S`, `m.S` for an imported `S`
        or module `m`, a relative module only (a package's schema is no model of the app)."""
        while node.type in _TRANSPARENT and node.named_children:
            node = node.named_children[0]
        found: tuple[str, str] | None = None
        if node.type == "identifier":
            found = self.imports.get(self.text(node))
        elif node.type == "member_expression":
            owner, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if owner is not None and prop is not None and owner.type == "identifier":
                module = self.imports.get(self.text(owner))
                if module is not None and module[1] in ("default", "*"):
                    found = (module[0], self.text(prop))
        return found if found is not None and found[0].startswith(".") else None

    def _schema(self, node: _Node) -> _Node | None:
        """The `new Schema(…)` a model's schema argument is, directly or through a `const`."""
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0]
        if node.type == "identifier":
            bound = self.values.get(self.text(node))
            if bound is None:
                return None
            node = bound
        if node.type in ("new_expression", "call_expression"):  # `Schema(…)` works without `new`
            field = "constructor" if node.type == "new_expression" else "function"
            constructor = node.child_by_field_name(field)
            if constructor is not None and self.text(constructor).endswith("Schema"):
                return node
        return None

    # TypeORM

    def _entity(self, node: _Node) -> None:
        for decorator in _class_decorators(node):
            expression = decorator.named_children[0] if decorator.named_children else None
            if expression is None:
                continue
            arguments: list[_Node] = []
            if expression.type == "call_expression":
                callee = expression.child_by_field_name("function")
                args = expression.child_by_field_name("arguments")
                arguments = [a for a in args.named_children if a.type != "comment"] if args else []
            else:
                callee = expression
            class_name = node.child_by_field_name("name")
            model = self.text(class_name) if class_name is not None else ""
            if callee is not None and self.nest_mongoose and self.text(callee) == "Schema":
                self._nest_schema(decorator, node, model, arguments)
                return
            if callee is not None and self.sequelize_ts and self.text(callee) == "Table":
                self._sequelize_table(decorator, node, model, arguments)
                return
            if callee is not None and self.typeorm and self.text(callee) in _CHILD_ENTITY:
                self.classes.append(TypeormClass(model, self._base_class(node), CHILD))
                self._join_tables(node, model)
                return
            if callee is None or not self.typeorm or self.text(callee) not in _ENTITY:
                continue
            table: str | NameRef | None
            default = True  # named by the naming strategy, from the class
            if not arguments:
                table = snake_case(model) if model else None
            elif (options := self._object(arguments[0])) is not None:
                fields = self._fields(options)
                if "name" in fields:
                    table, default = self._name(fields["name"]), False
                elif "..." in fields:
                    table = None
                else:
                    table = snake_case(model) if model else None
            else:
                table, default = self._name(arguments[0]), False
            name, ref = _split(table)
            if name is None:
                self._gap(decorator, "a TypeORM @Entity() whose table name is computed")
                return
            self.claims.append(
                Claim(
                    "table",
                    name,
                    self._line(decorator),
                    model,
                    "typeorm-default" if default else "typeorm",
                    self._entity_columns(node),
                    ref=ref,
                )
            )
            self.classes.append(TypeormClass(model, self._base_class(node), ENTITY))
            self._join_tables(node, model)
            return

    def _base_class(self, node: _Node) -> str | None:
        """The class a class declaration extends, by its name (`extends Base<T>` is `Base`);
        None for none, or one that is no plain name (`extends mixin(Base)`)."""
        heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
        if heritage is None:
            return None
        # TypeScript's grammar holds an `extends_clause` there, JavaScript's the expression
        extends = next((c for c in heritage.named_children if c.type == "extends_clause"), heritage)
        value = next((c for c in extends.named_children if c.type != "type_arguments"), None)
        return self.text(value) if value is not None and value.type == "identifier" else None

    def _entity_schema(self, node: _Node) -> None:
        """TypeORM's `new EntitySchema({ name, tableName, columns })` (entities without
        classes): `tableName`, else the naming strategy's name for `name` (snake_case)."""
        arguments = node.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        options = self._object(args[0]) if args else None
        fields = self._fields(options) if options is not None else {}
        name = self._literal(fields.get("name")) if "name" in fields else None
        table = self._literal(fields.get("tableName")) if "tableName" in fields else None
        if table is None and ("tableName" in fields or name is None):
            self._gap(node, "a TypeORM EntitySchema whose table name is computed")
            return
        columns = self._keys(fields.get("columns"))
        relations = self._object(fields.get("relations"))
        for member, relation in self._fields(relations).items() if relations is not None else ():
            options = self._object(relation)
            given = self._fields(options) if options is not None else {}
            if options is None or "joinTable" not in given:
                continue
            join = given["joinTable"]  # `true`, or `{ name }`
            join_options = self._object(join)
            join_fields = self._fields(join_options) if join_options is not None else {}
            explicit = self._literal(join_fields["name"]) if "name" in join_fields else None
            computed = ("name" in join_fields and explicit is None) or (
                join is not None and join.type != "true" and join_options is None
            )
            target = self._literal(given.get("target")) if "target" in given else None
            self.joins.append(
                JoinSide(name or "", member, target, explicit, computed, self._line(options))
            )
        orm = "typeorm" if table is not None else "typeorm-default"
        self.claims.append(
            Claim(
                "table", table or snake_case(name or ""), self._line(node), name or "", orm, columns
            )
        )

    def _join_tables(self, node: _Node, owner: str) -> None:
        """The `@ManyToMany(…)` members of an entity that carry `@JoinTable(…)`."""
        body = node.child_by_field_name("body")
        if body is None:
            return
        pending: list[_Node] = []  # decorators written before the member they decorate
        for member in body.named_children:
            if member.type == "decorator":
                pending.append(member)
                continue
            decorators = [*pending, *(c for c in member.children if c.type == "decorator")]
            pending = []
            if member.type not in ("public_field_definition", "field_definition"):
                continue
            by_name = {self._decorator_name(d): d for d in decorators}
            if "ManyToMany" not in by_name or "JoinTable" not in by_name:
                continue
            name = member.child_by_field_name("name") or member.child_by_field_name("property")
            if name is None:
                continue
            target = self._relation_target(by_name["ManyToMany"])
            table, computed = None, False
            args = self._decorator_args(by_name["JoinTable"])
            options = self._object(args[0]) if args else None
            if args and options is None:
                computed = True
            elif options is not None and "name" in (fields := self._fields(options)):
                table = self._literal(fields["name"])
                computed = table is None
            line = self._line(by_name["JoinTable"])
            self.joins.append(JoinSide(owner, self.text(name), target, table, computed, line))

    def _decorator_name(self, decorator: _Node) -> str:
        expression = decorator.named_children[0] if decorator.named_children else None
        if expression is not None and expression.type == "call_expression":
            expression = expression.child_by_field_name("function")
        return self.text(expression).rsplit(".", 1)[-1] if expression is not None else ""

    def _decorator_args(self, decorator: _Node) -> list[_Node]:
        expression = decorator.named_children[0] if decorator.named_children else None
        if expression is None or expression.type != "call_expression":
            return []
        args = expression.child_by_field_name("arguments")
        return [a for a in args.named_children if a.type != "comment"] if args else []

    def _relation_target(self, decorator: _Node) -> str | None:
        """`@ManyToMany(() => Tag)`, `@ManyToMany((type) => Tag, …)`, `@ManyToMany('Tag')`."""
        args = self._decorator_args(decorator)
        if not args:
            return None
        first = args[0]
        if first.type == "arrow_function":
            first = first.child_by_field_name("body") or first
        while first.type in _TRANSPARENT and first.named_children:
            first = first.named_children[0]
        if first.type == "identifier":
            return self.text(first)
        return self._literal(first, follow=False)

    def _sequelize_table(
        self, decorator: _Node, node: _Node, model: str, args: list[_Node]
    ) -> None:
        """`sequelize-typescript`'s `@Table` / `@Table({ … })`: its options go to `Model.init`,
        so the table is named as Sequelize names it (`modelName` else the class)."""
        options = self._object(args[0]) if args else None
        if args and options is None:
            self._gap(decorator, "sequelize-typescript @Table() options given by an expression")
            return
        if options is not None and "modelName" in (fields := self._fields(options)):
            named = self._literal(fields["modelName"])
            if named is None:
                self._gap(decorator, "a sequelize-typescript modelName given by an expression")
                return
            model = named
        columns = self._entity_columns(node)
        self._sequelize_model(decorator, model, None, options, bool(args), columns)

    def _nest_schema(self, decorator: _Node, node: _Node, model: str, args: list[_Node]) -> None:
        """`@nestjs/mongoose`'s `@Schema({ collection })` class: registered by
        `MongooseModule.forFeature([{ name: X.name, schema }])`, so its model is the class's
        name and its collection Mongoose's plural of it unless the option names one."""
        options = self._object(args[0]) if args else None
        collection: str | None = None
        if options is not None and "collection" in (fields := self._fields(options)):
            collection = self._literal(fields["collection"])
            if collection is None:
                self._gap(
                    decorator, "a NestJS Mongoose @Schema() collection option is an expression"
                )
                return
        elif args and options is None:
            self._gap(decorator, "NestJS Mongoose @Schema() options given by an expression")
            return
        columns = self._entity_columns(node, "Prop")
        orm = "mongoose" if collection is not None else "mongoose-plural"
        line = self._line(decorator)
        self.claims.append(Claim("collection", collection or model, line, model, orm, columns))

    def _entity_columns(self, node: _Node, suffix: str = "Column") -> tuple[str, ...]:
        body = node.child_by_field_name("body")
        if body is None:
            return ()
        columns: list[str] = []
        pending = False  # a decorator ending in `Column` seen before the member it decorates
        for member in body.named_children:
            if member.type == "decorator":
                pending = pending or self._column_decorator(member, suffix)
                continue
            if member.type in ("public_field_definition", "field_definition"):
                own = any(
                    self._column_decorator(c, suffix)
                    for c in member.children
                    if c.type == "decorator"
                )
                if own or pending:
                    name = member.child_by_field_name("name") or member.child_by_field_name(
                        "property"
                    )
                    if name is not None:
                        columns.append(self._column_name(member) or self.text(name))
            pending = False
        return tuple(columns)

    def _column_decorator(self, decorator: _Node, suffix: str) -> bool:
        expression = decorator.named_children[0] if decorator.named_children else None
        if expression is not None and expression.type == "call_expression":
            expression = expression.child_by_field_name("function")
        return expression is not None and self.text(expression).endswith(suffix)

    def _column_name(self, member: _Node) -> str | None:
        for decorator in (c for c in member.children if c.type == "decorator"):
            expression = decorator.named_children[0] if decorator.named_children else None
            if expression is None or expression.type != "call_expression":
                continue
            args = expression.child_by_field_name("arguments")
            for arg in args.named_children if args else ():
                options = self._object(arg)
                if options is not None and "name" in (fields := self._fields(options)):
                    return self._literal(fields["name"])
        return None


_SQL_NAME = r"""(?:["`\[]?[\w$]+["`\]]?\.)?["`\[]?([\w$]+)["`\]]?"""
_SQL_CREATE = re.compile(
    r"(?is)^\s*create\s+(?:(?:global\s+|local\s+)?(temporary|temp)\s+|unlogged\s+)?table\s+"
    r"(?:if\s+not\s+exists\s+)?" + _SQL_NAME
)
_SQL_DROP = re.compile(
    r"(?is)^\s*drop\s+table\s+(?:if\s+exists\s+)?(.*?)\s*(?:cascade|restrict)?\s*$"
)
_SQL_RENAME = re.compile(
    r"(?is)^\s*alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?"
    + _SQL_NAME
    + r"\s+rename\s+to\s+"
    + _SQL_NAME
)


def _ddl(statement: str) -> list[tuple[str, str, str]]:
    """One SQL statement's effect on the tables: (`create`|`drop`|`rename`, table, new name)
    for each table it names; a temporary table is none."""
    if (match := _SQL_CREATE.match(statement)) is not None:
        return [] if match.group(1) else [("create", match.group(2), "")]
    if (match := _SQL_RENAME.match(statement)) is not None:
        return [("rename", match.group(1), match.group(2))]
    if (match := _SQL_DROP.match(statement)) is not None:
        names = (
            re.sub(r"""^(?:.*\.)?["`\[]?|["`\]]$""", "", n.strip())
            for n in match.group(1).split(",")
        )
        return [("drop", name, "") for name in names if name]
    return []


_ENTITY = frozenset({"Entity", "typeorm.Entity"})
_CHILD_ENTITY = frozenset({"ChildEntity", "typeorm.ChildEntity"})
_TYPEORM_CLASSES = frozenset({"Entity", "ChildEntity", "ViewEntity"})  # decorators' last names


def _class_decorators(node: _Node) -> list[_Node]:
    """A class's decorators, those written before its `export` too."""
    decorators = [c for c in node.children if c.type == "decorator"]
    if node.parent is not None and node.parent.type == "export_statement":
        decorators += [c for c in node.parent.children if c.type == "decorator"]
    return decorators


_HERITAGE = frozenset({"class_heritage", "extends_clause", "implements_clause"})
_OPTIONS_AT = {1: 0, 2: 1, 4: 3}
"""Where `new Sequelize(…)` takes its options, by its number of arguments: `(options)`,
`(uri, options)`, `(database, username, password, options)`; `(database, username, password)`
takes none."""
_KNEX_OPS = {
    "createTable": "create",
    "createTableIfNotExists": "create",
    "dropTable": "drop",
    "dropTableIfExists": "drop",
    "renameTable": "rename",
}
_KNEX_NOT_COLUMNS = frozenset(
    {"index", "unique", "primary", "foreign", "references", "inTable", "onDelete", "onUpdate",
     "dropColumn", "dropColumns", "renameColumn", "dropForeign", "dropIndex", "dropUnique",
     "dropPrimary", "comment", "engine", "charset", "collate", "inherits", "check", "setNullable",
     "dropNullable", "dropTimestamps", "raw"}
)  # fmt: skip


def _function_name(function: _Node, reader: _Reader) -> str | None:
    """A function's name: its own, or what it is assigned to (`exports.down = …`,
    `down: async (knex) => …`, `const down = …`)."""
    name = function.child_by_field_name("name")
    if name is not None:
        return reader.text(name)
    parent = function.parent
    if parent is None:
        return None
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        if left is not None and left.type == "member_expression":
            prop = left.child_by_field_name("property")
            return reader.text(prop) if prop is not None else None
        return reader.text(left) if left is not None else None
    if parent.type in ("pair", "variable_declarator"):
        key = parent.child_by_field_name("key") or parent.child_by_field_name("name")
        return reader.text(key) if key is not None else None
    return None


_LOOK_AT = re.compile(
    rb"\b(?:define|init|createTable(?:IfNotExists)?|dropTable(?:IfExists)?|renameTable|model"
    rb"|pluralize|Sequelize|Entity|ChildEntity|JoinTable|EntitySchema|Schema|Table|entityPrefix"
    rb"|\w*NamingStrategy\w*|raw"
    rb"|getModelForClass|forFeature|extend)\b"
)
"""The words at which a construct the reader knows can be: the method or callee of a call, a
`new` constructor, a decorator's name."""


def _split(name: str | NameRef | None) -> tuple[str | None, NameRef | None]:
    """A name as a literal (`ref` None) or as a reference (the literal `""` until linked)."""
    if isinstance(name, NameRef):
        return "", name
    return name, None


def _same(a: _Node | None, b: _Node) -> bool:
    return a is not None and a.id == b.id


def _walk(root: _Node) -> Iterator[_Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        assert node is not None
        yield node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


# --- link -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Named:
    kind: str
    name: str
    path: str
    line: int
    model: str | None
    orm: str
    columns: tuple[str, ...]


def link(
    files: Sequence[tuple[str, FileFacts]], paths: Collection[str] | None = None
) -> DocumentPieces:
    """The tables of every file; `paths` are the files of the scan (an import resolves among
    them), every file of `files` when not given."""
    schemas = _Schemas(files, paths)
    gaps: list[Gap] = []
    files = [(path, schemas.settled(path, facts, gaps)) for path, facts in files]
    typeorm = _TypeormNames(files, gaps)
    joins = _Joins(files, schemas, typeorm)
    settled = [(path, schemas.sequelize_defaults(path, d)) for path, f in files for d in f.defaults]
    defaults = [d for _, d in settled]
    global_freeze = next((d.freeze for d in defaults if d.freeze is not None), None)
    global_underscored = next((d.underscored for d in defaults if d.underscored is not None), None)
    global_all = next((d.underscored_all for d in defaults if d.underscored_all is not None), None)
    hidden = [(path, d) for path, d in settled if d.out_of_sight]
    unpluralized = any(facts.mongoose_unpluralized for _, facts in files)
    manifests = [facts.declarations for _, facts in files if facts.declarations is not None]
    versions = _Versions(
        declared(manifests, "mongoose", NPM),
        declared(manifests, "sequelize", NPM),
        declared(manifests, "typeorm", NPM),
    )
    named: list[_Named] = []
    knex_tables: dict[str, _Named] = {}  # in migration (path) order: created, dropped, renamed
    for path, facts in files:
        gaps += facts.gaps
        for model in facts.sequelize:
            freeze = model.freeze if model.freeze is not None else global_freeze
            underscored = model.underscored if model.underscored is not None else global_underscored
            underscored_all = (
                model.underscored_all if model.underscored_all is not None else global_all
            )
            renamable = model.freeze is None or (not model.freeze and model.underscored is None)
            if model.table is None and renamable and global_freeze is None and hidden:
                gaps.append(_hidden_defaults(hidden[0], model, path))
            if model.table is not None:
                table = model.table
            elif freeze:
                table = model.model
            else:
                table = versions.sequelize_table(
                    model.model, bool(underscored), bool(underscored_all), path, model.line, gaps
                )
            named.append(
                _Named("table", table, path, model.line, model.model, "sequelize", model.columns)
            )
        named += _bookshelf_tables(path, facts, schemas, gaps)
        for claim in facts.claims:
            if claim.schema_from is not None:
                claim = schemas.settle(path, claim, gaps)
            if claim.orm.startswith("typeorm"):
                entity = joins.table(claim, versions, path, gaps)
                named += typeorm.named(path, claim.line, entity, claim, gaps)
                continue
            name = claim.name
            if claim.orm == "mongoose-plural" and not unpluralized:
                name = versions.mongoose_collection(claim.name, path, claim.line, gaps)
            orm = "mongoose" if claim.orm.startswith("mongoose") else claim.orm
            named.append(
                _Named(claim.kind, name, path, claim.line, claim.model or None, orm, claim.columns)
            )
        for op in facts.knex:
            if op.op == "create":
                knex_tables[op.name] = _Named(
                    "table", op.name, path, op.line, None, "knex", op.columns
                )
            elif op.op == "drop":
                knex_tables.pop(op.name, None)
            elif op.name in knex_tables:
                knex_tables[op.new_name] = _renamed(knex_tables.pop(op.name), op.new_name)
    named += knex_tables.values()
    named += _prisma_relation_tables(files)
    typegoose, typegoose_words = _typegoose_collections(
        files, schemas, versions, unpluralized, gaps
    )
    named += typegoose
    made, words = _made(files, schemas, gaps, unpluralized, versions)
    named += made
    gaps += _unread_orms(files, named, gaps)
    for path, line, names in joins.tables(gaps):
        subject = f"a @JoinTable() of entity tables {names[-1]!r}"
        junction = _chosen(names, subject, versions, path, line, gaps)
        named += typeorm.named(path, line, junction, None, gaps)
    linked = render(named, gaps)
    linked.touched = frozenset(schemas.touched)
    linked.words = words | typegoose_words
    return linked


def _bookshelf_tables(
    path: str, facts: FileFacts, schemas: _Schemas, gaps: list[Gap]
) -> list[_Named]:
    """The file's Bookshelf models made on an instance: each its `tableName` (a schema's
    prefix dropped, as knex's DDL names are written: `'water.users'` is `users`); one whose
    `tableName` is not read is a finding at the model, not listed."""
    named: list[_Named] = []
    for model in facts.bookshelf:
        if not schemas.bookshelf_instance(path, model.receiver):
            continue
        table = model.table
        if model.table_ref is not None:
            table = schemas.constant(path, model.table_ref)
        if not table:
            detail = model.detail or (
                f"a Bookshelf model's tableName {model.table_ref.describe() if model.table_ref else ''}"
                " is not a string the scanned files hold"
            )
            gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, model.line))
            continue
        name = table.rsplit(".", 1)[-1]
        named.append(_Named("table", name, path, model.line, model.model, "bookshelf", ()))
    return named


def _hidden_defaults(
    hidden: tuple[str, SequelizeDefaults], model: SequelizeModel, path: str
) -> Gap:
    """A model whose table the `define` options of a Sequelize instance may name, where the
    pack cannot read those options: at the model, beside the default name listed."""
    at, defaults = hidden
    how = (
        f"takes its options from `{defaults.options_text}`, which the pack cannot evaluate"
        if defaults.options is not None
        else "spreads options out of sight"
    )
    detail = (
        f"the Sequelize instance at {at}:{defaults.out_of_sight} {how}: a `define` there "
        f"(`freezeTableName`, `underscored`) may name `{model.model}`'s table otherwise than "
        "the default listed"
    )
    return Gap(UNRESOLVED_TABLE_NAME, detail, path, model.line)


def _typegoose_collections(
    files: Sequence[tuple[str, FileFacts]],
    schemas: _Schemas,
    versions: _Versions,
    unpluralized: bool,
    gaps: list[Gap],
) -> tuple[list[_Named], frozenset[str]]:
    """The collections of typegoose's models (`js_typegoose.link`), named at their classes,
    and the names of the functions that make a model of the class they are given."""
    facts = {path: f.typegoose for path, f in files if f.typegoose is not None}
    if not any(f.models or f.templates for f in facts.values()):
        return [], frozenset()

    def gap(path: str, line: int, detail: str) -> None:
        gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))

    named: dict[tuple[str, str, int], _Named] = {}  # two models of a class may share one
    made, words = js_typegoose.link(facts, schemas.declared, gap)
    for path, line, model, collection, columns in made:
        if collection is None:
            collection = (
                model if unpluralized else versions.mongoose_collection(model, path, line, gaps)
            )
        named.setdefault(
            (collection, path, line),
            _Named("collection", collection, path, line, model, "mongoose", columns),
        )
    return list(named.values()), words


def _made(
    files: Sequence[tuple[str, FileFacts]],
    schemas: _Schemas,
    gaps: list[Gap],
    unpluralized: bool,
    versions: _Versions,
) -> tuple[list[_Named], frozenset[str]]:
    """The collections the project's own classes and functions make (`js_made_models`),
    their names through `schemas` (the module resolver and the files' exports); and what a
    file that calls or extends one of those classes and functions spells (`_made_words`)."""
    made = [(path, facts.made) for path, facts in files if facts.made is not NO_MADE]
    if not any(m.templates for _, m in made):
        return [], frozenset()
    imports = {path: dict(facts.imports) for path, facts in files}
    patches = [(path, p) for path, m in made for p in m.patches]
    relevant = {patch.attr for _, patch in patches}
    class_names = {c.name for _, m in made for c in m.classes}

    def named(path: str, dotted: tuple[str, ...], names: set[str]) -> bool:
        imported = imports.get(path, {}).get(dotted[0])
        if imported is None:
            return dotted[-1] in names or dotted[0] in names
        return dotted[-1] in names or imported[1] in names or module_stem(imported[0]) in names

    def call(path: str, dotted: tuple[str, ...]) -> tuple[str, str] | None:
        return target(path, dotted) if named(path, dotted, relevant) else None

    def base(path: str, dotted: tuple[str, ...]) -> tuple[str, str] | None:
        return target(path, dotted) if named(path, dotted, class_names) else None

    def target(path: str, dotted: tuple[str, ...]) -> tuple[str, str] | None:
        imported = imports.get(path, {}).get(dotted[0])
        if imported is None:
            return path, ".".join(dotted)
        module, name = imported
        if name in ("default", "*") and len(dotted) > 1:
            found = schemas.declared(path, module, dotted[1])
            if found is not None:
                return found[0], ".".join((found[1], *dotted[2:]))
            target_file = schemas.resolve(path, module)
            for at, patch in patches:  # `obj.attr = fn` in a file importing the same module
                obj = imports.get(at, {}).get(patch.obj)
                if obj is None or patch.attr != dotted[1] or target_file is None:
                    continue
                if schemas.resolve(at, obj[0]) == target_file and len(dotted) < 8:
                    return target(at, (patch.function, *dotted[2:]))
            return None
        found = schemas.declared(path, module, name)
        return (found[0], ".".join((found[1], *dotted[1:]))) if found is not None else None

    def origin(path: str, dotted: tuple[str, ...]) -> str:
        imported = imports.get(path, {}).get(dotted[0])
        return module_stem(imported[0]) if imported is not None else ""

    expanded = expand(made, call, base, relevant, origin)
    for path, line, detail in expanded.gaps:
        gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))
    words = _made_words(expanded, [p for _, m in made for p in m.patches])
    return [
        _Named(
            "collection",
            m.name
            if m.explicit or unpluralized
            else versions.mongoose_collection(m.name, m.path, m.line, gaps),
            m.path,
            m.line,
            m.model,
            "mongoose",
            (),
        )
        for m in expanded.models
    ], words


def _specifier_ends(stem: str) -> tuple[str, ...]:
    """How an import specifier naming a module of that stem ends (`'./base'`, `"lib/base.js"`,
    `'./users/index'` for a folder's index, a bare `'base'`): the module's name as a word only
    where a specifier can spell it, not everywhere the word occurs."""
    return (
        f"/{stem}'",
        f'/{stem}"',
        f"/{stem}`",
        f"/{stem}.",
        f"/{stem}/",
        f"'{stem}'",
        f'"{stem}"',
    )


def _made_words(expanded: Expanded, patches: Sequence[Patch]) -> frozenset[str]:
    """What a file that calls or extends a model-making function or class spells: its name,
    or the name of its module (its file, or its folder for an index file: a default import
    under another name); a class extending one, by its name (a default import of it under
    another name is not looked for: the names of such files are common words); and the
    attribute a model-making function is set as on a module (`app.db = model`)."""
    names = {owner.split(".")[0] for _, owner in expanded.owners}
    words = {patch.attr for patch in patches if patch.function in names}
    for path, owner in expanded.owners:
        words.add(owner.split(".")[0])
        words.update(_specifier_ends(module_stem(path)))
    words.update(name for _, name in expanded.subclasses)
    words.discard("")
    return frozenset(words)


class _Versions:
    """The ORMs' default names by the versions the repository's `package.json` files declare
    (`declared_versions.by_version`): the newest admitted rule's name, and a
    `VERSION_DEPENDENT_NAME` finding where the admitted versions name an item differently."""

    def __init__(
        self, mongoose: Declared | None, sequelize: Declared | None, typeorm: Declared | None
    ) -> None:
        self.mongoose = mongoose
        self.sequelize = sequelize
        self.typeorm = typeorm

    def typeorm_table(
        self, subject: str, names: Sequence[str], path: str, line: int, gaps: list[Gap]
    ) -> str:
        """The default name TypeORM gives (`names`: one per `TYPEORM_VERSIONS` era)."""
        chosen, detail = by_version(
            "typeorm", f"the table of {subject}", names, TYPEORM_VERSIONS, self.typeorm
        )
        if detail is not None:
            gaps.append(Gap(VERSION_DEPENDENT_NAME, detail, path, line))
        return chosen

    def mongoose_collection(self, model: str, path: str, line: int, gaps: list[Gap]) -> str:
        names = [pluralize_mongoose(model, era) for era in range(len(MONGOOSE_VERSIONS))]
        subject = f"the collection of model {model!r}"
        chosen, detail = by_version("mongoose", subject, names, MONGOOSE_VERSIONS, self.mongoose)
        if detail is not None:
            gaps.append(Gap(VERSION_DEPENDENT_NAME, detail, path, line))
        return chosen

    def sequelize_table(
        self,
        model: str,
        underscored: bool,
        underscored_all: bool,
        path: str,
        line: int,
        gaps: list[Gap],
    ) -> str:
        """`Utils.pluralize` then `underscoredIf`: by `underscoredAll` before 5.0, by
        `underscored` after; `inflection` 1.12's plurals before 6.6.3, 1.13's after."""
        older = pluralize_inflection(model, 0)
        names = [
            underscore(older) if underscored_all else older,
            underscore(older) if underscored else older,
            underscore(pluralize_inflection(model, 1))
            if underscored
            else pluralize_inflection(model, 1),
        ]
        subject = f"the table of model {model!r}"
        chosen, detail = by_version("sequelize", subject, names, SEQUELIZE_VERSIONS, self.sequelize)
        if detail is not None:
            gaps.append(Gap(VERSION_DEPENDENT_NAME, detail, path, line))
        return chosen


def _unread_orms(
    files: Sequence[tuple[str, FileFacts]], named: Sequence[_Named], gaps: Sequence[Gap]
) -> list[Gap]:
    """An ORM the repository imports of which no table is listed: a finding at its first
    import (in path order), unless a finding already points into a file that imports it."""
    listed = {item.orm for item in named}
    flagged = {gap.path for gap in gaps}
    first: dict[str, tuple[str, str, int]] = {}
    importers: dict[str, set[str]] = {}
    for path, facts in files:
        for orm, package, line in facts.orm_imports:
            first.setdefault(orm, (path, package, line))
            importers.setdefault(orm, set()).add(path)
    unread: list[Gap] = []
    for orm, (path, package, line) in first.items():
        if orm in listed or importers[orm] & flagged:
            continue
        detail = f"imports {package}, but no table or collection of it is declared in a way the reader knows"
        unread.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))
    return unread + _unread_packages_gaps(files)


def _unread_packages_gaps(files: Sequence[tuple[str, FileFacts]]) -> list[Gap]:
    """An `UNREAD_ORMS` ORM named at its first import in each file that imports it as a value;
    a type-only import declares nothing and is named only where the repository has no other
    import of that ORM (at the first, in path order), so the document still names it."""
    gaps: list[Gap] = []
    typed: dict[str, tuple[str, int]] = {}
    valued: set[str] = set()
    for path, facts in files:
        for orm, line, type_only in facts.unread:
            if type_only:
                typed.setdefault(orm, (path, line))
                continue
            valued.add(orm)
            gaps.append(Gap(UNRESOLVED_TABLE_NAME, _not_read(orm), path, line))
    gaps += (
        Gap(UNRESOLVED_TABLE_NAME, _not_read(orm), *at)
        for orm, at in typed.items()
        if orm not in valued
    )
    return gaps


def _not_read(orm: str) -> str:
    return (
        f"{orm} is imported here: pack-js-tables does not read {orm}, so the tables declared "
        "or named through it are not listed"
    )


class _TypeormNames:
    """What renames every TypeORM table: one `entityPrefix` of the repository's data sources
    is put before each name (several different ones, or a computed one, and no prefix is put:
    a finding at each); a naming strategy of the repository's own with a `tableName` or
    `joinTableName` is evaluated (`js_strategy`) where every such method of the repository
    reads alike; one it cannot read (or several that differ) makes every name the strategy
    gives unknown: a finding at each such entity or junction instead of a guess."""

    def __init__(self, files: Sequence[tuple[str, FileFacts]], gaps: list[Gap]) -> None:
        sites = [(path, prefix, line) for path, f in files for prefix, line in f.entity_prefixes]
        values = {prefix for _, prefix, _ in sites}
        self.prefix = next(iter(values)) if len(values) == 1 else ""
        if len(values) > 1:
            for path, prefix, line in sites:
                detail = f"TypeORM entityPrefix {prefix!r} is one of {len(values)}: no prefix put"
                gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))
        renamers = [(path, r) for path, f in files for r in f.table_renamers]
        self.renamer = next(
            (f"{path}:{line} ({method})" for path, (method, line, _) in renamers), None
        )
        self.recipes = {
            method: _one({r for _, (m, _, r) in renamers if m == method}, default)
            for method, default in (("tableName", DEFAULT_TABLE), ("joinTableName", DEFAULT_JOIN))
        }
        self.own = any(method == "tableName" for _, (method, _, _) in renamers)

    def names(self, model: str, given: str | None) -> tuple[str | None, ...]:
        """The table of entity class `model` (`given`: the name its decorator gives) by TypeORM
        era; None where the strategy is not read or gives no name (a name the decorator gives
        is kept where the strategy is not read, as most strategies keep it)."""
        if self.recipes["tableName"] is None and given is not None:
            return (given,) * len(TYPEORM_VERSIONS)
        return tuple(
            _evaluated(self.recipes["tableName"], (model, given), era)
            for era in range(len(TYPEORM_VERSIONS))
        )

    def junction(self, owner: str, target: str, member: str, era: int) -> str | None:
        return _evaluated(self.recipes["joinTableName"], (owner, target, member, None), era)

    def named(
        self, path: str, line: int, table: str | None, claim: Claim | None, gaps: list[Gap]
    ) -> list[_Named]:
        if table is None:
            subject = f"entity {claim.model!r}" if claim is not None else "a @JoinTable()"
            detail = f"TypeORM names the table of {subject} by a naming strategy of the repository's own, {self.renamer}"
            gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))
            return []
        model = claim.model or None if claim is not None else None
        columns = claim.columns if claim is not None else ()
        return [_Named("table", self.prefix + table, path, line, model, "typeorm", columns)]


def _one(recipes: set[Recipe | None], default: Recipe) -> Recipe | None:
    """The repository's one reading of a strategy method (the default strategy's where it
    overrides none); None where one is unread or two differ."""
    if not recipes:
        return default
    return next(iter(recipes)) if len(recipes) == 1 else None


def _evaluated(recipe: Recipe | None, args: tuple[str | None, ...], era: int) -> str | None:
    if recipe is None:
        return None
    try:
        return evaluate(recipe, args, era)
    except ValueError:
        return None


def _prisma_relation_tables(files: Sequence[tuple[str, FileFacts]]) -> list[_Named]:
    """Prisma's implicit many-to-many tables, per schema: a folder's `.prisma` files are one
    schema (`prismaSchemaFolder`; a lone `schema.prisma` is its folder's only file)."""
    schemas: dict[str, dict[str, tuple[str, PrismaModel]]] = {}
    for path, facts in files:
        for model in facts.prisma:
            schemas.setdefault(posixpath.dirname(path), {}).setdefault(model.model, (path, model))
    return [
        _Named("table", table, path, line, None, "prisma", ())
        for models in schemas.values()
        for table, path, line, _ in implicit_relation_tables(models)
    ]


_NO_MODULE = ModuleFacts("package")


class _Schemas:
    """What a file imports from another file of the scan: the Mongoose schema a `model()`
    names, a table name's constant (`NameRef`), a TypeORM relation's target; the module found by
    the JavaScript readers' one resolver (`routes.js_modules`: relative files and folders,
    tsconfig `paths`, the repository's workspace packages), then the name through the module's
    exports and re-exports. Every file looked at is `touched` (parsed on demand)."""

    def __init__(
        self, files: Sequence[tuple[str, FileFacts]], paths: Collection[str] | None
    ) -> None:
        self.facts = dict(files)
        self.paths = set(paths) if paths is not None else set(self.facts)
        self.touched: set[str] = set()
        roots = sorted({root for _, facts in files for root in facts.node_paths})
        self.resolver = JsModules(
            self.paths, self._module_facts, touch=self.touched.add, node_paths=roots
        )
        self._module_values: dict[
            str, tuple[dict[str, Val], dict[str, Function], frozenset[str], dict[str, str]]
        ] = {}
        self.evaluator = Evaluator(self._values_of, self.declared, self.resolve)

    def _module_facts(self, path: str) -> ModuleFacts:
        self.touched.add(path)
        facts = self.facts.get(path)
        return facts.module if facts is not None and facts.module is not None else _NO_MODULE

    def constant(self, importer: str, ref: NameRef) -> str | None:
        """The string a `NameRef` of `importer` names, None when it is not one the files
        hold (a module not found, not parsed yet, or a value that is no string constant)."""
        found = self.declared(importer, ref.module, ref.name)
        attrs = ref.attrs
        if found is None and ref.name == "default" and attrs:  # `require(m).X`: exports.X
            found = self.declared(importer, ref.module, attrs[0])
            attrs = attrs[1:]
        if found is None:
            return None
        target, local = found
        return dict(self.facts[target].constants).get(".".join((local, *attrs)))

    def _values_of(
        self, path: str
    ) -> tuple[dict[str, Val], dict[str, Function], frozenset[str], dict[str, str]] | None:
        """What `js_values` evaluates in a file (touched: parsed on demand)."""
        self.touched.add(path)
        facts = self.facts.get(path)
        if facts is None:
            return None
        found = self._module_values.get(path)
        if found is None:
            found = (
                dict(facts.values),
                dict(facts.functions),
                facts.objects,
                dict(facts.constants),
            )
            self._module_values[path] = found
        return found

    def sequelize_defaults(self, importer: str, defaults: SequelizeDefaults) -> SequelizeDefaults:
        """A Sequelize instance's `define` defaults: options given by an expression evaluated
        (`js_values`: the project's functions with their arguments, module constants across
        files, `process.env.X || 'd'` as the default, an object's member by a computed key)
        and read from the object literal they come to; a string is no options; options the
        evaluation cannot reach stay out of sight. Spread options: `spread_defaults`."""
        if defaults.options is None:
            return self.spread_defaults(importer, defaults)
        found = self.evaluator.evaluate(importer, defaults.options)
        if found is None:
            return defaults
        if found.kind != "obj":
            return SequelizeDefaults(None, None)
        return self._define_flags(found)

    def _define_flags(self, found: Found) -> SequelizeDefaults:
        flags = dict(self.facts[found.path].flags)
        define = f"{found.prefix}.define"
        freeze, underscored, underscored_all = (flags.get(f"{define}.{k}") for k in _DEFINE_FLAGS)
        return SequelizeDefaults(freeze, underscored, underscored_all)

    def bookshelf_instance(self, path: str, receiver: str) -> bool:
        """Whether `receiver` of `path` is a Bookshelf instance: one the file makes, or one
        it imports from the module making it (`exports.bookshelf = instance`, `module.exports
        = require('bookshelf')(knex)`, through re-exports)."""
        facts = self.facts.get(path)
        if facts is None:
            return False
        if not receiver or receiver in facts.bookshelves:  # "": an instance made in the call
            return True
        imported = dict(facts.imports).get(receiver)
        if imported is None:
            return False
        found = self.declared(path, *imported)
        if found is None and imported[1] == "default":
            target = self.resolve(path, imported[0])
            found = (target, "module.exports") if target is not None else None
        if found is None or found[0] not in self.facts:
            return False
        return found[1] in self.facts[found[0]].bookshelves

    def spread_defaults(self, importer: str, defaults: SequelizeDefaults) -> SequelizeDefaults:
        """A Sequelize instance's `define` defaults where its options spread an imported object
        (`{ ...DATABASE.options }`, `DATABASE` of the project's config module, `module.exports
        = config` or an exported `const`): the object's `define` members as that module's
        literal objects give them; as before (options out of sight) where the module, the
        object or its `define` is not found."""
        ref = defaults.spread
        if ref is None:
            return defaults
        found = self.declared(importer, ref.module, ref.name)
        attrs = ref.attrs
        if found is None and ref.name != "default":  # `const { db } = require(m)`: m's `db`
            found = self.declared(importer, ref.module, "default")
            attrs = (ref.name, *attrs)
        if found is None and ref.name == "default" and attrs:
            found = self.declared(importer, ref.module, attrs[0])
            attrs = attrs[1:]
        if found is None:
            return defaults
        target, local = found
        flags = dict(self.facts[target].flags)
        define = ".".join((local, *attrs, "define"))
        freeze, underscored, underscored_all = (flags.get(f"{define}.{k}") for k in _DEFINE_FLAGS)
        if freeze is None and underscored is None and underscored_all is None:
            return defaults
        return SequelizeDefaults(freeze, underscored, underscored_all)

    def settled(self, path: str, facts: FileFacts, gaps: list[Gap]) -> FileFacts:
        """`facts` with every imported name (`NameRef`) replaced by its value; one that is
        not found is a finding at its place, and its table or collection is left out."""
        if (
            not any(op.ref or op.new_ref or op.column_refs for op in facts.knex)
            and not any(m.table_ref for m in facts.sequelize)
            and not any(c.ref for c in facts.claims)
        ):
            return facts

        def value(ref: NameRef | None, line: int, what: str) -> str | None:
            if ref is None:
                return ""
            found = self.constant(path, ref)
            if found is None:
                detail = f"{what} is named by {ref.describe()}, no string constant the scanned files hold"
                gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, line))
            return found

        knex: list[KnexOp] = []
        for op in facts.knex:
            name = value(op.ref, op.line, f"a knex {op.op} of a table")
            new_name = value(op.new_ref, op.line, "a knex rename of a table")
            if name is not None and new_name is not None:
                named = (self.constant(path, r) for r in op.column_refs)
                columns = (*op.columns, *(c for c in named if c is not None))
                knex.append(
                    replace(
                        op,
                        name=name or op.name,
                        new_name=new_name or op.new_name,
                        ref=None,
                        new_ref=None,
                        columns=tuple(dict.fromkeys(columns)),
                        column_refs=(),
                    )
                )
        models: list[SequelizeModel] = []
        for model in facts.sequelize:
            table = value(model.table_ref, model.line, "a Sequelize tableName")
            if table is not None:
                models.append(replace(model, table=table or model.table, table_ref=None))
        claims: list[Claim] = []
        for claim in facts.claims:
            name = value(claim.ref, claim.line, f"a {claim.orm.split('-')[0]} {claim.kind}")
            if name is None:
                continue
            if claim.ref is not None and claim.orm == "mongoose-plural":
                claim = replace(claim, name=name, model=name, ref=None)
            elif claim.ref is not None:
                claim = replace(claim, name=name, ref=None)
            claims.append(claim)
        return replace(facts, knex=tuple(knex), sequelize=tuple(models), claims=tuple(claims))

    def settle(self, path: str, claim: Claim, gaps: list[Gap]) -> Claim:
        """The claim named by the imported schema's `collection` option (else the plural of
        its model, as before); a schema not found, or whose option is an expression, is a
        finding at the `model()` call."""
        assert claim.schema_from is not None
        module, name = claim.schema_from
        decl = self._find(path, module, name)
        if decl is None or decl.computed:
            detail = f"a Mongoose model()'s schema {name} from {module!r} " + (
                "names its collection with an expression" if decl else "is not read"
            )
            gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, claim.line))
            return claim
        columns = claim.columns or decl.columns
        if decl.collection is None:
            return _with(claim, claim.name, claim.orm, columns)
        return _with(claim, decl.collection, "mongoose", columns)

    def _find(self, importer: str, module: str, name: str) -> SchemaDecl | None:
        found = self.declared(importer, module, name)
        if found is None:
            return None
        target, local = found
        return next((d for d in self.facts[target].schemas if d.local == local), None)

    def declared(
        self, importer: str, module: str, name: str, depth: int = 0
    ) -> tuple[str, str] | None:
        """The file and local name that `name` of `module` (as `importer` imports it) is
        declared as: through the module's exports, and its re-exports of further modules."""
        target = self._resolve(importer, module)
        if target is not None:
            self.touched.add(target)
        facts = self.facts.get(target) if target is not None else None
        if facts is None or target is None or depth > 8:
            return None
        local = dict(facts.exports).get(name) if name != "*" else None
        if not local:
            for module in facts.stars:  # `export * from './m'`: the name may be m's
                found = self.declared(target, module, name, depth + 1)
                if found is not None:
                    return found
            return None
        onward = dict(facts.imports).get(local)  # re-exported from a further module
        if onward is not None:
            return self.declared(target, *onward, depth + 1)
        return target, local

    def _resolve(self, importer: str, specifier: str) -> str | None:
        return self.resolver.file(importer, specifier)

    def resolve(self, importer: str, specifier: str) -> str | None:
        """The file `specifier` names from `importer` (touched)."""
        found = self._resolve(importer, specifier)
        if found is not None:
            self.touched.add(found)
        return found


_DEFINE_FLAGS = ("freezeTableName", "underscored", "underscoredAll")  # `SequelizeDefaults`'


_Key = tuple[str, str]  # (file, class)


class _Lineage:
    """The TypeORM classes of the scan (`TypeormClass`) and the class each extends, found as a
    relation's target is: in the same file, through the file's import, or as the one class of
    that name. Which table-owning entities hold a class's junction members follows."""

    _MAX_DEPTH = 32  # classes extending classes: a cycle, or deeper, ends the walk

    def __init__(self, files: Sequence[tuple[str, FileFacts]], modules: _Schemas) -> None:
        self.modules = modules
        self.classes: dict[_Key, TypeormClass] = {
            (path, c.model): c for path, facts in files for c in facts.classes
        }
        named: dict[str, list[_Key]] = {}
        for key in self.classes:
            named.setdefault(key[1], []).append(key)
        self.unique = {name: keys[0] for name, keys in named.items() if len(keys) == 1}
        self.parent = {
            (path, c.model): self._class(path, facts, c.base)
            for path, facts in files
            for c in facts.classes
        }
        self.heirs: dict[_Key, list[_Key]] = {}  # class -> the `ENTITY` classes extending it
        for key, found in self.classes.items():
            if found.kind == ENTITY:
                for ancestor in self._ancestors(key):
                    self.heirs.setdefault(ancestor, []).append(key)

    def holders(self, key: _Key) -> list[_Key | None]:
        """The entities whose tables hold the junction members of class `key`: an `ENTITY`
        itself, a `CHILD`'s root (None: not found), and every `ENTITY` extending it; an
        `EntitySchema`'s relation (no class) its own."""
        found = self.classes.get(key)
        if found is None:
            return [key]
        own: list[_Key | None] = [key] if found.kind == ENTITY else []
        if found.kind == CHILD:
            own.append(self.root(key))
        return [*own, *self.heirs.get(key, [])]

    def root(self, key: _Key) -> _Key | None:
        """The `ENTITY` a `CHILD` is stored in: the nearest one it extends."""
        return next((a for a in self._ancestors(key) if self.classes[a].kind == ENTITY), None)

    def children(self) -> list[_Key]:
        return [key for key, found in self.classes.items() if found.kind == CHILD]

    def _ancestors(self, key: _Key) -> list[_Key]:
        found: list[_Key] = []
        at = self.parent.get(key)
        while at is not None and at not in found and len(found) < self._MAX_DEPTH:
            found.append(at)
            at = self.parent.get(at)
        return found

    def _class(self, path: str, facts: FileFacts, name: str | None) -> _Key | None:
        if name is None:
            return None
        if (path, name) in self.classes:
            return (path, name)
        imported = dict(facts.imports).get(name)
        if imported is not None and imported[0].startswith("."):
            found = self.modules.declared(path, *imported)
            return found if found in self.classes else None
        return self.unique.get(name)


class _Joins:
    """TypeORM's junction tables: `@JoinTable({ name })`, else the naming strategy's
    `joinTableName` (snake_case of `<owner table>_<member>_<target table>`), the target entity
    found in the member's file, through its import, or as the one entity of that class name;
    the owner each table-owning entity holding the member (`_Lineage.holders`)."""

    def __init__(
        self, files: Sequence[tuple[str, FileFacts]], modules: _Schemas, strategy: _TypeormNames
    ) -> None:
        self.files = files
        self.modules = modules
        self.strategy = strategy
        self.lineage = _Lineage(files, modules)
        # (file, class) -> its table by TypeORM era (None: the strategy gives none known)
        self.entity_tables: dict[_Key, tuple[str | None, ...]] = {}
        by_class: dict[str, set[tuple[str | None, ...]]] = {}
        for path, facts in files:
            for claim in facts.claims:
                if claim.orm.startswith("typeorm") and claim.model:
                    names = self.names(claim)
                    self.entity_tables[(path, claim.model)] = names
                    by_class.setdefault(claim.model, set()).add(names)
        for key in self.lineage.children():  # stored in its root's table: a target named so
            root = self.lineage.root(key)
            if root is not None and root in self.entity_tables:
                self.entity_tables[key] = self.entity_tables[root]
                by_class.setdefault(key[1], set()).add(self.entity_tables[root])
        self.unique = {model: next(iter(t)) for model, t in by_class.items() if len(t) == 1}

    def names(self, claim: Claim) -> tuple[str | None, ...]:
        """An entity's table by TypeORM era, through the strategy (`tableName(class, given)`)."""
        given = None if claim.orm == "typeorm-default" else claim.name
        if not claim.model:  # an `EntitySchema` without a class: its name as given
            return (given,) * len(TYPEORM_VERSIONS)
        return self.strategy.names(claim.model, given)

    def table(self, claim: Claim, versions: _Versions, path: str, gaps: list[Gap]) -> str | None:
        return _chosen(
            self.names(claim), f"entity {claim.model!r}", versions, path, claim.line, gaps
        )

    def tables(self, gaps: list[Gap]) -> list[tuple[str, int, tuple[str | None, ...]]]:
        """Each junction: (file, line, its table without the prefix by TypeORM era, named by the
        strategy), one per entity holding the member when named by the strategy. A relation
        whose both sides carry `@JoinTable({ name })` is one table, listed once."""
        eras = range(len(TYPEORM_VERSIONS))
        named: list[tuple[str, int, tuple[str | None, ...]]] = []
        sides: set[tuple[str, frozenset[str | None]]] = set()  # (table, both entities' tables)
        for path, facts in self.files:
            for join in facts.joins:
                table = join.name
                holders = self.lineage.holders((path, join.owner))
                owners = [self.entity_tables.get(h) if h is not None else None for h in holders]
                target = self._target(path, facts, join.target)
                if table is not None and owners and owners[0] is not None and target is not None:
                    pair = (table, frozenset((owners[0][-1], target[-1])))
                    if pair in sides:
                        continue
                    sides.add(pair)
                problem = self._problem(join, target, owners)
                if problem:
                    detail = f"a TypeORM @JoinTable() of {join.owner}.{join.member}: {problem}"
                    gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, path, join.line))
                elif table is not None:
                    named.append((path, join.line, (table,) * len(eras)))
                else:
                    named += [
                        (
                            path,
                            join.line,
                            tuple(self._junction(o, target, join.member, e) for e in eras),
                        )
                        for o in owners
                    ]
        return named

    @staticmethod
    def _problem(
        join: JoinSide,
        target: tuple[str | None, ...] | None,
        owners: list[tuple[str | None, ...] | None],
    ) -> str:
        """Why a junction is not named ("" where it is): a `name` given tells it alone."""
        if join.computed:
            return "its name is computed"
        if not owners:
            return "no entity extending its class is read"
        if join.name is not None:
            return ""
        if target is None:
            return "its target is not read"
        if any(owner is None for owner in owners):
            return "the table of the entity it extends is not read"
        return ""

    def _junction(
        self,
        owner: tuple[str | None, ...] | None,
        target: tuple[str | None, ...] | None,
        member: str,
        era: int,
    ) -> str | None:
        first = owner[era] if owner is not None else None
        second = target[era] if target is not None else None
        if first is None or second is None:
            return None
        return self.strategy.junction(first, second, member, era)

    def _target(
        self, path: str, facts: FileFacts, target: str | None
    ) -> tuple[str | None, ...] | None:
        if target is None:
            return None
        if (path, target) in self.entity_tables:
            return self.entity_tables[(path, target)]
        imported = dict(facts.imports).get(target)
        if imported is not None and imported[0].startswith("."):
            found = self.modules.declared(path, *imported)
            return self.entity_tables.get(found) if found is not None else None
        return self.unique.get(target)


def _chosen(
    names: tuple[str | None, ...],
    subject: str,
    versions: _Versions,
    path: str,
    line: int,
    gaps: list[Gap],
) -> str | None:
    """The name of the TypeORM era the repository declares (None: one era's is unknown)."""
    known = [name for name in names if name is not None]
    if len(known) < len(names):
        return None
    if len(set(known)) == 1:
        return known[0]
    return versions.typeorm_table(subject, known, path, line, gaps)


def _with(claim: Claim, name: str, orm: str, columns: tuple[str, ...]) -> Claim:
    return Claim(claim.kind, name, claim.line, claim.model, orm, columns)


def _renamed(table: _Named, name: str) -> _Named:
    return _Named(table.kind, name, table.path, table.line, table.model, table.orm, table.columns)


def render(named: Sequence[_Named], gaps: Sequence[Gap]) -> DocumentPieces:
    linked = DocumentPieces()
    seen: dict[tuple[str, str], list[JSONObject]] = {}
    for item in named:
        where = location(item.path, item.line)
        attrs: JSONObject = {"columns": len(item.columns), "orm": item.orm}
        if item.model is not None:
            attrs["model"] = item.model
        linked.resources.append(
            {"kind": item.kind, "name": item.name, "location": where, "attrs": attrs}
        )
        pii = pii_value(item.columns)
        if pii:
            linked.signals.append(signal(item.kind, item.name, "pii", pii, where))
        seen.setdefault((item.kind, item.name), []).append(where)
    for kind in ("table", "collection"):
        claims = {name: places for (k, name), places in seen.items() if k == kind}
        linked.findings += duplicate_findings(DUPLICATE_TABLE_NAME, kind, claims)
    linked.findings += gap_findings(gaps)
    return linked


def link_on_demand(
    files: Sequence[tuple[str, FileFacts]], paths: Collection[str], failed: Collection[str]
) -> DocumentPieces:
    """`link` as `OnDemand` calls it: every file that can hold facts is admitted by its bytes,
    so linking never asks for more; an import resolves among the scan's `paths`."""
    del failed
    return link(files, paths)
