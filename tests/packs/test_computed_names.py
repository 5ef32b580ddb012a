"""`packs.computed_names`: the tiny interpreter that evaluates a computed `__tablename__` for
one class name without running it: what it follows (helpers, imported compiled patterns,
configuration defaults, settings classes, hooks), what it marks as assumed, and what stops it.
(tests/packs/test_pack_tables.py holds it to Python's own value on generated expressions.)"""

from __future__ import annotations

import ast
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.computed_names import (
    ClassDefaults,
    Computation,
    NotEvaluated,
    Scope,
    evaluate,
    evaluate_marked,
    from_expression,
    from_function,
    last_callee,
    run_hook,
)


def module(source: str) -> tuple[Scope, dict[str, Computation]]:
    """A module's scope as the table packs build it: its constants, imports and functions."""
    tree = ast.parse(source)
    constants = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    imports: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            imports.update({a.asname or a.name: a.name for a in node.names})
        elif isinstance(node, ast.ImportFrom):
            imports.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    functions = {
        node.name: from_function(node) for node in tree.body if isinstance(node, ast.FunctionDef)
    }

    def function(name: str) -> tuple[Computation, Scope] | None:
        return (functions[name], scope) if name in functions else None

    scope = Scope(constants, imports, function)
    return scope, functions


def test_a_helper_and_an_environment_default_are_followed_and_the_default_marked() -> None:
    scope, functions = module(
        "import os\nimport re\n\nPREFIX = os.environ.get('PREFIX', 'app_')\n\n"
        "def snake(name):\n    return re.sub('(?<!^)(?=[A-Z])', '_', name).lower()\n\n"
        "def tablename(cls):\n    return PREFIX + snake(cls.__name__)\n"
    )
    evaluated = evaluate_marked(functions["tablename"], "UserProfile", scope)
    assert evaluated.name == "app_user_profile"
    assert evaluated.assumed == ("os.environ.PREFIX",)  # the deployment may set another


def test_a_compiled_pattern_imported_from_another_module_is_evaluated() -> None:
    """Issue 34 class 9: `CAMEL_TO_SNAKE.sub(…)` with the pattern compiled in another module was
    a COMPUTED_TABLENAME; through `Scope.constant` it is the name."""
    names, _ = module("import re\nCAMEL = re.compile(r'(?<!^)(?=[A-Z])')\n")
    tree = ast.parse("def t(cls):\n    return CAMEL.sub('_', cls.__name__).lower()\n")
    (func,) = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    imported = {"CAMEL": "app.names.CAMEL"}

    def constant(name: str) -> tuple[ast.expr, Scope] | None:
        return (names.constants[name], names) if name == "CAMEL" else None

    scope = Scope({}, imported, lambda name: None, constant=constant)
    assert evaluate(from_function(func), "OrderLine", scope) == "order_line"
    blind = Scope({}, imported, lambda name: None)
    with pytest.raises(NotEvaluated) as stopped:
        evaluate(from_function(func), "OrderLine", blind)
    assert stopped.value.reason == "uses `app.names.CAMEL`"


def test_a_settings_class_default_is_read_and_marked_with_its_environment_variable() -> None:
    settings = ast.parse("table_prefix: str = 'tbl_'\n").body[0]
    assert isinstance(settings, ast.AnnAssign) and settings.value is not None
    defaults = ClassDefaults("Settings", {"table_prefix": settings.value}, True, "APP_")
    tree = ast.parse(
        "settings = Settings()\n\ndef t(cls):\n    return settings.table_prefix + cls.__name__.lower()\n"
    )
    made, func = tree.body
    assert isinstance(made, ast.Assign) and isinstance(func, ast.FunctionDef)

    def klass(name: str) -> tuple[ClassDefaults, Scope] | None:
        return (defaults, scope) if name == "Settings" else None

    scope = Scope({"settings": made.value}, {}, lambda name: None, klass=klass)
    evaluated = evaluate_marked(from_function(func), "User", scope)
    assert evaluated.name == "tbl_user"
    assert evaluated.assumed == ("Settings.table_prefix (env APP_TABLE_PREFIX)",)


def test_a_lambda_or_a_class_body_expression_is_a_computation_too() -> None:
    scope, _ = module("")
    lam = ast.parse("declared_attr(lambda cls: cls.__name__.lower() + 's')").body[0]
    assert isinstance(lam, ast.Expr)
    computation = from_expression(lam.value)
    assert computation.params == ("cls",)
    assert computation.text == "`cls.__name__.lower() + 's'`"
    assert evaluate(computation, "Order", scope) == "orders"
    plain = ast.parse("'audit_' + 'log'").body[0]
    assert isinstance(plain, ast.Expr)
    fixed = from_expression(plain.value)
    assert fixed.params == ()
    assert evaluate(fixed, "Whatever", scope) == "audit_log"


def test_has_inherited_table_and_the_classes_own_attributes() -> None:
    scope, functions = module(
        "from sqlalchemy.orm import has_inherited_table\n\n"
        "def t(cls):\n    if has_inherited_table(cls):\n        return None\n"
        "    return cls.__name__.lower()\n\n"
        "def short(cls):\n    return 'x_' + cls.short_name\n"
    )
    assert evaluate(functions["t"], "Engineer", scope) == "engineer"
    assert evaluate(functions["t"], "Engineer", scope, inherited_table=True) is None
    short_name = ast.parse("'sn'").body[0]
    assert isinstance(short_name, ast.Expr)
    attributes = {"short_name": (short_name.value, scope)}
    marked = evaluate_marked(functions["short"], "Z", scope, attributes=attributes.get)
    assert marked.name == "x_sn"
    with pytest.raises(NotEvaluated) as stopped:
        evaluate(functions["short"], "Z", scope)
    assert "reads `cls.short_name`" in stopped.value.reason


@pytest.mark.parametrize(
    ("maps_in_super", "mapped"),
    [(True, "item"), (False, "late")],  # DeclarativeBase maps at super(); a legacy base after
)
def test_an_init_subclass_hook_names_the_table_when_the_base_maps_it(
    maps_in_super: bool, mapped: str
) -> None:
    scope, functions = module(
        "def __init_subclass__(cls, **kw):\n    cls.__tablename__ = cls.__name__.lower()\n"
        "    super().__init_subclass__(**kw)\n    cls.__tablename__ = 'late'\n"
    )
    hook = functions["__init_subclass__"]
    assert run_hook(hook, "Item", None, scope, maps_in_super=maps_in_super).name == mapped


def test_a_hook_that_keeps_an_existing_name_and_one_that_sets_none() -> None:
    scope, functions = module(
        "def __init_subclass__(cls):\n    if not hasattr(cls, '__tablename__'):\n"
        "        cls.__tablename__ = cls.__name__.lower() + 's'\n"
    )
    hook = functions["__init_subclass__"]
    assert run_hook(hook, "Tag", None, scope, maps_in_super=False).name == "tags"
    assert run_hook(hook, "Tag", "labels", scope, maps_in_super=False).name == "labels"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("    while True:\n        pass\n", "`while` statement at line 2"),
        ("    return 3\n", "it returns a int, not a str"),
        ("    raise ValueError('no')\n", "`raise` statement at line 2"),
        ("    return requests.get('x').text\n", "`requests` is not visible"),
    ],
)
def test_what_the_interpreter_does_not_know_stops_it_with_the_reason(
    body: str, reason: str
) -> None:
    scope, functions = module("def t(cls):\n" + body)
    with pytest.raises(NotEvaluated) as stopped:
        evaluate(functions["t"], "Z", scope)
    assert reason in stopped.value.reason


def test_last_callee_names_what_a_call_calls_last() -> None:
    chained = ast.parse("a.b.c(1)").body[0]
    bare = ast.parse("f(1)").body[0]
    assert isinstance(chained, ast.Expr) and isinstance(chained.value, ast.Call)
    assert isinstance(bare, ast.Expr) and isinstance(bare.value, ast.Call)
    assert last_callee(chained.value) == "c"
    assert last_callee(bare.value) == "f"
