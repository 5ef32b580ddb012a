"""Flask-Admin's views as route facts of one Python file, read with `ast` (never imported).

Flask-Admin (read in 1.5.6, the version simple-login pins, and in 2.x, alike here) serves each
view added to an `Admin` as a blueprint: `Admin(app, url=None, endpoint=None, index_view=None)`
(or `admin.init_app(app, index_view=..., url=...)`) takes its url from `url`, else from its
index view's (`AdminIndexView(url=None)`: `/admin`); `admin.add_view(View(endpoint=, url=))`
serves the view under `url` (absolute when it starts with `/`, else `<admin url>/<url>`), else
under `<admin url>/<endpoint>` (`/<endpoint>` when the admin's url is `/`); `endpoint` defaults
to the class name lower-cased, a `ModelView`'s to its model's (`BaseModelView._get_endpoint`).
Each method decorated `@expose(url='/', methods=('GET',))` along the view class's bases (a
method re-defined without it serves nothing: `AdminViewMeta` reads the attribute it finds) is a
route `<view url><url>`, joined as Flask joins a blueprint's prefix and rule. These facts are
linked by `linker` (`_flask_admin`), which follows the classes across files. The library's
names are its record (`frameworks.FLASK_ADMIN`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..pymodules import attribute_path as _dotted
from .frameworks import FLASK_ADMIN as SITE
from .model import HTTP_METHODS

COMPUTED = "\x00computed"  # a keyword given a value not written as a literal


@dataclass(frozen=True, slots=True)
class Exposed:
    """One `@expose(url, methods)` on a method: `url` None when computed, `methods` None when
    computed (an empty tuple never: Flask's default `GET` when none are given)."""

    method: str
    url: str | None
    methods: tuple[str, ...] | None
    line: int


@dataclass(frozen=True, slots=True)
class AdminClass:
    """A module-level class: the names of the methods it defines, its exposed ones."""

    line: int
    defines: frozenset[str]
    exposed: tuple[Exposed, ...]
    plugviews: tuple[int, ...] = ()  # lines of `@expose_plugview` (a Flask view class): not read


@dataclass(frozen=True, slots=True)
class ViewCall:
    """`Cls(...)` making a view: the dotted name called, its first positional argument (a
    ModelView's model) as written, and its `endpoint`/`url` keywords (None: not given)."""

    callee: str
    model: str | None
    endpoint: str | None
    url: str | None
    line: int


@dataclass(frozen=True, slots=True)
class AdminMake:
    """`name = Admin(...)` or `name.init_app(...)`: its `url`, `endpoint` and `index_view`."""

    name: str
    url: str | None
    index_view: ViewCall | None
    line: int
    made: bool  # `Admin(...)` itself (else `init_app`, which changes what it names only)


@dataclass(frozen=True, slots=True)
class AddView:
    receiver: str
    view: ViewCall | None  # None: not a constructor call written here
    line: int


@dataclass(frozen=True, slots=True)
class AdminFacts:
    classes: dict[str, AdminClass]
    admins: tuple[AdminMake, ...]
    add_views: tuple[AddView, ...]
    imports: bool = False  # the file imports Flask-Admin


def _text(node: ast.expr | None) -> str | None:
    """A literal string; None for `None`; `COMPUTED` otherwise."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return COMPUTED


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _exposed(
    method: ast.FunctionDef | ast.AsyncFunctionDef, exposers: frozenset[str]
) -> list[Exposed]:
    """`exposers`: the names Flask-Admin's `expose` is called by in the file."""
    found = []
    for decorator in method.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        if (_dotted(decorator.func) or "").rpartition(".")[2] not in exposers:
            continue
        url_node = decorator.args[0] if decorator.args else _keyword(decorator, "url")
        url = "/" if url_node is None else _text(url_node)
        given = decorator.args[1] if len(decorator.args) > 1 else _keyword(decorator, "methods")
        methods: tuple[str, ...] | None = ("GET",)
        if given is not None and not (isinstance(given, ast.Constant) and given.value is None):
            methods = None
            if isinstance(given, ast.List | ast.Tuple | ast.Set):
                names = [_text(e) for e in given.elts]
                if all(n is not None and n != COMPUTED for n in names):
                    methods = tuple(dict.fromkeys(str(n).upper() for n in names))
                    if not all(m.lower() in HTTP_METHODS for m in methods):
                        methods = None
        found.append(Exposed(method.name, None if url == COMPUTED else url, methods,
                             decorator.lineno))  # fmt: skip
    return found


def _plugview_lines(node: ast.ClassDef) -> tuple[int, ...]:
    return tuple(
        d.lineno
        for item in node.body
        if isinstance(item, ast.ClassDef)
        for d in item.decorator_list
        if isinstance(d, ast.Call) and (_dotted(d.func) or "").rpartition(".")[2] == SITE.plugview
    )


def _view_call(node: ast.expr | None) -> ViewCall | None:
    if not isinstance(node, ast.Call):
        return None
    callee = _dotted(node.func)
    if callee is None:
        return None
    model = _dotted(node.args[0]) if node.args else _dotted(_keyword(node, "model") or node)
    return ViewCall(callee, model, _text(_keyword(node, "endpoint")),
                    _text(_keyword(node, "url")), node.lineno)  # fmt: skip


def admin_facts(tree: ast.Module) -> AdminFacts | None:
    """The Flask-Admin facts of a parsed file; None when it holds none. One walk of the tree:
    its imports, its `name = Admin(...)` candidates (kept where `Admin` is the library's, once
    the imports are known) and its `init_app`/`add_view` calls."""
    imports = False  # the file imports Flask-Admin: an `Admin` it calls is the library's
    makers = {SITE.maker}  # the names `Admin` is bound to (`from flask_admin import Admin as B`)
    exposers = {SITE.expose}  # and `expose` (`from flask_admin import expose as page`)
    made: list[tuple[str, str, ast.Call]] = []  # (name bound, callee's last name, the call)
    admins: list[AdminMake] = []
    add_views: list[AddView] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] == SITE.module:
                imports = True
                makers |= {a.asname for a in node.names if a.name == SITE.maker and a.asname}
                exposers |= {a.asname for a in node.names if a.name == SITE.expose and a.asname}
        elif isinstance(node, ast.Import):
            imports |= any(a.name.split(".")[0] == SITE.module for a in node.names)
        elif isinstance(node, ast.Assign):
            target = _dotted(node.targets[0]) if len(node.targets) == 1 else None
            if target is not None and isinstance(node.value, ast.Call):
                made.append(
                    (target, (_dotted(node.value.func) or "").rpartition(".")[2], node.value)
                )
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = _dotted(node.func.value)
            attr = node.func.attr
            if receiver is None:
                continue
            if attr == SITE.init_call and _keyword(node, "index_view") is not None:
                url = _keyword(node, "url")
                admins.append(AdminMake(receiver, _text(url),
                                        _view_call(_keyword(node, "index_view")), node.lineno,
                                        False))  # fmt: skip
            elif attr == SITE.add_calls[0] and node.args:
                add_views.append(AddView(receiver, _view_call(node.args[0]), node.lineno))
            elif attr == SITE.add_calls[1]:
                add_views += (AddView(receiver, _view_call(a), node.lineno) for a in node.args)
    if not imports:  # no Flask-Admin here: its classes expose nothing, its `Admin` is another
        exposers.clear()
        made.clear()
    for target, callee, value in made:
        if callee not in makers:
            continue
        url = value.args[SITE.maker_url] if len(value.args) > SITE.maker_url else None
        index = value.args[SITE.maker_index] if len(value.args) > SITE.maker_index else None
        url = url or _keyword(value, "url")
        index = index or _keyword(value, "index_view")
        admins.insert(0, AdminMake(target, _text(url), _view_call(index), value.lineno, True))
    classes: dict[str, AdminClass] = {}
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            methods = [
                i for i in statement.body if isinstance(i, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            exposed = tuple(e for m in methods for e in _exposed(m, frozenset(exposers)))
            classes[statement.name] = AdminClass(
                statement.lineno,
                frozenset(m.name for m in methods),
                exposed,
                _plugview_lines(statement),
            )
    if not any(c.exposed or c.plugviews for c in classes.values()) and not admins and not add_views:
        return None
    return AdminFacts(classes, tuple(admins), tuple(add_views), imports)


def join(prefix: str, rule: str) -> str:
    """Flask's join of a blueprint's `url_prefix` and a rule (`BlueprintSetupState`)."""
    if not rule:
        return prefix
    return "/".join((prefix.rstrip("/"), rule.lstrip("/")))


def view_url(admin_url: str, endpoint: str, url: str | None, index: bool) -> str:
    """`BaseView._get_view_url`."""
    if url is None:
        if admin_url != "/":
            return f"{admin_url}/{endpoint}"
        return "/" if index else f"/{endpoint}"
    return url if url.startswith("/") else f"{admin_url}/{url}"
