"""A TypeORM naming strategy of the repository's own, evaluated where it is computable.

TypeORM names an entity's table `namingStrategy.tableName(className, givenName)` and a
`@JoinTable()`'s `namingStrategy.joinTableName(ownerTable, targetTable, member, inverse)`.
A class of the project overriding one of them is read into a `Recipe`: the method's `return`
(after `const` bindings and `if (…) return …;` guards) over its parameters, string literals and
the file's string constants, `+`, template strings, `?:`, `||`, `??`, the string methods
`toLowerCase`, `toUpperCase`, `trim`, `concat`, `replace` and `replaceAll` (a regex literal whose
syntax means the same to Python's `re`), TypeORM's own `snakeCase` (imported from
`typeorm/util/StringUtils`; by TypeORM era, as the default strategy), `super.tableName(…)` /
`super.joinTableName(…)` (the default strategy's), and the file's own functions and the class's
own methods called with those (inlined, to a depth). Anything else (another module's helper, a
package such as `pluralize`) leaves the method unread: `None`, and the caller keeps its finding.
Nothing scanned is run; the recipe is data, evaluated per name by `evaluate`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import tree_sitter

from .bounded_values import MAX_LENGTH
from .js_naming import snake_case

_Node = tree_sitter.Node

Recipe = tuple[object, ...]
"""("arg", i) | ("lit", s) | ("none",) | ("cat", r, …) | ("if", test, then, else) |
("or", a, b) | ("nullish", a, b) | ("snake", r) | ("lower", r) | ("upper", r) | ("trim", r) |
("replace", r, pattern, flags, replacement, every) with `pattern` None for a literal search
string given as `flags`."""

STRING_UTILS = ("typeorm/util/StringUtils", "typeorm/browser/util/StringUtils")
"""Where TypeORM's own `snakeCase` is imported from (with or without `.js`)."""

_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression",
                "non_null_expression", "type_assertion"}  # fmt: skip
_FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration"}
_DEPTH = 8  # nested inlined calls before a method is left unread
_MAX_NODES = 20_000
"""Expressions a method's reading may visit, inlined calls counted each time: eight levels of
methods each calling the next thirty times asked for 31^7 readings."""
FILE_NODES = 200_000
"""Expressions the readings of all one file's strategy methods may visit together: 300 such
classes in a 1 MB file were 300 readings of 20,000 each, past `request_ms`."""
_MAX_RECIPE = 500
"""Parts of a recipe written out as a tree: `const b = a + a` names `a` twice, and sixty such
lines made a recipe whose hash (the repository's readings are compared as a set) and whose
evaluation walked 2^60 parts."""
_MAX_NESTING = 100  # levels of a recipe: 3,000 chained `.trim()` overflowed Python's stack
_REGEX_SUBJECT = 128
"""Characters a repository's regex is run on: Python's `re` backtracks, and a pattern within
`_regex_bounded` still costs up to the subject's length cubed."""
_REGEX_FLAGS = {"g": 0, "i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}
_REGEX_SAFE = re.compile(r"(?:\\[dDwWsSbB.\\/()\[\]{}*+?^$|\-_]|\((?!\?)|[^\\(])*")
"""A JS regex Python reads alike: escapes both know, and no `(?…)` group syntax at all."""

DEFAULT_TABLE: Recipe = ("if", ("arg", 1), ("arg", 1), ("snake", ("arg", 0)))
"""`DefaultNamingStrategy.tableName(targetName, userSpecifiedName)`."""
DEFAULT_JOIN: Recipe = (
    "snake",
    ("cat", ("arg", 0), ("lit", "_"), ("replace", ("arg", 2), r"\.", "g", "_", True),
     ("lit", "_"), ("arg", 1)),
)  # fmt: skip
"""`DefaultNamingStrategy.joinTableName(firstTable, secondTable, firstProperty, _)`."""

_DEFAULTS = {"tableName": DEFAULT_TABLE, "joinTableName": DEFAULT_JOIN}


class _Unread(Exception):
    """A construct outside what a recipe holds."""


class FileReading:
    """What the readings of one file's strategy classes share: its top-level functions (listed
    once, not once a class: 10,000 classes were 10^8 statements looked at) and `FILE_NODES`."""

    def __init__(self, text: Callable[[_Node], str], root: _Node) -> None:
        self.functions = _functions(root, text)
        self.left = FILE_NODES


class RecipeReader:
    """Reads one method of a naming-strategy class. `text` spells a node; `imports` maps a
    local name to (module, imported name); `constants` the file's top-level strings; `root` the
    file's tree (its functions); `body` the class body (its other methods); `shared` what the
    file's other readings share, where there are several."""

    def __init__(
        self,
        text: Callable[[_Node], str],
        imports: Mapping[str, tuple[str, str]],
        constants: Mapping[str, str],
        root: _Node,
        body: _Node,
        shared: FileReading | None = None,
    ) -> None:
        self.text = text
        self.imports = imports
        self.constants = constants
        self.shared = shared if shared is not None else FileReading(text, root)
        self.functions = self.shared.functions
        self.visits = 0
        self.methods = {
            text(name): member
            for member in body.named_children
            if member.type == "method_definition"
            and (name := member.child_by_field_name("name")) is not None
        }

    def read(self, method: _Node) -> Recipe | None:
        self.visits = 0
        try:
            recipe = self._function(method, None, 0)
        except _Unread:
            return None
        return recipe if _within_caps(recipe) else None

    def _function(self, function: _Node, args: list[Recipe] | None, depth: int) -> Recipe:
        """The function's result over its parameters: `("arg", i)` where `args` is None,
        else the recipes it is called with."""
        if depth > _DEPTH:
            raise _Unread
        names = _parameters(function, self.text)
        env: dict[str, Recipe] = {}
        for index, name in enumerate(names):
            if args is None:
                env[name] = ("arg", index)
            else:
                env[name] = args[index] if index < len(args) else ("none",)
        body = function.child_by_field_name("body")
        if body is None:
            raise _Unread
        if body.type != "statement_block":
            return self._expr(body, env, depth)
        return self._block(list(body.named_children), env, depth)

    def _block(self, statements: list[_Node], env: dict[str, Recipe], depth: int) -> Recipe:
        for index, statement in enumerate(statements):
            if statement.type == "comment":
                continue
            if statement.type == "return_statement":
                value = statement.named_children[0] if statement.named_children else None
                return self._expr(value, env, depth) if value is not None else ("none",)
            if statement.type == "lexical_declaration":
                for declarator in statement.named_children:
                    name = declarator.child_by_field_name("name")
                    value = declarator.child_by_field_name("value")
                    if declarator.type != "variable_declarator" or name is None:
                        continue
                    if name.type != "identifier":
                        raise _Unread
                    env = {**env, self.text(name): self._expr(value, env, depth)}
                continue
            if statement.type == "if_statement":
                test = self._expr(statement.child_by_field_name("condition"), env, depth)
                then = self._branch(statement.child_by_field_name("consequence"), env, depth)
                alternative = statement.child_by_field_name("alternative")
                rest = (
                    self._branch(alternative, env, depth)
                    if alternative is not None
                    else self._block(statements[index + 1 :], env, depth)
                )
                return ("if", test, then, rest)
            raise _Unread
        raise _Unread  # falls off the end: not a name

    def _branch(self, node: _Node | None, env: dict[str, Recipe], depth: int) -> Recipe:
        while node is not None and node.type == "else_clause":
            node = node.named_children[0] if node.named_children else None
        if node is None:
            raise _Unread
        if node.type == "statement_block":
            return self._block(list(node.named_children), env, depth)
        return self._block([node], env, depth)

    def _expr(self, node: _Node | None, env: dict[str, Recipe], depth: int) -> Recipe:
        self.visits += 1
        self.shared.left -= 1
        if self.visits > _MAX_NODES or self.shared.left < 0:
            raise _Unread
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is None:
            raise _Unread
        kind = node.type
        if kind == "identifier":
            name = self.text(node)
            if name in env:
                return env[name]
            if name == "undefined":
                return ("none",)
            if name in self.constants:
                return ("lit", self.constants[name])
            raise _Unread
        if kind in ("null", "undefined"):
            return ("none",)
        if kind == "string":
            return ("lit", _string(node, self.text))
        if kind == "template_string":
            parts: list[Recipe] = []
            for child in node.named_children:
                if child.type == "template_substitution" and child.named_children:
                    parts.append(self._expr(child.named_children[0], env, depth))
                elif child.type == "string_fragment":
                    parts.append(("lit", self.text(child)))
                elif child.type != "template_substitution":
                    raise _Unread  # an escape sequence
            return ("cat", *parts)
        if kind == "binary_expression":
            operator = node.child_by_field_name("operator")
            left = self._expr(node.child_by_field_name("left"), env, depth)
            right = self._expr(node.child_by_field_name("right"), env, depth)
            op = self.text(operator) if operator is not None else ""
            if op == "+":
                return ("cat", left, right)
            if op == "||":
                return ("or", left, right)
            if op == "??":
                return ("nullish", left, right)
            raise _Unread
        if kind == "ternary_expression":
            return (
                "if",
                self._expr(node.child_by_field_name("condition"), env, depth),
                self._expr(node.child_by_field_name("consequence"), env, depth),
                self._expr(node.child_by_field_name("alternative"), env, depth),
            )
        if kind == "call_expression":
            return self._call(node, env, depth)
        raise _Unread

    def _call(self, node: _Node, env: dict[str, Recipe], depth: int) -> Recipe:
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        raw = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        if callee is None or any(a.type == "spread_element" for a in raw):
            raise _Unread
        if callee.type == "identifier":
            name = self.text(callee)
            args = [self._expr(a, env, depth) for a in raw]
            module, imported = self.imports.get(name, ("", ""))
            if module.removesuffix(".js") in STRING_UTILS and imported == "snakeCase" and args:
                return ("snake", args[0])
            if name in self.functions and name not in self.imports and name not in env:
                return self._function(self.functions[name], args, depth + 1)
            raise _Unread
        if callee.type != "member_expression":
            raise _Unread
        owner = callee.child_by_field_name("object")
        prop = callee.child_by_field_name("property")
        if owner is None or prop is None:
            raise _Unread
        method = self.text(prop)
        if owner.type in ("super", "this"):
            args = [self._expr(a, env, depth) for a in raw]
            if owner.type == "this" and method in self.methods:
                return self._function(self.methods[method], args, depth + 1)
            if method in _DEFAULTS:  # the default strategy's, or `this.x` it inherits
                return _bind(_DEFAULTS[method], args)
            raise _Unread
        subject = self._expr(owner, env, depth)
        if method in ("toLowerCase", "toUpperCase", "trim") and not raw:
            return (
                {"toLowerCase": "lower", "toUpperCase": "upper", "trim": "trim"}[method],
                subject,
            )
        if method == "concat":
            return ("cat", subject, *(self._expr(a, env, depth) for a in raw))
        if method in ("replace", "replaceAll") and len(raw) == 2:
            replacement = self._expr(raw[1], env, depth)
            if replacement[0] != "lit":
                raise _Unread  # a function replacement
            search = raw[0]
            if search.type == "regex":
                pattern = search.child_by_field_name("pattern")
                flags = search.child_by_field_name("flags")
                source = self.text(pattern) if pattern is not None else ""
                flag_text = self.text(flags) if flags is not None else ""
                if (
                    _REGEX_SAFE.fullmatch(source) is None
                    or not _regex_bounded(source)
                    or set(flag_text) - set(_REGEX_FLAGS)
                ):
                    raise _Unread
                try:
                    re.compile(source)
                except re.error:  # a class range JavaScript reads and Python refuses
                    raise _Unread from None
                return ("replace", subject, source, flag_text, replacement[1], "g" in flag_text)
            literal = self._expr(search, env, depth)
            if literal[0] != "lit":
                raise _Unread
            return ("replace", subject, None, literal[1], replacement[1], method == "replaceAll")
        raise _Unread


def evaluate(recipe: Recipe, args: tuple[str | None, ...], era: int = -1) -> str | None:
    """The name a recipe gives for `args` (None: `undefined`), TypeORM's `snakeCase` as of
    `era`; raises `ValueError` where JavaScript would not give a string (a method of
    `undefined`, `undefined` spelled into a name) or where the name would pass `MAX_LENGTH`
    characters, or a regex would run on more than `_REGEX_SUBJECT`. A recipe is a graph
    (`const b = a + a` names `a` twice): each of its parts is computed once a call."""
    value = _run(recipe, args, era, {})
    if value is None:
        raise ValueError("the strategy gives no name")
    return value


def _run(
    recipe: Recipe, args: tuple[str | None, ...], era: int, memo: dict[int, str | None]
) -> str | None:
    key = id(recipe)  # the recipe outlives the call: its parts' ids are not reused
    if key not in memo:
        value = _step(recipe, args, era, memo)
        if value is not None and len(value) > MAX_LENGTH:
            raise ValueError(f"a name longer than {MAX_LENGTH} characters")
        memo[key] = value
    return memo[key]


def _step(
    recipe: Recipe, args: tuple[str | None, ...], era: int, memo: dict[int, str | None]
) -> str | None:
    op = recipe[0]
    if op == "arg":
        index = recipe[1]
        assert isinstance(index, int)
        return args[index] if index < len(args) else None
    if op == "lit":
        return str(recipe[1])
    if op == "none":
        return None
    if op == "if":
        test = _run(_sub(recipe, 1), args, era, memo)
        return _run(_sub(recipe, 2 if test else 3), args, era, memo)
    if op == "or":
        first = _run(_sub(recipe, 1), args, era, memo)
        return first if first else _run(_sub(recipe, 2), args, era, memo)
    if op == "nullish":
        first = _run(_sub(recipe, 1), args, era, memo)
        return first if first is not None else _run(_sub(recipe, 2), args, era, memo)
    parts = [
        _run(_sub(recipe, i), args, era, memo) for i in range(1, len(recipe) if op == "cat" else 2)
    ]
    if any(part is None for part in parts):
        raise ValueError("undefined in a name")
    text = "".join(p for p in parts if p is not None)  # each part within MAX_LENGTH
    if op == "cat":
        return text
    if op == "snake":
        return snake_case(text, era)
    if op == "lower":
        return text.lower()
    if op == "upper":
        return text.upper()
    if op == "trim":
        return text.strip()
    assert op == "replace"
    _, _, pattern, flags, replacement, every = recipe
    assert isinstance(flags, str) and isinstance(replacement, str)
    if pattern is None:
        count = text.count(flags) if every else min(1, text.count(flags))
        if len(text) + count * (len(replacement) - len(flags)) > MAX_LENGTH:
            raise ValueError(f"a name longer than {MAX_LENGTH} characters")
        if every:
            return text.replace(flags, replacement)
        return text.replace(flags, replacement, 1)
    assert isinstance(pattern, str)
    if len(text) > _REGEX_SUBJECT:
        raise ValueError(f"a regex run on more than {_REGEX_SUBJECT} characters")
    # matches do not overlap: each adds the replacement's text, and its `$n` / `$&` copy
    # at most the subject's characters between them
    references = len(re.findall(r"\$(?:\d|&)", replacement))
    if len(text) * (1 + references) + (len(text) + 1) * len(replacement) > MAX_LENGTH:
        raise ValueError(f"a name longer than {MAX_LENGTH} characters")
    options = 0
    for flag in flags:
        options |= _REGEX_FLAGS[flag]
    python = re.sub(
        r"\$(\d|&)",
        lambda m: "\\g<0>" if m[1] == "&" else f"\\g<{m[1]}>",
        replacement.replace("\\", "\\\\"),
    )
    return re.sub(pattern, python, text, count=0 if every else 1, flags=options)


_QUANTIFIER = re.compile(r"[*+?]|\{\d+(?:,\d*)?\}")
_MAX_QUANTIFIERS = 2
_MAX_ALTERNATIVES = 3


def _regex_bounded(source: str) -> bool:
    """Whether Python's backtracking `re` runs `source` in time polynomial and small: no
    quantified group that itself holds a quantifier or a `|` (`/^(A+)+$/` over forty `A`s
    and a `B` backtracks 2^40 times), at most `_MAX_QUANTIFIERS` quantifiers and
    `_MAX_ALTERNATIVES` `|` in all (`a?` forty times before forty `a`s is exponential too)."""
    quantifiers = alternatives = 0
    groups: list[bool] = []  # per open group: whether it holds a quantifier or a `|`
    closed = False  # the atom just read is a group that holds one
    index = 0
    while index < len(source):
        char = source[index]
        quantifier = _QUANTIFIER.match(source, index)
        if quantifier is not None and index > 0:
            if closed:
                return False
            quantifiers += 1
            index = quantifier.end()
            if source[index : index + 1] == "?":  # lazy: the same quantifier
                index += 1
            groups[-1:] = [True] * len(groups[-1:])
            continue
        closed = False
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index += 1
            while index < len(source) and source[index] != "]":
                index += 2 if source[index] == "\\" else 1
        elif char == "(":
            groups.append(False)
        elif char == ")" and groups:
            closed = groups.pop()
            if closed and groups:
                groups[-1] = True
        elif char == "|":
            alternatives += 1
            groups[-1:] = [True] * len(groups[-1:])
        index += 1
    return quantifiers <= _MAX_QUANTIFIERS and alternatives <= _MAX_ALTERNATIVES


def _within_caps(recipe: Recipe) -> bool:
    """Whether `recipe` written out as a tree has at most `_MAX_RECIPE` parts, none nested
    deeper than `_MAX_NESTING` (its evaluation recurses once a level); the walk stops at the
    first part past either."""
    stack: list[tuple[Recipe, int]] = [(recipe, 0)]
    seen = 0
    while stack:
        part, level = stack.pop()
        seen += 1
        if seen > _MAX_RECIPE or level > _MAX_NESTING:
            return False
        stack.extend((child, level + 1) for child in part if isinstance(child, tuple))
    return True


def _sub(recipe: Recipe, index: int) -> Recipe:
    part = recipe[index]
    assert isinstance(part, tuple)
    return part


def _bind(recipe: Recipe, args: list[Recipe]) -> Recipe:
    """A recipe over parameters with each `("arg", i)` replaced by the recipe given for it."""
    if recipe[0] == "arg":
        index = recipe[1]
        assert isinstance(index, int)
        return args[index] if index < len(args) else ("none",)
    return tuple(_bind(part, args) if isinstance(part, tuple) else part for part in recipe)


def _parameters(function: _Node, text: Callable[[_Node], str]) -> list[str]:
    params = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if params is None:
        return []
    if params.type == "identifier":
        return [text(params)]
    names: list[str] = []
    for param in params.named_children:
        node: _Node | None = param
        if param.type in ("required_parameter", "optional_parameter"):
            node = param.child_by_field_name("pattern")
        elif param.type == "assignment_pattern":
            raise _Unread  # a default value: not modelled
        if param.type == "optional_parameter" and param.child_by_field_name("value") is not None:
            raise _Unread
        if param.type == "required_parameter" and param.child_by_field_name("value") is not None:
            raise _Unread
        if node is None or node.type != "identifier":
            raise _Unread
        names.append(text(node))
    return names


def _functions(root: _Node, text: Callable[[_Node], str]) -> dict[str, _Node]:
    """The file's top-level functions: declarations and `const f = (…) => …`, exported too."""
    found: dict[str, _Node] = {}
    for statement in root.named_children:
        if statement.type == "export_statement":
            declaration = statement.child_by_field_name("declaration")
            if declaration is None:
                continue
            statement = declaration
        if statement.type == "function_declaration":
            name = statement.child_by_field_name("name")
            if name is not None:
                found.setdefault(text(name), statement)
        elif statement.type in ("lexical_declaration", "variable_declaration"):
            for declarator in statement.named_children:
                name = declarator.child_by_field_name("name")
                value = declarator.child_by_field_name("value")
                while value is not None and value.type in _TRANSPARENT:
                    value = value.named_children[0] if value.named_children else None
                if name is not None and value is not None and value.type in _FUNCTIONS:
                    found.setdefault(text(name), value)
    return found


def _string(node: _Node, text: Callable[[_Node], str]) -> str:
    if any(part.type == "escape_sequence" for part in node.named_children):
        raise _Unread
    return "".join(text(part) for part in node.named_children if part.type == "string_fragment")
