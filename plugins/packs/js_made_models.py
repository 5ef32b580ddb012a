"""Mongoose models a project makes through code of its own: a base class whose constructor calls
`model(this.getName(), schema)` (or `model(this.name, …)` with `this.name` set from a method),
subclassed once per collection (`class User extends Base { getName() { return 'user' } }`, or
ES5 `util.inherits(User, Base)` with `User.prototype.getName = function () { … }`); a factory
function taking the name (`makeModel('Cat', fields)`); a helper the constructor hands the name
to (`this.model = db(this.name, this.schema)`), also one set as a module's attribute elsewhere
(`app.db = model`).

Read per file (`read_made`): each `model()` whose name is such a template (`ModelTemplate`),
the classes (their base, the literals their methods return, what their constructor assigns to
`this`), the calls that pass a string or a `this.` value on (`CallSite`), and attributes set on
an imported module (`Patch`). Linked (`expand`): templates flow from a function to the calls
of it, from a constructor to `new`/`super`, and from a class to every subclass, until a literal
names the collection; a template nothing names is a finding at the `model()`, and a class
that extends a template class the resolver cannot find is one at the class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import tree_sitter

_Node = tree_sitter.Node

_FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration",
              "method_definition", "generator_function_declaration"}  # fmt: skip
_CLASSES = {"class_declaration", "class", "abstract_class_declaration"}
_TRANSPARENT = {"parenthesized_expression", "as_expression", "satisfies_expression",
                "non_null_expression", "await_expression"}  # fmt: skip


@dataclass(frozen=True)
class ModelTemplate:
    """A `model()` whose name is `key` of `owner`: `param:N` of the function (or class
    constructor) `owner`, `this:prop` or `this:method()` of the class `owner`. `explicit`: it
    names the collection (third argument), else the model (pluralised)."""

    owner: str
    key: str
    explicit: bool
    line: int


@dataclass(frozen=True)
class ClassFacts:
    """A class (or an ES5 constructor function): its base as written (`extends B`,
    `util.inherits(C, B)`), the string its methods return (`getName() { return 'x' }`), what its
    constructor assigns to `this` (`this.name = this.getName()`: `("name", "this:getName()")`)."""

    name: str
    line: int
    base: tuple[str, ...] | None = None
    # (method, the literal it returns or None when it computes one, line of the return)
    returns: tuple[tuple[str, str | None, int], ...] = ()
    assigns: tuple[tuple[str, str], ...] = ()  # (property, value key)


@dataclass(frozen=True)
class CallSite:
    """A call passing values on: `callee` dotted (`("new", "C")` for `new C(…)`, `("super",)`),
    each argument a key (`lit:x`, `this:p`, `this:m()`, `param:N`, or "" for anything else),
    `owner` the class (for `this:`) or function (for `param:`) the call is made in."""

    callee: tuple[str, ...]
    args: tuple[str, ...]
    line: int
    owner: str


@dataclass(frozen=True)
class Patch:
    """`obj.attr = fn` at a file's top, `obj` imported: the module's attribute is `fn`."""

    obj: str
    attr: str
    function: str


@dataclass(frozen=True)
class MadeFacts:
    templates: tuple[ModelTemplate, ...] = ()
    classes: tuple[ClassFacts, ...] = ()
    calls: tuple[CallSite, ...] = ()
    patches: tuple[Patch, ...] = ()


NO_MADE = MadeFacts()

# a call passing a string or a `this.` value first, `new`, `super(`, `X.call(this, …`, and
# the words a class, an ES5 inheritance or a module attribute is declared with
_MADE_WORDS = re.compile(rb"""\bextends\b|\binherits\b|\.prototype\b|\bsuper\s*\(""")
# the `(` of a call whose first argument is a string or a `this.` value (`B.call(this, …)` too)
_CALL_OPEN = re.compile(rb"""\(\s*(?:['"`]|this\b)""")
_SUPER = re.compile(rb"\b(?:super|inherits)\s*\(")  # `super(…)`, `util.inherits(C, B)`
_CHAIN = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


def may_make(data: bytes) -> bool:
    """Whether a file's bytes can hold any of these facts (else it is not walked for them)."""
    return _MADE_WORDS.search(data) is not None or _CALL_OPEN.search(data) is not None


class MadeReader:
    """Reads one parsed file: `text` gives a node's source, `literal` a string's value (with
    the file's constants)."""

    def __init__(
        self,
        data: bytes,
        text: Callable[[_Node], str],
        literal: Callable[[_Node], str | None],
        known: Callable[[str], bool] = lambda name: True,
    ) -> None:
        self.data = data
        self.text = text
        self.literal = literal
        self.known = known  # a name the file binds (an import, a top-level declaration)
        self.templates: list[ModelTemplate] = []
        self.classes: dict[str, ClassFacts] = {}
        self.calls: list[CallSite] = []
        self.patches: list[Patch] = []
        self.returns: dict[str, list[tuple[str, str | None, int]]] = {}  # ES5 `C.prototype.m`
        self.bases: dict[str, tuple[str, ...]] = {}  # ES5 `util.inherits(C, B)`

    # --- templates (called by the tables reader at a `model()` it cannot name)

    def template(self, node: _Node, arg: _Node, explicit: bool) -> bool:
        """Note `model(arg, …)` as a template when `arg` is a `this.` value or a parameter of
        the function the call is in; False when it is neither."""
        key, owner = self.key(arg, node)
        if not key or owner is None:
            return False
        self.templates.append(ModelTemplate(owner, key, explicit, node.start_point.row + 1))
        return True

    def key(self, arg: _Node, at: _Node) -> tuple[str, str | None]:
        """An argument as a key and the owner it is relative to (the enclosing class for
        `this:`, the enclosing function for `param:`)."""
        while arg.type in _TRANSPARENT and arg.named_children:
            arg = arg.named_children[0]
        literal = self.literal(arg)
        if literal is not None:
            return f"lit:{literal}", ""
        if arg.type == "member_expression":
            owner, prop = arg.child_by_field_name("object"), arg.child_by_field_name("property")
            if owner is not None and prop is not None and owner.type == "this":
                return f"this:{self.text(prop)}", self._this_owner(at)
        if arg.type == "call_expression" and not _arguments(arg):
            callee = arg.child_by_field_name("function")
            if callee is not None and callee.type == "member_expression":
                owner = callee.child_by_field_name("object")
                prop = callee.child_by_field_name("property")
                if owner is not None and prop is not None and owner.type == "this":
                    return f"this:{self.text(prop)}()", self._this_owner(at)
        if arg.type == "identifier":
            function = _enclosing(arg, _FUNCTIONS)
            if function is not None:
                names = _parameters(function, self.text)
                if self.text(arg) in names:
                    index = names.index(self.text(arg))
                    return f"param:{index}", self._function_owner(function)
        return "", None

    def _this_owner(self, node: _Node) -> str | None:
        cls = _enclosing(node, _CLASSES)
        if cls is not None:
            name = cls.child_by_field_name("name")
            return self.text(name) if name is not None else None
        function = _enclosing(node, {"function_declaration", "function_expression", "function"})
        return self._function_owner(function) if function is not None else None

    def _function_owner(self, function: _Node) -> str | None:
        """A function as calls name it: its own name, the class for a constructor, `C.m` for
        a method, the name it is bound to (`const make = (…) => …`)."""
        if function.type == "method_definition":
            name = function.child_by_field_name("name")
            cls = _enclosing(function, _CLASSES)
            cls_name = cls.child_by_field_name("name") if cls is not None else None
            if name is None or cls_name is None:
                return None
            if self.text(name) == "constructor":
                return self.text(cls_name)
            return f"{self.text(cls_name)}.{self.text(name)}"
        name = function.child_by_field_name("name")
        if name is not None:
            return self.text(name)
        parent = function.parent
        if parent is not None and parent.type == "variable_declarator":
            bound = parent.child_by_field_name("name")
            return self.text(bound) if bound is not None else None
        if parent is not None and parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            if left is not None:  # `exports.make = function (…)`: `make`
                return self.text(left).rsplit(".", 1)[-1]
        return None

    # --- the rest of the file

    def read(self, root: _Node) -> MadeFacts:
        for statement in root.named_children:
            self._top_level(statement)
        seen: set[int] = set()
        opens = [m.start() for m in _CALL_OPEN.finditer(self.data)]
        opens += [m.end() - 1 for m in _SUPER.finditer(self.data)]  # any arguments
        for paren in sorted(opens):
            if not self._named_call(paren):
                continue  # `console.log('…')`, `this.x('…')`: nothing the file binds
            node = root.descendant_for_byte_range(paren, paren + 1)
            call = _enclosing_call(node)
            if call is not None and call.id not in seen:
                seen.add(call.id)
                self._call(call)
        classes = [
            ClassFacts(
                c.name,
                c.line,
                c.base or self.bases.get(c.name),
                (*c.returns, *self.returns.get(c.name, ())),
                c.assigns,
            )
            for c in self.classes.values()
        ]
        return MadeFacts(
            tuple(self.templates), tuple(classes), tuple(self.calls), tuple(self.patches)
        )

    def _named_call(self, paren: int) -> bool:
        """Whether the dotted name before the `(` at byte `paren` (a callee) starts with a name
        the file binds, or is `super`: only such a call can reach a function or class of the
        repository (a global's or `this.`'s cannot hand a template on here)."""
        end = paren
        while end > 0 and self.data[end - 1] in b" \t\r\n":
            end -= 1
        start = end
        while start > 0 and self.data[start - 1] in _CHAIN:
            start -= 1
        name = self.data[start:end]
        head = name.split(b".", 1)[0].decode("ascii", "replace")
        return (
            head == "super" or name.endswith(b"inherits") or (head != "this" and self.known(head))
        )

    def _top_level(self, statement: _Node) -> None:
        node = statement
        if node.type == "export_statement":
            node = node.child_by_field_name("declaration") or (
                node.named_children[0] if node.named_children else node
            )
        if node.type in _CLASSES:
            self._class(node)
        elif node.type == "function_declaration":
            self._constructor_function(node)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                value = declarator.child_by_field_name("value")
                name = declarator.child_by_field_name("name")
                if value is not None and name is not None and value.type == "class":
                    self._class(value, self.text(name))
        elif node.type == "expression_statement" and node.named_children:
            self._assignment(node.named_children[0])

    def _class(self, node: _Node, bound: str | None = None) -> None:
        name = node.child_by_field_name("name")
        cls = self.text(name) if name is not None else bound
        if cls is None:
            return
        base: tuple[str, ...] | None = None
        for child in node.children:
            if child.type == "class_heritage":
                clause = next(
                    (c for c in child.named_children if c.type == "extends_clause"), child
                )
                value = clause.child_by_field_name("value") or next(
                    (c for c in clause.named_children), None
                )
                base = _dotted(value, self.text) if value is not None else None
        returns: list[tuple[str, str | None, int]] = []
        assigns: list[tuple[str, str]] = []
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type != "method_definition":
                continue
            method = member.child_by_field_name("name")
            if method is None:
                continue
            if self.text(method) == "constructor":
                assigns += self._assigns(member)
            else:
                returned = self._returned(member)
                line = member.start_point.row + 1
                returns.append((self.text(method), *(returned or (None, line))))
        self.classes[cls] = ClassFacts(
            cls, node.start_point.row + 1, base, tuple(returns), tuple(assigns)
        )

    def _constructor_function(self, node: _Node) -> None:
        """An ES5 constructor: a function declaration that assigns to `this`, or is named as
        a class is (`function Box() { Base.call(this) }`)."""
        name = node.child_by_field_name("name")
        if name is None:
            return
        assigns = self._assigns(node)
        if assigns or self.text(name)[:1].isupper():
            self.classes[self.text(name)] = ClassFacts(
                self.text(name), node.start_point.row + 1, None, (), tuple(assigns)
            )

    def _assigns(self, function: _Node) -> list[tuple[str, str]]:
        """`this.p = v` statements of a constructor's body, `v` as a key."""
        found: list[tuple[str, str]] = []
        body = function.child_by_field_name("body")
        for statement in body.named_children if body is not None else ():
            expression = statement.named_children[0] if statement.named_children else None
            if statement.type != "expression_statement" or expression is None:
                continue
            if expression.type != "assignment_expression":
                continue
            left, right = (
                expression.child_by_field_name("left"),
                expression.child_by_field_name("right"),
            )
            if left is None or right is None or left.type != "member_expression":
                continue
            owner, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
            if owner is not None and prop is not None and owner.type == "this":
                key, _ = self.key(right, right)
                if key:
                    found.append((self.text(prop), key))
        return found

    def _returned(self, function: _Node) -> tuple[str, int] | None:
        """The string a function returns when its body is `return '<literal>'` (after
        statements that return nothing else)."""
        body = function.child_by_field_name("body")
        if body is None:
            return None
        if body.type != "statement_block":  # `() => 'x'`
            literal = self.literal(body)
            return (literal, body.start_point.row + 1) if literal is not None else None
        returns = [s for s in body.named_children if s.type == "return_statement"]
        if len(returns) != 1 or not returns[0].named_children:
            return None
        literal = self.literal(returns[0].named_children[0])
        return (literal, returns[0].start_point.row + 1) if literal is not None else None

    def _assignment(self, node: _Node) -> None:
        """`C.prototype.m = function () { return 'x' }`, `C.prototype = Object.create(B.prototype)`
        and `obj.attr = fn` (a module's attribute set to a function of the file)."""
        if node.type != "assignment_expression":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        dotted = _dotted(left, self.text) if left is not None else None
        if dotted is None or right is None:
            return
        if len(dotted) == 3 and dotted[1] == "prototype" and right.type in _FUNCTIONS:
            returned = self._returned(right) or (None, node.start_point.row + 1)
            self.returns.setdefault(dotted[0], []).append((dotted[2], *returned))
        elif len(dotted) == 2 and dotted[1] == "prototype":
            created = (
                _dotted(_first_argument(right), self.text)
                if right.type == "call_expression"
                else None
            )
            if created is not None and created[-1] == "prototype":
                self.bases[dotted[0]] = created[:-1]
        elif (
            len(dotted) == 2
            and right.type == "identifier"
            and dotted[0] not in ("module", "exports")
        ):
            self.patches.append(Patch(dotted[0], dotted[1], self.text(right)))

    def _call(self, call: _Node) -> None:
        if call.type == "new_expression":
            callee = call.child_by_field_name("constructor")
            dotted = _dotted(callee, self.text) if callee is not None else None
            if dotted is None:
                return
            dotted = ("new", *dotted)
        else:
            callee = call.child_by_field_name("function")
            if callee is None:
                return
            if callee.type == "super":
                dotted = ("super",)
            else:
                found = _dotted(callee, self.text)
                if found is None or found[0] == "require":
                    return
                dotted = found
        args = _arguments(call)
        if dotted[-1:] == ("inherits",) and len(args) == 2:  # `util.inherits(C, B)`
            child, base = _dotted(args[0], self.text), _dotted(args[1], self.text)
            if child is not None and base is not None and len(child) == 1:
                self.bases[child[0]] = base
            return
        if dotted[-1:] == ("call",) and args and args[0].type == "this":  # `B.call(this, …)`
            dotted, args = ("new", *dotted[:-1]), args[1:]
        owner = ""
        keys: list[str] = []
        for arg in args:
            key, key_owner = self.key(arg, call)
            if key.startswith(("this:", "param:")):
                owner = key_owner or ""
            keys.append(key)
        if dotted == ("super",):
            cls = _enclosing(call, _CLASSES)
            name = cls.child_by_field_name("name") if cls is not None else None
            owner = self.text(name) if name is not None else ""
        if any(keys):
            self.calls.append(CallSite(dotted, tuple(keys), call.start_point.row + 1, owner))


def module_stem(path: str) -> str:
    """How an import names a module: its file's name without extensions, its folder's for an
    index file (`./users/index.js` is `./users`)."""
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return path.rsplit("/", 2)[-2] if stem == "index" and "/" in path else stem


def _enclosing(node: _Node | None, types: set[str] | frozenset[str]) -> _Node | None:
    parent = node.parent if node is not None else None
    while parent is not None and parent.type not in types:
        parent = parent.parent
    return parent


def _enclosing_call(node: _Node | None) -> _Node | None:
    """The call or `new` whose callee (or first argument's opening) a word found is in."""
    while node is not None and node.type not in ("call_expression", "new_expression"):
        if node.type in ("statement_block", "program", "class_body"):
            return None
        node = node.parent
    return node


def _arguments(call: _Node) -> list[_Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [a for a in arguments.named_children if a.type != "comment"]


def _first_argument(call: _Node) -> _Node | None:
    args = _arguments(call)
    return args[0] if args else None


def _parameters(function: _Node, text: Callable[[_Node], str]) -> list[str]:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [text(single)]
    parameters = function.child_by_field_name("parameters")
    names: list[str] = []
    for param in parameters.named_children if parameters is not None else ():
        if param.type in ("required_parameter", "optional_parameter"):
            param = param.child_by_field_name("pattern") or param
        names.append(text(param) if param.type == "identifier" else "")
    return names


def _dotted(node: _Node | None, text: Callable[[_Node], str]) -> tuple[str, ...] | None:
    parts: list[str] = []
    while node is not None:
        if node.type == "identifier":
            return (text(node), *reversed(parts))
        if node.type != "member_expression":
            return None
        prop = node.child_by_field_name("property")
        if prop is None:
            return None
        parts.append(text(prop))
        node = node.child_by_field_name("object")
    return None


# --- link ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expanded:
    """What `expand` found: the models, the findings `(file, line, detail)`, the functions
    and classes a template sits in (`owners`, `(file, name)`: a further file may call or extend
    them) and the classes that extend one (`subclasses`: a further file may extend them)."""

    models: list[MadeModel]
    gaps: list[tuple[str, int, str]]
    owners: set[tuple[str, str]]
    subclasses: set[tuple[str, str]]


@dataclass(frozen=True)
class MadeModel:
    name: str  # the collection, or the model (to pluralise) when not `explicit`
    explicit: bool
    path: str
    line: int
    model: str


Target = tuple[str, str]  # (file, function or class name)


def expand(
    files: Sequence[tuple[str, MadeFacts]],
    callee: Callable[[str, tuple[str, ...]], Target | None],
    base_of: Callable[[str, tuple[str, ...]], Target | None],
    relevant: set[str],
    origin: Callable[[str, tuple[str, ...]], str],
) -> Expanded:
    """The models the templates make (`Expanded`). `callee(file, dotted)` is the function or
    class a call in `file` names; `base_of(file, dotted)` the class a class of `file` extends. `relevant` gains the name of each function or class a
    template is found in as it is found: `callee` need resolve only calls naming one (a call
    of anything else hands no template on, and resolving it would read files for nothing).
    `origin(file, dotted)`: the module a name of `file` is imported from ("" if none): a class
    extending a template class's name from a module not found is a finding only where that
    module is named like the template's (`require('models/base')` for `…/models/base.js`)."""
    made: dict[tuple[str, str, int], MadeModel] = {}
    gaps: list[tuple[str, int, str]] = []
    owners: set[tuple[str, str]] = set()
    subclasses: set[tuple[str, str]] = set()
    # (file, owner) -> {key: (explicit, template file, template line)}
    templates: dict[Target, dict[str, tuple[bool, str, int]]] = {}
    named: set[tuple[str, int]] = set()  # templates that named something
    for path, facts in files:
        for t in facts.templates:
            templates.setdefault((path, t.owner), {})[t.key] = (t.explicit, path, t.line)
            relevant.update((*t.owner.split("."), module_stem(path)))
    classes = {(path, c.name): c for path, facts in files for c in facts.classes}
    calls = [(path, call) for path, facts in files for call in facts.calls]
    for _ in range(8):  # a name handed on through at most this many functions
        grown = False
        for path, call in calls:
            target = callee(path, call.callee[1:] if call.callee[0] == "new" else call.callee)
            if call.callee == ("super",):
                owner_class = classes.get((path, call.owner))
                base = owner_class.base if owner_class is not None else None
                target = base_of(path, base) if base is not None else None
            if target is None or target not in templates:
                continue
            for key, (explicit, t_path, t_line) in list(templates[target].items()):
                if not key.startswith("param:"):
                    continue
                index = int(key.split(":")[1])
                arg = call.args[index] if index < len(call.args) else ""
                if arg.startswith("lit:"):
                    named.add((t_path, t_line))
                    value = arg[4:]
                    made.setdefault(
                        (value, path, call.line),
                        MadeModel(value, explicit, path, call.line, value),
                    )
                elif arg.startswith(("this:", "param:")) and call.owner:
                    slot = templates.setdefault((path, call.owner), {})
                    if arg not in slot:
                        slot[arg] = (explicit, t_path, t_line)
                        relevant.update((*call.owner.split("."), module_stem(path)))
                        grown = True
        if not grown:
            break
    # class templates: every class that is, or extends, the template's class
    for (path, owner), keys in templates.items():
        for key, (explicit, t_path, t_line) in keys.items():
            if not key.startswith("this:"):
                continue
            for cls_key in classes:
                chain = _chain(cls_key, classes, base_of)
                if (path, owner) not in chain:
                    continue
                subclasses.add(cls_key)
                given = _value(key, chain, classes, 0)
                if given is None:
                    continue
                name, at_path, at_line = given
                if name is None:  # the class computes the name
                    detail = (
                        f"{cls_key[1]} gives the name of the Mongoose model {owner} makes "
                        f"({key[len('this:') :]}) by an expression"
                    )
                    gaps.append((at_path, at_line, detail))
                else:
                    named.add((t_path, t_line))
                    made.setdefault(
                        (name, at_path, at_line),
                        MadeModel(name, explicit, at_path, at_line, cls_key[1]),
                    )
    for path, facts in files:  # a class extending a template class by a name not found
        for c in facts.classes:
            if c.base is None or base_of(path, c.base) is not None:
                continue
            for t_path, owner in templates:
                if owner == c.base[-1] and module_stem(t_path) in origin(path, c.base):
                    detail = (
                        f"class {c.name} extends {'.'.join(c.base)}, whose module is not found; "
                        f"{owner} of {t_path} makes Mongoose models by a name its subclasses give"
                    )
                    gaps.append((path, c.line, detail))
                    break
    for (path, owner), keys in templates.items():
        for key, (_, t_path, t_line) in keys.items():
            owners.add((path, owner))
            if (t_path, t_line) not in named and path == t_path:
                kind, what = key.split(":", 1)
                what = f"parameter {int(what) + 1}" if kind == "param" else f"this.{what}"
                detail = (
                    f"a Mongoose model() is named by {what} of {owner}, which no call or "
                    "subclass the reader follows gives as a string"
                )
                gaps.append((t_path, t_line, detail))
    return Expanded(list(made.values()), sorted(set(gaps)), owners, subclasses - owners)


def _chain(
    start: Target,
    classes: dict[Target, ClassFacts],
    base_of: Callable[[str, tuple[str, ...]], Target | None],
) -> list[Target]:
    """`start` and its bases, nearest first (as far as they are found)."""
    chain = [start]
    while len(chain) < 16:
        cls = classes.get(chain[-1])
        base = base_of(chain[-1][0], cls.base) if cls is not None and cls.base else None
        if base is None or base in chain:
            break
        chain.append(base)
    return chain


def _value(
    key: str, chain: list[Target], classes: dict[Target, ClassFacts], depth: int
) -> tuple[str | None, str, int] | None:
    """What `this.p` / `this.m()` is for an instance of `chain[0]`: the nearest class of the
    chain that defines the method (or assigns the property); a method the chain's last class
    (the template's, as far as bases are found) computes is its abstract default: nothing."""
    if depth > 4:
        return None
    member = key[len("this:") :]
    for at in chain:
        cls = classes.get(at)
        if cls is None:
            continue
        if member.endswith("()"):
            found = next((r for r in cls.returns if r[0] == member[:-2]), None)
            if found is not None and (found[1] is not None or at != chain[-1]):
                return found[1], at[0], found[2]
            if found is not None:  # the chain's root computes it: an abstract default
                return None
            continue
        assigned = next((v for p, v in cls.assigns if p == member), None)
        if assigned is None:
            continue
        if assigned.startswith("lit:"):
            return assigned[4:], at[0], cls.line
        if assigned.startswith("this:"):
            return _value(assigned, chain, classes, depth + 1)
        return None
    return None
