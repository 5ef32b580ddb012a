"""pack-http-routes: a parameter's default is evaluated in the scope that encloses its def.
`def helper(mode=mode)` inside a view reads the view's `mode`; read in the def's own scope
it was the parameter itself, read as itself without end (a `RecursionError` that lost every
route of the file as a `parse-error` at line 1). The other places a name is bound to what the
same name reads (a lambda's default, a class body's `x = x`, a comprehension's target named as
an outer name) read without a loop too; a file the reader still cannot follow is a
`parse-error` at the statement it was reading."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes import python_facts as python_facts_module  # noqa: E402
from packs.routes.python_facts import python_facts  # noqa: E402
from packs.scan_read import ParseFailure  # noqa: E402
from routes_harness import document, finding_places, names  # noqa: E402

NESTED_DEFAULT = """\
from flask import Flask

app = Flask(__name__)


@app.route("/report")
def report():
    mode = "summary"

    def render(mode=mode, *, title=mode):
        return mode + title

    return render()


@app.route("/health")
def health():
    return "ok"
"""

TWO_LEVELS = """\
from flask import Flask

app = Flask(__name__)


@app.route("/tree")
def tree(depth=1):
    def walk(depth=depth):
        def leaf(depth=depth):
            return depth

        return leaf()

    return str(walk())
"""

MODULE_DEFAULT = """\
from flask import Flask

app = Flask(__name__)
prefix = "/api"


def add(rule, prefix=prefix, *, tail=prefix):
    app.add_url_rule(prefix + rule + tail, view_func=items)


def items():
    return "items"


add("/items")
"""

CLASS_BODY = """\
from flask import Flask

app = Flask(__name__)
prefix = "/api"


class Routes:
    prefix = prefix

    def attach(self, prefix=prefix):
        app.add_url_rule(prefix + "/items", view_func=items)


@app.route("/items")
def items():
    return "items"
"""

LAMBDA_DEFAULT = """\
from flask import Flask

app = Flask(__name__)


@app.route("/pick")
def pick():
    mode = "first"
    choose = lambda mode=mode: mode
    return choose()


def add(prefix):
    scoped = lambda prefix=prefix: prefix
    app.add_url_rule(scoped() + "/more", view_func=pick)
"""

COMPREHENSION_TARGET = """\
from flask import Flask

app = Flask(__name__)
rule = "/one"


def register(rule):
    rules = [rule for rule in ("/a", "/b")]
    for each in [rule + "/x" for rule in rules]:
        app.add_url_rule(each, view_func=view)


@app.route(rule)
def view():
    return "v"
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [(NESTED_DEFAULT, {"GET /report", "GET /health"}), (TWO_LEVELS, {"GET /tree"})],
    ids=["nested-default", "two-levels"],
)
def test_a_nested_def_s_default_named_as_an_enclosing_local_loses_no_route(
    source: str, expected: set[str]
) -> None:
    """It was a `RecursionError` on the whole file: no route of it listed."""
    files = {"app.py": source}
    assert names(files) == expected
    assert document(files)["findings"] == []


def test_a_default_reads_the_module_s_name_it_shadows() -> None:
    """`def add(rule, prefix=prefix)` at module level: the default is the module's `prefix`,
    positional or keyword-only."""
    assert names({"app.py": MODULE_DEFAULT}) == {"GET /api/items/api"}


def test_a_method_s_default_named_as_a_class_attribute_is_read_without_a_loop() -> None:
    """The class body's `prefix = prefix` and the method's `prefix=prefix`: the file is read,
    the method's registration (called nowhere the scan sees) a finding at it."""
    files = {"app.py": CLASS_BODY}
    assert names(files) == {"GET /items"}
    assert finding_places(files).get("UNRESOLVED_ROUTE") == ["app.py:11"]


def test_a_lambda_s_default_named_as_the_name_it_reads_is_read_without_a_loop() -> None:
    files = {"app.py": LAMBDA_DEFAULT}
    assert names(files) == {"GET /pick"}
    assert "parse-error" not in finding_places(files)


def test_a_comprehension_target_named_as_an_outer_name_is_read_without_a_loop() -> None:
    files = {"app.py": COMPREHENSION_TARGET}
    assert "GET /one" in names(files)
    assert "parse-error" not in finding_places(files)


def test_a_recursion_the_reader_cannot_follow_is_a_failure_at_its_statement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not line 1: the statement being read when it gave up (`scan_read` reports a
    `ParseFailure` as `parse-error` at its line)."""
    reader = python_facts_module._Reader
    statement = reader._statement

    def deep(self: object, stmt: ast.stmt, scope: object) -> None:
        if stmt.lineno == 17:  # `def health()`, decorated: a route
            raise RecursionError("maximum recursion depth exceeded")
        statement(self, stmt, scope)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "_statement", deep)
    with pytest.raises(ParseFailure) as failure:
        python_facts(NESTED_DEFAULT, "app.py")
    assert (failure.value.line, failure.value.message) == (17, "RecursionError")
