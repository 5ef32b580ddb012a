"""Typegoose's Mongoose models (`@typegoose/typegoose`, v5's `typegoose`, NestJS's
`nestjs-typegoose` modules): a class is a model only where code makes one of it —
`getModelForClass(C, options)` (v5: `new C().getModelForClass(C, options)`) or an item of
`TypegooseModule.forFeature([C, { typegooseClass: C, schemaOptions }])` — so the reader keeps the
classes of a file that imports typegoose (`TypegooseClass`: their `@modelOptions` naming options
and base) and every such call (`TypegooseModel`), and the link puts them together across files.

Names as typegoose gives them (`getName`): the model is the class's name, else `customName`;
with `automaticName`, `<class>_<customName or collection>`. The collection is
`schemaOptions.collection`, else Mongoose's plural of the model's name. Options merge as
typegoose merges its metadata: a base class's `@modelOptions` under the class's own, the call's
options over both. A class the call names that the scan cannot find, a class passed in by the
caller (a wrapper's parameter), or a naming option given by an expression is an
`UNRESOLVED_TABLE_NAME` at the call, never silence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import tree_sitter

_Node = tree_sitter.Node

SEED = b"typegoose"
"""In every file that declares a typegoose class or makes a model of one (its imports)."""
MAKERS = frozenset({"getModelForClass"})
FEATURES = "TypegooseModule"
"""`TypegooseModule.forFeature([...])` of `nestjs-typegoose` / `@m8a/nestjs-typegoose`."""
_OPTION_DECORATOR = "modelOptions"
_COLUMN_DECORATOR = "rop"  # `@prop`, `@arrayProp`, `@mapProp` (v5–v7), `@Prop`
_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration",
              "method_definition", "generator_function_declaration"}  # fmt: skip
_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression",
                "non_null_expression", "await_expression"}  # fmt: skip
_MAX_BASES = 8


@dataclass(frozen=True)
class Naming:
    """The naming options of a `@modelOptions` or of a call's options; None: not given."""

    collection: str | None = None
    custom_name: str | None = None
    automatic: bool | None = None
    computed: bool = False  # one of them given by an expression (a `customName` function too)

    def over(self, under: Naming) -> Naming:
        """These options merged over `under`'s, as typegoose merges its metadata."""
        return Naming(
            self.collection if self.collection is not None else under.collection,
            self.custom_name if self.custom_name is not None else under.custom_name,
            self.automatic if self.automatic is not None else under.automatic,
            self.computed or under.computed,
        )


@dataclass(frozen=True)
class TypegooseClass:
    """A top-level class of a file that imports typegoose: its `@modelOptions`, its base as
    the file names it (a local class, or (module, name) imported), its `@prop` members."""

    local: str
    line: int
    naming: Naming
    base: str | None
    base_import: tuple[str, str] | None
    columns: tuple[str, ...]


@dataclass(frozen=True)
class TypegooseModel:
    """A model made of a class: the class declared in the file (`local`) or imported
    (`imported`), the call's own options, where it is written."""

    line: int
    local: str | None
    imported: tuple[str, str] | None
    naming: Naming


class Reading(Protocol):
    """What the JavaScript table reader (`js_tables._Reader`) lends this one."""

    imports: dict[str, tuple[str, str]]

    def text(self, node: _Node) -> str: ...
    def _literal(self, node: _Node | None, *, follow: bool = True) -> str | None: ...
    def _object(self, node: _Node | None) -> _Node | None: ...
    def _fields(self, obj: _Node, depth: int = 0) -> dict[str, _Node | None]: ...
    def _line(self, node: _Node) -> int: ...
    def _gap(self, node: _Node, detail: str) -> None: ...
    def _entity_columns(self, node: _Node, suffix: str = "Column") -> tuple[str, ...]: ...


def classes(reading: Reading, root: _Node) -> tuple[TypegooseClass, ...]:
    """The file's top-level classes (`export`ed too) with their naming options."""
    found: list[TypegooseClass] = []
    for statement in root.named_children:
        decorators = [c for c in statement.children if c.type == "decorator"]
        node = statement
        if statement.type == "export_statement":
            node = statement.child_by_field_name("declaration") or statement
        if node.type not in _CLASSES:
            continue
        name = node.child_by_field_name("name")
        if name is None:
            continue
        decorators += [c for c in node.children if c.type == "decorator"]
        naming = Naming()
        for decorator in decorators:
            call = decorator.named_children[0] if decorator.named_children else None
            if call is None or call.type != "call_expression":
                continue
            callee, arguments = call.child_by_field_name("function"), _arguments(call)
            if callee is not None and reading.text(callee).endswith(_OPTION_DECORATOR):
                naming = _naming(reading, arguments[0] if arguments else None).over(naming)
        base, base_import = _base(reading, node)
        columns = reading._entity_columns(node, _COLUMN_DECORATOR)
        line = reading._line(statement)
        found.append(TypegooseClass(reading.text(name), line, naming, base, base_import, columns))
    return tuple(found)


def models(reading: Reading, call: _Node, method: str, owner: _Node | None) -> list[TypegooseModel]:
    """The models a maker call makes: `getModelForClass(C, options)` or each item of
    `TypegooseModule.forFeature([...])`; a class the call cannot name is a finding there."""
    arguments = _arguments(call)
    if method in MAKERS and arguments:
        options = arguments[1] if len(arguments) > 1 else None
        made = _made(reading, call, arguments[0], _naming(reading, options))
        return [made] if made is not None else []
    if method != "forFeature" or owner is None or not reading.text(owner).endswith(FEATURES):
        return []
    listed = _bare(arguments[0]) if arguments else None
    if listed is None or listed.type != "array":
        if arguments:
            reading._gap(call, "the classes of a TypegooseModule.forFeature() are an expression")
        return []
    made_here: list[TypegooseModel] = []
    for item in listed.named_children:
        item = _bare(item)
        target: _Node | None
        naming, target = Naming(), item
        if item.type == "object":
            target = reading._fields(item).get("typegooseClass")
            naming = _naming(reading, item)
            if target is None:
                reading._gap(item, "a TypegooseModule.forFeature() item names no typegooseClass")
                continue
        made = _made(reading, item, target, naming)
        if made is not None:
            made_here.append(made)
    return made_here


def link(
    files: Mapping[str, tuple[tuple[TypegooseClass, ...], tuple[TypegooseModel, ...]]],
    declared: Callable[[str, str, str], tuple[str, str] | None],
    gap: Callable[[str, int, str], None],
) -> list[tuple[str, int, str, str | None, tuple[str, ...]]]:
    """(path, line, model, collection or None for Mongoose's plural of the model, columns) of
    model a call makes of a class, at the class (once however many calls make it);
    `declared(importer, module, name)` finds an imported name's file and local name."""
    made: dict[
        tuple[str, str, str, str | None], tuple[str, int, str, str | None, tuple[str, ...]]
    ] = {}
    for path, (_, calls) in sorted(files.items()):
        for call in calls:
            where = (path, call.local) if call.local is not None else None
            if call.imported is not None:
                where = declared(path, *call.imported)
            found = _class(files, where)
            if found is None or where is None:
                described = call.local or "{1} from {0!r}".format(*call.imported or ("", ""))
                gap(path, call.line, f"a typegoose model of the class {described}, not read")
                continue
            naming = call.naming.over(_inherited(files, where[0], found, declared))
            if naming.computed:
                gap(path, call.line, f"a typegoose model of {found.local} named by an expression")
                continue
            model = found.local
            if naming.automatic:
                suffix = naming.custom_name or naming.collection
                model = f"{model}_{suffix}" if suffix else model
            elif naming.custom_name is not None:
                model = naming.custom_name
            made.setdefault(
                (where[0], found.local, model, naming.collection),
                (where[0], found.line, model, naming.collection, found.columns),
            )
    return list(made.values())


def _inherited(
    files: Mapping[str, tuple[tuple[TypegooseClass, ...], tuple[TypegooseModel, ...]]],
    path: str,
    found: TypegooseClass,
    declared: Callable[[str, str, str], tuple[str, str] | None],
) -> Naming:
    """A class's naming options over its bases' (`@modelOptions` is inherited metadata)."""
    naming = found.naming
    for _ in range(_MAX_BASES):
        where = (path, found.base) if found.base is not None else None
        if found.base_import is not None:
            where = declared(path, *found.base_import)
        base = _class(files, where)
        if base is None or where is None:
            break
        naming = naming.over(base.naming)
        path, found = where[0], base
    return naming


def _class(
    files: Mapping[str, tuple[tuple[TypegooseClass, ...], tuple[TypegooseModel, ...]]],
    where: tuple[str, str] | None,
) -> TypegooseClass | None:
    if where is None or where[0] not in files:
        return None
    return next((c for c in files[where[0]][0] if c.local == where[1]), None)


def _made(
    reading: Reading, call: _Node, target: _Node | None, naming: Naming
) -> TypegooseModel | None:
    target = _bare(target) if target is not None else None
    line = reading._line(call)
    if target is not None and target.type == "identifier":
        name = reading.text(target)
        if name in reading.imports:
            return TypegooseModel(line, None, reading.imports[name], naming)
        if _parameter(reading, target, name):
            reading._gap(call, f"a typegoose model of a class the caller passes in ({name})")
            return None
        return TypegooseModel(line, name, None, naming)
    reading._gap(call, "a typegoose model of a class given by an expression")
    return None


def _naming(reading: Reading, options: _Node | None) -> Naming:
    """`{ schemaOptions: { collection }, options: { customName, automaticName } }`."""
    if options is None:
        return Naming()
    found = reading._object(options)
    if found is None:
        return Naming(computed=True)
    fields = reading._fields(found)
    if "..." in fields:
        return Naming(computed=True)
    collection, custom, automatic, computed = None, None, None, False
    schema = reading._object(fields.get("schemaOptions"))
    if schema is not None and "collection" in (schema_fields := reading._fields(schema)):
        collection = reading._literal(schema_fields["collection"])
        computed = collection is None
    elif fields.get("schemaOptions") is not None and schema is None:
        computed = True
    own = reading._object(fields.get("options"))
    if own is not None:
        own_fields = reading._fields(own)
        if "customName" in own_fields:
            custom = reading._literal(own_fields["customName"])
            computed = computed or custom is None
        if "automaticName" in own_fields:
            value = own_fields["automaticName"]
            automatic = value is not None and value.type == "true"
            computed = computed or value is None or value.type not in ("true", "false")
    return Naming(collection, custom, automatic, computed)


def _base(reading: Reading, node: _Node) -> tuple[str | None, tuple[str, str] | None]:
    heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
    if heritage is None:
        return None, None
    clause = next((c for c in heritage.named_children if c.type == "extends_clause"), heritage)
    value = clause.child_by_field_name("value") or next(iter(clause.named_children), None)
    if value is None or value.type != "identifier":
        return None, None
    name = reading.text(value)
    return (None, reading.imports[name]) if name in reading.imports else (name, None)


def _parameter(reading: Reading, node: _Node, name: str) -> bool:
    """Whether `name` at `node` is a parameter of a function enclosing it."""
    scope = node.parent
    while scope is not None:
        if scope.type in _FUNCTIONS:
            parameters = scope.child_by_field_name("parameters") or scope.child_by_field_name(
                "parameter"
            )
            if parameters is not None and name in _names(reading, parameters):
                return True
        scope = scope.parent
    return False


def _names(reading: Reading, parameters: _Node) -> set[str]:
    if parameters.type == "identifier":
        return {reading.text(parameters)}
    names: set[str] = set()
    for parameter in parameters.named_children:
        pattern = parameter.child_by_field_name("pattern") or parameter
        if pattern.type == "identifier":
            names.add(reading.text(pattern))
    return names


def _arguments(call: _Node) -> list[_Node]:
    arguments = call.child_by_field_name("arguments")
    return [a for a in arguments.named_children if a.type != "comment"] if arguments else []


def _bare(node: _Node) -> _Node:
    while node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node
