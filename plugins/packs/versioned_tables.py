"""The tables SQLAlchemy-Continuum (and its fork SQLAlchemy-History) make at runtime.

`make_versioned(...)` makes, when the mappers are configured (read from Continuum 1.3–1.5's
`builder.py`, `relationship_builder.py`, `table_builder.py`, `transaction.py`, `plugins/`):

- for each mapped class with a `__versioned__` attribute (its own or inherited) whose option
  `versioning` is not false and that maps a table of its own: `table_name % table`
  (`'%s_version'` by default; the class's `__versioned__['table_name']` over the manager's
  `options`);
- for each `relationship(..., secondary=T)` of such a class (not `viewonly`, not in its
  `exclude` option): `table_name % T` with the manager's option (an association table has no
  class of its own);
- the `transaction` table of its `TransactionFactory`, and the tables of the plugins that add
  one (`ActivityPlugin`: `activity`, `TransactionChangesPlugin`: `transaction_changes`,
  `TransactionMetaPlugin`: `transaction_meta`).

What is not read (a computed option or `__versioned__`, a `secondary` not a literal nor a
`Table` of the repository) is a finding at the place it is written; the tables are listed at
the `make_versioned` call, where the library is configured.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .bounded_values import MAX_LENGTH
from .pymodules import dotted, last_name, literal
from .tables import UNRESOLVED_TABLE_NAME, Gap, TableClaim

DEFAULT_TABLE_NAME = "%s_version"
TRANSACTION_TABLE = "transaction"
PLUGIN_TABLES = {
    "ActivityPlugin": "activity",
    "TransactionChangesPlugin": "transaction_changes",
    "TransactionMetaPlugin": "transaction_meta",
}


@dataclass(frozen=True)
class VersionedModel:
    """A mapped class the pack lists: its table, and its class attributes (own over its
    ancestors') where `__versioned__` and its relationships are read."""

    claim: TableClaim
    attributes: Mapping[str, ast.expr]
    path: str  # the module that holds the class (a `secondary` name is looked up there)


class _Unread(Exception):
    def __init__(self, detail: str, node: ast.AST) -> None:
        super().__init__(detail)
        self.detail = detail
        self.line = getattr(node, "lineno", 0)


def versioned_tables(
    library: str,
    call: ast.Call,
    path: str,
    models: Sequence[VersionedModel],
    table_named: Callable[[str, str], str | None],
) -> tuple[list[TableClaim], list[Gap]]:
    """The tables `call` (`make_versioned(...)` in `path`) makes for `models`; `table_named`
    gives the table a `secondary=` name means in a module (None: not known)."""
    gaps: list[Gap] = []
    try:
        options = _manager_options(call)
    except _Unread as unread:
        detail = f"{library} is configured here: {unread.detail}; its tables are not listed"
        return [], [Gap(UNRESOLVED_TABLE_NAME, detail, path, unread.line or call.lineno)]
    where = (("generatedBy", library),)
    made: dict[str, TableClaim] = {}

    def add(name: str, model: str | None) -> None:
        attrs = (*where, ("versionOf", model)) if model else where
        made.setdefault(name, TableClaim(name, path, call.lineno, None, (), attrs))

    add(TRANSACTION_TABLE, None)
    for plugin in _plugins(call):
        if (table := PLUGIN_TABLES.get(plugin)) is not None:
            add(table, None)
    for model in models:
        versioned = model.attributes.get("__versioned__")
        if versioned is None:
            continue
        try:
            own = _options(versioned, "__versioned__")
            if own.get("versioning", options.get("versioning", True)) is False:
                continue
            pattern = own.get("table_name", options.get("table_name", DEFAULT_TABLE_NAME))
            add(_formatted(pattern, model.claim.name, versioned), model.claim.name)
            excluded = own.get("exclude", options.get("exclude", ()))
            for key, secondary in _secondaries(model.attributes):
                if isinstance(excluded, tuple) and key in excluded:
                    continue
                table = _secondary_table(secondary, model.path, table_named)
                association = options.get("table_name", DEFAULT_TABLE_NAME)
                add(_formatted(association, table, secondary), table)
        except _Unread as unread:
            detail = f"{library} versions {model.claim.name!r}: {unread.detail}"
            gaps.append(Gap(UNRESOLVED_TABLE_NAME, detail, model.path, unread.line))
    return list(made.values()), gaps


def _manager_options(call: ast.Call) -> dict[str, object]:
    """`make_versioned(options={...})` over a `manager=VersioningManager(options={...})`."""
    options: dict[str, object] = {}
    manager = next((k.value for k in call.keywords if k.arg == "manager"), None)
    for source in (manager, call):
        if not isinstance(source, ast.Call):
            continue
        given = next((k.value for k in source.keywords if k.arg == "options"), None)
        if given is not None:
            options.update(_options(given, "its options"))
    return options


def _options(node: ast.expr, what: str) -> dict[str, object]:
    """A literal dict of options: str keys, str/bool values, lists of str (`exclude`)."""
    if not isinstance(node, ast.Dict):
        raise _Unread(f"{what} is not a literal dict", node)
    found: dict[str, object] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        name = literal(key) if key is not None else None
        if not isinstance(name, str):
            raise _Unread(f"{what} has a key that is not a literal", node)
        if isinstance(value, ast.List | ast.Tuple | ast.Set):
            items = tuple(literal(item) for item in value.elts)
            found[name] = items
        else:
            found[name] = literal(value) if literal(value) is not None else value
    for name in ("table_name", "versioning"):
        if isinstance(found.get(name), ast.AST):
            raise _Unread(f"its option {name!r} is computed", node)
    return found


def _formatted(pattern: object, table: str, node: ast.AST) -> str:
    """`pattern % table`; past `MAX_LENGTH` characters not read, and the pattern quoted short
    in the finding: a 200,000-character option applied to 300 models made a 60 MB document,
    past the host's line cap (`E_FRAME_JSON`)."""
    if not isinstance(pattern, str) or pattern.count("%s") != 1 or pattern.count("%") != 1:
        shown = repr(pattern) if len(repr(pattern)) <= 80 else f"{repr(pattern)[:77]}..."
        raise _Unread(f"the table_name option {shown} is not read", node)
    if len(pattern) - 2 + len(table) > MAX_LENGTH:
        raise _Unread(f"the table_name option makes a name past {MAX_LENGTH} characters", node)
    return pattern % table


def _plugins(call: ast.Call) -> list[str]:
    plugins = next((k.value for k in call.keywords if k.arg == "plugins"), None)
    if not isinstance(plugins, ast.List | ast.Tuple):
        return []
    return [
        last_name(dotted(item.func) or "") for item in plugins.elts if isinstance(item, ast.Call)
    ]


def _secondaries(attributes: Mapping[str, ast.expr]) -> list[tuple[str, ast.expr]]:
    """`key = relationship(..., secondary=X)` attributes that write to X (not `viewonly`)."""
    found: list[tuple[str, ast.expr]] = []
    for key, value in attributes.items():
        if not isinstance(value, ast.Call) or last_name(dotted(value.func) or "") not in (
            "relationship",
            "relation",
        ):
            continue
        keywords = {k.arg: k.value for k in value.keywords if k.arg is not None}
        if "secondary" in keywords and literal(keywords.get("viewonly")) is not True:
            found.append((key, keywords["secondary"]))
    return found


def _secondary_table(
    node: ast.expr, path: str, table_named: Callable[[str, str], str | None]
) -> str:
    """A `secondary=`: a table's name (`"schema.t"` read as `t`), a `Table` bound to a name
    (through a `lambda:` too), else not read."""
    if isinstance(node, ast.Lambda):
        node = node.body
    text = literal(node)
    if isinstance(text, str):
        return text.rpartition(".")[2]
    name = dotted(node)
    table = table_named(path, name) if name is not None else None
    if table is None:
        raise _Unread(f"the association table secondary={ast.unparse(node)} is not read", node)
    return table
