"""JavaScript/TypeScript classes of the project whose base makes a router in its constructor.

`class Controller { constructor() { this.app = Router() } get router() { return this.app } }`
and `class Users extends Controller { constructor() { super(); this.get('/', this.list) } }`:
each subclass's instance owns the router its base's constructor makes, so each subclass is a
router of its own (`new Users(config).router` mounted under `/users` serves what `Users`
registers, and not what every other subclass does). The reader spells `this` in a method of
class `C` as `C()` (`js_facts`); the linker (`Linker._member`) asks here what `S()` is:

- a class that makes the router itself, or inherits none: what it was (its own router stays
  the one the constructor's call declares);
- a class that inherits one (through any number of bases, a base in another file): an
  instance (`_Instance` in the linker) whose router attributes are routers of its own, one per
  class and attribute, declared at the subclass's constructor (or the class when it has none)
  as the base's router is (framework, prefix and guards written in the base's file), and whose
  other members are the class's (its own first, then its bases'), a base's member that reads
  `this.attr` (`get router() { return this.app }`) read on the instance, not on the base.

Routes the subclass registers on `this` (`this.get('/', h)`, `this.route({ method, path })`,
read by the reader as routes on `S()`) are routes of that router (`Linker._owner`: an instance
with one router attribute stands for it). A base method of another name that registers or
mounts on `this` (`attach(path, router, mw) { this.app.use(path, mw, router) }`) is followed per
call with `this` bound to the instance it is called on (`Linker._method_this`). Every walk here follows at most `MAX_ANCESTORS` bases
and is remembered per class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .model import Auth, Bound, Function, Namespace, RouterDecl, RouterRef, Sym

if TYPE_CHECKING:
    from .model import Expr

MAX_BASES = 16  # bases walked above a class (a longer chain, or a cycle, ends here)
CONSTRUCTOR = "constructor"


@dataclass(frozen=True, slots=True)
class Inherited:
    """A router attribute a class inherits: the base's router made in its constructor (its
    declaration in `file`), and the class's own declaration of it (`router_id`, `line`)."""

    attr: str
    file: str
    template: RouterDecl


@dataclass(slots=True)
class ClassInfo:
    """What one class of a file is: its name there, and the router attributes it inherits
    (empty: not an instance of a router-making base, or it makes its own)."""

    name: str
    inherited: tuple[Inherited, ...] = ()
    line: int = 1
    own: dict[str, str] = field(default_factory=dict)  # an inherited one it makes anew: its id


def class_name(bindings: Mapping[str, object], value: Namespace) -> str | None:
    """The name `value` is bound to in its file (the class statement's), or None."""
    for name, bound in bindings.items():
        if bound is value:
            return name
    return None


def constructor_line(value: Namespace) -> int:
    """The line of the class's own `constructor`, or 0 when it has none."""
    made = dict(value.fields).get(CONSTRUCTOR)
    if isinstance(made, Function) and made.site:
        head = made.site.partition(":")[0]
        return int(head) if head.isdigit() else 0
    return 0


def own_routers(value: Namespace, routers: dict[str, RouterDecl]) -> dict[str, RouterDecl]:
    """The attributes the class's own constructor stores a router it makes in
    (`this.app = Router()`): attribute -> the router's declaration in the class's file."""
    made = dict(value.fields).get(CONSTRUCTOR)
    site = made.site if isinstance(made, Function) else None
    found: dict[str, RouterDecl] = {}
    if not site:
        return found
    for attr, expr in value.fields:
        if isinstance(expr, RouterRef):
            decl = routers.get(expr.router_id)
            if decl is not None and decl.scope == site and decl.subclass is None:
                found[attr] = decl
    return found


def class_router(template: RouterDecl, file: str, router_id: str, line: int) -> RouterDecl:
    """The subclass's own router, as the base's constructor declares it: its prefix and
    guards read where the base writes them."""
    prefix = Bound(file, template.prefix) if template.prefix is not None else None
    return replace(
        template,
        router_id=router_id,
        line=line,
        prefix=prefix,
        auth=Auth(tuple(Bound(file, g) for g in template.auth.guards), template.auth.aliases),
    )


def this_rooted(info: ClassInfo | None, expr: Expr) -> tuple[str, ...] | None:
    """The members after `this` of a class's own `this.x.y` (`C().x.y` in class `C`), else
    None."""
    if info is None or not isinstance(expr, Sym) or len(expr.path) < 3:
        return None
    if expr.path[0] != info.name or expr.path[1] != "()":
        return None
    return expr.path[2:]
