"""Values `pack-js-tables` follows across the project's own code without running it.

An ORM's options are often not written where they are used: `new Sequelize(db, user, pw,
config)` with `const config = getConfig()`, `getConfig` another module's function returning
`require('../config/config')[process.env.NODE_ENV || 'development']`. The reader records such
an expression as a `Val` (a small tree over names, imports, calls, members, strings and
parameters); each file records its top-level bindings and functions as `Val`s too, and the
linker evaluates them (`Evaluator`) with a function's parameters bound to the call's arguments,
module constants across files (through the pack's one module resolver), `process.env.X ||
'default'` read as the variable unset (the default), and a member of an object literal by a
computed key. The result is an object literal of some file (its boolean and string members are
the file's `flags` and `constants`), a string, or unknown (`None`): never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import tree_sitter

_Node = tree_sitter.Node
_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression",
                "non_null_expression", "await_expression"}  # fmt: skip
_FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration"}
_DEPTH = 24  # calls and names followed in one evaluation (a cycle ends there, unknown)
_STEPS = 10_000  # `Val`s evaluated for one value (a member evaluates its object and its key)
_NESTING = 64  # levels of an expression read into a `Val` (a long chain of calls: unknown)


@dataclass(frozen=True)
class Val:
    """An expression as the linker evaluates it. `kind`: `str` (`text` the string), `name` (a
    top-level name of the file), `import` (`text` the module, `key` the imported name:
    `default` for `module.exports`), `call` (`parts`: callee, then the arguments), `member`
    (`parts`: the object, then the key), `param` (`text` the parameter's index), `unknown`
    (`text` the source, for the finding)."""

    kind: str
    text: str = ""
    key: str = ""
    parts: tuple[Val, ...] = ()

    def describe(self) -> str:
        return self.text[:60] if self.kind == "unknown" else self.kind


@dataclass(frozen=True)
class Function:
    """A top-level function of a file (`function f(a) {…}`, `const f = (a) => …`,
    `module.exports = () => {…}`): its parameters' names and what it returns (`const`s of its
    body substituted), or an unknown `Val` when it has not exactly one `return`."""

    params: tuple[str, ...]
    returns: Val


class ValueReader:
    """Reads expressions of one file into `Val`s."""

    def __init__(
        self,
        text: Callable[[_Node], str],
        imports: Mapping[str, tuple[str, str]],
        required: Callable[[_Node | None], str | None],
        literal: Callable[[_Node | None], str | None],
    ) -> None:
        self.text = text
        self.imports = imports
        self.required = required
        self.literal = literal

    def value(
        self, node: _Node | None, scope: Mapping[str, Val] | None = None, level: int = 0
    ) -> Val:
        """`node` as a `Val`; `scope` the names a function binds (its parameters and
        `const`s), which shadow the file's."""
        if level > _NESTING:
            return Val("unknown", "an expression nested too deep")
        level += 1
        while node is not None and node.type in _TRANSPARENT:
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return Val("unknown")
        scope = scope or {}
        kind = node.type
        if kind in ("string", "template_string"):
            text = self.literal(node)
            return Val("str", text) if text is not None else Val("unknown", self.text(node))
        if kind == "identifier":
            name = self.text(node)
            if name in scope:
                return scope[name]
            if name in self.imports:
                module, imported = self.imports[name]
                return Val("import", module, imported)
            return Val("name", name)
        if kind == "member_expression":
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if prop is None:
                return Val("unknown", self.text(node))
            return Val("member", parts=(self.value(obj, scope, level), Val("str", self.text(prop))))
        if kind == "subscript_expression":
            obj, index = node.child_by_field_name("object"), node.child_by_field_name("index")
            return Val(
                "member", parts=(self.value(obj, scope, level), self.value(index, scope, level))
            )
        if kind == "binary_expression":
            return self._either(node, scope, level)
        if kind == "call_expression":
            source = self.required(node)
            if source is not None:
                return Val("import", source, "default")
            callee = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            args = [
                a for a in (arguments.named_children if arguments else []) if a.type != "comment"
            ]
            parts = (self.value(callee, scope, level), *(self.value(a, scope, level) for a in args))
            return Val("call", parts=parts)
        return Val("unknown", self.text(node))

    def _either(self, node: _Node, scope: Mapping[str, Val], level: int) -> Val:
        """`process.env.X || 'd'` (and `??`): the variable taken as unset, so the default."""
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is None or self.text(operator) not in ("||", "??") or left is None:
            return Val("unknown", self.text(node))
        if self.text(left).startswith("process.env."):
            return self.value(right, scope, level)
        return Val("unknown", self.text(node))

    def function(self, node: _Node) -> Function | None:
        """A function's parameters and its one `return` (the body's `const`s in scope)."""
        while node.type in _TRANSPARENT and node.named_children:
            node = node.named_children[0]
        if node.type not in _FUNCTIONS:
            return None
        parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        params: list[str] = []
        if parameters is not None:
            found = [parameters] if parameters.type == "identifier" else parameters.named_children
            for param in found:
                if param.type == "required_parameter":
                    param = param.child_by_field_name("pattern") or param
                params.append(self.text(param) if param.type == "identifier" else "")
        scope: dict[str, Val] = {p: Val("param", str(i)) for i, p in enumerate(params) if p}
        body = node.child_by_field_name("body")
        if body is None:
            return None
        if body.type != "statement_block":
            return Function(tuple(params), self.value(body, scope))
        returns: list[Val] = []
        for statement in body.named_children:
            if statement.type in ("lexical_declaration", "variable_declaration"):
                for declarator in statement.named_children:
                    name = declarator.child_by_field_name("name")
                    if name is not None and name.type == "identifier":
                        scope[self.text(name)] = self.value(
                            declarator.child_by_field_name("value"), scope
                        )
            elif statement.type == "return_statement":
                returns.append(self.value(next(iter(statement.named_children), None), scope))
            elif statement.type != "comment":
                return Function(tuple(params), Val("unknown", "a function body with statements"))
        if len(returns) != 1:
            return Function(tuple(params), Val("unknown", "a function without one return"))
        return Function(tuple(params), returns[0])


@dataclass(frozen=True)
class Found:
    """What a `Val` evaluates to: a string (`text`), an object literal of `path` bound at
    `prefix` (`obj`), or a function of `path` named `prefix` (`fn`)."""

    kind: str  # "str" | "obj" | "fn"
    path: str = ""
    prefix: str = ""
    text: str = ""


@dataclass(frozen=True)
class _Frame:
    """Where a `Val` is evaluated: its file, and the arguments its function was called with
    (each evaluated in the caller's frame)."""

    path: str
    args: tuple[tuple[Val, _Frame], ...] = ()


class Evaluator:
    """Evaluates `Val`s over the files' recorded values. `module_of(path)` gives a file's
    `(values, functions, objects, constants)`; `declared(importer, module, name)` the file and
    local name an import names (the pack's resolver), `resolve(importer, module)` the file."""

    def __init__(
        self,
        module_of: Callable[
            [str],
            tuple[Mapping[str, Val], Mapping[str, Function], frozenset[str], Mapping[str, str]]
            | None,
        ],
        declared: Callable[[str, str, str], tuple[str, str] | None],
        resolve: Callable[[str, str], str | None],
    ) -> None:
        self.module_of = module_of
        self.declared = declared
        self.resolve = resolve
        self.steps = 0

    def evaluate(self, path: str, val: Val) -> Found | None:
        """What `val`, read in `path`, comes to; None where the files do not say."""
        self.steps = 0
        return self._eval(val, _Frame(path), 0)

    def _eval(self, val: Val, frame: _Frame, depth: int) -> Found | None:
        self.steps += 1
        if depth > _DEPTH or self.steps > _STEPS:
            return None
        if val.kind == "str":
            return Found("str", text=val.text)
        if val.kind == "param":
            index = int(val.text)
            if index >= len(frame.args):
                return None
            arg, caller = frame.args[index]
            return self._eval(arg, caller, depth + 1)
        if val.kind == "name":
            return self._name(frame.path, val.text, depth)
        if val.kind == "import":
            return self._import(frame.path, val.text, val.key, depth)
        if val.kind == "member":
            return self._member(val, frame, depth)
        if val.kind == "call":
            return self._call(val, frame, depth)
        return None

    def _name(self, path: str, name: str, depth: int) -> Found | None:
        module = self.module_of(path)
        if module is None:
            return None
        values, functions, objects, constants = module
        if name in values:
            return self._eval(values[name], _Frame(path), depth + 1)
        if name in functions:
            return Found("fn", path, name)
        if name in objects:
            return Found("obj", path, name)
        if name in constants:
            return Found("str", text=constants[name])
        return None

    def _import(self, path: str, module: str, name: str, depth: int) -> Found | None:
        found = self.declared(path, module, name)
        if found is not None:
            return self._name(found[0], found[1], depth + 1)
        target = self.resolve(path, module) if name == "default" else None
        if target is None:
            return None
        return self._name(target, "module.exports", depth + 1)

    def _member(self, val: Val, frame: _Frame, depth: int) -> Found | None:
        key = self._eval(val.parts[1], frame, depth + 1)
        obj = self._eval(val.parts[0], frame, depth + 1)
        if key is None or key.kind != "str" or obj is None or obj.kind != "obj":
            return None
        return self._name(obj.path, f"{obj.prefix}.{key.text}", depth + 1)

    def _call(self, val: Val, frame: _Frame, depth: int) -> Found | None:
        callee = self._eval(val.parts[0], frame, depth + 1)
        module = self.module_of(callee.path) if callee is not None else None
        if callee is None or callee.kind != "fn" or module is None:
            return None
        function = module[1][callee.prefix]
        args = tuple((arg, frame) for arg in val.parts[1:])
        return self._eval(function.returns, _Frame(callee.path, args), depth + 1)
