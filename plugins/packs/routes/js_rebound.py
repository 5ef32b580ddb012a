"""JavaScript names bound more than once (`let p = '/a'; p = p + '/b'`, `p += '/c'`, `n++`,
`[p] = list`): the file's bindings hold one value per name, the first, so a route or a prefix
read through such a name was listed under that first value with no finding (attack-16).

A name is read here in statement order where that order is the order it runs in: every binding
of it is a statement of one body (the file's top level or one function's), written directly in
it (no branch, loop or nested function around it), and the read is in that body too, not in a
function nested in it. Then the read is the last binding before it (`+=` the value before and
what it adds). Anywhere else (a binding in a branch, a loop, another function, a read in a
closure) the value is `Opaque`: the route or the prefix is a finding at the read, never the
first value. A name bound once is left to the reader's usual rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .model import Concat, Expr, Opaque

if TYPE_CHECKING:
    from .js_facts import _Node, _Reader

_UPDATE = re.compile(rb"\+\+|--")
_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "function_declaration",
     "generator_function_declaration", "method_definition"}
)  # fmt: skip
_BINDINGS = frozenset({"variable_declarator", "assignment_expression",
                       "augmented_assignment_expression"})  # fmt: skip
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_PATTERNS = frozenset({"array_pattern", "object_pattern", "pair_pattern", "rest_pattern",
                       "assignment_pattern", "object_assignment_pattern"})  # fmt: skip
MAX_BINDINGS = 32  # a name bound more often than this in one body is read as not known

# a binding: its node (a declarator or an assignment), how it binds (`decl`, `set`, `add`, `op`)
_Site = tuple["_Node", str]


class Rebound:
    """The bindings of a file's candidate names and the reads through them."""

    def __init__(self, reader: _Reader, root: _Node) -> None:
        self.reader = reader
        self.root = root
        self._sites: dict[str, list[_Site]] = {}  # every binding the reader notes, by name
        self._again: set[str] = set()  # names with a binding other than a declaration
        self._uninitialised: set[str] = set()  # module-level names declared without a value
        self._declaring: dict[tuple[int, str], _Node] = {}  # (scope id, name) -> its scope
        self._decl_scopes: dict[str, set[int]] = {}  # name -> the ids of the scopes declaring it
        # name -> the id of the scope declaring it -> the bindings there, in source order
        self._grouped: dict[str, dict[int, list[_Site]]] = {}

    def read(self, node: _Node, name: str, read: Callable[[_Node], Expr | None]) -> Expr | None:
        """`name` read at `node`: its value in statement order, `Opaque` where that order is
        not known; `node` itself when the name is bound once there (the caller reads it)."""
        sites = self._sites.get(name)
        if not sites or (len(sites) < 2 and not self._is_param(node, name)):
            return None
        return self._read_at(self._scope(node), node.start_byte, name, read)

    def at_end(self, name: str, read: Callable[[_Node], Expr | None]) -> Expr | None:
        """The value a module-level `name` declared without one (`let app;`) holds once the
        module's body has run: what `export { app }` gives; None when no binding is noted."""
        if name not in self._uninitialised or len(self._sites.get(name, ())) < 2:
            return None
        return self._read_at(self.root, self.root.end_byte, name, read)

    def uninitialised(self, declarations: list[_Node]) -> None:
        """`let app;`, `var x;` (`js_scopes` finds them): a declaration without a value is a
        binding too (of `undefined`) when the file assigns the name again."""
        if not self._again:
            return
        fields = self.reader.fields
        for declaration in declarations:
            for declarator in declaration.named_children:
                target = declarator.child_by_field_id(fields.name)
                if (
                    declarator.type != "variable_declarator"
                    or target is None
                    or target.type != "identifier"
                    or declarator.child_by_field_id(fields.value) is not None
                ):
                    continue
                name = self.reader._text(target)
                if name in self._again and not self._constructed(name):
                    self._add(name, (declarator, "decl"))
                    if self._scope(declarator) == self.root:
                        self._uninitialised.add(name)

    def _constructed(self, name: str) -> bool:
        """Whether every binding of `name` is an assignment in a constructor (`let base;` set
        by `constructor(mountAt) { base = mountAt }`): what `new` passes, the reader's own
        rule (`_Reader._assign`), not statement order."""
        sites = self._sites.get(name, ())
        return bool(sites) and all(
            kind == "set" and self.reader._constructor_of(site) is not None for site, kind in sites
        )

    def _read_at(
        self, scope: _Node, at: int, name: str, read: Callable[[_Node], Expr | None]
    ) -> Expr | None:
        declaring = self._declaring_scope(scope, name)
        bound = self._groups(name).get(declaring.id, [])
        count = len(bound) + (1 if self._param_of(declaring, name) else 0)
        if count < 2:
            return None
        if scope != declaring or len(bound) > MAX_BINDINGS:
            return Opaque()
        body = self._body(declaring)
        if body is None or not all(self._straight(site, body) for site, _ in bound):
            return Opaque()
        before = [s for s in bound if s[0].end_byte <= at]
        if not before:
            return None  # a parameter's value, read as the caller reads it
        site, kind = before[-1]
        fields = self.reader.fields
        if kind == "decl":
            value = site.child_by_field_id(fields.value)
            return (read(value) or Opaque()) if value is not None else Opaque()
        right = site.child_by_field_id(fields.right)
        if kind == "set" and right is not None:
            return read(right) or Opaque()
        left = site.child_by_field_id(fields.left)
        if kind == "add" and left is not None and right is not None:
            was, added = read(left), read(right)
            if was is not None and added is not None and not isinstance(was, Opaque):
                return Concat((was, added))
        return Opaque()

    def assigns(self) -> bool:
        """Whether the file binds a name other than by a declaration."""
        return bool(self._again)

    def assigned_later(self) -> list[str]:
        """The module-level names declared without a value and assigned, in a stable order."""
        return sorted(self._uninitialised)

    def bound_again(self, name: str) -> bool:
        """Whether the file binds `name` other than by a declaration."""
        return name in self._again

    def note(self, binding: _Node | None) -> _Node | None:
        """A declarator or an assignment the reader's walk of every `=` meets: the names it
        binds. Its target (the name or pattern), for `js_scopes` to list a declarator's."""
        if binding is None or binding.type not in _BINDINGS:
            return None
        fields = self.reader.fields
        target = binding.child_by_field_id(
            fields.name if binding.type == "variable_declarator" else fields.left
        )
        if target is None:
            return None
        if target.type == "identifier":
            site = self._binding(target)
            if site is not None:
                self._add(self.reader._text(target), site)
        elif binding.type == "assignment_expression":  # `[a, b] = x`, `({ a } = x)`
            for name in self._pattern_names(target):
                self._add(name, (binding, "op"))
        return target

    def updates(self) -> None:
        """`n++`, `--n`: found by their text, once the walk of every `=` is done."""
        source = self.reader.source
        if b"++" not in source and b"--" not in source:
            return
        for m in _UPDATE.finditer(source):
            node = self.root.descendant_for_byte_range(m.start(), m.end())
            parent = node.parent if node is not None else None
            if parent is None or parent.type != "update_expression":
                continue
            argument = parent.child_by_field_id(self.reader.fields.argument)
            if argument is not None and argument.type == "identifier":
                self._add(self.reader._text(argument), (parent, "op"))

    def _add(self, name: str, site: _Site) -> None:
        listed = self._sites.setdefault(name, [])
        if any(s[0] == site[0] for s in listed[-2:]):
            return  # met twice (`a = b = c` is two)
        listed.append(site)
        if len(listed) > 1 and listed[-2][0].start_byte > site[0].start_byte:
            listed.sort(key=lambda s: s[0].start_byte)
        if site[1] != "decl":
            self._again.add(name)

    def _groups(self, name: str) -> dict[int, list[_Site]]:
        """`name`'s bindings by the scope declaring the name each binds (made once a name)."""
        known = self._grouped.get(name)
        if known is None:
            known = self._grouped[name] = {}
            for site in self._sites.get(name, ()):
                declaring = self._declaring_scope(self._scope(site[0]), name)
                known.setdefault(declaring.id, []).append(site)
        return known

    def _binding(self, node: _Node) -> _Site | None:
        parent = node.parent
        if parent is None or node.type != "identifier":
            return None
        fields = self.reader.fields
        kind = parent.type
        if kind == "variable_declarator" and parent.child_by_field_id(fields.name) == node:
            return (parent, "decl") if parent.child_by_field_id(fields.value) else None
        if kind == "assignment_expression" and parent.child_by_field_id(fields.left) == node:
            return parent, "set"
        if kind == "augmented_assignment_expression":
            if parent.child_by_field_id(fields.left) != node:
                return None
            operator = parent.child_by_field_id(fields.operator)
            plus = operator is not None and self.reader._text(operator) == "+="
            return parent, "add" if plus else "op"
        if kind == "update_expression":
            return parent, "op"
        return None

    def _pattern_names(self, pattern: _Node | None) -> list[str]:
        """The names a destructuring assignment's left side binds."""
        if pattern is None or pattern.type not in _PATTERNS:
            return []
        names, stack = [], [pattern]
        while stack:
            item = stack.pop()
            if item.type in {"identifier", "shorthand_property_identifier_pattern"}:
                if item.parent is not None and item.parent.type == "pair_pattern":
                    key = item.parent.child_by_field_id(self.reader.fields.key)
                    if key == item:
                        continue
                names.append(self.reader._text(item))
            elif item.type in _PATTERNS:
                stack.extend(item.named_children)
        return names

    def _scope(self, node: _Node) -> _Node:
        """The function `node` is written in, or the file's root."""
        scope = node.parent
        while scope is not None and scope.type not in _FUNCTIONS:
            scope = scope.parent
        return scope if scope is not None else self.root

    def _declaring_scope(self, scope: _Node, name: str) -> _Node:
        """The scope, from `scope` outward, that declares `name` (a parameter, a declarator)."""
        key = (scope.id, name)
        known = self._declaring.get(key)
        if known is not None:
            return known
        declaring = self._decl_scopes.get(name)
        if declaring is None:
            declaring = self._decl_scopes[name] = {
                self._scope(site).id for site, kind in self._sites.get(name, ()) if kind == "decl"
            }
        found = scope
        while found != self.root and not (found.id in declaring or self._param_of(found, name)):
            found = self._scope(found)
        self._declaring[key] = found
        return found

    def _param_of(self, scope: _Node, name: str) -> bool:
        return scope != self.root and self.reader._param_index(scope, name) is not None

    def _is_param(self, node: _Node, name: str) -> bool:
        return self._param_of(self._declaring_scope(self._scope(node), name), name)

    def _body(self, scope: _Node) -> _Node | None:
        if scope == self.root:
            return scope
        body = scope.child_by_field_id(self.reader.fields.body)
        return body if body is not None and body.type == "statement_block" else None

    @staticmethod
    def _straight(site: _Node, body: _Node) -> bool:
        """Whether the binding is a statement written directly in `body`."""
        statement = site.parent
        if statement is None:
            return False
        if site.type == "variable_declarator":
            if statement.type not in _DECLARATIONS:
                return False
        elif statement.type != "expression_statement":
            return False
        holder = statement.parent
        if holder is not None and holder.type == "export_statement":
            holder = holder.parent
        return holder == body
