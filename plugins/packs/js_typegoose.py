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
options over both. A maker given a parameter of the function it is in (a provider helper of the
project's own, `function providerOf(cls) { … getModelForClass(cls) … }`) is a template
(`TypegooseTemplate`): each call of that function passing a class (`ClassCall`, in any file
the scan reads; the link asks for the files that spell the function's name) makes that class's
model. A class the scan cannot find, a template no call reaches, or a naming option given by an
expression is an `UNRESOLVED_TABLE_NAME` at the call, never silence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

import tree_sitter

from .routes.js_scopes import name_before

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
class TypegooseTemplate:
    """A maker whose class is parameter `index` of the top-level function `function` (as the
    file names it), with the maker's own options."""

    function: str
    index: int
    line: int
    naming: Naming


@dataclass(frozen=True)
class ClassCall:
    """A call of a function by name (`callee`, local; `imported`: the module and name it is
    imported as) passing a name first (`local`, or `imported_class`): a template's caller."""

    callee: str
    imported: tuple[str, str] | None
    local: str | None
    imported_class: tuple[str, str] | None
    line: int


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

    data: bytes
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


_CLASS_ARGUMENT = re.compile(rb"\(\s*+[A-Z][\w$]*+\s*+[,)]")
"""The opening of a call passing a capitalised name first (`(Tag)`, `(Tag, …`): found from its
`(` (a literal the search skips to), the callee read backwards from there."""
_NOT_BEFORE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.@")


def _class_first(data: bytes) -> Iterator[tuple[int, int]]:
    """The spans of the callees of `f(Name, …)` calls: a template's caller can be one (not a
    method, `x.f(Tag)`, nor a decorator, `@InjectModel(Tag)`)."""
    for match in _CLASS_ARGUMENT.finditer(data):
        start, end = name_before(data, match.start())
        first_is_name = start < end and not 0x30 <= data[start] <= 0x39  # not a digit
        if first_is_name and (start == 0 or data[start - 1] not in _NOT_BEFORE):
            yield start, end


def passes_class(data: bytes) -> bool:
    """Whether a file can call a template (read for it when the link asks)."""
    return next(_class_first(data), None) is not None


def class_calls(reading: Reading, root: _Node) -> tuple[ClassCall, ...]:
    """Every `f(Name, …)` of the file whose `f` and `Name` are plain names: the link keeps
    those whose `f` is a template."""
    calls: list[ClassCall] = []
    for start, end in _class_first(reading.data):
        callee = root.descendant_for_byte_range(start, end)
        call = callee.parent if callee is not None else None
        if call is None or call.type != "call_expression" or callee is None:
            continue
        if callee.type != "identifier" or not _same(call.child_by_field_name("function"), callee):
            continue
        arguments = _arguments(call)
        first = _bare(arguments[0]) if arguments else None
        if first is None or first.type != "identifier":
            continue
        name, given = reading.text(callee), reading.text(first)
        calls.append(
            ClassCall(
                name,
                reading.imports.get(name),
                None if given in reading.imports else given,
                reading.imports.get(given),
                reading._line(call),
            )
        )
    return tuple(calls)


def models(
    reading: Reading, call: _Node, method: str, owner: _Node | None
) -> list[TypegooseModel | TypegooseTemplate]:
    """The models a maker call makes: `getModelForClass(C, options)` or each item of
    `TypegooseModule.forFeature([...])`; a template where the class is a parameter of the
    function the call is in; a class the call cannot name is a finding there."""
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
    made_here: list[TypegooseModel | TypegooseTemplate] = []
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


@dataclass(frozen=True)
class TypegooseFacts:
    """One file's typegoose facts."""

    classes: tuple[TypegooseClass, ...] = ()
    models: tuple[TypegooseModel, ...] = ()
    templates: tuple[TypegooseTemplate, ...] = ()
    calls: tuple[ClassCall, ...] = ()


Made = tuple[str, int, str, str | None, tuple[str, ...]]
"""(path, line, model, collection or None for Mongoose's plural of the model, columns)."""
Declared = Callable[[str, str, str], tuple[str, str] | None]


def link(
    files: Mapping[str, TypegooseFacts], declared: Declared, gap: Callable[[str, int, str], None]
) -> tuple[list[Made], frozenset[str]]:
    """Each model a call makes of a class, at the class (once however many calls make it),
    and the names of the templates (the link asks for the files that spell one: they may call
    it); `declared(importer, module, name)` finds an imported name's file and local name."""
    made: dict[tuple[str, str, str, str | None], Made] = {}

    def make(
        path: str, line: int, where: tuple[str, str] | None, naming: Naming, said: str
    ) -> None:
        found = _class(files, where)
        if found is None or where is None:
            gap(path, line, f"a typegoose model of the class {said}, not read")
            return
        naming = naming.over(_inherited(files, where[0], found, declared))
        if naming.computed:
            gap(path, line, f"a typegoose model of {found.local} named by an expression")
            return
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

    templates = {(path, t.function): t for path, facts in files.items() for t in facts.templates}
    reached: set[tuple[str, str]] = set()
    for path, facts in sorted(files.items()):
        for model in facts.models:
            where = _where(path, model.local, model.imported, declared)
            make(path, model.line, where, model.naming, _said(model.local, model.imported))
        for call in facts.calls:
            function = _where(path, call.callee, call.imported, declared)
            template = templates.get(function) if function is not None else None
            if template is None or template.index != 0 or function is None:
                continue
            reached.add(function)
            where = _where(path, call.local, call.imported_class, declared)
            make(path, call.line, where, template.naming, _said(call.local, call.imported_class))
    for (path, name), template in sorted(templates.items()):
        if (path, name) not in reached:
            detail = (
                f"a typegoose model of the class {name}() is given: no call of it passes a class"
            )
            gap(path, template.line, detail)
    return list(made.values()), frozenset(name for _, name in templates)


def _where(
    path: str, local: str | None, imported: tuple[str, str] | None, declared: Declared
) -> tuple[str, str] | None:
    if imported is not None:
        return declared(path, *imported)
    return (path, local) if local is not None else None


def _said(local: str | None, imported: tuple[str, str] | None) -> str:
    return local or "{1} from {0!r}".format(*imported or ("", ""))


def _inherited(
    files: Mapping[str, TypegooseFacts], path: str, found: TypegooseClass, declared: Declared
) -> Naming:
    """A class's naming options over its bases' (`@modelOptions` is inherited metadata)."""
    naming = found.naming
    for _ in range(_MAX_BASES):
        where = _where(path, found.base, found.base_import, declared)
        base = _class(files, where)
        if base is None or where is None:
            break
        naming = naming.over(base.naming)
        path, found = where[0], base
    return naming


def _class(
    files: Mapping[str, TypegooseFacts], where: tuple[str, str] | None
) -> TypegooseClass | None:
    if where is None or where[0] not in files:
        return None
    return next((c for c in files[where[0]].classes if c.local == where[1]), None)


def _made(
    reading: Reading, call: _Node, target: _Node | None, naming: Naming
) -> TypegooseModel | TypegooseTemplate | None:
    target = _bare(target) if target is not None else None
    line = reading._line(call)
    if target is not None and target.type == "identifier":
        name = reading.text(target)
        if name in reading.imports:
            return TypegooseModel(line, None, reading.imports[name], naming)
        function = _parameter_of(reading, target, name)
        if function is None:
            return TypegooseModel(line, name, None, naming)
        if function[0]:
            return TypegooseTemplate(function[0], function[1], line, naming)
        reading._gap(call, f"a typegoose model of a class the caller passes in ({name})")
        return None
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


def _parameter_of(reading: Reading, node: _Node, name: str) -> tuple[str, int] | None:
    """The function `name` at `node` is a parameter of, as (its name at the file's top, the
    parameter's index): "" for a function no other code can name (a method, a nested
    function, an anonymous one); None when `name` is no parameter."""
    scope = node.parent
    while scope is not None:
        if scope.type in _FUNCTIONS:
            parameters = scope.child_by_field_name("parameters") or scope.child_by_field_name(
                "parameter"
            )
            names = _names(reading, parameters) if parameters is not None else []
            if name in names:
                return _top_level_name(reading, scope), names.index(name)
        scope = scope.parent
    return None


def _top_level_name(reading: Reading, function: _Node) -> str:
    """`function f(…)` or `const f = (…) => …` at the file's top (`export`ed too), else ""."""
    holder = function
    if function.type in ("arrow_function", "function_expression", "function"):
        holder = function.parent  # type: ignore[assignment]
        if holder is None or holder.type != "variable_declarator":
            return ""
        holder = holder.parent  # type: ignore[assignment]
    elif function.type != "function_declaration":
        return ""
    if (
        holder is not None
        and holder.parent is not None
        and holder.parent.type == "export_statement"
    ):
        holder = holder.parent
    if holder is None or holder.parent is None or holder.parent.type != "program":
        return ""
    named = function.child_by_field_name("name")
    if named is None and function.parent is not None:
        named = function.parent.child_by_field_name("name")
    return reading.text(named) if named is not None and named.type == "identifier" else ""


def _names(reading: Reading, parameters: _Node) -> list[str]:
    if parameters.type == "identifier":
        return [reading.text(parameters)]
    names: list[str] = []
    for parameter in parameters.named_children:
        pattern = parameter.child_by_field_name("pattern") or parameter
        names.append(reading.text(pattern) if pattern.type == "identifier" else "")
    return names


def _same(a: _Node | None, b: _Node) -> bool:
    return a is not None and (a.start_byte, a.end_byte) == (b.start_byte, b.end_byte)


def _arguments(call: _Node) -> list[_Node]:
    arguments = call.child_by_field_name("arguments")
    return [a for a in arguments.named_children if a.type != "comment"] if arguments else []


def _bare(node: _Node) -> _Node:
    while node.type in _TRANSPARENT and node.named_children:
        node = node.named_children[0]
    return node
