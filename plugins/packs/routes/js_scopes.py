"""Which declaration a JavaScript name read reaches, by ECMAScript's lexical scoping.

The reader's bindings hold one value per name, so two functions that each declare `const p`
(or `const r = express.Router()`) were read as one name, the first declaration's, and a
parameter named as a module-level variable was read as that variable. Here a read is followed
outward from where it is written to the nearest scope that declares its name: a block for `let`,
`const`, `class` and a function declaration; a function for `var` (hoisted: anywhere in its body
but a nested function) and its parameters; a `for (const x of …)` loop for its variable; a
`catch` clause for its parameter; the module for its own declarations and imports.

A read is followed only for a name the file may declare more than once (in two scopes, or in
one and among the words of what may be a parameter list: `declares`), and a local gets a
binding of its own (`scoped_name`) only where another declaration or a parameter of the name
could be meant (`shadows`): every other name is one binding, read as before. Declarations are
listed once per file, on the first question: the declarators the reader's walk of every `=`
meets, and the few kinds it does not (`_UNVALUED`); a name's scopes are found when it is asked
about."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .js_facts import _Node, _Reader

# the declarations the walk of every `=` does not meet: `let x;` (a TypeScript type after it),
# `for (const x of xs)`, a named function or class. One expression each, so that each starts
# with its word (a search for a word costs a tenth of one for any of several); the word the
# tree confirms is the first (a `for` loop's: the one in group 1)
_UNVALUED = tuple(
    re.compile(pattern)
    for pattern in (
        rb"let\s+[A-Za-z_$][\w$]*\s*(?::[^=;\n]{0,80})?[;,\n)]",
        rb"var\s+[A-Za-z_$][\w$]*\s*(?::[^=;\n]{0,80})?[;,\n)]",
        rb"for\s*\(\s*(const|let|var)\s",
        rb"function\s*\*?\s*[A-Za-z_$]",
        rb"class\s+[A-Za-z_$]",
    )
)
_WORDS = (b"let", b"var", b"", b"function", b"class")
_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "function_declaration",
     "generator_function_declaration", "generator_function", "method_definition"}
)  # fmt: skip
_NAMED = frozenset({"function_declaration", "generator_function_declaration",
                    "class_declaration", "abstract_class_declaration"})  # fmt: skip
# the end of what may be a parameter list: `)` before `=>` or a body's `{` (a TypeScript return
# type between); the list runs back to its `(`, and one name before `=>` is one too. A list
# holding parentheses itself (`(a = f()) =>`) is not seen, and its parameters read as before.
_PARAM_END = re.compile(rb"\)\s*(?::[^=;{()]{0,120})?(?:=>|\{)")
_ARROW = re.compile(rb"=>")
_STATEMENTS = (b"if", b"for", b"while", b"switch", b"catch", b"with")
_WORD = re.compile(rb"[A-Za-z_$][\w$]*")
_NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_BLANKS = frozenset(b" \t\r\n")
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_MEMO = _FUNCTIONS | {"statement_block"}  # where `reached` keeps what a name reaches
_NAMES = frozenset({"identifier", "shorthand_property_identifier_pattern", "type_identifier"})
_PATTERNS = frozenset({"object_pattern", "array_pattern", "pair_pattern", "rest_pattern",
                       "assignment_pattern", "object_assignment_pattern",
                       "required_parameter", "optional_parameter"})  # fmt: skip

# how a scope declares a name, with the node that does: a declarator (`decl`), a loop's
# variable (`loop`), a function or class declaration, an import, a parameter, a caught error
DECL, LOOP, NAMED, IMPORT, PARAM, CAUGHT = "decl", "loop", "named", "import", "param", "caught"
# how a name is declared, the node that declares it (for a parameter, its function), and the
# scope it is declared in
Reached = tuple[str, "_Node", "_Node"]


def _param_words(source: bytes) -> set[str]:
    """Every word of what may be a parameter list in `source` (`_PARAM_END`): a superset of
    the file's parameters' names, found without a regular expression that starts at every
    name (which costs as much as the rest of the reader)."""
    words: set[bytes] = set()
    for match in _PARAM_END.finditer(source):
        end = match.start()
        start = source.rfind(b"(", 0, end)
        if start < 0 or source.rfind(b")", 0, end) > start:
            continue
        before = source[max(start - 8, 0) : start].rstrip()
        if before.endswith(_STATEMENTS) and _statement(before):
            continue  # `if (ready) {`, `while (…) {`: no parameters
        words.update(_WORD.findall(source, start, end))
    for match in _ARROW.finditer(source):
        end = match.start()
        while end > 0 and source[end - 1] in _BLANKS:
            end -= 1
        start = end
        while start > 0 and source[start - 1] in _NAME_BYTES:
            start -= 1
        if start < end:
            words.add(source[start:end])
    return {w.decode("utf-8", "replace") for w in words}


def _statement(before: bytes) -> bool:
    """Whether `before` ends with a statement's word (`if`, not `notif`)."""
    for word in _STATEMENTS:
        if before.endswith(word):
            cut = len(before) - len(word)
            return cut == 0 or before[cut - 1] not in _NAME_BYTES
    return False


def scoped_name(name: str, declarator: _Node) -> str:
    """The binding's name of a local that is one of several declarations of `name`: the name
    and where it is declared (`p@4:20`); `spelled` gives the name back."""
    return f"{name}@{declarator.start_point.row + 1}:{declarator.start_point.column}"


def spelled(name: str) -> str:
    """The name as the source spells it (`p@4:20` is `p`)."""
    at = name.find("@", 1)
    return name[:at] if at > 0 else name


class Scopes:
    """The file's declarations by name and scope, and the declaration each read reaches."""

    def __init__(self, reader: _Reader, root: _Node) -> None:
        self.reader = reader
        self.root = root
        # name -> the id of each scope declaring it -> how, and the node that declares it
        self._declared: dict[str, dict[int, Reached]] = {}
        # name -> its declarations (`_listed`)
        self._names: dict[str, list[tuple[int, str, _Node, _Node | None]]] | None = None
        self._params: dict[int, frozenset[str]] = {}  # function id -> its parameters' names
        self._memo: dict[tuple[int, str], Reached | None] = {}  # (block or function id, name)
        self._noted: list[tuple[_Node, _Node]] = []  # declarators with a value, their targets
        # the `let`/`var` declarations whose first declarator has no value (`let app;`)
        self.unvalued: list[_Node] = []
        self._param_words: set[str] | None = None  # every word of what may be a parameter list

    def contested(self, name: str) -> bool:
        """Whether the file declares `name` in more than one scope."""
        return len(self._scopes_of(name)) > 1

    def reached(self, node: _Node, name: str) -> Reached | None:
        """The declaration of `name` that the read at `node` reaches: (how, node, scope); for
        a parameter, (`PARAM`, its function, it). None: no scope of the file declares it.
        What a block or a function reaches is kept (`_memo`): reads of one name in one
        function walk up to the first block, not to the module, each time."""
        scopes = self._scopes_of(name)
        passed: list[int] = []  # the blocks and functions walked through, to remember
        found: Reached | None = None
        scope = node.parent
        while scope is not None:
            here = scopes.get(scope.id)
            if here is not None:
                found = here
                break
            kind = scope.type
            if kind in _MEMO:
                key = scope.id
                if (key, name) in self._memo:
                    found = self._memo[key, name]
                    break
                passed.append(key)
            if kind in _FUNCTIONS and name in self.params(scope):
                found = (PARAM, scope, scope)
                break
            if kind == "catch_clause":
                caught = scope.child_by_field_id(self.reader.fields.parameter)
                if caught is not None and name in self._pattern_names(caught):
                    found = (CAUGHT, scope, scope)
                    break
            scope = scope.parent
        for key in passed:
            self._memo[key, name] = found
        return found

    def declares(self, name: str) -> bool:
        """Whether `name` may be declared more than once in the file: in two scopes, or in
        one and as a parameter (`_PARAM_LIST`'s words, a superset); only such a name's reads
        are followed to their declaration."""
        listed = self._listed().get(name)
        if listed is None:
            return False
        if len(listed) > 1 and len(self._scopes_of(name)) > 1:
            return True
        if self._param_words is None:
            self._param_words = _param_words(self.reader.source)
        return name in self._param_words

    def declared_by(self, declarator: _Node, name: str) -> Reached | None:
        """The declaration of `name` that `declarator` makes, if it is the first in its scope."""
        for reached in self._scopes_of(name).values():
            if reached[1] == declarator:
                return reached
        return None

    def shadows(self, reached: Reached, name: str) -> bool:
        """Whether the declaration `reached` is one of several the file makes of `name`: in
        another scope, or a parameter or declaration around its own scope."""
        if self.contested(name):
            return True
        scope = reached[2]
        return scope != self.root and self.reached(scope, name) is not None

    def params(self, function: _Node) -> frozenset[str]:
        known = self._params.get(function.id)
        if known is None:
            fields = self.reader.fields
            single = function.child_by_field_id(fields.parameter)  # `app => ...`
            if single is not None:
                known = frozenset(self._pattern_names(single))
            else:
                params = function.child_by_field_id(fields.parameters)
                names: list[str] = []
                for param in params.named_children if params is not None else ():
                    names += self._pattern_names(param)
                known = frozenset(names)
            self._params[function.id] = known
        return known

    def note(self, declarator: _Node, target: _Node | None) -> None:
        """A declarator with a value and its target, which the reader's walk of every `=`
        meets: the declarations without one are found from the text (`_UNVALUED`)."""
        if target is not None:
            self._noted.append((declarator, target))

    def unvalued_declarations(self) -> list[_Node]:
        """The `let`/`var` declarations with no value (`let app;`), for `js_rebound`."""
        self._listed()
        return self.unvalued

    def _scopes_of(self, name: str) -> dict[int, Reached]:
        """The scopes declaring `name`, each with its first declaration there (made once a
        name, when asked: most names are declared once and never asked about)."""
        known = self._declared.get(name)
        if known is None:
            known = self._declared[name] = {}
            for _, how, node, scope in self._listed().get(name, ()):
                if scope is None:  # a declarator: its declaration's scope
                    holder = node.parent
                    if holder is None:
                        continue
                    scope = (
                        self._function_of(holder)
                        if holder.type == "variable_declaration"
                        else self._block_of(holder)
                    )
                known.setdefault(scope.id, (how, node, scope))
        return known

    def _listed(self) -> dict[str, list[tuple[int, str, _Node, _Node | None]]]:
        """Every declaration of the file by name, in source order: (where, how, the node, its
        scope, or None for a declarator, whose scope `_scopes_of` finds)."""
        if self._names is not None:
            return self._names
        reader, root = self.reader, self.root
        fields = reader.fields
        found: list[tuple[int, str, str, _Node, _Node | None]] = []
        for statement in root.named_children:
            if statement.type == "import_statement":
                for name in self._import_names(statement):
                    found.append((statement.start_byte, name, IMPORT, statement, root))
        declarators = list(self._noted)
        unvalued: set[int] = set()
        source = reader.source
        for pattern, spelled in zip(_UNVALUED, _WORDS, strict=True):
            for match in pattern.finditer(source):
                start, end = (
                    match.span(1) if not spelled else (match.start(), match.start() + len(spelled))
                )
                if start > 0 and source[start - 1] in _NAME_BYTES and spelled:
                    continue  # `outlet x;`: a word ending so
                word = root.descendant_for_byte_range(start, end)
                holder = word.parent if word is not None and not word.is_named else None
                if holder is None or word is None or word.start_byte != start:
                    continue
                if holder.type in _DECLARATIONS:
                    if holder.id not in unvalued:
                        unvalued.add(holder.id)
                        self.unvalued.append(holder)
                        for d in holder.named_children:
                            if (
                                d.type == "variable_declarator"
                                and d.child_by_field_id(fields.value) is None
                                and (target := d.child_by_field_id(fields.name)) is not None
                            ):
                                declarators.append((d, target))
                elif holder.type == "for_in_statement":  # `for (const x of xs)`
                    var = word.type == "var"
                    scope = self._function_of(holder) if var else holder
                    for name in self._pattern_names(holder.child_by_field_id(fields.left)):
                        found.append((holder.start_byte, name, LOOP, holder, scope))
                elif holder.type in _NAMED:
                    named = holder.child_by_field_id(fields.name)
                    if named is not None:
                        block = self._block_of(holder)
                        found.append((holder.start_byte, reader._text(named), NAMED, holder, block))
        text = reader.source
        for declarator, target in declarators:
            at = declarator.start_byte
            if target.type == "identifier":
                name = text[target.start_byte : target.end_byte].decode("utf-8", "replace")
                found.append((at, name, DECL, declarator, None))
            else:
                for name in self._pattern_names(target):
                    found.append((at, name, DECL, declarator, None))
        found.sort(key=lambda f: f[0])
        names: dict[str, list[tuple[int, str, _Node, _Node | None]]] = {}
        for at, name, how, node, held in found:
            names.setdefault(name, []).append((at, how, node, held))
        self._names = names
        return names

    def _block_of(self, declaration: _Node) -> _Node:
        """The scope of a `let`, `const`, `class` or function declaration: the statement
        list (or `for` loop) it is written in."""
        scope = declaration.parent
        while scope is not None and scope.type == "export_statement":
            scope = scope.parent
        return scope if scope is not None else self.root

    def _function_of(self, node: _Node) -> _Node:
        """The scope of a `var`: the function it is written in, or the module."""
        scope = node.parent
        while scope is not None and scope.type not in _FUNCTIONS:
            scope = scope.parent
        return scope if scope is not None else self.root

    def _pattern_names(self, pattern: _Node | None) -> list[str]:
        """The names a binding pattern (a name, `{ a, b: c }`, `[a, ...b]`, `a = 1`, a
        TypeScript parameter) declares."""
        if pattern is None:
            return []
        fields = self.reader.fields
        names: list[str] = []
        stack = [pattern]
        while stack:
            item = stack.pop()
            if item.type in _NAMES:
                names.append(self.reader._text(item))
            elif item.type == "pair_pattern":
                value = item.child_by_field_id(fields.value)
                if value is not None:
                    stack.append(value)
            elif item.type in {"assignment_pattern", "object_assignment_pattern"}:
                left = item.child_by_field_id(fields.left)
                if left is not None:
                    stack.append(left)
            elif item.type in {"required_parameter", "optional_parameter"}:
                target = item.child_by_field_id(fields.pattern)
                if target is not None:
                    stack.append(target)
            elif item.type in _PATTERNS:
                stack.extend(item.named_children)
        return names

    def _import_names(self, statement: _Node) -> list[str]:
        """The local names an `import` statement declares."""
        names: list[str] = []
        stack = list(statement.named_children)
        while stack:
            item = stack.pop()
            if item.type in {"import_clause", "named_imports", "namespace_import"}:
                stack.extend(item.named_children)
            elif item.type == "import_specifier":
                alias = item.child_by_field_id(self.reader.fields.alias)
                named = alias or item.child_by_field_id(self.reader.fields.name)
                if named is not None:
                    names.append(self.reader._text(named))
            elif item.type == "identifier" and item.parent is not None:
                if item.parent.type in {"import_clause", "namespace_import"}:
                    names.append(self.reader._text(item))
            elif item.type == "import_require_clause":
                first = next((c for c in item.named_children if c.type == "identifier"), None)
                if first is not None:
                    names.append(self.reader._text(first))
        return names
