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
    MAX_STEPS,
    ClassDefaults,
    ClassFunction,
    Computation,
    NotEvaluated,
    Scope,
    class_function,
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


def _class_body(source: str) -> tuple[Scope, Computation, dict[str, ClassFunction | ast.expr]]:
    """The module scope, the `__tablename__` function and the `cls.<name>` attributes of the
    one class `source` defines (no class above it)."""
    scope, _ = module(source)
    klass = next(node for node in ast.parse(source).body if isinstance(node, ast.ClassDef))
    attributes: dict[str, ClassFunction | ast.expr] = {}
    for stmt in klass.body:
        if isinstance(stmt, ast.FunctionDef):
            attributes[stmt.name] = class_function(stmt)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            attributes[stmt.targets[0].id] = stmt.value
    tablename = attributes.pop("__tablename__")
    assert isinstance(tablename, ClassFunction)
    return scope, tablename.computation, attributes


def _run(source: str, class_name: str = "Shelf") -> str | None:
    scope, tablename, attributes = _class_body(source)
    return evaluate_marked(
        tablename,
        class_name,
        scope,
        attributes=lambda name: (attributes[name], scope) if name in attributes else None,
    ).name


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (  # a classmethod calling another with the class's own attribute
            "    flavor = 'Kiosk'\n"
            "    @classmethod\n    def head(cls):\n        return cls.flavor.lower() + '_'\n"
            "    @classmethod\n    def named(cls, stem):\n        return cls.head() + stem\n"
            "    def __tablename__(cls):\n        return cls.named('shelves')\n",
            "kiosk_shelves",
        ),
        (  # a staticmethod, `str.format` by position and by name, a keyword and a default
            "    @staticmethod\n    def glue(a, b, sep='-'):\n"
            "        return '{}{s}{}'.format(a, b, s=sep)\n"
            "    def __tablename__(cls):\n        return cls.glue(cls.__name__.title(), b='x')\n",
            "Shelf-x",
        ),
        (  # f-string, `%`, `join`, `replace`, `upper` through the class
            "    zone = 'north-east'\n"
            "    @classmethod\n    def z(cls):\n        return cls.zone.replace('-', '_').upper()\n"
            "    def __tablename__(cls):\n"
            "        return f'{cls.z()}_%s' % '_'.join(['a', 'b'])\n",
            "NORTH_EAST_a_b",
        ),
    ],
)
def test_classmethods_and_staticmethods_of_the_class_are_run(body: str, expected: str) -> None:
    """nyaa's `cls._table_prefix(cls.__tablename_base__)`: the class's own (or inherited)
    classmethods and staticmethods run with its attributes, str methods on the way."""
    assert _run(f"class Shelf:\n{body}") == expected


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (  # a plain method read through the class
            "    def head(self):\n        return 'x'\n",
            "reads `cls.head`, not a classmethod or staticmethod run here",
        ),
        (  # `*args`: not a signature a call here fills
            "    @classmethod\n    def head(cls, *parts):\n        return 'x'\n",
            "reads `cls.head`, not a classmethod or staticmethod run here",
        ),
        (  # a classmethod calling itself without end
            "    @classmethod\n    def head(cls):\n        return cls.head()\n",
            "calls nest too deep",
        ),
        (  # an attribute left None by the class
            "    flavor = None\n"
            "    @classmethod\n    def head(cls):\n        return cls.flavor.lower()\n",
            "cls.flavor.lower",
        ),
        (  # a format field that could pad without bound
            "    @classmethod\n    def head(cls):\n        return '{:>99999}'.format('x')\n",
            "`str.format` with a field other than a plain name",
        ),
        (  # a % width likewise
            "    @classmethod\n    def head(cls):\n        return '%99999s' % 'x'\n",
            "a % format with a width or precision",
        ),
        (  # a keyword the function does not take
            "    @classmethod\n    def head(cls, a='x'):\n        return a\n",
            "`cls.head` called with arguments it does not take",
        ),
    ],
)
def test_a_class_function_that_cannot_be_run_stops_with_the_reason(body: str, reason: str) -> None:
    call = "cls.head(b='y')" if "a='x'" in body else "cls.head()"
    source = f"class Shelf:\n{body}    def __tablename__(cls):\n        return {call}\n"
    with pytest.raises(NotEvaluated) as stopped:
        _run(source)
    assert reason in stopped.value.reason


def test_a_classmethod_called_again_with_the_same_arguments_is_not_run_again() -> None:
    """A name built from the same prefix call many times costs the steps of one: the result of
    a call that changes nothing is kept for the run (one costing a tenth of the step bound,
    called forty times)."""
    loop = "x" * (MAX_STEPS // 40)
    source = (
        "class Shelf:\n"
        f"    @classmethod\n    def slow(cls, s):\n        n = 0\n"
        f"        for c in '{loop}':\n            n = n + 1\n        return s\n"
        "    def __tablename__(cls):\n"
        "        return ''.join([cls.slow('ab')[0] for c in '" + "y" * 40 + "'])\n"
    )
    assert _run(source) == "a" * 40


def test_a_kept_result_is_not_reused_once_a_hook_renamed_the_class() -> None:
    """The same call after an `__init_subclass__` assigned `cls.__tablename__` reads the new
    name: a kept result belongs to the name the class held when it was computed."""
    source = (
        "class Base:\n"
        "    @classmethod\n    def tag(cls):\n        return 'p_' + cls.__tablename__\n"
        "    def __init_subclass__(cls):\n"
        "        cls.__tablename__ = cls.tag()\n        cls.__tablename__ = cls.tag()\n"
    )
    scope, _ = module(source)
    klass = ast.parse(source).body[0]
    assert isinstance(klass, ast.ClassDef)
    tag, hook = (s for s in klass.body if isinstance(s, ast.FunctionDef))
    attributes = {"tag": (class_function(tag), scope)}
    renamed = run_hook(
        from_function(hook), "Note", "x", scope, maps_in_super=False, attributes=attributes.get
    )
    assert renamed.name == "p_p_x"


def test_last_callee_names_what_a_call_calls_last() -> None:
    chained = ast.parse("a.b.c(1)").body[0]
    bare = ast.parse("f(1)").body[0]
    assert isinstance(chained, ast.Expr) and isinstance(chained.value, ast.Call)
    assert isinstance(bare, ast.Expr) and isinstance(bare.value, ast.Call)
    assert last_callee(chained.value) == "c"
    assert last_callee(bare.value) == "f"


def test_an_f_string_with_a_plain_format_spec_is_evaluated() -> None:
    """`f"{cls.__tablename__:s}_label"`, `{n:03d}`: a spec of fill, align, width and a str or
    int type is formatted; a computed spec (`{x:{w}}`) or another type is not evaluated."""

    def name(text: str) -> str | None:
        scope, _ = module("")
        return evaluate(from_expression(ast.parse(text, mode="eval").body), "Box", scope)

    assert name("f\"{'box':s}_label\"") == "box_label"
    assert name('f"t_{7:03d}"') == "t_007"
    with pytest.raises(NotEvaluated):
        name("f\"{'box':{3}}\"")
    with pytest.raises(NotEvaluated):
        name('f"{1.5:.2f}"')
