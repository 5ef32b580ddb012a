"""A configuration service of the project's over NestJS's `ConfigService` (`@nestjs/config`):
a class given a `ConfigService` in its constructor (`constructor(private config:
ConfigService)`) whose getters read keys through its own methods:

    get appConfig() { return { prefix: this.getString('API_PREFIX') }; }
    getString(key: string) { const v = this.get<string>(key); return v.replace(/\\n/g, '\n'); }
    get<T>(key: string) { const value = this.config.get<T>(key); ...; return value; }

Each getter's value (and each member of the object it returns) is recorded as the configuration
key it reads (`ConfigKey`), under the key `@Class.getter[.member]`, which `main.ts` reads as
`app.get(Class).getter.member` (`nest._setting`). The methods are followed with their
arguments bound (a method's last top-level `return`, its `const`s), at most `_MAX_DEPTH` calls
deep; `.replace(/\\n/g, '\n')` (escaped newlines made real) is kept on the key; anything else
is not recorded, and the prefix read through it stays unresolved as before."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .js_nodes import unwrap
from .model import ConfigKey, Expr, ImportRef, Lit, Opaque

if TYPE_CHECKING:
    from .js_facts import _Node, _Reader

_CONFIG = "@nestjs/config"
_SERVICE = "ConfigService"
_GETS = frozenset({"get", "getOrThrow"})
_MAX_DEPTH = 8
SERVICE_KEY = "@"  # the first character of a key recorded here (`@AppConfig.app.prefix`)
_NEWLINES = ("/\\\\n/g", "'\\n'", '"\\n"', "`\\n`")  # `.replace(/\\n/g, '\n')`, as written


def seeded(source: bytes) -> bool:
    return b"ConfigService" in source and b"class" in source


def read(reader: _Reader, root: _Node) -> list[tuple[str, Expr]]:
    """(`@Class.getter.member`, the key it reads) for each such class of the file."""
    found: list[tuple[str, Expr]] = []
    for node in root.named_children:
        declaration = node.child_by_field_id(reader.fields.declaration) or node
        if declaration.type in {"class_declaration", "abstract_class_declaration"}:
            _Class(reader, declaration).read(found)
    return found


class _Class:
    def __init__(self, reader: _Reader, declaration: _Node) -> None:
        self.reader = reader
        self.name = reader._text(declaration.child_by_field_id(reader.fields.name))
        body = declaration.child_by_field_id(reader.fields.body)
        self.methods: dict[str, _Node] = {}
        self.getters: list[str] = []
        for member in body.named_children if body is not None else ():
            if member.type != "method_definition":
                continue
            name = reader._text(member.child_by_field_id(reader.fields.name))
            self.methods.setdefault(name, member)
            if any(child.type == "get" for child in member.children):
                self.getters.append(name)
        constructor = self.methods.get("constructor")
        self.fields = self._service_fields(constructor) if constructor is not None else set()

    def _service_fields(self, constructor: _Node) -> set[str]:
        """The parameter properties typed `ConfigService` (`private config: ConfigService`)."""
        reader = self.reader
        found: set[str] = set()
        params = constructor.child_by_field_id(reader.fields.parameters)
        for param in params.named_children if params is not None else ():
            pattern = param.child_by_field_id(reader.fields.pattern)
            typed = next((c for c in param.named_children if c.type == "type_annotation"), None)
            if pattern is None or typed is None or pattern.type != "identifier":
                continue
            if not any(c.type == "accessibility_modifier" for c in param.named_children):
                continue  # not kept on the instance
            bound = reader.bindings.get(reader._text(typed).lstrip(":").strip())
            if isinstance(bound, ImportRef) and bound.module == _CONFIG and bound.attr == _SERVICE:
                found.add(reader._text(pattern))
        return found

    def read(self, found: list[tuple[str, Expr]]) -> None:
        if not self.fields:
            return
        for getter in self.getters:
            returned = self._returned(self.methods[getter])
            if returned is None:
                continue
            key = f"{SERVICE_KEY}{self.name}.{getter}"
            if returned.type == "object":
                for pair in returned.named_children:
                    if pair.type != "pair":
                        continue
                    name = self.reader._text(pair.child_by_field_id(self.reader.fields.key))
                    value = pair.child_by_field_id(self.reader.fields.value)
                    read = self._eval(value, {}, 0) if value is not None else None
                    if read is not None:
                        found.append((f"{key}.{name}", read))
                continue
            read = self._eval(returned, {}, 0)
            if read is not None:
                found.append((key, read))

    def _returned(self, method: _Node) -> _Node | None:
        """The value of the method body's last top-level `return`."""
        body = method.child_by_field_id(self.reader.fields.body)
        returns = [c for c in body.named_children if c.type == "return_statement"] if body else []
        if not returns or not returns[-1].named_children:
            return None
        return unwrap(returns[-1].named_children[0])

    def _eval(self, node: _Node, env: dict[str, Expr], depth: int) -> Expr | None:
        from .nest import _local_value

        reader = self.reader
        node = unwrap(node) or node
        if depth > _MAX_DEPTH:
            return None
        if node.type == "string":
            text = reader._string(node)
            return Lit(text) if text is not None else None
        if node.type == "identifier":
            name = reader._text(node)
            if name in env:
                return env[name]
            value = _local_value(reader, node)
            return self._eval(value, env, depth + 1) if value is not None else None
        if node.type != "call_expression":
            return None
        callee = node.child_by_field_id(reader.fields.function)
        if callee is None or callee.type != "member_expression":
            return None
        owner = unwrap(callee.child_by_field_id(reader.fields.object))
        prop = reader._text(callee.child_by_field_id(reader.fields.property))
        args = reader._arguments(node)
        if owner is None:
            return None
        if owner.type == "this" and prop in self.methods:
            return self._call(self.methods[prop], args, env, depth)
        if (
            owner.type == "member_expression"
            and reader._text(owner) in {f"this.{f}" for f in self.fields}
            and prop in _GETS
            and args
        ):
            key = self._eval(args[0], env, depth + 1)
            default = self._eval(args[1], env, depth + 1) if len(args) > 1 else None
            if len(args) > 1 and default is None:
                return None  # a default not read: the value is not known where it applies
            if isinstance(default, Opaque):  # a parameter its caller leaves out: no default
                default = None
            return ConfigKey(key.value, default=default) if isinstance(key, Lit) else None
        if prop == "replace" and tuple(reader._text(a) for a in args[:2]) in _newline_args():
            inner = self._eval(owner, env, depth + 1)
            if isinstance(inner, ConfigKey):
                return ConfigKey(inner.key, newlines=True)
            if isinstance(inner, Lit):
                return Lit(inner.value.replace("\\n", "\n"))
        return None

    def _call(
        self, method: _Node, args: list[_Node], env: dict[str, Expr], depth: int
    ) -> Expr | None:
        reader = self.reader
        params = method.child_by_field_id(reader.fields.parameters)
        names = []
        for param in params.named_children if params is not None else ():
            pattern = param.child_by_field_id(reader.fields.pattern)
            names.append(reader._text(pattern) if pattern is not None else "")
        bound: dict[str, Expr] = {}
        for name, arg in zip(names, args, strict=False):
            value = self._eval(arg, env, depth + 1)
            if value is None or isinstance(value, Opaque):
                return None
            bound[name] = value
        for name in names[len(args) :]:
            bound[name] = Opaque()  # left out: `undefined` (`fallback?: T`)
        returned = self._returned(method)
        return self._eval(returned, bound, depth + 1) if returned is not None else None


def _newline_args() -> set[tuple[str, str]]:
    return {(_NEWLINES[0], text) for text in _NEWLINES[1:]}
